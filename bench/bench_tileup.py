"""Tile Up! benchmark: median render time of a late-game board, of ``legal_moves`` (computed
afresh: the game caches them per state) and of ``apply`` over every legal move of a game.

Run: ``.venv/bin/python bench/bench_tileup.py`` (targets: render < 50 ms, legal_moves < 20 ms).
``--image`` also writes ``docs/images/tileup-board.png`` from a real greedy self-play game.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.timing import fresh, greedy_states, median_ms, timed  # noqa: E402
from games.tileup import GAME, State  # noqa: E402
from rendering.tileup import render_board  # noqa: E402

RUNS = 60
PLAYERS = ["Joe", "Anna", "Cara", "Dev"]
IMAGE = ROOT / "docs" / "images" / "tileup-board.png"


def game(seed: int, players: int) -> list[State]:
    """Every state of a greedy self-play game."""
    return greedy_states(GAME, players, seed)


def apply_timings(states: list[State]) -> list[float]:
    """One timing of ``apply`` for every legal move of each state (legal moves already known,
    as in a search)."""
    samples = []
    for state in states:
        for move in GAME.legal_moves(state):
            samples.extend(timed(lambda state=state, move=move: GAME.apply(state, move), 1))
    return samples


def main() -> None:
    """Print the medians; with ``--image``, write the board image of docs/images."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--image", action="store_true", help="also write the board image of docs/images")
    args = parser.parse_args()
    states = game(4, 4)
    last_quarter = states[len(states) * 3 // 4 : -1]
    late = max(last_quarter, key=lambda s: len(GAME.legal_moves(s)))  # the busiest late position
    busiest = max(states[len(states) // 2 : -1], key=lambda s: len(GAME.legal_moves(s)))
    view = GAME.view(late, None)
    renders = timed(lambda: render_board(view, PLAYERS), RUNS)
    legal_late = timed(lambda: GAME.legal_moves(fresh(late)), RUNS * 5)
    legal_busy = timed(lambda: GAME.legal_moves(fresh(busiest)), RUNS * 5)
    applies = apply_timings(states[::5][:-1])
    tiles = sum(len(stack) for stack in late.board)
    print(f"tileup: 4 players, {tiles} tiles on the board, turn {late.turn} of {states[-1].turn}")
    print(f"render_board median: {median_ms(renders):.1f} ms (target < 50 ms)")
    print(
        f"legal_moves median, late game ({len(GAME.legal_moves(late))} moves): "
        f"{median_ms(legal_late):.2f} ms (target < 20 ms)"
    )
    print(
        f"legal_moves median, busiest second-half position ({len(GAME.legal_moves(busiest))} moves): "
        f"{median_ms(legal_busy):.2f} ms (target < 20 ms)"
    )
    sampled = len(states[::5]) - 1
    print(f"apply median over every legal move of {sampled} states: {median_ms(applies) * 1000:.1f} µs")
    if args.image:
        states = game(3, 3)
        shown = len(states) - 12  # a few moves before the end: a full board, a player placing
        IMAGE.parent.mkdir(parents=True, exist_ok=True)
        render_board(GAME.view(states[shown], None), PLAYERS[:3]).save(IMAGE)
        print(f"wrote {IMAGE.relative_to(ROOT)} (seed 3, 3 players, after move {shown} of {len(states) - 1})")


if __name__ == "__main__":
    main()
