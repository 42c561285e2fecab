"""Le Grabuge: a two-player patience; build shared piles from Ace to King, crown them to win them.

Every card turned is a chance node dealt lazily from the cards not yet seen. Nearly every
step is forced (`grabuge`, `drawn`, single `reserve N`); the real choices are where to keep
a card that cannot be played (`keep N`) and which reserve card to play when several can go.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, Self, TypedDict

from engines.base import (
    CHANCE,
    N_,
    EndReason,
    Game,
    GameState,
    IllegalMove,
    Result,
    ResultDict,
    Why,
    choice_option,
)

# -- cards -----------------------------------------------------------------------------

RANKS = "A23456789TJQK"
"""Rank letters from low to high; T is the 10."""

SUITS = "SHDC"
"""Suit letters: spades, hearts, diamonds, clubs (suits never matter for play)."""

CARDS: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)
"""The 52 card kinds in notation order (rank, then suit)."""

CARD_INDEX: dict[str, int] = {card: index for index, card in enumerate(CARDS)}
RANK_OF: dict[str, int] = {card: RANKS.index(card[0]) + 1 for card in CARDS}
"""Rank of each card: Ace 1 … King 13."""

ACE, KING = 1, 13
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RANK_WORDS = {1: "Ace", 10: "10", 11: "Jack", 12: "Queen", 13: "King"}

# -- material and rules [seed] ---------------------------------------------------------

DECK_CHOICES = (2, 4, 6, 8)
"""Allowed values of the `decks` option (52-card decks in play)."""

DEFAULT_DECKS = 2
GRABUGE_SIZE = 8
"""Cards dealt from each talon into the grabuge at the start."""

DRAW_SIZE = 4
"""Cards taken from the talon at each turn (all of them when fewer remain)."""

RESERVE_COLUMNS = 4
"""Reserve columns per player; only the last card of a column can be played."""

GRABUGE_BONUS_PAQUETS = 2
"""Paquets scored by the first player to empty their grabuge before it became a talon."""

LEFTOVER_CARDS_PER_PAQUET = 5
"""At the end, one paquet to the player with fewer unplayed cards per full 5 of difference."""

# -- decisions ---------------------------------------------------------------------------

SETUP_ORDER = (0, 1)
"""[decision] Seat 0's grabuge is turned first (Aces cleared), then seat 1's."""

START_TIE_COIN = ((0, 0.5), (1, 0.5))
"""[decision] Equal turned ranks: a fair coin flip (chance node `first:0` / `first:1`)."""

PLAY_ON_OPPONENT_CARDS = False
"""[decision] A player never plays on or from the other player's grabuge, reserve or talon.

Recorded reading only: the engine has no such (Crapette) moves.
"""

SKIP_EMPTY_TURNS = True
"""[decision] A turn with nothing at all to do is skipped by the engine without a move.

False gives that player the turn all the same, to `pass` it (a forced move, logged): the
same game, one more move for each such turn.
"""

EQUAL_TOTALS_DRAW = True
"""[decision] Equal paquet totals at the end: a draw (both seats are winners). False settles
them: fewer unplayed cards wins, then more crowned piles; only a game equal on all three is
still drawn, nothing else telling the players apart."""

SETUP_EMPTIED_GRABUGE_SCORES = True
"""[decision] A grabuge emptied by set-up Aces (all placed on the tableau) was emptied by play
before it became a talon, so it scores the 2 grabuge paquets (the seed only says "épuise")."""

EMPTY_GRABUGE_START_RANK = 0
"""[decision] A grabuge emptied by set-up Aces shows no card: for who starts, it ranks below
an Ace (equal, both empty: the coin)."""

CARD_NOTATION = "rank then suit: ranks A 2 3 4 5 6 7 8 9 T J Q K (T = 10), suits S H D C"


def card_label(card: str) -> str:
    """A card for players: `Q♥`, `10♠`."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]


def rank_word(rank: int) -> str:
    """`Ace`, `7`, `Queen`."""
    return _RANK_WORDS.get(rank, str(rank))


def _a(rank: int) -> str:
    """`an Ace`, `an 8`, `a 7`."""
    word = rank_word(rank)
    return f"an {word}" if word[0] in "A8" else f"a {word}"


def _rank_kind(rank: int) -> str:
    """Which wording a rank takes in a sentence: `ace`, `jack`, `queen`, `an` (8) or `a`."""
    return {1: "ace", 11: "jack", 12: "queen", 8: "an"}.get(rank, "a")


_NO_PILE_SHOWS = {
    "ace": N_("no pile shows an Ace"),
    "jack": N_("no pile shows a Jack"),
    "queen": N_("no pile shows a Queen"),
    "an": N_("no pile shows an {rank}"),
    "a": N_("no pile shows a {rank}"),
}
"""Why a card cannot go on the tableau, by the wording of the rank below it."""



def _rank_why(templates: Mapping[str, str], rank: int, **params: object) -> Why:
    """The sentence of `templates` for `rank` (a number fills `{rank}`; Ace, Jack and Queen
    have their own sentences, so that no English word is a placeholder's value)."""
    kind = _rank_kind(rank)
    if kind in ("a", "an"):
        params["rank"] = rank_word(rank)
    return Why(templates[kind], params)


def no_pile_shows(card: str) -> Why:
    """`no pile shows a 6`: why `card` cannot go on the tableau."""
    return _rank_why(_NO_PILE_SHOWS, RANK_OF[card] - 1)


_DRAWN_BLOCKED = {
    "ace": N_("the {card} you turned cannot go on the tableau: no pile shows an Ace; put it on "
              "a reserve column (keep 1 to keep 4)"),
    "jack": N_("the {card} you turned cannot go on the tableau: no pile shows a Jack; put it "
               "on a reserve column (keep 1 to keep 4)"),
    "queen": N_("the {card} you turned cannot go on the tableau: no pile shows a Queen; put "
                "it on a reserve column (keep 1 to keep 4)"),
    "an": N_("the {card} you turned cannot go on the tableau: no pile shows an {rank}; put it "
             "on a reserve column (keep 1 to keep 4)"),
    "a": N_("the {card} you turned cannot go on the tableau: no pile shows a {rank}; put it "
            "on a reserve column (keep 1 to keep 4)"),
}

_GRABUGE_BLOCKED = {
    "ace": N_("the {card} on your grabuge cannot go on the tableau: no pile shows an Ace"),
    "jack": N_("the {card} on your grabuge cannot go on the tableau: no pile shows a Jack"),
    "queen": N_("the {card} on your grabuge cannot go on the tableau: no pile shows a Queen"),
    "an": N_("the {card} on your grabuge cannot go on the tableau: no pile shows an {rank}"),
    "a": N_("the {card} on your grabuge cannot go on the tableau: no pile shows a {rank}"),
}

_RESERVE_BLOCKED = {
    "ace": N_("the {card} at the end of reserve column {column} cannot go on the tableau: no "
              "pile shows an Ace (only the last card of a column can be played)"),
    "jack": N_("the {card} at the end of reserve column {column} cannot go on the tableau: no "
               "pile shows a Jack (only the last card of a column can be played)"),
    "queen": N_("the {card} at the end of reserve column {column} cannot go on the tableau: "
                "no pile shows a Queen (only the last card of a column can be played)"),
    "an": N_("the {card} at the end of reserve column {column} cannot go on the tableau: no "
             "pile shows an {rank} (only the last card of a column can be played)"),
    "a": N_("the {card} at the end of reserve column {column} cannot go on the tableau: no "
            "pile shows a {rank} (only the last card of a column can be played)"),
}

_NO_CARD_TURNED = {
    "coin": N_("no card is being turned now: the coin must decide who plays first"),
    "grabuge": N_("no card is being turned now: the grabuge's top card must be played"),
    "drawn": N_("no card is being turned now: the card just turned must be played"),
    "keep": N_("no card is being turned now: the card just turned must be kept on a reserve "
               "column"),
    "reserve": N_("no card is being turned now: a reserve card must be played"),
    "pass": N_("no card is being turned now: the turn must be passed (nothing to do)"),
}

_NO_COIN_FLIP = {
    "card": N_("there is no coin flip now: a card must be turned (a chance event)"),
    "grabuge": N_("there is no coin flip now: the grabuge's top card must be played"),
    "drawn": N_("there is no coin flip now: the card just turned must be played"),
    "keep": N_("there is no coin flip now: the card just turned must be kept on a reserve "
               "column"),
    "reserve": N_("there is no coin flip now: a reserve card must be played"),
    "pass": N_("there is no coin flip now: the turn must be passed (nothing to do)"),
}


# -- moves ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnCard:
    """Chance outcome: the next card turned (grabuge top or a card of the four drawn)."""

    card: str

    def __str__(self) -> str:
        return f"card:{self.card}"


@dataclass(frozen=True)
class CoinFlip:
    """Chance outcome: equal turned ranks, the coin says who plays first."""

    seat: int

    def __str__(self) -> str:
        return f"first:{self.seat}"


@dataclass(frozen=True)
class PlayGrabuge:
    """Play the grabuge's top card on the tableau."""

    def __str__(self) -> str:
        return "grabuge"


@dataclass(frozen=True)
class PlayDrawn:
    """Play the card just turned from the talon on the tableau."""

    def __str__(self) -> str:
        return "drawn"


@dataclass(frozen=True)
class PlayReserve:
    """Play the last card of reserve column `column` (1–4) on the tableau."""

    column: int

    def __str__(self) -> str:
        return f"reserve {self.column}"


@dataclass(frozen=True)
class KeepCard:
    """Put the card just turned (which cannot be played) on reserve column `column` (1–4)."""

    column: int

    def __str__(self) -> str:
        return f"keep {self.column}"


@dataclass(frozen=True)
class Pass:
    """Let the turn go with nothing at all to do (only when `SKIP_EMPTY_TURNS` is False)."""

    def __str__(self) -> str:
        return "pass"


_TURN_CARDS = {card: TurnCard(card) for card in CARDS}
"""One shared outcome object per card kind (outcome lists are rebuilt often)."""

GrabugeMove = TurnCard | CoinFlip | PlayGrabuge | PlayDrawn | PlayReserve | KeepCard | Pass
_MOVE_TYPES = (TurnCard, CoinFlip, PlayGrabuge, PlayDrawn, PlayReserve, KeepCard, Pass)

_CARD_RE = re.compile(r"^card\s*:\s*(10|[a2-9tjqk])\s*([shdc♠♥♦♣])$", re.IGNORECASE)
_FIRST_RE = re.compile(r"^first\s*:\s*(\d+)$", re.IGNORECASE)
_COLUMN_RE = re.compile(r"^(reserve|keep)\s*(\d+)$", re.IGNORECASE)
_SYMBOL_SUITS = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
_NOT_A_MOVE = N_("{text} is not a Grabuge move. Grabuge moves are: grabuge, drawn, reserve 1–4, "
                 "keep 1–4 (and the chance outcomes card:QH, first:0, first:1)")


def parse_notation(text: str) -> GrabugeMove:
    """Read a move's notation (case-insensitive, spaces allowed around separators)."""
    cleaned = text.strip()
    word = cleaned.lower()
    if word == "grabuge":
        return PlayGrabuge()
    if word == "drawn":
        return PlayDrawn()
    if word == "pass":
        return Pass()
    if match := _COLUMN_RE.match(cleaned):
        column = int(match[2])
        return PlayReserve(column) if match[1].lower() == "reserve" else KeepCard(column)
    if match := _CARD_RE.match(cleaned):
        rank = "T" if match[1] == "10" else match[1].upper()
        suit = _SYMBOL_SUITS.get(match[2], match[2].upper())
        return TurnCard(rank + suit)
    if match := _FIRST_RE.match(cleaned):
        seat = int(match[1])
        if seat not in (0, 1):
            raise IllegalMove(N_("the coin can only say first:0 or first:1, not first:{seat}"),
                              seat=seat)
        return CoinFlip(seat)
    if word.startswith("card"):
        raise IllegalMove(
            N_("{text} is not a card: write card: then the rank (A 2–9 T J Q K) and the suit "
               "(S H D C), like card:QH"), text=repr(cleaned))
    raise IllegalMove(_NOT_A_MOVE, text=repr(cleaned))


class Pending(StrEnum):
    """The chance event waiting to be resolved."""

    GRABUGE = "grabuge"  # turn the top card of the grabuge of `to_move`
    DRAWN = "drawn"  # turn the next of the four cards drawn by `to_move`
    COIN = "coin"  # equal ranks at the start: who plays first


# -- the view ---------------------------------------------------------------------------------


class GrabugePile(TypedDict):
    """A tableau pile inside the engine and in dumps."""

    id: int
    cards: list[str]
    """Bottom first; the top card is the last."""


class GrabugeLog(TypedDict):
    """One turn's log: its number, whose turn (None during set-up), its events in order.

    An event is a dict whose "event" key names it ("turned", "played", "kept", "drew",
    "first", "skipped", "passed", "grabuge_emptied", "grabuge_to_talon", "game_over"); the
    other keys depend on the event.
    """

    turn: int
    seat: int | None
    events: list[dict[str, Any]]


class GrabugeTurnView(TypedDict):
    """The turn number and whose turn it is (None during set-up)."""

    number: int
    seat: int | None


# "for" is a keyword, hence the functional form.
GrabugeTurningView = TypedDict(
    "GrabugeTurningView", {"seat": int, "for": str, "setup": bool}
)
"""A card being turned: by whom, "for" the grabuge or the drawn card, during set-up or not."""


class GrabugePlacingView(TypedDict):
    """The card just turned from the talon, waiting to be played or kept."""

    seat: int
    card: str
    playable: bool
    pile: int | None


class GrabugePileView(TypedDict):
    """A tableau pile as players see it."""

    id: int
    cards: list[str]
    top: str
    count: int
    needs: str
    """The rank letter that goes on it next."""


class GrabugeGrabugeView(TypedDict):
    """A player's grabuge: the face-up top, the cards under it."""

    top: str | None
    under: int
    count: int
    became_talon: bool
    playable: bool


class GrabugePaquetsView(TypedDict):
    """A player's paquets, by origin."""

    crowned: int
    grabuge_bonus: int
    leftover: int
    total: int


class GrabugePlayerView(TypedDict):
    """One seat's cards."""

    seat: int
    grabuge: GrabugeGrabugeView
    talon: int
    reserve: list[list[str]]
    playable_columns: list[int]
    paquets: GrabugePaquetsView
    unplayed: int


class GrabugeView(TypedDict):
    """What `GrabugeState.view` returns (the same for every seat)."""

    game: Literal["grabuge"]
    viewer: int | None
    decks: int
    card_notation: str
    current_player: int | None
    phase: str
    turn: GrabugeTurnView
    awaiting: str | None
    turning: GrabugeTurningView | None
    placing: GrabugePlacingView | None
    hand_face_down: int
    tableau: list[GrabugePileView]
    players: list[GrabugePlayerView]
    grabuge_bonus_seat: int | None
    unseen: int
    log: GrabugeLog
    previous_log: GrabugeLog | None
    result: ResultDict | None


# -- the state --------------------------------------------------------------------------------


class GrabugeState(GameState[GrabugeMove, GrabugeView]):
    """A game of Grabuge: shared tableau piles, and per seat a talon, a grabuge and a reserve."""

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, options)
        decks: int = self.options["decks"]
        self.unseen: list[int] = [decks] * len(CARDS)
        """Copies of each card kind not yet turned face up (lazy dealing)."""
        self.unseen_total = decks * len(CARDS)
        self.piles: list[GrabugePile] = []
        """Tableau piles, oldest first: {"id": n, "cards": [bottom … top]}."""
        self.next_pile_id = 1
        self._tops: set[int] | None = None
        per_seat = decks * len(CARDS) // 2
        self.talon = [per_seat - GRABUGE_SIZE] * 2
        """Face-down talon cards per seat (the ex-grabuge's cards once it became the talon)."""
        self.grabuge_top: list[str | None] = [None, None]
        self.grabuge_down = [GRABUGE_SIZE] * 2
        self.grabuge_became_talon = [False, False]
        self.reserves: list[list[list[str]]] = [
            [[] for _ in range(RESERVE_COLUMNS)] for _ in range(2)
        ]
        self.crowned = [0, 0]
        self.bonus_seat: int | None = None
        self.leftover_paquets = [0, 0]
        self.hand = 0
        """Cards of the current four still face down (belong to `to_move`)."""
        self.drawn: str | None = None
        """The card just turned from the talon, waiting to be played or kept."""
        self.drew = False
        """Whether `to_move` has done this turn's draw step."""
        self.passing = False
        """`to_move` has nothing at all to do and must `pass` (`SKIP_EMPTY_TURNS` False)."""
        self.setup = True
        self.to_move = SETUP_ORDER[0]
        self.pending: Pending | None = Pending.GRABUGE
        self.turn = 0
        self.log: GrabugeLog = {"turn": 0, "seat": None, "events": []}
        self.previous_log: GrabugeLog | None = None
        self.event_count = 0
        self._result: Result | None = None

    # -- queries for the UI and the bot -------------------------------------------------

    @property
    def current_player(self) -> int | None:
        if self._result is not None:
            return None
        return CHANCE if self.pending is not None else self.to_move

    def result(self) -> Result | None:
        return self._result

    def decision(self) -> str | None:
        """What the next move is: card, coin, grabuge, drawn, keep, reserve, pass, or None at
        the end."""
        if self._result is not None:
            return None
        if self.pending is Pending.COIN:
            return "coin"
        if self.pending is not None:
            return "card"
        if self.passing:
            return "pass"
        if self.drawn is not None:
            return "drawn" if self.can_play(self.drawn) else "keep"
        return "grabuge" if self._grabuge_playable(self.to_move) else "reserve"

    def can_play(self, card: str) -> bool:
        """True when `card` can go on the tableau now (an Ace always can)."""
        rank = RANK_OF[card]
        return rank == ACE or rank - 1 in self._top_ranks()

    def _top_ranks(self) -> set[int]:
        """Ranks showing on top of the tableau's piles (cached until the tableau changes)."""
        if self._tops is None:
            self._tops = {RANK_OF[pile["cards"][-1]] for pile in self.piles}
        return self._tops

    def pile_for(self, card: str) -> int | None:
        """Id of the pile `card` would go on (the oldest that fits); None for an Ace or no pile."""
        rank = RANK_OF[card]
        if rank == ACE:
            return None
        for pile in self.piles:
            if RANK_OF[pile["cards"][-1]] == rank - 1:
                return pile["id"]
        return None

    def playable_columns(self, seat: int | None = None) -> list[int]:
        """Reserve columns (1–4) of `seat` (default: the player to move) whose last card can go."""
        seat = self.to_move if seat is None else seat
        return [
            number
            for number, column in enumerate(self.reserves[seat], start=1)
            if column and self.can_play(column[-1])
        ]

    def grabuge_count(self, seat: int) -> int:
        """Cards in `seat`'s grabuge, face-up top included."""
        return self.grabuge_down[seat] + (self.grabuge_top[seat] is not None)

    def unplayed_cards(self, seat: int) -> int:
        """Cards `seat` has not placed on the tableau: talon, grabuge, reserve, cards in hand."""
        count = self.talon[seat] + self.grabuge_count(seat)
        count += sum(len(column) for column in self.reserves[seat])
        if seat == self.to_move and not self.setup:
            count += self.hand + (self.drawn is not None)
        return count

    def paquets(self, seat: int) -> int:
        """Paquets `seat` holds now: crowned piles, grabuge bonus, leftover paquets (at the end)."""
        bonus = GRABUGE_BONUS_PAQUETS if self.bonus_seat == seat else 0
        return self.crowned[seat] + bonus + self.leftover_paquets[seat]

    def card_of(self, move: Any) -> str | None:
        """The card a player move would play or keep now (None for a chance outcome)."""
        if isinstance(move, str):
            move = parse_notation(move)
        if isinstance(move, TurnCard):
            return move.card
        if isinstance(move, PlayGrabuge):
            return self.grabuge_top[self.to_move]
        if isinstance(move, PlayDrawn | KeepCard):
            return self.drawn
        if isinstance(move, PlayReserve) and 1 <= move.column <= RESERVE_COLUMNS:
            column = self.reserves[self.to_move][move.column - 1]
            return column[-1] if column else None
        return None

    def describe(self, move: Any) -> str:
        """Plain words for a legal move about to be applied, for the game log."""
        if isinstance(move, str):
            move = parse_notation(move)
        if isinstance(move, CoinFlip):
            return f"the coin says seat {move.seat} plays first"
        if isinstance(move, Pass):
            return "passes: nothing at all to do"
        card = self.card_of(move)
        label = card_label(card) if card else "?"
        if isinstance(move, TurnCard):
            where = "the grabuge" if self.pending is Pending.GRABUGE else "the talon"
            return f"turns {label} from {where}"
        if isinstance(move, KeepCard):
            return f"keeps {label} on reserve column {move.column}"
        source = {PlayGrabuge: "the grabuge", PlayDrawn: "the talon"}.get(type(move))
        if source is None:
            source = f"reserve column {getattr(move, 'column', '?')}"
        return f"plays {label} from {source}" + self._onto_words(card)

    def _onto_words(self, card: str | None) -> str:
        if card is None or not self.can_play(card):
            return ""
        if RANK_OF[card] == ACE:
            return " to start a new pile"
        if RANK_OF[card] == KING:
            return " and crowns a pile: one paquet"
        return f" on {_a(RANK_OF[card] - 1)}"

    def _grabuge_playable(self, seat: int) -> bool:
        top = self.grabuge_top[seat]
        return not self.grabuge_became_talon[seat] and top is not None and self.can_play(top)

    def _cascade_moves(self, seat: int) -> list[GrabugeMove]:
        """The grabuge first; else every reserve column whose last card can go."""
        if self._grabuge_playable(seat):
            return [PlayGrabuge()]
        return [PlayReserve(number) for number in self.playable_columns(seat)]

    def _has_something_to_do(self, seat: int) -> bool:
        return bool(
            self._cascade_moves(seat) or self.talon[seat] or self.grabuge_count(seat)
        )

    # -- moves ---------------------------------------------------------------------------

    def _legal_moves(self) -> list[GrabugeMove]:
        if self.pending is Pending.COIN:
            return [CoinFlip(seat) for seat, _ in START_TIE_COIN]
        if self.pending is not None:
            counts = zip(CARDS, self.unseen, strict=True)
            return [_TURN_CARDS[card] for card, count in counts if count]
        if self.passing:
            return [Pass()]
        if self.drawn is not None:
            if self.can_play(self.drawn):
                return [PlayDrawn()]
            return [KeepCard(number) for number in range(1, RESERVE_COLUMNS + 1)]
        return self._cascade_moves(self.to_move)

    def chance_outcomes(self) -> list[tuple[GrabugeMove, float]]:
        """Cards by copies unseen over cards unseen; the coin 50/50."""
        if self.current_player != CHANCE:
            raise IllegalMove(N_("there is no random event to resolve now"))
        if self.pending is Pending.COIN:
            return [(CoinFlip(seat), chance) for seat, chance in START_TIE_COIN]
        total = self.unseen_total
        counts = zip(CARDS, self.unseen, strict=True)
        return [(_TURN_CARDS[card], count / total) for card, count in counts if count]

    def parse_move(self, text: str) -> GrabugeMove:
        return parse_notation(text)

    def _checked(self, move: GrabugeMove | str) -> GrabugeMove:
        # A turned card is checked against the unseen counts, not a list of 52 outcomes.
        if self.is_over():
            raise IllegalMove(N_("the game is over"))
        parsed = self.parse_move(move) if isinstance(move, str) else move
        if isinstance(parsed, TurnCard):
            index = CARD_INDEX.get(parsed.card)
            if index is None:
                raise IllegalMove(N_("{card} is not a card (rank then suit: ranks A 2 3 4 5 6 7 8 "
                                     "9 T J Q K (T = 10), suits S H D C)"),
                                  card=repr(parsed.card))
            if self.pending in (Pending.GRABUGE, Pending.DRAWN) and self.unseen[index]:
                return parsed
        elif parsed in self._legal_moves():
            return parsed
        raise IllegalMove(self._why_illegal(parsed))

    def _why_illegal(self, move: Any) -> Why:
        if not isinstance(move, _MOVE_TYPES):
            return Why(N_("{move} is not a Grabuge move"), {"move": repr(move)})
        pending = self.pending
        awaiting = self.decision() or ""
        if isinstance(move, TurnCard):
            if pending not in (Pending.GRABUGE, Pending.DRAWN):
                return Why(_NO_CARD_TURNED.get(awaiting, N_("the game is over")))
            decks: int = self.options["decks"]
            return Why(N_("every {card} has already been turned up ({decks} decks hold {decks})"),
                       {"card": card_label(move.card), "decks": decks})
        if isinstance(move, CoinFlip):
            if pending is not Pending.COIN:
                return Why(_NO_COIN_FLIP.get(awaiting, N_("the game is over")))
            return Why(N_("the coin says first:0 or first:1"))
        if pending is Pending.COIN:
            return Why(N_("the coin must first decide who plays first (equal turned cards)"))
        if pending is not None:
            return Why(N_("a card must be turned first (a chance event the bot resolves)"))
        if isinstance(move, PlayReserve | KeepCard) and not 1 <= move.column <= RESERVE_COLUMNS:
            return Why(N_("there are only {count} reserve columns, numbered 1 to 4"),
                       {"count": RESERVE_COLUMNS})
        return self._why_illegal_play(move)

    def _why_illegal_play(self, move: GrabugeMove) -> Why:
        seat, drawn = self.to_move, self.drawn
        if self.passing:
            return Why(N_("you have nothing at all to do this turn: pass"))
        if isinstance(move, Pass):
            return Why(N_("a turn is passed only when there is nothing at all to do"))
        if isinstance(move, KeepCard):
            if drawn is None:
                return Why(N_("you have no card just turned: only a card turned from the talon "
                              "is kept"))
            return Why(N_("the {card} you turned can go on the tableau, so it must be played "
                          "there (drawn)"), {"card": card_label(drawn)})
        if isinstance(move, PlayDrawn):
            if drawn is None:
                return Why(N_("you have no card just turned from the talon to play"))
            return self._blocked(_DRAWN_BLOCKED, drawn)
        if drawn is not None:
            if self.can_play(drawn):
                return Why(N_("first place the {card} you just turned: play it (drawn)"),
                           {"card": card_label(drawn)})
            return Why(N_("first place the {card} you just turned: keep it (keep 1 to keep 4)"),
                       {"card": card_label(drawn)})
        top = self.grabuge_top[seat]
        if isinstance(move, PlayGrabuge):
            if self.grabuge_became_talon[seat]:
                return Why(N_("your grabuge has become your talon: it is drawn four at a time "
                              "now"))
            if top is None:
                return Why(N_("your grabuge is empty"))
            return self._blocked(_GRABUGE_BLOCKED, top)
        if isinstance(move, PlayReserve):
            if self._grabuge_playable(seat) and top is not None:
                return Why(N_("your grabuge's {card} can go on the tableau, and the grabuge "
                              "always plays first"), {"card": card_label(top)})
            column = self.reserves[seat][move.column - 1]
            if not column:
                return Why(N_("reserve column {column} is empty"), {"column": move.column})
            return self._blocked(_RESERVE_BLOCKED, column[-1], column=move.column)
        return Why(N_("that move is not possible now"))

    def _blocked(self, templates: Mapping[str, str], card: str, **params: object) -> Why:
        """Why `card` cannot go on the tableau, in the sentence of `templates`."""
        return _rank_why(templates, RANK_OF[card] - 1, card=card_label(card), **params)

    def _play(self, move: GrabugeMove) -> None:
        seat = self.to_move
        if isinstance(move, TurnCard):
            self._reveal(move.card)
        elif isinstance(move, CoinFlip):
            self._log({"event": "first", "seat": move.seat, "by": "coin"})
            self._begin(move.seat)
        elif isinstance(move, PlayGrabuge):
            card = self.grabuge_top[seat]
            assert card is not None
            self.grabuge_top[seat] = None
            self._place(card, seat, "grabuge")
            self._after_grabuge_card_left(seat)
        elif isinstance(move, PlayDrawn):
            assert self.drawn is not None
            card, self.drawn = self.drawn, None
            self._place(card, seat, "drawn")
        elif isinstance(move, PlayReserve):
            card = self.reserves[seat][move.column - 1].pop()
            self._place(card, seat, "reserve", move.column)
        elif isinstance(move, Pass):
            self.passing = False
            self._log({"event": "passed", "seat": seat})
            self._end_turn()
        else:
            assert self.drawn is not None
            self.reserves[seat][move.column - 1].append(self.drawn)
            self._log({"event": "kept", "seat": seat, "card": self.drawn, "column": move.column})
            self.drawn = None
        self._advance()

    def _reveal(self, card: str) -> None:
        """A chance card: the new grabuge top (set-up or play) or the next of the four."""
        self.unseen[CARD_INDEX[card]] -= 1
        self.unseen_total -= 1
        seat = self.to_move
        if self.pending is Pending.DRAWN:
            self.pending = None
            self.hand -= 1
            self.drawn = card
            self._log({"event": "turned", "seat": seat, "card": card, "to": "drawn"})
            return
        self.pending = None
        self.grabuge_down[seat] -= 1
        self._log({"event": "turned", "seat": seat, "card": card, "to": "grabuge"})
        if not self.setup:
            self.grabuge_top[seat] = card
            return
        if RANK_OF[card] == ACE:
            # Set-up Aces go to the tableau without a move; the next card is turned.
            self._place(card, seat, "setup")
            if self.grabuge_down[seat]:
                self.pending = Pending.GRABUGE
                return
            if SETUP_EMPTIED_GRABUGE_SCORES:
                self._after_grabuge_card_left(seat)
        else:
            self.grabuge_top[seat] = card
        self._next_setup_seat()

    def _next_setup_seat(self) -> None:
        if self.to_move == SETUP_ORDER[0]:
            self.to_move = SETUP_ORDER[1]
            self.pending = Pending.GRABUGE
            return
        ranks = [
            RANK_OF[top] if top is not None else EMPTY_GRABUGE_START_RANK
            for top in self.grabuge_top
        ]
        if ranks[0] == ranks[1]:
            self.pending = Pending.COIN
            return
        first = 0 if ranks[0] > ranks[1] else 1
        self._log({"event": "first", "seat": first, "by": "cards"})
        self._begin(first)

    def _begin(self, first: int) -> None:
        self.setup = False
        self.pending = None
        self._start_turn(first)

    def _after_grabuge_card_left(self, seat: int) -> None:
        """Turn the next grabuge card, or score the bonus when the grabuge is now empty."""
        if self.grabuge_down[seat]:
            self.pending = Pending.GRABUGE
            return
        bonus = self.bonus_seat is None and not self.grabuge_became_talon[seat]
        if bonus:
            self.bonus_seat = seat
        self._log({"event": "grabuge_emptied", "seat": seat, "bonus": bonus})

    def _place(self, card: str, seat: int, source: str, column: int | None = None) -> None:
        """Put `card` on the tableau; a King crowns its pile, won by `seat`."""
        rank = RANK_OF[card]
        onto: str | None = None
        self._tops = None
        if rank == ACE:
            pile: GrabugePile = {"id": self.next_pile_id, "cards": [card]}
            self.next_pile_id += 1
            self.piles.append(pile)
        else:
            pile = next(p for p in self.piles if RANK_OF[p["cards"][-1]] == rank - 1)
            onto = pile["cards"][-1]
            pile["cards"].append(card)
        event: dict[str, Any] = {
            "event": "played", "seat": seat, "card": card, "from": source,
            "pile": pile["id"], "onto": onto,
        }
        if column is not None:
            event["column"] = column
        if rank == KING:
            self.piles.remove(pile)
            self.crowned[seat] += 1
            event["crowned"] = True
        self._log(event)

    def _advance(self) -> None:
        """Run the automatic steps until a move or chance outcome is needed, or the end."""
        while (self._result is None and self.pending is None and not self.setup
               and not self.passing):
            seat = self.to_move
            if self.drawn is not None or self._cascade_moves(seat):
                return
            if self.hand:
                self.pending = Pending.DRAWN
                return
            if not self.drew:
                self.drew = True
                if self._draw(seat):
                    continue
            self._end_turn()

    def _draw(self, seat: int) -> bool:
        """Step 2: take four (or all that remain); False when there is nothing to draw."""
        if self.talon[seat] == 0 and self.grabuge_count(seat):
            # The grabuge becomes the talon; its face-up card is the first of the four.
            top = self.grabuge_top[seat]
            assert top is not None
            size = self.grabuge_count(seat)
            taken = min(DRAW_SIZE, size)
            self.talon[seat] = size - taken
            self.grabuge_top[seat], self.grabuge_down[seat] = None, 0
            self.grabuge_became_talon[seat] = True
            self.hand, self.drawn = taken - 1, top
            self._log({"event": "grabuge_to_talon", "seat": seat, "cards": size})
            self._log({"event": "drew", "seat": seat, "count": taken})
            self._log({"event": "turned", "seat": seat, "card": top, "to": "drawn"})
            return True
        if self.talon[seat] == 0:
            return False
        taken = min(DRAW_SIZE, self.talon[seat])
        self.talon[seat] -= taken
        self.hand = taken
        self._log({"event": "drew", "seat": seat, "count": taken})
        return True

    def _start_turn(self, seat: int) -> None:
        self.previous_log = self.log
        self.turn += 1
        self.log = {"turn": self.turn, "seat": seat, "events": []}
        self.to_move, self.drew, self.hand = seat, False, 0

    def _end_turn(self) -> None:
        """Pass the turn; skip a player with nothing to do; end when neither has anything."""
        seat = self.to_move
        for following in (1 - seat, seat):
            if self._has_something_to_do(following):
                if following == seat and not SKIP_EMPTY_TURNS:
                    # The idle player's turn comes all the same: they pass it.
                    self._start_turn(1 - seat)
                    self.passing = True
                    return
                self._start_turn(following)
                if following == seat:
                    self._log({"event": "skipped", "seat": 1 - seat})
                return
        self._finish()

    def _finish(self) -> None:
        left = [self.unplayed_cards(seat) for seat in (0, 1)]
        difference = abs(left[0] - left[1])
        if difference:
            fewer = 0 if left[0] < left[1] else 1
            self.leftover_paquets[fewer] = difference // LEFTOVER_CARDS_PER_PAQUET
        scores = [self.paquets(seat) for seat in (0, 1)]
        # What ranks the seats: paquets, then (when equal totals are settled) fewer cards
        # left and more piles crowned.
        ranks = [(scores[seat],) if EQUAL_TOTALS_DRAW else
                 (scores[seat], -left[seat], self.crowned[seat]) for seat in (0, 1)]
        if ranks[0] == ranks[1]:
            self._result = Result([0, 1], scores, EndReason.DRAW)
        else:
            self._result = Result([0 if ranks[0] > ranks[1] else 1], scores, EndReason.PAQUETS)
        self._log({"event": "game_over", "unplayed": left, "scores": scores})

    def _log(self, event: dict[str, Any]) -> None:
        event["n"] = self.event_count
        self.event_count += 1
        self.log["events"].append(event)

    # -- views and dumps -----------------------------------------------------------------

    def view(self, seat: int | None) -> GrabugeView:
        # Every card a seat may see is face up for both: the view is the same for all seats.
        pending = self.pending
        turning: GrabugeTurningView | None = None
        if pending in (Pending.GRABUGE, Pending.DRAWN):
            turning = {"seat": self.to_move, "for": pending.value, "setup": self.setup}
        drawn = self.drawn
        return {
            "game": "grabuge",
            "viewer": seat,
            "decks": self.options["decks"],
            "card_notation": CARD_NOTATION,
            "current_player": self.current_player,
            "phase": "over" if self._result else "setup" if self.setup else "play",
            "turn": {"number": self.turn, "seat": None if self.setup else self.to_move},
            "awaiting": self.decision(),
            "turning": turning,
            "placing": None if drawn is None else {
                "seat": self.to_move, "card": drawn, "playable": self.can_play(drawn),
                "pile": self.pile_for(drawn),
            },
            "hand_face_down": self.hand,
            "tableau": [
                {
                    "id": pile["id"], "cards": list(pile["cards"]), "top": pile["cards"][-1],
                    "count": len(pile["cards"]), "needs": RANKS[RANK_OF[pile["cards"][-1]]],
                }
                for pile in self.piles
            ],
            "players": [self._player_view(player) for player in (0, 1)],
            "grabuge_bonus_seat": self.bonus_seat,
            "unseen": self.unseen_total,
            "log": _copy_log(self.log),
            "previous_log": _copy_log(self.previous_log) if self.previous_log else None,
            "result": self._result.to_dict() if self._result else None,
        }

    def _player_view(self, seat: int) -> GrabugePlayerView:
        return {
            "seat": seat,
            "grabuge": {
                "top": self.grabuge_top[seat],
                "under": self.grabuge_down[seat],
                "count": self.grabuge_count(seat),
                "became_talon": self.grabuge_became_talon[seat],
                "playable": self._grabuge_playable(seat),
            },
            "talon": self.talon[seat],
            "reserve": [list(column) for column in self.reserves[seat]],
            "playable_columns": self.playable_columns(seat),
            "paquets": {
                "crowned": self.crowned[seat],
                "grabuge_bonus": GRABUGE_BONUS_PAQUETS if self.bonus_seat == seat else 0,
                "leftover": self.leftover_paquets[seat],
                "total": self.paquets(seat),
            },
            "unplayed": self.unplayed_cards(seat),
        }

    def _dump_state(self) -> dict[str, Any]:
        return {
            "unseen": list(self.unseen),
            "piles": [{"id": p["id"], "cards": list(p["cards"])} for p in self.piles],
            "next_pile_id": self.next_pile_id,
            "talon": list(self.talon),
            "grabuge_top": list(self.grabuge_top),
            "grabuge_down": list(self.grabuge_down),
            "grabuge_became_talon": list(self.grabuge_became_talon),
            "reserves": [[list(c) for c in columns] for columns in self.reserves],
            "crowned": list(self.crowned),
            "bonus_seat": self.bonus_seat,
            "leftover_paquets": list(self.leftover_paquets),
            "hand": self.hand,
            "drawn": self.drawn,
            "drew": self.drew,
            "passing": self.passing,
            "setup": self.setup,
            "to_move": self.to_move,
            "pending": self.pending.value if self.pending else None,
            "turn": self.turn,
            "log": _copy_log(self.log),
            "previous_log": _copy_log(self.previous_log) if self.previous_log else None,
            "event_count": self.event_count,
            "result": self._result.to_dict() if self._result else None,
        }

    def _load_state(self, data: Mapping[str, Any], share_events: bool = False) -> None:
        self.unseen = [int(count) for count in data["unseen"]]
        if len(self.unseen) != len(CARDS):
            raise ValueError("a Grabuge dump counts the unseen copies of all 52 cards")
        self.unseen_total = sum(self.unseen)
        self.piles = [{"id": p["id"], "cards": list(p["cards"])} for p in data["piles"]]
        self.next_pile_id = data["next_pile_id"]
        self._tops = None
        self.talon = list(data["talon"])
        self.grabuge_top = list(data["grabuge_top"])
        self.grabuge_down = list(data["grabuge_down"])
        self.grabuge_became_talon = list(data["grabuge_became_talon"])
        self.reserves = [[list(c) for c in columns] for columns in data["reserves"]]
        self.crowned = list(data["crowned"])
        self.bonus_seat = data["bonus_seat"]
        self.leftover_paquets = list(data["leftover_paquets"])
        self.hand = data["hand"]
        self.drawn = data["drawn"]
        self.drew = data["drew"]
        self.passing = data.get("passing", False)  # absent from dumps made before `pass`
        self.setup = data["setup"]
        self.to_move = data["to_move"]
        self.pending = Pending(data["pending"]) if data["pending"] else None
        self.turn = data["turn"]
        # A clone may share the (never changed) events; data from outside is copied.
        own = _copy_log if share_events else _own_log
        self.log = own(data["log"])
        self.previous_log = own(data["previous_log"]) if data["previous_log"] else None
        self.event_count = data["event_count"]
        self._result = Result.from_dict(data["result"]) if data["result"] else None

    def clone(self) -> Self:
        """An independent copy (through the dump: much cheaper than a deep copy)."""
        copy = type(self)(self.num_players, self.options)
        copy._load_state(self._dump_state(), share_events=True)
        return copy


def _copy_log(log: Mapping[str, Any]) -> GrabugeLog:
    # Events are never changed once logged, so copies share them (dumps stay cheap).
    return {"turn": log["turn"], "seat": log["seat"], "events": list(log["events"])}


def _own_log(log: Mapping[str, Any]) -> GrabugeLog:
    """A log read from outside: fresh event dicts, so the caller's data is never shared."""
    events = [
        {key: list(value) if isinstance(value, list) else value for key, value in event.items()}
        for event in log["events"]
    ]
    return {"turn": log["turn"], "seat": log["seat"], "events": events}


GRABUGE = Game(
    id="grabuge",
    name="Le Grabuge",
    min_players=2,
    max_players=2,
    state_class=GrabugeState,
    option_specs={
        "decks": choice_option(
            N_("number of 52-card decks shuffled together"),
            DEFAULT_DECKS,
            DECK_CHOICES,
            label=N_("decks of 52 cards"),
        ),
    },
)
