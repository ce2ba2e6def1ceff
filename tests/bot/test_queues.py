"""The announcers' per-key queues (bot/ui/queues.py): in order per key, batches of what waited,
keys independent, and a failing batch does not stop the next."""

from __future__ import annotations

import asyncio

from bot.ui.queues import KeyedQueues


async def test_items_are_done_in_order_per_key_in_batches_and_a_failure_stops_nothing() -> None:
    done: list[tuple[int, list[str]]] = []
    gate = asyncio.Event()

    async def handler(key: int, batch: list[str]) -> None:
        if key == 1 and not gate.is_set():
            await gate.wait()
        if "boom" in batch:
            raise RuntimeError("boom")
        done.append((key, batch))

    queues: KeyedQueues[str] = KeyedQueues(handler, "test")
    queues.put(1, "a")
    await asyncio.sleep(0)  # key 1's task takes "a" and waits at the gate
    queues.put(1, "boom")
    queues.put(2, "x")
    await queues.caught_up(2, 5.0)
    assert done == [(2, ["x"])]  # key 2 did not wait for key 1
    queues.put(1, "c")  # waits with "boom": one batch, which fails
    gate.set()
    await queues.caught_up(1, 5.0)
    queues.put(1, "d")
    await queues.close()
    assert done == [(2, ["x"]), (1, ["a"]), (1, ["d"])]
