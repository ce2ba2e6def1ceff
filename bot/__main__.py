"""Entry point: ``python -m bot`` runs Tilehost with the settings from the environment;
``python -m bot migrate-db --from SOURCE --to TARGET`` copies its database (see
:mod:`bot.migrate`).

With a ``DISCORD_TOKEN`` it connects to Discord; without one it starts local mode (``bot.local``):
the real bot on a simulated Discord, shown in a browser page on this machine.
"""

from __future__ import annotations

import logging
import sys

from bot.settings import ConfigError, load_settings

log = logging.getLogger("bot")


def main() -> int:
    """Run the bot until it is stopped; exit code 2 on a configuration error."""
    if sys.argv[1:2] == ["migrate-db"]:
        from bot.migrate import main as migrate_db

        return migrate_db(sys.argv[2:])
    try:
        settings = load_settings(require_token=False)
    except ConfigError as error:
        print(f"Tilehost cannot start: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)-8s %(name)s: %(message)s")
    if not settings.token:
        log.info("DISCORD_TOKEN is not set: starting local mode (a simulated Discord in the browser)")
        from bot import local

        return local.run(settings)
    log.info("DISCORD_TOKEN is set: connecting to Discord")
    from bot.client import create_bot

    bot = create_bot(settings)
    bot.run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
