"""Taking a move back, in casual games of games without chance or hidden cards.

Against the AI, **↩️ Take back** undoes the member's last decision and the AI's reply at
once. Between two people, it asks: the request is posted in the thread with **Accept** and
**Decline** for the opponent, and stands until they answer, the asker withdraws it
(Decline), or the opponent plays instead. Its buttons carry the asker's seat and the ply
they were posted at, so a restart loses nothing and a move makes them out of date. The
game session applies all of this; this module holds the names and the texts.
"""

from __future__ import annotations

from enum import Enum, StrEnum
from typing import Any

import discord

from bot.ai_players import is_ai
from bot.components import GameButton
from bot.games.base import GameUI, Table, marked_names
from bot.publisher import Post
from i18n import _
from storage import GameRecord


class TakebackAction(StrEnum):
    """The take-back buttons' actions (in their custom_id)."""

    ASK = "take_back"
    """The board's button: take back at once (against the AI), or ask the opponent."""
    ACCEPT = "takeback_yes"
    """The request's button: the opponent agrees."""
    DECLINE = "takeback_no"
    """The request's button: the opponent refuses (the asker: withdraws it)."""


class TakebackMode(Enum):
    """How a game takes moves back."""

    AT_ONCE = "at_once"
    """One person against the AI: nobody to ask."""
    BY_ASKING = "by_asking"
    """Two people: the opponent must agree."""


class TakebackOutcome(StrEnum):
    """What became of a click on Take back or on a request."""

    TAKEN_BACK = "taken_back"
    ASKED = "asked"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"
    LAPSED = "lapsed"
    """The opponent played instead of answering, or the game ended."""


def takeback_mode(record: GameRecord, ui: GameUI[Any]) -> TakebackMode | None:
    """How moves are taken back in this game, or None where they are not: a casual game of
    a game without chance or hidden cards, one person against the AI or two people."""
    if not (ui.takebacks and record.casual):
        return None
    people = [seat for seat in record.seats if not is_ai(seat.user_id)]
    if any(seat.stand_in is not None for seat in people):
        return None  # a seat the AI took over has nobody left to ask or to answer
    if len(people) == 1:
        return TakebackMode.AT_ONCE
    if len(people) == 2 == len(record.seats):
        return TakebackMode.BY_ASKING
    return None


def request_post(table: Table[Any], asker: int, move: str) -> Post:
    """The public request in the thread: who asks to take back which move, the buttons."""
    other = 1 - asker
    content = _("↩️ **{name}** asks to take back their move `{move}`. <@{user}>: **Accept** "
                "returns to the position before it; **Decline**, or your next move, turns it "
                "down.").format(name=marked_names(table)[asker], move=move,
                                user=table.record.user_at(other))
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(table.id, table.ply, TakebackAction.ACCEPT, str(asker),
                             label=_("Accept"), style=discord.ButtonStyle.success, emoji="↩️"))
    view.add_item(GameButton(table.id, table.ply, TakebackAction.DECLINE, str(asker),
                             label=_("Decline"), style=discord.ButtonStyle.secondary))
    return Post(content=content, view=view, mentions=discord.AllowedMentions(users=True))


def request_outcome_text(table: Table[Any], asker: int, outcome: TakebackOutcome) -> str:
    """What the request's message says once it no longer stands."""
    names = marked_names(table)
    name, other = names[asker], names[1 - asker]
    if outcome is TakebackOutcome.TAKEN_BACK:
        text = _("↩️ **{other}** agreed: **{name}** took their move back.")
    elif outcome is TakebackOutcome.DECLINED:
        text = _("↩️ **{other}** declined **{name}**'s request to take a move back. Play on!")
    elif outcome is TakebackOutcome.WITHDRAWN:
        text = _("↩️ **{name}** withdrew their request to take a move back.")
    else:
        text = _("↩️ **{name}**'s request to take a move back lapsed: the game went on.")
    return text.format(name=name, other=other)
