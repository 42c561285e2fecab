"""Reading rendered PNGs in renderer tests: decode, sample a pixel, compare colours."""

from __future__ import annotations

import io

from PIL import Image


def image(png: bytes) -> Image.Image:
    """The PNG decoded as RGB."""
    return Image.open(io.BytesIO(png)).convert("RGB")


def pixel(png: bytes, point: tuple[float, float]) -> tuple[int, int, int]:
    """The colour at `point` (rounded to the nearest pixel)."""
    return image(png).getpixel((round(point[0]), round(point[1])))  # type: ignore[return-value]


def rgb(colour: str) -> tuple[int, int, int]:
    """`#rrggbb` as a tuple."""
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 12) -> bool:
    """True when two colours differ by at most `tolerance` on every channel."""
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))
