"""`python -m bot.copy_database FROM_URL TO_URL`: move a bot's database to another server.

Copies every game, move, challenge, timer, setting and rating of one database (say the
SQLite file a bot started with) into an empty one (say PostgreSQL, once the bot outgrows a
process), in one transaction, then checks the copy: every game's move log, replayed through
its engine from the start, must give the state stored with it, and each game must have as
many moves as in the original. Stop the bot while it runs; point DATABASE_URL at the new
database afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import dataclass, field

from engines import GAMES, IllegalMove
from storage import Database, DatabaseUnusable, GameRecord, MoveRecord, standing_moves

CHECK_BATCH = 200
"""Games replayed at a time."""


@dataclass
class Check:
    """What the replay of the copy found."""

    games: int = 0
    moves: int = 0
    problems: list[str] = field(default_factory=list)


def replay_problem(record: GameRecord, moves: list[MoveRecord]) -> str | None:
    """Why `record`'s move log does not lead to its stored state, or None when it does."""
    state = GAMES[record.game].new_state(len(record.seats), options=record.options or None)
    for move in standing_moves(moves):
        if not move.kind.changes_the_board:
            continue
        try:
            state.apply(move.move)
        except IllegalMove as error:
            return f"game #{record.id}: move {move.ply} `{move.move}` is illegal ({error})"
    if state.dump() != record.state:
        return f"game #{record.id}: its {len(moves)} moves do not lead to its stored position"
    return None


async def check_copy(source: Database, target: Database) -> Check:
    """Replay every copied game and compare its move count with the original's."""
    check = Check()
    last = 0
    while records := await target.games_after(last, CHECK_BATCH):
        last = records[-1].id
        for record in records:
            await _check_game(source, target, record, check)
    return check


async def _check_game(source: Database, target: Database, record: GameRecord,
                      check: Check) -> None:
    """Replay one copied game; compare its move log with the original's."""
    moves = await target.moves(record.id)
    check.games += 1
    check.moves += len(moves)
    if moves != await source.moves(record.id):
        check.problems.append(f"game #{record.id}: its move log differs from the original's")
    problem = replay_problem(record, moves)
    if problem is not None:
        check.problems.append(problem)


async def copy_database(source_url: str, target_url: str) -> int:
    """Copy, check, report; the exit code."""
    source = await Database.open(source_url)
    try:
        target = await Database.open(target_url)
    except BaseException:
        await source.close()
        raise
    try:
        counts = await target.copy_from(source)
        print("copied: " + ", ".join(f"{count} {table}" for table, count in counts.items()))
        check = await check_copy(source, target)
    finally:
        await source.close()
        await target.close()
    if check.problems:
        print(f"the copy does not replay identically ({len(check.problems)} problem(s)):",
              *check.problems[:20], sep="\n  ", file=sys.stderr)
        return 1
    print(f"checked: {check.games} games and {check.moves} moves replay identically")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the two URLs and copy."""
    parser = argparse.ArgumentParser(prog="python -m bot.copy_database", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help="the database to copy, e.g. sqlite:///data/ludotheque.db")
    parser.add_argument("target", help="an empty database, e.g. postgresql://bot@db/ludotheque")
    args = parser.parse_args(argv)
    try:
        return asyncio.run(copy_database(args.source, args.target))
    except DatabaseUnusable as error:
        print(f"cannot copy: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
