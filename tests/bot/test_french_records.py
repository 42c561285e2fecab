"""Records and replays in French: streaks, stats, history lines, suggestions and captions."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.ratings import streak_text
from bot.records import _stats_field, history_line, replay_choice
from bot.replay import Position, and_join, gif_caption, outcome_text, viewer_caption
from i18n import Language, use_language
from storage import GameRecord, GameStatus, GameSummary, RatingRow, Seat

NOW = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)
SEATS = [Seat(0, 100, "Alice"), Seat(1, 200, "Bob"), Seat(2, 300, "Carol")]


def _summary(**changes: object) -> GameSummary:
    summary = GameSummary(id=12, game="qawale", guild_id=1, seats=SEATS[:2],
                          status=GameStatus.FINISHED,
                          result={"winners": [0], "scores": None, "reason": "resigned"},
                          rated=True, updated_at=NOW, finished_at=NOW)
    return replace(summary, **changes)


def _record(**changes: object) -> GameRecord:
    record = GameRecord(
        id=7, game="qawale", guild_id=1, channel_id=10, parent_id=None, seats=SEATS,
        options={}, rng_seed=1, state={}, ply=3, status=GameStatus.FINISHED,
        result={"winners": [0, 2], "scores": None}, board_message_id=None, created_at=NOW,
        updated_at=NOW)
    return replace(record, **changes)


def _row(**counts: int) -> RatingRow:
    return RatingRow("qawale", 1, 100, "Alice", 30.0, 1.0, **counts)


@pytest.mark.parametrize(("streak", "english", "french"), [
    (3, "3 wins", "3 victoires"),
    (1, "1 win", "1 victoire"),
    (-2, "2 losses", "2 défaites"),
    (-1, "1 loss", "1 défaite"),
    (0, "—", "—"),
])
def test_a_streak_is_counted_in_each_language(streak: int, english: str, french: str) -> None:
    assert streak_text(_row(streak=streak)) == english
    with use_language(Language.FR):
        assert streak_text(_row(streak=streak)) == french


def test_stats_count_in_french_with_zero_singular() -> None:
    row = _row(games=4, wins=3, draws=1, losses=0, streak=2, best_streak=3)
    with use_language(Language.FR):
        text = _stats_field(row, 1, 5)
    assert text == ("Cote **27.0** (#1 sur 5)\n"
                    "4 parties · 3 victoires · 1 nulle · 0 défaite\n"
                    "Série : 2 victoires · meilleure série : 3 victoires")
    assert _stats_field(row, 1, 5) == ("Rating **27.0** (#1 of 5)\n"
                                       "4 games · 3 wins · 1 draw · 0 losses\n"
                                       "Streak: 2 wins · best run: 3 wins")


def test_a_history_line_in_french_keeps_the_discord_timestamp() -> None:
    won = _summary(result={"winners": [0], "scores": None, "reason": "timeout"}, rated=False)
    with use_language(Language.FR):
        line = history_line(won, 100)
        drawn = history_line(_summary(result={"winners": [], "scores": None}), 200)
        aborted = history_line(_summary(status=GameStatus.ABORTED, result=None), 200)
    stamp = f"<t:{int(NOW.timestamp())}:d>"
    assert line == f"`#12` **Qawale** contre Bob · gagnée (au temps) · non classée · {stamp}"
    assert drawn == f"`#12` **Qawale** contre Alice · nulle · {stamp}"
    assert "contre Alice · annulée ·" in aborted
    assert history_line(won, 100) == (
        f"`#12` **Qawale** vs Bob · won (on time) · unrated · {stamp}")


def test_a_replay_suggestion_names_its_month_in_the_members_language() -> None:
    aborted = _summary(status=GameStatus.ABORTED, result=None)
    assert replay_choice(aborted) == "Qawale · Alice vs Bob · 25 Nov 2026 · #12 · aborted"
    with use_language(Language.FR):
        assert replay_choice(aborted) == (
            "Qawale · Alice vs Bob · 25 nov. 2026 · #12 · annulée")


def test_replay_captions_and_outcomes_in_french() -> None:
    start = Position({}, None, 0)
    last = Position({}, "b2", 2, "Bob: b2 · Carol (forced): c3")
    with use_language(Language.FR):
        assert viewer_caption(start, 2, _record()) == "Position de départ · 2 coups"
        assert gif_caption(start, 1, _record(status=GameStatus.RUNNING)) == "Départ · 1 coup"
        assert viewer_caption(last, 2, _record()) == (
            "Coup 2 sur 2 · Bob: b2 · Carol (forced): c3 · Alice et Carol ont gagné")
        assert outcome_text(_record(result={"winners": [1]})) == "Bob a gagné"
        assert outcome_text(_record(result={"winners": []})) == "Partie nulle"
        assert outcome_text(_record(status=GameStatus.RUNNING)) == "encore en cours"
        assert and_join(["Alice", "Bob", "Carol"]) == "Alice et Bob et Carol"
    assert viewer_caption(last, 2, _record()) == (
        "Move 2 of 2 · Bob: b2 · Carol (forced): c3 · Alice and Carol won")
