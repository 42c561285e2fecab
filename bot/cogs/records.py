"""`/leaderboard`, `/stats`, `/history` and `/replay`: what the stored games tell."""

from __future__ import annotations

import asyncio
import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.catalogue import CATALOGUE
from bot.cogs.lobby import GAME_CHOICES
from bot.components import run_guarded
from bot.errors import Refusal
from bot.ratings import PlayerRating, compute_ratings, leaderboard, outcome_of, page_of
from bot.replay import replay_gif
from renderers.animation import MAX_FRAMES
from storage import GameRecord, GameStatus

if TYPE_CHECKING:
    from bot.client import Ludotheque

PAGE_SIZE = 10
"""Players per leaderboard page."""

HISTORY_SIZE = 10
"""Games listed by `/history`."""

MAX_UPLOAD = 9_500_000
"""Bytes a replay may weigh (under Discord's 10 MB upload limit); bigger ones are resampled."""

SCOPE_CHOICES = [app_commands.Choice(name="This server", value="server"),
                 app_commands.Choice(name="All servers", value="global")]

_LEADERBOARD_TEMPLATE = r"lb:(?P<game>[a-z_]+):(?P<scope>server|global):(?P<page>\d+):(?P<dir>p|n)"


def _game_name(game: str) -> str:
    entry = CATALOGUE.get(game)
    return entry.name if entry else game


async def leaderboard_message(
    bot: Ludotheque, game: str, scope: str, guild_id: int | None, page: int
) -> dict[str, Any]:
    """Keyword arguments to send or edit a leaderboard page, with its paging buttons."""
    records = await bot.db.finished_games(game, guild_id=guild_id if scope == "server" else None)
    ranked = leaderboard(compute_ratings(records))
    rows, page, pages = page_of(ranked, page, PAGE_SIZE)
    where = "this server" if scope == "server" else "all servers"
    embed = discord.Embed(title=f"🏆 {_game_name(game)} · {where}",
                          colour=discord.Colour.gold())
    if not rows:
        embed.description = f"No rated game of {_game_name(game)} yet. Play one with `/challenge`!"
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
        view.add_item(LeaderboardButton(game, scope, min(page + 1, pages - 1), "n", label="Next",
                                        emoji="▶️", disabled=page == pages - 1))
    return {"embed": embed, "view": view}


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button],
                        template=_LEADERBOARD_TEMPLATE):
    """Previous or Next on a leaderboard; the page to show is in the custom_id."""

    def __init__(self, game: str, scope: str, page: int, direction: str, **button: Any) -> None:
        super().__init__(discord.ui.Button(
            custom_id=f"lb:{game}:{scope}:{page}:{direction}",
            style=discord.ButtonStyle.secondary, **button))
        self.game, self.scope, self.page = game, scope, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LeaderboardButton:
        return cls(match["game"], match["scope"], int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Ludotheque = interaction.client  # type: ignore[assignment]
        message = await leaderboard_message(bot, self.game, self.scope, interaction.guild_id,
                                            self.page)
        await interaction.response.edit_message(**message)


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
        if record.result.get("reason") == "resigned":
            outcome += " (resignation)"
    when = record.finished_at or record.updated_at
    return (f"`#{record.id}` **{_game_name(record.game)}** vs {others} · {outcome} · "
            f"{discord.utils.format_dt(when, 'd')}")


class Records(commands.Cog):
    """Ratings, leaderboards, history and replays."""

    def __init__(self, bot: Ludotheque) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the leaderboards' paging buttons (restart-proof)."""
        self.bot.add_dynamic_items(LeaderboardButton)

    @app_commands.command(name="leaderboard", description="The best players of a game")
    @app_commands.describe(game="Which game", scope="This server (default) or all servers")
    @app_commands.choices(game=GAME_CHOICES, scope=SCOPE_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: str, scope: str = "server"
    ) -> None:
        """Show the top players with rating, games and wins, ten a page."""
        message = await leaderboard_message(self.bot, game, scope, interaction.guild_id, 0)
        await interaction.response.send_message(**message)

    @app_commands.command(name="stats", description="A member's ratings and results")
    @app_commands.describe(member="Whose stats (default: yours)")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, member: discord.User | None = None
    ) -> None:
        """Rating, games, wins, draws and streaks per game on this server."""
        user = member or interaction.user
        records = await self.bot.db.finished_games(guild_id=interaction.guild_id)
        embed = discord.Embed(title=f"📊 {user.display_name} · this server",
                              colour=discord.Colour.blurple())
        for game in CATALOGUE:
            ranked = leaderboard(compute_ratings(r for r in records if r.game == game))
            rank = next((i for i, p in enumerate(ranked) if p.user_id == user.id), None)
            if rank is not None:
                embed.add_field(name=_game_name(game), inline=False,
                                value=_stats_field(ranked[rank], rank + 1, len(ranked)))
        if not embed.fields:
            embed.description = (f"{user.display_name} has not finished a rated game on this "
                                 "server yet.")
        await interaction.response.send_message(embed=embed,
                                                allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="history", description="A member's latest games")
    @app_commands.describe(member="Whose games (default: yours)")
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction, member: discord.User | None = None
    ) -> None:
        """The last games with opponents, result, date and game id (for `/replay`)."""
        user = member or interaction.user
        records = await self.bot.db.games_of(user.id, guild_id=interaction.guild_id,
                                             limit=HISTORY_SIZE)
        embed = discord.Embed(title=f"📜 {user.display_name}'s latest games",
                              colour=discord.Colour.blurple())
        if records:
            embed.description = "\n".join(history_line(r, user.id) for r in records)
            embed.set_footer(text="Watch one again with /replay game:<id>")
        else:
            embed.description = f"{user.display_name} has no finished game on this server yet."
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="replay", description="Watch a game again, as an animation")
    @app_commands.describe(game="The game id (see /history, or a board's footer)")
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, game: int) -> None:
        """Post the game's moves as an animated GIF rebuilt from its move log."""
        async def post() -> None:
            record = await self.bot.db.get_game(game)
            if record is None or record.guild_id != interaction.guild_id:
                raise Refusal(f"There is no game #{game} on this server. "
                              "`/history` lists the game ids.")
            await interaction.response.defer(thinking=True)
            moves = await self.bot.db.moves(record.id)
            data = await asyncio.to_thread(replay_gif, record, moves)
            frames = MAX_FRAMES
            while len(data) > MAX_UPLOAD and frames > 8:
                frames //= 2
                data = await asyncio.to_thread(replay_gif, record, moves, max_frames=frames)
            names = " vs ".join(s.display_name for s in record.seats)
            status = {GameStatus.RUNNING: "still running", GameStatus.FINISHED: "finished",
                      GameStatus.ABORTED: "aborted"}[record.status]
            await interaction.followup.send(
                f"🎞️ Replay of game #{record.id} · {_game_name(record.game)} · {names} "
                f"({record.ply} moves, {status})",
                file=discord.File(io.BytesIO(data), filename=f"replay-{record.id}.gif"),
                allowed_mentions=discord.AllowedMentions.none())
        await run_guarded(interaction, post())
