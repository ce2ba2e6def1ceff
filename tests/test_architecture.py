"""Imports point one way only: games <- rendering <- bot <- cogs."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = set(sys.stdlib_module_names)
DISCORD_IN_BOT = {"client.py"}
"""Besides these, only the ``bot/ui/`` package imports discord."""


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", files("games"), ids=lambda p: str(p.relative_to(ROOT)))
def test_games_use_only_the_standard_library(path: Path) -> None:
    foreign = {root for root in imported_roots(path) if root not in STDLIB and root != "games"}
    assert not foreign, f"{path.name} imports {foreign}"


@pytest.mark.parametrize("path", files("games"), ids=lambda p: str(p.relative_to(ROOT)))
def test_games_never_use_the_global_random(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
            assert node.attr in {"Random"}, f"{path.name} calls random.{node.attr}"
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            assert all(alias.name == "Random" for alias in node.names), f"{path.name} imports from random"


@pytest.mark.parametrize("path", files("rendering"), ids=lambda p: str(p.relative_to(ROOT)))
def test_rendering_never_imports_discord_bot_or_cogs(path: Path) -> None:
    assert not imported_roots(path) & {"discord", "bot", "cogs", "aiosqlite"}


@pytest.mark.parametrize("path", files("bot"), ids=lambda p: str(p.relative_to(ROOT)))
def test_bot_uses_discord_only_in_client_and_ui(path: Path) -> None:
    roots = imported_roots(path)
    assert "cogs" not in roots
    if path.name not in DISCORD_IN_BOT and path.parent.name != "ui":
        assert "discord" not in roots, f"{path.name} imports discord"
