"""Board pictures: a game's view dict in, PNG bytes out (pure and deterministic)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from renderers.grabuge import render_grabuge
from renderers.granat import render_granat
from renderers.graps import render_graps
from renderers.kraut_ruben import render_kraut_ruben
from renderers.qawale import render_qawale

Renderer = Callable[..., bytes]
"""`(view, highlight=None, *, preview=False, names=None) -> PNG bytes` for one game."""

RENDERERS: dict[str, Renderer] = {
    "graps": render_graps,
    "qawale": render_qawale,
    "kraut_ruben": render_kraut_ruben,
    "grabuge": render_grabuge,
    "granat": render_granat,
}
"""Each game id with a renderer, and its render function."""


def render(
    view: dict,
    highlight: str | None = None,
    *,
    preview: bool = False,
    names: list[str] | None = None,
) -> bytes:
    """PNG of `view`, marking `highlight` (last move, or with `preview` the move being composed)."""
    game = view.get("game") if isinstance(view, Mapping) else None
    renderer = RENDERERS.get(game) if isinstance(game, str) else None
    if renderer is None:
        known = ", ".join(sorted(RENDERERS))
        raise ValueError(f"no renderer for game {game!r} (known: {known})")
    return renderer(view, highlight, preview=preview, names=names)


__all__ = ["RENDERERS", "render"]
