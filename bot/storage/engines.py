"""The two database engines behind :class:`bot.storage.Storage`: SQLite and PostgreSQL.

SQLite (aiosqlite) is the default: one file, WAL mode, foreign keys on, a busy timeout, one
connection whose use a lock serialises, ``BEGIN IMMEDIATE`` transactions. PostgreSQL (asyncpg)
serves several bot processes: a pool of connections, READ COMMITTED transactions in which a
conditional ``UPDATE`` waits for a competing one and then sees its result.

Queries are written once with ``?`` placeholders (PostgreSQL's are numbered here) and read rows
by column name. Each engine applies its own dialect's migration files: ``bot/migrations/*.sql``
for SQLite and ``bot/migrations/postgresql/*.sql`` for PostgreSQL, one file per number in both.
"""

from __future__ import annotations

import asyncio
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

import aiosqlite
import asyncpg

from bot.settings import is_postgres
from bot.storage.rows import Row, UniqueViolation

MIGRATION_LOCK = 7_140_001
"""The PostgreSQL advisory lock key that keeps two processes from migrating at once."""

TABLE_KEYS = {
    "games": ("id",),
    "seats": ("game_id", "seat"),
    "moves": ("game_id", "ply"),
    "results": ("game_id", "seat"),
    "ratings": ("scope_id", "game", "user_id"),
    "user_settings": ("user_id",),
    "guild_settings": ("guild_id",),
    "seasons": ("guild_id", "number"),
    "season_ratings": ("guild_id", "season", "game", "user_id"),
    "admin_log": ("guild_id", "number"),
    "tournaments": ("id",),
    "tournament_entrants": ("tournament_id", "number"),
    "tournament_rounds": ("tournament_id", "number"),
    "tournament_tables": ("id",),
    "tournament_adjustments": ("id",),
    "reviews": ("game_id", "seat"),
    "daily_attempts": ("day", "user_id"),
}
"""Every table that holds data and its primary key, in an order where references come first."""
DATA_TABLES = tuple(TABLE_KEYS)
IDENTITY_TABLES = ("games", "tournaments", "tournament_tables", "tournament_adjustments")
"""The tables whose ids the database numbers (copied rows keep theirs; new ones follow)."""
MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_migrations (number INTEGER PRIMARY KEY, name TEXT NOT NULL)"
)
PRAGMAS = ("journal_mode = WAL", "foreign_keys = ON", "busy_timeout = 5000", "synchronous = NORMAL")
"""How every SQLite connection is set up."""


@dataclass(frozen=True)
class Migration:
    """One numbered migration file of one dialect."""

    number: int
    name: str
    sql: str


def migrations(dialect: str) -> list[Migration]:
    """The migration files of ``dialect`` (``sqlite`` or ``postgresql``), in order."""
    folder = resources.files("bot") / "migrations"
    if dialect == "postgresql":
        folder = folder / "postgresql"
    found = [
        Migration(int(entry.name[:4]), entry.name, entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if entry.name.endswith(".sql") and entry.name[:4].isdigit()
    ]
    return sorted(found, key=lambda migration: migration.number)


class Executor(ABC):
    """Runs statements on one connection (inside a transaction, or one read)."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed. A duplicate key raises
        :class:`UniqueViolation`."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each parameter row."""

    @abstractmethod
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query."""

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or None."""
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the first row of a query (None when there is no row)."""
        rows = await self.fetch(sql, params)
        return rows[0][0] if rows else None  # type: ignore[index]


class Database(ABC):
    """A connection (SQLite) or pool (PostgreSQL) to one database."""

    dialect: ClassVar[str]
    for_update: ClassVar[str]
    """What makes a SELECT lock its rows until the transaction ends ("" where writers are
    serialised anyway)."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Executor]:
        """``async with db.transaction() as tx``: one transaction, committed at the end of the
        block, rolled back if it raises."""

    @abstractmethod
    def reading(self) -> AbstractAsyncContextManager[Executor]:
        """``async with db.reading() as tx``: a connection for reads outside a transaction."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connection or pool."""

    @abstractmethod
    async def tables(self) -> set[str]:
        """The names of the tables of the database (of its current schema)."""

    @abstractmethod
    async def migrate(self) -> list[str]:
        """Apply this dialect's migrations not applied yet, each in its own transaction."""

    @abstractmethod
    async def columns(self, table: str) -> list[str]:
        """The column names of ``table``, in order."""

    async def reset_ids(self, tx: Executor) -> None:  # noqa: B027 (nothing to do on SQLite)
        """After rows were copied in with their ids: make new games' ids follow the largest."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of one query, outside a transaction."""
        async with self.reading() as tx:
            return await tx.fetch(sql, params)

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of one query, outside a transaction."""
        async with self.reading() as tx:
            return await tx.fetchrow(sql, params)

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first value of one query, outside a transaction."""
        async with self.reading() as tx:
            return await tx.fetchval(sql, params)

    async def holds_data(self) -> bool:
        """True when any data table exists and has a row (``migrate-db`` refuses such a target)."""
        present = await self.tables()
        for table in DATA_TABLES:
            if table in present and await self.fetchval(f"SELECT COUNT(*) FROM {table}"):
                return True
        return False


async def connect(database: str | Path, *, pool_size: int = 10) -> Database:
    """Open the database the setting names: a ``postgresql://`` URL, else a SQLite file."""
    if is_postgres(str(database)):
        return await PostgresDatabase.connect(str(database), pool_size=pool_size)
    return await SqliteDatabase.connect(database)


# -- SQLite ----------------------------------------------------------------------------------


@contextmanager
def _sqlite_errors() -> Iterator[None]:
    try:
        yield
    except sqlite3.IntegrityError as error:
        if "UNIQUE" in str(error):
            raise UniqueViolation(str(error)) from error
        raise


class _SqliteExecutor(Executor):
    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with _sqlite_errors():
            cursor = await self._db.execute(sql, params)
        await cursor.close()  # an open cursor would block COMMIT
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with _sqlite_errors():
            await (await self._db.executemany(sql, rows)).close()

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with _sqlite_errors():
            async with self._db.execute(sql, params) as cursor:
                return list(await cursor.fetchall())


class SqliteDatabase(Database):
    """One SQLite file through one aiosqlite connection; a lock serialises its use so that a
    transaction is never interleaved with another coroutine's statements."""

    dialect = "sqlite"
    for_update = ""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._lock = asyncio.Lock()
        self._executor = _SqliteExecutor(connection)

    @classmethod
    async def connect(cls, path: str | Path) -> SqliteDatabase:
        """Open (creating if needed) the file at ``path``: WAL, foreign keys, busy timeout."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        pending = aiosqlite.connect(str(path), isolation_level=None)
        try:
            connection = await pending
        except BaseException:
            # aiosqlite stops its thread without waiting: wait here, while the loop still runs
            await asyncio.to_thread(pending._thread.join, 5)
            raise
        connection.row_factory = sqlite3.Row
        database = cls(connection)
        try:
            for pragma in PRAGMAS:
                await database._executor.execute(f"PRAGMA {pragma}")
        except BaseException:
            await connection.close()  # its thread would keep the process alive
            raise
        return database

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        async with self._lock:
            await self._executor.execute("BEGIN IMMEDIATE")
            try:
                yield self._executor
            except BaseException:
                await self._executor.execute("ROLLBACK")
                raise
            else:
                await self._executor.execute("COMMIT")

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Executor]:
        async with self._lock:
            yield self._executor

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    async def tables(self) -> set[str]:
        rows = await self.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {row["name"] for row in rows}

    async def columns(self, table: str) -> list[str]:
        return [row["name"] for row in await self.fetch(f"PRAGMA table_info({table})")]

    async def migrate(self) -> list[str]:
        async with self._lock:
            await self._executor.execute(MIGRATIONS_TABLE)
        applied = []
        for migration in migrations(self.dialect):
            async with self.transaction() as tx:
                if await tx.fetchrow("SELECT 1 FROM schema_migrations WHERE number = ?", (migration.number,)):
                    continue
                for statement in sqlite_statements(migration.sql):
                    await tx.execute(statement)
                await tx.execute(
                    "INSERT INTO schema_migrations (number, name) VALUES (?, ?)",
                    (migration.number, migration.name),
                )
            applied.append(migration.name)
        return applied


def sqlite_statements(sql: str) -> list[str]:
    """Split a SQLite migration file into complete statements (comments may hold semicolons)."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip() and not all(
        part.strip().startswith("--") or not part.strip() for part in buffer.splitlines()
    ):
        raise ValueError(f"incomplete SQL statement at the end of a migration: {buffer.strip()[:60]!r}")
    return statements


# -- PostgreSQL ------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered for PostgreSQL (``$1``, ``$2``...); a ``?``
    inside a quoted string stays."""
    parts: list[str] = []
    count = 0
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            count += 1
            parts.append(f"${count}")
        else:
            parts.append(char)
    return "".join(parts)


def _changed(status: str) -> int:
    """The row count in a PostgreSQL command status (``UPDATE 1``, ``INSERT 0 3``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


@contextmanager
def _postgres_errors() -> Iterator[None]:
    try:
        yield
    except asyncpg.UniqueViolationError as error:
        raise UniqueViolation(str(error)) from error


class _PostgresExecutor(Executor):
    def __init__(self, connection: Any) -> None:
        self._db = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with _postgres_errors():
            status = await self._db.execute(numbered(sql), *params)
        return _changed(status)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with _postgres_errors():
            await self._db.executemany(numbered(sql), list(rows))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with _postgres_errors():
            return list(await self._db.fetch(numbered(sql), *params))


class PostgresDatabase(Database):
    """A PostgreSQL database through an asyncpg pool (several transactions at once)."""

    dialect = "postgresql"
    for_update = " FOR UPDATE"

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    @classmethod
    async def connect(cls, url: str, *, pool_size: int = 10) -> PostgresDatabase:
        """A pool of up to ``pool_size`` connections to the server at ``url``."""
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        return cls(pool)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        async with self._pool.acquire() as connection, connection.transaction():
            yield _PostgresExecutor(connection)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Executor]:
        async with self._pool.acquire() as connection:
            yield _PostgresExecutor(connection)

    async def close(self) -> None:
        await self._pool.close()

    async def tables(self) -> set[str]:
        rows = await self.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        return {row["table_name"] for row in rows}

    async def columns(self, table: str) -> list[str]:
        rows = await self.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = ? ORDER BY ordinal_position",
            (table,),
        )
        return [row["column_name"] for row in rows]

    async def reset_ids(self, tx: Executor) -> None:
        for table in IDENTITY_TABLES:
            await tx.fetch(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 1), "
                f"MAX(id) IS NOT NULL) FROM {table}"
            )

    async def migrate(self) -> list[str]:
        applied = []
        async with self._pool.acquire() as connection:
            await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                await connection.execute(MIGRATIONS_TABLE)
                done = {
                    row["number"] for row in await connection.fetch("SELECT number FROM schema_migrations")
                }
                for migration in migrations(self.dialect):
                    if migration.number in done:
                        continue
                    async with connection.transaction():
                        await connection.execute(migration.sql)
                        await connection.execute(
                            "INSERT INTO schema_migrations (number, name) VALUES ($1, $2)",
                            migration.number,
                            migration.name,
                        )
                    applied.append(migration.name)
            finally:
                await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        return applied
