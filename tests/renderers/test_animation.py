"""Animated replays: frames in, a looping GIF out; long games sampled."""

from __future__ import annotations

import io
import itertools

from PIL import Image

from renderers.animation import animate, sample_indices


def _png(colour: str, size=(80, 60)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="PNG")
    return out.getvalue()


def test_one_gif_frame_per_png_with_the_last_one_held() -> None:
    gif = Image.open(io.BytesIO(animate([_png("red"), _png("green"), _png("blue")],
                                        frame_ms=500, hold_ms=3000)))
    assert gif.format == "GIF" and gif.n_frames == 3 and gif.info["loop"] == 0
    durations = []
    for index in range(3):
        gif.seek(index)
        durations.append(gif.info["duration"])
    assert durations == [500, 500, 3000]


def test_wide_frames_are_scaled_down() -> None:
    gif = Image.open(io.BytesIO(animate([_png("red", (1600, 800))], max_width=400)))
    assert gif.size == (400, 200)


def test_sampling_keeps_first_last_and_spreads_the_rest() -> None:
    assert sample_indices(5, 60) == [0, 1, 2, 3, 4]
    picked = sample_indices(500, 60)
    assert len(picked) == 60 and picked[0] == 0 and picked[-1] == 499
    assert picked == sorted(set(picked))
    gaps = {b - a for a, b in itertools.pairwise(picked)}
    assert max(gaps) - min(gaps) <= 1
