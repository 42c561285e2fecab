"""Tournaments in storage: started once from their table, their games written with the
round, a round moved on once, forgetting a member only once it is over. On both backends."""

from __future__ import annotations

from datetime import timedelta

from engines import GAMES
from storage import ChallengeStatus, Database, GameStatus, Seat, TournamentStatus
from storage.privacy_queries import FORGOTTEN_NAME, is_forgotten
from tests.storage.test_ratings_storage import NOW

ALICE, BOB, CAROL = 10**17 + 1, 10**17 + 2, 10**17 + 3
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}


async def started(db: Database) -> int:
    """A Qawale tournament of Alice, Bob and Carol, from its table; its id."""
    table = await db.create_challenge(
        game="qawale", guild_id=1, channel_id=10, challenger_id=ALICE, opponent_ids=[BOB, CAROL],
        player_names=NAMES, options={}, now=NOW, expires_at=NOW + timedelta(minutes=30),
        kind="tournament")
    tournament = await db.start_tournament(
        table_id=table.id, game="qawale", guild_id=1, channel_id=10, message_id=99,
        host_id=ALICE, players=[(uid, NAMES[uid]) for uid in (CAROL, ALICE, BOB)], options={},
        clock="daily", casual=False, now=NOW)
    assert tournament is not None
    return tournament.id


async def game_of(db: Database, tournament_id: int, round_no: int, first: int,
                  second: int) -> int:
    state = GAMES["qawale"].new_state(2, {})
    record = await db.create_game(
        game="qawale", guild_id=1, channel_id=1000 + first % 100 + round_no, parent_id=10,
        seats=[Seat(0, first, NAMES[first]), Seat(1, second, NAMES[second])], options={},
        rng_seed=1, state=state.dump(), now=NOW, clock="daily",
        tournament=(tournament_id, round_no))
    return record.id


async def test_a_tournament_starts_once_from_its_table_with_its_players_in_draw_order(
    db,
) -> None:
    tournament_id = await started(db)
    tournament = await db.get_tournament(tournament_id)
    assert [p.user_id for p in tournament.players] == [CAROL, ALICE, BOB]
    assert (tournament.round, tournament.status, tournament.message_id) == (
        1, TournamentStatus.RUNNING, 99)
    table = await db.get_challenge(tournament.table_id)
    assert table.status is ChallengeStatus.ACCEPTED and table.is_tournament
    again = await db.start_tournament(
        table_id=table.id, game="qawale", guild_id=1, channel_id=10, message_id=99,
        host_id=ALICE, players=[(ALICE, "Alice")], options={}, clock="daily", casual=False,
        now=NOW)
    assert again is None, "a second Start starts nothing"
    assert await db.running_tournaments() == [tournament_id]


async def test_a_rounds_games_belong_to_it_and_the_round_moves_on_once(db) -> None:
    tournament_id = await started(db)
    game_id = await game_of(db, tournament_id, 1, ALICE, BOB)
    assert await db.tournament_of_game(game_id) == tournament_id
    [game] = await db.tournament_games(tournament_id)
    assert (game.round, game.player_ids, game.status) == (1, (ALICE, BOB), GameStatus.RUNNING)
    assert await db.next_tournament_round(tournament_id, 1)
    assert not await db.next_tournament_round(tournament_id, 1), "moved on once"
    assert (await db.get_tournament(tournament_id)).round == 2
    assert await db.tournaments_of(ALICE, 1) == (0, 0), "not over yet"
    assert await db.finish_tournament(tournament_id, NOW, {ALICE: 1, BOB: 1, CAROL: 3})
    assert not await db.finish_tournament(tournament_id, NOW, {CAROL: 1})
    assert await db.running_tournaments() == []
    assert {p.user_id: p.place for p in (await db.get_tournament(tournament_id)).players} == {
        ALICE: 1, BOB: 1, CAROL: 3}
    assert await db.tournaments_of(BOB, 1) == (1, 1)
    assert await db.tournaments_of(CAROL, 1) == (1, 0)
    assert await db.tournaments_of(CAROL, 2) == (0, 0), "another server"
    assert await db.server_tournaments(1) == (0, 1)
    assert await db.server_tournaments(2) == (0, 0)


async def test_a_player_is_forgotten_only_once_their_tournament_is_over(db) -> None:
    tournament_id = await started(db)
    assert await db.running_tournaments_of(CAROL) == 1
    assert await db.forget_member(CAROL) is None, "its next rounds would pair her"
    await db.finish_tournament(tournament_id, NOW)
    done = await db.forget_member(CAROL)
    assert done is not None and is_forgotten(done.new_id)
    tournament = await db.get_tournament(tournament_id)
    assert (tournament.players[0].user_id, tournament.players[0].name) == (
        done.new_id, FORGOTTEN_NAME)


async def test_a_tournament_is_cancelled_once_with_its_channel_or_server(db) -> None:
    first, second = await started(db), None
    assert await db.cancel_tournament(first, NOW)
    assert not await db.cancel_tournament(first, NOW)
    assert (await db.get_tournament(first)).status is TournamentStatus.CANCELLED
    table = await db.create_challenge(
        game="graps", guild_id=1, channel_id=11, challenger_id=BOB, opponent_ids=[ALICE, CAROL],
        player_names=NAMES, options={}, now=NOW, expires_at=NOW, kind="tournament")
    second = (await db.start_tournament(
        table_id=table.id, game="graps", guild_id=1, channel_id=11, message_id=None,
        host_id=BOB, players=list(NAMES.items()), options={}, clock="daily", casual=False,
        now=NOW, legs=2)).id
    assert (await db.get_tournament(second)).legs == 2
    assert await db.cancel_tournaments_on_server(2, NOW) == []
    assert await db.cancel_tournaments_on_server(1, NOW) == [second]
    assert await db.running_tournaments() == []


async def test_a_player_withdraws_once_in_the_round_being_played(db) -> None:
    tournament_id = await started(db)
    await db.next_tournament_round(tournament_id, 1)
    assert await db.withdraw_from_tournament(tournament_id, BOB) == 2
    assert await db.withdraw_from_tournament(tournament_id, BOB) is None, "once"
    assert await db.withdraw_from_tournament(tournament_id, 12345) is None, "not a player"
    bob = next(p for p in (await db.get_tournament(tournament_id)).players if p.user_id == BOB)
    assert bob.withdrawn_in == 2 and bob.withdrawn_by(2) and not bob.withdrawn_by(1)
    await db.finish_tournament(tournament_id, NOW)
    assert await db.withdraw_from_tournament(tournament_id, ALICE) is None, "it is over"
