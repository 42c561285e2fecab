"""What a picture shows, noted while it is drawn: tests check every text's and marker's size
on a phone, and that nothing overlaps or leaves the picture."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from renderers.units import PHONE_WIDTH, Box


@dataclass(frozen=True)
class Drawn:
    """One text or marker drawn while `recording()` is on, in its canvas's logical pixels."""

    kind: str
    """"text" or "marker"."""
    what: str
    """The text itself, or what the marker shows."""
    size: float
    """A text's font size (as rendered), a marker's smallest extent."""
    box: Box
    canvas_width: int

    @property
    def phone_size(self) -> float:
        """`size` in screen pixels once the picture is shown `PHONE_WIDTH` wide."""
        return self.size * PHONE_WIDTH / self.canvas_width


_RECORDS: ContextVar[list[Drawn] | None] = ContextVar("_RECORDS", default=None)


def is_recording() -> bool:
    """True inside `recording()`: texts and markers are to be noted."""
    return _RECORDS.get() is not None


def note_drawn(drawn: Drawn) -> None:
    """Keep `drawn` for the `recording()` block around it, if any."""
    records = _RECORDS.get()
    if records is not None:
        records.append(drawn)


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Collect every text and marker drawn inside the block (tests check their sizes)."""
    records: list[Drawn] = []
    token = _RECORDS.set(records)
    try:
        yield records
    finally:
        _RECORDS.reset(token)


@contextmanager
def not_recorded() -> Iterator[None]:
    """Inside the block, nothing is recorded, even within `recording()` (pictures drawn
    aside, such as the reference pictures a palette is chosen from)."""
    token = _RECORDS.set(None)
    try:
        yield
    finally:
        _RECORDS.reset(token)
