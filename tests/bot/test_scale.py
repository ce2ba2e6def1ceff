"""Two session services on one PostgreSQL database, as two bot processes on two machines would
run: moves race in the database, and each service drives only the games of its own shards."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest

from bot import errors
from bot.sessions import Session, SessionService, Update
from bot.shards import Shards
from bot.storage import Storage
from games import registry
from tests.bot.fakes import FakeTime
from tests.bot.test_sessions import user_to_act
from tests.support import tiny

registry.register(tiny.GAME)
SHARD_ZERO = (0 << 22, 2 << 22)  # guilds on shard 0 of 2
SHARD_ONE = (1 << 22, 3 << 22)  # guilds on shard 1 of 2

Factory = Callable[..., SessionService]


@pytest.fixture
async def processes(postgres_url: str) -> AsyncIterator[tuple[Factory, FakeTime]]:
    """Make session services, each with its own storage (its own connections) on one database
    and one controlled clock; all are closed at the end."""
    time = FakeTime()
    made: list[SessionService] = []
    seeds = iter(range(300, 400))

    async def make(shards: Shards | None = None) -> SessionService:
        storage = await Storage.open(postgres_url)
        service = SessionService(
            storage,
            now=time.now,
            sleep=time.sleep,
            default_turn_seconds=3600,
            seed_source=lambda: next(seeds),
            shards=shards,
        )
        made.append(service)
        return service

    yield make, time  # type: ignore[misc]
    for service in made:
        await service.close()
        await service.storage.close()


async def two_player_game(service: SessionService, guild_id: int, channel_id: int) -> int:
    session = await service.create("tiny", guild_id=guild_id, channel_id=channel_id, user_id=1, name="ann")
    await service.join(session, 2, "ben")
    await service.start(session, 1)
    return session.id


def table(service: SessionService, game_id: int) -> Session:
    session = service.get(game_id)
    assert session is not None
    return session


async def test_racing_moves_from_two_processes(processes: tuple[Factory, FakeTime]) -> None:
    make, _ = processes
    first = await make()
    game_id = await two_player_game(first, 1 << 22, 10)
    second = await make()
    assert [s.id for s in await second.restore()] == [game_id]
    user = user_to_act(first, game_id)
    outcomes = await asyncio.gather(
        first.play(table(first, game_id), user, "draw"),
        second.play(table(second, game_id), user, "draw"),
        return_exceptions=True,
    )
    # the loser is told the truth: the game moved on (or, when its copy of the game was still
    # loading and read the winner's move, that it is not that seat's turn any more)
    kinds = sorted(type(o).__name__ for o in outcomes)
    assert kinds in (["StaleAction", "Update"], ["NotYourTurn", "Update"]), kinds
    assert await first.storage.count_rows("moves", game_id) == 1
    # the loser reloaded the game from the database: both now see the same position
    winner, loser = (first, second) if isinstance(outcomes[0], Update) else (second, first)
    assert loser.get(game_id).state == winner.get(game_id).state  # type: ignore[union-attr]
    assert loser.get(game_id).ply == 1  # type: ignore[union-attr]


async def test_a_stale_process_catches_up(processes: tuple[Factory, FakeTime]) -> None:
    make, _ = processes
    first = await make()
    game_id = await two_player_game(first, 1 << 22, 10)
    second = await make()
    await second.restore()
    await second.ready(table(second, game_id))  # loaded before the first process moves: stale
    user = user_to_act(first, game_id)
    await first.play(table(first, game_id), user, "draw")
    with pytest.raises(errors.StaleAction):
        await second.play(table(second, game_id), user, "draw")
    nxt = user_to_act(second, game_id)
    assert nxt == user_to_act(first, game_id) != user
    await second.play(table(second, game_id), nxt, "draw")
    assert [m.notation for m in await second.storage.moves(game_id)] == ["draw", "draw"]


async def test_each_process_drives_only_its_shards(processes: tuple[Factory, FakeTime]) -> None:
    make, time = processes
    setup = await make()
    games: dict[int, list[int]] = {0: [], 1: []}
    for channel, guild in enumerate(SHARD_ZERO + SHARD_ONE, start=100):
        games[0 if guild in SHARD_ZERO else 1].append(await two_player_game(setup, guild, channel))
    await setup.close()
    zero, one = await make(Shards(frozenset({0}), 2)), await make(Shards(frozenset({1}), 2))
    assert sorted(s.id for s in await zero.restore()) == games[0]
    assert sorted(s.id for s in await one.restore()) == games[1]
    # a restart of one process picks up exactly its games again
    await zero.close()
    zero = await make(Shards(frozenset({0}), 2))
    assert sorted(s.id for s in await zero.restore()) == games[0]
    assert sorted(zero.clock.pending()) == games[0] and sorted(one.clock.pending()) == games[1]
    fired: list[tuple[int, str]] = []

    async def listen(update: Update) -> None:
        kind = "timeout" if any(step.line == "!timeout" for step in update.steps) else update.kind
        fired.append((update.session.id, kind))

    zero.subscribe(listen)
    one.subscribe(listen)
    await time.settle()
    await time.advance(3 * 3600)
    every = sorted(games[0] + games[1])
    assert sorted(game for game, kind in fired if kind == "timeout") == every
    assert sorted(game for game, kind in fired if kind == "reminder") == every
    for game_id in every:
        assert [m.notation for m in await zero.storage.moves(game_id)] == ["!timeout"]


async def test_two_processes_on_the_same_shard_store_a_timeout_once(
    processes: tuple[Factory, FakeTime],
) -> None:
    """A misconfiguration (both run every shard) is caught by the database: each deadline fires
    in both, but the stale-move check stores one timeout."""
    make, time = processes
    setup = await make()
    game_id = await two_player_game(setup, 1 << 22, 10)
    await setup.close()
    first, second = await make(), await make()
    await first.restore()
    await second.restore()
    await time.settle()
    await time.advance(3 * 3600)
    assert [m.notation for m in await first.storage.moves(game_id)] == ["!timeout"]
