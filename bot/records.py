"""Ratings, leaderboards, history and replays: what the stored games tell (a service)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.components import MAX_ID, LeaderboardButton, LeaderboardPage, ReplayButton, ReplayStep
from bot.errors import Refusal
from bot.games.base import GameUI
from bot.ratings import outcome_of, streak_text
from bot.replay import Position, decision_positions, fitting_gif, render_position, viewer_caption
from engines import GAMES, EndReason
from storage import (
    GLOBAL_SCOPE,
    Database,
    GameRecord,
    GameStatus,
    GameSummary,
    MoveRecord,
    RatingRow,
)

log = logging.getLogger(__name__)

PAGE_SIZE = 10
"""Players per leaderboard page."""

HISTORY_SIZE = 10
"""Games listed by `/history`."""

MAX_UPLOAD = 8_000_000
"""Bytes a replay GIF may weigh, well under Discord's 10 MB upload limit; a bigger one is
made narrower, and only as a last resort sampled."""

CHOICES_LIMIT = 25
"""Discord's limit on the suggestions of an autocomplete."""

CHOICE_TEXT_LIMIT = 100
"""Discord's limit on a suggestion's name and value."""

REPLAY_SUGGESTIONS_FROM = 100
"""How many of the member's latest games `/replay`'s suggestions are picked from."""

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content."""

VIEWER_FILENAME = "position.png"
"""The picture of a replay viewer (replaced at each step)."""


def clip(text: str, limit: int) -> str:
    """`text`, cut with an ellipsis to at most `limit` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def game_name(game: str) -> str:
    """The game's name (its id when it is not a known game)."""
    return GAMES[game].name if game in GAMES else game


@dataclass(frozen=True)
class Replay:
    """A replay ready to upload: its caption, the GIF and the Step through button."""

    caption: str
    gif: bytes
    filename: str
    view: discord.ui.View


@dataclass(frozen=True)
class ReplayFrame:
    """One position of a replay viewer: its text, its picture and the four buttons."""

    content: str
    png: bytes
    filename: str
    view: discord.ui.View


def replay_title(record: GameSummary | GameRecord) -> str:
    """`Qawale · Alice vs Bob`."""
    return f"{game_name(record.game)} · {' vs '.join(s.display_name for s in record.seats)}"


def replay_choice(record: GameSummary) -> str:
    """`Qawale · Alice vs Bob · 25 Nov 2026 · #12`: a `/replay` suggestion (100 characters)."""
    when = record.finished_at or record.updated_at
    tail = f" · {when.day} {when:%b %Y} · #{record.id}"
    if record.status is GameStatus.ABORTED:
        tail += " · aborted"
    return clip(replay_title(record), CHOICE_TEXT_LIMIT - len(tail)) + tail


def matches(text: str, typed: str) -> bool:
    """True when every word typed appears in `text` (case and a leading # ignored)."""
    words = typed.casefold().replace("#", " ").split()
    return all(word in text.casefold() for word in words)


def viewer_buttons(game_id: int, position: int, last: int) -> discord.ui.View:
    """First, Previous, Next and Last; those leading past an end are disabled."""
    view = discord.ui.View(timeout=None)
    at_start, at_end = position <= 0, position >= last
    view.add_item(ReplayButton(game_id, 0, "f", label="First", emoji="⏮️", disabled=at_start))
    view.add_item(ReplayButton(game_id, max(position - 1, 0), "p", label="Previous",
                               emoji="◀️", disabled=at_start))
    view.add_item(ReplayButton(game_id, min(position + 1, last), "n", label="Next",
                               emoji="▶️", disabled=at_end))
    view.add_item(ReplayButton(game_id, last, "l", label="Last", emoji="⏭️", disabled=at_end))
    return view


def _stats_field(player: RatingRow, rank: int, players: int) -> str:
    draws = f" · {player.draws} draw{'s' * (player.draws != 1)}" if player.draws else ""
    return (f"Rating **{player.rating:.1f}** (#{rank} of {players})\n"
            f"{player.games} game{'s' * (player.games != 1)} · {player.wins} "
            f"win{'s' * (player.wins != 1)}{draws} · {player.losses} "
            f"loss{'es' * (player.losses != 1)}\n"
            f"Streak: {streak_text(player)} · best run: {player.best_streak} "
            f"win{'s' * (player.best_streak != 1)}")


def history_line(record: GameSummary, user_id: int) -> str:
    """`#12 · Qawale vs Bob · won (resigned) · <date>` from the member's seat."""
    seat = record.seat_of(user_id)
    others = ", ".join(s.display_name for s in record.seats if s.user_id != user_id)
    if record.status is GameStatus.ABORTED or record.result is None or seat is None:
        outcome = "aborted"
    else:
        outcome = {"win": "won", "draw": "draw", "loss": "lost"}[outcome_of(record.result, seat)]
        reason = record.result.get("reason")
        if reason == EndReason.RESIGNED:
            outcome += " (resignation)"
        elif reason == EndReason.TIMEOUT:
            outcome += " (on time)"
        if not record.rated:
            outcome += " · unrated"
    when = record.finished_at or record.updated_at
    return (f"`#{record.id}` **{game_name(record.game)}** vs {others} · {outcome} · "
            f"{discord.utils.format_dt(when, 'd')}")


class RecordsService:
    """Reads finished games and turns them into leaderboards, stats, history and replays."""

    def __init__(self, db: Database, uis: Mapping[str, GameUI[Any]]) -> None:
        self.db = db
        self.uis = uis

    async def catch_up(self) -> int:
        """Rate the finished games the ratings table lacks (a history from before it existed,
        or a game whose rating failed); the number rated."""
        count = await self.db.rate_finished_games()
        if count:
            log.info("%d finished game(s) added to the ratings", count)
        return count

    async def leaderboard(
        self, game: str, scope: str, guild_id: int | None, page: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        """A leaderboard page with its paging buttons."""
        where_id = guild_id if scope == "server" and guild_id is not None else GLOBAL_SCOPE
        rows, total = await self.db.leaderboard(game, where_id, offset=max(page, 0) * PAGE_SIZE,
                                                limit=PAGE_SIZE)
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        if not rows and total:  # a stale Next past the last page: show the last one
            rows, total = await self.db.leaderboard(game, where_id, offset=page * PAGE_SIZE,
                                                    limit=PAGE_SIZE)
        where = "this server" if scope == "server" else "all servers"
        embed = discord.Embed(title=f"🏆 {game_name(game)} · {where}",
                              colour=discord.Colour.gold())
        if not rows:
            embed.description = (f"No rated game of {game_name(game)} yet. Play one with "
                                 "`/challenge`!")
        else:
            start = page * PAGE_SIZE
            embed.description = "\n".join(
                f"**{start + i + 1}.** {p.name} — **{p.rating:.1f}** · {p.games} "
                f"game{'s' * (p.games != 1)} · {p.wins} win{'s' * (p.wins != 1)}"
                for i, p in enumerate(rows))
        embed.set_footer(text=f"Page {page + 1}/{pages} · {total} players · "
                              "rating: openskill ordinal")
        view = discord.ui.View(timeout=None)
        if pages > 1:
            view.add_item(LeaderboardButton(game, scope, max(page - 1, 0), "p", label="Previous",
                                            emoji="◀️", disabled=page == 0))
            view.add_item(LeaderboardButton(game, scope, min(page + 1, pages - 1), "n",
                                            label="Next", emoji="▶️",
                                            disabled=page == pages - 1))
        return embed, view

    async def leaderboard_page(
        self, page: LeaderboardPage, guild_id: int | None
    ) -> tuple[discord.Embed, discord.ui.View]:
        """The page a Previous or Next button asks for."""
        return await self.leaderboard(page.game, page.scope, guild_id, page.page)

    async def stats(self, user: discord.abc.User, guild_id: int | None) -> discord.Embed:
        """Rating, games, wins, draws and streaks per game on this server."""
        rated = await self.db.player_ratings(
            user.id, GLOBAL_SCOPE if guild_id is None else guild_id)
        embed = discord.Embed(title=f"📊 {user.display_name} · this server",
                              colour=discord.Colour.blurple())
        by_game = {row.game: (row, rank, players) for row, rank, players in rated}
        for game in self.uis:
            if game in by_game:
                row, rank, players = by_game[game]
                embed.add_field(name=game_name(game), inline=False,
                                value=_stats_field(row, rank, players))
        if not embed.fields:
            embed.description = (f"{user.display_name} has not finished a rated game on this "
                                 "server yet.")
        return embed

    async def history(self, user: discord.abc.User, guild_id: int | None) -> discord.Embed:
        """The last games with opponents, result, date and game id (for `/replay`)."""
        records = await self.db.games_of(user.id, guild_id=guild_id, limit=HISTORY_SIZE)
        embed = discord.Embed(title=f"📜 {user.display_name}'s latest games",
                              colour=discord.Colour.blurple())
        if records:
            embed.description = "\n".join(history_line(r, user.id) for r in records)
            embed.set_footer(text="Watch one again with /replay game:<id>")
        else:
            embed.description = f"{user.display_name} has no finished game on this server yet."
        return embed

    async def replay_choices(
        self, user_id: int, guild_id: int | None, typed: str
    ) -> list[tuple[str, str]]:
        """`/replay`'s suggestions: the member's latest ended games on this server matching
        what is typed (title, date or id), newest first, as (name, value = the game id)."""
        records = await self.db.games_of(user_id, guild_id=guild_id,
                                         limit=REPLAY_SUGGESTIONS_FROM)
        names = ((replay_choice(r), str(r.id)) for r in records)
        return [choice for choice in names if matches(choice[0], typed)][:CHOICES_LIMIT]

    async def find_replay(self, typed: str, user_id: int, guild_id: int | None) -> GameRecord:
        """The game `/replay` names: an id (`12`, `#12`), or the one of the member's latest
        games whose suggestion matches the text; a Refusal otherwise."""
        text = typed.strip().removeprefix("#").strip()
        if text.isdecimal() and text.isascii():
            game_id = int(text)
            if not 0 < game_id <= MAX_ID:
                raise Refusal(f"There is no game #{clip(text, 30)} on this server. "
                              "`/history` lists the game ids.")
            return await self.find_replayable(game_id, guild_id)
        found = await self.replay_choices(user_id, guild_id, text) if text else []
        if len(found) == 1:
            return await self.find_replayable(int(found[0][1]), guild_id)
        shown = clip(typed.strip(), 50)
        if not found:
            raise Refusal(f"None of your latest games on this server matches {shown!r}. Pick "
                          "one from the suggestions, or give a game id (`/history` lists them).")
        raise Refusal(f"{len(found)} of your games match {shown!r}: pick one from the "
                      "suggestions, or give its id (`/history` lists them).")

    async def find_replayable(self, game_id: int, guild_id: int | None) -> GameRecord:
        """The game to replay; a Refusal unless it was played on this server."""
        record = await self.db.get_game(game_id)
        if record is None or record.guild_id != guild_id:
            raise Refusal(f"There is no game #{game_id} on this server. "
                          "`/history` lists the game ids.")
        return record

    async def replay(self, record: GameRecord) -> Replay:
        """The game as an animated GIF that fits the upload limit, with a Step through button."""
        moves = await self.db.moves(record.id)
        gif = await asyncio.to_thread(fitting_gif, record, moves, limit=MAX_UPLOAD)
        status = {GameStatus.RUNNING: "still running", GameStatus.FINISHED: "finished",
                  GameStatus.ABORTED: "aborted"}[record.status]
        decisions = gif.positions - 1
        caption = (f"🎞️ Replay of game #{record.id} · {replay_title(record)} "
                   f"({decisions} move{'s' * (decisions != 1)}, {status})")
        if gif.sampled:
            caption += (f"\nToo long to upload whole: {gif.shown} of its {gif.positions} "
                        "positions are shown. **Step through** shows every one.")
        view = discord.ui.View(timeout=None)
        view.add_item(ReplayButton(record.id, 0, "o", label="Step through", emoji="🔎"))
        return Replay(clip(caption, MESSAGE_LIMIT), gif.data, f"replay-{record.id}.gif", view)

    async def replay_position(
        self, step: ReplayStep, guild_id: int | None
    ) -> tuple[GameRecord, list[Position], int]:
        """The game, its positions and the one a viewer button asks for (Last: the latest);
        a Refusal for a game of another server or a position the game does not have."""
        record = await self.find_replayable(step.game_id, guild_id)
        moves: Sequence[MoveRecord] = await self.db.moves(record.id)
        positions = await asyncio.to_thread(decision_positions, record, moves)
        last = len(positions) - 1
        index = last if step.direction == "l" else step.position
        if index > last:
            raise Refusal(f"Game #{record.id} has {last} move{'s' * (last != 1)}: there is "
                          f"no move {index}. Use First or Last.")
        return record, positions, index

    @staticmethod
    async def replay_frame(
        record: GameRecord, positions: Sequence[Position], index: int
    ) -> ReplayFrame:
        """The viewer at `positions[index]`: `Move 12 of 83 · Alice: b2:NNE`, the picture and
        First, Previous, Next, Last."""
        last = len(positions) - 1
        png = await asyncio.to_thread(render_position, record, positions[index])
        caption = viewer_caption(positions[index], last, record)
        content = clip(f"🎞️ Game #{record.id} · {replay_title(record)}\n{caption}",
                       MESSAGE_LIMIT)
        return ReplayFrame(content, png, VIEWER_FILENAME, viewer_buttons(record.id, index, last))
