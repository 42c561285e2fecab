"""The database: games, moves, challenges, timers, settings and ratings, whatever the backend.

Each query is a `storage.sql.Work` written once in SQL that SQLite and PostgreSQL both
understand; a backend (`storage.sqlite`, `storage.postgres`) runs it in a transaction or a read
snapshot. `Database.open(url)` picks the backend from the URL's scheme. The queries live in one
module per subject (`storage.game_queries`, `list_queries`, `rating_queries`,
`challenge_queries`, `setting_queries`, `copying`, `privacy_queries`, `tournament_queries`,
`absence_queries`, `block_queries`), each a part of `Database` built on `storage.base.DatabaseBase`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from storage.absence_queries import AbsenceQueries
from storage.block_queries import BlockQueries
from storage.challenge_queries import ChallengeQueries
from storage.copying import CopyQueries
from storage.errors import DatabaseUnusable
from storage.game_queries import GameQueries, NewMove, StaleGame
from storage.list_queries import GameListQueries
from storage.migrations import MIGRATIONS, Migration
from storage.privacy_queries import PrivacyQueries
from storage.rating_queries import RatingQueries
from storage.rating_writes import Rater
from storage.setting_queries import SettingQueries
from storage.tournament_queries import TournamentQueries

__all__ = ["DEFAULT_DATABASE_URL", "Database", "NewMove", "StaleGame", "register_backend"]

DEFAULT_DATABASE_URL = "sqlite:///data/ludotheque.db"

Connect = Callable[[str, Sequence[Migration], "Rater | None"], Awaitable["Database"]]
"""Opens a database of one backend: URL, migrations, rater."""

_BACKENDS: dict[str, Connect] = {}


def register_backend(scheme: str, connect: Connect) -> None:
    """Make `Database.open` take URLs of `scheme` (each backend module registers itself)."""
    _BACKENDS[scheme] = connect


class Database(GameQueries, GameListQueries, RatingQueries, ChallengeQueries, SettingQueries,
               CopyQueries, PrivacyQueries, TournamentQueries, AbsenceQueries, BlockQueries):
    """All reads and writes of games, moves, challenges and ratings, written once for every
    backend (`storage.sqlite`, `storage.postgres`): a backend runs the works."""

    @classmethod
    async def open(
        cls,
        url: str = DEFAULT_DATABASE_URL,
        migrations: Sequence[Migration] = MIGRATIONS,
        *,
        rater: Rater | None = None,
    ) -> Database:
        """Connect to the database `url` names (`sqlite:///…` or `postgresql://…`), check it
        and bring its schema up to date.

        With a `rater`, a game's result goes into the ratings table in the transaction that
        finishes it (see `rate_finished_games` for the ones finished before). Raises
        `DatabaseUnusable`, whose one-line message says what is wrong and what to do.
        """
        scheme = url.split("://", 1)[0] if "://" in url else "sqlite"
        connect = _BACKENDS.get(scheme.split("+")[0])
        if connect is None:
            known = ", ".join(f"{name}://" for name in sorted(_BACKENDS))
            raise DatabaseUnusable(f"unsupported DATABASE_URL {url.split('://')[0]!r}: use "
                                   f"one of {known}")
        return await connect(url, migrations, rater)
