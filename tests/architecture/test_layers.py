"""The layers of docs/architecture: imports point one way, with no cycle and no dodge.

Every import counts, including those under `TYPE_CHECKING` and inside functions: a cycle
hidden behind either is still a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engines", "renderers", "storage", "ai", "bot", "i18n")

ALLOWED: dict[str, set[str]] = {
    "engines": set(),
    "i18n": set(),
    "renderers": {"engines", "i18n"},
    "storage": set(),
    "ai": {"engines"},
    "bot": {"engines", "renderers", "storage", "ai", "i18n"},
}
"""Which first-party packages each package may import (besides itself)."""

BOT_LAYERS: list[set[str]] = [
    {"bot.worker_process"},
    {"bot", "bot.errors", "bot.config", "bot.painter", "bot.ai_players", "bot.clock",
     "bot.copy_database", "bot.health", "bot.error_reports", "bot.round_robin",
     "bot.metrics"},
    {"bot.swiss"},
    {"bot.tournament_rounds"},
    {"bot.backups"},
    {"bot.replay"},  # the painter draws replays in its workers; here is what it draws
    {"bot.replies", "bot.publisher", "bot.ratings", "bot.timers", "bot.languages",
     "bot.absences"},
    {"bot.components"},
    {"bot.games.base"},
    {"bot.games.common", "bot.draw_offers", "bot.takebacks"},
    {"bot.games.*"},  # each game's controls: bot/games/<game>.py
    {"bot.games", "bot.board", "bot.automatic"},
    {"bot.guide", "bot.challenge_posts", "bot.in_progress"},
    {"bot.server_stats", "bot.tournament_posts"},
    {"bot.session_base"},
    {"bot.session_draws", "bot.session_clock", "bot.session_aids"},
    {"bot.sessions"},
    {"bot.session_manager"},
    {"bot.tournaments"},
    {"bot.challenge_base"},
    {"bot.tables", "bot.rematches"},
    {"bot.challenges", "bot.records", "bot.deadlines", "bot.privacy", "bot.recaps"},
    {"bot.router", "bot.cogs", "bot.cogs.choices"},
    {"bot.cogs.options"},
    {"bot.cogs.lobby", "bot.cogs.play", "bot.cogs.records", "bot.cogs.servers",
     "bot.cogs.settings"},
    {"bot.client"},
    {"bot.__main__"},
]
"""bot/ from the bottom up: a module may import only modules of lower layers (or its own)."""


def modules() -> Iterator[tuple[str, Path]]:
    """Every first-party module and its file."""
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            yield name, path


def imports_of(name: str, path: Path) -> list[tuple[str, ast.AST]]:
    """First-party modules `name` imports, anywhere in the file, with the import node."""
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, ast.AST]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((target, node))
            # `from bot.games import qawale` imports the submodule too.
            found += [(f"{target}.{alias.name}", node) for alias in node.names]
    known = dict(modules())
    return [(target, node) for target, node in found if target in known]


def function_local_imports(path: Path) -> list[int]:
    """Line numbers of imports inside a function body."""
    tree = ast.parse(path.read_text())
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines += [inner.lineno for inner in ast.walk(node)
                      if isinstance(inner, ast.Import | ast.ImportFrom)]
    return lines


def layer_of(name: str) -> int:
    """The index of a bot module's layer."""
    for index, layer in enumerate(BOT_LAYERS):
        if name in layer:
            return index
    if name.startswith("bot.games.") and name.count(".") == 2:
        return next(i for i, layer in enumerate(BOT_LAYERS) if "bot.games.*" in layer)
    raise AssertionError(f"{name} has no layer in BOT_LAYERS: add it where it belongs")


@pytest.mark.parametrize("name,path", list(modules()), ids=lambda value: str(value))
def test_a_package_imports_only_the_layers_below_it(name: str, path: Path) -> None:
    package = name.split(".")[0]
    for target, node in imports_of(name, path):
        other = target.split(".")[0]
        assert other == package or other in ALLOWED[package], (
            f"{path}:{getattr(node, 'lineno', '?')}: {package} may not import {other}")


@pytest.mark.parametrize("name,path", [(n, p) for n, p in modules() if n.startswith("bot")],
                         ids=lambda value: str(value))
def test_a_bot_module_imports_only_lower_bot_modules(name: str, path: Path) -> None:
    mine = layer_of(name)
    for target, node in imports_of(name, path):
        if target.startswith("bot") and target != name:
            assert layer_of(target) < mine, (
                f"{path}:{getattr(node, 'lineno', '?')}: {name} imports {target}, which is not "
                "below it")


def test_bot_has_no_import_cycle() -> None:
    graph = {name: {t for t, _ in imports_of(name, path) if t.startswith("bot") and t != name}
             for name, path in modules() if name.startswith("bot")}
    visiting: list[str] = []
    done: set[str] = set()

    def visit(node: str) -> None:
        assert node not in visiting, "import cycle: " + " → ".join(
            [*visiting[visiting.index(node):], node])
        if node in done:
            return
        visiting.append(node)
        for target in sorted(graph.get(node, ())):
            visit(target)
        visiting.pop()
        done.add(node)

    for node in sorted(graph):
        visit(node)


@pytest.mark.parametrize("name,path", list(modules()), ids=lambda value: str(value))
def test_no_import_is_hidden_inside_a_function(name: str, path: Path) -> None:
    assert function_local_imports(path) == [], f"{path}: function-local imports"
