"""Kraut & Rüben pictures in French: every word French, and the longer French words fit
their boxes for 3, 4 and 5 players (nothing cut, nothing running out or into another)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import pytest

from engines import CHANCE, GAMES
from renderers import render
from renderers.encoding import seeded_position
from renderers.kraut_ruben import (
    BAG_H,
    BAG_TOP,
    DRAWN_W,
    FOOTER_H,
    GARDENS_TOP,
    HEADER_H,
    LEGEND_H,
    MARGIN,
    STRIP_H,
    STRIP_TOP,
    TILE_ORDER,
    WIDTH,
    _panel_box,
    height_for,
)
from renderers.recording import Drawn, recording
from renderers.units import Box

NAMES = ("Zoé", "Yann", "Inès", "Ulf", "Wanda")
"""Short names: only the narrowest places (five players' chips) cut them, as in English;
any other ellipsis is a cut word."""

ENGLISH = ("Garden", "Bag", "tiles", "empty", "owner", "Moles", "Drawn", "nothing",
           "FINISHED", "full", "closed", "Last move", "game ", "wins", "tomato", "clover",
           "snail", "mole", "lettuce", "dandelion")
"""English words the picture draws: none may be left in a French picture."""

LEGEND_ROW = 38
SLOT = (WIDTH - 2 * MARGIN) / 4


@dataclass(frozen=True)
class Position:
    label: str
    view: Any
    last: str | None
    players: int


def _with_drawn(state: Any, tile: str) -> Any:
    """`state` (at a player's choice) with `tile` drawn, when the bag still holds one."""
    state = copy.deepcopy(state)
    if "draw" not in [str(m) for m in state.legal_moves()]:
        return state
    state.apply("draw")
    outcomes = [str(o) for o, _ in state.chance_outcomes()]
    state.apply(f"draw:{tile}" if f"draw:{tile}" in outcomes else outcomes[0])
    return state


def _positions() -> list[Position]:
    """The start, a game under way (with the widest tile name drawn), a late game with
    claimed and finished gardens, and the end, for 3, 4 and 5 players; and a match."""
    game = GAMES["kraut_ruben"]
    found = []
    for players in (3, 4, 5):
        for steps in (0, 40, 120, 100_000):
            state, last = seeded_position(game, players, steps, seed=steps + players)
            found.append(Position(f"{players}p-{steps}", state.view(None), last, players))
            if steps == 40 and state.current_player != CHANCE:
                drawn = _with_drawn(state, "dandelion")
                found.append(Position(f"{players}p-{steps}-drawn", drawn.view(None), last,
                                      players))
    match, last = seeded_position(game, 3, 300, seed=5, options={"match_games": 3})
    found.append(Position("3p-match", match.view(None), last, 3))
    return found


POSITIONS = _positions()


def _draw(position: Position, language: str = "fr") -> list[Drawn]:
    with recording() as drawn:
        render(position.view, position.last, names=list(NAMES[:position.players]),
               language=language)
    return [d for d in drawn if d.kind == "text" and d.what.strip()]


def _regions(position: Position) -> list[Box]:
    """The boxes the picture's words belong to: header, drawn tile, moles in hand, bag,
    each garden, each legend slot, footer."""
    gardens = len(position.view["gardens"])
    height = height_for(gardens)
    boxes: list[Box] = [
        (0, 0, WIDTH, HEADER_H),
        (MARGIN, STRIP_TOP, MARGIN + DRAWN_W, STRIP_TOP + STRIP_H),
        (MARGIN + DRAWN_W + 12, STRIP_TOP, WIDTH - MARGIN, STRIP_TOP + STRIP_H),
        (MARGIN, BAG_TOP, WIDTH - MARGIN, BAG_TOP + BAG_H),
        (0, height - FOOTER_H, WIDTH, height),
    ]
    boxes += [_panel_box(index, gardens) for index in range(gardens)]
    legend_top = height - FOOTER_H - LEGEND_H
    boxes += [(MARGIN + col * SLOT, legend_top + row * LEGEND_ROW,
               MARGIN + (col + 1) * SLOT, legend_top + (row + 1) * LEGEND_ROW)
              for row in range(2) for col in range(4)]
    assert legend_top >= GARDENS_TOP
    return boxes


def _cut_names(texts: list[Drawn]) -> set[str]:
    """The texts that are a player's name cut short ("W…")."""
    return {d.what for d in texts
            if d.what.endswith("…") and any(name.startswith(d.what[:-1]) for name in NAMES)}


def _inside(inner: Box, outer: Box, slack: float = 0.5) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def _overlap(a: Box, b: Box, slack: float = 1.0) -> bool:
    return (min(a[2], b[2]) - max(a[0], b[0]) > slack
            and min(a[3], b[3]) - max(a[1], b[1]) > slack)


def test_the_positions_show_every_french_text_of_the_picture() -> None:
    texts = {d.what for p in POSITIONS for d in _draw(p)}
    for expected in ("Pioche : 85 cartes", "Taupes en main", "Piochée", "rien", "pissenlit",
                     "Jardin 6", "12 cases vides", "sans propriétaire",
                     "TERMINÉ", "R trèfle", "E escargot", "S salade", "M taupe"):
        assert expected in texts, expected
    assert any(t.startswith("Dernier coup : ") for t in texts)
    assert any(t.endswith(" pts") for t in texts)
    assert any(" gagne avec " in t and t.endswith(" points !") for t in texts)
    assert any(t.startswith("Kraut & Rüben · partie ") and " sur 3" in t for t in texts)
    assert any(t.startswith("J") and t[1:2].isdigit() for t in texts)  # a chip's garden


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.label)
def test_no_english_word_is_left_in_a_french_picture(position: Position) -> None:
    for text in (d.what for d in _draw(position)):
        if text.endswith(" to play"):  # the shared headline is renderers/common.py's
            continue
        assert not [word for word in ENGLISH if word in text], text


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.label)
def test_french_words_are_never_cut_and_stay_in_their_box(position: Position) -> None:
    texts = _draw(position)
    regions = _regions(position)
    cut = _cut_names(texts)
    assert cut <= _cut_names(_draw(position, "en"))  # no name cut shorter than in English
    for text in texts:
        assert text.what in cut or "…" not in text.what, f"{text.what!r} was cut"
        x0, y0, x1, y1 = text.box
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        homes = [box for box in regions
                 if box[0] <= centre[0] <= box[2] and box[1] <= centre[1] <= box[3]]
        assert homes, f"{text.what!r} lies outside every box"
        assert any(_inside(text.box, box) for box in homes), \
            f"{text.what!r} {text.box} runs out of its box {homes[0]}"


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.label)
def test_french_words_never_run_into_each_other(position: Position) -> None:
    texts = _draw(position)
    for i, text in enumerate(texts):
        clashes = [other.what for other in texts[i + 1:] if _overlap(text.box, other.box)]
        assert clashes == [], f"{text.what!r} runs into {clashes}"


def test_a_garden_foot_fits_its_longest_french_status() -> None:
    # The last bed of a claimed garden is its owner's: the longest status of a foot.
    texts = [d for p in POSITIONS for d in _draw(p)]
    reserved = [d for d in texts if d.what == "1 case réservée"]
    assert reserved, "no position shows a reserved last bed"


def test_each_language_draws_its_own_tile_letters() -> None:
    position = next(p for p in POSITIONS if p.label == "3p-120")
    french = {d.what for d in _draw(position, "fr")}
    english = {d.what for d in _draw(position, "en")}
    assert {"S salade", "R trèfle", "P pissenlit", "E escargot"} <= french
    assert {"L lettuce", "K clover", "D dandelion", "S snail"} <= english
    assert "Garden 1" in english and "Jardin 1" in french
    # The beds' pictures are cached: each language keeps its own.
    assert "Garden 1" in {d.what for d in _draw(position, "en")}
    assert "L" not in {d.what for d in _draw(position, "fr")}


def test_the_french_tile_letters_are_one_per_tile() -> None:
    from renderers.kraut_ruben import LETTERS

    for letters in LETTERS.values():
        assert sorted(letters) == sorted(TILE_ORDER)
        assert len(set(letters.values())) == len(TILE_ORDER)
        assert all(len(letter) == 1 for letter in letters.values())
