"""The bot joins a server: it says once how to start, in the server's language, where it may
write. It leaves a server (kicked, or the server deleted): the games there end at once,
unrated, and its waiting challenges are cancelled, rather than left to clocks and an AI no one
can see; other servers' games go on."""

from __future__ import annotations

import discord
from simcord.backend import serializers

from storage import ChallengeStatus, GameStatus
from tests.e2e.helpers import bot_of, challenge_and_accept, the_bot


async def stored_status(env, game_id: int) -> GameStatus:
    """A game's status as the database has it."""
    record = await bot_of(env).db.get_game(game_id)
    assert record is not None
    return record.status


def invite_the_bot(env, guild) -> None:
    """The bot is added to an existing server: Discord sends the server, channels included,
    without the `unavailable` flag of a server coming back online (which simcord's payload
    carries, since its servers are online from the start)."""
    payload = dict(serializers.guild_create_payload(env.backend, env.backend.get_guild(guild.id)))
    payload.pop("unavailable", None)
    env.backend.emit("GUILD_CREATE", payload)


def another_server(env, world):
    """A second server where Alice and Bob play too, with its games channel."""
    elsewhere = env.create_guild(name="Elsewhere")
    channel = elsewhere.create_text_channel("games")
    return (channel, elsewhere.add_member(world.alice.user),
            elsewhere.add_member(world.bob.user))


async def test_removing_the_bot_aborts_the_servers_games_unrated_and_spares_other_servers(
        env, world) -> None:
    _thread, between_people = await challenge_and_accept(env, world.channel, world.alice,
                                                         world.bob)
    await world.alice.slash(world.channel, "challenge", game="graps",
                            opponent=the_bot(env, world), level="easy")
    against_ai = await bot_of(env).sessions.in_channel(world.channel.threads[-1].id)
    channel, alice, bob = another_server(env, world)
    _thread, elsewhere = await challenge_and_accept(env, channel, alice, bob)

    env.backend.remove_guild(world.guild.id)
    await env.settle()

    assert await stored_status(env, between_people.id) is GameStatus.ABORTED
    assert await stored_status(env, against_ai.id) is GameStatus.ABORTED
    assert await stored_status(env, elsewhere.id) is GameStatus.RUNNING
    await env.advance_time(3 * 24 * 3600)  # past every Daily deadline: no clock of a gone game
    assert await stored_status(env, between_people.id) is GameStatus.ABORTED
    mine = await alice.slash(channel, "mygames")
    listed = mine.response.embeds[0].description
    assert f"#{elsewhere.id} " in listed and f"#{between_people.id} " not in listed
    history = await alice.slash(channel, "history")
    assert f"#{between_people.id}" not in str(history.response.embeds[0].to_dict()), \
        "an aborted game is not a result"


async def test_removing_the_bot_cancels_the_servers_waiting_challenges(env, world) -> None:
    challenged = await world.alice.slash(world.channel, "challenge", game="qawale",
                                         opponent=world.bob)
    assert not challenged.ephemeral
    await world.carol.slash(world.channel, "lobby", game="graps")
    pending = await bot_of(env).db.pending_challenges()
    assert len(pending) == 2

    env.backend.remove_guild(world.guild.id)
    await env.settle()

    for challenge in pending:
        stored = await bot_of(env).db.get_challenge(challenge.id)
        assert stored is not None and stored.status is ChallengeStatus.CANCELLED
    # Alice's challenge to Bob no longer holds her back on a server where they both play.
    channel, alice, bob = another_server(env, world)
    again = await alice.slash(channel, "challenge", game="qawale", opponent=bob)
    assert not again.ephemeral, again.response.content
    await env.advance_time(15 * 60)  # the cancelled challenges' expiry does not come back
    assert (await bot_of(env).db.get_challenge(pending[0].id)).status is ChallengeStatus.CANCELLED


async def test_a_server_that_adds_the_bot_is_told_how_to_start_in_its_system_channel(
        env) -> None:
    guild = env.create_guild(name="Jeux du soir")
    general = guild.create_text_channel("general")
    welcome = guild.create_text_channel("welcome")
    env.backend.edit_guild(guild.id, {"system_channel_id": welcome.id})

    invite_the_bot(env, guild)
    await env.settle()

    assert general.history() == []
    [greeting] = welcome.history()
    embed = greeting.embeds[0]
    assert embed.title == "🎲 Thanks for inviting Ludothèque!"
    text = str(embed.to_dict())
    for command in ("/challenge", "/lobby", "/games", "/rules", "/settings", "/help"):
        assert command in text


async def test_the_welcome_is_in_french_on_a_french_server(env) -> None:
    guild = env.create_guild(name="Jeux du soir", preferred_locale="fr")
    general = guild.create_text_channel("general")

    invite_the_bot(env, guild)
    await env.settle()

    [greeting] = general.history()
    assert greeting.embeds[0].title == "🎲 Merci d’avoir invité Ludothèque !"
    assert greeting.embeds[0].fields[0].name == "Commencer une partie"


async def test_no_welcome_where_the_bot_may_not_write(env) -> None:
    guild = env.create_guild(name="Read only")
    me = guild.me
    announcements = guild.create_text_channel(
        "announcements", overwrites={me: discord.PermissionOverwrite(send_messages=False)})
    no_embeds = guild.create_text_channel(
        "no-embeds", overwrites={me: discord.PermissionOverwrite(embed_links=False)})
    chat = guild.create_text_channel("chat")
    env.backend.edit_guild(guild.id, {"system_channel_id": announcements.id})

    invite_the_bot(env, guild)
    await env.settle()

    assert announcements.history() == [] and no_embeds.history() == []
    assert len(chat.history()) == 1, "the first channel it may write in"


async def test_a_welcome_discord_refuses_is_given_up_quietly(env) -> None:
    guild = env.create_guild(name="Flaky")
    general = guild.create_text_channel("general")
    env.inject_error("POST", f"/channels/{general.id}/messages", status=403, times=1)

    invite_the_bot(env, guild)
    await env.settle()

    assert general.history() == []  # and no error escaped (the env fixture checks)
