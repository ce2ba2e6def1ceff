"""The container files, checked without a container engine (issue 23): the Dockerfile installs
with the script that ``make image-check`` runs in a fresh venv, runs as a user of its own with
its data in a volume, and its health check and entry point are commands the bot has; the compose
file's settings are settings the bot accepts, its database URL names the database service, and
local mode listens where the published port reaches it. Where a container engine answers, the
image is built and the bot answers in it."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cli import build_parser
from bot.settings import SETTING_NAMES, is_postgres, load_settings

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "examplepassword42"


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined: ``(INSTRUCTION, arguments)``."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def final_stage() -> list[tuple[str, str]]:
    steps = dockerfile()
    last = max(index for index, (instruction, _) in enumerate(steps) if instruction == "FROM")
    return steps[last:]


def exec_form(arguments: str) -> list[str]:
    import json

    parsed = json.loads(arguments)
    assert isinstance(parsed, list)
    return [str(part) for part in parsed]


def env_of(steps: list[tuple[str, str]]) -> dict[str, str]:
    found: dict[str, str] = {}
    for instruction, arguments in steps:
        if instruction == "ENV":
            for pair in shlex.split(arguments):
                name, _, value = pair.partition("=")
                found[name] = value
    return found


def test_the_image_installs_with_the_checked_script_and_runs_unprivileged() -> None:
    steps = dockerfile()
    runs = [arguments for instruction, arguments in steps if instruction == "RUN"]
    assert any(run.startswith('tools/install.sh /opt/tilehost "$EXTRAS"') for run in runs)
    assert ("ARG", 'EXTRAS=""') in steps, "local mode's extra is a build argument"
    final = final_stage()
    [user] = [arguments for instruction, arguments in final if instruction == "USER"]
    assert user not in ("root", "0")
    assert ("VOLUME", "/data") in final
    env = env_of(final)
    assert env["TILEHOST_DB"].startswith("/data/") and env["TILEHOST_LOCAL_DB"].startswith("/data/")
    assert {name for name in env if name.startswith(("TILEHOST_", "DISCORD_"))} <= SETTING_NAMES


def test_the_entry_point_and_health_check_are_commands_of_the_bot() -> None:
    final = dict(final_stage())
    entry = exec_form(final["ENTRYPOINT"])
    assert entry == ["python", "-m", "bot"]
    parser = build_parser()
    assert parser.parse_args(exec_form(final["CMD"])).command == "run"
    health = final["HEALTHCHECK"]
    assert "--start-period=" in health
    command = exec_form(health.split(" CMD ", 1)[1])
    assert command[:3] == entry
    options = parser.parse_args(command[3:])
    assert options.command == "check" and options.alive
    assert "TILEHOST_HEALTH_FILE" in env_of(final_stage())


def test_nothing_secret_or_heavy_goes_into_the_build() -> None:
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert "*" in ignored, "everything is left out unless named"
    let_in = {line[1:] for line in ignored if line.startswith("!")}
    assert not let_in & {".env", ".venv", "data", "tests", ".git", "backups"}
    copied = [
        path.rstrip("/")
        for instruction, arguments in dockerfile()
        if instruction == "COPY" and not arguments.startswith("--from")
        for path in arguments.split()[:-1]
    ]
    assert set(copied) == let_in, "the build copies exactly what .dockerignore lets in"


def compose() -> dict[str, Any]:
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    text = re.sub(r"\$\{POSTGRES_PASSWORD(:\?[^}]*)?\}", PASSWORD, text)
    assert "${" not in text, "every variable the compose file uses is tested here"
    loaded = yaml.safe_load(text)
    assert isinstance(loaded, dict)
    return loaded


def settings_of(service: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> Any:
    """What the bot reads in that service: the image's ENV, then the service's environment."""
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    environment = env_of(final_stage()) | {key: str(value) for key, value in service["environment"].items()}
    unknown = {name for name in environment if name not in SETTING_NAMES} - {"PATH", "PYTHONUNBUFFERED"}
    assert not unknown, f"settings the bot does not have: {unknown}"
    for name, value in environment.items():
        if name in SETTING_NAMES:
            monkeypatch.setenv(name, value)
    return load_settings(None, require_token=False)


def test_the_bot_service_uses_the_database_service(monkeypatch: pytest.MonkeyPatch) -> None:
    services = compose()["services"]
    db, bot = services["db"], services["bot"]
    settings = settings_of(bot, monkeypatch)
    assert is_postgres(settings.db_path)
    expected = (
        f"postgresql://{db['environment']['POSTGRES_USER']}:{PASSWORD}@db/{db['environment']['POSTGRES_DB']}"
    )
    assert settings.db_path == expected
    assert bot["depends_on"]["db"]["condition"] == "service_healthy" and "healthcheck" in db
    assert "data:/data" in bot["volumes"] and bot["restart"] == "unless-stopped"
    assert bot["env_file"][0]["path"] == ".env", "the token comes from .env, never from the compose file"


def test_local_mode_is_reachable_from_the_host(monkeypatch: pytest.MonkeyPatch) -> None:
    local = compose()["services"]["local"]
    settings = settings_of(local, monkeypatch)
    assert settings.local_host == "0.0.0.0" and not settings.open_browser
    [published] = local["ports"]
    host_address, host_port, container_port = published.split(":")
    assert host_address == "127.0.0.1", "published on the host's loopback only"
    assert int(host_port) == int(container_port) == settings.local_port, (
        "the page answers only at the port it listens on: the same number outside"
    )
    assert build_parser().parse_args(local["command"]).command == "local"
    assert local["build"]["args"]["EXTRAS"] == "local" and local["profiles"] == ["local"]


def engine() -> str | None:
    docker = shutil.which("docker")
    if docker is None or subprocess.run([docker, "info"], capture_output=True, check=False).returncode != 0:
        return None
    return docker


@pytest.mark.slow
@pytest.mark.skipif(engine() is None, reason="no container engine answers here (docker info)")
def test_the_image_builds_and_the_bot_answers_in_it() -> None:
    done = subprocess.run(
        ["python3", str(ROOT / "tools" / "image_check.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
        env=os.environ.copy(),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "image tilehost-image-check built" in done.stdout
