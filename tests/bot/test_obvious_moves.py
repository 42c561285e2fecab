"""Moves the bot plays for a player because the choice cannot matter, checked against the
engines: every move of a group the controls merge gives the same game up to a symmetry that
no rule sees (reserve columns and suits in Le Grabuge, beds in a Kraut & Rüben garden)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from bot.games import GAME_UIS
from bot.games.grabuge import GrabugeUI, column_groups
from bot.games.kraut_ruben import KrautRubenUI, placement_groups
from engines import CHANCE, GAMES
from engines.grabuge import GrabugeState
from engines.kraut_ruben import KrautRubenState

GRABUGE = GAME_UIS["grabuge"]
KRAUT = GAME_UIS["kraut_ruben"]
SUIT = re.compile(r'"([A2-9TJQK])[SHDC]"')
"""A card in a dump: its rank stays, its suit goes (suits never matter for play)."""


def grabuge_shape(state: GrabugeState) -> Any:
    """A Grabuge state without what no rule reads: suits, column order, the turn's log."""
    data = state.dump()["state"]
    data.pop("log")
    data.pop("previous_log")
    data.pop("event_count")
    plain = json.loads(SUIT.sub(r'"\1"', json.dumps(data)))
    plain["reserves"] = [sorted(columns) for columns in plain["reserves"]]
    return plain


def kraut_shape(state: KrautRubenState) -> Any:
    """A Kraut & Rüben state without what no rule reads: the beds' places, the last action."""
    data = state.dump()["state"]
    data.pop("last_action")
    data["gardens"] = [sorted(garden) for garden in data["gardens"]]
    return data


def random_states(game: str, seed: int, plies: int) -> list[Any]:
    """The states met in one random game, chance drawn from `seed`."""
    rng = random.Random(seed)
    state = GAMES[game].new_state(2)
    seen = []
    for _ in range(plies):
        if state.is_over():
            break
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        seen.append(state.clone())
        state.apply(rng.choice(state.legal_moves()))
    return seen


def test_le_grabuge_merges_only_columns_that_give_the_same_game() -> None:
    groups_seen = obvious_seen = 0
    for seed in range(12):
        for state in random_states("grabuge", seed, 600):
            decision = state.decision()
            if decision not in ("keep", "reserve"):
                continue
            seat = state.current_player
            groups = column_groups(state, seat, decision)
            for group in groups:
                shapes = []
                for column in group:
                    after = state.clone()
                    after.apply(f"{decision} {column}")
                    shapes.append(grabuge_shape(after))
                assert all(shape == shapes[0] for shape in shapes), (decision, group)
                groups_seen += len(group) > 1
            # Different groups really differ (no question with a single answer is left).
            firsts = []
            for group in groups:
                after = state.clone()
                after.apply(f"{decision} {group[0]}")
                firsts.append(grabuge_shape(after))
            assert all(firsts[i] != firsts[j] for i in range(len(firsts))
                       for j in range(i + 1, len(firsts)))
            obvious = GRABUGE.obvious_move(state)
            if len(groups) == 1:
                obvious_seen += 1
                assert obvious == f"{decision} {groups[0][0]}"
            else:
                assert obvious is None
    assert groups_seen and obvious_seen


def test_le_grabuge_keeps_a_card_on_an_empty_column_for_the_player() -> None:
    state = GAMES["grabuge"].new_state(2)
    ui = GrabugeUI()
    rng = random.Random(3)
    while state.decision() != "keep" or any(state.reserves[state.current_player]):
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply(ui.obvious_move(state) or rng.choice(state.legal_moves()))
    assert ui.obvious_move(state) == "keep 1"  # four empty columns: nothing to ask


def test_kraut_and_ruben_merges_only_beds_that_give_the_same_game() -> None:
    merged = obvious_seen = 0
    for seed in range(6):
        for state in random_states("kraut_ruben", seed, 400):
            moves = [str(m) for m in state.legal_moves()]
            groups = placement_groups(moves, state)
            for _, members in groups:
                shapes = []
                for move in members:
                    after = state.clone()
                    after.apply(move)
                    shapes.append(kraut_shape(after))
                assert all(shape == shapes[0] for shape in shapes), members
                merged += len(members) > 1
            obvious = KRAUT.obvious_move(state)
            if len(groups) == 1 and len(moves) > 1:
                obvious_seen += 1
                assert obvious == groups[0][1][0]
            elif len(groups) > 1:
                assert obvious is None
    assert merged and obvious_seen


def test_kraut_and_ruben_places_a_plant_on_the_first_empty_bed_of_the_garden() -> None:
    state = GAMES["kraut_ruben"].new_state(2)
    while state.current_player == CHANCE:
        state.apply(state.chance_outcomes()[0][0])
    state.apply("draw")
    state.apply("draw:carrot")
    groups = by_garden_moves(state)
    assert groups == {g: [f"{g}A1"] for g in range(1, 6)}  # one choice per garden
    assert KrautRubenUI().obvious_move(state) is None  # but five gardens to choose from


def by_garden_moves(state: KrautRubenState) -> dict[int, list[str]]:
    """The move each distinct placement plays, by garden."""
    found: dict[int, list[str]] = {}
    for _, members in placement_groups([str(p) for p in state.placements()], state):
        found.setdefault(int(members[0][0]), []).append(members[0])
    return found
