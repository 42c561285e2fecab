"""Le Grabuge: one test per rule of shared/rules/grabuge.md, plus the contract smoke test."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from engines import grabuge as grabuge_engine
from engines.base import CHANCE, IllegalMove
from engines.grabuge import (
    CARDS,
    GRABUGE,
    CoinFlip,
    GrabugeState,
    KeepCard,
    Pass,
    PlayDrawn,
    PlayGrabuge,
    PlayReserve,
    TurnCard,
    parse_notation,
)
from tests.engines.conformance import pick

Grabuge = tuple[str | None, int]
"""A grabuge for `table`: (face-up top card or None, cards face down under it)."""


def table(
    *,
    to_move: int = 0,
    piles: Sequence[Sequence[str]] = (),
    grabuges: tuple[Grabuge, Grabuge] = ((None, 0), (None, 0)),
    talons: tuple[int, int] = (0, 0),
    reserves: tuple[Sequence[Sequence[str]], Sequence[Sequence[str]]] = ((), ()),
    drawn: str | None = None,
    hand: int = 0,
    became_talon: tuple[bool, bool] = (False, False),
    bonus_seat: int | None = None,
    crowned: tuple[int, int] = (0, 0),
) -> GrabugeState:
    """A two-deck game in the middle of `to_move`'s turn, built through a dump.

    Without a drawn card or cards in hand, the turn is at its cascade (step 1); with
    them, the draw step is done. The engine then runs its automatic steps.
    """
    state = GRABUGE.new_state(2)
    data = state.dump()
    columns = [[list(c) for c in (*seat, *([()] * (4 - len(seat))))] for seat in reserves]
    visible = [card for pile in piles for card in pile]
    visible += [top for top, _ in grabuges if top] + [c for s in columns for col in s for c in col]
    visible += [drawn] if drawn else []
    unseen = [2 - visible.count(card) for card in CARDS]
    assert min(unseen) >= 0, "a two-deck table holds each card at most twice"
    data["state"].update(
        unseen=unseen,
        piles=[{"id": i, "cards": list(pile)} for i, pile in enumerate(piles, start=1)],
        next_pile_id=len(piles) + 1,
        talon=list(talons),
        grabuge_top=[top for top, _ in grabuges],
        grabuge_down=[under for _, under in grabuges],
        grabuge_became_talon=list(became_talon),
        reserves=columns,
        crowned=list(crowned),
        bonus_seat=bonus_seat,
        hand=hand,
        drawn=drawn,
        drew=drawn is not None or hand > 0,
        setup=False,
        to_move=to_move,
        pending=None,
        turn=1,
        log={"turn": 1, "seat": to_move, "events": []},
    )
    state = GRABUGE.load(data)
    assert isinstance(state, GrabugeState)
    state._advance()  # the automatic steps a real turn would have run to get here
    return state


def moves(state: GrabugeState) -> list[str]:
    return [str(move) for move in state.legal_moves()]


def play(state: GrabugeState, *notations: str) -> GrabugeState:
    for notation in notations:
        state.apply(notation)
    return state


def illegal(state: GrabugeState, notation: str) -> str:
    """The IllegalMove reason for `notation`; the state must not change."""
    before = state.dump()
    with pytest.raises(IllegalMove) as error:
        state.apply(notation)
    assert state.dump() == before
    return str(error.value)


def events(state: GrabugeState, kind: str) -> list[dict[str, Any]]:
    logs = [state.previous_log or {"events": []}, state.log]
    return [event for log in logs for event in log["events"] if event["event"] == kind]


# -- material and set-up --------------------------------------------------------------------


def test_each_player_has_half_the_cards_eight_of_them_in_the_grabuge() -> None:
    state = GRABUGE.new_state(2)
    assert state.talon == [44, 44]
    assert state.grabuge_down == [8, 8]
    assert state.unseen_total == 104
    assert state.current_player == CHANCE
    assert state.view(None)["turning"] == {"seat": 0, "for": "grabuge", "setup": True}


@pytest.mark.parametrize("decks", [2, 4, 6, 8])
def test_decks_option_plays_with_two_four_six_or_eight_decks(decks: int) -> None:
    state = GRABUGE.new_state(2, {"decks": decks})
    assert state.talon == [decks * 26 - 8] * 2
    assert state.unseen_total == decks * 52
    outcomes = dict((str(move), chance) for move, chance in state.chance_outcomes())
    assert len(outcomes) == 52
    assert outcomes["card:QH"] == pytest.approx(1 / 52)
    assert state.view(None)["decks"] == decks


def test_decks_option_refuses_other_numbers_and_defaults_to_two() -> None:
    assert GRABUGE.options == {"decks": 2}
    for bad in (1, 3, 10, True, "2"):
        with pytest.raises(ValueError):
            GRABUGE.new_state(2, {"decks": bad})


def test_a_card_turned_has_probability_copies_unseen_over_cards_unseen() -> None:
    state = play(GRABUGE.new_state(2), "card:AS")
    outcomes = dict((str(move), chance) for move, chance in state.chance_outcomes())
    assert outcomes["card:AS"] == pytest.approx(1 / 103)
    assert outcomes["card:QH"] == pytest.approx(2 / 103)
    assert sum(outcomes.values()) == pytest.approx(1)
    play(state, "card:AS")
    assert "card:AS" not in moves(state) and len(moves(state)) == 51
    assert "already been turned up" in illegal(state, "card:AS")


def test_setup_aces_go_to_the_tableau_without_a_move_and_the_next_card_is_turned() -> None:
    state = play(GRABUGE.new_state(2), "card:AS", "card:AH")
    assert [pile["cards"] for pile in state.piles] == [["AS"], ["AH"]]
    assert state.current_player == CHANCE and state.to_move == 0
    assert state.grabuge_down[0] == 6 and state.grabuge_top[0] is None
    play(state, "card:7C")
    assert state.grabuge_top[0] == "7C"
    assert [event["from"] for event in events(state, "played")] == ["setup", "setup"]


def test_seat_zero_grabuge_is_turned_first_then_seat_one() -> None:
    state = GRABUGE.new_state(2)
    play(state, "card:5D")
    assert state.grabuge_top == ["5D", None]
    assert state.view(1)["turning"] == {"seat": 1, "for": "grabuge", "setup": True}
    play(state, "card:AC", "card:9C")
    assert state.grabuge_top == ["5D", "9C"]
    assert [pile["cards"] for pile in state.piles] == [["AC"]]


@pytest.mark.parametrize(
    ("cards", "first"),
    [(("5D", "9C"), 1), (("KS", "QH"), 0), (("2S", "AH", "AD", "3C"), 1), (("TC", "9S"), 0)],
)
def test_the_higher_turned_card_plays_first_ace_low_king_high(
    cards: tuple[str, ...], first: int
) -> None:
    state = play(GRABUGE.new_state(2), *(f"card:{card}" for card in cards))
    assert not state.setup
    assert state.log["seat"] == first and state.to_move == first
    assert [(e["seat"], e["by"]) for e in events(state, "first")] == [(first, "cards")]


def test_equal_turned_ranks_are_settled_by_a_coin_flip() -> None:
    state = play(GRABUGE.new_state(2), "card:7S", "card:7H")
    assert state.current_player == CHANCE and state.decision() == "coin"
    assert [(str(move), chance) for move, chance in state.chance_outcomes()] == [
        ("first:0", 0.5),
        ("first:1", 0.5),
    ]
    assert "no card is being turned" in illegal(state, "card:QH")
    play(state, "first:1")
    assert state.to_move == 1 and not state.setup
    assert events(state, "first")[0]["by"] == "coin"


# -- the tableau -----------------------------------------------------------------------------


def test_a_pile_starts_only_with_an_ace() -> None:
    state = table(drawn="2H", talons=(4, 4))
    assert moves(state) == ["keep 1", "keep 2", "keep 3", "keep 4"]
    assert "no pile shows an Ace" in illegal(state, "drawn")
    state = table(drawn="AH", talons=(4, 4))
    assert moves(state) == ["drawn"]
    play(state, "drawn")
    assert [pile["cards"] for pile in state.piles] == [["AH"]]


def test_piles_are_built_up_one_rank_at_a_time_suit_ignored() -> None:
    state = table(piles=[["AS", "2S"]], drawn="3H", hand=1, talons=(4, 4))
    play(state, "drawn")
    assert state.piles[0]["cards"] == ["AS", "2S", "3H"]
    play(state, "card:5C")  # a 5 does not go on a 3
    assert moves(state) == ["keep 1", "keep 2", "keep 3", "keep 4"]
    assert "no pile shows a 4" in illegal(state, "drawn")


def test_the_player_who_plays_the_king_wins_the_pile() -> None:
    spades = [rank + "S" for rank in "A23456789TJQ"]
    state = table(to_move=1, piles=[spades, ["AH"]], drawn="KD", talons=(4, 4))
    play(state, "drawn")
    assert [pile["cards"] for pile in state.piles] == [["AH"]]
    assert state.crowned == [0, 1] and state.paquets(1) == 1
    assert events(state, "played")[-1]["crowned"] is True
    assert state.view(0)["players"][1]["paquets"]["crowned"] == 1


# -- a turn: the cascade ----------------------------------------------------------------------


def test_the_grabuge_cascade_is_mandatory_and_turns_the_next_card() -> None:
    state = table(piles=[["AS"]], grabuges=(("2H", 3), (None, 0)), talons=(4, 4))
    assert moves(state) == ["grabuge"]
    assert "no card just turned from the talon" in illegal(state, "drawn")
    play(state, "grabuge")
    assert state.piles[0]["cards"] == ["AS", "2H"]
    assert state.current_player == CHANCE and state.view(0)["turning"]["for"] == "grabuge"
    play(state, "card:3C")
    assert moves(state) == ["grabuge"]
    play(state, "grabuge", "card:9D")
    # The 9 cannot go: only now are the four cards of the talon drawn.
    assert state.grabuge_top[0] == "9D" and state.hand == 4 and state.talon[0] == 0
    assert state.current_player == CHANCE and state.view(0)["turning"]["for"] == "drawn"


def test_the_grabuge_always_plays_before_the_reserve() -> None:
    state = table(
        piles=[["AS"]], grabuges=(("2H", 2), (None, 0)), reserves=([["3C"]], []), talons=(4, 4)
    )
    assert moves(state) == ["grabuge"]
    assert "the grabuge always plays first" in illegal(state, "reserve 1")
    play(state, "grabuge", "card:9D")
    assert moves(state) == ["reserve 1"]


def test_after_a_reserve_card_the_grabuge_is_looked_at_again() -> None:
    state = table(
        piles=[["AS", "2H"]], grabuges=(("4D", 2), (None, 0)),
        reserves=([["3C"], ["3S"]], []), talons=(4, 4),
    )
    assert moves(state) == ["reserve 1", "reserve 2"]
    play(state, "reserve 2")
    assert moves(state) == ["grabuge"]
    assert state.reserves[0][1] == []


def test_the_player_chooses_which_reserve_card_to_play_when_several_can_go() -> None:
    state = table(piles=[["AS"], ["AH"]], reserves=([["2C"], [], ["9S", "2D"]], []), talons=(4, 4))
    assert moves(state) == ["reserve 1", "reserve 3"]
    assert state.decision() == "reserve"
    play(state, "reserve 3")
    assert state.reserves[0][2] == ["9S"]
    assert moves(state) == ["reserve 1"]


def test_only_the_last_card_of_a_reserve_column_can_be_played() -> None:
    state = table(piles=[["AS"]], reserves=([["2C", "9H"], ["2D"]], []), talons=(4, 4))
    assert state.playable_columns() == [2] and moves(state) == ["reserve 2"]
    reason = illegal(state, "reserve 1")
    assert "9♥ at the end of reserve column 1" in reason and "only the last card" in reason
    play(state, "reserve 2")
    assert state.reserves[0][0] == ["2C", "9H"]  # a card never moves to another column


# -- a turn: drawing four -------------------------------------------------------------------


def test_a_drawn_card_that_can_go_must_be_played() -> None:
    state = table(piles=[["AS"]], drawn="2H", talons=(4, 4))
    assert moves(state) == ["drawn"]
    assert "must be played there" in illegal(state, "keep 1")
    assert "first place the 2♥" in illegal(state, "grabuge")


def test_a_drawn_card_that_cannot_go_is_kept_on_a_reserve_column_of_the_players_choice() -> None:
    state = table(drawn="9H", hand=1, reserves=([["5C"], ["8D"]], []), talons=(4, 4))
    assert moves(state) == ["keep 1", "keep 2", "keep 3", "keep 4"]
    play(state, "keep 2")
    assert state.reserves[0] == [["5C"], ["8D", "9H"], [], []]
    assert "only 4 reserve columns" in illegal(play(state, "card:TH"), "keep 5")
    assert state.reserves[1] == [[], [], [], []]


def test_four_cards_are_drawn_and_turned_one_at_a_time_then_the_turn_passes() -> None:
    state = table(talons=(10, 10))
    assert state.hand == 4 and state.talon == [6, 10]
    for card in ("9H", "9S", "TD", "QC"):
        assert state.current_player == CHANCE and state.to_move == 0
        play(state, f"card:{card}", "keep 1")
    assert state.reserves[0][0] == ["9H", "9S", "TD", "QC"]
    assert state.to_move == 1 and state.hand == 4 and state.talon == [6, 6]
    assert state.previous_log["seat"] == 0 and state.log["seat"] == 1


def test_when_fewer_than_four_remain_all_of_them_are_drawn() -> None:
    state = table(talons=(2, 5))
    assert state.hand == 2 and state.talon[0] == 0
    play(state, "card:9H", "keep 1", "card:9S", "keep 1")
    assert state.to_move == 1


def test_the_grabuge_cascade_runs_after_a_drawn_card_before_the_next_is_turned() -> None:
    state = table(
        piles=[["AS"]], grabuges=(("3D", 1), (None, 0)), reserves=([["4C"]], []),
        drawn="2H", hand=3, talons=(4, 4),
    )
    play(state, "drawn")
    assert moves(state) == ["grabuge"]
    play(state, "grabuge", "card:KC")
    assert moves(state) == ["reserve 1"]
    play(state, "reserve 1")
    assert state.piles[0]["cards"] == ["AS", "2H", "3D", "4C"]
    assert state.current_player == CHANCE and state.hand == 3


# -- the grabuge as talon ------------------------------------------------------------------------


def test_the_grabuge_becomes_the_talon_when_the_talon_is_empty() -> None:
    state = table(grabuges=(("9H", 5), (None, 0)), talons=(0, 4))
    assert state.grabuge_became_talon[0]
    assert state.grabuge_count(0) == 0 and state.talon[0] == 2 and state.hand == 3
    view = state.view(0)["players"][0]
    assert view["grabuge"]["became_talon"] and view["talon"] == 2
    assert [(e["seat"], e["cards"]) for e in events(state, "grabuge_to_talon")] == [(0, 6)]


def test_the_grabuge_turned_talon_gives_its_face_up_card_first_without_a_chance_node() -> None:
    state = table(grabuges=(("9H", 5), (None, 0)), talons=(0, 4))
    assert state.current_player == 0 and state.drawn == "9H"
    assert [e["card"] for e in events(state, "turned")] == ["9H"]
    play(state, "keep 1")
    assert state.current_player == CHANCE  # the cards under it are turned as chance nodes
    play(state, "card:AD")
    assert moves(state) == ["drawn"]


def test_the_grabuge_turned_talon_loses_its_priority() -> None:
    state = table(
        piles=[["AS"]], became_talon=(True, False), reserves=([["3C"]], []),
        talons=(3, 4), drawn="2H", hand=2,
    )
    play(state, "drawn")
    assert moves(state) == ["reserve 1"]
    assert "has become your talon" in illegal(state, "grabuge")
    play(state, "reserve 1", "card:4S")  # an ex-grabuge card is a drawn card like any other
    assert moves(state) == ["drawn"]


# -- the two grabuge paquets -------------------------------------------------------------------


def test_the_first_player_to_empty_their_grabuge_scores_two_paquets() -> None:
    state = table(piles=[["AS"]], grabuges=(("2H", 0), ("9C", 2)), talons=(4, 4))
    play(state, "grabuge")
    assert state.bonus_seat == 0 and state.paquets(0) == 2
    assert events(state, "grabuge_emptied") == [
        {"event": "grabuge_emptied", "seat": 0, "bonus": True, "n": 1}
    ]
    assert state.view(1)["players"][0]["paquets"]["grabuge_bonus"] == 2


def test_only_one_player_can_score_the_grabuge_paquets() -> None:
    state = table(
        to_move=1, piles=[["AS"]], grabuges=((None, 0), ("2H", 0)), bonus_seat=0, talons=(4, 4)
    )
    play(state, "grabuge")
    assert state.bonus_seat == 0 and state.paquets(1) == 0
    assert events(state, "grabuge_emptied")[0]["bonus"] is False


def test_a_grabuge_emptied_after_it_became_the_talon_scores_nothing() -> None:
    state = table(grabuges=(("9H", 0), ("9C", 3)), talons=(0, 4))
    play(state, "keep 1")
    assert state.grabuge_count(0) == 0 and state.bonus_seat is None
    assert events(state, "grabuge_emptied") == []


def test_a_grabuge_emptied_by_setup_aces_scores_the_two_paquets_and_ranks_lowest() -> None:
    aces = ["AS", "AS", "AH", "AH", "AD", "AD", "AC", "AC"]
    state = play(GRABUGE.new_state(2), *(f"card:{ace}" for ace in aces))
    assert state.grabuge_count(0) == 0 and state.bonus_seat == 0
    assert len(state.piles) == 8 and state.to_move == 1 and state.setup
    play(state, "card:5D")
    assert not state.setup and state.log["seat"] == 1


# -- skipped turns, the end and the score -------------------------------------------------------


def test_a_player_with_only_reserve_cards_still_plays_them_on_their_turn() -> None:
    state = table(drawn="AH", talons=(4, 0), reserves=([], [["2C"]]))
    play(state, "drawn")
    assert state.to_move == 1 and moves(state) == ["reserve 1"]
    play(state, "reserve 1")
    assert state.to_move == 0 and state.current_player == CHANCE


def test_a_turn_with_nothing_to_do_is_skipped_without_a_move() -> None:
    state = table(drawn="9H", talons=(4, 0), reserves=([], [["5C"]]))
    play(state, "keep 1")
    assert state.to_move == 0 and state.current_player == CHANCE and state.hand == 4
    assert events(state, "skipped") == [{"event": "skipped", "seat": 1, "n": 1}]


def test_without_skipping_an_idle_player_passes_the_turn_as_a_forced_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(grabuge_engine, "SKIP_EMPTY_TURNS", False)
    state = table(drawn="9H", talons=(4, 0), reserves=([], [["5C"]]))
    play(state, "keep 1")
    # Seat 1 can do nothing: the turn is theirs all the same, and their one move is `pass`.
    assert state.to_move == 1 and state.decision() == "pass" and moves(state) == ["pass"]
    assert "nothing at all to do" in illegal(state, "reserve 1")
    assert "the turn must be passed" in illegal(state, "card:QH")
    assert "the turn must be passed" in illegal(state, "first:0")
    assert GRABUGE.load(json.loads(json.dumps(state.dump()))).decision() == "pass"
    play(state, "pass")
    assert state.to_move == 0 and state.current_player == CHANCE and state.hand == 4
    assert [event["seat"] for event in events(state, "passed")] == [1]
    assert events(state, "skipped") == []


def test_a_turn_is_passed_only_with_nothing_at_all_to_do() -> None:
    state = table(drawn="9H", talons=(4, 0), reserves=([], [["5C"]]))
    assert "only when there is nothing at all to do" in illegal(state, "pass")


def _played(seed: int) -> tuple[list[str], dict[str, Any]]:
    """A whole seeded game: chance from one rng, the real choices at random from another."""
    chance, choices = random.Random(seed), random.Random(-seed)
    state = GRABUGE.new_state(2)
    notations = []
    while not state.is_over():
        if state.current_player == CHANCE:
            move = pick(state, chance)
        else:
            legal = state.legal_moves()
            move = legal[0] if len(legal) == 1 else choices.choice(legal)
        state.apply(move)
        notations.append(str(move))
    result = state.result()
    assert result is not None
    return notations, result.to_dict()


def test_passing_instead_of_skipping_plays_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    skipping = [_played(seed) for seed in range(12)]
    monkeypatch.setattr(grabuge_engine, "SKIP_EMPTY_TURNS", False)
    passing = [_played(seed) for seed in range(12)]
    for (skipped, skipped_result), (passed, passed_result) in zip(skipping, passing, strict=True):
        assert [move for move in passed if move != "pass"] == skipped
        assert passed_result == skipped_result
    assert sum(moves.count("pass") for moves, _ in passing) > 0


def test_the_game_ends_when_neither_player_can_play_anything() -> None:
    state = table(drawn="9H", reserves=([], [["5C"]]), grabuges=((None, 0), ("2C", 0)))
    assert not state.is_over()
    play(state, "keep 1")
    assert not state.is_over() and state.to_move == 1  # seat 1 still has its grabuge
    state = table(drawn="9H", reserves=([], [["5C"]]))
    play(state, "keep 1")
    assert state.is_over() and state.legal_moves() == [] and state.current_player is None
    assert "the game is over" in illegal(state, "keep 1")
    assert events(state, "game_over")[0]["unplayed"] == [1, 1]


def test_leftover_cards_score_a_paquet_per_full_five_of_difference_13_against_4() -> None:
    # The seed's example: Pierre (seat 0) keeps 13 cards, Paul 4; Pierre crowned 3 piles, Paul 1.
    pierre = [["2S", "3S", "4S"], ["5S", "6S", "7S"], ["8S", "9S", "TS"], ["JS", "QS", "KS"]]
    state = table(
        drawn="9H", reserves=(pierre, [["5C", "6C", "7C", "8C"]]), crowned=(3, 1)
    )
    play(state, "keep 1")
    assert state.unplayed_cards(0) == 13 and state.unplayed_cards(1) == 4
    assert state.leftover_paquets == [0, 1]
    result = state.result()
    assert result is not None
    assert result.scores == [3, 2] and result.winners == [0] and result.reason == "paquets"
    assert state.view(None)["players"][1]["paquets"] == {
        "crowned": 1, "grabuge_bonus": 0, "leftover": 1, "total": 2,
    }


def test_most_paquets_wins_counting_crowned_piles_bonus_and_leftovers() -> None:
    state = table(
        drawn="9H", reserves=([], [["5C", "6C", "7C", "8C", "9C", "TC"]]),
        crowned=(1, 2), bonus_seat=0,
    )
    play(state, "keep 1")  # 1 card against 6: one leftover paquet to seat 0
    result = state.result()
    assert result is not None
    assert result.scores == [4, 2] and result.winners == [0] and result.reason == "paquets"


def test_equal_paquet_totals_are_a_draw() -> None:
    state = table(drawn="9H", reserves=([], [["5C", "6C"]]), crowned=(2, 2))
    play(state, "keep 1")
    result = state.result()
    assert result is not None
    assert result.winners == [0, 1] and result.scores == [2, 2] and result.reason == "draw"
    assert result.is_draw


def test_equal_totals_settled_go_to_fewer_cards_left_then_more_piles_crowned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(grabuge_engine, "EQUAL_TOTALS_DRAW", False)
    # 2 paquets each; seat 0 has 1 card left (the 9 kept), seat 1 two.
    state = table(drawn="9H", reserves=([], [["5C", "6C"]]), crowned=(2, 2))
    play(state, "keep 1")
    result = state.result()
    assert result is not None
    assert result.winners == [0] and result.scores == [2, 2] and result.reason == "paquets"
    # One card left each: more piles crowned wins (seat 1's two against seat 0's bonus).
    state = table(drawn="9H", reserves=([], [["5C"]]), crowned=(0, 2), bonus_seat=0)
    play(state, "keep 1")
    result = state.result()
    assert result is not None
    assert result.winners == [1] and result.scores == [2, 2] and result.reason == "paquets"
    # Equal in paquets, cards and piles: nothing tells them apart, still a draw.
    state = table(drawn="9H", reserves=([], [["5C"]]), crowned=(2, 2))
    play(state, "keep 1")
    result = state.result()
    assert result is not None and result.winners == [0, 1] and result.reason == "draw"


def test_a_player_never_plays_on_or_from_the_other_players_cards() -> None:
    state = table(
        piles=[["AS"]], grabuges=(("9D", 1), ("2H", 3)), reserves=([], [["2C"]]), talons=(4, 4)
    )
    # Seat 1's grabuge and reserve could go, but seat 0 only ever plays their own cards.
    assert state.current_player == CHANCE and state.to_move == 0
    play(state, "card:KH")
    assert moves(state) == ["keep 1", "keep 2", "keep 3", "keep 4"]
    assert "cannot go on the tableau" in illegal(state, "drawn")


# -- notation, views, dumps -------------------------------------------------------------------


def test_notation_is_read_case_insensitively_with_spaces_around_separators() -> None:
    assert parse_notation(" GRABUGE ") == PlayGrabuge()
    assert parse_notation("Drawn") == PlayDrawn()
    assert parse_notation("reserve  3") == PlayReserve(3)
    assert parse_notation("KEEP2") == KeepCard(2)
    assert parse_notation("card : qh") == TurnCard("QH")
    assert parse_notation("card:10s") == TurnCard("TS")
    assert parse_notation("card:K♥") == TurnCard("KH")
    assert parse_notation("First : 1") == CoinFlip(1)
    for move in (PlayGrabuge(), PlayDrawn(), PlayReserve(4), KeepCard(1), TurnCard("TC"), Pass()):
        assert parse_notation(str(move)) == move
    for bad in ("skip", "card:1H", "card:QX", "first:2", "reserve", "a1"):
        with pytest.raises(IllegalMove):
            parse_notation(bad)


def test_illegal_moves_give_a_reason_a_player_can_read() -> None:
    state = GRABUGE.new_state(2)
    assert "a card must be turned first" in illegal(state, "grabuge")
    assert "no coin flip" in illegal(state, "first:0")
    assert "not a Grabuge move" in illegal(state, "pass pass")
    state = table(
        piles=[["AS"]], grabuges=(("7H", 1), (None, 0)),
        reserves=([["2C"], [], ["8C"]], []), talons=(4, 4),
    )
    assert moves(state) == ["reserve 1"]
    assert illegal(state, "grabuge") == (
        "the 7♥ on your grabuge cannot go on the tableau: no pile shows a 6"
    )
    assert "8♣ at the end of reserve column 3 cannot go" in illegal(state, "reserve 3")
    assert "no pile shows a 7" in illegal(state, "reserve 3")
    assert illegal(state, "reserve 4") == "reserve column 4 is empty"
    assert "only 4 reserve columns" in illegal(state, "reserve 0")
    assert "no card just turned" in illegal(state, "keep 1")
    assert "no card just turned from the talon" in illegal(state, "drawn")
    assert "no card is being turned now" in illegal(state, "card:QH")


def test_view_shows_everything_a_renderer_needs_and_the_same_to_every_seat() -> None:
    state = table(
        piles=[["AS", "2H"], ["AD"]], grabuges=(("9H", 4), ("QC", 2)),
        reserves=([["5C", "8D"], [], ["KS"]], [["3C"]]), drawn="TD", hand=2, talons=(12, 20),
    )
    view = state.view(0)
    assert view["game"] == "grabuge" and view["current_player"] == 0 and view["result"] is None
    assert view["phase"] == "play" and view["awaiting"] == "keep"
    assert view["tableau"][0] == {
        "id": 1, "cards": ["AS", "2H"], "top": "2H", "count": 2, "needs": "3",
    }
    assert view["placing"] == {"seat": 0, "card": "TD", "playable": False, "pile": None}
    assert view["hand_face_down"] == 2
    seat0 = view["players"][0]
    assert seat0["grabuge"] == {
        "top": "9H", "under": 4, "count": 5, "became_talon": False, "playable": False,
    }
    assert seat0["talon"] == 12
    assert seat0["reserve"] == [["5C", "8D"], [], ["KS"], []]
    assert seat0["unplayed"] == 12 + 5 + 3 + 2 + 1
    assert view["players"][1]["playable_columns"] == [1]  # its 3♣ could go on the 2♥
    for seat in (None, 1):
        assert {**state.view(seat), "viewer": 0} == view
    json.dumps(view)


def test_the_log_lets_the_bot_summarise_a_turn() -> None:
    state = table(piles=[["AS"]], talons=(4, 4))
    play(state, "card:2D", "drawn", "card:9C", "keep 2", "card:AC", "drawn", "card:5H", "keep 1")
    assert state.to_move == 1 and state.previous_log["seat"] == 0
    summary = [
        (e["event"], e.get("card"), e.get("from"), e.get("column"))
        for e in state.previous_log["events"]
    ]
    assert summary == [
        ("drew", None, None, None),
        ("turned", "2D", None, None), ("played", "2D", "drawn", None),
        ("turned", "9C", None, None), ("kept", "9C", None, 2),
        ("turned", "AC", None, None), ("played", "AC", "drawn", None),
        ("turned", "5H", None, None), ("kept", "5H", None, 1),
    ]
    assert state.describe("card:KH") == "turns K♥ from the talon"
    play(state, "card:3S")
    assert state.describe("drawn") == "plays 3♠ from the talon on a 2"


def test_dump_and_load_round_trip_mid_game() -> None:
    rng = random.Random(7)
    state = GRABUGE.new_state(2, {"decks": 4})
    for _ in range(150):
        state.apply(pick(state, rng))
    data = json.loads(json.dumps(state.dump()))
    loaded = GRABUGE.load(data)
    assert loaded.dump() == state.dump() and loaded.view(0) == state.view(0)
    assert moves(loaded) == moves(state)


def test_every_card_is_accounted_for_during_a_whole_game() -> None:
    rng = random.Random(3)
    state = GRABUGE.new_state(2)
    while not state.is_over():
        assert isinstance(state, GrabugeState)
        face_down = sum(state.talon) + sum(state.grabuge_down) + state.hand
        assert state.unseen_total == face_down
        state.apply(pick(state, rng))
    assert state.unseen_total == 0


def test_an_eight_deck_game_plays_to_the_end() -> None:
    rng = random.Random(5)
    state = GRABUGE.new_state(2, {"decks": 8})
    while not state.is_over():
        state.apply(pick(state, rng))
    result = state.result()
    assert result is not None and result.scores is not None
    assert sum(state.crowned) <= 32
