"""`/tournament`: a round-robin tournament. Members join its table, the host starts it; each
round's games open in their own threads, the next round once the last game of one ends,
and the tournament's message keeps the standings until a winner is hailed."""

from __future__ import annotations

import discord
import pytest

from bot.challenge_posts import TOURNAMENT_TABLE_TIMEOUT
from bot.publisher import DiscordPublisher
from bot.tournaments import RETRY_SECONDS, TournamentService
from storage import GameStatus, TournamentStatus
from tests.e2e.helpers import bot_of, control_labels, latest_board, said, simultaneously
from tests.e2e.test_clock import choice_message
from tests.e2e.test_restart import restart


@pytest.fixture
def dave(env, world):
    """A fourth member."""
    return world.guild.add_member(env.create_user("dave", global_name="Dave"))


async def open_tournament(world, game: str = "qawale", **options) -> discord.Message:
    """Alice opens a tournament, played round by round unless a clock says otherwise."""
    options.setdefault("clock", "live")
    posted = await world.alice.slash(world.channel, "tournament", game=game, **options)
    assert not posted.ephemeral, posted.response.content
    return posted.response.message


async def gather(world, *members, join: str = "Join", start: str = "Start") -> discord.Message:
    """Alice opens a Qawale tournament, `members` join, Alice starts it."""
    table = await open_tournament(world)
    for member in members:
        joined = await member.click(table, label=join)
        assert not joined.ephemeral, joined.response.content
    started = await world.alice.click(table, label=start)
    assert not started.ephemeral, started.response.content
    return table


def tournament_message(world, table: discord.Message) -> discord.Message:
    """The tournament's message as it is now."""
    return next(m for m in world.channel.history() if m.id == table.id)


def round_threads(env, world, count: int) -> list:
    """The newest `count` game threads of the channel."""
    return list(world.channel.threads[-count:])


async def lose(env, thread, loser) -> None:
    """`loser` resigns the game in `thread` with the board's button and confirms."""
    prompt = await loser.click(latest_board(thread), label="Resign")
    await loser.click(prompt.response.message, label="Resign")


async def players_of(env, thread) -> list[int]:
    session = await bot_of(env).sessions.get(
        (await bot_of(env).db.running_game_in(thread.id)).id)
    return [seat.user_id for seat in session.record.seats]


async def test_three_players_meet_each_other_round_by_round_and_the_winner_is_hailed(
    env, world
) -> None:
    table = await gather(world, world.bob, world.carol)
    rank = {world.alice.id: 0, world.bob.id: 1, world.carol.id: 2}  # who beats whom
    members = {m.id: m for m in (world.alice, world.bob, world.carol)}
    met = set()
    for round_no in (1, 2, 3):
        shown = tournament_message(world, table).embeds[0]
        assert shown.title == "🏆 Qawale tournament"
        assert f"round {round_no} of 3" in shown.description
        assert "sits this round out" in shown.description
        call = world.channel.history()[-1]
        assert call.content.startswith(f"🏆 **Round {round_no} of 3** of the Qawale tournament")
        [thread] = round_threads(env, world, 1)
        assert len(world.channel.threads) == round_no, "one game a round for three players"
        seated = await players_of(env, thread)
        assert all(f"<@{uid}>" in call.content for uid in seated), "the round pings its players"
        met.add(frozenset(seated))
        loser = max(seated, key=rank.__getitem__)
        await lose(env, thread, members[loser])
    assert len(met) == 3, "every pair met once"
    final = tournament_message(world, table).embeds[0]
    assert "Over after 3 rounds. 🥇 **Alice**" in final.description
    lines = final.description.splitlines()
    standings = lines[lines.index("**Standings**") + 1:]
    assert standings[0].startswith("**1.** Alice — **2** (2 played: 2 won, 0 drawn, 0 lost")
    assert standings[1].startswith("**2.** Bob — **1** (2 played: 1 won, 0 drawn, 1 lost")
    assert standings[2].startswith("**3.** Carol — **0**")
    assert world.channel.history()[-1].content == (
        "🏆 The Qawale tournament is over: **Alice** wins it with 2 points!")
    for member, won in ((world.alice, 1), (world.carol, 0)):
        stats = await member.slash(world.channel, "stats")
        [field] = [f for f in stats.response.embeds[0].fields if f.name == "🏆 Tournaments"]
        assert field.value == f"1 played · {won} won"
    server = await world.carol.slash(world.channel, "serverstats")
    [field] = [f for f in server.response.embeds[0].fields if f.name == "🏆 Tournaments"]
    assert field.value == "0 in progress · 1 played"


async def test_a_table_needs_three_players_and_only_the_host_starts_it(env, world) -> None:
    table = await open_tournament(world)
    assert table.embeds[0].title == "🏆 Qawale tournament"
    labels = [c.label for row in table.components for c in row.children]
    assert labels == ["Join", "Leave", "Start"], "no AI players in a tournament"
    alone = await world.alice.click(table, label="Start")
    assert alone.ephemeral
    assert "a tournament needs at least 3; 1 joined" in alone.response.content
    await world.bob.click(table, label="Join")
    not_host = await world.bob.click(table, label="Start")
    assert not_host.ephemeral and "Only Alice, who opened this table" in not_host.response.content
    await world.carol.click(table, label="Join")
    again = await world.carol.click(table, label="Join")
    assert again.ephemeral and "already at this table" in again.response.content
    assert not world.channel.threads, "nothing started"


async def test_a_field_of_four_plays_two_games_a_round(env, world, dave) -> None:
    table = await gather(world, world.bob, world.carol, dave)
    assert len(world.channel.threads) == 2
    shown = tournament_message(world, table).embeds[0].description
    assert "round 1 of 3" in shown and "sits this round out" not in shown
    first, second = round_threads(env, world, 2)
    members = {m.id: m for m in (world.alice, world.bob, world.carol, dave)}
    await lose(env, first, members[(await players_of(env, first))[0]])
    assert len(world.channel.threads) == 2, "round 2 waits for the round's last game"
    assert "1–0" in tournament_message(world, table).embeds[0].description or \
        "0–1" in tournament_message(world, table).embeds[0].description
    await lose(env, second, members[(await players_of(env, second))[1]])
    assert len(world.channel.threads) == 4
    assert "round 2 of 3" in tournament_message(world, table).embeds[0].description


async def test_an_aborted_game_scores_for_nobody_and_the_round_goes_on(env, world) -> None:
    table = await gather(world, world.bob, world.carol)
    [thread] = round_threads(env, world, 1)
    moderators = world.guild.create_role(
        "Moderators", permissions=discord.Permissions(manage_threads=True))
    erin = world.guild.add_member(env.create_user("erin", global_name="Erin"),
                                  roles=[moderators])
    aborted = await erin.slash(thread, "abort")
    assert "is aborted" in said(aborted)
    assert len(world.channel.threads) == 2, "round 2 opened"
    shown = tournament_message(world, table).embeds[0].description
    assert "round 2 of 3" in shown
    assert "— **0** (0 played" in shown


async def test_a_crash_between_a_game_end_and_the_next_round_is_mended_at_the_restart(
    env, world, database_url, monkeypatch
) -> None:
    table = await gather(world, world.bob, world.carol)
    [thread] = round_threads(env, world, 1)
    seated = await players_of(env, thread)
    members = {m.id: m for m in (world.alice, world.bob, world.carol)}
    # The bot dies right after the game's end is stored: nobody hears of it.
    async def dies(self, game_id: int) -> None:
        return None

    monkeypatch.setattr(TournamentService, "_after_game", dies)
    await lose(env, thread, members[seated[0]])
    assert len(world.channel.threads) == 1
    monkeypatch.undo()
    await restart(env, database_url)
    assert len(world.channel.threads) == 2, "the restart opened round 2"
    assert "round 2 of 3" in tournament_message(world, table).embeds[0].description
    [new] = round_threads(env, world, 1)
    assert latest_board(new).components, "the new round's board has its controls"


async def test_a_double_click_on_start_starts_one_tournament(env, world) -> None:
    table = await open_tournament(world)
    await world.bob.click(table, label="Join")
    await world.carol.click(table, label="Join")
    first, second = await simultaneously(env, lambda: world.alice.click(table, label="Start"),
                                         lambda: world.alice.click(table, label="Start"))
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
    late = second if second.ephemeral else first
    assert said(late) == "This tournament has already started."
    assert len(world.channel.threads) == 1
    assert len(await bot_of(env).db.running_tournaments()) == 1


async def test_a_tournament_is_opened_in_a_text_channel_not_in_a_thread(env, world) -> None:
    table = await gather(world, world.bob, world.carol)
    [thread] = round_threads(env, world, 1)
    refused = await world.alice.slash(thread, "tournament", game="graps")
    assert refused.ephemeral
    assert "Open a tournament in a text channel, not in a thread" in refused.response.content
    assert table


async def test_a_player_of_a_running_tournament_cannot_be_forgotten_yet(env, world) -> None:
    await gather(world, world.bob, world.carol)
    [thread] = round_threads(env, world, 1)
    seated = await players_of(env, thread)
    idle = next(m for m in (world.alice, world.bob, world.carol) if m.id not in seated)
    summary = await idle.slash(world.channel, "privacy")
    assert "⚠️ You play in 1 tournament still in progress: forgetting you waits for its end." \
        in summary.response.embeds[0].description, "said before they ask"
    refused = await idle.slash(world.channel, "privacy", forget="forget")
    assert refused.ephemeral
    assert "You play in a tournament still in progress" in refused.response.content


async def test_a_french_server_gets_its_tournament_in_french(env, soiree) -> None:
    table = await gather(soiree, soiree.bob, soiree.carol, join="Rejoindre", start="Lancer")
    shown = tournament_message(soiree, table).embeds[0]
    assert shown.title == "🏆 Tournoi de Qawale"
    assert "manche 1 sur 3" in shown.description


async def test_a_round_discord_will_not_open_waits_says_so_once_and_opens_later(
    env, world
) -> None:
    table = await gather(world, world.bob, world.carol)
    [thread] = round_threads(env, world, 1)
    seated = await players_of(env, thread)
    members = {m.id: m for m in (world.alice, world.bob, world.carol)}
    env.inject_error("POST", f"/channels/{world.channel.id}/threads", status=403, code=50013,
                     message="Missing Permissions", times=None)
    await lose(env, thread, members[seated[0]])
    notices = [m.content for m in world.channel.history() if m.content.startswith("⚠️")]
    assert notices == ["⚠️ I could not open a thread for round 2 of the Qawale tournament: I "
                       "need **Create Public Threads** and **Send Messages in Threads** here. "
                       "I try again every few minutes."]
    assert len(world.channel.threads) == 1
    await env.advance_time(RETRY_SECONDS + 1)
    assert len([m for m in world.channel.history() if m.content.startswith("⚠️")]) == 1, \
        "said once"
    env.backend.faults.clear()
    await env.advance_time(RETRY_SECONDS + 1)
    assert len(world.channel.threads) == 2, "round 2 opened once Discord allowed it"
    assert "round 2 of 3" in tournament_message(world, table).embeds[0].description



async def test_a_table_not_started_within_thirty_minutes_expires(env, world) -> None:
    table = await open_tournament(world)
    await world.bob.click(table, label="Join")
    await env.advance_time(TOURNAMENT_TABLE_TIMEOUT.total_seconds() - 60)
    assert tournament_message(world, table).components, "still open after 29 minutes"
    await env.advance_time(120)
    expired = tournament_message(world, table)
    assert expired.embeds[0].description == (
        "⌛ This Qawale tournament expired: it was not started within 30 minutes.")
    assert expired.components == []


async def test_the_hosts_leave_closes_the_table(env, world) -> None:
    table = await open_tournament(world)
    await world.bob.click(table, label="Join")
    await world.alice.click(table, label="Leave")
    closed = tournament_message(world, table)
    assert "Alice closed the Qawale tournament before it started." in \
        closed.embeds[0].description
    assert closed.components == []


async def test_without_thread_permission_no_tournament_is_opened(env, world) -> None:
    channel = world.guild.create_text_channel("no-threads", overwrites={
        world.guild.me: discord.PermissionOverwrite(create_public_threads=False)})
    refused = await world.alice.slash(channel, "tournament", game="qawale")
    assert refused.ephemeral
    assert refused.response.content == (
        f"A tournament needs me to open threads here, one per game: I lack Create Public "
        f"Threads in {channel.mention}.")
    assert not channel.history()


async def test_without_send_messages_no_tournament_is_opened_and_it_says_so(env, world) -> None:
    # Its round calls and standings go to the channel itself, not only to game threads.
    channel = world.guild.create_text_channel("quiet", overwrites={
        world.guild.me: discord.PermissionOverwrite(send_messages=False)})
    refused = await world.alice.slash(channel, "tournament", game="qawale", clock="live")
    assert refused.ephemeral
    assert refused.response.content.startswith(
        "A tournament needs me to open threads here, one per game: I lack Send Messages")


async def test_each_game_thread_and_board_is_marked_as_a_tournament_game(env, world) -> None:
    table = await gather(world, world.bob, world.carol)
    [thread] = round_threads(env, world, 1)
    assert thread.name.startswith("🏆 Qawale · ")
    assert latest_board(thread).embeds[0].title == thread.name
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{table.id}"
    assert thread.history()[0].content == (
        f"🏆 Round 1 of 3 of the Qawale tournament. [Standings]({link})"), "where it belongs"
    other = await world.alice.slash(world.channel, "challenge", game="qawale",
                                    opponent=world.bob)
    await world.bob.click(other.response.message, label="Accept")
    ordinary = world.channel.threads[-1]
    assert latest_board(ordinary).embeds[0].title.startswith("Qawale · "), "no 🏆 elsewhere"


async def test_twice_each_pair_meets_again_with_the_seats_swapped(env, world) -> None:
    table = await open_tournament(world, legs=2)
    assert "everyone plays everyone twice, seats swapped" in table.embeds[0].description
    await world.bob.click(table, label="Join")
    await world.carol.click(table, label="Join")
    await world.alice.click(table, label="Start")
    members = {m.id: m for m in (world.alice, world.bob, world.carol)}
    seatings = []
    for round_no in range(1, 7):
        assert f"round {round_no} of 6" in tournament_message(world, table).embeds[0].description
        [thread] = round_threads(env, world, 1)
        seated = await players_of(env, thread)
        seatings.append(tuple(seated))
        await lose(env, thread, members[seated[1]])
    assert sorted(seatings[3:]) == sorted((b, a) for a, b in seatings[:3])
    final = tournament_message(world, table).embeds[0].description
    assert "Over after 6 rounds" in final
    assert "share first place with 2 points" in world.channel.history()[-1].content


async def test_a_tournament_without_a_clock_is_refused(env, world) -> None:
    refused = await world.alice.slash(world.channel, "tournament", game="qawale", clock="none")
    assert refused.ephemeral
    assert "A tournament needs a clock" in refused.response.content


async def test_each_round_call_links_to_the_standings(env, world) -> None:
    table = await gather(world, world.bob, world.carol)
    call = world.channel.history()[-1].content
    assert f"[Standings](https://discord.com/channels/{world.guild.id}/{world.channel.id}/" \
        f"{table.id})" in call


async def tournament_status(env) -> TournamentStatus:
    """Where the test's (first) tournament stands in the database."""
    tournament = await bot_of(env).db.get_tournament(1)
    assert tournament is not None
    return tournament.status


@pytest.mark.parametrize("clock", ["live", "daily"])
async def test_deleting_the_tournaments_channel_cancels_it(env, world, clock) -> None:
    channel = world.guild.create_text_channel("tournoi")
    posted = await world.alice.slash(channel, "tournament", game="qawale", clock=clock)
    table = posted.response.message
    await world.bob.click(table, label="Join")
    await world.carol.click(table, label="Join")
    await world.alice.click(table, label="Start")
    env.backend.delete_channel(channel.id)
    await env.settle()
    assert await tournament_status(env) is TournamentStatus.CANCELLED
    assert await bot_of(env).db.running_tournaments() == []


async def test_a_server_the_bot_leaves_has_its_tournaments_cancelled(env, world) -> None:
    await gather(world, world.bob, world.carol)
    env.backend.remove_guild(world.guild.id)
    await env.settle()
    assert await tournament_status(env) is TournamentStatus.CANCELLED
    await env.advance_time(2 * RETRY_SECONDS)  # no retry knocks on a server left


async def withdraw(member, table) -> None:
    """`member` clicks Withdraw under the standings and confirms privately."""
    asked = await member.click(table, label="Withdraw")
    assert asked.ephemeral, said(asked)
    assert "resigned" in said(asked) and "It cannot be undone." in said(asked)
    done = await member.click(asked.response.message, label="Withdraw")
    assert said(done) == "🏳️ You withdrew from the Qawale tournament."


async def test_a_player_who_withdraws_resigns_and_forfeits_the_rest(env, world, dave) -> None:
    table = await gather(world, world.bob, world.carol, dave)
    members = {m.id: m for m in (world.alice, world.bob, world.carol, dave)}
    first, second = round_threads(env, world, 2)
    quitter = members[(await players_of(env, first))[0]]
    await withdraw(quitter, tournament_message(world, table))
    [notice] = [m.content for m in world.channel.history() if m.content.startswith("🏳️")]
    assert notice.startswith(f"🏳️ {quitter.name.title()} withdrew from the Qawale tournament")
    final_board = latest_board(first).embeds[0].description
    assert "resigned" in final_board
    assert len(world.channel.threads) == 2, "round 2 waits for the other game"
    await lose(env, second, members[(await players_of(env, second))[0]])
    # Rounds 2 and 3: one game each is played, the quitter's is a forfeit.
    for _round in (2, 3):
        assert len([t for t in world.channel.threads]) == 2 + _round - 1
        shown = tournament_message(world, table).embeds[0].description
        assert f"round {_round} of 3" in shown and "(forfeit)" in shown
        [thread] = round_threads(env, world, 1)
        seated = await players_of(env, thread)
        assert quitter.id not in seated
        await lose(env, thread, members[seated[1]])
    final = tournament_message(world, table).embeds[0]
    assert "Over after 3 rounds" in final.description
    quitter_line = next(line for line in final.description.splitlines()
                        if f"{quitter.name.title()} (withdrew)" in line)
    assert "— **0** (3 played: 0 won, 0 drawn, 3 lost" in quitter_line
    assert final.description.count("(withdrew)") == 1
    assert not tournament_message(world, table).components, "no Withdraw once it is over"


async def test_only_a_player_still_in_it_may_withdraw(env, world, dave) -> None:
    table = await gather(world, world.bob, world.carol)
    stranger = await dave.click(tournament_message(world, table), label="Withdraw")
    assert said(stranger) == "Only the players of this tournament can withdraw from it."
    await withdraw(world.bob, tournament_message(world, table))
    again = await world.bob.click(tournament_message(world, table), label="Withdraw")
    assert said(again) == "You already withdrew from this tournament."


async def cancel(member, table):
    """`member` clicks Cancel tournament and confirms privately; the confirmation's answer."""
    asked = await member.click(table, label="Cancel tournament")
    assert asked.ephemeral and "No further game opens" in said(asked), said(asked)
    return await member.click(asked.response.message, label="Cancel tournament")


async def test_the_host_cancels_a_tournament_and_its_games_go_on_as_ordinary_games(
    env, world
) -> None:
    table = await gather(world, world.bob, world.carol)
    [thread] = round_threads(env, world, 1)
    done = await cancel(world.alice, tournament_message(world, table))
    assert said(done) == "🛑 You cancelled the Qawale tournament."
    assert world.channel.history()[-1].content == \
        "🛑 Alice cancelled the Qawale tournament in round 1."
    shown = tournament_message(world, table)
    assert "🛑 Cancelled in round 1 of 3" in shown.embeds[0].description
    assert not shown.components
    members = {m.id: m for m in (world.alice, world.bob, world.carol)}
    await lose(env, thread, members[(await players_of(env, thread))[0]])
    assert len(world.channel.threads) == 1, "no round opens after a cancellation"
    assert await tournament_status(env) is TournamentStatus.CANCELLED


async def test_only_the_host_or_a_moderator_cancels_a_tournament(env, world) -> None:
    table = await gather(world, world.bob, world.carol)
    refused = await world.bob.click(tournament_message(world, table), label="Cancel tournament")
    assert said(refused) == ("Only Alice, who opened this tournament, or a moderator (Manage "
                             "Messages or Manage Threads) can cancel it.")
    moderators = world.guild.create_role(
        "Moderators", permissions=discord.Permissions(manage_messages=True))
    erin = world.guild.add_member(env.create_user("erin", global_name="Erin"),
                                  roles=[moderators])
    done = await cancel(erin, tournament_message(world, table))
    assert said(done) == "🛑 You cancelled the Qawale tournament."
    assert await tournament_status(env) is TournamentStatus.CANCELLED


def die_after_one_thread(monkeypatch) -> None:
    """The process dies (an error here) when it opens its second thread from now on."""
    real_open = DiscordPublisher.open_thread
    opened: list[str] = []

    async def crash_on_the_second(self, channel_id: int, name: str) -> int:
        if opened:
            raise RuntimeError("the process dies here")
        opened.append(name)
        return await real_open(self, channel_id, name)

    monkeypatch.setattr(DiscordPublisher, "open_thread", crash_on_the_second)


async def test_a_round_a_crash_left_half_open_is_completed_at_the_restart(
    env, world, dave, database_url, monkeypatch, allowed_errors
) -> None:
    allowed_errors.append(RuntimeError)
    die_after_one_thread(monkeypatch)
    table = await open_tournament(world)
    for member in (world.bob, world.carol, dave):
        await member.click(table, label="Join")
    await world.alice.click(table, label="Start")
    assert len(world.channel.threads) == 1, "the crash came between the round's two games"
    monkeypatch.undo()
    await restart(env, database_url)
    assert len(world.channel.threads) == 2
    games = await bot_of(env).db.tournament_games(1)
    assert [game.round for game in games] == [1, 1]
    assert len({uid for game in games for uid in game.player_ids}) == 4, "each plays once"
    for thread in world.channel.threads:
        assert latest_board(thread).components


async def test_a_daily_tournament_starts_every_game_at_once(env, world, dave) -> None:
    table = await open_tournament(world, clock="daily")
    for member in (world.bob, world.carol, dave):
        await member.click(table, label="Join")
    await world.alice.click(table, label="Start")
    assert len(world.channel.threads) == 6, "all three rounds' games"
    assert all(thread.history()[0].content.startswith("🏆 A game of the Qawale tournament. ")
               for thread in world.channel.threads)
    calls = [m.content for m in world.channel.history()
             if m.content.startswith(("🏆 The", "🏆 **Round"))]
    assert len(calls) == 1 and calls[0].startswith(
        "🏆 The Qawale tournament starts: all its 6 games at once, each in its own thread")
    assert all(f"<@{m.id}>" in calls[0] for m in (world.alice, world.bob, world.carol, dave))
    shown = tournament_message(world, table).embeds[0].description
    assert "every game at once: **0 of 6 games over**" in shown
    assert shown.count("⏳") == 6
    members = {m.id: m for m in (world.alice, world.bob, world.carol, dave)}
    rank = {world.alice.id: 0, world.bob.id: 1, world.carol.id: 2, dave.id: 3}
    for thread in list(world.channel.threads):
        seated = await players_of(env, thread)
        await lose(env, thread, members[max(seated, key=rank.__getitem__)])
    assert len(world.channel.threads) == 6, "nothing more to open"
    assert world.channel.history()[-1].content == (
        "🏆 The Qawale tournament is over: **Alice** wins it with 3 points!")
    assert "Over after 3 rounds" in tournament_message(world, table).embeds[0].description


async def test_withdrawing_from_a_daily_tournament_resigns_every_game_in_progress(
    env, world, dave
) -> None:
    table = await open_tournament(world, clock="daily")
    for member in (world.bob, world.carol, dave):
        await member.click(table, label="Join")
    await world.alice.click(table, label="Start")
    await withdraw(dave, tournament_message(world, table))
    resigned = [thread for thread in world.channel.threads
                if "resigned" in (latest_board(thread).embeds[0].description or "")]
    assert len(resigned) == 3, "each of Dave's three games"
    shown = tournament_message(world, table).embeds[0].description
    assert "**3 of 6 games over**" in shown
    assert "Dave (withdrew) — **0** (3 played" in shown


async def test_withdrawing_after_the_ai_took_one_game_resigns_the_others_and_says_so(
    env, world, dave, quick_boards
) -> None:
    table = await open_tournament(world, clock="daily")
    for member in (world.bob, world.carol, dave):
        await member.click(table, label="Join")
    await world.alice.click(table, label="Start")
    db = bot_of(env).db
    members = {m.id: m for m in (world.alice, world.bob, world.carol, dave)}
    daves = {}
    for thread in world.channel.threads:
        game = await db.running_game_in(thread.id)
        if game.seat_of(dave.id) is not None:
            daves[game.id] = (thread, game)
    # Qawale's first seat moves first: in a game where that is Dave, he runs out of time
    # and his opponent lets the AI play for him.
    thread, taken = next(pair for pair in daves.values() if pair[1].seats[0].user_id == dave.id)
    await env.advance_time(24 * 3600 + 60)
    choice = choice_message(thread)
    assert control_labels(choice)[1] == "Let the AI play for Dave"
    await members[taken.seats[1].user_id].click(choice, label=control_labels(choice)[1])

    await withdraw(dave, tournament_message(world, table))
    statuses = {game_id: (await db.get_game(game_id)).status for game_id in daves}
    assert statuses.pop(taken.id) is GameStatus.RUNNING, "the AI plays that one on"
    assert set(statuses.values()) == {GameStatus.FINISHED}, "his other two are resigned"
    notices = [m.content for m in world.channel.history() if m.content.startswith("🏳️")]
    assert notices == ["🏳️ Dave withdrew from the Qawale tournament: their next games are "
                       "lost by forfeit."]
    assert "Dave (withdrew) — **0** (2 played" in tournament_message(world, table).embeds[
        0].description


def tournaments_field(answer) -> str | None:
    """The "🏆 Your tournaments" field of a `/mygames` answer, if any."""
    return next((f.value for f in answer.response.embeds[0].fields
                 if f.name == "🏆 Your tournaments"), None)


async def test_my_games_lists_the_tournaments_one_plays_in_even_sitting_a_round_out(
    env, world, dave
) -> None:
    table = await gather(world, world.bob, world.carol)
    for member in (world.alice, world.bob, world.carol):
        listed = tournaments_field(await member.slash(world.channel, "mygames"))
        assert listed is not None and listed.startswith("**Qawale** · round 1 of 3 [Standings](")
        assert str(table.id) in listed
    assert tournaments_field(await dave.slash(world.channel, "mygames")) is None
    asked = await world.carol.click(tournament_message(world, table), label="Withdraw")
    await world.carol.click(asked.response.message, label="Withdraw")
    assert tournaments_field(await world.carol.slash(world.channel, "mygames")) is None, \
        "withdrawn: no longer theirs"
