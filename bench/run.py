"""Run every benchmark in bench/ (`make bench`)."""

from __future__ import annotations

import runpy
from pathlib import Path

if __name__ == "__main__":
    for script in sorted(Path(__file__).parent.glob("bench_*.py")):
        print(f"== {script.name}")
        runpy.run_path(str(script), run_name="__main__")
