"""Kraut & Rüben pictures: decodable, sized by the number of gardens, deterministic, faithful."""

from __future__ import annotations

import io
import random

from PIL import Image

from engines import CHANCE, GAMES
from renderers import render
from renderers.kraut_ruben import BAG_H, BAG_TOP, WIDTH, height_for
from renderers.recording import recording


def played(players: int, steps: int, seed: int = 3):
    """A game after `steps` random moves and outcomes (seeded)."""
    state = GAMES["kraut_ruben"].new_state(players)
    rng = random.Random(seed)
    last = None
    for _ in range(steps):
        if state.is_over():
            break
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            move = rng.choice(state.legal_moves())
            state.apply(move)
            last = str(move)
    return state, last


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png))


def test_a_board_decodes_at_the_width_and_the_height_of_its_gardens() -> None:
    for players, gardens in ((2, 5), (3, 4), (5, 6)):
        state, last = played(players, 40)
        image = decode(render(state.view(None), last, names=["Ann", "Ben", "Cy", "Di", "Ed"]))
        assert image.size == (WIDTH, height_for(gardens))


def test_rendering_is_deterministic() -> None:
    state, last = played(3, 60)
    view = state.view(None)
    assert render(view, last, names=["A", "B", "C"]) == render(view, last, names=["A", "B", "C"])


def test_the_picture_changes_with_the_position_and_with_the_highlight() -> None:
    state, last = played(3, 60)
    before = render(state.view(None), last)
    assert render(state.view(None), None) != before
    state.apply("draw")  # then a tile comes out of the bag: it shows as the drawn tile
    state.apply(state.legal_moves()[0])
    assert state.view(None)["drawn_tile"]
    assert render(state.view(None), last) != before


def test_a_finished_game_shows_each_garden_score() -> None:
    state, last = played(3, 5000)
    assert state.is_over()
    png = render(state.view(None), last, names=["A", "B", "C"])
    assert decode(png).size == (WIDTH, height_for(4))


def test_bag_counts_show_every_digit_clear_of_the_next_tile() -> None:
    # Each count used to be overlapped by the next kind's tile: "16" showed as "1".
    view = played(3, 0)[0].view(None)
    with recording() as drawn:
        render(view, names=["Ann", "Ben", "Cy"])
    row = [d for d in drawn if d.box[1] >= BAG_TOP and d.box[3] <= BAG_TOP + BAG_H]
    counts = [d for d in row if d.kind == "text" and d.what.isdigit()]
    tiles = [d for d in row if d.kind == "marker"]
    assert [c.what for c in counts] == [str(n) for n in view["bag"]["tiles"].values()]
    assert "16" in [c.what for c in counts]
    for count in counts:
        assert not [t.what for t in tiles if _overlap(count.box, t.box)], count
    assert any(d.what == "Bag: 85 tiles" for d in row)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])
