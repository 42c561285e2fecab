"""Kraut & Rüben AI: honest (hidden contracts never read), legal, deterministic, sensible."""

from __future__ import annotations

import random

import pytest

import ai
from ai.base import is_chance, sample_chance
from ai.kraut_ruben import (
    FULL_BAG,
    MAX_SCALE,
    KrautRubenAI,
    ReducedState,
    clear_winner,
    from_view,
    heuristic_move,
    scaled_iterations,
)
from engines.kraut_ruben import (
    CONTRACTS,
    KRAUT_RUBEN,
    KrautRubenState,
    Phase,
    Place,
    Tile,
)

KNOWLEDGE = KrautRubenAI()


def position(players: int, seed: int, decisions: int) -> KrautRubenState:
    """A game after `decisions` random player decisions, stopped at a player's choice."""
    rng = random.Random(seed)
    state = KRAUT_RUBEN.new_state(players)
    made = 0
    while True:
        if is_chance(state):
            state.apply(sample_chance(state, rng))
            continue
        if made >= decisions and len(state.legal_moves()) > 1:
            return state
        state.apply(rng.choice(state.legal_moves()))
        made += 1


def twin(state: KrautRubenState, seat: int, rng: random.Random) -> KrautRubenState:
    """The same game with every other seat's contract changed (all still distinct)."""
    data = state.dump()
    contracts = data["state"]["contracts"]
    unused = [c.number for c in CONTRACTS if c.number not in contracts]
    for s in range(len(contracts)):
        if s != seat:
            contracts[s] = unused.pop(rng.randrange(len(unused)))
    other = KRAUT_RUBEN.load(data)
    assert other.view(seat) == state.view(seat) and other != state
    return other


POSITIONS = [(2, 1, 9), (3, 2, 4), (3, 3, 14)]
"""(players, seed, decisions made before the position)."""


@pytest.mark.parametrize(("players", "seed", "decisions"), POSITIONS)
def test_same_view_same_move_at_every_level(players: int, seed: int, decisions: int) -> None:
    state = position(players, seed, decisions)
    seat = state.current_player
    assert seat is not None
    other = twin(state, seat, random.Random(seed))
    for level in ai.LEVELS:
        move = ai.choose_move(state, level, rng=random.Random(seed))
        assert move in state.legal_moves()
        assert ai.choose_move(other, level, rng=random.Random(seed)) == move


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (3, 5), (4, 6), (5, 7)])
def test_sample_shows_the_same_view_and_depends_only_on_it(players: int, seed: int) -> None:
    rng = random.Random(seed)
    for decisions in (0, 3, 8, 15, 25):
        state = position(players, seed, decisions)
        seat = state.current_player
        assert seat is not None
        other = twin(state, seat, rng)
        world = KNOWLEDGE.sample(state, seat, random.Random(decisions))
        assert world.view(seat) == state.view(seat)
        assert KNOWLEDGE.sample(other, seat, random.Random(decisions)) == world
        # The other contracts are dealt from those the seat has not seen, all distinct.
        assert world.contracts[seat] == state.contracts[seat]
        assert len(set(world.contracts)) == players


def test_sample_redraws_the_other_contracts() -> None:
    state = position(3, 8, 6)
    seat = state.current_player
    assert seat is not None
    seen = {tuple(KNOWLEDGE.sample(state, seat, random.Random(n)).contracts) for n in range(30)}
    assert len(seen) > 10


def test_reduced_moves_keep_one_move_per_kind_of_bed() -> None:
    state = position(3, 10, 12)
    while state.phase is not Phase.PLACE or state.drawn is Tile.SNAIL:
        state.apply(state.legal_moves()[0] if not is_chance(state)
                    else sample_chance(state, random.Random(1)))
    seat = state.turn_seat
    reduced = from_view(state.view(seat), seat, random.Random(0), ReducedState)
    full = state.legal_moves()
    kept = reduced.legal_moves()
    assert all(move in full for move in kept)
    assert {m.garden for m in kept if isinstance(m, Place)} == {
        m.garden for m in full if isinstance(m, Place)}


def test_playout_plants_a_good_vegetable_in_its_own_garden() -> None:
    state = KRAUT_RUBEN.new_state(3)
    for number in (1, 4, 7):  # seat 0: tomato main, lettuce high, asparagus minus
        state.apply(f"contract:{number}")
    state.owners[1] = 0
    state.gardens[1][0] = [Tile.TOMATO.value]
    state.gardens[1][1] = [Tile.TOMATO.value]
    state.apply("draw")
    state.apply("draw:lettuce")
    move = heuristic_move(state, random.Random(0))
    assert isinstance(move, Place) and move.garden == 2


def test_playout_puts_its_minus_vegetable_elsewhere() -> None:
    state = KRAUT_RUBEN.new_state(3)
    for number in (1, 4, 7):
        state.apply(f"contract:{number}")
    state.owners[1] = 0
    state.apply("draw")
    state.apply("draw:asparagus")
    move = heuristic_move(state, random.Random(0))
    assert isinstance(move, Place) and move.garden != 2


def test_evaluate_gives_win_chances() -> None:
    state = position(3, 11, 20)
    chances = KNOWLEDGE.evaluate(state)
    assert len(chances) == 3 and abs(sum(chances) - 1) < 1e-9
    assert all(0 <= c <= 1 for c in chances)



def test_hard_searches_more_as_the_bag_empties() -> None:
    counts = [scaled_iterations(20, bag) for bag in range(FULL_BAG, -1, -1)]
    assert counts[0] == 20
    assert counts == sorted(counts)
    assert counts[-1] == round(20 * MAX_SCALE)
    assert scaled_iterations(1, FULL_BAG) == 2  # two samples at least, to measure a spread


def test_a_rival_is_played_only_on_a_clear_lead() -> None:
    steady = [0.05, 0.04, 0.06, 0.05]
    noisy = [0.9, -0.8, 0.7, -0.6]
    assert clear_winner([noisy]) is None
    assert clear_winner([[-0.1, -0.2, -0.1, 0.0]]) is None
    assert clear_winner([[0.0] * 4]) is None
    assert clear_winner([noisy, steady]) == 1
    assert clear_winner([[0.2, 0.21, 0.19, 0.2], steady]) == 0
