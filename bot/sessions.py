"""Game sessions: the one place where an engine, its storage and Discord meet.

Every action follows the same order: load, lock, apply (on a copy), store, then announce.
A move is committed to the database before anyone hears of it, so a crash between the two
loses nothing: the next start re-announces from storage. A session gets what it needs (the
database, its game's controls, a publisher) and never the Discord client.

`GameSession` is the core (`bot.session_base`) with what only some games use, each in its
own module: draw offers, the turn clock, and the aids of casual games.
"""

from __future__ import annotations

from bot.automatic import automatic_steps
from bot.session_aids import PlayingAids
from bot.session_base import (
    ALL_PLAYERS,
    MEND_DELAYS,
    STAND_IN_LEVEL,
    THINKING_NOTICE_AFTER,
    SessionBase,
)
from bot.session_clock import TurnClock
from bot.session_draws import DrawOffers


class GameSession(DrawOffers, TurnClock, PlayingAids, SessionBase):
    """A running (or just finished) game held in memory, with its lock (a `Table` for UIs)."""


__all__ = [
    "ALL_PLAYERS",
    "MEND_DELAYS",
    "STAND_IN_LEVEL",
    "THINKING_NOTICE_AFTER",
    "GameSession",
    "automatic_steps",
]
