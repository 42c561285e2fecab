"""Drawing helpers shared by every game's renderer: fonts, palette, canvas, grids, PNG.

Everything is drawn in *logical* pixels on a `Canvas`: each shape is drawn supersampled
(Pillow's shapes are not anti-aliased), shrunk and pasted, so callers never deal with the
scale. Output is deterministic: no clock, no randomness (reference games are seeded),
bundled fonts only.
"""

from __future__ import annotations

import io
import itertools
import math
import random
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from PIL import Image, ImageChops, ImageColor, ImageDraw, ImageFont

from engines.base import CHANCE, Game, ResultDict
from engines.grid import Cell, Grid
from i18n import Language, _, current_language, ngettext, use_language
from renderers.png import palette_png
from renderers.tiles import cut

Colour = str
"""A Pillow colour: "#rrggbb"."""
Point = tuple[float, float]
Box = tuple[float, float, float, float]

FONT_DIR = Path(__file__).resolve().parent / "fonts"
SUPERSAMPLE = 2
"""Drawing scale before the final shrink; 2 gives smooth discs at a modest cost."""

PHONE_WIDTH = 360
"""How wide a phone shows a board picture (Discord's chat column), in screen pixels."""
MIN_PHONE_PX = 9
"""The smallest font size and marker, in screen pixels, once a picture is shown that wide."""


def min_size(canvas_width: float) -> float:
    """The smallest font size or marker, in logical pixels, on a canvas this wide."""
    return MIN_PHONE_PX * canvas_width / PHONE_WIDTH

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


def player_name(names: Sequence[str] | None, seat: int) -> str:
    """The display name of `seat`, or "Player N" when none was given (in the current
    language)."""
    if names and seat < len(names) and names[seat] and names[seat].strip():
        return names[seat].strip()
    return _("Player {n}").format(n=seat + 1)


_WORD = re.compile(r"[^\W_]+")
"""A run of letters or digits: the words initials are taken from."""


def _initials_of(name: str) -> str:
    """ "Alice Martin" → "AM", "bob" → "B", "Player 2" → "P2": first and last words' initials."""
    words: list[str] = _WORD.findall(name)
    if not words:
        return ""
    first = words[0][0].upper()
    return first if len(words) == 1 else first + words[-1][0].upper()


def initials(names: Sequence[str] | None, seats: int) -> list[str]:
    """Each seat's mark on its pieces: its player's initials, told apart when they clash.

    Clashing initials take the first word's first two letters ("Al", "An"); if those clash
    too, the initial and the seat number ("B1", "B2"), and as a last resort "#1", "#2"
    (no name gives a "#"). A name without a letter or digit gives "P1", "P2"…
    """
    full = [player_name(names, seat) for seat in range(seats)]
    marks = [_initials_of(name) or f"P{seat + 1}" for seat, name in enumerate(full)]

    def clashing() -> set[int]:
        return {seat for seat, mark in enumerate(marks) if marks.count(mark) > 1}

    for seat in clashing():
        word = (_WORD.findall(full[seat]) or [""])[0]
        if len(word) > 1:
            marks[seat] = word[0].upper() + word[1].lower()
    for seat in clashing():
        marks[seat] = f"{marks[seat][0]}{seat + 1}"
    for seat in clashing():
        marks[seat] = f"#{seat + 1}"
    return marks


COUNTED: dict[str, Callable[[int], str]] = {
    "card": lambda n: ngettext("{n} card", "{n} cards", n),
    "empty bed": lambda n: ngettext("{n} empty bed", "{n} empty beds", n),
    "paquet": lambda n: ngettext("{n} paquet", "{n} paquets", n),
    "pawn": lambda n: ngettext("{n} pawn", "{n} pawns", n),
    "pebble": lambda n: ngettext("{n} pebble", "{n} pebbles", n),
    "pile": lambda n: ngettext("{n} pile", "{n} piles", n),
    "point": lambda n: ngettext("{n} point", "{n} points", n),
    "pt": lambda n: ngettext("{n} pt", "{n} pts", n),
    "tile": lambda n: ngettext("{n} tile", "{n} tiles", n),
}
"""The nouns the pictures count, each through its own plural message (`plural` looks a noun
up here: `COUNTED["tile"](3)` is `{n} tiles`, `{n} tuiles` in French)."""


def number_text(count: float) -> str:
    """`3`, `2.5`, or `2,5` in French."""
    text = f"{count:g}"
    return text.replace(".", ",") if current_language() is Language.FR else text


def plural(count: float, noun: str, plural_form: str | None = None) -> str:
    """ "1 pebble", "0 pebbles", "3 pebbles", "2.5 points" (`plural_form`: irregular nouns),
    in the current language for the nouns of `COUNTED` (French: "0 galet", "2,5 points");
    another noun stays English."""
    counted = COUNTED.get(noun)
    if counted is not None:
        # gettext's plural rules take whole numbers: 2.5 counts like 2 (plural in French and
        # English), 1.5 like 1 (singular in French, plural in English, as both write them).
        if count == int(count):
            whole = int(count)
        else:
            whole = 1 if current_language() is Language.FR and abs(count) < 2 else 2
        return counted(whole).format(n=number_text(count))
    word = noun if abs(count) == 1 else (plural_form or noun + "s")
    return f"{count:g} {word}"


def named(template: str, *names: str) -> str:
    """A translated template with named player placeholders (`{name}`, or those of `names`
    in order) made a `Phrase` template (`{0}`, `{1}`…); other braces are kept as text."""
    keys = names or ("name",)
    escaped = template.replace("{", "{{").replace("}", "}}")
    for index, key in enumerate(keys):
        escaped = escaped.replace("{{" + key + "}}", "{" + str(index) + "}")
    return escaped


@dataclass(frozen=True)
class Phrase:
    """A sentence with player names in it (`{0}`, `{1}`…): names shrink first to fit."""

    template: str
    names: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.template.format(*self.names)

    def __add__(self, tail: str) -> Phrase:
        return Phrase(self.template + tail.replace("{", "{{").replace("}", "}}"), self.names)


def result_headline(
    result: ResultDict | None,
    current_player: int | None,
    names: Sequence[str] | None,
) -> tuple[Phrase, int | None]:
    """The status sentence and the seat whose swatch goes with it (None: no swatch)."""
    if result is None:
        if current_player is None or current_player < 0:
            return Phrase(_("Waiting…")), None
        return (Phrase(named(_("{name} to play")), (player_name(names, current_player),)),
                current_player)
    winners = result["winners"]
    if len(winners) == 1:
        return Phrase(named(_("{name} wins!")), (player_name(names, winners[0]),)), winners[0]
    return Phrase(_("Draw")), None


# -- fonts -------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans at `size` device pixels (cached)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


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


# -- what was drawn (for tests) ------------------------------------------------------------


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


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Collect every text and marker drawn inside the block (tests check their sizes)."""
    records: list[Drawn] = []
    token = _RECORDS.set(records)
    try:
        yield records
    finally:
        _RECORDS.reset(token)


# -- canvas ------------------------------------------------------------------------------
# Shapes are drawn one by one as "stamps": each is drawn supersampled on a patch just big
# enough for it, shrunk, and pasted onto the picture, which is kept at its logical size.
# A board repeats the same shapes (pieces, cells, labels) in the same places from one
# render to the next, so stamps are cached: most renders only paste. Shrinking and
# pasting a stamp gives the picture a full supersampled canvas would, up to a level or two
# on the edge pixels of a shape that overlaps another shape's anti-aliased edge.

STAMP_CACHE = 2048
"""Small stamps (shapes, texts) kept: every board's recurring ones fit, with room."""

BIG_STAMP = 64 * 64
"""Picture pixels above which a stamp is big: panels, and the arrows of moves, which
seldom recur. Fewer of those are kept, so that the caches stay within a few tens of MB."""

BIG_STAMP_CACHE = 64
"""Big stamps kept: a board's few panels, and the arrows of the latest moves."""

Coords = tuple[int, ...]
"""Device-pixel coordinates, flattened: x0, y0, x1, y1…"""


class _Shape(NamedTuple):
    """One shape to stamp, in device pixels relative to its patch (a cache key)."""

    kind: str
    """"ellipse", "rect", "rounded", "polygon" or "line"."""
    coords: Coords
    fill: Colour | None
    outline: Colour | None
    width: int = 0
    """Outline width, or a line's width."""
    radius: int = 0
    """A rounded rectangle's corner radius; a line's number of points (the rest are caps)."""


Ink = Colour | int | None
"""A colour to draw with, or a coverage level (255) on a mask."""


def _pairs(coords: Coords) -> list[tuple[int, int]]:
    return list(zip(coords[0::2], coords[1::2], strict=True))


def _draw_shape(draw: ImageDraw.ImageDraw, shape: _Shape, fill: Ink, outline: Ink) -> None:
    """Draw `shape` in `fill` and `outline` with Pillow, as the canvas did before stamps."""
    c = shape.coords
    if shape.kind == "ellipse":
        draw.ellipse(c, fill, outline, shape.width)
    elif shape.kind == "rect":
        draw.rectangle(c, fill, outline, shape.width)
    elif shape.kind == "rounded":
        draw.rounded_rectangle(c, shape.radius, fill, outline, shape.width)
    elif shape.kind == "polygon":
        draw.polygon(_pairs(c), fill, outline)
    else:  # a line: its points, then the boxes of its round caps
        points = 2 * shape.radius
        draw.line(_pairs(c[:points]), fill, shape.width, joint="curve")
        for cap in range(points, len(c), 4):
            draw.ellipse(c[cap:cap + 4], fill)


SOLID_CORE_MIN = 1024
"""Picture pixels a stamp's solid inside must cover to be filled rather than pasted."""

PatchBox = tuple[int, int, int, int]

TILED_MIN = 1024
"""Picture pixels above which a stamp is cut into tiles (see `renderers.tiles`): below it,
the few pixels saved do not pay for the extra pastes."""


@dataclass(frozen=True)
class Stamp:
    """A drawn shape ready to paste: only its edges through their coverage.

    Pasting through a mask costs some ten times a plain fill or copy per pixel, so what the
    shape covers entirely is filled (in its fill colour) or copied, and what it leaves
    untouched is not pasted at all (see `renderers.tiles`).
    """

    pieces: tuple[tuple[Image.Image, int, int], ...]
    """Masks (or RGBA patches) to paste through their coverage, with their top-left corners
    relative to the stamp's."""
    copies: tuple[tuple[Image.Image, int, int], ...]
    """Opaque parts of a two-colour stamp, as RGB patches pasted as they are."""
    fills: tuple[PatchBox, ...]
    """Boxes (relative, far edges excluded) the shape covers entirely in its fill colour."""
    pasted: tuple[tuple[Any, PatchBox], ...] = field(init=False, repr=False)
    """The pieces as Pillow's core images with their boxes: what the hot loop pastes."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "pasted", tuple(
            (piece.im, (x, y, x + piece.width, y + piece.height)) for piece, x, y in self.pieces))


def _solid_core(shape: _Shape, factor: int) -> PatchBox | None:
    """The picture pixels that `shape` (relative device pixels) fills entirely, if many."""
    if shape.fill is None or shape.kind not in ("rect", "rounded", "ellipse"):
        return None
    x0, y0, x1, y1 = shape.coords
    if shape.kind == "ellipse":
        # The square inside the fill's circle, kept clear of its edge by a device pixel.
        half = ((min(x1 - x0, y1 - y0) / 2 - shape.width - 2) / math.sqrt(2))
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        inner = (cx - half, cy - half, cx + half, cy + half)
    else:
        # Clear of the corners and the outline; Pillow's boxes include their far edge.
        margin = max(shape.radius, shape.width) + 1
        inner = (x0 + margin, y0 + margin, x1 + 1 - margin, y1 + 1 - margin)
    core = (math.ceil(inner[0] / factor), math.ceil(inner[1] / factor),
            math.floor(inner[2] / factor), math.floor(inner[3] / factor))
    if (core[2] - core[0]) * (core[3] - core[1]) < SOLID_CORE_MIN or core[2] <= core[0]:
        return None
    return core


def _stamp(shape: _Shape, size: tuple[int, int], factor: int) -> Stamp:
    """`shape` drawn `factor` times too big on a patch of `size` (picture pixels), shrunk."""
    big = size[0] * size[1] > BIG_STAMP
    return (_big_stamp if big else _small_stamp)(shape, size, factor).use()


class _Drawn:
    """A shape's drawn patch, pasted whole the first time and cut into a stamp the second.

    Cutting a big patch takes longer than pasting it once, and many big shapes are drawn
    once only (the arrow of one move); those that recur (panels, frames) are cut.
    """

    __slots__ = ("core", "one_colour", "patch", "stamp", "used")

    def __init__(self, patch: Image.Image, one_colour: bool, core: PatchBox | None) -> None:
        self.patch: Image.Image | None = patch
        """The patch while it is not cut yet."""
        self.one_colour, self.core = one_colour, core
        self.stamp = Stamp(((patch, 0, 0),), (), ())
        self.used = False

    def use(self) -> Stamp:
        """The stamp to paste now: the whole patch on first use, then the cut stamp."""
        patch = self.patch  # read once: a render thread may be cutting it at the same time
        if patch is not None:
            if self.used:
                self.stamp = _cut_stamp(patch, self.one_colour, self.core)
                self.patch = None
            self.used = True
        return self.stamp


def _new_stamp(shape: _Shape, size: tuple[int, int], factor: int) -> _Drawn:
    """`shape` drawn `factor` times too big on a patch of `size` (picture pixels), shrunk.

    A one-colour shape is an "L" coverage mask (its colour is pasted through it): cheaper,
    and one stamp serves every colour. Otherwise an RGBA patch, shrunk with its alpha
    premultiplied so that the edges keep their colours.
    """
    device = (size[0] * factor, size[1] * factor)
    one_colour = shape.outline is None or shape.fill is None or shape.outline == shape.fill
    if one_colour:
        patch = Image.new("L", device, 0)
        _draw_shape(ImageDraw.Draw(patch), shape, 255 if shape.fill is not None else None,
                    255 if shape.outline is not None else None)
    else:
        patch = Image.new("RGBA", device, (0, 0, 0, 0))
        _draw_shape(ImageDraw.Draw(patch), shape, shape.fill, shape.outline)
    if factor > 1:
        patch = patch.reduce(factor)
    return _Drawn(patch, one_colour, _solid_core(shape, factor))


def picture_stamp(picture: Image.Image) -> Stamp:
    """An RGBA `picture` (a card, an icon) ready to paste through its alpha with
    `Canvas.paste_stamp`: its opaque parts copied, its transparent ones skipped. Keep the
    stamp with the picture: cutting it takes longer than pasting it."""
    return _cut_stamp(picture, False, None)


def _cut_stamp(patch: Image.Image, one_colour: bool, core: PatchBox | None) -> Stamp:
    """A stamp of `patch` (a coverage mask, or an RGBA patch) whose box `core` is filled,
    the rest cut into tiles (see `renderers.tiles`) if it is big."""
    if patch.width * patch.height < TILED_MIN:
        return Stamp(((patch, 0, 0),), (), ())
    w, h = patch.size
    fills: list[PatchBox] = []
    if core is None:
        bands = [(0, 0, w, h)]
    else:
        # The edges: bands above and below the core, and the sides between them.
        cx0, cy0, cx1, cy1 = core
        fills.append(core)
        bands = [(0, 0, w, cy0), (0, cy1, w, h), (0, cy0, cx0, cy1), (cx1, cy0, w, cy1)]
    pieces: list[tuple[Image.Image, int, int]] = []
    copies: list[tuple[Image.Image, int, int]] = []
    for bx0, by0, bx1, by1 in bands:
        if bx1 <= bx0 or by1 <= by0:
            continue
        band = patch.crop((bx0, by0, bx1, by1))
        regions = cut(band if one_colour else band.getchannel("A"))
        pieces.extend((band.crop(r), bx0 + r[0], by0 + r[1]) for r in regions.partial)
        for r in regions.full:
            if one_colour:
                fills.append((bx0 + r[0], by0 + r[1], bx0 + r[2], by0 + r[3]))
            else:
                copies.append((band.crop(r).convert("RGB"), bx0 + r[0], by0 + r[1]))
    return Stamp(tuple(pieces), tuple(copies), tuple(fills))


_small_stamp = lru_cache(maxsize=STAMP_CACHE)(_new_stamp)
_big_stamp = lru_cache(maxsize=BIG_STAMP_CACHE)(_new_stamp)


@lru_cache(maxsize=STAMP_CACHE)
def _text_stamp(
    text: str, size: int, bold: bool, anchor: str, stroke: int, phase: tuple[int, int],
    factor: int,
) -> tuple[Stamp, int, int]:
    """The one-colour stamp of `text` (filled stroke included), and where it goes.

    The text is anchored at a device point `phase` pixels past a picture pixel's corner;
    the mask's top-left corner is returned relative to that picture pixel.
    """
    face = font(size, bold)
    left, top, right, bottom = face.getbbox(text, anchor=anchor, stroke_width=stroke)
    x0 = (phase[0] + math.floor(left)) // factor - 1
    y0 = (phase[1] + math.floor(top)) // factor - 1
    x1 = -(-(phase[0] + math.ceil(right)) // factor) + 1
    y1 = -(-(phase[1] + math.ceil(bottom)) // factor) + 1
    patch = Image.new("L", ((x1 - x0) * factor, (y1 - y0) * factor), 0)
    ImageDraw.Draw(patch).text((phase[0] - x0 * factor, phase[1] - y0 * factor), text,
                               fill=255, font=face, anchor=anchor, stroke_width=stroke,
                               stroke_fill=255 if stroke else None)
    # Not cut into tiles (see `renderers.tiles`): a text's box is mostly its letters' own,
    # and the texts that change from one board to the next would pay for cutting each time.
    return Stamp(((patch.reduce(factor) if factor > 1 else patch, 0, 0),), (), ()), x0, y0


@lru_cache(maxsize=STAMP_CACHE)
def _text_length(text: str, size: int, bold: bool) -> float:
    """The advance width of `text` in device pixels (measuring is slow, names recur)."""
    return font(size, bold).getlength(text)


def _fill_colour(fill: Colour | None) -> Colour:
    """The colour of a stamp's fills: only shapes drawn with a colour have fills."""
    if fill is None:
        raise ValueError("a stamp with fills needs its fill colour")
    return fill


@lru_cache(maxsize=256)
def _rgb(colour: Colour) -> tuple[int, int, int]:
    return ImageColor.getrgb(colour)[:3]


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
        return (self._v(point[0]), self._v(point[1]))

    def _b(self, box: Box) -> tuple[int, int, int, int]:
        return (self._v(box[0]), self._v(box[1]), self._v(box[2]), self._v(box[3]))

    # -- stamping
    def _draw(self, shape: _Shape, reach: int = 0) -> None:
        """Stamp `shape`, given in absolute device pixels; it spreads `reach` past them."""
        factor = self.scale // self.resolution
        xs, ys = shape.coords[0::2], shape.coords[1::2]
        # One spare picture pixel all round: Pillow's boxes include their far edge.
        x0 = (min(xs) - reach) // factor - 1
        y0 = (min(ys) - reach) // factor - 1
        x1 = (max(xs) + reach) // factor + 2
        y1 = (max(ys) + reach) // factor + 2
        dx, dy = x0 * factor, y0 * factor
        relative = tuple(v - (dy if i % 2 else dx) for i, v in enumerate(shape.coords))
        key = _Shape(shape.kind, relative, shape.fill, shape.outline, shape.width, shape.radius)
        one_colour = shape.outline is None or shape.fill is None or shape.outline == shape.fill
        if one_colour:
            # A one-colour stamp does not depend on the colour: cache it without.
            key = _Shape(key.kind, relative, "" if shape.fill else None,
                         "" if shape.outline else None, shape.width, shape.radius)
        ink = shape.fill or shape.outline
        if ink is None:
            return
        stamp = _stamp(key, (x1 - x0, y1 - y0), factor)
        self._paste_stamp(stamp, ink if one_colour else None, shape.fill or ink, x0, y0)

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
            colour = None if ink is None else _rgb(ink)
            for piece, (px0, py0, px1, py1) in stamp.pasted:
                core.paste(piece if colour is None else colour,
                           (x0 + px0, y0 + py0, x0 + px1, y0 + py1), piece)
            if stamp.fills:
                solid = _rgb(_fill_colour(fill))
                for fx0, fy0, fx1, fy1 in stamp.fills:
                    core.paste(solid, (x0 + fx0, y0 + fy0, x0 + fx1, y0 + fy1))
            for patch, x, y in stamp.copies:
                core.paste(patch.im, (x0 + x, y0 + y, x0 + x + patch.width, y0 + y + patch.height))
            return
        # A layer (RGBA, see `layer`): composited, since pasting over transparency would
        # darken the edges.
        for patch, x, y in stamp.pieces:
            if ink is not None:
                coloured = Image.new("RGBA", patch.size, _rgb(ink))
                coloured.putalpha(patch)
                patch = coloured
            self._composite(patch, x0 + x, y0 + y)
        for fx0, fy0, fx1, fy1 in stamp.fills:
            self.image.im.paste((*_rgb(_fill_colour(fill)), 255),
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
            self._draw(_Shape("rounded", self._b(box), fill, outline, w, self._v(radius)))
        else:
            self._draw(_Shape("rect", self._b(box), fill, outline, w))

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
        self._draw(_Shape("ellipse", box, fill, outline, self._v(width) if outline else 0))

    def polygon(self, points: Sequence[Point], fill: Colour, outline: Colour | None = None) -> None:
        """A filled polygon."""
        coords = tuple(v for p in points for v in self._p(p))
        self._draw(_Shape("polygon", coords, fill, outline))

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
        self._draw(_Shape("line", tuple(coords), fill, None, w, len(points)), w // 2 + 2)

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
        """Text at `xy` with a Pillow anchor ("la" top-left, "mm" centre, "lm", "rm"…)."""
        device_size = self._v(size)
        px, py = self._p(xy)
        if _RECORDS.get() is not None:
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
            stamp, x, y = _text_stamp(text, device_size, bold, anchor, width,
                                      (phase_x, phase_y), factor)
            self._paste_stamp(stamp, ink, ink, cell_x + x, cell_y + y)

    def note(self, kind: str, what: str, size: float, box: Box) -> None:
        """Record a text or a marker drawn by other means, while `recording()` is on."""
        records = _RECORDS.get()
        if records is not None:
            records.append(Drawn(kind, what, size, box, self.width))

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
        """Width of `text` in logical pixels."""
        return _text_length(text, self._v(size), bold) / self.scale

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
        self, text: str, size: float, max_width: float, max_lines: int, *, bold: bool = False
    ) -> list[str]:
        """`text` broken at spaces into at most `max_lines` lines no wider than `max_width`.

        Only what still does not fit then is cut, with an ellipsis.
        """
        lines: list[str] = []
        words = text.split(" ")
        while words and len(lines) < max_lines:
            line = words.pop(0)
            while words and self.text_width(f"{line} {words[0]}", size, bold=bold) <= max_width:
                line += " " + words.pop(0)
            lines.append(line)
        if words:
            lines[-1] = " ".join([lines[-1], *words])
        return [self.fit(line, size, max_width, bold=bold) for line in lines]

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
        references = _REFERENCES.get()
        if references is not None:  # a reference picture: the palette is being chosen
            references.append(picture.copy())
            return b""
        return encode_png(picture, palette() if palette is not None else None)


def _shorter(name: str) -> str:
    """`name` one letter shorter, ending in "…"."""
    bare = name[:-1] if name.endswith("…") else name
    return bare[:-1].rstrip() + "…"


PALETTE_COLOURS = 256
"""Colours kept when encoding: the boards are flat colours and their anti-aliased edges."""

PALETTE_SAMPLING = 3
"""A palette is chosen from one pixel in 3 × 3: a ninth of the work, as good a palette."""

PALETTE_CHECK_SAMPLING = 6
"""Whether a game's palette suits a picture is checked on one pixel in 6 × 6: the share of
pixels off is as well estimated on a board's 20,000 such pixels, for a third of the time."""

PALETTE_TOLERANCE = 32
"""How far (on a channel) a pixel may be from its palette colour before it counts as off."""

PALETTE_MISFIT = 0.0002
"""The share of sampled pixels that may be off before a game's palette is not used."""

REFERENCE_NAMES = ("Zoé Quint", "yann", "Ines Ortega", "Ulf", "Wanda Vex")
"""Players of the reference pictures a game's palette is chosen from."""

_REFERENCES: ContextVar[list[Image.Image] | None] = ContextVar("_REFERENCES", default=None)
_WARM = threading.local()


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes of `image`, quickly compressed: encoding time matters more than a few KB.

    An RGB picture is first reduced to a palette (no dithering): a third of the bytes to
    compress, so it encodes in about half the time and weighs about 40 % as much, and no one
    tells the colours apart (a channel is off by less than 1 on average). That is `palette`
    (a game's, see `reference_palette`) when it suits the picture, else one chosen from a
    sample of its pixels (fast octree).
    """
    if image.mode == "RGB":
        image = _to_palette(image, palette)
    if image.mode == "P" and "transparency" not in image.info:
        return palette_png(image)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def _to_palette(image: Image.Image, reference: Image.Image | None) -> Image.Image:
    """`image` in `reference`'s colours if they suit it, else in a palette of its own."""
    if reference is not None:
        indexed = image.quantize(palette=_warm_copy(reference), dither=Image.Dither.NONE)
        # The same pixels of the picture and of the mapped one: how far their colours are.
        checked = _sample(image, PALETTE_CHECK_SAMPLING)
        mapped = _sample(indexed, PALETTE_CHECK_SAMPLING).convert("RGB")
        histogram = ImageChops.difference(checked, mapped).histogram()
        off = sum(sum(histogram[band * 256 + PALETTE_TOLERANCE + 1:(band + 1) * 256])
                  for band in range(3))
        if off <= PALETTE_MISFIT * checked.width * checked.height:
            return indexed
    # A colour the game's palette lacks (or no such palette): the picture's own palette.
    own = _sample(image, PALETTE_SAMPLING).quantize(
        PALETTE_COLOURS, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return image.quantize(palette=own, dither=Image.Dither.NONE)


def _sample(image: Image.Image, step: int) -> Image.Image:
    """One pixel of `image` in `step` × `step`."""
    size = (max(1, image.width // step), max(1, image.height // step))
    return image.resize(size, Image.Resampling.NEAREST)


def _warm_copy(palette: Image.Image) -> Image.Image:
    """This thread's own copy of `palette`, kept: Pillow caches colour lookups in it.

    Mapping a picture to a palette that has mapped pictures before is two to three times
    as fast; each thread has its copy because Pillow fills that cache without a lock.
    """
    copies: dict[int, Image.Image] = _WARM.__dict__.setdefault("copies", {})
    copy = copies.get(id(palette))
    if copy is None:
        copy = Image.new("P", (1, 1))
        copy.putpalette(palette.getpalette() or [])
        copies[id(palette)] = copy
    return copy


_PALETTES: dict[str, Image.Image] = {}
"""Each game's palette, once chosen here or handed over (see `adopt_palettes`), by game id."""


def chosen_palettes() -> dict[str, bytes]:
    """The games' palettes chosen so far, as RGB bytes: what `adopt_palettes` takes."""
    return {game: bytes(palette.getpalette("RGB") or b"") for game, palette in _PALETTES.items()}


def adopt_palettes(palettes: Mapping[str, bytes]) -> None:
    """Use palettes another process chose (see `chosen_palettes`) instead of choosing them
    again: choosing them all takes most of a second, and they come out the same."""
    for game, colours in palettes.items():
        palette = Image.new("P", (1, 1))
        palette.putpalette(colours, "RGB")
        _PALETTES.setdefault(game, palette)


def reference_palette(
    render: Callable[..., bytes],
    game: Game[Any],
    players: Sequence[int],
    plies: Sequence[int],
) -> Image.Image:
    """A game's palette, chosen once from pictures of reference games (seeded random play),
    or the one another process chose (see `adopt_palettes`).

    Start, middle and end positions, with their last moves and as previews: the colours the
    game's boards are made of. A picture with a colour they lack gets its own palette. The
    references are drawn in English whatever the language of the moment, so a picture's bytes
    never depend on the language of the first picture a process drew.
    """
    known = _PALETTES.get(game.id)
    if known is not None:
        return known
    pictures: list[Image.Image] = []
    token = _REFERENCES.set(pictures)
    unrecorded = _RECORDS.set(None)  # the reference games are not the picture being checked
    try:
        with use_language(Language.EN):
            for count in players:
                names = REFERENCE_NAMES[:count]
                for seed, moves in enumerate(plies):
                    state, last = seeded_position(game, count, moves, seed)
                    view = state.view(None)
                    render(view, last, names=names)
                    if last is not None:
                        render(view, last, preview=True, names=names)
    finally:
        _RECORDS.reset(unrecorded)
        _REFERENCES.reset(token)
    samples = [_sample(picture, PALETTE_SAMPLING) for picture in pictures]
    sheet = Image.new("RGB", (max(s.width for s in samples), sum(s.height for s in samples)))
    top = 0
    for sample in samples:
        sheet.paste(sample, (0, top))
        top += sample.height
    chosen = sheet.quantize(PALETTE_COLOURS, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return _PALETTES.setdefault(game.id, chosen)


def seeded_position(game: Game[Any], players: int, moves: int, seed: int,
                    options: dict[str, Any] | None = None) -> tuple[Any, str | None]:
    """The state after `moves` random player moves (seeded; chance drawn too, on to a
    player's turn), and the last move: a reproducible position to draw."""
    state = game.new_state(players, options)
    rng = random.Random(seed)
    last = None
    while not state.is_over() and (moves > 0 or state.current_player == CHANCE):
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        move = rng.choice(state.legal_moves())
        state.apply(move)
        last = str(move)
        moves -= 1
    return state, last


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
    chip_w = (x1 - x0 - 24 * 2 - 12 * (len(chips) - 1)) / len(chips)
    top, bottom = y0 + (y1 - y0) * 0.56, y1 - 10
    for index, chip in enumerate(chips):
        cx0 = x0 + 24 + index * (chip_w + 12)
        chip_box = (cx0, top, cx0 + chip_w, bottom)
        canvas.rect(chip_box, PANEL_RAISED if chip.active else None,
                    TEXT if chip.active else PANEL_RAISED, 2.5, radius=12)
        mid = (top + bottom) / 2
        radius = (bottom - top) / 2 - 2
        draw_piece(canvas, (cx0 + 4 + radius, mid), radius, seat_colour(chip.seat),
                   _mark(marks, chip.seat))
        text_x = cx0 + 14 + 2 * radius
        detail_w = canvas.text_width(chip.detail, 24, bold=True) if chip.detail else 0
        if chip.detail:
            canvas.text((cx0 + chip_w - 14, mid), chip.detail, 24, TEXT, bold=True, anchor="rm")
        name_room = cx0 + chip_w - 14 - detail_w - 10 - text_x
        canvas.text((text_x, mid), canvas.fit(chip.name, 24, name_room), 24, TEXT, anchor="lm")


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
