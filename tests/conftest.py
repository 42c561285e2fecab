"""Fixtures for every test package: a throwaway PostgreSQL server, when the machine has one,
the garbage collector given back after a test that started serving, games dealt the same on
every run, and the pure layers' tests run without coverage's tracer."""

from __future__ import annotations

import gc
import random
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres_server import postgres_bin, postgres_server


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[str]:
    """The URL of a running throwaway PostgreSQL server's admin database."""
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed here (Debian: apt-get install postgresql), "
                    "so the PostgreSQL backend is not tested")
    with postgres_server() as url:
        yield url


@pytest.fixture(autouse=True)
def thaw() -> Iterator[None]:
    """`python -m bot`'s `serve` freezes the heap of its process (`bot.__main__.settle`): a
    test that runs it gives the test process its whole garbage collection back."""
    yield
    gc.unfreeze()


@pytest.fixture(autouse=True)
def seeded_deals(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot draws each game's seats and chance from `random.SystemRandom`: seeded here
    from the test's name, every test deals the same games on every run, so that a test that
    only passes on most deals fails at once rather than one run in a hundred. A test that
    needs a particular deal sets its own seed."""
    dealer = random.Random(zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr(random, "SystemRandom", lambda: dealer)


TESTS = Path(__file__).parent
UNMEASURED = ("engines", "ai", "renderers")
"""Test packages of layers coverage does not measure (`make test` measures `bot/` only)."""


@pytest.fixture(autouse=True)
def untraced(request: pytest.FixtureRequest) -> Iterator[None]:
    """Run the pure layers' tests without coverage's line tracer: it measures nothing there
    and slows their searches and random games two to four times (CI's time limit)."""
    tracer = sys.gettrace()
    if tracer is None or request.path.relative_to(TESTS).parts[0] not in UNMEASURED:
        yield
        return
    sys.settrace(None)
    try:
        yield
    finally:
        sys.settrace(tracer)
