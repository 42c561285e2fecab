"""Fixtures for every test package: a throwaway PostgreSQL server, when the machine has one."""

from __future__ import annotations

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
