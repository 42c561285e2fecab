"""Ratings, leaderboards, history and replays: what the stored games tell (a service)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.components import LeaderboardButton, LeaderboardPage
from bot.errors import Refusal
from bot.games.base import GameUI
from bot.ratings import PlayerRating, compute_ratings, leaderboard, outcome_of, page_of
from bot.replay import replay_gif
from engines import GAMES, EndReason
from renderers.animation import MAX_FRAMES
from storage import Database, GameRecord, GameStatus

PAGE_SIZE = 10
"""Players per leaderboard page."""

HISTORY_SIZE = 10
"""Games listed by `/history`."""

MAX_UPLOAD = 9_500_000
"""Bytes a replay may weigh (under Discord's 10 MB upload limit); bigger ones are resampled."""


def game_name(game: str) -> str:
    """The game's name (its id when it is not a known game)."""
    return GAMES[game].name if game in GAMES else game


@dataclass(frozen=True)
class Replay:
    """A replay ready to upload: its caption and the GIF."""

    caption: str
    gif: bytes
    filename: str


def _stats_field(player: PlayerRating, rank: int, players: int) -> str:
    draws = f" · {player.draws} draw{'s' * (player.draws != 1)}" if player.draws else ""
    return (f"Rating **{player.rating:.1f}** (#{rank} of {players})\n"
            f"{player.games} game{'s' * (player.games != 1)} · {player.wins} "
            f"win{'s' * (player.wins != 1)}{draws} · {player.losses} "
            f"loss{'es' * (player.losses != 1)}\n"
            f"Streak: {player.streak_text()} · best run: {player.best_streak} "
            f"win{'s' * (player.best_streak != 1)}")


def history_line(record: GameRecord, user_id: int) -> str:
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

    async def leaderboard(
        self, game: str, scope: str, guild_id: int | None, page: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        """A leaderboard page with its paging buttons."""
        records = await self.db.finished_games(
            game, guild_id=guild_id if scope == "server" else None)
        ranked = leaderboard(compute_ratings(records))
        rows, page, pages = page_of(ranked, page, PAGE_SIZE)
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
        embed.set_footer(text=f"Page {page + 1}/{pages} · {len(ranked)} players · "
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
        records = await self.db.finished_games(guild_id=guild_id)
        embed = discord.Embed(title=f"📊 {user.display_name} · this server",
                              colour=discord.Colour.blurple())
        for game in self.uis:
            ranked = leaderboard(compute_ratings(r for r in records if r.game == game))
            rank = next((i for i, p in enumerate(ranked) if p.user_id == user.id), None)
            if rank is not None:
                embed.add_field(name=game_name(game), inline=False,
                                value=_stats_field(ranked[rank], rank + 1, len(ranked)))
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

    async def find_replayable(self, game_id: int, guild_id: int | None) -> GameRecord:
        """The game to replay; a Refusal unless it was played on this server."""
        record = await self.db.get_game(game_id)
        if record is None or record.guild_id != guild_id:
            raise Refusal(f"There is no game #{game_id} on this server. "
                          "`/history` lists the game ids.")
        return record

    async def replay(self, record: GameRecord) -> Replay:
        """The game as an animated GIF, resampled until it fits Discord's upload limit."""
        moves = await self.db.moves(record.id)
        data = await asyncio.to_thread(replay_gif, record, moves)
        frames = MAX_FRAMES
        while len(data) > MAX_UPLOAD and frames > 8:
            frames //= 2
            data = await asyncio.to_thread(replay_gif, record, moves, max_frames=frames)
        names = " vs ".join(s.display_name for s in record.seats)
        status = {GameStatus.RUNNING: "still running", GameStatus.FINISHED: "finished",
                  GameStatus.ABORTED: "aborted"}[record.status]
        caption = (f"🎞️ Replay of game #{record.id} · {game_name(record.game)} · {names} "
                   f"({record.ply} moves, {status})")
        return Replay(caption, data, f"replay-{record.id}.gif")
