"""The live tables' index by place: a command's game is found without looking at every live
game, and the index follows games as they open, end, are restored or move thread or channel."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from bot.sessions import SessionService
from bot.sessions.lookup import Tables
from bot.sessions.session import Session
from bot.status import Status
from bot.storage import GameRow, Storage
from games import registry
from tests.bot.fakes import FakeTime
from tests.support import tiny

registry.register(tiny.GAME)


def a_row(game_id: int, channel_id: int, thread_id: int | None = None) -> GameRow:
    return GameRow(
        id=game_id,
        game="tiny",
        guild_id=1,
        channel_id=channel_id,
        host_id=1,
        status=Status.PLAYING,
        options={},
        seed=1,
        deal=None,
        turn_seconds=60,
        ply=0,
        snapshot=None,
        deadline=None,
        reminder_at=None,
        outcome=None,
        message_id=None,
        created_at=0.0,
        updated_at=0.0,
        finished_at=None,
        thread_id=thread_id,
    )


def scanned(sessions: list[Session], channel_id: int) -> list[int]:
    """The games of a place as a look at every live game finds them (what the index replaces)."""
    return sorted(s.id for s in sessions if channel_id in (s.row.channel_id, s.row.thread_id))


def test_the_index_follows_games_that_open_move_and_end() -> None:
    tables = Tables()
    first = Session(a_row(1, 100), tiny.GAME, [])
    second = Session(a_row(2, 100), tiny.GAME, [])
    tables.add(first)
    tables.add(second)
    assert [s.id for s in tables.in_channel(100)] == [1, 2]
    first.row = replace(first.row, thread_id=500)  # the game got its thread
    assert [s.id for s in tables.in_channel(500)] == [1]
    assert [s.id for s in tables.in_channel(100)] == [1, 2], "a thread's game is its channel's too"
    first.row = replace(first.row, thread_id=501, room_id=None)  # a new thread: the old one lost
    assert tables.in_channel(500) == [] and [s.id for s in tables.in_channel(501)] == [1]
    first.row = replace(first.row, status=Status.FINISHED)  # not a move: nothing refiled
    tables.drop(first)
    assert tables.in_channel(501) == [] and [s.id for s in tables.in_channel(100)] == [2]
    first.row = replace(first.row, thread_id=502)  # a dropped session is not followed any more
    assert tables.in_channel(502) == []
    copy = Session(second.row, tiny.GAME, [])  # a restore or reload files the new session instead
    tables.add(copy)
    second.row = replace(second.row, thread_id=503)
    assert tables.in_channel(503) == [] and tables.in_channel(100) == [copy]
    tables.drop(second)  # not the live one: nothing happens
    assert tables.in_channel(100) == [copy] and tables.get(2) is copy
    assert tables.in_channel(100, ("triominos",)) == []


def test_the_index_answers_as_a_scan_of_every_game_would() -> None:
    """Random opens, moves to threads and channels, and ends: every place's games are the ones a
    look at every live game finds."""
    rng = random.Random(21)
    tables = Tables()
    live: dict[int, Session] = {}
    for step in range(2_000):
        action = rng.random()
        if action < 0.3 or not live:
            session = Session(a_row(step, rng.randrange(10)), tiny.GAME, [])
            tables.add(session)
            live[session.id] = session
        elif action < 0.7:
            session = rng.choice(list(live.values()))
            thread = rng.choice([None, *range(20, 30)])
            session.row = replace(session.row, thread_id=thread, channel_id=rng.randrange(10))
        else:
            session = live.pop(rng.choice(list(live)))
            tables.drop(session)
        place = rng.randrange(30)
        assert sorted(s.id for s in tables.in_channel(place)) == scanned(list(live.values()), place)
    for place in range(30):
        assert sorted(s.id for s in tables.in_channel(place)) == scanned(list(live.values()), place)


async def test_the_service_finds_games_by_their_thread_after_moves_and_a_restart(tmp_path: Path) -> None:
    """Through the service: a game that gets its thread is found there, one that ends is gone
    from its places, and after a restart the restored games are found where they play."""
    database = str(tmp_path / "lookup.db")
    storage = await Storage.open(database)
    time = FakeTime()
    seeds = iter(range(100, 200))
    svc = SessionService(storage, now=time.now, sleep=time.sleep, seed_source=lambda: next(seeds))
    try:
        playing = await svc.create("tiny", guild_id=1, channel_id=300, user_id=1, name="ann")
        await svc.join(playing, 2, "ben")
        await svc.start(playing, 1)
        await svc.set_thread(playing, 700)
        ended = await svc.create("tiny", guild_id=1, channel_id=301, user_id=3, name="cy")
        assert svc.table(700, ("tiny",), 2) is playing
        assert svc.table(300, ("tiny",), 1) is playing
        assert svc.in_channel(301) == [ended]
        await svc.abort(ended, 3)
        assert svc.in_channel(301) == []
    finally:
        await svc.close()
        await storage.close()
    storage = await Storage.open(database)
    again = SessionService(storage, now=time.now, sleep=time.sleep, seed_source=lambda: next(seeds))
    try:
        await again.restore()
        restored = again.table(700, ("tiny",), 2)
        assert restored.id == playing.id and restored is again.get(playing.id)
        await again.set_thread(restored, 701)  # its thread went away: a new one
        assert again.in_channel(700) == [] and again.table(701, ("tiny",), 1) is restored
    finally:
        await again.close()
        await storage.close()
