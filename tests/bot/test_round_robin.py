"""Round-robin pairings and standings: everyone meets everyone once, plays first in half
their games, and the table ranks by points, then Sonneborn-Berger, then wins."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from bot.round_robin import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PlayedGame,
    pairings,
    played,
    points_text,
    round_count,
    sitting_out,
    standings,
)

FIELDS = range(MIN_PLAYERS, MAX_PLAYERS + 1)


@pytest.mark.parametrize("players", FIELDS)
def test_every_pair_meets_exactly_once_and_nobody_plays_twice_in_a_round(players) -> None:
    met: Counter[frozenset[int]] = Counter()
    for round_no in range(1, round_count(players) + 1):
        places = [place for game in pairings(players, round_no) for place in game]
        assert len(places) == len(set(places))
        met.update(frozenset(game) for game in pairings(players, round_no))
    assert len(met) == players * (players - 1) // 2 and set(met.values()) == {1}


@pytest.mark.parametrize("players", FIELDS)
def test_each_player_plays_first_in_half_their_games(players) -> None:
    first: Counter[int] = Counter()
    for round_no in range(1, round_count(players) + 1):
        first.update(game[0] for game in pairings(players, round_no))
    half = (players - 1) / 2
    assert all(abs(first[place] - half) <= 0.5 for place in range(players))


def test_in_an_odd_field_each_player_sits_out_one_round() -> None:
    assert sorted(sitting_out(5, r) for r in range(1, 6)) == [0, 1, 2, 3, 4]
    assert sitting_out(4, 1) is None


def test_a_round_beyond_the_last_is_refused() -> None:
    with pytest.raises(ValueError):
        pairings(4, 4)


def test_a_stored_result_says_who_won_or_a_draw() -> None:
    assert played((7, 8), {"winners": [1], "scores": None}).winner == 8
    assert played((7, 8), {"winners": [0, 1], "scores": None}).winner is None


def test_points_then_sonneborn_berger_rank_the_table() -> None:
    a, b, c, d = 1, 2, 3, 4
    games = [PlayedGame(a, b, a), PlayedGame(c, d, c), PlayedGame(a, c, None),
             PlayedGame(b, d, b), PlayedGame(a, d, d), PlayedGame(b, c, c)]
    table = standings([a, b, c, d], games)
    assert [(row.user_id, row.place, row.points, row.tiebreak) for row in table] == [
        (c, 1, Fraction(5, 2), Fraction(11, 4)),  # beat d and b, drew a
        (a, 2, Fraction(3, 2), Fraction(9, 4)),   # beat b, drew c
        (d, 3, Fraction(1), Fraction(3, 2)),      # beat a (1½): ahead of b on tie-break
        (b, 4, Fraction(1), Fraction(1)),         # beat d (1)
    ]
    assert (table[0].wins, table[0].draws, table[0].losses, table[0].played) == (2, 1, 0, 3)


def test_players_level_on_everything_share_a_place() -> None:
    table = standings([1, 2, 3], [PlayedGame(1, 2, None)])
    assert [(row.user_id, row.place) for row in table] == [(1, 1), (2, 1), (3, 3)]


def test_points_are_written_with_halves() -> None:
    assert [points_text(Fraction(n, 2)) for n in (0, 1, 4, 5)] == ["0", "½", "2", "2½"]


@pytest.mark.parametrize("players", FIELDS)
def test_twice_every_pair_meets_once_with_each_player_first(players) -> None:
    seatings: Counter[tuple[int, int]] = Counter()
    for round_no in range(1, round_count(players, legs=2) + 1):
        seatings.update(pairings(players, round_no, legs=2))
    assert len(seatings) == players * (players - 1) and set(seatings.values()) == {1}
