"""Ratings rebuilt from results: openskill PlackettLuce over finished games, in order."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.ai_players import ai_user_id, rated_id
from bot.ratings import (
    NEWCOMER_RATING,
    ahead_of,
    change_text,
    changes_line,
    chart_view,
    compute_ratings,
    leaderboard,
    month_bounds,
    month_key,
    new_bests,
    outcome_of,
    page_of,
    ranks_of,
)
from i18n import Language, use_language
from storage import GameRecord, GameStatus, RatingChange, RatingPoint, Seat

NOW = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)
NAMES = {1: "Alice", 2: "Bob", 3: "Carol", 4: "Dave"}


def finished(game_id: int, players: list[int], winners: list[int], scores=None) -> GameRecord:
    """A finished game with `players` by seat and `winners` as seats."""
    return GameRecord(
        id=game_id, game="kraut_ruben", guild_id=1, channel_id=10, parent_id=None,
        seats=[Seat(i, u, NAMES[u]) for i, u in enumerate(players)], options={}, rng_seed=0,
        state={}, ply=10, status=GameStatus.FINISHED,
        result={"winners": winners, "scores": scores, "reason": "end"},
        board_message_id=None, created_at=NOW, updated_at=NOW, finished_at=NOW,
    )


def test_a_two_player_sequence_moves_the_winner_up() -> None:
    players = compute_ratings([finished(1, [1, 2], [0]), finished(2, [2, 1], [1]),
                               finished(3, [1, 2], [1])])
    alice, bob = players[1], players[2]
    assert (alice.games, alice.wins, alice.losses, alice.draws) == (3, 2, 1, 0)
    assert (bob.games, bob.wins, bob.losses) == (3, 1, 2)
    assert alice.rating > bob.rating
    assert alice.streak == -1 and bob.streak == 1 and alice.best_streak == 2
    assert [p.name for p in leaderboard(players)] == ["Alice", "Bob"]


def test_ratings_are_rebuilt_identically_from_the_same_results() -> None:
    games = [finished(i, [1, 2, 3], [i % 3]) for i in range(1, 7)]
    first, second = compute_ratings(games), compute_ratings(games)
    assert {u: p.rating for u, p in first.items()} == {u: p.rating for u, p in second.items()}


def test_three_players_the_winner_gains_most_and_scores_order_the_rest() -> None:
    players = compute_ratings([finished(1, [1, 2, 3], [2], scores=[10, 3, 25])])
    carol, alice, bob = players[3], players[1], players[2]
    assert carol.rating > alice.rating > bob.rating
    assert ranks_of({"winners": [2], "scores": [10, 3, 25]}, 3) == [2, 3, 1]


def test_several_winners_share_rank_one_as_a_draw() -> None:
    result = {"winners": [0, 2], "scores": None, "reason": "resigned"}
    assert ranks_of(result, 3) == [1, 2, 1]
    assert [outcome_of(result, s) for s in range(3)] == ["draw", "loss", "draw"]
    players = compute_ratings([finished(1, [1, 2, 3], [0, 2])])
    assert players[1].rating == players[3].rating > players[2].rating
    assert players[1].draws == 1 and players[1].streak == 0


def test_no_winner_is_a_draw_for_everyone() -> None:
    players = compute_ratings([finished(1, [1, 2], [])])
    assert players[1].rating == players[2].rating and players[1].draws == 1


def test_the_latest_stored_name_is_shown() -> None:
    later = finished(2, [1, 2], [0])
    later.seats[0] = Seat(0, 1, "Alice B.")
    assert compute_ratings([finished(1, [1, 2], [0]), later])[1].name == "Alice B."


def test_pages_are_clamped() -> None:
    items = list(range(23))
    assert page_of(items, 0, 10) == (list(range(10)), 0, 3)
    assert page_of(items, 5, 10) == ([20, 21, 22], 2, 3)
    assert page_of([], 0, 10) == ([], 0, 1)


def test_a_game_the_ai_finished_for_an_absent_player_counts_for_nothing() -> None:
    unrated = finished(1, [1, 2], [0])
    unrated.rated = False
    assert compute_ratings([unrated]) == {}


def test_who_left_a_game_of_three_ranks_last_and_counts_a_loss() -> None:
    game = finished(1, [1, 2, 3], [2], scores=[20, 3, 25])
    # Alice left and the AI scored 20 for her seat: she still ranks after Bob's 3.
    game.seats[0] = replace(game.seats[0], stand_in="medium")
    players = compute_ratings([game])
    alice, bob, carol = players[1], players[2], players[3]
    assert (alice.losses, alice.wins) == (1, 0)
    assert carol.rating > bob.rating > alice.rating


def test_a_rating_change_shows_the_new_rating_and_a_signed_move() -> None:
    assert change_text(RatingChange(1, 22.14, 23.56)) == "**23.6** (+1.5)"
    assert change_text(RatingChange(1, 23.56, 22.14)) == "**22.1** (-1.5)"
    assert change_text(RatingChange(1, 5.01, 4.99)) == "**5.0** (±0.0)"


def test_a_rating_move_is_taken_between_the_ratings_as_shown_so_boards_add_up() -> None:
    # 10.04 → 10.16 is 0.12, but the player saw 10.0 and now sees 10.2: +0.2.
    assert change_text(RatingChange(1, 10.04, 10.16)) == "**10.2** (+0.2)"


def test_a_first_game_moves_the_rating_from_a_newcomers() -> None:
    assert NEWCOMER_RATING == 0.0
    assert change_text(RatingChange(1, None, 3.24)) == "**3.2** (+3.2)"


def test_the_ratings_line_follows_the_seats_and_names_each_rated_player_once() -> None:
    hard = ai_user_id("hard", 1)
    changes = {7: RatingChange(7, 20.0, 21.0),
               rated_id(hard): RatingChange(rated_id(hard), 30.0, 29.0)}
    seats = [(hard, "🤖 AI (Hard)"), (7, "**Alice**"), (ai_user_id("hard", 2), "🤖 AI (Hard)")]
    assert changes_line(seats, changes) == (
        "📈 Ratings: 🤖 AI (Hard) **29.0** (-1.0) · \\*\\*Alice\\*\\* **21.0** (+1.0)")


def test_no_ratings_line_for_a_game_with_no_change_kept() -> None:
    assert changes_line([(7, "Alice"), (8, "Bob")], {}) == ""


def test_who_finished_ahead_follows_the_winners_then_the_scores() -> None:
    three = finished(1, [1, 2, 3], [1], scores=[4, 9, 6])  # Bob won, Carol 6, Alice 4
    assert ahead_of(three, 2, 1) == 1 and ahead_of(three, 1, 2) == -1
    assert ahead_of(three, 3, 1) == 1, "behind the winner, the scores order the others"
    level = finished(2, [1, 2, 3], [0], scores=[9, 5, 5])
    assert ahead_of(level, 2, 3) == 0
    assert ahead_of(finished(3, [1, 2], []), 1, 2) == 0, "no winner: level"


def test_who_left_a_game_finished_behind_whatever_the_ai_did_for_them() -> None:
    game = finished(1, [1, 2, 3], [0], scores=[9, 5, 7])
    game.seats[0] = replace(game.seats[0], stand_in="medium")  # Alice left; the AI won
    assert ahead_of(game, 2, 1) == 1 and ahead_of(game, 3, 1) == 1


def test_a_rating_chart_starts_from_a_newcomers_rating_then_each_game_after() -> None:
    points = [RatingPoint(1, NOW, None, 1.5), RatingPoint(2, NOW + timedelta(days=5), 1.5, 0.8)]
    view = chart_view(points)
    assert view["ratings"] == [NEWCOMER_RATING, 1.5, 0.8]
    assert (view["first"], view["last"]) == ("22 Nov 2026", "27 Nov 2026")


def test_a_chart_of_the_last_games_starts_from_the_rating_before_the_first_shown() -> None:
    assert chart_view([RatingPoint(7, NOW, 12.25, 13.0)])["ratings"] == [12.25, 13.0]


def test_a_rating_charts_dates_are_in_the_current_language() -> None:
    with use_language(Language.FR):
        view = chart_view([RatingPoint(1, NOW, None, 1.5)])
    assert view["last"] == "22 nov. 2026"


def test_no_rating_chart_without_a_rated_game() -> None:
    with pytest.raises(ValueError, match="at least one rated game"):
        chart_view([])


def test_months_roll_over_the_year_both_ways() -> None:
    january = datetime(2027, 1, 31, 23, 59, tzinfo=UTC)
    assert (month_key(january), month_key(january, 1), month_key(january, 13)) == (
        "2027-01", "2026-12", "2025-12")
    assert month_bounds("2026-12") == (datetime(2026, 12, 1, tzinfo=UTC),
                                       datetime(2027, 1, 1, tzinfo=UTC))
    assert month_bounds("2026-02")[1] == datetime(2026, 3, 1, tzinfo=UTC)


def test_a_new_best_must_beat_the_old_one_as_shown_and_never_hails_the_ai() -> None:
    ai = rated_id(ai_user_id("hard", 0))  # the level as one rated player
    seats = [(1, "Ann"), (2, "Bo_b"), (3, "Cy"), (ai, "🤖 AI (Hard)")]
    changes = {1: RatingChange(1, 20.0, 20.44), 2: RatingChange(2, 20.0, 21.0),
               3: RatingChange(3, 5.0, 9.0), ai: RatingChange(ai, 1.0, 30.0)}
    bests = {1: (20.4, 30), 2: (20.9, 10), 3: (8.0, 9), ai: (2.0, 50)}
    # Ann's 20.44 shows as 20.4, no better than her 20.4; Cy has 9 games only.
    assert new_bests(seats, changes, bests) == [r"Bo\_b"]
