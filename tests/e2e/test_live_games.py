"""`/live`: the server's games in progress, privately, the latest move first, each with a
link to its board, so that anyone can find a game to watch; only in the channels the member
can see; of one game with `game:`; in their language."""

from __future__ import annotations

import discord

from tests.e2e.helpers import actor_for, challenge_and_accept, latest_board, speaking, the_bot


async def test_live_lists_the_servers_games_privately_latest_move_first(env, world) -> None:
    first_thread, first = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    second_thread, second = await challenge_and_accept(env, world.channel, world.carol,
                                                       world.alice, game="graps")
    _thread, over = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    await over.resign(world.bob.id)  # finished: not in progress any more
    await env.advance_time(120)
    mover = actor_for(first, world.alice, world.bob)
    await first.play(mover.id, str(first.state.legal_moves()[0]))  # the latest move now

    dave = world.guild.add_member(env.create_user("dave", global_name="Dave"))
    result = await dave.slash(world.channel, "live")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "👀 Games in progress on this server"
    lines = embed.description.splitlines()
    assert len(lines) == 2
    for line, (thread, session) in zip(lines, [(first_thread, first),
                                               (second_thread, second)], strict=True):
        link = f"https://discord.com/channels/{world.guild.id}/{thread.id}/" \
               f"{latest_board(thread).id}"
        players = ", ".join(session.names)
        game = "Qawale" if session.record.game == "qawale" else "Graps"
        to_play = session.names[session.state.current_player]
        assert line.startswith(f"[#{session.id} {game}: {players}]({link}) · {to_play} to play "
                               "· last move <t:")
    assert embed.footer.text == "Open a game to watch it: its board follows every move."


async def test_live_shows_one_game_only_when_asked(env, world) -> None:
    await challenge_and_accept(env, world.channel, world.alice, world.bob)
    _thread, graps = await challenge_and_accept(env, world.channel, world.alice, world.carol,
                                                game="graps")
    result = await world.bob.slash(world.channel, "live", game="graps")
    embed = result.response.embeds[0]
    assert embed.title == "👀 Games of Graps in progress"
    assert embed.description.startswith(f"[#{graps.id} Graps: {', '.join(graps.names)}](")
    assert len(embed.description.splitlines()) == 1
    none = await world.bob.slash(world.channel, "live", game="granat")
    assert none.response.embeds[0].description == (
        "No game of Granat is in progress here right now. Start one with /challenge, or open a "
        "table with /lobby.")


async def test_games_in_a_channel_the_member_cannot_see_are_not_listed(env, world) -> None:
    hidden = world.guild.create_text_channel("staff-games", overwrites={
        world.guild.default_role: discord.PermissionOverwrite(view_channel=False),
        world.alice: discord.PermissionOverwrite(view_channel=True),
        world.bob: discord.PermissionOverwrite(view_channel=True),
        world.guild.me: discord.PermissionOverwrite(view_channel=True)})
    _thread, secret = await challenge_and_accept(env, hidden, world.alice, world.bob)
    seen = await world.alice.slash(world.channel, "live")
    assert f"[#{secret.id} Qawale: {', '.join(secret.names)}](" in \
        seen.response.embeds[0].description
    unseen = await world.carol.slash(world.channel, "live")
    assert unseen.response.embeds[0].description == (
        "No game is in progress here right now. Start one with /challenge, or open a table "
        "with /lobby.")


async def test_a_game_against_the_ai_is_listed_with_the_ais_name_in_the_members_language(
        env, world, monkeypatch) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=the_bot(env, world))
    assert not result.ephemeral, result.response.content
    listed = await world.carol.slash(world.channel, "live")
    assert "🤖 AI (Medium)" in listed.response.embeds[0].description
    speaking(monkeypatch, "fr", world.carol, world.alice)
    listed = await world.carol.slash(world.channel, "live")
    assert "🤖 IA (Moyen)" in listed.response.embeds[0].description
    mine = await world.alice.slash(world.channel, "mygames")
    assert " contre 🤖 IA (Moyen)](" in mine.response.embeds[0].description


async def test_live_speaks_the_members_language(env, world, monkeypatch) -> None:
    await challenge_and_accept(env, world.channel, world.alice, world.bob)
    speaking(monkeypatch, "fr", world.carol)
    result = await world.carol.slash(world.channel, "live")
    embed = result.response.embeds[0]
    assert embed.title == "👀 Parties en cours sur ce serveur"
    assert " de jouer · dernier coup <t:" in embed.description
