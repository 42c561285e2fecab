"""The replay viewer's and the Share button's custom_ids: what they hold, within Discord's
limits, read back by their templates."""

from __future__ import annotations

import re

import pytest

from bot.components import (
    CUSTOM_ID_LIMIT,
    MAX_ID,
    TEMPLATES,
    Prefix,
    ReplayStep,
    ShareRequest,
)
from bot.games import GAME_UIS


@pytest.mark.parametrize("step", [ReplayStep(12, 5, "n"), ReplayStep(MAX_ID, 10**6, "l"),
                                  ReplayStep(1, 0, "o")])
def test_a_viewer_button_names_the_game_and_the_position(step: ReplayStep) -> None:
    match = re.fullmatch(TEMPLATES[Prefix.REPLAY], step.custom_id)
    assert match is not None and len(step.custom_id) <= CUSTOM_ID_LIMIT
    assert ReplayStep(int(match["game"]), int(match["position"]), match["dir"]) == step


@pytest.mark.parametrize("custom_id", ["lv:12:5:x", "lv:12:-1:n", "lv:a:1:n", "lh:ruless",
                                       "lh:rules:Qawale", "lh:games:qawale:x"])
def test_malformed_ids_are_not_ours(custom_id: str) -> None:
    assert not any(re.fullmatch(template, custom_id) for template in TEMPLATES.values())


def test_share_names_what_to_post() -> None:
    assert ShareRequest("games").custom_id == "lh:games"
    for game in GAME_UIS:
        custom_id = ShareRequest("rules", game).custom_id
        match = re.fullmatch(TEMPLATES[Prefix.SHARE], custom_id)
        assert match is not None and (match["what"], match["game"]) == ("rules", game)
