"""Replays rebuilt from the move log: one numbered frame per decision, the end always shown."""

from __future__ import annotations

import io
import itertools
import random
from datetime import UTC, datetime

from PIL import Image, ImageChops

from bot.replay import (
    decision_positions,
    fitting_gif,
    gif_caption,
    outcome_text,
    replay_gif,
    replay_positions,
    viewer_caption,
)
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


def _fake_render(drawn: list[str | None]):
    def fake_render(view, highlight=None, *, names=None, language=None) -> bytes:
        drawn.append(highlight)
        out = io.BytesIO()
        Image.new("RGB", (40, 40), (60 * len(drawn) % 256, 0, 0)).save(out, format="PNG")
        return out.getvalue()
    return fake_render


def test_a_huge_game_is_sampled_as_a_last_resort_keeping_the_start_and_the_end(
    monkeypatch
) -> None:
    monkeypatch.setattr("bot.painter.render", _fake_render([]))
    gif = Image.open(io.BytesIO(replay_gif(_record(), _log(), max_frames=3)))
    assert gif.n_frames == 3
    shown: list[list[str]] = []

    def fake_animate(frames, *, captions=None, max_width=720, **_):
        shown.append(list(captions))
        return b"x" * (100 * len(frames))

    monkeypatch.setattr("renderers.animation.animate", fake_animate)
    record = _record()
    record.game = "granat"  # no chance, no forced move in its first plies: one per decision
    state, rng, moves = GAMES["granat"].new_state(2), random.Random(5), []
    while len(moves) < 30:
        moves.append(str(rng.choice(state.legal_moves())))
        state.apply(moves[-1])
    log = [MoveRecord(i + 1, i % 2, 100, MoveKind.PLAYER, m, NOW) for i, m in enumerate(moves)]
    fitted = fitting_gif(record, log, limit=100 * 10)
    assert fitted.sampled and fitted.frames == len(moves) + 1 and fitted.shown <= 10
    assert shown[-1][0].startswith("Start") and shown[-1][-1].startswith(f"{len(moves)}.")


def test_a_replay_too_big_is_made_narrower_before_any_move_is_dropped(monkeypatch) -> None:
    widths: list[int] = []

    def fake_animate(frames, *, captions=None, max_width=720, **_):
        widths.append(max_width)
        return b"x" * (max_width * len(frames))

    monkeypatch.setattr("renderers.animation.animate", fake_animate)
    monkeypatch.setattr("bot.painter.render", _fake_render([]))
    fitted = fitting_gif(_record(), _log(), limit=600 * 4)
    assert widths == [720, 600] and not fitted.sampled and fitted.shown == 4


def test_captions_number_each_decision_and_the_last_tells_the_outcome() -> None:
    record = _record()
    positions = decision_positions(record, _log())
    assert [p.number for p in positions] == [0, 1, 2, 3]
    assert gif_caption(positions[0], 3, record) == "Start · 3 moves"
    assert gif_caption(positions[2], 3, record) == "2. Bob: a4:SSE"
    assert gif_caption(positions[3], 3, record) == "3. Alice: b2:WSE · Alice won"
    assert viewer_caption(positions[2], 3, record) == "Move 2 of 3 · Bob: a4:SSE"
    assert viewer_caption(positions[0], 3, record) == "Start position · 3 moves"
    record.status, record.result = GameStatus.RUNNING, None
    assert outcome_text(record) == "still running"
    record.status = GameStatus.ABORTED
    assert outcome_text(record) == "aborted"
    record.status, record.result = GameStatus.FINISHED, {"winners": [], "reason": "draw"}
    assert outcome_text(record) == "Draw"
    record.result = {"winners": [0, 1], "reason": "agreed"}
    assert outcome_text(record) == "Draw by agreement"
    record.seats.append(Seat(2, 300, "Carol"))
    record.result = {"winners": [0, 2], "reason": "resigned"}
    assert outcome_text(record) == "Alice and Carol won"


def test_forced_moves_and_chance_merge_into_the_decision_they_follow() -> None:
    record = _record()
    record.game = "graps"
    record.seats = [Seat(0, 100, "Alice"), Seat(1, 200, "Bob")]
    kinds = [(0, MoveKind.PLAYER, "h1"), (1, MoveKind.PLAYER, "j15"),
             (None, MoveKind.CHANCE, "roll:grape"), (0, MoveKind.PLAYER, "f1"),
             (None, MoveKind.CHANCE, "roll:blank"), (1, MoveKind.FORCED, "j14"),
             (None, MoveKind.CHANCE, "roll:blank")]
    log = [MoveRecord(i + 1, seat, None, kind, move, NOW)
           for i, (seat, kind, move) in enumerate(kinds)]
    positions = decision_positions(record, log)
    assert len(positions) == 4  # the start and three decisions
    assert positions[3].move == "Alice: f1 · Bob (forced): j14"
    assert positions[3].highlight == "j14"  # as the live board: the last move shown
    assert "roll" not in " ".join(p.move for p in positions)  # chance is never written
    assert positions[-1].view == replay_positions(record, log)[-1].view


def test_every_game_replays_to_its_stored_position_chance_and_forced_moves_included() -> None:
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
        decisions = decision_positions(record, lines)
        assert len(decisions) == 1 + sum(m.kind is MoveKind.PLAYER for m in lines), game
        assert decisions[-1].view == state.view(None), game
