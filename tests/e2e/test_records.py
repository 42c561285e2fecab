"""Leaderboards, stats, history, replays and /abort, end to end."""

from __future__ import annotations

import io
from datetime import timedelta

import discord
from PIL import Image

from storage import GameStatus, MoveKind, NewMove, Seat
from tests.e2e.helpers import actor_for, bot_of, challenge_and_accept, latest_board

NOW = discord.utils.utcnow()


async def _resign_game(env, world, loser, winner) -> int:
    _thread, session = await challenge_and_accept(env, world.channel, winner, loser)
    await session.resign(loser.id)
    return session.id


async def test_a_resignation_rates_the_winner_first(env, world) -> None:
    await _resign_game(env, world, world.bob, world.alice)
    board = await world.carol.slash(world.channel, "leaderboard", game="qawale")
    assert not board.ephemeral
    text = board.response.embeds[0].description
    assert text.index("Alice") < text.index("Bob")
    assert "1 game · 1 win" in text and "1 game · 0 wins" in text
    assert board.response.components == []  # one page: no paging buttons


async def resigned_graps_games(env, world, count: int, now=NOW) -> None:
    """`count` Graps games finished at `now`, each between two new players (2 × count)."""
    db = bot_of(env).db
    for i in range(count):
        game = await db.create_game(
            game="graps", guild_id=world.guild.id, channel_id=900 + i, parent_id=None,
            seats=[Seat(0, 1000 + i, f"P{i:02}a"), Seat(1, 2000 + i, f"P{i:02}b")],
            options={}, rng_seed=1, state={}, now=now)
        await db.record_moves(game.id, 0, [NewMove(1, 2000 + i, MoveKind.RESIGN, "resign")], {},
                              result={"winners": [0], "scores": None, "reason": "resigned"},
                              now=now)


async def test_the_leaderboard_pages_with_buttons(env, world) -> None:
    await resigned_graps_games(env, world, 12)  # 24 players: three pages
    first = await world.alice.slash(world.channel, "leaderboard", game="graps")
    embed = first.response.embeds[0]
    assert embed.footer.text.startswith("Page 1/3 · 24 players")
    assert embed.description.count("\n") == 9 and "**1.**" in embed.description
    second = await world.alice.click(first.response.message, label="Next")
    embed = second.response.embeds[0]
    assert embed.footer.text.startswith("Page 2/3") and "**11.**" in embed.description
    back = await world.bob.click(second.response.message, label="Previous")
    assert back.response.embeds[0].footer.text.startswith("Page 1/3")
    everywhere = await world.alice.slash(world.channel, "leaderboard", game="graps",
                                         scope="global")
    assert "all servers" in everywhere.response.embeds[0].title


async def test_stats_of_a_member_with_no_games(env, world) -> None:
    result = await world.alice.slash(world.channel, "stats", member=world.carol)
    assert "has not finished a rated game" in result.response.embeds[0].description


async def test_stats_and_history_after_games(env, world) -> None:
    first = await _resign_game(env, world, world.bob, world.alice)
    second = await _resign_game(env, world, world.bob, world.alice)
    stats = await world.carol.slash(world.channel, "stats", member=world.alice)
    field = stats.response.embeds[0].fields[0]
    assert field.name == "Qawale"
    assert "2 games · 2 wins · 0 losses" in field.value and "Streak: 2 wins" in field.value
    history = await world.bob.slash(world.channel, "history")
    lines = history.response.embeds[0].description.splitlines()
    assert lines[0].startswith(f"`#{second}` **Qawale** vs Alice · lost (resignation)")
    assert lines[1].startswith(f"`#{first}`")


async def test_history_pages_ten_games_at_a_time_newest_first(env, world) -> None:
    db = bot_of(env).db
    for i in range(12):  # Bob loses to Rival00, then Rival01, ... Rival11 (the latest)
        when = NOW + timedelta(minutes=i)
        game = await db.create_game(
            game="graps", guild_id=world.guild.id, channel_id=900 + i, parent_id=None,
            seats=[Seat(0, world.bob.id, "Bob"), Seat(1, 3000 + i, f"Rival{i:02}")],
            options={}, rng_seed=1, state={}, now=when)
        await db.record_moves(game.id, 0, [NewMove(0, world.bob.id, MoveKind.RESIGN, "resign")],
                              {}, result={"winners": [1], "scores": None, "reason": "resigned"},
                              now=when)
    first = await world.alice.slash(world.channel, "history", member=world.bob)
    embed = first.response.embeds[0]
    lines = embed.description.splitlines()
    assert len(lines) == 10 and "vs Rival11 ·" in lines[0] and "vs Rival02 ·" in lines[-1]
    assert embed.footer.text.startswith("Page 1/2 · 12 games")
    buttons = [c for row in first.response.message.components for c in row.children]
    assert [(b.label, b.disabled) for b in buttons] == [("Newer", True), ("Older", False)]

    older = await world.carol.click(first.response.message, label="Older")
    page = older.response.embeds[0]
    assert page.title == "📜 Bob's latest games"
    assert ["vs Rival01 ·" in line or "vs Rival00 ·" in line
            for line in page.description.splitlines()] == [True, True]
    assert page.footer.text.startswith("Page 2/2")
    newer = await world.bob.click(older.response.message, label="Newer")
    assert newer.response.embeds[0].description == embed.description


async def test_a_short_history_has_no_paging_buttons(env, world) -> None:
    await _resign_game(env, world, world.bob, world.alice)
    history = await world.bob.slash(world.channel, "history")
    assert history.response.components == []
    assert history.response.embeds[0].footer.text == "Watch one again with /replay game:<id>"


async def test_stats_versus_shows_who_finished_ahead_in_the_games_played_together(
    env, world
) -> None:
    await _resign_game(env, world, world.bob, world.alice)  # Alice wins
    await _resign_game(env, world, world.alice, world.bob)  # Bob wins
    await _resign_game(env, world, world.bob, world.alice)  # Alice wins
    await _resign_game(env, world, world.carol, world.alice)  # not with Bob
    shown = await world.carol.slash(world.channel, "stats", member=world.alice,
                                    versus=world.bob)
    assert not shown.ephemeral
    embed = shown.response.embeds[0]
    assert embed.title == "⚔️ Alice vs Bob · this server"
    [field] = embed.fields
    assert field.name == "Qawale · 3 games"
    assert field.value.startswith("**Alice 2** · **Bob 1** · last game <t:")
    mine = await world.bob.slash(world.channel, "stats", versus=world.alice)
    assert mine.response.embeds[0].fields[0].value.startswith("**Bob 1** · **Alice 2**")


async def test_stats_versus_oneself_is_refused_and_strangers_have_no_games(env, world) -> None:
    oneself = await world.alice.slash(world.channel, "stats", versus=world.alice)
    assert oneself.ephemeral
    assert oneself.response.content == "Pick someone else to compare Alice with."
    strangers = await world.alice.slash(world.channel, "stats", versus=world.carol)
    assert strangers.response.embeds[0].description == (
        "Alice and Carol have not finished a game together on this server yet.")


async def test_replay_posts_a_gif_with_one_frame_per_decision(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    for move in ["a1:NES", "a4:SSE"]:
        mover = actor_for(session, world.alice, world.bob)
        played = await mover.slash(thread, "move", notation=move)
        assert "Played" in played.response.content, played.response.content
    await session.resign(world.alice.id)
    result = await world.carol.slash(world.channel, "replay", game=str(session.id))
    assert not result.ephemeral
    attachment = result.response.attachments[0]
    assert attachment.filename == f"replay-{session.id}.gif"
    gif = Image.open(io.BytesIO(await attachment.read()))
    assert gif.n_frames == 3  # the start and two moves; the resignation draws nothing
    missing = await world.carol.slash(world.channel, "replay", game="9999")
    assert missing.ephemeral and "no game #9999" in missing.response.content


async def test_abort_needs_a_moderator_or_every_player_and_pings_the_others_once(
    env, world
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    refused = await world.carol.slash(thread, "abort")
    assert refused.ephemeral and "Only a moderator" in refused.response.content
    asked = await world.alice.slash(thread, "abort")
    assert not asked.ephemeral and f"<@{world.bob.id}>, to agree" in asked.response.content
    assert (await bot_of(env).db.get_game(session.id)).status is GameStatus.RUNNING
    pinged = len(thread.history())
    again = await world.alice.slash(thread, "abort")
    assert again.ephemeral and "still waiting for Bob" in again.response.content
    assert len(thread.history()) == pinged, "asking again posts nothing, pings nobody"
    agreed = await world.bob.slash(thread, "abort")
    assert agreed.ephemeral and "aborted" in agreed.response.content
    assert (await bot_of(env).db.get_game(session.id)).status is GameStatus.ABORTED


async def test_a_moderator_aborts_and_the_game_counts_for_no_rating(env, world) -> None:
    mods = world.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    dave = world.guild.add_member(env.create_user("dave", global_name="Dave"), roles=[mods])
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    board = latest_board(thread)
    done = await dave.slash(thread, "abort")
    assert done.ephemeral and "aborted" in done.response.content
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.status is GameStatus.ABORTED and stored.result is None
    assert any("was aborted by" in (m.content or "") for m in thread.history())
    assert board.id not in [m.id for m in thread.history() if m.components]
    late = await world.alice.slash(thread, "move", notation="a1:NES")
    assert late.ephemeral
    leaderboard = await world.alice.slash(world.channel, "leaderboard", game="qawale")
    assert "No rated game" in leaderboard.response.embeds[0].description
    history = await world.alice.slash(world.channel, "history")
    assert "aborted" in history.response.embeds[0].description


async def test_a_player_who_left_the_server_is_not_needed_to_abort(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    world.guild.remove_member(world.bob)
    await env.settle()
    done = await world.alice.slash(thread, "abort")
    assert done.ephemeral and "is aborted" in done.response.content
    assert (await bot_of(env).db.get_game(session.id)).status is GameStatus.ABORTED
    assert any("was aborted by all its players" in (m.content or "") for m in thread.history())


async def test_in_a_group_only_the_players_still_here_must_agree(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="kraut_ruben",
                                     opponent=world.bob, opponent2=world.carol)
    await world.bob.click(result.response.message, label="Accept")
    await world.carol.click(result.response.message, label="Accept")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    world.guild.remove_member(world.carol)
    await env.settle()
    asked = await world.alice.slash(thread, "abort")
    assert not asked.ephemeral
    assert f"<@{world.bob.id}>, to agree" in asked.response.content
    assert f"<@{world.carol.id}>" not in asked.response.content, "she cannot answer"
    agreed = await world.bob.slash(thread, "abort")
    assert agreed.ephemeral and "is aborted" in agreed.response.content
    assert (await bot_of(env).db.get_game(session.id)).status is GameStatus.ABORTED


async def test_a_player_discord_cannot_tell_about_still_counts_as_present(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    env.inject_error("GET", f"/guilds/{world.guild.id}/members/{world.bob.id}", status=500,
                     times=5)
    asked = await world.alice.slash(thread, "abort")
    assert not asked.ephemeral and f"<@{world.bob.id}>, to agree" in asked.response.content
    assert (await bot_of(env).db.get_game(session.id)).status is GameStatus.RUNNING


async def test_history_counts_a_game_left_to_the_ai_as_lost_even_when_the_ai_won(
    env, world
) -> None:
    # Bob left a game of three; the AI that played his seat on won it. The ratings count it
    # as his loss, and /history says the same.
    db = bot_of(env).db
    seats = [Seat(0, world.alice.id, "Alice"), Seat(1, world.bob.id, "Bob"),
             Seat(2, world.carol.id, "Carol")]
    now = discord.utils.utcnow()
    game = await db.create_game(game="kraut_ruben", guild_id=world.guild.id, channel_id=703,
                                parent_id=None, seats=seats, options={}, rng_seed=1, state={},
                                now=now)
    await db.record_moves(game.id, 0, [NewMove(1, world.bob.id, MoveKind.LEAVE, "left")], {},
                          result=None, now=now, stand_ins={1: "medium"})
    await db.record_moves(game.id, 1, [NewMove(0, world.alice.id, MoveKind.PLAYER, "x")], {},
                          result={"winners": [1], "scores": [10, 30, 20], "reason": "gardens"},
                          now=now)
    history = await world.bob.slash(world.channel, "history")
    line = history.response.embeds[0].description
    assert " · lost (left) · " in line and "won" not in line
    stats = await world.bob.slash(world.channel, "stats")
    assert "0 wins" in stats.response.embeds[0].fields[0].value
