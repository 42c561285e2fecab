"""Animated replays: PNG frames in, one looping GIF out (pure and deterministic).

Every frame gets a caption strip ("12. Alice: b2:NNE") under the board. All frames share one
palette, without dithering, so a frame differs from the one before only where the board
changed: the GIF stores just those pixels (the rest are transparent), which keeps a
200-move game to a few megabytes.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from renderers.common import BACKGROUND, TEXT
from renderers.stamps import drawable, font

FRAME_MS = 1200
"""How long each position shows in a short game: long enough to follow one move."""

MIN_FRAME_MS = 600
"""The quickest a position ever shows, however long the game."""

TARGET_MS = 60_000
"""Longer games speed up (down to `MIN_FRAME_MS` a move) to last about this long a loop."""

GIF_TICK_MS = 10
"""GIF durations are whole hundredths of a second."""

HOLD_MS = 5000
"""How long the final position is held before the loop starts again."""

MAX_FRAMES = 60
"""`sample_indices`' default: how many frames a sampled replay keeps."""

MAX_WIDTH = 720
"""Frames wider than this are scaled down, to keep the GIF small enough to upload."""

CAPTION_HEIGHT = 40
"""Height of the caption strip under each frame, in pixels of the GIF."""

CAPTION_FONT = 22
"""Caption text size, in pixels of the GIF."""

CAPTION_MARGIN = 14
"""Space left and right of the caption text."""

PALETTE_COLOURS = 255
"""Colours of the shared palette; one GIF index stays free for transparency."""

PALETTE_SAMPLES = 6
"""Frames (spread over the game) the shared palette is computed from."""


def frame_duration(count: int) -> int:
    """Milliseconds per frame for a replay of `count` frames: slower for short games."""
    if count <= 1:
        return FRAME_MS
    each = TARGET_MS // (count - 1) // GIF_TICK_MS * GIF_TICK_MS
    return max(MIN_FRAME_MS, min(FRAME_MS, each))


def sample_indices(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """At most `limit` indices of `range(count)`: the first, the last and evenly spaced ones."""
    if count <= limit:
        return list(range(count))
    if limit <= 1:
        return [count - 1]
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


def fit_text(text: str, width: int, size: int = CAPTION_FONT) -> str:
    """`text` as the font draws it (see `drawable`), cut with an ellipsis if it is wider
    than `width` pixels at `size`."""
    text = drawable(text, bold=True)
    face = font(size, True)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _scaled_size(data: bytes, max_width: int) -> tuple[int, int]:
    """The size `_scaled` gives the PNG `data`, read from its header alone."""
    with Image.open(io.BytesIO(data)) as opened:
        width, height = opened.size
    if width > max_width:
        return max_width, round(height * max_width / width)
    return width, height


def _scaled(data: bytes, max_width: int) -> Image.Image:
    with Image.open(io.BytesIO(data)) as opened:
        image = opened.convert("RGB")
    if image.width > max_width:
        height = round(image.height * max_width / image.width)
        image = image.resize((max_width, height), Image.Resampling.LANCZOS)
    return image


def _captioned(image: Image.Image, caption: str) -> Image.Image:
    """`image` with a strip under it that reads `caption`."""
    framed = Image.new("RGB", (image.width, image.height + CAPTION_HEIGHT), BACKGROUND)
    framed.paste(image, (0, 0))
    draw = ImageDraw.Draw(framed)
    text = fit_text(caption, image.width - 2 * CAPTION_MARGIN)
    draw.text((CAPTION_MARGIN, image.height + CAPTION_HEIGHT // 2), text,
              font=font(CAPTION_FONT, True), fill=TEXT, anchor="lm")
    return framed


def _shared_palette(images: Sequence[Image.Image]) -> Image.Image:
    """One palette for every frame, computed from a few frames spread over the game.

    Its unused entries repeat the first colour, so mapping a picture to it never picks them
    (the first of equally near colours wins): `TRANSPARENT` stays free.
    """
    width = max(image.width for image in images)
    sheet = Image.new("RGB", (width, sum(image.height for image in images)), BACKGROUND)
    top = 0
    for image in images:
        sheet.paste(image, (0, top))
        top += image.height
    chosen = sheet.quantize(colors=PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT)
    colours = (chosen.getpalette("RGB") or [0, 0, 0])[:3 * PALETTE_COLOURS]
    colours += colours[:3] * (256 - len(colours) // 3)
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    return palette


TRANSPARENT = 255
"""The GIF index of "as in the frame before": every pixel a frame does not change."""


def _gif_header(size: tuple[int, int], palette: Image.Image) -> bytes:
    """A looping GIF89a's header: the screen size, the shared palette and the loop."""
    colours = bytes(palette.getpalette("RGB") or b"")[:768].ljust(768, b"\0")
    screen = struct.pack("<HHBBB", size[0], size[1], 0xF7, 0, 0)  # 256-colour global table
    loop = b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\0"
    return b"GIF89a" + screen + colours + loop


def animate(
    frames: Sequence[bytes], *, captions: Sequence[str] | None = None,
    frame_ms: int | None = None, hold_ms: int = HOLD_MS, max_width: int = MAX_WIDTH,
) -> bytes:
    """A looping GIF of the PNG `frames`, each shown `frame_ms` (by default faster for long
    games, see `frame_duration`), the last one `hold_ms`, each over its caption if given.

    Frames are decoded, mapped to the shared palette and written one at a time: only the
    one before is kept (to store just what changed), so a 200-move replay takes a few MB
    of memory, not the gigabyte that holding every frame took. A frame identical to the one
    before only lengthens it.
    """
    if not frames:
        raise ValueError("an animation needs at least one frame")
    if captions is not None and len(captions) != len(frames):
        raise ValueError(f"{len(captions)} captions for {len(frames)} frames")
    strip = CAPTION_HEIGHT if captions is not None else 0
    sizes = [_scaled_size(data, max_width) for data in frames]
    screen = (max(w for w, _ in sizes), max(h for _, h in sizes) + strip)

    def picture(index: int) -> Image.Image:
        image = _scaled(frames[index], max_width)
        if captions is not None:
            image = _captioned(image, captions[index])
        if image.size == screen:
            return image
        framed = Image.new("RGB", screen, BACKGROUND)
        framed.paste(image, (0, 0))
        return framed

    palette = _shared_palette([picture(i) for i in sample_indices(len(frames), PALETTE_SAMPLES)])
    each = frame_duration(len(frames)) if frame_ms is None else frame_ms
    out = [_gif_header(screen, palette)]
    previous: Image.Image | None = None
    waiting: _Frame | None = None  # written once the next frame is known to differ
    for index in range(len(frames)):
        duration = hold_ms if index == len(frames) - 1 else each
        indexed = picture(index).quantize(palette=palette, dither=Image.Dither.NONE)
        if previous is None:
            frame = _Frame(indexed, (0, 0), duration, delta=False)
        else:
            difference = ImageChops.subtract_modulo(indexed, previous)  # palette indices
            changed = difference.getbbox(alpha_only=False)
            if changed is None:  # the same picture: the frame before shows longer
                assert waiting is not None
                waiting = waiting._replace(duration=waiting.duration + duration)
                continue
            shown = indexed.copy()
            shown.paste(TRANSPARENT, mask=difference.point([255, *(0,) * 255], "1"))
            frame = _Frame(shown.crop(changed), changed[:2], duration, delta=True)
        if waiting is not None:
            out.append(waiting.encode())
        waiting, previous = frame, indexed
    assert waiting is not None
    out.append(waiting.encode())
    return b"".join(out) + b";"  # the GIF trailer


class _Frame(NamedTuple):
    """One GIF frame: its picture (the changed box only, after the first), where it goes,
    for how long."""

    image: Image.Image
    offset: tuple[int, int]
    duration: int
    delta: bool
    """True after the first frame: `TRANSPARENT` pixels show the frame before through."""

    def encode(self) -> bytes:
        """The frame's bytes, left on screen under the next one (disposal 1)."""
        params = {"duration": self.duration, "disposal": 1}
        if self.delta:
            params["transparency"] = TRANSPARENT
        return b"".join(GifImagePlugin.getdata(self.image, self.offset, **params))


FALLBACK_WIDTHS = (600, 480)
"""Narrower GIFs tried, in order, when an animation at `MAX_WIDTH` is too big."""

MIN_SAMPLED_FRAMES = 8
"""The fewest frames a sampled animation (the last resort for a huge game) keeps."""


@dataclass(frozen=True)
class FittedAnimation:
    """A GIF made to fit a size, and how many of its frames it shows (all, unless sampled)."""

    data: bytes
    shown: int
    frames: int

    @property
    def sampled(self) -> bool:
        """True when some frames had to be left out to fit."""
        return self.shown < self.frames


def fitting_animation(
    frames: Sequence[bytes], captions: Sequence[str], *, limit: int | None,
    max_width: int = MAX_WIDTH, max_frames: int | None = None,
) -> FittedAnimation:
    """The captioned GIF of `frames` in at most `limit` bytes: narrower if need be, sampled
    (first and last kept) only as a last resort, or from the start down to `max_frames`."""
    keep = sample_indices(len(frames), max_frames or len(frames))
    widths = [max_width, *(w for w in FALLBACK_WIDTHS if w < max_width)]
    while True:
        for width in widths:
            data = animate([frames[i] for i in keep], captions=[captions[i] for i in keep],
                           max_width=width)
            if limit is None or len(data) <= limit:
                return FittedAnimation(data, len(keep), len(frames))
        if len(keep) <= MIN_SAMPLED_FRAMES:
            return FittedAnimation(data, len(keep), len(frames))
        keep = sample_indices(len(frames), max(MIN_SAMPLED_FRAMES, len(keep) // 2))
        widths = widths[-1:]
