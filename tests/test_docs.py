"""The README is the door and docs/ the house (issue 23): every link between them leads to a file
that exists and, where it names a heading, to that heading (as GitHub makes its anchors); every
picture is there; every setting of the bot is documented; the README stays short."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.settings import SETTING_NAMES

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
OTHER_BRANCHES = {"docs/computer-players.md": "ai", "docs/tournaments.md": "tournaments"}
"""Pages the README links to that other branches write (issue 27 and 26): while one is missing
here its links are not checked; once it exists, they are, anchors included."""
LINK = re.compile(r"!?\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~)")


def prose(path: Path) -> list[str]:
    """The page's lines outside fenced code blocks, inline code removed."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(re.sub(r"`[^`]*`", "``", line) if "](" not in line else line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of a page (a repeated heading gets -1, -2, ... as on GitHub)."""
    found: set[str] = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
        if fenced:
            continue
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            base = slug(match.group(1))
            name, count = base, 0
            while name in found:
                count += 1
                name = f"{base}-{count}"
            found.add(name)
    return found


def links(path: Path) -> list[tuple[int, str]]:
    found = []
    for number, line in enumerate(prose(path), start=1):
        for match in LINK.finditer(line):
            target = match.group("target")
            if not re.match(r"^[a-z]+:", target):
                found.append((number, target))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_leads_somewhere(page: Path) -> None:
    broken = []
    for number, target in links(page):
        file_part, _, anchor = target.partition("#")
        destination = (page.parent / file_part).resolve() if file_part else page
        relative = (
            destination.relative_to(ROOT).as_posix() if destination.is_relative_to(ROOT) else str(destination)
        )
        if relative in OTHER_BRANCHES and not destination.exists():
            continue
        if not destination.exists():
            broken.append(f"line {number}: {target} (no such file)")
        elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
            broken.append(f"line {number}: {target} (no heading #{anchor} in {relative})")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_anchors_are_githubs() -> None:
    assert slug("Tile Up!") == "tile-up"
    assert slug("Load: `bench/load.py`") == "load-benchloadpy"
    assert slug("Without make: pip install on Linux, macOS and Windows") == (
        "without-make-pip-install-on-linux-macos-and-windows"
    )


def test_the_readme_is_a_door() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 300, f"README.md has {len(lines)} lines: move the detail to docs/"
    for page in ("docs/hosting.md", "docs/playing.md", "docs/development.md", "docs/benchmarks.md"):
        assert f"]({page}" in "\n".join(lines), f"the README leads to {page}"
    for game in ("geominos", "triominos", "geronimos", "puzzominos", "tileup"):
        assert (ROOT / "docs" / "games" / f"{game}.md").exists()


def test_every_setting_is_documented() -> None:
    hosting = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name in sorted(SETTING_NAMES):
        assert f"| `{name}` |" in hosting, f"docs/hosting.md's settings table lists {name}"
        assert re.search(rf"^#? ?{name}=", example, re.MULTILINE), f".env.example lists {name}"


def test_the_readme_states_each_games_hard_budget() -> None:
    """Issue 27: the levels' budgets are stated in the README, and they are the code's."""
    from games import registry

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    titles = "Geominos|Tri-Ominos|Geronimos|Puzz-Ominos|Tile Up!"
    stated = {title: int(playouts) for playouts, title in re.findall(rf"(\d+) in ({titles})", readme)}
    for name in ("geominos", "triominos", "geronimos", "puzzominos", "tileup"):
        game = registry.get(name)
        assert stated.get(game.title) == game.search_profile.playouts, (game.title, stated)
