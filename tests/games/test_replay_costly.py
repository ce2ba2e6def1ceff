"""``bench/replay_costly.py``: a tournament's costliest games played again and checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import replay_costly as bench
from bench.ai_tournament import entrant, one_game

PAIR = "geominos|2p|hard@2:normal|seed 5"


def results_file(tmp_path: Path, plies_off: int = 0) -> Path:
    """A results file with one game of ``hard@2`` against ``normal``, as the tournament wrote it."""
    played = one_game("geominos", entrant("hard@2"), entrant("normal"), 2, 5, 1)
    game = {"index": 1, "seed": played.seed, "score": played.score, "plies": played.plies + plies_off}
    game["slowest_cpu"] = [3.0, 0.0]
    run = {"game": "geominos", "levels": ["hard@2", "normal"], "players": 2, "seed": 5, "games": {"1": game}}
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"runs": {PAIR: run}}), encoding="utf-8")
    return path


def test_a_game_that_comes_out_the_same_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main([str(results_file(tmp_path)), PAIR, "--over", "2"]) == 0
    out = capsys.readouterr().out
    assert "1 games of" in out and "games that came out differently: 0" in out


def test_a_game_that_comes_out_differently_fails(tmp_path: Path) -> None:
    assert bench.main([str(results_file(tmp_path, plies_off=1)), PAIR, "--over", "2"]) == 1
    assert bench.main([str(results_file(tmp_path, plies_off=1)), PAIR, "--over", "5"]) == 0  # none replayed
