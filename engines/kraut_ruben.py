"""Kraut & Rüben: plant tiles from a bag in shared gardens; score yours by a secret contract."""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from itertools import chain
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

# -- material ----------------------------------------------------------------------------


class Tile(StrEnum):
    """Every kind of tile that can lie in a bed (the mole never comes from the bag)."""

    TOMATO = "tomato"
    ASPARAGUS = "asparagus"
    CARROT = "carrot"
    LETTUCE = "lettuce"
    CLOVER = "clover"
    DANDELION = "dandelion"
    SNAIL = "snail"
    MOLE = "mole"

    @property
    def plural(self) -> str:
        """English plural, for score lines."""
        return {"tomato": "tomatoes", "asparagus": "asparagus"}.get(self.value, f"{self.value}s")

    def counted(self, count: int) -> str:
        """`3 tomatoes`, `1 snail`."""
        return f"{count} {self.value if count == 1 else self.plural}"


TILES: dict[str, Tile] = {tile.value: tile for tile in Tile}
"""Tiles by name."""

VEGETABLES = (Tile.TOMATO, Tile.ASPARAGUS, Tile.CARROT, Tile.LETTUCE)
"""The four vegetables a contract is written with."""

PLANTS = frozenset((*VEGETABLES, Tile.CLOVER, Tile.DANDELION))
"""Tiles planted on an empty bed; a snail or a mole covers one of these."""

COVERS = frozenset((Tile.SNAIL, Tile.MOLE))
"""Tiles that go on top of another tile."""

BAG_COUNTS: dict[Tile, int] = {
    Tile.TOMATO: 16,
    Tile.ASPARAGUS: 16,
    Tile.CARROT: 16,
    Tile.LETTUCE: 16,
    Tile.CLOVER: 7,
    Tile.DANDELION: 7,
    Tile.SNAIL: 7,
}
"""The 85 tiles in the bag at the start of each game [seed]."""

BAG_ORDER = tuple(BAG_COUNTS)
"""Order in which draw outcomes and bag counts are listed."""

ROWS = "ABC"
COLUMNS = 4
BEDS_PER_GARDEN = len(ROWS) * COLUMNS
MAX_SNAILS_PER_GARDEN = 2
MAX_MOLES_PER_GARDEN = 2
CUP_POINTS = 3
"""The cup of the three-game variant: +3 points to the first taker of each game [seed]."""

TILE_ALIASES: dict[str, Tile] = {
    **{tile.value: tile for tile in Tile if tile is not Tile.MOLE},
    **{tile.plural: tile for tile in Tile if tile is not Tile.MOLE},
    "salad": Tile.LETTUCE,
    "tomate": Tile.TOMATO,
    "asperge": Tile.ASPARAGUS,
    "carotte": Tile.CARROT,
    "salade": Tile.LETTUCE,
    "trefle": Tile.CLOVER,
    "trèfle": Tile.CLOVER,
    "pissenlit": Tile.DANDELION,
    "escargot": Tile.SNAIL,
}
"""Names accepted after `draw:` (English canonical, French tolerated)."""

# -- contracts and points [decision, anchored on the seed's two data points] ----------------

HIGH_PLUS_POINTS = (2, 3, 4, 3, 2, 1, 0)
"""[decision] Points per high plus vegetable for 0, 1, 2, 3, 4, 5, 6+ main vegetables."""

LOW_PLUS_POINTS = (1, 2, 3, 2, 1, 0, 0)
"""[decision] Points per low plus vegetable for 0, 1, 2, 3, 4, 5, 6+ main vegetables."""

MAIN_POINTS = 0
MINUS_POINTS = -2
FIXED_POINTS: dict[Tile, int] = {Tile.CLOVER: 1, Tile.DANDELION: 0, Tile.SNAIL: -1, Tile.MOLE: 0}
"""Points of the tiles every contract scores alike [seed]."""


class KrautRubenContractView(TypedDict):
    """A contract card as views and records show it, with its point rows."""

    number: int
    main: str
    high: str
    low: str
    minus: str
    high_points: list[int]
    low_points: list[int]
    minus_points: int


class KrautRubenScoreLine(TypedDict):
    """One line of a garden's score: a kind of tile, its role, how many, the points."""

    tile: str
    role: str
    """"main", "high", "low", "minus" or "fixed"."""
    count: int
    each: int
    points: int
    text: str


class KrautRubenScore(TypedDict):
    """A garden scored with a contract, line by line (`score_tiles`)."""

    contract: int
    main: str
    main_count: int
    column: int
    lines: list[KrautRubenScoreLine]
    total: int


class KrautRubenGardenRecord(TypedDict):
    """A garden at the end of a game, scored with its owner's contract."""

    number: int
    owner: int | None
    grid: list[list[list[str]]]
    score: KrautRubenScore | None


class KrautRubenPlayerRecord(TypedDict):
    """A player at the end of a game: contract revealed, points, cup, total."""

    seat: int
    contract: KrautRubenContractView | None
    gardens: list[int]
    points: int
    cup: int
    total: int


class KrautRubenGameRecord(TypedDict):
    """A finished game of a match (`KrautRubenView["games"]`, `["final"]`)."""

    game_number: int
    reason: str
    take_order: list[int]
    cup: int | None
    players: list[KrautRubenPlayerRecord]
    gardens: list[KrautRubenGardenRecord]


@dataclass(frozen=True)
class Contract:
    """A secret contract: the main vegetable sets the column; high and low score; minus costs."""

    number: int
    main: Tile
    high: Tile
    low: Tile
    minus: Tile

    def to_dict(self) -> KrautRubenContractView:
        """JSON-safe form, with the point rows a renderer needs to draw the card."""
        return {
            "number": self.number,
            "main": str(self.main),
            "high": str(self.high),
            "low": str(self.low),
            "minus": str(self.minus),
            "high_points": list(HIGH_PLUS_POINTS),
            "low_points": list(LOW_PLUS_POINTS),
            "minus_points": MINUS_POINTS,
        }


_T, _A, _C, _L = VEGETABLES
CONTRACTS: tuple[Contract, ...] = tuple(
    Contract(number, *row)
    for number, row in enumerate(
        (
            (_T, _L, _C, _A),
            (_T, _A, _L, _C),
            (_T, _C, _A, _L),
            (_A, _T, _L, _C),
            (_A, _C, _T, _L),
            (_A, _L, _C, _T),
            (_C, _A, _T, _L),
            (_C, _L, _A, _T),
            (_C, _T, _L, _A),
            (_L, _C, _A, _T),
            (_L, _T, _C, _A),
            (_L, _A, _T, _C),
        ),
        start=1,
    )
)
"""[decision] The 12 contract cards: (number, main, high, low, minus), the one table of them."""

# -- decisions ----------------------------------------------------------------------------

COVERS_MAY_COVER_COVERS = False
"""[decision] A snail or a mole covers a vegetable, clover or dandelion, never a snail or mole."""

UNPLACEABLE_PLANT_IS_DISCARDED = True
"""[decision] A drawn vegetable, clover or dandelion with no legal bed is discarded.

Structural: putting it back in the bag instead could stall a game whose gardens are full.
"""

FORCED_TAKE_WHEN_UNOWNED_GARDENS_FULL = True
"""[decision] A player short of gardens must take one when every unowned garden is full.

(With an empty bag the take is always forced: it is how rule 7 gives everyone a garden.)
"""

MOLES_PLAYED_OUT_AFTER_BAG_EMPTY = True
"""[decision] Once the bag is empty, players still holding a usable mole keep their turns.

Such a turn can only be the mole; the game ends when nobody can place anything. False:
the game ends once the bag is empty and everyone has their gardens.
"""

FULL_UNOWNED_GARDEN_TAKES_COVERS = True
"""[decision] A full garden nobody owns still takes snails and moles.

The seed closes a full garden to "the other players", i.e. an owned one.
"""

TWO_PLAYER_GARDENS_SCORED_SEPARATELY = True
"""[decision] Two players: each garden is scored on its own (own column) and the two added."""

MATCH_TIE_IS_SHARED = True
"""[decision] A tie on the three-game total is a shared win (False: first taker of game 3)."""


# -- beds and moves -------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Bed:
    """A bed of a garden: row 0–2 (A–C), column 0–3 (1–4); `B3` is row B, column 3."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"{ROWS[self.row]}{self.col + 1}"

    @property
    def index(self) -> int:
        """Position in a garden's list of beds (A1, A2, …, C4)."""
        return self.row * COLUMNS + self.col


BEDS: tuple[Bed, ...] = tuple(Bed(r, c) for r in range(len(ROWS)) for c in range(COLUMNS))
"""The 12 beds in reading order: A1 … A4, B1 … B4, C1 … C4."""


def parse_bed(text: str) -> Bed:
    """Read `B3` (case-insensitive); raise IllegalMove when it is not a bed."""
    match = re.fullmatch(r"\s*([a-zA-Z])\s*(\d{1,2})\s*", text)
    if not match:
        raise IllegalMove(
            N_("{text} is not a bed: write a row A–C then a column 1–4, like B3"),
            text=repr(text.strip()),
        )
    row, col = match[1].upper(), int(match[2])
    if row not in ROWS or not 1 <= col <= COLUMNS:
        raise IllegalMove(
            N_("{bed} is not a bed: rows go from A to C and columns from 1 to 4 (A1 to C4)"),
            bed=f"{row}{col}",
        )
    return Bed(ROWS.index(row), col - 1)


@dataclass(frozen=True)
class DealContract:
    """Chance: the next seat without a contract is dealt contract `number`."""

    number: int

    def __str__(self) -> str:
        return f"contract:{self.number}"


@dataclass(frozen=True)
class DrawTile:
    """Chance: the tile drawn from the bag."""

    tile: Tile

    def __str__(self) -> str:
        return f"draw:{self.tile}"


@dataclass(frozen=True)
class Draw:
    """The player chooses to draw a tile (the chance node follows)."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Place:
    """Put the drawn tile (or cover with the drawn snail) on garden `garden` (1-based), `bed`."""

    garden: int
    bed: Bed

    def __str__(self) -> str:
        return f"{self.garden}{self.bed}"


@dataclass(frozen=True)
class PlayMole:
    """Play the player's mole on garden `garden` (1-based), `bed`, instead of drawing."""

    garden: int
    bed: Bed

    def __str__(self) -> str:
        return f"mole {self.garden}{self.bed}"


@dataclass(frozen=True)
class Take:
    """Take garden `garden` (1-based) with all its tiles."""

    garden: int

    def __str__(self) -> str:
        return f"take {self.garden}"


@dataclass(frozen=True)
class EndTurn:
    """End the turn without taking a garden."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True)
class Discard:
    """Discard the drawn tile, which can go nowhere."""

    def __str__(self) -> str:
        return "discard"


Move = DealContract | DrawTile | Draw | Place | PlayMole | Take | EndTurn | Discard

_SIMPLE: dict[str, Move] = {"draw": Draw(), "end": EndTurn(), "discard": Discard()}
_GARDEN_BED = r"(\d{1,3})\s*([a-zA-Z])\s*(\d{1,2})"


def parse_notation(text: str) -> Move:
    """Read any Kraut & Rüben move or chance outcome, without checking legality."""
    if not isinstance(text, str):
        raise IllegalMove(N_("{text} is not a Kraut & Rüben move"), text=repr(text))
    clean = " ".join(text.strip().lower().split())
    if clean in _SIMPLE:
        return _SIMPLE[clean]
    if match := re.fullmatch(r"contract\s*:\s*(\d{1,3})", clean):
        return DealContract(int(match[1]))
    if match := re.fullmatch(r"draw\s*:\s*(\S+)", clean):
        tile = TILE_ALIASES.get(match[1])
        if tile is None:
            names = ", ".join(str(t) for t in BAG_ORDER)
            raise IllegalMove(N_("{text} is not a tile of the bag (tiles: {names})"),
                              text=repr(match[1]), names=names)
        return DrawTile(tile)
    if match := re.fullmatch(r"take\s*(\d{1,3})", clean):
        return Take(int(match[1]))
    if match := re.fullmatch(r"mole\s*" + _GARDEN_BED, clean):
        return PlayMole(int(match[1]), parse_bed(match[2] + match[3]))
    if match := re.fullmatch(_GARDEN_BED, clean):
        return Place(int(match[1]), parse_bed(match[2] + match[3]))
    raise IllegalMove(
        N_("{text} is not a Kraut & Rüben move: write draw, a garden and bed like 3B2, "
           "mole 3B2, take 3, end or discard"),
        text=repr(text.strip()),
    )


# -- scoring ----------------------------------------------------------------------------------


def contract_by_number(number: int) -> Contract:
    """The contract card numbered `number` (1–12)."""
    return CONTRACTS[number - 1]


def score_total(counts: Mapping[str, int], contract: Contract) -> int:
    """Just the points of visible tiles counted by name (the fast path of `score_tiles`)."""
    column = min(counts.get(contract.main, 0), len(HIGH_PLUS_POINTS) - 1)
    return (
        counts.get(contract.high, 0) * HIGH_PLUS_POINTS[column]
        + counts.get(contract.low, 0) * LOW_PLUS_POINTS[column]
        + counts.get(contract.minus, 0) * MINUS_POINTS
        + counts.get(Tile.CLOVER, 0) * FIXED_POINTS[Tile.CLOVER]
        + counts.get(Tile.DANDELION, 0) * FIXED_POINTS[Tile.DANDELION]
        + counts.get(Tile.SNAIL, 0) * FIXED_POINTS[Tile.SNAIL]
        + counts.get(Tile.MOLE, 0) * FIXED_POINTS[Tile.MOLE]
    )


def score_tiles(tops: Iterable[Tile], contract: Contract) -> KrautRubenScore:
    """Score visible tiles with a contract: total plus one line per kind, as the seed counts."""
    counts = Counter(tops)
    main_count = counts[contract.main]
    column = min(main_count, len(HIGH_PLUS_POINTS) - 1)
    roles: list[tuple[Tile, str, int]] = [
        (contract.main, "main", MAIN_POINTS),
        (contract.high, "high", HIGH_PLUS_POINTS[column]),
        (contract.low, "low", LOW_PLUS_POINTS[column]),
        (contract.minus, "minus", MINUS_POINTS),
        *((tile, "fixed", points) for tile, points in FIXED_POINTS.items()),
    ]
    lines: list[KrautRubenScoreLine] = []
    for tile, role, each in roles:
        count = counts[tile]
        if count == 0 and role != "main":
            continue
        points = count * each
        text = (
            f"{tile.counted(count)}: main vegetable, column {column + 1}"
            if role == "main"
            else f"{tile.counted(count)} × {each} = {points}"
        )
        lines.append(
            {"tile": str(tile), "role": role, "count": count, "each": each, "points": points,
             "text": text}
        )
    return {
        "contract": contract.number,
        "main": str(contract.main),
        "main_count": main_count,
        "column": column + 1,
        "lines": lines,
        "total": sum(line["points"] for line in lines),
    }


# -- why a move is illegal: one sentence per tile, so that each can be translated whole -----

NONE_LEFT: dict[Tile, str] = {
    Tile.TOMATO: N_("no tomato is left in the bag"),
    Tile.ASPARAGUS: N_("no asparagus is left in the bag"),
    Tile.CARROT: N_("no carrot is left in the bag"),
    Tile.LETTUCE: N_("no lettuce is left in the bag"),
    Tile.CLOVER: N_("no clover is left in the bag"),
    Tile.DANDELION: N_("no dandelion is left in the bag"),
    Tile.SNAIL: N_("no snail is left in the bag"),
    Tile.MOLE: N_("no mole is left in the bag"),
}
"""A draw outcome of a kind the bag no longer holds."""

STILL_PLACEABLE: dict[Tile, str] = {
    Tile.TOMATO: N_("the tomato can still go somewhere (for example {example}): a tile is "
                    "discarded only when it can go nowhere"),
    Tile.ASPARAGUS: N_("the asparagus can still go somewhere (for example {example}): a tile "
                       "is discarded only when it can go nowhere"),
    Tile.CARROT: N_("the carrot can still go somewhere (for example {example}): a tile is "
                    "discarded only when it can go nowhere"),
    Tile.LETTUCE: N_("the lettuce can still go somewhere (for example {example}): a tile is "
                     "discarded only when it can go nowhere"),
    Tile.CLOVER: N_("the clover can still go somewhere (for example {example}): a tile is "
                    "discarded only when it can go nowhere"),
    Tile.DANDELION: N_("the dandelion can still go somewhere (for example {example}): a tile "
                       "is discarded only when it can go nowhere"),
    Tile.SNAIL: N_("the snail can still go somewhere (for example {example}): a tile is "
                   "discarded only when it can go nowhere"),
    Tile.MOLE: N_("the mole can still go somewhere (for example {example}): a tile is "
                  "discarded only when it can go nowhere"),
}
"""A discard while the drawn tile still has a bed."""

NOT_EMPTY: dict[Tile, str] = {
    Tile.TOMATO: N_("{bed} is not empty (a tile lies there): a tomato goes on an empty bed"),
    Tile.ASPARAGUS: N_("{bed} is not empty (a tile lies there): an asparagus goes on an empty "
                       "bed"),
    Tile.CARROT: N_("{bed} is not empty (a tile lies there): a carrot goes on an empty bed"),
    Tile.LETTUCE: N_("{bed} is not empty (a tile lies there): a lettuce goes on an empty bed"),
    Tile.CLOVER: N_("{bed} is not empty (a tile lies there): a clover goes on an empty bed"),
    Tile.DANDELION: N_("{bed} is not empty (a tile lies there): a dandelion goes on an empty "
                       "bed"),
    Tile.SNAIL: N_("{bed} is not empty (a tile lies there): a snail goes on an empty bed"),
    Tile.MOLE: N_("{bed} is not empty (a tile lies there): a mole goes on an empty bed"),
}
"""A plant on a bed already planted."""

UNCOVERABLE: dict[tuple[Tile, Tile], str] = {
    (Tile.SNAIL, Tile.SNAIL): N_("{bed} shows a snail: a snail may cover a vegetable, clover or "
                                 "dandelion only"),
    (Tile.SNAIL, Tile.MOLE): N_("{bed} shows a mole: a snail may cover a vegetable, clover or "
                                "dandelion only"),
    (Tile.MOLE, Tile.SNAIL): N_("{bed} shows a snail: a mole may cover a vegetable, clover or "
                                "dandelion only"),
    (Tile.MOLE, Tile.MOLE): N_("{bed} shows a mole: a mole may cover a vegetable, clover or "
                               "dandelion only"),
}
"""A snail or mole (first) on a bed whose top tile cannot be covered (second)."""


# -- the state ------------------------------------------------------------------------------


class Phase(StrEnum):
    """Where the game stands."""

    DEAL = "deal"  # chance: contracts are dealt
    CHOOSE = "choose"  # a player chooses draw, mole, or (forced) take
    DRAW = "draw"  # chance: a tile comes out of the bag
    PLACE = "place"  # the player places the drawn tile, or discards it
    TAKE = "take"  # the player may take a garden or end the turn
    OVER = "over"


class KrautRubenGardenView(TypedDict):
    """A garden as everyone sees it."""

    number: int
    owner: int | None
    full: bool
    closed: bool
    empty_beds: int
    last_bed_reserved: bool
    snails: int
    moles: int
    grid: list[list[list[str]]]
    """3 rows (A–C) of 4 beds, each bed its tiles bottom first."""


class KrautRubenPlayerView(TypedDict):
    """A player as the viewing seat sees them (a contract only when it is the viewer's)."""

    seat: int
    contract_dealt: bool
    contract: KrautRubenContractView | None
    mole_available: bool
    gardens: list[int]
    finished: bool
    first_take_rank: int | None


class KrautRubenBagView(TypedDict):
    """Tiles left in the bag, in all and by kind."""

    count: int
    tiles: dict[str, int]


class KrautRubenScoringView(TypedDict):
    """The point tables every contract shares."""

    high_points: list[int]
    low_points: list[int]
    main_points: int
    minus_points: int
    fixed_points: dict[str, int]
    cup_points: int


class KrautRubenView(TypedDict):
    """What `KrautRubenState.view` returns: only the viewing seat's own contract."""

    game: Literal["kraut_ruben"]
    num_players: int
    seat: int | None
    current_player: int | None
    result: ResultDict | None
    phase: str
    turn: int | None
    match_games: int
    game_number: int
    gardens_per_player: int
    rows: list[str]
    columns: list[int]
    bag: KrautRubenBagView
    discarded: dict[str, int]
    drawn_tile: str | None
    last_action: dict[str, Any] | None
    """What the last move did: "seat", "action" and the keys of that action."""
    gardens: list[KrautRubenGardenView]
    players: list[KrautRubenPlayerView]
    your_contract: KrautRubenContractView | None
    your_garden_points: list[int] | None
    legal_moves: list[str]
    may_draw: bool
    may_play_mole: bool
    mole_targets: list[str]
    placements: list[str]
    must_discard: bool
    must_take: bool
    may_take: bool
    may_end_turn: bool
    takeable_gardens: list[int]
    scoring: KrautRubenScoringView
    games: list[KrautRubenGameRecord]
    match_totals: list[int]
    final: KrautRubenGameRecord | None


class KrautRubenState(GameState[Move, KrautRubenView]):
    """A Kraut & Rüben game (or three-game match): gardens, bag, contracts, moles, owners."""

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, options)
        self.garden_count = 5 if num_players == 2 else num_players + 1
        self.gardens_per_player = 2 if num_players == 2 else 1
        self.game_number = 1
        self.records: list[KrautRubenGameRecord] = []
        self._result: Result | None = None
        self._new_game()

    def _new_game(self) -> None:
        """Fresh gardens, bag, moles and contracts for the next game; seat 0 starts."""
        self.gardens: list[list[list[str]]] = [
            [[] for _ in BEDS] for _ in range(self.garden_count)
        ]
        self.owners: list[int | None] = [None] * self.garden_count
        self.bag: dict[Tile, int] = dict(BAG_COUNTS)
        self.discarded: dict[Tile, int] = dict.fromkeys(BAG_ORDER, 0)
        self.contracts: list[int] = []
        self.moles: list[bool] = [True] * self.num_players
        self.take_order: list[int] = []
        self.phase = Phase.DEAL
        self.turn_seat = 0
        self.drawn: Tile | None = None
        self.last_action: dict[str, Any] | None = None

    # -- public queries ------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        if self.phase is Phase.OVER:
            return None
        if self.phase in (Phase.DEAL, Phase.DRAW):
            return CHANCE
        return self.turn_seat

    @property
    def bag_count(self) -> int:
        """Tiles left in the bag."""
        return sum(self.bag.values())

    def top(self, garden: int, bed: Bed) -> Tile | None:
        """The visible tile of a bed (garden 1-based), None when empty."""
        stack = self.gardens[garden - 1][bed.index]
        return TILES[stack[-1]] if stack else None

    def empty_beds(self, garden: int) -> list[Bed]:
        """The empty beds of a garden (1-based)."""
        return [BEDS[i] for i, stack in enumerate(self.gardens[garden - 1]) if not stack]

    def is_full(self, garden: int) -> bool:
        """True when no bed of the garden (1-based) is empty."""
        return all(self.gardens[garden - 1])

    def count_in(self, garden: int, tile: Tile) -> int:
        """How many `tile` lie in the garden (1-based), covered ones included."""
        return list(chain.from_iterable(self.gardens[garden - 1])).count(tile)

    def is_closed(self, garden: int) -> bool:
        """True when nobody may put a snail or a mole in the garden any more."""
        if not self.is_full(garden):
            return False
        return self.owners[garden - 1] is not None or not FULL_UNOWNED_GARDEN_TAKES_COVERS

    def gardens_of(self, seat: int) -> list[int]:
        """The garden numbers `seat` owns, in number order."""
        return [g + 1 for g, owner in enumerate(self.owners) if owner == seat]

    def unowned_gardens(self) -> list[int]:
        """Garden numbers nobody owns."""
        return [g + 1 for g, owner in enumerate(self.owners) if owner is None]

    def is_finished(self, seat: int) -> bool:
        """True once `seat` owns all its gardens and they are all full (no more turns)."""
        owned = self.gardens_of(seat)
        return len(owned) == self.gardens_per_player and all(self.is_full(g) for g in owned)

    def contract_of(self, seat: int) -> Contract | None:
        """The contract dealt to `seat` in this game (hidden information: not for views)."""
        return contract_by_number(self.contracts[seat]) if seat < len(self.contracts) else None

    @property
    def drawn_tile(self) -> Tile | None:
        """The tile drawn this turn and waiting to be placed."""
        return self.drawn

    def must_take(self, seat: int | None = None) -> bool:
        """True when rule 6 forces `seat` (default: the player to move) to take a garden now."""
        seat = self.turn_seat if seat is None else seat
        if len(self.gardens_of(seat)) >= self.gardens_per_player or self.is_finished(seat):
            return False
        if self.bag_count == 0:
            return True
        return FORCED_TAKE_WHEN_UNOWNED_GARDENS_FULL and all(
            self.is_full(g) for g in self.unowned_gardens()
        )

    def can_draw(self) -> bool:
        """True when the player to move may draw a tile."""
        return self.phase is Phase.CHOOSE and not self.must_take() and self.bag_count > 0

    def mole_targets(self, seat: int | None = None) -> list[PlayMole]:
        """Where `seat` (default: the player to move) could play the mole at the start of a turn."""
        seat = self.turn_seat if seat is None else seat
        if not self.moles[seat] or self.is_finished(seat):
            return []
        if self.bag_count == 0 and not MOLES_PLAYED_OUT_AFTER_BAG_EMPTY:
            return []
        return [PlayMole(g, bed) for g, bed in self._cover_targets(Tile.MOLE)]

    def can_play_mole(self) -> bool:
        """True when the player to move may play the mole now."""
        return self.phase is Phase.CHOOSE and not self.must_take() and bool(self.mole_targets())

    def placements(self) -> list[Place]:
        """Every legal spot for the drawn tile (empty when it must be discarded)."""
        if self.phase is not Phase.PLACE or self.drawn is None:
            return []
        if self.drawn is Tile.SNAIL:
            covers = self._cover_targets(Tile.SNAIL)
            if covers:
                return [Place(g, bed) for g, bed in covers]
            return [
                Place(g, bed)
                for g in range(1, self.garden_count + 1)
                if self.count_in(g, Tile.SNAIL) < MAX_SNAILS_PER_GARDEN
                for bed in self.empty_beds(g)
            ]
        return [
            Place(g, bed)
            for g in range(1, self.garden_count + 1)
            if not self._last_bed_reserved(g)
            for bed in self.empty_beds(g)
        ]

    def placement_gardens(self) -> list[int]:
        """Garden numbers where the drawn tile has a legal bed (first step of the UI)."""
        return sorted({place.garden for place in self.placements()})

    def placement_beds(self, garden: int) -> list[str]:
        """Beds of `garden` where the drawn tile may go (second step of the UI)."""
        return [str(p.bed) for p in self.placements() if p.garden == garden]

    def mole_gardens(self) -> list[int]:
        """Garden numbers where the player to move could play the mole."""
        return sorted({m.garden for m in self.mole_targets()}) if self.can_play_mole() else []

    def mole_beds(self, garden: int) -> list[str]:
        """Beds of `garden` the player to move could cover with the mole."""
        if not self.can_play_mole():
            return []
        return [str(m.bed) for m in self.mole_targets() if m.garden == garden]

    def must_discard(self) -> bool:
        """True when the drawn tile can go nowhere and `discard` is the only move."""
        return self.phase is Phase.PLACE and not self.placements()

    def can_take(self) -> bool:
        """True when the player to move may (or must) take a garden now."""
        return self.phase is Phase.TAKE or (self.phase is Phase.CHOOSE and self.must_take())

    def can_end_turn(self) -> bool:
        """True when `end` is allowed (after placing, for a player who may still take)."""
        return self.phase is Phase.TAKE

    def takeable_gardens(self) -> list[int]:
        """Garden numbers the player to move may take now."""
        return self.unowned_gardens() if self.can_take() else []

    def garden_score(self, garden: int, contract_number: int) -> KrautRubenScore:
        """Score of a garden (1-based) with a contract, broken down line by line."""
        tops = [TILES[stack[-1]] for stack in self.gardens[garden - 1] if stack]
        return score_tiles(tops, contract_by_number(contract_number))

    def garden_points(self, garden: int, contract_number: int) -> int:
        """Points of a garden (1-based) with a contract, without the breakdown."""
        counts = Counter(stack[-1] for stack in self.gardens[garden - 1] if stack)
        return score_total(counts, contract_by_number(contract_number))

    def points_of(self, seat: int) -> int:
        """`seat`'s points from its own garden(s) with its contract (no cup)."""
        contract = self.contract_of(seat)
        owned = self.gardens_of(seat)
        if contract is None or not owned:
            return 0
        if TWO_PLAYER_GARDENS_SCORED_SEPARATELY:
            return sum(self.garden_points(g, contract.number) for g in owned)
        counts = Counter(s[-1] for g in owned for s in self.gardens[g - 1] if s)
        return score_total(counts, contract)

    # -- rules helpers -----------------------------------------------------------------

    def _last_bed_reserved(self, garden: int) -> bool:
        """True when the garden's one empty bed is reserved to an owner other than the mover."""
        owner = self.owners[garden - 1]
        return owner is not None and owner != self.turn_seat and len(self.empty_beds(garden)) == 1

    def _cover_targets(self, cover: Tile) -> list[tuple[int, Bed]]:
        """(garden, bed) pairs a snail or mole may cover now."""
        limit = MAX_SNAILS_PER_GARDEN if cover is Tile.SNAIL else MAX_MOLES_PER_GARDEN
        coverable = PLANTS | COVERS if COVERS_MAY_COVER_COVERS else PLANTS
        return [
            (g, BEDS[i])
            for g in range(1, self.garden_count + 1)
            if not self.is_closed(g) and self.count_in(g, cover) < limit
            for i, stack in enumerate(self.gardens[g - 1])
            if stack and stack[-1] in coverable
        ]

    def _can_act(self, seat: int) -> bool:
        if self.is_finished(seat):
            return False
        return self.must_take(seat) or self.bag_count > 0 or bool(self.mole_targets(seat))

    # -- moves ---------------------------------------------------------------------------

    def _legal_moves(self) -> list[Move]:
        if self.phase is Phase.DEAL:
            return [DealContract(c.number) for c in CONTRACTS if c.number not in self.contracts]
        if self.phase is Phase.DRAW:
            return [DrawTile(tile) for tile in BAG_ORDER if self.bag[tile] > 0]
        if self.phase is Phase.CHOOSE:
            if self.must_take():
                return [Take(g) for g in self.unowned_gardens()]
            moves: list[Move] = [Draw()] if self.bag_count > 0 else []
            return moves + list(self.mole_targets())
        if self.phase is Phase.PLACE:
            # Nowhere to go: discard (snail [seed]; plant UNPLACEABLE_PLANT_IS_DISCARDED).
            placements: list[Move] = [*self.placements()]
            return placements or [Discard()]
        if self.phase is Phase.TAKE:
            return [*(Take(g) for g in self.unowned_gardens()), EndTurn()]
        return []

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """Contracts: equiprobable among those not dealt; tiles: count left over tiles left."""
        if self.phase is Phase.DRAW:
            total = self.bag_count
            return [(DrawTile(t), self.bag[t] / total) for t in BAG_ORDER if self.bag[t] > 0]
        return super().chance_outcomes()

    def parse_move(self, text: str) -> Move:
        return parse_notation(text)

    def _play(self, move: Move) -> None:
        seat = self.turn_seat
        if isinstance(move, DealContract):
            self.contracts.append(move.number)
            if len(self.contracts) == self.num_players:
                self._start_turn_from(0)
        elif isinstance(move, Draw):
            self.phase = Phase.DRAW
        elif isinstance(move, DrawTile):
            self.bag[move.tile] -= 1
            self.drawn = move.tile
            self.phase = Phase.PLACE
            self.last_action = {"seat": seat, "action": "draw", "tile": str(move.tile)}
        elif isinstance(move, Place | PlayMole):
            tile = Tile.MOLE if isinstance(move, PlayMole) else self.drawn
            assert tile is not None
            covered = self.top(move.garden, move.bed)
            self.gardens[move.garden - 1][move.bed.index].append(tile.value)
            if isinstance(move, PlayMole):
                self.moles[seat] = False
            self.drawn = None
            self.last_action = {
                "seat": seat,
                "action": "mole" if isinstance(move, PlayMole) else "place",
                "tile": str(tile),
                "garden": move.garden,
                "bed": str(move.bed),
                "covered": str(covered) if covered else None,
            }
            self._after_placement(seat)
        elif isinstance(move, Discard):
            assert self.drawn is not None
            self.discarded[self.drawn] += 1
            self.last_action = {"seat": seat, "action": "discard", "tile": str(self.drawn)}
            self.drawn = None
            self._after_placement(seat)
        elif isinstance(move, Take):
            forced = self.phase is Phase.CHOOSE
            self.owners[move.garden - 1] = seat
            if seat not in self.take_order:
                self.take_order.append(seat)
            self.last_action = {
                "seat": seat, "action": "take", "garden": move.garden, "forced": forced,
            }
            self._end_turn()
        elif isinstance(move, EndTurn):
            self.last_action = {"seat": seat, "action": "end"}
            self._end_turn()

    def _after_placement(self, seat: int) -> None:
        """After a tile, mole or discard: offer the take, or pass the turn."""
        if len(self.gardens_of(seat)) < self.gardens_per_player:
            self.phase = Phase.TAKE
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        if all(self.is_finished(s) for s in range(self.num_players)):
            self._finish_game(EndReason.ALL_FINISHED)
        else:
            self._start_turn_from(self.turn_seat + 1)

    def _start_turn_from(self, first: int) -> None:
        """Give the turn to the first seat from `first` on that is not finished and can act."""
        for step in range(self.num_players):
            seat = (first + step) % self.num_players
            if self._can_act(seat):
                self.turn_seat = seat
                self.phase = Phase.CHOOSE
                return
        self._finish_game(EndReason.BAG_EMPTY)

    # -- the end -------------------------------------------------------------------------

    def _summary(self, reason: EndReason) -> KrautRubenGameRecord:
        """The finished game: contracts revealed, each garden's score line by line."""
        cup_seat = (
            self.take_order[0] if self.options["match_games"] > 1 and self.take_order else None
        )
        gardens: list[KrautRubenGardenRecord] = []
        for g in range(1, self.garden_count + 1):
            owner = self.owners[g - 1]
            contract = self.contract_of(owner) if owner is not None else None
            gardens.append(
                {
                    "number": g,
                    "owner": owner,
                    "grid": self._grid(g),
                    "score": self.garden_score(g, contract.number) if contract else None,
                }
            )
        players: list[KrautRubenPlayerRecord] = []
        for seat in range(self.num_players):
            contract = self.contract_of(seat)
            points = self.points_of(seat)
            cup = CUP_POINTS if seat == cup_seat else 0
            players.append(
                {
                    "seat": seat,
                    "contract": contract.to_dict() if contract else None,
                    "gardens": self.gardens_of(seat),
                    "points": points,
                    "cup": cup,
                    "total": points + cup,
                }
            )
        return {
            "game_number": self.game_number,
            "reason": reason.value,
            "take_order": list(self.take_order),
            "cup": cup_seat,
            "players": players,
            "gardens": gardens,
        }

    def _finish_game(self, reason: EndReason) -> None:
        self.records.append(self._summary(reason))
        if self.game_number < self.options["match_games"]:
            self.game_number += 1
            self._new_game()
            return
        self.phase = Phase.OVER
        self.drawn = None
        self._result = self._final_result()

    def _final_result(self) -> Result:
        last = self.records[-1]
        order = last["take_order"]

        def first_take_rank(seat: int) -> int:
            return order.index(seat) if seat in order else len(order)

        if self.options["match_games"] == 1:
            scores = [p["points"] for p in last["players"]]
            best = max(scores)
            tied = [s for s in range(self.num_players) if scores[s] == best]
            return Result([min(tied, key=first_take_rank)], scores, EndReason(last["reason"]))
        totals = self.match_totals()
        best = max(totals)
        tied = [s for s in range(self.num_players) if totals[s] == best]
        winners = tied if MATCH_TIE_IS_SHARED else [min(tied, key=first_take_rank)]
        return Result(winners, totals, EndReason.MATCH_TOTAL)

    def result(self) -> Result | None:
        return self._result

    # -- illegal moves ---------------------------------------------------------------------

    def _why_illegal(self, move: Any) -> str | Why:
        if not isinstance(move, Move):
            return Why(N_("{text} is not a Kraut & Rüben move"), {"text": repr(move)})
        reason = (
            self._why_not_garden(move)
            or {
                Phase.DEAL: self._why_not_deal,
                Phase.DRAW: self._why_not_draw_outcome,
                Phase.CHOOSE: self._why_not_choice,
                Phase.PLACE: self._why_not_placement,
                Phase.TAKE: self._why_not_take_step,
            }[self.phase](move)
        )
        return reason or Why(N_("{move} is not allowed now"), {"move": str(move)})

    def _why_not_garden(self, move: Move) -> str | Why:
        garden = getattr(move, "garden", None)
        if garden is not None and not 1 <= garden <= self.garden_count:
            return Why(N_("there is no garden {garden}: the gardens go from 1 to {count}"),
                       {"garden": garden, "count": self.garden_count})
        return ""

    def _why_not_deal(self, move: Move) -> str | Why:
        if not isinstance(move, DealContract):
            return N_("contracts are being dealt: the next move is a chance outcome contract:N")
        if not 1 <= move.number <= len(CONTRACTS):
            return Why(N_("there is no contract {number}: contracts go from 1 to {count}"),
                       {"number": move.number, "count": len(CONTRACTS)})
        return Why(N_("contract {number} has already been dealt"), {"number": move.number})

    def _why_not_draw_outcome(self, move: Move) -> str | Why:
        if not isinstance(move, DrawTile):
            return N_(
                "a tile is being drawn from the bag: the next move is a chance outcome draw:TILE"
            )
        return NONE_LEFT[move.tile]

    def _why_not_choice(self, move: Move) -> str | Why:
        if self.must_take():
            if isinstance(move, Take):
                return self._why_not_takeable(move.garden)
            if self.bag_count == 0:
                return N_("the bag is empty: you must take a garden this turn (take N), "
                          "nothing else")
            return N_("every unowned garden is full: you must take a garden this turn (take N), "
                      "nothing else")
        if isinstance(move, Draw):
            return N_("the bag is empty: there is nothing left to draw")
        if isinstance(move, PlayMole):
            if self.bag_count == 0 and not MOLES_PLAYED_OUT_AFTER_BAG_EMPTY:
                return N_("the bag is empty: moles are no longer played")
            return self._why_not_cover(Tile.MOLE, move.garden, move.bed)
        if isinstance(move, Take | EndTurn):
            return N_("a garden may be taken only after placing a tile: draw (or play your mole) "
                      "first")
        if isinstance(move, Place | Discard):
            return N_("you have no tile in hand: draw first (or play your mole)")
        return N_("it is a player's turn, not a chance event")

    def _why_not_placement(self, move: Move) -> str | Why:
        tile = self.drawn
        assert tile is not None
        if isinstance(move, Discard):
            return Why(STILL_PLACEABLE[tile], {"example": str(self.placements()[0])})
        if not isinstance(move, Place):
            return N_("place the tile you drew first (or discard it if it can go nowhere)")
        if tile is Tile.SNAIL:
            if self._cover_targets(Tile.SNAIL):
                return self._why_not_cover(Tile.SNAIL, move.garden, move.bed)
            if self.top(move.garden, move.bed) is not None:
                return Why(N_("{bed} is not empty: no tile can be covered anywhere, so the snail "
                              "needs an empty bed"), {"bed": str(move)})
            return Why(N_("garden {garden} already holds {count} snails"),
                       {"garden": move.garden, "count": MAX_SNAILS_PER_GARDEN})
        top = self.top(move.garden, move.bed)
        if top is not None:
            return Why(NOT_EMPTY[tile], {"bed": str(move)})
        owner = self.owners[move.garden - 1]
        return Why(
            N_("{bed} is the last empty bed of garden {garden}, which belongs to seat {seat}: "
               "only its owner may plant there"),
            {"bed": str(move), "garden": move.garden, "seat": owner},
        )

    def _why_not_cover(self, cover: Tile, garden: int, bed: Bed) -> str | Why:
        snail = cover is Tile.SNAIL
        where = {"bed": f"{garden}{bed}", "garden": garden}
        if not snail and not self.moles[self.turn_seat]:
            return N_("you have already played your mole (once per game)")
        if self.is_closed(garden):
            return Why(N_("garden {garden} is full and owned: nobody may put a snail there any "
                          "more") if snail else
                       N_("garden {garden} is full and owned: nobody may put a mole there any "
                          "more"), where)
        limit = MAX_SNAILS_PER_GARDEN if snail else MAX_MOLES_PER_GARDEN
        if self.count_in(garden, cover) >= limit:
            return Why(N_("garden {garden} already holds {count} snails, the most it may")
                       if snail else
                       N_("garden {garden} already holds {count} moles, the most it may"),
                       {**where, "count": limit})
        top = self.top(garden, bed)
        if top is None:
            return Why(N_("{bed} is empty: a snail must cover a tile already placed") if snail
                       else N_("{bed} is empty: a mole must cover a tile already placed"), where)
        return Why(UNCOVERABLE[cover, top], where)

    def _why_not_take_step(self, move: Move) -> str | Why:
        if isinstance(move, Take):
            return self._why_not_takeable(move.garden)
        return N_("your tile is placed: take an unowned garden (take N) or end your turn (end)")

    def _why_not_takeable(self, garden: int) -> Why:
        owner = self.owners[garden - 1]
        if owner == self.turn_seat:
            return Why(N_("garden {garden} is already yours"), {"garden": garden})
        return Why(N_("garden {garden} already belongs to seat {seat}"),
                   {"garden": garden, "seat": owner})

    # -- views and dumps -------------------------------------------------------------------

    def _grid(self, garden: int) -> list[list[list[str]]]:
        """A garden as 3 rows (A–C) of 4 beds, each bed its tiles bottom first."""
        stacks = self.gardens[garden - 1]
        return [
            [list(stack) for stack in stacks[r * COLUMNS : (r + 1) * COLUMNS]]
            for r in range(len(ROWS))
        ]

    def _garden_view(self, garden: int) -> KrautRubenGardenView:
        owner = self.owners[garden - 1]
        stacks = self.gardens[garden - 1]
        empty = sum(1 for stack in stacks if not stack)
        return {
            "number": garden,
            "owner": owner,
            "full": empty == 0,
            "closed": self.is_closed(garden),
            "empty_beds": empty,
            "last_bed_reserved": owner is not None and empty == 1,
            "snails": self.count_in(garden, Tile.SNAIL),
            "moles": self.count_in(garden, Tile.MOLE),
            "grid": self._grid(garden),
        }

    def view(self, seat: int | None) -> KrautRubenView:
        over = self.phase is Phase.OVER
        in_turn = self.phase in (Phase.CHOOSE, Phase.DRAW, Phase.PLACE, Phase.TAKE)
        # Legal moves only at a player's decision: at a deal they would list unseen contracts.
        legal = self._legal_moves() if in_turn and self.phase is not Phase.DRAW else []
        forced_take = self.phase is Phase.CHOOSE and self.must_take()
        kinds = (Draw, PlayMole, Place, Discard, Take)
        by_kind: dict[type, list[Any]] = {kind: [] for kind in kinds}
        for move in legal:
            by_kind.setdefault(type(move), []).append(move)
        players: list[KrautRubenPlayerView] = []
        for s in range(self.num_players):
            contract = self.contract_of(s)
            players.append(
                {
                    "seat": s,
                    "contract_dealt": contract is not None,
                    # Only the seat's own contract; everyone's is revealed in "games" at the end.
                    "contract": contract.to_dict() if contract and s == seat else None,
                    "mole_available": self.moles[s],
                    "gardens": self.gardens_of(s),
                    "finished": self.is_finished(s),
                    "first_take_rank": (
                        self.take_order.index(s) if s in self.take_order else None
                    ),
                }
            )
        own = self.contract_of(seat) if seat is not None else None
        return {
            "game": "kraut_ruben",
            "num_players": self.num_players,
            "seat": seat,
            "current_player": self.current_player,
            "result": self._result.to_dict() if self._result else None,
            "phase": str(self.phase),
            "turn": self.turn_seat if in_turn else None,
            "match_games": self.options["match_games"],
            "game_number": self.game_number,
            "gardens_per_player": self.gardens_per_player,
            "rows": list(ROWS),
            "columns": list(range(1, COLUMNS + 1)),
            "bag": {"count": self.bag_count, "tiles": {str(t): self.bag[t] for t in BAG_ORDER}},
            "discarded": {str(t): self.discarded[t] for t in BAG_ORDER},
            "drawn_tile": str(self.drawn) if self.drawn else None,
            "last_action": dict(self.last_action) if self.last_action else None,
            "gardens": [self._garden_view(g) for g in range(1, self.garden_count + 1)],
            "players": players,
            "your_contract": own.to_dict() if own else None,
            "your_garden_points": (
                [self.garden_points(g, own.number) for g in range(1, self.garden_count + 1)]
                if own
                else None
            ),
            "legal_moves": [str(m) for m in legal],
            "may_draw": bool(by_kind[Draw]),
            "may_play_mole": bool(by_kind[PlayMole]),
            "mole_targets": [str(m) for m in by_kind[PlayMole]],
            "placements": [str(m) for m in by_kind[Place]],
            "must_discard": bool(by_kind[Discard]),
            "must_take": forced_take,
            "may_take": self.phase is Phase.TAKE or forced_take,
            "may_end_turn": self.phase is Phase.TAKE,
            "takeable_gardens": [m.garden for m in by_kind[Take]],
            "scoring": {
                "high_points": list(HIGH_PLUS_POINTS),
                "low_points": list(LOW_PLUS_POINTS),
                "main_points": MAIN_POINTS,
                "minus_points": MINUS_POINTS,
                "fixed_points": {str(t): p for t, p in FIXED_POINTS.items()},
                "cup_points": CUP_POINTS if self.options["match_games"] > 1 else 0,
            },
            "games": _json_copy(self.records),
            "match_totals": self.match_totals(),
            "final": _json_copy(self.records[-1]) if over else None,
        }

    def match_totals(self) -> list[int]:
        """Each seat's total (points plus cup) over the games finished so far."""
        return [
            sum(record["players"][s]["total"] for record in self.records)
            for s in range(self.num_players)
        ]

    def clone(self) -> Self:
        """An independent copy (finished-game records are never changed, so they are shared)."""
        twin = copy.copy(self)
        twin.options = dict(self.options)
        twin.records = list(self.records)
        twin.gardens = [[list(stack) for stack in g] for g in self.gardens]
        twin.owners = list(self.owners)
        twin.bag = dict(self.bag)
        twin.discarded = dict(self.discarded)
        twin.contracts = list(self.contracts)
        twin.moles = list(self.moles)
        twin.take_order = list(self.take_order)
        return twin

    def _dump_state(self) -> dict[str, Any]:
        return {
            "game_number": self.game_number,
            "records": _json_copy(self.records),
            "gardens": [[list(stack) for stack in g] for g in self.gardens],
            "owners": list(self.owners),
            "bag": {str(t): n for t, n in self.bag.items()},
            "discarded": {str(t): n for t, n in self.discarded.items()},
            "contracts": list(self.contracts),
            "moles": list(self.moles),
            "take_order": list(self.take_order),
            "phase": str(self.phase),
            "turn_seat": self.turn_seat,
            "drawn": str(self.drawn) if self.drawn else None,
            "last_action": dict(self.last_action) if self.last_action else None,
            "result": self._result.to_dict() if self._result else None,
        }

    def _load_state(self, data: Mapping[str, Any]) -> None:
        self.game_number = data["game_number"]
        self.records = _json_copy(list(data["records"]))
        self.gardens = [[[TILES[t].value for t in stack] for stack in g] for g in data["gardens"]]
        self.owners = list(data["owners"])
        self.bag = {Tile(t): n for t, n in data["bag"].items()}
        self.discarded = {Tile(t): n for t, n in data["discarded"].items()}
        self.contracts = list(data["contracts"])
        self.moles = list(data["moles"])
        self.take_order = list(data["take_order"])
        self.phase = Phase(data["phase"])
        self.turn_seat = data["turn_seat"]
        self.drawn = Tile(data["drawn"]) if data["drawn"] else None
        self.last_action = dict(data["last_action"]) if data["last_action"] else None
        self._result = Result.from_dict(data["result"]) if data["result"] else None


def _json_copy(data: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), faster than copy.deepcopy."""
    if isinstance(data, dict):
        return {key: _json_copy(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_json_copy(value) for value in data]
    return data


KRAUT_RUBEN = Game(
    id="kraut_ruben",
    name="Kraut & Rüben",
    min_players=2,
    max_players=5,
    state_class=KrautRubenState,
    option_specs={
        "match_games": choice_option(
            N_("1 game, or 3 with the cup (+3 to the first taker of each game)"),
            1,
            (1, 3),
            label=N_("games in the match"),
            choice_labels={1: N_("one game"), 3: N_("three games and the cup")},
        ),
    },
)
