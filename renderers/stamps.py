"""Shapes and texts as stamps: drawn supersampled once, shrunk, cached, then pasted.

Shapes are drawn one by one as "stamps": each is drawn supersampled on a patch just big
enough for it, shrunk, and pasted onto the picture, which is kept at its logical size.
A board repeats the same shapes (pieces, cells, labels) in the same places from one
render to the next, so stamps are cached: most renders only paste. Shrinking and
pasting a stamp gives the picture a full supersampled canvas would, up to a level or two
on the edge pixels of a shape that overlaps another shape's anti-aliased edge.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from PIL import Image, ImageColor, ImageDraw, ImageFont

from renderers.tiles import cut
from renderers.units import Colour

FONT_DIR = Path(__file__).resolve().parent / "fonts"


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans at `size` device pixels (cached)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


STAMP_CACHE = 2048
"""Small stamps (shapes, texts) kept: every board's recurring ones fit, with room."""

BIG_STAMP = 64 * 64
"""Picture pixels above which a stamp is big: panels, and the arrows of moves, which
seldom recur. Fewer of those are kept, so that the caches stay within a few tens of MB."""

BIG_STAMP_CACHE = 64
"""Big stamps kept: a board's few panels, and the arrows of the latest moves."""

MISSING_PROBE = "\U0010fffd"
"""A private-use code point no font draws: what it shows is the font's missing glyph."""

PROBE_SIZE = 32
"""Device size at which glyphs are compared: a font covers the same characters at any size."""

INVISIBLE = frozenset("\u200d\ufe0e\ufe0f")
"""Joiners and variation selectors: they only glue emoji together, and would keep the
spaces around a dropped emoji from collapsing."""

_SPACES = re.compile(r"\s{2,}")


@lru_cache(maxsize=2)
def _missing_glyph(bold: bool) -> tuple[tuple[int, int], bytes]:
    """The size and coverage of the font's missing glyph (its empty box)."""
    mask = font(PROBE_SIZE, bold).getmask(MISSING_PROBE)
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def has_glyph(char: str, bold: bool = False) -> bool:
    """True when the bundled font draws `char` (one character) rather than an empty box."""
    if char in INVISIBLE:
        return False
    mask = font(PROBE_SIZE, bold).getmask(char)
    # Compared with the missing glyph itself: the font's coverage is not exposed by Pillow.
    return (mask.size, bytes(mask)) != _missing_glyph(bold)


@lru_cache(maxsize=STAMP_CACHE)
def drawable(text: str, bold: bool = False) -> str:
    """`text` without the characters the bundled font lacks (emoji, CJK…), spaces collapsed.

    Drawn, they would be empty boxes. A whitespace the font lacks becomes a space; where
    characters were dropped, the spaces around them shrink to one, none at either end.
    """
    if text.isascii():  # the font covers ASCII: most texts need no look-up
        return text
    kept = "".join(c if has_glyph(c, bold) else " " if c.isspace() else "" for c in text)
    if kept == text:
        return text
    # The last space of a run is kept: it may be a no-break space before French punctuation.
    return _SPACES.sub(lambda run: run.group()[-1], kept).strip()


Coords = tuple[int, ...]
"""Device-pixel coordinates, flattened: x0, y0, x1, y1…"""


class Shape(NamedTuple):
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


def _draw_shape(draw: ImageDraw.ImageDraw, shape: Shape, fill: Ink, outline: Ink) -> None:
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
    copied: tuple[tuple[Any, PatchBox], ...] = field(init=False, repr=False)
    """The copies likewise."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "pasted", tuple(
            (piece.im, (x, y, x + piece.width, y + piece.height)) for piece, x, y in self.pieces))
        object.__setattr__(self, "copied", tuple(
            (patch.im, (x, y, x + patch.width, y + patch.height)) for patch, x, y in self.copies))


def _solid_core(shape: Shape, factor: int) -> PatchBox | None:
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


def shape_stamp(shape: Shape, size: tuple[int, int], factor: int) -> Stamp:
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


def _new_stamp(shape: Shape, size: tuple[int, int], factor: int) -> _Drawn:
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
def text_stamp(
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
def text_length(text: str, size: int, bold: bool) -> float:
    """The advance width of `text` in device pixels (measuring is slow, names recur)."""
    return font(size, bold).getlength(text)


def fill_colour(fill: Colour | None) -> Colour:
    """The colour of a stamp's fills: only shapes drawn with a colour have fills."""
    if fill is None:
        raise ValueError("a stamp with fills needs its fill colour")
    return fill


@lru_cache(maxsize=256)
def rgb(colour: Colour) -> tuple[int, int, int]:
    """`colour` as its red, green and blue levels (cached: the same few colours recur)."""
    return ImageColor.getrgb(colour)[:3]

