"""The Graps renderer: valid, deterministic PNGs that show lands, faces, the last pawn, removals."""

from __future__ import annotations

import copy
from typing import Any

from engines import GAMES
from engines.graps import GrapsState
from engines.grid import Cell
from renderers import render
from renderers.common import CELL, HIGHLIGHT, seat_colour
from renderers.graps import GEOMETRY, HEIGHT, LAND_TINTS, LEGAL_MARK, WIDTH
from tests.renderers.pixels import close
from tests.renderers.pixels import image as _image
from tests.renderers.pixels import pixel as _pixel
from tests.renderers.pixels import rgb as _rgb

GRAPS = GAMES["graps"]
EMPTY_ROW = "." * 15


def _close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 14) -> bool:
    return close(a, b, tolerance)


def _position(rows: dict[int, str], tail: str) -> str:
    """A position string from the non-empty rows (row number → 15 characters)."""
    return "/".join(rows.get(r, EMPTY_ROW) for r in range(15, 0, -1)) + " " + tail


PRUNABLE = _position({15: ".......O.......", 14: ".......o.......", 13: "......xo.......",
                      2: "......x........", 1: "......X........"}, "0 grape 40 41")
"""Dark (to place a grape) can prune Light's h13 from g12, which also cuts nothing else."""


def _state(position: str) -> GrapsState:
    return GRAPS.from_position(position)


def _view(position: str) -> dict[str, Any]:
    return _state(position).view(None)


def test_png_decodes_at_the_phone_friendly_size() -> None:
    png = render(GRAPS.new_state(2).view(None))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert _image(png).size == (WIDTH, HEIGHT) == (800, 1010)


def test_same_input_gives_identical_bytes_and_leaves_the_view_alone() -> None:
    view = _view(PRUNABLE)
    before = copy.deepcopy(view)
    first = render(view, "g13", names=["Alice", "Bob"])
    assert render(copy.deepcopy(view), "g13", names=["Alice", "Bob"]) == first
    assert view == before


def test_each_land_row_is_tinted_for_its_owner() -> None:
    png = render(GRAPS.new_state(2).view(None))
    x0, y0, _, _ = GEOMETRY.cell_box(Cell(4, 0))
    assert _close(_pixel(png, (x0 + 6, y0 + 6)), _rgb(LAND_TINTS[0]))
    x0, y0, _, _ = GEOMETRY.cell_box(Cell(4, 14))
    assert _close(_pixel(png, (x0 + 6, y0 + 6)), _rgb(LAND_TINTS[1]))
    x0, y0, _, _ = GEOMETRY.cell_box(Cell(4, 7))
    assert _close(_pixel(png, (x0 + 6, y0 + 6)), _rgb(CELL))


def test_legal_cells_are_marked_for_the_player_to_move() -> None:
    png = render(GRAPS.new_state(2).view(None))  # Dark's opening grape: all of row 1
    assert _close(_pixel(png, GEOMETRY.centre(Cell(3, 0))), _rgb(LEGAL_MARK))
    assert not _close(_pixel(png, GEOMETRY.centre(Cell(3, 1))), _rgb(LEGAL_MARK))


def test_grape_and_blank_differ_in_size_not_only_colour() -> None:
    png = render(_view(PRUNABLE))
    # 15 px right of the centre: inside a grape (radius 19), outside a blank (radius 12.5).
    gx, gy = GEOMETRY.centre(Cell(6, 0))  # g1, Dark grape
    bx, by = GEOMETRY.centre(Cell(6, 1))  # g2, Dark blank
    assert _close(_pixel(png, (gx + 15, gy)), _rgb(seat_colour(0).fill))
    assert not _close(_pixel(png, (bx + 15, by - 8)), _rgb(seat_colour(0).fill))


def test_the_last_pawn_is_ringed_and_pruned_pawns_are_crossed_out() -> None:
    state = _state(PRUNABLE)
    before = render(state.view(None))
    state.apply("g12")
    assert state.pruned == ["h13"]  # and h14, h15 stay linked to Light's land
    png = render(state.view(None))
    assert png != before
    x0, y0, x1, _ = GEOMETRY.cell_box(Cell(6, 11))
    assert _close(_pixel(png, ((x0 + x1) / 2, y0 + 2)), _rgb(HIGHLIGHT), 40)
    # The cross through the ghost of h13 passes through its centre.
    assert _close(_pixel(png, GEOMETRY.centre(Cell(7, 12))), _rgb(HIGHLIGHT), 40)


def test_image_changes_with_the_position_the_names_and_a_preview() -> None:
    state = GRAPS.new_state(2)
    start = render(state.view(None))
    state.apply("h1")
    assert render(state.view(None)) != start
    view = state.view(None)
    assert render(view, names=["Alice", "Bob"]) != render(view)
    assert render(view, "d15", preview=True) != render(view)


def test_a_pass_or_an_unreadable_highlight_is_ignored() -> None:
    view = _view(PRUNABLE)
    assert render(view, "pass") == render(view) == render(view, "zz99")


def test_a_finished_game_renders_without_legal_marks() -> None:
    won = _state(_position({15: "......xO.......", 14: "......x........", 13: "......x........",
                            12: "......x........", 1: "......X........"}, "0 over 30 44"))
    assert won.result().reason == "land_reached"
    png = render(won.view(None), names=["Alice", "Bob"])
    assert not _close(_pixel(png, GEOMETRY.centre(Cell(0, 1))), _rgb(LEGAL_MARK))
