"""Kraut & Rüben: one test per rule of shared/rules/kraut_ruben.md, from small built states."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping

import pytest

from engines import kraut_ruben as kr
from engines.base import CHANCE, IllegalMove
from engines.kraut_ruben import (
    BEDS,
    CONTRACTS,
    KRAUT_RUBEN,
    VEGETABLES,
    Bed,
    DrawTile,
    KrautRubenState,
    Phase,
    Place,
    PlayMole,
    Tile,
    score_tiles,
)
from tests.engines.conformance import pick

LETTERS = {
    "t": Tile.TOMATO,
    "a": Tile.ASPARAGUS,
    "c": Tile.CARROT,
    "l": Tile.LETTUCE,
    "k": Tile.CLOVER,
    "d": Tile.DANDELION,
    "s": Tile.SNAIL,
    "m": Tile.MOLE,
}
"""One letter per tile for garden layouts: k is clover (c is carrot)."""

FULL = "t t t t | t t t t | t t t t"
EMPTY = "- - - - | - - - - | - - - -"


def layout(text: str) -> list[list[str]]:
    """12 beds from `t t c - | ...`: rows A–C split by |, one token per bed, `ts` = t under s."""
    rows = [row.split() for row in text.split("|")]
    assert len(rows) == 3 and all(len(row) == 4 for row in rows), text
    tokens = [token for row in rows for token in row]
    return [[] if token == "-" else [LETTERS[ch].value for ch in token] for token in tokens]


def build(
    players: int = 3,
    gardens: Mapping[int, str] | None = None,
    owners: Mapping[int, int] | None = None,
    contracts: tuple[int, ...] = (1, 4, 7, 10, 12),
    turn: int = 0,
    bag: Mapping[Tile, int] | None = None,
    moles: Mapping[int, bool] | None = None,
    options: Mapping[str, object] | None = None,
) -> KrautRubenState:
    """Contracts dealt by chance outcomes, then gardens, owners, bag and turn set directly."""
    state = KRAUT_RUBEN.new_state(players, options)
    for number in contracts[:players]:
        state.apply(f"contract:{number}")
    for number, text in (gardens or {}).items():
        state.gardens[number - 1] = layout(text)
    for number, seat in (owners or {}).items():
        state.owners[number - 1] = seat
        if seat not in state.take_order:
            state.take_order.append(seat)
    if bag is not None:
        state.bag = {tile: bag.get(tile, 0) for tile in kr.BAG_ORDER}
    for seat, available in (moles or {}).items():
        state.moles[seat] = available
    state.turn_seat, state.phase = turn, Phase.CHOOSE
    return state


def draw(state: KrautRubenState, tile: str) -> None:
    """The player to move draws, and the bag yields `tile`."""
    state.apply("draw")
    state.apply(f"draw:{tile}")


def moves(state: KrautRubenState) -> set[str]:
    return {str(m) for m in state.legal_moves()}


# -- material and set-up --------------------------------------------------------------------


def test_the_bag_holds_85_tiles_16_of_each_vegetable_and_7_clover_dandelion_snail() -> None:
    state = KRAUT_RUBEN.new_state(3)
    assert state.bag_count == 85
    assert all(state.bag[v] == 16 for v in VEGETABLES)
    assert state.bag[Tile.CLOVER] == state.bag[Tile.DANDELION] == state.bag[Tile.SNAIL] == 7
    assert Tile.MOLE not in state.bag


@pytest.mark.parametrize(("players", "gardens"), [(2, 5), (3, 4), (4, 5), (5, 6)])
def test_there_is_one_garden_more_than_players_and_five_for_two(players: int, gardens: int) -> None:
    state = KRAUT_RUBEN.new_state(players)
    assert len(state.gardens) == gardens
    assert all(len(garden) == 12 for garden in state.gardens)
    assert [str(bed) for bed in BEDS][:5] == ["A1", "A2", "A3", "A4", "B1"]


def test_contracts_are_dealt_by_chance_one_per_seat_in_order_never_twice() -> None:
    state = KRAUT_RUBEN.new_state(3)
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 12 and all(p == pytest.approx(1 / 12) for _, p in outcomes)
    state.apply("contract:5")
    assert "contract:5" not in moves(state) and len(moves(state)) == 11
    with pytest.raises(IllegalMove, match="contract 5 has already been dealt"):
        state.apply("contract:5")
    with pytest.raises(IllegalMove, match="there is no contract 13"):
        state.apply("contract:13")
    state.apply("contract:9")
    state.apply("contract:1")
    assert [c.number for c in map(state.contract_of, range(3))] == [5, 9, 1]
    assert state.current_player == 0
    assert all(state.moles)


def test_the_contract_table_is_data_with_four_different_vegetables_per_card() -> None:
    assert len(CONTRACTS) == 12
    assert [c.number for c in CONTRACTS] == list(range(1, 13))
    for contract in CONTRACTS:
        assert {contract.main, contract.high, contract.low, contract.minus} == set(VEGETABLES)
    assert Counter(c.main for c in CONTRACTS) == dict.fromkeys(VEGETABLES, 3)
    first = CONTRACTS[0]
    assert (first.main, first.high, first.low, first.minus) == (
        Tile.TOMATO, Tile.LETTUCE, Tile.CARROT, Tile.ASPARAGUS,
    )


# -- scoring -------------------------------------------------------------------------------


def test_the_seeds_worked_example_scores_8_line_by_line() -> None:
    # 3 tomatoes, 2 carrots, 2 lettuces, 1 asparagus, 1 clover, 1 snail, 1 dandelion, 1 mole.
    state = build(gardens={1: "t t t c | c l l a | k ls d cm"}, owners={1: 0})
    score = state.garden_score(1, 1)
    assert score["total"] == 8
    assert (score["main_count"], score["column"]) == (3, 4)
    assert [line["text"] for line in score["lines"]] == [
        "3 tomatoes: main vegetable, column 4",
        "2 lettuces × 3 = 6",
        "2 carrots × 2 = 4",
        "1 asparagus × -2 = -2",
        "1 clover × 1 = 1",
        "1 dandelion × 0 = 0",
        "1 snail × -1 = -1",
        "1 mole × 0 = 0",
    ]
    assert state.points_of(0) == 8


def test_two_tomatoes_and_ten_lettuces_score_the_maximum_40() -> None:
    state = build(gardens={1: "t t l l | l l l l | l l l l"}, owners={1: 0})
    assert state.garden_score(1, 1)["total"] == 40
    assert state.points_of(0) == 40


@pytest.mark.parametrize(
    ("tomatoes", "expected"),
    [(0, 3), (1, 5), (2, 7), (3, 5), (4, 3), (5, 1), (6, 0), (7, 0)],
)
def test_plus_vegetables_score_by_the_column_of_the_main_vegetable_count(
    tomatoes: int, expected: int
) -> None:
    # contract 1: lettuce is the high plus vegetable, carrot the low one
    tops = [Tile.TOMATO] * tomatoes + [Tile.LETTUCE, Tile.CARROT]
    assert score_tiles(tops, CONTRACTS[0])["total"] == expected


def test_the_minus_vegetable_costs_two_and_clover_snail_dandelion_mole_are_fixed() -> None:
    tops = [Tile.ASPARAGUS, Tile.ASPARAGUS, Tile.CLOVER, Tile.SNAIL, Tile.DANDELION, Tile.MOLE]
    # no tomato: column 1; -4 + 1 - 1 + 0 + 0
    assert score_tiles(tops, CONTRACTS[0])["total"] == -4


def test_only_the_top_tile_of_each_bed_counts() -> None:
    state = build(gardens={1: "ls - - - | - - - - | - - - -"})
    assert state.garden_score(1, 1)["total"] == -1


# -- drawing and placing -------------------------------------------------------------------


def test_a_draw_is_a_chance_node_with_probability_count_over_tiles_left() -> None:
    state = build()
    state.apply("draw")
    assert state.current_player == CHANCE
    odds = {str(o): p for o, p in state.chance_outcomes()}
    assert odds["draw:tomato"] == pytest.approx(16 / 85)
    assert odds["draw:snail"] == pytest.approx(7 / 85)
    assert sum(odds.values()) == pytest.approx(1)
    state.apply("draw:tomato")
    state.apply("1A1")
    state.apply("end")
    state.apply("draw")
    odds = {str(o): p for o, p in state.chance_outcomes()}
    assert odds["draw:tomato"] == pytest.approx(15 / 84)


def test_a_tile_no_longer_in_the_bag_cannot_be_drawn() -> None:
    state = build(bag={Tile.CARROT: 2})
    state.apply("draw")
    assert moves(state) == {"draw:carrot"}
    with pytest.raises(IllegalMove, match="no tomato is left in the bag"):
        state.apply("draw:tomato")


def test_seat_0_starts_and_turns_follow_seat_order() -> None:
    state = KRAUT_RUBEN.new_state(3)
    for number in (1, 2, 3):
        state.apply(f"contract:{number}")
    assert state.current_player == 0
    draw(state, "tomato")
    state.apply("1A1")
    state.apply("end")
    assert state.current_player == 1


def test_a_drawn_plant_goes_on_any_empty_bed_of_any_garden() -> None:
    state = build(gardens={2: "c - - - | - - - - | - - - -"})
    draw(state, "clover")
    assert len(state.placements()) == 4 * 12 - 1
    assert "2A1" not in {str(p) for p in state.placements()}
    with pytest.raises(IllegalMove, match=r"2A1 is not empty .* a clover goes on an empty bed"):
        state.apply("2A1")
    state.apply("4C4")
    assert state.top(4, Bed(2, 3)) is Tile.CLOVER


def test_a_snail_must_cover_a_tile_already_placed() -> None:
    state = build(gardens={2: "c - - - | - - - - | - - - -"})
    draw(state, "snail")
    assert [str(p) for p in state.placements()] == ["2A1"]
    with pytest.raises(IllegalMove, match="1A1 is empty: a snail must cover a tile already placed"):
        state.apply("1A1")
    state.apply("2A1")
    assert state.gardens[1][0] == ["carrot", "snail"]


def test_a_snail_goes_on_an_empty_bed_only_when_no_tile_can_be_covered() -> None:
    state = build()
    draw(state, "snail")
    assert len(state.placements()) == 4 * 12
    state.apply("3B2")
    assert state.gardens[2][Bed(1, 1).index] == ["snail"]


def test_a_snail_that_can_go_nowhere_is_discarded() -> None:
    crowded = "s s - - | - - - - | - - - -"
    state = build(gardens=dict.fromkeys(range(1, 5), crowded))
    draw(state, "snail")
    assert moves(state) == {"discard"}
    before = state.bag_count
    state.apply("discard")
    assert state.discarded[Tile.SNAIL] == 1 and state.bag_count == before
    assert state.last_action == {"seat": 0, "action": "discard", "tile": "snail"}


def test_at_most_two_snails_per_garden() -> None:
    state = build(gardens={1: "ts cs l - | - - - - | - - - -", 2: "c - - - | - - - - | - - - -"})
    draw(state, "snail")
    assert [str(p) for p in state.placements()] == ["2A1"]
    with pytest.raises(IllegalMove, match="garden 1 already holds 2 snails"):
        state.apply("1A3")


def test_the_mole_covers_a_tile_instead_of_drawing_once_per_game() -> None:
    state = build(gardens={1: "t c - - | - - - - | - - - -"}, owners={2: 0})
    assert {"draw", "mole 1A1", "mole 1A2"} <= moves(state)
    with pytest.raises(IllegalMove, match="1A3 is empty: a mole must cover a tile already placed"):
        state.apply("mole 1A3")
    state.apply("mole 1A1")
    assert state.gardens[0][0] == ["tomato", "mole"] and not state.moles[0]
    assert state.current_player == 1  # seat 0 owns a garden: the turn passes at once
    state.apply("mole 1A2")
    state.apply("end")
    draw(state, "carrot")
    state.apply("3A1")
    state.apply("end")
    assert state.current_player == 0
    with pytest.raises(IllegalMove, match="already played your mole"):
        state.apply("mole 1B1")
    assert not any(isinstance(m, PlayMole) for m in state.legal_moves())


def test_at_most_two_moles_per_garden() -> None:
    state = build(gardens={1: "tm cm l - | - - - - | - - - -", 2: "c - - - | - - - - | - - - -"})
    assert {str(m) for m in state.mole_targets()} == {"mole 2A1"}
    with pytest.raises(IllegalMove, match="garden 1 already holds 2 moles"):
        state.apply("mole 1A3")


def test_snails_and_moles_never_cover_a_snail_or_a_mole() -> None:
    state = build(gardens={1: "ts c - - | - - - - | - - - -", 2: "tm - - - | - - - - | - - - -"})
    with pytest.raises(IllegalMove, match="1A1 shows a snail: a mole may cover a vegetable"):
        state.apply("mole 1A1")
    draw(state, "snail")
    assert [str(p) for p in state.placements()] == ["1A2"]
    with pytest.raises(IllegalMove, match="2A1 shows a mole: a snail may cover a vegetable"):
        state.apply("2A1")


def test_a_drawn_plant_with_no_legal_bed_is_discarded(monkeypatch: pytest.MonkeyPatch) -> None:
    # With forced takes on, a player always has a bed for a plant; without them it can happen.
    monkeypatch.setattr(kr, "FORCED_TAKE_WHEN_UNOWNED_GARDENS_FULL", False)
    state = build(gardens={1: FULL, 2: FULL, 3: FULL, 4: "t t t t | t t t t | t t t -"},
                  owners={4: 1})
    draw(state, "lettuce")
    assert moves(state) == {"discard"} and state.must_discard()
    state.apply("discard")
    assert state.discarded[Tile.LETTUCE] == 1
    assert moves(state) == {"take 1", "take 2", "take 3", "end"}


def test_discard_is_refused_while_the_tile_can_go_somewhere() -> None:
    state = build()
    draw(state, "tomato")
    with pytest.raises(IllegalMove, match="the tomato can still go somewhere"):
        state.apply("discard")


# -- taking gardens ----------------------------------------------------------------------------


def test_after_placing_a_player_may_take_an_unowned_garden_and_others_still_plant_in_it() -> None:
    state = build()
    draw(state, "carrot")
    state.apply("1A1")
    assert moves(state) == {"take 1", "take 2", "take 3", "take 4", "end"}
    state.apply("take 1")
    assert state.owners[0] == 0 and state.gardens_of(0) == [1]
    assert state.current_player == 1
    draw(state, "tomato")
    state.apply("1A2")
    assert state.top(1, Bed(0, 1)) is Tile.TOMATO


def test_a_player_takes_a_garden_only_once_per_game() -> None:
    state = build(owners={1: 0})
    draw(state, "carrot")
    state.apply("2A1")
    assert state.current_player == 1  # no take step for a player who owns a garden
    draw(state, "carrot")
    state.apply("2A2")
    with pytest.raises(IllegalMove, match="garden 1 already belongs to seat 0"):
        state.apply("take 1")


def test_take_and_end_come_only_after_placing() -> None:
    state = build()
    with pytest.raises(IllegalMove, match="only after placing a tile"):
        state.apply("take 1")
    with pytest.raises(IllegalMove, match="only after placing a tile"):
        state.apply("end")
    with pytest.raises(IllegalMove, match="no tile in hand"):
        state.apply("1A1")


def test_a_player_may_take_a_garden_after_playing_the_mole() -> None:
    state = build(gardens={1: "t - - - | - - - - | - - - -"})
    state.apply("mole 1A1")
    assert state.can_take() and state.can_end_turn()
    state.apply("take 1")
    assert state.gardens_of(0) == [1]


def test_the_last_empty_bed_of_an_owned_garden_is_reserved_to_its_owner() -> None:
    state = build(gardens={1: "t t t t | t t t t | t t t -"}, owners={1: 1})
    draw(state, "lettuce")
    assert "1C4" not in {str(p) for p in state.placements()}
    with pytest.raises(IllegalMove, match="last empty bed of garden 1, which belongs to seat 1"):
        state.apply("1C4")
    state.apply("2A1")
    state.apply("end")
    draw(state, "lettuce")
    assert "1C4" in {str(p) for p in state.placements()}


def test_others_may_still_send_a_snail_or_the_mole_into_a_garden_at_its_last_bed() -> None:
    state = build(gardens={1: "t t t t | t t t t | t t t -"}, owners={1: 1})
    assert "mole 1A1" in moves(state)
    draw(state, "snail")
    assert "1A1" in {str(p) for p in state.placements()}
    state.apply("1A1")
    assert state.top(1, Bed(0, 0)) is Tile.SNAIL


def test_a_full_garden_finishes_its_owner_and_is_closed_to_snails_and_moles() -> None:
    state = build(gardens={1: "t t t t | t t t t | t t t -", 2: "c - - - | - - - - | - - - -"},
                  owners={1: 1}, turn=1)
    draw(state, "tomato")
    state.apply("1C4")
    assert state.is_finished(1) and state.is_closed(1)
    assert state.current_player == 2
    with pytest.raises(IllegalMove, match="garden 1 is full and owned: nobody may put a mole"):
        state.apply("mole 1A1")
    draw(state, "snail")
    assert [str(p) for p in state.placements()] == ["2A1"]


def test_finished_players_are_skipped() -> None:
    state = build(gardens={1: FULL}, owners={1: 1})
    assert state.is_finished(1)
    draw(state, "tomato")
    state.apply("2A1")
    state.apply("end")
    assert state.current_player == 2
    draw(state, "tomato")
    state.apply("2A2")
    state.apply("end")
    assert state.current_player == 0


def test_a_player_without_a_garden_must_take_one_when_every_unowned_garden_is_full() -> None:
    state = build(gardens={1: FULL, 2: FULL}, owners={3: 1, 4: 2})
    assert state.must_take()
    assert moves(state) == {"take 1", "take 2"}
    with pytest.raises(IllegalMove, match="every unowned garden is full: you must take a garden"):
        state.apply("draw")
    with pytest.raises(IllegalMove, match="garden 3 already belongs to seat 1"):
        state.apply("take 3")
    state.apply("take 2")
    assert state.last_action == {"seat": 0, "action": "take", "garden": 2, "forced": True}


def test_a_player_without_a_garden_must_take_one_when_the_bag_is_empty() -> None:
    state = build(bag={}, owners={3: 1, 4: 2})
    assert moves(state) == {"take 1", "take 2"}
    with pytest.raises(IllegalMove, match="the bag is empty: you must take a garden"):
        state.apply("mole 1A1")


def test_taking_a_full_garden_finishes_the_taker_at_once() -> None:
    state = build(gardens={1: FULL, 2: "c - - - | - - - - | - - - -"})
    draw(state, "tomato")
    state.apply("2A2")
    state.apply("take 1")
    assert state.is_finished(0)
    assert state.current_player == 1
    state.apply("draw")
    state.apply("draw:tomato")
    state.apply("2A3")
    state.apply("end")
    assert state.current_player == 2


# -- the end ------------------------------------------------------------------------------------


def test_the_game_ends_when_every_player_is_finished() -> None:
    state = build(
        gardens={1: "t t l l | l l l l | l l l -", 2: FULL, 3: FULL},
        owners={2: 1, 3: 2, 1: 0},
    )
    draw(state, "lettuce")
    state.apply("1C4")
    assert state.is_over() and state.current_player is None
    result = state.result()
    assert result.reason == "all_finished"
    assert result.scores == [40, state.garden_points(2, 4), state.garden_points(3, 7)]
    assert result.winners == [0]
    with pytest.raises(IllegalMove, match="the game is over"):
        state.apply("draw")


def test_the_game_ends_when_the_bag_is_empty_and_nobody_can_place() -> None:
    state = build(
        bag={Tile.CARROT: 1}, owners={1: 0, 2: 1, 3: 2}, moles={0: False, 1: False, 2: False}
    )
    draw(state, "carrot")
    state.apply("4A1")
    assert state.is_over()
    assert state.result().reason == "bag_empty"


def test_players_still_without_a_garden_take_one_in_turn_order_once_the_bag_is_empty() -> None:
    state = build(bag={Tile.CARROT: 1}, moles={0: False, 1: False, 2: False})
    draw(state, "carrot")
    state.apply("1A1")
    state.apply("end")
    assert (state.current_player, moves(state)) == (1, {"take 1", "take 2", "take 3", "take 4"})
    state.apply("take 2")
    assert state.current_player == 2
    state.apply("take 1")
    assert state.current_player == 0
    state.apply("take 4")
    assert state.is_over() and state.result().reason == "bag_empty"
    assert state.take_order == [1, 2, 0]


def test_moles_are_played_out_after_the_bag_is_empty() -> None:
    state = build(bag={Tile.CARROT: 1}, owners={1: 0, 2: 1, 3: 2}, moles={0: False, 2: False})
    draw(state, "carrot")
    state.apply("4A1")
    assert state.current_player == 1
    assert moves(state) == {"mole 4A1"}
    state.apply("mole 4A1")
    assert state.is_over() and state.result().reason == "bag_empty"


def test_without_playing_out_moles_the_game_ends_with_the_bag(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(kr, "MOLES_PLAYED_OUT_AFTER_BAG_EMPTY", False)
    state = build(bag={Tile.CARROT: 1}, owners={1: 0, 2: 1, 3: 2})
    draw(state, "carrot")
    state.apply("4A1")
    assert state.is_over() and state.result().reason == "bag_empty"


def test_the_garden_nobody_took_scores_for_nobody() -> None:
    state = build(gardens={1: FULL, 2: FULL, 3: "t t l l | l l l l | l l l -",
                           4: "l l l l | l l l l | l l l l"}, owners={1: 1, 2: 2, 3: 0})
    draw(state, "lettuce")
    state.apply("3C4")
    final = state.view(None)["final"]
    assert final["gardens"][3]["owner"] is None and final["gardens"][3]["score"] is None
    assert sum(p["points"] for p in final["players"]) == sum(
        g["score"]["total"] for g in final["gardens"] if g["score"]
    )


def test_a_tie_goes_to_the_player_who_took_a_garden_first() -> None:
    # contracts 1 and 2 both score this garden 0 (no carrot, lettuce, asparagus…)
    state = build(
        gardens={1: "t t t t | t t t t | t t t -", 2: FULL, 3: "d d d d | d d d d | d d d d"},
        owners={3: 2, 2: 1, 1: 0},
        contracts=(1, 2, 4),
    )
    draw(state, "dandelion")
    state.apply("1C4")
    result = state.result()
    assert result.scores == [0, 0, 0]
    assert state.take_order == [2, 1, 0] and result.winners == [2]


# -- two players -------------------------------------------------------------------------------


def test_two_players_each_take_two_gardens_never_in_the_same_turn() -> None:
    state = build(players=2)
    assert state.gardens_per_player == 2
    draw(state, "carrot")
    state.apply("1A1")
    state.apply("take 1")
    assert state.current_player == 1
    draw(state, "carrot")
    state.apply("1A2")
    state.apply("end")
    draw(state, "carrot")
    state.apply("2A1")
    assert moves(state) == {"take 2", "take 3", "take 4", "take 5", "end"}
    state.apply("take 3")
    assert state.gardens_of(0) == [1, 3]
    state.apply("draw")
    state.apply("draw:carrot")
    state.apply("2A2")
    state.apply("end")
    draw(state, "carrot")
    state.apply("2A3")
    assert state.current_player == 1  # two gardens owned: no take step any more


def test_two_players_score_each_garden_on_its_own_and_add_them() -> None:
    example = "t t t c | c l l a | k ls d cm"
    state = build(players=2, gardens={1: "t t l l | l l l l | l l l l", 2: example},
                  owners={1: 0, 2: 0})
    assert state.points_of(0) == 40 + 8


def test_two_players_pool_both_gardens_when_so_decided(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kr, "TWO_PLAYER_GARDENS_SCORED_SEPARATELY", False)
    state = build(players=2, gardens={1: "t t l l | l l l l | l l l l", 2: FULL},
                  owners={1: 0, 2: 0})
    assert state.points_of(0) == 0  # 14 tomatoes: column 6+, plus vegetables score nothing


def test_a_two_player_is_finished_only_with_two_full_gardens() -> None:
    state = build(players=2, gardens={1: FULL}, owners={1: 0})
    assert not state.is_finished(0)
    assert "draw" in moves(state)
    state.gardens[2] = layout(FULL)
    state.owners[2] = 0
    assert state.is_finished(0)


# -- the three-game match and the cup ------------------------------------------------------------


def finish_game_quickly(
    state: KrautRubenState, contracts: tuple[int, ...], first: str, takes: tuple[int, ...]
) -> None:
    """Deal, leave one tile in the bag; seat 0 plants it then `first` (take N or end);
    then the bag is empty and the seats still without a garden take `takes` in turn order."""
    for number in contracts:
        state.apply(f"contract:{number}")
    assert state.current_player == 0
    state.bag = dict.fromkeys(kr.BAG_ORDER, 0)
    state.bag[Tile.CLOVER] = 1
    state.moles = [False] * state.num_players
    draw(state, "clover")
    state.apply("1A1")
    state.apply(first)
    for garden in takes:
        state.apply(f"take {garden}")


def test_match_games_option_is_1_or_3() -> None:
    assert KRAUT_RUBEN.options == {"match_games": 1}
    assert KRAUT_RUBEN.new_state(3, {"match_games": 3}).options["match_games"] == 3
    with pytest.raises(ValueError, match="match_games"):
        KRAUT_RUBEN.new_state(3, {"match_games": 2})


def test_a_match_plays_three_games_with_new_contracts_seat_0_starting_each() -> None:
    state = KRAUT_RUBEN.new_state(3, {"match_games": 3})
    finish_game_quickly(state, (1, 2, 3), "take 1", (2, 3))
    assert not state.is_over() and state.game_number == 2
    assert state.current_player == CHANCE and len(state.legal_moves()) == 12
    assert state.bag_count == 85 and all(state.moles) and state.owners == [None] * 4
    assert len(state.records) == 1 and not state.take_order
    finish_game_quickly(state, (1, 2, 3), "end", (1, 2, 3))
    finish_game_quickly(state, (10, 11, 12), "take 4", (2, 3))
    assert state.is_over() and state.result().reason == "match_total"
    assert [r["game_number"] for r in state.records] == [1, 2, 3]
    third = [p["contract"]["number"] for p in state.records[2]["players"]]
    assert third == [10, 11, 12]


def test_the_cup_gives_3_points_to_the_first_taker_of_each_game() -> None:
    state = KRAUT_RUBEN.new_state(3, {"match_games": 3})
    finish_game_quickly(state, (1, 2, 3), "take 1", (2, 3))
    finish_game_quickly(state, (1, 2, 3), "end", (1, 2, 3))
    finish_game_quickly(state, (4, 5, 6), "end", (3, 4, 2))
    assert [r["cup"] for r in state.records] == [0, 1, 1]
    assert [p["cup"] for p in state.records[1]["players"]] == [0, 3, 0]
    second = state.records[1]["players"][1]
    assert second["total"] == second["points"] + 3
    totals = [sum(r["players"][s]["total"] for r in state.records) for s in range(3)]
    assert state.result().scores == totals == state.match_totals()
    assert state.result().winners == [s for s in range(3) if totals[s] == max(totals)]


def test_a_single_game_has_no_cup() -> None:
    state = KRAUT_RUBEN.new_state(3)
    finish_game_quickly(state, (1, 2, 3), "take 1", (2, 3))
    assert state.records[0]["cup"] is None
    assert state.result().scores == [p["points"] for p in state.records[0]["players"]]


def test_a_tie_on_the_match_total_is_a_shared_win() -> None:
    state = KRAUT_RUBEN.new_state(2, {"match_games": 3})
    state.records = [
        {"players": [{"total": 10}, {"total": 7}], "take_order": [0, 1]},
        {"players": [{"total": 5}, {"total": 8}], "take_order": [1, 0]},
        {"players": [{"total": 1}, {"total": 1}], "take_order": [1, 0]},
    ]
    assert state._final_result().winners == [0, 1]


def test_a_match_tie_can_go_to_the_first_taker_of_the_last_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(kr, "MATCH_TIE_IS_SHARED", False)
    state = KRAUT_RUBEN.new_state(2, {"match_games": 3})
    state.records = [
        {"players": [{"total": 10}, {"total": 7}], "take_order": [0, 1]},
        {"players": [{"total": 1}, {"total": 4}], "take_order": [1, 0]},
    ]
    assert state._final_result().winners == [1]


# -- views ---------------------------------------------------------------------------------------


def _other_contracts_swapped(state: KrautRubenState, seat: int) -> KrautRubenState:
    """A twin whose other seats hold different contracts (everything else equal)."""
    twin = state.clone()
    unused = [c.number for c in CONTRACTS if c.number not in state.contracts]
    twin.contracts = [
        number if s == seat else unused[s] for s, number in enumerate(state.contracts)
    ]
    return twin


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_view_never_shows_another_seats_contract(players: int) -> None:
    rng = random.Random(players)
    state = KRAUT_RUBEN.new_state(players)
    while not state.is_over():
        for seat in [None, *range(players)]:
            view = state.view(seat)
            for player in view["players"]:
                if player["seat"] != seat:
                    assert player["contract"] is None
            if seat is not None:
                assert view == _other_contracts_swapped(state, seat).view(seat)
                own = state.contract_of(seat)
                assert view["your_contract"] == (own.to_dict() if own else None)
            else:
                assert view["your_contract"] is None and view["your_garden_points"] is None
            if state.current_player == CHANCE:
                assert view["legal_moves"] == []
        state.apply(pick(state, rng))
    contracts = [p["contract"]["number"] for p in state.view(None)["final"]["players"]]
    assert contracts == state.contracts


def test_a_view_shows_the_drawn_tile_the_bag_owners_and_covered_tiles() -> None:
    state = build(gardens={1: "ts c - - | - - - - | - - - -"}, owners={1: 2})
    draw(state, "lettuce")
    view = state.view(0)
    json.dumps(view)
    assert view["drawn_tile"] == "lettuce" and view["phase"] == "place" and view["turn"] == 0
    assert view["bag"]["count"] == 84 and view["bag"]["tiles"]["lettuce"] == 15
    garden = view["gardens"][0]
    assert garden["owner"] == 2 and garden["snails"] == 1 and garden["empty_beds"] == 10
    assert garden["grid"][0][0] == ["tomato", "snail"] and garden["grid"][2][3] == []
    assert view["players"][2]["gardens"] == [1]
    assert "1A3" in view["placements"] and view["legal_moves"] == view["placements"]
    assert view["your_contract"]["main"] == "tomato"
    assert view["your_garden_points"][0] == state.garden_points(1, 1)


def test_a_view_at_the_end_reveals_every_contract_and_each_gardens_score_line_by_line() -> None:
    # the seed's example garden, its last bed still empty
    example = "t t t c | c l l a | k ls d -"
    state = build(gardens={1: FULL, 2: FULL, 3: example}, owners={1: 1, 2: 2, 3: 0})
    draw(state, "dandelion")
    state.apply("3C4")
    view = state.view(1)
    final = view["final"]
    assert final == view["games"][-1] and final["reason"] == "all_finished"
    assert [p["contract"]["number"] for p in final["players"]] == [1, 4, 7]
    score = final["gardens"][2]["score"]
    assert (score["contract"], score["total"]) == (1, 8)
    assert [line["text"] for line in score["lines"]][-2:] == [
        "2 dandelions × 0 = 0",
        "1 snail × -1 = -1",
    ]
    assert final["gardens"][2]["grid"][2][1] == ["lettuce", "snail"]
    assert final["players"][0]["points"] == 8 == view["result"]["scores"][0]


# -- notation and helpers ------------------------------------------------------------------


def test_notation_is_canonical_and_read_tolerantly() -> None:
    state = build()
    assert state.parse_move("  3 b 2 ") == Place(3, Bed(1, 1))
    assert str(state.parse_move("3b2")) == "3B2"
    assert str(state.parse_move("MOLE 3 b2")) == "mole 3B2"
    assert str(state.parse_move("take  4")) == "take 4"
    assert str(state.parse_move("Draw : Tomate")) == "draw:tomato"
    assert state.parse_move("draw:salad") == DrawTile(Tile.LETTUCE)
    assert str(state.parse_move("contract : 5")) == "contract:5"
    assert [str(state.parse_move(t)) for t in ("DRAW", " end ", "Discard")] == [
        "draw", "end", "discard",
    ]


def test_unreadable_or_impossible_notation_is_refused_in_plain_words() -> None:
    state = build()
    with pytest.raises(IllegalMove, match="D2 is not a bed"):
        state.apply("3D2")
    with pytest.raises(IllegalMove, match="'potato' is not a tile of the bag"):
        state.apply("draw:potato")
    with pytest.raises(IllegalMove, match="is not a Kraut & Rüben move"):
        state.apply("plant a tomato")
    with pytest.raises(IllegalMove, match="there is no garden 9: the gardens go from 1 to 4"):
        state.apply("mole 9A1")


def test_a_full_unowned_garden_still_takes_snails_and_moles() -> None:
    state = build(gardens={1: FULL})
    assert "mole 1A1" in moves(state)
    draw(state, "snail")
    assert "1A1" in {str(p) for p in state.placements()}


def test_the_ui_helpers_list_gardens_beds_takes_and_end() -> None:
    state = build(gardens={1: "t - - - | - - - - | - - - -"})
    assert state.can_draw() and state.can_play_mole() and not state.can_take()
    assert state.mole_gardens() == [1] and state.mole_beds(1) == ["A1"]
    draw(state, "snail")
    assert state.drawn_tile is Tile.SNAIL
    assert state.placement_gardens() == [1] and state.placement_beds(1) == ["A1"]
    assert not state.can_end_turn() and not state.must_discard()
    state.apply("1A1")
    assert state.can_take() and state.can_end_turn() and state.takeable_gardens() == [1, 2, 3, 4]
    view = state.view(0)
    assert view["may_take"] and view["may_end_turn"] and view["takeable_gardens"] == [1, 2, 3, 4]


def test_a_random_three_game_match_reaches_its_end() -> None:
    rng = random.Random(7)
    state = KRAUT_RUBEN.new_state(4, {"match_games": 3})
    while not state.is_over():
        state.apply(pick(state, rng))
    assert len(state.records) == 3 and state.result().reason == "match_total"
    assert KRAUT_RUBEN.load(json.loads(json.dumps(state.dump()))).dump() == state.dump()
