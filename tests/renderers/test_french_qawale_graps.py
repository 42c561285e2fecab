"""Qawale and Graps pictures in French: every word drawn is French, and the longer French
words fit: nothing cut short, nothing out of the picture, no text running into another."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from engines import GAMES
from renderers import render
from renderers.encoding import seeded_position
from renderers.recording import Drawn, recording
from tests.renderers.test_readability import _overlap, _width_height

NAMES = ("Zoé Quint", "Yann Ortega")
"""Ordinary names (a chip or a headline may shorten them, by design, as in English)."""
PRUNING = ("/".join(["." * 15] * 2 + [".......O.......", ".......o.......", "......xo......."]
                    + ["." * 15] * 8 + ["......x........", "......X........"])
           + " 0 grape 40 41")
"""Graps: Dark to place a grape, and g12 prunes Light's h13 (see test_graps_renderer)."""


@dataclass(frozen=True)
class Picture:
    """A view to draw in French, with the move to mark."""

    label: str
    view: Any
    highlight: str | None = None
    preview: bool = False


def _pictures() -> list[Picture]:
    """Start, mid-game, a preview and a finished game of each; Graps after a pruning too."""
    found = []
    for game, steps in (("qawale", 14), ("graps", 24)):
        start, _ = seeded_position(GAMES[game], 2, 0, seed=1)
        found.append(Picture(f"{game}-start", start.view(None)))
        mid, last = seeded_position(GAMES[game], 2, steps, seed=steps)
        found.append(Picture(f"{game}-mid", mid.view(None), last))
        proposal = str(mid.legal_moves()[0])
        found.append(Picture(f"{game}-mid-preview", mid.view(None), proposal, preview=True))
        for seed in (1, 2, 3):
            end, last = seeded_position(GAMES[game], 2, 10_000, seed=seed)
            found.append(Picture(f"{game}-end-{seed}", end.view(None), last))
    qawale, _ = seeded_position(GAMES["qawale"], 2, 6, seed=6)
    partial = str(qawale.legal_moves()[0]).split(":")[0] + ":"  # a stack chosen, no step yet
    found.append(Picture("qawale-partial-preview", qawale.view(None), partial, preview=True))
    pruned = GAMES["graps"].from_position(PRUNING)
    pruned.apply("g12")
    found.append(Picture("graps-pruned", pruned.view(None), "g12"))
    return found


PICTURES = _pictures()


def _without_names(text: str) -> str:
    """`text` with every player's name, whole or shortened with "…", taken out."""
    for name in NAMES:
        for length in range(len(name), 2, -1):
            text = text.replace(name[:length].rstrip() + "…", "").replace(name, "")
    return text


def _texts(picture: Picture, language: str) -> tuple[list[Drawn], tuple[int, int]]:
    with recording() as drawn:
        png = render(picture.view, picture.highlight, preview=picture.preview, names=NAMES,
                     language=language)
    return [d for d in drawn if d.kind == "text" and d.what.strip()], _width_height(png)


@pytest.mark.parametrize("picture", PICTURES, ids=lambda p: p.label)
def test_no_french_text_is_cut_or_overflows(picture: Picture) -> None:
    texts, (width, height) = _texts(picture, "fr")
    assert texts
    meant = {"Lancer du dé…"}  # ellipses of the sentence itself
    cut = [d.what for d in texts if d.what not in meant and "…" in _without_names(d.what)]
    assert cut == [], "a French text was cut to fit"
    for text in texts:
        x0, y0, x1, y1 = text.box
        assert x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height, text
    for index, text in enumerate(texts):
        clashes = [other.what for other in texts[index + 1:] if _overlap(text.box, other.box)]
        assert clashes == [], f"{text.what!r} runs into {clashes}"


ENGLISH = {"left", "in", "PREVIEW", "Next", "Last", "move", "wins", "GRAPE", "BLANK", "Rolled",
           "Opening", "place", "vine", "pruned", "cut", "off", "empty", "over", "Rolling", "die",
           "played", "yet", "line", "pebbles", "land", "reached", "closer", "blockade"}
"""Words of these games' English pictures that French never uses."""
SHARED = {"Draw"}
"""Headlines of renderers.common ("… to play", "Draw"): shared by every game, not these."""


@pytest.mark.parametrize("picture", PICTURES, ids=lambda p: p.label)
def test_no_english_word_is_left_in_a_french_picture(picture: Picture) -> None:
    texts, _ = _texts(picture, "fr")
    shown = [d.what for d in texts if d.what not in SHARED and not d.what.endswith(" to play")]
    assert [(text, set(re.findall(r"\w+", text)) & ENGLISH) for text in shown
            if set(re.findall(r"\w+", text)) & ENGLISH] == []


def test_the_french_pictures_use_the_games_words() -> None:
    seen = {label: " | ".join(d.what for d in _texts(p, "fr")[0])
            for p in PICTURES for label in [p.label]}
    assert "8 restants" in seen["qawale-start"]
    assert "APERÇU — pas encore joué" in seen["qawale-mid-preview"]
    assert "À suivre :" in seen["qawale-partial-preview"]
    assert "Dernier coup : " in seen["qawale-mid"]
    assert "45 en stock" in seen["graps-start"]
    assert "Raisin de départ" in seen["graps-start"] and "RAISIN" in seen["graps-start"]
    assert "placez le 1er raisin" in seen["graps-start"]
    assert "Yann Ortega : 3 taillés" in seen["graps-pruned"]
    ends = " ".join(text for label, text in seen.items() if "-end-" in label)
    assert " gagne — " in ends or "Égalité" in ends


def test_the_same_pictures_stay_english_by_default() -> None:
    start = next(p for p in PICTURES if p.label == "graps-start")
    words = " | ".join(d.what for d in _texts(start, "en")[0])
    assert "45 in stock" in words and "Opening grape" in words and "GRAPE" in words
    qawale = next(p for p in PICTURES if p.label == "qawale-mid-preview")
    assert "PREVIEW — not played yet" in " | ".join(d.what for d in _texts(qawale, "en")[0])
