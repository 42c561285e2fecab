"""A tournament's public messages: the standings under their title, the call of each round
and the end, in the current language (the service posts them and edits them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import discord
from discord.utils import escape_markdown

from bot.board import EMBED_DESCRIPTION_LIMIT, message_link
from bot.challenge_posts import with_terms
from bot.clock import Clock
from bot.components import TournamentButton
from bot.replay import and_join
from bot.round_robin import PlayedGame, Standing, game_count, played, points_text
from bot.tournament_rounds import (
    RoundPlan,
    history,
    is_swiss,
    rounds_of,
    table_of,
)
from engines import GAMES
from i18n import _, ngettext
from storage import GameStatus, TournamentGame, TournamentRecord, TournamentStatus


def player_name(tournament: TournamentRecord, user_id: int) -> str:
    """A player's name as the tournament's messages write it: escaped for Discord markdown."""
    return escape_markdown(tournament.name_of(user_id))


def _game_line(game: TournamentGame, tournament: TournamentRecord) -> str:
    """`Alice vs Bob in #thread: 1–0`, in the current language."""
    first, second = (player_name(tournament, uid) for uid in game.player_ids)
    if game.status is GameStatus.RUNNING:
        score = "⏳"
    elif game.status is GameStatus.ABORTED or game.result is None:
        score = _("aborted")
    else:
        outcome = played(game.player_ids, game.result)
        score = "½–½" if outcome.winner is None else (
            "1–0" if outcome.winner == game.player_ids[0] else "0–1")
    return _("{first} vs {second} in <#{thread}>: {score}").format(
        first=first, second=second, thread=game.channel_id, score=score)


def _standing_line(row: Standing, tournament: TournamentRecord) -> str:
    """`**1.** Alice — **2½** (3 played: 2 won, 1 drawn, 0 lost · tie-break 1.75)`; in a
    Swiss tournament, whose field is larger, `**1.** Alice — **3** (2 won, 0 drawn, 1 lost,
    1 bye · tie-break 7)`."""
    name = player_name(tournament, row.user_id)
    if any(p.user_id == row.user_id and p.withdrawn_in is not None for p in tournament.players):
        name = _("{name} (withdrew)").format(name=name)
    values = {"place": row.place, "name": name, "points": points_text(row.points),
              "played": row.played, "wins": row.wins, "draws": row.draws,
              "losses": row.losses, "byes": row.byes, "tiebreak": f"{float(row.tiebreak):g}"}
    if not is_swiss(tournament):
        return _("**{place}.** {name} — **{points}** ({played} played: {wins} won, {draws} "
                 "drawn, {losses} lost · tie-break {tiebreak})").format(**values)
    if row.byes:
        return ngettext("**{place}.** {name} — **{points}** ({wins} won, {draws} drawn, "
                        "{losses} lost, {byes} bye · tie-break {tiebreak})",
                        "**{place}.** {name} — **{points}** ({wins} won, {draws} drawn, "
                        "{losses} lost, {byes} byes · tie-break {tiebreak})",
                        row.byes).format(**values)
    return _("**{place}.** {name} — **{points}** ({wins} won, {draws} drawn, {losses} lost · "
             "tie-break {tiebreak})").format(**values)


def _forfeit_line(game: PlayedGame, tournament: TournamentRecord) -> str:
    """`Alice vs Bob: 1–0 (forfeit)`."""
    score = "1–0" if game.winner == game.first else "0–1"
    return _("{first} vs {second}: {score} (forfeit)").format(
        first=player_name(tournament, game.first),
        second=player_name(tournament, game.second),
        score=score)


AT_ONCE_CLOCKS: Final = frozenset({Clock.DAILY.value, Clock.RELAXED.value})
"""Clocks whose tournaments start every game at once, as correspondence tournaments do:
round after round, at a day or three a move, eight players would need weeks."""

MOST_GAMES_LISTED: Final = 10
"""Games in progress a tournament's message lists (the others are counted): 28 games of
eight players with long names would not fit in an embed."""

MORE_PLAYERS_ROOM: Final = 40
"""Room kept, when the standings are cut, for the line that counts the players left out."""


def plays_at_once(tournament: TournamentRecord) -> bool:
    """True when every game of the tournament starts at once (a round robin with a daily or
    relaxed clock: a Swiss round's pairing waits for the results of the round before)."""
    return tournament.clock in AT_ONCE_CLOCKS and not is_swiss(tournament)


def winners_of(table: Sequence[Standing]) -> list[int]:
    """Who shares first place."""
    return [row.user_id for row in table if row.place == 1]


def _idle_line(plan: RoundPlan, tournament: TournamentRecord) -> str | None:
    """`Alice sits this round out.`, or in a Swiss tournament `Alice has a bye (1 point).`"""
    if plan.idle is None:
        return None
    name = player_name(tournament, plan.idle)
    return (_("{name} has a bye (1 point).") if plan.bye
            else _("{name} sits this round out.")).format(name=name)


def _fitted(head: Sequence[str], standings: Sequence[str], tail: Sequence[str]) -> str:
    """The message's lines within an embed's description: the standings are cut (with how
    many players were left out) when a large field's names would not fit."""
    room = EMBED_DESCRIPTION_LIMIT - sum(len(line) + 1 for line in (*head, *tail))
    kept: list[str] = []
    for index, line in enumerate(standings):
        left = len(standings) - index - 1
        if len(line) + 1 > room - (MORE_PLAYERS_ROOM if left else 0):
            kept.append("• " + _("and {n} more").format(n=len(standings) - index))
            break
        kept.append(line)
        room -= len(line) + 1
    return "\n".join([*head, *kept, *tail])


def tournament_embed(tournament: TournamentRecord,
                     games: Sequence[TournamentGame]) -> discord.Embed:
    """The tournament's message: standings, the round being played, the rules of scoring."""
    so_far = history(tournament, games)  # planned once: standings, forfeits, who sits out
    table = table_of(tournament, games, so_far)
    rounds = rounds_of(tournament)
    swiss = is_swiss(tournament)
    name = GAMES[tournament.game].name
    lines = []
    if tournament.status is TournamentStatus.FINISHED:
        champions = and_join([f"**{player_name(tournament, uid)}**"
                              for uid in winners_of(table)])
        lines.append(_("🏁 Over after {rounds} rounds. 🥇 {champions}").format(
            rounds=rounds, champions=champions))
    elif tournament.status is TournamentStatus.CANCELLED:
        lines.append(_("🛑 Cancelled: the standings as they were.") if plays_at_once(tournament)
                     else _("🛑 Cancelled in round {round} of {rounds}: the standings as they "
                            "were.").format(round=tournament.round, rounds=rounds))
    else:
        if swiss:
            meets = _("Swiss: players on the same points meet, never twice")
        elif tournament.legs == 1:
            meets = _("Everyone plays everyone once")
        else:
            meets = _("Everyone plays everyone twice, seats swapped")
        if plays_at_once(tournament):
            total = game_count(len(tournament.players), tournament.legs)
            over = total - sum(game.status is GameStatus.RUNNING for game in games)
            lines.append(_("{host} hosts it. {meets}, every game at once: **{over} of {total} "
                           "games over**.").format(host=f"<@{tournament.host_id}>",
                                                  meets=meets, over=over, total=total))
        else:
            lines.append(_("{host} hosts it. {meets}: **round {round} of {rounds}**.").format(
                host=f"<@{tournament.host_id}>", meets=meets, round=tournament.round,
                rounds=rounds))
    head = [*lines, "", _("**Standings**")]
    rows = [_standing_line(row, tournament) for row in table]
    lines = []
    if plays_at_once(tournament):
        running = [game for game in games if game.status is GameStatus.RUNNING]
        if running and tournament.status is TournamentStatus.RUNNING:
            lines += ["", _("**In progress**"), *_listed(running, tournament)]
        shown_round = 0  # no round of its own to show
    else:
        shown_round = tournament.round
    current = [game for game in games if game.round == shown_round]
    lost = so_far.forfeits[shown_round - 1] if shown_round else []
    if (current or lost) and tournament.status is TournamentStatus.RUNNING:
        lines += ["", _("**Round {round}**").format(round=shown_round),
                  *_listed(current, tournament),
                  *(f"• {_forfeit_line(game, tournament)}" for game in lost)]
        idle = _idle_line(so_far.plans[shown_round - 1], tournament)
        if idle is not None:
            lines.append(f"• {idle}")
    embed = with_terms(discord.Embed(title=_("🏆 {game} tournament").format(game=name),
                                     description=_fitted(head, rows, lines),
                                     colour=discord.Colour.gold()),
                       tournament.game, tournament.options, tournament.clock, tournament.casual)
    embed.set_footer(text=_("A win scores 1 point, a draw ½, a bye 1, an aborted game nothing. "
                            "Level on points: Buchholz tie-break (the points of every player "
                            "you met), then wins.") if swiss else
                     _("A win scores 1 point, a draw ½, an aborted game nothing. Level on "
                       "points: Sonneborn-Berger tie-break (the points of the players "
                       "you beat, half those of the players you drew), then wins."))
    return embed


def _listed(games: Sequence[TournamentGame], tournament: TournamentRecord) -> list[str]:
    """The games' lines, at most `MOST_GAMES_LISTED`, then how many more."""
    lines = [f"• {_game_line(game, tournament)}" for game in games[:MOST_GAMES_LISTED]]
    if len(games) > MOST_GAMES_LISTED:
        lines.append("• " + _("and {n} more").format(n=len(games) - MOST_GAMES_LISTED))
    return lines


def tournament_view(tournament: TournamentRecord) -> discord.ui.View | None:
    """🏳️ Withdraw and 🛑 Cancel tournament while it runs; nothing once it is over."""
    if tournament.status is not TournamentStatus.RUNNING:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TournamentButton(tournament.id, "withdraw", label=_("Withdraw"), emoji="🏳️",
                                   style=discord.ButtonStyle.secondary))
    view.add_item(TournamentButton(tournament.id, "cancel", label=_("Cancel tournament"),
                                   emoji="🛑", style=discord.ButtonStyle.secondary))
    return view


def progress_line(tournament: TournamentRecord) -> str:
    """`**Qawale** · round 2 of 3 [Standings](link)`, or `every game at once` for a
    correspondence tournament."""
    if plays_at_once(tournament):
        where = _("every game at once")
    else:
        where = _("round {round} of {rounds}").format(
            round=tournament.round, rounds=rounds_of(tournament))
    return f"**{GAMES[tournament.game].name}** · {where}{_standings_link(tournament)}"


def _standings_link(tournament: TournamentRecord) -> str:
    """` [Standings](link to the tournament's message)`, or nothing before it has one."""
    if tournament.message_id is None:
        return ""
    return " " + _("[Standings]({link})").format(link=message_link(
        tournament.guild_id, tournament.channel_id, tournament.message_id))


def game_intro(tournament: TournamentRecord) -> str:
    """`🏆 Round 2 of 4 of the Qawale tournament. [Standings](link)`: the top of a
    tournament game's thread."""
    name = GAMES[tournament.game].name
    if plays_at_once(tournament):
        text = _("🏆 A game of the {game} tournament.").format(game=name)
    else:
        text = _("🏆 Round {round} of {rounds} of the {game} tournament.").format(
            round=tournament.round, rounds=rounds_of(tournament), game=name)
    return text + _standings_link(tournament)


def round_call(tournament: TournamentRecord, games: Sequence[TournamentGame]) -> str:
    """`🏆 Round 2 of 3 of the Qawale tournament: @A vs @B in #thread.`, who sits it out, and
    the link to the standings."""
    rounds = rounds_of(tournament)
    current = [game for game in games if game.round == tournament.round]
    listed = " · ".join(_("<@{first}> vs <@{second}> in <#{thread}>").format(
        first=game.player_ids[0], second=game.player_ids[1], thread=game.channel_id)
        for game in current)
    text = _("🏆 **Round {round} of {rounds}** of the {game} tournament: {games}.").format(
        round=tournament.round, rounds=rounds, game=GAMES[tournament.game].name, games=listed)
    idle = _idle_line(history(tournament, games).plans[-1], tournament)
    if idle is not None:
        text += " " + idle
    return text + _standings_link(tournament)


def start_call(tournament: TournamentRecord) -> str:
    """`🏆 The Qawale tournament starts: its 3 games at once, ...` with the players pinged and
    the link to the standings (each game's thread then tells its players whose turn it is)."""
    count = game_count(len(tournament.players), tournament.legs)
    text = _("🏆 The {game} tournament starts: all its {count} games at once, each in its own "
             "thread ({players}).").format(
        game=GAMES[tournament.game].name, count=count,
        players=" ".join(f"<@{player.user_id}>" for player in tournament.players))
    return text + _standings_link(tournament)


def end_call(tournament: TournamentRecord, games: Sequence[TournamentGame]) -> str:
    """`🏆 The Qawale tournament is over: **Alice** wins it with 2 points!` (or the names
    sharing first place)."""
    table = table_of(tournament, games)
    champions = winners_of(table)
    points = points_text(table[0].points)
    name = GAMES[tournament.game].name
    if len(champions) == 1:
        return _("🏆 The {game} tournament is over: **{name}** wins it with {points} "
                 "points!").format(game=name, name=player_name(tournament, champions[0]),
                                   points=points)
    return _("🏆 The {game} tournament is over: {names} share first place with {points} "
             "points!").format(game=name, points=points, names=and_join(
                 [f"**{player_name(tournament, uid)}**" for uid in champions]))
