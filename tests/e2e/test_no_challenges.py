"""`/settings challenges:off`: a member nobody may challenge (by `/challenge` or the member
menu), who still challenges others, joins tables and plays the AI; on again, as before."""

from __future__ import annotations

from tests.e2e.helpers import speaking, the_bot

REFUSED = ("Bob takes no challenges (their `/settings`). Open a table with `/lobby` instead: "
           "anyone who wants to play can join it.")


async def test_a_member_who_takes_no_challenges_is_not_challenged(env, world) -> None:
    turned_off = await world.bob.slash(world.channel, "settings", challenges="off")
    assert turned_off.ephemeral
    assert "Challenges are off: nobody can challenge you." in turned_off.response.content
    posted = len(world.channel.history())

    refused = await world.alice.slash(world.channel, "challenge", game="qawale",
                                      opponent=world.bob)
    from_menu = await world.alice.context_menu(world.channel, "Challenge to a game", world.bob)
    picked = await world.alice.select(from_menu.response.message, ["granat"])

    assert refused.ephemeral and refused.response.content == REFUSED
    assert picked.ephemeral and picked.response.content == REFUSED
    assert len(world.channel.history()) == posted, "nobody was pinged"


async def test_a_challenge_naming_several_says_who_takes_none(env, world) -> None:
    await world.bob.slash(world.channel, "settings", challenges="off")
    await world.carol.slash(world.channel, "settings", challenges="off")
    refused = await world.alice.slash(world.channel, "challenge", game="kraut_ruben",
                                      opponent=world.bob, opponent2=world.carol)
    assert refused.ephemeral
    assert refused.response.content.startswith("Bob and Carol take no challenges")


async def test_they_still_challenge_others_and_play_the_ai_and_can_turn_it_back_on(
    env, world
) -> None:
    await world.bob.slash(world.channel, "settings", challenges="off")
    theirs = await world.bob.slash(world.channel, "challenge", game="qawale",
                                   opponent=world.alice)
    assert not theirs.ephemeral, theirs.response.content
    against_ai = await world.bob.slash(world.channel, "challenge", game="graps",
                                       opponent=the_bot(env, world))
    assert not against_ai.ephemeral, against_ai.response.content

    turned_on = await world.bob.slash(world.channel, "settings", challenges="on")
    assert "Challenges are on: members may challenge you." in turned_on.response.content
    challenged = await world.carol.slash(world.channel, "challenge", game="qawale",
                                         opponent=world.bob)
    assert not challenged.ephemeral, challenged.response.content


async def test_the_refusal_is_in_the_challengers_language(env, world, monkeypatch) -> None:
    speaking(monkeypatch, "fr", world.alice)
    await world.bob.slash(world.channel, "settings", challenges="off")
    refused = await world.alice.slash(world.channel, "challenge", game="qawale",
                                      opponent=world.bob)
    assert refused.response.content.startswith("Bob n’accepte aucun défi")
