"""`/privacy`: a member sees what the bot keeps about them, privately, and may be forgotten:
their games stay whole for their opponents under "Forgotten player", their ratings and
settings go. Never while a game of theirs runs."""

from __future__ import annotations

from tests.e2e.helpers import bot_of, challenge_and_accept, latest_board, speaking
from tests.e2e.test_casual_games import resign


async def a_finished_game(env, world):
    """Alice beats Bob (Bob resigns): the game's thread and session."""
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    await resign(world.bob, thread)
    assert session.is_over
    return thread, session


async def test_a_member_sees_what_is_kept_about_them_privately(env, world) -> None:
    await a_finished_game(env, world)
    await world.alice.slash(world.channel, "settings", dm_reminders="off")

    shown = await world.alice.slash(world.channel, "privacy")

    assert shown.ephemeral
    embed = shown.response.embeds[0]
    assert embed.title == "🔒 What Ludothèque keeps about you"
    assert "with your moves: 1 game." in embed.description
    assert "in 1 rated game." in embed.description
    assert "Your settings (DM reminders, challenges, your Discord language for DMs): kept." \
        in embed.description


async def test_a_forgotten_member_leaves_their_opponents_games_whole(env, world) -> None:
    _thread, session = await a_finished_game(env, world)

    done = await world.bob.slash(world.channel, "privacy", forget="forget")

    assert done.ephemeral and done.response.content.startswith("🔒 Done: you are forgotten.")
    record = await bot_of(env).db.get_game(session.id)
    assert "Forgotten player" in [seat.display_name for seat in record.seats]
    assert world.bob.id not in [seat.user_id for seat in record.seats]
    history = await world.alice.slash(world.channel, "history")
    assert "Forgotten player" in history.response.embeds[0].description
    board = await world.carol.slash(world.channel, "leaderboard", game="qawale")
    text = str(board.response.embeds[0].to_dict())
    assert "Alice" in text and "Bob" not in text and "Forgotten" not in text
    again = await world.bob.slash(world.channel, "privacy")
    assert "with your moves: 0 games." in again.response.embeds[0].description


async def test_nobody_is_forgotten_while_their_game_runs(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)

    shown = await world.bob.slash(world.channel, "privacy")
    refused = await world.bob.slash(thread, "privacy", forget="forget")

    assert "⚠️ You have 1 game in progress" in shown.response.embeds[0].description
    assert refused.ephemeral
    assert "You have 1 game in progress: finish, resign or abort it first" in \
        refused.response.content
    assert world.bob.id in [seat.user_id for seat in session.record.seats]
    assert latest_board(thread).components, "the game goes on"


async def test_privacy_speaks_the_members_language(env, world, monkeypatch) -> None:
    speaking(monkeypatch, "fr", world.alice)
    shown = await world.alice.slash(world.channel, "privacy")
    assert shown.response.embeds[0].title == "🔒 Ce que Ludothèque garde de vous"


async def test_a_forgotten_player_is_named_in_each_readers_language(env, soiree) -> None:
    posted = await soiree.alice.slash(soiree.channel, "challenge", game="qawale",
                                      opponent=soiree.bob)
    await soiree.bob.click(posted.response.message, label="Accepter")
    thread = soiree.channel.threads[-1]
    prompt = await soiree.bob.click(latest_board(thread), label="Abandonner")
    await soiree.bob.click(prompt.response.message, label="Resign")  # his client: English
    await soiree.bob.slash(soiree.channel, "privacy", forget="forget")

    history = await soiree.alice.slash(soiree.channel, "history")

    assert "Joueur oublié" in history.response.embeds[0].description


async def test_a_forgotten_members_waiting_challenge_no_longer_names_them(env, world) -> None:
    posted = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.bob)
    challenge = posted.response.message

    await world.bob.slash(world.channel, "privacy", forget="forget")

    now = next(m for m in world.channel.history() if m.id == challenge.id)
    assert now.embeds[0].description == "This challenge was cancelled."
    assert not now.components
    assert "Bob" not in str(now.embeds[0].to_dict()) and not now.content
