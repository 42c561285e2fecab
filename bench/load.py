"""On-demand benchmark: moves per second the bot sustains, and how long a board takes.

Run from the repository root:
`python bench/load.py [--games N] [--rates 40,80,...] [--seconds S] [--painter process|thread]
[--workers W] [--rest S]`.

It runs the bot's own services (sessions, storage on a SQLite file, the painter) with a
publisher standing in for Discord: each REST call serialises its message as discord.py would
(embed, components, the PNG) and waits `--rtt` milliseconds, as a call to Discord does. N live
games of every game are stored first; then, at each rate in turn, moves arrive at fixed
intervals (open loop: a slow bot does not slow the senders), each a random legal move of a
random game by the player to move, made as a click on its board and handled by the bot's
own click handler (it acknowledges the click, then answers through the click's interaction,
as it does on Discord). The script reports the board latency (click received to new board
in) p50/p95/p99, the acknowledgement latency p50/p99 and worst with the clicks acknowledged
after Discord's 3 s deadline, the event loop's worst lateness, the moves done per second,
the REST calls per move (with the bot token, which Discord rate-limits, and through the
interaction), the CPU per move of the bot's process and of its render workers, and their
memory. Both latencies count from when the click was due, so a busy bot that notices a
click late is charged for it. With `--rest`,
a quiet spell of one move a second follows, and the memory is reported again (an extra
render worker stops after two idle minutes). No assertions.
"""

import sys
from pathlib import Path

# Render workers are spawned processes, and a spawned process first imports the main module
# of the one that started it, unless it is a package's __main__ (the bot runs as `python -m
# bot`). So this script imports nothing heavy at its top: its workers then hold what the
# bot's workers hold, and the memory printed is the memory a running bot uses.
if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.loopback import main

    main()
