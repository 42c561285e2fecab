"""What each playable game provides to the bot: its controls, texts, colours and metadata.

Game UIs sit below the services: they see a running game through the small `Table`
protocol (which the session implements) and never import the services.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import discord
from discord.utils import escape_markdown

from bot.components import GameAction
from bot.replies import Interaction
from engines import GAMES, EndReason, Game, GameState, Result
from engines.base import OptionSpec
from i18n import _, ngettext
from renderers.common import SEAT_COLOURS
from storage import GameRecord, MoveKind, NewMove

AUTOCOMPLETE_LIMIT = 25
"""Discord shows at most 25 autocomplete choices."""

SEAT_BADGES = ("🔵", "🟠", "🟢", "🟣", "🩵")
"""Emoji for seats 0–4, matching the renderer's seat colours (navy, orange, green, pink, sky)."""

StateT = TypeVar("StateT", bound=GameState[Any, Any])
StateT_co = TypeVar("StateT_co", bound=GameState[Any, Any], covariant=True)

BoardItem = discord.ui.Item[Any]
"""A component under a board (a DynamicItem of bot.components)."""


@dataclass(frozen=True)
class Turn:
    """What one action changed: the moves logged, in order, and the state after them."""

    moves: list[NewMove]
    state: GameState[Any, Any]
    note: str | None = None
    """What the mover should know about how the turn was shown (a board Discord refused)."""


@dataclass(frozen=True)
class Notice:
    """A message for the game's thread, posted after a board (scores, say)."""

    embed: discord.Embed


@dataclass(frozen=True)
class PrivateNote:
    """Private information for one player: sent by DM, `fallback` in the thread if DMs fail.

    Both are written when sent, each in its reader's language: `text` in the member's (their
    last known Discord locale), `fallback` in the server's (it is posted in the thread)."""

    user_id: int
    text: Callable[[], str]
    fallback: Callable[[], str]


class Table(Protocol[StateT_co]):
    """A running game as its controls see it (the session implements this)."""

    @property
    def id(self) -> int:
        """The game id."""
        ...

    @property
    def ply(self) -> int:
        """How many moves are logged (the board version components carry)."""
        ...

    @property
    def state(self) -> StateT_co:
        """The engine state."""
        ...

    @property
    def record(self) -> GameRecord:
        """The stored game: seats, options, status."""
        ...

    @property
    def names(self) -> list[str]:
        """Display names by seat."""
        ...

    @property
    def title(self) -> str:
        """`Qawale · Alice vs Bob`."""
        ...

    async def draw(self, view: Mapping[str, object], highlight: str | None, *,
                   preview: bool = False) -> bytes:
        """The picture of `view` with the players' names, drawn off the event loop."""
        ...

    def result(self) -> Result | None:
        """The stored result, or None while running."""
        ...

    def seat_to_act(self, user_id: int, *, expected_ply: int | None = None) -> int:
        """The seat `user_id` plays if they may act now; otherwise raise a Refusal."""
        ...

    async def play(self, user_id: int, move: str, *, expected_ply: int | None,
                   interaction: discord.Interaction[Any] | None = None) -> Turn:
        """Apply, store and announce a move (raise a Refusal or IllegalMove if it may not);
        the answered `interaction` that made it, if given, shows its boards."""
        ...


class GameUI(ABC, Generic[StateT]):
    """A game's Discord controls and texts; the session calls these, never the reverse."""

    game_id: ClassVar[str]
    pitch: ClassVar[str]
    """One line for `/games` and challenges."""
    rules: ClassVar[str]
    """The rules summary `/rules` shows (Discord markdown, at most 4096 characters)."""
    takebacks: ClassVar[bool] = False
    """True where a casual game against the AI may take a move back: a game without chance
    or hidden cards, where going back reveals nothing and draws nothing anew."""

    seat_badges: tuple[str, ...] = SEAT_BADGES
    seat_colours: tuple[discord.Colour, ...] = tuple(
        discord.Colour.from_str(colour.fill) for colour in SEAT_COLOURS[:len(SEAT_BADGES)])
    """Embed colours by seat: the very colours the board pictures use."""

    @property
    def game(self) -> Game[Any]:
        """The engine's game (name, players, options)."""
        return GAMES[self.game_id]

    @property
    def name(self) -> str:
        """The game's name."""
        return self.game.name

    @property
    def players(self) -> str:
        """`2 players`, `2–5 players`."""
        return players_text(self.game)

    def seat_badge(self, seat: int | None) -> str:
        """The emoji that stands for a seat's colour."""
        return self.seat_badges[seat] if seat is not None and seat >= 0 else "🎲"

    def colour(self, result: Result | None, seat: int | None) -> discord.Colour:
        """The embed colour: the winner's, the mover's, or grey for a draw."""
        if result is not None:
            if len(result.winners) == 1:
                return self.seat_colours[result.winners[0]]
            return discord.Colour.light_grey()
        if seat is not None and seat >= 0:
            return self.seat_colours[seat]
        return discord.Colour.blurple()

    def describe(self, table: Table[StateT], move: NewMove) -> str:
        """One line of the game log for a stored move."""
        if move.seat is None:
            return f"🎲 `{move.move}`"
        who = f"{self.seat_badge(move.seat)} **{marked_names(table)[move.seat]}**"
        event = seat_event_text(who, move)
        if event is not None:
            return event
        if move.kind is MoveKind.FORCED:
            return _("{who} had a single possible move: `{move}`.").format(who=who,
                                                                          move=move.move)
        return _("{who} played `{move}`.").format(who=who, move=move.move)

    def summarize(self, table: Table[StateT], moves: Sequence[NewMove]) -> list[str]:
        """The lines a board message shows for the moves of one action (one per move here).

        A game with many automatic steps per turn overrides this to sum them up.
        """
        return [self.describe(table, move) for move in moves]

    def obvious_move(self, state: StateT) -> str | None:
        """A move the bot plays for the player because the choice cannot matter (every
        option has the same outcome); None to ask. A single legal move is played anyway."""
        return None

    def after_announce(self, table: Table[StateT], turn: Turn) -> list[Notice | PrivateNote]:
        """What to send once the board of `turn` is posted (private information, say)."""
        return []

    def result_text(self, table: Table[StateT], result: Result) -> str:
        """The end of the game in one sentence (Discord markdown: the names are escaped)."""
        names = marked_names(table)
        winners = names_text([names[s] for s in result.winners])
        count = len(result.winners)
        if result.reason in (EndReason.RESIGNED, EndReason.TIMEOUT):
            losers = names_text([names[s] for s in range(len(names))
                                 if s not in result.winners])
            if result.reason == EndReason.RESIGNED:
                text = ngettext("{losers} resigned: {winners} wins.",
                                "{losers} resigned: {winners} win.", count)
            else:
                text = ngettext("{losers} ran out of time: {winners} wins.",
                                "{losers} ran out of time: {winners} win.", count)
            return text.format(losers=losers, winners=winners)
        if result.reason == EndReason.AGREED:
            return _("Draw by agreement.")
        if count > 1:
            return _("Draw.")
        return _("{winner} wins!").format(winner=winners)

    @abstractmethod
    def status(self, table: Table[StateT]) -> str:
        """A short status for the board's footer (stocks, counts)."""

    @abstractmethod
    def board_items(self, table: Table[StateT]) -> list[BoardItem]:
        """The components under the board for the player to move."""

    @abstractmethod
    async def handle(
        self, interaction: Interaction, table: Table[StateT], act: GameAction,
        values: list[str],
    ) -> None:
        """React to one of this game's components (raise a Refusal to refuse).

        `act.ply` is the board version the component was drawn for: pass it on to
        `Table.play` so that the write is guarded by it.
        """

    @abstractmethod
    def autocomplete(self, table: Table[StateT], typed: str) -> list[str]:
        """Legal moves in notation that match what the player typed so far."""


LEFT, TIMED_OUT = "left", "timeout"
"""Why a seat was handed to the AI: the text of its LEAVE move in the log (stored: never
translated)."""


def seat_event_text(who: str, move: NewMove) -> str | None:
    """The log line of a seat event (a resignation, a seat handed to the AI, a timeout, an
    accepted draw); None for a move on the board."""
    if move.kind is MoveKind.RESIGN:
        return _("{who} resigned.").format(who=who)
    if move.kind is MoveKind.TIMEOUT:
        return _("{who} ran out of time.").format(who=who)
    if move.kind is MoveKind.DRAW:
        return _("🤝 {who} accepted the draw offer.").format(who=who)
    if move.kind is MoveKind.TAKEBACK:
        return _("↩️ {who} took their last move back.").format(who=who)
    if move.kind is MoveKind.LEAVE:
        if move.move == TIMED_OUT:
            return _("{who} ran out of time: 🤖 the AI plays their seat from now on.").format(
                who=who)
        return _("{who} left the game: 🤖 the AI plays their seat from now on.").format(who=who)
    return None


def marked_names(table: Table[Any]) -> list[str]:
    """Display names by seat, escaped for Discord markdown (message text, embed descriptions
    and titles), where `Sam*` would open an italic and a backtick a code span."""
    # Labels, placeholders, footers, alt text and the pictures show text as it is: they take
    # `table.names`, which an escape would fill with backslashes.
    return [escape_markdown(name) for name in table.names]


def marked_title(table: Table[Any]) -> str:
    """The game's title (its players' names), escaped for Discord markdown as `marked_names`."""
    return escape_markdown(table.title)


def names_text(names: Sequence[str]) -> str:
    """`Alice`, `Alice and Bob`, `Alice, Bob and Carol` in the current language."""
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def players_text(game: Game[Any]) -> str:
    """`2 players`, `2–5 players`."""
    low, high = game.min_players, game.max_players
    if low == high:
        return ngettext("{n} player", "{n} players", low).format(n=low)
    return _("{low}–{high} players").format(low=low, high=high)


NOUNS: dict[str, Callable[[int], str]] = {
    "capture": lambda n: ngettext("{n} capture", "{n} captures", n),
    "card": lambda n: ngettext("{n} card", "{n} cards", n),
    "cell": lambda n: ngettext("{n} cell", "{n} cells", n),
    "empty bed": lambda n: ngettext("{n} empty bed", "{n} empty beds", n),
    "garden": lambda n: ngettext("{n} garden", "{n} gardens", n),
    "legal move": lambda n: ngettext("{n} legal move", "{n} legal moves", n),
    "more turn": lambda n: ngettext("{n} more turn", "{n} more turns", n),
    "move": lambda n: ngettext("{n} move", "{n} moves", n),
    "own pawn": lambda n: ngettext("{n} own pawn", "{n} own pawns", n),
    "paquet": lambda n: ngettext("{n} paquet", "{n} paquets", n),
    "pawn": lambda n: ngettext("{n} pawn", "{n} pawns", n),
    "pebble": lambda n: ngettext("{n} pebble", "{n} pebbles", n),
    "pile": lambda n: ngettext("{n} pile", "{n} piles", n),
    "player": lambda n: ngettext("{n} player", "{n} players", n),
    "point": lambda n: ngettext("{n} point", "{n} points", n),
    "step": lambda n: ngettext("{n} step", "{n} steps", n),
    "tile": lambda n: ngettext("{n} tile", "{n} tiles", n),
    "turn": lambda n: ngettext("{n} turn", "{n} turns", n),
}
"""The counted nouns `plural` knows, each through its own plural message (the nouns the game
UIs count): `NOUNS["pebble"](3)` is `{n} pebbles` in English, `{n} galets` in French."""


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 pebble`, `2 pebbles`, `0 pebbles` in the current language (French: `0 galet`).

    `word` is an English noun of `NOUNS`, looked up through its plural message; a noun not
    listed there stays English (`many` for an irregular plural): add it to `NOUNS`.
    """
    counted = NOUNS.get(word)
    if counted is not None:
        return counted(count).format(n=count)
    return f"{count} {word if count == 1 else many or word + 's'}"


def option_value_text(spec: OptionSpec | None, value: object) -> str:
    """How players read one option value: its choice label, `yes`/`no`, or the value.

    Labels are looked up by value *and type*: `1 == True` in Python, so a plain `in` would
    show a numeric choice of 1 with the label of True (and True with the label of 1).
    """
    if spec is not None:
        for choice, text in spec.choice_labels.items():
            if type(choice) is type(value) and choice == value:
                return _(text) if text else text  # labels are N_-marked by the engines
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def option_label_text(game: Game[Any], name: str) -> str:
    """How players read an option's name (`grape faces on the die`), in the current language."""
    spec = game.option_specs.get(name)
    return _(spec.label) if spec is not None and spec.label else name


def describe_options(game: Game[Any], options: Mapping[str, object]) -> str:
    """`grape faces on the die: 2 · removed pawns return to their stock: yes` (or '')."""
    return " · ".join(
        _("{option}: {value}").format(
            option=option_label_text(game, name),
            value=option_value_text(game.option_specs.get(name), value))
        for name, value in options.items())
