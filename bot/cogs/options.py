"""Game options as slash-command parameters, generated from the engines' option specs.

Each engine declares its options once (`OptionSpec`: default, check, label, choices); this
module turns every playable game's options into optional parameters of `/challenge` and
`/lobby`, so a new option needs no edit here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any

from discord import app_commands

from bot.ai_players import LEVEL_NAMES
from bot.clock import CLOCKS
from bot.cogs.choices import GAME_CHOICES
from bot.games import GAME_UIS
from bot.games.base import option_value_text
from engines import GAMES
from engines.base import OptionSpec
from i18n import N_

DESCRIPTION_LIMIT = 100
"""Discord's limit on a parameter's description."""

OPTION_HELP = N_("{game}: {option} (default {value})")
"""A game option's parameter description. Its `locale_str` (`CommandOption.help`) carries
this template and the untranslated values in its extras (`template`, `params`), so a
translator can translate each part and put them together in the member's language."""

Callback = Callable[..., Coroutine[Any, Any, None]]
"""A command callback (its game options arrive as keyword arguments)."""


@dataclass(frozen=True)
class CommandOption:
    """One slash-command parameter and the engine option it sets in each game."""

    param: str
    engine_names: dict[str, str]
    """Game id → the engine option this parameter sets in that game."""
    annotation: Any
    description: str
    """In English, as the default; `params` lets a translator write it in another language."""
    choices: list[app_commands.Choice[Any]] | None
    params: dict[str, str]
    """The untranslated values of `OPTION_HELP` (game, option, value)."""

    @property
    def help(self) -> app_commands.locale_str:
        """The description with its template and values, for the translator."""
        return app_commands.locale_str(self.description, template=OPTION_HELP,
                                       params=self.params)


def _choices(spec: OptionSpec) -> list[app_commands.Choice[Any]] | None:
    if spec.choices is None:
        return None
    if all(isinstance(value, int) and not isinstance(value, bool) for value in spec.choices):
        return [app_commands.Choice(name=option_value_text(spec, v), value=int(v))
                for v in spec.choices]
    return [app_commands.Choice(name=option_value_text(spec, v), value=str(v))
            for v in spec.choices]


def clip(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """`text` cut with an ellipsis to Discord's limit on a description."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def command_options() -> list[CommandOption]:
    """Every playable game's options as parameters (a parameter shared by games must agree)."""
    found: dict[str, CommandOption] = {}
    for game_id in GAME_UIS:
        game = GAMES[game_id]
        for name, spec in game.option_specs.items():
            param = spec.param or name
            choices = _choices(spec)
            if choices is None:
                annotation: Any = bool | None
            elif isinstance(choices[0].value, int):
                annotation = int | None
            else:
                annotation = str | None
            params = {"game": game.name, "option": spec.label,
                      "value": option_value_text(spec, spec.default)}
            description = clip(OPTION_HELP.format(**params))
            known = found.get(param)
            if known is not None:
                if known.annotation != annotation or known.choices != choices:
                    raise ValueError(f"option parameter {param!r} means different things in "
                                     f"{', '.join(known.engine_names)} and {game_id}")
                known.engine_names[game_id] = name
                continue
            found[param] = CommandOption(param, {game_id: name}, annotation, description,
                                         choices, params)
    return list(found.values())


COMMAND_OPTIONS = command_options()
"""The option parameters of `/challenge` and `/lobby`."""


LEVEL_CHOICES: list[app_commands.Choice[Any]] = [
    app_commands.Choice(name=name, value=level) for level, name in LEVEL_NAMES.items()]
"""The AI levels as slash-command choices."""

CLOCK_CHOICES: list[app_commands.Choice[Any]] = [
    app_commands.Choice(name=spec.label, value=clock.value) for clock, spec in CLOCKS.items()]
"""The time controls as slash-command choices."""


RATED_CHOICES: list[app_commands.Choice[Any]] = [
    app_commands.Choice(name=N_("Rated (the default)"), value="yes"),
    app_commands.Choice(name=N_("Casual: counts for no rating"), value="no")]
"""Whether a challenge or table is rated, as slash-command choices."""

LEGS_CHOICES: list[app_commands.Choice[Any]] = [
    app_commands.Choice(name=N_("Once (the default)"), value=1),
    app_commands.Choice(name=N_("Twice, seats swapped"), value=2)]
"""How many times each pair of a tournament meets, as slash-command choices."""

STARTS_IN_CHOICES: list[app_commands.Choice[Any]] = [
    app_commands.Choice(name=N_("In 1 hour"), value=1),
    app_commands.Choice(name=N_("In 2 hours"), value=2),
    app_commands.Choice(name=N_("In 3 hours"), value=3),
    app_commands.Choice(name=N_("In 4 hours"), value=4),
    app_commands.Choice(name=N_("In 6 hours"), value=6),
    app_commands.Choice(name=N_("In 8 hours"), value=8),
    app_commands.Choice(name=N_("In 12 hours"), value=12),
    app_commands.Choice(name=N_("In 24 hours"), value=24)]
"""When a tournament starts by itself (`START_DELAYS`, in hours), as slash-command choices."""

RATED_HELP = N_("Rated, or casual: the game then counts for no rating")
"""The description of `rated:` on `/challenge` and `/lobby`."""


def is_casual(rated: str | None) -> bool:
    """True when `rated:` chose a casual game (not given: rated)."""
    return rated == "no"


def engine_options(game_id: str, chosen: Mapping[str, object]) -> dict[str, object]:
    """The engine options a command's chosen parameters set (None: not chosen).

    A parameter of another game keeps its engine name, so the challenge service can say
    whose option it is.
    """
    options: dict[str, object] = {}
    for option in COMMAND_OPTIONS:
        value = chosen.get(option.param)
        if value is None:
            continue
        name = option.engine_names.get(game_id) or next(iter(option.engine_names.values()))
        options[name] = value
    return options


def game_options_command(
    name: str, description: str, callback: Callback,
    **described: str | app_commands.locale_str,
) -> app_commands.Command[Any, ..., None]:
    """A guild-only slash command whose callback (taking `**options`) gets one optional
    parameter per game option, with the engine's label, default and choices."""
    signature = inspect.signature(callback)
    fixed = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    extra = [inspect.Parameter(o.param, inspect.Parameter.KEYWORD_ONLY, default=None,
                               annotation=o.annotation) for o in COMMAND_OPTIONS]
    # inspect.signature (which discord.py reads) honours __signature__.
    vars(callback)["__signature__"] = signature.replace(parameters=[*fixed, *extra])
    descriptions = {**described, **{o.param: o.help for o in COMMAND_OPTIONS}}
    choices: dict[str, list[app_commands.Choice[Any]]] = {
        o.param: o.choices for o in COMMAND_OPTIONS if o.choices is not None}
    choices["game"] = GAME_CHOICES
    if "level" in signature.parameters:
        choices["level"] = LEVEL_CHOICES
    if "clock" in signature.parameters:
        choices["clock"] = CLOCK_CHOICES
    if "rated" in signature.parameters:
        choices["rated"] = RATED_CHOICES
    if "legs" in signature.parameters:
        choices["legs"] = LEGS_CHOICES
    if "starts_in" in signature.parameters:
        choices["starts_in"] = STARTS_IN_CHOICES
    decorated = app_commands.choices(**choices)(app_commands.describe(**descriptions)(callback))
    command: app_commands.Command[Any, ..., None] = app_commands.command(
        name=name, description=description)(decorated)
    return app_commands.guild_only(command)
