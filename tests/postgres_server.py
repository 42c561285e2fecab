"""A throwaway PostgreSQL server for the tests, from the machine's own binaries.

`initdb` and `pg_ctl` are looked up on PATH, then under /usr/lib/postgresql/*/bin (Debian). The
cluster lives in a temporary directory, listens on a free local port and stops at the end of
the test session; each test gets its own database. As root, the server runs as the
`postgres` user (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg


def postgres_bin() -> Path | None:
    """The directory of `initdb` and `pg_ctl`, or None when PostgreSQL is not installed."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), reverse=True)
    return versions[0].parent if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def postgres_server() -> Iterator[str]:
    """Start a server; yield the URL of its `postgres` database; stop it."""
    binaries = postgres_bin()
    if binaries is None:
        raise RuntimeError("PostgreSQL is not installed")
    folder = Path(tempfile.mkdtemp(prefix="ludotheque-pg-"))
    data = folder / "data"
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
    port = _free_port()
    subprocess.run([*as_user, str(binaries / "initdb"), "-D", str(data), "-U", "ludotheque",
                    "--auth=trust", "--locale=C", "--encoding=UTF8"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    subprocess.run([*as_user, str(binaries / "pg_ctl"), "-D", str(data), "-w", "-l",
                    str(folder / "log"), "-o", f"-p {port} -k {folder} -c fsync=off "
                    "-c listen_addresses=127.0.0.1", "start"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        yield f"postgresql://ludotheque@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "stop"], check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)


async def fresh_database(admin_url: str, name: str) -> str:
    """Create an empty database `name` on the server; its URL."""
    connection = await asyncpg.connect(admin_url)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return admin_url.rsplit("/", 1)[0] + f"/{name}"
