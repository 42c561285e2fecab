"""Offering a draw: the board's Offer draw button, the offer's Accept and Decline, its end."""

from __future__ import annotations

import random
import re

import discord
import pytest

from engines import EndReason
from storage import GameStatus, MoveKind
from tests.e2e.helpers import (
    actor_for,
    bot_of,
    challenge_and_accept,
    control_labels,
    latest_board,
    simultaneously,
    the_bot,
)
from tests.e2e.test_restart import restart


def offer_message(thread, *words: str) -> discord.Message:
    """The last draw offer posted in the thread (found by its `words`, English by default)."""
    words = words or ("offers a draw", "draw offer")
    offers = [m for m in thread.history() if any(w in (m.content or "") for w in words)]
    assert offers, "no draw offer was posted"
    return offers[-1]


async def offer(actor, thread) -> discord.Message:
    """Click the latest board's Offer draw; the offer's message."""
    clicked = await actor.click(latest_board(thread), label="Offer draw")
    assert not clicked.ephemeral, clicked.response.content
    return offer_message(thread)


async def play_a_move(env, session, thread, *players) -> None:
    """The player to move types a legal move."""
    mover = actor_for(session, *players)
    move = random.Random(session.ply).choice(session.state.legal_moves())
    await env.advance_time(0.001)
    played = await mover.slash(thread, "move", notation=str(move))
    assert "Played" in (played.response.content or ""), played.response.content


async def test_an_accepted_offer_ends_the_game_drawn_and_rated_as_a_draw(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    message = await offer(world.alice, thread)
    assert "**Alice** offers a draw" in message.content and f"<@{world.bob.id}>" in message.content
    assert control_labels(message) == ["Accept the draw", "Decline"]

    await world.bob.click(message, label="Accept the draw")

    assert session.is_over
    result = session.result()
    assert result is not None and result.reason is EndReason.AGREED
    assert sorted(result.winners) == [0, 1]
    final = latest_board(thread)
    assert "Draw by agreement." in final.embeds[0].description
    assert "accepted the draw offer" in final.embeds[0].description
    assert control_labels(final) == ["Rematch"]
    closed = offer_message(thread)
    assert "**Bob** accepted **Alice**'s draw offer" in closed.content
    assert not closed.components, "an answered offer keeps no buttons"
    history = await world.alice.slash(world.channel, "history")
    line = history.response.embeds[0].description or ""
    assert re.search(r"draw \(by agreement\) · \*\*[\d.]+\*\* \([+-][\d.]+\)", line), line
    stored = await bot_of(env).db.get_game(session.id)
    assert stored is not None and stored.status is GameStatus.FINISHED and stored.rated


async def test_a_declined_offer_lets_play_go_on_and_waits_for_a_move_before_another(
    env, world
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    message = await offer(world.alice, thread)
    await world.bob.click(message, label="Decline")
    assert not session.is_over
    closed = offer_message(thread)
    assert "**Bob** declined **Alice**'s draw offer" in closed.content and not closed.components

    again = await world.alice.click(latest_board(thread), label="Offer draw")
    assert again.ephemeral and "Bob declined your draw offer" in again.response.content
    assert session.record.draw_offer is None

    await play_a_move(env, session, thread, world.alice, world.bob)
    renewed = await offer(world.alice, thread)
    assert "offers a draw" in renewed.content and renewed.id != message.id


async def test_an_offer_stands_through_the_offerers_move_and_lapses_with_the_others(
    env, world
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    players = (world.alice, world.bob)
    offerer = actor_for(session, *players)
    message = await offer(offerer, thread)
    await play_a_move(env, session, thread, *players)  # the offerer's own move
    assert session.record.draw_offer == session.record.seat_of(offerer.id)
    assert control_labels(offer_message(thread)) == ["Accept the draw", "Decline"]

    await play_a_move(env, session, thread, *players)  # the other plays on instead

    assert session.record.draw_offer is None
    stored = await bot_of(env).db.get_game(session.id)
    assert stored is not None and stored.draw_offer is None
    lapsed = offer_message(thread)
    assert lapsed.id == message.id and "draw offer lapsed" in lapsed.content
    assert not lapsed.components


async def test_only_the_other_player_accepts_and_the_offerer_withdraws_with_decline(
    env, world
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    message = await offer(world.alice, thread)

    own = await world.alice.click(message, label="Accept the draw")
    assert own.ephemeral and "your own offer: it is Bob's to accept" in own.response.content
    spectator = await world.carol.click(message, label="Accept the draw")
    assert spectator.ephemeral and "not playing" in spectator.response.content
    twice = await world.alice.click(latest_board(thread), label="Offer draw")
    assert twice.ephemeral and "Your draw offer stands" in twice.response.content
    assert not session.is_over

    await world.alice.click(message, label="Decline")
    assert "**Alice** withdrew their draw offer" in offer_message(thread).content
    assert session.record.draw_offer is None and not session.is_over
    renewed = await offer(world.alice, thread)  # withdrawn, not declined: offered again at once
    assert renewed.id != message.id


async def test_offering_while_the_others_offer_stands_agrees_the_draw(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    message = await offer(world.alice, thread)
    await world.bob.click(latest_board(thread), label="Offer draw")
    result = session.result()
    assert result is not None and result.reason is EndReason.AGREED
    assert "accepted **Alice**'s draw offer" in offer_message(thread).content
    assert offer_message(thread).id == message.id


async def test_an_offer_made_before_a_restart_is_accepted_after_it(
    env, world, database_url
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    message = await offer(world.alice, thread)
    await restart(env, database_url)
    await world.bob.click(message, label="Accept the draw")
    stored = await bot_of(env).db.get_game(session.id)
    assert stored is not None and stored.status is GameStatus.FINISHED
    assert stored.result is not None and stored.result["reason"] == "agreed"
    assert "accepted **Alice**'s draw offer" in offer_message(thread).content


async def test_two_quick_accepts_end_the_game_once(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    message = await offer(world.alice, thread)
    first, second = await simultaneously(
        env, lambda: world.bob.click(message, label="Accept the draw"),
        lambda: world.bob.click(message, label="Accept the draw"))
    log = await bot_of(env).db.moves(session.id)
    assert [m.kind for m in log].count(MoveKind.DRAW) == 1
    late = [r for r in (first, second) if "This game is over" in " ".join(
        [r.response.content or ""] + [f.content or "" for f in r.followups])]
    assert len(late) == 1, "the second click hears the game is over"


async def test_no_draw_is_offered_against_the_ai_or_among_three(env, world) -> None:
    await world.alice.slash(world.channel, "challenge", game="qawale",
                            opponent=the_bot(env, world), level="easy")
    assert "Offer draw" not in control_labels(latest_board(world.channel.threads[-1]))
    challenge = await world.alice.slash(world.channel, "challenge", game="kraut_ruben",
                                        opponent=world.bob, opponent2=world.carol)
    for member in (world.bob, world.carol):
        await member.click(challenge.response.message, label="Accept")
    board = latest_board(world.channel.threads[-1])
    assert "Leave" in control_labels(board) and "Offer draw" not in control_labels(board)


async def test_a_french_server_sees_the_offer_in_french(env) -> None:
    guild = env.create_guild(name="Soirée jeux", preferred_locale="fr")
    channel = guild.create_text_channel("jeux")
    zoe = guild.add_member(env.create_user("zoe", global_name="Zoé"))
    yann = guild.add_member(env.create_user("yann", global_name="Yann"))
    challenge = await zoe.slash(channel, "challenge", game="granat", opponent=yann)
    await yann.click(challenge.response.message, label="Accepter")
    thread = channel.threads[-1]
    await zoe.click(latest_board(thread), label="Proposer nulle")
    message = offer_message(thread, "propose la nulle")
    own = await zoe.click(message, label="Accepter la nulle")
    assert own.ephemeral and "your own offer" in own.response.content  # her client is English
    await yann.click(message, label="Accepter la nulle")
    assert "Partie nulle par accord." in latest_board(thread).embeds[0].description
    assert "**Yann** a accepté la proposition de nulle de **Zoé**" in offer_message(
        thread, "proposition de nulle").content


@pytest.mark.parametrize("game", ["qawale", "graps", "grabuge", "granat", "kraut_ruben"])
async def test_every_game_says_a_draw_was_agreed(env, world, game: str) -> None:
    thread, _ = await challenge_and_accept(env, world.channel, world.alice, world.bob,
                                                 game=game)
    await world.bob.click(await offer(world.alice, thread), label="Accept the draw")
    text = latest_board(thread).embeds[0].description
    assert "**Bob** accepted the draw offer." in text and "**Draw by agreement.**" in text, text


async def test_a_resignation_while_an_offer_stands_closes_the_offer(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    await offer(world.alice, thread)
    asked = await world.bob.slash(thread, "resign")
    await world.bob.click(asked.response.message, label="Resign")
    result = session.result()
    assert result is not None and result.reason is EndReason.RESIGNED
    closed = offer_message(thread)
    assert "**Alice**'s draw offer ended with the game" in closed.content
    assert not closed.components


async def test_typing_draw_offers_it_and_typing_it_back_agrees(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    typed = await world.alice.slash(thread, "draw")
    assert not typed.ephemeral
    assert "**Alice** offers a draw" in offer_message(thread).content
    again = await world.alice.slash(thread, "draw")
    assert again.ephemeral and "Your draw offer stands" in again.response.content
    spectator = await world.carol.slash(thread, "draw")
    assert spectator.ephemeral and "not playing" in spectator.response.content
    outside = await world.alice.slash(world.channel, "draw")
    assert outside.ephemeral
    await world.bob.slash(thread, "draw")
    result = session.result()
    assert result is not None and result.reason is EndReason.AGREED
    assert "Draw by agreement." in latest_board(thread).embeds[0].description


async def test_an_offer_discord_will_not_show_still_stands_and_the_offerer_is_told(
    env, world
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    env.inject_error("POST", "/webhooks/*", times=1)
    env.inject_error("POST", f"/channels/{thread.id}/messages", times=1)
    clicked = await world.alice.click(latest_board(thread), label="Offer draw")
    told = [m for m in clicked.followups if "Your draw offer stands" in (m.content or "")]
    assert told and told[0].flags.ephemeral
    assert session.record.draw_offer == session.record.seat_of(world.alice.id)
    await world.bob.click(latest_board(thread), label="Offer draw")
    result = session.result()
    assert result is not None and result.reason is EndReason.AGREED
