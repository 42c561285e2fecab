"""A display name with markdown characters reads as typed wherever Discord renders markdown
(boards, logs, results, leaderboards, histories), and stays as it is where Discord shows text
literally (thread names, alt text, the board picture)."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from tests.e2e.conftest import World
from tests.e2e.helpers import TINY_PNG, actor_for, challenge_and_accept, latest_board

SAM, ANN = "*Sam_*", "`Ann`"
"""Names Discord would turn into an italic and a code span if they were not escaped."""
SAM_ESCAPED, ANN_ESCAPED = r"\*Sam\_\*", r"\`Ann\`"


@pytest.fixture
def marked(env: simcord.Env) -> World:
    """A server where Sam and Ann, whose names hold markdown characters, play; Carol watches."""
    server = env.create_guild(name="Markdown night")
    return World(
        server, server.create_text_channel("games"),
        server.add_member(env.create_user("sam", global_name=SAM)),
        server.add_member(env.create_user("ann", global_name=ANN)),
        server.add_member(env.create_user("carol", global_name="Carol")),
    )


@pytest.fixture
def painted_names(monkeypatch: pytest.MonkeyPatch) -> list[list[str] | None]:
    """The names each board picture was drawn with (the pictures themselves are tiny)."""
    names: list[list[str] | None] = []

    def render(*args: Any, **kwargs: Any) -> bytes:
        names.append(kwargs.get("names"))
        return TINY_PNG
    monkeypatch.setattr("bot.painter.render", render)
    return names


def escaped(name: str) -> str:
    """How a board writes `name`."""
    return SAM_ESCAPED if name == SAM else ANN_ESCAPED


async def test_a_board_escapes_markdown_in_names_but_the_thread_and_picture_keep_them(
    env: simcord.Env, marked: World, painted_names: list[list[str] | None]
) -> None:
    thread, session = await challenge_and_accept(env, marked.channel, marked.alice, marked.bob)
    assert thread.name in (f"Qawale · {SAM} vs {ANN}", f"Qawale · {ANN} vs {SAM}")
    assert painted_names and set(painted_names[-1] or []) == {SAM, ANN}
    mover = session.names[session.state.current_player]
    board = latest_board(thread)
    [embed] = board.embeds
    assert f"**{escaped(mover)}** to play." in embed.description
    assert SAM_ESCAPED in embed.title and ANN_ESCAPED in embed.title
    [picture] = board.attachments
    assert picture.description.startswith(f"Board of {thread.name}: {mover} to play. ")

    player = actor_for(session, marked.alice, marked.bob)
    await player.slash(thread, "move", notation=str(session.state.legal_moves()[0]))
    log = latest_board(thread).embeds[0].description
    assert f"**{escaped(mover)}** put a pebble on" in log
    assert f"**{escaped(session.names[session.state.current_player])}** to play." in log


async def test_the_result_line_escapes_markdown_in_names_and_the_alt_text_does_not(
    env: simcord.Env, marked: World, painted_names: list[list[str] | None]
) -> None:
    thread, _session = await challenge_and_accept(env, marked.channel, marked.alice, marked.bob)
    asked = await marked.bob.slash(thread, "resign")
    await marked.bob.click(asked.response.message, label="Resign")
    board = latest_board(thread)
    description = board.embeds[0].description
    assert f"**{ANN_ESCAPED} resigned: {SAM_ESCAPED} wins.**" in description
    assert "\\\\" not in description
    assert f"{ANN} resigned: {SAM} wins." in board.attachments[0].description


async def test_the_leaderboard_and_history_escape_markdown_in_names(
    env: simcord.Env, marked: World, painted_names: list[list[str] | None]
) -> None:
    _thread, session = await challenge_and_accept(env, marked.channel, marked.alice,
                                                  marked.bob)
    await session.resign(marked.bob.id)
    board = await marked.carol.slash(marked.channel, "leaderboard", game="qawale")
    rows = board.response.embeds[0].description.splitlines()
    assert rows[0].startswith(f"**1.** {SAM_ESCAPED} — ")
    assert rows[1].startswith(f"**2.** {ANN_ESCAPED} — ")

    history = await marked.carol.slash(marked.channel, "history", member=marked.bob)
    embed = history.response.embeds[0]
    assert embed.title == f"📜 {ANN_ESCAPED}'s latest games"
    assert embed.description.startswith(f"`#{session.id}` **Qawale** vs {SAM_ESCAPED} · lost")


async def test_a_replay_escapes_markdown_in_names_and_its_alt_text_does_not(
    env: simcord.Env, marked: World, painted_names: list[list[str] | None]
) -> None:
    thread, session = await challenge_and_accept(env, marked.channel, marked.alice, marked.bob)
    await session.resign(marked.bob.id)
    replay = await marked.carol.slash(marked.channel, "replay", game=f"#{session.id}")
    assert SAM_ESCAPED in replay.response.content and ANN_ESCAPED in replay.response.content
    [gif] = replay.response.attachments
    assert thread.name in gif.description and "\\" not in gif.description
    viewer = await marked.carol.click(replay.response.message, label="Step through")
    assert f"{ANN_ESCAPED} vs {SAM_ESCAPED}" in viewer.response.content \
        or f"{SAM_ESCAPED} vs {ANN_ESCAPED}" in viewer.response.content
    [frame] = viewer.response.attachments
    assert thread.name in frame.description and "\\" not in frame.description
