"""Results files of one JSON object a line, appended as a bench goes (so a long run can stop and
go on) and read back for its summary: shared by the benches that measure game by game."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def append(path: Path, lines: Iterable[dict[str, Any]], echo: bool = True) -> None:
    """Append ``lines`` to ``path`` (and print each, when ``echo``)."""
    with path.open("a") as file:
        for line in lines:
            text = json.dumps(line)
            file.write(text + "\n")
            if echo:
                print(text, flush=True)


def read(path: Path) -> list[dict[str, Any]]:
    """Every line of ``path``."""
    return [json.loads(text) for text in path.read_text().splitlines() if text.strip()]
