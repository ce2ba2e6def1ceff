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


PROJECT = ("games", "rendering", "bot", "cogs", "tests", "bench")
"""The packages whose modules may not import each other in a circle."""


def module_name(path: Path) -> str:
    """``bot/ui/table.py`` -> ``bot.ui.table``; a package's ``__init__.py`` is the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_imports() -> dict[str, set[str]]:
    """Module -> the project modules it imports anywhere: at the top, in a function, or only for
    type checking (``if TYPE_CHECKING:``). ``from package import name`` counts as the submodule
    ``package.name`` where there is one, else as the package."""
    modules = {module_name(path): path for package in PROJECT for path in files(package)}

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(known(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    found.add(full if full in modules else known(base))
        graph[name] = {other for other in found if other is not None and other != name}
    return graph


def cycle_from(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """An import circle through ``start`` (the modules in order, ``start`` again at the end)."""
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        name, path = stack.pop()
        for other in sorted(graph[name]):
            if other == start:
                return [*path, start]
            if other not in seen:
                seen.add(other)
                stack.append((other, [*path, other]))
    return None


def test_no_import_circles_not_even_for_type_checking() -> None:
    graph = project_imports()
    assert {"bot.client", "bot.ui.table", "games.core"} <= graph.keys()
    circles = [circle for name in sorted(graph) if (circle := cycle_from(graph, name)) is not None]
    assert not circles, "import circles: " + "; ".join(" -> ".join(circle) for circle in circles[:5])


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycle_from(graph, "a") == ["a", "b", "c", "a"]
    assert cycle_from(graph, "d") is None
