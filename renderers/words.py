"""The words on the pictures: player names and their initials, counted nouns, and the
status sentence with names that shrink first to fit."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engines.base import ResultDict
from i18n import Language, _, current_language, ngettext
from renderers.stamps import drawable

UNNAMED = "?"
"""A name of which the font draws nothing (only emoji, or only CJK): shown as this."""


def player_name(names: Sequence[str] | None, seat: int) -> str:
    """The display name of `seat` as the font draws it, or "Player N" when none was given
    (in the current language).

    Characters the font lacks are left out (see `drawable`), in both weights, since a name
    shows in bold and in regular: "🤖 AI (Medium)" is "AI (Medium)", "漢字" is "?".
    """
    if names and seat < len(names) and names[seat] and names[seat].strip():
        return drawable(drawable(names[seat], bold=False), bold=True).strip() or UNNAMED
    return _("Player {n}").format(n=seat + 1)


_WORD = re.compile(r"[^\W_]+")
"""A run of letters or digits: the words initials are taken from."""


def _initials_of(name: str) -> str:
    """ "Alice Martin" → "AM", "bob" → "B", "Player 2" → "P2": first and last words' initials."""
    words: list[str] = _WORD.findall(name)
    if not words:
        return ""
    first = words[0][0].upper()
    return first if len(words) == 1 else first + words[-1][0].upper()


def initials(names: Sequence[str] | None, seats: int) -> list[str]:
    """Each seat's mark on its pieces: its player's initials, told apart when they clash.

    Clashing initials take the first word's first two letters ("Al", "An"); if those clash
    too, the initial and the seat number ("B1", "B2"), and as a last resort "#1", "#2"
    (no name gives a "#"). A name without a letter or digit gives "P1", "P2"…
    """
    full = [player_name(names, seat) for seat in range(seats)]
    marks = [_initials_of(name) or f"P{seat + 1}" for seat, name in enumerate(full)]

    def clashing() -> set[int]:
        return {seat for seat, mark in enumerate(marks) if marks.count(mark) > 1}

    for seat in clashing():
        word = (_WORD.findall(full[seat]) or [""])[0]
        if len(word) > 1:
            marks[seat] = word[0].upper() + word[1].lower()
    for seat in clashing():
        marks[seat] = f"{marks[seat][0]}{seat + 1}"
    for seat in clashing():
        marks[seat] = f"#{seat + 1}"
    return marks


COUNTED: dict[str, Callable[[int], str]] = {
    "card": lambda n: ngettext("{n} card", "{n} cards", n),
    "empty bed": lambda n: ngettext("{n} empty bed", "{n} empty beds", n),
    "paquet": lambda n: ngettext("{n} paquet", "{n} paquets", n),
    "pawn": lambda n: ngettext("{n} pawn", "{n} pawns", n),
    "pebble": lambda n: ngettext("{n} pebble", "{n} pebbles", n),
    "pile": lambda n: ngettext("{n} pile", "{n} piles", n),
    "point": lambda n: ngettext("{n} point", "{n} points", n),
    "pt": lambda n: ngettext("{n} pt", "{n} pts", n),
    "tile": lambda n: ngettext("{n} tile", "{n} tiles", n),
}
"""The nouns the pictures count, each through its own plural message (`plural` looks a noun
up here: `COUNTED["tile"](3)` is `{n} tiles`, `{n} cartes` in French)."""


def number_text(count: float) -> str:
    """`3`, `2.5`, or `2,5` in French."""
    text = f"{count:g}"
    return text.replace(".", ",") if current_language() is Language.FR else text


def plural(count: float, noun: str, plural_form: str | None = None) -> str:
    """ "1 pebble", "0 pebbles", "3 pebbles", "2.5 points" (`plural_form`: irregular nouns),
    in the current language for the nouns of `COUNTED` (French: "0 galet", "2,5 points");
    another noun stays English."""
    counted = COUNTED.get(noun)
    if counted is not None:
        # gettext's plural rules take whole numbers: 2.5 counts like 2 (plural in French and
        # English), 1.5 like 1 (singular in French, plural in English, as both write them).
        if count == int(count):
            whole = int(count)
        else:
            whole = 1 if current_language() is Language.FR and abs(count) < 2 else 2
        return counted(whole).format(n=number_text(count))
    word = noun if abs(count) == 1 else (plural_form or noun + "s")
    return f"{count:g} {word}"


def named(template: str, *names: str) -> str:
    """A translated template with named player placeholders (`{name}`, or those of `names`
    in order) made a `Phrase` template (`{0}`, `{1}`…); other braces are kept as text."""
    keys = names or ("name",)
    escaped = template.replace("{", "{{").replace("}", "}}")
    for index, key in enumerate(keys):
        escaped = escaped.replace("{{" + key + "}}", "{" + str(index) + "}")
    return escaped


@dataclass(frozen=True)
class Phrase:
    """A sentence with player names in it (`{0}`, `{1}`…): names shrink first to fit."""

    template: str
    names: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.template.format(*self.names)

    def __add__(self, tail: str) -> Phrase:
        return Phrase(self.template + tail.replace("{", "{{").replace("}", "}}"), self.names)


def result_headline(
    result: ResultDict | None,
    current_player: int | None,
    names: Sequence[str] | None,
) -> tuple[Phrase, int | None]:
    """The status sentence and the seat whose swatch goes with it (None: no swatch)."""
    if result is None:
        if current_player is None or current_player < 0:
            return Phrase(_("Waiting…")), None
        return (Phrase(named(_("{name} to play")), (player_name(names, current_player),)),
                current_player)
    winners = result["winners"]
    if len(winners) == 1:
        return Phrase(named(_("{name} wins!")), (player_name(names, winners[0]),)), winners[0]
    return Phrase(_("Draw")), None
