"""Draw offers between the two people of a game: who may offer, the offer's message, its end.

A player offers a draw with the board's **Offer draw** button; the offer is posted in the
thread with **Accept the draw** and **Decline**. It stands (stored with the game, so a
restart keeps it) until the other player answers, the offerer withdraws it (Decline), or the
other player makes a move of their own, as on Lichess. Offering while the other's offer
stands agrees the draw at once. An agreed draw is rated as a draw. The game session applies
all of this; this module holds the names and the texts.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import discord

from bot.ai_players import is_ai
from bot.components import GameButton
from bot.games.base import Table, marked_names
from bot.publisher import Post
from i18n import _
from storage import GameRecord


class DrawAction(StrEnum):
    """The draw buttons' actions (in their custom_id)."""

    OFFER = "draw_offer"
    """The board's button: offer a draw (or agree to the other's standing offer)."""
    ACCEPT = "draw_accept"
    """The offer's button: accept it."""
    DECLINE = "draw_decline"
    """The offer's button: decline it (its maker: withdraw it)."""


class DrawOutcome(StrEnum):
    """What became of an offer after a click or a move."""

    OFFERED = "offered"
    AGREED = "agreed"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"
    LAPSED = "lapsed"
    """The other player moved instead of answering."""
    ENDED = "ended"
    """The game ended otherwise (a resignation, the clock, the rules) while it stood."""


def draws_possible(record: GameRecord) -> bool:
    """True when the players may agree a draw: two seats, both played by people (the AI
    neither offers nor answers, and a seat it stands in for is no longer a person's)."""
    return len(record.seats) == 2 and not any(
        is_ai(seat.user_id) or seat.stand_in is not None for seat in record.seats)


def offer_post(table: Table[Any], offerer: int) -> Post:
    """The public offer in the thread: who offers, what the other may do, and the buttons."""
    other = 1 - offerer
    content = _("🤝 **{name}** offers a draw. <@{user}>: **Accept the draw** ends the game "
                "drawn; **Decline**, or your next move, turns it down.").format(
        name=marked_names(table)[offerer], user=table.record.user_at(other))
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(table.id, None, DrawAction.ACCEPT, label=_("Accept the draw"),
                             style=discord.ButtonStyle.success, emoji="🤝"))
    view.add_item(GameButton(table.id, None, DrawAction.DECLINE, label=_("Decline"),
                             style=discord.ButtonStyle.secondary))
    return Post(content=content, view=view, mentions=discord.AllowedMentions(users=True))


def outcome_text(table: Table[Any], offerer: int, outcome: DrawOutcome) -> str:
    """What the offer's message says once it no longer stands."""
    names = marked_names(table)
    name, other = names[offerer], names[1 - offerer]
    if outcome is DrawOutcome.AGREED:
        text = _("🤝 **{other}** accepted **{name}**'s draw offer: the game is drawn.")
    elif outcome is DrawOutcome.DECLINED:
        text = _("🤝 **{other}** declined **{name}**'s draw offer. Play on!")
    elif outcome is DrawOutcome.WITHDRAWN:
        text = _("🤝 **{name}** withdrew their draw offer.")
    elif outcome is DrawOutcome.LAPSED:
        text = _("🤝 **{name}**'s draw offer lapsed: **{other}** played on.")
    else:
        text = _("🤝 **{name}**'s draw offer ended with the game.")
    return text.format(name=name, other=other)
