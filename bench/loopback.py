"""The bot's own services against a stand-in for Discord on loopback, and the load run that
`bench/load.py` starts (see there); `bench_processes.py` and `bench_startup.py` use its parts.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord

from bench.loop_watch import ticker
from bot.__main__ import settle
from bot.errors import Refusal
from bot.games import GAME_UIS
from bot.games.common import play_now
from bot.painter import Painter, ProcessPainter, ThreadPainter
from bot.publisher import Post
from bot.ratings import rate_game
from bot.session_manager import SessionManager
from bot.sessions import GameSession
from engines import GAMES, IllegalMove
from storage import Database, Seat

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
LAG_TICK = 0.01
"""The event loop's lateness is watched on 10 ms sleeps: finer ticks would cost CPU the
bot needs at the highest rates."""

DESCRIPTION = "Moves per second the bot sustains, and how long a board takes (bench/load.py)."


class LoopbackDiscord:
    """A publisher that does what discord.py does with a message, then waits one round trip.

    `calls` counts the bot-token calls (Discord's global limit of 50 requests/s applies to
    them); `webhook_calls` the answers made through an interaction (`LoopbackClick`), which
    that limit does not count.
    """

    def __init__(self, rtt: float) -> None:
        self.rtt = rtt
        self.next_id = 10**17
        self.calls = 0
        self.webhook_calls = 0

    async def send(self, content: str | None = None, embed: discord.Embed | None = None,
                   view: discord.ui.View | None = None, files: Sequence[discord.File] = (),
                   *, webhook: bool = False) -> int:
        """Serialise a message as discord.py does, wait a round trip; the message's id."""
        if webhook:
            self.webhook_calls += 1
        else:
            self.calls += 1
        payload: dict[str, Any] = {"content": content}
        if embed is not None:
            payload["embeds"] = [embed.to_dict()]
        if view is not None:
            payload["components"] = view.to_components()
        for file in files:
            file.fp.read()
            file.reset()
        discord.utils._to_json(payload)
        await asyncio.sleep(self.rtt)
        self.next_id += 1
        return self.next_id

    async def _send(self, post: Post) -> int:
        return await self.send(post.content, post.embed, post.view, post.files)

    async def acknowledge(self) -> None:
        """Answer an interaction at once (a deferral: Discord shows "thinking" until the bot
        follows up), one round trip; the limit on bot-token calls does not count it."""
        self.webhook_calls += 1
        discord.utils._to_json({"type": 6})
        await asyncio.sleep(self.rtt)

    async def post(self, channel_id: int, post: Post) -> int:
        return await self._send(post)

    async def edit(self, channel_id: int, message_id: int, post: Post) -> None:
        await self._send(post)

    async def remove_components(self, channel_id: int, message_id: int) -> None:
        await self._send(Post())

    async def direct_message(self, user_id: int, text: str) -> None:
        await self._send(Post(content=text))

    async def typing(self, channel_id: int) -> None:
        """Nothing to draw."""

    async def close_thread(self, channel_id: int) -> None:
        await self._send(Post())

    async def open_thread(self, channel_id: int, name: str) -> int:
        return await self._send(Post())


def _given(value: Any) -> Any:
    """discord.py's MISSING (an argument not given) as None."""
    return None if value is discord.utils.MISSING else value


class LoopbackClick:
    """A player's click on a game's current board, as discord.py hands it to the bot's
    handler (`bot.games.common.play_now`): the handler acknowledges it (`acked_at` says
    when), then shows the move through it (the new board as a followup, or the clicked
    board edited while the same player goes on; `shown_at` says when the first picture is
    in), as `bot.publisher.InteractionPublisher` does."""

    def __init__(self, session: GameSession, user_id: int) -> None:
        discord_ = session.publisher
        assert isinstance(discord_, LoopbackDiscord)
        self._discord = discord_
        record = session.record
        self.channel_id = record.channel_id
        self.user = SimpleNamespace(id=user_id)
        self.message = (SimpleNamespace(id=record.board_message_id)
                        if record.board_message_id is not None else None)
        self.acked_at: float | None = None
        self.shown_at: float | None = None
        self.response = SimpleNamespace(is_done=lambda: self.acked_at is not None,
                                        defer=self._defer)
        self.followup = SimpleNamespace(send=self._followup)

    async def _defer(self, **_: Any) -> None:
        self.acked_at = time.perf_counter()
        await self._discord.acknowledge()

    def is_expired(self) -> bool:
        """A click is answered within seconds: never."""
        return False

    async def _followup(self, *, content: Any = None, files: Sequence[discord.File] = (),
                        embed: Any = None, view: Any = None, **_: Any) -> SimpleNamespace:
        message_id = await self._discord.send(_given(content), _given(embed), _given(view),
                                              files, webhook=True)
        self._shown(files)
        return SimpleNamespace(id=message_id)

    async def edit_original_response(self, *, content: Any = None, embed: Any = None,
                                     view: Any = None, attachments: Any = (),
                                     **_: Any) -> None:
        """Edit the clicked message through the interaction's webhook."""
        files = _given(attachments) or ()
        await self._discord.send(_given(content), _given(embed), _given(view), files,
                                 webhook=True)
        self._shown(files)

    def _shown(self, files: Sequence[discord.File]) -> None:
        """Note when the first picture sent through this click is in."""
        if files and self.shown_at is None:
            self.shown_at = time.perf_counter()


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User and system CPU seconds of each of these processes so far."""
    spent = {}
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        spent[pid] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return spent


def cpu_since(before: dict[int, float], pids: list[int]) -> float:
    """CPU seconds these processes spent since `before` (a process started since counts
    whole; the painter stops none while it is busy)."""
    return sum(now - before.get(pid, 0.0) for pid, now in cpu_seconds(pids).items())


def rss_mib(pid: int) -> float:
    """Resident memory of a process, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def memory(painter: Painter) -> str:
    """The resident memory of the bot's process and of each render worker."""
    workers = " + ".join(f"{rss_mib(pid):.0f}" for pid in worker_pids(painter))
    return (f"RSS: bot {rss_mib(os.getpid()):.0f} MiB, render workers {workers or '-'} MiB")


def worker_pids(painter: Painter) -> list[int]:
    """The render workers' process ids (none for a thread painter)."""
    return painter.pids() if isinstance(painter, ProcessPainter) else []


async def new_game(db: Database, sessions: SessionManager, number: int,
                   rng: random.Random) -> GameSession:
    """Store and start a game between two (Kraut & Rüben: three) members."""
    game = list(GAMES)[number % len(GAMES)]
    players = 3 if game == "kraut_ruben" else 2
    seats = [Seat(seat, 1000 * number + seat + 1, f"Player {seat + 1}")
             for seat in range(players)]
    record = await db.create_game(
        game=game, guild_id=1, channel_id=10**6 + number, parent_id=1, seats=seats,
        options={}, rng_seed=rng.randrange(2**31), now=datetime.now(UTC),
        state=GAMES[game].new_state(players).dump())
    return await sessions.start(record)


def can_move(session: GameSession) -> bool:
    """True when a player of the game may move now: it is not over, a person is to move, and
    no move of theirs is still being played."""
    seat = session.state.current_player
    return not session.is_over and seat is not None and seat >= 0 and not session.lock.locked()


def movable(live: list[GameSession], rng: random.Random, in_flight: set[int]) -> int:
    """A random live game that can take a move now (see `can_move`) and has none sent to it
    yet (a sent move's task may not have taken the game's lock yet), by its index."""
    while True:
        index = rng.randrange(len(live))
        if index not in in_flight and can_move(live[index]):
            return index


async def one_move(session: GameSession, rng: random.Random) -> LoopbackClick | None:
    """A random legal move by the player to move, clicked on the board and handled as the
    bot handles a click; None when there was none to make."""
    if not can_move(session):
        return None
    seat = session.state.current_player
    assert seat is not None
    move = rng.choice(session.state.legal_moves())
    click = LoopbackClick(session, session.record.user_at(seat))
    try:
        # Bound to the board's ply; acknowledged, then played through the interaction.
        await play_now(click, session, str(move), session.ply)  # type: ignore[arg-type]
    except (Refusal, IllegalMove):
        return None
    return click


DISCORD_DEADLINE_MS = 3000
"""Discord shows "The application did not respond" to a click not answered within 3 s."""


async def run_rate(sessions: SessionManager, live: list[GameSession], db: Database, rate: float,
                   seconds: float, rng: random.Random, painter: Painter) -> None:
    """Send moves at `rate` for `seconds`; print the acknowledgement and board latencies, the
    clicks answered too late for Discord, the event loop's worst lateness and CPU per move.

    A click arrives at its time whatever the bot is doing (open loop), so both latencies
    count from then: a busy event loop that notices a click late is slow for its player.
    """
    latencies: list[float] = []
    acks: list[float] = []
    tasks: set[asyncio.Task[None]] = set()
    counter = [len(live)]
    in_flight: set[int] = set()
    worst_lag = [0.0]
    stop = asyncio.Event()
    watcher = asyncio.create_task(ticker(worst_lag, stop, LAG_TICK))

    async def move(index: int, arrived: float) -> None:
        session = live[index]
        try:
            click = await one_move(session, rng)
            if click is not None:
                shown = click.shown_at or time.perf_counter()  # (a board failed: its end)
                latencies.append((shown - arrived) * 1000)
                assert click.acked_at is not None
                acks.append((click.acked_at - arrived) * 1000)
            if session.is_over:  # keep N games live
                counter[0] += 1
                live[index] = await new_game(db, sessions, counter[0], rng)
        finally:
            in_flight.discard(index)

    cpu_main, cpu_workers = cpu_seconds([os.getpid()]), cpu_seconds(worker_pids(painter))
    began = time.perf_counter()
    sent = 0
    while (elapsed := time.perf_counter() - began) < seconds:
        due = sent / rate
        if due > elapsed:
            await asyncio.sleep(due - elapsed)
        # A game that can take a move: every move sent is one the bot must play.
        index = movable(live, rng, in_flight)
        in_flight.add(index)
        task = asyncio.create_task(move(index, began + due))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        sent += 1
    await asyncio.gather(*tasks)
    drained = time.perf_counter() - began - seconds
    stop.set()
    await watcher
    done = len(latencies)
    main = cpu_since(cpu_main, [os.getpid()]) / max(done, 1) * 1000
    workers = cpu_since(cpu_workers, worker_pids(painter)) / max(done, 1) * 1000
    cuts = percentiles(latencies)
    ack_cuts = percentiles(acks)
    late = sum(1 for ack in acks if ack > DISCORD_DEADLINE_MS)
    print(f"{rate:6.0f}/s  {done / seconds:7.1f}/s done  board p50 {cuts[49]:7.1f}  "
          f"p95 {cuts[94]:7.1f}  p99 {cuts[98]:7.1f} ms   CPU/move bot {main:5.1f} ms, "
          f"workers {workers:5.1f} ms", flush=True)
    print(f"          clicks acknowledged p50 {ack_cuts[49]:.1f}  p99 {ack_cuts[98]:.1f}  "
          f"worst {max(acks, default=0):.1f} ms ({late} after Discord's 3 s); event loop "
          f"at worst {worst_lag[0]:.1f} ms late", flush=True)
    # All moves done and the last soon after the sending stopped: the bot kept up.
    print(f"          {done} of {sent} moves done, the last {drained:.1f} s after the sending "
          "stopped", flush=True)


def percentiles(values: list[float]) -> list[float]:
    """The 1st to 99th percentiles of `values` (zeros when there are too few)."""
    return statistics.quantiles(values, n=100) if len(values) > 1 else [0.0] * 99


async def main_async(args: argparse.Namespace) -> None:
    settle()  # as `python -m bot` does before it connects
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(f"sqlite:///{Path(folder) / 'load.db'}", rater=rate_game)
        painter: Painter = (ProcessPainter(args.workers) if args.painter == "process"
                            else ThreadPainter())
        publisher = LoopbackDiscord(args.rtt / 1000)
        sessions = SessionManager(db, GAME_UIS, publisher, painter=painter)
        live = [await new_game(db, sessions, number, rng) for number in range(args.games)]
        await asyncio.sleep(2)  # the first worker warms up
        most = args.workers if args.painter == "process" else 0
        print(f"{args.games} live games, painter: {args.painter} (up to {most or 'no'} worker "
              f"processes, started as the load needs them), Discord round trip "
              f"{args.rtt:.0f} ms")
        for rate in (float(r) for r in args.rates.split(",")):
            calls, webhook_calls = publisher.calls, publisher.webhook_calls
            await run_rate(sessions, live, db, rate, args.seconds, rng, painter)
            moves = rate * args.seconds
            print(f"          REST calls per move: {(publisher.calls - calls) / moves:.2f} "
                  "with the bot token (rate-limited), "
                  f"{(publisher.webhook_calls - webhook_calls) / moves:.2f} through the "
                  f"click's interaction; {memory(painter)}")
        if args.rest:  # a quiet spell after the bursts: one move a second
            await run_rate(sessions, live, db, 1.0, args.rest, rng, painter)
            print(f"          after {args.rest:.0f} s at 1 move/s: {memory(painter)}")
        painter.close()
        await db.close()


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rates", default="40,80,120,160")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--painter", choices=["process", "thread"], default="process")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--rtt", type=float, default=30, help="Discord's round trip, ms")
    parser.add_argument("--rest", type=float, default=0,
                        help="seconds at 1 move/s after the rates, then memory again")
    asyncio.run(main_async(parser.parse_args()))
