"""Cutting a stamp's coverage into what must be pasted through it and what need not be.

Pasting through a mask costs the same for every pixel of its box, and most of a big stamp's
box is either untouched (around a line, inside an outline) or fully covered (inside a
panel): on a typical board, 70 % of the masked pixels pasted covered nothing and 20 % were
fully covered. A stamp is therefore cut into tiles (`TILE`) once, when it is made (stamps
are cached): untouched tiles are dropped, fully covered ones become plain fills or copies,
and only the rest is pasted through its coverage. Neighbouring tiles of the same kind are
merged, so a stamp is a few pastes, not one per tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from PIL import Image

TILE = (16, 4)
"""A tile's width and height in picture pixels: low, because a stamp's edges are mostly
thin horizontal lines (a panel's top and bottom). At most 510 pixels: a tile's mean (which
`Image.reduce` rounds) is then 0 only when all its pixels are (255 / 510 still rounds up)."""

Region = tuple[int, int, int, int]
"""A box in a stamp's pixels: left, top, right, bottom (far edges excluded)."""


class Cover(IntEnum):
    """How much of a tile a stamp covers."""

    NONE = 0
    PART = 1
    FULL = 2


@dataclass(frozen=True)
class Cut:
    """A stamp's coverage cut into regions: `partial` ones paste through the coverage,
    `full` ones are covered entirely (none are listed for what it leaves untouched)."""

    partial: tuple[Region, ...]
    full: tuple[Region, ...]


_ANY = [0] + [255] * 255
"""Coverage to 255 where a pixel is covered at all."""
_UNDER = [255] * 255 + [0]
"""Coverage to 255 where a pixel is not fully covered."""


def cut(coverage: Image.Image) -> Cut:
    """The partial and full regions of an "L" `coverage`, merged from tiles."""
    if coverage.mode != "L":
        raise ValueError(f"cut takes an 'L' coverage, not {coverage.mode!r}")
    width, height = coverage.size
    # A tile's mean of "covered at all" is 0 only when nothing in it is (see TILE).
    touched = coverage.point(_ANY).reduce(TILE).tobytes()
    short = coverage.point(_UNDER).reduce(TILE).tobytes()
    columns = -(-width // TILE[0])
    rows = -(-height // TILE[1])
    runs: list[tuple[Cover, int, int, int]] = []  # kind, first and end tile column, row
    for row in range(rows):
        start, kind = 0, None
        for column in range(columns + 1):
            here = None
            if column < columns:
                index = row * columns + column
                here = (Cover.NONE if not touched[index]
                        else Cover.FULL if not short[index] else Cover.PART)
            if here != kind:
                if kind is not None and kind != Cover.NONE:
                    runs.append((kind, start, column, row))
                start, kind = column, here
    merged = _merged(runs, width, height)
    # A thin edge crosses a partial tile: paste only the rows and columns it touches.
    partial = []
    for left, top, right, bottom in merged.partial:
        inside = coverage.crop((left, top, right, bottom)).getbbox()
        if inside is not None:
            partial.append((left + inside[0], top + inside[1], left + inside[2], top + inside[3]))
    return Cut(tuple(partial), merged.full)


def _merged(runs: list[tuple[Cover, int, int, int]], width: int, height: int) -> Cut:
    """Runs of tiles as regions, a run stacked on one of the same kind and span merged."""
    # (kind, first column, end column) -> [top row, end row] of the region growing there
    growing: dict[tuple[Cover, int, int], list[int]] = {}
    done: list[tuple[Cover, int, int, int, int]] = []
    for kind, first, end, row in runs:
        key = (kind, first, end)
        span = growing.get(key)
        if span is not None and span[1] == row:
            span[1] = row + 1
            continue
        if span is not None:
            done.append((kind, first, end, span[0], span[1]))
        growing[key] = [row, row + 1]
    done.extend((kind, first, end, top, bottom)
                for (kind, first, end), (top, bottom) in growing.items())
    partial: list[Region] = []
    full: list[Region] = []
    for kind, first, end, top, bottom in sorted(done, key=lambda run: (run[3], run[1])):
        region = (first * TILE[0], top * TILE[1], min(end * TILE[0], width),
                  min(bottom * TILE[1], height))
        (full if kind == Cover.FULL else partial).append(region)
    return Cut(tuple(partial), tuple(full))


__all__ = ["TILE", "Cover", "Cut", "Region", "cut"]
