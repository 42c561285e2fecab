"""A game's life: creating it, storing its moves (one transaction each), its clock's
timers, draw offers, abort votes and its end; and finding the games running."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.base import DatabaseBase, dumps
from storage.errors import ChallengeClosed
from storage.models import (
    ALL_SHARDS,
    TURN_EVENTS,
    ChallengeStatus,
    GameRecord,
    GameStatus,
    MoveKind,
    MoveRecord,
    NewTimer,
    Seat,
    Shards,
    Timer,
)
from storage.rating_writes import rate_safely
from storage.rows import as_move, as_timer
from storage.sql import Executor, Values


@dataclass(frozen=True)
class NewMove:
    """A move to append to the log."""

    seat: int | None
    user_id: int | None
    kind: MoveKind
    move: str


class StaleGame(RuntimeError):
    """The stored game moved on (or ended) since the state a write was computed from."""


def _timer_rows(game_id: int, timers: Sequence[NewTimer]) -> list[tuple[Any, ...]]:
    return [(game_id, t.event.value, t.due_at.timestamp(), t.ply, t.seat) for t in timers]


async def _replace_turn(sql: Executor, game_id: int, deadline: datetime | None,
                        timers: Sequence[NewTimer]) -> None:
    """Set the turn's deadline and swap the game's turn timers for `timers` (same transaction)."""
    await sql.execute("UPDATE games SET deadline = ? WHERE id = ?",
                      (deadline.isoformat() if deadline else None, game_id))
    await sql.execute(
        "DELETE FROM timers WHERE game_id = ? AND event IN (SELECT value FROM json_each(?))",
        (game_id, Values([event.value for event in TURN_EVENTS])))
    await sql.executemany(
        "INSERT INTO timers (game_id, event, due_at, ply, seat) VALUES (?, ?, ?, ?, ?)",
        _timer_rows(game_id, timers))


class GameQueries(DatabaseBase):
    """Games, their moves and timers."""

    async def create_game(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        parent_id: int | None,
        seats: Iterable[Seat],
        options: dict[str, Any],
        rng_seed: int,
        state: dict[str, Any],
        now: datetime,
        clock: str = "none",
        to_move: int | None = None,
        casual: bool = False,
        tournament: tuple[int, int] | None = None,
        rematch_of: int | None = None,
        accepting: int | None = None,
    ) -> GameRecord:
        """Insert a running game with its seats, in one transaction; returns it with its id.

        `to_move` is the seat to decide (see `games_to_resume`); None when unknown. A `casual`
        game counts for no rating. `tournament` (its id and round) makes it a game of that
        round, `rematch_of` the rematch of that finished game, and `accepting` the game of
        that challenge, closed as accepted, all in the same transaction: a challenge that is
        no longer pending raises ChallengeClosed and nothing is written (a crash can never
        leave a game stored for a challenge still open to a second Accept)."""
        stamp = now.isoformat()
        seat_rows = [(s.seat, s.user_id, s.display_name) for s in seats]

        async def insert(sql: Executor) -> int:
            row = await sql.fetchrow(
                """INSERT INTO games (game, guild_id, channel_id, parent_id, options, rng_seed,
                                      state, ply, status, created_at, updated_at, clock,
                                      to_move, rated, casual, rematch_of)
                   VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id""",
                (game, guild_id, channel_id, parent_id, dumps(options), rng_seed,
                 dumps(state), GameStatus.RUNNING.value, stamp, stamp, clock, to_move,
                 int(not casual), int(casual), rematch_of),
            )
            assert row is not None  # RETURNING gives the new row's id
            game_id = int(row["id"])
            await sql.executemany(
                "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (?, ?, ?, ?)",
                [(game_id, *row) for row in seat_rows],
            )
            if tournament is not None:
                await sql.execute("INSERT INTO tournament_games (game_id, tournament_id, round) "
                                  "VALUES (?, ?, ?)", (game_id, *tournament))
            if accepting is not None:
                closed = await sql.execute(
                    "UPDATE challenges SET status = ?, game_id = ? WHERE id = ? AND status = ?",
                    (ChallengeStatus.ACCEPTED.value, game_id, accepting,
                     ChallengeStatus.PENDING.value))
                if closed.rowcount != 1:
                    raise ChallengeClosed(accepting)  # rolls the whole transaction back
            return game_id

        game_id = await self.write(insert)
        record = await self.get_game(game_id)
        assert record is not None
        return record

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or None."""
        found = await self._games("SELECT * FROM games WHERE id = ?", (game_id,))
        return found[0] if found else None

    async def running_game_in(self, channel_id: int) -> GameRecord | None:
        """The game running in this channel or thread, if any."""
        found = await self._games(
            "SELECT * FROM games WHERE channel_id = ? AND status = ? ORDER BY id DESC LIMIT 1",
            (channel_id, GameStatus.RUNNING.value),
        )
        return found[0] if found else None

    async def last_game_in(self, channel_id: int) -> GameRecord | None:
        """The game started last in this channel or thread, whatever its status."""
        found = await self._games(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        return found[0] if found else None

    async def running_rematch_of(self, game_id: int) -> GameRecord | None:
        """The rematch of this finished game still being played, if any."""
        found = await self._games(
            "SELECT * FROM games WHERE rematch_of = ? AND status = ? ORDER BY id DESC LIMIT 1",
            (game_id, GameStatus.RUNNING.value),
        )
        return found[0] if found else None

    async def running_games_under(self, channel_id: int) -> list[GameRecord]:
        """The games running in this channel or thread, or in a thread of this channel."""
        return await self._games(
            "SELECT * FROM games WHERE status = ? AND (channel_id = ? OR parent_id = ?) "
            "ORDER BY id", (GameStatus.RUNNING.value, channel_id, channel_id))

    async def running_games_on_server(self, guild_id: int) -> list[GameRecord]:
        """The games running on a server."""
        return await self._games(
            "SELECT * FROM games WHERE guild_id = ? AND status = ? ORDER BY id",
            (guild_id, GameStatus.RUNNING.value))

    async def running_games(self) -> list[GameRecord]:
        """Every game still running."""
        return await self._games(
            "SELECT * FROM games WHERE status = ? ORDER BY id", (GameStatus.RUNNING.value,)
        )

    async def games_to_resume(self, finished_since: datetime | None = None,
                              ) -> list[GameRecord]:
        """Running games a start must act on: a board behind the stored position, a clock
        not started, an AI (or a chance event) to move, or a seat to move not known. The
        others wait in storage until someone plays them. With `finished_since`, also the
        games finished since then whose final board was never shown (a crash, or Discord
        failing); only recent ones, as games older than the board's ply know none."""
        since = finished_since.isoformat() if finished_since is not None else None
        return await self._games(
            """SELECT * FROM games g WHERE (g.status = ? AND (
                   g.board_ply IS NULL OR g.board_ply != g.ply
                   OR (g.clock != 'none' AND g.deadline IS NULL)
                   OR g.to_move IS NULL OR g.to_move < 0
                   OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id
                              AND s.seat = g.to_move
                              AND (s.user_id < 0 OR s.stand_in IS NOT NULL))))
               OR (g.status = ? AND g.finished_at >= ?
                   AND (g.board_ply IS NULL OR g.board_ply != g.ply))
               ORDER BY g.id""",
            (GameStatus.RUNNING.value, GameStatus.FINISHED.value, since),
        )

    async def games_with_stale_boards(self) -> list[GameRecord]:
        """Running games whose posted board does not show the stored ply (or may not)."""
        return await self._games(
            """SELECT * FROM games WHERE status = ? AND (board_ply IS NULL OR board_ply != ply)
               ORDER BY id""",
            (GameStatus.RUNNING.value,),
        )

    async def record_moves(
        self,
        game_id: int,
        expected_ply: int,
        moves: Sequence[NewMove],
        state: dict[str, Any],
        *,
        result: Mapping[str, Any] | None,
        now: datetime,
        deadline: datetime | None = None,
        timers: Sequence[NewTimer] = (),
        stand_ins: Mapping[int, str] | None = None,
        unrated: bool = False,
        to_move: int | None = None,
        clear_draw_offer: bool = False,
    ) -> int:
        """Append moves and store the new state in one transaction; returns the new ply.

        Raises `StaleGame` when the stored ply is not `expected_ply`, so a move computed from
        an out-of-date state is never written. The guarded UPDATE and the log rows go to the
        writer's thread in one round trip; any failure rolls back both. The same transaction
        sets the next turn's `deadline` and replaces the game's turn timers with `timers`
        (an ARCHIVE timer among them is added), hands the seats in `stand_ins` to the AI, and
        with `unrated` takes the game out of the ratings. `to_move` is the seat to decide next;
        `clear_draw_offer` withdraws a standing draw offer (its receiver moved, or the game ended).
        """
        stamp = now.isoformat()
        status = GameStatus.FINISHED if result is not None else GameStatus.RUNNING
        new_ply = expected_ply + len(moves)
        update = (dumps(state), new_ply, status.value, dumps(result) if result else None,
                  stamp, stamp if result is not None else None,
                  None if result is not None else to_move, int(clear_draw_offer), game_id,
                  expected_ply, GameStatus.RUNNING.value)
        rows = [(game_id, expected_ply + i + 1, m.seat, m.user_id, m.kind.value, m.move, stamp)
                for i, m in enumerate(moves)]

        async def write(sql: Executor) -> None:
            written = await sql.execute(
                """UPDATE games SET state = ?, ply = ?, status = ?, result = ?, updated_at = ?,
                                     finished_at = ?, to_move = ?,
                                     draw_offer = CASE WHEN ? = 1 THEN NULL ELSE draw_offer END
                   WHERE id = ? AND ply = ? AND status = ?""",
                update,
            )
            if written.rowcount != 1:
                raise StaleGame(f"game {game_id} is no longer at ply {expected_ply}")
            await sql.executemany(
                """INSERT INTO moves (game_id, ply, seat, user_id, kind, move, created_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?)""",
                rows,
            )
            await _replace_turn(sql, game_id, deadline, timers)
            await sql.executemany(
                "UPDATE seats SET stand_in = ? WHERE game_id = ? AND seat = ?",
                [(level, game_id, seat) for seat, level in (stand_ins or {}).items()])
            if unrated:
                await sql.execute("UPDATE games SET rated = 0 WHERE id = ?", (game_id,))
            if result is not None and self._rater is not None:
                await rate_safely(sql, self._rater)

        await self.write(write)
        return new_ply

    async def set_turn_clock(self, game_id: int, ply: int, deadline: datetime | None,
                             timers: Sequence[NewTimer]) -> bool:
        """Give the turn at `ply` its deadline and timers (replacing the game's turn timers);
        False when the game is no longer running at that ply."""

        async def write(sql: Executor) -> bool:
            current = await sql.fetchrow(
                "SELECT 1 FROM games WHERE id = ? AND ply = ? AND status = ?",
                (game_id, ply, GameStatus.RUNNING.value))
            if current is None:
                return False
            await _replace_turn(sql, game_id, deadline, timers)
            return True

        return await self.write(write)

    async def next_timer(self, shards: Shards = ALL_SHARDS) -> Timer | None:
        """The timer due first among the games of servers on `shards`, or None."""
        condition, params = shards.condition("g.guild_id")
        rows = await self._fetch(
            f"""SELECT t.* FROM timers t JOIN games g ON g.id = t.game_id
                WHERE {condition} ORDER BY t.due_at, t.id LIMIT 1""", params)
        return as_timer(rows[0]) if rows else None

    async def timers_of(self, game_id: int) -> list[Timer]:
        """A game's pending timers, the first due first."""
        rows = await self._fetch("SELECT * FROM timers WHERE game_id = ? ORDER BY due_at, id",
                                 (game_id,))
        return [as_timer(row) for row in rows]

    async def claim_timer(self, timer_id: int, now: datetime, until: datetime) -> bool:
        """Take a timer that is due at `now` to fire it: its due time moves to `until` (a
        lease), so no other process fires it meanwhile, and it fires again after `until` if
        this one never drops it (a crash). False when it is no longer due (another process
        claimed it first, or it was replaced or dropped)."""
        written = await self._write(
            "UPDATE timers SET due_at = ? WHERE id = ? AND due_at <= ?",
            (until.timestamp(), timer_id, now.timestamp()))
        return written.rowcount == 1

    async def drop_timer(self, timer_id: int) -> bool:
        """Forget a timer once it has fired; False if it was already gone (fired elsewhere)."""
        written = await self._write("DELETE FROM timers WHERE id = ?", (timer_id,))
        return written.rowcount == 1

    async def postpone_timer(self, timer_id: int, due_at: datetime) -> None:
        """Try a timer again later (its action failed), counting the attempt."""
        await self._write("UPDATE timers SET due_at = ?, attempts = attempts + 1 WHERE id = ?",
                          (due_at.timestamp(), timer_id))

    async def add_timer(self, game_id: int, timer: NewTimer) -> None:
        """Store one timer (an archive after the end, say)."""
        await self._write(
            "INSERT INTO timers (game_id, event, due_at, ply, seat) VALUES (?, ?, ?, ?, ?)",
            _timer_rows(game_id, [timer])[0])

    async def set_draw_offer(self, game_id: int, ply: int, seat: int | None) -> bool:
        """Make `seat`'s draw offer the standing one (None: withdraw it) while the game is
        running at `ply`; False when it moved on meanwhile."""
        written = await self._write(
            "UPDATE games SET draw_offer = ? WHERE id = ? AND ply = ? AND status = ?",
            (seat, game_id, ply, GameStatus.RUNNING.value))
        return written.rowcount == 1

    async def add_abort_vote(self, game_id: int, user_id: int) -> bool:
        """Record that a player asks to abort; False if they had asked already."""
        written = await self._write(
            "INSERT INTO abort_votes (game_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (game_id, user_id))
        return written.rowcount == 1

    async def abort_votes(self, game_id: int) -> set[int]:
        """The players who asked to abort the game."""
        rows = await self._fetch("SELECT user_id FROM abort_votes WHERE game_id = ?", (game_id,))
        return {int(row["user_id"]) for row in rows}

    async def abort_game(self, game_id: int, *, now: datetime) -> bool:
        """Mark a running game aborted (it counts for no rating); False if it was not running."""
        stamp = now.isoformat()
        written = await self._write(
            """UPDATE games SET status = ?, updated_at = ?, finished_at = ?
               WHERE id = ? AND status = ?""",
            (GameStatus.ABORTED.value, stamp, stamp, game_id, GameStatus.RUNNING.value),
        )
        return written.rowcount == 1

    async def set_board_message(
        self, game_id: int, message_id: int | None, ply: int | None = None
    ) -> None:
        """Remember the board message that carries the game's live components, and the ply it
        shows (None: unknown, so the board counts as stale), in one write."""
        await self._write(
            "UPDATE games SET board_message_id = ?, board_ply = ? WHERE id = ?",
            (message_id, ply, game_id),
        )

    async def turn_log(self, game_id: int, seat: int) -> tuple[list[MoveRecord], int]:
        """What `seat` has not seen on a board of its own, and the number of decisions so far.

        The moves since `seat`'s last decision before its current turn (which began after
        the last decision of anyone else): every move of the others since it last played,
        then its own moves of this turn.
        """
        player, takeback = MoveKind.PLAYER.value, MoveKind.TAKEBACK.value

        async def read(sql: Executor) -> tuple[list[MoveRecord], int]:
            # A decision counts unless a later take-back returned to a position before it.
            # The game's take-backs are read once (few, if any), then each decision is
            # checked against them alone.
            counts = await sql.fetchrow(
                """WITH takebacks AS MATERIALIZED (
                       SELECT ply, CAST(CASE WHEN kind = ? THEN move ELSE '0' END AS INTEGER)
                                   AS back_to
                       FROM moves WHERE game_id = ? AND kind = ?)
                   SELECT (SELECT COUNT(*) FROM moves d WHERE d.game_id = ? AND d.kind = ?
                           AND NOT EXISTS (SELECT 1 FROM takebacks t
                                           WHERE t.ply > d.ply AND t.back_to < d.ply))
                          AS decisions,
                          (SELECT COALESCE(MAX(ply), 0) FROM moves WHERE game_id = ?
                           AND kind = ? AND seat = ? AND ply <= (
                               SELECT COALESCE(MAX(ply), 0) FROM moves WHERE game_id = ?
                               AND kind = ? AND seat != ?)) AS since""",
                (takeback, game_id, takeback, game_id, player, game_id, player, seat, game_id,
                 player, seat))
            assert counts is not None  # a SELECT of two subqueries gives one row
            rows = await sql.fetch(
                "SELECT * FROM moves WHERE game_id = ? AND ply > ? ORDER BY ply",
                (game_id, counts["since"]))
            return [as_move(row) for row in rows], int(counts["decisions"])

        return await self._read(read)

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """The game's move log, in order."""
        rows = await self._fetch("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        return [as_move(row) for row in rows]
