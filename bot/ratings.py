"""Ratings: each finished game's result applied once, through openskill, to stored rows.

Pure: `rate_game` takes a game and the players' rows before it and gives their rows after it.
Storage calls it in the transaction that finishes a game (the rows live in the `ratings`
table, so a leaderboard is one indexed query); `compute_ratings` folds it over a whole history,
which is what the table must always equal. Aborted and unrated games count for nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from discord.utils import escape_markdown
from openskill.models import PlackettLuce

from bot.ai_players import is_ai, rated_id
from i18n import _, ngettext, short_date
from renderers.chart import RatingChartView
from storage import (
    GLOBAL_SCOPE,
    GameRecord,
    GameSummary,
    RatingChange,
    RatingPoint,
    RatingRow,
    Seat,
)

WIN, DRAW, LOSS = "win", "draw", "loss"

MODEL = PlackettLuce()
"""The rating model (openskill's defaults: mu 25, sigma 25/3)."""


NEWCOMER_RATING = MODEL.rating().ordinal()
"""The displayed rating (openskill's ordinal) of a player before their first rated game."""


def change_text(change: RatingChange) -> str:
    """`**27.3** (+1.4)`: the rating after a game and how far the game moved it.

    The move is taken between the two ratings as displayed (one decimal), so that the
    figures a player sees on successive boards add up.
    """
    before = NEWCOMER_RATING if change.before is None else change.before
    moved = round(change.after, 1) - round(before, 1)
    if round(moved, 1) == 0:
        return f"**{change.after:.1f}** (±0.0)"
    # The signs as the leaderboard writes a negative rating, so "-1.2 (-1.2)" match.
    return f"**{change.after:.1f}** ({moved:+.1f})"


def changes_line(seats: Sequence[tuple[int, str]], changes: Mapping[int, RatingChange]) -> str:
    """`📈 Ratings: Alice **27.3** (+1.4) · Bob **22.1** (-1.2)` for the (user id, name)
    `seats` the game rated, in seat order; empty when it rated none of them (yet)."""
    parts: list[str] = []
    seen: set[int] = set()
    for user_id, name in seats:
        who = rated_id(user_id)  # a second AI of one level is not rated again
        change = changes.get(who)
        if change is None or who in seen:
            continue
        seen.add(who)
        parts.append(f"{escape_markdown(name)} {change_text(change)}")
    return _("📈 Ratings: {changes}").format(changes=" · ".join(parts)) if parts else ""


BEST_AFTER_GAMES = 10
"""Rated games of a kind a player needs on a server before a final board hails their new best
rating there: a newcomer's rating rises with nearly every win, as openskill grows sure of it."""


def new_bests(seats: Sequence[tuple[int, str]], changes: Mapping[int, RatingChange],
              bests: Mapping[int, tuple[float, int]]) -> list[str]:
    """The names of the (user id, name) `seats` whose rating after the game beats every one
    of theirs before it, over at least `BEST_AFTER_GAMES` games (`bests`: best and games
    before it, by rated id); never the AI's."""
    names: list[str] = []
    for user_id, name in seats:
        if is_ai(user_id):
            continue
        change, before = changes.get(user_id), bests.get(user_id)
        if change is not None and before is not None and before[1] >= BEST_AFTER_GAMES \
                and round(change.after, 1) > round(before[0], 1):
            names.append(escape_markdown(name))
    return names


CHART_GAMES = 200
"""Rated games a rating chart shows at most: the last ones (beyond, a game is under a pixel)."""


def chart_view(points: Sequence[RatingPoint]) -> RatingChartView:
    """The rating chart of `points` (a member's last rated games of one game, in order): the
    rating before the first, then after each, with the first and last dates in the current
    language."""
    if not points:
        raise ValueError("a rating chart needs at least one rated game")
    first = points[0]
    return RatingChartView(
        ratings=[NEWCOMER_RATING if first.before is None else first.before,
                 *(point.after for point in points)],
        first=short_date(first.finished_at), last=short_date(points[-1].finished_at))


def streak_text(player: RatingRow) -> str:
    """`3 wins`, `2 losses`, or `—`."""
    if player.streak > 0:
        return ngettext("{n} win", "{n} wins", player.streak).format(n=player.streak)
    if player.streak < 0:
        return ngettext("{n} loss", "{n} losses", -player.streak).format(n=-player.streak)
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


def standing(game: GameSummary | GameRecord) -> list[int]:
    """Each seat's final rank (1 is best, see `ranks_of`); whoever left a game of three or
    more (the AI played on for them) ranks after everyone."""
    ranks = ranks_of(game.result or {}, len(game.seats))
    last = max(ranks) + 1
    return [last if seat.stand_in is not None else rank
            for seat, rank in zip(game.seats, ranks, strict=True)]


def ahead_of(game: GameSummary | GameRecord, first: int, second: int) -> int:
    """1 when player `first` finished ahead of player `second` in `game`, -1 when behind,
    0 when level (a draw, or both behind the winner with the same score), by `standing`, as
    in the ratings."""
    ranks = standing(game)
    seat_of = {seat.user_id: seat.seat for seat in game.seats}
    mine, theirs = ranks[seat_of[first]], ranks[seat_of[second]]
    return (mine < theirs) - (mine > theirs)


def outcome_of(result: dict[str, Any], seat: int) -> str:
    """`win` (the only winner), `draw` (a shared win, or nobody won) or `loss`."""
    winners = list(result.get("winners") or [])
    if not winners or (seat in winners and len(winners) > 1):
        return DRAW
    return WIN if winners == [seat] else LOSS


def seat_outcome(result: dict[str, Any], seat: Seat) -> str:
    """The outcome a seat's member is counted with: a loss once they left (the AI played
    their seat on, whatever it then did), else `outcome_of`."""
    return LOSS if seat.stand_in is not None else outcome_of(result, seat.seat)


def rate_game(
    game: GameSummary | GameRecord, scope: int, lookup: Callable[[int], RatingRow | None]
) -> list[RatingRow]:
    """The rows of `game`'s rated players in `scope` after it, from their rows before it
    (`lookup` by rated id; None: a newcomer). Empty for a game that counts for nothing."""
    if game.result is None or len(game.seats) < 2 or not game.rated:
        return []  # a two-player game the AI finished for one side counts for nothing
    entries: list[RatingRow] = []
    counted: dict[int, RatingRow] = {}
    for seat in game.seats:
        who = rated_id(seat.user_id)  # every AI seat of one level is one player
        before = counted.get(who) or lookup(who)
        if before is None:
            fresh = MODEL.rating()
            before = RatingRow(game.game, scope, who, seat.display_name, fresh.mu, fresh.sigma)
        # The latest stored name (members may leave); a second AI of the same level plays
        # with the first one's rating but only the first is rated.
        player = replace(before, name=seat.display_name)
        if who not in counted:
            counted[who] = player
        entries.append(player)
    teams = [[MODEL.create_rating([p.mu, p.sigma])] for p in entries]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in standing(game)])
    for seat, player, team in zip(game.seats, entries, rated, strict=True):
        player.mu, player.sigma = team[0].mu, team[0].sigma
        _count(player, seat_outcome(game.result, seat))
    return list(counted.values())


def compute_ratings(
    records: Iterable[GameSummary | GameRecord], scope: int = GLOBAL_SCOPE
) -> dict[int, RatingRow]:
    """Every player's rating after the finished `records`, applied in the order given."""
    players: dict[int, RatingRow] = {}
    for record in records:
        for row in rate_game(record, scope, players.get):
            players[row.player_id] = row
    return players


def _count(player: RatingRow, outcome: str) -> None:
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


def leaderboard(players: dict[int, RatingRow]) -> list[RatingRow]:
    """Players best first: by rating, then games played, then name (as `ratings_by_rank`)."""
    return sorted(players.values(),
                  key=lambda p: (-p.rating, -p.games, p.name.casefold(), p.player_id))


def month_key(now: datetime, back: int = 0) -> str:
    """`2026-11`: the month of `now` (UTC), or the one `back` months before it."""
    index = now.year * 12 + now.month - 1 - back
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def month_bounds(key: str) -> tuple[datetime, datetime]:
    """The first instant of the month `key` (`2026-11`) and of the next one, in UTC."""
    year, month = (int(part) for part in key.split("-"))
    start = datetime(year, month, 1, tzinfo=UTC)
    return start, datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)


def page_bounds(page: int, total: int, size: int) -> tuple[int, int]:
    """`page` clamped to the pages `total` items of `size` fill, and how many there are (at
    least 1, for an empty list)."""
    pages = max(1, -(-total // size))
    return min(max(page, 0), pages - 1), pages


def page_of(items: Sequence[Any], page: int, size: int) -> tuple[list[Any], int, int]:
    """The items on `page` (clamped), that page and the number of pages (at least 1)."""
    page, pages = page_bounds(page, len(items), size)
    return list(items[page * size:(page + 1) * size]), page, pages


def server_scope(guild_id: int | None) -> int:
    """The ratings scope of a server (all servers for a game outside one)."""
    return GLOBAL_SCOPE if guild_id is None else guild_id
