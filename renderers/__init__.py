"""Board pictures: a game's view dict in, PNG bytes out (pure and deterministic)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from i18n import DEFAULT_LANGUAGE, Language, use_language
from renderers.grabuge import render_grabuge
from renderers.granat import render_granat
from renderers.graps import render_graps
from renderers.kraut_ruben import render_kraut_ruben
from renderers.qawale import render_qawale

ViewT_contra = TypeVar("ViewT_contra", bound=Mapping[str, object], contravariant=True)
"""The view type a renderer draws (its game's view TypedDict)."""


class Renderer(Protocol[ViewT_contra]):
    """One game's render function: its view in, PNG bytes out."""

    def __call__(
        self,
        view: ViewT_contra,
        highlight: str | None = None,
        *,
        preview: bool = False,
        names: Sequence[str] | None = None,
    ) -> bytes:
        """PNG of `view`, marking `highlight` (dashed, as a proposal, with `preview`)."""
        ...


RENDERERS: dict[str, Renderer[Any]] = {
    "graps": render_graps,
    "qawale": render_qawale,
    "kraut_ruben": render_kraut_ruben,
    "grabuge": render_grabuge,
    "granat": render_granat,
}
"""Each game id with a renderer, and its render function."""


def render(
    view: Mapping[str, object],
    highlight: str | None = None,
    *,
    preview: bool = False,
    names: Sequence[str] | None = None,
    language: str = DEFAULT_LANGUAGE.value,
) -> bytes:
    """PNG of `view`, marking `highlight` (last move, or with `preview` the move being
    composed), its words in `language`."""
    game = view.get("game") if isinstance(view, Mapping) else None
    renderer = RENDERERS.get(game) if isinstance(game, str) else None
    if renderer is None:
        known = ", ".join(sorted(RENDERERS))
        raise ValueError(f"no renderer for game {game!r} (known: {known})")
    with use_language(Language(language)):
        return renderer(view, highlight, preview=preview, names=names)


__all__ = ["RENDERERS", "Renderer", "render"]
