"""`/serverstats`: what a server has played, game by game, and who played most this month."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord

from bot.in_progress import game_name
from i18n import _, month_name, ngettext
from storage import GameActivity, ServerActivity


def game_line(activity: GameActivity) -> str:
    """`**Qawale** · 120 games (12 this month) · 3 in progress`."""
    parts = [f"**{game_name(activity.game)}**", ngettext(
        "{n} game ({recent} this month)", "{n} games ({recent} this month)",
        activity.finished).format(n=activity.finished, recent=activity.finished_since)]
    if activity.running:
        parts.append(ngettext("{n} in progress", "{n} in progress", activity.running).format(
            n=activity.running))
    return " · ".join(parts)


def server_stats_embed(server: str, activity: ServerActivity, games: Sequence[str],
                       month: datetime, tournaments: tuple[int, int] = (0, 0)) -> discord.Embed:
    """The server's games, busiest first, those not played yet, the month's players and the
    most active of them (mentions, which Discord shows as names without pinging), and its
    tournaments (in progress, finished)."""
    embed = discord.Embed(title=_("📊 What {server} plays").format(server=server),
                          colour=discord.Colour.blurple())
    if not activity.games:
        embed.description = _("No game has been played on this server yet. Start one with "
                              "/challenge, or open a table with /lobby.")
        return embed
    played = sorted(activity.games, key=lambda g: (-g.finished, -g.running, g.game))
    lines = [game_line(game) for game in played]
    known = {game.game for game in activity.games}
    unplayed = [game_name(game) for game in games if game not in known]
    if unplayed:
        lines.append(_("Not played here yet: {games}.").format(games=", ".join(unplayed)))
    if activity.first_game is not None:
        lines.append(_("Playing here since {date}.").format(
            date=discord.utils.format_dt(activity.first_game, "D")))
    embed.description = "\n".join(lines)
    if activity.players_since:
        most = ", ".join(f"<@{member}> ({count})" for member, count in activity.most_active)
        embed.add_field(name=month_name(month).capitalize(), value=ngettext(
            "{n} member finished a game. Most active: {members}.",
            "{n} members finished a game. Most active: {members}.",
            activity.players_since).format(n=activity.players_since, members=most))
    running, finished = tournaments
    if running or finished:
        embed.add_field(name=_("🏆 Tournaments"), value=_(
            "{running} in progress · {finished} played").format(running=running,
                                                               finished=finished))
    embed.set_footer(text=_("Finished games only; aborted ones do not count."))
    return embed
