"""The command line: ``python -m bot [COMMAND]`` (or ``tilehost [COMMAND]`` once installed).

``run`` (the default) connects to Discord with ``DISCORD_TOKEN``, or starts local mode without
one; ``local`` starts local mode in any case; ``check`` checks the settings and the database and
prints the invite link; ``sync`` sends the slash commands to Discord; ``migrate-db`` copies the
database (``bot.migrate``); ``backup`` saves a copy of it (``bot.backup``).

Exit codes: 0 done; 1 a check or copy found a problem; 2 a setting is malformed (one line per
setting on stderr); 3 the database cannot be opened, migrated or written; 4 Discord refused the
token; 5 Discord cannot be reached.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from importlib import metadata
from pathlib import Path

from bot.settings import (
    LOCAL_HOST,
    ConfigError,
    Settings,
    configure_logging,
    is_postgres,
    load_settings,
    mask,
    token_application_id,
    token_set,
)

log = logging.getLogger("bot")

EXIT_PROBLEM = 1
EXIT_CONFIG = 2
EXIT_DATABASE = 3
DATABASE_CHECK_SECONDS = 30.0
ALIVE_SECONDS = 120.0
"""A health file older than this (four missed heartbeats) means the bot is not alive."""


def version() -> str:
    """The installed Tilehost version, or "unknown" in a source tree that is not installed."""
    try:
        return metadata.version("tilehost")
    except metadata.PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m bot`` parser, each command with its own ``--help``."""
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Tilehost: a self-hosted Discord bot for five tile-placement games. Settings come "
        "from the environment and a .env file in the working folder (see docs/hosting.md).",
        epilog="Without a command: run. 'python -m bot COMMAND --help' tells more about each command.",
    )
    parser.add_argument("--version", action="version", version=f"Tilehost {version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser(
        "run",
        help="run the bot: on Discord with DISCORD_TOKEN, else local mode (the default)",
        description="Run the bot until Ctrl+C or SIGTERM: connected to Discord when DISCORD_TOKEN is "
        "set, otherwise in local mode (a simulated Discord in your browser).",
    )
    local = commands.add_parser(
        "local",
        help="local mode: the bot on a simulated Discord in your browser, even with DISCORD_TOKEN set",
        description="Local mode: the real bot on a simulated Discord, shown in a browser page. Its games "
        "are kept in TILEHOST_LOCAL_DB (data/local.db), never in TILEHOST_DB.",
    )
    local.add_argument(
        "--port", type=int, help="the page's port (TILEHOST_LOCAL_PORT; default: any free port)"
    )
    local.add_argument(
        "--host", help="the address to listen on (TILEHOST_LOCAL_HOST; 0.0.0.0 in a container)"
    )
    local.add_argument("--no-browser", action="store_true", help="print the address, open no browser")
    check = commands.add_parser(
        "check",
        help="check the settings and the database, and print the invite link",
        description="Check every setting and the database (reachable, writable, its migrations) without "
        "changing anything, and print the link that invites the bot with the permissions it uses.",
    )
    check.add_argument(
        "--alive",
        action="store_true",
        help="only tell whether the running bot is alive (its TILEHOST_HEALTH_FILE is fresh): the "
        "container's health check",
    )
    check.add_argument("--token-set", action="store_true", help=argparse.SUPPRESS)
    commands.add_parser(
        "sync",
        help="send the slash commands to Discord now",
        description="Log in with DISCORD_TOKEN, send the slash commands to Discord (globally, or to "
        "DEV_GUILD_ID), and exit. The bot itself syncs at start only when its commands changed.",
    )
    from bot import backup, migrate

    migrate.add_arguments(
        commands.add_parser(
            "migrate-db",
            help="copy the database to another one (SQLite to PostgreSQL), checked table by table",
            description=migrate.DESCRIPTION,
        )
    )
    backup.add_arguments(
        commands.add_parser(
            "backup",
            help="save a copy of the database (SQLite's online backup, or pg_dump)",
            description=backup.DESCRIPTION,
        )
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit code."""
    options = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {
        "run": run,
        "local": run_local,
        "check": check,
        "sync": sync,
        "migrate-db": migrate_db,
        "backup": backup_db,
    }
    return handlers[options.command or "run"](options)


def read_settings(*, require_token: bool = False, prefix: str = "Tilehost cannot start: ") -> Settings | None:
    """The settings, or None after saying in one line per setting what is wrong."""
    try:
        return load_settings(require_token=require_token)
    except ConfigError as error:
        for line in str(error).splitlines():
            print(f"{prefix}{line}", file=sys.stderr)
        return None


# -- run -------------------------------------------------------------------------------------


def run(options: argparse.Namespace) -> int:
    """Connect to Discord, or start local mode without a token."""
    settings = read_settings()
    if settings is None:
        return EXIT_CONFIG
    configure_logging(settings)
    if not settings.token:
        log.info("DISCORD_TOKEN is not set: starting local mode (a simulated Discord in the browser)")
        return _local(settings)
    problem = database_problem(settings.db_path, "TILEHOST_DB")
    if problem is not None:
        print(problem, file=sys.stderr)
        return EXIT_DATABASE
    _warn_ephemeral(settings)
    log.info("DISCORD_TOKEN is set: connecting to Discord")
    from bot.client import connect

    return connect(settings)


def run_local(options: argparse.Namespace) -> int:
    """Local mode, with the command line's page options over the settings."""
    settings = read_settings()
    if settings is None:
        return EXIT_CONFIG
    configure_logging(settings)
    host = options.host or settings.local_host
    port = options.port if options.port is not None else settings.local_port
    if not 0 <= port <= 65_535:
        print(
            f"Tilehost cannot start: --port {port} is not allowed: a port number from 1 to 65535.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    if host != LOCAL_HOST and not port:
        print(
            f"Tilehost cannot start: --host {host} needs --port too (the page answers only at the port it "
            "listens on, so the same port is published outside).",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    settings = replace(
        settings,
        local_host=host,
        local_port=port,
        open_browser=settings.open_browser and not options.no_browser,
    )
    log.info("starting local mode (a simulated Discord in the browser)")
    return _local(settings)


def _local(settings: Settings) -> int:
    problem = database_problem(settings.local_db, "TILEHOST_LOCAL_DB")
    if problem is not None:
        print(problem, file=sys.stderr)
        return EXIT_DATABASE
    from bot import local

    return local.run(settings)


def _warn_ephemeral(settings: Settings) -> None:
    """On a platform whose disk is wiped at every restart (Heroku's dynos), a SQLite file is lost."""
    if os.environ.get("DYNO") and not is_postgres(settings.db_path):
        log.warning(
            "this looks like a Heroku dyno, whose disk is wiped at every restart: the SQLite database %s "
            "will be lost. Set TILEHOST_DB to a PostgreSQL URL (docs/hosting.md).",
            settings.db_path,
        )


def database_problem(database: str, setting: str) -> str | None:
    """Why the database cannot be used (it cannot be opened, migrated or written), or None.
    Checked before connecting, so that a read-only database stops the process at once with a
    non-zero exit code (a supervisor then restarts it or alerts) rather than at the first move."""
    from bot.storage import Storage

    async def check() -> None:
        storage = await Storage.open(database)
        try:
            await storage.check_writable()
        finally:
            await storage.close()

    try:
        asyncio.run(asyncio.wait_for(check(), DATABASE_CHECK_SECONDS))
    except Exception as error:  # any failure: say it in one line, whatever the engine raised
        return f"Tilehost cannot start: {describe_failure(database, setting, error)}"
    return None


def describe_failure(database: str, setting: str, error: BaseException) -> str:
    """One line: which database could not be used, why (passwords masked), and what to check."""
    reason = mask(" ".join(str(error).split())[:300]) or type(error).__name__
    place = (
        "a reachable PostgreSQL server (and its user and password)"
        if is_postgres(database)
        else ("a writable file (and folder)")
    )
    return (
        f"the database {mask(database)} cannot be opened and written ({reason}). Check that {setting} "
        f"names {place}, and that the disk is not full."
    )


# -- check -----------------------------------------------------------------------------------


def check(options: argparse.Namespace) -> int:
    """Check the settings and the database, print the invite link; or only ``--alive``."""
    if options.token_set:
        return 0 if token_set() else EXIT_PROBLEM
    settings = read_settings(prefix="settings: ")
    if settings is None:
        return EXIT_CONFIG
    if options.alive:
        return alive(settings)
    print(f"settings: every setting is valid (Tilehost {version()})")
    database, setting = (
        (settings.db_path, "TILEHOST_DB") if settings.token else (settings.local_db, "TILEHOST_LOCAL_DB")
    )
    if settings.token:
        print("mode: Discord (DISCORD_TOKEN is set)")
    else:
        print(f"mode: local mode (DISCORD_TOKEN is not set), its own database {setting}")
    from bot import dbcheck

    report = asyncio.run(dbcheck.inspect(database))
    if report.problem is not None:
        print(f"database: {describe_failure(database, setting, report.problem)}", file=sys.stderr)
        return EXIT_DATABASE
    print(f"database: {report.summary()}")
    if settings.token:
        print(f"commands: {sync_words(settings)}")
        application_id = token_application_id(settings.token)
        from bot.ui.invite import invite_url

        assert application_id is not None  # the settings checked the token's shape
        print(f"invite: {invite_url(application_id)}")
    return 0


def sync_words(settings: Settings) -> str:
    """What this process does about the slash commands when it starts."""
    if not settings.runs_shard_zero:
        return "synced by the process that runs shard 0, not this one"
    where = f"to server {settings.dev_guild_id}" if settings.dev_guild_id else "globally"
    return f"synced {where} at start when they changed (python -m bot sync forces it)"


def alive(settings: Settings) -> int:
    """0 when the running bot touched its health file recently, else 1 (with why)."""
    if not settings.health_file:
        print("not alive: TILEHOST_HEALTH_FILE is not set, so the bot keeps no heartbeat", file=sys.stderr)
        return EXIT_PROBLEM
    path = Path(settings.health_file)
    try:
        age = time.time() - path.stat().st_mtime
    except OSError:
        print(f"not alive: {path} does not exist (the bot is starting, or stopped)", file=sys.stderr)
        return EXIT_PROBLEM
    if age > ALIVE_SECONDS:
        print(f"not alive: the last heartbeat was {age:.0f} s ago (disconnected, or stuck)", file=sys.stderr)
        return EXIT_PROBLEM
    print(f"alive: last heartbeat {age:.0f} s ago")
    return 0


# -- sync ------------------------------------------------------------------------------------


def sync(options: argparse.Namespace) -> int:
    """Log in and send the slash commands to Discord now."""
    settings = read_settings(require_token=True)
    if settings is None:
        return EXIT_CONFIG
    configure_logging(settings)
    from bot.client import sync_commands_now

    return sync_commands_now(settings)


# -- the database ----------------------------------------------------------------------------


def migrate_db(options: argparse.Namespace) -> int:
    from bot import migrate

    return migrate.run(options)


def backup_db(options: argparse.Namespace) -> int:
    from bot import backup

    settings = read_settings()
    if settings is None:
        return EXIT_CONFIG
    return backup.run(options, settings)
