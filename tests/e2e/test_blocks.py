"""`/block` and `/unblock` end to end: a blocked member may not challenge the member who
blocked them (by command or member menu), join their tables or offer them a rematch, and
leaves the open tables they host; the one who blocks keeps every choice."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import bot_of, latest_board, the_bot
from tests.e2e.test_challenge_menu import MENU


async def blocks(env, world, who, whom) -> str:
    """`who` blocks `whom`: the private answer."""
    answer = await who.slash(world.channel, "block", member=whom)
    assert answer.ephemeral
    return answer.response.content


def table_text(world) -> str:
    """What the latest table shows: its description and fields."""
    shown = world.channel.history()[-1].embeds[0]
    return " ".join([shown.description or ""] + [f.value for f in shown.fields])


async def test_a_blocked_member_cannot_challenge_the_member_who_blocked_them(
    env, world
) -> None:
    answer = await blocks(env, world, world.alice, world.bob)
    assert f"<@{world.bob.id}> can no longer challenge you" in answer
    assert "They are not told" in answer
    assert f"You block 1 member: <@{world.bob.id}>." in answer
    refused = await world.bob.slash(world.channel, "challenge", game="qawale",
                                    opponent=world.alice)
    assert refused.ephemeral and refused.response.content == "You cannot challenge Alice."
    menu = await world.bob.context_menu(world.channel, MENU, world.alice)
    assert menu.ephemeral and menu.response.content == "You cannot challenge Alice.", \
        "refused before a game is picked"
    both = await world.bob.slash(world.channel, "challenge", game="kraut_ruben",
                                 opponent=world.carol, opponent2=world.alice)
    assert both.ephemeral and "You cannot challenge Alice." in both.response.content
    assert world.channel.history() == [], "nobody was pinged"

    mine = await world.alice.slash(world.channel, "challenge", game="qawale",
                                   opponent=world.bob)
    assert not mine.ephemeral, "the one who blocks may still challenge"


async def test_unblocking_lets_the_member_challenge_again(env, world) -> None:
    await blocks(env, world, world.alice, world.bob)
    answer = await world.alice.slash(world.channel, "unblock", member=world.bob)
    assert f"<@{world.bob.id}> may challenge you again." in answer.response.content
    assert "You block nobody." in answer.response.content
    allowed = await world.bob.slash(world.channel, "challenge", game="qawale",
                                    opponent=world.alice)
    assert not allowed.ephemeral


async def test_a_blocked_member_cannot_join_a_table_where_someone_blocks_them(
    env, world
) -> None:
    await blocks(env, world, world.carol, world.bob)
    table = await world.alice.slash(world.channel, "lobby", game="kraut_ruben")
    message = table.response.message
    await world.carol.click(message, label="Join")
    refused = await world.bob.click(message, label="Join")
    assert refused.ephemeral and refused.response.content == "You cannot join this table."
    assert f"<@{world.bob.id}>" not in (world.channel.history()[-1].embeds[0].description or "")
    await world.bob.slash(world.channel, "lobby", game="graps")
    bobs_table = world.channel.history()[-1]
    joined = await world.carol.click(bobs_table, label="Join")
    assert not joined.ephemeral, "the one who blocks may join the other's table"


async def test_blocking_a_member_takes_them_out_of_the_tables_one_hosts(env, world) -> None:
    table = await world.alice.slash(world.channel, "lobby", game="kraut_ruben")
    message = table.response.message
    await world.bob.click(message, label="Join")
    await world.carol.click(message, label="Join")
    assert f"<@{world.bob.id}>" in table_text(world)
    await blocks(env, world, world.alice, world.bob)
    await env.settle()
    assert f"<@{world.bob.id}>" not in table_text(world)
    assert f"<@{world.carol.id}>" in table_text(world)
    stored = await bot_of(env).db.get_challenge(
        (await bot_of(env).db.pending_challenges())[-1].id)
    assert stored.opponent_ids == [world.carol.id]


async def test_a_blocked_member_cannot_offer_a_rematch(env, world) -> None:
    challenge = await world.alice.slash(world.channel, "challenge", game="qawale",
                                        opponent=world.bob, clock="none")
    await world.bob.click(challenge.response.message, label="Accept")
    thread = world.channel.threads[-1]
    prompt = await world.alice.slash(thread, "resign")
    await world.alice.click(prompt.response.message, label="Resign")
    await blocks(env, world, world.alice, world.bob)
    refused = await world.bob.click(latest_board(thread), label="Rematch")
    assert refused.ephemeral and refused.response.content == "You cannot offer this rematch."
    offered = await world.alice.click(latest_board(thread), label="Rematch")
    assert offered.ephemeral and "Rematch offered" in offered.response.content


@pytest.mark.parametrize(("whom", "said"), [
    ("self", "You cannot block yourself."),
    ("bot", "is a bot: it never challenges anyone."),
])
async def test_blocking_oneself_or_the_bot_is_refused(env, world, whom, said) -> None:
    member = world.alice if whom == "self" else the_bot(env, world)
    refused = await world.alice.slash(world.channel, "block", member=member)
    assert refused.ephemeral and said in refused.response.content


async def test_blocking_twice_unblocking_nobody_and_the_most_blocks_are_refused(
    env, world, monkeypatch
) -> None:
    await blocks(env, world, world.alice, world.bob)
    again = await world.alice.slash(world.channel, "block", member=world.bob)
    assert again.response.content == f"You already block <@{world.bob.id}>."
    nobody = await world.alice.slash(world.channel, "unblock", member=world.carol)
    assert nobody.response.content == f"You do not block <@{world.carol.id}>."
    monkeypatch.setattr("bot.challenges.MOST_BLOCKS", 1)
    full = await world.alice.slash(world.channel, "block", member=world.carol)
    assert "You already block 1 members: unblock one with `/unblock` first." in \
        full.response.content


async def test_settings_and_privacy_show_the_blocks_and_forgetting_deletes_them(
    env, world
) -> None:
    await blocks(env, world, world.carol, world.bob)
    settings = await world.carol.slash(world.channel, "settings")
    assert f"You block 1 member: <@{world.bob.id}>." in settings.response.content
    privacy = await world.carol.slash(world.channel, "privacy")
    assert "The members you block (`/block`): 1." in privacy.response.embeds[0].description
    await world.carol.slash(world.channel, "privacy", forget="forget")
    assert await bot_of(env).db.blocked_by(world.carol.id) == []
