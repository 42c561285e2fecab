"""Granat board picture: the diagonal lattice with its yellow lines, the garnet cell, the pawns,
the last (or proposed) move with the pawns it takes, and the garnet cell's duties."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

from engines.base import EndReason, IllegalMove, Result, ResultDict
from engines.granat import (
    GRANAT,
    GranatPawnView,
    GranatView,
    MoveKind,
    board_geometry,
    description_why,
    parse_notation,
)
from i18n import N_, _
from renderers.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_RAISED,
    TEXT,
    WHITE,
    Canvas,
    SeatColour,
    draw_pill,
    label_size,
)
from renderers.encoding import reference_palette
from renderers.units import Colour, Point
from renderers.words import Phrase, initials, player_name

WIDTH, HEIGHT = 800, 1110
HEADER = (0.0, 0.0, float(WIDTH), 112.0)
FOOTER_LINES = 3
"""The footer's lines: the last move (wrapped when long) and the rules in force."""
FOOTER_LINE = 30.0
FOOTER = (0.0, HEIGHT - 20.0 - FOOTER_LINES * FOOTER_LINE, float(WIDTH), float(HEIGHT))

PITCH_X = 76.0
"""Horizontal distance between neighbouring columns."""
PITCH_Y = 54.0
"""Vertical distance between neighbouring rows (e7, e8, e9 are one row apart: pawns must fit)."""
ORIGIN = (WIDTH / 2 - 4 * PITCH_X, HEADER[3] + 54 + 14 * PITCH_Y)
"""Centre of a1 (column 0, row 0): the board is centred, row 1 at the bottom."""
PAWN_RADIUS = 25.0
BOARD_BOX = (ORIGIN[0] - 42, ORIGIN[1] - 14 * PITCH_Y - 40, ORIGIN[0] + 8 * PITCH_X + 42,
             ORIGIN[1] + 40)

# Seat 0 is Red and seat 1 Blue, as granat.md says; they also differ in lightness and carry
# their player's initials, so colour is never the only cue.
RED = SeatColour("red", "#d7263d", "#ffffff", "#5e0b16")
BLUE = SeatColour("blue", "#1d4fa8", "#ffffff", "#0a1a3d")
SEATS = (RED, BLUE)

BOARD_FILL: Colour = "#efe6d2"
BLACK_LINE: Colour = "#2b2b2b"
YELLOW: Colour = "#f5c400"
YELLOW_CASING: Colour = "#6b5400"
GARNET: Colour = "#8e1537"
GARNET_LIGHT: Colour = "#e05a7d"
GOLD: Colour = "#ffd23f"
DOT: Colour = "#b9ad94"
GHOST_ALPHA = 0.45
MUST_CAPTURE: Colour = "#12a150"
"""The ring around each pawn that can capture when a capture is compulsory."""
BADGE_RADIUS = 15.0
"""Numbered landing badges of a chain capture."""
SMALL_TEXT = 20
"""The smallest text (badges, pills): the smallest readable size on a phone."""


def seat_paint(seat: int) -> SeatColour:
    """How Granat paints `seat`: red for seat 0, blue for seat 1."""
    return SEATS[seat % 2]


@lru_cache(maxsize=1)
def _geometry() -> dict[str, Any]:
    return board_geometry()


@lru_cache(maxsize=1)
def _cell_names() -> frozenset[str]:
    return frozenset(cell["cell"] for cell in _geometry()["cells"])


def cell_centre(name: str) -> Point:
    """The centre of a cell named `c3` on the picture."""
    col = ord(name[0]) - ord("a")
    row = int(name[1:]) - 1
    return (ORIGIN[0] + col * PITCH_X, ORIGIN[1] - row * PITCH_Y)


@dataclass(frozen=True)
class Highlight:
    """A move to mark: its kind, the cells it visits and the cells of the pawns it takes."""

    kind: MoveKind
    path: list[str]
    captured: list[str]
    text: str


def render_granat(
    view: GranatView,
    highlight: str | None = None,
    *,
    preview: bool = False,
    names: Sequence[str] | None = None,
) -> bytes:
    """PNG of a Granat view, with the last (or, in preview, the proposed) move marked."""
    yellow = bool(view.get("yellow_lines_active", True))
    canvas = _empty_board(yellow).copy()
    marked = _highlight(view, highlight, preview)
    preview = preview and marked is not None  # an unreadable proposal shows the plain board
    pawns = {p["cell"]: p for p in view.get("pawns") or []}
    marks = initials(names, 2)
    _draw_header(canvas, view, names, marks)
    for name in must_capture(view):
        _draw_must_capture(canvas, name)
    if marked and not preview:
        _draw_ghosts(canvas, view, marked)
    if marked and preview:
        with canvas.layer(0.85) as layer:
            _draw_path(layer, marked, proposed=True)
    elif marked:
        _draw_path(canvas, marked, proposed=False)
    for name in sorted(pawns):
        _draw_pawn(canvas, pawns[name], marks)
    if marked:
        _draw_marks(canvas, marked, proposed=preview)
    _draw_footer(canvas, view, marked, preview)
    return canvas.to_png(_palette)


def must_capture(view: GranatView) -> list[str]:
    """The pawns ringed as having to capture (capturing is compulsory in Granat).

    When a capture is due, the view's `movable_pawns` are exactly the pawns that can capture:
    the engine then offers captures only (from e8 alone when its garnet pawn must leave).
    """
    if view.get("result") is not None or not view.get("capture_due"):
        return []
    return sorted(view.get("movable_pawns") or [])



def _palette() -> Image.Image:
    """The PNG palette of this game's boards (see `reference_palette`, which keeps it), chosen
    on first use."""
    return reference_palette(render_granat, GRANAT, players=(2,), plies=(0, 10, 20, 40, 10_000))


# -- the move to mark --------------------------------------------------------------------------


def _highlight(view: GranatView, text: str | None, preview: bool) -> Highlight | None:
    """The move to mark; None when absent or unreadable (a bad hint must not lose the board)."""
    if not text or not text.strip():
        return None
    try:
        move = parse_notation(text)
    except IllegalMove:
        return None
    path = [str(cell) for cell in move.cells]
    if not set(path) <= _cell_names():
        return None
    if not preview and str(move) == view.get("last_move"):
        return Highlight(move.kind, path, list(view.get("last_captured") or []), str(move))
    if not preview:
        return Highlight(move.kind, path, [], str(move))
    # A proposed move: the pawns it would take are still on the board; ask the engine which.
    try:
        state = GRANAT.from_position(view["position"])
        captured = [str(cell) for cell in state.captured_cells(move)]
    except (IllegalMove, KeyError, ValueError):
        captured = []
    return Highlight(move.kind, path, captured, str(move))


# -- the empty board ---------------------------------------------------------------------------


@lru_cache(maxsize=2)
def _empty_board(yellow_active: bool) -> Canvas:
    """The lattice without pawns, drawn once per yellow-line state; pictures start from a copy."""
    canvas = Canvas(WIDTH, HEIGHT)
    geometry = _geometry()
    canvas.rect(BOARD_BOX, BOARD_FILL, "#8c7a55", 4, radius=22)
    _draw_halves(canvas)
    black = [link for link in geometry["links"] if link["colour"] == "black"]
    for link in black:
        canvas.line([cell_centre(link["from"]), cell_centre(link["to"])], BLACK_LINE, 3)
    for line in geometry["yellow_lines"]:
        points = [cell_centre(name) for name in line]
        if yellow_active:
            canvas.line(points, YELLOW_CASING, 12)
            canvas.line(points, YELLOW, 8)
        else:
            # A neutral pawn on e8 turns them black: drawn black, with a faint yellow dash.
            canvas.line(points, BLACK_LINE, 3)
            canvas.dashed_line(points, YELLOW, 4, dash=10, gap=14)
    _draw_garnet_cell(canvas)
    for cell in geometry["cells"]:
        if not cell["garnet_cell"]:
            canvas.circle(cell_centre(cell["cell"]), 7, DOT, BLACK_LINE, 2)
    _draw_coordinates(canvas)
    return canvas


def _draw_halves(canvas: Canvas) -> None:
    """Row 8 belongs to neither side's own half: a faint band marks the middle row."""
    y = ORIGIN[1] - 7 * PITCH_Y
    canvas.rect((BOARD_BOX[0] + 4, y - PITCH_Y / 2, BOARD_BOX[2] - 4, y + PITCH_Y / 2), "#e4d6b8")


def _draw_garnet_cell(canvas: Canvas) -> None:
    geometry = _geometry()
    centre = cell_centre(geometry["garnet_cell"])
    for link in geometry["garnet_links"]:
        canvas.line([centre, cell_centre(link)], BLACK_LINE, 5)
    # A garnet-red rounded square, larger than the dots: it is the one special cell.
    size = PAWN_RADIUS + 6
    canvas.rect((centre[0] - size, centre[1] - size, centre[0] + size, centre[1] + size),
                GARNET_LIGHT, GARNET, 4, radius=10)
    _draw_gem(canvas, centre, 12, GARNET, WHITE)


def _draw_coordinates(canvas: Canvas) -> None:
    letters = _geometry()["column_letters"]
    for col, letter in enumerate(letters):
        x = ORIGIN[0] + col * PITCH_X
        canvas.text((x, BOARD_BOX[3] + 20), letter, 24, MUTED, bold=True, anchor="mm")
    for row in range(_geometry()["rows"]):
        y = ORIGIN[1] - row * PITCH_Y
        canvas.text((BOARD_BOX[0] - 12, y), str(row + 1), 22, MUTED, bold=True, anchor="rm")
        canvas.text((BOARD_BOX[2] + 12, y), str(row + 1), 22, MUTED, bold=True, anchor="lm")


# -- pawns -------------------------------------------------------------------------------------


def _draw_gem(canvas: Canvas, centre: Point, size: float, fill: Colour, outline: Colour) -> None:
    """A cut-gem diamond: the garnet marble's mark, a shape and not only a colour."""
    x, y = centre
    outer = [(x, y - size * 1.15), (x + size, y), (x, y + size * 1.15), (x - size, y)]
    grown = [(x, y - size * 1.15 - 3), (x + size + 3, y), (x, y + size * 1.15 + 3),
             (x - size - 3, y)]
    canvas.polygon(grown, outline)
    canvas.polygon(outer, fill)
    canvas.polygon([(x, y - size * 1.15), (x + size * 0.45, y - size * 0.1),
                    (x - size * 0.45, y - size * 0.1)], GARNET_LIGHT)


def _draw_must_capture(canvas: Canvas, name: str) -> None:
    """A green ring, cased in white, round a pawn that can (so must) capture.

    It lies outside the magenta ring of a move's start, so that both show on one pawn.
    """
    x, y = cell_centre(name)
    r = PAWN_RADIUS + 15
    canvas.marker("must capture", (x - r, y - r, x + r, y + r))
    canvas.circle((x, y), r, None, WHITE, 7.5)
    canvas.circle((x, y), r - 1.5, None, MUST_CAPTURE, 4.5)


def _draw_pawn(canvas: Canvas, pawn: GranatPawnView, marks: Sequence[str]) -> None:
    centre = cell_centre(pawn["cell"])
    x, y = centre
    seat = int(pawn["seat"])
    paint = seat_paint(seat)
    canvas.marker("pawn", (x - PAWN_RADIUS, y - PAWN_RADIUS, x + PAWN_RADIUS, y + PAWN_RADIUS))
    if pawn.get("garnet"):
        # Garnet pawns: a gold crown ring around the disc and a gem badge at its foot (the
        # top right corner is for a chain capture's step numbers).
        canvas.circle(centre, PAWN_RADIUS + 5, GOLD, INK, 2)
    canvas.circle(centre, PAWN_RADIUS, paint.fill, paint.outline, 2.5)
    mark = marks[seat] if seat < len(marks) else ""
    canvas.text(centre, mark, label_size(canvas, mark, PAWN_RADIUS), paint.ink, bold=True,
                anchor="mm")
    if pawn.get("garnet"):
        gem = (x + PAWN_RADIUS * 0.8, y + PAWN_RADIUS * 0.75)
        canvas.marker("garnet", (gem[0] - 11, gem[1] - 13, gem[0] + 11, gem[1] + 13))
        _draw_gem(canvas, gem, 11, GARNET, WHITE)
    if pawn.get("stuck"):
        # Stuck on the far back row: a no-entry badge says it can no longer move.
        badge = (x + PAWN_RADIUS * 0.75, y + PAWN_RADIUS * 0.75)
        canvas.marker("stuck", (badge[0] - 10, badge[1] - 10, badge[0] + 10, badge[1] + 10))
        canvas.circle(badge, 10, INK, WHITE, 2)
        canvas.rect((badge[0] - 5.5, badge[1] - 1.75, badge[0] + 5.5, badge[1] + 1.75), WHITE)


def _draw_ghosts(canvas: Canvas, view: GranatView, marked: Highlight) -> None:
    """Pawns the last move took: faded discs of the other side, crossed out."""
    if not marked.captured:
        return
    mover = _mover(view)
    paint = seat_paint(1 - mover) if mover is not None else seat_paint(0)
    with canvas.layer(GHOST_ALPHA) as layer:
        for name in marked.captured:
            layer.circle(cell_centre(name), PAWN_RADIUS, paint.fill, paint.outline, 2.5)


def _mover(view: GranatView) -> int | None:
    """The seat that made the last move (the engine hands the turn over after every move)."""
    to_move = view.get("to_move")
    return 1 - int(to_move) if to_move in (0, 1) else None


def _draw_path(canvas: Canvas, marked: Highlight, *, proposed: bool) -> None:
    points = [cell_centre(name) for name in marked.path]
    start = points[0]
    r = PAWN_RADIUS + 9
    canvas.marker("move start", (start[0] - r, start[1] - r, start[0] + r, start[1] + r))
    canvas.circle(start, r, None, HIGHLIGHT, 5)
    if marked.kind is MoveKind.LOSE_MARBLE or len(points) < 2:
        return
    if marked.kind is MoveKind.MARBLE:
        canvas.arrow(points, HIGHLIGHT, 6, head=20, casing=WHITE, casing_width=2.5, dashed=True)
        return
    # The arrow stops short of the landing disc's centre so its head is not hidden.
    tail = _pull_back(points[-2], points[-1], PAWN_RADIUS * 0.6)
    canvas.arrow([*points[:-1], tail], HIGHLIGHT, 8, head=24, casing=WHITE, casing_width=3,
                 dashed=proposed)


def _pull_back(a: Point, b: Point, by: float) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return (b[0] - dx / length * by, b[1] - dy / length * by)


def _draw_marks(canvas: Canvas, marked: Highlight, *, proposed: bool) -> None:
    """Crosses on the pawns taken, numbered landing cells, the lost marble's cross."""
    for name in marked.captured:
        x, y = cell_centre(name)
        arm = PAWN_RADIUS * 0.7
        for a, b in (((x - arm, y - arm), (x + arm, y + arm)),
                     ((x - arm, y + arm), (x + arm, y - arm))):
            canvas.line([a, b], WHITE, 11)
            canvas.line([a, b], HIGHLIGHT, 6)
    if marked.kind is MoveKind.CAPTURE and len(marked.path) > 2:
        for step, name in enumerate(marked.path[1:], start=1):
            x, y = cell_centre(name)
            bx, by = x + PAWN_RADIUS * 0.8, y - PAWN_RADIUS * 0.8
            r = BADGE_RADIUS
            canvas.marker(f"step {step}", (bx - r, by - r, bx + r, by + r))
            canvas.circle((bx, by), r, HIGHLIGHT, WHITE, 2)
            canvas.text((bx, by), str(step), SMALL_TEXT, WHITE, bold=True, anchor="mm")
    if marked.kind is MoveKind.LOSE_MARBLE:
        x, y = cell_centre(marked.path[0])
        canvas.line([(x - 16, y - 16), (x + 16, y + 16)], HIGHLIGHT, 6)
        canvas.line([(x - 16, y + 16), (x + 16, y - 16)], HIGHLIGHT, 6)
    if proposed:
        canvas.circle(cell_centre(marked.path[-1]), PAWN_RADIUS + 9, None, HIGHLIGHT, 4)


def _garnet_badge(view: GranatView) -> str:
    """The footer's pill when a garnet pawn on e8 protects or must leave; "" otherwise."""
    status = view["garnet_cell"]["status"]
    if status == "protecting":
        return _("PROTECTS")
    return _("MUST LEAVE") if status == "must_leave" else ""


# -- header and footer ------------------------------------------------------------------------


def _draw_header(
    canvas: Canvas, view: GranatView, names: Sequence[str] | None, marks: Sequence[str]
) -> None:
    x0, y0, x1, y1 = HEADER
    canvas.rect(HEADER, PANEL)
    result = view.get("result")
    current = view.get("current_player")
    head_y = y0 + 32
    swatch: int | None
    headline: Phrase
    if result is None:
        swatch = current if current in (0, 1) else None
        headline = (Phrase(_("{0} to play"), (player_name(names, swatch),))
                    if swatch is not None else Phrase(_("Waiting…")))
        if view.get("capture_due"):
            headline += " — " + _("must capture")
    else:
        winners = list(result.get("winners") or [])
        swatch = winners[0] if len(winners) == 1 else None
        headline = _result_headline(result, names)
    x = x0 + 24
    if swatch is not None:
        _draw_swatch(canvas, (x + 20, head_y), 20, swatch, marks)
        x += 52
    canvas.text((x, head_y), canvas.fit_phrase(headline, 32, x1 - 24 - x, bold=True), 32, TEXT,
                bold=True, anchor="lm")
    players = view["players"]
    chip_w = (x1 - x0 - 48 - 12) / 2
    top, bottom = y0 + 60, y1 - 10
    for seat in (0, 1):
        info = players[seat]
        cx0 = x0 + 24 + seat * (chip_w + 12)
        active = result is None and current == seat
        canvas.rect((cx0, top, cx0 + chip_w, bottom), PANEL_RAISED if active else None,
                    TEXT if active else PANEL_RAISED, 2.5, radius=12)
        mid = (top + bottom) / 2
        radius = (bottom - top) / 2 - 2
        _draw_swatch(canvas, (cx0 + 4 + radius, mid), radius, seat, marks)
        detail = f"{info['pawns']} · ◆{info['garnet_pawns']}"
        detail_w = canvas.text_width(detail, 22, bold=True)
        canvas.text((cx0 + chip_w - 12, mid), detail, 22, TEXT, bold=True, anchor="rm")
        text_x = cx0 + 14 + 2 * radius
        room = cx0 + chip_w - 12 - detail_w - 12 - text_x
        canvas.text((text_x, mid), canvas.fit(player_name(names, seat), 22, room), 22, TEXT,
                    anchor="lm")


def _draw_swatch(
    canvas: Canvas, centre: Point, radius: float, seat: int, marks: Sequence[str]
) -> None:
    paint = seat_paint(seat)
    x, y = centre
    canvas.marker("swatch", (x - radius, y - radius, x + radius, y + radius))
    canvas.circle(centre, radius, paint.fill, paint.outline, 2)
    mark = marks[seat] if seat < len(marks) else ""
    canvas.text(centre, mark, label_size(canvas, mark, radius), paint.ink, bold=True,
                anchor="mm")


def _result_headline(result: ResultDict, names: Sequence[str] | None) -> Phrase:
    winners = list(result.get("winners") or [])
    reason = Result.from_dict(result).reason
    if len(winners) != 1:
        return Phrase(_("Draw"))
    winner = (player_name(names, winners[0]),)
    return Phrase(_({
        EndReason.CAPTURED_ALL: N_("{0} wins — every pawn taken"),
        EndReason.NO_MOVES: N_("{0} wins — no move left"),
        EndReason.RESIGNED: N_("{0} wins — resignation"),
    }.get(reason, N_("{0} wins!"))), winner)


def _footer_notes(view: GranatView) -> list[str]:
    """The rules in force right now, in a few words each."""
    notes: list[str] = []
    if view.get("result") is not None:
        return notes
    garnet = view["garnet_cell"]
    occupant = garnet["occupant"]
    red = bool(occupant and occupant["seat"] == 0)
    if garnet["status"] == "protecting":
        notes.append(_("Red's garnet pawn on e8 protects all Red pawns this move") if red
                     else _("Blue's garnet pawn on e8 protects all Blue pawns this move"))
    elif garnet["status"] == "must_leave":
        notes.append(_("Red's garnet pawn must leave e8 now") if red
                     else _("Blue's garnet pawn must leave e8 now"))
    elif garnet["status"] == "neutral":
        notes.append(_("A neutral pawn on e8: yellow lines count as black"))
    stopping = tuple(info["seat"] for info in view["players"] if info["may_stop_early"])
    if stopping:
        # One note for both sides, so that the notes never need more lines than there are.
        if len(stopping) > 1:
            notes.append(_("Red and Blue have lost both garnet pawns and may stop: /resign"))
        elif stopping[0] == 0:
            notes.append(_("Red has lost both garnet pawns and may stop: /resign"))
        else:
            notes.append(_("Blue has lost both garnet pawns and may stop: /resign"))
    if must_capture(view):
        notes.append(_("Green rings: the pawns that must capture"))
    return notes


def _said(words: str) -> str:
    """A move's description (the engine's English) in the current language."""
    why = description_why(words)
    return _(why.template).format(**why.params) if why.params else _(why.template)


NOTE_SIZE = 21
"""The notes' text size; a note a little too long for its line is drawn smaller, down to the
canvas's minimum, rather than wrapped."""


def _draw_footer(
    canvas: Canvas, view: GranatView, marked: Highlight | None, preview: bool
) -> None:
    """The last (or proposed) move, then the rules in force, one per line, wrapped.

    The notes are never cut: they are placed first, and the move gets the lines left. The
    garnet cell's pill (and a preview's) sits at the first line's right end: on the board,
    any place beside e8 would hide a cell, since the lattice leaves no gap wide enough.
    """
    x0, y0, x1, _bottom = FOOTER
    room = x1 - x0 - 48
    notes = _footer_notes(view)
    if not notes and not preview:
        notes = [_("◆ garnet pawn · yellow lines: chain captures · e8: garnet cell")]
    note_lines = _note_lines(canvas, notes, room, FOOTER_LINES - 1)
    first_lines = FOOTER_LINES - len(note_lines)
    # Pills from the first line's right end leftwards; the move's text stops short of them.
    pill_y, pills_left = y0 + 14 + FOOTER_LINE / 2, x1 - 8
    if preview and marked:
        pills_left = draw_pill(canvas, (pills_left - 12, pill_y),
                               _("PREVIEW — not played yet"), SMALL_TEXT, HIGHLIGHT)[0]
    badge = _garnet_badge(view)
    if badge:
        pills_left = draw_pill(canvas, (pills_left - 12, pill_y), badge, SMALL_TEXT, GARNET,
                               WHITE)[0]
    first_room = min(room, pills_left - 20 - (x0 + 24))
    lines: list[tuple[str, Colour, float]] = []
    if preview and marked:
        lines.append((canvas.fit(marked.text, 24, first_room, bold=True), WHITE, 24))
    elif marked:
        description = view.get("last_move_description") if marked.text == view.get(
            "last_move") else None
        line = (_("Last: {move} — {words}").format(
            move=marked.text, words=_said(description)) if description
                else _("Last: {move}").format(move=marked.text))
        lines += [(text, WHITE, 22) for text in canvas.wrap(
            line, 22, room, first_lines, bold=True, first_width=first_room)]
    else:
        lines.append(("Granat", MUTED, 24))
    colour = GOLD if _footer_notes(view) else MUTED
    lines += [(text, colour, size) for text, size in note_lines]
    for row, (text, fill, size) in enumerate(lines[:FOOTER_LINES]):
        y = y0 + 14 + (row + 0.5) * FOOTER_LINE
        canvas.text((x0 + 24, y), text, size, fill, bold=True, anchor="lm")


def _note_lines(
    canvas: Canvas, notes: Sequence[str], room: float, lines: int
) -> list[tuple[str, float]]:
    """`notes` laid on at most `lines` lines of `room`, each line with its text size.

    A note takes one line, drawn a little smaller if need be, or else wraps onto the lines
    the notes after it leave. Only when there are more notes than lines do the last ones
    share the last line, cut with an ellipsis then.
    """
    laid: list[tuple[str, float]] = []
    for index, note in enumerate(notes):
        left, later = lines - len(laid), len(notes) - index - 1
        if left <= 0:
            break
        if left == 1 and later:
            note = " · ".join(notes[index:])
        size = canvas.fitting_size(note, NOTE_SIZE, room, bold=True)
        if canvas.text_width(note, size, bold=True) <= room:
            laid.append((note, size))
        else:
            laid += [(line, NOTE_SIZE) for line in canvas.wrap(
                note, NOTE_SIZE, room, max(1, left - later), bold=True)]
        if left == 1:
            break
    return laid
