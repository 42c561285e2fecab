"""Le Grabuge and Granat pictures in French: every word French, and the longer French words
still fit: nothing cut with an ellipsis, nothing off the picture, no text over another."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

import pytest

from engines import GAMES
from renderers import render
from renderers.encoding import seeded_position
from renderers.recording import Drawn, recording
from renderers.units import Box

NAMES = ("Zoé", "Yann")
"""Short names: any ellipsis would then come from the sentence itself."""

MEANT_TO_TRAIL = ("En attente…", "On retourne une carte…")
"""French texts that end with an ellipsis of their own."""

ENGLISH = re.compile(r"\b(to play|wins|Waiting|Turning|Turned|under|more|left|empty|decks|turn|"
                     r"Last|must|garnet|pawn|pawns|captures|slides|steps|PREVIEW|PROTECTS|"
                     r"MUST LEAVE|Green rings|yellow lines|Ace|King|No pile|cards?|card)\b")
"""English words that a French picture must not show (the game's own words — talon,
grabuge, paquet, tableau, Granat — are French already)."""

SHARED = re.compile(r"^\S+ (to play|wins!)")
"""The status sentence every game shares (renderers/common.py, translated on its own)."""

BEFORE_DOUBLE = ["i1>e3", "c13-d12", "e3-h6", "i15>g15", "a1>a3", "g15>i15", "a3-f8",
                 "a15>a13", "c3-d4"]
"""Granat: Blue to move, and it must capture with a13 (tests/renderers/test_readability)."""


@dataclass(frozen=True)
class Picture:
    """A view to draw in French, and how."""

    label: str
    view: Any
    last: str | None
    preview: bool = False


def _grabuge_pictures() -> list[Picture]:
    game = GAMES["grabuge"]
    pictures = []
    for plies, seed in ((0, 1), (30, 3), (80, 80), (200, 7), (100_000, 5)):
        state, last = seeded_position(game, 2, plies, seed=seed)
        pictures.append(Picture(f"grabuge-{plies}", state.view(None), last))
    for seed in range(40):  # a card that cannot go on the tableau: "where does it go?"
        state, last = seeded_position(game, 2, 12, seed=seed)
        if state.decision() == "keep":
            pictures.append(Picture("grabuge-keep", state.view(None), last))
            break
    for seed in range(40):  # several reserve cards can go: "which reserve card?"
        state, last = seeded_position(game, 2, 60, seed=seed)
        if state.decision() == "reserve":
            pictures.append(Picture("grabuge-reserve", state.view(None), last))
            break
    state, last = seeded_position(game, 2, 40, seed=2, options={"decks": 8})
    pictures.append(Picture("grabuge-8-decks", state.view(None), last))
    return pictures


def _granat_pictures() -> list[Picture]:
    game = GAMES["granat"]
    pictures = []
    for plies, seed in ((0, 1), (20, 20), (60, 4), (100_000, 9)):
        state, last = seeded_position(game, 2, plies, seed=seed)
        pictures.append(Picture(f"granat-{plies}", state.view(None), last))
    state = game.new_state(2)
    for move in BEFORE_DOUBLE:
        state.apply(move)
    pictures.append(Picture("granat-capture-due", state.view(None), BEFORE_DOUBLE[-1]))
    pictures.append(Picture("granat-preview", state.view(None), "a13xg7xi5", preview=True))
    state.apply("a13xg7xi5")
    pictures.append(Picture("granat-long-capture", state.view(None), "a13xg7xi5"))
    for label, position in (("protecting", "1 R:e8*,c3 B:a13*,c13 0"),
                            ("must-leave", "0 R:e8*,c3 B:a13*,c13 0"),
                            ("neutral-on-e8", "0 R:e8,c3,a1* B:a13*,c13 0"),
                            ("red-may-stop", "0 R:c3,e3 B:a13*,c13 0"),
                            ("both-may-stop", "0 R:c3,e3 B:c13,e13 0")):
        pictures.append(Picture(f"granat-{label}", game.from_position(position).view(None),
                                None))
    return pictures


PICTURES = _grabuge_pictures() + _granat_pictures()


def _drawn(picture: Picture, language: str) -> tuple[list[Drawn], tuple[int, int]]:
    from tests.renderers.pixels import image

    with recording() as drawn:
        png = render(picture.view, picture.last, preview=picture.preview, names=NAMES,
                     language=language)
    texts = [d for d in drawn if d.kind == "text" and d.what.strip()]
    return texts, image(png).size


def _overlap(a: Box, b: Box, slack: float = 1.0) -> bool:
    return (min(a[2], b[2]) - max(a[0], b[0]) > slack
            and min(a[3], b[3]) - max(a[1], b[1]) > slack)


def test_every_kind_of_picture_is_drawn() -> None:
    labels = {p.label for p in PICTURES}
    assert {"grabuge-keep", "grabuge-reserve"} <= labels


@pytest.mark.parametrize("picture", PICTURES, ids=lambda p: p.label)
def test_french_words_are_never_cut_and_stay_on_the_picture(picture: Picture) -> None:
    texts, (width, height) = _drawn(picture, "fr")
    cut = [t.what for t in texts if t.what.endswith("…") and t.what not in MEANT_TO_TRAIL]
    assert cut == []
    for text in texts:
        x0, y0, x1, y1 = text.box
        assert x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height, text


@pytest.mark.parametrize("picture", PICTURES, ids=lambda p: p.label)
def test_french_words_do_not_run_into_each_other(picture: Picture) -> None:
    texts, _size = _drawn(picture, "fr")
    words = [t for t in texts if re.search(r"[A-Za-zÀ-ÿ]{2}", t.what)]
    clashes = [(a.what, b.what) for a, b in itertools.combinations(words, 2)
               if _overlap(a.box, b.box)]
    assert clashes == []


@pytest.mark.parametrize("picture", PICTURES, ids=lambda p: p.label)
def test_a_french_picture_shows_no_english_word(picture: Picture) -> None:
    texts, _size = _drawn(picture, "fr")
    english = [t.what for t in texts if ENGLISH.search(SHARED.sub("", t.what))]
    assert english == []


def test_grabuge_in_french_names_its_places_with_the_games_words() -> None:
    picture = next(p for p in PICTURES if p.label == "grabuge-30")
    french = {t.what for t in _drawn(picture, "fr")[0]}
    english = {t.what for t in _drawn(picture, "en")[0]}
    assert {"Grabuge", "Talon", "Retournée", "Paquets"} <= french
    assert any(t.startswith("Le Grabuge · 2 jeux · tour ") for t in french)
    assert "L’as ouvre une pile · le roi la gagne" in french
    assert {"Turned", "Ace starts a pile · King wins it"} <= english


def test_granat_in_french_tells_the_last_move_and_the_rules_in_force() -> None:
    capture_due = next(p for p in PICTURES if p.label == "granat-capture-due")
    french = [t.what for t in _drawn(capture_due, "fr")[0]]
    assert "À Yann de jouer — doit prendre" in french
    assert "Dernier : c3-d4 — pion neutre c3 avance en d4" in french
    assert "Anneaux verts : les pions qui doivent prendre" in french
    protecting = next(p for p in PICTURES if p.label == "granat-protecting")
    french = [t.what for t in _drawn(protecting, "fr")[0]]
    assert "PROTÈGE" in french
    english = [t.what for t in _drawn(protecting, "en")[0]]
    assert "PROTECTS" in english
