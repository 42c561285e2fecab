"""The Granat renderer: valid, deterministic PNGs that show the position, the move and notes."""

from __future__ import annotations

import copy
import io
from typing import Any

from PIL import Image

from engines import GAMES
from engines.granat import MoveKind
from renderers import render
from renderers.granat import (
    BLUE,
    FOOTER,
    HEIGHT,
    MUST_CAPTURE,
    PAWN_RADIUS,
    RED,
    WIDTH,
    cell_centre,
    must_capture,
)
from renderers.recording import recording
from tests.renderers.pixels import close, how_they_differ
from tests.renderers.pixels import pixel as _pixel
from tests.renderers.pixels import rgb as _rgb

GRANAT = GAMES["granat"]
BEFORE_DOUBLE = ["i1>e3", "c13-d12", "e3-h6", "i15>g15", "a1>a3", "g15>i15", "a3-f8",
                 "a15>a13", "c3-d4"]
"""Blue to move, and it must capture: a13xg7 or a13xg7xi5 (both Red garnet pawns)."""


def _close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 14) -> bool:
    return close(a, b, tolerance)


def _state(moves: list[str]) -> Any:
    state = GRANAT.new_state(2)
    for move in moves:
        state.apply(move)
    return state


def test_png_decodes_at_the_portrait_size() -> None:
    png = render(GRANAT.new_state(2).view(None))
    image = Image.open(io.BytesIO(png))
    image.verify()
    assert image.size == (WIDTH, HEIGHT) == (800, 1110)


def test_same_input_gives_identical_bytes_and_leaves_the_view_alone() -> None:
    view = _state(BEFORE_DOUBLE).view(None)
    before = copy.deepcopy(view)
    first = render(view, "a13xg7xi5", preview=True, names=["Alice", "Bob"])
    again = render(copy.deepcopy(view), "a13xg7xi5", preview=True, names=["Alice", "Bob"])
    assert again == first, how_they_differ(first, again)
    assert view == before


def test_pawns_are_drawn_red_and_blue_where_they_stand() -> None:
    png = render(GRANAT.new_state(2).view(None))
    x, y = cell_centre("c1")
    assert _close(_pixel(png, (x + 12, y + 12)), _rgb(RED.fill))
    x, y = cell_centre("c15")
    assert _close(_pixel(png, (x + 12, y + 12)), _rgb(BLUE.fill))


def test_image_changes_when_the_position_changes_and_with_the_last_move() -> None:
    state = GRANAT.new_state(2)
    start = render(state.view(None))
    state.apply("c3-d4")
    moved = render(state.view(None))
    assert moved != start
    assert render(state.view(None), "c3-d4") != moved


def test_preview_differs_from_the_same_move_played_and_between_moves() -> None:
    view = _state(BEFORE_DOUBLE).view(None)
    long_one = render(view, "a13xg7xi5", preview=True)
    assert long_one != render(view, "a13xg7", preview=True)
    assert long_one != render(view, "a13xg7xi5")


def test_captured_pawns_are_left_as_crossed_ghosts() -> None:
    state = _state(BEFORE_DOUBLE)
    state.apply("a13xg7xi5")
    view = state.view(None)
    assert view["last_captured"] == ["f8", "h6"]
    with_move = render(view, "a13xg7xi5")
    x, y = cell_centre("h6")
    # Beside the cross, the faded Red disc shows through the board colour.
    ghost = _pixel(with_move, (x, y - 18))
    assert ghost[0] > ghost[2] + 40  # reddish
    assert _pixel(render(view), (x, y - 18)) != ghost


def test_the_early_stop_and_the_garnet_cell_notes_change_the_picture() -> None:
    state = _state(BEFORE_DOUBLE)
    state.apply("a13xg7xi5")
    view = state.view(None)
    assert view["players"][0]["may_stop_early"]
    quiet = copy.deepcopy(view)
    quiet["players"][0]["may_stop_early"] = False
    assert render(view) != render(quiet)
    protecting = copy.deepcopy(quiet)
    protecting["garnet_cell"]["status"] = "protecting"
    protecting["garnet_cell"]["occupant"] = {"seat": 1, "colour": "blue", "garnet": True}
    assert render(protecting) != render(quiet)


def test_unreadable_highlight_is_ignored_rather_than_failing() -> None:
    view = GRANAT.new_state(2).view(None)
    assert render(view, "not a move") == render(view)
    assert render(view, "z9-z10", preview=True) == render(view)


def test_a_finished_game_renders_with_names() -> None:
    state = _state(BEFORE_DOUBLE)
    view = state.view(None)
    view["result"] = {"winners": [1], "scores": None, "reason": "captured_all"}
    assert render(view, names=["Alice", "Bob"]) != render(view)


def test_the_pawns_that_must_capture_are_ringed() -> None:
    state = _state(BEFORE_DOUBLE)
    view = state.view(None)
    capturers = sorted({str(move.start) for move in state.legal_moves()
                        if move.kind is MoveKind.CAPTURE})
    assert view["capture_due"] and must_capture(view) == capturers == ["a13"]
    with recording() as drawn:
        png = render(view, names=["Alice", "Bob"])
    ringed = [d for d in drawn if d.what == "must capture"]
    assert [((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2) for d in ringed] == \
        [cell_centre("a13")]
    x, y = cell_centre("a13")
    ring = (x + PAWN_RADIUS + 11, y)
    assert _close(_pixel(png, ring), _rgb(MUST_CAPTURE))
    # No capture due: no ring, on the same spot or anywhere.
    quiet = GRANAT.new_state(2).view(None)
    assert not quiet["capture_due"] and must_capture(quiet) == []
    with recording() as drawn:
        render(quiet)
    assert not [d for d in drawn if d.what == "must capture"]


def test_the_footer_lines_are_never_cut_off() -> None:
    # Two notes at once used to share one line, cut with "…": "/resign" never showed.
    state = _state(BEFORE_DOUBLE)
    state.apply("a13xg7xi5")
    view = copy.deepcopy(state.view(None))
    view["garnet_cell"]["status"] = "protecting"
    view["garnet_cell"]["occupant"] = {"seat": 1, "colour": "blue", "garnet": True}
    assert view["players"][0]["may_stop_early"]
    for highlight in (None, "a13xg7xi5"):
        with recording() as drawn:
            render(view, highlight, names=["Alice", "Bob"])
        footer = [d for d in drawn if d.kind == "text" and d.box[1] >= FOOTER[1]]
        said = " ".join(d.what for d in footer)
        assert "protects all Blue pawns this move" in said
        assert "may stop: /resign" in said
        if highlight:
            assert "Last: a13xg7xi5 —" in said
        for line in footer:
            assert line.box[3] <= HEIGHT - 4 and line.box[2] <= WIDTH - 20, line
        notes = [d for d in footer if "Last:" not in d.what]
        assert not [d.what for d in notes if d.what.endswith("…")]


def test_a_long_move_description_wraps_onto_a_second_line() -> None:
    state = _state(BEFORE_DOUBLE)
    state.apply("a13xg7xi5")
    view = state.view(None)
    view["players"][0]["may_stop_early"] = False
    with recording() as drawn:
        render(view, "a13xg7xi5")
    footer = [d.what for d in drawn if d.kind == "text" and d.box[1] >= FOOTER[1]]
    description = view["last_move_description"]
    assert " ".join(footer[:2]) == f"Last: a13xg7xi5 — {description}"


def test_the_garnet_cell_pill_hides_no_cell_and_no_pawn() -> None:
    # The "MUST LEAVE" pill once sat beside e8, over the pawn on g9.
    from renderers.granat import BOARD_BOX, _cell_names

    position = ("1 R:a1,e1,g1,i1,b2,d2,h2*,c3,i3,b4*,c5,e5,f6 B:a15,c15,e15*,g15,i15,h14,"
                "a13,c13,e13,g13,d10,f10,g9,e8* 3")
    view = GRANAT.from_position(position).view(None)
    for status, word in (("must_leave", "MUST LEAVE"), ("protecting", "PROTECTS")):
        view["garnet_cell"]["status"] = status
        for highlight, preview in ((None, False), ("g9-h8", True)):
            with recording() as drawn:
                render(view, highlight, preview=preview, names=["Alice", "Bob"])
            pill = next(d for d in drawn if d.kind == "text" and d.what == word)
            pawns = [d for d in drawn if d.kind == "marker" and d.what == "pawn"]
            assert len(pawns) == 27
            cells = [(x - PAWN_RADIUS, y - PAWN_RADIUS, x + PAWN_RADIUS, y + PAWN_RADIUS)
                     for x, y in map(cell_centre, _cell_names())]
            assert not [box for box in [d.box for d in pawns] + cells
                        if _overlaps(box, pill.box)]
            assert pill.box[1] >= BOARD_BOX[3]  # in the footer, by the notes about e8
            others = [d.what for d in drawn if d.kind == "text" and d is not pill
                      and _overlaps(d.box, pill.box)]
            assert others == []


def _overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def test_a_note_too_long_for_its_line_is_drawn_smaller_never_cut() -> None:
    # English: "…and may stop: /resign" wrapped onto a third note line, then dropped unseen.
    view = GRANAT.from_position("1 R:i1,b2,d2,f2,e3,g3,i3,f4,f6,e8 B:b14,d14,f14,a13,d12,"
                                "i11,f10,h10,g9 0").view(None)
    assert view["garnet_cell"]["status"] == "neutral"
    assert all(player["may_stop_early"] for player in view["players"])
    for language in ("en", "fr"):
        with recording() as drawn:
            render(view, "e7-e8", names=["Alice", "Bob"], language=language)
        footer = [d for d in drawn if d.kind == "text" and d.box[1] >= FOOTER[1]]
        assert len(footer) == 3
        assert footer[-1].what.endswith(": /resign") and footer[-1].size >= 20
        assert not [d.what for d in footer if d.what.endswith("…")]
        assert all(d.box[2] <= WIDTH - 20 for d in footer)


def test_more_notes_than_lines_end_in_an_ellipsis_rather_than_vanish() -> None:
    from renderers.common import Canvas
    from renderers.granat import _note_lines

    canvas = Canvas(WIDTH, HEIGHT)
    notes = ["A neutral pawn on e8: yellow lines count as black",
             "Red and Blue have lost both garnet pawns and may stop: /resign",
             "Green rings: the pawns that must capture"]
    laid = _note_lines(canvas, notes, WIDTH - 48, 2)
    assert len(laid) == 2 and laid[0][0] == notes[0]
    assert laid[1][0].startswith("Red and Blue") and laid[1][0].endswith("…")
    assert [text for text, _size in _note_lines(canvas, notes, WIDTH - 48, 3)] == notes
