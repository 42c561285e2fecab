"""Granat in Discord end to end: a whole game, mandatory captures, a multi-capture played with
the selects, the early stop after losing both garnet pawns, and the refusals."""

from __future__ import annotations

import discord

from storage import GameStatus, MoveKind
from tests.e2e.helpers import actor_for, bot_of, challenge_and_accept, control_labels, latest_board

# Found by hand with the engine, to reach a multi-capture quickly: Red hands its marbles to
# front pawns and slides both garnet pawns onto the black line a13-i5 (h6, then f8), while
# Blue marks time; Blue's marble then goes to a13, from where its garnet pawn may take f8 and
# stop (a13xg7) or go straight on and take h6 too (a13xg7xi5). No ply has a single legal move.
SHORT_GAME = ["i1>e3", "c13-d12", "e3-h6", "i15>g15", "a1>a3", "g15>i15", "a3-f8", "a15>a13",
              "c3-d4"]
MULTI_CAPTURE = "a13xg7xi5"
"""Blue must capture; this one takes both Red garnet pawns (the other choice stops after f8)."""
WITH_COMPONENTS = {0, 4, 6}
"""Plies of SHORT_GAME played with the selects in the whole-game test (the others typed)."""


async def start(env, world):
    """A Granat game between Alice and Bob in its own thread."""
    return await challenge_and_accept(env, world.channel, world.alice, world.bob, game="granat")


async def drive(session, moves: list[str]) -> None:
    """Play `moves` through the session, as the player to move each time."""
    while session.ply < len(moves):
        mover = session.record.user_at(session.state.current_player)
        await session.play(mover, moves[session.ply], expected_ply=session.ply)


def options_of(message: discord.Message) -> dict[str, discord.SelectOption]:
    """Every option of every select of a message, by value."""
    return {o.value: o for row in message.components for c in row.children
            if isinstance(c, discord.SelectMenu) for o in c.options}


def select_holding(message: discord.Message, value: str) -> str:
    """The custom_id of the select that offers `value` (a composer may hold several)."""
    return next(c.custom_id for row in message.components for c in row.children
                if isinstance(c, discord.SelectMenu) and any(o.value == value for o in c.options))


async def play_with_selects(actor, board: discord.Message, move: str):
    """Choose the move in the board's menus (or its pawn first, when the board asks for one),
    then Confirm in the private composer; the last result."""
    if move in options_of(board):
        composer = await actor.select(board, [move], custom_id=select_holding(board, move))
        assert composer.ephemeral, composer.response.content
        return await actor.click(composer.response.message, label="Confirm")
    pawn = move.replace("x", "-").split("-")[0].split(">")[0]
    composer = await actor.select(board, [pawn])
    assert composer.ephemeral, composer.response.content
    message = composer.response.message
    if move not in [o.value for o in options_of(message).values() if o.default]:
        picked = await actor.select(message, [move], custom_id=select_holding(message, move))
        message = picked.response.message
    return await actor.click(message, label="Confirm")


async def test_a_game_is_played_to_the_end_by_selects_and_moves_then_the_early_stop(
    env, world
) -> None:
    thread, session = await start(env, world)
    for ply, move in enumerate(SHORT_GAME):
        mover = actor_for(session, world.alice, world.bob)
        if ply in WITH_COMPONENTS:
            result = await play_with_selects(mover, latest_board(thread), move)
        else:
            result = await mover.slash(thread, "move", notation=move)
        assert f"Played `{move}`" in result.response.content
    blue = actor_for(session, world.alice, world.bob)
    confirmed = await play_with_selects(blue, latest_board(thread), MULTI_CAPTURE)
    assert f"Played `{MULTI_CAPTURE}`" in confirmed.response.content
    board = latest_board(thread).embeds[0]
    red_name = session.names[0]
    assert (f"🔴 **{red_name}** (Red) has lost both garnet pawns and may stop: `/resign`."
            in board.description)
    red = actor_for(session, world.alice, world.bob)
    asked = await red.slash(thread, "resign")
    await red.click(asked.response.message, label="Resign")
    final = latest_board(thread)
    assert (f"{red_name} stopped after losing both garnet pawns: 🔵 {session.names[1]} wins."
            in final.embeds[0].description)
    assert control_labels(final) == ["Rematch"]
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.status is GameStatus.FINISHED
    assert stored.result == {"winners": [1], "scores": None, "reason": "resigned"}
    log = await bot_of(env).db.moves(session.id)
    assert [m.move for m in log] == [*SHORT_GAME, MULTI_CAPTURE, "resign"]
    assert [m.kind for m in log][-1] is MoveKind.RESIGN


async def test_a_multi_capture_is_chosen_previewed_and_confirmed_with_the_selects(
    env, world
) -> None:
    thread, session = await start(env, world)
    await drive(session, SHORT_GAME)
    board = latest_board(thread)
    blue = actor_for(session, world.alice, world.bob)
    assert f"⚔️ 🔵 **{blue.name.capitalize()}** must capture this move." in (
        board.embeds[0].description)
    # Only captures are offered, straight on the board with what they take (no pawn menu).
    offered = options_of(board)
    assert set(offered) == {"a13xg7", MULTI_CAPTURE}
    assert offered[MULTI_CAPTURE].description == (
        "garnet pawn a13 captures 2: f8, h6 (landing on i5; 2 of them garnet)")
    picked = await blue.select(board, [MULTI_CAPTURE])
    assert picked.ephemeral and "only captures are offered" in picked.response.content
    assert picked.response.attachments[0].filename == "preview.png"
    assert "Confirm" in picked.response.content
    assert options_of(picked.response.message)[MULTI_CAPTURE].default
    confirmed = await blue.click(picked.response.message, label="Confirm")
    assert f"Played `{MULTI_CAPTURE}`" in confirmed.response.content
    after = latest_board(thread).embeds[0]
    assert "captures 2: f8, h6 (landing on i5; 2 of them garnet)" in after.description
    assert f"🔴 {session.names[0]}: 12 pawns (0 garnet)" in after.footer.text
    assert session.ply == len(SHORT_GAME) + 1


async def test_a_non_capturing_move_is_refused_while_a_capture_is_due(env, world) -> None:
    thread, session = await start(env, world)
    await drive(session, SHORT_GAME)
    blue = actor_for(session, world.alice, world.bob)
    before = session.state.dump()
    refused = await blue.slash(thread, "move", notation="d12-c11")
    assert refused.ephemeral
    assert "capture" in refused.response.content.lower()
    assert refused.response.content == _engine_reason(session, "d12-c11")
    assert session.state.dump() == before and session.ply == len(SHORT_GAME)
    suggestions = await blue.autocomplete(thread, "move", "notation", "")
    assert {c["value"] for c in suggestions} == {"a13xg7", MULTI_CAPTURE}


def _engine_reason(session, move: str) -> str:
    from engines import IllegalMove

    try:
        session.state.clone().apply(move)
    except IllegalMove as error:
        return str(error)
    raise AssertionError(f"{move} is legal")


async def test_the_first_board_offers_every_legal_move_in_its_menus(env, world) -> None:
    thread, session = await start(env, world)
    board = latest_board(thread)
    offered = options_of(board)
    assert set(offered) == {str(m) for m in session.state.legal_moves()}
    assert offered["a1>c3"].description == "garnet pawn a1 hands its marble to c3"
    menus = [c for row in board.components for c in row.children
             if isinstance(c, discord.SelectMenu)]
    assert 1 < len(menus) <= 4 and all(len(m.options) <= 25 for m in menus)
    for menu in menus:  # a pawn's moves are in one menu, named by its placeholder
        pawns = {o.value[:2].rstrip("-x>") for o in menu.options}
        assert all(pawn in menu.placeholder for pawn in pawns)
    assert board.attachments[0].filename == "board.png"
    assert "🔴" in board.embeds[0].footer.text and "🔵" in board.embeds[0].footer.text


async def test_a_step_is_played_with_the_selects_and_described(env, world) -> None:
    thread, session = await start(env, world)
    red = actor_for(session, world.alice, world.bob)
    board = latest_board(thread)
    composer = await red.select(board, ["c3-d4"], custom_id=select_holding(board, "c3-d4"))
    offered = options_of(composer.response.message)
    assert set(offered) == {str(m) for m in session.state.legal_moves()}  # to change one's mind
    assert offered["c3-d4"].description == "neutral pawn c3 steps to d4"
    assert offered["c3-d4"].default
    assert composer.response.attachments[0].filename == "preview.png"
    confirmed = await red.click(composer.response.message, label="Confirm")
    assert "Played `c3-d4`" in confirmed.response.content
    board = latest_board(thread).embeds[0]
    assert "played `c3-d4`: neutral pawn c3 steps to d4." in board.description


async def test_cancel_closes_the_composer_without_playing(env, world) -> None:
    thread, session = await start(env, world)
    red = actor_for(session, world.alice, world.bob)
    board = latest_board(thread)
    picked = await red.select(board, ["a1>c3"], custom_id=select_holding(board, "a1>c3"))
    assert "hands its marble to c3" in picked.response.content
    cancelled = await red.click(picked.response.message, label="Cancel")
    assert "cancelled" in cancelled.response.content and session.ply == 0


async def test_the_wrong_player_and_a_spectator_are_refused_privately(env, world) -> None:
    thread, session = await start(env, world)
    red = actor_for(session, world.alice, world.bob)
    blue = world.bob if red is world.alice else world.alice
    board = latest_board(thread)
    menu = select_holding(board, "c3-d4")
    refused = await blue.select(board, ["c3-d4"], custom_id=menu)
    assert refused.ephemeral and "turn, not yours" in refused.response.content
    spectator = await world.carol.select(board, ["c3-d4"], custom_id=menu)
    assert spectator.ephemeral and "not playing" in spectator.response.content
    typed = await blue.slash(thread, "move", notation="c13-d12")
    assert typed.ephemeral and "turn, not yours" in typed.response.content
    assert session.ply == 0


async def test_an_illegal_typed_move_gets_the_engine_reason(env, world) -> None:
    thread, session = await start(env, world)
    red = actor_for(session, world.alice, world.bob)
    for move in ("c3-c4", "a1-e5", "zz"):
        result = await red.slash(thread, "move", notation=move)
        assert result.ephemeral and result.response.content == _engine_reason(session, move)
    assert session.ply == 0


async def test_move_autocomplete_lists_legal_moves_matching_the_prefix(env, world) -> None:
    thread, session = await start(env, world)
    red = actor_for(session, world.alice, world.bob)
    values = [c["value"] for c in await red.autocomplete(thread, "move", "notation", " C3")]
    assert sorted(values) == ["c3-b4", "c3-d4"]
    assert len(await red.autocomplete(thread, "move", "notation", "")) == 25
    blue = world.bob if red is world.alice else world.alice
    assert await blue.autocomplete(thread, "move", "notation", " C3") == [], "not their turn"
    assert await world.carol.autocomplete(thread, "move", "notation", "") == [], "a spectator"
