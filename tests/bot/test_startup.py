"""Start-up failures end the process at once with one line saying what to check (issue 17,
break 7; issue 23): a setting that makes no sense, a database that cannot be written (local
mode's own included), a token Discord refuses, Discord out of reach; and no password is ever
printed. The real ``python -m bot`` runs in a subprocess (Discord's login is replaced where it
would need the network)."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

from bot.storage import Storage
from tests.support.tokens import TOKEN

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 120
"""A guard against a bot that does not end (a hang), not a speed budget: a busy two-core machine
takes seconds just to import the bot."""
LOGIN_FAILS = """
import runpy, sys
import discord, discord.http

async def static_login(self, token):
    raise {error}

discord.http.HTTPClient.static_login = static_login
sys.argv = ["bot"]
runpy.run_module("bot", run_name="__main__")
"""


def run_bot(
    tmp_path: Path, database: str, token: str, code: str | None = None, **settings: str
) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("TILEHOST_", "DISCORD_"))}
    env |= {"DISCORD_TOKEN": token, "TILEHOST_DB": database, "PYTHONPATH": str(ROOT), **settings}
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "bot"]
    return subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=START_SECONDS, check=False
    )


def read_only_database(tmp_path: Path) -> str:
    """A database path the process cannot write: in a read-only folder (root writes anywhere,
    so for root a path under /proc, where nobody can create a file)."""
    if os.geteuid() == 0:
        return "/proc/tilehost-test/tilehost.db"
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    return str(folder / "tilehost.db")


async def create_database(path: Path) -> None:
    storage = await Storage.open(path)
    await storage.close()


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("Tilehost cannot start")]
    assert len(errors) == 1, result.stderr
    return errors[0]


def test_a_read_only_database_stops_the_process(tmp_path: Path) -> None:
    database = read_only_database(tmp_path)
    result = run_bot(tmp_path, database, TOKEN)
    assert result.returncode == 3
    line = one_line_error(result)
    assert database in line and "writable" in line and "TILEHOST_DB" in line


def test_local_mode_checks_its_own_database(tmp_path: Path) -> None:
    """Local mode never uses TILEHOST_DB: a read-only TILEHOST_LOCAL_DB is what stops it, in one
    line naming that setting (a read-only TILEHOST_DB does not matter to it)."""
    database = read_only_database(tmp_path)
    result = run_bot(tmp_path, "/proc/version", "", TILEHOST_LOCAL_DB=database)
    assert result.returncode == 3
    line = one_line_error(result)
    assert database in line and "TILEHOST_LOCAL_DB" in line and "/proc/version" not in line


def test_a_setting_that_makes_no_sense_is_one_line_each(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "db.sqlite", TOKEN, LOG_LEVEL="verbose", TILEHOST_TURN_HOURS="ten")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        "Tilehost cannot start: TILEHOST_TURN_HOURS='ten' is not allowed: a whole number of hours from 0 to "
        "168; 0: no turn clock.",
        "Tilehost cannot start: LOG_LEVEL='verbose' is not allowed: DEBUG, INFO, WARNING, ERROR.",
    ]
    assert not (tmp_path / "db.sqlite").exists()


def test_an_unreachable_postgresql_server_never_shows_its_password(tmp_path: Path) -> None:
    with socket.socket() as closed:  # a port where nothing listens
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    result = run_bot(tmp_path, f"postgresql://tilehost:hunter2secret@127.0.0.1:{port}/tilehost", TOKEN)
    assert result.returncode == 3
    line = one_line_error(result)
    assert "hunter2secret" not in result.stderr + result.stdout
    assert f"postgresql://tilehost:***@127.0.0.1:{port}/tilehost" in line and "password" in line


def test_a_read_only_database_file_stops_the_process(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        database = "/proc/version"  # a file nobody may write, not even root
    else:
        path = tmp_path / "tilehost.db"
        asyncio.run(create_database(path))
        path.chmod(0o444)
        database = str(path)
    result = run_bot(tmp_path, database, TOKEN)
    assert result.returncode == 3 and database in one_line_error(result)


def test_a_refused_token_says_what_to_check(tmp_path: Path) -> None:
    code = LOGIN_FAILS.format(error="discord.LoginFailure('Improper token has been passed.')")
    result = run_bot(tmp_path, str(tmp_path / "tilehost.db"), TOKEN, code)
    assert result.returncode == 4
    line = one_line_error(result)
    assert "refused the token" in line and "DISCORD_TOKEN" in line and "Reset Token" in line


def test_discord_out_of_reach_says_so(tmp_path: Path) -> None:
    code = LOGIN_FAILS.format(error="OSError('Name or service not known')")
    result = run_bot(tmp_path, str(tmp_path / "tilehost.db"), TOKEN, code)
    assert result.returncode == 5
    assert "cannot be reached (Name or service not known)" in one_line_error(result)
