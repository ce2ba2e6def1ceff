"""A real PostgreSQL server for the tests, from the ``pgserver`` package (PostgreSQL 16 binaries
in a wheel: no root, no system install; run as root, it runs the server as a user of its own).

The suite starts one server per run in a folder of its own under the system's temporary folder
(not pytest's: pytest makes its folders private to root whenever a run starts, and pgserver runs
the server as another user when it is started by root) and gives each test an empty schema of its
own (the URL sets ``search_path``; a schema is made in milliseconds, a database in
about half a second). Durability is switched off: the data is thrown away at the end.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any

import asyncpg

_names = itertools.count(1)
FAST_SETTINGS = ("fsync = off", "full_page_writes = off", "synchronous_commit = off")


class PostgresUnavailable(Exception):
    """The server could not start here (the message says why)."""


class PostgresServer:
    """One running server; :meth:`new_database` makes an empty schema and returns its URL."""

    def __init__(self, server: Any, owned_folder: Path | None = None) -> None:
        self._server = server
        self._owned_folder = owned_folder

    @classmethod
    def start(cls, folder: Path | None = None, *, durable: bool = False) -> PostgresServer:
        """Start a server whose data lives in ``folder`` (default: a new temporary folder, deleted
        by :meth:`stop`), with PostgreSQL's default durability if ``durable`` (benchmarks), else
        without it (tests); raises :class:`PostgresUnavailable`."""
        try:
            with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
                warnings.simplefilter("ignore")
                import pgserver
        except ImportError as error:
            raise PostgresUnavailable(f"the pgserver package is not installed ({error})") from error
        logging.getLogger("pgserver").setLevel(logging.WARNING)
        owned = folder is None
        folder = Path(tempfile.mkdtemp(prefix="tilehost-pg-")) if folder is None else folder
        try:
            server = cls(pgserver.get_server(folder, cleanup_mode="stop"), folder if owned else None)
            if not durable:
                server._server.psql("".join(f"ALTER SYSTEM SET {setting};" for setting in FAST_SETTINGS))
                server._server.psql("SELECT pg_reload_conf();")
        except Exception as error:  # initdb, pg_ctl or the first connection failing
            raise PostgresUnavailable(f"pgserver could not start PostgreSQL: {error}") from error
        return server

    def url(self, schema: str | None = None) -> str:
        """The URL of the server's database (over its Unix socket), in ``schema`` if given."""
        base = str(self._server.get_uri())
        return base if schema is None else f"{base}&search_path={schema}"

    async def new_database(self, prefix: str = "t") -> str:
        """A new empty schema; the URL of the database in it."""
        name = f"{prefix}_{next(_names)}"
        connection = await asyncpg.connect(self.url())
        try:
            await connection.execute(f"CREATE SCHEMA {name}")
        finally:
            await connection.close()
        return self.url(name)

    def stop(self) -> None:
        """Stop the server and delete its folder (if :meth:`start` made it)."""
        with contextlib.suppress(Exception):
            from pgserver._commands import pg_ctl

            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self._server.pgdata, user=self._server.system_user)
        # pgserver's own cleanup would stop it again and wait seconds for the stopped server
        self._server.cleanup_mode = None
        with contextlib.suppress(Exception):
            self._server.cleanup()
        if self._owned_folder is not None:
            shutil.rmtree(self._owned_folder, ignore_errors=True)
