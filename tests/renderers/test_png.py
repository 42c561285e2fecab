"""Palette PNGs written with ISA-L's deflate decode to exactly the picture encoded."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from renderers.encoding import encode_png
from renderers.png import palette_png


def decoded(png: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(png))
    picture.load()
    return picture


def test_a_palette_picture_decodes_to_the_same_indices_and_colours() -> None:
    picture = Image.effect_mandelbrot((123, 77), (-2, -1.5, 1, 1.5), 100).convert(
        "RGB").quantize(64)
    back = decoded(palette_png(picture))
    assert (back.mode, back.size) == ("P", (123, 77))
    assert back.tobytes() == picture.tobytes()
    assert back.convert("RGB").tobytes() == picture.convert("RGB").tobytes()


def test_a_one_pixel_picture_with_a_one_colour_palette_is_a_valid_png() -> None:
    picture = Image.new("P", (1, 1), 0)
    picture.putpalette([10, 20, 30])
    assert decoded(palette_png(picture)).convert("RGB").getpixel((0, 0)) == (10, 20, 30)


def test_a_board_picture_is_encoded_as_a_palette_png_that_keeps_its_colours() -> None:
    board = Image.new("RGB", (40, 30), (250, 245, 230))
    board.paste((30, 90, 200), (5, 5, 20, 20))
    back = decoded(encode_png(board))
    assert back.mode == "P" and back.convert("RGB").tobytes() == board.tobytes()


def test_a_picture_that_is_not_an_opaque_palette_one_is_refused() -> None:
    with pytest.raises(ValueError, match="opaque palette"):
        palette_png(Image.new("RGB", (2, 2)))
    transparent = Image.new("P", (2, 2), 0)
    transparent.info["transparency"] = 0
    with pytest.raises(ValueError, match="opaque palette"):
        palette_png(transparent)
