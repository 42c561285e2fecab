"""What each game's controls say about moves and endings, read through a fake table."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.board import game_title
from bot.cogs.options import command_options
from bot.games import GAME_UIS
from bot.games.base import (
    PrivateNote,
    Turn,
    describe_options,
    option_value_text,
    players_text,
    plural,
)
from engines import GAMES, EndReason, GameState, Result
from engines.base import choice_option
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
    assert all(isinstance(n, PrivateNote) and "secret contract" in n.text()
               and "could not DM you" in n.fallback() for n in notes)
    assert CAROL not in [getattr(n, "user_id", None) for n in notes]


def test_a_numeric_option_of_1_is_read_as_its_own_label_never_as_yes() -> None:
    # 1 == True in Python: a label looked up by value alone mixes the two.
    spec = choice_option("how many", 1, (0, 1, 2), label="jokers",
                         choice_labels={True: "yes", 0: "none"})
    assert option_value_text(spec, 1) == "1"
    assert option_value_text(spec, 0) == "none"
    assert option_value_text(GAMES["graps"].option_specs["grape_faces"], 1) == "1"
    assert describe_options(GAMES["kraut_ruben"], {"match_games": 1}) == (
        "games in the match: one game")
    assert describe_options(GAMES["kraut_ruben"], {"match_games": True}) == (
        "games in the match: yes")
    parameters = {option.param: option for option in command_options()}
    assert [c.name for c in parameters["grape_faces"].choices or []][:2] == ["1", "2"]
    assert "(default one game)" in parameters["match_games"].description


def test_counts_of_one_are_singular_everywhere() -> None:
    assert plural(1, "pebble") == "1 pebble" and plural(0, "pile") == "0 piles"
    qawale = table("qawale")
    qawale.state.stocks[0] = 1
    assert "Alice: 1 pebble left" in GAME_UIS["qawale"].status(qawale)
    grabuge = table("grabuge")
    grabuge.state.piles = [{"id": 1, "cards": ["AS"]}]
    grabuge.state.crowned[0] = 1
    status = GAME_UIS["grabuge"].status(grabuge)
    assert "1 paquet ·" in status and "· 1 pile" in status and "1 piles" not in status
    assert "wins, 1 paquet to 0" in GAME_UIS["grabuge"].result_text(
        grabuge, Result([0], [1.0, 0.0], EndReason.PAQUETS))
    assert "Draw: 1 paquet each." in GAME_UIS["grabuge"].result_text(
        grabuge, Result([0, 1], [1.0, 1.0], EndReason.DRAW))
    sowed = GAME_UIS["qawale"].describe(qawale, NewMove(0, ALICE, MoveKind.PLAYER, "a1:NE"))
    assert "sowed 2 steps" in sowed


@pytest.mark.parametrize("game", list(GAME_UIS))
def test_players_are_named_in_texts_never_a_seat_letter(game: str) -> None:
    ui, fake = GAME_UIS[game], table(game)
    texts = [ui.status(fake), ui.result_text(fake, Result([1], None, EndReason.RESIGNED))]
    for text in texts:
        assert not re.search(r"\b(seat|player) ?[A-E0-4]\b", text), text
    if game != "kraut_ruben":  # the footer names who has what
        assert "Alice" in texts[0] and "Bob" in texts[0]


def test_granat_names_the_player_who_must_capture() -> None:
    state = GAMES["granat"].from_position(GRANAT_BEFORE_REPLY)
    stored = record("granat", 3)
    fake = FakeTable(state, stored)
    lines = GAME_UIS["granat"].situation(fake)
    mover = state.current_player
    assert f"⚔️ {GAME_UIS['granat'].seat_badge(mover)} **{fake.names[mover]}** must capture" \
        in "\n".join(lines)


GRANAT_BEFORE_REPLY = (
    "0 R:e1,g1,b2*,d2,f2,h2,g3,f4,a5,e5,d6,e7,d8 B:a15,c15,e15,b14,f14,h14*,a13,g13,d12,h12,"
    "c11,i11,c9 1")
"""Red's d8 takes c9 (landing on b10); Blue's only reply is c11xa9, taking it back."""


def test_a_granat_move_keeps_its_words_when_a_forced_reply_follows() -> None:
    state = GAMES["granat"].from_position(GRANAT_BEFORE_REPLY)
    state.apply("d8xb10")
    assert [str(m) for m in state.legal_moves()] == ["c11xa9"]
    state.apply("c11xa9")
    fake = FakeTable(state, record("granat", 3))
    lines = GAME_UIS["granat"].summarize(fake, [
        NewMove(0, ALICE, MoveKind.PLAYER, "d8xb10"), NewMove(1, BOB, MoveKind.FORCED, "c11xa9")])
    assert lines[0] == "🔴 **Alice** played `d8xb10`: pawn d8 captures 1: c9 (landing on b10)."
    assert lines[1] == ("🔵 **Bob** played `c11xa9` (the only legal move): neutral pawn c11 "
                        "captures 1: b10 (landing on a9).")


def test_granat_tells_a_past_move_of_a_pawn_that_stayed_put_with_its_kind() -> None:
    state = GAMES["granat"].new_state(2)
    state.apply("c3-d4")
    state.apply("c13-d12")
    fake = FakeTable(state, record("granat", 3))
    lines = GAME_UIS["granat"].summarize(fake, [
        NewMove(0, ALICE, MoveKind.PLAYER, "c3-d4"), NewMove(1, BOB, MoveKind.FORCED, "c13-d12")])
    assert lines[0] == "🔴 **Alice** played `c3-d4`: neutral pawn c3 steps to d4."
    assert "neutral pawn c13 steps to d12" in lines[1]


def test_rules_cover_what_the_issue_asks_and_fit_an_embed() -> None:
    granat = GAME_UIS["granat"].rules
    for words in ("hand", "back row", "black line", "turns every yellow line black"):
        assert words in granat, words
    kraut = GAME_UIS["kraut_ruben"].rules
    assert "high plus    2  3  4  3  2  1  0" in kraut
    assert "low plus     1  2  3  2  1  0  0" in kraut
    for ui in GAME_UIS.values():
        assert len(ui.rules) <= 4096
