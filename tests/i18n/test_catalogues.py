"""The catalogues: every message in French and English, and in step with the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from i18n import Language, _, catalogue_path, ngettext, translate, use_language

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "i18n" / "locales" / "ludotheque.pot"
PLACEHOLDER = re.compile(r"\{[a-z_]*\}")


def catalogue(path: Path, locale: str | None = None):
    with path.open("rb") as source:
        return read_po(source, locale=locale)


def ids(messages) -> set[object]:
    return {message.id for message in messages if message.id}


def extracted() -> set[object]:
    """The messages marked in the code today, as `make i18n-extract` finds them."""
    found: set[object] = set()
    for folder in ("bot", "renderers", "engines"):
        for _file, _line, message, _comments, _context in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python")]):
            found.add(message)
    return {message for message in found if message}


def test_the_template_lists_exactly_the_messages_marked_in_the_code() -> None:
    assert ids(catalogue(TEMPLATE)) == extracted(), (
        "the catalogues are out of date with the code: run `make i18n-update`")


@pytest.mark.parametrize("language", list(Language))
def test_every_message_has_a_translation(language: Language) -> None:
    translated = catalogue(catalogue_path(language), language.value)
    assert ids(translated) == ids(catalogue(TEMPLATE)), "run `make i18n-update`"
    missing = [message.id for message in translated if message.id and (
        "fuzzy" in message.flags or not (all(message.string) if isinstance(message.string, tuple)
                                         else message.string))]
    assert missing == [], f"{language.value}: no translation for {missing[:5]}"


@pytest.mark.parametrize("language", list(Language))
def test_a_translation_keeps_every_placeholder_of_its_message(language: Language) -> None:
    for message in catalogue(catalogue_path(language), language.value):
        if not message.id:
            continue
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        targets = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set().union(*(PLACEHOLDER.findall(s) for s in sources))
        for target in targets:
            assert set(PLACEHOLDER.findall(target)) <= wanted, (message.id, target)
            assert set(PLACEHOLDER.findall(target)) >= wanted - {"{n}"} or len(targets) > 1, (
                message.id, target)


def test_the_current_language_chooses_the_words() -> None:
    message = "That move is not allowed here."
    assert _(message) == message
    with use_language(Language.FR):
        assert _(message) == "Ce coup n’est pas permis ici."
    assert translate(Language.FR, message) == "Ce coup n’est pas permis ici."


def test_french_contracts_the_article_of_le_grabuge_after_de_and_a() -> None:
    with use_language(Language.FR):
        assert _("🏆 {game} tournament").format(game="Le Grabuge") == "🏆 Tournoi du Grabuge"
        assert _("🏆 {game} tournament").format(game="Qawale") == "🏆 Tournoi de Qawale"
        rating = ngettext("{name}'s rating in {game} after their last rated game here: {last}.",
                          "{name}'s rating in {game} after each of their last {n} rated games "
                          "here: from {first} to {last}, {low} at the lowest and {high} at the "
                          "highest.", 1)
        assert rating.format(name="Le Chat", game="Le Grabuge", last="27.0") == (
            "Cote de Le Chat au Grabuge après sa dernière partie classée ici : 27.0."), \
            "a member's name is theirs: only the game's article contracts"
    with use_language(Language.EN):
        assert _("🏆 {game} tournament").format(game="Le Grabuge") == "🏆 Le Grabuge tournament"
