"""A round-robin tournament's pairings and standings: pure, from the players' places in the
draw and the results of their games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

MIN_PLAYERS: Final = 3
"""Fewer is a match, not a tournament: `/challenge` plays it."""

MAX_PLAYERS: Final = 8
"""Eight players meet in seven rounds of four games: an evening's worth in Live games. A
larger field plays a Swiss tournament (`bot.swiss`)."""

BYE_POINTS: Final = Fraction(1)
"""A Swiss tournament's bye scores as a win: nobody to play, through no fault of theirs."""


LEGS: Final = (1, 2)
"""How many times each pair may meet: once, or twice with the seats swapped (the second
leg plays the first's rounds again), which evens out who plays first in every pairing."""


def round_count(players: int, legs: int = 1) -> int:
    """Rounds for every pair to meet `legs` times (one player sits out each round when odd)."""
    return (players - 1 if players % 2 == 0 else players) * legs


def game_count(players: int, legs: int = 1) -> int:
    """Games of the whole tournament: each pair meets `legs` times."""
    return players * (players - 1) // 2 * legs


def pairings(players: int, round_no: int, legs: int = 1) -> list[tuple[int, int]]:
    """The games of round `round_no` (from 1) as (first, second) places in the draw.

    The circle method: place 0 stays, the others turn one step a round; a bye fills an odd
    field, and whoever meets it sits the round out. Of two places, the lower plays first when
    their sum is odd, the higher when it is even: each player plays first in half their
    games (one more or fewer in an even field). A second leg swaps the seats of the first."""
    if not 1 <= round_no <= round_count(players, legs):
        raise ValueError(f"round {round_no} of a {players}-player round robin of {legs} legs")
    once = round_count(players)
    if round_no > once:
        return [(second, first) for first, second in pairings(players, round_no - once)]
    slots: list[int | None] = [*range(players), *([None] if players % 2 else [])]
    size = len(slots)
    turn = round_no - 1
    rest = slots[1:]
    rest = rest[len(rest) - turn:] + rest[:len(rest) - turn]
    circle = [slots[0], *rest]
    games = []
    for board in range(size // 2):
        home, away = circle[board], circle[size - 1 - board]
        if home is None or away is None:
            continue  # the bye
        low, high = min(home, away), max(home, away)
        games.append((low, high) if (low + high) % 2 else (high, low))
    return games


def sitting_out(players: int, round_no: int, legs: int = 1) -> int | None:
    """The place that sits round `round_no` out (an odd field), or None."""
    playing = {place for game in pairings(players, round_no, legs) for place in game}
    idle = [place for place in range(players) if place not in playing]
    return idle[0] if idle else None


@dataclass(frozen=True)
class PlayedGame:
    """A game between two players of the tournament, over (ids, seat 0 first)."""

    first: int
    second: int
    winner: int | None
    """The winner's id, or None for a draw (or a game that counts for nobody)."""
    forfeit: bool = False
    """Never played: one of the two had withdrawn, and the other wins it."""
    counts: bool = True
    """False for an aborted game: nobody scores, though the two met (a Swiss pairing keeps
    them apart)."""


def played(player_ids: Sequence[int], result: Mapping[str, Any]) -> PlayedGame:
    """A two-player game's stored result as who beat whom."""
    winners = list(result.get("winners", []))
    winner = player_ids[winners[0]] if len(winners) == 1 else None
    return PlayedGame(player_ids[0], player_ids[1], winner)


@dataclass(frozen=True)
class Standing:
    """One player's line in the table."""

    user_id: int
    place: int
    """1 for the leader; players level on points, tie-break and wins share a place."""
    points: Fraction
    played: int
    wins: int
    draws: int
    losses: int
    tiebreak: Fraction
    """Sonneborn-Berger (the points of the players they beat, and half of those they drew),
    or in a Swiss tournament Buchholz (the points of every opponent they met)."""
    byes: int = 0
    """Rounds of a Swiss tournament they had nobody to play: a point each."""


def standings(player_ids: Sequence[int], games: Sequence[PlayedGame],
              byes: Sequence[int] = (), buchholz: bool = False) -> list[Standing]:
    """The table: points (a win 1, a draw ½, a bye 1), then the tie-break (Sonneborn-Berger,
    or Buchholz when `buchholz`), then wins."""
    games = [game for game in games if game.counts]
    points = dict.fromkeys(player_ids, Fraction(0))
    tally = {uid: [0, 0, 0] for uid in player_ids}  # wins, draws, losses
    for uid in byes:
        if uid in points:
            points[uid] += BYE_POINTS
    for game in games:
        for uid in (game.first, game.second):
            if uid not in points:
                continue
            if game.winner is None:
                points[uid] += Fraction(1, 2)
                tally[uid][1] += 1
            elif game.winner == uid:
                points[uid] += 1
                tally[uid][0] += 1
            else:
                tally[uid][2] += 1
    tiebreak = dict.fromkeys(player_ids, Fraction(0))
    for game in games:
        for uid, other in ((game.first, game.second), (game.second, game.first)):
            if uid not in tiebreak or other not in points:
                continue
            if buchholz:
                tiebreak[uid] += points[other]
            elif game.winner is None:
                tiebreak[uid] += points[other] / 2
            elif game.winner == uid:
                tiebreak[uid] += points[other]

    def key(uid: int) -> tuple[Fraction, Fraction, int]:
        return points[uid], tiebreak[uid], tally[uid][0]

    ranked = sorted(player_ids, key=key, reverse=True)  # stable: the draw order breaks ties
    table: list[Standing] = []
    for index, uid in enumerate(ranked):
        place = index + 1
        if index and key(uid) == key(ranked[index - 1]):
            place = table[-1].place
        wins, draws, losses = tally[uid]
        table.append(Standing(uid, place, points[uid], wins + draws + losses, wins, draws,
                              losses, tiebreak[uid], byes=sum(1 for b in byes if b == uid)))
    return table


def points_text(points: Fraction) -> str:
    """Points as players write them: 2, ½, 2½."""
    whole, half = divmod(points * 2, 2)
    return f"{int(whole) or ''}{'½' if half else ''}" or "0"
