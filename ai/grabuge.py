"""Le Grabuge: what the search knows of the game.

The engine deals lazily, so a state holds no card order to peek at: what it knows beyond a
seat's view is which suits of each rank are still unseen (crowned piles leave the table).
`sample` rebuilds a full state from the view alone and redraws those suits with the rng.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from ai.base import AnyState
from ai.game import GameAI
from ai.grabuge_sim import NO_CUT, Sim, alike_choices
from engines.grabuge import (
    CARD_INDEX,
    CARDS,
    GRABUGE,
    LEFTOVER_CARDS_PER_PAQUET,
    RANK_OF,
    RANKS,
    SETUP_ORDER,
    SUITS,
    GrabugeState,
    GrabugeView,
    KeepCard,
)


def _unseen_counts(view: GrabugeView, rng: random.Random) -> list[int]:
    """Unseen copies of each card kind: exact by rank, suits of crowned cards redrawn."""
    decks = view["decks"]
    visible = [0] * len(CARDS)
    for pile in view["tableau"]:
        for card in pile["cards"]:
            visible[CARD_INDEX[card]] += 1
    for player in view["players"]:
        top = player["grabuge"]["top"]
        if top is not None:
            visible[CARD_INDEX[top]] += 1
        for column in player["reserve"]:
            for card in column:
                visible[CARD_INDEX[card]] += 1
    placing = view["placing"]
    if placing is not None:
        visible[CARD_INDEX[placing["card"]]] += 1
    # Every crowned pile took one card of each rank away; only their suits are unknown.
    crowned = sum(player["paquets"]["crowned"] for player in view["players"])
    unseen = [decks - count for count in visible]
    for rank in RANKS:
        kinds = [CARD_INDEX[rank + suit] for suit in SUITS]
        pool = [index for index in kinds for _ in range(unseen[index])]
        for index in rng.sample(pool, crowned):
            unseen[index] -= 1
    return unseen


def _event_count(view: GrabugeView) -> int:
    """The number the engine gives its next log event."""
    for log in (view["log"], view["previous_log"]):
        if log is not None and log["events"]:
            return int(log["events"][-1]["n"]) + 1
    return 0


def state_from_view(view: GrabugeView, rng: random.Random) -> GrabugeState:
    """A full state showing exactly `view`; the suits it cannot show are drawn with `rng`."""
    players = view["players"]
    setup = view["phase"] == "setup"
    turning, placing = view["turning"], view["placing"]
    if turning is not None:
        to_move = turning["seat"]
    elif setup:
        to_move = SETUP_ORDER[1]  # only the coin is left to decide the set-up
    else:
        seat = view["turn"]["seat"]
        assert seat is not None
        to_move = seat
    awaiting = view["awaiting"]
    pending: str | None = None
    if awaiting == "card" and turning is not None:
        pending = turning["for"]
    elif awaiting == "coin":
        pending = "coin"
    drew = not setup and any(event["event"] == "drew" for event in view["log"]["events"])
    crowned = [player["paquets"]["crowned"] for player in players]
    state: Mapping[str, Any] = {
        "unseen": _unseen_counts(view, rng),
        "piles": [{"id": pile["id"], "cards": pile["cards"]} for pile in view["tableau"]],
        # Piles only ever leave the tableau when crowned.
        "next_pile_id": 1 + sum(crowned) + len(view["tableau"]),
        "talon": [player["talon"] for player in players],
        "grabuge_top": [player["grabuge"]["top"] for player in players],
        "grabuge_down": [player["grabuge"]["under"] for player in players],
        "grabuge_became_talon": [player["grabuge"]["became_talon"] for player in players],
        "reserves": [player["reserve"] for player in players],
        "crowned": crowned,
        "bonus_seat": view["grabuge_bonus_seat"],
        "leftover_paquets": [player["paquets"]["leftover"] for player in players],
        "hand": view["hand_face_down"],
        "drawn": None if placing is None else placing["card"],
        "drew": drew,
        "passing": view["awaiting"] == "pass",
        "setup": setup,
        "to_move": to_move,
        "pending": pending,
        "turn": view["turn"]["number"],
        "log": view["log"],
        "previous_log": view["previous_log"],
        "event_count": _event_count(view),
        "result": view["result"],
    }
    return GRABUGE.load({"game": "grabuge", "num_players": 2,
                         "options": {"decks": view["decks"]}, "state": state})


def _margin(state: GrabugeState, seat: int) -> float:
    """`seat`'s lead in paquets, counting the leftover-card paquets it would score now."""
    lead = state.paquets(seat) - state.paquets(1 - seat)
    cards = state.unplayed_cards(1 - seat) - state.unplayed_cards(seat)
    return lead + cards / LEFTOVER_CARDS_PER_PAQUET


CARELESS_PRIOR = 0.5
"""Before any evidence: the chance that the opponent keeps its cards anywhere."""


class KeepTrace(NamedTuple):
    """How often a card lying on another in a reserve column is one rank below it (a
    chain: it frees the other when played) or above it (it buries a card that goes first)."""

    chain: float
    bury: float


CAREFUL_TRACE = KeepTrace(chain=0.285, bury=0.30)
"""Measured on playouts of the careful policy (`Sim.keep_column`)."""

CARELESS_TRACE = KeepTrace(chain=0.082, bury=0.476)
"""Measured on playouts keeping in any column at random."""


def carelessness(state: GrabugeState, seat: int) -> float:
    """How likely `seat` keeps its cards anywhere rather than with care, from its reserve.

    Every card lying on another in a reserve column is one keep still in view: a careful
    player often chains a card on the one above it and buries a lower one less often than
    one who keeps anywhere. Bayes's rule over the two traces, from `CARELESS_PRIOR`.
    """
    careless, careful = CARELESS_PRIOR, 1 - CARELESS_PRIOR
    for column in state.reserves[seat]:
        for below, above in itertools.pairwise(column):
            gap = RANK_OF[below] - RANK_OF[above]
            careless *= _likelihood(CARELESS_TRACE, gap)
            careful *= _likelihood(CAREFUL_TRACE, gap)
    return careless / (careless + careful)


def _likelihood(trace: KeepTrace, gap: int) -> float:
    """The chance of a card `gap` ranks below the one it lies on, under `trace`."""
    if gap == 1:
        return trace.chain
    return trace.bury if gap < 0 else 1 - trace.chain - trace.bury


READS_THE_OPPONENT = frozenset({"medium", "hard"})
"""The levels that play their opponent as its reserve shows it keeps."""

WORLDS: dict[str, int] = {"easy": 6, "medium": 2560, "hard": 3200}
"""Worlds sampled per decision by level, at most; each distinct choice is played out once in
each (keeping a card on one of four empty columns is one choice, not four). Medium's 2,560
scored 85.65 % against random play over games 800-1,199, where 640 scored 83.0 %. Hard
plays more, up to 3,200, so that it is never the weaker (it scored 54.2 % against medium over
games 0-59: the two are close). Both race their choices (`RACE_BATCH`), which makes the same
moves in less time."""

RACE_BATCH: dict[str, int] = {"medium": 320, "hard": 400}
"""Levels that race their choices, with the worlds played between two looks at the race
(eight looks each): after each batch a choice clearly behind the leader is let go, so the
worlds left go to the choices still in contention (see `contenders`). The moves stay those
of the full search (hard's at 56 positions out of 56, medium's at 296 decisions out of 296;
2026-12-07) in a third to 40 % less time: hard keeps within its 1 s median on slower
machines, and medium, the default opponent, answers sooner."""

RACE_MARGIN_ERRORS = 3.0
"""How many standard errors behind the leader a choice must be to be let go: the worlds
are common to all choices, so the error is that of the paired difference, and small."""

PLAYOUT_TURNS: dict[str, int] = {"easy": NO_CUT, "medium": 6, "hard": 6}
"""Turns a playout plays by level before its margin scores it: six turns judge a keep as
well as the whole game, in less than half the time, which buys more worlds."""


def contenders(rewards: list[list[float]], racing: list[int]) -> list[int]:
    """The choices still racing: the leader, and those within `RACE_MARGIN_ERRORS` paired
    standard errors of it (every racing choice has been played out in the same worlds)."""
    leader = _leader(rewards, racing)
    return [index for index in racing
            if index == leader or not _clearly_behind(rewards[leader], rewards[index])]


def _leader(rewards: list[list[float]], racing: list[int]) -> int:
    """The racing choice with the best total; the first listed among equals."""
    return max(racing, key=lambda index: (sum(rewards[index]), -index))


def _clearly_behind(leader: list[float], other: list[float]) -> bool:
    """True when `other` trails `leader` by more than `RACE_MARGIN_ERRORS` standard errors of
    their paired difference (world by world)."""
    count = len(leader)
    differences = [lead - rival for lead, rival in zip(leader, other, strict=True)]
    mean = sum(differences) / count
    variance = sum((difference - mean) ** 2 for difference in differences) / (count - 1)
    return mean > RACE_MARGIN_ERRORS * math.sqrt(variance / count)


class GrabugeAI(GameAI):
    """Le Grabuge: worlds rebuilt from the view, every distinct choice played out in each.

    Every level samples worlds (orders of the unseen cards) and plays each distinct choice
    on in every world, in the fast rank-only game, with the same deck order and policy seed
    (common random numbers: luck weighs on every move alike). Easy plays a few worlds to
    the end; medium and hard many, cut after six turns and scored by their paquet and card
    margin, and let go, between batches of worlds, of the choices clearly behind. The best
    total wins. Medium and hard play the opponent in those playouts as its
    reserve shows it keeps (`carelessness`): a player who keeps anywhere leaves other
    chances open than one who keeps with care. `ai.mcts` still works with `sample`,
    `playout_move` and `evaluate`, but plays far fewer games for the same time.
    """

    game_id = "grabuge"

    def sample(self, state: AnyState, seat: int, rng: random.Random) -> AnyState:
        """A full state rebuilt from `seat`'s view only, the unseen suits redrawn."""
        return state_from_view(state.view(seat), rng)

    def playout_move(self, state: AnyState, rng: random.Random) -> Any:
        """Keep a card where it blocks least; otherwise the (mostly forced) move, at random."""
        assert isinstance(state, GrabugeState)
        if state.decision() == "keep":
            return KeepCard(Sim.from_state(state).keep_column(rng) + 1)
        return rng.choice(state.legal_moves())

    def choose_move(self, state: AnyState, level: str, rng: random.Random) -> Any:
        """Flat Monte Carlo over the legal moves, every move tried on the same worlds."""
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player
        assert isinstance(state, GrabugeState) and seat is not None
        reserve = [[RANK_OF[card] for card in column] for column in state.reserves[seat]]
        choices = [move.column - 1 for move in legal]
        groups = alike_choices(reserve, choices)
        if len(groups) == 1:
            return legal[0]
        # The opponent is played as it has played so far: its reserve shows how it keeps.
        # Reading the opponent is a skill easy lacks: it expects care from everyone.
        careless = [0.0, 0.0]
        if level in READS_THE_OPPONENT:
            careless[1 - seat] = carelessness(state, 1 - seat)
        # The choices at one decision are all keeps or all reserve plays.
        apply = Sim.keep if isinstance(legal[0], KeepCard) else Sim.play_reserve
        columns = [choices[group[0]] for group in groups]
        # The fast game knows ranks only, and the seat's view tells exactly which ranks are
        # unseen: one world rebuilt from the view serves them all, its deck reshuffled.
        world = self.sample(state, seat, rng)
        assert isinstance(world, GrabugeState)
        position = Sim.from_state(world)
        position.careless = careless
        position.turns_left = PLAYOUT_TURNS[level]
        worlds = WORLDS[level]
        batch = RACE_BATCH.get(level, worlds)
        rewards: list[list[float]] = [[] for _ in groups]
        racing = list(range(len(groups)))
        played = 0
        while played < worlds and len(racing) > 1:
            size = min(batch, worlds - played)
            racing_columns = [columns[index] for index in racing]
            for _ in range(size):
                base = position.copy()
                rng.shuffle(base.deck)
                outcomes = base.rewards_after(seat, apply, racing_columns, rng.random())
                for index, reward in zip(racing, outcomes, strict=True):
                    rewards[index].append(reward)
            played += size
            if played < worlds:
                racing = contenders(rewards, racing)
        return legal[groups[_leader(rewards, racing)][0]]

    def evaluate(self, state: AnyState) -> list[float]:
        """Each seat's chance from its paquet lead (crowned, bonus, leftover cards so far)."""
        assert isinstance(state, GrabugeState)
        chance = 1 / (1 + math.exp(-_margin(state, 0)))
        return [chance, 1 - chance]


__all__ = ["GrabugeAI", "state_from_view"]
