"""Geominos benchmark: median render time of a late-game board, of ``legal_moves`` and of ``apply``.

Run: ``.venv/bin/python bench/bench_geominos.py`` (targets: render < 50 ms, legal_moves < 20 ms).
``--image`` also writes ``docs/images/geominos-board.png`` from a real greedy self-play game.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.timing import fresh, greedy_states, median_ms, timed  # noqa: E402
from games.geominos import GAME, Options, State  # noqa: E402
from rendering.geominos import render_board  # noqa: E402

RUNS = 60
PLAYERS = ["Joe", "Anna", "Cara"]
IMAGE = ROOT / "docs" / "images" / "geominos-board.png"


def game(seed: int, players: int, mode: str) -> list[State]:
    """Every state of a greedy self-play game."""
    return greedy_states(GAME, players, seed, Options(mode=mode))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--image", action="store_true", help="also write the board image of docs/images")
    args = parser.parse_args()
    states = game(4, 2, "all")
    late = states[-3]  # two tiles before the end: a full board
    busiest = max(states[len(states) // 2 : -1], key=lambda s: len(GAME.legal_moves(s)))
    view = GAME.view(late, None)
    renders = timed(lambda: render_board(view, PLAYERS[:2]), RUNS)
    legal_late = timed(lambda: GAME.legal_moves(fresh(late)), RUNS * 5)
    legal_busy = timed(lambda: GAME.legal_moves(fresh(busiest)), RUNS * 5)
    print(f"geominos: All-Tile, 2 players, {len(late.board)} tiles on the board")
    print(f"render_board median: {median_ms(renders):.1f} ms (target < 50 ms)")
    print(
        f"legal_moves median, late game ({len(GAME.legal_moves(late))} moves): "
        f"{median_ms(legal_late):.2f} ms (target < 20 ms)"
    )
    print(
        f"legal_moves median, busiest second-half position ({len(GAME.legal_moves(busiest))} moves): "
        f"{median_ms(legal_busy):.2f} ms (target < 20 ms)"
    )
    move = GAME.legal_moves(busiest)[0]
    applies = timed(lambda: GAME.apply(busiest, move), RUNS * 5)
    print(f"apply median, busiest position (the next seat's placements checked): {median_ms(applies):.2f} ms")
    if args.image:
        final = game(11, 3, "five")[-1]
        IMAGE.parent.mkdir(parents=True, exist_ok=True)
        render_board(GAME.view(final, None), PLAYERS).save(IMAGE)
        print(f"wrote {IMAGE.relative_to(ROOT)}: {final.reason}, totals {final.totals}")


if __name__ == "__main__":
    main()
