"""The crash drill: SIGKILL a process storing moves, many times; nothing is lost or half-stored."""

from __future__ import annotations

from pathlib import Path

from tests.storage.crash_worker import run_drill

KILLS = 20


async def test_killing_the_writer_at_random_never_leaves_a_log_that_disagrees_with_its_state(
    tmp_path: Path,
) -> None:
    report = await run_drill(tmp_path / "drill.db", kills=KILLS, seed=2026)
    print(f"kills: {report.kills}, games: {report.games}, moves stored: {report.moves}, "
          f"inconsistencies: {len(report.inconsistencies)}")
    assert report.inconsistencies == []
    assert report.kills == KILLS
    assert report.moves > KILLS  # the worker got to play between kills
