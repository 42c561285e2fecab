"""Versioned schema migrations: each one runs once, in order, inside a transaction."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    """One step of the schema: a version number and the statements that reach it."""

    version: int
    description: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games, seats, moves and challenges",
        (
            """
            CREATE TABLE games (
                id               INTEGER PRIMARY KEY AUTOINCREMENT,
                game             TEXT    NOT NULL,
                guild_id         INTEGER,
                channel_id       INTEGER NOT NULL,
                parent_id        INTEGER,
                options          TEXT    NOT NULL,
                rng_seed         INTEGER NOT NULL,
                state            TEXT    NOT NULL,
                ply              INTEGER NOT NULL DEFAULT 0,
                status           TEXT    NOT NULL,
                result           TEXT,
                board_message_id INTEGER,
                created_at       TEXT    NOT NULL,
                updated_at       TEXT    NOT NULL,
                finished_at      TEXT
            )
            """,
            "CREATE INDEX games_by_channel ON games (channel_id, status)",
            "CREATE INDEX games_by_status ON games (status)",
            """
            CREATE TABLE seats (
                game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                seat         INTEGER NOT NULL,
                user_id      INTEGER NOT NULL,
                display_name TEXT    NOT NULL,
                PRIMARY KEY (game_id, seat)
            )
            """,
            "CREATE INDEX seats_by_user ON seats (user_id)",
            """
            CREATE TABLE moves (
                game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                ply        INTEGER NOT NULL,
                seat       INTEGER,
                user_id    INTEGER,
                kind       TEXT    NOT NULL,
                move       TEXT    NOT NULL,
                created_at TEXT    NOT NULL,
                PRIMARY KEY (game_id, ply)
            )
            """,
            """
            CREATE TABLE challenges (
                id            INTEGER PRIMARY KEY AUTOINCREMENT,
                game          TEXT    NOT NULL,
                guild_id      INTEGER,
                channel_id    INTEGER NOT NULL,
                challenger_id INTEGER NOT NULL,
                opponent_ids  TEXT    NOT NULL,
                player_names  TEXT    NOT NULL,
                options       TEXT    NOT NULL,
                message_id    INTEGER,
                status        TEXT    NOT NULL,
                game_id       INTEGER REFERENCES games (id),
                created_at    TEXT    NOT NULL,
                expires_at    TEXT    NOT NULL
            )
            """,
            "CREATE INDEX challenges_by_status ON challenges (status)",
        ),
    ),
    Migration(
        2,
        "challenges for several players, and open tables (lobbies)",
        (
            # Who among the invited has accepted so far (a game starts when all have).
            "ALTER TABLE challenges ADD COLUMN accepted_ids TEXT NOT NULL DEFAULT '[]'",
            # 'challenge' (named opponents) or 'lobby' (anyone joins, the host starts).
            "ALTER TABLE challenges ADD COLUMN kind TEXT NOT NULL DEFAULT 'challenge'",
        ),
    ),
    Migration(
        3,
        "indexes for ratings, leaderboards and history",
        (
            "CREATE INDEX games_by_game ON games (game, status, finished_at)",
            "CREATE INDEX seats_by_user_game ON seats (user_id, game_id)",
        ),
    ),
    Migration(
        4,
        "the ply each posted board shows",
        (
            # NULL while unknown; a running game whose board_ply differs from ply has a stale
            # board message (the move was stored, the edit of the message was lost).
            "ALTER TABLE games ADD COLUMN board_ply INTEGER",
        ),
    ),
    Migration(
        5,
        "turn clocks, timers, AI stand-ins, abort votes and player settings",
        (
            # Games made before the clock existed were agreed without one: they keep none.
            "ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT 'none'",
            # When the player to move runs out of time (NULL: no clock, or nobody to wait for).
            "ALTER TABLE games ADD COLUMN deadline TEXT",
            # 0 once a player's seat was handed to the AI in a two-player game.
            "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1",
            # The AI level that plays the seat of a player who left or ran out of time.
            "ALTER TABLE seats ADD COLUMN stand_in TEXT",
            "ALTER TABLE challenges ADD COLUMN clock TEXT NOT NULL DEFAULT 'daily'",
            # A fixed seat order (a rematch swaps the seats); NULL: seats are drawn.
            "ALTER TABLE challenges ADD COLUMN seating TEXT",
            """
            CREATE TABLE timers (
                id       INTEGER PRIMARY KEY AUTOINCREMENT,
                game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                event    TEXT    NOT NULL,
                due_at   REAL    NOT NULL,
                ply      INTEGER NOT NULL,
                seat     INTEGER,
                attempts INTEGER NOT NULL DEFAULT 0
            )
            """,
            "CREATE INDEX timers_by_due ON timers (due_at)",
            "CREATE INDEX timers_by_game ON timers (game_id, event)",
            """
            CREATE TABLE abort_votes (
                game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL,
                PRIMARY KEY (game_id, user_id)
            )
            """,
            """
            CREATE TABLE player_settings (
                user_id      INTEGER PRIMARY KEY,
                dm_reminders INTEGER NOT NULL DEFAULT 1
            )
            """,
        ),
    ),
    Migration(
        6,
        "ratings kept as games finish, so records never re-read history",
        (
            # 1 once the game's result is in the ratings table (or it counts for nothing).
            "ALTER TABLE games ADD COLUMN rating_applied INTEGER NOT NULL DEFAULT 0",
            """
            CREATE INDEX games_to_rate ON games (finished_at, id)
            WHERE status = 'finished' AND rating_applied = 0
            """,
            """
            CREATE TABLE ratings (
                game        TEXT    NOT NULL,
                scope       INTEGER NOT NULL,
                player_id   INTEGER NOT NULL,
                name        TEXT    NOT NULL,
                sort_name   TEXT    NOT NULL,
                mu          REAL    NOT NULL,
                sigma       REAL    NOT NULL,
                rating      REAL    NOT NULL,
                games       INTEGER NOT NULL,
                wins        INTEGER NOT NULL,
                draws       INTEGER NOT NULL,
                losses      INTEGER NOT NULL,
                streak      INTEGER NOT NULL,
                best_streak INTEGER NOT NULL,
                PRIMARY KEY (game, scope, player_id)
            )
            """,
            # A leaderboard page and a player's rank are range scans of this index.
            "CREATE INDEX ratings_by_rank ON ratings (game, scope, rating DESC, games DESC, "
            "sort_name, player_id)",
            "CREATE INDEX ratings_by_player ON ratings (player_id, scope)",
        ),
    ),
    Migration(
        7,
        "the seat to move, so a start resumes only the games that need it",
        (
            # The seat to decide (-1: a chance event); NULL when over, or unknown (a game
            # stored before this column: resumed at the next start, which sets it).
            "ALTER TABLE games ADD COLUMN to_move INTEGER",
        ),
    ),
    Migration(
        8,
        "each server's language, and each member's last known Discord locale (for DMs)",
        (
            """
            CREATE TABLE server_settings (
                guild_id INTEGER PRIMARY KEY,
                language TEXT
            )
            """,
            "ALTER TABLE player_settings ADD COLUMN locale TEXT",
        ),
    ),
    Migration(
        9,
        "each rated game's ratings before and after it, for its final board and /history",
        (
            # Written with the ratings, in the same transaction; games rated before this
            # version have none (their final boards and history lines show no change).
            """
            CREATE TABLE rating_changes (
                game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                scope         INTEGER NOT NULL,
                player_id     INTEGER NOT NULL,
                rating_before REAL,
                rating_after  REAL    NOT NULL,
                PRIMARY KEY (game_id, scope, player_id)
            )
            """,
            "CREATE INDEX rating_changes_by_player ON rating_changes (player_id, scope)",
        ),
    ),
    Migration(
        10,
        "each server's clock for new games (`/settings clock:`)",
        ("ALTER TABLE server_settings ADD COLUMN default_clock TEXT",),
    ),
    Migration(
        11,
        "a standing draw offer in a two-player game: the seat that offered it",
        ("ALTER TABLE games ADD COLUMN draw_offer INTEGER",),
    ),
    Migration(
        12,
        "the role a server pings when a /lobby table opens (`/settings lobby_role:`)",
        ("ALTER TABLE server_settings ADD COLUMN lobby_role TEXT",),
    ),
    Migration(
        13,
        "a server's games in progress by their latest move (`/live`)",
        ("CREATE INDEX games_live ON games (guild_id, status, updated_at)",),
    ),
    Migration(
        14,
        "a server's games by status, kind and end (`/serverstats`, a server's monthly board)",
        ("CREATE INDEX games_by_server ON games (guild_id, status, game, finished_at)",),
    ),
    Migration(
        15,
        "casual games, agreed in their challenge or table: they count for no rating",
        (
            "ALTER TABLE challenges ADD COLUMN casual INTEGER NOT NULL DEFAULT 0",
            # Casual from the start (a rematch stays casual), where `rated` may also turn
            # off during a game (the AI finishing it for an absent player).
            "ALTER TABLE games ADD COLUMN casual INTEGER NOT NULL DEFAULT 0",
        ),
    ),
    Migration(
        16,
        "members who take no challenges (`/settings challenges:off`)",
        ("ALTER TABLE player_settings ADD COLUMN challenges INTEGER NOT NULL DEFAULT 1",),
    ),
    Migration(
        17,
        "round-robin tournaments: their players, and the games of each round (`/tournament`)",
        (
            """
            CREATE TABLE tournaments (
                id          INTEGER PRIMARY KEY AUTOINCREMENT,
                table_id    INTEGER NOT NULL UNIQUE,
                game        TEXT    NOT NULL,
                guild_id    INTEGER,
                channel_id  INTEGER NOT NULL,
                message_id  INTEGER,
                host_id     INTEGER NOT NULL,
                options     TEXT    NOT NULL,
                clock       TEXT    NOT NULL,
                casual      INTEGER NOT NULL DEFAULT 0,
                legs        INTEGER NOT NULL DEFAULT 1,
                round       INTEGER NOT NULL,
                status      TEXT    NOT NULL,
                created_at  TEXT    NOT NULL,
                finished_at TEXT
            )
            """,
            "CREATE INDEX tournaments_by_status ON tournaments (status)",
            "CREATE INDEX tournaments_by_server ON tournaments (guild_id, status)",
            # A player's place in the draw fixes every pairing and who plays first.
            """
            CREATE TABLE tournament_players (
                tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
                position      INTEGER NOT NULL,
                user_id       INTEGER NOT NULL,
                name          TEXT    NOT NULL,
                withdrawn_in  INTEGER,
                place         INTEGER,
                PRIMARY KEY (tournament_id, position)
            )
            """,
            "CREATE INDEX tournament_players_by_user ON tournament_players (user_id)",
            # Written with the game, in the same transaction: a round's game exists or not.
            """
            CREATE TABLE tournament_games (
                game_id       INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
                tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
                round         INTEGER NOT NULL
            )
            """,
            "CREATE INDEX tournament_games_by_round ON tournament_games (tournament_id, round)",
            # A tournament's table carries how many times each pair meets until its start.
            "ALTER TABLE challenges ADD COLUMN legs INTEGER NOT NULL DEFAULT 1",
        ),
    ),
    Migration(
        18,
        "members' times away (`/away`): their correspondence clocks wait for them",
        (
            # One row per time away, kept a year for the allowance; `ended_at` is set when
            # the member comes back early (or goes away again, which starts a new row).
            """
            CREATE TABLE absences (
                user_id    INTEGER NOT NULL,
                started_at REAL    NOT NULL,
                until_at   REAL    NOT NULL,
                ended_at   REAL,
                PRIMARY KEY (user_id, started_at)
            )
            """,
            "CREATE INDEX absences_by_until ON absences (until_at)",
        ),
    ),
    Migration(
        19,
        "members a member blocks (`/block`): they may not challenge them or join their tables",
        (
            """
            CREATE TABLE blocks (
                user_id    INTEGER NOT NULL,
                blocked_id INTEGER NOT NULL,
                created_at TEXT    NOT NULL,
                PRIMARY KEY (user_id, blocked_id)
            )
            """,
            "CREATE INDEX blocks_by_blocked ON blocks (blocked_id)",
        ),
    ),
    Migration(
        20,
        "tournaments that start by themselves at a set time (`/tournament starts_in:`)",
        ("ALTER TABLE challenges ADD COLUMN auto_start INTEGER NOT NULL DEFAULT 0",),
    ),
    Migration(
        21,
        "the channel a server's monthly recap goes to, and the last month recapped "
        "(`/settings recap_channel:`)",
        ("ALTER TABLE server_settings ADD COLUMN recap_channel TEXT",
         "ALTER TABLE server_settings ADD COLUMN recap_month TEXT"),
    ),
    Migration(
        22,
        "the finished game a rematch repeats: one rematch at a time per game, across restarts",
        (
            # A rematch between people is a challenge until it is answered; against the AI
            # alone it is a game at once. NULL for everything else.
            "ALTER TABLE challenges ADD COLUMN rematch_of INTEGER REFERENCES games (id)",
            "ALTER TABLE games ADD COLUMN rematch_of INTEGER REFERENCES games (id)",
            "CREATE INDEX challenges_by_rematch ON challenges (rematch_of)",
            "CREATE INDEX games_by_rematch ON games (rematch_of)",
        ),
    ),
)
"""Every migration, oldest first. Add new ones at the end; never edit a released one."""

SCHEMA: dict[str, tuple[str, ...]] = {
    "schema_version": ("version", "applied_at"),
    "games": (
        "id", "game", "guild_id", "channel_id", "parent_id", "options", "rng_seed", "state",
        "ply", "status", "result", "board_message_id", "created_at", "updated_at",
        "finished_at", "board_ply", "clock", "deadline", "rated", "rating_applied",
        "to_move", "draw_offer", "casual", "rematch_of",
    ),
    "seats": ("game_id", "seat", "user_id", "display_name", "stand_in"),
    "moves": ("game_id", "ply", "seat", "user_id", "kind", "move", "created_at"),
    "challenges": (
        "id", "game", "guild_id", "channel_id", "challenger_id", "opponent_ids", "player_names",
        "options", "message_id", "status", "game_id", "created_at", "expires_at",
        "accepted_ids", "kind", "clock", "seating", "casual", "legs", "auto_start",
        "rematch_of",
    ),
    "timers": ("id", "game_id", "event", "due_at", "ply", "seat", "attempts"),
    "abort_votes": ("game_id", "user_id"),
    "player_settings": ("user_id", "dm_reminders", "locale", "challenges"),
    "server_settings": ("guild_id", "language", "default_clock", "lobby_role",
                        "recap_channel", "recap_month"),
    "ratings": (
        "game", "scope", "player_id", "name", "sort_name", "mu", "sigma", "rating", "games",
        "wins", "draws", "losses", "streak", "best_streak",
    ),
    "rating_changes": ("game_id", "scope", "player_id", "rating_before", "rating_after"),
    "tournaments": (
        "id", "table_id", "game", "guild_id", "channel_id", "message_id", "host_id", "options",
        "clock", "casual", "legs", "round", "status", "created_at", "finished_at",
    ),
    "tournament_players": ("tournament_id", "position", "user_id", "name", "withdrawn_in",
                           "place"),
    "tournament_games": ("game_id", "tournament_id", "round"),
    "absences": ("user_id", "started_at", "until_at", "ended_at"),
    "blocks": ("user_id", "blocked_id", "created_at"),
}
"""Every table and column the code reads or writes: `Database.open` refuses a database that
lacks one (the migrations build exactly these; a test keeps the two in step)."""
