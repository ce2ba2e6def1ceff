"""The pinned install (issue 23): requirements/*.txt pin, with hashes, a version of everything
pyproject.toml asks for, each file a superset of the one before with the same pins (run, then
local mode, then the tests), and running the bot pins nothing of the tests. ``make lock``
rewrites them; this test fails when pyproject.toml changed and the locks were not remade."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ("run", "local", "dev")
TEST_TOOLS = ("pytest", "playwright", "av", "pgserver", "mypy", "ruff", "hypothesis", "simcord")
PYTHONS = ("3.11", "3.12", "3.13")


def pins(name: str, python: str = "3.11") -> dict[str, str]:
    """``requirements/<name>.txt`` as package -> pinned version, for one Python version."""
    text = (ROOT / "requirements" / f"{name}.txt").read_text(encoding="utf-8")
    pinned: dict[str, str] = {}
    for line in text.splitlines():
        match = re.match(r"^([A-Za-z0-9_.-]+)==([^ ;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$", line)
        if match is None:
            continue
        package, version, marker = match.groups()
        environment = {
            "python_version": python,
            "python_full_version": f"{python}.0",
            "sys_platform": "linux",
        }
        if marker is None or Marker(marker).evaluate(environment):
            pinned[canonicalize_name(package)] = version
    return pinned


def project() -> dict[str, object]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return data


def requirements(group: str) -> list[Requirement]:
    meta = project()["project"]
    assert isinstance(meta, dict)
    texts = meta["dependencies"] if group == "run" else meta["optional-dependencies"][group]
    return [Requirement(text) for text in texts]


@pytest.mark.parametrize("python", PYTHONS)
def test_every_requirement_is_pinned_to_a_version_it_allows(python: str) -> None:
    for lock, groups in (("run", ["run"]), ("local", ["run", "local"]), ("dev", ["run", "local", "dev"])):
        pinned = pins(lock, python)
        for group in groups:
            for requirement in requirements(group):
                name = canonicalize_name(requirement.name)
                assert name in pinned, f"requirements/{lock}.txt does not pin {name}: run make lock"
                assert requirement.specifier.contains(pinned[name], prereleases=True), (
                    f"requirements/{lock}.txt pins {name}=={pinned[name]}, pyproject.toml asks "
                    f"{requirement}: run make lock"
                )


@pytest.mark.parametrize("python", PYTHONS)
def test_each_lock_extends_the_one_before_with_the_same_pins(python: str) -> None:
    run, local, dev = (pins(name, python) for name in LOCKS)
    assert run.items() <= local.items() and local.items() <= dev.items()


def test_running_pins_nothing_of_the_tests() -> None:
    assert not set(pins("run")) & set(TEST_TOOLS)
    assert not set(pins("local")) & (set(TEST_TOOLS) - {"simcord", "av"})


def test_every_pin_has_hashes_and_the_build_backend_is_pinned() -> None:
    for name in (*LOCKS, "build"):
        text = (ROOT / "requirements" / f"{name}.txt").read_text(encoding="utf-8")
        assert "make lock" in text.splitlines()[1], "the header says how to remake it"
        for block in re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2]):
            if "==" in block.split("\n")[0]:
                assert "--hash=sha256:" in block, block.split("\n")[0]
    build = project()["build-system"]
    assert isinstance(build, dict)
    [backend] = [Requirement(text) for text in build["requires"]]
    assert backend.specifier.contains(pins("build")[canonicalize_name(backend.name)])


def test_the_license_is_the_files() -> None:
    meta = project()["project"]
    assert isinstance(meta, dict)
    assert meta["license"] == "MIT" and meta["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
