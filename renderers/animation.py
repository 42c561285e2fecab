"""Animated replays: PNG frames in, one looping GIF out (pure and deterministic)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

FRAME_MS = 1200
"""How long each position shows: long enough to follow one move."""

HOLD_MS = 5000
"""How long the final position is held before the loop starts again."""

MAX_FRAMES = 60
"""Longer games are sampled down to this many frames (first and last always kept)."""

MAX_WIDTH = 720
"""Frames wider than this are scaled down, to keep the GIF small enough to upload."""


def sample_indices(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """At most `limit` indices of `range(count)`: the first, the last and evenly spaced ones."""
    if count <= limit:
        return list(range(count))
    if limit <= 1:
        return [count - 1]
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


def animate(
    frames: Sequence[bytes], *, frame_ms: int = FRAME_MS, hold_ms: int = HOLD_MS,
    max_width: int = MAX_WIDTH,
) -> bytes:
    """A looping GIF of the PNG `frames`, each shown `frame_ms`, the last one `hold_ms`."""
    if not frames:
        raise ValueError("an animation needs at least one frame")
    images = []
    for data in frames:
        with Image.open(io.BytesIO(data)) as opened:
            image = opened.convert("RGB")
        if image.width > max_width:
            height = round(image.height * max_width / image.width)
            image = image.resize((max_width, height), Image.Resampling.LANCZOS)
        images.append(image.quantize(colors=255, method=Image.Quantize.FASTOCTREE))
    durations = [frame_ms] * (len(images) - 1) + [hold_ms]
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:],
                   duration=durations, loop=0, optimize=False, disposal=1)
    return out.getvalue()
