"""Lists of games in progress: a member's own (`/mygames`) and a server's (`/live`), each
line a link to the game's board, as many lines as fit one embed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import discord

from bot.ai_players import shown_name
from bot.board import EMBED_DESCRIPTION_LIMIT, channel_link, message_link
from engines import GAMES
from i18n import _, ngettext
from storage import RunningGame, Seat

LISTED = 25
"""Games in progress a list shows at most (it counts the others)."""

MORE_LINE_ROOM = 80
"""Characters kept free for the line that counts the games not listed."""

NAMES_LIMIT = 60
"""Characters of players' names on one line (five players are many)."""


def game_name(game: str) -> str:
    """The game's name (its id when it is not a known game)."""
    return GAMES[game].name if game in GAMES else game


def clip(text: str, limit: int) -> str:
    """`text`, cut with an ellipsis to at most `limit` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def link_names(seats: Iterable[Seat]) -> str:
    """Players' names, as the text of a masked link: an AI's in the current language, no
    bracket that would end the link's text, no markdown, at most `NAMES_LIMIT` long."""
    names = (discord.utils.escape_markdown(
        shown_name(s.user_id, s.display_name).replace("[", "(").replace("]", ")"))
        for s in seats)
    return clip(", ".join(names), NAMES_LIMIT)


def board_link(game: RunningGame) -> str:
    """A jump link to the game's current board (to its thread before the first board)."""
    if game.board_message_id:
        return message_link(game.guild_id, game.channel_id, game.board_message_id)
    return channel_link(game.guild_id, game.channel_id)


def to_play(game: RunningGame) -> str:
    """`Bob to play`, or `In progress` when the seat to move is not known."""
    if game.to_move is not None and 0 <= game.to_move < len(game.seats):
        seat = game.seats[game.to_move]
        return _("{name} to play").format(name=discord.utils.escape_markdown(
            shown_name(seat.user_id, seat.display_name)))
    return _("In progress")


def running_line(game: RunningGame, user_id: int) -> str:
    """`**Your turn** · [#12 Qawale vs Bob](link to its board) · ⏰ in 3 hours`."""
    turn = _("**Your turn**") if game.waits_for(user_id) else to_play(game)
    others = link_names(s for s in game.seats if s.user_id != user_id)
    line = _("{turn} · [#{id} {game} vs {others}]({link})").format(
        turn=turn, id=game.id, game=game_name(game.game), others=others, link=board_link(game))
    if game.deadline is not None:
        line += " · ⏰ " + discord.utils.format_dt(game.deadline, "R")
    return line


def live_line(game: RunningGame) -> str:
    """`[#12 Qawale: Alice, Bob](link to its board) · Bob to play · last move 2 minutes ago`."""
    return _("[#{id} {game}: {players}]({link}) · {turn} · last move {when}").format(
        id=game.id, game=game_name(game.game), players=link_names(game.seats),
        link=board_link(game), turn=to_play(game),
        when=discord.utils.format_dt(game.updated_at, "R"))


def fitted(lines: Sequence[str], total: int) -> str:
    """`lines`, as many as fit an embed's description, then how many of the `total` games
    were left out."""
    kept: list[str] = []
    size = 0
    for index, line in enumerate(lines):
        left = total - index - 1
        # Room for this line and, if games remain after it, the line that counts them.
        room = EMBED_DESCRIPTION_LIMIT - (MORE_LINE_ROOM if left else 0)
        if size + len(line) + 1 > room:
            break
        kept.append(line)
        size += len(line) + 1
    if total > len(kept):
        more = total - len(kept)
        kept.append(ngettext("…and {n} more game in progress.", "…and {n} more games in "
                             "progress.", more).format(n=more))
    return "\n".join(kept)


def running_description(games: Sequence[RunningGame], total: int, user_id: int) -> str:
    """The lines of `/mygames`, as many as fit Discord's limit, then how many are left."""
    return fitted([running_line(game, user_id) for game in games], total)


def live_description(games: Sequence[RunningGame], total: int) -> str:
    """The lines of `/live`, as many as fit Discord's limit, then how many are left."""
    return fitted([live_line(game) for game in games], total)


def watchable_homes(guild: discord.Guild, member: discord.Member) -> list[int]:
    """The channels whose games `member` may watch: the channels they can see, and the
    public threads among those (a game without its own thread runs in its channel)."""
    channels = [channel for channel in guild.channels
                if channel.permissions_for(member).view_channel]
    threads = [thread for thread in guild.threads
               if thread.type is not discord.ChannelType.private_thread
               and thread.permissions_for(member).view_channel]
    return [channel.id for channel in channels] + [thread.id for thread in threads]
