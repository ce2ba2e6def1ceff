"""The two database engines behind :class:`bot.storage.Storage`: SQLite and PostgreSQL.

SQLite is the default: one file in WAL mode, foreign keys on, a busy timeout, ``synchronous =
FULL`` (a commit is on the disk before it returns). One writer connection in a thread of its own
runs each transaction whole, in one call, and commits the transactions waiting at the same
moment together (group commit, see :mod:`bot.storage.threads`); read-only connections in other
threads serve the reads, which never wait for the writer. PostgreSQL (asyncpg) serves several bot
processes: a pool of connections for writes and one for reads, READ COMMITTED transactions in
which a conditional ``UPDATE`` waits for a competing one and then sees its result, and a move
stored by one server-side function call (one round trip; migration 0009).

Queries are written once with ``?`` placeholders (PostgreSQL's are numbered here) and read rows
by column name; a transaction is written once as a coroutine over an :class:`Executor` and
handed to :meth:`Database.run`. Each engine applies its own dialect's migration files:
``bot/migrations/*.sql`` for SQLite and ``bot/migrations/postgresql/*.sql`` for PostgreSQL, one
file per number in both.
"""

from __future__ import annotations

import asyncio
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import asyncpg

from bot.settings import is_postgres
from bot.storage.rows import Conflict, Row, UniqueViolation
from bot.storage.threads import SqliteReaders, SqliteWriter, Work, database_file, drive

T = TypeVar("T")
Body = Callable[["Executor"], Coroutine[Any, Any, T]]
"""A transaction written once for both engines: every statement of it, on the executor given."""

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
PRAGMAS = ("journal_mode = WAL", "foreign_keys = ON", "busy_timeout = 5000", "synchronous = FULL")
"""How SQLite's writer connection is set up (a group's COMMIT waits for the disk: one fsync for
every move committed with it)."""
READER_PRAGMAS = ("busy_timeout = 5000",)
"""How SQLite's read-only connections are set up (``query_only`` is added)."""
SQLITE_READERS = 2
"""Read-only SQLite connections (threads) per database."""


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
    """A SQLite file (a writer and readers) or a PostgreSQL server (pools) holding one database."""

    dialect: ClassVar[str]
    for_update: ClassVar[str]
    """What makes a SELECT lock its rows until the transaction ends ("" where writers are
    serialised anyway)."""

    @abstractmethod
    async def run(self, body: Body[T]) -> T:
        """One transaction: ``body(tx)`` runs every statement of it, and is committed when it
        returns (its value is returned once the commit did), rolled back if it raises. On SQLite
        the whole body runs in one call into the writer's thread and is committed together with
        the other transactions waiting then; its awaits must be its own statements only."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Executor]:
        """``async with db.transaction() as tx``: one transaction whose block may await anything
        (copies, migrations, tests), committed at the end of the block, rolled back if it
        raises. On SQLite it holds the writer for the whole block: hot paths use :meth:`run`."""

    @abstractmethod
    def reading(self) -> AbstractAsyncContextManager[Executor]:
        """``async with db.reading() as tx``: reads outside a transaction (each sees every
        committed write), never waiting for the writes."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connections (after the work queued before)."""

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


def _execute(connection: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
    with _sqlite_errors():
        cursor = connection.execute(sql, params)
    cursor.close()  # an open cursor would block COMMIT
    return cursor.rowcount


def _executemany(connection: sqlite3.Connection, sql: str, rows: Iterable[Sequence[Any]]) -> None:
    with _sqlite_errors():
        connection.executemany(sql, rows).close()


def _fetch(connection: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
    with _sqlite_errors():
        cursor = connection.execute(sql, params)
    try:
        return list(cursor.fetchall())
    finally:
        cursor.close()


class _SqliteExecutor(Executor):
    """Statements on a connection, in the thread that owns it: every await completes at once."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _execute(self._db, sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        _executemany(self._db, sql, list(rows))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return _fetch(self._db, sql, params)


class _CallingExecutor(Executor):
    """Statements sent one call at a time from the event loop to a connection's thread."""

    def __init__(self, call: Callable[[Work], Coroutine[Any, Any, Any]]) -> None:
        self._call = call

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return int(await self._call(lambda connection: _execute(connection, sql, params)))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        listed = list(rows)
        await self._call(lambda connection: _executemany(connection, sql, listed))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        rows: list[Row] = await self._call(lambda connection: _fetch(connection, sql, params))
        return rows


class SqliteDatabase(Database):
    """One SQLite file: a writer thread that commits in groups, and reader threads."""

    dialect = "sqlite"
    for_update = ""

    def __init__(self, writer: SqliteWriter, readers: SqliteReaders | None) -> None:
        self._writer = writer
        self._readers = readers
        self._closed = False

    @classmethod
    async def connect(cls, path: str | Path, *, readers: int = SQLITE_READERS) -> SqliteDatabase:
        """Open (creating if needed) the file at ``path``: the writer first (it sets WAL mode),
        then the readers (none for ``:memory:``, whose reads go to the writer)."""
        file = database_file(path)
        loop = asyncio.get_running_loop()
        writer = SqliteWriter(file, PRAGMAS, loop)
        writer.start()
        try:
            await writer.opened
        except BaseException:
            await writer.closed
            writer.join()
            raise
        pool = None
        if file != ":memory:" and readers > 0:
            pool = SqliteReaders(file, READER_PRAGMAS, loop, readers)
        if pool is not None:
            try:
                await pool.start()
            except BaseException:
                await writer.stop()
                raise
        return cls(writer, pool)

    @property
    def commits(self) -> int:
        """How many group commits the writer made (a group of moves committed together is one)."""
        return self._writer.commits

    @property
    def largest_group(self) -> int:
        """The most transactions one commit took so far."""
        return self._writer.largest_group

    async def run(self, body: Body[T]) -> T:
        return await self._writer.submit(lambda connection: drive(body(_SqliteExecutor(connection))))

    async def on_writer(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` on the writing connection itself, outside any transaction, once the writes
        queued before are committed (diagnostics and tests: a ``PRAGMA`` on that connection)."""
        session = await self._writer.exclusive()
        try:
            return await session.call(work)
        finally:
            session.end()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        session = await self._writer.exclusive()
        try:
            tx = _CallingExecutor(session.call)
            await tx.execute("BEGIN IMMEDIATE")
            try:
                yield tx
            except BaseException:
                await tx.execute("ROLLBACK")
                raise
            else:
                await tx.execute("COMMIT")
        finally:
            session.end()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Executor]:
        readers = self._readers
        yield _CallingExecutor(readers.submit if readers is not None else self._writer.submit)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._readers is not None:
            await self._readers.stop()
        await self._writer.stop()

    async def tables(self) -> set[str]:
        rows = await self.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {row["name"] for row in rows}

    async def columns(self, table: str) -> list[str]:
        return [row["name"] for row in await self.fetch(f"PRAGMA table_info({table})")]

    async def migrate(self) -> list[str]:
        async def create(tx: Executor) -> None:
            await tx.execute(MIGRATIONS_TABLE)

        await self.run(create)
        applied = []
        for migration in migrations(self.dialect):

            async def apply(tx: Executor, migration: Migration = migration) -> bool:
                if await tx.fetchrow("SELECT 1 FROM schema_migrations WHERE number = ?", (migration.number,)):
                    return False
                for statement in sqlite_statements(migration.sql):
                    await tx.execute(statement)
                await tx.execute(
                    "INSERT INTO schema_migrations (number, name) VALUES (?, ?)",
                    (migration.number, migration.name),
                )
                return True

            if await self.run(apply):
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


async def _keep_session(connection: Any) -> None:
    """A pooled connection goes back as it is: Tilehost sets no session state (asyncpg's own
    reset, one more round trip per use, still rolls back a transaction left open)."""


class PostgresDatabase(Database):
    """A PostgreSQL database through two asyncpg pools: one for writes, one for reads (a read
    never waits for a connection that writes hold)."""

    dialect = "postgresql"
    for_update = " FOR UPDATE"

    def __init__(self, pool: Any, readers: Any) -> None:
        self._pool = pool
        self._readers = readers

    @classmethod
    async def connect(cls, url: str, *, pool_size: int = 10) -> PostgresDatabase:
        """Up to ``pool_size`` connections for writes and half as many (at least two) for reads
        to the server at ``url``."""
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, reset=_keep_session)
        try:
            readers = await asyncpg.create_pool(
                url, min_size=1, max_size=max(2, pool_size // 2), reset=_keep_session
            )
        except BaseException:
            await pool.close()
            raise
        return cls(pool, readers)

    async def run(self, body: Body[T]) -> T:
        async with self._pool.acquire() as connection, connection.transaction():
            return await body(_PostgresExecutor(connection))

    async def call(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """One statement as its own transaction, in one round trip (a server-side function call
        that stores a move): the first value it returns."""
        with _postgres_errors():
            try:
                return await self._pool.fetchval(numbered(sql), *params)
            except (asyncpg.SerializationError, asyncpg.DeadlockDetectedError) as error:
                raise Conflict(str(error)) from error

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        async with self._pool.acquire() as connection, connection.transaction():
            yield _PostgresExecutor(connection)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Executor]:
        async with self._readers.acquire() as connection:
            yield _PostgresExecutor(connection)

    async def close(self) -> None:
        await self._readers.close()
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
