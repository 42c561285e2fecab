"""`/tournament` with more than eight players: a Swiss tournament. A few rounds, players on
the same points meet and never twice, an odd field gives a bye worth a point, and a restart
completes a round exactly as it was paired."""

from __future__ import annotations

import discord
import pytest

from tests.e2e.helpers import bot_of, said
from tests.e2e.test_records import _resign_game
from tests.e2e.test_restart import restart
from tests.e2e.test_tournaments import (
    die_after_one_thread,
    lose,
    open_tournament,
    players_of,
    round_threads,
    tournament_message,
)

NAMES = ("dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj", "olivia")


@pytest.fixture
def field(env, world):
    """Alice, Bob, Carol and ten more members, strongest first: who beats whom."""
    others = [world.guild.add_member(env.create_user(name, global_name=name.title()))
              for name in NAMES]
    return [world.alice, world.bob, world.carol, *others]


async def gather_field(world, members) -> discord.Message:
    """Alice opens a Qawale tournament, the other `members` join, Alice starts it."""
    table = await open_tournament(world)
    for member in members[1:]:
        joined = await member.click(table, label="Join")
        assert not joined.ephemeral, said(joined)
    started = await world.alice.click(table, label="Start")
    assert not started.ephemeral, said(started)
    return table


async def play_round(env, world, members, count: int) -> list[frozenset[int]]:
    """The newest `count` games end, the stronger player (earlier in `members`) winning;
    the pairs that met."""
    rank = {member.id: index for index, member in enumerate(members)}
    by_id = {member.id: member for member in members}
    pairs = []
    for thread in round_threads(env, world, count):
        if await bot_of(env).db.running_game_in(thread.id) is None:
            continue  # over already (resigned by a player who withdrew)
        seated = await players_of(env, thread)
        pairs.append(frozenset(seated))
        await lose(env, thread, by_id[max(seated, key=rank.__getitem__)])
    return pairs


def points_of(description: str, members) -> dict[int, str]:
    """Each member's points in the standings, as written (`2½`)."""
    found = {}
    for line in description.splitlines():
        for member in members:
            if f" {member.name.title()} — **" in line:
                found[member.id] = line.split("— **")[1].split("**")[0]
    return found


async def test_nine_players_play_four_swiss_rounds_with_a_bye_and_no_rematch(
    env, world, field
) -> None:
    members = field[:9]
    table = await gather_field(world, members)
    met: set[frozenset[int]] = set()
    byes = []
    for round_no in (1, 2, 3, 4):
        shown = tournament_message(world, table).embeds[0]
        assert "Swiss: players on the same points meet, never twice" in shown.description
        assert f"round {round_no} of 4" in shown.description
        call = world.channel.history()[-1].content
        assert call.startswith(f"🏆 **Round {round_no} of 4** of the Qawale tournament")
        assert "has a bye (1 point)." in call
        byes.append(call.split(" has a bye")[0].rsplit(". ", 1)[-1])
        points = points_of(shown.description, members)
        assert len(world.channel.threads) == 4 * round_no, "four games a round, one bye"
        pairs = await play_round(env, world, members, 4)
        assert not met & set(pairs), "nobody meets the same player twice"
        met |= set(pairs)
        for pair in pairs:  # players on the same points meet, as far as the field allows
            a, b = sorted(pair)
            assert abs(float(points[a].replace("½", ".5") or 0)
                       - float(points[b].replace("½", ".5") or 0)) <= 1
    assert len(set(byes)) == 4, "a different player has the bye each round"
    final = tournament_message(world, table).embeds[0]
    assert "Over after 4 rounds. 🥇 **Alice**" in final.description
    assert "Buchholz" in final.footer.text
    lines = final.description.splitlines()
    standings = lines[lines.index("**Standings**") + 1:]
    assert standings[0].startswith("**1.** Alice — **4** (")  # (four wins, or three and a bye)
    assert any("1 bye · tie-break" in line for line in standings)
    assert world.channel.history()[-1].content == (
        "🏆 The Qawale tournament is over: **Alice** wins it with 4 points!")


async def test_a_swiss_player_who_withdraws_is_not_paired_again(env, world, field) -> None:
    members = field[:9]
    table = await gather_field(world, members)
    quitter = members[8]  # the weakest
    asked = await quitter.click(tournament_message(world, table), label="Withdraw")
    assert asked.ephemeral and "you are not paired again" in said(asked)
    await quitter.click(asked.response.message, label="Withdraw")
    notice = [m.content for m in world.channel.history() if m.content.startswith("🏳️")]
    assert notice == [f"🏳️ {quitter.name.title()} withdrew from the Qawale tournament: they "
                      "are not paired again."]
    await play_round(env, world, members, 4)
    # Eight players left: four games, nobody has a bye, the quitter sits nowhere.
    assert len(world.channel.threads) == 8
    for thread in round_threads(env, world, 4):
        assert quitter.id not in await players_of(env, thread)
    assert "has a bye" not in world.channel.history()[-1].content


async def test_a_swiss_table_seats_up_to_thirty_two_and_twice_keeps_eight(
    env, world, field
) -> None:
    table = await open_tournament(world)
    for member in field[1:]:
        await member.click(table, label="Join")
    shown = next(m for m in world.channel.history() if m.id == table.id).embeds[0]
    assert "**Players (13/32):**" in shown.description
    assert "9 to 32, a Swiss tournament of 4 to 5 rounds" in shown.description
    twice = await world.bob.slash(world.channel, "tournament", game="graps", clock="live",
                                  legs=2)
    for member in field[2:9]:
        await member.click(twice.response.message, label="Join")
    full = await field[9].click(twice.response.message, label="Join")
    assert full.ephemeral and said(full) == "This table is full (8 players)."


async def test_a_round_a_crash_left_half_open_is_paired_the_same_at_the_restart(
    env, world, field, database_url, monkeypatch, allowed_errors
) -> None:
    allowed_errors.append(RuntimeError)
    members = field[:10]
    await gather_field(world, members)
    first_round = round_threads(env, world, 5)
    rank = {member.id: index for index, member in enumerate(members)}
    by_id = {member.id: member for member in members}
    met = set()
    for thread in first_round:
        seated = await players_of(env, thread)
        met.add(frozenset(seated))
        if thread is first_round[-1]:
            # Round 2's pairing depends on round 1's results: the process dies after its
            # first game's thread opened.
            die_after_one_thread(monkeypatch)
        await lose(env, thread, by_id[max(seated, key=rank.__getitem__)])
    assert len(world.channel.threads) == 6, "the crash came after round 2's first game"
    kept = await players_of(env, world.channel.threads[-1])
    monkeypatch.undo()
    await restart(env, database_url)
    assert len(world.channel.threads) == 10
    second = [game for game in await bot_of(env).db.tournament_games(1) if game.round == 2]
    assert len(second) == 5 and sorted(second[0].player_ids) == sorted(kept)
    assert sorted(uid for game in second for uid in game.player_ids) == sorted(rank)
    assert not met & {frozenset(game.player_ids) for game in second}, "no rematch"


async def test_a_swiss_field_is_seeded_by_rating_so_the_best_do_not_meet_at_once(
    env, world, field
) -> None:
    await _resign_game(env, world, world.bob, world.alice)  # Alice now has the best rating
    members = field[:9]
    await gather_field(world, members)
    tournament = await bot_of(env).db.get_tournament(1)
    assert tournament is not None and tournament.players[0].user_id == world.alice.id
    seeds = [player.user_id for player in tournament.players]
    for thread in round_threads(env, world, 4):
        first, second = sorted(seeds.index(uid) for uid in await players_of(env, thread))
        assert second - first == 4, "seed 1 meets seed 5, seed 2 seed 6..."
