"""French and English: the gettext catalogues (Babel) and the language being written in.

Every player-facing string is written in English in the code and marked for translation:
`_("Your turn")`, `ngettext("{n} pebble", "{n} pebbles", n)`, or `N_("...")` for a constant
translated where it is used. The language is the current context's (`use_language`): the
bot sets it per interaction and per announcement, the renderers per picture, so no function
needs a language parameter to find its words. The catalogues are `i18n/locales/<lang>/
LC_MESSAGES/ludotheque.po`, read and compiled in memory on first use (`make i18n-update`
extracts the strings and updates them; see docs/translating.md).

Pure: the standard library and Babel, nothing of ours.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date
from enum import StrEnum
from functools import cache
from pathlib import Path

from babel import Locale
from babel.dates import format_date
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

DOMAIN = "ludotheque"
LOCALES = Path(__file__).resolve().parent / "locales"


class Language(StrEnum):
    """A language Ludothèque speaks."""

    EN = "en"
    FR = "fr"


DEFAULT_LANGUAGE = Language.EN

_current: ContextVar[Language] = ContextVar("language", default=DEFAULT_LANGUAGE)


def catalogue_path(language: Language) -> Path:
    """The `.po` file of `language`."""
    return LOCALES / language.value / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(language: Language) -> gettext.GNUTranslations:
    """`language`'s catalogue, compiled in memory once per process."""
    with catalogue_path(language).open("rb") as source:
        catalogue = read_po(source, locale=language.value, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def load_all() -> None:
    """Compile every catalogue and load Babel's data for every language now (at start): the
    first message or date in a language would otherwise wait for them, tens of
    milliseconds."""
    for language in Language:
        translations(language)
        Locale.parse(language.value).date_formats  # noqa: B018 (loads the locale's data)


def current_language() -> Language:
    """The language of the current context."""
    return _current.get()


def set_language(language: Language) -> None:
    """Write in `language` from now on in this context (an interaction's own task, say)."""
    _current.set(language)


@contextmanager
def use_language(language: Language) -> Iterator[Language]:
    """Write in `language` within the block (this task and what it awaits)."""
    token = _current.set(language)
    try:
        yield language
    finally:
        _current.reset(token)


FRENCH_CONTRACTIONS: tuple[tuple[str, str], ...] = (
    ("de Le Grabuge", "du Grabuge"), ("De Le Grabuge", "Du Grabuge"),
    ("à Le Grabuge", "au Grabuge"), ("À Le Grabuge", "Au Grabuge"),
)
"""French contracts "de le" and "à le": a game whose name starts with an article, put into
"un tournoi de {game}", reads "un tournoi du Grabuge". Game names only: a member called "Le
Chat" keeps their name whole."""


class FrenchText(str):
    """A French message whose `format` contracts the articles of the game names it fills in."""

    __slots__ = ()

    def format(self, /, *args: object, **kwargs: object) -> str:
        """`str.format`, then "de Le Grabuge" made "du Grabuge" (and the like)."""
        text = super().format(*args, **kwargs)
        for written, said in FRENCH_CONTRACTIONS:
            text = text.replace(written, said)
        return text


def _in_language(text: str) -> str:
    """A translated message, made to format as its language writes."""
    return FrenchText(text) if _current.get() is Language.FR else text


def _(message: str) -> str:
    """`message` in the current language."""
    return _in_language(translations(_current.get()).gettext(message))


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural of a message for `count`, in the current language's rules
    (French: 0 and 1 are singular)."""
    return _in_language(translations(_current.get()).ngettext(singular, plural, count))


def N_(message: str) -> str:
    """Mark a constant for extraction; translate it with `_` where it is shown."""
    return message


def translate(language: Language, message: str) -> str:
    """`message` in `language`, whatever the current one."""
    with use_language(language):
        return _(message)


def short_date(day: date) -> str:
    """`27 Nov 2026` (`27 nov. 2026` in French): a day in the current language."""
    return format_date(day, "d MMM y", locale=current_language().value)


def month_name(day: date) -> str:
    """`November 2026` (`novembre 2026` in French): the month of `day` in the current language."""
    return format_date(day, "LLLL y", locale=current_language().value)


def count_text(number: int) -> str:
    """`12,345` (`12 345` in French): a count written in the current language."""
    return format_decimal(number, locale=current_language().value)


def language_of(locale: str | None) -> Language:
    """The language for a Discord locale (`fr`, `en-US`, ...): French for French, else English."""
    if locale and locale.split("-")[0].lower() == "fr":
        return Language.FR
    return Language.EN


__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "N_",
    "Language",
    "_",
    "catalogue_path",
    "count_text",
    "current_language",
    "language_of",
    "load_all",
    "month_name",
    "ngettext",
    "set_language",
    "short_date",
    "translate",
    "translations",
    "use_language",
]
