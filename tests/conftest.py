"""Shared fixtures: a bot factory on a temporary database for SimCord tests, and databases on
both storage backends (SQLite files, and a PostgreSQL server the suite starts itself)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import hypothesis
import pytest

from bot import workers
from bot.client import TilehostBot
from bot.storage import Storage
from tests.e2e.helpers import build_bot
from tests.support.postgres import PostgresServer, PostgresUnavailable
from tests.support.processes import mark_run

mark_run()  # every process the run starts inherits it (tests/test_nothing_left_running.py)

# Hypothesis judges speed in two places: a deadline per example (200 ms) and the "too slow"
# health check on generating data. Both make a verdict depend on the machine's load, so neither
# is used; a test that sets its own settings still inherits these.
hypothesis.settings.register_profile(
    "tilehost", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow]
)
hypothesis.settings.load_profile("tilehost")

BACKENDS = ("sqlite", "postgresql")

TEST_EXTENSIONS = ("cogs.lobby", "cogs.standings", "tests.support.tiny.cog")
SETTLE_SECONDS = 60.0
"""How long SimCord waits for the bot to finish its work after each step. Its default, five
seconds, is too short on a loaded two-core machine (a whole replay is drawn in one step); a
real hang still fails, after a minute."""


LAST = "tests/test_nothing_left_running.py"
"""The test that runs after every other one: nothing the run started is left alive."""
_servers: list[PostgresServer] = []


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give every SimCord test the longer settle time, unless it sets its own; the check that
    nothing is left running goes last. Tests spread over processes (``pytest -n``) have no
    "last": there the check is left out, and ``make pytest`` runs it on its own afterwards."""
    for item in items:
        if "simcord_env" in getattr(item, "fixturenames", ()) and item.get_closest_marker("simcord") is None:
            item.add_marker(pytest.mark.simcord(settle_timeout=SETTLE_SECONDS))
    if _spread_over_processes(config):
        config.hook.pytest_deselected(items=[item for item in items if item.nodeid.startswith(LAST)])
        items[:] = [item for item in items if not item.nodeid.startswith(LAST)]
    else:
        items.sort(key=lambda item: item.nodeid.startswith(LAST))


def _spread_over_processes(config: pytest.Config) -> bool:
    """Whether this run is one of several processes sharing the tests (pytest-xdist)."""
    return hasattr(config, "workerinput") or bool(getattr(config.option, "numprocesses", None))


def stop_session_resources() -> None:
    """Stop what the session keeps for every test: the worker processes and the PostgreSQL
    servers (their fixtures' own teardown then has nothing left to do)."""
    workers.shutdown()
    while _servers:
        _servers.pop().stop()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Close any database a test left open. With ``-x`` a failing SimCord test can skip the env's
    async teardown, and aiosqlite's worker thread (not a daemon) would then keep the process alive."""
    for leftover in gc.get_objects():
        if isinstance(leftover, Storage) and not leftover.closed and leftover.dialect == "sqlite":
            with contextlib.suppress(Exception):
                asyncio.run(leftover.close())


@pytest.fixture(scope="session", autouse=True)
def worker_pool() -> Iterator[None]:
    """The worker processes, started before any SimCord clock stands still (see ``warm``). They
    load the test-only Tiny Tiles game from the start (it registers itself on import): rules
    pictures, replays and imports look a game up by its name, and a worker that has not yet
    unpickled a Tiny Tiles object would not know it."""
    workers.PRELOAD = (*workers.PRELOAD, "tests.support.tiny")
    workers.warm()
    yield
    workers.shutdown()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the whole run (skips the PostgreSQL tests where none can start)."""
    try:
        server = PostgresServer.start()
    except PostgresUnavailable as error:
        pytest.skip(f"PostgreSQL tests skipped: {error}")
    _servers.append(server)
    yield server
    if server in _servers:
        _servers.remove(server)
        server.stop()


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new empty PostgreSQL database."""
    return await postgres_server.new_database()


@pytest.fixture(params=BACKENDS)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database on each backend in turn: a SQLite file path, then a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "tilehost.db")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return await server.new_database()


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "tilehost.db")


@pytest.fixture
def make_bot(db_path: str) -> Callable[..., TilehostBot]:
    """Build a bot on the test database; call it again to 'restart' on the same data."""
    seeds = itertools.count(1000)

    def build(extensions: Sequence[str] = TEST_EXTENSIONS, turn_hours: int = 24) -> TilehostBot:
        return build_bot(db_path, extensions, lambda: next(seeds), turn_hours=turn_hours)

    return build


@pytest.fixture
def simcord_bot(make_bot: Callable[..., TilehostBot]) -> TilehostBot:
    return make_bot()
