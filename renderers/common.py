"""The canvas every game's renderer draws on, with the colours, grids and furniture (status
bar, footer, pills, pieces) they share.

Everything is drawn in *logical* pixels on a `Canvas`: each shape is drawn supersampled
(Pillow's shapes are not anti-aliased), shrunk and pasted as a stamp (`renderers.stamps`),
so callers never deal with the scale. Output is deterministic: no clock, no randomness
(reference games are seeded), bundled fonts only. Words are in `renderers.words`, PNG
encoding in `renderers.encoding`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from engines.grid import Cell, Grid
from renderers.encoding import (
    encode_png,
    kept_as_reference,
)
from renderers.recording import Drawn, is_recording, note_drawn
from renderers.stamps import (
    Shape,
    Stamp,
    drawable,
    fill_colour,
    font,
    rgb,
    shape_stamp,
    text_length,
    text_stamp,
)
from renderers.units import Box, Colour, Point, min_size
from renderers.words import (
    UNNAMED,
    Phrase,
)

SUPERSAMPLE = 2
"""Drawing scale before the final shrink; 2 gives smooth discs at a modest cost."""


# -- palette ---------------------------------------------------------------------------
# A dark frame around light play areas: it reads on Discord's dark and light themes alike.

BACKGROUND: Colour = "#1b1f24"
PANEL: Colour = "#272e36"
PANEL_RAISED: Colour = "#343d47"
TEXT: Colour = "#f5f2ea"
MUTED: Colour = "#a9b3bd"
BOARD: Colour = "#3b4550"
CELL: Colour = "#f4efe3"
INK: Colour = "#1b1f24"
"""Dark text on light surfaces."""
INK_MUTED: Colour = "#6b6458"
HIGHLIGHT: Colour = "#d81b72"
"""Last move / preview marks: a magenta that no seat colour uses."""
WIN: Colour = "#ffd23f"
WHITE: Colour = "#ffffff"


@dataclass(frozen=True)
class SeatColour:
    """How one seat (or a neutral piece) is painted: fill, text on it, outline."""

    name: str
    fill: Colour
    ink: Colour
    outline: Colour


SEAT_COLOURS: tuple[SeatColour, ...] = (
    # Seat 0 dark and seat 1 bright: they differ in lightness, so they stay apart for
    # every kind of colour blindness; the rest follow the Okabe-Ito palette. Pieces also
    # carry their player's initials, so colour is never the only cue.
    SeatColour("navy", "#1f3b7a", "#ffffff", "#0a1430"),
    SeatColour("orange", "#f08a00", "#1b1f24", "#6e3f00"),
    SeatColour("green", "#009e73", "#ffffff", "#004d38"),
    SeatColour("pink", "#cc79a7", "#1b1f24", "#5e2a47"),
    SeatColour("sky", "#56b4e9", "#1b1f24", "#1d5478"),
    SeatColour("vermillion", "#c0392b", "#ffffff", "#5a150e"),
)
NEUTRAL = SeatColour("beige", "#e9dcbd", "#5a4a2e", "#6b5a3a")
"""Pieces that belong to nobody (Qawale's beige pebbles)."""


def seat_colour(seat: int) -> SeatColour:
    """The colour of `seat` (0-based)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]



# -- geometry ----------------------------------------------------------------------------


def inset(box: Box, by: float) -> Box:
    """`box` shrunk by `by` on every side (grown when negative)."""
    x0, y0, x1, y1 = box
    return (x0 + by, y0 + by, x1 - by, y1 - by)


def box_centre(box: Box) -> Point:
    """The middle of `box`."""
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def column_letter(col: int) -> str:
    """The a1-style letter of a 0-based column."""
    return chr(ord("a") + col)


@dataclass(frozen=True)
class BoardGeometry:
    """Where a square grid sits on the canvas; row 0 is at the bottom (a1 bottom-left)."""

    left: float
    top: float
    cell: float
    cols: int
    rows: int

    @property
    def right(self) -> float:
        """x of the grid's right edge."""
        return self.left + self.cols * self.cell

    @property
    def bottom(self) -> float:
        """y of the grid's bottom edge."""
        return self.top + self.rows * self.cell

    @property
    def box(self) -> Box:
        """The whole grid."""
        return (self.left, self.top, self.right, self.bottom)

    def cell_box(self, cell: Cell) -> Box:
        """The square of `cell`."""
        x0 = self.left + cell.col * self.cell
        y0 = self.top + (self.rows - 1 - cell.row) * self.cell
        return (x0, y0, x0 + self.cell, y0 + self.cell)

    def centre(self, cell: Cell) -> Point:
        """The middle of `cell`."""
        return box_centre(self.cell_box(cell))

    def contains(self, cell: Cell) -> bool:
        """True when `cell` is on this grid."""
        return Grid(self.cols, self.rows).contains(cell)

    def parse(self, name: str) -> Cell:
        """The cell named `b3` (raises ValueError when it is not on the grid)."""
        return Grid(self.cols, self.rows).parse(name)


# -- canvas ------------------------------------------------------------------------------


Placement = tuple[Shape, tuple[int, int], Colour | None, Colour, int, int]
"""Where a shape's stamp goes: the stamp's key and size, its ink (None: its own colours), its
fill, and the picture pixel of its top-left corner."""

PLACEMENT_CACHE = 8192
"""Shapes whose placement is kept: a board draws the same shapes in the same places from
one picture to the next, and placing one takes longer than pasting its stamp."""


@lru_cache(maxsize=PLACEMENT_CACHE)
def _placement(shape: Shape, reach: int, factor: int) -> Placement | None:
    """Where the stamp of `shape` (absolute device pixels, spreading `reach` past them) goes
    on a picture `factor` times smaller than the device; None when it draws nothing."""
    ink = shape.fill or shape.outline
    if ink is None:
        return None
    xs, ys = shape.coords[0::2], shape.coords[1::2]
    # One spare picture pixel all round: Pillow's boxes include their far edge.
    x0 = (min(xs) - reach) // factor - 1
    y0 = (min(ys) - reach) // factor - 1
    x1 = (max(xs) + reach) // factor + 2
    y1 = (max(ys) + reach) // factor + 2
    dx, dy = x0 * factor, y0 * factor
    relative = tuple(v - (dy if i % 2 else dx) for i, v in enumerate(shape.coords))
    key = Shape(shape.kind, relative, shape.fill, shape.outline, shape.width, shape.radius)
    one_colour = shape.outline is None or shape.fill is None or shape.outline == shape.fill
    if one_colour:
        # A one-colour stamp does not depend on the colour: cache it without.
        key = Shape(key.kind, relative, "" if shape.fill else None,
                    "" if shape.outline else None, shape.width, shape.radius)
    return key, (x1 - x0, y1 - y0), ink if one_colour else None, shape.fill or ink, x0, y0


class Canvas:
    """A drawing surface in logical pixels, with smooth (supersampled) edges.

    `image` is the picture itself, at the logical size (or `scale` times it for a
    `_supersampled` canvas): pasting onto it takes picture pixels.
    """

    def __init__(
        self,
        width: int,
        height: int,
        background: Colour = BACKGROUND,
        *,
        scale: int = SUPERSAMPLE,
        _mode: str = "RGB",
        _supersampled: bool = False,
    ) -> None:
        """`scale` is the supersampling; `_supersampled` keeps the picture that big."""
        self.width, self.height, self.scale = width, height, scale
        self.resolution = scale if _supersampled else 1
        """Picture pixels per logical pixel."""
        fill: Colour | tuple[int, int, int, int] = (0, 0, 0, 0) if _mode == "RGBA" else background
        self.image = Image.new(_mode, (width * self.resolution, height * self.resolution), fill)

    def copy(self) -> Canvas:
        """An independent copy, to draw on a cached background without spoiling it."""
        twin = Canvas.__new__(Canvas)
        twin.width, twin.height, twin.scale = self.width, self.height, self.scale
        twin.resolution = self.resolution
        twin.image = self.image.copy()
        return twin

    @property
    def min_size(self) -> float:
        """The smallest font size or marker allowed here: `MIN_PHONE_PX` on a phone."""
        return min_size(self.width)

    # -- coordinates (device pixels: logical pixels times `scale`)
    def _v(self, value: float) -> int:
        return round(value * self.scale)

    def _p(self, point: Point) -> tuple[int, int]:
        scale = self.scale  # inlined `_v`: boards place thousands of points
        return (round(point[0] * scale), round(point[1] * scale))

    def _b(self, box: Box) -> tuple[int, int, int, int]:
        scale = self.scale
        return (round(box[0] * scale), round(box[1] * scale), round(box[2] * scale),
                round(box[3] * scale))

    # -- stamping
    def _draw(self, shape: Shape, reach: int = 0) -> None:
        """Stamp `shape`, given in absolute device pixels; it spreads `reach` past them."""
        factor = self.scale // self.resolution
        placed = _placement(shape, reach, factor)
        if placed is not None:
            key, size, ink, fill, x0, y0 = placed
            self._paste_stamp(shape_stamp(key, size, factor), ink, fill, x0, y0)

    def paste_stamp(self, stamp: Stamp, x: int, y: int) -> None:
        """Paste a `picture_stamp` with its top-left corner at picture pixel (x, y)."""
        self._paste_stamp(stamp, None, None, x, y)

    def _paste_stamp(self, stamp: Stamp, ink: Colour | None, fill: Colour | None, x0: int,
                     y0: int) -> None:
        """Lay `stamp` with its top-left corner at (x0, y0): its masks in `ink` (None: its
        pieces are RGBA patches), its fills in `fill`, its copies as they are."""
        if self.image.mode == "RGB":
            # Most of a board's drawing: Pillow's core `paste`, since the checks
            # `Image.paste` makes first cost more than pasting a small piece (the canvas's
            # image is always writable, and the core clips what falls outside it).
            core = self.image.im
            colour = None if ink is None else rgb(ink)
            for piece, (px0, py0, px1, py1) in stamp.pasted:
                core.paste(piece if colour is None else colour,
                           (x0 + px0, y0 + py0, x0 + px1, y0 + py1), piece)
            if stamp.fills:
                solid = rgb(fill_colour(fill))
                for fx0, fy0, fx1, fy1 in stamp.fills:
                    core.paste(solid, (x0 + fx0, y0 + fy0, x0 + fx1, y0 + fy1))
            for patch_core, (cx0, cy0, cx1, cy1) in stamp.copied:
                core.paste(patch_core, (x0 + cx0, y0 + cy0, x0 + cx1, y0 + cy1))
            return
        # A layer (RGBA, see `layer`): composited, since pasting over transparency would
        # darken the edges.
        for patch, x, y in stamp.pieces:
            if ink is not None:
                coloured = Image.new("RGBA", patch.size, rgb(ink))
                coloured.putalpha(patch)
                patch = coloured
            self._composite(patch, x0 + x, y0 + y)
        for fx0, fy0, fx1, fy1 in stamp.fills:
            self.image.im.paste((*rgb(fill_colour(fill)), 255),
                                (x0 + fx0, y0 + fy0, x0 + fx1, y0 + fy1))
        for patch, x, y in stamp.copies:
            self.image.paste(patch, (x0 + x, y0 + y))

    def _composite(self, patch: Image.Image, x: int, y: int) -> None:
        """Lay the RGBA `patch` over this (RGBA) picture, its top-left corner at (x, y),
        clipped to the picture."""
        left, top = max(0, -x), max(0, -y)
        right = min(patch.width, self.image.width - x)
        bottom = min(patch.height, self.image.height - y)
        if left < right and top < bottom:
            self.image.alpha_composite(patch, (x + left, y + top), (left, top, right, bottom))

    # -- shapes
    def rect(
        self,
        box: Box,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0,
        radius: float = 0,
    ) -> None:
        """A (rounded when `radius` > 0) rectangle; the outline is drawn inside `box`."""
        w = self._v(width) if outline else 0
        if radius > 0:
            self._draw(Shape("rounded", self._b(box), fill, outline, w, self._v(radius)))
        else:
            self._draw(Shape("rect", self._b(box), fill, outline, w))

    def circle(
        self,
        centre: Point,
        radius: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        """A disc; the outline is drawn inside the radius."""
        x, y = centre
        box = self._b((x - radius, y - radius, x + radius, y + radius))
        self._draw(Shape("ellipse", box, fill, outline, self._v(width) if outline else 0))

    def polygon(self, points: Sequence[Point], fill: Colour, outline: Colour | None = None) -> None:
        """A filled polygon."""
        coords = tuple(v for p in points for v in self._p(p))
        self._draw(Shape("polygon", coords, fill, outline))

    def line(
        self, points: Sequence[Point], fill: Colour, width: float, round_caps: bool = True
    ) -> None:
        """A polyline with round joints (and round ends unless `round_caps` is False)."""
        if len(points) < 2:
            return
        coords = [v for p in points for v in self._p(p)]
        if round_caps:
            r = width / 2
            for x, y in (points[0], points[-1]):
                coords += self._b((x - r, y - r, x + r, y + r))
        w = self._v(width)
        self._draw(Shape("line", tuple(coords), fill, None, w, len(points)), w // 2 + 2)

    def dashed_line(
        self,
        points: Sequence[Point],
        fill: Colour,
        width: float,
        dash: float = 18,
        gap: float = 12,
    ) -> None:
        """A dashed polyline; the dash pattern runs on across the joints."""
        for piece in _dash_pieces(points, dash, gap):
            self.line(piece, fill, width)

    def arrow(
        self,
        points: Sequence[Point],
        fill: Colour,
        width: float,
        *,
        head: float | None = None,
        casing: Colour | None = None,
        casing_width: float = 0,
        dashed: bool = False,
    ) -> None:
        """A polyline ending in an arrowhead; `casing` outlines it so it shows on any fill."""
        if len(points) < 2:
            return
        head = head if head is not None else width * 2.6
        tip = points[-1]
        base, left, right = _arrow_head(points[-2], tip, head)
        shaft = [*points[:-1], base]
        if casing:
            # Grow the head a little more than the shaft so the casing wraps its point.
            grown_base, grown_left, grown_right = _arrow_head(
                points[-2], tip, head + casing_width * 1.6
            )
            ox, oy = _unit(points[-2], tip)
            grown = (tip[0] + ox * casing_width * 0.8, tip[1] + oy * casing_width * 0.8)
            self.line([*points[:-1], grown_base], casing, width + 2 * casing_width)
            self.polygon([grown, grown_left, grown_right], casing)
        if dashed:
            self.dashed_line(shaft, fill, width, dash=width * 2.2, gap=width * 1.4)
        else:
            self.line(shaft, fill, width)
        self.polygon([tip, left, right], fill)

    # -- text
    def text(
        self,
        xy: Point,
        text: str,
        size: float,
        fill: Colour = TEXT,
        *,
        bold: bool = False,
        anchor: str = "la",
        stroke: Colour | None = None,
        stroke_width: float = 0,
    ) -> None:
        """Text at `xy` with a Pillow anchor ("la" top-left, "mm" centre, "lm", "rm"…).

        Characters the font lacks (emoji, CJK…) are left out, as `text_width` leaves them.
        """
        text = drawable(text, bold)
        device_size = self._v(size)
        px, py = self._p(xy)
        if is_recording():
            x0, y0, x1, y1 = font(device_size, bold).getbbox(text, anchor=anchor)
            box = ((px + x0) / self.scale, (py + y0) / self.scale,
                   (px + x1) / self.scale, (py + y1) / self.scale)
            self.note("text", text, device_size / self.scale, box)
        if not text:
            return
        factor = self.scale // self.resolution
        cell_x, phase_x = divmod(px, factor)
        cell_y, phase_y = divmod(py, factor)
        # As Pillow does: the filled stroke in its colour first, then the text over it.
        layers = [(stroke, self._v(stroke_width))] if stroke and stroke_width else []
        for ink, width in [*layers, (fill, 0)]:
            stamp, x, y = text_stamp(text, device_size, bold, anchor, width,
                                      (phase_x, phase_y), factor)
            self._paste_stamp(stamp, ink, ink, cell_x + x, cell_y + y)

    def note(self, kind: str, what: str, size: float, box: Box) -> None:
        """Record a text or a marker drawn by other means, while `recording()` is on."""
        if is_recording():
            note_drawn(Drawn(kind, what, size, box, self.width))

    def marker(self, what: str, box: Box) -> None:
        """Record a marker (a dot, a ring, a badge…) covering `box`, for the size check."""
        self.note("marker", what, min(box[2] - box[0], box[3] - box[1]), box)

    def text_centred(
        self,
        box: Box,
        text: str,
        size: float,
        fill: Colour = TEXT,
        *,
        bold: bool = False,
        stroke: Colour | None = None,
        stroke_width: float = 0,
    ) -> None:
        """Text centred in `box`, shrunk to fit its width when needed (never below the minimum)."""
        size = self.fitting_size(text, size, box[2] - box[0], bold=bold)
        self.text(box_centre(box), text, size, fill, bold=bold, anchor="mm",
                  stroke=stroke, stroke_width=stroke_width)

    def text_width(self, text: str, size: float, *, bold: bool = False) -> float:
        """Width of `text` in logical pixels, as `text` draws it (see `drawable`)."""
        return text_length(drawable(text, bold), self._v(size), bold) / self.scale

    def fitting_size(
        self, text: str, size: float, max_width: float, *, bold: bool = False
    ) -> float:
        """The largest size ≤ `size`, and not below `min_size`, at which `text` fits `max_width`."""
        width = self.text_width(text, size, bold=bold)
        if width <= max_width:
            return size
        return max(self.min_size, size * max_width / width)

    def fit(self, text: str, size: float, max_width: float, *, bold: bool = False) -> str:
        """`text` cut at its end with an ellipsis so that it fits `max_width`."""
        return self.fit_phrase(Phrase("{0}", (text,)), size, max_width, bold=bold)

    def fit_phrase(
        self, phrase: Phrase | str, size: float, max_width: float, *, bold: bool = False
    ) -> str:
        """`phrase` fitted to `max_width`: names are shortened (ending in "…") before the rest.

        The longest name loses a letter at a time, down to three; only if that is not enough
        does the sentence itself end in an ellipsis.
        """
        if isinstance(phrase, str):
            phrase = Phrase(phrase.replace("{", "{{").replace("}", "}}"))
        # Cut what will be drawn: a dropped emoji must not count as a letter to cut.
        phrase = Phrase(drawable(phrase.template, bold),
                        tuple(drawable(name, bold) or UNNAMED for name in phrase.names))

        def fits(names: Sequence[str]) -> bool:
            return self.text_width(phrase.template.format(*names), size, bold=bold) <= max_width

        names = list(phrase.names)
        if fits(names):
            return str(phrase)
        # Cut the longest name down, one letter at a time, to no less than 3 letters.
        while True:
            longest = max(range(len(names)), key=lambda i: len(names[i]), default=-1)
            if longest < 0 or len(names[longest].rstrip("…")) <= 3:
                break
            names[longest] = _shorter(names[longest])
            if fits(names):
                return phrase.template.format(*names)
        # Still too long: the sentence itself ends in an ellipsis.
        text = phrase.template.format(*names)
        low, high = 0, len(text)
        while low < high:  # the longest prefix that fits with its ellipsis
            mid = (low + high + 1) // 2
            if self.text_width(text[:mid].rstrip() + "…", size, bold=bold) <= max_width:
                low = mid
            else:
                high = mid - 1
        return text[:low].rstrip() + "…"

    def wrap(
        self, text: str, size: float, max_width: float, max_lines: int, *, bold: bool = False,
        first_width: float | None = None,
    ) -> list[str]:
        """`text` broken at spaces into at most `max_lines` lines no wider than `max_width`
        (the first no wider than `first_width`, when something sits beside it).

        Only what still does not fit then is cut, with an ellipsis.
        """
        widths = [max_width if first_width is None or row else min(max_width, first_width)
                  for row in range(max_lines)]
        lines: list[str] = []
        words = drawable(text, bold).split(" ")
        while words and len(lines) < max_lines:
            width = widths[len(lines)]
            line = words.pop(0)
            while words and self.text_width(f"{line} {words[0]}", size, bold=bold) <= width:
                line += " " + words.pop(0)
            lines.append(line)
        if words:
            lines[-1] = " ".join([lines[-1], *words])
        return [self.fit(line, size, width, bold=bold)
                for line, width in zip(lines, widths, strict=False)]

    # -- layers and output
    @contextmanager
    def layer(self, opacity: float) -> Iterator[Canvas]:
        """A transparent canvas to draw on, blended onto this one at `opacity` on exit.

        Shapes overlapping inside the layer do not darken each other, unlike drawing
        each one translucently.
        """
        top = Canvas(self.width, self.height, scale=self.scale, _mode="RGBA",
                     _supersampled=self.resolution > 1)
        yield top
        # Blend only the part that was drawn on: whole-canvas blends are slow.
        bbox = top.image.getbbox(alpha_only=True)
        if bbox is None:
            return
        drawn = top.image.crop(bbox)
        level = round(255 * opacity)
        alpha = drawn.getchannel("A").point(lambda a: a * level // 255)
        self.image.paste(drawn.convert("RGB"), bbox[:2], alpha)

    def to_image(self) -> Image.Image:
        """The picture at its logical size."""
        if self.resolution > 1:
            return self.image.reduce(self.resolution)
        return self.image.copy()

    def to_png(self, palette: Callable[[], Image.Image] | None = None) -> bytes:
        """The picture as PNG bytes, in the game's `palette` if it suits (see `encode_png`)."""
        picture = self.image if self.resolution == 1 else self.to_image()
        if kept_as_reference(picture):  # the game's palette is being chosen from it
            return b""
        return encode_png(picture, palette() if palette is not None else None)


def _shorter(name: str) -> str:
    """`name` one letter shorter, ending in "…"."""
    bare = name[:-1] if name.endswith("…") else name
    return bare[:-1].rstrip() + "…"



def _unit(a: Point, b: Point) -> Point:
    length = math.dist(a, b) or 1.0
    return ((b[0] - a[0]) / length, (b[1] - a[1]) / length)


def _arrow_head(before: Point, tip: Point, head: float) -> tuple[Point, Point, Point]:
    """Base centre and the two back corners of an arrowhead of length `head` at `tip`."""
    ux, uy = _unit(before, tip)
    bx, by = tip[0] - ux * head, tip[1] - uy * head
    half = head * 0.62
    # The base is nudged 1 px into the head so shaft and head meet without a seam.
    base = (bx + ux, by + uy)
    return base, (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)


def _dash_pieces(points: Sequence[Point], dash: float, gap: float) -> list[list[Point]]:
    """Split a polyline into dashes of length `dash` separated by `gap`."""
    pieces: list[list[Point]] = []
    current: list[Point] = []
    drawing, left = True, dash
    for a, b in itertools.pairwise(points):
        length = math.dist(a, b)
        pos = 0.0
        ux, uy = _unit(a, b)
        while pos < length:
            step = min(left, length - pos)
            start = (a[0] + ux * pos, a[1] + uy * pos)
            pos += step
            end = (a[0] + ux * pos, a[1] + uy * pos)
            if drawing:
                if not current:
                    current.append(start)
                current.append(end)
            left -= step
            if left <= 1e-9:
                if drawing and current:
                    pieces.append(current)
                    current = []
                drawing = not drawing
                left = dash if drawing else gap
    if current and len(current) > 1:
        pieces.append(current)
    return pieces


# -- shared furniture --------------------------------------------------------------------


def draw_piece(
    canvas: Canvas,
    centre: Point,
    radius: float,
    colour: SeatColour,
    label: str = "",
    *,
    outline_width: float | None = None,
) -> None:
    """A round piece in `colour`, outlined, with `label` (its player's initials) on it."""
    outline_width = outline_width if outline_width is not None else max(1.5, radius * 0.09)
    x, y = centre
    canvas.marker("piece", (x - radius, y - radius, x + radius, y + radius))
    canvas.circle(centre, radius, colour.fill, colour.outline, outline_width)
    # A soft inner highlight makes pieces read as round tokens rather than flat dots.
    canvas.circle((centre[0] - radius * 0.28, centre[1] - radius * 0.3), radius * 0.22,
                  _lighten(colour.fill, 0.22))
    if label:
        canvas.text(centre, label, label_size(canvas, label, radius), colour.ink, bold=True,
                    anchor="mm")


def label_size(canvas: Canvas, label: str, radius: float) -> float:
    """Font size for `label` on a disc of `radius`: big, inside the disc, never too small."""
    size = radius * (0.95 if len(label) == 1 else 0.8)
    # Two letters must stay inside the disc: 1.6 radii leaves a margin at their corners.
    return max(canvas.min_size, canvas.fitting_size(label, size, radius * 1.6, bold=True))


def _lighten(colour: Colour, amount: float) -> Colour:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)


def draw_coordinates(
    canvas: Canvas,
    geometry: BoardGeometry,
    *,
    size: float = 26,
    fill: Colour = MUTED,
    sides: Sequence[str] = ("left", "bottom"),
    gap: float = 14,
) -> None:
    """Column letters and row numbers (a1 bottom-left) on the chosen `sides` of the grid."""
    for col in range(geometry.cols):
        x = geometry.left + (col + 0.5) * geometry.cell
        # Letters share a baseline: top or bottom anchors would make "a" and "b" hop.
        if "bottom" in sides:
            canvas.text((x, geometry.bottom + gap + size * 0.75), column_letter(col), size,
                        fill, bold=True, anchor="ms")
        if "top" in sides:
            canvas.text((x, geometry.top - gap), column_letter(col), size, fill,
                        bold=True, anchor="ms")
    for row in range(geometry.rows):
        y = geometry.top + (geometry.rows - row - 0.5) * geometry.cell
        if "left" in sides:
            canvas.text((geometry.left - gap, y), str(row + 1), size, fill, bold=True, anchor="rm")
        if "right" in sides:
            canvas.text((geometry.right + gap, y), str(row + 1), size, fill, bold=True, anchor="lm")


@dataclass(frozen=True)
class StatusChip:
    """One seat's entry on the status bar's second line."""

    seat: int
    name: str
    detail: str = ""
    active: bool = False
    done: bool = False
    """The seat is through (a finished garden): a check badge on its swatch, which takes
    nothing from the name's room."""


CHIP_TEXT = 24
"""The chips' text size, when they are wide enough."""

NARROW_CHIP = 180.0
"""Chips narrower than this (four seats or more) write at the canvas's smallest size, so
that names keep several letters."""


def draw_status_bar(
    canvas: Canvas,
    box: Box,
    headline: Phrase | str,
    seat: int | None,
    chips: Sequence[StatusChip] = (),
    *,
    marks: Sequence[str] | None = None,
    headline_colour: Colour = TEXT,
) -> None:
    """Header panel: a big headline (with the seat's swatch) over one chip per seat.

    `marks` are the seats' initials, drawn on each swatch (see `initials`).
    """
    x0, y0, x1, y1 = box
    canvas.rect(box, PANEL)
    two_lines = bool(chips)
    head_y = y0 + (y1 - y0) * (0.3 if two_lines else 0.5)
    x = x0 + 24
    if seat is not None:
        draw_piece(canvas, (x + 22, head_y), 22, seat_colour(seat), _mark(marks, seat))
        x += 58
    canvas.text((x, head_y), canvas.fit_phrase(headline, 36, x1 - 24 - x, bold=True), 36,
                headline_colour, bold=True, anchor="lm")
    if not two_lines:
        return
    gap = 12.0
    chip_w = (x1 - x0 - 24 * 2 - gap * (len(chips) - 1)) / len(chips)
    # Narrow chips: smaller text, tighter gaps and padding, all for the name's room.
    narrow = chip_w < NARROW_CHIP
    if narrow:
        gap = 8.0
        chip_w = (x1 - x0 - 24 * 2 - gap * (len(chips) - 1)) / len(chips)
    size = min(CHIP_TEXT, canvas.min_size) if narrow else CHIP_TEXT
    pad = 6 if narrow else 14
    top, bottom = y0 + (y1 - y0) * 0.56, y1 - 10
    for index, chip in enumerate(chips):
        cx0 = x0 + 24 + index * (chip_w + gap)
        chip_box = (cx0, top, cx0 + chip_w, bottom)
        canvas.rect(chip_box, PANEL_RAISED if chip.active else None,
                    TEXT if chip.active else PANEL_RAISED, 2.5, radius=12)
        mid = (top + bottom) / 2
        radius = (bottom - top) / 2 - 2
        swatch = (cx0 + 4 + radius, mid)
        draw_piece(canvas, swatch, radius, seat_colour(chip.seat), _mark(marks, chip.seat))
        if chip.done:
            _draw_check_badge(canvas, swatch, radius)
        text_x = cx0 + 4 + 2 * radius + (6 if narrow else 10)
        name_room = cx0 + chip_w - pad - text_x
        if chip.detail:
            canvas.text((cx0 + chip_w - pad, mid), chip.detail, size, TEXT, bold=True,
                        anchor="rm")
            name_room -= canvas.text_width(chip.detail, size, bold=True) + 10
        canvas.text((text_x, mid), canvas.fit(chip.name, size, name_room), size, TEXT,
                    anchor="lm")


CHECK_BADGE = 11.0
"""A check badge's radius: as big as a marker must be on a phone (9 px at 360 px wide)."""


def _draw_check_badge(canvas: Canvas, swatch: Point, radius: float) -> None:
    """A gold check badge on the lower right of a swatch of `radius` at `swatch`."""
    x, y = swatch[0] + radius * 0.72, swatch[1] + radius * 0.62
    r = CHECK_BADGE
    canvas.marker("done", (x - r, y - r, x + r, y + r))
    canvas.circle((x, y), r, WIN, INK, 1.5)
    canvas.text((x, y), "✓", canvas.min_size, INK, bold=True, anchor="mm")


def _mark(marks: Sequence[str] | None, seat: int) -> str:
    return marks[seat] if marks is not None and 0 <= seat < len(marks) else ""


def draw_footer(
    canvas: Canvas, box: Box, left: str, right: Phrase | str = "", *,
    right_colour: Colour = MUTED,
) -> None:
    """A one-line footer: game name on the left, a note (like the last move) on the right."""
    x0, y0, x1, y1 = box
    mid = (y0 + y1) / 2
    canvas.text((x0 + 24, mid), left, 24, MUTED, bold=True, anchor="lm")
    if str(right):
        room = x1 - x0 - 48 - canvas.text_width(left, 24, bold=True) - 24
        canvas.text((x1 - 24, mid), canvas.fit_phrase(right, 24, room, bold=True), 24,
                    right_colour, bold=True, anchor="rm")


def draw_pill(
    canvas: Canvas,
    anchor_right: Point,
    text: str,
    size: float,
    fill: Colour,
    ink: Colour = WHITE,
) -> Box:
    """A rounded label whose right end sits at `anchor_right` (vertically centred); its box."""
    pad_x, pad_y = size * 0.7, size * 0.45
    width = canvas.text_width(text, size, bold=True) + 2 * pad_x
    x1, mid = anchor_right
    box = (x1 - width, mid - size / 2 - pad_y, x1, mid + size / 2 + pad_y)
    canvas.rect(box, fill, radius=(box[3] - box[1]) / 2)
    canvas.text(box_centre(box), text, size, ink, bold=True, anchor="mm")
    return box
