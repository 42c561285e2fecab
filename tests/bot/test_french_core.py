"""The game's core in French and English: shared texts, refusals, notices and names follow the
language of the moment; public ones are written in the server's language."""

from __future__ import annotations

import pytest

from bot.ai_players import ai_display_name, ai_name, ai_user_id, shown_name
from bot.board import why_no_board
from bot.clock import CLOCKS, Clock
from bot.errors import NotAPlayer, NotYourTurn, StaleBoard
from bot.games import GAME_UIS
from bot.games.base import (
    describe_options,
    names_text,
    option_value_text,
    players_text,
    plural,
    seat_event_text,
)
from bot.games.common import small_number
from bot.languages import Languages
from bot.publisher import Post, Problem, PublishFailed, permission_names
from bot.session_manager import SessionManager
from bot.sessions import ALL_PLAYERS
from engines import GAMES, EndReason, Result
from i18n import Language, use_language
from renderers.words import Phrase, player_name, result_headline
from renderers.words import plural as drawn_plural
from storage import Database, MoveKind, NewMove, Seat
from tests.bot.fakes import ALICE, BOB, CAROL, NOW, FakePublisher, new_game

FIRST_MOVE = "a1:NES"
FR, EN = Language.FR, Language.EN


@pytest.fixture(autouse=True)
def quick_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: b"png")


def boards(publisher: FakePublisher) -> list[Post]:
    """The boards posted so far, in either language."""
    return [post for _, post in publisher.posts if post.embed is not None
            and (post.embed.footer.text or "").startswith(("Game #", "Partie #"))]


def labels(post: Post) -> list[str]:
    """The labels of a post's buttons."""
    assert post.view is not None
    return [getattr(getattr(item, "item", item), "label", None) or ""
            for item in post.view.children]


def french_server(db: Database, publisher: FakePublisher) -> SessionManager:
    """Sessions of a server (id 1, the fake games' one) whose preferred locale is French."""
    return SessionManager(db, GAME_UIS, publisher, languages=Languages(db, {1: "fr"}.get))


# -- shared words ------------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "count", "expected"), [
    (EN, 0, "0 pebbles"), (EN, 1, "1 pebble"), (EN, 2, "2 pebbles"),
    (FR, 0, "0 galet"), (FR, 1, "1 galet"), (FR, 2, "2 galets"),
])
def test_plural_counts_a_noun_in_the_language_of_the_moment(
    language: Language, count: int, expected: str
) -> None:
    with use_language(language):
        assert plural(count, "pebble") == expected


def test_plural_keeps_english_for_a_noun_it_does_not_know() -> None:
    with use_language(FR):
        assert plural(2, "wombat") == "2 wombats"
        assert plural(2, "mouse", "mice") == "2 mice"


def test_the_pictures_count_in_french_with_a_decimal_comma() -> None:
    with use_language(FR):
        assert drawn_plural(3, "tile") == "3 cartes"
        assert drawn_plural(2.5, "point") == "2,5 points"
        assert drawn_plural(1.5, "point") == "1,5 point"
    assert drawn_plural(2.5, "point") == "2.5 points"
    assert drawn_plural(1, "pt") == "1 pt"


def test_player_counts_and_lists_of_names() -> None:
    game = GAMES["kraut_ruben"]
    assert players_text(GAMES["qawale"]) == "2 players"
    with use_language(FR):
        assert players_text(GAMES["qawale"]) == "2 joueurs"
        assert players_text(game).endswith(" joueurs") and " à " in players_text(game)
        assert names_text(["Alice", "Bob", "Carol"]) == "Alice, Bob et Carol"
        assert names_text(["Alice"]) == "Alice"
    assert names_text(["Alice", "Bob"]) == "Alice and Bob"


def test_seat_events_in_french() -> None:
    def event(kind: MoveKind, text: str) -> str | None:
        return seat_event_text("**Bob**", NewMove(1, BOB, kind, text))

    with use_language(FR):
        assert event(MoveKind.RESIGN, "resign") == "**Bob** a abandonné."
        assert event(MoveKind.TIMEOUT, "timeout") == "**Bob** a dépassé son temps."
        assert event(MoveKind.LEAVE, "left") == \
            "**Bob** a quitté la partie : 🤖 l’IA joue désormais à sa place."
    assert event(MoveKind.RESIGN, "resign") == "**Bob** resigned."


def test_options_read_in_french() -> None:
    game = GAMES["graps"]
    with use_language(FR):
        assert option_value_text(None, True) == "oui"
        text = describe_options(game, {"return_pruned": False})
        assert text.endswith(" : non")
    assert describe_options(game, {"return_pruned": False}) == \
        "removed pawns return to their stock: no"


def test_ai_names_are_stored_in_english_and_shown_in_the_language_of_the_moment() -> None:
    with use_language(FR):
        assert ai_name("medium") == "🤖 AI (Medium)"
        assert ai_display_name("medium") == "🤖 IA (Moyen)"
        assert shown_name(ai_user_id("hard", 1), "🤖 AI (Hard)") == "🤖 IA (Difficile)"
        assert shown_name(ai_user_id("hard", 1), "HAL") == "HAL"  # a name we did not give
        assert shown_name(ALICE, "Alice") == "Alice"
    assert shown_name(ai_user_id("easy", 0), "🤖 AI (Easy)") == "🤖 AI (Easy)"


def test_clocks_and_permissions_in_french() -> None:
    with use_language(FR):
        assert CLOCKS[Clock.DAILY].text == "Quotidien : 24 heures par coup"
        assert permission_names(("attach_files", "send_messages_in_threads")) == \
            "Joindre des fichiers, Envoyer des messages dans les fils"
        reason = why_no_board(PublishFailed("no", Problem.MISSING_PERMISSIONS,
                                            ("embed_links",)), "<#5>")
        assert reason.startswith("je ne peux pas publier le plateau dans <#5>")
        assert "Intégrer des liens" in reason
    assert CLOCKS[Clock.DAILY].text == "Daily: 24 hours per move"
    assert permission_names(("attach_files",)) == "Attach Files"


def test_the_pictures_headline_in_french() -> None:
    with use_language(FR):
        headline, seat = result_headline(None, 1, ["Alice", "Bob"])
        assert (str(headline), seat) == ("À Bob de jouer", 1)
        assert headline.names == ("Bob",)
        assert str(result_headline({"winners": [0]}, None, None)[0]) == "Joueur 1 gagne !"
        assert str(result_headline({"winners": [0, 1]}, None, None)[0]) == "Partie nulle"
        assert player_name(None, 2) == "Joueur 3"
    assert str(result_headline(None, 0, ["Ann"])[0]) == "Ann to play"
    assert isinstance(result_headline(None, 0, ["{x}"])[0], Phrase)
    assert str(result_headline(None, 0, ["{x}"])[0]) == "{x} to play"


def test_a_bad_number_is_refused_in_french() -> None:
    with use_language(FR), pytest.raises(Exception, match="Il n’y a pas de rangée '9' ici"):
        small_number("9", "row", 5)


# -- sessions ----------------------------------------------------------------------------------


async def test_refusals_speak_the_language_of_the_moment(
    db: Database, publisher: FakePublisher
) -> None:
    session = await french_server(db, publisher).start(await new_game(db))
    with use_language(FR):
        with pytest.raises(NotYourTurn, match=r"^C’est au tour de Alice, pas au vôtre\.$"):
            await session.play(BOB, FIRST_MOVE)
        with pytest.raises(NotAPlayer, match=r"^Vous ne jouez pas dans Qawale"):
            await session.play(CAROL, FIRST_MOVE)
    with pytest.raises(NotYourTurn, match=r"^It is Alice's turn, not yours\.$"):
        await session.play(BOB, FIRST_MOVE)
    await session.play(ALICE, FIRST_MOVE)
    with use_language(FR), pytest.raises(StaleBoard, match=r"^Ce plateau n’est plus à jour"):
        session.seat_to_act(BOB, expected_ply=0)


async def test_a_french_servers_boards_are_french_whoever_plays(
    db: Database, publisher: FakePublisher
) -> None:
    session = await french_server(db, publisher).start(await new_game(db))
    await session.play(ALICE, FIRST_MOVE)  # the mover's own language is English
    board = boards(publisher)[-1]
    assert board.content == f"<@{BOB}>, à vous de jouer."
    assert board.embed is not None
    assert "À **Bob** de jouer." in (board.embed.description or "")
    assert (board.embed.footer.text or "").startswith(f"Partie #{session.id} · coup 1 · ")
    assert labels(board)[-3:] == ["Abandonner", "Proposer nulle", "Règles"]

    await session.resign(BOB)
    final = boards(publisher)[-1]
    assert "**Bob a abandonné : Alice gagne.**" in (final.embed.description or "")
    assert labels(final) == ["Revanche"]


async def test_an_abort_notice_is_in_the_servers_language(
    db: Database, publisher: FakePublisher
) -> None:
    sessions = french_server(db, publisher)
    session = await sessions.start(await new_game(db))
    await session.abort(by=f"<@{CAROL}>")
    assert publisher.texts()[-1] == (
        f"🛑 **{session.title}** a été annulée par <@{CAROL}>. Elle ne compte pour aucun "
        "classement.")
    other = await sessions.start(await new_game(db))
    await other.abort(by=ALL_PLAYERS)
    assert "a été annulée par tous ses joueurs." in publisher.texts()[-1]


async def test_an_abort_by_all_its_players_reads_as_before_in_english(
    db: Database, publisher: FakePublisher
) -> None:
    session = await SessionManager(db, GAME_UIS, publisher).start(await new_game(db))
    await session.abort(by="all its players")
    assert publisher.texts()[-1] == (
        f"🛑 **{session.title}** was aborted by all its players. It counts for no rating.")


async def test_an_ai_seat_is_named_in_the_language_of_the_board(
    db: Database, publisher: FakePublisher
) -> None:
    seats = [Seat(0, ALICE, "Alice"), Seat(1, ai_user_id("easy", 1), ai_name("easy"))]
    state = GAMES["qawale"].new_state(2, {})
    record = await db.create_game(
        game="qawale", guild_id=1, channel_id=5, parent_id=None, seats=seats, options={},
        rng_seed=7, state=state.dump(), now=NOW, clock="none", to_move=state.current_player)
    session = await french_server(db, publisher).start(record)
    assert session.names == ["Alice", "🤖 AI (Easy)"]
    with use_language(FR):
        assert session.names == ["Alice", "🤖 IA (Facile)"]
    assert "🤖 IA (Facile)" in (boards(publisher)[-1].embed.title or "")
    stored = await db.get_game(record.id)
    assert stored.seats[1].display_name == "🤖 AI (Easy)"


async def test_the_result_text_agrees_with_several_winners(
    db: Database, publisher: FakePublisher
) -> None:
    session = await french_server(db, publisher).start(await new_game(db, "kraut_ruben", 3))
    ui = GAME_UIS["kraut_ruben"]
    result = Result([0, 2], None, EndReason.RESIGNED)
    assert ui.result_text(session, result) == "Bob resigned: Alice and Carol win."
    with use_language(FR):
        assert ui.result_text(session, result) == "Bob a abandonné : Alice et Carol gagnent."
