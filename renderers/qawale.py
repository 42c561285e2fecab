"""Qawale board picture: every stack's full composition, the last or proposed sowing, lines."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from engines.base import IllegalMove
from engines.grid import Cell
from engines.qawale import GRID, QAWALE, QawaleMove, QawaleView, parse_notation, path_cells
from i18n import _, ngettext
from renderers.common import (
    BOARD,
    CELL,
    HIGHLIGHT,
    INK,
    INK_MUTED,
    MUTED,
    NEUTRAL,
    WHITE,
    WIN,
    BoardGeometry,
    Canvas,
    SeatColour,
    StatusChip,
    draw_coordinates,
    draw_footer,
    draw_piece,
    draw_pill,
    draw_status_bar,
    inset,
    seat_colour,
)
from renderers.encoding import reference_palette
from renderers.units import Point
from renderers.words import Phrase, initials, player_name, result_headline

WIDTH, HEIGHT = 800, 900
HEADER = (0.0, 0.0, float(WIDTH), 128.0)
CELL_SIZE = 162
GEOMETRY = BoardGeometry(left=(WIDTH - 4 * CELL_SIZE) / 2, top=144, cell=CELL_SIZE,
                         cols=GRID.cols, rows=GRID.rows)
FOOTER = (0.0, HEIGHT - 52.0, float(WIDTH), float(HEIGHT))

# Inside a cell (offsets from its top-left corner). The top pebble is the big disc: it
# alone counts for lines. The thin column on the left shows the whole stack, bottom first.
TOP_CENTRE = (98.0, 80.0)
TOP_RADIUS = 50.0
COLUMN_X = (11.0, 38.0)
COLUMN_Y = (42.0, CELL_SIZE - 13.0)
BAND_PITCH_MAX = 24.0
BADGE_RADIUS = 19.0
"""Step badges: their number is 1.1 radii tall, at least the smallest readable size."""
NEXT_RADIUS = 12.0
"""Pebbles still to sow, in the preview's footer."""
PATH_NODE = (TOP_CENTRE[0] + 36.0, TOP_CENTRE[1] + 38.0)
"""Where the sowing path crosses a cell: the disc's lower right, clear of its letter."""
HEIGHT_LABEL = (COLUMN_X[0] + 1.0, 25.0)
"""The stack height tops its column, away from path lanes and winning stripes."""


def pebble_colour(pebble: str) -> SeatColour:
    """Paint for a pebble code: "n" neutral, "0"/"1" a seat."""
    return NEUTRAL if pebble == "n" else seat_colour(int(pebble))


def pebble_label(pebble: str, marks: Sequence[str]) -> str:
    """What a pebble carries: its owner's initials, nothing on a neutral one."""
    return "" if pebble == "n" else marks[int(pebble)]


@dataclass(frozen=True)
class Sowing:
    """A (possibly partial) sowing to draw: its origin and the on-board cells it reaches."""

    move: QawaleMove
    cells: list[Cell]
    """Landing cells in order, stopped at the first one off the board."""
    hand: list[str]
    """The pebbles picked up, bottom first, the mover's own last (for previews)."""
    needed: int
    """Steps a complete sowing from this origin takes."""

    @property
    def landing(self) -> list[tuple[Cell, str | None]]:
        """Each landing cell with the pebble that lands there (None past the hand)."""
        return [(cell, self.hand[i] if i < len(self.hand) else None)
                for i, cell in enumerate(self.cells)]


def render_qawale(
    view: QawaleView,
    highlight: str | None = None,
    *,
    preview: bool = False,
    names: Sequence[str] | None = None,
) -> bytes:
    """PNG of a Qawale view, with the last (or, in preview, the proposed) move marked."""
    stacks: dict[Cell, list[str]] = {GRID.parse(name): list(stack)
                                     for name, stack in view["stacks"].items()}
    current = view.get("current_player")
    sowing = _sowing(highlight, stacks, current)

    marks = initials(names, 2)
    canvas = _empty_board().copy()
    _draw_header(canvas, view, names, marks)
    _draw_stacks(canvas, stacks, marks)
    winning = [[GRID.parse(name) for name in line] for line in view.get("winning_lines") or []]
    if winning:
        _draw_winning_lines(canvas, winning, stacks, marks)
    # The path goes over the discs (clear of their letters) but under the stack columns,
    # so that the composition of every stack stays whole.
    if sowing and preview:
        with canvas.layer(0.85) as layer:
            _draw_sowing(layer, sowing, proposed=True)
    elif sowing:
        _draw_sowing(canvas, sowing, proposed=False)
    for cell in GRID.cells():
        _draw_column(canvas, cell, stacks.get(cell, []))
    if sowing:
        _draw_badges(canvas, sowing, proposed=preview)
    _draw_footer(canvas, sowing, preview)
    return canvas.to_png(_palette)



def _palette() -> Image.Image:
    """The PNG palette of this game's boards (see `reference_palette`, which keeps it), chosen
    on first use."""
    return reference_palette(render_qawale, QAWALE, players=(2,), plies=(0, 14, 40, 10_000))


# -- the move to highlight -----------------------------------------------------------------


def _sowing(
    highlight: str | None, stacks: Mapping[Cell, list[str]], current: int | None
) -> Sowing | None:
    """Read `highlight`; None when absent or unreadable (a bad hint must not lose the board)."""
    if not highlight or not highlight.strip():
        return None
    text = highlight.strip()
    if ":" not in text:
        text += ":"  # a bare cell is the first stage of composing a move
    try:
        move = parse_notation(text)
    except IllegalMove:
        return None
    if not GRID.contains(move.cell):
        return None
    cells: list[Cell] = []
    for cell in path_cells(move):
        if not GRID.contains(cell):
            break
        cells.append(cell)
    # Pebbles leave the picked-up stack bottom first; the mover's pebble goes last.
    hand = [*stacks.get(move.cell, [])]
    if current in (0, 1):
        hand.append(str(current))
    return Sowing(move, cells, hand, len(stacks.get(move.cell, [])) + 1)


# -- header, footer --------------------------------------------------------------------------


def _draw_header(
    canvas: Canvas, view: QawaleView, names: Sequence[str] | None, marks: Sequence[str]
) -> None:
    result = view.get("result")
    current = view.get("current_player")
    headline, seat = result_headline(result, current, names)
    if result is not None:
        winners = result.get("winners") or []
        if len(winners) == 1:
            headline = Phrase(_("{0} wins — four in a row!"),
                              (player_name(names, winners[0]),))
        elif view.get("winning_lines"):
            headline = Phrase(_("Draw — both colours made a line"))
        else:
            headline = Phrase(_("Draw — all pebbles played, no line"))
    stocks = list(view.get("stocks") or [0, 0])
    chips = [
        StatusChip(seat=s, name=player_name(names, s),
                   detail=(ngettext("{n} left", "{n} left", stocks[s]).format(n=stocks[s])
                           if s < len(stocks) else ""),
                   active=result is None and current == s)
        for s in (0, 1)
    ]
    draw_status_bar(canvas, HEADER, headline, seat, chips, marks=marks)
    # Stock pips under each chip's name would crowd a phone screen; the count says it.


def _draw_footer(canvas: Canvas, sowing: Sowing | None, preview: bool) -> None:
    mid = (FOOTER[1] + FOOTER[3]) / 2
    if sowing and preview:
        pill = draw_pill(canvas, (FOOTER[2] - 20, mid), _("PREVIEW — not played yet"), 23,
                         HIGHLIGHT)
        hand = sowing.hand[len(sowing.cells):]
        if not hand:
            draw_footer(canvas, FOOTER, "Qawale")
            return
        # What is still to sow, in order, so a partial move shows where it is going.
        x = FOOTER[0] + 24
        following = _("Next:")
        canvas.text((x, mid), following, 22, MUTED, bold=True, anchor="lm")
        x += canvas.text_width(following, 22, bold=True) + 10
        # Too small for initials: the colours (which differ in lightness) tell them apart.
        pitch = 2 * NEXT_RADIUS + 4
        room = int((pill[0] - 16 - x) // pitch)
        for pebble in hand[:room]:
            draw_piece(canvas, (x + NEXT_RADIUS, mid), NEXT_RADIUS, pebble_colour(pebble))
            x += pitch
    elif sowing:
        draw_footer(canvas, FOOTER, "Qawale", _("Last move: {move}").format(move=sowing.move),
                    right_colour=WHITE)
    else:
        draw_footer(canvas, FOOTER, "Qawale")


# -- board -----------------------------------------------------------------------------------


def _offset(cell: Cell, dx: float, dy: float) -> Point:
    x0, y0, _, _ = GEOMETRY.cell_box(cell)
    return (x0 + dx, y0 + dy)


def _top_centre(cell: Cell) -> Point:
    return _offset(cell, *TOP_CENTRE)


def _node(cell: Cell) -> Point:
    return _offset(cell, *PATH_NODE)


@lru_cache(maxsize=1)
def _empty_board() -> Canvas:
    """The board without pebbles, drawn once: every picture starts from a copy of it."""
    canvas = Canvas(WIDTH, HEIGHT)
    canvas.rect(inset(GEOMETRY.box, -10), BOARD, radius=18)
    draw_coordinates(canvas, GEOMETRY, size=28, gap=24)
    for cell in GRID.cells():
        canvas.rect(inset(GEOMETRY.cell_box(cell), 5), CELL, radius=12)
        # A faint ring marks where a pebble would show, so empty cells read as empty.
        canvas.circle(_top_centre(cell), TOP_RADIUS * 0.42, None, "#ddd5c4", 3)
    return canvas


def _draw_stacks(
    canvas: Canvas, stacks: Mapping[Cell, list[str]], marks: Sequence[str]
) -> None:
    for cell in GRID.cells():
        stack = stacks.get(cell, [])
        if not stack:
            continue
        centre = _top_centre(cell)
        draw_piece(canvas, centre, TOP_RADIUS, pebble_colour(stack[-1]),
                   pebble_label(stack[-1], marks), outline_width=3.5)
        if len(stack) > 1:
            canvas.text(_offset(cell, *HEIGHT_LABEL), f"×{len(stack)}", 22, INK_MUTED,
                        bold=True, anchor="lm")


def _draw_column(canvas: Canvas, cell: Cell, stack: list[str]) -> None:
    """The whole stack as bands, bottom first, squeezed to fit tall stacks (10+)."""
    if not stack:
        return
    x0, y0, _, _ = GEOMETRY.cell_box(cell)
    left, right = x0 + COLUMN_X[0], x0 + COLUMN_X[1]
    bottom, top = y0 + COLUMN_Y[1], y0 + COLUMN_Y[0]
    # A groove behind the bands tells the column apart from the rest of the cell.
    canvas.rect((left - 3, top - 3, right + 3, bottom + 3), "#e4dccb", radius=8)
    pitch = min(BAND_PITCH_MAX, (bottom - top) / len(stack))
    gap = max(1.5, pitch * 0.16)
    for index, pebble in enumerate(stack):
        colour = pebble_colour(pebble)
        y1 = bottom - index * pitch
        canvas.rect((left, y1 - pitch + gap, right, y1), colour.fill, colour.outline, 1.6,
                    radius=min(6, (pitch - gap) / 2))


# -- sowing path -----------------------------------------------------------------------------


def _path_points(sowing: Sowing) -> list[Point]:
    """The path through each cell's node. A loop travelled twice is drawn once: the
    numbered badges tell the trips apart, and side-by-side tracks only looked tangled."""
    return [_node(cell) for cell in (sowing.move.cell, *sowing.cells)]


def _draw_sowing(canvas: Canvas, sowing: Sowing, *, proposed: bool) -> None:
    origin = GEOMETRY.cell_box(sowing.move.cell)
    if proposed:
        x0, y0, x1, y1 = inset(origin, 6)
        canvas.dashed_line([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)],
                           HIGHLIGHT, 5, dash=20, gap=12)
    else:
        canvas.rect(inset(origin, 3), None, HIGHLIGHT, 7, radius=14)
    if sowing.cells:
        points = _path_points(sowing)
        canvas.arrow(points, HIGHLIGHT, 9, head=26, casing=WHITE, casing_width=3.5,
                     dashed=proposed)


def _badge_centre(cell: Cell, slot: int, count: int) -> Point:
    """Step badges line a cell's top edge, in visit order, the last one in the corner."""
    per_row = 3
    row, col = divmod(slot, per_row)
    in_row = min(per_row, count - row * per_row)
    pitch = 2 * BADGE_RADIUS + 3
    return _offset(cell, CELL_SIZE - 26 - (in_row - 1 - col) * pitch, 24 + row * pitch)


def _draw_badges(canvas: Canvas, sowing: Sowing, *, proposed: bool) -> None:
    totals = Counter(sowing.cells)
    visits: Counter[Cell] = Counter()
    for step, (cell, pebble) in enumerate(sowing.landing, start=1):
        centre = _badge_centre(cell, visits[cell], totals[cell])
        visits[cell] += 1
        x, y = centre
        canvas.marker(f"step {step}", (x - BADGE_RADIUS, y - BADGE_RADIUS,
                                       x + BADGE_RADIUS, y + BADGE_RADIUS))
        if proposed and pebble is not None:
            # In a preview the badge is the pebble that will land here, numbered.
            colour = pebble_colour(pebble)
            canvas.circle(centre, BADGE_RADIUS + 3, HIGHLIGHT)
            canvas.circle(centre, BADGE_RADIUS, colour.fill, colour.outline, 2)
            canvas.text(centre, str(step), BADGE_RADIUS * 1.1, colour.ink, bold=True, anchor="mm")
        else:
            canvas.circle(centre, BADGE_RADIUS, HIGHLIGHT, WHITE, 2.5)
            canvas.text(centre, str(step), BADGE_RADIUS * 1.1, WHITE, bold=True, anchor="mm")


# -- winning lines ---------------------------------------------------------------------------


def _draw_winning_lines(
    canvas: Canvas,
    lines: list[list[Cell]],
    stacks: Mapping[Cell, list[str]],
    marks: Sequence[str],
) -> None:
    for line in lines:
        first, last = _top_centre(line[0]), _top_centre(line[-1])
        dx, dy = last[0] - first[0], last[1] - first[1]
        length = (dx * dx + dy * dy) ** 0.5 or 1.0
        reach = TOP_RADIUS + 14
        ends = [(first[0] - dx / length * reach, first[1] - dy / length * reach),
                (last[0] + dx / length * reach, last[1] + dy / length * reach)]
        canvas.line(ends, INK, 30)
        canvas.line(ends, WIN, 20)
    # Redraw the winning pebbles over the stripe, ringed, so the line links them.
    for cell in sorted({cell for line in lines for cell in line}):
        stack = stacks.get(cell) or []
        if stack:
            centre = _top_centre(cell)
            canvas.circle(centre, TOP_RADIUS + 8, INK)
            canvas.circle(centre, TOP_RADIUS + 5, WIN)
            draw_piece(canvas, centre, TOP_RADIUS, pebble_colour(stack[-1]),
                       pebble_label(stack[-1], marks), outline_width=3.5)
