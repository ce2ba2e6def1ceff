"""Reviews: the ``hard`` engine's review of a finished game for one player (see
:mod:`bot.between.review`), made in the long-work lane and kept in storage per game and seat,
so that asking again, or after a restart, costs nothing.

A review is many small jobs, not one big one: the replay, then one job per decision of the
player (the engine's verdict within the per-move playouts, the replies and playouts to the end),
each capped as a member's long request, so that other members' hints and computer moves take
their turns between them. Two requests for the same review share the one being made.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot import workers
from bot.between.review import VERSION, ReviewBudget, decisions, review_decision, summary
from bot.sessions.lookup import Shared
from bot.storage import GameRow
from games import registry
from games.records import Record

REVIEW_REPLAY = workers.Kind("review replay", workers.Lane.LONG, 60.0, capped=True)
"""Replaying a finished game to find the reviewed player's decisions."""
REVIEW_MOVE = workers.Kind("review", workers.Lane.LONG, 120.0, capped=True)
"""The engine's verdict on one decision (its playouts are the work budget; this is the backstop)."""


class Reviews:
    """Makes, keeps and shares the engine's reviews."""

    def __init__(self, shared: Shared, budget: ReviewBudget | None = None) -> None:
        self.shared = shared
        self.budget = budget or ReviewBudget()
        """What one review may spend (playouts a move, worlds a move, a cap per request)."""
        self._making: dict[tuple[int, int], asyncio.Task[dict[str, Any]]] = {}

    async def stored(self, game_id: int, seat: int) -> dict[str, Any] | None:
        """The review kept for ``seat`` of game ``game_id``, if there is one."""
        return await self.shared.storage.review(game_id, seat, VERSION)

    async def review(self, row: GameRow, record: Record, seat: int, owner: workers.Owner) -> dict[str, Any]:
        """The review of ``seat`` in the finished game ``row`` (kept, or made now for ``owner``,
        whose caps on long work it counts against)."""
        kept = await self.stored(row.id, seat)
        if kept is not None:
            return kept
        key = (row.id, seat)
        task = self._making.get(key)
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(
                self._make(row, record, seat, owner), name=f"review-{row.id}"
            )
            self._making[key] = task
            task.add_done_callback(lambda _: self._making.pop(key, None))
        return await asyncio.shield(task)

    async def _make(self, row: GameRow, record: Record, seat: int, owner: workers.Owner) -> dict[str, Any]:
        game = registry.get(row.game)
        found, final, plies = await workers.run(decisions, record, seat, kind=REVIEW_REPLAY, owner=owner)
        budget = self.budget
        playouts = budget.per_move(len(found), game.name)
        charted = budget.charted(len(found))
        reviewed = []
        for decision in found:
            seed = row.seed + decision.ply
            chart = decision.number in charted
            job = (review_decision, game, decision, seat, seed, playouts, budget.worlds, chart)
            reviewed.append(await workers.run(*job, kind=REVIEW_MOVE, owner=owner))
        data = summary(game, seat, list(record.players), reviewed, final, plies, budget)
        await self.shared.storage.save_review(row.id, seat, VERSION, data, self.shared.now())
        return data

    async def close(self) -> None:
        """Stop the reviews being made (nothing of them is stored)."""
        tasks = list(self._making.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
