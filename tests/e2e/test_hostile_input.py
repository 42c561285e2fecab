"""Hostile input: fuzzed notation, forged menu values and custom_ids. Every one gets a
specific private answer; nothing reaches the error handler as a bug; nothing is stored."""

from __future__ import annotations

import random
import string

import pytest
from simcord.actors import _component_interaction, _visible_message

from bot.components import UNKNOWN_CONTROL
from bot.replies import NOTHING_CHANGED
from tests.e2e.helpers import actor_for, bot_of, challenge_and_accept, latest_board, said

ALPHABET = string.printable + "éèàçœ²³½←↑→↓🎲🍇♠♥\u200b\u202e\0"


def fuzzed_notation(rng: random.Random) -> str:
    """A random string of 1 to 100 characters (Discord's limit for /move)."""
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 100)))



@pytest.mark.parametrize("game", ["qawale", "grabuge", "kraut_ruben"])
async def test_fuzzed_typed_moves_get_a_private_reason_and_change_nothing(
    env, world, game: str
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob,
                                                 game=game)
    mover = actor_for(session, world.alice, world.bob)
    ply = session.ply
    rng = random.Random(game)
    for _ in range(25):
        text = fuzzed_notation(rng)
        suggestions = await mover.autocomplete(thread, "move", "notation", text)
        assert isinstance(suggestions, list)
        result = await mover.slash(thread, "move", notation=text)
        assert result.acknowledged and result.ephemeral, text
        answer = said(result)
        assert answer and NOTHING_CHANGED not in answer and len(answer) <= 2000, (text, answer)
    assert session.ply == ply
    assert len(await bot_of(env).db.moves(session.id)) == ply


async def forge(actor, message, data: dict) -> object:
    """Send a component interaction as a modified client could: any custom_id, any values."""
    return await _component_interaction(actor, _visible_message(actor, message), data)


@pytest.mark.parametrize("values", [["zz"], ["e9"], [""], ["a1", "b2"], ["x" * 200], []])
async def test_forged_menu_values_get_a_private_refusal(env, world, values) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    board = latest_board(thread)
    select = board.components[0].children[0]
    result = await forge(mover, board, {"custom_id": select.custom_id, "component_type": 3,
                                        "values": values})
    assert result.acknowledged and result.ephemeral
    assert NOTHING_CHANGED not in said(result) and said(result)
    assert session.ply == 0


@pytest.mark.parametrize("custom_id", [
    "lg:99999999999999999999999:0:resign:",  # a game id too large for SQLite
    "lg:1:0:nonsense:",                        # an action no game knows
    "lc:0:accept",                             # no such challenge
    "zz:whatever",                             # not one of ours at all
])
async def test_forged_custom_ids_get_a_private_answer(env, world, custom_id: str) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    result = await forge(mover, latest_board(thread), {"custom_id": custom_id,
                                                       "component_type": 2})
    assert result.acknowledged and result.ephemeral
    assert said(result) == UNKNOWN_CONTROL  # it is not on the message it claims to be from
    assert session.ply == 0
