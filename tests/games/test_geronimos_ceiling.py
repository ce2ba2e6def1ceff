"""``bench/geronimos_ceiling.py``: the one-step ceiling of Geronimos' search, on a tiny budget."""

from __future__ import annotations

import pytest

from bench import geronimos_ceiling as bench


def test_a_ceiling_game_sums_each_seats_best_advantage(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "SCREEN", 2)
    monkeypatch.setattr(bench, "WORLDS", 4)
    monkeypatch.setattr(bench, "KEEP", 2)
    line = bench.ceiling_game(96000)
    assert line == bench.ceiling_game(96000)  # seeded: the same figures every time
    for seat in line["seats"]:
        assert seat["decisions"] > 0
        assert seat["upper"] >= 0  # normal's own move is always among those measured
    assert bench.summary([line]).startswith("ceiling, 1 games (seeds 96000-96000)")


def test_the_advantage_summary_reads_a_results_file() -> None:
    lines = [
        {"index": 0, "seed": 5, "seat": 0, "score": 1.0, "advantage": 0.2, "decisions": 3, "differing": 1},
        {"index": 1, "seed": 5, "seat": 1, "score": 0.0, "advantage": 0.0, "decisions": 2, "differing": 0},
    ]
    assert bench.summary(lines) == (
        "hard vs normal, 2 games (seeds 5-5): won 50.0 % ± 98.0; advantage estimate 60.0 % ± 19.6"
    )
