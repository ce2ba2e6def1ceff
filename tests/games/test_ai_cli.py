"""``python -m games selfplay`` with levels and a budget, and the tournament bench."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from games.__main__ import main, seat_levels, selfplay
from games.errors import GameError
from games.records import replay
from games.registry import get

BENCH = Path(__file__).resolve().parents[2] / "bench" / "ai_tournament.py"


def tournament() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ai_tournament", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ai_tournament"] = module
    spec.loader.exec_module(module)
    return module


def test_selfplay_with_a_level_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "geronimos", "--players", "2", "--levels", "hard,easy", "--seed", "4"]
    assert main([*argv, "--budget", "0.02", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["finished"] and data["levels"] == ["hard", "easy"]
    assert len(data["slowest_decision_seconds"]) == 2 and sum(data["decisions"]) == data["moves"]


def test_selfplay_levels_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert seat_levels(3, "greedy", None) == ["normal"] * 3
    assert seat_levels(2, "normal", ["hard", "easy"]) == ["hard", "easy"]
    for levels in (["hard"] * 3, ["expert", "easy"]):
        with pytest.raises(GameError):
            seat_levels(2, "normal", levels)
    assert main(["selfplay", "triominos", "--players", "2", "--levels", "hard,boss"]) == 2
    assert "boss" in capsys.readouterr().err
    assert main(["selfplay", "triominos", "--players", "2", "--budget", "0"]) == 2


def test_selfplay_of_the_solitaire_solves_it() -> None:
    record = selfplay(get("puzzosolo"), 1, 3, "hard", budget=1.0)
    played = replay(record)
    outcome = played.game.outcome(played.final)
    assert outcome is not None and outcome.reason == "solved"


def test_the_wilson_interval() -> None:
    bench = tournament()
    low, high = bench.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert bench.wilson(0, 0) == (0.0, 1.0)
    low, high = bench.wilson(20, 20)
    assert high == 1.0 and low == pytest.approx(0.8389, abs=1e-3)


def test_a_small_tournament(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bench = tournament()
    out = str(tmp_path / "results.json")
    argv = ["geronimos", "--games", "4", "--pairs", "hard@6:easy", "--seed", "3", "--out", out]
    assert bench.main([*argv, "--json"]) == 0
    (data,) = json.loads(capsys.readouterr().out)
    assert data["games"] == 4 and data["levels"] == ["hard@6", "easy"] and data["seeds"] == [3, 4]
    assert 0 <= data["ci95"][0] <= data["win_rate"] <= data["ci95"][1] <= 1
    assert sum(data["end_reasons"].values()) == 4
    first = json.loads(Path(out).read_text())
    assert bench.main([*argv, "--games", "4"]) == 0, "a second run resumes: nothing left to play"
    assert json.loads(Path(out).read_text())["runs"] == first["runs"]
    assert bench.main(["puzzosolo", "--games", "2", "--pairs", "hard@2:normal", "--out", out]) == 0
    assert "| puzzosolo | hard@2 vs normal | 2 | 100.0 % |" in capsys.readouterr().out
