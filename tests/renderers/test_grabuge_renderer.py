"""The Grabuge renderer: valid, deterministic PNGs that show the cards, capped when long."""

from __future__ import annotations

import copy
import io
import random
from typing import Any

import pytest
from PIL import Image

from engines import CHANCE, GAMES
from engines.grabuge import GrabugeState, card_label
from renderers import render
from renderers.grabuge import CARD_W, HEIGHT, MAX_FANNED, RED, WIDTH, folded
from renderers.recording import recording
from tests.renderers.pixels import image as _image

GRABUGE = GAMES["grabuge"]


def _played(decks: int = 2, seed: int = 3, choices: int = 12) -> GrabugeState:
    """A game played at random until `choices` real choices were made (or the end)."""
    state: GrabugeState = GRABUGE.new_state(2, {"decks": decks})
    rng = random.Random(seed)
    made = 0
    while not state.is_over() and made < choices:
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        legal = state.legal_moves()
        made += len(legal) > 1
        state.apply(rng.choice(legal))
    return state


def _red_pixels(png: bytes) -> int:
    red = tuple(int(RED[i:i + 2], 16) for i in (1, 3, 5))
    colours = _image(png).getcolors(WIDTH * HEIGHT) or []
    return sum(count for count, pixel in colours
               if all(abs(a - b) <= 20 for a, b in zip(pixel, red, strict=True)))


def _with_cards(view: dict[str, Any], card: str) -> dict[str, Any]:
    """The view with every face-up card replaced by `card`."""
    view = copy.deepcopy(view)
    for pile in view["tableau"]:
        pile["cards"] = [card] * len(pile["cards"])
        pile["top"] = card
    for player in view["players"]:
        if player["grabuge"]["top"]:
            player["grabuge"]["top"] = card
        player["reserve"] = [[card] * len(column) for column in player["reserve"]]
    if view["placing"]:
        view["placing"]["card"] = card
    return view


def test_png_decodes_at_the_expected_size() -> None:
    png = render(GRABUGE.new_state(2).view(None))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    image.verify()
    assert image.size == (WIDTH, HEIGHT) == (800, 1060)


@pytest.mark.parametrize("highlight", [None, "keep 2"])
def test_same_input_gives_identical_bytes(highlight: str | None) -> None:
    view = _played().view(None)
    first = render(view, highlight, names=["Alice", "Bob"])
    assert render(copy.deepcopy(view), highlight, names=["Alice", "Bob"]) == first


def test_rendering_does_not_modify_the_view() -> None:
    view = _played().view(None)
    before = copy.deepcopy(view)
    render(view, "keep 1", names=["Alice", "Bob"])
    assert view == before


def test_image_changes_when_the_position_changes() -> None:
    state = _played(choices=5)
    before = render(state.view(None))
    state.apply(state.legal_moves()[-1])
    assert render(state.view(None)) != before


def test_highlighting_the_last_move_changes_the_image() -> None:
    view = _played().view(None)
    assert render(view, "keep 1") != render(view)


def test_names_appear_in_the_picture() -> None:
    view = _played().view(None)
    assert render(view, names=["Alice", "Bob"]) != render(view, names=["Zoé", "Bob"])


def test_hearts_and_diamonds_are_red_spades_and_clubs_are_not() -> None:
    view = _played().view(None)
    assert _red_pixels(render(_with_cards(view, "7H"))) > 500
    assert _red_pixels(render(_with_cards(view, "7S"))) < 50


def test_long_columns_and_many_piles_are_capped_with_a_count() -> None:
    view = _played(decks=8, choices=40).view(None)
    long = copy.deepcopy(view)
    long["players"][0]["reserve"][0] = ["9C"] * 30
    longer = copy.deepcopy(long)
    longer["players"][0]["reserve"][0] = ["9C"] * 31
    assert render(long) != render(longer)  # the "+N" tab counts the folded cards
    crowded = copy.deepcopy(view)
    crowded["tableau"] = [{"id": n, "cards": ["5D"], "top": "5D", "count": 1, "needs": "6"}
                          for n in range(1, 33)]
    image = _image(render(crowded))
    assert image.size == (WIDTH, HEIGHT)


def test_the_final_board_renders_the_result() -> None:
    state = _played(choices=10_000)
    assert state.is_over()
    png = render(state.view(None), "keep 1", names=["Alice", "Bob"])
    assert _image(png).size == (WIDTH, HEIGHT)
    assert png != render(_played(choices=5).view(None))


def test_the_folded_tab_counts_exactly_the_cards_it_hides() -> None:
    assert [folded(["9C"] * n) for n in (0, 6, MAX_FANNED, MAX_FANNED + 1, 30)] == \
        [0, 0, 0, 2, 30 - (MAX_FANNED - 1)]
    view = copy.deepcopy(_played().view(None))
    column = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"]
    ranks = [card_label(card)[:-1] for card in column]
    for player in view["players"]:
        player["reserve"] = [[], [], [], []]
    view["players"][0]["reserve"][0] = column
    with recording() as drawn:
        render(view)
    tab = next(d for d in drawn if d.kind == "text" and d.what.startswith("+")
               and d.what[1:].isdigit())
    # The cards drawn below the tab, in the tab's column: their ranks, oldest first.
    below = [d.what for d in drawn if d.kind == "text" and d.box[1] > tab.box[1]
             and tab.box[0] - CARD_W / 2 < d.box[0] < tab.box[2]
             and d.what in ranks]
    hidden = int(tab.what[1:])
    assert hidden + len(below) == len(column)
    assert below == ranks[hidden:]


def _panel_texts(view: Any, language: str) -> list[tuple[int, Any]]:
    """Each text drawn in a player's panel, with the panel's seat."""
    from renderers.grabuge import FOOTER, PANEL_W, PANELS_TOP

    with recording() as drawn:
        render(view, names=["Alice", "🤖 IA (Moyen)"], language=language)
    found = []
    for d in drawn:
        if d.kind == "text" and PANELS_TOP < d.box[1] < FOOTER[1]:
            centre = (d.box[0] + d.box[2]) / 2
            found.append((0 if centre < 10 + PANEL_W + 5 else 1, d))
    return found


def test_the_paquets_breakdown_stays_inside_its_panel() -> None:
    # French "14 gagnés" and "+4 (reste)" once ran out of the panel's right edge.
    from renderers.grabuge import PANEL_W

    view: Any = copy.deepcopy(_played().view(None))
    view["players"][0]["paquets"].update(crowned=14, leftover=4, grabuge_bonus=0, total=18)
    view["players"][1]["paquets"].update(crowned=12, leftover=0, grabuge_bonus=2, total=14)
    for language in ("en", "fr"):
        texts = _panel_texts(view, language)
        assert {"14 gagnés", "+4 (reste)", "12 gagnés"} <= {d.what for _s, d in texts} \
            or language == "en"
        for seat, d in texts:
            x0 = 10 + seat * (PANEL_W + 10)
            assert x0 + 4 <= d.box[0] and d.box[2] <= x0 + PANEL_W - 4, (language, d)


def test_captions_side_by_side_are_clearly_apart() -> None:
    # French "24 cartes" sat one space from "encore 2": they read as one phrase.
    from renderers.grabuge import CAPTION_GAP

    view: Any = copy.deepcopy(_played().view(None))
    view["placing"] = {"seat": 1, "card": "5C", "playable": False, "pile": None}
    view["hand_face_down"] = 2  # "2 more / to turn" under the card being placed
    view["players"][1]["paquets"].update(crowned=14)
    # 104 cards (eight decks): the widest row, whose gaps may shrink a little to fit.
    for language, talon, least in (("en", 24, CAPTION_GAP), ("fr", 24, CAPTION_GAP),
                                   ("fr", 104, 12.0)):
        view["players"][1]["talon"] = talon
        texts = _panel_texts(view, language)
        for seat in (0, 1):
            mine = [d for s, d in texts if s == seat]
            for a in mine:
                for b in mine:
                    same_row = abs((a.box[1] + a.box[3]) - (b.box[1] + b.box[3])) < 4
                    if a is not b and same_row and a.box[0] < b.box[0]:
                        assert b.box[0] - a.box[2] >= least - 1.5, (a.what, b.what)
