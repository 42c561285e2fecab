"""Replays end to end: finding a game by its title, the captioned GIF of every decision, the
step-by-step viewer (restart-proof), and what is refused."""

from __future__ import annotations

import io
from datetime import timedelta

import discord
import pytest
from PIL import Image, ImageChops, ImageStat

from bot.components import ReplayStep
from bot.errors import Refusal
from bot.records import MAX_UPLOAD
from bot.replay import Position, decision_positions, seat_names
from renderers import render
from renderers.animation import HOLD_MS, MAX_WIDTH
from storage import GameRecord, MoveKind, NewMove, Seat
from tests.e2e.helpers import actor_for, bot_of, challenge_and_accept, control_labels
from tests.e2e.test_restart import restart
from tests.replay_games import random_game

NOW = discord.utils.utcnow()
LONG_GRANAT = ("granat", 5, 0.5)
"""A seeded random Granat game of 208 plies (190 decisions), as long as the issue's."""
DRAWING_SETTLE_TIMEOUT = 300
"""Seconds simcord waits for the bot while it draws a long replay (about 20 s, more when the
machine is busy)."""

REPLAY_SETTLE_TIMEOUT = 60
"""Seconds simcord waits for the bot while it draws a short replay: well under a second
alone, but the first one of a process chooses the game's palette too, and on a loaded
machine (the test suite on both cores) that has taken more than simcord's default 5 s."""


@pytest.fixture(autouse=True)
def patient(env) -> None:
    """Every test here draws replays for real: give them time on a busy machine."""
    env.settle_timeout = REPLAY_SETTLE_TIMEOUT


def render_position(record: GameRecord, position: Position) -> bytes:
    """The picture the bot shows of one position of a replay (English)."""
    return render(position.view, position.highlight, names=seat_names(record))


async def _store(env, guild_id: int, record: GameRecord, moves, *, seats=None,
                 ended=NOW) -> GameRecord:
    """Store a played game as finished, as the bot would have."""
    db = bot_of(env).db
    stored = await db.create_game(
        game=record.game, guild_id=guild_id, channel_id=900, parent_id=None,
        seats=seats or record.seats, options={}, rng_seed=record.rng_seed, state={}, now=ended)
    await db.record_moves(stored.id, 0, [NewMove(m.seat, m.user_id, m.kind, m.move)
                                         for m in moves], {},
                          result=record.result or {"winners": [], "scores": None,
                                                   "reason": "draw"}, now=ended)
    found = await db.get_game(stored.id)
    assert found is not None
    return found


async def _resigned(env, world, game: str, ended) -> GameRecord:
    """A game of `game` between Alice and Bob that Bob resigned at once, ended at `ended`."""
    db = bot_of(env).db
    stored = await db.create_game(
        game=game, guild_id=world.guild.id, channel_id=900, parent_id=None,
        seats=[Seat(0, world.alice.id, "Alice"), Seat(1, world.bob.id, "Bob")], options={},
        rng_seed=1, state={}, now=ended)
    await db.record_moves(stored.id, 0, [NewMove(1, world.bob.id, MoveKind.RESIGN, "resign")],
                          {}, result={"winners": [0], "scores": None, "reason": "resigned"},
                          now=ended)
    return stored


def _frames(data: bytes) -> tuple[list[Image.Image], list[int]]:
    gif = Image.open(io.BytesIO(data))
    frames, durations = [], []
    for index in range(gif.n_frames):
        gif.seek(index)
        frames.append(gif.convert("RGB"))
        durations.append(gif.info["duration"])
    return frames, durations


def _as_shown(png: bytes, size: tuple[int, int]) -> Image.Image:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    height = round(image.height * MAX_WIDTH / image.width)
    board = image.resize((MAX_WIDTH, height), Image.Resampling.LANCZOS)
    return board.crop((0, 0, *size))


def _distance(a: Image.Image, b: Image.Image) -> float:
    return float(ImageStat.Stat(ImageChops.difference(a, b).convert("L")).mean[0])


def said_all(result) -> str:
    """The response and its follow-ups, as the channel reads them."""
    parts = [result.response.content or ""] if result.response else []
    return "\n".join(parts + [m.content or "" for m in result.followups])


async def test_autocomplete_lists_my_games_by_title_and_date_newest_first(env, world) -> None:
    older = await _resigned(env, world, "qawale", NOW - timedelta(days=3))
    newer = await _resigned(env, world, "graps", NOW - timedelta(days=1))
    elsewhere = env.create_guild(name="Elsewhere")
    elsewhere.add_member(env.create_user("alice2", global_name="Alice"))
    await _store(env, elsewhere.id, *random_game("qawale", 1))  # another server's game
    choices = await world.alice.autocomplete(world.channel, "replay", "game", "")
    names = [c["name"] for c in choices]
    day = (NOW - timedelta(days=1))
    assert names == [f"Graps · Alice vs Bob · {day.day} {day:%b %Y} · #{newer.id}",
                     f"Qawale · Alice vs Bob · {(NOW - timedelta(days=3)).day} "
                     f"{NOW - timedelta(days=3):%b %Y} · #{older.id}"]
    assert [c["value"] for c in choices] == [str(newer.id), str(older.id)]
    typed = await world.alice.autocomplete(world.channel, "replay", "game", "qaw")
    assert [c["value"] for c in typed] == [str(older.id)]
    assert await world.carol.autocomplete(world.channel, "replay", "game", "") == []
    assert all(len(c["name"]) <= 100 for c in choices)


async def test_autocomplete_marks_an_aborted_game(env, world) -> None:
    db = bot_of(env).db
    game = await db.create_game(
        game="qawale", guild_id=world.guild.id, channel_id=900, parent_id=None,
        seats=[Seat(0, world.alice.id, "Alice"), Seat(1, world.bob.id, "Bob")], options={},
        rng_seed=1, state={}, now=NOW)
    await db.abort_game(game.id, now=NOW)
    choices = await world.bob.autocomplete(world.channel, "replay", "game", "abort")
    assert [c["value"] for c in choices] == [str(game.id)]
    assert choices[0]["name"].endswith(f"#{game.id} · aborted")


async def test_autocomplete_offers_at_most_25_games(env, world) -> None:
    for day in range(30):
        await _resigned(env, world, "qawale", NOW - timedelta(days=day))
    choices = await world.alice.autocomplete(world.channel, "replay", "game", "")
    assert len(choices) == 25


async def test_a_game_is_found_by_its_id_or_by_a_title_only_it_matches(env, world) -> None:
    qawale = await _resigned(env, world, "qawale", NOW - timedelta(days=2))
    await _resigned(env, world, "graps", NOW - timedelta(days=1))
    by_id = await world.carol.slash(world.channel, "replay", game=f"#{qawale.id}")
    assert not by_id.ephemeral and f"game #{qawale.id}" in said_all(by_id)
    by_title = await world.alice.slash(world.channel, "replay", game="qawale alice")
    assert f"game #{qawale.id}" in said_all(by_title)
    vague = await world.alice.slash(world.channel, "replay", game="Alice vs Bob")
    assert vague.ephemeral and "2 of your games match" in vague.response.content
    nothing = await world.alice.slash(world.channel, "replay", game="chess")
    assert nothing.ephemeral and "None of your latest games" in nothing.response.content
    huge = await world.alice.slash(world.channel, "replay", game="9" * 30)
    assert huge.ephemeral and "There is no game #" in huge.response.content


def _replay_message(result) -> discord.Message:
    """The message that carries the replay (the deferred answer, edited or followed up)."""
    for message in [*result.followups, result.response.message]:
        if message is not None and message.attachments:
            return message
    raise AssertionError("no replay was posted")


async def test_a_long_granat_game_replays_every_decision_under_8_mb_ending_on_the_final_board(
    env, world
) -> None:
    env.settle_timeout = DRAWING_SETTLE_TIMEOUT
    record, moves = random_game(*LONG_GRANAT)
    assert len(moves) == 208
    stored = await _store(env, world.guild.id, record, moves)
    positions = decision_positions(stored, moves)
    decisions = sum(m.kind is MoveKind.PLAYER for m in moves)
    result = await world.carol.slash(world.channel, "replay", game=str(stored.id))
    message = _replay_message(result)
    assert f"({decisions} moves, finished)" in message.content
    data = await message.attachments[0].read()
    assert len(data) <= MAX_UPLOAD == 8_000_000
    frames, durations = _frames(data)
    assert len(frames) == decisions + 1 == len(positions)  # the start and every decision
    assert durations[-1] == HOLD_MS and max(durations[:-1]) < HOLD_MS
    final = _as_shown(render_position(stored, positions[-1]), frames[-1].size)
    before = _as_shown(render_position(stored, positions[-2]), frames[-1].size)
    board = (0, 0, final.width, final.height)
    assert _distance(frames[-1].crop(board), final) < _distance(frames[-1].crop(board), before)
    assert "Step through" in control_labels(message)


async def test_the_viewer_steps_first_previous_next_last_and_survives_a_restart(
    env, world, database_url
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    for move in ["a1:NES", "a4:SSE", "b2:WSE"]:
        played = await actor_for(session, world.alice, world.bob).slash(thread, "move",
                                                                        notation=move)
        assert "Played" in played.response.content, played.response.content
    await session.resign(world.bob.id)
    names = {s.user_id: s.display_name for s in session.record.seats}
    first_mover = names[session.record.user_at(0)]
    posted = await world.carol.slash(world.channel, "replay", game=str(session.id))
    opened = await world.carol.click(_replay_message(posted), label="Step through")
    assert opened.ephemeral
    viewer = _replay_message(opened)
    assert "Start position · 3 moves" in viewer.content
    assert viewer.attachments[0].filename == "position.png"
    disabled = {c.label: c.disabled for row in viewer.components for c in row.children}
    assert disabled == {"First": True, "Previous": True, "Next": False, "Last": False}

    step = await world.carol.click(viewer, label="Next")
    viewer = step.response.message
    assert f"Move 1 of 3 · {first_mover}: a1:NES" in viewer.content
    picture = await viewer.attachments[0].read()
    assert picture == render_position(session.record, decision_positions(
        session.record, await bot_of(env).db.moves(session.id))[1])

    await restart(env, database_url)  # the buttons carry everything they need

    viewer = (await world.carol.click(viewer, label="Last")).response.message
    assert "Move 3 of 3" in viewer.content and "won" in viewer.content
    disabled = {c.label: c.disabled for row in viewer.components for c in row.children}
    assert disabled == {"First": False, "Previous": False, "Next": True, "Last": True}
    viewer = (await world.carol.click(viewer, label="Previous")).response.message
    assert "Move 2 of 3" in viewer.content
    viewer = (await world.carol.click(viewer, label="First")).response.message
    assert "Start position" in viewer.content


async def test_a_position_a_game_does_not_have_or_another_servers_game_is_refused(
    env, world
) -> None:
    game = await _resigned(env, world, "qawale", NOW)
    records = bot_of(env).records
    with pytest.raises(Refusal, match="has 0 moves: there is no move 5"):
        await records.replay_position(ReplayStep(game.id, 5, "n"), world.guild.id)
    with pytest.raises(Refusal, match="no game"):
        await records.replay_position(ReplayStep(game.id, 0, "f"), world.guild.id + 1)
    _record, index = (await records.replay_position(ReplayStep(game.id, 99, "l"),
                                                    world.guild.id))[::2]
    assert index == 0  # Last is always the latest position


async def test_a_game_too_big_to_upload_whole_is_sampled_and_says_so(
    env, world, monkeypatch
) -> None:
    env.settle_timeout = DRAWING_SETTLE_TIMEOUT
    monkeypatch.setattr("bot.records.MAX_UPLOAD", 1)  # nothing fits: the last resort
    record, moves = random_game("qawale", 1)
    stored = await _store(env, world.guild.id, record, moves)
    result = await world.alice.slash(world.channel, "replay", game=str(stored.id))
    message = _replay_message(result)
    assert "Too long to upload whole: 8 of its 17 positions" in message.content
    frames, _durations = _frames(await message.attachments[0].read())
    assert len(frames) == 8


async def test_the_move_list_is_a_private_text_file_of_every_decision(env, world,
                                                                      database_url) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    for move in ["a1:NES", "a4:SSE", "b2:WSE"]:
        await actor_for(session, world.alice, world.bob).slash(thread, "move", notation=move)
    await session.resign(world.bob.id)
    names = [s.display_name for s in session.record.seats]
    posted = await world.carol.slash(world.channel, "replay", game=str(session.id))
    await restart(env, database_url)  # the button carries the game
    listed = await world.carol.click(_replay_message(posted), label="Move list")
    assert listed.ephemeral
    message = _replay_message(listed)
    assert message.content == f"📄 The moves of game #{session.id}."
    [attachment] = message.attachments
    assert attachment.filename == f"game-{session.id}.txt"
    text = (await attachment.read()).decode()
    lines = text.splitlines()
    assert lines[0] == f"Game #{session.id} · Qawale · {names[0]} vs {names[1]}"
    assert lines[1].startswith("Started ") and lines[1].endswith(" (UTC)")
    assert lines[-4:] == [f"1. {names[0]}: a1:NES", f"2. {names[1]}: a4:SSE",
                          f"3. {names[0]}: b2:WSE", "Alice won"]


async def test_the_move_list_never_tells_a_card_and_only_on_its_server(env, world) -> None:
    record, moves = random_game("grabuge", 3)
    stored = await _store(env, world.guild.id, record, moves)
    posted = await world.carol.slash(world.channel, "replay", game=str(stored.id))
    listed = await world.carol.click(_replay_message(posted), label="Move list")
    text = (await _replay_message(listed).attachments[0].read()).decode()
    assert "card:" not in text, "a chance outcome is never written"
    decisions = [m for m in moves if m.kind is MoveKind.PLAYER]
    assert f"\n{len(decisions)}. " in text
    with pytest.raises(Refusal, match="no game"):
        await bot_of(env).records.move_list(stored.id, world.guild.id + 1)
