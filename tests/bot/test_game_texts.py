"""What each game's controls say about moves and endings, read through a fake table."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.games import GAME_UIS
from bot.games.base import Turn, describe_options, players_text
from bot.sessions import game_title
from engines import GAMES, EndReason, GameState, Result
from storage import GameRecord, MoveKind, NewMove
from tests.bot.fakes import ALICE, BOB, CAROL
from tests.bot.test_sessions import record


@dataclass
class FakeTable:
    """A game as its controls see it, without a session."""

    state: GameState[Any, Any]
    record: GameRecord
    stored_result: Result | None = None
    played: list[str] = field(default_factory=list)

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def ply(self) -> int:
        return self.record.ply

    @property
    def names(self) -> list[str]:
        return [seat.display_name for seat in self.record.seats]

    @property
    def title(self) -> str:
        return game_title(self.record.game, self.names)

    def result(self) -> Result | None:
        return self.stored_result

    def seat_to_act(self, user_id: int, *, expected_ply: int | None = None) -> int:
        return 0

    async def play(self, user_id: int, move: str, *, expected_ply: int | None) -> Turn:
        self.played.append(move)
        return Turn([], self.state)


def table(game: str) -> FakeTable:
    """A fresh two-player game of `game`."""
    stored = record(game, 3)
    return FakeTable(GAMES[game].load(stored.state), stored)


@pytest.mark.parametrize(("game", "result", "expected"), [
    ("qawale", Result([1], None, EndReason.LINE), "Bob wins with four 🟠 in a line!"),
    ("qawale", Result([0, 1], None, EndReason.DRAW), "Draw: all 16 pebbles are placed"),
    ("graps", Result([0], None, EndReason.LAND_REACHED), "reached Bob's land"),
    ("graps", Result([1], None, EndReason.CLOSEST), "Both stocks are empty: 🟠 Bob wins"),
    ("graps", Result([0, 1], None, EndReason.DRAW), "as close to the goal: draw"),
    ("graps", Result([1], None, EndReason.BLOCKADE), "Alice left Bob no cell at all"),
    ("grabuge", Result([0], [7.0, 3.0], EndReason.PAQUETS), "Alice wins, 7 paquets to 3!"),
    ("grabuge", Result([0, 1], [5.0, 5.0], EndReason.DRAW), "Draw: 5 paquets each."),
    ("granat", Result([0], None, EndReason.CAPTURED_ALL), "every Blue pawn is taken"),
    ("granat", Result([1], None, EndReason.NO_MOVES), "Red has no legal move"),
    ("granat", Result([1], None, EndReason.RESIGNED), "Alice resigned: 🔵 Bob wins."),
    ("kraut_ruben", Result([1], [12.0, 15.0], EndReason.ALL_FINISHED),
     "🏆 Bob wins with 15 points (Alice 12)."),
    ("kraut_ruben", Result([0], [40.0, 31.0], EndReason.MATCH_TOTAL),
     "🏆 Alice wins the match with 40 points over three games (Bob 31)."),
    ("kraut_ruben", Result([0], None, EndReason.RESIGNED), "Bob resigned: Alice wins."),
])
def test_each_ending_is_told_in_one_sentence(game: str, result: Result, expected: str) -> None:
    assert expected in GAME_UIS[game].result_text(table(game), result)


@pytest.mark.parametrize("game", list(GAME_UIS))
def test_every_game_tells_a_shared_win_and_a_resignation(game: str) -> None:
    ui, fake = GAME_UIS[game], table(game)
    assert "resigned" in ui.result_text(fake, Result([1], None, EndReason.RESIGNED))
    assert ui.status(fake)
    assert ui.describe(fake, NewMove(0, ALICE, MoveKind.RESIGN, "resign")).endswith("resigned.")


def test_le_grabuge_tells_each_kind_of_move() -> None:
    ui, fake = GAME_UIS["grabuge"], table("grabuge")
    said = [ui.describe(fake, NewMove(0, ALICE, MoveKind.PLAYER, text))
            for text in ("keep 2", "reserve 3", "grabuge", "drawn", "nonsense")]
    assert "kept the card just turned on reserve column 2" in said[0]
    assert "played the last card of reserve column 3" in said[1]
    assert "grabuge's top card" in said[2] and "card just turned" in said[3]
    assert "played `nonsense`" in said[4]
    assert ui.describe(fake, NewMove(None, None, MoveKind.CHANCE, "card:AH")) == "🎲 `card:AH`"


def test_the_shared_texts_name_players_options_and_seats() -> None:
    assert players_text(GAMES["kraut_ruben"]) == "2–5 players"
    assert players_text(GAMES["qawale"]) == "2 players"
    assert describe_options(GAMES["graps"], {"grape_faces": 2, "return_pruned": True}) == (
        "grape faces on the die: 2 · removed pawns return to their stock: yes")
    assert describe_options(GAMES["kraut_ruben"], {"match_games": 3}) == (
        "games in the match: three games and the cup")
    ui = GAME_UIS["qawale"]
    assert ui.seat_badge(None) == ui.seat_badge(-1) == "🎲"
    assert ui.colour(Result([0, 1], None, EndReason.DRAW), None) != ui.colour(None, 0)
    assert ui.colour(None, None) != ui.colour(None, 1)


def test_kraut_and_ruben_deals_each_contract_privately_with_a_fallback() -> None:
    stored = record("kraut_ruben", 3)
    state = GAMES["kraut_ruben"].load(stored.state)
    while state.current_player == -1 and not state.is_over():  # deal the contracts
        state.apply(state.chance_outcomes()[0][0])
    fake = FakeTable(state, stored)
    notes = GAME_UIS["kraut_ruben"].after_announce(
        fake, Turn([NewMove(None, None, MoveKind.CHANCE, "contract:1")], state))
    assert [getattr(n, "user_id", None) for n in notes] == [ALICE, BOB]
    assert all("secret contract" in getattr(n, "text", "") for n in notes)
    assert CAROL not in [getattr(n, "user_id", None) for n in notes]
