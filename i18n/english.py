"""Fill the English catalogue from the source: the code is written in English, so each
msgid is its own English text (plurals included). Run by `make i18n-update`."""

from __future__ import annotations

from babel.messages.pofile import read_po, write_po

from i18n import Language, catalogue_path


def fill_english() -> int:
    """Give every untranslated English message its msgid; the number filled."""
    path = catalogue_path(Language.EN)
    with path.open("rb") as source:
        catalogue = read_po(source, locale="en")
    filled = 0
    for message in catalogue:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            if not all(message.string or ()):
                message.string = tuple(message.id)
                filled += 1
        elif not message.string:
            message.string = message.id
            filled += 1
    with path.open("wb") as target:
        write_po(target, catalogue, width=100, omit_header=False, no_location=True,
                 sort_output=True)
    return filled


if __name__ == "__main__":
    print(f"{fill_english()} English message(s) filled from the source")
