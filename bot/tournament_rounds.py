"""A tournament's rounds, whatever its format: up to 8 players a round robin (everyone meets
everyone, `bot.round_robin`), more a Swiss tournament (`bot.swiss`). Pure: from the stored
tournament and its games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.round_robin import MAX_PLAYERS, PlayedGame, Standing, pairings, played, round_count
from bot.round_robin import sitting_out as round_robin_idle
from bot.round_robin import standings as ranked
from bot.swiss import pair_round, swiss_rounds
from storage import GameStatus, TournamentGame, TournamentRecord


def is_swiss(tournament: TournamentRecord) -> bool:
    """True for a field too large for a round robin: it plays a Swiss tournament."""
    return len(tournament.players) > MAX_PLAYERS


def rounds_of(tournament: TournamentRecord) -> int:
    """How many rounds the tournament plays."""
    if is_swiss(tournament):
        return swiss_rounds(len(tournament.players))
    return round_count(len(tournament.players), tournament.legs)


@dataclass(frozen=True)
class RoundPlan:
    """A round's pairings as (first seat, second seat) ids, and who sits it out."""

    games: list[tuple[int, int]]
    idle: int | None
    bye: bool
    """True when sitting out scores a point (a Swiss bye); in a round robin everyone sits
    out once and nobody scores for it."""


@dataclass(frozen=True)
class History:
    """The rounds so far: each round's plan, the results of its pairings (forfeits
    included; aborted games, which count for nobody, left out), its byes, and each round's
    forfeits (round 1's first)."""

    plans: list[RoundPlan]
    results: list[PlayedGame]
    byes: list[int]
    forfeits: list[list[PlayedGame]]


def history(tournament: TournamentRecord, games: Sequence[TournamentGame],
            upto: int | None = None) -> History:
    """The plans of rounds 1 to `upto` (default: the round being played) and the results
    of their games (aborted ones left out). A Swiss round's pairing depends on the results
    of the rounds before it, so the rounds are planned again one after the other: the same
    stored games give the same plans."""
    last = tournament.round if upto is None else upto
    by_pair = {(game.round, frozenset(game.player_ids)): game for game in games}
    swiss = is_swiss(tournament)
    order = [player.user_id for player in tournament.players]
    plans: list[RoundPlan] = []
    meetings: list[PlayedGame] = []  # aborted games included: the two met
    byes: list[int] = []
    forfeits: list[list[PlayedGame]] = []
    for number in range(1, last + 1):
        if swiss:
            active = {p.user_id for p in tournament.players
                      if p.withdrawn_in is None or p.withdrawn_in >= number}
            pairing = pair_round(order, active, meetings, byes)
            plan = RoundPlan(pairing.games, pairing.bye, bye=True)
        else:
            idle = round_robin_idle(len(order), number, tournament.legs)
            plan = RoundPlan([(order[a], order[b]) for a, b in
                              pairings(len(order), number, tournament.legs)],
                             None if idle is None else order[idle], bye=False)
        plans.append(plan)
        forfeits.append([])
        if plan.bye and plan.idle is not None:
            byes.append(plan.idle)
        for first, second in plan.games:
            game = by_pair.get((number, frozenset((first, second))))
            outcome = (_forfeit(tournament, number, first, second) if game is None
                       else _outcome(game))
            if outcome is not None:
                meetings.append(outcome)
                if outcome.forfeit:
                    forfeits[-1].append(outcome)
    return History(plans, [game for game in meetings if game.counts], byes, forfeits)


def _outcome(game: TournamentGame) -> PlayedGame | None:
    """How a game ended (an aborted game counting for nobody); None while it runs."""
    if game.status is GameStatus.FINISHED and game.result is not None:
        return played(game.player_ids, game.result)
    if game.status is GameStatus.RUNNING:
        return None
    first, second = game.player_ids[0], game.player_ids[1]
    return PlayedGame(first, second, None, counts=False)


def _forfeit(tournament: TournamentRecord, round_no: int, first: int,
             second: int) -> PlayedGame | None:
    """The game of a pairing never played because one had withdrawn by then (won by the
    other; by nobody if both had), or None when neither had."""
    gone = {player.user_id for player in tournament.players if player.withdrawn_by(round_no)}
    if first in gone and second in gone:
        return None
    if first in gone:
        return PlayedGame(first, second, second, forfeit=True)
    if second in gone:
        return PlayedGame(first, second, first, forfeit=True)
    return None


def table_of(tournament: TournamentRecord, games: Sequence[TournamentGame],
             so_far: History | None = None) -> list[Standing]:
    """The tournament's standings from its games, forfeits and byes so far (`so_far`, when
    the caller has planned its rounds already)."""
    so_far = history(tournament, games) if so_far is None else so_far
    return ranked([player.user_id for player in tournament.players], so_far.results,
                  byes=so_far.byes, buchholz=is_swiss(tournament))
