"""The Qawale renderer: valid, deterministic PNGs that show what the view and hints say."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from PIL import Image

from engines import GAMES
from engines.grid import Cell
from renderers import render
from renderers.common import NEUTRAL, WIN, seat_colour
from renderers.qawale import HEIGHT, TOP_RADIUS, WIDTH, _badge_centre, _top_centre
from tests.renderers.pixels import close as _close
from tests.renderers.pixels import image as _image
from tests.renderers.pixels import pixel as _pixel
from tests.renderers.pixels import rgb as _rgb

QAWALE = GAMES["qawale"]
MIDGAME = "1,n,n,-/1,-,-,n/n,nn0,0,0/-,n,n10,- 1 4 5"
"""Bob (seat 1) to move; c1 holds n,1,0 (bottom first)."""
TALL = "nn0101n01n,-,-,-/-,-,-,-/n,-,n,nn/-,-,0101,- 1 3 3"
"""a4 holds a stack of ten."""
ROW_WIN = "nn,-,-,nn/-,-,-,-/n,n,n,n/0,0,0,0 1 4 8"
"""Seat 0 shows four on row 1: the game is over."""


def _view(position: str) -> dict[str, Any]:
    return QAWALE.from_position(position).view(None)


def test_png_decodes_at_the_phone_friendly_size() -> None:
    png = render(QAWALE.new_state(2).view(0))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    image.verify()
    assert image.size == (WIDTH, HEIGHT) == (800, 900)


@pytest.mark.parametrize(
    ("highlight", "preview"), [(None, False), ("b3:SES", False), ("c1:NN", True)]
)
def test_same_input_gives_identical_bytes(highlight: str | None, preview: bool) -> None:
    view = _view(MIDGAME)
    first = render(view, highlight, preview=preview, names=["Alice", "Bob"])
    second = render(copy.deepcopy(view), highlight, preview=preview, names=["Alice", "Bob"])
    assert first == second


def test_rendering_does_not_modify_the_view() -> None:
    view = _view(MIDGAME)
    before = copy.deepcopy(view)
    render(view, "c1:NN", preview=True)
    assert view == before


def test_image_changes_when_the_position_changes() -> None:
    state = QAWALE.new_state(2)
    before = render(state.view(None))
    state.apply("a1:NNN")
    assert render(state.view(None)) != before


def test_highlighting_the_last_move_changes_the_image() -> None:
    view = _view(MIDGAME)
    assert render(view, "b3:SES") != render(view)


def test_preview_looks_different_from_the_same_move_played() -> None:
    view = _view(MIDGAME)
    assert render(view, "c1:NNNE", preview=True) != render(view, "c1:NNNE")


def test_partial_preview_renders_and_grows_with_each_step() -> None:
    view = _view(MIDGAME)
    images = [render(view, text, preview=True) for text in ("c1", "c1:", "c1:N", "c1:NN")]
    assert images[0] == images[1]  # a bare cell is the same stage as "c1:"
    assert len(set(images[1:])) == 3
    assert render(view) not in images


def test_preview_marks_each_cell_with_the_pebble_that_will_land_there() -> None:
    # c1 holds n,1,0 and Bob (seat 1) adds his own: n, 1, 0, 1 land on c2, c3, c4, d4.
    png = render(_view(MIDGAME), "c1:NNNE", preview=True)
    expected = [(Cell(2, 1), NEUTRAL.fill), (Cell(2, 2), seat_colour(1).fill),
                (Cell(2, 3), seat_colour(0).fill), (Cell(3, 3), seat_colour(1).fill)]
    for cell, fill in expected:
        x, y = _badge_centre(cell, 0, 1)
        # Left of the step number, inside the marker disc.
        assert _close(_pixel(png, (x - 10, y)), _rgb(fill)), cell


def test_unreadable_highlight_is_ignored_rather_than_failing() -> None:
    view = _view(MIDGAME)
    assert render(view, "not a move") == render(view)
    assert render(view, "z9:N", preview=True) == render(view)


def test_path_running_off_the_board_still_renders() -> None:
    view = _view(MIDGAME)
    preview = _image(render(view, "d2:EEN", preview=True))
    assert preview.size == _image(render(view)).size
    assert render(view, "d2:EEN", preview=True) != render(view), "the path is drawn"


def test_winning_line_is_drawn_across_the_four_cells() -> None:
    view = _view(ROW_WIN)
    assert view["result"] == {"winners": [0], "scores": None, "reason": "line"}
    plain = copy.deepcopy(view)
    plain["winning_lines"] = []
    with_line, without = render(view), render(plain)
    assert with_line != without
    # Just past the ring of b1's pebble, towards c1, the stripe shows.
    x, y = _top_centre(Cell(1, 0))
    between = (x + TOP_RADIUS + 14, y)
    assert _close(_pixel(with_line, between), _rgb(WIN))
    assert not _close(_pixel(without, between), _rgb(WIN))


def test_top_pebble_is_drawn_in_its_owners_colour() -> None:
    png = render(_view(MIDGAME))
    x, y = _top_centre(Cell(2, 0))  # c1's top pebble is seat 0's
    assert _close(_pixel(png, (x + 30, y + 12)), _rgb(seat_colour(0).fill))


def test_stack_of_ten_renders_with_every_band() -> None:
    view = _view(TALL)
    assert len(view["stacks"]["a4"]) == 10
    image = _image(render(view, "a4:SSSENWSENWN", preview=True))
    assert image.size == (WIDTH, HEIGHT)


def test_names_appear_in_place_of_the_defaults() -> None:
    view = _view(MIDGAME)
    assert render(view) == render(view, names=None)
    assert render(view, names=["Alice", "Bob"]) != render(view)


def test_finished_draw_renders() -> None:
    # Every pebble played, no line: a draw.
    view = _view("n0,n0,n1,n1/n1,n1,n0,n0/0,0,1,1/1,1,0,0 0 0 0")
    assert view["result"]["winners"] == [0, 1]
    _image(render(view, names=["Alice", "Bob"]))


def test_unknown_game_raises_value_error() -> None:
    with pytest.raises(ValueError, match="no renderer"):
        render({"game": "chess"})
    with pytest.raises(ValueError):
        render({})
