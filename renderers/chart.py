"""A member's rating over their rated games of one game, as a line chart (`/stats game:`).

Pure like the board renderers: the chart's view in, PNG bytes out. The view carries the
dates already written in the member's language, so the picture has no words of its own.
"""

from __future__ import annotations

import math
from typing import TypedDict

from renderers.common import BACKGROUND, MUTED, PANEL, PANEL_RAISED, TEXT, Canvas
from renderers.units import Point

WIDTH, HEIGHT = 800, 420
PLOT_LEFT, PLOT_RIGHT = 110.0, 680.0
"""The plot's sides: room for the ratings on the left and the last one's label on the right."""
PLOT_TOP, PLOT_BOTTOM = 50.0, 320.0
DATES_Y = 360.0
LINE: str = "#56b4e9"
"""The rating line: the sky blue of the seat colours, clear on the dark panel."""
LINE_WIDTH = 4.0
DOTS_UP_TO = 30
"""Each game gets its own dot on the line up to this many games (beyond, they would merge)."""
TICKS = 4
"""About how many steps the rating axis is cut into."""
LABEL_SIZE = 22.0
LAST_SIZE = 28.0


class RatingChartView(TypedDict):
    """What a rating chart shows: the ratings in the order they were reached (the first is
    the rating before the first game shown), and the first and last game's dates."""

    ratings: list[float]
    first: str
    last: str


def rating_ticks(low: float, high: float) -> list[float]:
    """Round ratings from at most `low` to at least `high`, about `TICKS` steps apart (a
    step of 1, 2 or 5 times a power of ten; a range of at least one point)."""
    span = max(high - low, 1.0)
    raw = span / TICKS
    magnitude = 10.0 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw * (1 - 1e-9))
    first = math.floor(low / step + 1e-9) * step
    last = math.ceil(high / step - 1e-9) * step
    if last - first < step / 2:  # one flat value: a step either side
        first, last = first - step, last + step
    count = round((last - first) / step)
    return [round(first + index * step, 6) for index in range(count + 1)]


def tick_label(value: float, step: float) -> str:
    """A tick's rating: whole numbers for steps of a point or more, else one decimal."""
    text = f"{value:.0f}" if step >= 1 else f"{value:.1f}"
    return "0" if text in ("-0", "-0.0") else text


def render_rating_chart(view: RatingChartView) -> bytes:
    """PNG of the ratings as a line over a grid of round ratings, the last one labelled."""
    ratings = view["ratings"]
    if not ratings:
        raise ValueError("a rating chart needs at least one rating")
    canvas = Canvas(WIDTH, HEIGHT, BACKGROUND)
    canvas.rect((16, 16, WIDTH - 16, HEIGHT - 16), PANEL, radius=18)
    ticks = rating_ticks(min(ratings), max(ratings))
    low, high = ticks[0], ticks[-1]
    step = ticks[1] - ticks[0]

    def y_of(rating: float) -> float:
        return PLOT_BOTTOM - (rating - low) / (high - low) * (PLOT_BOTTOM - PLOT_TOP)

    for tick in ticks:
        y = y_of(tick)
        canvas.rect((PLOT_LEFT, y - 1, PLOT_RIGHT, y + 1), PANEL_RAISED)
        canvas.text((PLOT_LEFT - 16, y), tick_label(tick, step), LABEL_SIZE, MUTED, anchor="rm")
    gap = (PLOT_RIGHT - PLOT_LEFT) / max(len(ratings) - 1, 1)
    points: list[Point] = [(PLOT_LEFT + index * gap if len(ratings) > 1 else PLOT_RIGHT,
                            y_of(rating)) for index, rating in enumerate(ratings)]
    if len(points) > 1:
        canvas.line(points, LINE, LINE_WIDTH)
    if len(points) <= DOTS_UP_TO:
        for point in points[:-1]:
            canvas.circle(point, 5, LINE)
    last = points[-1]
    radius = canvas.min_size / 2  # the last game's dot: a marker, as big as a phone needs
    canvas.circle(last, radius, LINE, TEXT, 2.5)
    canvas.marker("last rating", (last[0] - radius, last[1] - radius, last[0] + radius,
                                  last[1] + radius))
    canvas.text((last[0] + radius + 8, last[1]), f"{ratings[-1]:.1f}", LAST_SIZE, TEXT, bold=True,
                anchor="lm")
    if view["first"] != view["last"]:
        canvas.text((PLOT_LEFT, DATES_Y), view["first"], LABEL_SIZE, MUTED, anchor="lm")
    canvas.text((PLOT_RIGHT, DATES_Y), view["last"], LABEL_SIZE, MUTED, anchor="rm")
    return canvas.to_png()


__all__ = ["RatingChartView", "rating_ticks", "render_rating_chart", "tick_label"]
