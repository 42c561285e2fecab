"""Kraut & Rüben: what the search knows of the game.

The only hidden information is the other players' contracts (the bag is public as counts,
and the engine draws from it as a chance node), so a determinization is the seat's view
rebuilt as a state with the other contracts redrawn from those the seat has not seen.

Easy and medium play a policy that plants for the mover's own contract and dumps what it
does not want where an unknown contract loses most (easy slips into random moves); hard
compares the policy's move with its two closest rivals over determinized full playouts of
that policy, on `ReducedState` (one move per class of equivalent moves: a bed's position
never scores), tile draws sampled as chance with the engine's probabilities. A rival is
played only when it wins by a clear number of standard errors, and the shorter playouts of
an emptier bag buy more iterations, so late decisions are searched harder in no more time.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from ai.base import AnyState, Budget, is_chance, sample_chance
from ai.game import GameAI
from engines import Result
from engines.kraut_ruben import (
    BEDS,
    CONTRACTS,
    CUP_POINTS,
    FIXED_POINTS,
    HIGH_PLUS_POINTS,
    LOW_PLUS_POINTS,
    MINUS_POINTS,
    PLANTS,
    VEGETABLES,
    Discard,
    Draw,
    EndTurn,
    KrautRubenState,
    KrautRubenView,
    Move,
    Phase,
    Place,
    PlayMole,
    Take,
    Tile,
)

MoveT = TypeVar("MoveT", bound=Move)
StateT = TypeVar("StateT", bound=KrautRubenState)

TOP_COLUMN = len(HIGH_PLUS_POINTS) - 1
TARGET_MAIN = HIGH_PLUS_POINTS.index(max(HIGH_PLUS_POINTS))
"""The main-vegetable count that pays the plus vegetables best (2)."""

FUTURE_SHARE = 0.35
"""Expected share of an empty bed's best value its owner will actually collect."""

EVAL_SHARE = 0.1
"""The same share where a search stops: rivals then dump their worst tiles in its garden."""

REACH_SHARE = 0.6
"""How much of the gain from reaching the best column an estimate counts before it is made."""

TEMPERATURE = 3.0
"""Points of estimated lead that make a win e times likelier (softmax of the estimates)."""

CANDIDATES = 3
"""Moves hard compares: the policy's and its two closest rivals."""

FULL_BAG = 85
"""Tiles in a full bag: hard's iterations are counted for a playout from the first draw."""

BAG_PADDING = 15
"""Tiles' worth of moves a playout makes besides draws (takes, moles, the last turns)."""

MAX_SCALE = 4.0
"""At most this many times the iterations when the bag is nearly empty (short playouts)."""

MIN_ITERATIONS = 2
"""Fewest iterations hard runs: one sample has no spread to test a rival with."""

CONFIDENCE = 2.0
"""Standard errors by which a rival must beat the policy's move to be played instead.

The policy is good and playouts are noisy: deviate only on clear evidence. Measured on the
paired differences, the bar falls as iterations grow instead of staying a fixed margin.
"""

NOISE = 0.25
"""Share of random moves the easy level makes, so that it stays beatable."""

TIE_BREAK = 0.5
"""What taking a garden first is worth in points: ties go to the first taker."""

MOLE_GAIN = 2.0
"""Value a mole must add to be played rather than drawing a tile."""

TAKE_POINTS = 10
"""A garden worth this much now is taken at once by a playout."""

TAKE_EMPTIES = 3
"""A garden with this few empty beds left is taken at once by a playout (little exposure)."""


class ReducedState(KrautRubenState):
    """The engine state as the search sees it: one move per class of equivalent moves.

    A bed's position never scores, so planting in any empty bed of a garden is one move, and
    covering any bed of a garden showing the same tile is one move. The moves are listed once
    per position (`apply` lists them again to check a move, and playouts apply many).
    """

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, options)
        self._moves: list[Move] | None = None

    def forget_moves(self) -> None:
        """Drop the listed moves after the state was changed other than by a move."""
        self._moves = None

    def _play(self, move: Move) -> None:
        super()._play(move)
        self._moves = None

    def _legal_moves(self) -> list[Move]:
        if self._moves is None:
            self._moves = self._reduced_moves()
        return self._moves

    def _reduced_moves(self) -> list[Move]:
        if self.phase is Phase.PLACE and self.drawn in PLANTS:
            places: list[Move] = []
            for g, stacks in enumerate(self.gardens, start=1):
                if self._last_bed_reserved(g):
                    continue
                first = next((i for i, stack in enumerate(stacks) if not stack), None)
                if first is not None:
                    places.append(Place(g, BEDS[first]))
            return places or [Discard()]
        moves = super()._legal_moves()
        if self.phase not in (Phase.CHOOSE, Phase.PLACE) or len(moves) <= 1:
            return moves
        seen: set[tuple[bool, int, str]] = set()
        kept: list[Move] = []
        for move in moves:
            if isinstance(move, Place | PlayMole):
                stack = self.gardens[move.garden - 1][move.bed.index]
                key = (isinstance(move, Place), move.garden, stack[-1] if stack else "")
                if key in seen:
                    continue
                seen.add(key)
            kept.append(move)
        return kept


SCORED = (*(str(v) for v in VEGETABLES), str(Tile.CLOVER), str(Tile.SNAIL))
"""The visible tiles whose count can change a score (dandelions and moles score 0)."""

_INDEX = {name: i for i, name in enumerate(SCORED)}
_CLOVER, _SNAIL = _INDEX[str(Tile.CLOVER)], _INDEX[str(Tile.SNAIL)]

Tally = tuple[int, ...]
"""A garden's visible tiles counted in `SCORED` order."""

_ROLES: dict[int, tuple[int, int, int, int]] = {
    c.number: (_INDEX[c.main], _INDEX[c.high], _INDEX[c.low], _INDEX[c.minus])
    for c in CONTRACTS
}
"""Each contract's main, high, low and minus vegetables as `Tally` positions."""

_VALUES: dict[tuple[Tally, int, int, float], float] = {}
"""Memo of `garden_value`: gardens recur across a search's many playouts."""

_MEMO_LIMIT = 200_000


def tally(state: KrautRubenState, garden: int) -> tuple[Tally, int]:
    """A garden's visible tiles (`SCORED` order) and its number of empty beds."""
    counts = [0] * len(SCORED)
    empties = 0
    for stack in state.gardens[garden - 1]:
        if not stack:
            empties += 1
        elif (i := _INDEX.get(stack[-1])) is not None:
            counts[i] += 1
    return tuple(counts), empties


def _plain_points(counts: Tally, roles: tuple[int, int, int, int], column: int) -> float:
    """Points of the visible tiles with the plus vegetables paid at `column`."""
    _, high, low, minus = roles
    return (
        counts[high] * HIGH_PLUS_POINTS[column]
        + counts[low] * LOW_PLUS_POINTS[column]
        + counts[minus] * MINUS_POINTS
        + counts[_CLOVER] * FIXED_POINTS[Tile.CLOVER]
        + counts[_SNAIL] * FIXED_POINTS[Tile.SNAIL]
    )


def points_now(counts: Tally, contract: int) -> float:
    """The garden's points now for `contract`."""
    roles = _ROLES[contract]
    return _plain_points(counts, roles, min(counts[roles[0]], TOP_COLUMN))


def garden_value(counts: Tally, empties: int, contract: int,
                 share: float = FUTURE_SHARE) -> float:
    """Expected final points of a garden for `contract`: its tiles now plus what may come.

    Empty beds first bring the main vegetables to the best column (then every plus vegetable
    pays more), and the rest are worth a share of the best plus vegetable's pay.
    """
    key = (counts, empties, contract, share)
    value = _VALUES.get(key)
    if value is None:
        roles = _ROLES[contract]
        main = counts[roles[0]]
        column = min(main, TOP_COLUMN)
        now = _plain_points(counts, roles, column)
        if main < TARGET_MAIN:
            step = min(TARGET_MAIN - main, empties)
            reached = _plain_points(counts, roles, main + step)
            value = (now + REACH_SHARE * (reached - now)
                     + share * (empties - step) * HIGH_PLUS_POINTS[main + step])
        else:
            value = now + share * empties * HIGH_PLUS_POINTS[column]
        if len(_VALUES) >= _MEMO_LIMIT:
            _VALUES.clear()
        _VALUES[key] = value
    return value


_SUMS: dict[tuple[Tally, int], float] = {}
"""Memo of `_value_sum`."""


def _value_sum(counts: Tally, empties: int) -> float:
    """`garden_value` summed over all 12 contracts (averages for an unknown contract)."""
    key = (counts, empties)
    total = _SUMS.get(key)
    if total is None:
        total = sum(garden_value(counts, empties, c.number) for c in CONTRACTS)
        if len(_SUMS) >= _MEMO_LIMIT:
            _SUMS.clear()
        _SUMS[key] = total
    return total


def _changed(counts: Tally, removed: str | None, added: str) -> Tally:
    """`counts` after the top tile `removed` (None: an empty bed) is replaced by `added`."""
    after = list(counts)
    if removed is not None and (i := _INDEX.get(removed)) is not None:
        after[i] -= 1
    if (i := _INDEX.get(added)) is not None:
        after[i] += 1
    return tuple(after)


class _Mover:
    """What the player to move weighs in a playout: its contract, gardens and targets."""

    def __init__(self, state: KrautRubenState) -> None:
        self.state = state
        self.seat = state.turn_seat
        self.contract = state.contracts[self.seat]
        owned = state.gardens_of(self.seat)
        self.needs = state.gardens_per_player - len(owned)
        self.cache: dict[int, tuple[Tally, int]] = {}
        self.mine = set(owned)
        # Without all its gardens yet, the best unowned gardens are the mover's to be.
        if self.needs > 0:
            unowned = state.unowned_gardens()
            ranked = sorted(unowned, key=lambda g: (-self.own_value(g), g))
            self.mine.update(ranked[: self.needs])

    def counts(self, garden: int) -> tuple[Tally, int]:
        """The garden's visible tiles and empty beds (cached for this decision)."""
        if garden not in self.cache:
            self.cache[garden] = tally(self.state, garden)
        return self.cache[garden]

    def own_value(self, garden: int) -> float:
        """The garden's worth to the mover."""
        counts, empties = self.counts(garden)
        return garden_value(counts, empties, self.contract)

    def change(self, garden: int, removed: str | None, added: str, filled: int) -> float:
        """How much putting `added` over `removed` in `garden` helps the mover.

        Its own (or future) gardens count fully; another's garden counts by the harm done to
        an unknown contract (the average over those the mover does not hold), and an unowned
        garden it will not take counts half as much.
        """
        counts, empties = self.counts(garden)
        after = _changed(counts, removed, added)
        mine = self.contract
        if garden in self.mine:
            return (garden_value(after, empties - filled, self.contract)
                    - garden_value(counts, empties, self.contract))
        # Another seat's contract is any but the mover's: the average over the other 11.
        harm = (
            _value_sum(after, empties - filled) - garden_value(after, empties - filled, mine)
            - _value_sum(counts, empties) + garden_value(counts, empties, mine)
        ) / (len(CONTRACTS) - 1)
        weight = 1.0 if self.state.owners[garden - 1] is not None else 0.5
        return -weight * harm


def _move_gain(mover: _Mover, move: Move, tile: str) -> float:
    """The gain of putting `tile` where `move` says."""
    assert isinstance(move, Place | PlayMole)
    stack = mover.state.gardens[move.garden - 1][move.bed.index]
    removed = stack[-1] if stack else None
    return mover.change(move.garden, removed, tile, 0 if stack else 1)


def heuristic_move(state: KrautRubenState, rng: random.Random | None) -> Move:
    """A sensible move for the player to move, from its own contract and the public board.

    Ties go to a random best move, or to the first without `rng`.
    """
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    mover = _Mover(state)
    if state.phase is Phase.PLACE:
        assert state.drawn is not None
        drawn = state.drawn.value
        return _best(moves, lambda m: _move_gain(mover, m, drawn), rng)
    if state.phase is Phase.TAKE or (state.phase is Phase.CHOOSE and isinstance(moves[0], Take)):
        return _take_choice(state, mover, moves, rng)
    moles = [m for m in moves if isinstance(m, PlayMole)]
    if not moles:
        return moves[0]
    gains = {m: _move_gain(mover, m, Tile.MOLE.value) for m in moles}
    best = max(gains.values())
    # Late in the bag the mole is worth playing for less: it may otherwise never be played.
    threshold = MOLE_GAIN * min(1.0, state.bag_count / 20)
    if best >= threshold or not any(isinstance(m, Draw) for m in moves):
        return _best(moles, gains.__getitem__, rng)
    return Draw()


def _take_choice(state: KrautRubenState, mover: _Mover, moves: list[Move],
                 rng: random.Random | None) -> Move:
    """Take the best garden when it is good, nearly full, or the spare gardens run out."""
    takes = [m for m in moves if isinstance(m, Take)]
    if len(takes) == len(moves):
        return _best(takes, lambda m: mover.own_value(m.garden), rng)
    best = max(takes, key=lambda m: (mover.own_value(m.garden), -m.garden))
    counts, empties = mover.counts(best.garden)
    short = sum(
        state.gardens_per_player - len(state.gardens_of(s)) for s in range(state.num_players)
    )
    points = points_now(counts, mover.contract)
    if points >= TAKE_POINTS or empties <= TAKE_EMPTIES or len(takes) <= short:
        return best
    return EndTurn()


def _best(moves: Sequence[MoveT], gain: Callable[[MoveT], float],
          rng: random.Random | None) -> MoveT:
    """The move of highest gain, ties broken at random (or the first without `rng`)."""
    scored = [(gain(m), m) for m in moves]
    top = max(s for s, _ in scored)
    best = [m for s, m in scored if s >= top - 1e-9]
    return best[0] if rng is None else rng.choice(best)


def candidates(state: ReducedState, count: int) -> list[Move]:
    """The policy's move first, then the next best moves by the policy's own measure."""
    first = heuristic_move(state, None)
    moves = state.legal_moves()
    mover = _Mover(state)
    if state.phase is Phase.PLACE:
        assert state.drawn is not None
        drawn = state.drawn.value
        gains = {m: _move_gain(mover, m, drawn) for m in moves}
    else:
        gains = {m: (mover.own_value(m.garden) if isinstance(m, Take)
                     else _move_gain(mover, m, Tile.MOLE.value) if isinstance(m, PlayMole)
                     else math.inf) for m in moves}
    rivals = sorted((m for m in moves if m != first), key=lambda m: -gains[m])
    return [first, *rivals[: count - 1]]


def scaled_iterations(base: int, bag: int) -> int:
    """`base` iterations at a full bag, more as playouts shorten (about the same time each)."""
    scale = min(MAX_SCALE, (FULL_BAG + BAG_PADDING) / (bag + BAG_PADDING))
    # At least two samples: the test of a rival needs their spread.
    return max(MIN_ITERATIONS, round(base * scale))


def clear_winner(gains: Sequence[Sequence[float]]) -> int | None:
    """The rival whose paired gains over the policy's move are clearly positive, if any.

    `gains[i]` holds rival i's reward minus the policy move's, one per sample. A rival must
    beat the policy by `CONFIDENCE` standard errors; of those that do, the best mean wins.
    """
    best, best_mean = None, 0.0
    for i, diffs in enumerate(gains):
        mean = statistics.fmean(diffs)
        error = statistics.stdev(diffs) / math.sqrt(len(diffs))
        if mean > CONFIDENCE * error and mean > best_mean:
            best, best_mean = i, mean
    return best


def estimated_scores(state: KrautRubenState) -> list[float]:
    """Each seat's expected final points (match points and cup included)."""
    totals = state.match_totals()
    unowned = state.unowned_gardens()
    demand = sum(
        state.gardens_per_player - len(state.gardens_of(s)) for s in range(state.num_players))
    estimates: list[float] = []
    for seat in range(state.num_players):
        contract = state.contracts[seat]
        owned = state.gardens_of(seat)
        value = float(totals[seat])
        for garden in owned:
            value += garden_value(*tally(state, garden), contract, EVAL_SHARE)
        missing = state.gardens_per_player - len(owned)
        if missing > 0 and unowned:
            options = sorted(
                (garden_value(*tally(state, g), contract, EVAL_SHARE) for g in unowned),
                reverse=True)
            # Rivals short of gardens may take the best ones first: count a typical one of
            # those still wanted, not the best.
            wanted = options[: max(missing, demand)]
            value += missing * sum(wanted) / len(wanted)
        if state.take_order[:1] == [seat]:
            value += CUP_POINTS if state.options["match_games"] > 1 else TIE_BREAK
        estimates.append(value)
    return estimates


class KrautRubenAI(GameAI):
    """Kraut & Rüben: determinized contracts, reduced moves, contract-aware playouts."""

    game_id = "kraut_ruben"
    budgets: ClassVar[dict[str, Budget]] = {
        "easy": Budget(iterations=0),
        "medium": Budget(iterations=0),
        "hard": Budget(iterations=28),
    }
    """Easy and medium play the policy (easy with random slips); hard checks it by playouts.

    Hard's iterations are determinizations, each played to the end once per candidate; the
    count is for a full bag and grows as the bag empties (`scaled_iterations`).
    """

    def choose_move(self, state: AnyState, level: str, rng: random.Random) -> Any:
        """The move at `level`, searched on worlds rebuilt from the mover's view only."""
        seat = state.current_player
        assert seat is not None and seat >= 0, "a move is chosen for a player's decision"
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        world = from_view(state.view(seat), seat, rng, ReducedState)
        budget = self.budgets[level]
        if budget.iterations > 0:
            move = self.paired_search(world, seat, budget, rng)
        elif level == "easy" and rng.random() < NOISE:
            move = rng.choice(world.legal_moves())
        else:
            move = heuristic_move(world, rng)
        assert move in legal
        return move

    def paired_search(self, world: ReducedState, seat: int, budget: Budget,
                      rng: random.Random) -> Move:
        """The policy's move unless a close rival does clearly better over the same futures.

        Every sample plays each candidate in the same determinization with the same chance
        seed (common random numbers), so the comparison measures the move, not the luck,
        and the paired differences' spread says how clear a rival's lead is.
        """
        options = candidates(world, CANDIDATES)
        if len(options) == 1:
            return options[0]
        iterations = scaled_iterations(budget.iterations, world.bag_count)
        # Each rival's reward minus the policy move's, sample by sample.
        gains: list[list[float]] = [[] for _ in options[1:]]
        for _ in range(iterations):
            # Redrawing the world's own sampled contracts reads nothing hidden.
            sampled = world.clone()
            _redraw(sampled, seat, sampled.contracts[seat], rng)
            seed = rng.random()
            rewards = []
            for option in options:
                trial = sampled.clone()
                trial.apply(option)
                rewards.append(self._playout(trial, budget, random.Random(seed))[seat])
            for i, reward in enumerate(rewards[1:]):
                gains[i].append(reward - rewards[0])
        rival = clear_winner(gains)
        return options[0] if rival is None else options[rival + 1]

    def _playout(self, world: KrautRubenState, budget: Budget,
                 rng: random.Random) -> list[float]:
        """The policy plays on for `budget.rollout_depth` moves; the end or the estimate."""
        depth = 0
        while not world.is_over():
            if budget.rollout_depth is not None and depth >= budget.rollout_depth:
                return self.evaluate(world)
            if is_chance(world):
                world.apply(sample_chance(world, rng))
                continue
            world.apply(heuristic_move(world, rng))
            depth += 1
        return self._final(world)

    @staticmethod
    def _final(world: KrautRubenState) -> list[float]:
        """A finished playout's rewards: a softmax of the points, less noisy than wins alone."""
        result = world.result()
        assert result is not None and result.scores is not None
        scores = [float(x) for x in result.scores]
        best = max(scores)
        weights = [math.exp((x - best) / TEMPERATURE) for x in scores]
        return [w / sum(weights) for w in weights]

    def sample(self, state: AnyState, seat: int, rng: random.Random) -> KrautRubenState:
        """A full state built from `state.view(seat)`, the unseen contracts redrawn."""
        return from_view(state.view(seat), seat, rng, KrautRubenState)

    def playout_move(self, state: AnyState, rng: random.Random) -> Any:
        """The mover plants for its own contract (as dealt in this determinization)."""
        assert isinstance(state, KrautRubenState)
        return heuristic_move(state, rng)

    def evaluate(self, state: AnyState) -> list[float]:
        """Win chances as a softmax of each seat's estimated final points."""
        assert isinstance(state, KrautRubenState)
        scores = estimated_scores(state)
        best = max(scores)
        weights = [math.exp((s - best) / TEMPERATURE) for s in scores]
        total = sum(weights)
        return [w / total for w in weights]


def from_view(view: KrautRubenView, seat: int, rng: random.Random,
              kind: type[StateT]) -> StateT:
    """A `kind` state showing `view` to `seat`, the contracts it has not seen drawn by `rng`."""
    world = kind(view["num_players"], {"match_games": view["match_games"]})
    world.game_number = view["game_number"]
    world.records = list(view["games"])
    world.gardens = [[list(stack) for row in g["grid"] for stack in row] for g in view["gardens"]]
    world.owners = [g["owner"] for g in view["gardens"]]
    world.bag = {Tile(t): n for t, n in view["bag"]["tiles"].items()}
    world.discarded = {Tile(t): n for t, n in view["discarded"].items()}
    world.moles = [p["mole_available"] for p in view["players"]]
    ranked = [(p["first_take_rank"], p["seat"]) for p in view["players"]
              if p["first_take_rank"] is not None]
    world.take_order = [s for _, s in sorted(ranked)]
    world.phase = Phase(view["phase"])
    world.turn_seat = view["turn"] if view["turn"] is not None else 0
    world.drawn = Tile(view["drawn_tile"]) if view["drawn_tile"] else None
    world.last_action = dict(view["last_action"]) if view["last_action"] else None
    # No public setter: the result is public (in the view) and set only once the game is over.
    world._result = Result.from_dict(view["result"]) if view["result"] else None
    own = view["your_contract"]
    world.contracts = [0] * sum(1 for p in view["players"] if p["contract_dealt"])
    _redraw(world, seat, own["number"] if own else None, rng)
    if isinstance(world, ReducedState):
        world.forget_moves()
    return world


def _redraw(world: KrautRubenState, seat: int, own: int | None, rng: random.Random) -> None:
    """Deal every dealt seat but `seat` a contract from those `seat` has not seen."""
    unseen = [c.number for c in CONTRACTS if c.number != own]
    others = [s for s in range(len(world.contracts)) if s != seat]
    for s, number in zip(others, rng.sample(unseen, len(others)), strict=True):
        world.contracts[s] = number
    if own is not None and seat < len(world.contracts):
        world.contracts[seat] = own
