"""Fixtures for every test package: a throwaway PostgreSQL server, when the machine has one,
and the garbage collector given back after a test that started serving."""

from __future__ import annotations

import gc
from collections.abc import Iterator

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
