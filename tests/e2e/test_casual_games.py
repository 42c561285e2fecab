"""Casual games: `rated: Casual` on `/challenge` or `/lobby` starts a game that counts for no
rating, and everything shows it: the challenge or table, the board's footer, the final board,
`/history`; its rematch stays casual. Rated stays the default."""

from __future__ import annotations

from tests.e2e.helpers import bot_of, latest_board, the_bot


def field(message, name: str) -> str:
    """The value of an embed field of a message."""
    [value] = [f.value for f in message.embeds[0].fields if f.name == name]
    return value


async def resign(actor, thread) -> None:
    """`actor` resigns with the board's button and confirms."""
    prompt = await actor.click(latest_board(thread), label="Resign")
    await actor.click(prompt.response.message, label="Resign")


async def test_a_casual_challenge_says_so_and_its_game_changes_no_rating(env, world) -> None:
    posted = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.bob, rated="no")
    assert field(posted.response.message, "Rating") == "Casual: counts for no rating"
    await world.bob.click(posted.response.message, label="Accept")
    thread = world.channel.threads[-1]
    board = latest_board(thread)
    assert "(casual)" in board.embeds[0].footer.text

    await resign(world.bob, thread)

    final = latest_board(thread).embeds[0].description
    assert "A casual game: no rating changed." in final
    assert "📈 Ratings" not in final
    board_shown = await world.carol.slash(world.channel, "leaderboard", game="qawale")
    assert "Alice" not in str(board_shown.response.embeds[0].to_dict())
    history = await world.alice.slash(world.channel, "history")
    assert "· casual ·" in history.response.embeds[0].description


async def test_challenges_are_rated_unless_said_otherwise(env, world) -> None:
    posted = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.bob)
    assert field(posted.response.message, "Rating") == "Rated"
    await world.bob.click(posted.response.message, label="Accept")
    thread = world.channel.threads[-1]
    assert "(casual)" not in latest_board(thread).embeds[0].footer.text
    await resign(world.bob, thread)
    assert "📈 Ratings" in latest_board(thread).embeds[0].description


async def test_the_rematch_of_a_casual_game_is_casual(env, world) -> None:
    posted = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.bob, rated="no")
    await world.bob.click(posted.response.message, label="Accept")
    thread = world.channel.threads[-1]
    await resign(world.bob, thread)
    await world.bob.click(latest_board(thread), label="Rematch")
    offer = world.channel.history()[-1]
    assert field(offer, "Rating") == "Casual: counts for no rating"
    await world.alice.click(offer, label="Accept")
    rematch = await bot_of(env).sessions.in_channel(world.channel.threads[-1].id)
    assert rematch.record.casual and not rematch.record.rated


async def test_a_casual_table_and_a_casual_game_against_the_ai(env, world) -> None:
    table = await world.alice.slash(world.channel, "lobby", game="graps", rated="no")
    assert field(table.response.message, "Rating") == "Casual: counts for no rating"
    await world.bob.click(table.response.message, label="Join")
    await world.alice.click(table.response.message, label="Start")
    from_table = await bot_of(env).sessions.in_channel(world.channel.threads[-1].id)
    assert from_table.record.casual

    await world.carol.slash(world.channel, "challenge", game="qawale",
                            opponent=the_bot(env, world), level="easy", rated="no")
    against_ai = await bot_of(env).sessions.in_channel(world.channel.threads[-1].id)
    assert against_ai.record.casual and not against_ai.record.rated


async def test_a_casual_game_on_a_french_server(env, soiree) -> None:
    posted = await soiree.alice.slash(soiree.channel, "challenge", game="qawale",
                                      opponent=soiree.bob, rated="no")
    assert field(posted.response.message, "Classement") == \
        "Amicale : ne compte pour aucun classement"
    await soiree.bob.click(posted.response.message, label="Accepter")
    footer = latest_board(soiree.channel.threads[-1]).embeds[0].footer.text
    assert footer.startswith("Partie #") and "(amicale) · coup" in footer
