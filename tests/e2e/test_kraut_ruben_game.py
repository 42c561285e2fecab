"""Kraut & Rüben end to end: several players, private contracts, components, whole games."""

from __future__ import annotations

import random

import discord
import pytest

from tests.e2e.helpers import TINY_PNG, actor_for, bot_of, control_labels, latest_board, the_bot


@pytest.fixture
def dave(env, world):
    """A fourth member, to watch (or to play in a bigger game)."""
    return world.guild.add_member(env.create_user("dave", global_name="Dave"))


def labels(message: discord.Message) -> list[str]:
    """Every component label (buttons) or placeholder (selects) on a message."""
    found = []
    for row in message.components:
        for child in row.children:
            found.append(getattr(child, "label", None) or getattr(child, "placeholder", ""))
    return found


def select_values(message: discord.Message) -> list[str]:
    """The option values of the first select menu on a message."""
    for row in message.components:
        for child in row.children:
            if isinstance(child, discord.SelectMenu):
                return [o.value for o in child.options]
    raise AssertionError("no select on this message")


async def start_game(env, channel, challenger, *opponents, **options):
    """`challenger` challenges everyone in `opponents`; all accept; the thread and session."""
    extra = {f"opponent{i + 2}": o for i, o in enumerate(opponents[1:])}
    result = await challenger.slash(channel, "challenge", game="kraut_ruben",
                                    opponent=opponents[0], **extra, **options)
    assert not result.ephemeral, result.response.content
    message = result.response.message
    for opponent in opponents:
        answer = await opponent.click(message, label="Accept")
        assert not answer.ephemeral, answer.response.content
        message = next(m for m in channel.history() if m.id == message.id)
    thread = channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    return thread, session


def quick_move(state) -> str:
    """A legal move that ends the game soon: take a garden at once, then plant in your own."""
    legal = [str(m) for m in state.legal_moves()]
    own = tuple(str(g) for g in state.gardens_of(state.current_player))
    mine = [m for m in legal if m[:1] in own and m[1:2].isalpha()]
    takes = [m for m in legal if m.startswith("take")]
    return (takes or mine or legal)[0]


async def play_out(session, *, limit: int = 2000) -> int:
    """Play quick legal moves until the game ends (through the session, like /move)."""
    moves = 0
    while not session.is_over and moves < limit:
        seat = session.state.current_player
        move = quick_move(session.state)
        await session.play(session.record.user_at(seat), move, expected_ply=session.ply)
        moves += 1
    assert session.is_over
    return moves


def custom_ids(message: discord.Message, action: str) -> list[str]:
    """The custom_ids of a message's buttons for one action (`place`, `garden`, ...)."""
    return [c.custom_id for row in message.components for c in row.children
            if isinstance(c, discord.Button) and f":{action}:" in (c.custom_id or "")]


async def play_turn_with_components(session, thread, actors, *, take: bool = False) -> int:
    """One whole turn with the board's buttons and menus only (no typing); maybe a take. The
    taps it took (a button 1, a menu 2)."""
    actor = actor_for(session, *actors)
    taps = 0
    while not session.is_over and session.record.user_at(session.state.current_player) == \
            actor.id:
        board = latest_board(thread)
        found = labels(board)
        if "Draw a tile" in found:
            drawn = await actor.click(board, label="Draw a tile")
            assert not drawn.ephemeral, drawn.response.content
            taps += 1
        elif any(label.startswith("Where does") for label in found):
            await actor.select(board, [select_values(board)[-1]])
            taps += 2
        elif custom_ids(board, "place"):
            placed = await actor.click(board, custom_id=custom_ids(board, "place")[0])
            assert not placed.ephemeral, placed.response.content
            taps += 1
        elif custom_ids(board, "garden"):
            panel = await actor.click(board, custom_id=custom_ids(board, "garden")[0])
            assert panel.ephemeral and "which tile" in panel.response.content
            await actor.select(panel.response.message,
                               [select_values(panel.response.message)[0]])
            taps += 3
        elif take and any(label.startswith("Take garden") for label in found):
            taken = await actor.click(board, label=next(
                label for label in found if label.startswith("Take garden")))
            assert not taken.ephemeral, taken.response.content
            taps += 1
        elif "End turn" in found:
            await actor.click(board, label="End turn")
            taps += 1
        else:
            raise AssertionError(f"unexpected controls {found}")
    return taps


TWO_PLAYER_SEED = 1
"""Seats and tiles of the whole two-player game: a fixed seed, so that the second player's
first turn offers Draw and Mole (with some tiles the mole has nothing to cover yet)."""


async def test_a_two_player_game_is_played_to_the_end_with_components_and_moves(
    env, world, monkeypatch
) -> None:
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(TWO_PLAYER_SEED))
    thread, session = await start_game(env, world.channel, world.alice, world.bob)
    assert thread.name in ("Kraut & Rüben · Alice vs Bob", "Kraut & Rüben · Bob vs Alice")
    assert len(session.state.gardens) == 5
    board = latest_board(thread)
    # The first draw is forced (no tile to cover yet, so no mole): the tile waits for a
    # garden, one button each (the bot picks the bed: its place never matters).
    assert [label for label in labels(board) if label.startswith("Garden")] == [
        f"Garden {g} · no owner yet · 12 empty beds" for g in range(1, 6)]
    assert {"My contract", "Resign"} <= set(labels(board))
    assert len(custom_ids(board, "place")) == 5
    assert "contract:" not in board.embeds[0].description  # dealt privately, never in the thread
    assert "Contracts dealt" in board.embeds[0].description
    players = (world.alice, world.bob)
    # Two turns with the components: Draw, then a garden button, then End turn.
    await play_turn_with_components(session, thread, players)
    assert {"Draw a tile", "Play my mole"} <= set(labels(latest_board(thread)))
    after_draw = [m for m in thread.history() if m.embeds and "drew" in
                  (m.embeds[0].description or "")]
    assert after_draw, "the drawn tile is announced"
    await play_turn_with_components(session, thread, players)
    # A take with its button.
    actor = actor_for(session, *players)
    await play_turn_with_components(session, thread, players, take=True)
    assert session.state.owners[0] == session.record.seat_of(actor.id)
    assert any("takes garden 1" in (m.embeds[0].description or "")
               for m in thread.history() if m.embeds)
    # A few typed moves, with autocomplete.
    mover = actor_for(session, *players)
    suggestions = await mover.autocomplete(thread, "move", "notation", "dr")
    assert [c["value"] for c in suggestions] == ["draw"]
    typed = await mover.slash(thread, "move", notation="draw")
    assert typed.ephemeral and "Played `draw`" in typed.response.content
    # The rest of the game quickly: the pictures are checked elsewhere, so skip drawing them.
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: TINY_PNG)
    await play_out(session)
    final = latest_board(thread)
    assert control_labels(final) == ["Rematch"]
    result = session.result()
    assert result is not None and len(result.winners) == 1
    scores = [m for m in thread.history() if m.embeds and
              m.embeds[0].title == "🏁 Final scores"]
    [embed] = [scores[-1].embeds[0]]
    assert "Winner:" in embed.description
    assert len(embed.fields) == 2
    assert all("Contract No." in f.value and "Garden" in f.value for f in embed.fields)
    assert "×" in embed.fields[0].value  # the seed's line-by-line breakdown


async def test_three_players_accept_then_play_with_a_closed_dm_and_a_wrong_player(
    env, world, dave, monkeypatch
) -> None:
    env.inject_error("POST", f"/channels/{world.carol.user.dm_channel.id}/messages",
                     status=403, code=50007, message="Cannot send messages to this user",
                     times=None)
    thread, session = await start_game(env, world.channel, world.alice, world.bob, world.carol)
    assert len(session.state.gardens) == 4
    assert " vs " in thread.name and thread.name.count(" vs ") == 2
    # Alice and Bob got their contract by DM; Carol is told to use the button.
    for member in (world.alice, world.bob):
        [dm] = member.user.dm_channel.history()
        assert "Your secret contract" in dm.content and "Main:" in dm.content
    notice = [m for m in thread.history() if "could not DM you" in (m.content or "")]
    assert [m.content.split(",")[0] for m in notice] == [world.carol.mention]
    for message in thread.history():  # no contract ever shows in the thread
        text = (message.content or "") + " ".join(e.description or "" for e in message.embeds)
        assert "secret contract" not in text
    board = latest_board(thread)
    mine = await world.carol.click(board, label="My contract")
    assert mine.ephemeral and "Your secret contract" in mine.response.content
    seat = session.record.seat_of(world.carol.id)
    number = session.state.view(seat)["your_contract"]["number"]
    assert f"No. {number}" in mine.response.content
    assert "Garden 4:" in mine.response.content  # what every garden would score for Carol
    spectator = await dave.click(board, label="My contract")
    assert spectator.ephemeral and "not playing" in spectator.response.content
    # A player out of turn is refused, and so is an illegal typed move.
    mover = actor_for(session, world.alice, world.bob, world.carol)
    waiting = next(a for a in (world.alice, world.bob, world.carol) if a is not mover)
    refused = await waiting.click(board, custom_id=custom_ids(board, "place")[0])
    assert refused.ephemeral and "not yours" in refused.response.content
    illegal = await mover.slash(thread, "move", notation="take 2")
    assert illegal.ephemeral and illegal.response.content
    await play_turn_with_components(session, thread, (world.alice, world.bob, world.carol))
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: TINY_PNG)
    await play_out(session)
    result = session.result()
    assert result.reason in ("all_finished", "bag_empty")
    [scores] = [m for m in thread.history() if m.embeds and
                m.embeds[0].title == "🏁 Final scores"]
    assert len(scores.embeds[0].fields) == 3


async def test_a_challenge_waits_for_every_opponent_and_shows_who_accepted(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="kraut_ruben",
                                     opponent=world.bob, opponent2=world.carol)
    message = result.response.message
    assert world.bob.mention in message.content and world.carol.mention in message.content
    first = await world.bob.click(message, label="Accept")
    assert not first.ephemeral
    updated = next(m for m in world.channel.history() if m.id == message.id)
    assert "✅ Bob" in updated.embeds[0].description
    assert "⏳ Carol" in updated.embeds[0].description
    assert world.channel.threads == []
    again = await world.bob.click(updated, label="Accept")
    assert again.ephemeral and "already accepted" in again.response.content
    await world.carol.click(updated, label="Accept")
    assert len(world.channel.threads) == 1


async def test_any_decline_cancels_a_challenge_of_several(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="kraut_ruben",
                                     opponent=world.bob, opponent2=world.carol)
    await world.bob.click(result.response.message, label="Accept")
    message = next(m for m in world.channel.history() if m.id == result.response.message.id)
    await world.carol.click(message, label="Decline")
    closed = next(m for m in world.channel.history() if m.id == message.id)
    assert "Carol declined" in closed.embeds[0].description
    assert closed.components == [] and world.channel.threads == []


async def test_extra_opponents_are_refused_for_a_two_player_game(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.bob, opponent2=world.carol)
    assert result.ephemeral
    assert "Qawale is a game for 2 players: challenge one opponent only" in \
        result.response.content


async def test_a_lobby_fills_up_and_the_host_starts_it(env, world, dave) -> None:
    result = await world.alice.slash(world.channel, "lobby", game="kraut_ruben")
    message = result.response.message
    assert labels(message) == ["Join", "Leave", "Start", "+ Easy AI", "+ Medium AI",
                              "+ Hard AI", "− AI"]
    early = await world.alice.click(message, label="Start")
    assert early.ephemeral and "at least 2" in early.response.content
    for member in (world.bob, world.carol, dave):
        joined = await member.click(message, label="Join")
        assert not joined.ephemeral, joined.response.content
        message = next(m for m in world.channel.history() if m.id == message.id)
    await dave.click(message, label="Leave")
    message = next(m for m in world.channel.history() if m.id == message.id)
    assert "4." not in message.embeds[0].description and "3. <@" in message.embeds[0].description
    not_host = await world.bob.click(message, label="Start")
    assert not_host.ephemeral and "Only Alice" in not_host.response.content
    await world.alice.click(message, label="Start")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert {s.user_id for s in session.record.seats} == {world.alice.id, world.bob.id,
                                                         world.carol.id}


async def test_a_three_game_match_adds_the_cup_and_totals(env, world, monkeypatch) -> None:
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: TINY_PNG)
    thread, session = await start_game(env, world.channel, world.alice, world.bob,
                                       world.carol, match_games=3)
    await play_out(session, limit=4000)
    result = session.result()
    assert result.reason == "match_total"
    titles = [m.embeds[0].title for m in thread.history() if m.embeds
              and (m.embeds[0].title or "").startswith("🏁")]
    assert titles == ["🏁 Game 1 of 3 — scores", "🏁 Game 2 of 3 — scores",
                      "🏁 Game 3 of 3 — scores"]
    last = next(m for m in thread.history() if m.embeds and
                m.embeds[0].title == "🏁 Game 3 of 3 — scores").embeds[0]
    assert "Match totals" in last.description
    assert any("The cup" in f.value for f in last.fields)
    assert "over three games" in latest_board(thread).embeds[0].description
    # Each game dealt new contracts, sent privately again.
    assert len(world.alice.user.dm_channel.history()) == 3


async def test_against_the_ai_only_the_member_hears_of_their_contract(env, world) -> None:
    await world.alice.slash(world.channel, "challenge", game="kraut_ruben",
                            opponent=the_bot(env, world), level="easy")
    thread = world.channel.threads[-1]
    [dm] = world.alice.user.dm_channel.history()
    assert "Your secret contract" in dm.content
    texts = [message.content or "" for message in thread.history()]
    assert not [text for text in texts if "could not DM you" in text], "no pointer for the AI"
