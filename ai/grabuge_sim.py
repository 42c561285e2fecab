"""A fast rank-only Grabuge for playouts: the engine's rules without notation, logs or suits.

Suits never matter for play, and piles whose tops have the same rank are interchangeable, so
a position is pile-top counts, reserves of ranks and the unseen ranks in the order they will
be turned (a shuffled deck: dealing lazily is the same as shuffling first).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from engines.grabuge import (
    ACE,
    DRAW_SIZE,
    GRABUGE_BONUS_PAQUETS,
    KING,
    LEFTOVER_CARDS_PER_PAQUET,
    RANK_OF,
    GrabugeState,
)

EMPTY_COLUMN_COST = 0.5
"""What a free reserve slot is worth, in ranks of delay: keep it for a card that needs it."""

NO_CHAIN_COST = 1.5
"""Extra cost of covering a card that does not follow the kept one (no free unwinding)."""

DEPTH_COST = 0.5
"""Extra cost per card already in a column: long columns bury more."""

MARGIN_WEIGHT = 0.1
"""How much a playout's paquet margin adds to its result (a tie-break between moves)."""

MARGIN_SCALE = 3.0
"""The margin, in paquets, at which the nudge is half its weight."""

CUT_MARGIN_SCALE = 1.0
"""A cut playout's margin, in paquets, that makes a win e (about 2.7) times likelier than a loss."""

NO_CUT = 1 << 30
"""`Sim.turns_left` of a playout that runs to the end of the game."""


def alike_choices(reserve: Sequence[Sequence[int]], columns: Sequence[int]) -> list[list[int]]:
    """The indices of `columns` grouped by what their reserve column holds, in first-seen
    order: keeping on, or playing from, columns that hold the same ranks is the same choice
    (the columns can be swapped), so the search plays out one of each group."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for index, column in enumerate(columns):
        groups.setdefault(tuple(reserve[column]), []).append(index)
    return list(groups.values())


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
        "turns_left",
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
        self.turns_left = NO_CUT
        """Turns still to end before the playout stops and its margin scores it."""

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
        other.turns_left = self.turns_left
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

    def margin(self, seat: int, *, whole_cards: bool = False) -> float:
        """`seat`'s lead in paquets, counting the leftover-card paquets (final at the end);
        `whole_cards` counts every card of the difference as its share of a paquet."""
        cards = self.unplayed(1 - seat) - self.unplayed(seat)
        if whole_cards:
            leftover: float = cards / LEFTOVER_CARDS_PER_PAQUET
        else:
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
        """Pass the turn, skipping a seat with nothing to do; the end when neither has (or
        when the playout has played its turns: `turns_left`)."""
        self.turns_left -= 1
        if self.turns_left <= 0:
            self.over = True
            return
        seat = self.to_move
        for following in (1 - seat, seat):
            if self.has_something(following):
                self.to_move, self.drew, self.hand = following, False, 0
                return
        self.over = True

    # -- the playout policy ----------------------------------------------------------------

    def keep_column(self, rng: random.Random) -> int:
        """The reserve column (0–3) where the card just turned blocks least (this policy never
        draws; `rng` is there for subclasses' policies, as in `reserve_column`)."""
        rank, tops = self.drawn, self.tops
        need = self._distance(rank)
        best, best_cost = 0, 1e9
        for index, column in enumerate(self.reserves[self.to_move]):
            if not column:
                cost = EMPTY_COLUMN_COST
            elif column[-1] == rank + 1:
                return index  # nothing costs less: playing the kept card frees the other
            else:
                # Covering delays the covered card by as much as the kept one is further
                # away (`_distance`, inlined: this is the playouts' busiest question).
                covered = column[-1]
                below = covered - 1
                while below > 0 and tops[below] == 0:
                    below -= 1
                delay = need - (covered - 1 - below)
                cost = (delay if delay > 0 else 0) + NO_CHAIN_COST + DEPTH_COST * len(column)
            if cost < best_cost:
                best, best_cost = index, cost
        return best

    def _distance(self, rank: int) -> int:
        """Ranks still to be played before a card of `rank` can go on the tableau."""
        tops = self.tops
        below = rank - 1
        while below > 0 and tops[below] == 0:
            below -= 1
        return rank - 1 - below

    def reserve_column(self, columns: list[int], rng: random.Random) -> int:
        """Which playable reserve card to play first (the order rarely matters)."""
        return columns[0] if len(columns) == 1 else rng.choice(columns)

    def run(self, rng: random.Random) -> None:
        """Play on to the end with the playout policy (the engine's `_advance`, looped).

        The hot loop of every search: what `grabuge_playable`, `playable_columns` and `place`
        do is done inline here (the same rules; a test holds the loop to the engine), while
        keeping and choosing go through `keep`, `keep_column` and `reserve_column`, so that
        subclasses can change the policy. A card is turned only once the cascade is done, so
        keeping it leaves nothing new to cascade: the next card is turned at once.
        """
        tops, reserves, careless, gtop, deck, crowned, became = (
            self.tops, self.reserves, self.careless, self.gtop, self.deck, self.crowned,
            self.became)
        while not self.over:
            seat = self.to_move
            columns = reserves[seat]
            rank = self.drawn  # a card turned, not yet placed or kept (0: none)
            self.drawn = 0
            while True:
                if rank:
                    if rank == ACE:
                        tops[ACE] += 1
                    elif tops[rank - 1]:
                        tops[rank - 1] -= 1
                        if rank == KING:
                            crowned[seat] += 1
                        else:
                            tops[rank] += 1
                    else:
                        self.drawn = rank
                        if careless[seat] and rng.random() < careless[seat]:
                            self.keep(seat, rng.randrange(len(columns)))
                        else:
                            self.keep(seat, self.keep_column(rng))
                        if self.hand:
                            self.hand -= 1
                            rank = deck.pop()
                            continue
                        break
                # The cascade: the grabuge first, then a reserve card, then the grabuge again.
                while True:
                    top = gtop[seat]
                    if top and not became[seat] and (top == ACE or tops[top - 1]):
                        self.play_grabuge(seat)
                        continue
                    # The reserve card to play, if any: a choice only when several can go.
                    chosen = -1
                    for index, column in enumerate(columns):
                        if column and (column[-1] == ACE or tops[column[-1] - 1]):
                            if chosen < 0:
                                chosen = index
                                continue
                            chosen = self.reserve_column(self.playable_columns(seat), rng)
                            break
                    if chosen < 0:
                        break
                    self.play_reserve(seat, chosen)
                if not self.hand:
                    break
                self.hand -= 1
                rank = deck.pop()
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
        """`seat`'s score at the end: 1 a win, 1/2 a draw, 0 a loss, nudged by the margin; a
        cut playout's chance to win, from its margin with the leftover cards counted whole."""
        if self.turns_left <= 0:
            margin = self.margin(seat, whole_cards=True)
            return 1 / (1 + math.exp(-margin / CUT_MARGIN_SCALE))
        margin = self.margin(seat)
        result = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
        # Most worlds give every move the same result; the margin still tells them apart.
        return result + MARGIN_WEIGHT * margin / (abs(margin) + MARGIN_SCALE)
