"""Ratings, leaderboards, history and replays: what the stored games tell (a service)."""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import discord

from bot.ai_players import rated_id, shown_name
from bot.board import alt_text
from bot.clock import utcnow
from bot.components import (
    MAX_ID,
    HistoryButton,
    LeaderboardButton,
    LeaderboardPage,
    ReplayButton,
    ReplayStep,
)
from bot.errors import Refusal
from bot.games.base import GameUI, describe_options
from bot.in_progress import LISTED, clip, game_name, live_description, running_description
from bot.painter import Painter
from bot.ratings import (
    CHART_GAMES,
    ahead_of,
    change_text,
    chart_view,
    month_bounds,
    month_key,
    page_bounds,
    seat_outcome,
    server_scope,
    streak_text,
)
from bot.replay import (
    Position,
    decision_positions,
    move_list_lines,
    moves_text,
    replay_pictures,
    seat_names,
    viewer_caption,
)
from bot.server_stats import server_stats_embed
from bot.tournament_posts import progress_line
from engines import GAMES, EndReason
from i18n import N_, _, month_name, ngettext, short_date
from storage import (
    GLOBAL_SCOPE,
    Database,
    GameRecord,
    GameStatus,
    GameSummary,
    MoveRecord,
    RatingChange,
    RatingRow,
    Totals,
)

TOURNAMENTS_LISTED = 5
"""Tournaments `/mygames` lists (each line links its standings: 5 fit a field's 1,024
characters)."""

log = logging.getLogger(__name__)

RowT = TypeVar("RowT")
"""A leaderboard's line: a rating row, or a month's climber."""

PAGE_SIZE = 10
"""Players per leaderboard page."""
TOTALS_EVERY = 60.0
"""Seconds `/about` reuses the bot's totals before counting them again."""
CHART_FILENAME = "rating.png"
"""The rating chart's attachment (`/stats game:`)."""

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


REPLAY_STATUS = {GameStatus.RUNNING: N_("still running"), GameStatus.FINISHED: N_("finished"),
                 GameStatus.ABORTED: N_("aborted")}
"""A replayed game's state, in its caption."""


def no_such_game(game_id: object) -> Refusal:
    """The refusal of a game id that is not one of this server's games."""
    return Refusal(_("There is no game #{id} on this server. `/history` lists the game "
                     "ids.").format(id=game_id))


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
    names = (shown_name(s.user_id, s.display_name) for s in record.seats)
    return f"{game_name(record.game)} · {' vs '.join(names)}"


def replay_choice(record: GameSummary) -> str:
    """`Qawale · Alice vs Bob · 25 Nov 2026 · #12`: a `/replay` suggestion (100 characters),
    the month in the current language."""
    when = record.finished_at or record.updated_at
    day = short_date(when)
    tail = f" · {day} · #{record.id}"
    if record.status is GameStatus.ABORTED:
        tail += f" · {_('aborted')}"
    return clip(replay_title(record), CHOICE_TEXT_LIMIT - len(tail)) + tail


def matches(text: str, typed: str) -> bool:
    """True when every word typed appears in `text` (case and a leading # ignored)."""
    words = typed.casefold().replace("#", " ").split()
    return all(word in text.casefold() for word in words)


def viewer_buttons(game_id: int, position: int, last: int) -> discord.ui.View:
    """First, Previous, Next and Last; those leading past an end are disabled."""
    view = discord.ui.View(timeout=None)
    at_start, at_end = position <= 0, position >= last
    view.add_item(ReplayButton(game_id, 0, "f", label=_("First"), emoji="⏮️",
                               disabled=at_start))
    view.add_item(ReplayButton(game_id, max(position - 1, 0), "p", label=_("Previous"),
                               emoji="◀️", disabled=at_start))
    view.add_item(ReplayButton(game_id, min(position + 1, last), "n", label=_("Next"),
                               emoji="▶️", disabled=at_end))
    view.add_item(ReplayButton(game_id, last, "l", label=_("Last"), emoji="⏭️",
                               disabled=at_end))
    return view


def games_text(count: int) -> str:
    """`1 game`, `12 games`."""
    return ngettext("{n} game", "{n} games", count).format(n=count)


def wins_text(count: int) -> str:
    """`1 win`, `3 wins`."""
    return ngettext("{n} win", "{n} wins", count).format(n=count)


def _stats_field(player: RatingRow, rank: int, players: int) -> str:
    results = [games_text(player.games), wins_text(player.wins)]
    if player.draws:
        results.append(ngettext("{n} draw", "{n} draws", player.draws).format(n=player.draws))
    results.append(ngettext("{n} loss", "{n} losses", player.losses).format(n=player.losses))
    rating = _("Rating **{rating}** (#{rank} of {players})").format(
        rating=f"{player.rating:.1f}", rank=rank, players=players)
    streak = _("Streak: {streak} · best run: {best}").format(
        streak=streak_text(player), best=wins_text(player.best_streak))
    return f"{rating}\n{' · '.join(results)}\n{streak}"


HEAD_TO_HEAD_GAMES = 10_000
"""Games two members played together that `/stats versus:` reads at most (summaries only)."""


def head_to_head_field(games: Sequence[GameSummary], first: tuple[int, str],
                       second: tuple[int, str]) -> str:
    """`**Alice 5** · 1 draw · **Bob 3** · last game <date>` for one game's finished games
    between two members, (id, name) each, newest first."""
    tally = [ahead_of(game, first[0], second[0]) for game in games]
    wins, draws, losses = tally.count(1), tally.count(0), tally.count(-1)
    parts = [f"**{discord.utils.escape_markdown(first[1])} {wins}**"]
    if draws:
        parts.append(ngettext("{n} draw", "{n} draws", draws).format(n=draws))
    parts.append(f"**{discord.utils.escape_markdown(second[1])} {losses}**")
    when = games[0].finished_at or games[0].updated_at
    parts.append(_("last game {date}").format(date=discord.utils.format_dt(when, "d")))
    return " · ".join(parts)


OUTCOMES = {"win": N_("won"), "draw": N_("draw"), "loss": N_("lost")}
"""A finished game from a member's seat, in `/history`."""


async def _board_page(
    read: Callable[[int], Awaitable[tuple[list[RowT], int]]], page: int
) -> tuple[list[RowT], int, int, int]:
    """A leaderboard's rows at `page` (read from an offset), how many it ranks, the page
    shown and the number of pages; a stale Next past the last page shows the last one."""
    rows, total = await read(max(page, 0) * PAGE_SIZE)
    page, pages = page_bounds(page, total, PAGE_SIZE)
    if not rows and total:
        rows, total = await read(page * PAGE_SIZE)
    return rows, total, page, pages


def _page_buttons(game: str, scope: str, page: int, pages: int,
                  month: str = "") -> discord.ui.View:
    """Previous and Next under a leaderboard of several pages (none for one page)."""
    view = discord.ui.View(timeout=None)
    if pages > 1:
        view.add_item(LeaderboardButton(game, scope, max(page - 1, 0), "p", month,
                                        label=_("Previous"), emoji="◀️", disabled=page == 0))
        view.add_item(LeaderboardButton(game, scope, min(page + 1, pages - 1), "n", month,
                                        label=_("Next"), emoji="▶️", disabled=page == pages - 1))
    return view


def history_line(record: GameSummary, user_id: int, change: RatingChange | None = None) -> str:
    """`#12 · Qawale vs Bob · won (resigned) · 27.3 (+1.4) · <date>` from the member's seat,
    with what the game did to their rating when that was kept."""
    seat = next((s for s in record.seats if s.user_id == user_id), None)
    others = ", ".join(discord.utils.escape_markdown(shown_name(s.user_id, s.display_name))
                       for s in record.seats if s.user_id != user_id)
    if record.status is GameStatus.ABORTED or record.result is None or seat is None:
        outcome = _("aborted")
    else:
        # As the ratings count it: whoever left lost, whatever the AI then did in their seat.
        outcome = _(OUTCOMES[seat_outcome(record.result, seat)])
        reason = record.result.get("reason")
        if seat.stand_in is not None:
            outcome = _("{outcome} (left)").format(outcome=outcome)
        elif reason == EndReason.RESIGNED:
            outcome = _("{outcome} (resignation)").format(outcome=outcome)
        elif reason == EndReason.TIMEOUT:
            outcome = _("{outcome} (on time)").format(outcome=outcome)
        elif reason == EndReason.AGREED:
            outcome = _("{outcome} (by agreement)").format(outcome=outcome)
        if record.casual:
            outcome = _("{outcome} · casual").format(outcome=outcome)
        elif not record.rated:
            outcome = _("{outcome} · unrated").format(outcome=outcome)
        elif change is not None:
            outcome = f"{outcome} · {change_text(change)}"
    when = record.finished_at or record.updated_at
    return _("`#{id}` **{game}** vs {others} · {outcome} · {date}").format(
        id=record.id, game=game_name(record.game), others=others, outcome=outcome,
        date=discord.utils.format_dt(when, "d"))


class RecordsService:
    """Reads finished games and turns them into leaderboards, stats, history and replays."""

    def __init__(self, db: Database, uis: Mapping[str, GameUI[Any]], painter: Painter, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.db = db
        self.uis = uis
        self.painter = painter
        """Draws replays and their positions, away from the event loop."""
        self.started = utcnow()
        """When this process started serving (`/about`)."""
        self._clock = clock
        self._totals: tuple[float, Totals] | None = None

    async def totals(self) -> Totals:
        """The bot's totals (`/about`), counted at most once every `TOTALS_EVERY` seconds:
        anyone may ask, and the counts read whole indexes."""
        now = self._clock()
        if self._totals is None or now - self._totals[0] >= TOTALS_EVERY:
            self._totals = (now, await self.db.totals())
        return self._totals[1]

    async def catch_up(self) -> int:
        """Rate the finished games the ratings table lacks (a history from before it existed,
        or a game whose rating failed); the number rated."""
        count = await self.db.rate_finished_games()
        if count:
            log.info("%d finished game(s) added to the ratings", count)
        return count

    async def leaderboard(
        self, game: str, scope: str, guild_id: int | None, page: int, month: str = ""
    ) -> tuple[discord.Embed, discord.ui.View]:
        """A leaderboard page with its paging buttons; with `month` (`2026-11`), the players
        whose rating rose most over that month's games."""
        where_id = guild_id if scope == "server" and guild_id is not None else GLOBAL_SCOPE
        if month:
            return await self._climbers(game, scope, where_id, page, month)
        rows, total, page, pages = await _board_page(
            lambda offset: self.db.leaderboard(game, where_id, offset=offset, limit=PAGE_SIZE),
            page)
        where = _("this server") if scope == "server" else _("all servers")
        embed = discord.Embed(title=f"🏆 {game_name(game)} · {where}",
                              colour=discord.Colour.gold())
        if not rows:
            embed.description = _("No rated game of {game} yet. Play one with "
                                  "`/challenge`!").format(game=game_name(game))
        else:
            start = page * PAGE_SIZE
            embed.description = "\n".join(
                f"**{start + i + 1}.** "
                f"{discord.utils.escape_markdown(shown_name(p.player_id, p.name))} — "
                f"**{p.rating:.1f}** · {games_text(p.games)} · "
                f"{wins_text(p.wins)}"
                for i, p in enumerate(rows))
        players = ngettext("{n} player", "{n} players", total).format(n=total)
        embed.set_footer(text=_("Page {page}/{pages} · {players} · rating: openskill "
                                "ordinal").format(page=page + 1, pages=pages, players=players))
        return embed, _page_buttons(game, scope, page, pages)

    async def _climbers(
        self, game: str, scope: str, where_id: int, page: int, month: str
    ) -> tuple[discord.Embed, discord.ui.View]:
        """A page of a month's climbers: rating gained over the month's games, games, rating."""
        try:
            since, until = month_bounds(month)
        except ValueError as error:  # a forged custom_id
            raise Refusal(_("There is no such month.")) from error
        guild = None if where_id == GLOBAL_SCOPE else where_id

        rows, total, page, pages = await _board_page(
            lambda offset: self.db.climbers(game, where_id, since, until, guild_id=guild,
                                            offset=offset, limit=PAGE_SIZE),
            page)
        where = _("this server") if scope == "server" else _("all servers")
        embed = discord.Embed(title=f"📈 {game_name(game)} · {month_name(since)} · {where}",
                              colour=discord.Colour.green())
        if not rows:
            embed.description = _("No rated game of {game} finished in {month}.").format(
                game=game_name(game), month=month_name(since))
        else:
            start = page * PAGE_SIZE
            embed.description = "\n".join(
                _("**{rank}.** {name} — **{gain}** in {games} · now {rating}").format(
                    rank=start + i + 1,
                    name=discord.utils.escape_markdown(shown_name(p.player_id, p.name)),
                    gain=f"{p.gain:+.1f}",
                    games=games_text(p.games), rating=f"{p.rating:.1f}")
                for i, p in enumerate(rows))
        players = ngettext("{n} player", "{n} players", total).format(n=total)
        embed.set_footer(text=_("Page {page}/{pages} · {players} · the rating each gained over "
                                "the month's games (UTC)").format(page=page + 1, pages=pages,
                                                                  players=players))
        return embed, _page_buttons(game, scope, page, pages, month)

    async def leaderboard_page(
        self, page: LeaderboardPage, guild_id: int | None
    ) -> tuple[discord.Embed, discord.ui.View]:
        """The page a Previous or Next button asks for."""
        return await self.leaderboard(page.game, page.scope, guild_id, page.page, page.month)

    async def stats(self, user: discord.abc.User, guild_id: int | None) -> discord.Embed:
        """Rating, games, wins, draws and streaks per game on this server."""
        rated = await self.db.player_ratings(
            user.id, server_scope(guild_id))
        name = discord.utils.escape_markdown(user.display_name)
        embed = discord.Embed(title=_("📊 {name} · this server").format(name=name),
                              colour=discord.Colour.blurple())
        by_game = {row.game: (row, rank, players) for row, rank, players in rated}
        for game in self.uis:
            if game in by_game:
                row, rank, players = by_game[game]
                embed.add_field(name=game_name(game), inline=False,
                                value=_stats_field(row, rank, players))
        if not embed.fields:
            embed.description = _("{name} has not finished a rated game on this server "
                                  "yet.").format(name=name)
        else:
            embed.set_footer(text=_("Add game: to see one game's rating over time."))
        played, won = await self.db.tournaments_of(user.id, guild_id)
        if played:
            embed.add_field(name=_("🏆 Tournaments"), inline=False, value=_(
                "{played} played · {won} won").format(played=played, won=won))
        return embed

    async def server_stats(self, guild_id: int, server: str) -> discord.Embed:
        """What the server has played, game by game, and who played most this month."""
        month = month_bounds(month_key(utcnow()))[0]
        activity = await self.db.server_activity(guild_id, list(self.uis), month)
        return server_stats_embed(server, activity, list(self.uis), month,
                                  await self.db.server_tournaments(guild_id))

    async def game_stats(self, user: discord.abc.User, guild_id: int | None,
                         game: str) -> tuple[discord.Embed, discord.File | None]:
        """One game's rating, rank and results on this server, with the chart of the rating
        after each of the member's last rated games there (none before a first one)."""
        scope = server_scope(guild_id)
        rated = {row.game: (row, rank, players)
                 for row, rank, players in await self.db.player_ratings(user.id, scope)}
        name = discord.utils.escape_markdown(user.display_name)
        embed = discord.Embed(title=_("📊 {name} · {game} · this server").format(
            name=name, game=game_name(game)), colour=discord.Colour.blurple())
        if game not in rated:
            embed.description = _("{name} has not finished a rated game of {game} on this "
                                  "server yet.").format(name=name, game=game_name(game))
            return embed, None
        embed.description = _stats_field(*rated[game])
        best = await self.db.best_rating(user.id, scope, game)
        if best is not None:
            embed.description += "\n" + _("Best rating: **{rating}** ({date})").format(
                rating=f"{best.after:.1f}", date=discord.utils.format_dt(best.finished_at, "d"))
        points = await self.db.rating_history(user.id, scope, game, limit=CHART_GAMES)
        if not points:  # rated before each game's change was kept
            return embed, None
        chart = chart_view(points)
        png = await self.painter.chart(chart)
        embed.set_image(url=f"attachment://{CHART_FILENAME}")
        embed.set_footer(text=ngettext(
            "Rating after the last rated game here.",
            "Rating after each of the last {n} rated games here, the oldest on the left.",
            len(points)).format(n=len(points)))
        ratings = chart["ratings"]
        alt = ngettext(
            "{name}'s rating in {game} after their last rated game here: {last}.",
            "{name}'s rating in {game} after each of their last {n} rated games here: from "
            "{first} to {last}, {low} at the lowest and {high} at the highest.",
            len(points)).format(
            name=name, game=game_name(game), n=len(points),
            first=f"{ratings[0]:.1f}", last=f"{ratings[-1]:.1f}",
            low=f"{min(ratings):.1f}", high=f"{max(ratings):.1f}")
        return embed, discord.File(io.BytesIO(png), filename=CHART_FILENAME,
                                   description=alt_text(alt))

    async def head_to_head(self, first: discord.abc.User, second: discord.abc.User,
                           guild_id: int | None, only: str | None = None) -> discord.Embed:
        """Who finished ahead of whom, game by game (or in the game `only`), in the games two
        members both played on this server (rated or not)."""
        if first.id == second.id:
            raise Refusal(_("Pick someone else to compare {name} with.").format(
                name=discord.utils.escape_markdown(first.display_name)))
        games = await self.db.games_between(first.id, second.id, guild_id=guild_id,
                                            limit=HEAD_TO_HEAD_GAMES)
        # head_to_head_field escapes the names itself: it takes them as they are.
        one, other = (discord.utils.escape_markdown(first.display_name),
                      discord.utils.escape_markdown(second.display_name))
        embed = discord.Embed(title=_("⚔️ {first} vs {second} · this server").format(
            first=one, second=other), colour=discord.Colour.blurple())
        by_game: dict[str, list[GameSummary]] = {}
        for game in games:
            by_game.setdefault(game.game, []).append(game)
        for game_id in self.uis if only is None else [only]:
            if game_id in by_game:
                played = by_game[game_id]
                embed.add_field(
                    name=f"{game_name(game_id)} · {games_text(len(played))}", inline=False,
                    value=head_to_head_field(played, (first.id, first.display_name),
                                             (second.id, second.display_name)))
        if not embed.fields and only is not None:
            embed.description = _("{first} and {second} have not finished a game of {game} "
                                  "together on this server yet.").format(
                first=one, second=other, game=game_name(only))
        elif not embed.fields:
            embed.description = _("{first} and {second} have not finished a game together on "
                                  "this server yet.").format(first=one, second=other)
        else:
            embed.set_footer(text=_("Who finished ahead of whom, in every finished game they "
                                    "both played here, rated or not."))
        return embed

    async def history(
        self, member_id: int, name: str | None, guild_id: int | None, page: int = 0,
        game: str = "",
    ) -> tuple[discord.Embed, discord.ui.View]:
        """A page of a member's games that ended (of one `game`, or all), newest first:
        opponents, result, what each did to their rating, date and game id (for `/replay`);
        Newer and Older page through. `name` is theirs as the command saw it; a page click
        (None) takes the one stored with their games, and is refused for a member with none."""
        if game and game not in GAMES:  # a forged custom_id
            raise Refusal(_("There is no such game."))
        only = game or None
        total = await self.db.count_games_of(member_id, guild_id=guild_id, game=only)
        page, pages = page_bounds(page, total, HISTORY_SIZE)
        records = await self.db.games_of(member_id, guild_id=guild_id, game=only,
                                         limit=HISTORY_SIZE, offset=page * HISTORY_SIZE)
        changes = await self.db.rating_changes_of(
            rated_id(member_id), server_scope(guild_id),
            [r.id for r in records]) if records else {}
        if name is None:  # a page click: the name stored with their games
            name = next((s.display_name for r in records for s in r.seats
                         if s.user_id == member_id), None)
        if name is None:  # a forged page of someone who never played here
            raise Refusal(_("There is no such member on this server."))
        name = discord.utils.escape_markdown(name)
        title = (_("📜 {name}'s latest games of {game}").format(name=name, game=game_name(game))
                 if game else _("📜 {name}'s latest games").format(name=name))
        embed = discord.Embed(title=title, colour=discord.Colour.blurple())
        view = discord.ui.View(timeout=None)
        if not records:
            embed.description = (
                _("{name} has no finished game of {game} on this server yet.").format(
                    name=name, game=game_name(game)) if game else
                _("{name} has no finished game on this server yet.").format(name=name))
            return embed, view
        embed.description = "\n".join(history_line(r, member_id, changes.get(r.id))
                                      for r in records)
        if pages == 1:
            embed.set_footer(text=_("Watch one again with /replay game:<id>"))
            return embed, view
        embed.set_footer(text=_("Page {page}/{pages} · {games} · watch one again with /replay "
                                "game:<id>").format(page=page + 1, pages=pages,
                                                    games=games_text(total)))
        view.add_item(HistoryButton(member_id, max(page - 1, 0), "p", game, label=_("Newer"),
                                    emoji="◀️", disabled=page == 0))
        view.add_item(HistoryButton(member_id, min(page + 1, pages - 1), "n", game,
                                    label=_("Older"), emoji="▶️", disabled=page == pages - 1))
        return embed, view

    async def running(self, user: discord.abc.User, guild_id: int | None) -> discord.Embed:
        """The member's games in progress here, those waiting for them first, with links."""
        games, total, waiting = await self.db.running_games_of(user.id, guild_id=guild_id,
                                                               limit=LISTED)
        embed = discord.Embed(title=_("🎲 Your games in progress"),
                              colour=discord.Colour.blurple())
        tournaments = [] if guild_id is None else \
            await self.db.tournaments_playing(user.id, guild_id)
        if tournaments:  # a player sitting a round out has no game, but a tournament
            lines = [progress_line(t) for t in tournaments[:TOURNAMENTS_LISTED]]
            if len(tournaments) > TOURNAMENTS_LISTED:
                lines.append(_("and {n} more").format(n=len(tournaments) - TOURNAMENTS_LISTED))
            embed.add_field(name=_("🏆 Your tournaments"), value="\n".join(lines),
                            inline=False)
        if not games:
            embed.description = _("You have no game in progress on this server. Challenge "
                                  "someone with /challenge, or open a table with /lobby.")
            return embed
        embed.description = running_description(games, total, user.id)
        away = (await self.db.away_until([user.id], utcnow())).get(user.id)
        if away is not None:  # why their deadlines lie after their return
            embed.add_field(name=_("🏖️ You are away"), value=_(
                "Until {date}: your Daily and Relaxed games wait for you (`/away off` when you "
                "are back).").format(date=discord.utils.format_dt(away, "f")))
        embed.set_footer(text=ngettext("{n} of them waits for you.", "{n} of them wait for "
                                       "you.", waiting).format(n=waiting) if waiting else
                         _("None of them waits for you."))
        return embed

    async def live(self, guild_id: int, homes: Sequence[int], game: str | None) -> discord.Embed:
        """The games in progress on the server in the channels `homes` (those the member
        sees), of `game` only when given, the latest move first, with links to watch them."""
        games, total = await self.db.live_games(guild_id, homes, game=game, limit=LISTED)
        title = (_("👀 Games of {game} in progress").format(game=game_name(game)) if game
                 else _("👀 Games in progress on this server"))
        embed = discord.Embed(title=title, colour=discord.Colour.blurple())
        if not games:
            embed.description = (
                _("No game of {game} is in progress here right now. Start one with /challenge, "
                  "or open a table with /lobby.").format(game=game_name(game)) if game else
                _("No game is in progress here right now. Start one with /challenge, or open "
                  "a table with /lobby."))
            return embed
        embed.description = live_description(games, total)
        embed.set_footer(text=_("Open a game to watch it: its board follows every move."))
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
                raise no_such_game(clip(text, 30))
            return await self.find_replayable(game_id, guild_id)
        found = await self.replay_choices(user_id, guild_id, text) if text else []
        if len(found) == 1:
            return await self.find_replayable(int(found[0][1]), guild_id)
        shown = clip(typed.strip(), 50)
        if not found:
            raise Refusal(_("None of your latest games on this server matches {typed}. Pick "
                            "one from the suggestions, or give a game id (`/history` lists "
                            "them).").format(typed=repr(shown)))
        raise Refusal(ngettext(
            "{n} of your games matches {typed}: pick one from the suggestions, or give its id "
            "(`/history` lists them).",
            "{n} of your games match {typed}: pick one from the suggestions, or give its id "
            "(`/history` lists them).", len(found)).format(n=len(found), typed=repr(shown)))

    async def find_replayable(self, game_id: int, guild_id: int | None) -> GameRecord:
        """The game to replay; a Refusal unless it was played on this server."""
        record = await self.db.get_game(game_id)
        if record is None or record.guild_id != guild_id:
            raise no_such_game(game_id)
        return record

    async def replay(self, record: GameRecord) -> Replay:
        """The game as an animated GIF that fits the upload limit, with a Step through button."""
        moves = await self.db.moves(record.id)
        shown = await asyncio.to_thread(replay_pictures, record, moves)
        gif = await self.painter.replay(shown.pictures, shown.captions, shown.names,
                                        limit=MAX_UPLOAD)
        status = _(REPLAY_STATUS[record.status])
        caption = _("🎞️ Replay of game #{id} · {title} ({moves}, {status})").format(
            id=record.id, title=discord.utils.escape_markdown(replay_title(record)),
            moves=moves_text(gif.frames - 1),
            status=status)
        if gif.sampled:
            caption += "\n" + _("Too long to upload whole: {shown} of its {positions} positions "
                                "are shown. **Step through** shows every one.").format(
                                    shown=gif.shown, positions=gif.frames)
        view = discord.ui.View(timeout=None)
        view.add_item(ReplayButton(record.id, 0, "o", label=_("Step through"), emoji="🔎"))
        view.add_item(ReplayButton(record.id, 0, "m", label=_("Move list"), emoji="📄"))
        return Replay(clip(caption, MESSAGE_LIMIT), gif.data, f"replay-{record.id}.gif", view)

    async def move_list(self, game_id: int, guild_id: int | None) -> tuple[str, bytes]:
        """A game's moves as a text file, what its spectators saw: the title, the options,
        when it started, one line per decision, how it ended; with the message above it."""
        record = await self.find_replayable(game_id, guild_id)
        moves = await self.db.moves(record.id)
        title = _("Game #{id} · {title}").format(id=record.id, title=replay_title(record))
        header = [title, _("Started {date} (UTC)").format(
            date=record.created_at.strftime("%Y-%m-%d %H:%M"))]
        if record.options:
            header.append(_("Options: {options}").format(
                options=describe_options(GAMES[record.game], record.options)))
        lines = [*header, "", *move_list_lines(record, moves)]
        text = "\n".join(lines) + "\n"
        return _("📄 The moves of game #{id}.").format(id=record.id), text.encode()

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
            raise Refusal(_("Game #{id} has {moves}: there is no move {index}. Use First or "
                            "Last.").format(id=record.id, moves=moves_text(last), index=index))
        return record, positions, index

    async def replay_frame(
        self, record: GameRecord, positions: Sequence[Position], index: int
    ) -> ReplayFrame:
        """The viewer at `positions[index]`: `Move 12 of 83 · Alice: b2:NNE`, the picture and
        First, Previous, Next, Last."""
        last = len(positions) - 1
        shown = positions[index]
        png = await self.painter.paint(shown.view, shown.highlight,
                                       names=seat_names(record))
        caption = viewer_caption(positions[index], last, record)
        title = _("🎞️ Game #{id} · {title}").format(id=record.id, title=replay_title(record))
        # Plain text throughout (names, moves): all of it is escaped, not only the names.
        content = clip(discord.utils.escape_markdown(f"{title}\n{caption}"), MESSAGE_LIMIT)
        return ReplayFrame(content, png, VIEWER_FILENAME, viewer_buttons(record.id, index, last))
