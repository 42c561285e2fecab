"""On-demand benchmark: mean time and PNG size to render a mid-game Qawale board.

Run from the repository root: `python bench/bench_render.py`. No assertions.
"""

from __future__ import annotations

import sys
import timeit
from pathlib import Path

# Run as a script, so put the repository root (not bench/) on the import path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines import GAMES
from renderers import render

MIDGAME = "1,n,n,-/1,-,-,n/n,nn0,0,0/-,n,n10,- 1 4 5"
"""Bob to move, with stacks of three and the last move b3:SES to highlight."""
RUNS = 20


def main() -> None:
    """Time a plain render, a last-move render and a preview; print mean ms and size."""
    view = GAMES["qawale"].from_position(MIDGAME).view(None)
    names = ["Alice", "Bob"]
    cases = {
        "plain": lambda: render(view, names=names),
        "last move b3:SES": lambda: render(view, "b3:SES", names=names),
        "preview c1:NN": lambda: render(view, "c1:NN", preview=True, names=names),
    }
    cases["plain"]()  # load fonts and Pillow plugins outside the timing
    for label, case in cases.items():
        seconds = timeit.timeit(case, number=RUNS) / RUNS
        size = len(case())
        print(f"qawale {label:<18} {seconds * 1000:7.1f} ms  {size / 1024:6.1f} KiB")


if __name__ == "__main__":
    main()
