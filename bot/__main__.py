"""`python -m bot`: read `.env`, build the bot and run it."""

from __future__ import annotations

import logging
import sys

from dotenv import load_dotenv

from bot.client import create_bot
from bot.config import TOKEN_HELP, Settings


def main() -> int:
    """Run the bot until it is stopped; exit 2 with help when no token is configured."""
    load_dotenv()
    settings = Settings.from_env()
    if settings.token is None:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    bot = create_bot(settings)
    bot.run(settings.token, log_level=getattr(logging, settings.log_level, logging.INFO))
    return 0


if __name__ == "__main__":
    sys.exit(main())
