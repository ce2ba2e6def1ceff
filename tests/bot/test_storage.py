"""Storage on both backends: every test runs on a SQLite file and on a PostgreSQL database."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot import ratings
from bot.shards import Shards
from bot.storage import (
    ActiveGameExists,
    Clock,
    Finish,
    Line,
    ResultRow,
    SeatRow,
    StaleMove,
    Storage,
    engines,
)
from bot.storage.engines import migrations
from tests.support.postgres import PostgresServer

GUILD = 1 << 22  # on shard 1 of 2
OTHER_GUILD = 2 << 22  # on shard 0 of 2
NOW = 1_000_000.0


@pytest.fixture
async def storage(database_url: str) -> AsyncIterator[Storage]:
    opened = await Storage.open(database_url)
    yield opened
    await opened.close()


async def new_game(
    storage: Storage,
    players: Sequence[int | None] = (1, 2),
    *,
    game: str = "tiny",
    guild_id: int | None = GUILD,
    channel_id: int = 10,
    variant: str | None = None,
    started: bool = True,
) -> int:
    """A game with a seat for each of ``players`` (None: a computer), started unless asked not to."""
    seats = [
        SeatRow(seat, user, f"p{seat}", None if user is not None else "greedy")
        for seat, user in enumerate(players)
    ]
    game_id = await storage.create_game(
        game=game,
        guild_id=guild_id,
        channel_id=channel_id,
        host=seats[0],
        options={"hand": 3},
        seed=7,
        deal=None,
        turn_seconds=3600,
        now=NOW,
        table_key=seats[0].user_id or 0 if game == "solo" else 0,
        variant=variant,
    )
    for seat in seats[1:]:
        await storage.add_seat(game_id, seat)
    if started:
        await storage.start_game(game_id, seats, {"ply": 0}, Clock(NOW + 3600, NOW + 2700), NOW)
    return game_id


def results(ranks: Sequence[int], players: Sequence[int | None], *, helped: bool = False) -> list[ResultRow]:
    """Results of a game where seat ``i`` (``players[i]``) finished ``ranks[i]``."""
    draw = list(ranks).count(1) > 1
    return [
        ResultRow(
            seat=seat,
            user_id=user,
            ai_level=None if user is not None else "greedy",
            rank=rank,
            score=10 * (len(ranks) - rank),
            forfeited=False,
            won=rank == 1 and not draw,
            draw=draw and rank == 1,
            helped=helped and rank == 1,
        )
        for seat, (rank, user) in enumerate(zip(ranks, players, strict=True))
    ]


async def finish(
    storage: Storage,
    game_id: int,
    ranks: Sequence[int],
    players: Sequence[int | None] = (1, 2),
    *,
    ply: int = 1,
    guild_id: int | None = GUILD,
    game: str = "tiny",
    now: float = NOW + 60,
    helped: bool = False,
) -> None:
    rows = results(ranks, players, helped=helped)
    outcome = {"ranks": list(ranks), "scores": [r.score for r in rows], "reason": "done"}
    update = ratings.rating_update(game, guild_id, rows)
    await storage.record_move(
        game_id,
        ply=ply,
        seat=0,
        notation="end",
        user_id=players[0],
        snapshot={"ply": ply},
        clock=Clock(),
        now=now,
        finish=Finish(outcome, rows, update),
    )


async def count(storage: Storage, table: str) -> int:
    return int(await storage.database.fetchval(f"SELECT COUNT(*) FROM {table}"))


def test_every_migration_has_both_dialects() -> None:
    """Each numbered migration exists for SQLite and PostgreSQL, under the same name: a
    migration added for one dialect must be written for the other before the suite passes."""
    sqlite = [(m.number, m.name) for m in migrations("sqlite")]
    postgres = [(m.number, m.name) for m in migrations("postgresql")]
    assert sqlite == postgres
    assert len({number for number, _ in sqlite}) == len(sqlite), "two migrations share a number"


async def test_migrations_apply_once(storage: Storage) -> None:
    assert await storage.migrate() == []
    applied = await storage.database.fetch("SELECT number FROM schema_migrations ORDER BY number")
    assert [row["number"] for row in applied] == [m.number for m in migrations(storage.dialect)]


async def test_a_game_round_trips(storage: Storage) -> None:
    game_id = await new_game(storage, started=False, variant="6x10")
    row = await storage.game(game_id)
    assert row is not None
    assert (row.game, row.guild_id, row.status, row.options, row.seed, row.deal) == (
        "tiny",
        GUILD,
        "lobby",
        {"hand": 3},
        7,
        None,
    )
    assert row.variant == "6x10" and row.created_at == NOW and row.started_at is None
    assert await storage.seats(game_id) == [SeatRow(0, 1, "p0"), SeatRow(1, 2, "p1")]
    assert await storage.game(game_id + 100) is None


async def test_one_active_game_per_channel(storage: Storage) -> None:
    await new_game(storage, started=False)
    with pytest.raises(ActiveGameExists):
        await new_game(storage, started=False)
    assert await count(storage, "games") == 1
    await new_game(storage, started=False, channel_id=11)


async def test_a_taken_seat_is_refused(storage: Storage) -> None:
    game_id = await new_game(storage, started=False)
    with pytest.raises(StaleMove):
        await storage.add_seat(game_id, SeatRow(1, 3, "late"))
    with pytest.raises(StaleMove):
        await storage.add_seat(game_id, SeatRow(2, 2, "twice"))
    assert len(await storage.seats(game_id)) == 2


async def test_start_only_from_the_lobby(storage: Storage) -> None:
    game_id = await new_game(storage)
    row = await storage.game(game_id)
    assert (
        row is not None and row.status == "playing" and row.deadline == NOW + 3600 and row.started_at == NOW
    )
    with pytest.raises(StaleMove):
        await storage.start_game(game_id, [SeatRow(0, 1, "p0")], {}, Clock(), NOW)
    assert len(await storage.seats(game_id)) == 2


async def test_moves_and_the_stale_check(storage: Storage) -> None:
    game_id = await new_game(storage)
    move: dict[str, Any] = {
        "seat": 0,
        "user_id": 1,
        "snapshot": {"ply": 1},
        "clock": Clock(NOW + 10),
        "now": NOW,
    }
    await storage.record_move(game_id, ply=1, notation="a", **move)
    with pytest.raises(StaleMove):
        await storage.record_move(game_id, ply=1, notation="b", **move)
    with pytest.raises(StaleMove):
        await storage.record_move(game_id, ply=3, notation="c", **move)
    await storage.record_move(game_id, ply=2, notation="d", **move)
    assert [(m.ply, m.notation) for m in await storage.moves(game_id)] == [(1, "a"), (2, "d")]
    row = await storage.game(game_id)
    assert row is not None and row.ply == 2 and row.snapshot == {"ply": 1} and row.deadline == NOW + 10


A_TRIP: dict[str, Any] = {"snapshot": {"ply": 9}, "clock": Clock(NOW + 20, NOW + 15), "now": NOW + 5}
"""The snapshot, clock and time of a trip of several lines in the tests below."""


async def test_a_move_and_its_forced_turns_are_one_trip(storage: Storage) -> None:
    """Several consecutive lines are stored together, with the snapshot and clock of the last;
    a trip that does not start where the game is stores none of its lines."""
    game_id = await new_game(storage)
    await storage.record_moves(game_id, [Line(1, 0, "a", 1), Line(2, 1, "pass"), Line(3, 0, "b")], **A_TRIP)
    stored = [(m.ply, m.seat, m.notation, m.user_id, m.created_at) for m in await storage.moves(game_id)]
    assert stored == [(1, 0, "a", 1, NOW + 5), (2, 1, "pass", None, NOW + 5), (3, 0, "b", None, NOW + 5)]
    row = await storage.game(game_id)
    assert row is not None and row.ply == 3 and row.snapshot == {"ply": 9}
    assert (row.deadline, row.reminder_at) == (NOW + 20, NOW + 15)
    for late in ([Line(3, 1, "c"), Line(4, 0, "d")], [Line(5, 1, "e"), Line(6, 0, "f")]):
        with pytest.raises(StaleMove):
            await storage.record_moves(game_id, late, **A_TRIP)
    assert await storage.count_rows("moves", game_id) == 3, "a stale trip stores none of its lines"
    with pytest.raises(ValueError):
        await storage.record_moves(game_id, [Line(4, 0, "g"), Line(6, 1, "h")], **A_TRIP)
    with pytest.raises(ValueError):
        await storage.record_moves(game_id, [], **A_TRIP)
    await storage.record_moves(game_id, [Line(4, 1, "i", 2)], **A_TRIP)
    assert await storage.count_rows("moves", game_id) == 4


async def test_a_trip_of_several_lines_can_end_the_game(storage: Storage) -> None:
    """The last line of a trip ends the game: the results and ratings are stored with it."""
    game_id = await new_game(storage)
    rows = results([2, 1], [1, 2])
    update = ratings.rating_update("tiny", GUILD, rows)
    outcome = {"ranks": [2, 1], "scores": [r.score for r in rows], "reason": "done"}
    lines = [Line(1, 0, "a", 1), Line(2, 1, "forced"), Line(3, 1, "end")]
    await storage.record_moves(
        game_id, lines, **{**A_TRIP, "clock": Clock()}, finish=Finish(outcome, rows, update)
    )
    row = await storage.game(game_id)
    assert row is not None and row.status == "finished" and row.ply == 3 and row.deadline is None
    assert await storage.count_rows("results", game_id) == 2
    assert await storage.count_rows("moves", game_id) == 3
    rated = await storage.database.fetch("SELECT user_id, rated_games FROM ratings WHERE scope_id = 0")
    assert sorted(tuple(r) for r in rated) == [(1, 1), (2, 1)]


async def test_racing_moves_from_two_connections(database_url: str) -> None:
    """Two storages (as two processes) store the same ply at once: exactly one lands."""
    first, second = await Storage.open(database_url), await Storage.open(database_url)
    try:
        game_id = await new_game(first)
        attempts = [
            storage.record_move(
                game_id,
                ply=1,
                seat=0,
                notation=notation,
                user_id=1,
                snapshot={},
                clock=Clock(),
                now=NOW,
            )
            for storage, notation in ((first, "a"), (second, "b"))
        ]
        outcomes = await asyncio.gather(*attempts, return_exceptions=True)
        assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StaleMove"]
        assert len(await first.moves(game_id)) == 1
    finally:
        await first.close()
        await second.close()


async def test_finishing_stores_results_and_ratings_in_one_commit(storage: Storage) -> None:
    game_id = await new_game(storage)
    await finish(storage, game_id, [1, 2])
    row = await storage.game(game_id)
    assert row is not None and row.status == "finished" and row.deadline is None and row.outcome is not None
    assert await storage.count_rows("results", game_id) == 2
    rated = await storage.database.fetch(
        "SELECT scope_id, user_id, rated_games, display FROM ratings ORDER BY scope_id, user_id"
    )
    assert [(r["scope_id"], r["user_id"], r["rated_games"]) for r in rated] == [
        (0, 1, 1),
        (0, 2, 1),
        (GUILD, 1, 1),
        (GUILD, 2, 1),
    ]
    assert rated[0]["display"] > rated[1]["display"]


async def test_a_failing_rating_leaves_the_game_unfinished(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await new_game(storage)

    def broken(self: ratings.RatingUpdate, current: object) -> list[ratings.Rating]:
        raise RuntimeError("no ratings today")

    monkeypatch.setattr(ratings.RatingUpdate, "apply", broken)
    with pytest.raises(RuntimeError):
        await finish(storage, game_id, [1, 2])
    row = await storage.game(game_id)
    assert row is not None and row.status == "playing" and row.ply == 0
    assert [await count(storage, table) for table in ("moves", "results", "ratings")] == [0, 0, 0]


async def test_unrated_games(storage: Storage) -> None:
    against_computer = await new_game(storage, (1, None))
    await finish(storage, against_computer, [1, 2], (1, None))
    solitaire = await new_game(storage, (3,), game="solo", channel_id=12)
    await finish(storage, solitaire, [1], (3,), game="solo")
    assert await count(storage, "ratings") == 0
    assert await count(storage, "results") == 3


async def test_ratings_of_games_finished_at_once_are_not_lost(database_url: str) -> None:
    """Two processes finish games of the same players at the same moment: both count."""
    first, second = await Storage.open(database_url), await Storage.open(database_url)
    try:
        games = [await new_game(first, channel_id=channel) for channel in (20, 21)]
        await asyncio.gather(finish(first, games[0], [1, 2]), finish(second, games[1], [2, 1]))
        rated = await first.database.fetch("SELECT rated_games FROM ratings")
        assert [row["rated_games"] for row in rated] == [2, 2, 2, 2]
    finally:
        await first.close()
        await second.close()


async def test_leaderboards_stats_and_history(storage: Storage) -> None:
    for channel, ranks in ((30, [1, 2]), (31, [1, 2]), (32, [2, 1]), (33, [1, 1])):
        game_id = await new_game(storage, channel_id=channel)
        await finish(storage, game_id, ranks, now=NOW + channel)
    elsewhere = await new_game(storage, (1, 3), guild_id=OTHER_GUILD, channel_id=40)
    await finish(storage, elsewhere, [2, 1], (1, 3), guild_id=OTHER_GUILD, now=NOW + 99)

    rows, total = await storage.leaderboard("tiny", GUILD, "wins")
    assert total == 2 and [(r.user_id, r.wins, r.games) for r in rows] == [(1, 2, 4), (2, 1, 4)]
    assert all(r.rating is not None for r in rows)
    rows, total = await storage.leaderboard("tiny", None, "games")
    assert total == 3 and [(r.user_id, r.games) for r in rows] == [(1, 5), (2, 4), (3, 1)]
    rows, total = await storage.leaderboard("tiny", None, "rating", limit=1, offset=1)
    assert total == 3 and len(rows) == 1

    stats = await storage.stats(1, "tiny", GUILD, lower_is_better=False)
    assert (stats.games, stats.wins, stats.draws, stats.forfeits, stats.rated_games) == (4, 2, 1, 0, 4)
    assert stats.best == 10 and stats.average == pytest.approx(7.5) and stats.streak == -2
    everywhere = await storage.stats(1, "tiny", None, lower_is_better=True)
    assert (everywhere.games, everywhere.best, everywhere.streak) == (5, 0, -3)
    assert everywhere.fastest_win == pytest.approx(30)
    assert await storage.stats(9, "tiny", None, lower_is_better=False) == type(stats)(
        0, 0, 0, 0, None, None, 0, None, 0
    )

    history = await storage.history(1, None, limit=3)
    assert [(h.guild_id, h.rank, h.players, h.won) for h in history] == [
        (OTHER_GUILD, 2, 2, False),
        (GUILD, 1, 2, False),
        (GUILD, 2, 2, False),
    ]
    assert len(await storage.history(1, GUILD)) == 4


async def test_solitaire_standings_group_by_variant_and_keep_help_apart(storage: Storage) -> None:
    plays = [
        (1, "6x10", False, 100),
        (1, "6x10", False, 50),
        (1, "5x12", False, 300),
        (2, "6x10", False, 20),
        (2, "5x12", True, 10),
        (3, "8x8-center", True, 5),
    ]
    for channel, (user, target, helped, seconds) in enumerate(plays, start=50):
        game_id = await new_game(storage, (user,), game="solo", channel_id=channel, variant=target)
        await finish(storage, game_id, [1], (user,), game="solo", now=NOW + seconds, helped=helped)

    solvers, total = await storage.solitaire_leaderboard("solo", GUILD)
    assert total == 2
    assert [(s.user_id, s.targets, s.solves, s.fastest, s.helped) for s in solvers] == [
        (1, 2, 3, 50, 0),
        (2, 1, 1, 20, 1),
    ]
    solved = await storage.solved_targets(2, "solo", None)
    assert [(s.target, s.solves, s.fastest, s.helped) for s in solved] == [
        ("5x12", 0, None, 1),
        ("6x10", 1, 20, 0),
    ]
    stats = await storage.stats(3, "solo", GUILD, lower_is_better=False)
    assert (stats.games, stats.wins, stats.helped, stats.fastest_win, stats.streak) == (1, 0, 1, None, -1)
    assert await storage.solitaire_leaderboard("solo", OTHER_GUILD) == ([], 0)


async def test_active_games_of_some_shards(storage: Storage) -> None:
    on_one = await new_game(storage, guild_id=GUILD, channel_id=60)
    on_zero = await new_game(storage, guild_id=OTHER_GUILD, channel_id=61)
    direct = await new_game(storage, guild_id=None, channel_id=62, started=False)
    done = await new_game(storage, guild_id=GUILD, channel_id=63)
    await finish(storage, done, [1, 2])
    assert [g.id for g in await storage.active_games()] == [on_one, on_zero, direct]
    assert [g.id for g in await storage.active_games(Shards(frozenset({0}), 2))] == [on_zero, direct]
    assert [g.id for g in await storage.active_games(Shards(frozenset({1}), 2))] == [on_one]
    assert [g.id for g in await storage.active_games(Shards.all(2))] == [on_one, on_zero, direct]


async def test_clock_message_abort_and_settings(storage: Storage) -> None:
    game_id = await new_game(storage)
    await storage.set_clock(game_id, Clock(5.0, None))
    await storage.set_message(game_id, 1 << 60)
    row = await storage.game(game_id)
    assert row is not None and (row.deadline, row.reminder_at, row.message_id) == (5.0, None, 1 << 60)
    assert await storage.abort(game_id, NOW) is True
    assert await storage.abort(game_id, NOW) is False
    assert await storage.active_games() == []
    assert await storage.dm_reminders(5) is False
    await storage.set_dm_reminders(5, True)
    assert await storage.dm_reminders(5) is True
    await storage.set_dm_reminders(5, False)
    assert await storage.dm_reminders(5) is False


STORED_BEFORE = [
    ("tileup", "playing", {"players": 2}, None),
    ("tileup", "lobby", {}, None),
    ("geronimos", "finished", {}, "most points"),
    ("geronimos", "playing", {"bonus": "choice"}, None),
    ("puzzosolo", "finished", {"target": "5x12"}, "solved 5x12 with 2 hints"),
    ("puzzosolo", "finished", {}, "solved 6x10"),
    ("tiny", "finished", {"hand": 3}, "done"),
]
"""Games as they were stored before the later migrations: (game, status, options, reason)."""


async def migrated(database_url: str, monkeypatch: pytest.MonkeyPatch, below: int) -> list[tuple[Any, ...]]:
    """:data:`STORED_BEFORE` stored under the migrations numbered below ``below``, then every
    migration applied: each game's ``(game, options, variant, helped)``."""
    every = engines.migrations
    monkeypatch.setattr(
        engines, "migrations", lambda dialect: [m for m in every(dialect) if m.number < below]
    )
    old = await Storage.open(database_url)
    for channel, (game, status, options, reason) in enumerate(STORED_BEFORE, start=70):
        async with old.database.transaction() as tx:
            outcome = json.dumps({"reason": reason}) if reason else None
            game_id = await tx.fetchval(
                "INSERT INTO games (game, channel_id, host_id, status, options, seed, outcome, created_at, "
                "updated_at) VALUES (?, ?, 1, ?, ?, 0, ?, 0, 0) RETURNING id",
                (game, channel, status, json.dumps(options), outcome),
            )
            if status == "finished":
                await tx.execute(
                    "INSERT INTO results (game_id, seat, user_id, game, rank, score, won, finished_at) "
                    "VALUES (?, 0, 1, ?, 1, 12, 1, 0)",
                    (game_id, game),
                )
    await old.close()
    monkeypatch.setattr(engines, "migrations", every)
    storage = await Storage.open(database_url)
    try:
        rows = await storage.database.fetch(
            "SELECT g.game, g.options, g.variant, r.helped FROM games g "
            "LEFT JOIN results r ON r.game_id = g.id ORDER BY g.id"
        )
        return [(row["game"], json.loads(row["options"]), row["variant"], row["helped"]) for row in rows]
    finally:
        await storage.close()


async def test_stored_games_get_variants_help_and_legacy_options(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Solitaire games stored before the variant column get their target; solves with hints
    (their outcome says so) are flagged as wins with help; games stored before a rule change
    keep the old rule."""
    assert await migrated(database_url, monkeypatch, below=4) == [
        ("tileup", {"players": 2, "idle_rounds": 3}, None, None),
        ("tileup", {}, None, None),
        ("geronimos", {"bonus": "compulsory"}, None, 0),
        ("geronimos", {"bonus": "choice"}, None, None),
        ("puzzosolo", {"target": "5x12"}, "5x12", 1),
        ("puzzosolo", {}, "6x10", 0),
        ("tiny", {"hand": 3}, None, 0),
    ]


async def test_both_dialects_migrate_alike(
    tmp_path: Path, postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every migration after the first has the same effect on SQLite and PostgreSQL (a ported
    migration that differs fails here)."""
    for below in range(2, max(m.number for m in migrations("sqlite")) + 1):
        sqlite = await migrated(str(tmp_path / f"below-{below}.db"), monkeypatch, below)
        postgres = await migrated(await postgres_server.new_database(), monkeypatch, below)
        assert sqlite == postgres, f"migrations from {below} on"


async def test_an_empty_database_holds_no_data(database_url: str) -> None:
    storage = await Storage.open(database_url, migrate=False)
    try:
        assert not await storage.database.holds_data()
        await storage.migrate()
        assert not await storage.database.holds_data()
        await new_game(storage, started=False)
        assert await storage.database.holds_data()
    finally:
        await storage.close()


# -- one trip per move -------------------------------------------------------------------------


def a_move(game_id: int, ply: int, notation: str = "m") -> dict[str, Any]:
    return {
        "game_id": game_id,
        "ply": ply,
        "seat": 0,
        "notation": notation,
        "user_id": 1,
        "snapshot": {"ply": ply},
        "clock": Clock(NOW + ply),
        "now": NOW,
    }


async def record(storage: Storage, move: dict[str, Any]) -> None:
    await storage.record_move(move["game_id"], **{k: v for k, v in move.items() if k != "game_id"})


async def queued_behind_the_writer(storage: Storage, writes: Sequence[Any]) -> list[Any]:
    """Run ``writes`` (coroutines) while the SQLite writer is held by another transaction, so
    that all of them are waiting when it is free again; their outcomes."""
    database = storage.database
    assert isinstance(database, engines.SqliteDatabase)
    async with database.transaction():
        tasks = [asyncio.ensure_future(write) for write in writes]
        for _ in range(5):  # every task reaches the writer's queue
            await asyncio.sleep(0)
    return await asyncio.gather(*tasks, return_exceptions=True)


async def test_moves_waiting_together_share_one_commit_and_a_stale_one_fails_alone(tmp_path: Path) -> None:
    storage = await Storage.open(str(tmp_path / "group.db"))
    try:
        games = [await new_game(storage, channel_id=100 + index) for index in range(6)]
        database = storage.database
        assert isinstance(database, engines.SqliteDatabase)
        before = database.commits
        moves = [a_move(game_id, 1) for game_id in games] + [a_move(games[0], 1, "late")]
        outcomes = await queued_behind_the_writer(storage, [record(storage, move) for move in moves])
        assert outcomes[:-1] == [None] * len(games)
        assert isinstance(outcomes[-1], StaleMove)
        assert database.commits == before + 1, "one commit for the seven moves"
        assert database.largest_group == len(moves)
        for game_id in games:
            assert [(m.ply, m.notation) for m in await storage.moves(game_id)] == [(1, "m")]
    finally:
        await storage.close()


async def test_a_group_takes_a_savepoint_for_each_job_only_when_one_of_them_fails(tmp_path: Path) -> None:
    """A group whose jobs all succeed runs their statements under one savepoint for the group
    (each statement costs a trip through the interpreter's lock); when one raises, the group
    runs again with a savepoint for each job, and the others are still committed together."""
    storage = await Storage.open(str(tmp_path / "savepoints.db"))
    try:
        games = [await new_game(storage, channel_id=200 + index) for index in range(4)]
        database = storage.database
        assert isinstance(database, engines.SqliteDatabase)
        statements: list[str] = []
        await database.on_writer(lambda connection: connection.set_trace_callback(statements.append))
        writer = database._writer
        outcomes = await queued_behind_the_writer(
            storage, [record(storage, a_move(game_id, 1)) for game_id in games]
        )
        assert outcomes == [None] * 4 and writer.reruns == 0
        assert [s.split()[0] for s in statements if s.split()[0] in ("SAVEPOINT", "RELEASE")] == ["SAVEPOINT"]
        statements.clear()
        moves = [a_move(game_id, 2) for game_id in games[:2]] + [a_move(games[2], 1, "stale")]
        moves.append(a_move(games[3], 2))
        outcomes = await queued_behind_the_writer(storage, [record(storage, move) for move in moves])
        assert outcomes[:2] == [None, None] and isinstance(outcomes[2], StaleMove) and outcomes[3] is None
        assert writer.reruns == 1
        assert statements.count("SAVEPOINT job") == 4, "one for each job in the rerun"
        for game_id in (games[0], games[1], games[3]):
            assert [m.ply for m in await storage.moves(game_id)] == [1, 2]
        assert [m.notation for m in await storage.moves(games[2])] == ["m"]
        await database.on_writer(lambda connection: connection.set_trace_callback(None))
    finally:
        await storage.close()


async def test_a_failing_last_move_in_a_group_changes_nothing_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move that raises in the middle of its transaction (here the rating) is rolled back to
    its own savepoint: the game stays unfinished, and the moves committed with it are stored."""
    storage = await Storage.open(str(tmp_path / "group.db"))
    try:
        ending, other = await new_game(storage), await new_game(storage, channel_id=11)

        def broken(self: ratings.RatingUpdate, current: object) -> list[ratings.Rating]:
            raise RuntimeError("no ratings today")

        monkeypatch.setattr(ratings.RatingUpdate, "apply", broken)
        outcomes = await queued_behind_the_writer(
            storage, [finish(storage, ending, [1, 2]), record(storage, a_move(other, 1))]
        )
        assert isinstance(outcomes[0], RuntimeError) and outcomes[1] is None
        row = await storage.game(ending)
        assert row is not None and row.status == "playing" and row.ply == 0
        assert await count(storage, "results") == 0 and await count(storage, "ratings") == 0
        assert len(await storage.moves(other)) == 1
    finally:
        await storage.close()


async def test_a_group_that_fails_as_a_whole_is_tried_again_one_by_one(tmp_path: Path) -> None:
    """A transaction that breaks the group itself (here it ends the shared transaction) fails,
    and every other transaction of its group is committed alone."""
    storage = await Storage.open(str(tmp_path / "group.db"))
    try:
        games = [await new_game(storage, channel_id=100 + index) for index in range(3)]

        async def breaks_the_group(tx: engines.Executor) -> None:
            await tx.execute("ROLLBACK")

        writes = [record(storage, a_move(games[0], 1)), storage.database.run(breaks_the_group)]
        writes += [record(storage, a_move(game_id, 1)) for game_id in games[1:]]
        outcomes = await queued_behind_the_writer(storage, writes)
        assert outcomes[0] is None and outcomes[2:] == [None, None]
        assert isinstance(outcomes[1], sqlite3.Error)
        for game_id in games:
            assert len(await storage.moves(game_id)) == 1
    finally:
        await storage.close()


async def test_reads_do_not_wait_for_the_writer(tmp_path: Path) -> None:
    """While a transaction holds SQLite's writer, reads are answered (by the readers) and see
    what was committed."""
    storage = await Storage.open(str(tmp_path / "reads.db"))
    try:
        game_id = await new_game(storage)
        async with storage.database.transaction() as tx:
            await tx.execute("UPDATE games SET ply = 5 WHERE id = ?", (game_id,))
            row = await asyncio.wait_for(storage.game(game_id), 60)  # a hang would be a bug
            assert row is not None and row.ply == 0, "only committed writes are seen"
        row = await storage.game(game_id)
        assert row is not None and row.ply == 5
    finally:
        await storage.close()


async def test_a_move_is_one_statement_on_postgresql(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move is one call of the server-side function (one round trip, its own transaction); the
    last move of a rated game reads the players' ratings first, then makes that one call."""
    storage = await Storage.open(postgres_url)
    try:
        game_id = await new_game(storage)
        sent: list[str] = []
        for name in ("execute", "executemany", "fetch", "fetchrow", "fetchval"):
            original = getattr(asyncpg.connection.Connection, name)

            async def counted(self: Any, query: str, *args: Any, __sent: Any = original, **kw: Any) -> Any:
                sent.append(" ".join(query.split()[:2]))
                return await __sent(self, query, *args, **kw)

            monkeypatch.setattr(asyncpg.connection.Connection, name, counted)
        await record(storage, a_move(game_id, 1))
        assert sent == ["SELECT tilehost_record_moves($1,"]
        sent.clear()
        with pytest.raises(StaleMove):
            await record(storage, a_move(game_id, 1))
        assert sent == ["SELECT tilehost_record_moves($1,"]
        sent.clear()
        await storage.record_moves(game_id, [Line(2, 1, "x", 2), Line(3, 0, "forced")], **A_TRIP)
        assert sent == ["SELECT tilehost_record_moves($1,"], "a move and its forced turns: one call"
        sent.clear()
        await finish(storage, game_id, [1, 2], ply=4)
        assert sent == ["SELECT scope_id,", "SELECT tilehost_record_moves($1,"]
    finally:
        monkeypatch.undo()
        await storage.close()
    rated = await Storage.open(postgres_url)
    try:
        rows = await rated.database.fetch("SELECT scope_id, user_id, rated_games FROM ratings ORDER BY 1, 2")
        assert [tuple(row) for row in rows] == [(0, 1, 1), (0, 2, 1), (GUILD, 1, 1), (GUILD, 2, 1)]
    finally:
        await rated.close()
