"""Kraut & Rüben picture: every garden as its 3×4 beds, tiles drawn as vegetables.

Each tile has a drawn icon *and* a letter (colour is never the only cue); a snail or a mole
shows what it covers in a small chip in the bed's corner. Owners are named on each garden,
finished gardens are marked; the tile just drawn and the moles in hand (each player's
initials) sit on a strip under the header, the bag on a row of its own under it. Only a
spectator's view is ever drawn on a board (contracts stay secret).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image

from engines.kraut_ruben import KRAUT_RUBEN, KrautRubenGardenView, KrautRubenView
from i18n import N_, Language, _, current_language, ngettext
from renderers.common import (
    HIGHLIGHT,
    INK,
    INK_MUTED,
    MUTED,
    PANEL,
    PANEL_RAISED,
    TEXT,
    WHITE,
    WIN,
    Canvas,
    StatusChip,
    box_centre,
    draw_footer,
    draw_piece,
    draw_pill,
    draw_status_bar,
    inset,
    label_size,
    seat_colour,
)
from renderers.encoding import reference_palette
from renderers.recording import Drawn, recording
from renderers.stamps import Stamp, picture_stamp
from renderers.units import Box
from renderers.words import Phrase, initials, player_name, result_headline

WIDTH = 800
HEADER_H = 128.0
STRIP_TOP, STRIP_H = 140.0, 96.0
DRAWN_W = 260.0
"""The drawn-tile box: wide enough for "dandelion" (and "pissenlit") beside the tile."""
BAG_TOP, BAG_H = STRIP_TOP + STRIP_H + 10, 56.0
"""The bag's row: eight kinds, each with a count of up to two digits."""
GARDENS_TOP = BAG_TOP + BAG_H + 14
MARGIN, GAP = 16.0, 16.0
PANEL_W = (WIDTH - 2 * MARGIN - GAP) / 2
PANEL_HEAD = 46.0
PANEL_FOOT = 32.0
BED = (PANEL_W - 16) / 4
PANEL_H = PANEL_HEAD + 3 * BED + PANEL_FOOT + 8
LEGEND_H = 80.0
FOOTER_H = 48.0

TEXT_SIZE = 20
"""The small print (labels, counts, bed names): the smallest readable size on a phone."""
BAG_GAP = 10.0
"""The clear gap between a kind's count in the bag and the next kind's tile."""
BAG_LOOKS = ((36.0, TEXT_SIZE + 2, 5.0), (30.0, TEXT_SIZE, 4.0))
"""The bag's tile size, count size and the space between them: the roomiest that fits."""
MOLE_RADIUS = 20.0
"""A mole-in-hand token: big enough for its player's initials."""
FOOT_ICON = 24.0
FOOT_GAP = 10.0
"""The plain gap between a garden foot's parts when " · " would not leave room."""

GRASS = "#4f7a35"
GRASS_DARK = "#2f4f20"
SOIL = "#6e4f33"
SOIL_LINE = "#8a6a4c"
CARD = "#f3ead5"
FINISHED = "#c9a227"

LETTERS: dict[Language, dict[str, str]] = {
    Language.EN: {
        "tomato": "T", "asparagus": "A", "carrot": "C", "lettuce": "L",
        "clover": "K", "dandelion": "D", "snail": "S", "mole": "M",
    },
    Language.FR: {
        "tomato": "T", "asparagus": "A", "carrot": "C", "lettuce": "S",
        "clover": "R", "dandelion": "P", "snail": "E", "mole": "M",
    },
}
"""One letter per tile and language, drawn on every tile and explained by the legend.
English: K for clover (German Klee: C is the carrot); French: Tomate, Asperge, Carotte,
Salade, tRèfle, Pissenlit, Escargot, and M for the mole (T is the tomato's)."""

TILE_NAMES = {
    "tomato": N_("tomato"), "asparagus": N_("asparagus"), "carrot": N_("carrot"),
    "lettuce": N_("lettuce"), "clover": N_("clover"), "dandelion": N_("dandelion"),
    "snail": N_("snail"), "mole": N_("mole"),
}
"""Each tile's name, translated where it is drawn."""

TILE_ORDER = ("tomato", "asparagus", "carrot", "lettuce", "clover", "dandelion", "snail", "mole")


def letter(tile: str) -> str:
    """The letter drawn on `tile` in the current language ("?" for an unknown tile)."""
    return LETTERS.get(current_language(), LETTERS[Language.EN]).get(tile, "?")


def tile_name(tile: str) -> str:
    """`tile`'s name in the current language."""
    return _(TILE_NAMES[tile]) if tile in TILE_NAMES else tile


def height_for(gardens: int) -> int:
    """Picture height for a number of gardens (two gardens per row)."""
    rows = math.ceil(gardens / 2)
    return int(GARDENS_TOP + rows * (PANEL_H + GAP) + LEGEND_H + FOOTER_H)


def render_kraut_ruben(
    view: KrautRubenView,
    highlight: str | None = None,
    *,
    preview: bool = False,
    names: Sequence[str] | None = None,
) -> bytes:
    """PNG of a Kraut & Rüben view; `highlight` is the last move (`3B2`, `mole 3B2`, `take 3`)."""
    gardens = view["gardens"]
    height = height_for(len(gardens))
    canvas = Canvas(WIDTH, height, scale=1)
    marks = initials(names, max(len(view["players"]), 1))
    _draw_header(canvas, view, names, marks)
    _draw_strip(canvas, view, marks)
    _draw_bag(canvas, view)
    target = _parse_highlight(highlight)
    scores = _final_scores(view)
    for index, garden in enumerate(gardens):
        _draw_garden(canvas, _panel_box(index, len(gardens)), garden, view, names, target,
                     scores.get(garden["number"]))
    legend_top = GARDENS_TOP + math.ceil(len(gardens) / 2) * (PANEL_H + GAP)
    _draw_legend(canvas, legend_top)
    game_no = view.get("game_number", 1)
    left = "Kraut & Rüben" + (" · " + _("game {number} of {games}").format(
        number=game_no, games=view["match_games"]) if view.get("match_games", 1) > 1 else "")
    draw_footer(canvas, (0, height - FOOTER_H, WIDTH, height), left,
                _("Last move: {move}").format(move=highlight) if highlight else "",
                right_colour=WHITE)
    return canvas.to_png(_palette)



def _palette() -> Image.Image:
    """The PNG palette of this game's boards (see `reference_palette`, which keeps it), chosen
    on first use."""
    return reference_palette(render_kraut_ruben, KRAUT_RUBEN, players=(3, 5),
                             plies=(0, 50, 100_000))


# -- layout ----------------------------------------------------------------------------------


def _panel_box(index: int, count: int) -> Box:
    row, col = divmod(index, 2)
    x0 = MARGIN + col * (PANEL_W + GAP)
    if count % 2 == 1 and index == count - 1:  # a lone last garden sits in the middle
        x0 = (WIDTH - PANEL_W) / 2
    y0 = GARDENS_TOP + row * (PANEL_H + GAP)
    return (x0, y0, x0 + PANEL_W, y0 + PANEL_H)


def _parse_highlight(highlight: str | None) -> tuple[int, str | None] | None:
    """(garden, bed or None for a whole garden) named by the last move, if any."""
    if not highlight:
        return None
    text = "".join(highlight.split()).upper()
    if match := re.fullmatch(r"(?:MOLE)?(\d+)([ABC][1-4])", text):
        return int(match[1]), match[2]
    if match := re.fullmatch(r"TAKE(\d+)", text):
        return int(match[1]), None
    return None


def _final_scores(view: KrautRubenView) -> dict[int, int]:
    """Garden number → its owner's points, once the game (or match) is over."""
    final = view.get("final")
    if not final:
        return {}
    return {g["number"]: score["total"] for g in final["gardens"] if (score := g["score"])}


# -- header and strip ------------------------------------------------------------------------


def _draw_header(
    canvas: Canvas, view: KrautRubenView, names: Sequence[str] | None, marks: Sequence[str]
) -> None:
    turn = view.get("turn")
    headline, seat = result_headline(view.get("result"), turn, names)
    result = view.get("result")
    if result and (scores := result["scores"]) and len(result["winners"]) == 1:
        winner = result["winners"][0]
        points = scores[winner]
        template = ngettext("{name} wins with {n} point!", "{name} wins with {n} points!",
                            int(abs(points)))
        headline = Phrase(template.format(name="{0}", n=f"{points:g}"),
                          (player_name(names, winner),))
    chips = []
    for player in view["players"]:
        s = player["seat"]
        owned = player.get("gardens") or []
        # With many seats the chips are narrow: the gardens name their owners anyway.
        detail = " ".join(_("G{garden}").format(garden=g) for g in owned) \
            if len(view["players"]) <= 3 else ""
        chips.append(StatusChip(s, player_name(names, s), detail, active=s == turn,
                                done=bool(player.get("finished"))))
    draw_status_bar(canvas, (0, 0, WIDTH, HEADER_H), headline, seat, chips, marks=marks)


def _draw_strip(canvas: Canvas, view: KrautRubenView, marks: Sequence[str]) -> None:
    top, bottom = STRIP_TOP, STRIP_TOP + STRIP_H
    # The tile just drawn, waiting for its bed.
    drawn_box = (MARGIN, top, MARGIN + DRAWN_W, bottom)
    drawn = view.get("drawn_tile")
    canvas.rect(drawn_box, PANEL, HIGHLIGHT if drawn else PANEL_RAISED, 3, radius=14)
    icon_box = (drawn_box[0] + 10, top + 10, drawn_box[0] + 10 + STRIP_H - 20, bottom - 10)
    text_x = icon_box[2] + 12
    room = drawn_box[2] - 10 - text_x
    canvas.text((text_x, top + 30), canvas.fit(_("Drawn"), TEXT_SIZE, room, bold=True),
                TEXT_SIZE, MUTED, bold=True, anchor="lm")
    if drawn:
        canvas.rect(icon_box, CARD, radius=10)
        _paste_tile(canvas, icon_box, drawn)
        canvas.text((text_x, top + 62), canvas.fit(tile_name(drawn), 24, room, bold=True), 24,
                    TEXT, bold=True, anchor="lm")
    else:
        canvas.rect(icon_box, PANEL_RAISED, radius=10)
        canvas.text((text_x, top + 62), canvas.fit(_("nothing"), 22, room), 22, MUTED,
                    anchor="lm")
    # Moles still in hand: one token per seat with its player's initials, crossed out once
    # played.
    mole_box = (drawn_box[2] + 12, top, WIDTH - MARGIN, bottom)
    canvas.rect(mole_box, PANEL, radius=14)
    canvas.text((mole_box[0] + 16, top + 24), _("Moles in hand"), 22, TEXT, bold=True,
                anchor="lm")
    players = view["players"]
    step = min(2 * MOLE_RADIUS + 10, (mole_box[2] - mole_box[0] - 32) / max(len(players), 1))
    for player in players:
        seat = player["seat"]
        x, y = mole_box[0] + 16 + step * seat + MOLE_RADIUS, top + 64
        mark = marks[seat] if seat < len(marks) else ""
        if player.get("mole_available"):
            draw_piece(canvas, (x, y), MOLE_RADIUS, seat_colour(seat), mark)
        else:
            r = MOLE_RADIUS
            canvas.marker("mole played", (x - r, y - r, x + r, y + r))
            canvas.circle((x, y), r, None, MUTED, 2)
            canvas.text((x, y), mark, label_size(canvas, mark, r), MUTED, bold=True, anchor="mm")
            canvas.line([(x - r * 0.7, y + r * 0.7), (x + r * 0.7, y - r * 0.7)], MUTED, 2.5)


def _draw_bag(canvas: Canvas, view: KrautRubenView) -> None:
    """The bag: how many tiles, and of which kinds (public: every other tile is on the table)."""
    bag = view["bag"]
    box = (MARGIN, BAG_TOP, WIDTH - MARGIN, BAG_TOP + BAG_H)
    mid = BAG_TOP + BAG_H / 2
    canvas.rect(box, PANEL, radius=14)
    title = ngettext("Bag: {n} tile", "Bag: {n} tiles", bag["count"]).format(n=bag["count"])
    canvas.text((box[0] + 16, mid), title, 22, TEXT, bold=True, anchor="lm")
    widest = ngettext("Bag: {n} tile", "Bag: {n} tiles", 88).format(n=88)
    left = box[0] + 16 + canvas.text_width(widest, 22, bold=True) + 12
    kinds = [t for t in TILE_ORDER if t in bag["tiles"]]
    # Each kind's slot has room for its tile, a two-digit count (16 tomatoes at most) and a
    # clear gap before the next tile; the longer French title leaves less room, so a
    # smaller tile and count are drawn then.
    slot = min(84.0, (box[2] - 12 - left + BAG_GAP) / max(len(kinds), 1))
    for icon, size, space in BAG_LOOKS:
        if icon + space + canvas.text_width("88", size, bold=True) + BAG_GAP <= slot:
            break
    for i, tile in enumerate(kinds):
        x = left + i * slot
        mini = (x, mid - icon / 2, x + icon, mid + icon / 2)
        canvas.rect(mini, CARD, radius=6)
        _paste_tile(canvas, mini, tile)
        canvas.text((mini[2] + space, mid), str(bag["tiles"][tile]), size, TEXT, bold=True,
                    anchor="lm")


# -- gardens ---------------------------------------------------------------------------------


def _draw_garden(
    canvas: Canvas,
    box: Box,
    garden: KrautRubenGardenView,
    view: KrautRubenView,
    names: Sequence[str] | None,
    target: tuple[int, str | None] | None,
    score: int | None,
) -> None:
    x0, y0, x1, _bottom = box
    number, owner = garden["number"], garden.get("owner")
    finished = owner is not None and garden.get("full")
    canvas.rect(box, GRASS, FINISHED if finished else GRASS_DARK, 4 if finished else 2,
                radius=16)
    head = (x0, y0, x1, y0 + PANEL_HEAD)
    head_y = (head[1] + head[3]) / 2
    title = _("Garden {garden}").format(garden=number)
    canvas.text((x0 + 14, head_y), title, 24, WHITE, bold=True,
                anchor="lm", stroke=GRASS_DARK, stroke_width=2)
    right = x1 - 10
    if score is not None:
        points = ngettext("{n} pt", "{n} pts", abs(score)).format(n=score)
        pill = draw_pill(canvas, (right, head_y), points, TEXT_SIZE, WIN, INK)
        right = pill[0] - 6
    if owner is not None:
        # The owner's name on their colour; the pill's padding is 0.7 of the text size.
        colour = seat_colour(owner)
        room = right - (x0 + 14 + canvas.text_width(title, 24, bold=True) + 12) - 1.4 * TEXT_SIZE
        name = canvas.fit(player_name(names, owner), TEXT_SIZE, room, bold=True)
        draw_pill(canvas, (right, head_y), name, TEXT_SIZE, colour.fill, colour.ink)
    else:
        canvas.text((right - 4, head_y), _("no owner"), TEXT_SIZE, "#d7e6c8", anchor="rm")
    rows = view.get("rows") or ["A", "B", "C"]
    for r, row in enumerate(garden["grid"]):
        for c, stack in enumerate(row):
            bed_name = f"{rows[r]}{c + 1}"
            bx = x0 + 8 + c * BED
            by = y0 + PANEL_HEAD + r * BED
            bed = inset((bx, by, bx + BED, by + BED), 3)
            _paste_bed(canvas, bed, bed_name, tuple(stack))
            if target is not None and target == (number, bed_name):
                canvas.marker("last bed", inset(bed, -2))
                canvas.rect(inset(bed, -2), None, HIGHLIGHT, 5, radius=10)
    _draw_garden_foot(canvas, (x0 + 14, y0 + PANEL_HEAD + 3 * BED + PANEL_FOOT / 2 + 3),
                      x1 - 14, garden, bool(finished))
    if target is not None and target == (number, None):
        canvas.marker("last garden", inset(box, -3))
        canvas.rect(inset(box, -3), None, HIGHLIGHT, 5, radius=18)


def _draw_garden_foot(
    canvas: Canvas, start: tuple[float, float], right: float, garden: KrautRubenGardenView,
    finished: bool,
) -> None:
    """What the garden still allows: its empty beds, then snails and moles out of 2, all
    before `right`.

    Snails and moles are icons: the words would not fit at a readable size. When the status
    is long, plain gaps stand for the " · " between the parts, and only then is it cut.
    """
    x, y = start
    if finished:
        first = _("FINISHED")
    elif garden.get("full"):
        first = _("full")
    elif garden.get("last_bed_reserved"):
        first = _("last bed: owner only")
    else:
        empty = garden.get("empty_beds", 0)
        first = ngettext("{n} empty bed", "{n} empty beds", empty).format(n=empty)
    if garden.get("closed") and not finished and not garden.get("full"):
        first = _("{status} · closed").format(status=first)
    counts = (("snail", garden.get("snails", 0)), ("mole", garden.get("moles", 0)))
    parts = sum(FOOT_ICON + 4 + canvas.text_width(f"{n}/2", TEXT_SIZE) for _tile, n in counts)
    separator = " · "
    gap = canvas.text_width(separator, TEXT_SIZE)
    if x + canvas.text_width(first, TEXT_SIZE) + len(counts) * gap + parts > right:
        separator, gap = "", FOOT_GAP
    first = canvas.fit(first, TEXT_SIZE, right - x - len(counts) * gap - parts)
    canvas.text((x, y), first, TEXT_SIZE, WHITE, anchor="lm")
    x += canvas.text_width(first, TEXT_SIZE)
    for tile, count in counts:
        if separator:
            canvas.text((x, y), separator, TEXT_SIZE, WHITE, anchor="lm")
        x += gap
        icon = (x, y - FOOT_ICON / 2, x + FOOT_ICON, y + FOOT_ICON / 2)
        canvas.rect(icon, CARD, radius=5)  # the dark mole would not show on the grass
        _paste_tile(canvas, inset(icon, 1), tile)
        x += FOOT_ICON + 4
        canvas.text((x, y), f"{count}/2", TEXT_SIZE, WHITE, anchor="lm")
        x += canvas.text_width(f"{count}/2", TEXT_SIZE)


def _paste_bed(canvas: Canvas, box: Box, name: str, stack: tuple[str, ...]) -> None:
    """Paste the bed's cached picture: a board has up to 60 beds, and few looks among them.

    A bed lies on the garden's plain grass (the picture's margin is grass too) at whole
    pixels, so the pasted picture is the very one drawing it in place would give.
    """
    x, y = round(box[0]), round(box[1])
    picture, drawn = _bed_picture(name if not stack else "", stack,
                                  (box[2] - box[0], box[3] - box[1]), current_language())
    canvas.image.paste(picture, (x, y))
    for item in drawn:  # what the size check would have seen drawn in place
        bx0, by0, bx1, by1 = item.box
        canvas.note(item.kind, item.what, item.size, (bx0 + x, by0 + y, bx1 + x, by1 + y))


@lru_cache(maxsize=256)
def _bed_picture(
    name: str, stack: tuple[str, ...], size: tuple[float, float], language: Language
) -> tuple[Image.Image, tuple[Drawn, ...]]:
    """A bed (`name` shows only when it is empty) on grass, and what was drawn on it (its
    tiles' letters are `language`'s, the current one)."""
    tile = Canvas(math.ceil(size[0]) + 2, math.ceil(size[1]) + 2, GRASS, scale=1)
    with recording() as drawn:
        _draw_bed(tile, (0, 0, *size), name, stack)
    return tile.image, tuple(drawn)


def _draw_bed(canvas: Canvas, box: Box, name: str, stack: Sequence[str]) -> None:
    if not stack:
        canvas.rect(box, SOIL, SOIL_LINE, 2, radius=8)
        canvas.text(box_centre(box), name, TEXT_SIZE, "#b89c7e", bold=True, anchor="mm")
        return
    canvas.rect(box, CARD, "#b9a57f", 2, radius=8)
    top = stack[-1]
    _paste_tile(canvas, inset(box, 4), top)
    mark = letter(top)
    if len(stack) > 1:  # the tile under the snail or mole, in a corner chip
        under = stack[-2]
        mark = f"{mark}/{letter(under)}"
        size = (box[2] - box[0]) * 0.42
        chip = (box[2] - size - 2, box[3] - size - 2, box[2] - 2, box[3] - 2)
        canvas.marker("covered tile", chip)
        canvas.rect(chip, WHITE, INK, 2, radius=6)
        _paste_tile(canvas, inset(chip, 2), under)
    width = 26.0 if len(mark) == 1 else 46.0  # fixed: measuring text is slow
    tag = (box[0] + 2, box[1] + 2, box[0] + 2 + width, box[1] + 28)
    canvas.rect(tag, INK, radius=6)
    canvas.text(box_centre(tag), mark, TEXT_SIZE, WHITE, bold=True, anchor="mm")


def _draw_legend(canvas: Canvas, top: float) -> None:
    per_row = 4
    slot = (WIDTH - 2 * MARGIN) / per_row
    for i, tile in enumerate(TILE_ORDER):
        row, col = divmod(i, per_row)
        x = MARGIN + col * slot
        y = top + row * 38
        mini = (x, y, x + 32, y + 32)
        canvas.rect(mini, CARD, radius=6)
        _paste_tile(canvas, mini, tile)
        canvas.text((x + 40, y + 16), f"{letter(tile)} {tile_name(tile)}", TEXT_SIZE, TEXT,
                    bold=True, anchor="lm")


# -- tile icons ------------------------------------------------------------------------------


def _paste_tile(canvas: Canvas, box: Box, tile: str) -> None:
    """Paste the cached icon of `tile` into `box` (square-ish), on the canvas's picture pixels."""
    size = round(min(box[2] - box[0], box[3] - box[1]) * canvas.resolution)
    canvas.marker(tile, box)
    cx, cy = box_centre(box)
    x = round(cx * canvas.resolution - size / 2)
    y = round(cy * canvas.resolution - size / 2)
    canvas.paste_stamp(_icon(tile, size), x, y)


@lru_cache(maxsize=128)
def _icon(tile: str, size: int) -> Stamp:
    """A transparent square picture of `tile`, `size` pixels wide (drawn once, 4 × too big,
    then shrunk), ready to paste."""
    icon = Canvas(100, 100, scale=4, _mode="RGBA", _supersampled=True)
    ICONS.get(tile, _unknown)(icon)
    return picture_stamp(icon.image.resize((size, size), Image.Resampling.LANCZOS))


def _tomato(c: Canvas) -> None:
    c.circle((50, 57), 34, "#d62828", "#7a1010", 3)
    c.circle((38, 46), 8, "#f28b82")
    star = [(50 + r * math.cos(math.radians(a)), 26 + r * math.sin(math.radians(a)))
            for i, a in enumerate(range(-90, 270, 36)) for r in [(16 if i % 2 == 0 else 6)]]
    c.polygon(star, "#2e7d32", "#1b5e20")
    c.line([(50, 22), (50, 10)], "#1b5e20", 4)


def _asparagus(c: Canvas) -> None:
    for x, top, tilt in ((32, 16, -4), (50, 8, 0), (68, 18, 4)):
        c.line([(x - tilt * 2, 92), (x, top + 14)], "#7cb342", 12)
        c.polygon([(x - 9, top + 18), (x, top), (x + 9, top + 18)], "#6a1b9a")
        for y in (top + 34, top + 54):
            c.line([(x - 6, y + 4), (x, y)], "#33691e", 3)
    c.rect((22, 70, 78, 78), "#c62828", radius=3)


def _carrot(c: Canvas) -> None:
    for dx in (-12, 0, 12):
        c.line([(50, 30), (50 + dx * 1.3, 6)], "#2e7d32", 6)
    c.polygon([(26, 28), (74, 28), (52, 96), (48, 96)], "#f57c00", "#8d3b00")
    for y, w in ((44, 12), (60, 8), (76, 5)):
        c.line([(50 - w, y), (50 + w * 0.2, y + 2)], "#8d3b00", 3)


def _lettuce(c: Canvas) -> None:
    c.circle((50, 54), 40, "#7cb342", "#33691e", 3)
    for angle in range(0, 360, 45):
        x = 50 + 30 * math.cos(math.radians(angle))
        y = 54 + 30 * math.sin(math.radians(angle))
        c.circle((x, y), 13, "#9ccc65", "#558b2f", 2)
    c.circle((50, 54), 20, "#c5e1a5", "#558b2f", 2)
    c.circle((50, 54), 9, "#dcedc8", "#689f38", 2)


def _clover(c: Canvas) -> None:
    c.line([(50, 56), (62, 94)], "#1b5e20", 6)
    for angle in (-90, 30, 150):
        x = 50 + 19 * math.cos(math.radians(angle))
        y = 46 + 19 * math.sin(math.radians(angle))
        c.circle((x, y), 19, "#43a047", "#1b5e20", 3)
    c.circle((50, 46), 6, "#a5d6a7")


def _dandelion(c: Canvas) -> None:
    c.line([(50, 60), (50, 96)], "#388e3c", 6)
    c.polygon([(50, 88), (28, 74), (36, 90)], "#388e3c")
    for angle in range(0, 360, 24):
        x = 50 + 26 * math.cos(math.radians(angle))
        y = 40 + 26 * math.sin(math.radians(angle))
        c.circle((x, y), 10, "#fdd835", "#c49000", 2)
    c.circle((50, 40), 15, "#f9a825", "#c17900", 2)


def _snail(c: Canvas) -> None:
    c.rect((10, 70, 92, 88), "#bcaaa4", "#5d4037", 3, radius=9)
    c.line([(82, 72), (90, 50)], "#5d4037", 3)
    c.line([(76, 72), (80, 50)], "#5d4037", 3)
    c.circle((90, 50), 4, "#3e2723")
    c.circle((80, 50), 4, "#3e2723")
    c.circle((44, 50), 30, "#a1662f", "#4e2a0e", 3)
    c.circle((48, 52), 19, "#c68642", "#4e2a0e", 3)
    c.circle((52, 54), 9, "#e0a060", "#4e2a0e", 3)


def _mole(c: Canvas) -> None:
    c.circle((50, 88), 14, "#6d4c41")  # the mound it comes out of
    c.rect((16, 82, 84, 96), "#6d4c41", radius=6)
    c.circle((50, 52), 34, "#424242", "#111111", 3)
    c.circle((50, 70), 9, "#f48fb1", "#ad1457", 2)
    c.circle((38, 46), 4, WHITE)
    c.circle((62, 46), 4, WHITE)
    for x in (24, 76):
        c.circle((x, 76), 9, "#f8bbd0", "#ad1457", 2)


def _unknown(c: Canvas) -> None:
    c.circle((50, 50), 30, INK_MUTED)


ICONS = {
    "tomato": _tomato, "asparagus": _asparagus, "carrot": _carrot, "lettuce": _lettuce,
    "clover": _clover, "dandelion": _dandelion, "snail": _snail, "mole": _mole,
}
