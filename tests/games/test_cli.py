"""`python -m games` list, selfplay and replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games import registry
from games.__main__ import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "games", *args], capture_output=True, text=True, check=False)


def test_list_names_every_game() -> None:
    result = run("list")
    assert result.returncode == 0
    listed = {entry["name"] for entry in json.loads(result.stdout)}
    assert set(registry.shipped_names()) <= listed


@pytest.mark.parametrize("name", registry.names())
def test_selfplay_json_finishes_and_replays(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = registry.get(name)
    assert main(["selfplay", name, "--players", str(game.min_players), "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["finished"] and data["outcome"]["winners"]
    record = tmp_path / "game.txt"
    record.write_text(data["record"])
    assert main(["replay", str(record), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["scores"] == data["scores"] and again["outcome"] == data["outcome"]


def test_unknown_game_is_a_clear_error() -> None:
    result = run("selfplay", "chess", "--players", "2")
    assert result.returncode == 2
    assert "no game called 'chess'" in result.stderr


def test_bad_record_names_the_line(tmp_path: Path) -> None:
    record = tmp_path / "bad.txt"
    record.write_text('game: "nosuchgame"\nplayers: ["a", "b"]\n\n0 x\n')
    result = run("replay", str(record))
    assert result.returncode == 2
    assert "nosuchgame" in result.stderr
