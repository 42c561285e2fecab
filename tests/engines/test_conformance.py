"""The engine contract, checked over every game in GAMES with random playouts."""

from __future__ import annotations

import pytest

from engines import GAMES
from tests.engines.conformance import playout

PLAYOUTS = 6
"""Random games per game and player count; each checks every position it passes."""


def _cases() -> list[tuple[str, int, int]]:
    return [
        (game_id, players, seed)
        for game_id, game in GAMES.items()
        for players in range(game.min_players, game.max_players + 1)
        for seed in range(PLAYOUTS)
    ]


@pytest.mark.parametrize(("game_id", "players", "seed"), _cases())
def test_random_playout_honours_the_contract(game_id: str, players: int, seed: int) -> None:
    state = playout(GAMES[game_id], players, seed)
    assert state.is_over()


@pytest.mark.parametrize("game_id", list(GAMES))
def test_game_metadata(game_id: str) -> None:
    game = GAMES[game_id]
    assert game.id == game_id and game.name
    assert 1 <= game.min_players <= game.max_players
    state = game.new_state(game.min_players)
    assert state.num_players == game.min_players
    assert state.options == game.options


@pytest.mark.parametrize("game_id", list(GAMES))
def test_unknown_option_is_refused(game_id: str) -> None:
    with pytest.raises(ValueError, match="no option"):
        GAMES[game_id].new_state(GAMES[game_id].min_players, options={"no_such_option": 1})
