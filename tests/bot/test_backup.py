"""``python -m bot backup`` and the restore recipe of docs/hosting.md ("Backups and restore"),
followed step by step: a backup taken while the bot writes, restored, holds every row and its
games play on. SQLite through the online backup API; PostgreSQL through pg_dump and pg_restore
(the binaries of the suite's own PostgreSQL server, from the pgserver package)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import asyncpg
import pytest

from bot import backup, cli
from bot.sessions import SessionService
from bot.storage import Storage
from bot.storage.engines import DATA_TABLES
from tests.bot.fakes import FakeTime
from tests.bot.test_migrate import play_suggestion, played_database
from tests.support.postgres import PostgresServer


async def counts(database: str | Path) -> dict[str, int]:
    storage = await Storage.open(database)
    try:
        return {
            table: int(await storage.database.fetchval(f"SELECT COUNT(*) FROM {table}"))
            for table in DATA_TABLES
        }
    finally:
        await storage.close()


async def plays_on(database: str | Path) -> None:
    """The running game of the restored database takes its next move."""
    storage = await Storage.open(database)
    time = FakeTime()
    service = SessionService(storage, now=time.now, sleep=time.sleep)
    try:
        restored = [session for session in await service.restore() if session.row.channel_id == 3]
        [session] = restored
        await service.ready(session)
        before = session.ply
        await play_suggestion(service, session, 3)
        assert session.ply == before + 1
    finally:
        await service.close()
        await storage.close()


async def test_sqlite_backup_while_the_bot_writes_and_the_restore_recipe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "data" / "tilehost.db"
    live.parent.mkdir()
    expected = await played_database(live)
    running = await Storage.open(live)  # the bot is running: its connection is open, in WAL mode
    try:
        await running.set_dm_reminders(42, True)  # a write just before the backup
        expected["user_settings"] += 1
        saved = tmp_path / "backups" / "tilehost-today.db"
        assert cli.main(["backup", "--database", str(live), "--to", str(saved)]) == 0
        assert f"backed up {live} to {saved}: 6 games" in capsys.readouterr().out
        assert cli.main(["backup", "--database", str(live), "--to", str(saved)]) == 2, "never overwrites"
        assert "already exists" in capsys.readouterr().err
        await running.set_dm_reminders(43, True)  # after the backup: not in it
    finally:
        await running.close()
    assert sorted(path.name for path in saved.parent.iterdir()) == [saved.name], "one file, nothing partial"

    # The recipe: stop the bot, put the backup in place, remove the old file's -wal and -shm.
    shutil.copyfile(saved, live)
    for leftover in (Path(f"{live}-wal"), Path(f"{live}-shm")):
        leftover.unlink(missing_ok=True)
    assert await counts(live) == expected
    await plays_on(live)


def test_a_missing_database_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "tilehots.db"
    assert cli.main(["backup", "--database", str(missing), "--to", str(tmp_path / "b.db")]) == 2
    assert f"there is no database at {missing}" in capsys.readouterr().err
    assert not missing.exists()


def test_without_pg_dump_it_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    url = "postgresql://tilehost:hunter2secret@db.example/tilehost"
    assert cli.main(["backup", "--database", url, "--to", str(tmp_path / "b.dump")]) == 2
    said = capsys.readouterr().err
    assert "pg_dump is not installed" in said and "postgresql-client" in said and "hunter2secret" not in said


def test_pg_dump_gets_libpq_parameters_and_no_password_on_its_command_line() -> None:
    address, password, schema = backup.libpq_url(
        "postgresql://bot:s%40cret@db.example:5433/tilehost?sslmode=require&synchronous_commit=off&search_path=t1"
    )
    assert password == "s@cret" and schema == "t1"
    assert address == (
        "postgresql://bot@db.example:5433/tilehost?sslmode=require&"
        "options=-c%20synchronous_commit%3Doff%20-c%20search_path%3Dt1"
    )


@pytest.fixture
def pg_tools(postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    """pg_dump and pg_restore of the server's own version (pgserver ships them) first on PATH."""
    import pgserver

    tools = Path(pgserver.__file__).parent / "pginstall" / "bin"
    if not (tools / "pg_dump").exists():
        pytest.skip("pgserver ships no pg_dump here")
    monkeypatch.setenv("PATH", f"{tools}:{Path(shutil.which('python3') or '/usr/bin').parent}")
    return tools


async def new_database(server: PostgresServer, name: str) -> str:
    """A new, empty database on the server (a whole database, as an admin's would be)."""
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    base = server.url()
    return base.replace("/postgres?", f"/{name}?", 1)


async def test_postgresql_backup_and_the_restore_recipe(
    tmp_path: Path, postgres_server: PostgresServer, pg_tools: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot import migrate

    source = tmp_path / "tilehost.db"
    expected = await played_database(source)
    live = await new_database(postgres_server, "backup_live")
    await migrate.copy_database(str(source), live, say=lambda line: None)
    saved = tmp_path / "tilehost.dump"
    assert cli.main(["backup", "--database", live, "--to", str(saved)]) == 0
    assert "with pg_dump" in capsys.readouterr().out and saved.stat().st_size > 0

    # The recipe: restore into a new, empty database, then point TILEHOST_DB at it.
    restored = await new_database(postgres_server, "backup_restored")
    address, password, _ = backup.libpq_url(restored)
    done = subprocess.run(  # noqa: ASYNC221 (the recipe's command, as an admin runs it)
        [str(pg_tools / "pg_restore"), "--no-owner", f"--dbname={address}", str(saved)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PGPASSWORD": password or ""},
    )
    assert done.returncode == 0, done.stderr
    assert await counts(restored) == expected
    await plays_on(restored)
