"""Entry point: ``python -m bot`` runs Tilehost; ``python -m bot --help`` lists its commands
(see :mod:`bot.cli`)."""

from __future__ import annotations

import sys

from bot.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
