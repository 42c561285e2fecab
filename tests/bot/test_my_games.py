"""`/mygames`'s list within Discord's limits, whatever the names and the number of games."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.board import EMBED_DESCRIPTION_LIMIT
from bot.in_progress import running_description, running_line
from storage import RunningGame, Seat

NOW = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
ME = 1


def kraut_ruben_game(number: int, names: list[str]) -> RunningGame:
    """A five-player Kraut & Rüben game in progress, waiting for me."""
    seats = [Seat(0, ME, "me")] + [Seat(i + 1, 100 + i, name) for i, name in enumerate(names)]
    return RunningGame(id=number, game="kraut_ruben", guild_id=7, channel_id=900 + number,
                       board_message_id=5000 + number, seats=seats, to_move=0, deadline=NOW,
                       updated_at=NOW)


def test_long_names_and_many_games_fit_one_embed_and_say_how_many_are_left() -> None:
    names = ["W" * 32] * 4  # Discord's longest display names
    games = [kraut_ruben_game(number, names) for number in range(1, 26)]
    text = running_description(games, 40, ME)
    assert len(text) <= EMBED_DESCRIPTION_LIMIT
    shown = text.count("**Your turn**")
    assert 20 <= shown < 25
    assert text.endswith(f"…and {40 - shown} more games in progress.")


def test_a_name_cannot_break_the_link_or_the_formatting() -> None:
    line = running_line(kraut_ruben_game(3, ["[evil](https://x.example) **bold**"]), ME)
    assert "[#3 Kraut & Rüben vs (evil)(https://x.example) \\*\\*bold\\*\\*](" in line
    assert line.endswith("](https://discord.com/channels/7/903/5003) · ⏰ "
                         f"<t:{int(NOW.timestamp())}:R>")


def test_a_game_without_a_board_yet_links_to_its_thread() -> None:
    game = kraut_ruben_game(4, ["Bob"])
    unposted = RunningGame(**{**game.__dict__, "board_message_id": None, "deadline": None})
    assert running_line(unposted, ME).endswith("(https://discord.com/channels/7/904)")
