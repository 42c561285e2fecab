"""Graps board picture: 15×15 vineyard, both lands, vines, the last pawn, what was just removed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image

from engines.base import IllegalMove
from engines.graps import GRAPS, GRID, LAND_ROWS, SIZE, GrapsPawnView, GrapsView
from engines.grid import Cell
from i18n import N_, _, ngettext
from renderers.common import (
    BOARD,
    CELL,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    TEXT,
    WHITE,
    WIN,
    BoardGeometry,
    Canvas,
    StatusChip,
    draw_coordinates,
    draw_pill,
    draw_status_bar,
    inset,
    seat_colour,
)
from renderers.encoding import reference_palette
from renderers.units import Colour, Point
from renderers.words import Phrase, initials, player_name, result_headline

WIDTH, HEIGHT = 800, 1010
HEADER = (0.0, 0.0, float(WIDTH), 128.0)
CELL_SIZE = 46
GEOMETRY = BoardGeometry(left=58, top=160, cell=CELL_SIZE, cols=SIZE, rows=SIZE)
INFO = (0.0, HEIGHT - 104.0, float(WIDTH), float(HEIGHT))
"""The band under the board: the die face to place, what the last grape removed."""

GRAPE_RADIUS = 19.0
BLANK_RADIUS = 12.5
"""Blanks are drawn much smaller than grapes: the face reads by size, not only by its dots."""
VINE_WIDTH = 9.0
LAND_TINTS: tuple[Colour, ...] = ("#c9d4ee", "#fde0b8")
"""Light tints of each seat's colour for its land row (seat 0 navy, seat 1 orange)."""
LEGAL_MARK = "#2e8b57"
LEGAL_RADIUS = 10.0
"""Half the legal-cell diamond's width: 20 px wide, still readable on a phone."""
COORDINATE_SIZE = 21
FACE_WORDS = {"grape": N_("GRAPE"), "blank": N_("BLANK")}
"""The face rolled, under the die (translated where drawn)."""
PLACE_FACE = {"grape": N_("{0}: place a grape"), "blank": N_("{0}: place a blank")}
"""The headline while a face waits to be placed ({0}: the player)."""
END_REASONS = {
    "land_reached": (N_("{0} wins — land reached!"), N_("{0}'s vine reached {1}'s land")),
    "closest": (N_("{0} wins — closest vine"), N_("Stocks empty: {0}'s vine is closer")),
    "blockade": (N_("{0} wins — blockade"), N_("{1} left {0} no cell at all")),
    "draw": ("", N_("Stocks empty, vines as close: draw")),
}
"""Per end reason: the headline ({0}: the winner), and the longer sentence under the board
({0}: the winner, {1}: the other player); all translated where drawn."""
LAST_PLACED = {"grape": N_("Last: grape on {cell}"), "blank": N_("Last: blank on {cell}")}


def render_graps(
    view: GrapsView,
    highlight: str | None = None,
    *,
    preview: bool = False,
    names: Sequence[str] | None = None,
) -> bytes:
    """PNG of a Graps view: the last pawn ringed, removed pawns as crossed ghosts.

    `highlight` is a cell to ring as well (with `preview`: a proposed placement, dashed).
    """
    pawns: dict[Cell, GrapsPawnView] = {GRID.parse(name): pawn
                                            for name, pawn in view["pawns"].items()}
    canvas = _empty_board().copy()
    _draw_header(canvas, view, names)
    if view.get("result") is None and not preview:
        _draw_legal_cells(canvas, view)
    _draw_vines(canvas, pawns)
    for cell, pawn in sorted(pawns.items()):
        _draw_pawn(canvas, cell, int(pawn["seat"]), str(pawn["face"]))
    _draw_removed(canvas, view)
    last = view.get("last_placement")
    if last:
        _ring(canvas, GRID.parse(last["cell"]), dashed=False)
    marked = _cell(highlight)
    if marked is not None and (not last or str(marked) != last["cell"] or preview):
        if preview:
            _draw_pawn(canvas, marked, _mover(view), view.get("face") or "blank", ghost=True)
        _ring(canvas, marked, dashed=preview)
    _draw_info(canvas, view, names, preview)
    return canvas.to_png(_palette)


def _cell(text: str | None) -> Cell | None:
    """The cell named by `text`, or None (a pass, or an unreadable hint, must not fail)."""
    if not text or not text.strip():
        return None
    try:
        return GRID.parse(text)
    except IllegalMove:
        return None


def _mover(view: GrapsView) -> int:
    return int(view.get("to_move") or 0)



def _palette() -> Image.Image:
    """The PNG palette of this game's boards (see `reference_palette`, which keeps it), chosen
    on first use."""
    return reference_palette(render_graps, GRAPS, players=(2,), plies=(0, 24, 60, 10_000))


# -- the empty board -------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _empty_board() -> Canvas:
    """Board, lands and coordinates, drawn once: every picture starts from a copy of it."""
    canvas = Canvas(WIDTH, HEIGHT)
    canvas.rect(inset(GEOMETRY.box, -8), BOARD, radius=14)
    draw_coordinates(canvas, GEOMETRY, size=COORDINATE_SIZE, gap=11,
                     sides=("left", "bottom", "right"))
    for seat, row in enumerate(LAND_ROWS):
        # A bar in the owner's colour runs outside the land row, so the land shows even
        # when every cell on it is covered.
        _, y0, _, y1 = GEOMETRY.cell_box(Cell(0, row - 1))
        outside = (y1 + 3, y1 + 11) if row == 1 else (y0 - 11, y0 - 3)
        canvas.rect((GEOMETRY.left, outside[0], GEOMETRY.right, outside[1]),
                    seat_colour(seat).fill, radius=4)
    for cell in GRID.cells():
        fill = CELL
        for seat, row in enumerate(LAND_ROWS):
            if cell.row == row - 1:
                fill = LAND_TINTS[seat]
        canvas.rect(inset(GEOMETRY.cell_box(cell), 1.5), fill, radius=5)
    return canvas


# -- header and the band under the board -------------------------------------------------------


def _draw_header(canvas: Canvas, view: GrapsView, names: Sequence[str] | None) -> None:
    result = view.get("result")
    current = view.get("current_player")
    headline, seat = result_headline(result, current, names)
    face = view.get("face")
    if result is None and seat is not None and face:
        opening = view.get("phase") == "setup"
        template = (_("{0}: place an opening grape") if opening
                    else _(PLACE_FACE.get(face, PLACE_FACE["blank"])))
        headline = Phrase(template, (player_name(names, seat),))
    elif result is not None:
        winners = result.get("winners") or []
        reason = END_REASONS.get(result.get("reason", ""))
        if len(winners) == 1 and reason and reason[0]:
            headline = Phrase(_(reason[0]), (player_name(names, winners[0]),))
    elif current is not None and current < 0:
        headline = Phrase(_("Rolling the die…"))
    stocks = list(view.get("stocks") or [0, 0])
    chips = [StatusChip(seat=s, name=player_name(names, s),
                        detail=_("{n} in stock").format(n=stocks[s]),
                        active=result is None and current == s)
             for s in (0, 1)]
    draw_status_bar(canvas, HEADER, headline, seat, chips, marks=initials(names, 2))


def _draw_info(
    canvas: Canvas, view: GrapsView, names: Sequence[str] | None, preview: bool
) -> None:
    x0, y0, x1, y1 = INFO
    canvas.rect((x0, y0, x1, y1), PANEL)
    mid = (y0 + y1) / 2
    face = view.get("face")
    result = view.get("result")
    if result is None and face:
        # The die: a white square showing the face to place now, drawn as the pawn itself.
        mover = _mover(view)
        die = (x0 + 22, mid - 36, x0 + 94, mid + 36)
        canvas.rect(die, WHITE, INK, 3, radius=14)
        centre = ((die[0] + die[2]) / 2, (die[1] + die[3]) / 2)
        _draw_piece(canvas, centre, mover, face, scale=1.45)
        rolled = _("Opening grape") if view.get("phase") == "setup" else _("Rolled")
        word = _(FACE_WORDS[face]) if face in FACE_WORDS else face.upper()
        canvas.text((die[2] + 18, mid - 16), rolled, 22, MUTED, bold=True, anchor="lm")
        canvas.text((die[2] + 18, mid + 16), word, 32, TEXT, bold=True, anchor="lm")
    elif result is not None:
        winners = list(result.get("winners") or [])
        winner = winners[0] if len(winners) == 1 else 0
        template = END_REASONS.get(result.get("reason", ""), ("", N_("Game over")))[1]
        sentence = Phrase(_(template),
                          (player_name(names, winner), player_name(names, 1 - winner)))
        canvas.text((x0 + 24, mid), canvas.fit_phrase(sentence, 30, x1 - x0 - 48, bold=True),
                    30, WIN, bold=True, anchor="lm")
        return
    if preview:
        draw_pill(canvas, (x1 - 22, mid), _("PREVIEW — not played yet"), 22, HIGHLIGHT)
        return
    _draw_removed_legend(canvas, view, names, (x0 + 330, y0, x1 - 22, y1))


def _draw_removed_legend(
    canvas: Canvas, view: GrapsView, names: Sequence[str] | None,
    box: tuple[float, float, float, float],
) -> None:
    removed = view["last_removed"]
    pruned, cut = list(removed["pruned"]), list(removed["cut"])
    x0, y0, x1, y1 = box
    mid = (y0 + y1) / 2
    if not pruned and not cut:
        last = view.get("last_placement")
        if last:
            template = LAST_PLACED.get(last["face"], LAST_PLACED["blank"])
            text = _(template).format(cell=last["cell"])
            canvas.text((x1, mid), text, 24, MUTED, bold=True, anchor="rm")
        return
    owner = int(removed.get("owner") or 0)
    parts = []
    if pruned:
        parts.append(ngettext("{n} pruned", "{n} pruned", len(pruned)).format(n=len(pruned)))
    if cut:
        parts.append(ngettext("{n} cut off", "{n} cut off", len(cut)).format(n=len(cut)))
    # The counts go in as plain text: only the owner's name may shrink to fit.
    template = _("{0}'s vine: {removed}").replace(
        "{removed}", ", ".join(parts).replace("{", "{{").replace("}", "}}"))
    phrase = Phrase(template, (player_name(names, owner),))
    text = canvas.fit_phrase(phrase, 24, x1 - x0 - 50, bold=True)
    width = canvas.text_width(text, 24, bold=True)
    _draw_ghost(canvas, (x1 - width - 26, mid), owner, 15)
    canvas.text((x1, mid), text, 24, TEXT, bold=True, anchor="rm")


# -- the pieces ------------------------------------------------------------------------------


def _draw_legal_cells(canvas: Canvas, view: GrapsView) -> None:
    """A small hollow diamond on every cell where the face to place may go now."""
    r = LEGAL_RADIUS
    for name in view.get("legal_cells") or []:
        x, y = GEOMETRY.centre(GRID.parse(name))
        canvas.marker("legal cell", (x - r, y - r, x + r, y + r))
        canvas.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], LEGAL_MARK)


def _draw_vines(canvas: Canvas, pawns: Mapping[Cell, GrapsPawnView]) -> None:
    """A stem between side-adjacent pawns of one player: the plants read at a glance."""
    for cell, pawn in pawns.items():
        seat = int(pawn["seat"])
        for neighbour in (cell.step(1, 0), cell.step(0, 1)):
            other = pawns.get(neighbour)
            if other is not None and int(other["seat"]) == seat:
                colour = seat_colour(seat)
                ends = [GEOMETRY.centre(cell), GEOMETRY.centre(neighbour)]
                canvas.line(ends, colour.outline, VINE_WIDTH + 3)
                canvas.line(ends, colour.fill, VINE_WIDTH)


def _draw_pawn(canvas: Canvas, cell: Cell, seat: int, face: str, *, ghost: bool = False) -> None:
    centre = GEOMETRY.centre(cell)
    if ghost:
        with canvas.layer(0.55) as layer:
            _draw_piece(layer, centre, seat, face)
    else:
        _draw_piece(canvas, centre, seat, face)


def _draw_piece(canvas: Canvas, centre: Point, seat: int, face: str, scale: float = 1.0) -> None:
    """One pawn: seat 0 round, seat 1 square-ish (shape as well as colour); a grape is big
    and carries a bunch of berries, a blank is small and plain."""
    colour = seat_colour(seat)
    radius = (GRAPE_RADIUS if face == "grape" else BLANK_RADIUS) * scale
    _body(canvas, centre, radius, seat, max(2.0, radius * 0.14))
    if face == "grape":
        _bunch(canvas, centre, radius, colour.ink)


def _body(canvas: Canvas, centre: Point, radius: float, seat: int, outline: float) -> None:
    x, y = centre
    colour = seat_colour(seat)
    if seat == 1:
        r = radius * 0.92
        canvas.rect((x - r, y - r, x + r, y + r), colour.fill, colour.outline, outline,
                    radius=r * 0.38)
    else:
        canvas.circle(centre, radius, colour.fill, colour.outline, outline)


def _bunch(canvas: Canvas, centre: Point, radius: float, ink: Colour) -> None:
    """A grape bunch: 3 + 2 + 1 berries in a downward triangle, under a little stem."""
    x, y = centre
    berry = radius * 0.17
    pitch = berry * 2.15
    top = y - radius * 0.22
    for row, count in enumerate((3, 2, 1)):
        cy = top + row * pitch * 0.9
        for k in range(count):
            cx = x + (k - (count - 1) / 2) * pitch
            canvas.circle((cx, cy), berry, ink)
    canvas.line([(x, top - berry * 1.2), (x + berry * 1.3, top - berry * 2.6)], ink,
                max(1.2, berry * 0.6))


def _ring(canvas: Canvas, cell: Cell, *, dashed: bool) -> None:
    x0, y0, x1, y1 = inset(GEOMETRY.cell_box(cell), 0.5)
    canvas.marker("ring", (x0, y0, x1, y1))
    if dashed:
        canvas.dashed_line([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], HIGHLIGHT, 4,
                           dash=8, gap=6)
    else:
        canvas.rect((x0 - 1.5, y0 - 1.5, x1 + 1.5, y1 + 1.5), None, WHITE, 2, radius=7)
        canvas.rect((x0, y0, x1, y1), None, HIGHLIGHT, 4.5, radius=6)


def _draw_removed(canvas: Canvas, view: GrapsView) -> None:
    """Pawns the last grape removed: a hollow ghost of the owner's shape, crossed out."""
    removed = view["last_removed"]
    owner = removed["owner"]
    if owner is None:
        return
    for name in [*(removed.get("pruned") or []), *(removed.get("cut") or [])]:
        cell = _cell(name)
        if cell is not None and name not in view["pawns"]:
            _draw_ghost(canvas, GEOMETRY.centre(cell), int(owner), GRAPE_RADIUS * 0.85)


def _draw_ghost(canvas: Canvas, centre: Point, seat: int, radius: float) -> None:
    x, y = centre
    canvas.marker("removed pawn", (x - radius, y - radius, x + radius, y + radius))
    colour = seat_colour(seat)
    if seat == 1:
        r = radius * 0.92
        canvas.rect((x - r, y - r, x + r, y + r), None, colour.outline, 2.5, radius=r * 0.38)
    else:
        canvas.circle(centre, radius, None, colour.fill, 2.5)
    d = radius * 0.62
    for a, b in (((x - d, y - d), (x + d, y + d)), ((x - d, y + d), (x + d, y - d))):
        canvas.line([a, b], INK, 5.5)
        canvas.line([a, b], HIGHLIGHT, 3.5)
