"""Every challenge and table pings someone, so a member cannot flood a server with them:
one waiting challenge to a member at a time, one open table of a game, and at most five
challenges and tables waiting at once. Each refusal is private and says what to do."""

from __future__ import annotations

from tests.e2e.helpers import bot_of, challenge_and_accept, latest_board, speaking, the_bot


async def test_a_second_challenge_to_the_same_member_waits_for_the_first(env, world) -> None:
    first = await world.alice.slash(world.channel, "challenge", game="qawale",
                                    opponent=world.bob)
    assert not first.ephemeral
    again = await world.alice.slash(world.channel, "challenge", game="graps",
                                    opponent=world.bob)
    assert again.ephemeral
    assert again.response.content.startswith(
        "You already challenged Bob: wait for their answer (your challenge expires <t:")
    assert again.response.content.endswith(">), or withdraw it with its Decline button.")
    # Bob answers: Alice may challenge him again.
    await world.bob.click(first.response.message, label="Decline")
    third = await world.alice.slash(world.channel, "challenge", game="graps",
                                    opponent=world.bob)
    assert not third.ephemeral, third.response.content


async def test_a_challenge_that_expired_no_longer_holds_the_next_back(env, world) -> None:
    await world.alice.slash(world.channel, "challenge", game="qawale", opponent=world.bob)
    await env.advance_time(11 * 60)
    again = await world.alice.slash(world.channel, "challenge", game="qawale",
                                    opponent=world.bob)
    assert not again.ephemeral, again.response.content


async def test_challenging_one_member_twice_in_a_group_is_refused(env, world) -> None:
    await world.alice.slash(world.channel, "challenge", game="kraut_ruben",
                            opponent=world.bob, opponent2=world.carol)
    again = await world.alice.slash(world.channel, "challenge", game="qawale",
                                    opponent=world.carol)
    assert again.ephemeral
    assert again.response.content.startswith("You already challenged Carol:")


async def test_five_waiting_challenges_and_tables_are_the_most(env, world) -> None:
    others = [world.guild.add_member(env.create_user(f"p{n}", global_name=f"Player {n}"))
              for n in range(5)]
    for opponent in others[:4]:
        sent = await world.alice.slash(world.channel, "challenge", game="qawale",
                                       opponent=opponent)
        assert not sent.ephemeral, sent.response.content
    table = await world.alice.slash(world.channel, "lobby", game="graps")
    assert not table.ephemeral, table.response.content
    sixth = await world.alice.slash(world.channel, "challenge", game="qawale",
                                    opponent=others[4])
    assert sixth.ephemeral
    assert sixth.response.content.startswith(
        "You have 5 challenges and tables waiting already: wait until one is answered or "
        "expires (the first <t:")
    # Someone else is not held back by Alice's.
    theirs = await world.bob.slash(world.channel, "challenge", game="qawale",
                                   opponent=others[4])
    assert not theirs.ephemeral, theirs.response.content


async def test_a_second_table_of_the_same_game_is_refused_until_the_first_closes(
        env, world) -> None:
    table = await world.alice.slash(world.channel, "lobby", game="graps")
    again = await world.alice.slash(world.channel, "lobby", game="graps")
    assert again.ephemeral
    assert again.response.content == (
        f"Your table of Graps is still open in <#{world.channel.id}>: start it there, wait for "
        "players, or close it with Leave.")
    other_game = await world.alice.slash(world.channel, "lobby", game="qawale")
    assert not other_game.ephemeral, other_game.response.content
    await world.alice.click(table.response.message, label="Leave")
    reopened = await world.alice.slash(world.channel, "lobby", game="graps")
    assert not reopened.ephemeral, reopened.response.content


async def test_games_against_the_ai_start_at_once_whatever_is_waiting(env, world) -> None:
    await world.alice.slash(world.channel, "challenge", game="qawale", opponent=world.bob)
    ai_game = await world.alice.slash(world.channel, "challenge", game="qawale",
                                      opponent=the_bot(env, world))
    assert not ai_game.ephemeral, ai_game.response.content


async def test_the_refusal_speaks_the_members_language(env, world, monkeypatch) -> None:
    speaking(monkeypatch, "fr", world.alice)
    await world.alice.slash(world.channel, "challenge", game="qawale", opponent=world.bob)
    again = await world.alice.slash(world.channel, "challenge", game="qawale",
                                    opponent=world.bob)
    assert again.response.content.startswith("Vous avez déjà défié Bob")


async def test_a_sixth_game_against_the_ai_waits_for_one_to_end(env, world) -> None:
    for _ in range(5):
        started = await world.alice.slash(world.channel, "challenge", game="qawale",
                                          opponent=the_bot(env, world), level="easy")
        assert not started.ephemeral, started.response.content
    sixth = await world.alice.slash(world.channel, "challenge", game="graps",
                                    opponent=the_bot(env, world))
    assert sixth.ephemeral
    assert sixth.response.content == ("You play 5 games against the AI here already: finish "
                                      "or resign one first (`/mygames` lists them).")
    threads = len(world.channel.threads)
    session = await bot_of(env).sessions.in_channel(world.channel.threads[0].id)
    await session.resign(world.alice.id)
    after = await world.alice.slash(world.channel, "challenge", game="graps",
                                    opponent=the_bot(env, world))
    assert not after.ephemeral, after.response.content
    assert len(world.channel.threads) == threads + 1


async def test_a_rematch_against_the_ai_counts_among_those_games(env, world) -> None:
    for _ in range(5):
        await world.alice.slash(world.channel, "challenge", game="qawale",
                                opponent=the_bot(env, world), level="easy")
    thread = world.channel.threads[0]
    session = await bot_of(env).sessions.in_channel(thread.id)
    await session.resign(world.alice.id)
    await world.alice.slash(world.channel, "challenge", game="qawale",
                            opponent=the_bot(env, world), level="easy")  # five again
    rematch = await world.alice.click(latest_board(thread), label="Rematch")
    assert rematch.ephemeral
    assert rematch.response.content.startswith("You play 5 games against the AI here already")


async def finished_game_with_bob(env, world):
    """The final board of a game Alice played with Bob and resigned."""
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    await session.resign(world.alice.id)
    return latest_board(thread)


async def test_a_rematch_waits_for_the_answer_to_a_challenge_to_the_same_member(
    env, world
) -> None:
    final = await finished_game_with_bob(env, world)
    waiting = await world.alice.slash(world.channel, "challenge", game="graps",
                                      opponent=world.bob)
    assert not waiting.ephemeral, waiting.response.content
    rematch = await world.alice.click(final, label="Rematch")
    assert rematch.ephemeral
    assert rematch.response.content.startswith("You already challenged Bob: wait for their "
                                               "answer")
    assert len(await bot_of(env).db.pending_challenges()) == 1
    await world.bob.click(waiting.response.message, label="Decline")
    offered = await world.alice.click(final, label="Rematch")
    assert "Rematch offered" in offered.response.content, offered.response.content


async def test_a_rematch_counts_among_the_five_waiting_challenges(env, world) -> None:
    final = await finished_game_with_bob(env, world)
    others = [world.guild.add_member(env.create_user(f"p{n}", global_name=f"Player {n}"))
              for n in range(4)]
    for opponent in others:
        sent = await world.alice.slash(world.channel, "challenge", game="qawale",
                                       opponent=opponent)
        assert not sent.ephemeral, sent.response.content
    table = await world.alice.slash(world.channel, "lobby", game="graps")
    assert not table.ephemeral, table.response.content
    rematch = await world.alice.click(final, label="Rematch")
    assert rematch.ephemeral
    assert rematch.response.content.startswith("You have 5 challenges and tables waiting "
                                               "already")
    assert len(await bot_of(env).db.pending_challenges()) == 5
