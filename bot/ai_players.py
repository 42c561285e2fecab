"""The computer players: their ids, names and levels, and where their moves are computed.

An AI seat is stored like a person's, with a negative user id that no Discord account can
have: `-(1000 * (level index + 1) + seat)`, unique within a game. Ratings count every AI seat
of one level as one player (`rated_id`), so each level has its own place on the boards.
"""

from __future__ import annotations

import asyncio
import logging
import random
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from multiprocessing import get_context
from typing import Protocol

import ai
from engines import GAMES
from i18n import DEFAULT_LANGUAGE, N_, _, use_language
from storage import FORGOTTEN_NAME, is_forgotten

log = logging.getLogger(__name__)

DEFAULT_LEVEL = "medium"
LEVEL_NAMES = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard")}
"""Each level's name, in English: translate it with `_()` where it is shown."""
AI_NAME = N_("🤖 AI ({level})")
"""How an AI seat is named: `🤖 AI (Medium)`, `🤖 IA (Moyen)`."""
AI_ID_STEP = 1000


def ai_user_id(level: str, seat: int) -> int:
    """The user id of an AI seat of `level` at `seat`."""
    return -(AI_ID_STEP * (ai.LEVELS.index(level) + 1) + seat)


def is_ai(user_id: int) -> bool:
    """True for an AI seat's user id."""
    return user_id < 0


def level_of(user_id: int) -> str:
    """The level of an AI seat's user id."""
    return ai.LEVELS[-user_id // AI_ID_STEP - 1]


def rated_id(user_id: int) -> int:
    """Who a seat is for the ratings: the member, or the AI level as one player."""
    return -AI_ID_STEP * (ai.LEVELS.index(level_of(user_id)) + 1) if is_ai(user_id) else user_id


def ai_name(level: str) -> str:
    """`🤖 AI (Medium)`: an AI seat's name as stored, always in English, whatever the language
    of the moment (a stored name must not depend on who made the game). Show `ai_display_name`
    (or `shown_name`) instead."""
    with use_language(DEFAULT_LANGUAGE):
        return ai_display_name(level)


def ai_display_name(level: str) -> str:
    """`🤖 AI (Medium)` in the current language (`🤖 IA (Moyen)`): how an AI seat is shown."""
    return _(AI_NAME).format(level=_(LEVEL_NAMES[level]))


def level_name(level: str) -> str:
    """The name of an AI level in the current language (`Medium`, `Moyen`)."""
    return _(LEVEL_NAMES[level])


FORGOTTEN_PLAYER = N_("Forgotten player")
"""How the seat of a member who asked to be forgotten is shown (stored in English:
`storage.privacy_queries.FORGOTTEN_NAME`)."""


def shown_name(user_id: int, stored_name: str) -> str:
    """A seat's name as shown: a member's stored display name, or the AI's in the current
    language (an AI seat's stored name stays the English `ai_name`; any other is kept), or
    a forgotten member's."""
    if is_forgotten(user_id) and stored_name == FORGOTTEN_NAME:
        return _(FORGOTTEN_PLAYER)
    if not is_ai(user_id):
        return stored_name
    try:
        level = level_of(user_id)
    except IndexError:  # not an id this version gives an AI seat
        return stored_name
    return ai_display_name(level) if stored_name == ai_name(level) else stored_name


def ai_seed(rng_seed: int, ply: int) -> str:
    """The seed of the AI's thinking at `ply`: a game replays exactly, AI moves included."""
    return f"{rng_seed}:{ply}:ai"


HINT_LEVEL = "hard"
"""The level whose move a casual game's 💡 Hint suggests: the best advice the bot has."""


def hint_seed(rng_seed: int, ply: int) -> str:
    """The seed of a hint's thinking at `ply`: asking again gives the same hint."""
    return f"{rng_seed}:{ply}:hint"


def compute_move(game_id: str, dump: dict[str, object], level: str, seed: str) -> str:
    """The AI's move in notation (runs in a worker process: plain data in and out)."""
    state = GAMES[game_id].load(dump)
    return str(ai.choose_move(state, level, rng=random.Random(seed)))


class Thinker(Protocol):
    """Computes AI moves away from the event loop."""

    async def choose(self, game_id: str, dump: dict[str, object], level: str,
                     seed: str) -> str:
        """The AI's move in notation."""
        ...

    def close(self) -> None:
        """Stop the workers."""
        ...


class ProcessThinker:
    """AI moves in a pool of worker processes, so no game waits for another's thinking."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pool = self._new_pool()

    def pids(self) -> list[int]:
        """The worker processes' ids (for benchmarks and tests)."""
        pool = self._pool
        return list(pool._processes) if isinstance(pool, ProcessPoolExecutor) else []

    def _new_pool(self) -> Executor:
        # spawn, not fork: the bot's process has threads (SQLite) a fork would copy mid-call.
        return ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"))

    async def choose(self, game_id: str, dump: dict[str, object], level: str,
                     seed: str) -> str:
        """Think in a worker process; if the pool broke (a worker was killed, say), start a
        new one and think again (the move depends only on its seed)."""
        loop = asyncio.get_running_loop()
        pool = self._pool
        try:
            return await loop.run_in_executor(pool, compute_move, game_id, dump, level, seed)
        except BrokenExecutor:
            if self._pool is pool:  # the first to notice replaces it
                log.warning("an AI worker died; starting new ones")
                pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._new_pool()
            return await loop.run_in_executor(self._pool, compute_move, game_id, dump, level,
                                              seed)

    def close(self) -> None:
        """Stop the workers without waiting for a move nobody will play."""
        self._pool.shutdown(wait=False, cancel_futures=True)


class ThreadThinker:
    """AI moves in a thread: for tests and tiny bots (the GIL makes it share one core)."""

    async def choose(self, game_id: str, dump: dict[str, object], level: str,
                     seed: str) -> str:
        """Think in a thread."""
        return await asyncio.to_thread(compute_move, game_id, dump, level, seed)

    def close(self) -> None:
        """Nothing to stop."""
