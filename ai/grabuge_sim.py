"""A fast rank-only Grabuge for playouts: the engine's rules without notation, logs or suits.

Suits never matter for play, and piles whose tops have the same rank are interchangeable, so
a position is pile-top counts, reserves of ranks and the unseen ranks in the order they will
be turned (a shuffled deck: dealing lazily is the same as shuffling first).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engines.grabuge import (
    ACE,
    DRAW_SIZE,
    GRABUGE_BONUS_PAQUETS,
    KING,
    LEFTOVER_CARDS_PER_PAQUET,
    RANK_OF,
    GrabugeState,
)


@dataclass(frozen=True, slots=True)
class KeepCosts:
    """What keeping the turned card on a reserve column costs its keeper; the cheapest wins.

    Costs are in ranks of delay. They were tuned together by `bench/grabuge_policy.py`, for
    the policy's own score against a random keeper; a small weight there is worth keeping
    only because the tuning kept it.
    """

    free_column: float = 0.85
    """An empty column: keep it for a card that needs it."""
    per_free_column: float = 0.53
    """Added to a free column's cost for each column still free (a spare is cheap)."""
    king_in_free_column: float = -0.25
    """A King alone waits where it blocks nothing."""
    chain_per_card: float = -0.5
    """On the card one rank above (playing the kept card frees it): per card in the column,
    because a long chain unwinds whole."""
    chain_per_rank_away: float = -0.05
    """On a chain, per rank the kept card must still wait."""
    cover: float = 1.5
    """On any other card."""
    delay: float = 1.0
    """Per rank the covered card must now wait longer than it would have (linear part)."""
    delay_squared: float = -0.12
    """The same delay, squared: a long delay hurts a little less than in proportion."""
    depth: float = 0.5
    """Per card already in the column: long columns bury more."""
    per_card_needed_sooner: float = 0.245
    """Per card in the column that could go before the kept one."""
    cover_king: float = 0.81
    """Covering a King: crowning a pile is a paquet."""
    cover_queen: float = 0.13
    """Covering a Queen: it readies a pile for a King."""
    keep_king: float = -0.26
    """Keeping a King on another card: nothing is needed after it."""
    twin: float = -1.62
    """On a card of the same rank: they wait for the same pile top."""
    two_above: float = -0.75
    """On a card two ranks above: a near chain, completed by a single card."""
    three_above: float = 0.35
    """On a card three ranks above."""
    one_below: float = 1.25
    """On the card one rank below: the kept card buries the card it must follow."""


@dataclass(frozen=True, slots=True)
class ReserveOrder:
    """Which playable reserve card goes first when several can: the highest score."""

    frees_the_next: float = 0.867
    """The card under it is one rank above: the column goes on unwinding."""
    frees_the_grabuge: float = -0.68
    """It lets the grabuge play (which then comes first); better keep that for later."""
    per_card: float = -0.12
    """Per card in its column: short columns empty sooner and free a slot."""
    king: float = -0.5
    """A King can wait: only its own pile needs it."""
    twin_under: float = -0.133
    """The card under it has the same rank and will want the same pile top."""


KEEP_COSTS = KeepCosts()
RESERVE_ORDER = ReserveOrder()

MARGIN_WEIGHT = 0.1
"""How much a playout's paquet margin adds to its result (a tie-break between moves)."""

MARGIN_SCALE = 3.0
"""The margin, in paquets, at which the nudge is half its weight."""


class Sim:
    """One determinized Grabuge position, played on by the playout policy."""

    __slots__ = (
        "became",
        "bonus",
        "careless",
        "crowned",
        "deck",
        "drawn",
        "drew",
        "gdown",
        "gtop",
        "hand",
        "over",
        "reserves",
        "talon",
        "to_move",
        "tops",
    )

    def __init__(self) -> None:
        self.tops = [0] * (KING + 1)
        """Piles whose top card has each rank (index 1–12; a King crowns and leaves)."""
        self.deck: list[int] = []
        """Unseen ranks; the last is turned next."""
        self.talon = [0, 0]
        self.gtop = [0, 0]
        """Each grabuge's face-up rank (0: none)."""
        self.gdown = [0, 0]
        self.became = [False, False]
        self.reserves: list[list[list[int]]] = [[[], [], [], []], [[], [], [], []]]
        self.crowned = [0, 0]
        self.bonus = -1
        self.hand = 0
        self.drawn = 0
        self.drew = False
        self.to_move = 0
        self.over = False
        self.careless = [0.0, 0.0]
        """Each seat's chance of keeping a card in any column at random (its opponent model)."""

    @classmethod
    def from_state(cls, state: GrabugeState, rng: random.Random | None = None) -> Sim:
        """The position of a full engine state at a player's decision, its deck shuffled.

        Without an rng the deck is left unshuffled (for the policy alone, never to play on).
        """
        assert state.pending is None and not state.setup and state.result() is None
        sim = cls()
        for pile in state.piles:
            sim.tops[RANK_OF[pile["cards"][-1]]] += 1
        for index, count in enumerate(state.unseen):
            sim.deck.extend([index // 4 + 1] * count)  # CARDS lists rank by rank, 4 suits
        if rng is not None:
            rng.shuffle(sim.deck)
        sim.talon = list(state.talon)
        sim.gtop = [0 if top is None else RANK_OF[top] for top in state.grabuge_top]
        sim.gdown = list(state.grabuge_down)
        sim.became = list(state.grabuge_became_talon)
        sim.reserves = [[[RANK_OF[card] for card in column] for column in columns]
                        for columns in state.reserves]
        sim.crowned = list(state.crowned)
        sim.bonus = -1 if state.bonus_seat is None else state.bonus_seat
        sim.hand = state.hand
        sim.drawn = 0 if state.drawn is None else RANK_OF[state.drawn]
        sim.drew = state.drew
        sim.to_move = state.to_move
        return sim

    def copy(self) -> Sim:
        """An independent copy (the same deck order: common random numbers across moves)."""
        other = Sim.__new__(Sim)
        other.tops = list(self.tops)
        other.deck = list(self.deck)
        other.talon = list(self.talon)
        other.gtop = list(self.gtop)
        other.gdown = list(self.gdown)
        other.became = list(self.became)
        other.reserves = [[list(column) for column in columns] for columns in self.reserves]
        other.crowned = list(self.crowned)
        other.bonus = self.bonus
        other.hand = self.hand
        other.drawn = self.drawn
        other.drew = self.drew
        other.to_move = self.to_move
        other.over = self.over
        other.careless = self.careless  # shared: set once per decision, only read after
        return other

    # -- rules ---------------------------------------------------------------------------

    def can_play(self, rank: int) -> bool:
        """True when a card of `rank` can go on the tableau."""
        return rank == ACE or self.tops[rank - 1] > 0

    def place(self, rank: int, seat: int) -> None:
        """Put a card on the tableau; a King crowns its pile for `seat`."""
        tops = self.tops
        if rank != ACE:
            tops[rank - 1] -= 1
        if rank == KING:
            self.crowned[seat] += 1
        else:
            tops[rank] += 1

    def grabuge_playable(self, seat: int) -> bool:
        """True when `seat`'s grabuge top can go (the grabuge always plays first)."""
        top = self.gtop[seat]
        return top != 0 and not self.became[seat] and (top == ACE or self.tops[top - 1] > 0)

    def playable_columns(self, seat: int) -> list[int]:
        """Reserve columns (0–3) of `seat` whose last card can go."""
        tops = self.tops
        return [index for index, column in enumerate(self.reserves[seat])
                if column and (column[-1] == ACE or tops[column[-1] - 1] > 0)]

    def play_grabuge(self, seat: int) -> None:
        """Play the grabuge's top; turn the next card or score the emptied grabuge."""
        self.place(self.gtop[seat], seat)
        if self.gdown[seat]:
            self.gdown[seat] -= 1
            self.gtop[seat] = self.deck.pop()
            return
        self.gtop[seat] = 0
        if self.bonus < 0 and not self.became[seat]:
            self.bonus = seat

    def play_reserve(self, seat: int, column: int) -> None:
        """Play the last card of a reserve column (0–3)."""
        self.place(self.reserves[seat][column].pop(), seat)

    def keep(self, seat: int, column: int) -> None:
        """Put the card just turned on a reserve column (0–3)."""
        self.reserves[seat][column].append(self.drawn)
        self.drawn = 0

    def unplayed(self, seat: int) -> int:
        """Cards `seat` has not placed (at the end: talon, grabuge and reserve)."""
        count = self.talon[seat] + self.gdown[seat] + (self.gtop[seat] != 0)
        count += sum(len(column) for column in self.reserves[seat])
        if seat == self.to_move:
            count += self.hand + (self.drawn != 0)
        return count

    def paquets(self, seat: int) -> int:
        """Crowned piles plus the grabuge bonus (leftover paquets come at the end)."""
        return self.crowned[seat] + (GRABUGE_BONUS_PAQUETS if self.bonus == seat else 0)

    def margin(self, seat: int) -> float:
        """`seat`'s lead in paquets, counting the leftover-card paquets (final at the end)."""
        cards = self.unplayed(1 - seat) - self.unplayed(seat)
        leftover = abs(cards) // LEFTOVER_CARDS_PER_PAQUET * (1 if cards > 0 else -1)
        return self.paquets(seat) - self.paquets(1 - seat) + leftover

    def has_something(self, seat: int) -> bool:
        """Whether `seat`'s turn would do anything (else it is skipped)."""
        return bool(self.grabuge_playable(seat) or self.playable_columns(seat)
                    or self.talon[seat] or self.gdown[seat] or self.gtop[seat])

    def draw(self, seat: int) -> bool:
        """Step 2: take four (or all that remain); False when there is nothing to draw."""
        if self.talon[seat] == 0 and (self.gtop[seat] or self.gdown[seat]):
            # The grabuge becomes the talon; its face-up card is the first of the four.
            size = self.gdown[seat] + 1
            taken = min(DRAW_SIZE, size)
            self.talon[seat] = size - taken
            self.drawn = self.gtop[seat]
            self.gtop[seat] = self.gdown[seat] = 0
            self.became[seat] = True
            self.hand = taken - 1
            return True
        if self.talon[seat] == 0:
            return False
        taken = min(DRAW_SIZE, self.talon[seat])
        self.talon[seat] -= taken
        self.hand = taken
        return True

    def end_turn(self) -> None:
        """Pass the turn, skipping a seat with nothing to do; the end when neither has."""
        seat = self.to_move
        for following in (1 - seat, seat):
            if self.has_something(following):
                self.to_move, self.drew, self.hand = following, False, 0
                return
        self.over = True

    # -- the playout policy ----------------------------------------------------------------

    def keep_column(self, rng: random.Random) -> int:
        """The reserve column (0–3) where the card just turned costs least (`KeepCosts`)."""
        costs, rank = KEEP_COSTS, self.drawn
        distance = self._distances()
        need = distance[rank]
        columns = self.reserves[self.to_move]
        best, best_cost = 0, 1e9
        free_cost: float | None = None
        for index, column in enumerate(columns):
            if not column:
                if free_cost is None:
                    free = sum(1 for other in columns if not other)
                    free_cost = costs.free_column + costs.per_free_column * free
                    if rank == KING:
                        free_cost += costs.king_in_free_column
                cost = free_cost
            elif column[-1] == rank + 1:
                cost = costs.chain_per_card * len(column) + costs.chain_per_rank_away * need
            else:
                cost = _cover_cost(rank, column, distance)
            if cost < best_cost:
                best, best_cost = index, cost
        return best

    def _distances(self) -> list[int]:
        """For each rank (index 1–13), the ranks still to be played before it can go."""
        tops = self.tops
        distance = [0] * (KING + 1)
        below = 0  # the highest pile top under the rank (0: none, a new pile from an Ace)
        for rank in range(1, KING + 1):
            distance[rank] = rank - 1 - below
            if rank < KING and tops[rank]:
                below = rank
        return distance

    def reserve_column(self, columns: list[int], rng: random.Random) -> int:
        """Which playable reserve card to play first (`ReserveOrder`; ties at random)."""
        order, seat = RESERVE_ORDER, self.to_move
        reserve = self.reserves[seat]
        grabuge = 0 if self.became[seat] else self.gtop[seat]
        best, best_score = columns[0], -1e9
        for index in columns:
            column = reserve[index]
            card = column[-1]
            score = order.per_card * len(column) + rng.random() * 1e-6
            if len(column) > 1:
                under = column[-2]
                if under == card + 1:
                    score += order.frees_the_next
                elif under == card:
                    score += order.twin_under
            if grabuge == card + 1:
                score += order.frees_the_grabuge
            if card == KING:
                score += order.king
            if score > best_score:
                best, best_score = index, score
        return best

    def run(self, rng: random.Random) -> None:
        """Play on to the end with the playout policy (the engine's `_advance`, looped).

        The hot loop of every search: what `grabuge_playable` and `playable_columns` ask is
        asked inline here (the same rules; a test holds the loop to the engine), while
        keeping and choosing go through `keep`, `keep_column` and `reserve_column`, so that
        subclasses can change the policy.
        """
        tops, reserves, careless, gtop, deck = (self.tops, self.reserves, self.careless,
                                                self.gtop, self.deck)
        while not self.over:
            seat = self.to_move
            columns = reserves[seat]
            rank = self.drawn
            if rank:
                if rank == ACE or tops[rank - 1]:
                    self.drawn = 0
                    self.place(rank, seat)
                elif careless[seat] and rng.random() < careless[seat]:
                    self.keep(seat, rng.randrange(len(columns)))
                else:
                    self.keep(seat, self.keep_column(rng))
                continue
            rank = gtop[seat]
            if rank and not self.became[seat] and (rank == ACE or tops[rank - 1]):
                self.play_grabuge(seat)
                continue
            playable = [index for index, column in enumerate(columns)
                        if column and (column[-1] == ACE or tops[column[-1] - 1])]
            if playable:
                column = playable[0] if len(playable) == 1 else self.reserve_column(playable, rng)
                self.play_reserve(seat, column)
                continue
            if self.hand:
                self.hand -= 1
                self.drawn = deck.pop()
                continue
            if not self.drew:
                self.drew = True
                if self.draw(seat):
                    continue
            self.end_turn()

    def rewards_after(self, seat: int, apply: Callable[[Sim, int, int], None],
                      columns: Sequence[int], seed: float) -> list[float]:
        """`seat`'s reward after `apply` (`Sim.keep` or `Sim.play_reserve`) on each column,
        each played out from here with the same playout seed (common random numbers)."""
        rewards = []
        for column in columns:
            playout = self.copy()
            apply(playout, seat, column)
            playout.run(random.Random(seed))
            rewards.append(playout.reward(seat))
        return rewards

    def reward(self, seat: int) -> float:
        """`seat`'s score at the end: 1 a win, 1/2 a draw, 0 a loss, nudged by the margin."""
        margin = self.margin(seat)
        result = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
        # Most worlds give every move the same result; the margin still tells them apart.
        return result + MARGIN_WEIGHT * margin / (abs(margin) + MARGIN_SCALE)


def _cover_cost(rank: int, column: list[int], distance: list[int]) -> float:
    """What keeping a card of `rank` on the non-empty `column` costs (`KeepCosts`)."""
    costs, covered, need = KEEP_COSTS, column[-1], distance[rank]
    # Covering delays the covered card by as much as the kept one is further away.
    delay = need - distance[covered]
    if delay < 0:
        delay = 0
    cost = (costs.cover + costs.delay * delay + costs.delay_squared * delay * delay
            + costs.depth * len(column))
    sooner = sum(1 for card in column if distance[card] < need)
    cost += costs.per_card_needed_sooner * sooner
    if covered == KING:
        cost += costs.cover_king
    elif covered == KING - 1:
        cost += costs.cover_queen
    if rank == KING:
        cost += costs.keep_king
    if covered == rank:
        cost += costs.twin
    elif covered == rank + 2:
        cost += costs.two_above
    elif covered == rank + 3:
        cost += costs.three_above
    elif covered == rank - 1:
        cost += costs.one_below
    return cost
