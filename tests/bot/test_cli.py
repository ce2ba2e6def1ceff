"""``python -m bot``: the commands and their help (which never start the bot), ``check`` (the
settings, the database without changing it, the invite link with the permissions the bot uses)
and ``check --alive`` (the container's health check)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from bot import cli
from bot.settings import SETTING_NAMES
from bot.storage.engines import migrations
from bot.ui.invite import PERMISSION_REASONS, PERMISSIONS, invite_url
from tests.bot.test_migrate import open_a_lobby
from tests.support.tokens import APPLICATION_ID, TOKEN

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("run", "local", "check", "sync", "migrate-db", "backup")


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    """No setting from the machine, and a working folder without a .env."""
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return monkeypatch


def test_help_lists_the_commands_and_starts_nothing(tmp_path: Path) -> None:
    environment = {key: value for key, value in os.environ.items() if key not in SETTING_NAMES}
    for arguments in (["--help"], *([command, "--help"] for command in COMMANDS)):
        done = subprocess.run(
            [sys.executable, "-m", "bot", *arguments],
            cwd=tmp_path,
            env=environment | {"PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("usage: python -m bot")
        assert "local mode" not in done.stderr.lower() and not (tmp_path / "data").exists(), "nothing started"
        if arguments == ["--help"]:
            assert all(command in done.stdout for command in COMMANDS)


def test_check_without_a_token_looks_at_local_modes_database(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["check"]) == 0
    said = capsys.readouterr().out
    assert "local mode (DISCORD_TOKEN is not set)" in said
    assert "data/local.db (SQLite) does not exist yet: the bot creates it when it starts" in said
    assert not Path("data").exists(), "check changes nothing"


def test_check_prints_the_invite_link(
    env: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "tilehost.db"
    import asyncio

    asyncio.run(open_a_lobby(database))
    env.setenv("DISCORD_TOKEN", TOKEN)
    env.setenv("TILEHOST_DB", str(database))
    assert cli.main(["check"]) == 0
    said = capsys.readouterr().out
    applied = len(migrations("sqlite"))
    assert f"{database} (SQLite): reachable and writable, all {applied} migrations applied, 1 game" in said
    [line] = [line for line in said.splitlines() if line.startswith("invite: ")]
    link = line.removeprefix("invite: ")
    assert link == invite_url(APPLICATION_ID)
    query = parse_qs(urlsplit(link).query)
    assert query["client_id"] == [str(APPLICATION_ID)] and query["scope"] == ["bot applications.commands"]
    assert int(query["permissions"][0]) == PERMISSIONS.value
    assert TOKEN not in said


def test_check_says_what_is_wrong(
    env: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("LOG_LEVEL", "verbose")
    assert cli.main(["check"]) == 2
    assert (
        capsys.readouterr().err
        == "settings: LOG_LEVEL='verbose' is not allowed: DEBUG, INFO, WARNING, ERROR.\n"
    )
    env.delenv("LOG_LEVEL")
    database = tmp_path / "readonly.db"
    import asyncio

    asyncio.run(open_a_lobby(database))
    database.chmod(0o444)
    env.setenv("DISCORD_TOKEN", TOKEN)
    env.setenv("TILEHOST_DB", "/proc/version" if os.geteuid() == 0 else str(database))
    assert cli.main(["check"]) == 3
    assert "cannot be opened and written" in capsys.readouterr().err


def test_the_permissions_are_the_ones_the_docs_explain() -> None:
    hosting = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    from bot.ui.invite import permission_title

    for name in PERMISSION_REASONS:
        assert f"| {permission_title(name)} |" in hosting, f"docs/hosting.md explains {name}"
    assert str(PERMISSIONS.value) in hosting
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert str(PERMISSIONS.value) in readme
    assert all(permission_title(name) in readme for name in PERMISSION_REASONS), "the README lists them"
    assert "use_application_commands" not in PERMISSION_REASONS, "members need it, not the bot"


def test_alive_reads_the_health_file(env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert cli.main(["check", "--alive"]) == 1, "no heartbeat without TILEHOST_HEALTH_FILE"
    health = tmp_path / "alive"
    env.setenv("TILEHOST_HEALTH_FILE", str(health))
    assert cli.main(["check", "--alive"]) == 1
    health.touch()
    assert cli.main(["check", "--alive"]) == 0
    old = time.time() - cli.ALIVE_SECONDS - 5
    os.utime(health, (old, old))
    assert cli.main(["check", "--alive"]) == 1


def test_token_set_tells_make_which_mode_runs(env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert cli.main(["check", "--token-set"]) == 1
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\n", encoding="utf-8")
    assert cli.main(["check", "--token-set"]) == 0
