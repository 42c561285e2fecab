"""Prometheus metrics: what an operator graphs and alerts on.

With `METRICS_PORT` set, each bot process serves them at `http://METRICS_ADDR:PORT/metrics`
(Prometheus's text format, with the process's CPU and memory), for Prometheus to scrape:
moves and games by game, how long boards take to draw and the AI to think, what Discord
refused, and the errors nobody expected. The counters count from the process's start, as
Prometheus expects (its `rate()` takes restarts in its stride).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final

from prometheus_client import Counter, Gauge, Histogram, start_http_server

log = logging.getLogger(__name__)

MOVES: Final = Counter(
    "ludotheque_moves", "Decisions stored (a person's or the AI's), by game.", ["game", "by"])
GAMES_STARTED: Final = Counter(
    "ludotheque_games_started", "Games started, by game.", ["game"])
GAMES_FINISHED: Final = Counter(
    "ludotheque_games_finished", "Games that ended with a result, by game and how they ended.",
    ["game", "reason"])
BOARD_SECONDS: Final = Histogram(
    "ludotheque_board_seconds", "Time to draw a board picture, waiting for a worker included.",
    ["game"], buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0))
AI_SECONDS: Final = Histogram(
    "ludotheque_ai_think_seconds", "Time the AI took to choose a move, by game and level.",
    ["game", "level"], buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0))
DISCORD_REFUSALS: Final = Counter(
    "ludotheque_discord_refusals", "Posts, edits, threads and DMs Discord refused, by why.",
    ["problem"])
UNEXPECTED_ERRORS: Final = Counter(
    "ludotheque_unexpected_errors",
    "Commands and clicks that failed unexpectedly (the member got an apology).")
SESSIONS: Final = Gauge(
    "ludotheque_sessions_in_memory", "Games held in memory (the others are loaded on demand).")
GATEWAY_LATENCY: Final = Gauge(
    "ludotheque_gateway_latency_seconds", "The Discord gateway's heartbeat latency.")


@contextmanager
def timed(histogram: Histogram, *labels: str) -> Iterator[None]:
    """Observe how long the block took in `histogram` (with `labels`), if it succeeded."""
    began = time.perf_counter()
    yield
    histogram.labels(*labels).observe(time.perf_counter() - began)


def watch(sessions: Callable[[], int], latency: Callable[[], float]) -> None:
    """Read the gauges from the running bot when they are scraped."""
    SESSIONS.set_function(lambda: float(sessions()))
    GATEWAY_LATENCY.set_function(latency)


def serve(port: int, addr: str) -> None:
    """Serve the metrics over HTTP in a background thread."""
    start_http_server(port, addr)
    log.info("metrics served at http://%s:%s/metrics", addr, port)
