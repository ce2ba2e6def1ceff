"""SIGKILL durability, the short version of ``bench/durability.py`` (issue 17): the real bot
process, playing on a SQLite file, killed with SIGKILL at random moments; after every kill the
file is intact and holds every move the players were told was recorded, and every restart
re-arms the clock of every game that has a deadline."""

from __future__ import annotations

from pathlib import Path

from bench import durability


def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path: Path) -> None:
    outcome = durability.run(
        kills=3, channels=3, db_path=str(tmp_path / "tilehost.db"), low=0.3, high=2.0, seed=7
    )
    assert outcome.kills == 3
    assert outcome.acknowledged > 0, "moves were acknowledged between the kills"
    assert not outcome.integrity, outcome.integrity
    assert not outcome.lost, f"acknowledged but not stored: {outcome.lost}"
    assert not outcome.unarmed, f"clocks not re-armed after a restart: {outcome.unarmed}"
