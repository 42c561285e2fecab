"""Plain records read from and written to the database."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any


class GameStatus(StrEnum):
    """Where a game stands."""

    RUNNING = "running"
    FINISHED = "finished"
    ABORTED = "aborted"


class ChallengeStatus(StrEnum):
    """Where a challenge stands."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


class MoveKind(StrEnum):
    """Who made a logged move: a player, the bot on a player's behalf, chance, a resignation."""

    PLAYER = "player"
    FORCED = "forced"
    CHANCE = "chance"
    RESIGN = "resign"
    LEAVE = "leave"
    """A seat handed to the AI (its player left or ran out of time); the game goes on."""
    TIMEOUT = "timeout"
    """The player to move ran out of time and the others claimed the win."""
    DRAW = "draw"
    """The player who accepted a draw offer: the game ends drawn by agreement."""
    TAKEBACK = "takeback"
    """A player took their last decision back: the position returns to what it was after
    the log line whose ply is the move's text; every board move logged in between no longer
    stands (see `standing_moves`)."""

    @property
    def changes_the_board(self) -> bool:
        """True for moves the engine played (a replay applies them); False for seat events."""
        return self in (MoveKind.PLAYER, MoveKind.FORCED, MoveKind.CHANCE)


class TimerEvent(StrEnum):
    """What a stored timer does when it is due."""

    HALF_TIME = "half_time"
    """Remind the player to move: half their time is gone."""
    LAST_CALL = "last_call"
    """Remind the player to move: their time is nearly out."""
    TIMEOUT = "timeout"
    """The player to move ran out of time."""
    ARCHIVE = "archive"
    """A finished game's thread is archived and locked."""
    AWAY = "away"
    """A player went away or came back (`/away`): their turn's clock is set again."""


TURN_EVENTS = (TimerEvent.HALF_TIME, TimerEvent.LAST_CALL, TimerEvent.TIMEOUT)
"""The timers of one turn: a new turn replaces them."""


SHARD_SHIFT = 22
"""Discord puts a server on shard (server id >> 22) % shard count, direct messages on 0."""


@dataclass(frozen=True)
class Shards:
    """The Discord shards one bot process runs, out of `count` (`ids` None: all of them)."""

    count: int = 1
    ids: tuple[int, ...] | None = None

    def owns(self, guild_id: int | None) -> bool:
        """True when a server (None: direct messages) is on one of these shards."""
        if self.ids is None:
            return True
        shard = 0 if guild_id is None else (guild_id >> SHARD_SHIFT) % self.count
        return shard in self.ids

    def condition(self, guild_column: str) -> tuple[str, list[int]]:
        """A SQL condition (and its parameters) true for the rows of servers on these shards;
        the same on SQLite and PostgreSQL (integer division, no bit shift on NULL)."""
        if self.ids is None:
            return "1 = 1", []
        marks = ", ".join("?" for _ in self.ids)
        shard = (f"CASE WHEN {guild_column} IS NULL THEN 0 "
                 f"ELSE ({guild_column} / {1 << SHARD_SHIFT}) % ? END")
        return f"{shard} IN ({marks})", [self.count, *self.ids]


ALL_SHARDS = Shards()
"""One process running every shard (the default)."""


@dataclass(frozen=True)
class Timer:
    """A stored timer: `event` for `game_id` once `due_at` has passed, if still at `ply`."""

    id: int
    game_id: int
    event: TimerEvent
    due_at: datetime
    ply: int
    seat: int | None
    attempts: int = 0


@dataclass(frozen=True)
class NewTimer:
    """A timer to store."""

    event: TimerEvent
    due_at: datetime
    ply: int
    seat: int | None = None


@dataclass(frozen=True)
class Seat:
    """A player's seat in a game."""

    seat: int
    user_id: int
    display_name: str
    stand_in: str | None = None
    """The AI level playing this seat since its player left or ran out of time."""


@dataclass(frozen=True)
class MoveRecord:
    """One line of a game's move log."""

    ply: int
    seat: int | None
    user_id: int | None
    kind: MoveKind
    move: str
    created_at: datetime


def standing_moves(moves: Sequence[MoveRecord]) -> list[MoveRecord]:
    """The log without what was taken back: the moves that made the present position.

    A TAKEBACK line returns the game to its position after the line it names, so the lines
    logged after that one and before it no longer stand; the log itself is never rewritten
    (its ply numbers version the boards and their buttons).
    """
    standing: list[MoveRecord] = []
    for move in moves:
        if move.kind is MoveKind.TAKEBACK:
            back_to = int(move.move)
            while standing and standing[-1].ply > back_to:
                standing.pop()
        standing.append(move)
    return standing


@dataclass
class GameRecord:
    """A game's row: who plays, where, its engine dump and status."""

    id: int
    game: str
    guild_id: int | None
    channel_id: int
    parent_id: int | None
    seats: list[Seat]
    options: dict[str, Any]
    rng_seed: int
    state: dict[str, Any]
    ply: int
    status: GameStatus
    result: dict[str, Any] | None
    board_message_id: int | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None = None
    board_ply: int | None = None
    """The ply the posted board message shows; None when unknown (never posted, or lost)."""
    clock: str = "none"
    """The time control's name (`bot.clock`): how long each move may take."""
    deadline: datetime | None = None
    """When the player to move runs out of time; None without a clock or anyone to wait for."""
    rated: bool = True
    """False for a casual game, or once a seat of a two-player game was handed to the AI: it
    counts for no rating."""
    casual: bool = False
    """Agreed casual in its challenge or table (a rematch is casual too): never rated."""
    draw_offer: int | None = None
    """The seat whose draw offer stands (until the other player answers or moves), or None."""
    tournament_id: int | None = None
    """The tournament the game is played for, or None for a game of its own."""

    def seat_of(self, user_id: int) -> int | None:
        """The seat `user_id` plays, or None for a spectator."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_at(self, seat: int) -> int:
        """The user id playing `seat`."""
        return self.seats[seat].user_id


@dataclass(frozen=True)
class GameSummary:
    """What lists of games show (history, replay suggestions, ratings): no engine state."""

    id: int
    game: str
    guild_id: int | None
    seats: list[Seat]
    status: GameStatus
    result: dict[str, Any] | None
    rated: bool
    updated_at: datetime
    finished_at: datetime | None
    casual: bool = False
    """Agreed casual: never rated (`rated` is False too)."""

    def seat_of(self, user_id: int) -> int | None:
        """The seat `user_id` played, or None."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)


@dataclass(frozen=True)
class RunningGame:
    """A game in progress as a member's list shows it (`/mygames`): where it is, who is to
    move and until when; no engine state."""

    id: int
    game: str
    guild_id: int | None
    channel_id: int
    board_message_id: int | None
    seats: list[Seat]
    to_move: int | None
    """The seat to decide; None when unknown (a game stored before this was kept)."""
    deadline: datetime | None
    updated_at: datetime

    def waits_for(self, user_id: int) -> bool:
        """True when it is `user_id`'s turn."""
        seat = self.to_move
        return seat is not None and 0 <= seat < len(self.seats) and \
            self.seats[seat].user_id == user_id


GLOBAL_SCOPE = 0
"""The ratings scope of all servers together; a server's own scope is its guild id."""


@dataclass
class RatingRow:
    """One player's rating and record in one game and scope, as stored."""

    game: str
    scope: int
    player_id: int
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    streak: int = 0
    """Current streak: +n for n wins in a row, -n for n losses in a row, 0 after a draw."""
    best_streak: int = 0
    """Longest run of wins."""

    @property
    def rating(self) -> float:
        """The displayed rating (`displayed_rating`)."""
        return displayed_rating(self.mu, self.sigma)


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to a player's displayed rating, in one scope."""

    player_id: int
    before: float | None
    """None: the game was their first of its kind in that scope."""
    after: float


def displayed_rating(mu: float, sigma: float) -> float:
    """The rating players see: openskill's ordinal (mu - 3 sigma), conservative by design."""
    return mu - 3 * sigma


@dataclass(frozen=True)
class RatingPoint:
    """A player's displayed rating after one rated game, in one scope (a point of their
    rating chart)."""

    game_id: int
    finished_at: datetime
    before: float | None
    """None: the game was their first of its kind in that scope."""
    after: float


@dataclass(frozen=True)
class Climber:
    """A player's rating gain over a period in one game and scope (a monthly leaderboard's
    line)."""

    player_id: int
    name: str
    gain: float
    """The sum of the rating changes of their games finished in the period."""
    games: int
    """Their rated games finished in the period (those whose change was kept)."""
    rating: float
    """Their displayed rating now."""


@dataclass(frozen=True)
class GameActivity:
    """How much one game is played on a server (`/serverstats`)."""

    game: str
    finished: int
    """Games finished there, ever (aborted ones not counted)."""
    finished_since: int
    """Of those, the games finished in the period asked for."""
    running: int
    """Games in progress there now."""


@dataclass(frozen=True)
class ServerActivity:
    """What a server has played (`/serverstats`): each game played there, the members who
    finished a game in the period, the most active of them, and when its first game began."""

    games: list[GameActivity]
    players_since: int
    most_active: list[tuple[int, int]]
    """(member id, games finished in the period), the most games first (AI seats left out)."""
    first_game: datetime | None


@dataclass(frozen=True)
class MonthRecap:
    """What a server played in a month (its recap): each game's finished games, most first,
    how many members finished one, the most active of them, and its tournaments' winners."""

    games: list[tuple[str, int]]
    players: int
    most_active: list[tuple[int, int]]
    """(member id, games finished in the month), the most games first (AI seats left out)."""
    tournaments: list[tuple[str, list[str]]] = field(default_factory=list)
    """The tournaments finished in the month, first finished first: (game, the names of
    those who shared first place)."""


@dataclass(frozen=True)
class Totals:
    """What the whole bot has seen (`/about`): games in progress and finished, the servers
    that played and the people who did."""

    running: int
    finished: int
    servers: int
    players: int


@dataclass
class ChallengeRecord:
    """An open or answered challenge."""

    id: int
    game: str
    guild_id: int | None
    channel_id: int
    challenger_id: int
    opponent_ids: list[int]
    player_names: dict[int, str]
    options: dict[str, Any]
    message_id: int | None
    status: ChallengeStatus
    game_id: int | None
    created_at: datetime
    expires_at: datetime
    accepted_ids: list[int] = field(default_factory=list)
    """Invited players who have accepted so far."""
    kind: str = "challenge"
    """`challenge` (named opponents accept), `lobby` (members join, the host starts) or
    `tournament` (a lobby whose start opens a tournament: a round robin, or a Swiss one past
    8 players)."""
    clock: str = "daily"
    """The time control the game will have."""
    seating: list[int] | None = None
    """Player ids in seat order when fixed (a rematch swaps seats); None: seats are drawn."""
    casual: bool = False
    """A casual challenge or table: its game counts for no rating."""
    legs: int = 1
    """A tournament's table: how many times each pair of players will meet (seats swapped)."""
    auto_start: bool = False
    """A tournament's table that starts by itself when it expires (`starts_in:`), if enough
    players joined."""

    @property
    def is_lobby(self) -> bool:
        """True for an open table that anyone may join (a tournament's too)."""
        return self.kind in ("lobby", "tournament")

    @property
    def is_tournament(self) -> bool:
        """True for the table of a tournament (the host starts it)."""
        return self.kind == "tournament"

    @property
    def player_ids(self) -> list[int]:
        """Everyone who would play: the challenger (or host) first, then the others."""
        return [self.challenger_id, *self.opponent_ids]

    def name_of(self, user_id: int) -> str:
        """A player's display name as it was when the challenge was made."""
        return self.player_names.get(user_id, f"player {user_id}")


class TournamentStatus(StrEnum):
    """Where a tournament stands."""

    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    """Cancelled by its host or a moderator, or its channel or server is gone: no further
    game opens."""


@dataclass(frozen=True)
class TournamentPlayer:
    """A player of a tournament, at their place in the draw."""

    position: int
    user_id: int
    name: str
    withdrawn_in: int | None = None
    """The round in which they withdrew (their games from then on are forfeited), or None."""
    place: int | None = None
    """Their final place (1: a winner), once the tournament is over."""

    def withdrawn_by(self, round_no: int) -> bool:
        """True when they had withdrawn by round `round_no` (in it or before)."""
        return self.withdrawn_in is not None and self.withdrawn_in <= round_no


@dataclass
class TournamentRecord:
    """A tournament (a round robin, or a Swiss one past 8 players): its players in draw
    order and the round being played."""

    id: int
    table_id: int
    """The table (a challenge of kind `tournament`) that gathered its players."""
    game: str
    guild_id: int | None
    channel_id: int
    message_id: int | None
    host_id: int
    options: dict[str, Any]
    clock: str
    casual: bool
    legs: int
    """How many times each pair meets: 2 plays the rounds again with the seats swapped."""
    round: int
    """The round being played (from 1)."""
    status: TournamentStatus
    created_at: datetime
    finished_at: datetime | None
    players: list[TournamentPlayer] = field(default_factory=list)

    def name_of(self, user_id: int) -> str:
        """A player's name as it was when the tournament started."""
        return next((p.name for p in self.players if p.user_id == user_id), f"player {user_id}")


@dataclass(frozen=True)
class TournamentGame:
    """A game of a tournament's round: its seats' players and how it ended, if it did."""

    game_id: int
    round: int
    channel_id: int
    player_ids: tuple[int, ...]
    """The seats' players, seat 0 first."""
    status: GameStatus
    result: dict[str, Any] | None
