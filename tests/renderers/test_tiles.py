"""Cutting a stamp's coverage into tiles: what is pasted through it, filled, or skipped."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from renderers.stamps import font
from renderers.tiles import Cut, cut

INK = (200, 16, 46)
BACKGROUND = (240, 236, 226)


def _outline(size: tuple[int, int]) -> Image.Image:
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((1, 1, size[0] - 2, size[1] - 2), 9, None, 255, 2)
    return mask


def _diagonal(size: tuple[int, int]) -> Image.Image:
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).line((3, 3, size[0] - 4, size[1] - 4), 255, 5)
    return mask


def _text(size: tuple[int, int]) -> Image.Image:
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).text((4, 2), "Zoé to move · turn 12", 255, font(22, True))
    return mask


def _noise(size: tuple[int, int]) -> Image.Image:
    rng = random.Random(3)
    mask = Image.new("L", size, 0)
    draw = ImageDraw.Draw(mask)
    for _ in range(12):
        x, y = rng.randrange(size[0]), rng.randrange(size[1])
        draw.ellipse((x, y, x + rng.randrange(2, 40), y + rng.randrange(2, 40)),
                     rng.choice((255, 255, 90)))
    return mask


MASKS = {
    "panel outline": _outline((301, 117)),
    "diagonal line": _diagonal((203, 150)),
    "text": _text((270, 30)),
    "blobs": _noise((157, 93)),
    "solid block": Image.new("L", (70, 21), 255),
    "nothing": Image.new("L", (50, 50), 0),
    "one pixel": Image.new("L", (1, 1), 128),
}


def _pasted_whole(mask: Image.Image) -> Image.Image:
    picture = Image.new("RGB", mask.size, BACKGROUND)
    picture.paste(INK, (0, 0, *mask.size), mask)
    return picture


def _pasted_cut(mask: Image.Image, regions: Cut) -> Image.Image:
    picture = Image.new("RGB", mask.size, BACKGROUND)
    for region in regions.partial:
        picture.paste(INK, region, mask.crop(region))
    for region in regions.full:
        picture.paste(INK, region)
    return picture


def _area(regions: tuple[tuple[int, int, int, int], ...]) -> int:
    return sum((right - left) * (bottom - top) for left, top, right, bottom in regions)


@pytest.mark.parametrize("name", MASKS)
def test_pasting_the_cut_gives_the_same_picture_as_pasting_the_whole_mask(name: str) -> None:
    mask = MASKS[name]
    assert _pasted_cut(mask, cut(mask)).tobytes() == _pasted_whole(mask).tobytes()


def test_an_outline_s_untouched_inside_is_not_pasted() -> None:
    mask = MASKS["panel outline"]
    regions = cut(mask)
    assert not regions.full
    # A 2-pixel edge round a 301 × 117 box: a few thousand pixels, not the 35,000 of the box.
    assert _area(regions.partial) < 0.15 * mask.width * mask.height


def test_what_a_shape_covers_entirely_is_filled_not_pasted_through() -> None:
    regions = cut(MASKS["solid block"])
    assert regions.partial == ()
    assert _area(regions.full) == 70 * 21


def test_a_mask_that_covers_nothing_pastes_nothing() -> None:
    assert cut(MASKS["nothing"]) == Cut((), ())


def test_a_faint_pixel_alone_in_its_tile_is_still_pasted() -> None:
    mask = Image.new("L", (64, 64), 0)
    mask.putpixel((37, 29), 1)
    regions = cut(mask)
    assert regions.partial == ((37, 29, 38, 30),)
    assert _pasted_cut(mask, regions).tobytes() == _pasted_whole(mask).tobytes()


def test_a_colour_picture_is_refused() -> None:
    with pytest.raises(ValueError, match="'L' coverage"):
        cut(Image.new("RGB", (8, 8)))
