"""PNG bytes of a picture, in its game's palette: each game's palette is chosen once from
pictures of seeded reference games, and a picture with a colour it lacks gets its own."""

from __future__ import annotations

import io
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from PIL import Image, ImageChops

from engines.base import CHANCE, Game
from i18n import Language, use_language
from renderers.png import palette_png
from renderers.recording import not_recorded

PALETTE_COLOURS = 256
"""Colours kept when encoding: the boards are flat colours and their anti-aliased edges."""

PALETTE_SAMPLING = 3
"""A palette is chosen from one pixel in 3 × 3: a ninth of the work, as good a palette."""

PALETTE_CHECK_SAMPLING = 6
"""Whether a game's palette suits a picture is checked on one pixel in 6 × 6: the share of
pixels off is as well estimated on a board's 20,000 such pixels, for a third of the time."""

PALETTE_TOLERANCE = 32
"""How far (on a channel) a pixel may be from its palette colour before it counts as off."""

PALETTE_MISFIT = 0.0002
"""The share of sampled pixels that may be off before a game's palette is not used."""

REFERENCE_NAMES = ("Zoé Quint", "yann", "Ines Ortega", "Ulf", "Wanda Vex")
"""Players of the reference pictures a game's palette is chosen from."""

_REFERENCES: ContextVar[list[Image.Image] | None] = ContextVar("_REFERENCES", default=None)
_WARM = threading.local()


def kept_as_reference(picture: Image.Image) -> bool:
    """While a game's palette is being chosen (`reference_palette`), keep a copy of
    `picture` among its references and say so: it is not to be encoded."""
    references = _REFERENCES.get()
    if references is None:
        return False
    references.append(picture.copy())
    return True


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes of `image`, quickly compressed: encoding time matters more than a few KB.

    An RGB picture is first reduced to a palette (no dithering): a third of the bytes to
    compress, so it encodes in about half the time and weighs about 40 % as much, and no one
    tells the colours apart (a channel is off by less than 1 on average). That is `palette`
    (a game's, see `reference_palette`) when it suits the picture, else one chosen from a
    sample of its pixels (fast octree).
    """
    if image.mode == "RGB":
        image = _to_palette(image, palette)
    if image.mode == "P" and "transparency" not in image.info:
        return palette_png(image)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def _to_palette(image: Image.Image, reference: Image.Image | None) -> Image.Image:
    """`image` in `reference`'s colours if they suit it, else in a palette of its own."""
    if reference is not None:
        indexed = image.quantize(palette=_warm_copy(reference), dither=Image.Dither.NONE)
        # The same pixels of the picture and of the mapped one: how far their colours are.
        checked = _sample(image, PALETTE_CHECK_SAMPLING)
        mapped = _sample(indexed, PALETTE_CHECK_SAMPLING).convert("RGB")
        histogram = ImageChops.difference(checked, mapped).histogram()
        off = sum(sum(histogram[band * 256 + PALETTE_TOLERANCE + 1:(band + 1) * 256])
                  for band in range(3))
        if off <= PALETTE_MISFIT * checked.width * checked.height:
            return indexed
    # A colour the game's palette lacks (or no such palette): the picture's own palette.
    own = _sample(image, PALETTE_SAMPLING).quantize(
        PALETTE_COLOURS, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return image.quantize(palette=own, dither=Image.Dither.NONE)


def _sample(image: Image.Image, step: int) -> Image.Image:
    """One pixel of `image` in `step` × `step`."""
    size = (max(1, image.width // step), max(1, image.height // step))
    return image.resize(size, Image.Resampling.NEAREST)


def _warm_copy(palette: Image.Image) -> Image.Image:
    """This thread's own copy of `palette`, kept: Pillow caches colour lookups in it.

    Mapping a picture to a palette that has mapped pictures before is two to three times
    as fast; each thread has its copy because Pillow fills that cache without a lock.
    """
    # Keyed by id, so the palette is kept with its copy: a palette let go (a test's, say)
    # would otherwise leave its id to the next one made, which would get the wrong copy.
    copies: dict[int, tuple[Image.Image, Image.Image]] = _WARM.__dict__.setdefault("copies", {})
    kept = copies.get(id(palette))
    if kept is None:
        copy = Image.new("P", (1, 1))
        copy.putpalette(palette.getpalette() or [])
        kept = copies[id(palette)] = (palette, copy)
    return kept[1]


_PALETTES: dict[str, Image.Image] = {}
"""Each game's palette, once chosen here or handed over (see `adopt_palettes`), by game id."""


def chosen_palettes() -> dict[str, bytes]:
    """The games' palettes chosen so far, as RGB bytes: what `adopt_palettes` takes."""
    return {game: bytes(palette.getpalette("RGB") or b"") for game, palette in _PALETTES.items()}


def adopt_palettes(palettes: Mapping[str, bytes]) -> None:
    """Use palettes another process chose (see `chosen_palettes`) instead of choosing them
    again: choosing them all takes most of a second, and they come out the same."""
    for game, colours in palettes.items():
        palette = Image.new("P", (1, 1))
        palette.putpalette(colours, "RGB")
        _PALETTES.setdefault(game, palette)


def reference_palette(
    render: Callable[..., bytes],
    game: Game[Any],
    players: Sequence[int],
    plies: Sequence[int],
) -> Image.Image:
    """A game's palette, chosen once from pictures of reference games (seeded random play),
    or the one another process chose (see `adopt_palettes`).

    Start, middle and end positions, with their last moves and as previews: the colours the
    game's boards are made of. A picture with a colour they lack gets its own palette. The
    references are drawn in English whatever the language of the moment, so a picture's bytes
    never depend on the language of the first picture a process drew.
    """
    known = _PALETTES.get(game.id)
    if known is not None:
        return known
    pictures: list[Image.Image] = []
    token = _REFERENCES.set(pictures)
    try:
        # The reference games are not the picture a `recording()` block checks.
        with use_language(Language.EN), not_recorded():
            for count in players:
                names = REFERENCE_NAMES[:count]
                for seed, moves in enumerate(plies):
                    state, last = seeded_position(game, count, moves, seed)
                    view = state.view(None)
                    render(view, last, names=names)
                    if last is not None:
                        render(view, last, preview=True, names=names)
    finally:
        _REFERENCES.reset(token)
    samples = [_sample(picture, PALETTE_SAMPLING) for picture in pictures]
    sheet = Image.new("RGB", (max(s.width for s in samples), sum(s.height for s in samples)))
    top = 0
    for sample in samples:
        sheet.paste(sample, (0, top))
        top += sample.height
    chosen = sheet.quantize(PALETTE_COLOURS, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return _PALETTES.setdefault(game.id, chosen)


def seeded_position(game: Game[Any], players: int, moves: int, seed: int,
                    options: dict[str, Any] | None = None) -> tuple[Any, str | None]:
    """The state after `moves` random player moves (seeded; chance drawn too, on to a
    player's turn), and the last move: a reproducible position to draw."""
    state = game.new_state(players, options)
    rng = random.Random(seed)
    last = None
    while not state.is_over() and (moves > 0 or state.current_player == CHANCE):
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        move = rng.choice(state.legal_moves())
        state.apply(move)
        last = str(move)
        moves -= 1
    return state, last
