"""What `/help`, `/games` and `/rules` tell: the commands, the list of games and each game's
rules, as embeds.

They are built here (not in the cog) because the Share button posts the same embed again,
from the router, after a restart as well. Both are written in the current language: the
member's for the private answer, the server's for a shared copy. Under a game's rules comes
a picture of its starting position, drawn by the painter in that language too. The games'
texts (`pitch`, `rules`, `players`) are marked where they are defined and translated here,
as shown.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from datetime import datetime
from importlib import metadata

import discord

from bot.board import alt_text
from bot.errors import Refusal
from bot.games import GAME_UIS
from bot.games.base import players_text
from bot.painter import Painter
from engines import GAMES
from i18n import N_, _, count_text
from renderers.encoding import seeded_position
from storage import Totals

REQUIRED_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True,
    create_public_threads=True, embed_links=True, attach_files=True, read_message_history=True,
)
"""What the bot needs in a channel to run games there (the invite link asks for these)."""

GAME_NAME_SHOWN = 50
"""Characters of an unknown game's name repeated in a refusal."""

START_PICTURE = "start.png"
"""The attachment showing a game's starting position under its rules."""


HELP_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("Start a game"), ("challenge", "lobby", "tournament", "games", "rules")),
    (N_("During a game"), ("move", "board", "draw", "resign", "abort")),
    (N_("Your games and records"),
     ("mygames", "live", "leaderboard", "stats", "serverstats", "history", "replay")),
    (N_("Settings"), ("settings", "away", "block", "unblock", "privacy", "help", "about")),
)
"""The commands `/help` lists, by what a member wants to do (a test keeps every command in)."""


def help_embed(descriptions: Mapping[str, str]) -> discord.Embed:
    """The bot's commands by section, each with its description (`descriptions`, by
    command name, in English: translated here), and how a game is played."""
    embed = discord.Embed(
        title=_("🎲 Ludothèque · help"), colour=discord.Colour.blurple(),
        description=_("Play {games} with the members of this server, or against the AI. Each "
                      "game gets its own thread; you play with the buttons and menus under its "
                      "board (typing `/move` is never needed).").format(
            games=", ".join(ui.name for ui in GAME_UIS.values())))
    for section, names in HELP_SECTIONS:
        lines = [f"`/{name}` · {_(descriptions[name])}" for name in names if name in descriptions]
        if section == HELP_SECTIONS[0][0]:
            lines.append(_("Or right-click a member (press and hold on a phone) → **Apps** → "
                           "**Challenge to a game**. `rated:` **Casual** plays for no rating."))
        elif section == HELP_SECTIONS[1][0]:
            lines.append(_("Under each board: its controls, **Resign**, **Offer draw** and "
                           "**📖 Rules** (the rules, privately, for anyone); in a casual game, "
                           "**💡 Hint** (the Hard AI's move, privately), and in Qawale or "
                           "Granat **↩️ Take back** (the opponent is asked; the AI agrees)."))
        if lines:
            embed.add_field(name=_(section), value="\n".join(lines), inline=False)
    return embed


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


def start_view(game: str) -> Mapping[str, object]:
    """A game's starting position with its fewest players, as everyone sees it (any deal
    drawn with a fixed seed, so the rules always show the same picture)."""
    engine = GAMES[game]
    state, _last = seeded_position(engine, engine.min_players, 0, seed=1)
    view: Mapping[str, object] = state.view(None)
    return view


async def with_start_picture(embed: discord.Embed, game: str,
                             painter: Painter) -> discord.File:
    """Draw `game`'s starting position (in the current language; the players are "Player 1",
    "Player 2"…) and show it as `embed`'s image: the file to send with it."""
    png = await painter.paint(start_view(game), None)
    embed.set_image(url=f"attachment://{START_PICTURE}")
    return discord.File(io.BytesIO(png), filename=START_PICTURE, description=alt_text(
        _("The starting position of {game}.").format(game=GAME_UIS[game].name)))


def welcome_embed() -> discord.Embed:
    """The message posted once when the bot joins a server: how to start a game, and what
    the server's managers may set."""
    embed = discord.Embed(
        title=_("🎲 Thanks for inviting Ludothèque!"), colour=discord.Colour.blurple(),
        description=_("Play {games} here, with each other or against the AI. Each game gets "
                      "its own thread, with its board and the buttons to play.").format(
            games=", ".join(ui.name for ui in GAME_UIS.values())))
    embed.add_field(name=_("Start a game"), inline=False, value=_(
        "`/challenge` a member (name me to play the AI), open a table anyone can join with "
        "`/lobby`, or a `/tournament` (3 to 32 players). `/games` lists the games and `/rules` "
        "explains one."))
    embed.add_field(name=_("For the server's managers"), inline=False, value=_(
        "`/settings language:` English or Français · `clock:` the time per move of new games "
        "(Daily unless changed) · `lobby_role:` a role pinged when a table opens · "
        "`recap_channel:` where each month's recap goes."))
    embed.set_footer(text=_("/help lists every command."))
    return embed


def about_embed(totals: Totals, started: datetime, version: str) -> discord.Embed:
    """What `/about` shows: the bot, its games, what it has seen, since when it runs."""
    embed = discord.Embed(
        title="🎲 Ludothèque", colour=discord.Colour.blurple(),
        description=_("Five French tabletop games on Discord: {games}. Play them with each "
                      "other or against the AI, each game in its own thread.").format(
            games=", ".join(ui.name for ui in GAME_UIS.values())))
    embed.add_field(name=_("Games"), value=_("{running} in progress · {finished} finished").format(
        running=count_text(totals.running), finished=count_text(totals.finished)))
    embed.add_field(name=_("Players"), value=count_text(totals.players))
    embed.add_field(name=_("Servers"), value=count_text(totals.servers))
    embed.add_field(name=_("Running since"), value=discord.utils.format_dt(started, "R"))
    embed.set_footer(text=_("Version {version} · /help lists every command.").format(
        version=version))
    return embed


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server, with the permissions it needs."""
    return discord.utils.oauth_url(application_id, permissions=REQUIRED_PERMISSIONS,
                                   scopes=("bot", "applications.commands"))


def bot_version() -> str:
    """The installed version of the bot ("dev" when run from a checkout not installed)."""
    try:
        return metadata.version("ludotheque")
    except metadata.PackageNotFoundError:
        return "dev"
