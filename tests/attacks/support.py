"""What the attack tests share: interactions sent together (their handlers overlap), and the
checks that a stored game is whole."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from tests.e2e.helpers import rows


@contextlib.asynccontextmanager
async def together(env: Any) -> AsyncIterator[None]:
    """Inside the block, every interaction is only sent (``await actor.slash(...)`` returns at
    once, before the bot handled it); at the end the bot runs them all at the same time, as
    when several people click within the same instant, and the results fill in."""
    settle = env._settle_internal

    async def sent_only(**kwargs: Any) -> None:
        if kwargs.get("dispatch") != "INTERACTION_CREATE":
            await settle(**kwargs)

    env._settle_internal = sent_only
    try:
        yield
    finally:
        env._settle_internal = settle
    await env.settle()


def answered(result: Any) -> str:
    """What the bot answered to an interaction (its response, else its last followup)."""
    message = result.followups[-1] if result.followups else result.response
    return "" if message is None else str(message.content)


def check_stored_game(db_path: str, game_id: int) -> tuple[str, int]:
    """A stored game is whole: its seats are numbered 0..n-1, its snapshot's state has exactly
    those seats, and its moves are numbered 1..ply. Returns ``(status, ply)``."""
    status, ply, snapshot = rows(db_path, "SELECT status, ply, snapshot FROM games WHERE id = ?", game_id)[0]
    seats = [
        seat for (seat,) in rows(db_path, "SELECT seat FROM seats WHERE game_id = ? ORDER BY seat", game_id)
    ]
    assert seats == list(range(len(seats))), seats
    plies = [p for (p,) in rows(db_path, "SELECT ply FROM moves WHERE game_id = ? ORDER BY ply", game_id)]
    assert plies == list(range(1, ply + 1)), (plies, ply)
    if status != "lobby" and snapshot:
        scores = json.loads(snapshot)["scores"]
        assert len(scores) == len(seats), (scores, seats)
    return status, ply


def integrity_ok(db_path: str) -> bool:
    """SQLite's own check of the file."""
    return rows(db_path, "PRAGMA integrity_check") == [("ok",)]
