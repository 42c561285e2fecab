"""Kraut & Rüben pictures: decodable, sized by the number of gardens, deterministic, faithful."""

from __future__ import annotations

import io
import random

from PIL import Image

from engines import CHANCE, GAMES
from renderers import render
from renderers.kraut_ruben import BAG_H, BAG_TOP, WIDTH, height_for
from renderers.recording import recording


def step(state, rng: random.Random) -> str | None:
    """One random move or chance outcome (seeded); the move's notation, None for chance."""
    if state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        return None
    move = rng.choice(state.legal_moves())
    state.apply(move)
    return str(move)


def played(players: int, steps: int, seed: int = 3):
    """A game after `steps` random moves and outcomes (seeded)."""
    state = GAMES["kraut_ruben"].new_state(players)
    rng = random.Random(seed)
    last = None
    for _ in range(steps):
        if state.is_over():
            break
        last = step(state, rng) or last
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


def _two_finished() -> tuple[object, str | None]:
    """Five players in game 2 of a match, two of them finished (seeded)."""
    state = GAMES["kraut_ruben"].new_state(5, {"match_games": 3})
    rng = random.Random(11)
    last = None
    while not state.is_over():
        view = state.view(None)
        if view["game_number"] == 2 and view["turn"] is not None and \
                sum(bool(p.get("finished")) for p in view["players"]) >= 2:
            return state, last
        last = step(state, rng) or last
    raise AssertionError("no such position")


FIVE = ["Alice", "Bob", "Chloé", "David", "🤖 AI (Medium)"]


def test_five_chips_keep_several_letters_of_each_name_when_players_finish() -> None:
    # A finished player's "✓" once left its chip ~40 px: names were cut down to "…".
    from renderers.kraut_ruben import HEADER_H

    state, last = _two_finished()
    view = state.view(None)  # type: ignore[attr-defined]
    finished = [p["seat"] for p in view["players"] if p.get("finished")]
    for language in ("en", "fr"):
        with recording() as drawn:
            render(view, last, names=FIVE, language=language)
        chips = [d for d in drawn if d.kind == "text" and d.box[1] > HEADER_H * 0.56
                 and d.box[3] < HEADER_H and len(d.what) > 2]
        shown = sorted(d.what for d in chips)
        assert shown == ["AI (Me…", "Alice", "Bob", "Chloé", "David"], shown
        done = [d for d in drawn if d.kind == "marker" and d.what == "done"]
        assert len(done) == len(finished) == 2
        assert all(d.size >= 20 for d in done)


def test_bag_counts_keep_clear_of_the_next_tile_in_both_languages() -> None:
    from renderers.kraut_ruben import BAG_GAP

    for players in (2, 5):
        state, last = played(players, 0)
        for language in ("en", "fr"):
            with recording() as drawn:
                render(state.view(None), last, language=language)
            row = [d for d in drawn if d.box[1] >= BAG_TOP and d.box[3] <= BAG_TOP + BAG_H]
            counts = sorted((d for d in row if d.kind == "text" and d.what.isdigit()),
                            key=lambda d: d.box[0])
            tiles = sorted((d for d in row if d.kind == "marker"), key=lambda d: d.box[0])
            assert len(counts) == len(tiles) == 7
            for count, next_tile in zip(counts, tiles[1:], strict=False):
                assert next_tile.box[0] - count.box[2] >= BAG_GAP - 1, (language, count)


def test_garden_feet_stay_inside_their_panel() -> None:
    # English "last bed: owner only · 🐌 2/2 · 🦔 1/2" once ran to the panel's border.
    from renderers.kraut_ruben import _panel_box

    state, last = _two_finished()
    view = state.view(None)  # type: ignore[attr-defined]
    gardens = len(view["gardens"])
    assert any(g.get("last_bed_reserved") for g in view["gardens"])
    for language in ("en", "fr"):
        with recording() as drawn:
            render(view, last, names=FIVE, language=language)
        for index in range(gardens):
            x0, y0, x1, y1 = _panel_box(index, gardens)
            inside = [d for d in drawn if d.kind == "text" and x0 <= d.box[0] < x1
                      and y0 <= d.box[1] < y1]
            assert inside
            assert max(d.box[2] for d in inside) <= x1 - 10, (language, index)
