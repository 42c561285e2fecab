"""`/games` and `/rules` answer privately; Share posts the same embed in the channel."""

from __future__ import annotations

import pytest

from bot.components import ShareRequest
from bot.errors import Refusal
from bot.guide import rules_embed, start_view
from renderers import render
from tests.e2e.helpers import control_labels
from tests.e2e.test_restart import restart


def _public(channel) -> list:
    """The channel's messages everyone sees."""
    return [m for m in channel.history() if m.embeds]


async def test_rules_answer_privately_and_share_posts_them_for_everyone(env, world) -> None:
    asked = await world.alice.slash(world.channel, "rules", game="granat")
    assert asked.ephemeral and asked.response.embeds[0].title.startswith("Granat")
    assert control_labels(asked.response.message) == ["Share"]
    assert _public(world.channel) == []
    shared = await world.alice.click(asked.response.message, label="Share")
    posted = _public(world.channel)
    assert len(posted) == 1 and posted[0].embeds[0].title.startswith("Granat")
    assert posted[0].embeds[0].description == rules_embed("granat").description
    assert posted[0].embeds[0].image.url == "attachment://start.png"
    assert [a.filename for a in posted[0].attachments] == ["start.png"]
    assert not posted[0].components  # the public copy has no button
    private = shared.response.message
    assert "Shared in the channel" in private.content and not private.components
    assert private.embeds[0].image.url == "attachment://start.png", "the private copy keeps it"


async def test_games_answer_privately_and_share_still_works_after_a_restart(
    env, world, database_url
) -> None:
    asked = await world.bob.slash(world.channel, "games")
    assert asked.ephemeral and len(asked.response.embeds[0].fields) == 5
    await restart(env, database_url)
    await world.bob.click(asked.response.message, label="Share")
    posted = _public(world.channel)
    assert len(posted) == 1 and posted[0].embeds[0].title == "🎲 Ludothèque"


async def test_sharing_the_rules_of_a_game_that_does_not_exist_is_refused(env, world) -> None:
    router = env.bot.router

    class Interaction:  # what a forged click would reach the router with
        guild_id = world.guild.id

    with pytest.raises(Refusal, match="no game called 'chess'"):
        await router.share(Interaction(), ShareRequest("rules", "chess"))


async def test_the_rules_picture_is_in_the_askers_language_and_shared_in_the_servers(
    env,
) -> None:
    guild = env.create_guild(name="Soirée jeux", preferred_locale="fr")
    channel = guild.create_text_channel("jeux")
    zoe = guild.add_member(env.create_user("zoe", global_name="Zoé"))  # an English client
    asked = await zoe.slash(channel, "rules", game="kraut_ruben")
    assert await asked.response.attachments[0].read() == render(start_view("kraut_ruben"))
    await zoe.click(asked.response.message, label="Share")
    [posted] = _public(channel)
    assert await posted.attachments[0].read() == render(start_view("kraut_ruben"),
                                                        language="fr")
