"""Every [decision] of the rulebook is a named constant that really switches its rule: the
engine rebuilt from its own source with that one constant changed plays differently (other
moves offered, other chances, or another result), in seeded random games or from a position
where the rule bites. Rebuilt rather than monkeypatched: engines build lookup tables from
their constants at import, and a patched constant would leave those tables as they were."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import random
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engines import CHANCE, Game, GameState, IllegalMove
from engines.kraut_ruben import Tile
from tests.engines.test_engine_digests import first_state, pick
from tests.engines.test_graps import position as graps_position
from tests.engines.test_kraut_ruben import FULL, build

SEEDS = 100
"""Seeded random games played at most, per way of starting, before a switch counts as dead."""

MAX_PLIES = 5000
"""A random game longer than this is cut (none of these is)."""

Situation = Callable[[Game[Any]], GameState]


@dataclass(frozen=True)
class Switch:
    """One [decision] constant, the source of another value for it (which may use its own
    value), and the games that show the difference."""

    constant: str
    other: str
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    starts: tuple[str, ...] = ("start",)
    """"start" (a new game) or "position" (the digests' random positions)."""
    situation: Situation | None = None
    """Where the rule bites, when random games are too unlikely to get there."""
    script: tuple[str, ...] = ()
    """Moves played from the start or the situation before random play."""


def ace_grabuge(game: Game[Any]) -> GameState:
    """A new Grabuge game: seat 0's grabuge turns eight Aces at set-up (both decks' four)."""
    return game.new_state(2)


EIGHT_ACES_THEN_A_KING = ("card:AS", "card:AH", "card:AD", "card:AC") * 2 + ("card:KS",)


def graps_at(*groups: str, **fields: Any) -> Situation:
    """A Graps position built from the test file's groups."""
    return lambda game: game.from_position(graps_position(*groups, **fields))


def kraut_ruben_at(**fields: Any) -> Situation:
    """A Kraut & Rüben state built by the test file's `build`, loaded by `game`."""
    return lambda game: game.load(build(**fields).dump())


ALL_GARDENS_FULL_BUT_ONE_BED = {1: FULL, 2: FULL, 3: FULL, 4: "t t t t | t t t t | t t t -"}

SWITCHES: dict[str, list[Switch]] = {
    "engines.grabuge": [
        Switch("SETUP_ORDER", "(1, 0)"),
        Switch("START_TIE_COIN", "((0, 0.9), (1, 0.1))"),
        Switch("SKIP_EMPTY_TURNS", "False"),
        Switch("EQUAL_TOTALS_DRAW", "False"),
        Switch("SETUP_EMPTIED_GRABUGE_SCORES", "False", situation=ace_grabuge,
               script=EIGHT_ACES_THEN_A_KING),
        Switch("EMPTY_GRABUGE_START_RANK", "14", situation=ace_grabuge,
               script=EIGHT_ACES_THEN_A_KING),
    ],
    "engines.granat": [
        Switch(constant, other, starts=("start", "position")) for constant, other in [
            ("YELLOW_LINES", "YELLOW_LINES[:2]"),
            ("OWN_PAWN_JUMPS_FORWARD_ONLY", "False"),
            ("STEP_COMBINES_WITH_JUMPS", "True"),
            ("STUCK_NEUTRAL_MAY_CAPTURE", "True"),
            ("CHAIN_GOES_ON_AT_BACK_ROW", "False"),
            ("MARBLE_LINK_NEEDED_WHEN", "'both'"),
            ("NEUTRAL_CAPTURES_BACKWARD", "False"),
            ("NEUTRAL_CHAIN_MUST_CONTINUE", "False"),
            ("YELLOW_MAY_TURN_STRAIGHT_BACK", "False"),
            ("BLACK_CONTINUES_STRAIGHT_ONLY", "False"),
            ("CAPTURE_MAJORITY_RULE", "True"),
            ("NEUTRAL_ON_GARNET_CELL_BLOCKS_YELLOW_FOR", "'owner'"),
            ("GARNET_SLIDES_SIDEWAYS", "False"),
            ("GARNET_CELL_DUTY_FIRST", "False"),
            ("STRANDED_MARBLE_IS_LOST", "False"),
            ("NO_MOVES_LOSES", "False"),
            ("DRAW_WHEN_NO_NEUTRALS", "False"),
            ("QUIET_MOVES_FOR_DRAW", "10"),
            ("END_CHECKS", "END_CHECKS[::-1]"),
        ]
    ],
    "engines.graps": [
        Switch("LAND_ROWS", "(15, 1)"),
        Switch("GRAPE_FACES_DEFAULT", "2"),
        # A blank fits nowhere for Dark, a grape does.
        Switch("BLOCKADE_FACES_BOTH", "False", situation=graps_at("X h1", "O i3", "O a15",
                                                                  phase="roll")),
        Switch("ROLLED_FACE_WITHOUT_CELL_PASSES", "False",
               situation=graps_at("X h1", "O i3", "O a15", phase="roll"), script=("roll:blank",)),
        # Both stocks empty, Dark without a pawn: how far is Dark from Light's land?
        Switch("NO_PAWN_DISTANCE", "0", situation=graps_at("O h15", seat=1, phase="roll",
                                                           stocks=(0, 0))),
    ],
    "engines.kraut_ruben": [
        Switch("HIGH_PLUS_POINTS", "(3, 3, 4, 3, 2, 1, 0)", players=3),
        Switch("LOW_PLUS_POINTS", "(2, 2, 3, 2, 1, 0, 0)", players=3),
        Switch("CONTRACTS", "CONTRACTS[1:] + CONTRACTS[:1]", players=3),
        Switch("COVERS_MAY_COVER_COVERS", "True", players=3),
        Switch("FORCED_TAKE_WHEN_UNOWNED_GARDENS_FULL", "False", players=3,
               situation=kraut_ruben_at(gardens=ALL_GARDENS_FULL_BUT_ONE_BED, owners={4: 1}),
               script=("draw", "draw:lettuce")),
        Switch("MOLES_PLAYED_OUT_AFTER_BAG_EMPTY", "False", players=3,
               situation=kraut_ruben_at(bag={Tile.CARROT: 1}, owners={1: 0, 2: 1, 3: 2},
                                        moles={0: False, 2: False}),
               script=("draw", "draw:carrot", "4A1")),
        Switch("FULL_UNOWNED_GARDEN_TAKES_COVERS", "False", players=3),
        Switch("TWO_PLAYER_GARDENS_SCORED_SEPARATELY", "False"),
        Switch("MATCH_TIE_IS_SHARED", "False", options={"match_games": 3}),
    ],
    "engines.qawale": [
        Switch("MOVER_WINS_DOUBLE_LINE", "False", starts=("start", "position")),
        Switch("CHECK_LINES_DURING_SOWING", "True", starts=("start", "position")),
    ],
}

NO_OTHER_SIDE = {"engines.grabuge": {"PLAY_ON_OPPONENT_CARDS"},
                 "engines.kraut_ruben": {"UNPLACEABLE_PLANT_IS_DISCARDED"}}
"""Readings with no playable other side, recorded as such in docs/decisions.md."""


def decisions(module_name: str) -> set[str]:
    """The [decision] constants an engine module assigns, read from its source."""
    tree = ast.parse(inspect.getsource(importlib.import_module(module_name)))
    return {_assigned(node) for node, after in zip(tree.body, tree.body[1:], strict=False)
            if _assigned(node) and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and str(after.value.value).startswith("[decision]")}


def _assigned(node: ast.stmt) -> str:
    """The name a top-level assignment binds ("" for any other statement)."""
    target = node.targets[0] if isinstance(node, ast.Assign) else \
        node.target if isinstance(node, ast.AnnAssign) else None
    return target.id if isinstance(target, ast.Name) else ""


def rebuilt(module_name: str, constant: str, other: str) -> types.ModuleType:
    """A fresh copy of an engine module whose source sets `constant` to `other` right after
    assigning it, before anything is built from it."""
    source = inspect.getsource(importlib.import_module(module_name))
    [node] = [n for n in ast.parse(source).body if _assigned(n) == constant]
    lines = source.splitlines()
    assert node.end_lineno is not None
    lines.insert(node.end_lineno, f"{constant} = {other}")
    name = f"{module_name}__{constant.lower()}"
    module = types.ModuleType(name)
    sys.modules[name] = module  # dataclasses look their module up while being made
    try:
        exec(compile("\n".join(lines), name, "exec"), module.__dict__)
    finally:
        del sys.modules[name]
    return module


def game_of(module: types.ModuleType) -> Game[Any]:
    """The module's `Game`."""
    [game] = [value for value in vars(module).values() if isinstance(value, Game)]
    return game


def trace(game: Game[Any], switch: Switch, start: str, seed: int) -> list[Any]:
    """What a seeded random game shows: every decision's moves, every chance, the result."""
    rng = random.Random(f"{game.id} {start} {seed}")
    if switch.situation is not None:
        state = switch.situation(game)
    elif start == "position":
        text = first_state(game.id, switch.options, "position", seed).position()
        state = game.from_position(text, switch.options)
    else:
        state = game.new_state(switch.players, switch.options)
    shown: list[Any] = []
    script = list(switch.script)
    for _ply in range(MAX_PLIES):
        if state.is_over():
            break
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            shown.append(sorted((str(o), round(p, 9)) for o, p in outcomes))
            move = rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            moves = state.legal_moves()
            shown.append((state.current_player, sorted(map(str, moves))))
            move = pick(state, moves, rng)
        if not script:
            state.apply(move)
            continue
        try:
            state.apply(script.pop(0))
        except IllegalMove as refusal:  # the rule forbids what the script plays: a difference
            shown.append(str(refusal))
            break
    result = state.result()
    shown.append(json.dumps(result.to_dict() if result else None, sort_keys=True))
    return shown


@pytest.mark.parametrize("module_name", sorted(SWITCHES))
def test_every_decision_of_an_engine_is_switched_here(module_name: str) -> None:
    switched = {switch.constant for switch in SWITCHES[module_name]}
    assert decisions(module_name) == switched | NO_OTHER_SIDE.get(module_name, set())


def test_the_decisions_without_another_side_are_recorded_as_such() -> None:
    recorded = Path(__file__).parents[2].joinpath("docs", "decisions.md").read_text()
    for module_name, constants in NO_OTHER_SIDE.items():
        assert constants <= decisions(module_name)
        for constant in constants:
            assert f"`{constant}`" in recorded


@pytest.mark.parametrize(
    ("module_name", "switch"),
    [(module_name, switch) for module_name, switches in SWITCHES.items() for switch in switches],
    ids=lambda value: value.constant if isinstance(value, Switch) else value.split(".")[-1],
)
def test_changing_a_decision_changes_how_the_game_plays(module_name: str, switch: Switch) -> None:
    as_written = game_of(importlib.import_module(module_name))
    changed = game_of(rebuilt(module_name, switch.constant, switch.other))
    seeds = 1 if switch.situation is not None and not switch.starts[1:] else SEEDS
    for seed in range(seeds):
        for start in switch.starts:
            if trace(changed, switch, start, seed) != trace(as_written, switch, start, seed):
                return
    pytest.fail(f"{switch.constant} = {switch.other} changed nothing in {seeds} games")
