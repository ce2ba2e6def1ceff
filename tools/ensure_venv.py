"""Make sure ``.venv`` exists and was made by this Python (run by ``make`` before installing).

``python3 tools/ensure_venv.py .venv`` stops with one clear message when this Python is older than
Tilehost needs, and (re)creates the virtual environment when it is missing, broken, or was made
by another Python (a first try with Python 3.10, say): no ``make clean`` is needed. It writes
``.venv/.python`` (which Python made it) only when that changes, so that ``make`` reinstalls
only then.

It runs under whatever ``python3`` is, so it keeps to syntax that old Pythons can still read.
"""

import os
import shutil
import subprocess
import sys

NEEDED = (3, 11)
IDENTITY_FILE = ".python"


IDENTITY = (
    "import os, sys; print('.'.join(str(part) for part in sys.version_info[:3]), "
    "os.path.realpath(getattr(sys, '_base_executable', sys.executable)))"
)
"""Prints which Python runs it: its version and where it lives (in a venv, the Python that
made the venv)."""


def identity() -> str:
    """This Python's identity (see IDENTITY)."""
    found = subprocess.run([sys.executable, "-c", IDENTITY], stdout=subprocess.PIPE, check=True)
    return found.stdout.decode("utf-8", "replace").strip()


def too_old() -> bool:
    """True (after saying so) when this Python cannot run Tilehost."""
    if sys.version_info[:2] >= NEEDED:
        return False
    needed = ".".join(str(part) for part in NEEDED)
    found = ".".join(str(part) for part in sys.version_info[:3])
    sys.stderr.write(
        f"Tilehost needs Python {needed} or newer, but make found Python {found} ({sys.executable}).\n"
        f"Install Python {needed} or newer (python.org, or your system's packages, e.g. "
        "`apt install python3.11`), then tell make to use it: `make run PYTHON=python3.11` "
        "(or `make test PYTHON=...`).\n"
    )
    return True


def venv_python(venv: str) -> str:
    """The venv's own interpreter (Scripts\\python.exe on Windows)."""
    if os.name == "nt":
        return os.path.join(venv, "Scripts", "python.exe")
    return os.path.join(venv, "bin", "python")


def recorded(venv: str) -> str:
    """The identity the venv's Python reports, or "" when it is missing or broken."""
    python = venv_python(venv)
    if not os.path.exists(python):
        return ""
    try:
        found = subprocess.run(
            [python, "-c", IDENTITY],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            timeout=60,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return found.stdout.decode("utf-8", "replace").strip()


def ensure(venv: str) -> int:
    """Create or rebuild ``venv`` for this Python; the exit code."""
    if too_old():
        return 1
    wanted = identity()
    found = recorded(venv)
    if found != wanted:
        if os.path.exists(venv):
            made_by = found.split(" ")[0] if found else "a Python that is gone (or it is broken)"
            print(
                "Rebuilding {venv}: it was made by Python {old}; make uses Python {new}.".format(
                    venv=venv, old=made_by, new=wanted.split(" ")[0]
                )
            )
            shutil.rmtree(venv)
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    stamp = os.path.join(venv, IDENTITY_FILE)
    try:
        with open(stamp, encoding="utf-8") as file:
            unchanged = file.read().strip() == wanted
    except OSError:
        unchanged = False
    if not unchanged:
        with open(stamp, "w", encoding="utf-8") as file:
            file.write(wanted + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(ensure(sys.argv[1] if len(sys.argv) > 1 else ".venv"))
