"""Time controls: how long a move may take, when the player to move is reminded, and when the
others may act on their absence.

The clock runs per move: each time a person must decide, their time starts afresh. An AI seat
never has a deadline, and neither does a game with the `none` clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

import discord

from i18n import N_, _
from storage import NewTimer, TimerEvent


class Clock(StrEnum):
    """The time controls a challenge or a table offers."""

    LIVE = "live"
    DAILY = "daily"
    RELAXED = "relaxed"
    NONE = "none"


@dataclass(frozen=True)
class ClockSpec:
    """One time control: its label, the time per move and when the last call comes."""

    label: str
    """In English (N_-marked): show `text` instead."""
    per_move: timedelta | None
    last_call_before: timedelta | None = None
    """How long before the end the player to move is reminded a second time."""
    waits_for_absent: bool = False
    """Whether a player away (`/away`) starts their time only once back: the correspondence
    clocks, where a week's holiday would otherwise lose every game on time."""

    @property
    def text(self) -> str:
        """The label in the current language (`Daily: 24 hours per move`)."""
        return _(self.label)


CLOCKS: dict[Clock, ClockSpec] = {
    Clock.LIVE: ClockSpec(N_("Live: 5 minutes per move"), timedelta(minutes=5),
                          timedelta(minutes=1)),
    Clock.DAILY: ClockSpec(N_("Daily: 24 hours per move"), timedelta(hours=24),
                           timedelta(hours=2), waits_for_absent=True),
    Clock.RELAXED: ClockSpec(N_("Relaxed: 3 days per move"), timedelta(days=3),
                             timedelta(hours=6), waits_for_absent=True),
    Clock.NONE: ClockSpec(N_("No clock"), None),
}
"""Every time control, in the order the option menu lists them."""

WAITING_CLOCKS = tuple(clock.value for clock, spec in CLOCKS.items() if spec.waits_for_absent)
"""The clocks that wait for a player away (their names, as stored)."""

DEFAULT_CLOCK = Clock.DAILY
"""What a challenge gets when the clock is not chosen: nobody waits more than a day."""


def clock_spec(name: str) -> ClockSpec:
    """The time control called `name` (an unknown name, from an older version: no clock)."""
    try:
        return CLOCKS[Clock(name)]
    except ValueError:
        return CLOCKS[Clock.NONE]


def turn_timers(clock: str, ply: int, seat: int,
                start: datetime) -> tuple[datetime | None, list[NewTimer]]:
    """The deadline of `seat`'s move at `ply` begun at `start`, and its timers: a reminder at
    half time, a last call, and the timeout (none without a clock)."""
    spec = clock_spec(clock)
    if spec.per_move is None:
        return None, []
    deadline = start + spec.per_move
    timers = [NewTimer(TimerEvent.HALF_TIME, start + spec.per_move / 2, ply, seat)]
    if spec.last_call_before is not None and spec.last_call_before < spec.per_move / 2:
        timers.append(NewTimer(TimerEvent.LAST_CALL, deadline - spec.last_call_before, ply,
                               seat))
    timers.append(NewTimer(TimerEvent.TIMEOUT, deadline, ply, seat))
    return deadline, timers


def utcnow() -> datetime:
    """The current time, timezone-aware; discord.py's clock, which tests can drive."""
    return discord.utils.utcnow()
