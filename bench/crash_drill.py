"""On-demand crash drill: SIGKILL a process storing moves, many times, and check every game.

Run from the repository root: `python bench/crash_drill.py [KILLS] [SEED]` (200 kills by
default). It uses the test suite's worker (tests/storage/crash_worker.py) on a database in a
temporary folder and ends with `kills: N, moves stored: M, inconsistencies: 0`; it exits with
status 1 when any game's stored log does not replay to its stored state.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.storage.crash_worker import run_drill

if __name__ == "__main__":
    kills = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        report = asyncio.run(run_drill(Path(folder) / "drill.db", kills, seed))
    for problem in report.inconsistencies:
        print(problem)
    print(f"{report.games} games in {time.monotonic() - started:.1f} s")
    print(f"kills: {report.kills}, moves stored: {report.moves}, "
          f"inconsistencies: {len(report.inconsistencies)}")
    sys.exit(1 if report.inconsistencies else 0)
