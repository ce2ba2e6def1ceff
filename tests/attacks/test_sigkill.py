"""SIGKILL durability, the short version of ``bench/durability.py`` (issue 17): the real bot
process, playing on a SQLite file, killed with SIGKILL at random points of its play; after every
kill the file is intact and holds every move the players were told was recorded, and every
restart re-arms the clock of every game that has a deadline.

The kills are placed by events (the bot ready, then a number of new acknowledged moves), not by
seconds, so a busy machine kills at the same points of the play as a quiet one and every run
checks acknowledged moves."""

from __future__ import annotations

from pathlib import Path

from bench import durability


def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path: Path) -> None:
    outcome = durability.run(
        kills=3, channels=3, db_path=str(tmp_path / "tilehost.db"), kill_after=2, jitter=0.5, seed=7
    )
    assert outcome.kills == 3
    assert outcome.killed_after[0] >= 1, "the first kill waits for an acknowledged move"
    assert outcome.acknowledged >= sum(outcome.killed_after), "every kill waited for its moves"
    assert not outcome.integrity, outcome.integrity
    assert not outcome.lost, f"acknowledged but not stored: {outcome.lost}"
    assert not outcome.unarmed, f"clocks not re-armed after a restart: {outcome.unarmed}"


def test_sigkill_during_group_commits_loses_no_acknowledged_move(tmp_path: Path) -> None:
    """The storage layer committing the moves of 30 games in groups, killed while it commits:
    every move whose ``record_move`` returned is stored, and the file is intact."""
    outcome, largest = durability.run_group_commit(
        kills=3, games=30, db_path=str(tmp_path / "group.db"), seed=5
    )
    assert outcome.kills == 3
    assert largest > 1, "moves were committed in groups"
    assert outcome.acknowledged > 0
    assert not outcome.integrity, outcome.integrity
    assert not outcome.lost, f"acknowledged but not stored: {outcome.lost}"
