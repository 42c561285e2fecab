"""`/settings lobby_role:`: a role the server pings when someone opens a `/lobby` table."""

from __future__ import annotations

import discord
import pytest


@pytest.fixture
def dave(env, world):
    """A member who can manage the server."""
    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(env.create_user("dave", global_name="Dave"), roles=[admins])


@pytest.fixture
def players(world):
    """The role members take to hear of new tables."""
    return world.guild.create_role("Players", mentionable=True)


def pinged_roles(env, message: discord.Message) -> list[int]:
    """The roles Discord notified for `message` (mentioned and allowed to ping)."""
    return list(env.backend.get_message(message.channel.id, message.id).ping_role_ids)


async def open_table(world) -> discord.Message:
    result = await world.alice.slash(world.channel, "lobby", game="kraut_ruben")
    assert not result.ephemeral, result.response.content
    return result.response.message


async def test_a_new_table_pings_the_servers_lobby_role_once(env, world, dave, players) -> None:
    saved = await dave.slash(world.channel, "settings", lobby_role=players)
    assert saved.ephemeral and "Saved." in saved.response.content
    assert f"New tables ping {players.mention}." in saved.response.content
    assert "⚠️" not in saved.response.content

    table = await open_table(world)
    assert table.content == f"📣 {players.mention}: a table of Kraut & Rüben is open, join in!"
    assert pinged_roles(env, table) == [players.id]
    joined = await world.bob.click(table, label="Join")
    assert not joined.ephemeral
    assert world.channel.history()[-1].content == table.content, "joining keeps the call"


async def test_lobby_ping_off_stops_the_pings(env, world, dave, players) -> None:
    await dave.slash(world.channel, "settings", lobby_role=players)
    off = await dave.slash(world.channel, "settings", lobby_ping="off")
    assert "New tables ping no role" in off.response.content
    table = await open_table(world)
    assert not table.content and pinged_roles(env, table) == []


async def test_only_a_server_manager_chooses_who_hears_of_tables(env, world, players) -> None:
    refused = await world.alice.slash(world.channel, "settings", lobby_role=players,
                                      dm_reminders="off")
    assert refused.ephemeral
    assert "Only members who can manage this server" in refused.response.content
    shown = await world.alice.slash(world.channel, "settings")
    assert "DM reminders are on" in shown.response.content, "nothing of the command was saved"
    assert "New tables ping no role" in shown.response.content


async def test_everyone_both_choices_and_on_without_a_role_are_refused(
    env, world, dave, players
) -> None:
    everyone = await dave.slash(world.channel, "settings", lobby_role=world.guild.default_role)
    assert everyone.ephemeral and "would tire the whole server" in everyone.response.content
    both = await dave.slash(world.channel, "settings", lobby_role=players, lobby_ping="off")
    assert "not both" in both.response.content
    on = await dave.slash(world.channel, "settings", lobby_ping="on")
    assert "Choose the role to ping with `lobby_role:`" in on.response.content
    table = await open_table(world)
    assert pinged_roles(env, table) == []


async def test_a_role_the_bot_may_not_ping_is_saved_with_a_warning(env, world, dave) -> None:
    quiet = world.guild.create_role("Quiet players", mentionable=False)
    channel = world.guild.create_text_channel("no-pings", overwrites={
        world.guild.me: discord.PermissionOverwrite(mention_everyone=False)})
    saved = await dave.slash(channel, "settings", lobby_role=quiet)
    assert "Saved." in saved.response.content
    assert f"⚠️ I may not ping {quiet.mention} yet: make it mentionable" in saved.response.content
    result = await world.alice.slash(channel, "lobby", game="qawale")
    assert pinged_roles(env, result.response.message) == [], "Discord would not ping it"
    here = await dave.slash(world.channel, "settings")
    assert "⚠️" not in here.response.content, "where the bot may mention every role, it pings"


async def test_a_deleted_role_is_no_longer_pinged(env, world, dave, players) -> None:
    await dave.slash(world.channel, "settings", lobby_role=players)
    env.backend.delete_role(world.guild.id, players.id)
    await env.settle()
    table = await open_table(world)
    assert not table.content and pinged_roles(env, table) == []
    shown = await dave.slash(world.channel, "settings")
    assert "New tables ping no role" in shown.response.content


async def test_a_french_servers_call_is_in_french(env) -> None:
    guild = env.create_guild(name="Soirée jeux", preferred_locale="fr")
    channel = guild.create_text_channel("jeux")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    zoe = guild.add_member(env.create_user("zoe", global_name="Zoé"), roles=[admins])
    joueurs = guild.create_role("Joueurs", mentionable=True)
    await zoe.slash(channel, "settings", lobby_role=joueurs)
    table = (await zoe.slash(channel, "lobby", game="granat")).response.message
    assert table.content == f"📣 {joueurs.mention} : une table de Granat est ouverte, venez jouer !"
    assert pinged_roles(env, table) == [joueurs.id]
