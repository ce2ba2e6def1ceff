"""Tile Up! records made before issue 13 replay to the same end.

The records in ``tests/games/records/tileup-*.txt`` were made with the code on main before the
safety end changed (commit 1b6effe; their first lines say how). The migration
``bot/migrations/0004_tileup_safety_end.sql`` gives the stored games the legacy rule
(``idle_rounds`` = 3); a record replayed with the options it leaves ends as it ended then.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from games.records import Record, replay
from games.tileup import GAME, Options

ROOT = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).resolve().parent / "records"
MIGRATION = ROOT / "bot" / "migrations" / "0004_tileup_safety_end.sql"

ENDS = {
    # record: (reason, scores, last turn, moves) as main left them
    "tileup-three-idle-rounds": ("three_idle_rounds", (0, 3), 16, 46),
    "tileup-corners": ("corners", (21, 25, 20), 61, 198),
    "tileup-empty-bag": ("empty_bag_round", (90, 36, 40), 72, 254),
}


def load(name: str) -> Record:
    return Record.from_text((RECORDS / f"{name}.txt").read_text(encoding="utf-8"))


def migrated(rows: list[tuple[str, str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The options of ``(game, status, options)`` rows after the migration ran on them."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT, status TEXT, options TEXT)")
    db.executemany(
        "INSERT INTO games (game, status, options) VALUES (?, ?, ?)",
        [(game, status, json.dumps(options)) for game, status, options in rows],
    )
    db.executescript(MIGRATION.read_text(encoding="utf-8"))
    return [json.loads(text) for (text,) in db.execute("SELECT options FROM games ORDER BY id")]


def test_the_migration_gives_stored_games_the_legacy_rule() -> None:
    after = migrated(
        [
            ("tileup", "finished", {}),
            ("tileup", "playing", {}),
            ("tileup", "aborted", {}),
            ("tileup", "lobby", {}),
            ("tileup", "playing", {"idle_rounds": 10}),
            ("geominos", "finished", {"target": 400}),
        ]
    )
    assert after == [
        {"idle_rounds": 3},
        {"idle_rounds": 3},
        {"idle_rounds": 3},
        {},
        {"idle_rounds": 10},
        {"target": 400},
    ]
    assert Options.from_dict(after[0]) == Options(idle_rounds=3)


@pytest.mark.parametrize("name", sorted(ENDS))
def test_records_from_before_the_change_replay_to_the_same_end_with_the_migrated_options(name: str) -> None:
    record = load(name)
    (options,) = migrated([("tileup", "finished", record.options)])
    final = replay(replace(record, options=options)).final
    outcome = GAME.outcome(final)
    reason, scores, turn, moves = ENDS[name]
    assert outcome is not None and (outcome.reason, outcome.scores, final.turn) == (reason, scores, turn)
    assert len(record.moves) == moves


def test_the_new_rule_plays_on_where_the_old_one_ended_with_a_full_bag() -> None:
    final = replay(load("tileup-three-idle-rounds")).final  # options {}: the new rule
    assert GAME.outcome(final) is None and GAME.to_act(final) is not None
    assert final.players == 2 and final.bag_size == 94 and final.idle_turns == 6


@pytest.mark.parametrize("name", ["tileup-corners", "tileup-empty-bag"])
def test_games_that_ended_by_the_other_rules_end_the_same_under_the_new_rule(name: str) -> None:
    final = replay(load(name)).final
    outcome = GAME.outcome(final)
    reason, scores, turn, _ = ENDS[name]
    assert outcome is not None and (outcome.reason, outcome.scores, final.turn) == (reason, scores, turn)
