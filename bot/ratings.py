"""Ratings rebuilt from stored results: finished games replayed in order through openskill.

Pure: records in, ratings out. Nothing is cached, so ratings can always be rebuilt (and are,
on each request) from the `games` table; aborted games never reach this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from openskill.models import PlackettLuce

from bot.ai_players import rated_id
from storage import GameRecord

WIN, DRAW, LOSS = "win", "draw", "loss"


@dataclass
class PlayerRating:
    """One player's rating and record in one game (and scope)."""

    user_id: int
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    streak: int = 0
    """Current streak: +n for n wins in a row, -n for n losses in a row, 0 after a draw."""
    best_streak: int = 0
    """Longest run of wins."""

    @property
    def rating(self) -> float:
        """The displayed rating: openskill's ordinal (mu - 3 sigma), conservative by design."""
        return self.mu - 3 * self.sigma

    def streak_text(self) -> str:
        """`3 wins`, `2 losses`, or `—`."""
        if self.streak > 0:
            return f"{self.streak} win{'s' * (self.streak > 1)}"
        if self.streak < 0:
            return f"{-self.streak} loss{'es' * (self.streak < -1)}"
        return "—"


def ranks_of(result: dict[str, Any], seats: int) -> list[int]:
    """Openskill ranks by seat (1 is best): winners share rank 1; no winner is a full draw.

    The others come after the winners, ordered by score when the game keeps scores.
    """
    winners = set(result.get("winners") or [])
    if not winners:
        return [1] * seats
    scores = result.get("scores")
    if not (isinstance(scores, list) and len(scores) == seats):
        return [1 if s in winners else 2 for s in range(seats)]
    losers = sorted({scores[s] for s in range(seats) if s not in winners}, reverse=True)
    return [1 if s in winners else 2 + losers.index(scores[s]) for s in range(seats)]


def outcome_of(result: dict[str, Any], seat: int) -> str:
    """`win` (the only winner), `draw` (a shared win, or nobody won) or `loss`."""
    winners = list(result.get("winners") or [])
    if not winners or (seat in winners and len(winners) > 1):
        return DRAW
    return WIN if winners == [seat] else LOSS


def compute_ratings(records: Iterable[GameRecord]) -> dict[int, PlayerRating]:
    """Every player's rating after the finished `records`, applied in the order given."""
    model = PlackettLuce()
    players: dict[int, PlayerRating] = {}
    for record in records:
        if record.result is None or len(record.seats) < 2 or not record.rated:
            continue  # a two-player game the AI finished for one side counts for nothing
        entries = []
        counted: set[int] = set()
        for seat in record.seats:
            who = rated_id(seat.user_id)  # every AI seat of one level is one player
            player = players.get(who)
            if player is None:
                fresh = model.rating()
                player = players[who] = PlayerRating(who, seat.display_name, fresh.mu,
                                                     fresh.sigma)
            player.name = seat.display_name  # the latest stored name (members may leave)
            if who in counted:  # a second AI of the same level: it plays, it is not rated
                player = replace(player)
            counted.add(who)
            entries.append(player)
        teams = [[model.create_rating([p.mu, p.sigma])] for p in entries]
        ranks = [float(rank) for rank in ranks_of(record.result, len(entries))]
        # Who left a game of 3 or more (the AI played on for them) ranks after everyone.
        last = max(ranks) + 1
        ranks = [last if seat.stand_in is not None else rank
                 for seat, rank in zip(record.seats, ranks, strict=True)]
        rated = model.rate(teams, ranks=ranks)
        for seat, player, team in zip(record.seats, entries, rated, strict=True):
            player.mu, player.sigma = team[0].mu, team[0].sigma
            _count(player, LOSS if seat.stand_in is not None
                   else outcome_of(record.result, seat.seat))
    return players


def _count(player: PlayerRating, outcome: str) -> None:
    player.games += 1
    if outcome == WIN:
        player.wins += 1
        player.streak = player.streak + 1 if player.streak > 0 else 1
        player.best_streak = max(player.best_streak, player.streak)
    elif outcome == LOSS:
        player.losses += 1
        player.streak = player.streak - 1 if player.streak < 0 else -1
    else:
        player.draws += 1
        player.streak = 0


def leaderboard(players: dict[int, PlayerRating]) -> list[PlayerRating]:
    """Players best first: by rating, then games played, then name."""
    return sorted(players.values(), key=lambda p: (-p.rating, -p.games, p.name.lower()))


def page_of(items: Sequence[Any], page: int, size: int) -> tuple[list[Any], int, int]:
    """The items on `page` (clamped), that page and the number of pages (at least 1)."""
    pages = max(1, -(-len(items) // size))
    page = min(max(page, 0), pages - 1)
    return list(items[page * size:(page + 1) * size]), page, pages
