"""A server's monthly recap: at the start of each month (UTC), what the server played the month
before, posted in the channel its managers chose (`/settings recap_channel:`): the games
finished, who climbed most in each game, who played most, who won its tournaments.

The month recapped is stored with the server's settings and claimed before posting (a
guarded write), so a restart, or several shard processes, post each recap once. A bot that
was down when the month turned posts it when it is back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Final

import discord

from bot.ai_players import shown_name
from bot.board import EMBED_DESCRIPTION_LIMIT
from bot.clock import utcnow
from bot.languages import Languages
from bot.publisher import Post, Problem, Publisher, PublishFailed
from bot.ratings import server_scope
from bot.replay import and_join
from engines import GAMES
from i18n import _, count_text, month_name, ngettext, use_language
from storage import Climber, Database, MonthRecap

log = logging.getLogger(__name__)

PODIUM: Final = 3
"""Climbers named for each game."""

LONGEST_SLEEP: Final = 86400.0
"""Seconds the loop sleeps at most before looking again: a guard against the system clock
jumping (the loop's sleep follows a monotonic clock), at the cost of a day's delay at worst.
Not an hour, as the timer loop's: every waking costs a query, for a post made once a month."""

MEDALS: Final = ("🥇", "🥈", "🥉")

TOURNAMENTS_NAMED: Final = 10
"""Tournaments a recap names at most, in the order they finished; the others are counted. A
busy server finishes dozens in a month, and a recap is a highlight, not a list (and an embed's
description holds 4,096 characters)."""


def month_key(moment: datetime) -> str:
    """`2026-10`: how a month is stored (they sort as text)."""
    return f"{moment.year:04d}-{moment.month:02d}"


def month_start(moment: datetime) -> datetime:
    """The first instant of `moment`'s month."""
    return moment.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def last_month(now: datetime) -> tuple[datetime, datetime]:
    """The month before `now`'s, as [since, until)."""
    until = month_start(now)
    return month_start(until - timedelta(days=1)), until


def recap_embed(since: datetime, recap: MonthRecap,
                podiums: Mapping[str, Sequence[Climber]]) -> discord.Embed:
    """The recap of the month starting `since`, in the current language."""
    total = sum(count for _game, count in recap.games)
    lines = [ngettext("**{games} game** finished by {players}.",
                      "**{games} games** finished by {players}.", total).format(
        games=count_text(total), players=ngettext(
            "**{n} member**", "**{n} members**", recap.players).format(
                n=count_text(recap.players))), ""]
    for game, count in recap.games:
        line = ngettext("**{game}** · {n} game", "**{game}** · {n} games", count).format(
            game=GAMES[game].name if game in GAMES else game, n=count_text(count))
        climbers = [c for c in podiums.get(game, ()) if c.gain > 0][:PODIUM]
        if climbers:
            line += " — " + " · ".join(
                f"{medal} {discord.utils.escape_markdown(shown_name(c.player_id, c.name))} "
                f"{c.gain:+.1f}"
                for medal, c in zip(MEDALS, climbers, strict=False))
        lines.append(line)
    tail: list[str] = []
    if recap.most_active:
        tail = ["", _("Most games: {players}.").format(players=", ".join(
            f"<@{user_id}> ({count_text(count)})" for user_id, count in recap.most_active))]
    if recap.tournaments:
        # The room left once every other line is in, two line breaks for the blank line.
        room = EMBED_DESCRIPTION_LIMIT - len("\n".join(lines + tail)) - 2
        lines += ["", tournaments_line(recap.tournaments, room)]
    lines += tail
    embed = discord.Embed(
        title=_("📅 {month}: what we played").format(month=month_name(since).capitalize()),
        description="\n".join(lines), colour=discord.Colour.blurple())
    embed.set_footer(text=_("🥇 The rating gained over the month's rated games. "
                            "/leaderboard period: Last month ranks everyone."))
    return embed


def tournaments_line(tournaments: Sequence[tuple[str, Sequence[str]]], room: int) -> str:
    """`🏆 Tournaments won: **Alice** (Qawale) · …`: as many of `tournaments` (a game and its
    winners) as `TOURNAMENTS_NAMED` and `room` characters allow, then how many were left out."""
    entries = [_("{names} ({game})").format(
        names=and_join([f"**{discord.utils.escape_markdown(name)}**" for name in names]),
        game=GAMES[game].name if game in GAMES else game) for game, names in tournaments]
    for named in range(min(len(entries), TOURNAMENTS_NAMED), -1, -1):
        shown = entries[:named]
        if named < len(entries):
            shown.append(_("and {n} more").format(n=len(entries) - named))
        line = _("🏆 Tournaments won: {tournaments}.").format(tournaments=" · ".join(shown))
        if len(line) <= room:
            break
    return line


class RecapService:
    """Posts each server's recap when a month ends, and keeps where it goes."""

    def __init__(self, db: Database, publisher: Publisher, languages: Languages,
                 owns: Callable[[int | None], bool] = lambda guild_id: True) -> None:
        self.db = db
        self.publisher = publisher
        self.languages = languages
        self.owns = owns
        """Whether this process runs a server's shard: only that process posts its recap."""
        self._task: asyncio.Task[None] | None = None

    async def channel(self, guild_id: int) -> int | None:
        """Where the server's recaps go, or None."""
        return await self.db.server_recap_channel(guild_id)

    async def set_channel(self, guild_id: int, channel_id: int | None) -> None:
        """Send the server's recaps to a channel from next month on (None: to none)."""
        since, _until = last_month(utcnow())
        await self.db.set_server_recap_channel(guild_id, channel_id, month_key(since))

    def start(self) -> None:
        """Post the recaps due now, then each month's as it ends (in the background)."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="monthly-recaps")

    def close(self) -> None:
        """Stop looking."""
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while True:
            try:
                await self.post_due()
            except Exception:  # a background loop: log it, look again later
                log.exception("could not post the monthly recaps")
            now = utcnow()
            _since, this_month = last_month(now)
            next_month = month_start(this_month + timedelta(days=32))
            await asyncio.sleep(min(LONGEST_SLEEP, max(1.0, (next_month - now).total_seconds())))

    async def post_due(self) -> int:
        """Post every recap of last month not posted yet on this process's servers; how many
        were posted."""
        since, until = last_month(utcnow())
        key = month_key(since)
        posted = 0
        for guild_id, channel_id in await self.db.recaps_due(key):
            if self.owns(guild_id) and await self.db.claim_recap(guild_id, key):
                posted += await self._post(guild_id, channel_id, since, until)
        return posted

    async def _post(self, guild_id: int, channel_id: int, since: datetime,
                    until: datetime) -> int:
        """Post a server's recap; 0 when it had nothing to tell or Discord refused it."""
        recap = await self.db.month_recap(guild_id, since, until)
        if not recap.games:
            return 0  # a quiet month: nothing to say, nobody pinged for nothing
        scope = server_scope(guild_id)
        podiums = {game: (await self.db.climbers(game, scope, since, until, guild_id=guild_id,
                                                 offset=0, limit=PODIUM))[0]
                   for game, _count in recap.games}
        with use_language(await self.languages.of_server(guild_id)):
            embed = recap_embed(since, recap, podiums)
        try:
            await self.publisher.post(channel_id, Post(
                embed=embed, mentions=discord.AllowedMentions.none()))
        except PublishFailed as failure:
            log.info("server %s: could not post its monthly recap: %s", guild_id, failure)
            if failure.problem is Problem.CHANNEL_GONE:  # no recap goes there any more
                await self.db.set_server_recap_channel(guild_id, None, month_key(since))
            return 0
        return 1
