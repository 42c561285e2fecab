"""The engine contract shared by every game: games, states, results, illegal moves."""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

CHANCE = -1
"""`current_player` value when a random event must be resolved by the driver."""


class IllegalMove(ValueError):
    """A move the current player cannot make; the message says why in plain words."""


@dataclass(frozen=True)
class Result:
    """How a finished game ended."""

    winners: list[int]
    scores: list[float] | None
    reason: str

    @property
    def is_draw(self) -> bool:
        """True when nobody won alone (several winners share the result)."""
        return len(self.winners) != 1

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {"winners": list(self.winners), "scores": self.scores, "reason": self.reason}


class GameState(ABC):
    """A running game; every game's state subclasses this and fills in the hooks.

    Subclasses implement `_legal_moves`, `_play` (mutating, for an already legal move),
    `parse_move`, `_why_illegal`, `_dump_state`, `_load_state`, `view` and the
    properties `current_player` and `result`.
    """

    game: ClassVar[Game]

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        self.num_players = num_players
        self.options = dict(options)

    # -- the contract -------------------------------------------------------------

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Seat to decide, CHANCE for a random event, None once the game is over."""

    @abstractmethod
    def _legal_moves(self) -> list[Any]:
        """Every legal move (or chance outcome) for the current decision."""

    @abstractmethod
    def _play(self, move: Any) -> None:
        """Apply a move already known to be legal."""

    @abstractmethod
    def parse_move(self, text: str) -> Any:
        """Turn notation into a move object; raise IllegalMove when it cannot be read."""

    @abstractmethod
    def _why_illegal(self, move: Any) -> str:
        """A plain-words reason why a well-formed move is not legal here."""

    @abstractmethod
    def result(self) -> Result | None:
        """None while running; the Result once over."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-safe dict of what `seat` may see (None: a spectator)."""

    @abstractmethod
    def _dump_state(self) -> dict[str, Any]:
        """JSON-safe dict of the whole state except players and options."""

    @abstractmethod
    def _load_state(self, data: Mapping[str, Any]) -> None:
        """Restore what `_dump_state` wrote."""

    def legal_moves(self) -> list[Any]:
        """Legal moves for the current decision; at a chance node, the outcomes."""
        if self.is_over():
            return []
        return self._legal_moves()

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """At a chance node, [(outcome, probability)]; equiprobable unless overridden."""
        if self.current_player != CHANCE:
            raise IllegalMove("there is no random event to resolve now")
        outcomes = self._legal_moves()
        return [(outcome, 1 / len(outcomes)) for outcome in outcomes]

    def is_legal(self, move: Any) -> bool:
        """True when `move` (object or text) may be applied now."""
        try:
            self._checked(move)
        except IllegalMove:
            return False
        return True

    def apply(self, move: Any) -> Any:
        """Apply a move or its notation; raise IllegalMove and change nothing if illegal."""
        legal = self._checked(move)
        self._play(legal)
        return legal

    def _checked(self, move: Any) -> Any:
        """The parsed move if legal now, else IllegalMove; override to check without listing."""
        if self.is_over():
            raise IllegalMove("the game is over")
        parsed = self.parse_move(move) if isinstance(move, str) else move
        if parsed not in self._legal_moves():
            raise IllegalMove(self._why_illegal(parsed))
        return parsed

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.current_player is None

    def clone(self) -> GameState:
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


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its default and the check a chosen value must pass."""

    default: Any
    check: Callable[[Any], bool]
    description: str


@dataclass(frozen=True)
class Game:
    """A game's identity and its factories; `GAMES` maps ids to these."""

    id: str
    name: str
    min_players: int
    max_players: int
    state_class: type[GameState]
    option_specs: Mapping[str, OptionSpec] = field(default_factory=dict)
    position_parser: Callable[[Game, str, dict[str, Any]], GameState] | None = None

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
                raise ValueError(f"{value!r} is not a valid value for {name}: {spec.description}")
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

    def new_state(self, num_players: int, options: Mapping[str, Any] | None = None) -> GameState:
        """A fresh game at its start."""
        self.check_players(num_players)
        return self.state_class(num_players, self.resolve_options(options))

    def load(self, data: Mapping[str, Any]) -> GameState:
        """Rebuild a state from `dump()`."""
        if data.get("game") != self.id:
            raise ValueError(f"this dump is of {data.get('game')!r}, not {self.id!r}")
        state = self.new_state(data["num_players"], data["options"])
        state._load_state(data["state"])
        return state

    def from_position(self, text: str, options: Mapping[str, Any] | None = None) -> GameState:
        """A two-player state from its position string (board games only)."""
        if self.position_parser is None:
            raise NotImplementedError(f"{self.name} has no position string")
        return self.position_parser(self, text, self.resolve_options(options))


def bool_option(description: str, default: bool) -> OptionSpec:
    """An on/off option."""
    return OptionSpec(default, lambda value: isinstance(value, bool), description)


def choice_option(description: str, default: Any, allowed: tuple[Any, ...]) -> OptionSpec:
    """An option whose value is one of `allowed`."""
    return OptionSpec(
        default,
        lambda value: not isinstance(value, bool) and value in allowed,
        f"{description} (one of {', '.join(map(str, allowed))})",
    )
