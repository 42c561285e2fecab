"""Seeded random games, logged as the bot logs them: for replay tests and bench_replay.py."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from bot.automatic import automatic_steps
from engines import GAMES
from storage import GameRecord, GameStatus, MoveKind, MoveRecord, NewMove, Seat

NOW = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)
MAX_PLIES = 2000
"""A random game longer than this is cut (none gets there)."""
NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin")
SLOW_MOVES = {"granat": ">"}
"""Moves (by a piece of their notation) that make a game last: random Granat games are
shorter than real ones (the issue's has 208 plies), so its random player prefers them."""


def random_game(
    game: str, seed: int, slow: float = 0.0
) -> tuple[GameRecord, list[MoveRecord]]:
    """A finished game between random players (who pick one of the game's `SLOW_MOVES` with
    probability `slow`), and its move log as the bot stores it."""
    players = GAMES[game].max_players
    seats = [Seat(i, 100 + i, NAMES[i]) for i in range(players)]
    record = GameRecord(
        id=seed, game=game, guild_id=1, channel_id=10, parent_id=None, seats=seats,
        options={}, rng_seed=seed, state={}, ply=0, status=GameStatus.FINISHED, result=None,
        board_message_id=None, created_at=NOW, updated_at=NOW, finished_at=NOW)
    state = GAMES[game].new_state(players)
    log: list[NewMove] = automatic_steps(state, record, 0)
    rng = random.Random(seed)
    while not state.is_over() and len(log) < MAX_PLIES:
        player = state.current_player
        legal = state.legal_moves()
        lasting = [m for m in legal if game in SLOW_MOVES and SLOW_MOVES[game] in str(m)]
        move = rng.choice(lasting if lasting and rng.random() < slow else legal)
        state.apply(move)
        log.append(NewMove(player, 100 + player, MoveKind.PLAYER, str(move)))
        log += automatic_steps(state, record, len(log))
    result = state.result()
    record.ply = len(log)
    record.result = None if result is None else {"winners": list(result.winners),
                                                 "scores": None, "reason": str(result.reason)}
    lines = [MoveRecord(i + 1, m.seat, m.user_id, m.kind, m.move, NOW) for i, m in enumerate(log)]
    return record, lines
