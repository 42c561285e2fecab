"""Test doubles for the services: a publisher that records what Discord would show."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.games import GAME_UIS
from bot.publisher import Post, Problem, PublishFailed
from bot.session_manager import SessionManager
from engines import GAMES
from storage import Database, GameRecord, Seat

NOW = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)
ALICE, BOB, CAROL = 10, 20, 30


@dataclass
class FakePublisher:
    """Records posts, edits and DMs; each kind of call can be told to fail."""

    posts: list[tuple[int, Post]] = field(default_factory=list)
    edits: list[tuple[int, int, Post]] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    dms: list[tuple[int, str]] = field(default_factory=list)
    typed: list[int] = field(default_factory=list)
    closed_threads: list[int] = field(default_factory=list)
    opened_threads: list[tuple[int, str]] = field(default_factory=list)
    fail_posts: bool = False
    post_problem: Problem = Problem.TRANSIENT
    """Why posts fail while `fail_posts` is set."""
    fail_removals: bool = False
    closed_dms: set[int] = field(default_factory=set)
    next_id: int = 1000

    async def post(self, channel_id: int, post: Post) -> int:
        """Record a post and give it a message id."""
        if self.fail_posts:
            raise PublishFailed("Discord said no", self.post_problem,
                                ("send_messages_in_threads",)
                                if self.post_problem is Problem.MISSING_PERMISSIONS else ())
        self.posts.append((channel_id, post))
        self.next_id += 1
        return self.next_id

    async def edit(self, channel_id: int, message_id: int, post: Post) -> None:
        """Record an edit."""
        if self.fail_posts:
            raise PublishFailed("Discord is down")
        self.edits.append((channel_id, message_id, post))

    async def remove_components(self, channel_id: int, message_id: int) -> None:
        """Record a board being retired."""
        if self.fail_removals:
            raise PublishFailed("Missing Access")
        self.removed.append(message_id)

    async def typing(self, channel_id: int) -> None:
        """Record a typing indicator."""
        self.typed.append(channel_id)

    async def close_thread(self, channel_id: int) -> None:
        """Record a thread being archived and locked."""
        if self.fail_posts:
            raise PublishFailed("Discord is down", self.post_problem)
        self.closed_threads.append(channel_id)

    async def open_thread(self, channel_id: int, name: str) -> int:
        """Record a thread being opened and give it an id."""
        if self.fail_posts:
            raise PublishFailed("Discord is down", self.post_problem)
        self.next_id += 1
        self.opened_threads.append((channel_id, name))
        return self.next_id

    async def direct_message(self, user_id: int, text: str) -> None:
        """Record a DM, or fail as Discord does for closed DMs."""
        if user_id in self.closed_dms:
            raise PublishFailed("Cannot send messages to this user")
        self.dms.append((user_id, text))

    def boards(self) -> list[Post]:
        """The board messages posted so far."""
        return [post for _, post in self.posts
                if post.embed is not None and (post.embed.footer.text or "").startswith("Game #")]

    def texts(self) -> list[str]:
        """The plain messages posted so far."""
        return [post.content or "" for _, post in self.posts]


async def new_game(db: Database, game: str = "qawale", players: int = 2, *,
                   options: dict[str, Any] | None = None, seed: int = 7,
                   clock: str = "none") -> GameRecord:
    """A stored running game between Alice, Bob (and Carol)."""
    users = [(ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")][:players]
    state = GAMES[game].new_state(players, options or {})
    return await db.create_game(
        game=game, guild_id=1, channel_id=5, parent_id=None,
        seats=[Seat(i, uid, name) for i, (uid, name) in enumerate(users)],
        options=options or {}, rng_seed=seed, state=state.dump(), now=NOW, clock=clock,
        to_move=state.current_player)


def manager(db: Database, publisher: FakePublisher) -> SessionManager:
    """A session manager as the bot builds it, with the fake publisher."""
    return SessionManager(db, GAME_UIS, publisher)
