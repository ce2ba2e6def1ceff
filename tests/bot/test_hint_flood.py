"""A hint flood against another table (issue 21, item 2): three members spend their whole hint
allowance at once while another table's player asks autocomplete for a move and the table's
board is drawn. The long lane is held by long work the whole time (two jobs that sleep), so a
job that waited behind long work could not finish: the other table's autocomplete and board do,
at once. Each member's identical hints share one search; the server's cap refuses the next
member, saying so. Facts of queues and order, never timings."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot import workers
from bot.lanes import Busy, Event, Job, Lane, Owner
from bot.sessions import Session, SessionService
from bot.storage import Storage
from bot.ui import files
from games import ai, registry
from tests.support import tiny

registry.register(tiny.GAME)

HINTS = 12
"""A member's hint allowance (the rate limit's burst)."""
GUILD = 1


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[SessionService]:
    storage = await Storage.open(str(tmp_path / "flood.db"))
    seeds = iter(range(100, 200))
    svc = SessionService(
        storage,
        now=time.time,
        default_turn_seconds=3600,
        seed_source=lambda: next(seeds),
        computer_budget=ai.Budget(seconds=None, iterations=8),
    )
    yield svc
    await svc.close()
    await storage.close()


@pytest.fixture
def traced() -> Iterator[list[Event]]:
    lanes = workers.lanes()
    trace: list[Event] = []
    lanes.trace = trace
    yield trace
    lanes.trace = None


@pytest.fixture
def long_lane_held() -> Iterator[list[Job]]:
    """Every long worker busy with a job that sleeps (a game's own long work), until the test
    lets go of them."""
    lanes = workers.lanes()
    held = [
        lanes.submit(workers.COMPUTER, time.sleep, (600,), owner=Owner(GUILD, game_id=900 + n))
        for n in range(workers.sizes()[Lane.LONG])
    ]
    yield held
    for job in held:
        lanes.abandon(job)


async def table(svc: SessionService, channel: int, host: int, guest: int) -> Session:
    session = await svc.create("tiny", guild_id=GUILD, channel_id=channel, user_id=host, name=f"p{host}")
    await svc.join(session, guest, f"p{guest}")
    await svc.start(session, host)
    return session


def to_act(session: Session) -> int:
    seat = session.seat_to_act()
    assert seat is not None and seat.user_id is not None
    return seat.user_id


async def until(condition: object, what: str) -> None:
    for _ in range(6000):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"still waiting for {what}")


async def test_another_tables_autocomplete_and_board_do_not_wait_for_a_hint_flood(
    service: SessionService, traced: list[Event], long_lane_held: list[Job]
) -> None:
    flooded = [await table(service, 10 + n, 100 + 2 * n, 101 + 2 * n) for n in range(5)]
    calm = await table(service, 20, 200, 201)
    await until(lambda: all(job.started is not None for job in long_lane_held), "the long lane to be held")
    flood = [
        asyncio.ensure_future(service.hint(session, to_act(session)))
        for session in flooded[:3]
        for _ in range(HINTS)
    ]
    hints = lambda: [e for e in traced if e.kind == workers.HINT.name and e.what == "queued"]  # noqa: E731
    await until(lambda: len(hints()) == 3, "one hint job a member")

    suggestions = await service.suggestions(calm, to_act(calm), "")
    board = await files.board_png(calm)

    assert suggestions and board.startswith(b"\x89PNG")
    assert not any(task.done() for task in flood), "the hints wait: the long lane is held"
    for kind in (workers.SUGGESTIONS, workers.BOARD):
        (start,) = [e for e in traced if e.kind == kind.name and e.what == "started"]
        assert start.waiting_long == len(long_lane_held) + 3, "it ran with all the long work still there"
    fourth = asyncio.ensure_future(service.hint(flooded[3], to_act(flooded[3])))
    await until(lambda: len(hints()) == 4, "the fourth member's hint to queue")
    with pytest.raises(Busy, match="This server already has 4 long requests under way"):
        await service.hint(flooded[4], to_act(flooded[4]))

    for job in long_lane_held:
        workers.lanes().abandon(job)
    decisions = await asyncio.gather(*flood, fourth)
    for member in range(3):
        shared = decisions[member * HINTS : (member + 1) * HINTS]
        assert all(decision is shared[0] for decision in shared), "a member's hints shared one search"
