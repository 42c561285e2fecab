"""What each playable game provides to the bot: its controls, texts and colours."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from engines import Result
from renderers.common import SEAT_COLOURS
from storage import MoveKind, NewMove

if TYPE_CHECKING:
    from bot.sessions import GameSession, Turn

AUTOCOMPLETE_LIMIT = 25
"""Discord shows at most 25 autocomplete choices."""

SEAT_BADGES = ("🔵", "🟠", "🟢", "🟣", "🩵")
"""Emoji for seats 0–4, matching the renderer's seat colours (navy, orange, green, pink, sky)."""


class GameUI(ABC):
    """A game's Discord controls; the session calls these, never the other way round."""

    game_id: str
    seat_badges: tuple[str, ...] = SEAT_BADGES
    seat_colours: tuple[discord.Colour, ...] = tuple(
        discord.Colour.from_str(colour.fill) for colour in SEAT_COLOURS[:len(SEAT_BADGES)])
    """Embed colours by seat: the very colours the board pictures use."""

    def seat_badge(self, seat: int | None) -> str:
        """The emoji that stands for a seat's colour."""
        return self.seat_badges[seat] if seat is not None and seat >= 0 else "🎲"

    def colour(self, result: Result | None, seat: int | None) -> discord.Colour:
        """The embed colour: the winner's, the mover's, or grey for a draw."""
        if result is not None:
            if len(result.winners) == 1:
                return self.seat_colours[result.winners[0]]
            return discord.Colour.light_grey()
        if seat is not None and seat >= 0:
            return self.seat_colours[seat]
        return discord.Colour.blurple()

    def describe(self, session: GameSession, move: NewMove) -> str:
        """One line of the game log for a stored move."""
        if move.seat is None:
            return f"🎲 `{move.move}`"
        who = f"{self.seat_badge(move.seat)} **{session.names[move.seat]}**"
        if move.kind is MoveKind.RESIGN:
            return f"{who} resigned."
        if move.kind is MoveKind.FORCED:
            return f"{who} had a single possible move: `{move.move}`."
        return f"{who} played `{move.move}`."

    def summarize(self, session: GameSession, moves: Sequence[NewMove]) -> list[str]:
        """The lines a board message shows for the moves of one action (one per move here).

        A game with many automatic steps per turn overrides this to sum them up.
        """
        return [self.describe(session, move) for move in moves]

    async def after_announce(  # noqa: B027  (optional hook: most games have nothing to add)
        self, session: GameSession, turn: Turn
    ) -> None:
        """Called once the board of `turn` is posted: send private information, say."""

    def result_text(self, session: GameSession, result: Result) -> str:
        """The end of the game in one sentence."""
        names = session.names
        winners = " and ".join(names[s] for s in result.winners)
        if result.reason == "resigned":
            losers = [names[s] for s in range(len(names)) if s not in result.winners]
            return f"{', '.join(losers)} resigned: {winners} wins."
        if len(result.winners) > 1:
            return "Draw."
        return f"{winners} wins!"

    @abstractmethod
    def status(self, session: GameSession) -> str:
        """A short status for the board's footer (stocks, counts)."""

    @abstractmethod
    def board_items(self, session: GameSession) -> list[discord.ui.Item]:
        """The components under the board for the player to move."""

    @abstractmethod
    async def handle(
        self, interaction: discord.Interaction, session: GameSession, action: str, arg: str,
        values: list[str],
    ) -> None:
        """React to one of this game's components."""

    @abstractmethod
    def autocomplete(self, session: GameSession, typed: str) -> list[str]:
        """Legal moves in notation that match what the player typed so far."""
