"""Session rules that need no Discord: seeded chance, forced moves, replay from the log."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.automatic import automatic_steps, chance_rng
from bot.board import game_title
from engines import CHANCE, GAMES
from storage import GameRecord, GameStatus, MoveKind, Seat


def record(game: str, seed: int) -> GameRecord:
    """A stored game as the session sees it, without a database."""
    now = datetime(2026, 11, 22, tzinfo=UTC)
    state = GAMES[game].new_state(2)
    return GameRecord(1, game, 1, 2, None, [Seat(0, 10, "Alice"), Seat(1, 20, "Bob")], {},
                      seed, state.dump(), 0, GameStatus.RUNNING, None, None, now, now)


def play_graps_opening(seed: int) -> tuple[list[str], dict]:
    """Both setup grapes, then the automatic steps after them (Graps rolls a die)."""
    game = record("graps", seed)
    state = GAMES["graps"].load(game.state)
    log = []
    for cell in ("h1", "h15"):
        state.apply(cell)
        log.append(cell)
        log += [m.move for m in automatic_steps(state, game, len(log))]
    return log, state.dump()


def test_chance_outcomes_are_drawn_from_the_seed_stored_with_the_game() -> None:
    assert play_graps_opening(seed=7) == play_graps_opening(seed=7)
    logs = {tuple(play_graps_opening(seed)[0]) for seed in range(20)}
    assert len(logs) > 1  # the die really depends on the seed


def test_a_chance_node_is_resolved_before_the_player_is_asked() -> None:
    game = record("graps", 3)
    state = GAMES["graps"].load(game.state)
    state.apply("h1")
    state.apply("h15")
    assert state.current_player == CHANCE
    moves = automatic_steps(state, game, 2)
    assert moves[0].kind is MoveKind.CHANCE and moves[0].move.startswith("roll:")
    assert state.current_player in (0, 1)


def test_a_game_replays_exactly_from_its_move_log() -> None:
    log, dumped = play_graps_opening(seed=11)
    replay = GAMES["graps"].new_state(2)
    for move in log:
        replay.apply(move)
    assert replay.dump() == dumped


def test_each_ply_has_its_own_rng_so_a_replay_needs_only_the_seed() -> None:
    assert chance_rng(5, 3).random() == chance_rng(5, 3).random()
    assert chance_rng(5, 3).random() != chance_rng(5, 4).random()


def test_a_single_legal_move_is_played_for_the_player_and_logged_as_forced() -> None:
    # Le Grabuge: nearly every card is forced; the bot plays those itself.
    game = record("grabuge", 1)
    state = GAMES["grabuge"].load(game.state)
    moves = automatic_steps(state, game, 0)
    assert moves, "the deal and the first forced plays happen without asking"
    forced = [m for m in moves if m.kind is MoveKind.FORCED]
    assert all(m.seat is not None and m.user_id in (10, 20) for m in forced)
    assert state.is_over() or len(state.legal_moves()) > 1


def test_thread_titles_stay_within_discords_limit() -> None:
    assert game_title("qawale", ["Alice", "Bob"]) == "Qawale · Alice vs Bob"
    assert len(game_title("qawale", ["A" * 80, "B" * 80])) == 100
