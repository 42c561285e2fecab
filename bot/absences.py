"""Members away (`/away`): in their Daily and Relaxed games, their time to move starts only
once they are back, and then runs whole.

Who is away is kept in memory too, so that a move costs no read: each process reads it at
start, and learns of a change through the AWAY timers the change stores for the member's
games (each process fires its own games' timers), or from the timers of the turn itself,
which read it again before reminding or timing out.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import NamedTuple

from bot.clock import WAITING_CLOCKS, utcnow
from bot.errors import Refusal
from i18n import _, ngettext
from storage import Database

AWAY_MAX_DAYS = 14
"""The longest a member may be away at once (`/away on days:`)."""

AWAY_DAYS_PER_YEAR = 30
"""The days a member may be away in any 12 months: opponents wait, but not for ever."""

ALLOWANCE_PERIOD = timedelta(days=365)
"""The period over which `AWAY_DAYS_PER_YEAR` counts (kept that long, then deleted)."""


class GoneAway(NamedTuple):
    """What going away did: when the member is back, how many of their games in progress
    wait for them, and the days left if they stay away all of them."""

    until: datetime
    games: int
    days_left: int


class Absences:
    """Who is away until when, and going away or coming back."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._until: dict[int, datetime] = {}
        """Member → when they are back (an absence over is dropped when next looked at)."""
        self.timers_changed: Callable[[datetime | None], None] = lambda _: None
        """Wakes the timer loop (set by the bot once the loop exists)."""

    async def load(self) -> None:
        """Read who is away now (once, at start)."""
        self._until = await self.db.everyone_away(utcnow())

    def until(self, user_id: int, now: datetime) -> datetime | None:
        """When the member is back, if they are away at `now` (from memory: no read)."""
        until = self._until.get(user_id)
        if until is not None and until <= now:
            del self._until[user_id]
            return None
        return until

    async def refresh(self, user_id: int) -> datetime | None:
        """When the member is back, read again (another process may have changed it)."""
        until = (await self.db.away_until([user_id], utcnow())).get(user_id)
        if until is None:
            self._until.pop(user_id, None)
        else:
            self._until[user_id] = until
        return until

    async def days_left(self, user_id: int) -> int:
        """Whole days the member may still be away in the 12 months to now, an absence in
        progress counted up to now (going away again ends it now)."""
        now = utcnow()
        since = now - ALLOWANCE_PERIOD
        taken = sum(absence.days_taken(since, now)
                    for absence in await self.db.absences_since(user_id, since))
        return max(0, math.floor(AWAY_DAYS_PER_YEAR - taken + 1e-6))

    async def go_away(self, user_id: int, days: int) -> GoneAway:
        """The member is away for `days` from now (replacing an absence in progress). Raises
        a Refusal beyond `AWAY_MAX_DAYS` or the days left this year."""
        if not 1 <= days <= AWAY_MAX_DAYS:
            raise Refusal(_("Choose from 1 to {most} days away.").format(most=AWAY_MAX_DAYS))
        left = await self.days_left(user_id)
        if days > left:
            if not left:
                raise Refusal(_("You have no days away left: you were away {year} days in "
                                "the last 12 months. Your clocks run as usual.").format(
                                    year=AWAY_DAYS_PER_YEAR))
            raise Refusal(ngettext(
                "You have {n} day away left in the last 12 months ({year} a year): choose "
                "{n} day or fewer.",
                "You have {n} days away left in the last 12 months ({year} a year): choose "
                "{n} days or fewer.", left).format(n=left, year=AWAY_DAYS_PER_YEAR))
        now = utcnow()
        until = now + timedelta(days=days)
        games = await self.db.go_away(user_id, now, until, WAITING_CLOCKS,
                                      forget_before=now - ALLOWANCE_PERIOD)
        self._until[user_id] = until
        self.timers_changed(now)
        return GoneAway(until, games, left - days)

    async def come_back(self, user_id: int) -> bool:
        """End the member's absence now; False when they were not away."""
        now = utcnow()
        back = await self.db.come_back(user_id, now, WAITING_CLOCKS)
        self._until.pop(user_id, None)
        if back:
            self.timers_changed(now)
        return back

    def forget(self, user_id: int) -> None:
        """Drop what is held of a member who asked to be forgotten."""
        self._until.pop(user_id, None)
