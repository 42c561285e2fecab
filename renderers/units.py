"""The units every drawing is measured in: colours, logical points and boxes, and the size a
picture is shown at on a phone."""

from __future__ import annotations

Colour = str
"""A Pillow colour: "#rrggbb"."""
Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""Left, top, right, bottom."""

PHONE_WIDTH = 360
"""How wide a phone shows a board picture (Discord's chat column), in screen pixels."""
MIN_PHONE_PX = 9
"""The smallest font size and marker, in screen pixels, once a picture is shown that wide."""


def min_size(canvas_width: float) -> float:
    """The smallest font size or marker, in logical pixels, on a canvas this wide."""
    return MIN_PHONE_PX * canvas_width / PHONE_WIDTH
