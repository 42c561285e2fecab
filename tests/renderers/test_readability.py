"""Every game's picture read on a phone: text and markers big enough, names ellipsized and
never cut, players marked by their initials, plurals right, nothing clipped or covered."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from engines import GAMES
from renderers import render
from renderers.common import Canvas
from renderers.encoding import seeded_position
from renderers.recording import Drawn, recording
from renderers.units import MIN_PHONE_PX, PHONE_WIDTH, Box
from renderers.words import Phrase, initials, plural

BEFORE_DOUBLE = ["i1>e3", "c13-d12", "e3-h6", "i15>g15", "a1>a3", "g15>i15", "a3-f8",
                 "a15>a13", "c3-d4"]
"""Granat: Blue to move, and it must capture with a13 (tests/renderers/test_granat_renderer)."""

LONG_NAMES = ("Maximilienne Wolfeschlegelsteins", "Bartholomew Featherstonehaughss")
"""Two 32-character names (and 31), which fit no chip, pill or headline whole."""
NAMES = ("Zoé Quint", "yann", "Ines Ortega", "Ulf", "Wanda Vex")
"""Names whose initials (ZQ, Y, IO, U, WV) are none of the old seat letters A–F."""


@dataclass(frozen=True)
class Position:
    """A view to draw, with its last move and how many players it has."""

    label: str
    view: Any
    last: str | None
    players: int


def _positions() -> list[Position]:
    """The start and a mid-game position of every game (and Granat with a capture due)."""
    found = []
    for game, players, steps in (("qawale", 2, 14), ("graps", 2, 24), ("kraut_ruben", 3, 50),
                                 ("kraut_ruben", 5, 90), ("grabuge", 2, 80),
                                 ("granat", 2, 20)):
        start, _ = seeded_position(GAMES[game], players, 0, seed=1)
        found.append(Position(f"{game}-{players}-start", start.view(None), None, players))
        mid, last = seeded_position(GAMES[game], players, steps, seed=steps)
        found.append(Position(f"{game}-{players}-mid", mid.view(None), last, players))
    granat = GAMES["granat"].new_state(2)
    for move in BEFORE_DOUBLE:
        granat.apply(move)
    found.append(Position("granat-capture-due", granat.view(None), BEFORE_DOUBLE[-1], 2))
    return found


POSITIONS = _positions()
GAMES_SEEN = sorted({p.view["game"] for p in POSITIONS})


def _drawn(position: Position, names: Sequence[str], *, preview: str | None = None
           ) -> tuple[list[Drawn], bytes]:
    with recording() as drawn:
        if preview:
            png = render(position.view, preview, preview=True, names=names[:position.players])
        else:
            png = render(position.view, position.last, names=names[:position.players])
    return drawn, png


def _overlap(a: Box, b: Box, slack: float = 1.0) -> bool:
    """True when two boxes share more than a sliver (`slack` pixels each way)."""
    return (min(a[2], b[2]) - max(a[0], b[0]) > slack
            and min(a[3], b[3]) - max(a[1], b[1]) > slack)


def _width_height(png: bytes) -> tuple[int, int]:
    from tests.renderers.pixels import image

    return image(png).size


def test_every_game_is_covered() -> None:
    assert sorted(GAMES) == GAMES_SEEN


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.label)
def test_every_text_and_marker_is_at_least_9_px_on_a_phone(position: Position) -> None:
    drawn, png = _drawn(position, NAMES)
    texts = [d for d in drawn if d.kind == "text" and d.what.strip()]
    markers = [d for d in drawn if d.kind == "marker"]
    assert texts and markers  # the renderer does draw through the recorded helpers
    width, _ = _width_height(png)
    assert all(d.canvas_width in (width, 100) for d in drawn)  # 100: cached tile icons
    small = [(d.what, round(d.phone_size, 1)) for d in drawn if d.phone_size < MIN_PHONE_PX]
    assert small == [], f"smaller than {MIN_PHONE_PX} px at {PHONE_WIDTH} px wide"


def test_the_size_check_catches_a_small_label() -> None:
    canvas = Canvas(800, 100)
    with recording() as drawn:
        canvas.text((10, 10), "a1", 18)
        canvas.marker("dot", (0, 0, 13, 13))
    assert [round(d.phone_size, 2) for d in drawn] == [8.1, 5.85]
    assert canvas.min_size == 20  # 9 px × 800 / 360


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.label)
def test_long_names_end_with_an_ellipsis_and_fit_their_box(position: Position) -> None:
    names = LONG_NAMES * 3
    drawn, png = _drawn(position, names)
    width, height = _width_height(png)
    texts = [d for d in drawn if d.kind == "text" and d.what.strip()]
    shown = [d for d in texts if any(name[:6] in d.what for name in names)]
    assert shown  # every picture names its players somewhere
    for text in shown:
        name = next(name for name in names if name[:6] in text.what)
        start = text.what.index(name[:6])
        cut = text.what[start:].split("…")[0]
        assert "…" in text.what[start:] and name.startswith(cut) and len(cut) < len(name), \
            text.what
        x0, y0, x1, y1 = text.box
        assert x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height, text
        clashes = [other.what for other in texts if other is not text
                   and _overlap(text.box, other.box)]
        assert clashes == [], f"{text.what!r} runs into {clashes}"


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.label)
def test_players_are_marked_by_their_initials(position: Position) -> None:
    drawn, _ = _drawn(position, NAMES)
    texts = {d.what for d in drawn if d.kind == "text"}
    marks = initials(NAMES[:position.players], position.players)
    assert set(marks) <= texts
    if position.view["game"] in ("qawale", "granat"):
        # Their pieces once carried seat letters (A/B, R/B): none is left.
        assert not texts & {"A", "B", "R"}


def test_initials_are_first_and_last_words_and_always_told_apart() -> None:
    assert initials(["Alice Martin", "bob"], 2) == ["AM", "B"]
    assert initials(["jean-luc picard", "Zoé"], 2) == ["JP", "Z"]
    assert initials(None, 2) == ["P1", "P2"]
    assert initials(["Alice Martin", "Anna Moreau"], 2) == ["Al", "An"]
    assert initials(["Bob", "Bob"], 2) == ["B1", "B2"]
    assert initials(["🎲", "Ann"], 2) == ["P1", "A"]
    for names in (["Ann Bee", "Ab", "AB"], ["P1", "Player 1", "p 1"], ["B1", "Bob", "Bo"]):
        marks = initials(names, 3)
        assert len(set(marks)) == 3, marks
        assert all(1 <= len(mark) <= 2 for mark in marks)


def test_plurals() -> None:
    assert plural(1, "pebble") == "1 pebble"
    assert plural(0, "pile") == "0 piles"
    assert plural(16, "tile") == "16 tiles"
    assert plural(2.5, "point") == "2.5 points"
    assert plural(1, "paquet") == "1 paquet"
    assert plural(3, "child", "children") == "3 children"


def test_no_picture_says_1_with_a_plural_noun() -> None:
    for position in POSITIONS:
        drawn, _ = _drawn(position, NAMES)
        for text in (d.what for d in drawn if d.kind == "text"):
            words = text.replace("·", " ").split()
            for count, noun in itertools.pairwise(words):
                if count in ("1", "-1"):
                    assert noun in ("left", "won", "more", "under", "of") or \
                        not noun.endswith("s"), text


def test_long_phrases_shrink_the_names_before_the_sentence() -> None:
    canvas = Canvas(800, 100)
    phrase = Phrase("{0} wins — every pawn taken", (LONG_NAMES[0],))
    fitted = canvas.fit_phrase(phrase, 32, 640, bold=True)
    assert fitted.endswith(" wins — every pawn taken") and "…" in fitted
    assert canvas.text_width(fitted, 32, bold=True) <= 640
    assert canvas.fit_phrase(Phrase("{0} to play", ("Bob",)), 32, 500) == "Bob to play"
    lines = canvas.wrap("A neutral pawn on e8: yellow lines count as black", 21, 300, 2)
    assert len(lines) == 2 and " ".join(lines) == \
        "A neutral pawn on e8: yellow lines count as black"
