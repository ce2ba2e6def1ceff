"""The storage of the server admins' tools, on both engines: the server's own default clock, the
threads setting, leaderboard seasons (closed with their ratings, reopened while nothing was
played) and removing a player's data, each written with its line in the server's admin log."""

from __future__ import annotations

import pytest

from bot.sessions import SessionService
from bot.storage import Storage
from bot.storage.store import FORMER_PLAYER
from games import registry
from tests.bot.fakes import FakeTime
from tests.bot.test_migrate import play_suggestion
from tests.support import tiny

registry.register(tiny.GAME)
GUILD, OTHER = 1 << 22, 2 << 22
ADMIN = 900


@pytest.fixture
async def storage(database_url: str) -> Storage:
    opened = await Storage.open(database_url)
    yield opened  # type: ignore[misc]
    await opened.close()


async def finished_game(service: SessionService, guild: int, channel: int, players: tuple[int, int]) -> None:
    """A whole two-player Tiny Tiles game between people (rated) in ``guild``."""
    first, second = players
    session = await service.create(
        "tiny", guild_id=guild, channel_id=channel, user_id=first, name=f"p{first}"
    )
    await service.join(session, second, f"p{second}")
    await service.start(session, first)
    while session.status == "playing":
        await play_suggestion(service, session, channel)


def service_on(storage: Storage, time: FakeTime) -> SessionService:
    return SessionService(storage, now=time.now, sleep=time.sleep, seed_source=iter(range(100, 200)).__next__)


async def test_clock_and_threads_are_logged_and_undone(storage: Storage) -> None:
    assert await storage.guild_turn_hours(GUILD) is None, "the bot's default until the server sets one"
    first = await storage.set_guild_turn_hours(GUILD, 48, by=ADMIN, now=10.0)
    second = await storage.set_guild_turn_hours(GUILD, 0, by=ADMIN, now=20.0)
    assert await storage.guild_turn_hours(GUILD) == 0 and await storage.guild_turn_hours(OTHER) is None
    assert await storage.latest_setting_change(GUILD, "clock") == second == first + 1
    entry = await storage.log_entry(GUILD, second)
    assert entry is not None and entry.details == {"hours": 0, "before": 48} and entry.user_id == ADMIN
    undo = await storage.undo_setting(GUILD, entry, by=ADMIN, now=30.0)
    assert await storage.guild_turn_hours(GUILD) == 48
    assert await storage.latest_setting_change(GUILD, "clock") == first
    threads = await storage.set_threads_logged(GUILD, False, by=ADMIN, now=40.0)
    assert not await storage.threads_enabled(GUILD)
    entry = await storage.log_entry(GUILD, threads)
    assert entry is not None
    await storage.undo_setting(GUILD, entry, by=ADMIN, now=50.0)
    assert await storage.threads_enabled(GUILD)
    log = await storage.admin_log(GUILD)
    assert [line.action for line in log] == ["undo", "threads", "undo", "clock", "clock"]
    assert log[2].number == undo and log[2].details == {"undid": second, "action": "clock"}
    assert log[3].undone_at == 30.0 and log[4].undone_at is None
    assert await storage.admin_log(OTHER) == []


async def test_a_season_closes_with_its_ratings_and_reopens_while_unplayed(storage: Storage) -> None:
    time = FakeTime()
    service = service_on(storage, time)
    try:
        await finished_game(service, GUILD, 1, (1, 2))
        await finished_game(service, OTHER, 2, (1, 2))
        old, total = await storage.leaderboard("tiny", GUILD, "rating")
        assert total == 2 and {row.user_id for row in old} == {1, 2}
        assert await storage.seasons(GUILD) == [(first := (await storage.seasons(GUILD))[0])]
        assert first.number == 1 and first.current

        await time.advance(100)
        season, logged = await storage.start_season(GUILD, by=ADMIN, now=time.now())
        assert season.number == 2 and season.started_at == time.now()
        past = await storage.season(GUILD, 1)
        assert past is not None and past.ended_at == time.now() and not past.current
        assert await storage.leaderboard("tiny", GUILD, "rating", season=season) == ([], 0), "afresh"
        assert await storage.leaderboard("tiny", GUILD, "wins", season=season) == ([], 0)
        archived, total = await storage.leaderboard("tiny", GUILD, "rating", season=past)
        assert total == 2 and archived == old, "the past season as it was"
        assert (await storage.leaderboard("tiny", GUILD, "wins", season=past))[1] == 2
        assert (await storage.leaderboard("tiny", OTHER, "rating"))[1] == 2, "other servers keep theirs"
        assert (await storage.leaderboard("tiny", None, "rating"))[1] == 2, "so does the global one"

        entry = await storage.log_entry(GUILD, logged)
        assert entry is not None and entry.details == {"season": 2, "ratings": 2}
        await storage.undo_season(GUILD, entry, by=ADMIN, now=time.now())
        assert await storage.seasons(GUILD) == [first]
        assert await storage.leaderboard("tiny", GUILD, "rating", season=first) == (old, 2)

        season, _ = await storage.start_season(GUILD, by=ADMIN, now=time.now())
        await time.advance(10)
        await finished_game(service, GUILD, 3, (2, 3))
        assert await storage.results_since(GUILD, season.started_at) == 2, "played in: no undo now"
        rows, total = await storage.leaderboard("tiny", GUILD, "wins", season=season)
        assert total == 2 and {row.user_id for row in rows} == {2, 3}
        third, _ = await storage.start_season(GUILD, by=ADMIN, now=time.now())
        second = await storage.season(GUILD, 2)
        assert third.number == 3 and second is not None and second.ended_at == third.started_at
        assert (await storage.leaderboard("tiny", GUILD, "rating", season=second))[1] == 2
    finally:
        await service.close()


async def test_removing_a_player_keeps_the_others_games_whole(storage: Storage) -> None:
    time = FakeTime()
    service = service_on(storage, time)
    try:
        await finished_game(service, GUILD, 1, (1, 2))
        await finished_game(service, GUILD, 2, (2, 3))
        await finished_game(service, OTHER, 3, (1, 2))
        await time.advance(10)
        await storage.start_season(GUILD, by=ADMIN, now=time.now())
        await time.advance(10)
        await finished_game(service, GUILD, 4, (1, 2))
        forgotten, logged = await storage.forget_player(GUILD, 2, by=ADMIN, now=time.now())
        assert (forgotten.seats, forgotten.results, forgotten.ratings, forgotten.season_ratings) == (
            3,
            3,
            1,
            1,
        )
        assert forgotten.moves > 0 and forgotten.hosted == 1
        database = storage.database
        assert await database.fetchval("SELECT COUNT(*) FROM seats WHERE name = ?", (FORMER_PLAYER,)) == 3
        in_guild = "SELECT id FROM games WHERE guild_id = ?"
        for table in ("seats", "moves"):
            assert not await database.fetchval(
                f"SELECT COUNT(*) FROM {table} WHERE user_id = 2 AND game_id IN ({in_guild})", (GUILD,)
            )
        assert await database.fetchval("SELECT COUNT(*) FROM results WHERE guild_id = ?", (GUILD,)) == 6
        assert not await database.fetchval(
            "SELECT COUNT(*) FROM results WHERE user_id = 2 AND guild_id = ?", (GUILD,)
        )
        rows, _ = await storage.leaderboard("tiny", GUILD, "wins", season=await storage.season(GUILD))
        assert {row.user_id for row in rows} == {1}
        assert (await storage.leaderboard("tiny", OTHER, "rating"))[1] == 2, "another server's data stays"
        assert await database.fetchval("SELECT COUNT(*) FROM ratings WHERE user_id = 2 AND scope_id = 0") == 1
        entry = await storage.log_entry(GUILD, logged)
        assert entry is not None and entry.action == "forget" and "2" not in str(entry.details.keys())
        assert entry.details["seats"] == 3
    finally:
        await service.close()
