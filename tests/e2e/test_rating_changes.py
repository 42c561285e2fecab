"""A rated game's final board and /history show what the game did to each rating."""

from __future__ import annotations

import re

from bot.ratings import BEST_AFTER_GAMES
from bot.sessions import MEND_DELAYS
from tests.e2e.helpers import bot_of, challenge_and_accept, latest_board
from tests.e2e.test_french_core import french_server_game, last_board
from tests.e2e.test_records import _resign_game

MINUS = "-"
CHANGE = re.compile(r"(.+?) \*\*(-?\d+\.\d)\*\* \(([-+±])(\d+\.\d)\)")


def rating_changes(description: str, label: str = "📈 Ratings: ") -> dict[str, tuple[float, float]]:
    """Each name on the board's ratings line, with its new rating and the signed move."""
    [line] = [line for line in description.splitlines() if line.startswith(label)]
    changes = {}
    for part in line.removeprefix(label).split(" · "):
        match = CHANGE.fullmatch(part)
        assert match, part
        name, after, sign, moved = match.groups()
        changes[name] = (float(after), -float(moved) if sign == MINUS else float(moved))
    return changes


def shown(actor) -> str:
    """The name the bot shows for a test member (their global name)."""
    return actor.name.capitalize()


async def resigned_game(env, world, winner, loser):
    """`winner` challenges `loser`, who resigns with the board's button: the thread."""
    thread, _session = await challenge_and_accept(env, world.channel, winner, loser)
    prompt = await loser.click(latest_board(thread), label="Resign")
    assert prompt.ephemeral
    await loser.click(prompt.response.message, label="Resign")
    return thread


async def leaderboard_ratings(world) -> dict[str, float]:
    """Each player's rating on the server's Qawale leaderboard."""
    shown = await world.carol.slash(world.channel, "leaderboard", game="qawale")
    text = shown.response.embeds[0].description
    return {name: float(rating)
            for name, rating in re.findall(r"\*\*\d+\.\*\* (.+?) — \*\*(-?\d+\.\d)\*\*", text)}


async def test_the_final_board_shows_each_players_new_rating_and_how_far_it_moved(
    env, world
) -> None:
    first = await resigned_game(env, world, world.alice, world.bob)
    board = latest_board(first)
    changes = rating_changes(board.embeds[0].description)
    seats = [s.display_name for s in (await bot_of(env).db.get_game(
        int(board.embeds[0].footer.text.split("#")[1].split(" ")[0]))).seats]
    assert list(changes) == seats, "in seat order"
    alice, bob = changes[shown(world.alice)], changes[shown(world.bob)]
    assert alice[1] > 0 > bob[1], "the winner gains, the loser loses"
    assert alice[0] == alice[1] and bob[0] == bob[1], "a first game starts from 0.0"
    assert await leaderboard_ratings(world) == {shown(world.alice): alice[0],
                                                shown(world.bob): bob[0]}

    second = await resigned_game(env, world, world.alice, world.bob)
    again = rating_changes(latest_board(second).embeds[0].description)
    for name, (before, _moved) in ((shown(world.alice), alice), (shown(world.bob), bob)):
        after, moved = again[name]
        assert round(after - before, 1) == moved, "the moves add up on the boards"
    assert again[shown(world.alice)][1] > 0 > again[shown(world.bob)][1]
    assert await leaderboard_ratings(world) == {
        name: after for name, (after, _moved) in again.items()}


async def test_a_final_board_discord_refused_shows_the_ratings_once_posted_again(
    env, world
) -> None:
    thread, _session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    prompt = await world.bob.click(latest_board(thread), label="Resign")
    env.inject_error("POST", f"/channels/{thread.id}/messages", times=1)  # the final board
    await world.bob.click(prompt.response.message, label="Resign")
    assert "Ratings" not in (latest_board(thread).embeds[0].description or "")
    await env.advance_time(MEND_DELAYS[0] + 1)
    changes = rating_changes(latest_board(thread).embeds[0].description)
    assert changes[shown(world.alice)][1] > 0 > changes[shown(world.bob)][1]


async def test_history_shows_what_each_game_did_to_the_members_rating(env, world) -> None:
    first = await resigned_game(env, world, world.alice, world.bob)
    lost = rating_changes(latest_board(first).embeds[0].description)[shown(world.bob)]
    second = await resigned_game(env, world, world.bob, world.alice)
    won = rating_changes(latest_board(second).embeds[0].description)[shown(world.bob)]
    history = await world.bob.slash(world.channel, "history")
    latest, earlier = history.response.embeds[0].description.splitlines()[:2]
    assert f"· won (resignation) · **{won[0]:.1f}** (+{won[1]:.1f}) ·" in latest
    assert f"· lost (resignation) · **{lost[0]:.1f}** ({MINUS}{-lost[1]:.1f}) ·" in earlier


async def test_a_french_servers_final_board_names_the_ratings_in_french(env) -> None:
    (alice, bob), thread, _session = await french_server_game(env)
    prompt = await bob.click(last_board(thread), label="Abandonner")  # the server's language
    await bob.click(prompt.response.message, label="Resign")  # Bob's own (an English client)
    changes = rating_changes(last_board(thread).embeds[0].description, "📈 Cotes : ")
    assert set(changes) == {shown(alice), shown(bob)}


async def test_a_final_board_hails_a_regulars_new_best_rating(env, world) -> None:
    def final_text() -> str:
        return latest_board(world.channel.threads[-1]).embeds[0].description or ""

    for _ in range(BEST_AFTER_GAMES):  # a newcomer's rating rises with nearly every win
        await _resign_game(env, world, world.bob, world.alice)
        assert "🏅" not in final_text()
    await _resign_game(env, world, world.bob, world.alice)
    assert "🏅 A new best rating for Alice!" in final_text()
    await _resign_game(env, world, world.alice, world.bob)
    assert "best rating for Alice" not in final_text(), "a loss is no best"
