"""Random clicks by anyone, on any board or private panel, fresh or stale, doubled, mixed with
typed moves (legal, garbled, oversized), Discord failing calls, time passing and restarts: no
unexpected error, nothing stored that the game does not hold, and no live game left without
controls."""

from __future__ import annotations

import asyncio
import os
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial

import discord
import pytest
import simcord
from simcord.backend.errors import SetupError

from bot.ai_players import is_ai
from bot.client import create_bot
from bot.config import Settings
from bot.sessions import GameSession
from tests.e2e.conftest import unexpected_errors
from tests.e2e.helpers import (
    bot_of,
    challenge_and_accept,
    latest_board,
    simultaneously,
    the_bot,
)
from tests.e2e.test_ai_games import THINKING_SETTLE_TIMEOUT

STEPS = int(os.environ.get("MONKEY_STEPS", 200))
"""Steps a game or the gathering takes; more to hunt (`MONKEY_STEPS=400 MONKEY_SEED=7`)."""
ENDINGS = ("Resign", "Leave", "Offer draw")
"""Controls that end the game (once confirmed or accepted), mostly left alone: the game goes on."""
SKIPPED = {label: 0.97 for label in ENDINGS} | {"Rules": 0.8}
"""How often each of these controls is passed over when drawn (the Rules only say the rules)."""
MEND_DELAYS = (THINKING_SETTLE_TIMEOUT + 30, THINKING_SETTLE_TIMEOUT + 90)
"""Seconds between tries to post a board Discord refused, in these tests (see below)."""
GARBLED = (" ", "e2e4", "🙂" * 40, "x" * 100, "a1:NNNNNNNNNNNNNNNN", "keep 9", "reserve -1")


def faults(thread_id: int) -> list[tuple[str, str]]:
    """The calls a game's moves make to Discord: boards posted and edited in the thread,
    followups and edits through a click's interaction."""
    return [("POST", f"/channels/{thread_id}/messages"),
            ("PATCH", f"/channels/{thread_id}/messages/*"),
            ("POST", "/webhooks/*"), ("PATCH", "/webhooks/*")]


def controls(message: discord.Message) -> list[discord.Component]:
    """The message's enabled buttons (not links) and selects."""
    return [item for row in message.components for item in getattr(row, "children", [])
            if (isinstance(item, discord.Button) and not item.disabled and item.custom_id)
            or (isinstance(item, discord.SelectMenu) and not item.disabled and item.options)]


async def use(actor, message: discord.Message, item: discord.Component, rng: random.Random):
    """Click the button, or choose random values in the select."""
    if isinstance(item, discord.Button):
        return await actor.click(message, custom_id=item.custom_id)
    assert isinstance(item, discord.SelectMenu)
    count = rng.randint(item.min_values, min(item.max_values, len(item.options)))
    values = [option.value for option in rng.sample(item.options, count)]
    return await actor.select(message, values, custom_id=item.custom_id)


@contextmanager
def tasks_shown_if_the_bot_never_settles() -> Iterator[None]:
    """On simcord's "bot did not settle", print where every task waits: what to look at first.
    (Once it was a board's retry, which simcord waited for in real time: see MEND_DELAYS.)"""
    try:
        yield
    except TimeoutError:
        for task in asyncio.all_tasks():
            print(f"--- {task.get_name()}: {task.get_coro()!r}", file=sys.stderr)
            task.print_stack(limit=12, file=sys.stderr)
        raise


async def start(env, world, game: str, opponent: str) -> tuple[simcord.builders.ChannelHandle,
                                                              GameSession]:
    """Alice against Bob (rated, or casual: with Hint, and Take back where the game has it),
    or against the easy AI."""
    if opponent != "ai":
        options = {"rated": "no"} if opponent == "casual bob" else {}
        return await challenge_and_accept(env, world.channel, world.alice, world.bob,
                                          game=game, **options)
    await world.alice.slash(world.channel, "challenge", game=game,
                            opponent=the_bot(env, world), level="easy")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    return thread, session


@pytest.mark.parametrize(("game", "opponent"), [
    ("qawale", "bob"), ("graps", "bob"), ("grabuge", "bob"), ("granat", "bob"),
    ("kraut_ruben", "bob"), ("qawale", "casual bob"), ("granat", "casual bob"),
    ("grabuge", "ai"), ("kraut_ruben", "ai"),
])
async def test_random_clicks_typing_and_restarts_never_break_a_game(
    env, world, quick_boards, database_url, monkeypatch, game, opponent
) -> None:
    rng = random.Random(f"{game}{opponent}{os.environ.get('MONKEY_SEED', '')}")
    env.settle_timeout = THINKING_SETTLE_TIMEOUT  # hints and the AI think; restarts start pools
    # simcord waits in real time for a bot timer due within its settle timeout: the retries
    # of a board Discord refused (10 s, then 30 s) made a step last 40 s, and one ending as
    # the timeout ran out failed the step. They come after it here, when the clock says.
    monkeypatch.setattr("bot.session_base.MEND_DELAYS", MEND_DELAYS)
    thread, session = await start(env, world, game, opponent)
    actors = [world.alice, world.bob, world.carol]
    panels: dict[int, list[discord.Message]] = {actor.id: [] for actor in actors}
    boards: list[discord.Message] = []
    game_id = session.id
    with tasks_shown_if_the_bot_never_settles():
        for step in range(STEPS):
            session = await bot_of(env).sessions.get(game_id) or session
            if session.is_over:
                break
            mover = session.record.user_at(session.state.current_player)
            movers = [a for a in actors if a.id == mover]  # none while the AI is to move
            actor = movers[0] if movers and rng.random() < 0.7 else rng.choice(actors)
            board = latest_board(thread)
            if not boards or boards[-1].id != board.id:
                boards.append(board)
            roll = rng.random()
            if roll < 0.02:
                old = bot_of(env)
                await env.restart_bot(create_bot(Settings(database_url=database_url)))
                await old.close()
                continue
            if roll < 0.03:  # time passes: a refused board's retry, the turn clock
                await env.advance_time(rng.choice([5.0, MEND_DELAYS[0] + 1]))
                continue
            if roll < 0.05:  # Discord fails the next such call: the move must stand all the same
                method, path = rng.choice(faults(thread.id))
                status, code = rng.choice([(500, 0), (403, 50013), (429, 0)])
                env.inject_error(method, path, status=status, code=code, times=1)
            elif roll < 0.11:
                typed = (str(rng.choice(session.state.legal_moves())) if rng.random() < 0.5
                         else rng.choice(GARBLED))
                await env.advance_time(0.001)  # a command sent as a board is shown counts as older
                await actor.slash(thread, "move", notation=typed)
                continue
            candidates = [board] * 2 + panels[actor.id][-3:] + boards[-3:-1]
            message = rng.choice(candidates)
            items = [item for item in controls(message)
                     if not (isinstance(item, discord.Button)
                             and rng.random() < SKIPPED.get(item.label or "", 0))]
            if not items:
                continue
            item = rng.choice(items)
            try:
                if roll < 0.17:  # a double click, both sent before the bot handles either
                    click = partial(use, actor, message, item, rng)
                    results = await simultaneously(env, click, click)
                else:
                    results = [await use(actor, message, item, rng)]
            except SetupError:  # the control is gone from the message: no one can click it
                continue
            for result in results:
                panels[actor.id] += [m for m in ([result.response.message] if result.response
                                                 else []) + list(result.followups)
                                     if m is not None and controls(m)]
            unexpected = unexpected_errors(env.errors, [])
            assert not unexpected, (step, unexpected)
    await env.advance_time(sum(MEND_DELAYS) + 1)  # a board Discord refused is posted again
    session = await bot_of(env).sessions.get(game_id) or session
    record = await bot_of(env).db.get_game(game_id)
    assert record is not None and record.ply == session.ply
    if not session.is_over:
        assert controls(latest_board(thread)), "a live game's board has no controls"
    print(game, "plies", session.ply, "over", session.is_over, session.record.result)


GAMES = ["qawale", "graps", "grabuge", "granat", "kraut_ruben"]


async def test_random_challenges_and_tables_by_anyone_never_break_the_bot(
    env, world, quick_boards, database_url
) -> None:
    """Challenges (to one, two or the bot), tables, and random clicks on whatever is waiting:
    every game that starts has its thread, its players and a board with controls."""
    rng = random.Random(f"gathering{os.environ.get('MONKEY_SEED', '')}")
    env.settle_timeout = THINKING_SETTLE_TIMEOUT
    members = [world.alice, world.bob, world.carol]
    for step in range(STEPS):
        actor = rng.choice(members)
        roll = rng.random()
        game = rng.choice(GAMES)
        if roll < 0.02:
            old = bot_of(env)
            await env.restart_bot(create_bot(Settings(database_url=database_url)))
            await old.close()
            continue
        if roll < 0.12:
            await actor.slash(world.channel, "lobby", game=game)
            continue
        if roll < 0.22:
            others = rng.sample([m for m in members if m is not actor] + [the_bot(env, world)],
                                rng.choice([1, 1, 2]))
            extra = {f"opponent{n + 2}": other for n, other in enumerate(others[1:])}
            await actor.slash(world.channel, "challenge", game=game, opponent=others[0],
                              **extra)
            continue
        waiting = [m for m in world.channel.history()[-6:] if controls(m)]
        if not waiting:
            continue
        message = rng.choice(waiting)
        try:
            await use(actor, message, rng.choice(controls(message)), rng)
        except SetupError:  # the control is gone from the message: no one can click it
            continue
        unexpected = unexpected_errors(env.errors, [])
        assert not unexpected, (step, unexpected)
    for thread in world.channel.threads:
        session = await bot_of(env).sessions.in_channel(thread.id)
        if session is not None and not session.is_over:
            assert controls(latest_board(thread)), "a live game's board has no controls"
            people = [seat.user_id for seat in session.record.seats if not is_ai(seat.user_id)]
            assert len(set(people)) == len(people), "a member holds two seats"
    print("threads", len(world.channel.threads))
