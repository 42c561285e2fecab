"""The board message: picture, caption, whose turn, and the live components."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import discord
from discord.utils import escape_markdown

from bot.ai_players import is_ai
from bot.clock import clock_spec, utcnow
from bot.components import GameButton
from bot.draw_offers import DrawAction, draws_possible
from bot.games.base import (
    GameUI,
    Table,
    describe_options,
    marked_names,
    marked_title,
    names_text,
)
from bot.games.common import leaves_instead_of_resigning
from bot.publisher import POST_PERMISSIONS, Post, Problem, PublishFailed, permission_names
from bot.ratings import changes_line
from bot.takebacks import TakebackAction, takeback_mode
from engines import GAMES, Result
from i18n import _
from storage import MoveKind, MoveRecord, NewMove, RatingChange

BOARD_FILENAME = "board.png"
EMBED_DESCRIPTION_LIMIT = 4096
"""Discord's limit on an embed's description."""
ALT_TEXT_LIMIT = 1024
"""Discord's limit on an attachment's description (the alt text screen readers say)."""
MARKS = re.compile(r"\\(.)|\*\*", re.DOTALL)
"""What alt text leaves out of markdown: bold marks, and the backslash `escape_markdown` puts
before a character (a backslash of the text is escaped too, so it is kept)."""


def last_shown_move(moves: Sequence[NewMove | MoveRecord]) -> str | None:
    """The move to highlight: the last decision, else the last move the bot made for a
    player (a forced reply after a decision must not take its highlight)."""
    for kinds in ((MoveKind.PLAYER,), (MoveKind.FORCED,)):
        for move in reversed(moves):
            if move.kind in kinds:
                return move.move
    return None


async def draw_board(table: Table[Any], highlight: str | None) -> bytes:
    """The board as PNG bytes, drawn from the spectator's view off the event loop."""
    return await table.draw(table.state.view(None), highlight)


def mention(table: Table[Any], seat: int) -> str:
    """A mention of the member at `seat` (an AI seat is named: it has no account)."""
    user_id = table.record.user_at(seat)
    return marked_names(table)[seat] if is_ai(user_id) else f"<@{user_id}>"


def fitted_log(lines: Sequence[str], kept_at_top: int = 0) -> str:
    """`lines` joined, the oldest left out whole after the first `kept_at_top` (a "…" line
    standing for them) until they fit an embed's description: a line cut in two could break
    its **bold** and would read as a different event."""
    text = "\n".join(lines)
    if len(text) <= EMBED_DESCRIPTION_LIMIT:
        return text
    top, log = list(lines[:kept_at_top]), list(lines[kept_at_top:])
    while len(log) > 1:
        log.pop(0)
        text = "\n".join([*top, "…", *log])
        if len(text) <= EMBED_DESCRIPTION_LIMIT:
            return text
    # A last line longer than the whole limit on its own: its end is what matters.
    return "…" + text[-(EMBED_DESCRIPTION_LIMIT - 1):]


def board_post(
    table: Table[Any], ui: GameUI[Any], moves: Sequence[NewMove], png: bytes, *,
    decisions: int = 0, show_options: bool = False,
    rating_changes: Mapping[int, RatingChange] | None = None, best_names: Sequence[str] = (),
) -> Post:
    """The board after `moves` (what its player has not seen yet): that log, whose turn it
    is (or the result, with what it did to the ratings), the picture, the controls; the
    footer counts decisions, not automatic steps."""
    lines = ui.summarize(table, moves)
    if show_options and table.record.options:  # the first board, and reposts
        lines.insert(0, _("*Options: {options}*").format(
            options=describe_options(ui.game, table.record.options)))
    result = table.result()
    mover = table.state.current_player
    if result is not None:
        lines.append(f"**{ui.result_text(table, result)}**")
        if table.record.casual:
            lines.append(_("A casual game: no rating changed."))
        lines.append(changes_line(
            [(table.record.user_at(s), table.names[s]) for s in range(len(table.names))],
            rating_changes or {}))
        if best_names:
            lines.append(_("🏅 A new best rating for {names}!").format(
                names=names_text(best_names)))
        content = " ".join(mention(table, s) for s in range(len(table.names)))
    else:
        lines.append(_("{badge} **{name}** to play.").format(
            badge=ui.seat_badge(mover), name=marked_names(table)[mover]))
        deadline = table.record.deadline
        if deadline is not None:
            lines.append(deadline_line(table, mover, deadline))
        content = _("{mention}, your turn.").format(mention=mention(table, mover))
    # The options line heads the first board: it stays, the oldest log lines go first.
    description = fitted_log([line for line in lines if line],
                             kept_at_top=1 if show_options and table.record.options else 0)
    embed = discord.Embed(title=marked_title(table), description=description,
                          colour=ui.colour(result, mover))
    embed.set_image(url=f"attachment://{BOARD_FILENAME}")
    status = ui.status(table)  # once: the footer and the alt text both say it
    footer = (_("Game #{id} (casual) · move {move} · {status}") if table.record.casual
              else _("Game #{id} · move {move} · {status}"))
    embed.set_footer(text=footer.format(id=table.id, move=decisions, status=status))
    view = discord.ui.View(timeout=None)
    if result is None:
        for item in ui.board_items(table):
            view.add_item(item)
        view.add_item(GameButton(table.id, None, "resign", label=leave_label(table),
                                 style=discord.ButtonStyle.secondary, emoji="🏳️", row=4))
        if draws_possible(table.record):
            view.add_item(GameButton(table.id, None, DrawAction.OFFER, label=_("Offer draw"),
                                     style=discord.ButtonStyle.secondary, emoji="🤝", row=4))
        # These games are new to most players: the rules, privately, for anyone, mid-game.
        view.add_item(GameButton(table.id, None, "rules", label=_("Rules"),
                                 style=discord.ButtonStyle.secondary, emoji="📖", row=4))
        if table.record.casual:  # a rated game is played unaided
            view.add_item(GameButton(table.id, None, "hint", label=_("Hint"),
                                     style=discord.ButtonStyle.secondary, emoji="💡", row=4))
        if decisions and takeback_mode(table.record, ui) is not None:
            # Bound to this board: a double click takes back one move, not two.
            view.add_item(GameButton(table.id, table.ply, TakebackAction.ASK,
                                     label=_("Take back"),
                                     style=discord.ButtonStyle.secondary, emoji="↩️", row=4))
    else:
        view.add_item(GameButton(table.id, None, "rematch", label=_("Rematch"),
                                 style=discord.ButtonStyle.primary, emoji="🔁"))
    return Post(content=content, embed=embed,
                files=[discord.File(io.BytesIO(png), filename=BOARD_FILENAME,
                                    description=board_alt_text(table, ui, result, status))],
                view=view, mentions=discord.AllowedMentions(users=True))


def deadline_line(table: Table[Any], mover: int, deadline: datetime) -> str:
    """When the time of the move runs out; for a player away (`/away`), when it starts."""
    per_move = clock_spec(table.record.clock).per_move
    starts = deadline - per_move if per_move is not None else deadline
    if starts > utcnow():
        return _("🏖️ {name} is away: their time starts when they are back, {starts}, and runs "
                 "out {relative} ({date}).").format(
            name=marked_names(table)[mover], starts=discord.utils.format_dt(starts, "R"),
            relative=discord.utils.format_dt(deadline, "R"),
            date=discord.utils.format_dt(deadline, "f"))
    return _("⏰ Time runs out {relative} ({date}).").format(
        relative=discord.utils.format_dt(deadline, "R"),
        date=discord.utils.format_dt(deadline, "f"))


def board_alt_text(table: Table[Any], ui: GameUI[Any], result: Result | None,
                   status: str) -> str:
    """What the board's picture shows, for screen readers: the game, whose turn it is (or
    how it ended) and the footer's counts (`status`)."""
    if result is not None:
        state = ui.result_text(table, result)
    else:
        state = _("{name} to play.").format(
            name=marked_names(table)[table.state.current_player])
    # Written in markdown, as the result is, then read out whole by `alt_text`.
    return alt_text(_("Board of {title}: {state} {status}.").format(
        title=marked_title(table), state=state, status=escape_markdown(status)))


def alt_text(text: str) -> str:
    """Markdown `text` as it reads, within Discord's limit on an attachment's description:
    without bold marks or the backslashes of escaped names (a screen reader would say them)."""
    text = MARKS.sub(lambda mark: mark.group(1) or "", text)
    return text if len(text) <= ALT_TEXT_LIMIT else text[:ALT_TEXT_LIMIT - 1] + "…"


def leave_label(table: Table[Any]) -> str:
    """`Resign`, or `Leave` where the AI would take the seat and the others play on."""
    return _("Leave") if leaves_instead_of_resigning(table.record) else _("Resign")


def timeout_choice_post(table: Table[Any], absent: int, others: Sequence[int]) -> Post:
    """What the others may do once `absent` ran out of time (a two-player game)."""
    name = marked_names(table)[absent]
    content = "\n".join((
        _("⏰ **{name}** ran out of time in **{title}**. {others}, what now?").format(
            name=name, title=marked_title(table),
            others=" ".join(mention(table, s) for s in others)),
        _("🏆 **Claim the win**: the game ends and counts for the ratings."),
        _("🤖 **Let the AI play** for {name} until the end: the game counts for no "
          "rating.").format(name=name),
        _("⏳ **Keep waiting**: {name} gets another period.").format(name=name),
        _("If {name} plays before anyone chooses, the game simply goes on.").format(name=name)))
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(table.id, table.ply, "claim_win", label=_("Claim the win"),
                             style=discord.ButtonStyle.success, emoji="🏆"))
    view.add_item(GameButton(table.id, table.ply, "let_ai_play",
                             label=_("Let the AI play for {name}").format(
                                 name=table.names[absent])[:80],
                             style=discord.ButtonStyle.primary, emoji="🤖"))
    view.add_item(GameButton(table.id, table.ply, "keep_waiting", label=_("Keep waiting"),
                             style=discord.ButtonStyle.secondary, emoji="⏳"))
    return Post(content=content, view=view, mentions=discord.AllowedMentions(users=True))


def game_title(game_id: str, names: Sequence[str], *, tournament: bool = False) -> str:
    """`Qawale · Alice vs Bob`, `🏆 Qawale · Alice vs Bob` for a tournament's game (at most
    100 characters, Discord's limit for a thread name)."""
    title = f"{'🏆 ' if tournament else ''}{GAMES[game_id].name} · {' vs '.join(names)}"
    return title if len(title) <= 100 else title[:99] + "…"


def channel_link(guild_id: int | None, channel_id: int) -> str:
    """A jump link to a channel or thread."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"


def message_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """A jump link to a message."""
    return f"{channel_link(guild_id, channel_id)}/{message_id}"


def why_no_board(failure: PublishFailed, where: str) -> str:
    """Why a board could not be posted, and what happens next (a clause, lower case), in the
    current language."""
    if failure.problem is Problem.MISSING_PERMISSIONS:
        needed = permission_names(failure.missing) or permission_names(POST_PERMISSIONS)
        return _("I cannot post the board in {where}: I need the {needed} permission there. "
                 "Ask a moderator; the board appears as soon as I can post it.").format(
                     where=where, needed=needed)
    if failure.problem is Problem.ARCHIVED:
        return _("{where} is archived or locked, so I cannot post the board. Ask a moderator "
                 "to reopen it; the board appears then.").format(where=where)
    return _("Discord did not take the board. I will post it again shortly; `/board` shows "
             "it too.")
