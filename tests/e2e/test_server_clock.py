"""`/settings clock:`: a server's managers choose the clock new games get when their
challenge or table picks none; a challenge's own choice still wins."""

from __future__ import annotations

import discord

from tests.e2e.helpers import bot_of, the_bot


def manager(env, world):
    """Dave, who may manage the server."""
    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(env.create_user("dave", global_name="Dave"), roles=[admins])


def clock_field(message) -> str:
    """The Clock field of a challenge's or a table's message."""
    [field] = [f for f in message.embeds[0].fields if f.name == "Clock"]
    return field.value


async def test_new_challenges_and_tables_get_the_clock_the_server_chose(env, world) -> None:
    before = await world.alice.slash(world.channel, "challenge", game="qawale", opponent=world.bob)
    assert clock_field(before.response.message) == "Daily: 24 hours per move", "the default"

    saved = await manager(env, world).slash(world.channel, "settings", clock="live")
    assert saved.ephemeral and saved.response.content.startswith("Saved.")
    assert ("New games here get this clock unless their challenge picks another: Live: 5 "
            "minutes per move.") in saved.response.content

    challenge = await world.bob.slash(world.channel, "challenge", game="graps",
                                      opponent=world.alice)
    assert clock_field(challenge.response.message) == "Live: 5 minutes per move"
    table = await world.carol.slash(world.channel, "lobby", game="qawale")
    assert clock_field(table.response.message) == "Live: 5 minutes per move"
    chosen = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.carol, clock="relaxed")
    assert clock_field(chosen.response.message) == "Relaxed: 3 days per move", "its own wins"


async def test_a_game_against_the_ai_gets_the_servers_clock(env, world) -> None:
    await manager(env, world).slash(world.channel, "settings", clock="none")
    await world.alice.slash(world.channel, "challenge", game="qawale",
                            opponent=the_bot(env, world), level="easy")
    session = await bot_of(env).sessions.in_channel(world.channel.threads[-1].id)
    assert session is not None and session.record.clock == "none"
    assert session.record.deadline is None


async def test_only_a_server_manager_chooses_its_clock_and_nothing_is_saved_otherwise(
    env, world
) -> None:
    refused = await world.alice.slash(world.channel, "settings", clock="live",
                                      dm_reminders="off")
    assert refused.ephemeral
    assert refused.response.content == "Only members who can manage this server choose its clock."
    shown = await world.alice.slash(world.channel, "settings")
    assert "DM reminders are on" in shown.response.content, "the whole change was refused"
    assert "picks another: Daily: 24 hours per move." in shown.response.content
