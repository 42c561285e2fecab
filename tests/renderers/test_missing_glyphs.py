"""Characters the bundled font lacks (emoji, CJK) are left out of every picture rather than
drawn as empty boxes, in measuring as in drawing; a name left empty shows as "?"."""

from __future__ import annotations

import pytest

from engines import GAMES
from renderers import render
from renderers.common import Canvas
from renderers.encoding import seeded_position
from renderers.recording import recording
from renderers.stamps import drawable, has_glyph
from renderers.words import UNNAMED, initials, player_name

AI_NAMES = {"en": "🤖 AI (Medium)", "fr": "🤖 IA (Moyen)"}
"""The bot's own name for an AI seat (bot/ai_players.py), emoji first."""
SHOWN_AI = {"en": "AI (Medium)", "fr": "IA (Moyen)"}


def test_emoji_and_cjk_have_no_glyph_but_accents_and_symbols_do() -> None:
    for char in ("🤖", "🐉", "漢", "テ", "\ufe0f", "\u200d"):
        assert not has_glyph(char) and not has_glyph(char, bold=True), repr(char)
    for char in ("é", "Ŵ", "Ñ", "◆", "★", "✓", "…", "·", "\u00a0", "\u202f", " "):
        assert has_glyph(char) and has_glyph(char, bold=True), repr(char)


def test_left_out_characters_leave_one_space_and_none_at_the_ends() -> None:
    assert drawable("🤖 AI (Medium)") == "AI (Medium)"
    assert drawable("🐉🔥 Dragon Slayer 🔥🐉 the Great") == "Dragon Slayer the Great"
    assert drawable("👩\u200d👩\u200d👧 Family") == "Family"
    assert drawable("Ñandú Ümlaut 漢字テスト") == "Ñandú Ümlaut"
    assert drawable("漢字") == ""
    assert drawable("a  b") == "a  b"  # nothing left out: the text stays as it was
    assert drawable("Gagné 🎉\u00a0!") == "Gagné\u00a0!"  # French no-break space kept


def test_names_are_shown_without_emoji_and_empty_ones_as_a_question_mark() -> None:
    names = ["🤖 AI (Medium)", "🐉 Drake", "漢字", "🎲"]
    assert [player_name(names, seat) for seat in range(4)] == \
        ["AI (Medium)", "Drake", UNNAMED, UNNAMED]
    # Initials come from what is drawn: no emoji and no CJK letter (which would be a box).
    assert initials(["漢字 Li", "🐉 Drake"], 2) == ["L", "D"]
    assert initials(["漢字", "🐉"], 2) == ["P1", "P2"]


def test_measuring_and_fitting_use_the_text_as_drawn() -> None:
    canvas = Canvas(800, 100)
    assert canvas.text_width("🤖 AI (Medium)", 24) == canvas.text_width("AI (Medium)", 24)
    width = canvas.text_width("Dragon Slayer the Great", 24)
    assert canvas.fit("🐉🔥 Dragon Slayer 🔥🐉 the Great", 24, width) == \
        "Dragon Slayer the Great"
    cut = canvas.fit("🐉 Dragon Slayer the Great", 24, 120)
    assert cut.startswith("Dragon") and cut.endswith("…") and "🐉" not in cut
    assert canvas.text_width(cut, 24) <= 120
    with recording() as drawn:
        canvas.text((10, 50), "🤖 IA (Moyen)", 24, anchor="lm")
    assert [d.what for d in drawn] == ["IA (Moyen)"]
    assert drawn[0].box[2] - drawn[0].box[0] == pytest.approx(
        canvas.text_width("IA (Moyen)", 24), abs=2)


def _positions() -> list[tuple[str, object, str | None, int]]:
    found = []
    for game, players, steps in (("qawale", 2, 14), ("graps", 2, 24), ("kraut_ruben", 3, 50),
                                 ("kraut_ruben", 5, 90), ("grabuge", 2, 80),
                                 ("granat", 2, 20)):
        state, last = seeded_position(GAMES[game], players, steps, seed=steps)
        found.append((f"{game}-{players}", state.view(None), last, players))
    return found


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("position", _positions(), ids=lambda p: p[0])
def test_no_picture_draws_a_character_the_font_lacks(
    position: tuple[str, object, str | None, int], language: str
) -> None:
    _label, view, last, players = position
    names = ["🐉 Drake", AI_NAMES[language], "漢字", "Zoé 🎲", "テスト Ann"][:players]
    names[-1] = AI_NAMES[language]  # the AI plays last: the headline names it at times
    with recording() as drawn:
        render(view, last, names=names, language=language)  # type: ignore[arg-type]
    texts = [d.what for d in drawn if d.kind == "text"]
    boxes = [(t, c) for t in texts for c in t if not (has_glyph(c) or has_glyph(c, True))]
    assert boxes == []
    assert any(SHOWN_AI[language] in t or SHOWN_AI[language][:3] in t for t in texts)
