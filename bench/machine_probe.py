"""On-demand probe of the machine's speed: how long pure Python takes to add up 3 million
numbers in a loop, best of five. Run from the repository root: `python bench/machine_probe.py`.

The machines the benchmarks run on differ, and some change speed within minutes; printed
beside a benchmark's figures, this says which machine (or phase) they were measured on.
The loop runs on a module's globals, as the probe quoted in `docs/measurements.md` since
2026-11-26 did, so its figures compare with those (in a function's locals it runs about
twice as fast).
"""

import time

LOOP = compile("total = 0\nfor number in range(3_000_000):\n    total += number\n",
               "<probe>", "exec")


def probe_ms() -> float:
    """Milliseconds for one pass of the loop."""
    started = time.perf_counter()
    exec(LOOP, {})  # a fixed loop of our own, on fresh globals
    return (time.perf_counter() - started) * 1000


if __name__ == "__main__":
    print(f"machine probe: {min(probe_ms() for _ in range(5)):.0f} ms "
          "(3,000,000 additions in pure Python, best of 5)")
