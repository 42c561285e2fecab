"""The shared contract types: results and their reasons, option metadata, state reprs."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engines import GAMES, EndReason, GameState, Result
from engines.base import OptionSpec
from tests.engines.conformance import pick

# -- results ------------------------------------------------------------------------------------


def test_result_from_dict_inverts_to_dict() -> None:
    result = Result([1], [3, 5.5], EndReason.PAQUETS)
    data = json.loads(json.dumps(result.to_dict()))
    assert data == {"winners": [1], "scores": [3, 5.5], "reason": "paquets"}
    assert Result.from_dict(data) == result
    assert Result.from_dict({"winners": [0, 1], "scores": None, "reason": "draw"}).is_draw


def test_reasons_are_strings_and_a_string_reason_becomes_a_member() -> None:
    legacy: Any = "resigned"  # how callers outside the engines may still build a result
    result = Result([0], None, legacy)
    assert result.reason is EndReason.RESIGNED
    assert result.reason == legacy and f"{result.reason}" == "resigned"
    assert type(result.to_dict()["reason"]) is str
    unknown: Any = "no_such_reason"
    with pytest.raises(ValueError):
        Result([0], None, unknown)


def test_every_game_ends_with_an_end_reason() -> None:
    for game_id, game in GAMES.items():
        state = _played(game_id, plies=100_000)
        result = state.result()
        assert result is not None and isinstance(result.reason, EndReason), game_id
        assert game.load(state.dump()).result() == result
        cls = type(state)
        assert eval(repr(state), {cls.__name__: cls}) == state


# -- options ------------------------------------------------------------------------------------


def _specs() -> list[tuple[str, str, OptionSpec]]:
    return [
        (game_id, key, spec)
        for game_id, game in GAMES.items()
        for key, spec in game.option_specs.items()
    ]


@pytest.mark.parametrize(("game_id", "key", "spec"), _specs())
def test_every_option_has_player_facing_metadata(game_id: str, key: str, spec: OptionSpec) -> None:
    assert spec.label.strip(), f"{game_id}.{key} has no label"
    assert 0 < len(spec.description) <= 80, f"{game_id}.{key}: description too long"
    assert spec.check(spec.default)
    if spec.choices is None:
        assert isinstance(spec.default, bool) and not spec.choice_labels
    else:
        assert spec.default in spec.choices
        assert all(spec.check(choice) for choice in spec.choices)
        assert set(spec.choice_labels) <= set(spec.choices)
    assert spec.param is None or spec.param.isidentifier()


def test_option_metadata_values() -> None:
    graps = GAMES["graps"].option_specs
    assert graps["grape_faces"].label == "grape faces on the die"
    assert graps["grape_faces"].choices == (1, 2, 3, 4, 5)
    assert graps["return_pruned"].label == "removed pawns return to their stock"
    assert graps["return_pruned"].choices is None
    decks = GAMES["grabuge"].option_specs["decks"]
    assert (decks.label, decks.choices) == ("decks of 52 cards", (2, 4, 6, 8))
    match = GAMES["kraut_ruben"].option_specs["match_games"]
    assert (match.label, match.choices) == ("games in the match", (1, 3))
    labels = [match.choice_label(c) for c in match.choices or ()]
    assert labels == ["one game", "three games and the cup"]
    double = GAMES["qawale"].option_specs["mover_wins_double_line"]
    assert (double.label, double.param) == ("a double line is won by the sower", "double_line")
    assert decks.choice_label(4) == "4" and decks.param is None


def test_a_bad_choice_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match=r"one of 2, 4, 6, 8"):
        GAMES["grabuge"].new_state(2, {"decks": 3})


# -- states: repr and equality ------------------------------------------------------------------


def _played(game_id: str, plies: int, seed: int = 7) -> GameState[Any, Any]:
    game = GAMES[game_id]
    state = game.new_state(game.min_players)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over():
            break
        state.apply(pick(state, rng))
    return state


@pytest.mark.parametrize("game_id", list(GAMES))
def test_repr_round_trips_through_eval(game_id: str) -> None:
    state = _played(game_id, plies=8)  # a Qawale game lasts at most 16 plies
    assert not state.is_over()
    cls = type(state)
    text = repr(state)
    assert text.startswith(f"{cls.__name__}.from_dump(")
    again = eval(text, {cls.__name__: cls})
    assert type(again) is cls and again is not state
    assert again == state
    again.apply(pick(again, random.Random(1)))
    assert again != state


@pytest.mark.parametrize("game_id", list(GAMES))
def test_states_compare_by_dump_and_are_unhashable(game_id: str) -> None:
    state = _played(game_id, plies=10)
    assert state == state.clone() and state != object()
    with pytest.raises(TypeError):
        hash(state)
    other = next(GAMES[g] for g in GAMES if g != game_id).new_state(2)
    assert state != other
    with pytest.raises(ValueError):
        type(state).from_dump(other.dump())
