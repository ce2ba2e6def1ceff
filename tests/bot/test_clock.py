"""The turn clock under a controlled time source."""

from __future__ import annotations

from bot.clock import TurnClock, reminder_time
from tests.bot.fakes import FakeTime


async def test_fires_earliest_first_and_once() -> None:
    time = FakeTime()
    fired: list[tuple[int, str, float]] = []

    async def alarm(game_id: int, kind: str) -> None:
        fired.append((game_id, kind, time.now()))

    clock = TurnClock(alarm, now=time.now, sleep=time.sleep)
    start = time.now()
    clock.arm(1, start + 100)
    clock.arm(2, start + 50, start + 20)
    await time.settle()
    await time.advance(200)
    assert fired == [(2, "reminder", start + 20), (2, "deadline", start + 50), (1, "deadline", start + 100)]
    assert clock.pending() == {}
    await clock.close()


async def test_rearm_moves_a_deadline() -> None:
    time = FakeTime()
    fired: list[int] = []

    async def alarm(game_id: int, kind: str) -> None:
        fired.append(game_id)

    clock = TurnClock(alarm, now=time.now, sleep=time.sleep)
    clock.arm(7, time.now() + 10)
    await time.settle()
    await time.advance(5)
    clock.arm(7, time.now() + 30)  # a move was made: a new deadline
    await time.settle()
    await time.advance(10)
    assert fired == []
    await time.advance(25)
    assert fired == [7]
    clock.disarm(7)
    await clock.close()


async def test_past_deadline_fires_at_once() -> None:
    time = FakeTime()
    fired: list[str] = []

    async def alarm(game_id: int, kind: str) -> None:
        fired.append(kind)

    clock = TurnClock(alarm, now=time.now, sleep=time.sleep)
    clock.arm(3, time.now() - 5)  # expired while the bot was down
    await time.settle()
    assert fired == ["deadline"]
    await clock.close()


def test_reminders_only_for_async_clocks() -> None:
    assert reminder_time(0, 120) is None
    assert reminder_time(0, 24 * 3600) == 23 * 3600
    assert reminder_time(0, 3600) == 2700
