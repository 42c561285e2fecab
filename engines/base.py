"""The engine contract shared by every game: games, states, results, illegal moves."""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, Self, TypedDict, TypeVar

CHANCE = -1
"""`current_player` value when a random event must be resolved by the driver."""


def N_(message: str) -> str:
    """Mark an engine's message for translation: the bot says it in the player's language
    (`i18n`); engines stay pure and speak English."""
    return message


@dataclass(frozen=True)
class Why:
    """A reason in English with its placeholders' values: the bot translates `template`,
    then fills it (`str(why)` is the English sentence)."""

    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.template.format(**self.params) if self.params else self.template


class IllegalMove(ValueError):
    """A move the current player cannot make; the message says why in plain words.

    `template` is the English message, its `{name}` placeholders filled from `params`, so the
    bot can translate it before filling them; `str(error)` is the English sentence.
    """

    def __init__(self, template: str | Why = "", **params: object) -> None:
        if isinstance(template, Why):
            params = {**template.params, **params}
            template = template.template
        self.template: str = template
        self.params = params
        super().__init__(template.format(**params) if params else template)


class EndReason(StrEnum):
    """Why a game ended: every reason any engine gives, plus those the bot records."""

    LINE = "line"
    """Qawale: four of a colour visible in a line."""
    DRAW = "draw"
    """A draw, in any game (several winners)."""
    LAND_REACHED = "land_reached"
    """Graps: a vine reached the opponent's land."""
    CLOSEST = "closest"
    """Graps: stocks ran out; the vine closest to the opponent's land wins."""
    BLOCKADE = "blockade"
    """Graps: the player whose turn starts can place nothing at all."""
    ALL_FINISHED = "all_finished"
    """Kraut & Rüben: every player's garden(s) are full."""
    BAG_EMPTY = "bag_empty"
    """Kraut & Rüben: the bag is empty and nobody can place anything."""
    MATCH_TOTAL = "match_total"
    """Kraut & Rüben, three-game match: the highest total over the three games wins."""
    PAQUETS = "paquets"
    """Le Grabuge: the most paquets wins."""
    CAPTURED_ALL = "captured_all"
    """Granat: one side has no pawn left."""
    NO_MOVES = "no_moves"
    """Granat: the player to move has no legal move."""
    RESIGNED = "resigned"
    """Any game: a player resigned (recorded by the bot, never by an engine)."""
    ABORTED = "aborted"
    """Any game: the game was called off (recorded by the bot, never by an engine)."""
    TIMEOUT = "timeout"
    """Any game: the player to move ran out of time (recorded by the bot, never by an engine)."""
    AGREED = "agreed"
    """Any two-player game: a draw offer was accepted (recorded by the bot, never by an engine)."""

    @property
    def by_a_seat(self) -> bool:
        """True when a player ended the game (resigned, ran out of time), not the rules."""
        return self in (EndReason.RESIGNED, EndReason.TIMEOUT)


class ResultDict(TypedDict):
    """JSON-safe form of a Result (`Result.to_dict`, `Result.from_dict`)."""

    winners: list[int]
    scores: list[float] | None
    reason: str


@dataclass(frozen=True)
class Result:
    """How a finished game ended."""

    winners: list[int]
    scores: Sequence[float] | None
    reason: EndReason

    def __post_init__(self) -> None:
        # Code outside the engines may still pass the reason as its string: keep one type.
        object.__setattr__(self, "reason", EndReason(self.reason))

    @property
    def is_draw(self) -> bool:
        """True when nobody won alone (several winners share the result)."""
        return len(self.winners) != 1

    def to_dict(self) -> ResultDict:
        """JSON-safe form."""
        return {
            "winners": list(self.winners),
            "scores": None if self.scores is None else list(self.scores),
            "reason": self.reason.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        """The Result that `to_dict` wrote (a stored result, a dump's result)."""
        scores = data["scores"]
        return cls(
            list(data["winners"]),
            None if scores is None else list(scores),
            EndReason(data["reason"]),
        )


MoveT = TypeVar("MoveT")
"""A game's move type, chance outcomes included (a union of move classes if need be)."""

ViewT = TypeVar("ViewT", bound=Mapping[str, object])
"""A game's view type: the TypedDict its `view()` returns."""

StateT = TypeVar("StateT", bound="GameState[Any, Any]", covariant=True)
"""A game's state class, for `Game`."""


class GameState(ABC, Generic[MoveT, ViewT]):
    """A running game; every game's state subclasses this and fills in the hooks.

    Subclasses implement `_legal_moves`, `_play` (mutating, for an already legal move),
    `parse_move`, `_why_illegal`, `_dump_state`, `_load_state`, `view` and the
    properties `current_player` and `result`.

    States compare equal when their dumps are equal; defining `__eq__` leaves them
    unhashable (Python sets `__hash__` to None), as a mutable object should be.
    """

    game: ClassVar[Game[Any]]

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        self.num_players = num_players
        self.options = dict(options)

    # -- the contract -------------------------------------------------------------

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Seat to decide, CHANCE for a random event, None once the game is over."""

    @abstractmethod
    def _legal_moves(self) -> list[MoveT]:
        """Every legal move (or chance outcome) for the current decision."""

    @abstractmethod
    def _play(self, move: MoveT) -> None:
        """Apply a move already known to be legal."""

    @abstractmethod
    def parse_move(self, text: str) -> MoveT:
        """Turn notation into a move object; raise IllegalMove when it cannot be read."""

    @abstractmethod
    def _why_illegal(self, move: MoveT) -> str | Why:
        """A plain-words reason why a well-formed move is not legal here."""

    @abstractmethod
    def result(self) -> Result | None:
        """None while running; the Result once over."""

    @abstractmethod
    def view(self, seat: int | None) -> ViewT:
        """JSON-safe dict of what `seat` may see (None: a spectator)."""

    @abstractmethod
    def _dump_state(self) -> dict[str, Any]:
        """JSON-safe dict of the whole state except players and options."""

    @abstractmethod
    def _load_state(self, data: Mapping[str, Any]) -> None:
        """Restore what `_dump_state` wrote."""

    def legal_moves(self) -> list[MoveT]:
        """Legal moves for the current decision; at a chance node, the outcomes."""
        if self.is_over():
            return []
        return self._legal_moves()

    def chance_outcomes(self) -> list[tuple[MoveT, float]]:
        """At a chance node, [(outcome, probability)]; equiprobable unless overridden."""
        if self.current_player != CHANCE:
            raise IllegalMove(N_("there is no random event to resolve now"))
        outcomes = self._legal_moves()
        return [(outcome, 1 / len(outcomes)) for outcome in outcomes]

    def is_legal(self, move: MoveT | str) -> bool:
        """True when `move` (object or text) may be applied now."""
        try:
            self._checked(move)
        except IllegalMove:
            return False
        return True

    def apply(self, move: MoveT | str) -> MoveT:
        """Apply a move or its notation; raise IllegalMove and change nothing if illegal."""
        legal = self._checked(move)
        self._play(legal)
        return legal

    def _checked(self, move: MoveT | str) -> MoveT:
        """The parsed move if legal now, else IllegalMove; override to check without listing."""
        if self.is_over():
            raise IllegalMove(N_("the game is over"))
        parsed = self.parse_move(move) if isinstance(move, str) else move
        if parsed not in self._legal_moves():
            raise IllegalMove(self._why_illegal(parsed))
        return parsed

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.current_player is None

    def clone(self) -> Self:
        """An independent copy."""
        return copy.deepcopy(self)

    def dump(self) -> dict[str, Any]:
        """JSON-safe dict from which `game.load` rebuilds this exact state."""
        return {
            "game": self.game.id,
            "num_players": self.num_players,
            "options": dict(self.options),
            "state": self._dump_state(),
        }

    @classmethod
    def from_dump(cls, data: Mapping[str, Any]) -> Self:
        """The state `dump()` wrote, rebuilt by this class's game."""
        state = cls.game.load(data)
        if not isinstance(state, cls):
            raise ValueError(f"this dump is of {data.get('game')!r}, not a {cls.__name__}")
        return state

    def __repr__(self) -> str:
        # Round-trips through eval (python-chess style): the dump is plain JSON data.
        return f"{type(self).__name__}.from_dump({self.dump()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return type(self) is type(other) and self.dump() == other.dump()


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its default, the check a value must pass, and how players see it."""

    default: Any
    check: Callable[[Any], bool]
    description: str
    """One short sentence (at most 80 characters): what the option changes."""
    label: str = ""
    """How players read the option's name ("grape faces on the die")."""
    choices: tuple[Any, ...] | None = None
    """The allowed values of a choice option, in display order; None for an on/off option."""
    choice_labels: Mapping[Any, str] = field(default_factory=dict)
    """Display name of some choices; a choice not listed shows as `str(value)`."""
    param: str | None = None
    """Short name of the slash-command parameter; None means the option's key."""

    def choice_label(self, value: Any) -> str:
        """How players read one value of this option."""
        return self.choice_labels.get(value, str(value))


@dataclass(frozen=True)
class Game(Generic[StateT]):
    """A game's identity and its factories; `GAMES` maps ids to these."""

    id: str
    name: str
    min_players: int
    max_players: int
    state_class: type[StateT]
    option_specs: Mapping[str, OptionSpec] = field(default_factory=dict)
    position_parser: Callable[[Game[Any], str, dict[str, Any]], StateT] | None = None

    def __post_init__(self) -> None:
        self.state_class.game = self

    @property
    def options(self) -> dict[str, Any]:
        """{option name: default value}."""
        return {name: spec.default for name, spec in self.option_specs.items()}

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with `options`; raise ValueError on an unknown or bad value."""
        resolved = self.options
        for name, value in (options or {}).items():
            spec = self.option_specs.get(name)
            if spec is None:
                known = ", ".join(self.option_specs) or "none"
                raise ValueError(f"{self.name} has no option {name!r} (options: {known})")
            if not spec.check(value):
                allowed = (
                    f" (one of {', '.join(map(str, spec.choices))})" if spec.choices else ""
                )
                raise ValueError(
                    f"{value!r} is not a valid value for {name}: {spec.description}{allowed}"
                )
            resolved[name] = value
        return resolved

    def check_players(self, num_players: int) -> None:
        """Raise ValueError unless this game can be played by `num_players`."""
        if not self.min_players <= num_players <= self.max_players:
            span = (
                str(self.min_players)
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise ValueError(f"{self.name} is played by {span} players, not {num_players}")

    def new_state(self, num_players: int, options: Mapping[str, Any] | None = None) -> StateT:
        """A fresh game at its start."""
        self.check_players(num_players)
        return self.state_class(num_players, self.resolve_options(options))

    def load(self, data: Mapping[str, Any]) -> StateT:
        """Rebuild a state from `dump()`."""
        if data.get("game") != self.id:
            raise ValueError(f"this dump is of {data.get('game')!r}, not {self.id!r}")
        state = self.new_state(data["num_players"], data["options"])
        state._load_state(data["state"])
        return state

    def from_position(self, text: str, options: Mapping[str, Any] | None = None) -> StateT:
        """A two-player state from its position string (board games only)."""
        if self.position_parser is None:
            raise NotImplementedError(f"{self.name} has no position string")
        return self.position_parser(self, text, self.resolve_options(options))


def bool_option(
    description: str, default: bool, *, label: str, param: str | None = None
) -> OptionSpec:
    """An on/off option."""
    return OptionSpec(
        default, lambda value: isinstance(value, bool), description, label=label, param=param
    )


def choice_option(
    description: str,
    default: Any,
    allowed: tuple[Any, ...],
    *,
    label: str,
    choice_labels: Mapping[Any, str] | None = None,
    param: str | None = None,
) -> OptionSpec:
    """An option whose value is one of `allowed` (never a bool, though True == 1)."""
    return OptionSpec(
        default,
        lambda value: not isinstance(value, bool) and value in allowed,
        description,
        label=label,
        choices=allowed,
        choice_labels=dict(choice_labels or {}),
        param=param,
    )
