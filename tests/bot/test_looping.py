"""The step gate: steps of work on the event loop start one per turn of the loop, in order."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest

from bot import looping
from bot.looping import StepGate


async def test_a_free_gate_lets_a_step_through_at_once() -> None:
    gate = StepGate()
    order: list[str] = []
    asyncio.get_running_loop().call_soon(order.append, "ready before")
    await gate.turn()
    order.append("step")
    assert order == ["step"], "a free gate does not yield to the loop"
    await asyncio.sleep(0)
    assert order == ["step", "ready before"]


async def test_steps_arriving_together_run_one_per_turn_behind_what_is_ready() -> None:
    gate = StepGate()
    order: list[str] = []
    loop = asyncio.get_running_loop()

    async def step(name: str) -> None:
        await gate.turn()
        order.append(name)

    def tick(count: int) -> None:  # something else ready at every turn of the loop
        order.append("tick")
        if count:
            loop.call_soon(tick, count - 1)

    loop.call_soon(tick, 12)
    await asyncio.gather(*(step(f"step {index}") for index in range(4)))
    steps = [entry for entry in order if entry.startswith("step")]
    assert steps == [f"step {index}" for index in range(4)], "in the order they arrived"
    gaps = [order.index(f"step {index + 1}") - order.index(f"step {index}") for index in range(3)]
    assert all(gap > 1 for gap in gaps), f"the loop ran something else between two steps: {order}"


async def test_a_step_cancelled_while_waiting_is_skipped() -> None:
    gate = StepGate()
    ran: list[int] = []

    async def step(index: int) -> None:
        await gate.turn()
        ran.append(index)

    tasks = [asyncio.ensure_future(step(index)) for index in range(3)]
    await asyncio.sleep(0)  # the first passed, the other two wait
    tasks[1].cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert ran == [0, 2]
    assert isinstance(results[1], asyncio.CancelledError)
    assert gate.waiting == 0


async def test_a_step_cancelled_after_it_was_given_the_turn_passes_it_on() -> None:
    ran: list[int] = []
    tasks: list[asyncio.Task[None]] = []

    class Watched(StepGate):
        def _next(self) -> None:
            given = len(ran) == 1 and not tasks[1].cancelled()
            super()._next()
            if given:  # the second was just given the turn: cancelled before it runs
                tasks[1].cancel()

    gate = Watched()

    async def step(index: int) -> None:
        await gate.turn()
        ran.append(index)

    tasks += [asyncio.ensure_future(step(index)) for index in range(3)]
    await asyncio.gather(*tasks, return_exceptions=True)
    assert ran == [0, 2]
    assert tasks[1].cancelled()
    await asyncio.wait_for(gate.turn(), 5)  # and the gate is free again


SHARED = StepGate()


@pytest.mark.parametrize("run", range(2))
async def test_each_event_loop_starts_with_a_free_gate(run: int) -> None:
    gate = SHARED
    await gate.turn()  # the previous test's loop left the gate closed: a new loop opens it
    waiter = asyncio.ensure_future(gate.turn())
    await asyncio.wait_for(waiter, 5)


async def test_a_step_carrying_on_goes_before_new_steps() -> None:
    gate = StepGate()
    order: list[str] = []

    async def step(name: str, carrying_on: bool = False) -> None:
        await gate.turn(carrying_on=carrying_on)
        order.append(name)

    first = asyncio.ensure_future(step("first"))
    news = [asyncio.ensure_future(step(f"new {index}")) for index in range(3)]
    await asyncio.sleep(0)  # the first ran; three new steps wait (the first of them is next)
    later = [asyncio.ensure_future(step(f"forced {index}", carrying_on=True)) for index in range(2)]
    await asyncio.gather(first, *news, *later)
    assert order == ["first", "new 0", "forced 0", "forced 1", "new 1", "new 2"]


def test_the_bot_makes_the_threads_beside_its_loop_wait_less_for_the_interpreter(
    monkeypatch: pytest.MonkeyPatch, make_bot: Any
) -> None:
    """Building the bot sets the interpreter's switch interval to the bot's (the writer thread's
    statements then wait at most that long for the interpreter while the loop works)."""
    intervals: list[float] = []
    monkeypatch.setattr(sys, "setswitchinterval", intervals.append)
    make_bot()
    assert intervals == [looping.SWITCH_INTERVAL] and looping.SWITCH_INTERVAL < 0.005


def test_the_heap_is_frozen_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """What is alive once the bot has started is left out of full collections, once: later calls
    (another bot in the same process, as tests build) change nothing."""
    calls: list[str] = []
    monkeypatch.setattr(looping, "_frozen", False)
    monkeypatch.setattr(looping.gc, "collect", lambda: calls.append("collect") or 0)
    monkeypatch.setattr(looping.gc, "freeze", lambda: calls.append("freeze"))
    assert looping.freeze_the_heap() is True
    assert looping.freeze_the_heap() is False
    assert calls == ["collect", "freeze"], "the garbage is collected first, not frozen"
