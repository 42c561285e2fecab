"""Le Grabuge picture: the shared piles, then each player's grabuge, talon, reserve and paquets.

Every card is drawn as a card (rank and suit in the corner, a big suit in the middle, red or
black), once per kind and size, then pasted: a long 8-deck game still renders quickly.
Reserve columns are fanned so every card's corner shows; very long columns and very many
piles are capped with a "+N" marker so the picture never overflows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.grabuge import GRABUGE, SUIT_SYMBOLS, GrabugeView, card_label
from i18n import _, ngettext
from renderers.common import (
    HIGHLIGHT,
    MUTED,
    PANEL,
    PANEL_RAISED,
    SUPERSAMPLE,
    TEXT,
    WHITE,
    WIN,
    Canvas,
    StatusChip,
    draw_footer,
    draw_piece,
    draw_status_bar,
    seat_colour,
)
from renderers.encoding import reference_palette
from renderers.stamps import Stamp, font, picture_stamp
from renderers.units import Box, Colour
from renderers.words import Phrase, initials, player_name, result_headline

WIDTH, HEIGHT = 800, 1060
HEADER: Box = (0.0, 0.0, float(WIDTH), 128.0)
FOOTER: Box = (0.0, HEIGHT - 52.0, float(WIDTH), float(HEIGHT))

CARD_W, CARD_H = 72, 100
"""A card in logical pixels: about 32 × 45 on a phone, with a readable corner."""
FAN_STEP = 32
"""Vertical offset between fanned reserve cards: the corner's rank and suit stay visible."""
MAX_FANNED = 7
"""Slots per reserve column; above that, the oldest cards are folded into a "+N" tab that
takes the first slot (so a folded column shows the tab and its last `MAX_FANNED - 1` cards)."""
TEXT_SIZE = 20
"""Labels and counts: the smallest readable size on a phone."""
LINE = 22.0
"""Between the two lines of text under a card."""
CORNER_SIZE, CORNER_SIZE_10 = 27, 23
"""A card corner's rank ("10" is narrower so that its suit still fits)."""

TABLEAU_TOP = 140.0
PILE_PITCH = 78.0
PILES_PER_ROW = 10
PILE_ROWS = 2
PILE_ROW_HEIGHT = 128.0
MAX_PILES_SHOWN = PILES_PER_ROW * PILE_ROWS

PANELS_TOP = TABLEAU_TOP + 36 + PILE_ROWS * PILE_ROW_HEIGHT + 8
PANEL_W = (WIDTH - 3 * 10) / 2
SLOT_W = PANEL_W / 4

SCALE = 1
"""Canvas scale: the cards (most of the picture) are supersampled on their own and cached,
so the big canvas need not be: a render then costs a quarter of the pixels."""

RED, BLACK = "#c8102e", "#14171c"
CARD_FACE, CARD_EDGE = "#fbf8f1", "#2b2f36"
PLAYABLE = "#2e9e5b"
"""Green ring: a reserve card its owner could play now."""


@dataclass(frozen=True)
class Mark:
    """The card to highlight (the last move): where it is."""

    kind: str
    """`pile` (tableau pile id), `column` (seat's reserve column), `paquets` (a crowned pile)."""
    seat: int
    index: int


def render_grabuge(
    view: GrabugeView,
    highlight: str | None = None,
    *,
    preview: bool = False,
    names: Sequence[str] | None = None,
) -> bytes:
    """PNG of a Grabuge view; with `highlight`, the last card played or kept is ringed."""
    canvas = _background().copy()
    marks = initials(names, 2)
    _draw_header(canvas, view, names, marks)
    mark, note = _last_move(view, names) if highlight else (None, Phrase(""))
    _draw_tableau(canvas, view, mark)
    for seat in (0, 1):
        _draw_player(canvas, view, seat, names, marks, mark)
    decks = view.get("decks", 2)
    turn = view["turn"]["number"]
    draw_footer(canvas, FOOTER, _footer_left(canvas, decks, turn, note), note,
                right_colour=WHITE)
    return canvas.to_png(_palette)



def _footer_left(canvas: Canvas, decks: int, turn: int, note: Phrase) -> str:
    """The footer's left words: the decks and the turn, then fewer of them when the last
    move's note needs the room (its sentence is longer in French)."""
    room = FOOTER[2] - FOOTER[0] - 48 - 24 - canvas.text_width(str(note), 24, bold=True)
    for left in (_("Le Grabuge · {decks} decks · turn {turn}").format(decks=decks, turn=turn),
                 _("Le Grabuge · turn {turn}").format(turn=turn)):
        if canvas.text_width(left, 24, bold=True) <= room:
            return left
    return "Le Grabuge"


def _palette() -> Image.Image:
    """The PNG palette of this game's boards (see `reference_palette`, which keeps it), chosen
    on first use."""
    return reference_palette(render_grabuge, GRABUGE, players=(2,), plies=(0, 80, 200, 100_000))


# -- cards -----------------------------------------------------------------------------------


def _is_red(card: str) -> bool:
    return card[1] in "HD"


@lru_cache(maxsize=256)
def _card_stamp(card: str | None, width: int, height: int, back: str = "") -> Stamp:
    """A card at the canvas scale, ready to paste: a face (`card`), or a back in colour `back`.

    Drawn supersampled then shrunk, so cards stay smooth on the unsupersampled canvas.
    """
    return picture_stamp(_card_image_large(card, width, height, back).reduce(SUPERSAMPLE // SCALE))


def _card_image_large(card: str | None, width: int, height: int, back: str) -> Image.Image:
    s = SUPERSAMPLE
    image = Image.new("RGBA", (width * s, height * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = 8 * s
    box = (0, 0, width * s - 1, height * s - 1)
    if card is None:
        draw.rounded_rectangle(box, radius, back, "#0b0d10", 2 * s)
        inner = (6 * s, 6 * s, width * s - 7 * s, height * s - 7 * s)
        draw.rounded_rectangle(inner, 5 * s, None, "#ffffff", 2 * s)
        return image
    draw.rounded_rectangle(box, radius, CARD_FACE, CARD_EDGE, 2 * s)
    ink = RED if _is_red(card) else BLACK
    rank = card_label(card)[:-1]
    suit = SUIT_SYMBOLS[card[1]]
    corner = CORNER_SIZE if len(rank) == 1 else CORNER_SIZE_10
    draw.text((5 * s, 3 * s), rank, fill=ink, font=font(corner * s, True), anchor="la")
    rank_w = font(corner * s, True).getlength(rank)
    draw.text((5 * s + rank_w + 1 * s, 4 * s), suit, fill=ink, font=font(24 * s), anchor="la")
    draw.text((width * s / 2, height * s * 0.64), suit, fill=ink,
              font=font(int(height * 0.46) * s), anchor="mm")
    return image


def _paste_card(canvas: Canvas, card: str | None, x: float, y: float, *, back: str = "") -> None:
    canvas.paste_stamp(_card_stamp(card, CARD_W, CARD_H, back), round(x), round(y))
    if card is not None:
        # The corner is drawn once into the cached card image: note it for the size check.
        rank = card_label(card)[:-1]
        size = CORNER_SIZE if len(rank) == 1 else CORNER_SIZE_10
        canvas.note("text", rank, size, (x + 5, y + 3, x + CARD_W / 2, y + 3 + size))


def _ring(canvas: Canvas, x: float, y: float, colour: str, h: float = CARD_H) -> None:
    box = (x - 3, y - 3, x + CARD_W + 3, y + h + 3)
    canvas.marker("ring", box)
    canvas.rect(box, None, colour, 4.5, radius=10)


def _empty_slot(canvas: Canvas, x: float, y: float, *lines: str) -> None:
    """An empty card place, with a word or two inside (one per line: a slot is narrow)."""
    canvas.rect((x, y, x + CARD_W, y + CARD_H), None, "#56616d", 2.5, radius=9)
    for row, line in enumerate(lines):
        mid = y + CARD_H / 2 + (row - (len(lines) - 1) / 2) * LINE
        canvas.text((x + CARD_W / 2, mid), line, TEXT_SIZE, MUTED, anchor="mm")


# -- layout ------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _background() -> Canvas:
    """The frame without cards, drawn once: every picture starts from a copy of it."""
    canvas = Canvas(WIDTH, HEIGHT, scale=SCALE)
    canvas.rect((10, TABLEAU_TOP - 4, WIDTH - 10, PANELS_TOP - 10), PANEL, radius=14)
    for seat in (0, 1):
        x0 = 10 + seat * (PANEL_W + 10)
        canvas.rect((x0, PANELS_TOP, x0 + PANEL_W, FOOTER[1] - 6), PANEL, radius=14)
    return canvas


def _draw_header(
    canvas: Canvas, view: GrabugeView, names: Sequence[str] | None, marks: Sequence[str]
) -> None:
    result = view.get("result")
    current = view.get("current_player")
    headline, seat = result_headline(result, current, names)
    players = view["players"]
    if result is not None:
        scores = [p["paquets"]["total"] for p in players]
        if seat is not None:  # the winner's total first
            headline += " " + _("{won}–{lost} paquets").format(won=scores[seat],
                                                              lost=scores[1 - seat])
        else:
            headline += " — " + ngettext("{n} paquet each", "{n} paquets each",
                                         scores[0]).format(n=scores[0])
    elif current is not None and current < 0:  # a card is being turned (a chance node)
        headline = Phrase(_("Turning a card…"))
    elif view["awaiting"] == "keep" and current is not None:
        headline = Phrase(_("{0}: where does it go?"), (player_name(names, current),))
    elif view["awaiting"] == "reserve" and current is not None:
        headline = Phrase(_("{0}: which reserve card?"), (player_name(names, current),))
    chips = []
    for player in players:
        total = player["paquets"]["total"]
        chips.append(StatusChip(
            seat=player["seat"], name=player_name(names, player["seat"]),
            detail=ngettext("{n} paquet", "{n} paquets", total).format(n=total),
            active=result is None and current == player["seat"]))
    draw_status_bar(canvas, HEADER, headline, seat, chips, marks=marks)


def _draw_tableau(canvas: Canvas, view: GrabugeView, mark: Mark | None) -> None:
    piles = view.get("tableau") or []
    title = ngettext("Tableau · {n} pile", "Tableau · {n} piles", len(piles)).format(
        n=len(piles))
    canvas.text((26, TABLEAU_TOP + 16), title, 22, TEXT, bold=True, anchor="lm")
    canvas.text((WIDTH - 26, TABLEAU_TOP + 16), _("Ace starts a pile · King wins it"),
                TEXT_SIZE, MUTED, anchor="rm")
    shown = piles if len(piles) <= MAX_PILES_SHOWN else piles[:MAX_PILES_SHOWN - 1]
    left = (WIDTH - PILES_PER_ROW * PILE_PITCH) / 2 + (PILE_PITCH - CARD_W) / 2
    for index, pile in enumerate(shown):
        row, col = divmod(index, PILES_PER_ROW)
        x = left + col * PILE_PITCH
        y = TABLEAU_TOP + 40 + row * PILE_ROW_HEIGHT
        _paste_card(canvas, pile["top"], x, y)
        if mark and mark.kind == "pile" and mark.index == pile["id"]:
            _ring(canvas, x, y, HIGHLIGHT)
        canvas.text((x + CARD_W / 2, y + CARD_H + 14), f"×{pile['count']}", TEXT_SIZE, MUTED,
                    bold=True, anchor="mm")
    if len(shown) < len(piles):
        index = len(shown)
        row, col = divmod(index, PILES_PER_ROW)
        x, y = left + col * PILE_PITCH, TABLEAU_TOP + 40 + row * PILE_ROW_HEIGHT
        _empty_slot(canvas, x, y, f"+{len(piles) - len(shown)}")
    if not piles:
        canvas.text((WIDTH / 2, TABLEAU_TOP + 40 + CARD_H / 2),
                    _("No pile yet: an Ace starts one"), 22, MUTED, anchor="mm")


def _draw_player(
    canvas: Canvas, view: GrabugeView, seat: int, names: Sequence[str] | None,
    marks: Sequence[str], mark: Mark | None,
) -> None:
    player = view["players"][seat]
    colour = seat_colour(seat)
    x0 = 10 + seat * (PANEL_W + 10)
    y = PANELS_TOP + 28
    active = view.get("result") is None and view.get("current_player") == seat
    if active:
        canvas.rect((x0, PANELS_TOP, x0 + PANEL_W, FOOTER[1] - 6), None, colour.fill, 4,
                    radius=14)
    draw_piece(canvas, (x0 + 32, y), 20, colour, marks[seat])
    name = canvas.fit(player_name(names, seat), 24, PANEL_W - 76, bold=True)
    canvas.text((x0 + 60, y), name, 24, TEXT, bold=True, anchor="lm")

    slots_y = PANELS_TOP + 74
    labels_y = slots_y - 13
    under_y = slots_y + CARD_H + 14
    grabuge = player["grabuge"]

    def slot_x(index: int) -> float:
        return x0 + index * SLOT_W + (SLOT_W - CARD_W) / 2

    # The slots' labels and captions are laid out row by row once all are known (see
    # `_draw_row`): a French one can be wider than its slot.
    labels: list[tuple[float, str]] = []
    captions: list[list[tuple[float, str]]] = [[], []]

    def label(x: float, text: str) -> None:
        labels.append((x + CARD_W / 2, text))

    def under(x: float, *lines: str) -> None:
        for row, line in enumerate(lines):
            captions[row].append((x + CARD_W / 2, line))

    # Grabuge: its face-up card, with how many wait under it.
    gx = slot_x(0)
    label(gx, _("Grabuge"))
    if grabuge["became_talon"]:
        _empty_slot(canvas, gx, slots_y, "→", _("talon"))
    elif grabuge["top"]:
        for depth in range(min(2, grabuge["under"]), 0, -1):
            _paste_card(canvas, None, gx + depth * 4, slots_y, back=colour.fill)
        _paste_card(canvas, grabuge["top"], gx, slots_y)
        if grabuge["playable"]:
            _ring(canvas, gx, slots_y, PLAYABLE)
    else:
        _empty_slot(canvas, gx, slots_y, _("empty"))
    if grabuge["top"]:
        under(gx, ngettext("{n} under", "{n} under", grabuge["under"]).format(
            n=grabuge["under"]))

    # Talon: a face-down card with the count on it.
    tx = slot_x(1)
    label(tx, _("Talon"))
    if player["talon"]:
        _paste_card(canvas, None, tx, slots_y, back=colour.fill)
        canvas.text((tx + CARD_W / 2, slots_y + CARD_H / 2), str(player["talon"]), 30,
                    WHITE, bold=True, anchor="mm", stroke="#0b0d10", stroke_width=3)
    else:
        _empty_slot(canvas, tx, slots_y, _("empty"))
    under(tx, ngettext("{n} card", "{n} cards", player["talon"]).format(n=player["talon"]))

    # Turned: the card being placed (the mover only), ringed in the highlight colour.
    px = slot_x(2)
    placing = view.get("placing")
    label(px, _("Turned"))
    if placing and placing.get("seat") == seat:
        _paste_card(canvas, placing["card"], px, slots_y)
        _ring(canvas, px, slots_y, PLAYABLE if placing.get("playable") else HIGHLIGHT)
        hand = view.get("hand_face_down") or 0
        under(px, *((_("{n} more").format(n=hand), _("to turn")) if hand
                    else (_("last of 4"),)))
    else:
        _empty_slot(canvas, px, slots_y)

    # Paquets won: a gold disc with the total; the breakdown under it.
    qx = slot_x(3)
    paquets = player["paquets"]
    label(qx, _("Paquets"))
    centre = (qx + CARD_W / 2, slots_y + CARD_H / 2)
    canvas.circle(centre, 34, WIN, "#6b5200", 3)
    canvas.text(centre, str(paquets["total"]), 32, "#1b1f24", bold=True, anchor="mm")
    if mark and mark.kind == "paquets" and mark.seat == seat:
        canvas.marker("last paquet", (centre[0] - 40, centre[1] - 40,
                                      centre[0] + 40, centre[1] + 40))
        canvas.circle(centre, 40, None, HIGHLIGHT, 4.5)
    # Piles won, then the grabuge bonus (★) and the paquets left at the end, when there are.
    bonus, leftover = paquets["grabuge_bonus"], paquets["leftover"]
    extra = [f"+{bonus}★"] if bonus else []
    if leftover:
        extra.append(f"+{leftover}" if bonus else _("+{n} left").format(n=leftover))
    crowned = paquets["crowned"]
    under(qx, ngettext("{n} won", "{n} won", crowned).format(n=crowned),
          *([" ".join(extra)] if extra else []))
    bounds = (x0 + 8, x0 + PANEL_W - 8)
    _draw_row(canvas, labels, labels_y, MUTED, bounds)
    for row, line in enumerate(captions):
        _draw_row(canvas, line, under_y + row * LINE, TEXT, bounds)

    # Reserve: four columns fanned downwards, the playable last cards ringed in green.
    reserve_y = slots_y + CARD_H + 2 * LINE + 38
    playable = set(player.get("playable_columns") or []) if active else set()
    for number, column in enumerate(player["reserve"], start=1):
        cx = slot_x(number - 1)
        canvas.text((cx + CARD_W / 2, reserve_y - 16), _("Col. {n}").format(n=number),
                    TEXT_SIZE, MUTED, bold=True, anchor="mm")
        _draw_column(canvas, column, cx, reserve_y,
                     ringed=number in playable,
                     marked=bool(mark and mark.kind == "column" and mark.seat == seat
                                 and mark.index == number))


CAPTION_GAP = 16.0
"""The least space between two labels or captions side by side: with less, "24 cartes" and
"encore 2" read as one phrase."""


def _draw_row(
    canvas: Canvas, texts: Sequence[tuple[float, str]], y: float, fill: Colour,
    bounds: tuple[float, float],
) -> None:
    """`texts` (wanted centre, text) on one row at `y`, each as near its centre as it can be,
    all within `bounds`, and `CAPTION_GAP` apart (less only if they cannot fit otherwise)."""
    if not texts:
        return
    left, right = bounds
    widths = [canvas.text_width(text, TEXT_SIZE) for _centre, text in texts]
    spare = right - left - sum(widths)
    gap = min(CAPTION_GAP, spare / (len(texts) - 1)) if len(texts) > 1 else 0.0
    if gap < TEXT_SIZE / 4:  # not even a space between them: each is cut to its share
        share = (right - left) / len(texts) - TEXT_SIZE / 4
        texts = [(centre, canvas.fit(text, TEXT_SIZE, share)) for centre, text in texts]
        widths = [canvas.text_width(text, TEXT_SIZE) for _centre, text in texts]
        gap = TEXT_SIZE / 4
    # Push apart from the left, then back from the right: each moves no more than it must.
    starts = [centre - width / 2 for (centre, _text), width in zip(texts, widths, strict=True)]
    edge = left
    for i, width in enumerate(widths):
        starts[i] = max(starts[i], edge)
        edge = starts[i] + width + gap
    edge = right
    for i in range(len(widths) - 1, -1, -1):
        starts[i] = min(starts[i], edge - widths[i])
        edge = starts[i] - gap
    for (_centre, text), start in zip(texts, starts, strict=True):
        canvas.text((start, y), text, TEXT_SIZE, fill, anchor="lm")


def folded(column: Sequence[str]) -> int:
    """How many of a reserve column's oldest cards the "+N" tab stands for (0: none)."""
    if len(column) <= MAX_FANNED:
        return 0
    return len(column) - (MAX_FANNED - 1)


def _draw_column(
    canvas: Canvas, column: Sequence[str], x: float, y: float, *, ringed: bool, marked: bool
) -> None:
    if not column:
        _empty_slot(canvas, x, y)
        return
    hidden = folded(column)
    shown = column[hidden:]
    if hidden:
        # The folded cards: a tab with their number, in the first card's slot.
        tab = (x, y, x + CARD_W, y + FAN_STEP + 10)
        canvas.marker("folded cards", tab)
        canvas.rect(tab, PANEL_RAISED, "#56616d", 2, radius=8)
        canvas.text((x + CARD_W / 2, y + FAN_STEP / 2 + 1), f"+{hidden}", 22, TEXT, bold=True,
                    anchor="mm")
        y += FAN_STEP
    for index, card in enumerate(shown):
        _paste_card(canvas, card, x, y + index * FAN_STEP)
    last_y = y + (len(shown) - 1) * FAN_STEP
    if marked:
        _ring(canvas, x, last_y, HIGHLIGHT)
    elif ringed:
        _ring(canvas, x, last_y, PLAYABLE)


# -- the last move -------------------------------------------------------------------------------


def _last_move(
    view: GrabugeView, names: Sequence[str] | None
) -> tuple[Mark | None, Phrase]:
    """Where the last card played or kept is now, and a footer note about it."""
    previous = view["previous_log"]
    events = list(previous["events"]) if previous else []
    events += view["log"]["events"]
    for event in reversed(events):
        kind = event.get("event")
        if kind not in ("played", "kept") or event.get("from") == "setup":
            continue
        seat = event["seat"]
        who = (player_name(names, seat),)
        label = card_label(event["card"])
        if kind == "kept":
            text = _("{name}: {card} → column {column}").format(
                name="{0}", card=label, column=event["column"])
            return Mark("column", seat, event["column"]), Phrase(text, who)
        if event.get("crowned"):
            text = _("{name} crowned a pile with {card}").format(name="{0}", card=label)
            return Mark("paquets", seat, 0), Phrase(text, who)
        text = _("{name} played {card}").format(name="{0}", card=label)
        return Mark("pile", seat, event["pile"]), Phrase(text, who)
    return None, Phrase("")
