"""What `/games` and `/rules` tell: the list of games and each game's rules, as embeds.

They are built here (not in the cog) because the Share button posts the same embed again,
from the router, after a restart as well. Both are written in the current language: the
member's for the private answer, the server's for a shared copy. The games' texts (`pitch`,
`rules`, `players`) are marked where they are defined and translated here, as shown.
"""

from __future__ import annotations

import discord

from bot.errors import Refusal
from bot.games import GAME_UIS
from bot.games.base import players_text
from engines import GAMES
from i18n import _

GAME_NAME_SHOWN = 50
"""Characters of an unknown game's name repeated in a refusal."""


def games_embed() -> discord.Embed:
    """The games with their players and a one-line pitch; which are coming soon."""
    embed = discord.Embed(title="🎲 Ludothèque", colour=discord.Colour.blurple(),
                          description=_("Challenge someone with `/challenge`; rules with "
                                        "`/rules`."))
    for ui in GAME_UIS.values():
        embed.add_field(name=f"{ui.name} ({_(ui.players)})", value=_(ui.pitch), inline=False)
    for game_id, game in GAMES.items():
        if game_id not in GAME_UIS:
            embed.add_field(name=_("{game} ({players}) · *coming soon*").format(
                                game=game.name, players=_(players_text(game))),
                            value=_("Not playable here yet."), inline=False)
    return embed


def rules_embed(game: str) -> discord.Embed:
    """A readable summary of one game's rules; a Refusal for an unknown game."""
    ui = GAME_UIS.get(game)
    if ui is None:
        raise Refusal(_("There is no game called {game}. See `/games`.").format(
            game=repr(game[:GAME_NAME_SHOWN])))
    return discord.Embed(title=f"{ui.name} · {_(ui.players)}", description=_(ui.rules),
                         colour=discord.Colour.blurple())
