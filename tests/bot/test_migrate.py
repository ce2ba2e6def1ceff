"""``python -m bot migrate-db``: a SQLite database made by playing games, copied to PostgreSQL;
then every game goes on there."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot import migrate
from bot.sessions import Session, SessionService
from bot.storage import Storage
from bot.storage.engines import DATA_TABLES
from games import registry
from tests.bot.fakes import FakeTime
from tests.support import tiny

registry.register(tiny.GAME)
GUILD = 1 << 22


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
