"""Swiss pairings: players on the same points meet, never twice; the bye goes to the lowest
placed who has not had one; seats alternate; and the same results always give the same
pairing (a round half opened before a restart is completed as it began)."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime
from fractions import Fraction

import pytest

from bot.board import EMBED_DESCRIPTION_LIMIT
from bot.round_robin import PlayedGame, standings
from bot.swiss import MOST_PLAYERS, pair_round, swiss_points, swiss_rounds
from bot.tournament_posts import tournament_embed
from bot.tournament_rounds import history
from i18n import Language, use_language
from storage import (
    GameStatus,
    TournamentGame,
    TournamentPlayer,
    TournamentRecord,
    TournamentStatus,
)


def play_out(players: int, seed: int) -> tuple[list[list[tuple[int, int]]], list[int | None],
                                                 list[PlayedGame]]:
    """A whole Swiss tournament of `players` with random results (seeded): every round's
    games, byes and the meetings."""
    rng = random.Random(seed)
    order = list(range(100, 100 + players))
    meetings: list[PlayedGame] = []
    byes: list[int] = []
    rounds, round_byes = [], []
    for _ in range(swiss_rounds(players)):
        pairing = pair_round(order, set(order), meetings, byes)
        rounds.append(pairing.games)
        round_byes.append(pairing.bye)
        if pairing.bye is not None:
            byes.append(pairing.bye)
        for first, second in pairing.games:
            meetings.append(PlayedGame(first, second, rng.choice([first, second, None])))
    return rounds, round_byes, meetings


@pytest.mark.parametrize("players", [9, 10, 13, 16, 17, 24, 31, MOST_PLAYERS])
@pytest.mark.parametrize("seed", range(5))
def test_nobody_meets_the_same_player_twice_nor_plays_twice_in_a_round(players, seed) -> None:
    rounds, byes, _meetings = play_out(players, seed)
    met: Counter[frozenset[int]] = Counter()
    for games, bye in zip(rounds, byes, strict=True):
        seated = [player for game in games for player in game]
        assert len(seated) == len(set(seated)) == players - (bye is not None)
        assert bye not in seated
        met.update(frozenset(game) for game in games)
    assert set(met.values()) == {1}


@pytest.mark.parametrize("players", [9, 11, 15, 31])
def test_in_an_odd_field_the_bye_goes_to_a_different_player_each_round(players) -> None:
    _rounds, byes, _meetings = play_out(players, 1)
    assert None not in byes and len(set(byes)) == len(byes)


def test_the_bye_goes_to_the_lowest_placed_player_without_one() -> None:
    order = [1, 2, 3, 4, 5]
    # Round 1: 5 had the bye; 1 beat 2, 3 beat 4. Now 1, 3 and 5 lead with a point.
    meetings = [PlayedGame(1, 2, 1), PlayedGame(3, 4, 3)]
    pairing = pair_round(order, set(order), meetings, [5])
    assert pairing.bye == 4  # the lowest placed of 2 and 4, both on 0
    assert {frozenset(game) for game in pairing.games} == {frozenset((1, 3)),
                                                           frozenset((5, 2))}


def test_players_on_the_same_points_meet() -> None:
    order = list(range(1, 9))
    # Round 1: 1 beat 2, 3 beat 4, 5 beat 6, 7 beat 8.
    meetings = [PlayedGame(1, 2, 1), PlayedGame(3, 4, 3), PlayedGame(5, 6, 5), PlayedGame(7, 8, 7)]
    pairing = pair_round(order, set(order), meetings, [])
    assert {frozenset(game) for game in pairing.games} == {
        frozenset((1, 3)), frozenset((5, 7)), frozenset((2, 4)), frozenset((6, 8))}


def test_a_rematch_is_avoided_by_pairing_further_down() -> None:
    order = [1, 2, 3, 4]
    meetings = [PlayedGame(1, 2, None), PlayedGame(3, 4, None)]  # all level on ½
    games = {frozenset(game) for game in pair_round(order, set(order), meetings, []).games}
    assert games == {frozenset((1, 3)), frozenset((2, 4))}


def test_when_every_pairing_is_a_rematch_one_is_allowed_rather_than_no_round() -> None:
    order = [1, 2]
    pairing = pair_round(order, set(order), [PlayedGame(1, 2, 1)], [])
    assert [frozenset(game) for game in pairing.games] == [frozenset((1, 2))]


def test_a_player_no_longer_active_is_not_paired() -> None:
    order = list(range(1, 10))
    pairing = pair_round(order, set(order) - {4}, [], [])
    assert pairing.bye is None and 4 not in {p for game in pairing.games for p in game}


def test_seats_alternate_the_one_who_sat_second_sits_first() -> None:
    order = [1, 2, 3, 4]
    # 1 beat 2 from the second seat, 3 beat 4 from the first: 1 meets 3, 2 meets 4.
    meetings = [PlayedGame(2, 1, 1), PlayedGame(3, 4, 3)]
    games = pair_round(order, set(order), meetings, []).games
    assert sorted(games) == [(1, 3), (4, 2)]


@pytest.mark.parametrize("players", [10, 16, 21])
def test_over_a_tournament_nobody_sits_first_more_than_one_game_too_often(players) -> None:
    rounds, _byes, _meetings = play_out(players, 3)
    balance: Counter[int] = Counter()
    for games in rounds:
        for first, second in games:
            balance[first] += 1
            balance[second] -= 1
    assert max(abs(value) for value in balance.values()) <= 2


def test_the_same_results_give_the_same_pairing() -> None:
    first = play_out(20, 7)
    again = play_out(20, 7)
    assert first == again


def test_rounds_grow_with_the_field_and_stay_a_few() -> None:
    assert swiss_rounds(9) == 4 and swiss_rounds(16) == 4
    assert swiss_rounds(17) == 5 and swiss_rounds(MOST_PLAYERS) == 5


def test_a_bye_scores_a_point_and_an_aborted_game_nothing() -> None:
    points = swiss_points([PlayedGame(1, 2, None, counts=False), PlayedGame(3, 4, None)], [5])
    assert points == {1: 0, 2: 0, 3: Fraction(1, 2), 4: Fraction(1, 2), 5: 1}


def test_buchholz_adds_the_points_of_every_opponent_met() -> None:
    games = [PlayedGame(1, 2, 1), PlayedGame(3, 4, 3), PlayedGame(1, 3, None),
             PlayedGame(2, 4, 2)]
    table = standings([1, 2, 3, 4, 5], games, byes=[5], buchholz=True)
    by_id = {row.user_id: row for row in table}
    assert by_id[1].points == Fraction(3, 2) and by_id[1].tiebreak == 1 + Fraction(3, 2)
    assert by_id[5].points == 1 and by_id[5].byes == 1 and by_id[5].played == 0
    assert [row.user_id for row in table][:2] == [1, 3]


def thirty_two_players_with_the_longest_names() -> TournamentRecord:
    """A Swiss tournament of 32 players whose names are as long as Discord allows, in round
    2 of 5 with round 1 over (the stronger of each pair won) and round 2 opened."""
    players = [TournamentPlayer(index, 1000 + index, f"{index:02d}" + "W" * 30)
               for index in range(MOST_PLAYERS)]
    return TournamentRecord(
        id=1, table_id=1, game="qawale", guild_id=1, channel_id=5, message_id=6, host_id=1000,
        options={}, clock="live", casual=False, legs=1, round=2,
        status=TournamentStatus.RUNNING, created_at=datetime(2026, 11, 28, tzinfo=UTC),
        finished_at=None, players=players)


@pytest.mark.parametrize("language", list(Language))
def test_the_message_of_thirty_two_players_with_long_names_fits_discord(language) -> None:
    tournament = thirty_two_players_with_the_longest_names()
    games: list[TournamentGame] = []
    for round_no in (1, 2):
        tournament.round = round_no
        plan = history(tournament, games).plans[-1]
        for board, (first, second) in enumerate(plan.games):
            status = GameStatus.FINISHED if round_no == 1 else GameStatus.RUNNING
            games.append(TournamentGame(100 * round_no + board, round_no, 10**18 + board,
                                        (first, second), status,
                                        {"winners": [0]} if round_no == 1 else None))
    with use_language(language):
        embed = tournament_embed(tournament, games)
    description = embed.description or ""
    assert len(description) <= EMBED_DESCRIPTION_LIMIT and len(embed) <= 6000
    lines = description.splitlines()
    round_two = next(i for i, line in enumerate(lines) if line.startswith(("**Round", "**Manche")))
    assert len(lines[round_two + 1:]) == 11, "ten of the round's games, then how many more"
    last = lines[round_two - 2]
    assert last.startswith(("**17.**", "• ")), "the standings end with the last or a count"


def test_round_one_pairs_the_top_half_of_the_seeds_with_the_bottom_half() -> None:
    seeds = list(range(1, 10))  # nine: the last seed has the bye
    pairing = pair_round(seeds, set(seeds), [], [])
    assert pairing.bye == 9
    assert {frozenset(game) for game in pairing.games} == {
        frozenset((1, 5)), frozenset((2, 6)), frozenset((3, 7)), frozenset((4, 8))}
