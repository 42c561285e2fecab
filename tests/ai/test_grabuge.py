"""Le Grabuge AI: honest sampling from the view, a faithful fast playout, legal choices."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest

import ai
from ai import grabuge as grabuge_ai
from ai.base import is_chance, sample_chance
from ai.grabuge import (
    CAREFUL_TRACE,
    CARELESS_PRIOR,
    CARELESS_TRACE,
    GrabugeAI,
    KeepTrace,
    carelessness,
    contenders,
    state_from_view,
)
from ai.grabuge_sim import NO_CUT, Sim, alike_choices
from engines import GAMES
from engines import grabuge as grabuge_engine
from engines.grabuge import CARDS, RANK_OF, RANKS, SUITS, GrabugeState, KeepCard, TurnCard

KNOWLEDGE = GrabugeAI()


def _play_until(seed: int, stop: float, *, crowned: bool = False) -> GrabugeState:
    """A random game stopped at a real choice (more than one legal move) at random."""
    rng = random.Random(seed)
    while True:
        state = GAMES["grabuge"].new_state(2)
        assert isinstance(state, GrabugeState)
        while not state.is_over():
            if is_chance(state):
                state.apply(sample_chance(state, rng))
                continue
            moves = state.legal_moves()
            ready = not crowned or sum(state.crowned) > 0
            if len(moves) > 1 and ready and rng.random() < stop:
                return state
            state.apply(rng.choice(moves))


def _positions(count: int) -> list[GrabugeState]:
    return [_play_until(seed, 0.05) for seed in range(count)]


def _twins(count: int) -> list[tuple[GrabugeState, GrabugeState]]:
    """Positions after a crown, each with a twin that differs only in what no seat sees."""
    pairs: list[tuple[GrabugeState, GrabugeState]] = []
    seed = 100
    while len(pairs) < count:
        state = _play_until(seed, 0.05, crowned=True)
        twin = _suits_swapped(state)
        if twin is not None:
            pairs.append((state, twin))
        seed += 1
    return pairs


def _suits_swapped(state: GrabugeState) -> GrabugeState | None:
    """The same position, but a crowned (vanished) card and an unseen one swap suits.

    The engine deals lazily, so no talon or grabuge order exists to shuffle: which suits are
    still unseen, once crowned piles have left the table, is all it hides from a seat.
    """
    for rank in RANKS:
        kinds = [CARDS.index(rank + suit) for suit in SUITS]
        for giver in (kind for kind in kinds if state.unseen[kind]):
            for taker in (kind for kind in kinds if kind != giver and _crowned(state, kind)):
                twin = state.clone()
                twin.unseen[giver] -= 1
                twin.unseen[taker] += 1
                return twin
    return None  # every unseen copy is of the crowned suits


def _crowned(state: GrabugeState, kind: int) -> bool:
    """True when a seen copy of the card kind is in a crowned pile (no longer on show)."""
    card = CARDS[kind]
    decks: int = state.options["decks"]
    shown = sum(pile["cards"].count(card) for pile in state.piles)
    shown += sum(top == card for top in state.grabuge_top) + (state.drawn == card)
    shown += sum(column.count(card) for seat in state.reserves for column in seat)
    return decks - state.unseen[kind] - shown > 0


def test_sample_shows_exactly_what_the_seat_sees() -> None:
    rng = random.Random(1)
    for state in _positions(6):
        for seat in (0, 1):
            world = KNOWLEDGE.sample(state, seat, rng)
            assert world.view(seat) == state.view(seat)
            assert world.legal_moves() == state.legal_moves()
            # Only the suits of the unseen cards may differ; their ranks are known.
            ours, theirs = world.dump()["state"], state.dump()["state"]
            assert {k: v for k, v in ours.items() if k != "unseen"} == {
                k: v for k, v in theirs.items() if k != "unseen"
            }
            for rank in RANKS:
                kinds = [CARDS.index(rank + suit) for suit in SUITS]
                assert sum(ours["unseen"][k] for k in kinds) == sum(
                    theirs["unseen"][k] for k in kinds
                )


def test_sample_rebuilds_chance_positions_and_the_set_up() -> None:
    rng = random.Random(2)
    state = GAMES["grabuge"].new_state(2)
    for _ in range(40):
        world = state_from_view(state.view(0), rng)
        assert world.view(0) == state.view(0)
        assert world.current_player == state.current_player
        if state.is_over():
            break
        state.apply(sample_chance(state, rng) if is_chance(state) else state.legal_moves()[0])


def test_sample_rebuilds_a_turn_to_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without skipped turns, an idle player's turn waits for their `pass`.
    monkeypatch.setattr(grabuge_engine, "SKIP_EMPTY_TURNS", False)
    rng = random.Random(4)
    passes = 0
    while passes < 3:  # about one game in six has a turn with nothing to do
        state = GAMES["grabuge"].new_state(2)
        while not state.is_over():
            if state.decision() == "pass":
                passes += 1
                world = state_from_view(state.view(0), rng)
                assert world.view(0) == state.view(0) and world.decision() == "pass"
            moves = state.legal_moves()
            state.apply(sample_chance(state, rng) if is_chance(state) else rng.choice(moves))
    assert passes > 0


def test_sample_depends_on_the_view_only() -> None:
    for state, twin in _twins(4):
        assert twin.dump() != state.dump() and twin.view(0) == state.view(0)
        seat = state.to_move
        ours = KNOWLEDGE.sample(state, seat, random.Random(5))
        theirs = KNOWLEDGE.sample(twin, seat, random.Random(5))
        assert ours.dump() == theirs.dump()


@pytest.mark.parametrize("level", ai.LEVELS)
def test_hidden_cards_do_not_change_the_move(level: str) -> None:
    for state, twin in _twins(3):
        move = ai.choose_move(state, level, rng=random.Random(7))
        assert move == ai.choose_move(twin, level, rng=random.Random(7))
        assert move in state.legal_moves()


def test_a_move_is_reproducible_and_legal() -> None:
    for number, state in enumerate(_play_until(seed, 0.01) for seed in range(3)):
        for level in ai.LEVELS[: 3 if number == 0 else 2]:  # hard is slow: one position
            move = ai.choose_move(state, level, rng=random.Random(3))
            assert move in state.legal_moves()
            assert move == ai.choose_move(state.clone(), level, rng=random.Random(3))


def test_columns_that_hold_the_same_ranks_are_one_choice() -> None:
    assert alike_choices([[], [5, 3], [], [5, 3]], [0, 1, 2, 3]) == [[0, 2], [1, 3]]
    assert alike_choices([[7], [9, 7], [7], []], [0, 2, 3]) == [[0, 1], [2]]


def test_a_race_lets_go_of_a_choice_clearly_behind_and_keeps_a_close_one() -> None:
    rng = random.Random(5)
    leader = [rng.random() for _ in range(400)]
    close = [value - 0.01 + (0.3 if index % 2 else -0.3) for index, value in enumerate(leader)]
    behind = [value - 0.05 for value in leader]
    # Behind by 0.05 in every world: let go. Behind by 0.01 on average, but by -0.29 to
    # 0.31 from world to world: within three standard errors, still racing.
    assert contenders([behind, leader, close], [0, 1, 2]) == [1, 2]


def _move_and_playouts(state: GrabugeState, level: str, seed: int, *, race: bool,
                       ) -> tuple[Any, int]:
    """The level's move, and how many playouts it took, racing its choices or not."""
    playouts = 0
    rewards_after = Sim.rewards_after

    def counted(sim: Sim, seat: int, apply: Any, columns: Sequence[int], seed: float,
                ) -> list[float]:
        nonlocal playouts
        playouts += len(columns)
        return rewards_after(sim, seat, apply, columns, seed)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Sim, "rewards_after", counted)
        if not race:
            patch.setattr(grabuge_ai, "RACE_BATCH", {})
        move = ai.choose_move(state, level, rng=random.Random(seed))
    return move, playouts


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_racing_levels_reach_the_keeps_of_the_full_search_with_fewer_playouts(
        level: str) -> None:
    for seed in (1, 7):  # one keep falls clearly behind at each of these choices
        state = _play_until(seed, 0.05)
        raced, raced_playouts = _move_and_playouts(state, level, seed, race=True)
        full, full_playouts = _move_and_playouts(state, level, seed, race=False)
        assert raced == full
        assert 0 < raced_playouts < full_playouts


@pytest.mark.parametrize("level", ai.LEVELS)
def test_a_keep_among_empty_columns_only_is_made_without_search(level: str) -> None:
    state = _first_keep(random.Random(4))
    assert state is not None and not any(state.reserves[state.to_move])
    rng = random.Random(9)
    untouched = rng.getstate()
    assert ai.choose_move(state, level, rng=rng) == KeepCard(1)
    assert rng.getstate() == untouched  # no world was sampled


class _FirstColumnSim(Sim):
    """The playout with its one random choice made deterministic, to follow the engine."""

    __slots__ = ()

    def reserve_column(self, columns: list[int], rng: random.Random) -> int:
        return columns[0]


def _next_in(order: list[int], state: GrabugeState) -> TurnCard:
    """The engine's chance outcome turning the fast game's next rank (the last of `order`)."""
    rank = order.pop()
    return next(TurnCard(card) for index, card in enumerate(CARDS)
                if RANK_OF[card] == rank and state.unseen[index])


def _assert_ended_alike(sim: Sim, state: GrabugeState) -> None:
    """The fast game and the engine ended with the same piles, bonus, cards and paquets."""
    assert sim.crowned == state.crowned
    assert [sim.unplayed(0), sim.unplayed(1)] == [state.unplayed_cards(s) for s in (0, 1)]
    assert sim.bonus == (-1 if state.bonus_seat is None else state.bonus_seat)
    assert sim.margin(0) == state.paquets(0) - state.paquets(1)


def test_fast_playout_follows_the_engine() -> None:
    rng = random.Random(4)
    for state in _positions(8):
        sim = _FirstColumnSim.from_state(state, rng)
        order = list(sim.deck)
        sim.run(rng)
        # The engine, fed the same ranks in the same order and the same choices.
        while not state.is_over():
            if is_chance(state):
                state.apply(_next_in(order, state))
            elif state.decision() == "keep":
                column = Sim.from_state(state, rng).keep_column(rng)
                state.apply(KeepCard(column + 1))
            else:
                state.apply(state.legal_moves()[0])
        _assert_ended_alike(sim, state)


class _ScriptedSim(Sim):
    """A playout whose keeps and reserve orders are read from a script (the last first)."""

    __slots__ = ("script",)
    script: list[int]

    def keep_column(self, rng: random.Random) -> int:
        return self.script.pop() % len(self.reserves[self.to_move])

    def reserve_column(self, columns: list[int], rng: random.Random) -> int:
        return columns[self.script.pop() % len(columns)]


def test_fast_playout_follows_the_engine_whatever_the_choices() -> None:
    # Keeps anywhere and any reserve order bury cards, fill every column, skip turns and
    # turn grabuges into talons in ways the careful policy rarely does.
    rng = random.Random(8)
    for state in _positions(150):
        sim = _ScriptedSim.from_state(state, rng)
        assert isinstance(sim, _ScriptedSim)
        script = [rng.randrange(840) for _ in range(600)]  # 840: every column count divides it
        sim.script, order = list(script), list(sim.deck)
        sim.run(rng)
        while not state.is_over():
            moves = state.legal_moves()
            if is_chance(state):
                state.apply(_next_in(order, state))
            elif state.decision() == "keep":
                state.apply(KeepCard(script.pop() % len(moves) + 1))
            else:
                state.apply(moves[script.pop() % len(moves)] if len(moves) > 1 else moves[0])
        assert script == sim.script  # the same choices were asked, in the same order
        _assert_ended_alike(sim, state)


class _TurnCounter(Sim):
    """A playout that counts the turns it ends."""

    __slots__ = ("ended",)
    ended: int

    def end_turn(self) -> None:
        self.ended += 1
        super().end_turn()


def test_a_cut_playout_stops_after_its_turns_and_scores_its_margin() -> None:
    rng = random.Random(6)
    for state in _positions(8):
        sim = _TurnCounter.from_state(state, rng)
        assert isinstance(sim, _TurnCounter)
        sim.ended, sim.turns_left = 0, 3
        whole = sim.copy()
        whole.turns_left = NO_CUT
        sim.run(random.Random(1))
        whole.run(random.Random(1))
        assert sim.over and sim.ended == 3
        # Three turns never play a game out: the whole playout goes on past them.
        assert sum(whole.crowned) + sum(whole.unplayed(seat) for seat in (0, 1)) != sum(
            sim.crowned) + sum(sim.unplayed(seat) for seat in (0, 1))
        lead = sim.paquets(0) - sim.paquets(1) + (sim.unplayed(1) - sim.unplayed(0)) / 5
        assert sim.reward(0) + sim.reward(1) == pytest.approx(1.0)
        assert 0 < sim.reward(0) < 1
        assert (sim.reward(0) > 0.5) == (lead > 0) and (sim.reward(0) < 0.5) == (lead < 0)


def _with_reserve(columns: list[list[str]]) -> GrabugeState:
    state = _play_until(3, 0.05)
    state.reserves[1] = [list(column) for column in columns]
    return state


def test_an_opponent_that_buries_low_cards_is_read_as_careless() -> None:
    # Each card on a lower one, which must go first: what keeping anywhere often looks like.
    careless = _with_reserve([["2H", "5S", "8D", "JC"], ["3S", "6H", "9C", "QD"],
                              ["4H", "7S", "TD", "KC"], []])
    # Each card on the one just above it: what keeping with care often looks like.
    careful = _with_reserve([["KS", "QH", "JD", "TC"], ["9S", "8H", "7C", "6D"], [], []])
    assert carelessness(careless, 1) > 0.95
    assert carelessness(careful, 1) < 0.05


def test_without_evidence_the_opponent_model_is_the_prior() -> None:
    assert carelessness(_with_reserve([["KS"], ["2H"], [], []]), 1) == CARELESS_PRIOR


class _KeepRecorder(Sim):
    """A playout that notes whose keeps went through the careful policy."""

    __slots__ = ("careful_seats",)
    careful_seats: set[int]

    def keep_column(self, rng: random.Random) -> int:
        self.careful_seats.add(self.to_move)
        return super().keep_column(rng)


def test_a_careless_seat_keeps_without_the_policy_in_playouts() -> None:
    for state in _positions(6):
        sim = _KeepRecorder.from_state(state, random.Random(1))
        assert isinstance(sim, _KeepRecorder)
        sim.careful_seats = set()
        sim.careless = [1.0, 0.0]
        sim.run(random.Random(2))
        assert 0 not in sim.careful_seats
        assert 1 in sim.careful_seats and sim.over


class _TraceCounter(Sim):
    """A playout that counts, at every keep, the pairs in the keeper's reserve by kind."""

    __slots__ = ("counts",)
    counts: dict[int, list[int]]

    def keep(self, seat: int, column: int) -> None:
        tally = self.counts.setdefault(seat, [0, 0, 0])
        for kept in self.reserves[seat]:
            for below, above in itertools.pairwise(kept):
                tally[0] += 1
                tally[1] += below - above == 1
                tally[2] += above > below
        super().keep(seat, column)


def _first_keep(rng: random.Random) -> GrabugeState | None:
    """A new game played on to its first keep (every move before it is forced), if any."""
    state = GAMES["grabuge"].new_state(2)
    assert isinstance(state, GrabugeState)
    while not state.is_over():
        if is_chance(state):
            state.apply(sample_chance(state, rng))
        elif state.decision() == "keep":
            return state
        else:
            state.apply(state.legal_moves()[0])
    return None


def test_the_opponent_model_traces_are_those_of_the_two_keepers() -> None:
    rng = random.Random(8)
    counts: dict[int, list[int]] = {}
    for _ in range(150):
        state = _first_keep(rng)
        if state is None:
            continue
        sim = _TraceCounter.from_state(state, rng)
        assert isinstance(sim, _TraceCounter)
        sim.counts = counts
        sim.careless = [0.0, 1.0]  # seat 0 careful, seat 1 keeps anywhere
        sim.run(rng)
    for seat, trace in ((0, CAREFUL_TRACE), (1, CARELESS_TRACE)):
        pairs, chains, buried = counts[seat]
        measured = KeepTrace(chain=chains / pairs, bury=buried / pairs)
        assert abs(measured.chain - trace.chain) < 0.04, (seat, measured)
        assert abs(measured.bury - trace.bury) < 0.04, (seat, measured)
