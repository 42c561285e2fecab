"""Shared drawing helpers that the other games' renderers will build on."""

from __future__ import annotations

import io

from PIL import Image

from engines.grid import Cell
from renderers.common import BoardGeometry, Canvas, _dash_pieces, draw_piece, seat_colour
from renderers.recording import recording
from renderers.words import Phrase, player_name, result_headline


def test_grid_geometry_puts_a1_bottom_left_on_a_15_by_15_board() -> None:
    geometry = BoardGeometry(left=10, top=20, cell=30, cols=15, rows=15)
    assert geometry.cell_box(Cell(0, 0)) == (10, 20 + 14 * 30, 40, 20 + 15 * 30)
    assert geometry.cell_box(geometry.parse("o15")) == (10 + 14 * 30, 20, 10 + 15 * 30, 50)
    assert geometry.box == (10, 20, 460, 470)


def test_player_names_fall_back_to_player_numbers() -> None:
    assert player_name(["Alice", "Bob"], 1) == "Bob"
    assert player_name(None, 0) == "Player 1"
    assert player_name(["Alice", " "], 1) == "Player 2"
    assert player_name(["Alice"], 1) == "Player 2"


def test_headline_says_whose_turn_or_how_it_ended() -> None:
    def said(headline: tuple[Phrase, int | None]) -> tuple[str, int | None]:
        return str(headline[0]), headline[1]

    assert said(result_headline(None, 1, ["Alice", "Bob"])) == ("Bob to play", 1)
    assert said(result_headline({"winners": [0]}, None, None)) == ("Player 1 wins!", 0)
    assert said(result_headline({"winners": [0, 1]}, None, None)) == ("Draw", None)
    # The name stays apart from the sentence, so that fitting shortens the name only.
    assert result_headline(None, 0, ["Alice"])[0].names == ("Alice",)


def _luminance(colour: str) -> float:
    """WCAG relative luminance."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_first_two_seats_differ_in_lightness_not_only_hue_and_by_initials() -> None:
    # Lightness survives every kind of colour blindness; the initials survive greyscale too.
    first, second = seat_colour(0), seat_colour(1)
    darker, lighter = sorted((_luminance(first.fill), _luminance(second.fill)))
    assert (lighter + 0.05) / (darker + 0.05) >= 3
    canvas = Canvas(800, 100)
    with recording() as drawn:
        draw_piece(canvas, (50, 50), 20, first, "AM")
    assert [(d.what, d.size >= canvas.min_size) for d in drawn if d.kind == "text"] == \
        [("AM", True)]


def test_long_text_is_cut_with_an_ellipsis() -> None:
    canvas = Canvas(100, 50, scale=1)
    cut = canvas.fit("A very long display name indeed", 20, 90)
    assert cut.endswith("…") and canvas.text_width(cut, 20) <= 90
    assert canvas.fit("Bo", 20, 90) == "Bo"


def test_dash_pattern_runs_on_across_corners() -> None:
    pieces = _dash_pieces([(0, 0), (10, 0), (10, 10)], dash=6, gap=2)
    assert pieces[0] == [(0, 0), (6, 0)]
    assert pieces[1] == [(8, 0), (10, 0), (10, 4)]  # this dash turns the corner
    assert pieces[2] == [(10, 6), (10, 10)]


def test_canvas_encodes_to_a_png_of_its_logical_size() -> None:
    canvas = Canvas(120, 80)
    canvas.circle((60, 40), 30, "#ff0000")
    with canvas.layer(0.5) as layer:
        layer.rect((0, 0, 40, 40), "#0000ff")
    image = Image.open(io.BytesIO(canvas.to_png()))
    assert image.size == (120, 80)
