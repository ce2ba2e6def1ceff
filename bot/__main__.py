"""Entry point: ``python -m bot`` runs Tilehost with the settings from the environment;
``python -m bot migrate-db --from SOURCE --to TARGET`` copies its database (see
:mod:`bot.migrate`).

With a ``DISCORD_TOKEN`` it connects to Discord; without one it starts local mode (``bot.local``):
the real bot on a simulated Discord, shown in a browser page on this machine.
"""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.settings import ConfigError, Settings, load_settings

log = logging.getLogger("bot")


EXIT_CONFIG = 2
EXIT_DATABASE = 3
DATABASE_CHECK_SECONDS = 30.0


def database_problem(settings: Settings) -> str | None:
    """Why the database cannot be used (it cannot be opened, migrated or written), or None.
    Checked before connecting, so that a read-only database stops the process at once with a
    non-zero exit code (a supervisor then restarts it or alerts) rather than at the first move."""
    from bot.storage import Storage

    async def check() -> None:
        storage = await Storage.open(settings.db_path)
        try:
            await storage.check_writable()
        finally:
            await storage.close()

    try:
        asyncio.run(asyncio.wait_for(check(), DATABASE_CHECK_SECONDS))
    except Exception as error:  # any failure: say it in one line, whatever the engine raised
        reason = " ".join(str(error).split())[:300] or type(error).__name__
        return (
            f"Tilehost cannot start: the database {settings.db_path} cannot be opened and written "
            f"({reason}). Check that TILEHOST_DB names a writable file (and folder) or a reachable "
            "PostgreSQL server, and that the disk is not full."
        )
    return None


def main() -> int:
    """Run the bot until it is stopped; exit code 2 on a configuration error, 3 when the
    database cannot be written, 4 when Discord refuses the token, 5 when it cannot be reached."""
    if sys.argv[1:2] == ["migrate-db"]:
        from bot.migrate import main as migrate_db

        return migrate_db(sys.argv[2:])
    try:
        settings = load_settings(require_token=False)
    except ConfigError as error:
        print(f"Tilehost cannot start: {error}", file=sys.stderr)
        return EXIT_CONFIG
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)-8s %(name)s: %(message)s")
    problem = database_problem(settings)
    if problem is not None:
        print(problem, file=sys.stderr)
        return EXIT_DATABASE
    if not settings.token:
        log.info("DISCORD_TOKEN is not set: starting local mode (a simulated Discord in the browser)")
        from bot import local

        return local.run(settings)
    log.info("DISCORD_TOKEN is set: connecting to Discord")
    from bot.client import connect

    return connect(settings)


if __name__ == "__main__":
    sys.exit(main())
