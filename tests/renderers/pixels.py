"""Reading rendered PNGs in renderer tests: decode, sample a pixel, compare colours."""

from __future__ import annotations

import io

from PIL import Image, ImageChops


def image(png: bytes) -> Image.Image:
    """The PNG decoded as RGB."""
    return Image.open(io.BytesIO(png)).convert("RGB")


def pixel(png: bytes, point: tuple[float, float]) -> tuple[int, int, int]:
    """The colour at `point` (rounded to the nearest pixel)."""
    value = image(png).getpixel((round(point[0]), round(point[1])))
    # An RGB image gives a 3-tuple for every pixel.
    assert isinstance(value, tuple) and len(value) == 3
    return (int(value[0]), int(value[1]), int(value[2]))


def rgb(colour: str) -> tuple[int, int, int]:
    """`#rrggbb` as a tuple."""
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 12) -> bool:
    """True when two colours differ by at most `tolerance` on every channel."""
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def how_they_differ(first: bytes, second: bytes) -> str:
    """Where two PNGs that should be the same differ: for a failing test to say."""
    a, b = image(first), image(second)
    if a.size != b.size:
        return f"sizes {a.size} and {b.size}"
    box = ImageChops.difference(a, b).getbbox()
    if box is None:
        return "the same pixels, in different bytes (palette or compression)"
    # The box's corner need not differ itself: name the first pixel that does.
    pairs = zip(a.getdata(), b.getdata(), strict=True)
    differing = [index for index, (ours, theirs) in enumerate(pairs) if ours != theirs]
    first_at = (differing[0] % a.width, differing[0] // a.width)
    return (f"{len(differing)} pixels differ, within {box}; first at {first_at}: "
            f"{a.getpixel(first_at)} and {b.getpixel(first_at)}")
