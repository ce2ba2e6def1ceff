"""``make image-check``: what the container image installs, checked where no container engine runs.

Runs the image's install steps (``tools/install.sh``, the Dockerfile's one RUN) in a fresh venv,
then the installed bot from another folder (so nothing comes from this source tree): its help,
``check`` with a token (the invite link), ``check --alive`` (the image's health check); checks
that nothing of the tests came along; prints the install's package count and size. Where a
container engine answers (``docker info``), it also builds the image and runs the same commands
in it. Exit 0 when everything holds. CI runs it after ``make test`` (.ci/run).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GxYzAb.abcdefghijklmnopqrstuvwxyz0123456789ABCD"
"""A token of the right shape (application id 1234567890123456789); nothing is sent anywhere."""
NOT_FOR_RUNNING = ("pytest", "playwright", "av", "pgserver", "mypy", "ruff", "hypothesis", "simcord")
IMAGE = "tilehost-image-check"


def run(command: list[str], *, cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run ``command``; its output, or exit with what it said."""
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=1800, check=False
    )
    if done.returncode != 0:
        sys.exit(f"image-check: {' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout


def size_mb(folder: Path) -> float:
    """The size of the files under ``folder``."""
    return (
        sum(path.stat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink())
        / 1e6
    )


def check_bot(python: list[str], workdir: Path, env: dict[str, str]) -> None:
    """The installed bot answers: help, check (with the invite link), check --alive."""
    assert "migrate-db" in run([*python, "--help"], cwd=workdir, env=env)
    said = run([*python, "check"], cwd=workdir, env=env)
    assert "invite: https://discord.com/oauth2/authorize?client_id=1234567890123456789" in said, said
    print("  " + "\n  ".join(said.strip().splitlines()))


def fresh_venv(workdir: Path) -> None:
    """The install steps in a fresh venv, then the bot from outside the source tree."""
    venv = workdir / "venv"
    run(
        ["sh", str(ROOT / "tools" / "install.sh"), str(venv)],
        cwd=ROOT,
        env=os.environ | {"PYTHON": sys.executable},
    )
    python = str(venv / "bin" / "python")
    installed = json.loads(run([python, "-m", "pip", "list", "--format=json"], cwd=workdir))
    names = {package["name"].lower() for package in installed}
    stray = sorted(names & set(NOT_FOR_RUNNING))
    if stray:
        sys.exit(f"image-check: the runtime install brought test tools: {', '.join(stray)}")
    where = run([python, "-c", "import bot; print(bot.__file__)"], cwd=workdir).strip()
    assert where.startswith(str(venv)), f"the bot was imported from {where}, not the venv"
    print(f"runtime install: {len(installed)} packages (pip and setuptools included), {size_mb(venv):.0f} MB")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("TILEHOST_", "DISCORD_"))}
    env |= {"DISCORD_TOKEN": TOKEN, "TILEHOST_DB": str(workdir / "data" / "tilehost.db")}
    check_bot([python, "-m", "bot"], workdir, env)
    health = workdir / "alive"
    health.touch()
    run(
        [python, "-m", "bot", "check", "--alive"],
        cwd=workdir,
        env=env | {"TILEHOST_HEALTH_FILE": str(health)},
    )
    print("the image's install steps work in a fresh venv; the installed bot answers")


def engine() -> str | None:
    """The container engine's command when one answers here, else None."""
    docker = shutil.which("docker")
    if docker is None:
        return None
    done = subprocess.run([docker, "info"], capture_output=True, timeout=60, check=False)
    return docker if done.returncode == 0 else None


def image(docker: str) -> None:
    """Build the image and run the bot's commands in it."""
    run([docker, "build", "--tag", IMAGE, "."], cwd=ROOT)
    base = [docker, "run", "--rm", "--env", f"DISCORD_TOKEN={TOKEN}", IMAGE]
    assert "migrate-db" in run([*base, "--help"], cwd=ROOT)
    said = run([*base, "check"], cwd=ROOT)
    assert "invite: https://discord.com/oauth2/authorize" in said, said
    user = run([docker, "run", "--rm", "--entrypoint", "id", IMAGE, "-u"], cwd=ROOT).strip()
    assert user != "0", "the image runs as a user of its own"
    print(f"image {IMAGE} built; the bot answers in it as user {user}")


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="tilehost-image-"))
    try:
        fresh_venv(workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    docker = engine()
    if docker is None:
        print("no container engine answers here: the image itself was not built (docker build does that)")
        return 0
    image(docker)
    return 0


if __name__ == "__main__":
    sys.exit(main())
