"""``python -m bot migrate-db``: a SQLite database made by playing games, copied to PostgreSQL;
then every game goes on there."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot import migrate
from bot.sessions import Session, SessionService
from bot.storage import Storage
from bot.storage.engines import DATA_TABLES, Database
from games import registry
from tests.bot.fakes import FakeTime
from tests.support import tiny

registry.register(tiny.GAME)
GUILD = 1 << 22
ROOT = Path(__file__).resolve().parents[2]


async def play_suggestion(service: SessionService, session: Session, channel: int) -> None:
    """The player to act makes the first suggested move."""
    seat = session.seat_to_act()
    assert seat is not None and seat.user_id is not None
    choice = (await service.suggestions(session, seat.user_id, ""))[0][1]
    await service.play(session, seat.user_id, choice)


async def tiny_game(service: SessionService, channel: int, moves: int | None) -> Session:
    """A two-player Tiny Tiles game with ``moves`` moves played (None: to the end)."""
    session = await service.create("tiny", guild_id=GUILD, channel_id=channel, user_id=1, name="ann")
    await service.join(session, 2, "ben")
    await service.start(session, 1)
    played = 0
    while session.status == "playing" and (moves is None or played < moves):
        await play_suggestion(service, session, channel)
        played += 1
    return session


async def played_database(path: Path) -> dict[str, int]:
    """A SQLite database with finished, running, lobby and aborted games; its row counts."""
    storage = await Storage.open(path)
    time = FakeTime()
    service = SessionService(
        storage, now=time.now, sleep=time.sleep, seed_source=iter(range(50, 90)).__next__
    )
    await tiny_game(service, 1, None)
    await tiny_game(service, 2, None)
    await tiny_game(service, 3, 3)
    solo = await service.create("puzzosolo", guild_id=GUILD, channel_id=4, user_id=5, name="cy")
    await service.start(solo, 5)
    await play_suggestion(service, solo, 4)
    await service.create("tiny", guild_id=None, channel_id=5, user_id=6, name="di")
    called_off = await service.create("tiny", guild_id=GUILD, channel_id=6, user_id=7, name="ed")
    await service.abort(called_off, 7)
    await storage.set_dm_reminders(1, True)
    counts = {
        table: int(await storage.database.fetchval(f"SELECT COUNT(*) FROM {table}")) for table in DATA_TABLES
    }
    await service.close()
    await storage.close()
    return counts


async def test_copy_then_every_game_goes_on(tmp_path: Path, postgres_url: str) -> None:
    source = tmp_path / "tilehost.db"
    counts = await played_database(source)
    assert counts["ratings"] == 4 and counts["results"] == 4
    said: list[str] = []
    report = await migrate.copy_database(str(source), postgres_url, say=said.append)
    assert report.counts == counts and report.problems == [] and report.replayed == 6
    assert any("verified 6 game records" in line for line in said)

    storage = await Storage.open(postgres_url)
    time = FakeTime()
    service = SessionService(storage, now=time.now, sleep=time.sleep)
    try:
        restored = await service.restore()
        assert sorted(s.row.channel_id for s in restored) == [3, 4, 5]
        for session in restored:
            await service.ready(session)
        assert {s.row.channel_id: s.ply for s in restored}[3] == 3
        assert await storage.dm_reminders(1)
        for session in restored:
            await service.ready(session)
            if session.status != "playing":
                continue
            channel = session.row.channel_id
            for _ in range(200):
                if session.status != "playing":
                    break
                if session.game.name == "puzzosolo":
                    await service.play(session, 5, "giveup")
                else:
                    await play_suggestion(service, session, channel)
            assert session.status == "finished"
        rated = await storage.database.fetch("SELECT rated_games FROM ratings WHERE scope_id = 0")
        assert [row["rated_games"] for row in rated] == [3, 3]
        newest = await service.create("tiny", guild_id=GUILD, channel_id=9, user_id=1, name="ann")
        assert newest.id == counts["games"] + 1
    finally:
        await service.close()
        await storage.close()

    with pytest.raises(migrate.MigrationRefused):
        await migrate.copy_database(str(source), postgres_url, say=said.append)


async def open_a_lobby(path: Path) -> None:
    storage = await Storage.open(path)
    time = FakeTime()
    service = SessionService(storage, now=time.now, sleep=time.sleep)
    await service.create("tiny", guild_id=None, channel_id=1, user_id=1, name="ann")
    await storage.close()


def test_the_command_refuses_a_target_with_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, used, empty = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "c.db"
    asyncio.run(open_a_lobby(source))
    asyncio.run(open_a_lobby(used))
    assert migrate.main(["--from", str(source), "--to", str(used)]) == 2
    assert "already holds Tilehost data" in capsys.readouterr().err
    assert migrate.main(["--from", str(source), "--to", str(empty)]) == 0
    assert "verified 1 game records" in capsys.readouterr().out


def test_a_missing_or_empty_source_is_refused_and_nothing_is_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mistyped, target = tmp_path / "tilehots.db", tmp_path / "new.db"
    assert migrate.main(["--from", str(mistyped), "--to", str(target)]) == 2
    assert f"there is no database at {mistyped} (check --from)" in capsys.readouterr().err
    assert not mistyped.exists() and not target.exists()
    mistyped.touch()  # an empty file: what the old migrate-db left behind
    assert migrate.main(["--from", str(mistyped), "--to", str(target)]) == 2
    assert "holds no Tilehost data (check --from)" in capsys.readouterr().err
    assert not target.exists()


def test_an_unreachable_target_ends_at_once_in_one_line(tmp_path: Path) -> None:
    """The old migrate-db printed a traceback and then hung: the source's connection thread was
    never closed. Now: one line, the password masked, exit 3, and the process ends."""
    source = tmp_path / "tilehost.db"
    asyncio.run(open_a_lobby(source))
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    target = f"postgresql://tilehost:hunter2secret@127.0.0.1:{port}/tilehost"
    done = subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", "--from", str(source), "--to", target],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr and "hunter2secret" not in done.stderr + done.stdout
    [line] = done.stderr.splitlines()
    assert line.startswith("migrate-db: a database cannot be used") and "tilehost:***@127.0.0.1" in line


async def test_counts_are_checked_after_the_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A row written to the source while the copy runs (a bot left running) is a difference:
    reported per table, and the command exits non-zero."""
    source, target = tmp_path / "a.db", tmp_path / "b.db"
    await played_database(source)
    copy_tables = migrate._copy_tables

    async def copy_then_write(origin: Database, destination: Database, say: Any) -> dict[str, int]:
        counts = await copy_tables(origin, destination, say)
        async with origin.transaction() as tx:  # the bot still running: a new user setting
            await tx.execute("INSERT INTO user_settings (user_id, dm_reminders) VALUES (99, 1)")
        return counts

    monkeypatch.setattr(migrate, "_copy_tables", copy_then_write)
    said: list[str] = []
    report = await migrate.copy_database(str(source), str(target), say=said.append)
    assert report.problems == [
        "user_settings: 2 rows in the source, 1 in the target (was the bot still running?)"
    ]
    assert any(line.split() == ["user_settings", "2", "1", "<-", "differs"] for line in said)


async def test_server_settings_are_copied_too(tmp_path: Path) -> None:
    source, target = tmp_path / "a.db", tmp_path / "b.db"
    await played_database(source)
    storage = await Storage.open(source)
    await storage.set_threads(GUILD, False)
    await storage.set_bot_state("commands:1:global", "abc", 0.0)
    await storage.close()
    report = await migrate.copy_database(str(source), str(target), say=lambda line: None)
    assert report.counts["guild_settings"] == 1 and report.problems == []
    copied = await Storage.open(target)
    try:
        assert not await copied.threads_enabled(GUILD)
        assert await copied.bot_state("commands:1:global") is None, "the bot's own state stays behind"
    finally:
        await copied.close()


async def test_every_table_is_copied_or_deliberately_left(tmp_path: Path) -> None:
    """A migration that adds a table must add it to TABLE_KEYS (so migrate-db copies it) or to
    migrate.NOT_COPIED; otherwise an instance moved to PostgreSQL would lose it silently."""
    storage = await Storage.open(tmp_path / "schema.db")
    try:
        tables = await storage.database.tables()
    finally:
        await storage.close()
    assert tables - {"sqlite_sequence"} == set(DATA_TABLES) | migrate.NOT_COPIED
