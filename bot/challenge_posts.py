"""A challenge's or a table's public message: its embed and its buttons, in the current
language (the service posts them and edits them as answers come)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import discord
from discord.utils import escape_markdown

from bot.ai_players import LEVEL_NAMES, is_ai, shown_name
from bot.clock import clock_spec
from bot.components import ChallengeButton, LobbyButton
from bot.games.base import GameUI, describe_options
from bot.round_robin import MAX_PLAYERS, MIN_PLAYERS
from bot.swiss import MOST_PLAYERS as SWISS_MOST
from bot.swiss import swiss_rounds
from engines import GAMES
from i18n import _, ngettext
from storage import ChallengeRecord

CHALLENGE_TIMEOUT = timedelta(minutes=10)
"""How long a challenged member has to answer (and a table stays open)."""

TOURNAMENT_TABLE_TIMEOUT = timedelta(minutes=30)
"""How long a tournament's table stays open: gathering a field takes longer than a game."""

START_DELAYS = tuple(timedelta(hours=hours) for hours in (1, 2, 3, 4, 6, 8, 12, 24))
"""When a tournament may start by itself (`/tournament starts_in:`): an evening's
tournament announced in the afternoon, or the next day's."""


def open_minutes(challenge: ChallengeRecord) -> int:
    """For how many minutes the challenge or table was open to answers."""
    return round((challenge.expires_at - challenge.created_at).total_seconds() / 60)


def _named(challenge: ChallengeRecord, user_id: int) -> str:
    """A player's name as shown, for markdown: the AI's in the current language (its stored
    name is the English one)."""
    return escape_markdown(shown_name(user_id, challenge.name_of(user_id)))


def challenge_embed(challenge: ChallengeRecord, entry: GameUI[Any]) -> discord.Embed:
    """The challenge or table (of the game `entry` presents), in the current language."""
    expires = discord.utils.format_dt(challenge.expires_at, "R")
    minutes = open_minutes(challenge)
    pitch = _(entry.pitch)
    if challenge.is_tournament:
        description, title = _tournament_table(challenge, entry, expires, minutes)
    elif challenge.is_lobby:
        game = GAMES[challenge.game]
        seated = "\n".join(
            f"{i + 1}. {_named(challenge, uid) if is_ai(uid) else f'<@{uid}>'}"
            + (_(" (host)") if uid == challenge.challenger_id else "")
            for i, uid in enumerate(challenge.player_ids))
        opens = _("{host} opens a table of **{game}** ({low} to {high} players).").format(
            host=f"<@{challenge.challenger_id}>", game=entry.name, low=game.min_players,
            high=game.max_players)
        at_table = _("**At the table ({seated}/{seats}):**").format(
            seated=len(challenge.player_ids), seats=game.max_players)
        how = ngettext(
            "Click **Join** to play; the host may add AI players, and clicks **Start** "
            "once at least {n} player is seated. This table expires {expires} (after "
            "{minutes} minutes).",
            "Click **Join** to play; the host may add AI players, and clicks **Start** "
            "once at least {n} players are seated. This table expires {expires} (after "
            "{minutes} minutes).", game.min_players).format(
                n=game.min_players, expires=expires, minutes=minutes)
        description = f"{opens}\n*{pitch}*\n\n{at_table}\n{seated}\n\n{how}"
        title = _("🪑 {game} table").format(game=entry.name)
    else:
        invited = ", ".join(_named(challenge, uid) if is_ai(uid) else f"<@{uid}>"
                            for uid in challenge.opponent_ids)
        challenges = _("{challenger} challenges {invited} to **{game}**.").format(
            challenger=f"<@{challenge.challenger_id}>", invited=invited, game=entry.name)
        description = f"{challenges}\n*{pitch}*\n\n"
        if len(challenge.opponent_ids) > 1:
            answers = " · ".join(
                f"{'✅' if uid in challenge.accepted_ids else '⏳'} "
                f"{_named(challenge, uid)}" for uid in challenge.opponent_ids)
            description += _("**Answers:** {answers}\nThe game starts when everyone has "
                             "accepted; any Decline cancels it.").format(
                                 answers=answers) + "\n\n"
        waiting = ", ".join(f"<@{uid}>" for uid in challenge.opponent_ids
                            if uid not in challenge.accepted_ids)
        description += _("{waiting}, accept or decline: this challenge expires {expires} "
                         "(after {minutes} minutes).").format(
                             waiting=waiting, expires=expires, minutes=minutes)
        title = _("⚔️ {game} challenge").format(game=entry.name)
    embed = discord.Embed(title=title, description=description,
                          colour=discord.Colour.gold())
    return with_terms(embed, challenge.game, challenge.options, challenge.clock,
                      challenge.casual)


def with_terms(embed: discord.Embed, game: str, options: dict[str, Any], clock: str,
               casual: bool) -> discord.Embed:
    """`embed` with the fields of what its games are played under: options, clock, rating."""
    if options:
        embed.add_field(name=_("Options"), value=describe_options(GAMES[game], options))
    embed.add_field(name=_("Clock"), value=_(clock_spec(clock).label))
    embed.add_field(name=_("Rating"), value=_("Casual: counts for no rating")
                    if casual else _("Rated"))
    return embed


def most_in_tournament(table: ChallengeRecord) -> int:
    """Players a tournament's table seats: a Swiss tournament's field, or a round robin's
    when each pair is to meet twice."""
    return MAX_PLAYERS if table.legs == 2 else SWISS_MOST


def _tournament_table(challenge: ChallengeRecord, entry: GameUI[Any], expires: str,
                      minutes: int) -> tuple[str, str]:
    """A tournament table's description and title."""
    seated = "\n".join(
        f"{i + 1}. <@{uid}>" + (_(" (host)") if uid == challenge.challenger_id else "")
        for i, uid in enumerate(challenge.player_ids))
    most = most_in_tournament(challenge)
    if challenge.legs == 2:
        opens = _("{host} opens a **{game}** tournament: everyone plays everyone twice, seats "
                  "swapped, each game in its own thread, round after round ({low} to {high} "
                  "players).").format(host=f"<@{challenge.challenger_id}>", game=entry.name,
                                      low=MIN_PLAYERS, high=MAX_PLAYERS)
    else:
        opens = _("{host} opens a **{game}** tournament, each game in its own thread: up to "
                  "{high} players, everyone plays everyone once; {more} to {most}, a Swiss "
                  "tournament of {rounds} to {most_rounds} rounds (players on the same points "
                  "meet, never twice).").format(
            host=f"<@{challenge.challenger_id}>", game=entry.name, high=MAX_PLAYERS,
            more=MAX_PLAYERS + 1, most=most, rounds=swiss_rounds(MAX_PLAYERS + 1),
            most_rounds=swiss_rounds(most))
    joined = _("**Players ({seated}/{most}):**").format(seated=len(challenge.player_ids),
                                                        most=most)
    if challenge.auto_start:
        how = _("Click **Join** to play. The tournament starts by itself {starts} ({time}) "
                "with the players then at the table, if at least {n} joined; the host may "
                "click **Start** sooner.").format(
            starts=expires, time=discord.utils.format_dt(challenge.expires_at, "t"),
            n=MIN_PLAYERS)
    else:
        how = _("Click **Join** to play; the host clicks **Start** once at least {n} players "
                "joined. This table expires {expires} (after {minutes} minutes).").format(
            n=MIN_PLAYERS, expires=expires, minutes=minutes)
    return (f"{opens}\n*{_(entry.pitch)}*\n\n{joined}\n{seated}\n\n{how}",
            _("🏆 {game} tournament").format(game=entry.name))


def challenge_buttons(challenge: ChallengeRecord) -> discord.ui.View:
    """Accept and Decline, or a table's buttons, in the current language."""
    view = discord.ui.View(timeout=None)
    if challenge.is_lobby:
        view.add_item(LobbyButton(challenge.id, "join", label=_("Join"), emoji="🪑",
                                  style=discord.ButtonStyle.success))
        view.add_item(LobbyButton(challenge.id, "leave", label=_("Leave"), emoji="🚪",
                                  style=discord.ButtonStyle.secondary))
        view.add_item(LobbyButton(challenge.id, "start", label=_("Start"), emoji="▶️",
                                  style=discord.ButtonStyle.primary))
        if challenge.is_tournament:
            return view  # played by members only
        for level, name in LEVEL_NAMES.items():
            view.add_item(LobbyButton(challenge.id, f"ai_{level}",
                                      label=_("+ {level} AI").format(level=_(name)),
                                      emoji="🤖", style=discord.ButtonStyle.secondary,
                                      row=1))
        view.add_item(LobbyButton(challenge.id, "drop_ai", label=_("− AI"),
                                  style=discord.ButtonStyle.secondary, row=1,
                                  disabled=not any(is_ai(uid)
                                                   for uid in challenge.opponent_ids)))
        return view
    view.add_item(ChallengeButton(challenge.id, "accept", label=_("Accept"), emoji="✅",
                                  style=discord.ButtonStyle.success))
    view.add_item(ChallengeButton(challenge.id, "decline", label=_("Decline"), emoji="✖️",
                                  style=discord.ButtonStyle.danger))
    return view
