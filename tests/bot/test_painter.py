"""Board pictures drawn in worker processes are the pictures the renderers draw."""

from __future__ import annotations

from bot import painter as painter_module
from bot.painter import ProcessPainter, ThreadPainter
from engines import GAMES
from renderers import render


async def test_a_worker_process_draws_the_same_board_and_preview_as_the_renderer() -> None:
    state = GAMES["qawale"].new_state(2)
    move = str(state.legal_moves()[0])
    painter = ProcessPainter(1)
    try:
        board = await painter.paint(state.view(None), None, names=["Alice", "Bob"])
        preview = await painter.paint(state.view(0), move, preview=True, names=["Alice", "Bob"])
    finally:
        painter.close()
    assert board == render(state.view(None), None, names=["Alice", "Bob"])
    assert preview == render(state.view(0), move, preview=True, names=["Alice", "Bob"])
    assert board != preview


async def test_a_thread_painter_draws_in_the_bots_process() -> None:
    state = GAMES["granat"].new_state(2)
    assert await ThreadPainter().paint(state.view(None), None) == render(state.view(None))


def test_a_worker_hands_freed_memory_back_every_few_pictures_and_draws_the_same(
    monkeypatch,
) -> None:
    released: list[int] = []
    monkeypatch.setattr(painter_module, "RELEASE_EVERY", 3)
    monkeypatch.setattr(painter_module, "release_memory", lambda: released.append(1))
    state = GAMES["graps"].new_state(2)
    pictures = {painter_module.draw(state.view(None), None, preview=False, names=None,
                                    language="en") for _ in range(6)}
    assert pictures == {render(state.view(None))}
    assert len(released) == 2
