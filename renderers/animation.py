"""Animated replays: PNG frames in, one looping GIF out (pure and deterministic).

Every frame gets a caption strip ("12. Alice: b2:NNE") under the board. All frames share one
palette, without dithering, so a frame differs from the one before only where the board
changed: the GIF stores just those pixels (the rest are transparent), which keeps a
200-move game to a few megabytes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers.common import BACKGROUND, TEXT, font

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
    """`text`, cut with an ellipsis if it is wider than `width` pixels at `size`."""
    face = font(size, True)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


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
    """One palette for every frame, computed from a few frames spread over the game."""
    picks = sample_indices(len(images), PALETTE_SAMPLES)
    width = max(images[i].width for i in picks)
    sheet = Image.new("RGB", (width, sum(images[i].height for i in picks)), BACKGROUND)
    top = 0
    for i in picks:
        sheet.paste(images[i], (0, top))
        top += images[i].height
    return sheet.quantize(colors=PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT)


def animate(
    frames: Sequence[bytes], *, captions: Sequence[str] | None = None,
    frame_ms: int | None = None, hold_ms: int = HOLD_MS, max_width: int = MAX_WIDTH,
) -> bytes:
    """A looping GIF of the PNG `frames`, each shown `frame_ms` (by default faster for long
    games, see `frame_duration`), the last one `hold_ms`, each over its caption if given."""
    if not frames:
        raise ValueError("an animation needs at least one frame")
    if captions is not None and len(captions) != len(frames):
        raise ValueError(f"{len(captions)} captions for {len(frames)} frames")
    images = [_scaled(data, max_width) for data in frames]
    if captions is not None:
        images = [_captioned(image, caption) for image, caption in zip(images, captions,
                                                                       strict=True)]
    palette = _shared_palette(images)
    indexed = [image.quantize(palette=palette, dither=Image.Dither.NONE) for image in images]
    each = frame_duration(len(frames)) if frame_ms is None else frame_ms
    durations = [each] * (len(indexed) - 1) + [hold_ms]
    out = io.BytesIO()
    indexed[0].save(out, format="GIF", save_all=True, append_images=indexed[1:],
                    duration=durations, loop=0, optimize=True, disposal=1)
    return out.getvalue()
