"""Drawing by cached stamps and encoding with a game's palette: the pictures stay the same."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image, ImageChops, ImageDraw

from engines import GAMES
from renderers import render
from renderers.common import BACKGROUND, PANEL, Canvas
from renderers.encoding import encode_png, seeded_position
from renderers.stamps import font, picture_stamp
from tests.renderers.pixels import how_they_differ

Draw = Callable[[ImageDraw.ImageDraw], None]


def _polyline(d: ImageDraw.ImageDraw) -> None:
    d.line([(20, 20), (161, 120), (300, 40)], "#ffd23f", 18, joint="curve")
    d.ellipse((11, 11, 29, 29), "#ffd23f")
    d.ellipse((291, 31, 309, 49), "#ffd23f")


def _largest_difference(a: Image.Image, b: Image.Image) -> int:
    """The largest difference between the two pictures on any channel of any pixel."""
    histogram = ImageChops.difference(a, b).histogram()
    return max(i % 256 for i, count in enumerate(histogram) if count)

SHAPES: dict[str, tuple[Callable[[Canvas], None], Draw]] = {
    # Each shape at fractional positions, with what makes stamps tricky (outlines, solid
    # insides, caps, strokes); then the same drawn the old way, in device pixels (× 2).
    "disc with outline": (
        lambda c: c.circle((40.3, 41.7), 25.5, "#1f3b7a", "#0a1430", 2.5),
        lambda d: d.ellipse((30, 32, 132, 134), "#1f3b7a", "#0a1430", 5)),
    "ring": (
        lambda c: c.circle((60, 50), 30, None, "#d81b72", 4.5),
        lambda d: d.ellipse((60, 40, 180, 160), None, "#d81b72", 9)),
    "rounded box": (
        lambda c: c.rect((10.5, 12, 150, 90.5), "#f4efe3", "#b9a57f", 2, radius=12),
        lambda d: d.rounded_rectangle((21, 24, 300, 181), 24, "#f4efe3", "#b9a57f", 4)),
    "big panel": (
        lambda c: c.rect((4, 4, 156, 96), PANEL, radius=14),
        lambda d: d.rounded_rectangle((8, 8, 312, 192), 28, PANEL)),
    "polyline": (
        lambda c: c.line([(10, 10), (80.5, 60.25), (150, 20)], "#ffd23f", 9),
        _polyline),
    "polygon": (
        lambda c: c.polygon([(20, 80), (80, 10.5), (140, 80)], "#2e8b57", "#004d38"),
        lambda d: d.polygon([(40, 160), (160, 21), (280, 160)], "#2e8b57", "#004d38")),
    "stroked text": (
        lambda c: c.text((80, 50), "Garden 3", 24, "#ffffff", bold=True, anchor="mm",
                         stroke="#2f4f20", stroke_width=2),
        lambda d: d.text((160, 100), "Garden 3", fill="#ffffff", font=font(48, True),
                         anchor="mm", stroke_width=4, stroke_fill="#2f4f20")),
}


@pytest.mark.parametrize("name", SHAPES)
def test_a_stamped_shape_looks_as_drawing_it_supersampled_did(name: str) -> None:
    stamped, direct = SHAPES[name]
    # The first time the shape is drawn and pasted whole; the next times its stamp comes
    # from the cache, cut into tiles (see `renderers.tiles`).
    for _ in range(3):
        canvas = Canvas(160, 100)
        stamped(canvas)
        big = Image.new("RGB", (320, 200), BACKGROUND)
        direct(ImageDraw.Draw(big))
        assert _largest_difference(canvas.image, big.reduce(2)) <= 2  # rounding only


def test_a_layer_blends_as_before() -> None:
    big = Image.new("RGBA", (320, 200), (0, 0, 0, 0))
    ImageDraw.Draw(big).ellipse((100, 40, 220, 160), "#d81b72", "#ffffff", 6)
    shrunk = big.reduce(2)
    expected = Image.new("RGB", (160, 100), BACKGROUND)
    expected.paste(shrunk.convert("RGB"), (0, 0), shrunk.getchannel("A").point(
        lambda a: a * 128 // 255))
    for _ in range(3):  # drawn and pasted whole, then its stamp cut into tiles
        canvas = Canvas(160, 100)
        with canvas.layer(0.5) as layer:
            layer.circle((80, 50), 30, "#d81b72", "#ffffff", 3)
        assert _largest_difference(canvas.image, expected) <= 2


@pytest.mark.parametrize("game,players,moves", [
    ("qawale", 2, 14), ("graps", 2, 24), ("kraut_ruben", 3, 50), ("grabuge", 2, 80),
    ("granat", 2, 20),
])
def test_renders_do_not_leak_into_each_other(game: str, players: int, moves: int) -> None:
    names = ["Ana", "Bo", "Cy", "Di", "Ed"][:players]
    first_state, last = seeded_position(GAMES[game], players, moves, seed=moves)
    other_state, other_last = seeded_position(GAMES[game], players, moves + 7, seed=moves + 7)
    first, other = first_state.view(None), other_state.view(None)
    before = render(first, last, names=names)
    render(other, other_last, preview=True, names=names)
    again = render(first, last, names=names)
    assert again == before, how_they_differ(before, again)


def _decoded(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_a_game_palette_is_used_only_when_it_has_the_picture_s_colours() -> None:
    greys = Image.new("RGB", (16, 16))
    greys.putdata([(v, v, v) for v in range(256)])
    palette = greys.quantize(256)
    picture = Image.new("RGB", (90, 90), "#808080")
    ImageDraw.Draw(picture).rectangle((30, 30, 59, 59), "#202020")
    # Greys only: the game's palette fits, and keeps them.
    assert _decoded(encode_png(picture, palette)).getpixel((40, 40)) == (32, 32, 32)
    # A red square the palette lacks: the picture gets a palette of its own, red included.
    ImageDraw.Draw(picture).rectangle((30, 30, 59, 59), "#c8102e")
    assert _decoded(encode_png(picture, palette)).getpixel((40, 40)) == (200, 16, 46)


def _card_like() -> Image.Image:
    card = Image.new("RGBA", (70, 98), (0, 0, 0, 0))
    draw = ImageDraw.Draw(card)
    draw.rounded_rectangle((0, 0, 69, 97), 8, "#fbf8ef", "#20242a", 2)
    draw.text((6, 4), "Q♥", fill="#c8102e", font=font(20, True))
    return card


@pytest.mark.parametrize("where", [(15, 12), (-20, 40), (120, -30), (140, 60)])
def test_a_pasted_picture_stamp_looks_as_pasting_the_picture_through_its_alpha(
    where: tuple[int, int],
) -> None:
    card = _card_like()
    canvas = Canvas(160, 100, scale=1)
    canvas.paste_stamp(picture_stamp(card), *where)
    expected = Image.new("RGB", (160, 100), BACKGROUND)
    expected.paste(card, where, card)
    assert canvas.image.tobytes() == expected.tobytes()


def test_a_palette_made_after_another_was_let_go_maps_pictures_to_its_own_colours() -> None:
    # A new palette often takes the memory, and so the id, of one just let go.
    for shade in range(40, 240, 10):
        colours = Image.new("RGB", (2, 1))
        colours.putdata([(shade, 0, 0), (0, shade, 0)])
        palette = colours.quantize(2)
        picture = Image.new("RGB", (30, 30), (shade, 0, 0))
        assert _decoded(encode_png(picture, palette)).getpixel((5, 5)) == (shade, 0, 0)
        del palette
