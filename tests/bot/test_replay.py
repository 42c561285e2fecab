"""Replays rebuilt from the move log: one frame per move, matching the positions."""

from __future__ import annotations

import io
import itertools
from datetime import UTC, datetime

from PIL import Image, ImageChops

from bot.replay import replay_gif, replay_positions
from engines import GAMES
from storage import GameRecord, GameStatus, MoveKind, MoveRecord, NewMove, Seat

NOW = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)
MOVES = ["a1:NES", "a4:SSE", "b2:WSE"]


def _record() -> GameRecord:
    return GameRecord(
        id=7, game="qawale", guild_id=1, channel_id=10, parent_id=None,
        seats=[Seat(0, 100, "Alice"), Seat(1, 200, "Bob")], options={}, rng_seed=1, state={},
        ply=len(MOVES) + 1, status=GameStatus.FINISHED,
        result={"winners": [0], "scores": None, "reason": "resigned"}, board_message_id=None,
        created_at=NOW, updated_at=NOW, finished_at=NOW,
    )


def _log() -> list[MoveRecord]:
    lines = [MoveRecord(i + 1, i % 2, 100, MoveKind.PLAYER, m, NOW) for i, m in enumerate(MOVES)]
    return [*lines, MoveRecord(len(MOVES) + 1, 1, 200, MoveKind.RESIGN, "resign", NOW)]


def test_positions_follow_the_log_and_skip_the_resignation() -> None:
    positions = replay_positions(_record(), _log())
    assert len(positions) == len(MOVES) + 1
    assert [p.highlight for p in positions] == [None, *MOVES]
    state = GAMES["qawale"].new_state(2)
    for move in MOVES:
        state.apply(move)
    assert positions[-1].view == state.view(None)


def test_the_gif_has_one_frame_per_position_and_each_differs() -> None:
    gif = Image.open(io.BytesIO(replay_gif(_record(), _log())))
    assert gif.n_frames == len(MOVES) + 1
    frames = []
    for index in range(gif.n_frames):
        gif.seek(index)
        frames.append(gif.convert("RGB"))
    for before, after in itertools.pairwise(frames):
        assert ImageChops.difference(before, after).getbbox() is not None


def test_long_games_are_sampled_not_refused(monkeypatch) -> None:
    drawn: list[str | None] = []

    def fake_render(view, highlight=None, *, names=None) -> bytes:
        drawn.append(highlight)
        out = io.BytesIO()
        Image.new("RGB", (40, 40), (60 * len(drawn), 0, 0)).save(out, format="PNG")
        return out.getvalue()

    monkeypatch.setattr("bot.replay.render", fake_render)
    gif = Image.open(io.BytesIO(replay_gif(_record(), _log(), max_frames=3)))
    assert gif.n_frames == 3
    assert drawn == [None, MOVES[1], MOVES[2]]  # the start, the end and one between


def test_every_game_replays_to_its_stored_position_chance_and_forced_moves_included() -> None:
    import random

    from bot.sessions import automatic_steps

    for game in GAMES:
        record = _record()
        record.game = game
        state = GAMES[game].new_state(2)
        log = automatic_steps(state, record, 0)
        rng = random.Random(3)
        while not state.is_over() and len(log) < 60:
            move = rng.choice(state.legal_moves())
            player = state.current_player
            state.apply(move)
            log.append(NewMove(player, 100, MoveKind.PLAYER, str(move)))
            log += automatic_steps(state, record, len(log))
        lines = [MoveRecord(i + 1, m.seat, m.user_id, m.kind, m.move, NOW)
                 for i, m in enumerate(log)]
        positions = replay_positions(record, lines)
        assert len(positions) == len(lines) + 1, game
        assert positions[-1].view == state.view(None), game
