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
