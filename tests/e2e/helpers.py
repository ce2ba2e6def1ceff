"""Helpers for the SimCord tests: what a command showed, and the database rows."""

from __future__ import annotations

import json
import sqlite3
from typing import Any


def shown(result: Any) -> Any:
    """The message a command finally showed (a deferred reply is edited by its followup)."""
    return result.followups[-1] if result.followups else result.response


def rows(db_path: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Rows of a query on the bot's database."""
    with sqlite3.connect(db_path) as db:
        return db.execute(sql, params).fetchall()


def table_counts(db_path: str) -> dict[str, int]:
    """How many rows each table holds (to check that nothing was stored)."""
    return {
        table: rows(db_path, f"SELECT COUNT(*) FROM {table}")[0][0]
        for table in ("games", "seats", "moves", "results")
    }


def game_state(db_path: str, game_id: int) -> tuple[str, int, int | None]:
    """``(status, ply, seat to act)`` of a stored game."""
    status, ply, snapshot = rows(db_path, "SELECT status, ply, snapshot FROM games WHERE id = ?", game_id)[0]
    to_act = json.loads(snapshot)["to_act"] if snapshot else None
    return status, ply, to_act


def seat_names(db_path: str, game_id: int) -> dict[int, str]:
    """Seat number -> player name."""
    return dict(rows(db_path, "SELECT seat, name FROM seats WHERE game_id = ?", game_id))
