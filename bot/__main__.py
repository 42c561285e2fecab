"""`python -m bot`: read `.env`, check the settings and the database, then run the bot until
Ctrl-C or SIGTERM closes it.

Whatever stops a start (no token, a malformed or refused token, an unusable database) ends
the process at once with one readable line and a non-zero exit code, never a hang.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import re
import signal
import sys

import discord
from dotenv import load_dotenv

from bot import metrics
from bot.client import create_bot
from bot.config import TOKEN_HELP, Settings
from i18n import load_all
from storage import Database, StorageError

log = logging.getLogger(__name__)

TOKEN_SHAPE = re.compile(r"[\w-]{20,}\.[\w-]{4,}\.[\w-]{20,}")
"""A bot token: three dot-separated base64 parts (the id, a timestamp, a signature)."""

BAD_TOKEN = ("Ludothèque cannot start: Discord refused the token in DISCORD_TOKEN. Open the "
             "developer portal, Bot → Reset Token, and put the new token in .env.")
MALFORMED_TOKEN = ("Ludothèque cannot start: DISCORD_TOKEN does not look like a bot token (three "
                   "parts separated by dots). Copy it again from the developer portal, Bot → "
                   "Reset Token, and put it in .env.")


def fail(message: str) -> int:
    """Print why the bot cannot start, on one line; the exit code for it."""
    print(message, file=sys.stderr)
    return 1


async def check_database(url: str) -> None:
    """Open the database once (checks, migrations) and close it: raise if it is unusable."""
    database = await Database.open(url)
    await database.close()


def settle() -> None:
    """Make the process ready for steady serving: every catalogue compiled, and the start-up
    heap (the modules loaded, some 70,000 objects) moved out of the garbage collector's way.
    Each full collection walked them all, 15–45 ms with the event loop stopped
    (`bench/bench_records.py` saw such pauses); `gc.freeze` leaves them out for good."""
    load_all()
    gc.freeze()


async def serve(bot: discord.Client, token: str) -> None:
    """Run the bot until it is closed. SIGTERM (`docker stop`, systemd) closes it as Ctrl-C
    does: the moves in progress finish, then the database and the gateway close, instead of
    the process dying mid-move."""
    settle()
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []  # held: a task nobody references may be collected
    try:
        loop.add_signal_handler(signal.SIGTERM,
                                lambda: closing.append(loop.create_task(bot.close())))
    except NotImplementedError:  # Windows' event loops take no signal handler: Ctrl-C only
        log.info("SIGTERM cannot be handled here: stop the bot with Ctrl-C")
    async with bot:
        await bot.start(token)


def main() -> int:
    """Run the bot until it is stopped; exit non-zero at once when it cannot start."""
    load_dotenv()
    try:
        settings = Settings.from_env()
    except ValueError as error:
        return fail(f"Ludothèque cannot start: {error}.")
    if settings.token is None:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    if not TOKEN_SHAPE.fullmatch(settings.token):
        return fail(MALFORMED_TOKEN)
    try:
        asyncio.run(check_database(settings.database_url))
    except StorageError as error:
        return fail(f"Ludothèque cannot start: {error}")
    if settings.metrics_port is not None:
        try:
            metrics.serve(settings.metrics_port, settings.metrics_addr)
        except OSError as error:
            return fail(f"Ludothèque cannot serve its metrics on {settings.metrics_addr}:"
                        f"{settings.metrics_port}: {error.strerror}.")
    bot = create_bot(settings)
    # On the root logger: LOG_LEVEL applies to the bot's own lines (ready, games resumed,
    # failures) as much as to discord.py's.
    discord.utils.setup_logging(level=getattr(logging, settings.log_level, logging.INFO),
                                root=True)
    try:
        asyncio.run(serve(bot, settings.token))
    except KeyboardInterrupt:  # Ctrl-C: asyncio.run closed the bot on its way out
        return 0
    except discord.LoginFailure:
        return fail(BAD_TOKEN)
    except StorageError as error:  # the database broke between the check and the start
        return fail(f"Ludothèque cannot start: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
