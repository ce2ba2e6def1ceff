"""Rendering benchmark: the median time to draw a late-game board and to encode it as PNG, per
game, and render plus encode against the encode of the same image alone (aim: at most 2).

Run: ``.venv/bin/python bench/bench_render.py [--runs N]``. Boards are drawn through the
registry as the bot draws them (``renderer(game).board``); "first" is the first drawing of the
position in a fresh process (layers and text not cached yet), "render" the median of the runs
after it (as the bot redraws a board of the same size move after move).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


from bench.timing import greedy_states, median_ms, timed
from games import registry
from games.puzzominos.targets import get_target
from games.puzzosolo.game import position
from games.puzzosolo.rules import first_solution, format_place
from rendering.common import to_png
from rendering.registry import renderer


def positions() -> Iterator[tuple[str, Any, list[str]]]:
    """A late position of each game (the same as the per-game benchmarks), with names."""
    geominos = registry.get("geominos")
    states = greedy_states(geominos, 2, 4, geominos.Options(mode="all"))
    yield "geominos", geominos.view(states[-3], None), ["Joe", "Anna"]
    triominos = registry.get("triominos")
    fullest = max(greedy_states(triominos, 4, 7), key=lambda state: len(state.board))
    yield "triominos", triominos.view(fullest, None), ["Alice", "Bob", "Carol", "Dave"]
    geronimos = registry.get("geronimos")
    states = greedy_states(geronimos, 2, 7, geronimos.Options.from_dict({"table": "open", "bag": 60}))
    yield "geronimos", geronimos.view(states[-2], None), ["alice", "bob"]
    puzzominos = registry.get("puzzominos")
    yield "puzzominos", puzzominos.view(greedy_states(puzzominos, 2, 4)[-1], None), ["Alice", "Bob"]
    solution = first_solution(get_target("10x12"))
    yield "puzzosolo", position("10x12", [format_place(place) for place in solution[:8]]), ["Alice"]
    tileup = registry.get("tileup")
    states = greedy_states(tileup, 4, 4)
    yield "tileup", tileup.view(states[len(states) * 3 // 4], None), ["Joe", "Anna", "Cara", "Dev"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    print(f"{'game':11} {'size':>10} {'first':>8} {'render':>8} {'encode':>8} {'ratio':>6}")
    for game, view, names in positions():
        draw = renderer(game).board
        start = time.perf_counter()
        image = draw(view, names)
        first = (time.perf_counter() - start) * 1000
        render = median_ms(timed(lambda: draw(view, names), args.runs))  # noqa: B023
        encode = median_ms(timed(lambda: to_png(image), args.runs))  # noqa: B023
        size = f"{image.width}x{image.height}"
        ratio = (render + encode) / encode
        print(f"{game:11} {size:>10} {first:6.1f}ms {render:6.1f}ms {encode:6.1f}ms {ratio:6.2f}")


if __name__ == "__main__":
    main()
