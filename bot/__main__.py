"""Entry point: ``python -m bot`` runs Tilehost with the settings from the environment."""

from __future__ import annotations

import logging
import sys

from bot.settings import ConfigError, load_settings


def main() -> int:
    """Run the bot until it is stopped; exit code 2 on a configuration error."""
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"Tilehost cannot start: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)-8s %(name)s: %(message)s")
    from bot.client import create_bot

    bot = create_bot(settings)
    bot.run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
