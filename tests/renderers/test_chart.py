"""The rating chart: the line goes up and down with the ratings, over round ratings, with the
last one and the dates written readably on a phone."""

from __future__ import annotations

import pytest

from renderers.chart import (
    HEIGHT,
    LAST_SIZE,
    LINE,
    PLOT_BOTTOM,
    PLOT_LEFT,
    PLOT_RIGHT,
    PLOT_TOP,
    WIDTH,
    RatingChartView,
    rating_ticks,
    render_rating_chart,
    tick_label,
)
from renderers.recording import recording
from renderers.units import MIN_PHONE_PX
from tests.renderers.pixels import close, image, rgb

DATES = {"first": "3 Nov 2026", "last": "27 Nov 2026"}


def chart(ratings: list[float], first: str = DATES["first"],
          last: str = DATES["last"]) -> RatingChartView:
    """A chart view of `ratings`."""
    return RatingChartView(ratings=ratings, first=first, last=last)


def line_height(png: bytes, x: float) -> float:
    """The mean height (picture y) of the line's pixels in the column at `x`."""
    picture = image(png)
    ys = [y for y in range(round(PLOT_TOP) - 10, round(PLOT_BOTTOM) + 10)
          if close(picture.getpixel((round(x), y)), rgb(LINE), 30)]
    assert ys, f"no line at x={x}"
    return sum(ys) / len(ys)


def test_the_chart_is_a_png_as_wide_as_a_board() -> None:
    png = render_rating_chart(chart([0.0, 1.5, 0.7, 3.2]))
    assert image(png).size == (WIDTH, HEIGHT)
    assert len(png) < 150 * 1024


@pytest.mark.parametrize(("ratings", "rising"), [([0.0, 2.0, 5.0, 9.0], True),
                                                  ([12.0, 8.0, 3.5, -2.0], False)])
def test_the_line_goes_up_when_the_rating_does(ratings: list[float], rising: bool) -> None:
    png = render_rating_chart(chart(ratings))
    start, end = line_height(png, PLOT_LEFT + 12), line_height(png, PLOT_RIGHT - 12)
    assert (end < start) is rising  # picture y grows downwards


def test_round_ratings_the_last_rating_and_both_dates_are_written_readably() -> None:
    with recording() as drawn:
        render_rating_chart(chart([0.0, 4.2, 11.9, 27.34]))
    texts = [d.what for d in drawn if d.kind == "text"]
    assert texts[:4] == ["0", "10", "20", "30"], "the grid's ratings, from the bottom"
    assert "27.3" in texts and DATES["first"] in texts and DATES["last"] in texts
    for item in drawn:
        assert item.phone_size >= MIN_PHONE_PX, item
        x0, y0, x1, y1 = item.box
        assert min(x0, y0) >= 0 and x1 <= WIDTH and y1 <= HEIGHT, item


@pytest.mark.parametrize("ratings", [[0.0, -12.34], [49.95, 48.0, 49.96]])
def test_a_long_last_rating_stays_inside_the_picture(ratings: list[float]) -> None:
    with recording() as drawn:
        render_rating_chart(chart(ratings))
    [label] = [d for d in drawn if d.kind == "text" and d.size == LAST_SIZE]
    assert label.what == f"{ratings[-1]:.1f}"
    assert label.box[2] <= WIDTH - 16, "inside the panel"


def test_a_single_game_day_writes_its_date_once() -> None:
    with recording() as drawn:
        render_rating_chart(chart([0.0, 1.4], first="27 Nov 2026", last="27 Nov 2026"))
    assert [d.what for d in drawn].count("27 Nov 2026") == 1


def test_an_empty_chart_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one rating"):
        render_rating_chart(chart([]))


@pytest.mark.parametrize(("low", "high", "expected"), [
    (0.0, 9.0, [0.0, 5.0, 10.0]),
    (-3.2, 27.9, [-10.0, 0.0, 10.0, 20.0, 30.0]),
    (1.0, 1.4, [1.0, 1.5]),
    (2.0, 2.0, [1.5, 2.0, 2.5]),
    (0.0, 0.0, [-0.5, 0.0, 0.5]),
])
def test_the_grid_is_round_ratings_covering_every_rating(
    low: float, high: float, expected: list[float]
) -> None:
    assert rating_ticks(low, high) == expected


def test_tick_labels_are_whole_unless_the_step_is_under_a_point() -> None:
    assert tick_label(20.0, 10.0) == "20"
    assert tick_label(1.5, 0.5) == "1.5"
    assert tick_label(-0.0, 0.5) == "0"
