"""Animated replays: frames in, a captioned looping GIF out; long games faster, and small."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageChops, ImageDraw

from renderers.animation import (
    CAPTION_HEIGHT,
    FRAME_MS,
    MIN_FRAME_MS,
    animate,
    fit_text,
    frame_duration,
    sample_indices,
)


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


def _frames(gif: Image.Image) -> list[Image.Image]:
    frames = []
    for index in range(gif.n_frames):
        gif.seek(index)
        frames.append(gif.convert("RGB"))
    return frames


def test_each_frame_gets_its_caption_under_the_picture() -> None:
    same = _png("white", (200, 100))
    gif = Image.open(io.BytesIO(animate([same, same], captions=["1. Alice: a1", "2. Bob: b2"])))
    assert gif.size == (200, 100 + CAPTION_HEIGHT) and gif.n_frames == 2
    first, second = _frames(gif)
    changed = ImageChops.difference(first, second).getbbox()
    assert changed is not None and changed[1] >= 100  # only the caption strip differs


def test_a_caption_too_long_is_cut_with_an_ellipsis() -> None:
    assert fit_text("short", 400) == "short"
    cut = fit_text("Alice: " + "b2:NNE " * 40, 300)
    assert cut.endswith("…") and len(cut) < 60


def test_captions_must_match_the_frames() -> None:
    with pytest.raises(ValueError, match="captions"):
        animate([_png("red")], captions=["a", "b"])
    with pytest.raises(ValueError, match="at least one frame"):
        animate([])


def test_long_games_play_faster_but_never_too_fast() -> None:
    assert frame_duration(1) == frame_duration(20) == FRAME_MS
    assert MIN_FRAME_MS < frame_duration(80) < FRAME_MS
    assert frame_duration(500) == MIN_FRAME_MS
    gif = Image.open(io.BytesIO(animate([_png("red"), _png("blue")] * 50)))
    gif.seek(1)
    assert gif.info["duration"] == frame_duration(100)


def test_frames_that_change_a_little_cost_little() -> None:
    """One palette for all frames and no dithering: a frame stores only what changed."""
    base = Image.new("RGB", (600, 600), "#f4efe3")
    draw = ImageDraw.Draw(base)
    for i in range(0, 600, 20):  # a detailed picture: costly to store whole
        draw.line((0, i, 600, 600 - i), fill=(i % 256, 80, 160), width=3)
    frames = []
    for i in range(40):
        frame = base.copy()
        ImageDraw.Draw(frame).ellipse((10 * i, 10 * i, 10 * i + 30, 10 * i + 30), fill="#d81b72")
        out = io.BytesIO()
        frame.save(out, format="PNG")
        frames.append(out.getvalue())
    one = len(animate(frames[:1]))
    forty = len(animate(frames, captions=[f"{i}. Alice: a{i}" for i in range(40)]))
    assert forty < 6 * one


def test_a_frame_the_same_as_the_one_before_only_shows_it_longer() -> None:
    gif = Image.open(io.BytesIO(animate([_png("red"), _png("red"), _png("blue")],
                                        frame_ms=500, hold_ms=3000)))
    assert gif.n_frames == 2
    gif.seek(0)
    assert gif.info["duration"] == 1000


def test_every_frame_shows_exactly_its_picture_where_it_changes_back_and_forth() -> None:
    """Only changed pixels are stored, the rest left transparent: what a viewer sees at each
    step is still the whole picture of that step."""
    pictures = []
    for step in range(6):
        picture = Image.new("RGB", (120, 90), "#f4efe3")
        draw = ImageDraw.Draw(picture)
        draw.rectangle((10 * step, 10, 10 * step + 30, 40), fill="#d81b72")
        if step % 2:
            draw.rectangle((0, 60, 119, 89), fill="#1b5ed8")  # comes and goes
        pictures.append(picture)
    pngs = []
    for picture in pictures:
        out = io.BytesIO()
        picture.save(out, format="PNG")
        pngs.append(out.getvalue())
    shown = _frames(Image.open(io.BytesIO(animate(pngs))))
    assert len(shown) == len(pictures)
    for seen, picture in zip(shown, pictures, strict=True):
        assert ImageChops.difference(seen, picture).getbbox() is None
