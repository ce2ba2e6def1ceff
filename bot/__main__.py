"""Entry point: ``python -m bot`` runs Tilehost with the settings from the environment;
``python -m bot migrate-db --from SOURCE --to TARGET`` copies its database (see
:mod:`bot.migrate`)."""

from __future__ import annotations

import logging
import sys

from bot.settings import ConfigError, load_settings


def main() -> int:
    """Run the bot until it is stopped; exit code 2 on a configuration error."""
    if sys.argv[1:2] == ["migrate-db"]:
        from bot.migrate import main as migrate_db

        return migrate_db(sys.argv[2:])
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
