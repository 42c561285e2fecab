"""A Swiss tournament's pairings: pure, from the players' places in the draw, who is still
playing and how their earlier games ended.

Too many players for everyone to meet everyone in an evening: a few rounds, in each of which
players on the same points meet (the Monrad way: the first of the standings plays the
second, the third the fourth...), never twice. The draw is seeded by rating, and round 1
pairs the top half of the seeds with the bottom half (1 against 5, 2 against 6 of eight),
so the best are not drawn against each other at once. An odd field leaves one player out
each round with a bye worth a win: the lowest placed who has not had one.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from bot.round_robin import BYE_POINTS, PlayedGame

MOST_PLAYERS: Final = 32
"""Five rounds find a winner among 32; more would crowd the tournament's message."""

PAIRING_BUDGET: Final = 20_000
"""Partial pairings tried before rematches are allowed: a field with no pairing free of
rematches (rare in a few rounds) would otherwise take exponential time to prove it."""


def swiss_rounds(players: int) -> int:
    """Rounds of a Swiss tournament: enough for one player to win them all (⌈log₂ n⌉),
    at least 3, and never more than a round robin's."""
    return min(max(3, math.ceil(math.log2(players))), players - 1 if players % 2 == 0
               else players)


@dataclass(frozen=True)
class Pairing:
    """A round's games as (first seat, second seat) ids, and who has the bye."""

    games: list[tuple[int, int]]
    bye: int | None


def swiss_points(meetings: Sequence[PlayedGame],
                 byes: Collection[int]) -> dict[int, Fraction]:
    """Each player's points: a win 1, a draw ½, a bye 1 (players not met are absent)."""
    points: dict[int, Fraction] = {}
    for meeting in meetings:
        for player in (meeting.first, meeting.second):
            points.setdefault(player, Fraction(0))
            if not meeting.counts:
                continue
            if meeting.winner is None:
                points[player] += Fraction(1, 2)
            elif meeting.winner == player:
                points[player] += 1
    for player in byes:
        points[player] = points.get(player, Fraction(0)) + BYE_POINTS
    return points


def pair_round(order: Sequence[int], active: Collection[int], meetings: Sequence[PlayedGame],
               byes: Collection[int]) -> Pairing:
    """The next round's pairing of the `active` players (ids in `order`, the draw).

    The same inputs always give the same pairing: a round half opened before a restart is
    completed as it began.
    """
    points = swiss_points(meetings, byes)
    place = {player: index for index, player in enumerate(order)}
    ranked = sorted((p for p in order if p in active),
                    key=lambda p: (-points.get(p, Fraction(0)), place[p]))
    met = {frozenset((m.first, m.second)) for m in meetings}
    bye: int | None = None
    candidates: list[int | None] = [None]
    if len(ranked) % 2:  # the lowest placed without a bye yet, else the lowest placed
        candidates = [p for p in reversed(ranked) if p not in byes] or [ranked[-1]]
    for strict in (True, False):
        for bye in candidates:
            players = [p for p in ranked if p != bye]
            if not meetings:  # round 1: the top half of the seeds meets the bottom half
                half = len(players) // 2
                players = [p for pair in zip(players[:half], players[half:], strict=True)
                           for p in pair]
            pairs = _pairs(players, met if strict else set(), [PAIRING_BUDGET])
            if pairs is not None:
                return Pairing([_seated(a, b, meetings, board)
                                for board, (a, b) in enumerate(pairs)], bye)
    raise AssertionError("a pairing that allows rematches always exists")


def _pairs(players: list[int], met: set[frozenset[int]],
           budget: list[int]) -> list[tuple[int, int]] | None:
    """The players paired in order, each with the nearest below them not met yet; None if
    there is no such pairing (or the budget ran out looking)."""
    if not players:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    first, rest = players[0], players[1:]
    for index, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _pairs(rest[:index] + rest[index + 1:], met, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None


def _seated(higher: int, lower: int, meetings: Sequence[PlayedGame],
            board: int) -> tuple[int, int]:
    """Who of two players sits first: the one who sat first less often, else the one who sat
    second last time, else the higher placed on even boards and the lower on odd ones."""
    balance = dict.fromkeys((higher, lower), 0)
    last: dict[int, int] = {}
    for meeting in meetings:
        if meeting.forfeit:
            continue
        for player, seat in ((meeting.first, 0), (meeting.second, 1)):
            if player in balance:
                balance[player] += 1 if seat == 0 else -1
                last[player] = seat
    if balance[higher] != balance[lower]:
        return (higher, lower) if balance[higher] < balance[lower] else (lower, higher)
    if last.get(higher) != last.get(lower) and None not in (last.get(higher), last.get(lower)):
        return (higher, lower) if last[higher] == 1 else (lower, higher)
    return (higher, lower) if board % 2 == 0 else (lower, higher)
