"""The session service on a temporary database (SQLite and PostgreSQL), with the test-only Tiny
Tiles game."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot import errors
from bot.sessions import SessionService, Update
from bot.storage import Storage
from games import registry
from games.errors import IllegalMoveError, InvalidMoveError
from tests.bot.fakes import FakeTime
from tests.support import tinygame

registry.register(tinygame.GAME)
CHANNEL = 500


@pytest.fixture
async def service(database_url: str) -> AsyncIterator[tuple[SessionService, FakeTime, list[Update]]]:
    storage = await Storage.open(database_url)
    time = FakeTime()
    seeds = iter(range(100, 200))
    svc = SessionService(
        storage, now=time.now, sleep=time.sleep, default_turn_seconds=3600, seed_source=lambda: next(seeds)
    )
    updates: list[Update] = []

    async def listen(update: Update) -> None:
        updates.append(update)

    svc.subscribe(listen)
    yield svc, time, updates
    await svc.close()
    await storage.close()


async def started(svc: SessionService, computers: int = 0) -> int:
    session = await svc.create("tiny", guild_id=1, channel_id=CHANNEL, user_id=1, name="ann")
    if computers:
        for _ in range(computers):
            await svc.add_computer(CHANNEL, "tiny", 1)
    else:
        await svc.join(CHANNEL, "tiny", 2, "ben")
    await svc.start(CHANNEL, "tiny", 1)
    return session.id


def user_to_act(svc: SessionService, game_id: int) -> int:
    session = svc.get(game_id)
    assert session is not None
    seat = session.seat_to_act()
    assert seat is not None and seat.user_id is not None
    return seat.user_id


async def test_lobby_rules(service: tuple[SessionService, FakeTime, list[Update]]) -> None:
    svc, _, _ = service
    await svc.create("tiny", guild_id=1, channel_id=CHANNEL, user_id=1, name="ann")
    with pytest.raises(errors.GameExists):
        await svc.create("tiny", guild_id=1, channel_id=CHANNEL, user_id=2, name="ben")
    with pytest.raises(errors.NotStarted):
        await svc.start(CHANNEL, "tiny", 1)
    with pytest.raises(errors.AlreadySeated):
        await svc.join(CHANNEL, "tiny", 1, "ann")
    await svc.join(CHANNEL, "tiny", 2, "ben")
    await svc.join(CHANNEL, "tiny", 3, "cy")
    with pytest.raises(errors.GameFull):
        await svc.join(CHANNEL, "tiny", 4, "di")
    with pytest.raises(errors.NotHost):
        await svc.start(CHANNEL, "tiny", 2)
    with pytest.raises(errors.NotStarted):
        await svc.play(CHANNEL, "tiny", 1, "draw")


async def test_bad_moves_store_nothing(service: tuple[SessionService, FakeTime, list[Update]]) -> None:
    svc, _, _ = service
    game_id = await started(svc)
    mover = user_to_act(svc, game_id)
    other = 3 - mover
    with pytest.raises(InvalidMoveError):
        await svc.play(CHANNEL, "tiny", mover, "banana")
    with pytest.raises(IllegalMoveError):
        await svc.play(CHANNEL, "tiny", mover, "9")
    with pytest.raises(errors.NotYourTurn):
        await svc.play(CHANNEL, "tiny", other, "draw")
    with pytest.raises(errors.NotSeated):
        await svc.play(CHANNEL, "tiny", 99, "draw")
    assert await svc.storage.count_rows("moves", game_id) == 0
    row = await svc.storage.game(game_id)
    assert row is not None and row.ply == 0


async def test_concurrent_moves_only_one_lands(
    service: tuple[SessionService, FakeTime, list[Update]],
) -> None:
    svc, _, _ = service
    game_id = await started(svc)
    mover = user_to_act(svc, game_id)
    results = await asyncio.gather(
        svc.play(CHANNEL, "tiny", mover, "draw"),
        svc.play(CHANNEL, "tiny", mover, "draw"),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Update) for r in results) == 1
    assert any(isinstance(r, errors.NotYourTurn) for r in results)
    assert await svc.storage.count_rows("moves", game_id) == 1


async def test_stale_action_refused(service: tuple[SessionService, FakeTime, list[Update]]) -> None:
    svc, _, _ = service
    game_id = await started(svc)
    with pytest.raises(errors.StaleAction):
        await svc.play(CHANNEL, "tiny", user_to_act(svc, game_id), "draw", expected_ply=5)


async def test_storage_failure_leaves_game_unchanged(
    service: tuple[SessionService, FakeTime, list[Update]], monkeypatch: pytest.MonkeyPatch
) -> None:
    svc, _, _ = service
    game_id = await started(svc)
    session = svc.get(game_id)
    assert session is not None
    before = session.state

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(svc.storage, "record_move", broken)
    with pytest.raises(RuntimeError):
        await svc.play(CHANNEL, "tiny", user_to_act(svc, game_id), "draw")
    assert session.state is before and session.ply == 0


async def test_timeout_forfeits_and_finishes(service: tuple[SessionService, FakeTime, list[Update]]) -> None:
    svc, time, updates = service
    game_id = await started(svc)
    await time.settle()
    await time.advance(3600 * 0.9)
    assert [u.kind for u in updates] == ["reminder"]
    await time.advance(3600 * 0.2)
    assert [u.kind for u in updates] == ["reminder", "timeout"]
    row = await svc.storage.game(game_id)
    assert row is not None and row.status == "finished"
    moves = await svc.storage.moves(game_id)
    assert [m.notation for m in moves] == ["!timeout"]


async def test_computers_play_to_the_end(service: tuple[SessionService, FakeTime, list[Update]]) -> None:
    svc, time, updates = service
    game_id = await started(svc, computers=1)
    session = svc.get(game_id) or (await svc.storage.game(game_id))
    for _ in range(100):
        row = await svc.storage.game(game_id)
        assert row is not None
        if row.status == "finished":
            break
        seat = svc.get(game_id)
        if seat is not None and seat.seat_to_act() is not None and seat.seat_to_act().user_id == 1:  # type: ignore[union-attr]
            live = svc.get(game_id)
            assert live is not None
            choice = svc.suggestions(live, 1, "")[0][1]
            await svc.play(CHANNEL, "tiny", 1, choice)
        svc.continue_game(svc.get(game_id)) if svc.get(game_id) else None  # type: ignore[arg-type]
        await time.settle()
    assert row.status == "finished"
    assert any(u.by_computer for u in updates)
    assert session is not None


async def test_restore_replays_every_game(database_url: str) -> None:
    storage = await Storage.open(database_url)
    time = FakeTime()
    svc = SessionService(storage, now=time.now, sleep=time.sleep, seed_source=lambda: 42)
    game_id = await started(svc)
    for _ in range(3):
        session = svc.get(game_id)
        assert session is not None
        await svc.play(
            CHANNEL,
            "tiny",
            user_to_act(svc, game_id),
            svc.suggestions(session, user_to_act(svc, game_id), "")[0][1],
        )
    state = svc.get(game_id).state  # type: ignore[union-attr]
    await svc.close()
    again = SessionService(storage, now=time.now, sleep=time.sleep)
    restored = await again.restore()
    assert [s.id for s in restored] == [game_id]
    assert restored[0].state == state
    assert again.clock.pending()[game_id][0] is not None
    await again.close()
    await storage.close()
