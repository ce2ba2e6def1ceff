"""The session service on a temporary database (SQLite and PostgreSQL), with the test-only Tiny
Tiles game."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot import errors, workers
from bot.sessions import SessionService, Status, Update, UpdateKind, restore
from bot.sessions.session import restore_key
from bot.storage import Clock, Storage
from games import registry
from games.errors import IllegalMoveError, InvalidMoveError
from tests.bot.fakes import FakeTime
from tests.support import tiny

registry.register(tiny.GAME)
CHANNEL = 500

Service = tuple[SessionService, FakeTime, list[Update]]


@pytest.fixture
async def service(database_url: str) -> AsyncIterator[Service]:
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
            await svc.add_computer(session, 1)
    else:
        await svc.join(session, 2, "ben")
    await svc.start(session, 1)
    return session.id


def live(svc: SessionService, game_id: int):  # type: ignore[no-untyped-def]
    session = svc.get(game_id)
    assert session is not None
    return session


def user_to_act(svc: SessionService, game_id: int) -> int:
    seat = live(svc, game_id).seat_to_act()
    assert seat is not None and seat.user_id is not None
    return seat.user_id


def user_to_act_or_none(svc: SessionService, game_id: int) -> int | None:
    session = svc.get(game_id)
    seat = session.seat_to_act() if session is not None else None
    return seat.user_id if seat is not None else None


async def until(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    """Wait (in real time: computers think in worker processes) until ``condition`` holds."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


async def test_lobby_rules(service: Service) -> None:
    svc, _, _ = service
    session = await svc.create("tiny", guild_id=1, channel_id=CHANNEL, user_id=1, name="ann")
    with pytest.raises(errors.GameExists):
        await svc.create("tiny", guild_id=1, channel_id=CHANNEL, user_id=2, name="ben")
    with pytest.raises(errors.NotStarted):
        await svc.start(session, 1)
    with pytest.raises(errors.AlreadySeated):
        await svc.join(session, 1, "ann")
    await svc.join(session, 2, "ben")
    await svc.join(session, 3, "cy")
    with pytest.raises(errors.GameFull):
        await svc.join(session, 4, "di")
    with pytest.raises(errors.NotHost):
        await svc.start(session, 2)
    with pytest.raises(errors.NotStarted):
        await svc.play(session, 1, "draw")
    assert svc.lobby_in(CHANNEL, "tiny") is session
    assert svc.table(CHANNEL, ("tiny",), 3) is session


async def test_lobby_actions_racing_start_never_corrupt_the_game(service: Service) -> None:
    """Joins, computers and a second start sent together with the host's start: the game starts
    with exactly the seats it had when its start took the lock, and is stored that way."""
    svc, _, _ = service
    session = await svc.create("tiny", guild_id=1, channel_id=CHANNEL, user_id=1, name="ann")
    await svc.join(session, 2, "ben")
    results = await asyncio.gather(
        svc.start(session, 1),
        svc.join(session, 3, "cy"),
        svc.add_computer(session, 1),
        svc.start(session, 1),
        svc.leave(session, 2),
        return_exceptions=True,
    )
    assert isinstance(results[0], Update)
    assert all(isinstance(r, errors.AlreadyStarted) for r in results[1:]), results
    assert session.status is Status.PLAYING
    players = tiny.GAME.players(session.state)
    assert players == len(session.seats) == len(await svc.storage.seats(session.id)) == 2


async def test_bad_moves_store_nothing(service: Service) -> None:
    svc, _, _ = service
    game_id = await started(svc)
    session = live(svc, game_id)
    mover = user_to_act(svc, game_id)
    other = 3 - mover
    with pytest.raises(InvalidMoveError):
        await svc.play(session, mover, "banana")
    with pytest.raises(IllegalMoveError):
        await svc.play(session, mover, "9")
    with pytest.raises(errors.NotYourTurn):
        await svc.play(session, other, "draw")
    with pytest.raises(errors.NotSeated):
        await svc.play(session, 99, "draw")
    assert await svc.storage.count_rows("moves", game_id) == 0
    row = await svc.storage.game(game_id)
    assert row is not None and row.ply == 0


async def test_concurrent_moves_only_one_lands(service: Service) -> None:
    svc, _, _ = service
    game_id = await started(svc)
    session = live(svc, game_id)
    mover = user_to_act(svc, game_id)
    results = await asyncio.gather(
        svc.play(session, mover, "draw"), svc.play(session, mover, "draw"), return_exceptions=True
    )
    assert sum(isinstance(r, Update) for r in results) == 1
    assert any(isinstance(r, errors.NotYourTurn) for r in results)
    assert await svc.storage.count_rows("moves", game_id) == 1


async def test_stale_action_refused(service: Service) -> None:
    svc, _, _ = service
    game_id = await started(svc)
    with pytest.raises(errors.StaleAction):
        await svc.play(live(svc, game_id), user_to_act(svc, game_id), "draw", expected_ply=5)


async def test_repeated_resignation_is_refused(service: Service) -> None:
    svc, _, _ = service
    session = await svc.create("tiny", guild_id=1, channel_id=CHANNEL, user_id=1, name="ann")
    await svc.join(session, 2, "ben")
    await svc.join(session, 3, "cy")
    await svc.start(session, 1)
    await svc.resign(session, 3)
    with pytest.raises(IllegalMoveError):
        await svc.resign(session, 3)
    assert await svc.storage.count_rows("moves", session.id) == 1


async def test_storage_failure_leaves_game_unchanged(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc, _, updates = service
    game_id = await started(svc)
    session = live(svc, game_id)
    before, announced = session.state, len(updates)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(svc.storage, "record_moves", broken)
    with pytest.raises(RuntimeError):
        await svc.play(session, user_to_act(svc, game_id), "draw")
    assert session.state is before and session.ply == 0
    assert len(updates) == announced, "nothing is announced that was not stored"


async def test_every_change_is_announced_once(service: Service) -> None:
    svc, _, updates = service
    game_id = await started(svc)
    session = live(svc, game_id)
    assert [u.kind for u in updates] == [UpdateKind.STARTED]
    update = await svc.play(session, user_to_act(svc, game_id), "draw")
    assert updates[-1] is update and update.kind is UpdateKind.MOVES
    assert update.turn_passed and [step.line for step in update.steps] == ["draw"]


async def test_timeout_forfeits_and_finishes(service: Service) -> None:
    svc, time, updates = service
    game_id = await started(svc)
    await time.settle()
    await time.advance(3600 * 0.9)
    assert [u.kind for u in updates] == [UpdateKind.STARTED, UpdateKind.REMINDER]
    await time.advance(3600 * 0.2)
    assert [u.kind for u in updates] == [UpdateKind.STARTED, UpdateKind.REMINDER, UpdateKind.MOVES]
    row = await svc.storage.game(game_id)
    assert row is not None and row.status == "finished"
    moves = await svc.storage.moves(game_id)
    assert [m.notation for m in moves] == ["!timeout"]


async def test_a_failed_write_at_the_deadline_is_tried_again(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full or read-only database at the deadline: the timeout is retried until it is stored,
    so the player to act cannot stall the game."""
    svc, time, _ = service
    game_id = await started(svc)
    real = svc.storage.record_moves
    failures = [3]

    async def flaky(*args: object, **kwargs: object) -> None:
        if failures[0]:
            failures[0] -= 1
            raise RuntimeError("database is locked")
        await real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(svc.storage, "record_moves", flaky)
    await time.settle()
    await time.advance(3600 + 1)
    row = await svc.storage.game(game_id)
    assert row is not None and row.status == "playing"
    await time.advance(200)
    row = await svc.storage.game(game_id)
    assert row is not None and row.status == "finished" and failures == [0]


async def test_computers_play_to_the_end_from_the_service(service: Service) -> None:
    """After a person's move the service itself lets the computers answer; nobody has to
    remember to."""
    svc, _time, updates = service
    game_id = await started(svc, computers=1)
    session = live(svc, game_id)
    for _ in range(200):
        await until(lambda: session.status is not Status.PLAYING or user_to_act_or_none(svc, game_id) == 1)
        if session.status is not Status.PLAYING:
            break
        choice = (await svc.suggestions(session, 1, ""))[0][1]
        await svc.play(session, 1, choice)
    row = await svc.storage.game(game_id)
    assert row is not None and row.status == "finished"
    assert any(step.by_computer for u in updates for step in u.steps)


async def test_suggestions_belong_to_the_state_they_were_made_for(service: Service) -> None:
    svc, _, _ = service
    game_id = await started(svc)
    session = live(svc, game_id)
    mover = user_to_act(svc, game_id)
    first = await svc.suggestions(session, mover, "")
    assert first and await svc.suggestions(session, 3 - mover, "") == []
    await svc.play(session, mover, first[0][1])
    assert await svc.suggestions(session, mover, "") == []
    assert await svc.suggestions(session, 3 - mover, "") != first or True
    assert session._suggested is None or session._suggested[0] is session.state


async def test_restore_replays_every_game(database_url: str) -> None:
    storage = await Storage.open(database_url)
    time = FakeTime()
    svc = SessionService(storage, now=time.now, sleep=time.sleep, seed_source=lambda: 42)
    game_id = await started(svc)
    for _ in range(3):
        session = live(svc, game_id)
        mover = user_to_act(svc, game_id)
        await svc.play(session, mover, (await svc.suggestions(session, mover, ""))[0][1])
    state = live(svc, game_id).state
    await svc.close()
    again = SessionService(storage, now=time.now, sleep=time.sleep)
    restored = await again.restore()
    assert [s.id for s in restored] == [game_id]
    assert again.clock.pending()[game_id][0] is not None
    await again.ready(restored[0])
    assert restored[0].state == state and restored[0].ply == 3
    await again.close()
    await storage.close()


async def test_after_a_restart_a_command_loads_its_own_game_ahead_of_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twelve stored games; the background lane loads them one at a time (here held at its
    first), and a move in the last of them is played at once: its game is replayed on demand,
    ahead of the others, and no other replay is queued meanwhile."""
    storage = await Storage.open(str(tmp_path / "restart.db"))
    time = FakeTime()
    seeds = iter(range(100, 200))
    first = SessionService(storage, now=time.now, sleep=time.sleep, seed_source=lambda: next(seeds))
    games = []
    for channel in range(600, 612):
        session = await first.create("tiny", guild_id=1, channel_id=channel, user_id=1, name="ann")
        await first.join(session, 2, "ben")
        await first.start(session, 1)
        games.append((session.id, session.row.seed))
    await first.close()

    held, running, most = asyncio.Event(), [0], [0]
    target, target_seed = games[-1]
    replay = workers.run
    kinds: dict[int, tuple[workers.Kind, Any]] = {}

    async def gated(fn: Any, *args: Any, **kwargs: Any) -> Any:
        if fn is workers.replay_final:
            kinds[args[1].seed] = (kwargs["kind"], kwargs.get("key"))
        if fn is workers.replay_final and args[1].seed != target_seed:
            running[0] += 1
            most[0] = max(most[0], running[0])
            await held.wait()
            running[0] -= 1
        return await replay(fn, *args, **kwargs)

    monkeypatch.setattr(workers, "run", gated)
    again = SessionService(storage, now=time.now, sleep=time.sleep)
    restored = await again.restore()
    for _ in range(10):
        await asyncio.sleep(0)  # the background lane starts (and is held)
    session = live(again, target)
    await again.ready(session)
    mover = user_to_act(again, target)
    await again.play(session, mover, "draw")
    assert session.ply == 1
    assert most[0] == restore.BACKGROUND_LOADS, "the background lane replays one game at a time"
    assert sum(each.state is None for each in restored) == len(games) - 1, "only the command's game"
    assert kinds[target_seed] == (workers.LOAD, None), "a game someone waits for is an urgent load"
    background = [kinds[seed] for game_id, seed in games if seed in kinds and game_id != target]
    assert background == [(workers.RESTORE, restore_key(restored[0].id))], "background work, promotable"
    held.set()
    await asyncio.gather(*(again.ready(each) for each in restored))
    assert all(each.state is not None and each.loading is None for each in restored)
    await again.close()
    await storage.close()


async def test_autocomplete_loads_a_restored_game(database_url: str) -> None:
    storage = await Storage.open(database_url)
    time = FakeTime()
    first = SessionService(storage, now=time.now, sleep=time.sleep, seed_source=lambda: 42)
    game_id = await started(first)
    await first.close()
    again = SessionService(storage, now=time.now, sleep=time.sleep)
    await again.restore()
    session = live(again, game_id)
    assert await again.suggestions(session, 1, "") or await again.suggestions(session, 2, "")
    assert session.loading is None
    await again.close()
    await storage.close()


async def test_a_burst_of_moves_lets_the_loop_turn_between_their_rules_work(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moves at eight tables arriving at once: each one's rules work (reading the move,
    applying it) runs in a turn of the event loop of its own, with the loop's other work
    (a ticker here; committed moves, boards, the heartbeat in the bot) between them."""
    svc, _, _ = service
    ids = []
    for index in range(8):
        session = await svc.create("tiny", guild_id=1, channel_id=CHANNEL + 1 + index, user_id=1, name="ann")
        await svc.join(session, 2, "ben")
        await svc.start(session, 1)
        ids.append(session.id)
    game = live(svc, ids[0]).game
    order: list[str] = []
    parse = game.parse_move

    def parse_noted(state: Any, text: str) -> Any:
        order.append("move")
        return parse(state, text)

    monkeypatch.setattr(game, "parse_move", parse_noted)
    loop = asyncio.get_running_loop()
    ticking = True

    def tick() -> None:
        order.append("tick")
        if ticking:
            loop.call_soon(tick)

    loop.call_soon(tick)
    plays = [svc.play(live(svc, game_id), user_to_act(svc, game_id), "draw") for game_id in ids]
    results = await asyncio.gather(*plays)
    ticking = False
    assert all(isinstance(result, Update) for result in results)
    moves = [index for index, entry in enumerate(order) if entry == "move"]
    assert len(moves) == 8
    assert all(later - earlier > 1 for earlier, later in itertools.pairwise(moves)), order


def force_two_draws_after_a_draw(game: Any, monkeypatch: pytest.MonkeyPatch, deck: int) -> None:
    """Tiny Tiles with forced turns: after a draw from a deck of ``deck`` tiles, the next two
    seats must draw too (the deck's size says how many were drawn)."""

    def forced(state: Any) -> Any:
        if state.last_move == "draw" and deck - 3 < state.deck_size:
            return game.parse_move(state, "draw")
        return None

    monkeypatch.setattr(game, "forced_move", forced)


async def test_a_move_and_the_forced_turns_after_it_are_one_trip(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person's move and the two forced turns it leads to are worked out first (each from the
    position the one before left), then stored in one call (one commit on SQLite), then
    announced in one update."""
    svc, _, updates = service
    game_id = await started(svc)
    session = live(svc, game_id)
    force_two_draws_after_a_draw(session.game, monkeypatch, session.state.deck_size)
    trips: list[list[str]] = []
    real = svc.storage.record_moves

    async def counted(game: int, lines: Any, **kwargs: Any) -> None:
        trips.append([line.notation for line in lines])
        await real(game, lines, **kwargs)

    monkeypatch.setattr(svc.storage, "record_moves", counted)
    database = svc.storage.database
    commits = getattr(database, "commits", None)
    mover = user_to_act(svc, game_id)
    update = await svc.play(session, mover, "draw")
    assert trips == [["draw", "draw", "draw"]]
    if commits is not None:
        assert getattr(database, "commits", None) == commits + 1
    assert [(step.line, step.forced) for step in update.steps] == [
        ("draw", False),
        ("draw", True),
        ("draw", True),
    ]
    assert updates[-1] is update and session.ply == 3
    stored = await svc.storage.moves(game_id)
    assert [(m.ply, m.notation, m.user_id) for m in stored] == [
        (1, "draw", mover),
        (2, "draw", None),
        (3, "draw", None),
    ]
    row = await svc.storage.game(game_id)
    assert row is not None and row.ply == 3 and row.snapshot == session.snapshot()
    assert row.deadline == session.deadline


async def test_a_forced_turn_that_cannot_be_worked_out_never_loses_the_move(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When working out a forced turn fails after a person's move, the move is still stored and
    announced (the failure is logged; the forced turn is played when the game resumes)."""
    svc, _, updates = service
    game_id = await started(svc)
    session = live(svc, game_id)
    deck = session.state.deck_size
    calls = [0]

    def broken(state: Any) -> Any:
        if state.last_move == "draw" and deck - 3 < state.deck_size:
            calls[0] += 1
            if calls[0] == 2:
                raise RuntimeError("a bug in the rules")
            return session.game.parse_move(state, "draw")
        return None

    monkeypatch.setattr(session.game, "forced_move", broken)
    update = await svc.play(session, user_to_act(svc, game_id), "draw")
    assert [step.line for step in update.steps] == ["draw", "draw"]
    assert updates[-1] is update
    assert [m.notation for m in await svc.storage.moves(game_id)] == ["draw", "draw"]


async def test_a_stale_trip_stores_none_of_its_forced_turns(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process moved the game on meanwhile: the move and its forced turns are refused
    together and the game is read back as stored."""
    svc, _, _ = service
    game_id = await started(svc)
    session = live(svc, game_id)
    force_two_draws_after_a_draw(session.game, monkeypatch, session.state.deck_size)
    mover = user_to_act(svc, game_id)
    seat = session.to_act()
    assert seat is not None
    await svc.storage.record_move(  # as another bot process would
        game_id, ply=1, seat=seat, notation="draw", user_id=mover, snapshot={}, clock=Clock(), now=0.0
    )
    with pytest.raises(errors.StaleAction):
        await svc.play(session, mover, "draw")
    assert [m.notation for m in await svc.storage.moves(game_id)] == ["draw"]
    assert session.ply == 1 and session.lines[0].text == "draw", "read back as stored"
