"""The ratings table kept as games finish always equals the ratings rebuilt from history."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from bot.ai_players import ai_user_id
from bot.ratings import compute_ratings, leaderboard
from engines import GAMES
from storage import GLOBAL_SCOPE, Database, MoveKind, NewMove, Seat

NOW = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)
MEMBERS = [101, 102, 103, 104, 105, 106]


async def play_history(db: Database, rng: random.Random, games: int) -> None:
    """Finish `games` random games: 2 to 4 players, AI seats, stand-ins, unrated games,
    shared wins, scores, two servers and DMs."""
    for number in range(games):
        size = rng.choice([2, 2, 3, 4])
        people = rng.sample(MEMBERS, size)
        if rng.random() < 0.3:
            people[-1] = ai_user_id(rng.choice(["easy", "medium", "hard"]), size - 1)
        if size > 2 and rng.random() < 0.3:
            people[-2] = ai_user_id("easy", size - 2)  # two AI seats may share a level
        guild = rng.choice([1, 2, None])
        at = NOW + timedelta(minutes=number)
        state = GAMES["kraut_ruben"].new_state(size).dump()
        record = await db.create_game(
            game="kraut_ruben", guild_id=guild, channel_id=number, parent_id=None,
            seats=[Seat(i, user, f"M{user}") for i, user in enumerate(people)], options={},
            rng_seed=number, state=state, now=at)
        winners = rng.sample(range(size), rng.choice([0, 1, 1, 1, 2]))
        stand_ins = {size - 1: "medium"} if size > 2 and rng.random() < 0.2 else None
        await db.record_moves(
            record.id, 0, [NewMove(0, people[0], MoveKind.PLAYER, "x")], state,
            result={"winners": winners, "reason": "end",
                    "scores": [rng.randrange(30) for _ in range(size)]},
            now=at, stand_ins=stand_ins, unrated=size == 2 and rng.random() < 0.1)


def as_table(players):
    return {p: (round(r.mu, 9), round(r.sigma, 9), r.games, r.wins, r.draws, r.losses,
                r.streak, r.best_streak, r.name) for p, r in players.items()}


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_the_ratings_table_equals_ratings_rebuilt_from_every_finished_game(
    db: Database, seed: int,
) -> None:
    await play_history(db, random.Random(seed), 60)
    history = await db.finished_games("kraut_ruben")
    for scope in (GLOBAL_SCOPE, 1, 2):
        games = [g for g in history if scope == GLOBAL_SCOPE or g.guild_id == scope]
        rebuilt = leaderboard(compute_ratings(games, scope))
        rows, total = await db.leaderboard("kraut_ruben", scope, offset=0, limit=100)
        assert total == len(rebuilt) > 3
        assert [r.player_id for r in rows] == [r.player_id for r in rebuilt]
        assert as_table({r.player_id: r for r in rows}) == as_table(
            {r.player_id: r for r in rebuilt})


async def test_a_players_rank_in_stats_matches_their_place_on_the_leaderboard(
    db: Database,
) -> None:
    await play_history(db, random.Random(9), 40)
    rows, total = await db.leaderboard("kraut_ruben", 1, offset=0, limit=100)
    for place, row in enumerate(rows, start=1):
        [(mine, rank, players)] = await db.player_ratings(row.player_id, 1)
        assert (mine.player_id, rank, players) == (row.player_id, place, total)
