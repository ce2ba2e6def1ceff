"""``python -m bot check``'s look at the database: reachable, writable, how far migrated, how
many games; without changing anything (no file, table or row is created)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.settings import is_postgres, mask
from bot.storage.engines import migrations

CONNECT_SECONDS = 15.0


class NotWritable(Exception):
    """The database can be read but not written."""


@dataclass
class DatabaseReport:
    """What :func:`inspect` found; ``problem`` is None when the bot can use the database."""

    database: str
    engine: str
    exists: bool = True
    applied: int = 0
    available: int = 0
    games: int | None = None
    problem: BaseException | None = None

    def summary(self) -> str:
        """One line for ``check``."""
        name = f"{mask(self.database)} ({self.engine})"
        if not self.exists:
            return f"{name} does not exist yet: the bot creates it when it starts (its folder is writable)"
        pending = self.available - self.applied
        migrated = (
            f"all {self.available} migrations applied"
            if pending <= 0
            else f"{self.applied} of {self.available} migrations applied ({pending} more when the bot starts)"
        )
        games = "" if self.games is None else f", {self.games} game{'' if self.games == 1 else 's'}"
        return f"{name}: reachable and writable, {migrated}{games}"


async def inspect(database: str) -> DatabaseReport:
    """Look at ``database`` (a SQLite path or a ``postgresql://`` URL) without changing it."""
    if is_postgres(database):
        report = DatabaseReport(database, "PostgreSQL", available=len(migrations("postgresql")))
        try:
            await asyncio.wait_for(_postgres(database, report), CONNECT_SECONDS)
        except Exception as error:  # whatever the driver raised: check says it in one line
            report.problem = error
        return report
    report = DatabaseReport(database, "SQLite", available=len(migrations("sqlite")))
    try:
        await asyncio.to_thread(_sqlite, Path(database), report)
    except Exception as error:
        report.problem = error
    return report


def _sqlite(path: Path, report: DatabaseReport) -> None:
    if not path.exists():
        report.exists = False
        folder = path.parent
        while not folder.exists():
            folder = folder.parent
        if not os.access(folder, os.W_OK | os.X_OK):
            raise NotWritable(f"the folder {folder} is not writable, so the database cannot be created there")
        return
    if path.is_dir():
        raise NotWritable(f"{path} is a folder, not a database file")
    connection = sqlite3.connect(f"file:{path}?mode=rw", uri=True, isolation_level=None, timeout=5)
    try:
        connection.execute("BEGIN IMMEDIATE")  # takes the write lock: fails on a read-only file or folder
        connection.execute("ROLLBACK")
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "schema_migrations" in tables:
            report.applied = connection.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0]
        if "games" in tables:
            report.games = connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        connection.close()


async def _postgres(url: str, report: DatabaseReport) -> None:
    connection = await asyncpg.connect(url, timeout=CONNECT_SECONDS)
    try:
        tables = {
            row["table_name"]
            for row in await connection.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            )
        }
        if "schema_migrations" in tables:
            report.applied = await connection.fetchval("SELECT COUNT(*) FROM schema_migrations")
        if "games" in tables:
            report.games = await connection.fetchval("SELECT COUNT(*) FROM games")
            writable = await connection.fetchval(
                "SELECT has_table_privilege('games', 'INSERT, UPDATE, DELETE')"
            )
        else:
            writable = await connection.fetchval("SELECT has_schema_privilege(current_schema(), 'CREATE')")
        if not writable:
            raise NotWritable("the database user may not write there (check its privileges)")
        if await connection.fetchval("SELECT current_setting('transaction_read_only') = 'on'"):
            raise NotWritable("the server takes no writes (a read-only replica?)")
    finally:
        with contextlib.suppress(Exception):
            await connection.close(timeout=5)
