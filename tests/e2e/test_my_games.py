"""`/mygames`: a member's games in progress on the server, privately, the ones waiting for
them first, each with a link to its board; finished games left out; in their language."""

from __future__ import annotations

from tests.e2e.helpers import challenge_and_accept, latest_board, speaking


def waits_for(session, member) -> bool:
    """True when it is `member`'s turn in the game of `session`."""
    return session.record.user_at(session.state.current_player) == member.id


async def test_my_games_lists_mine_privately_those_waiting_for_me_first_with_board_links(
        env, world) -> None:
    games = [await challenge_and_accept(env, world.channel, world.alice, world.bob),
             await challenge_and_accept(env, world.channel, world.carol, world.alice,
                                        game="graps")]
    _thread, over = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    await over.resign(world.bob.id)  # finished: not in progress any more

    result = await world.alice.slash(world.channel, "mygames")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "🎲 Your games in progress"
    lines = embed.description.splitlines()
    assert len(lines) == 2
    # Hers first, then the nearest deadline (a tie here: the virtual clock stood still),
    # then the latest game.
    mine_first = sorted(games, key=lambda game: (not waits_for(game[1], world.alice),
                                                 game[1].record.deadline, -game[1].id))
    for line, (thread, session) in zip(lines, mine_first, strict=True):
        board = latest_board(thread)
        link = f"https://discord.com/channels/{world.guild.id}/{thread.id}/{board.id}"
        opponent = "Bob" if session.record.game == "qawale" else "Carol"
        turn = ("**Your turn**" if waits_for(session, world.alice)
                else f"{opponent} to play")
        game = "Qawale" if session.record.game == "qawale" else "Graps"
        assert line.startswith(f"{turn} · [#{session.id} {game} vs {opponent}]({link}) · ⏰ <t:")
    waiting = sum(waits_for(session, world.alice) for _thread, session in games)
    assert embed.footer.text == (f"{waiting} of them wait{'s' if waiting == 1 else ''} for you."
                                 if waiting else "None of them waits for you.")


async def test_my_games_follows_the_turn_as_moves_are_played(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover, name = (world.alice, "Alice") if waits_for(session, world.alice) else (world.bob,
                                                                                  "Bob")
    other = world.bob if mover is world.alice else world.alice
    before = await other.slash(world.channel, "mygames")
    assert before.response.embeds[0].description.startswith(f"{name} to play")
    await session.play(mover.id, str(session.state.legal_moves()[0]))
    after = await other.slash(world.channel, "mygames")
    assert after.response.embeds[0].description.startswith("**Your turn**")
    assert after.response.embeds[0].footer.text == "1 of them waits for you."
    assert f"/{thread.id}/{latest_board(thread).id})" in after.response.embeds[0].description


async def test_a_member_with_no_game_in_progress_is_told_how_to_start_one(env, world) -> None:
    result = await world.carol.slash(world.channel, "mygames")
    assert result.ephemeral
    assert result.response.embeds[0].description == (
        "You have no game in progress on this server. Challenge someone with /challenge, or "
        "open a table with /lobby.")


async def test_my_games_speaks_the_members_language(env, world, monkeypatch) -> None:
    await challenge_and_accept(env, world.channel, world.alice, world.bob)
    speaking(monkeypatch, "fr", world.alice)
    result = await world.alice.slash(world.channel, "mygames")
    embed = result.response.embeds[0]
    assert embed.title == "🎲 Vos parties en cours"
    assert " contre Bob](" in embed.description
