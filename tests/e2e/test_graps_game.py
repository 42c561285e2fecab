"""Graps in Discord: dice rolled by the bot, a whole game to a win with components, refusals."""

from __future__ import annotations

from functools import lru_cache

import discord

from bot.automatic import chance_rng, sample_outcome
from bot.sessions import GameSession
from engines import CHANCE, GAMES
from engines.graps import GrapsState
from storage import GameStatus, MoveKind, NewMove
from tests.e2e.helpers import actor_for, bot_of, control_labels, latest_board

GRAPS = GAMES["graps"]
OPTIONS = {"grape_faces": 5}
"""Five grape faces: grapes are common, so a short game sees a pruning."""
DARK_OPENING, LIGHT_OPENING = "c1", "j15"


def plan(state: GrapsState) -> str:
    """The moves of the scripted game: Dark climbs column c, Light prunes when it can."""
    legal = [str(cell) for cell in state.legal_cells()]
    pawns = state.view(None)["pawns"]
    if state.phase.value == "setup":
        return DARK_OPENING if state.to_move == 0 else LIGHT_OPENING
    if state.to_move == 0:
        climb = next(f"c{row}" for row in range(2, 16) if f"c{row}" not in pawns)
        return climb if climb in legal else max(legal, key=lambda c: (int(c[1:]), c))
    if state.face_to_place is not None and state.face_to_place.value == "grape":
        removed = {}
        for cell in legal:
            trial = state.clone()
            trial.apply(cell)
            removed[cell] = len(trial.pruned) + len(trial.cut)
        best = max(legal, key=lambda c: removed[c])
        if removed[best]:
            return best
    grow = next(f"j{row}" for row in range(14, 0, -1) if f"j{row}" not in pawns)
    return grow if grow in legal else legal[0]


def _simulate(seed: int, limit: int = 90) -> tuple[GrapsState, int]:
    """Play `plan` with the bot's own dice for `seed`; the final state and the prunings."""
    state, ply, prunings = GRAPS.new_state(2, OPTIONS), 0, 0
    while not state.is_over() and ply < limit:
        if state.current_player == CHANCE:
            state.apply(sample_outcome(state, chance_rng(seed, ply)))
        else:
            legal = state.legal_moves()
            state.apply(legal[0] if len(legal) == 1 else plan(state))
            prunings += bool(state.pruned)
        ply += 1
    return state, prunings


@lru_cache(maxsize=1)
def cooperative_seed() -> int:
    """The first seed whose dice let Dark win by climbing, after at least one pruning."""
    for seed in range(200):
        state, prunings = _simulate(seed)
        result = state.result()
        if result is not None and result.winners == [0] and prunings >= 1:
            return seed
    raise AssertionError("no seed in 0..199 gives a won game with a pruning")


async def start_game(env, world, **options) -> tuple[object, GameSession]:
    """Alice challenges Bob to Graps with `options`, Bob accepts: the thread and session."""
    result = await world.alice.slash(world.channel, "challenge", game="graps",
                                     opponent=world.bob, **options)
    assert not result.ephemeral, result.response.content
    challenge = result.response.message
    accepted = await world.bob.click(challenge, label="Accept")
    assert not accepted.ephemeral
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    return thread, session


def custom_ids(message: discord.Message) -> list[str]:
    """The custom_ids of a message's components."""
    return [c.custom_id for row in message.components for c in row.children]


async def place_with_components(actor, board: discord.Message, cell: str) -> int:
    """Place on `cell` with the board's controls: the cell menu, or the row's button (then the
    cell's button when the row has several); the taps it took (a menu counts 2)."""
    select = board.components[0].children[0]
    if isinstance(select, discord.SelectMenu) and select.custom_id.endswith(":cell"):
        result = await actor.select(board, [cell])
        assert not result.ephemeral, result.response.content
        return 2
    ids = custom_ids(board)
    alone = next((i for i in ids if i.endswith(f":cell:{cell}")), None)
    if alone is not None:  # the only cell of its row: one button plays it
        result = await actor.click(board, custom_id=alone)
        assert not result.ephemeral, result.response.content
        return 1
    row = next(i for i in ids if i.endswith(f":row:{cell[1:]}"))
    picker = await actor.click(board, custom_id=row)
    assert picker.ephemeral, picker.response.content
    placed = await actor.click(picker.response.message, label=cell)
    assert "Played" in placed.response.content, placed.response.content
    return 2


async def test_a_whole_game_with_dice_to_a_win_with_a_pruning(env, world) -> None:
    thread, session = await start_game(env, world, grape_faces=5)
    session.record.rng_seed = cooperative_seed()  # before the first roll (after the setup)
    players = (world.alice, world.bob)
    descriptions = []
    while not session.is_over:
        board = latest_board(thread)
        descriptions.append(board.embeds[0].description)
        before = session.ply
        await place_with_components(actor_for(session, *players), board, plan(session.state))
        assert session.ply > before
        assert board.id not in [m.id for m in thread.history() if m.components]  # retired
    final = latest_board(thread)
    dark = session.names[0]
    assert f"{dark} wins: their vine reached" in final.embeds[0].description
    assert control_labels(final) == ["Rematch"]
    assert final.attachments[0].filename == "board.png"
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.status is GameStatus.FINISHED
    assert stored.result == {"winners": [0], "scores": None, "reason": "land_reached"}
    log = await bot_of(env).db.moves(session.id)
    assert [m.move for m in log[:2]] == [DARK_OPENING, LIGHT_OPENING]
    assert all(m.move.startswith("roll:") for m in log if m.kind is MoveKind.CHANCE)
    seen = "\n".join([*descriptions, final.embeds[0].description])
    assert "planted the opening grape on **c1**" in seen
    assert "rolled 🍇 **a grape**" in seen or "rolled ⚪ **a blank**" in seen
    assert "✂️ pruning 🔵" in seen  # Light's grape pruned part of Dark's vine


async def test_each_board_shows_the_rolled_face_and_whose_turn(env, world) -> None:
    thread, session = await start_game(env, world, grape_faces=5)
    dark, light = (actor_for(session, world.alice, world.bob),
                   world.bob if session.record.user_at(0) == world.alice.id else world.alice)
    first = latest_board(thread)
    assert first.content == f"{dark.mention}, your turn."
    await place_with_components(dark, first, "h1")  # 15 cells of row 1: one select
    await place_with_components(light, latest_board(thread), "h15")
    board = latest_board(thread)
    text = board.embeds[0].description
    assert "planted the opening grape on **h15**" in text
    face = session.state.face_to_place.value
    assert f"rolled {'🍇' if face == 'grape' else '⚪'} **a {face}**" in text
    assert "in stock" in board.embeds[0].footer.text


async def test_options_are_shown_on_the_challenge_and_the_first_board(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="graps",
                                     opponent=world.bob, grape_faces=3, return_pruned=True)
    fields = {f.name: f.value for f in result.response.message.embeds[0].fields}
    assert "grape faces on the die: 3" in fields["Options"]
    assert "removed pawns return to their stock: yes" in fields["Options"]
    await world.bob.click(result.response.message, label="Accept")
    session = await bot_of(env).sessions.in_channel(world.channel.threads[-1].id)
    assert session.state.options == {"grape_faces": 3, "return_pruned": True}
    first = latest_board(world.channel.threads[-1])
    assert "*Options: grape faces on the die: 3" in first.embeds[0].description


async def test_choosing_a_row_opens_a_private_picker_of_its_legal_cells(env, world) -> None:
    thread, session = await start_game(env, world, grape_faces=5)
    session.record.rng_seed = 0  # before the first roll: the scripted game below crowds
    players = (world.alice, world.bob)
    while len(session.state.legal_cells()) <= 25:  # typed: the board is tested below
        mover = actor_for(session, *players)
        await session.play(mover.id, plan(session.state), expected_ply=session.ply)
    mover = actor_for(session, *players)
    board = latest_board(thread)
    rows = session.state.legal_cells_by_row()
    assert sum(len(cells) for cells in rows.values()) > 25
    ids = custom_ids(board)
    for row, cells in rows.items():
        wanted = f":cell:{cells[0]}" if len(cells) == 1 else f":row:{row}"
        assert any(i.endswith(wanted) for i in ids)
    row = max(r for r, cells in rows.items() if len(cells) > 1)
    picker = await mover.click(board, custom_id=next(i for i in ids if i.endswith(f":row:{row}")))
    assert picker.ephemeral
    labels = [c.label for r in picker.response.message.components for c in r.children]
    assert labels == [*(str(c) for c in rows[row]), "Cancel"]
    cancelled = await mover.click(picker.response.message, label="Cancel")
    assert "Cancelled" in cancelled.response.content


async def test_the_wrong_player_and_a_spectator_are_refused(env, world) -> None:
    thread, session = await start_game(env, world)
    mover = actor_for(session, world.alice, world.bob)
    waiting = world.bob if mover is world.alice else world.alice
    board = latest_board(thread)
    refused = await waiting.select(board, ["h1"])
    assert refused.ephemeral
    assert f"It is {mover.name.capitalize()}'s turn" in refused.response.content
    spectator = await world.carol.select(board, ["h1"])
    assert spectator.ephemeral and "not playing" in spectator.response.content
    typed = await waiting.slash(thread, "move", notation="h15")
    assert typed.ephemeral and "turn, not yours" in typed.response.content
    assert session.ply == 0


async def test_an_illegal_typed_cell_gets_the_engine_reason_and_changes_nothing(
    env, world
) -> None:
    thread, session = await start_game(env, world)
    mover = actor_for(session, world.alice, world.bob)
    before = session.state.dump()
    result = await mover.slash(thread, "move", notation="h7")
    assert result.ephemeral
    assert "opening grape goes on Dark's own land, row 1, not on row 7" in \
        result.response.content
    result = await mover.slash(thread, "move", notation="z3")
    assert "off the board" in result.response.content
    assert session.state.dump() == before and session.ply == 0
    await mover.slash(thread, "move", notation="d1")
    other = actor_for(session, world.alice, world.bob)
    result = await other.slash(thread, "move", notation="d1")
    assert "d1 is already taken by a dark grape" in result.response.content


async def test_move_autocomplete_lists_legal_cells_matching_what_is_typed(env, world) -> None:
    thread, session = await start_game(env, world)
    mover = actor_for(session, world.alice, world.bob)
    choices = [c["value"] for c in await mover.autocomplete(thread, "move", "notation", "H")]
    assert choices == ["h1"]
    everything = [c["value"] for c in await mover.autocomplete(thread, "move", "notation", "")]
    assert len(everything) == 15 and all(v.endswith("1") for v in everything)


async def test_a_forced_pass_reads_as_a_roll_without_a_cell(env, world) -> None:
    _, session = await start_game(env, world)
    light = session.record.user_at(1)
    lines = session.ui.summarize(session, [
        NewMove(None, None, MoveKind.CHANCE, "roll:grape"),
        NewMove(1, light, MoveKind.FORCED, "pass"),
    ])
    assert lines == [f"🟠 **{session.names[1]}** rolled 🍇 a grape but has no cell for it: pass."]
    empty = session.ui.summarize(session, [NewMove(1, light, MoveKind.FORCED, "pass")])
    assert empty == [f"🟠 **{session.names[1]}** has no pawn left in stock: pass."]
