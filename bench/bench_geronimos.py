"""Geronimos benchmark: median time of rendering a late-game board, of ``legal_moves`` and of
``apply`` (every move of a greedy game, each on a fresh state, legality check included).

Run: ``.venv/bin/python bench/bench_geronimos.py`` (targets: render < 50 ms, legal_moves < 20 ms).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import fresh, greedy_states, median_ms
from games.ai import GreedyPlayer
from games.geronimos import GAME, State
from rendering.geronimos import render_board

RUNS = 60
OPTIONS = {"table": "open", "bag": 60, "bonus": "compulsory"}
"""A big open table; compulsory bonus cards keep the same long game as before they became a choice."""


def late_game(seed: int = 7) -> State:
    """The position before the last move of a greedy self-play game on a big open table."""
    options = GAME.Options.from_dict(OPTIONS)
    state = GAME.new(2, options, seed=seed)
    player = GreedyPlayer(seed)
    previous = state
    while GAME.to_act(state) is not None:
        previous = state
        state, _ = GAME.apply(state, player.choose(GAME, state))
    return previous


def main() -> None:
    state = late_game()
    view = GAME.view(state, None)
    renders = []
    for _ in range(RUNS):
        start = time.perf_counter()
        render_board(view, ["alice", "bob"])
        renders.append(time.perf_counter() - start)
    legal = []
    for _ in range(RUNS * 5):
        copy = fresh(state)
        start = time.perf_counter()
        GAME.legal_moves(copy)
        legal.append(time.perf_counter() - start)
    applies = time_apply()
    moves = len(GAME.legal_moves(state))
    print(f"geronimos: late game with {len(state.board)} cells on the table, {moves} moves")
    print(f"render_board median: {median_ms(renders):.1f} ms (target < 50 ms)")
    print(f"legal_moves median: {median_ms(legal):.2f} ms (target < 20 ms)")
    print(f"apply median: {median_ms(applies):.3f} ms over {len(applies)} moves")


def time_apply(seed: int = 7) -> list[float]:
    """The time of applying each move of a greedy game, each on a fresh copy of its state."""
    options = GAME.Options.from_dict(OPTIONS)
    states = greedy_states(GAME, 2, seed, options)
    player = GreedyPlayer(seed)
    samples = []
    for _ in range(3):
        for state in states[:-1]:
            move = player.choose(GAME, state)
            copy = fresh(state)
            start = time.perf_counter()
            GAME.apply(copy, move)
            samples.append(time.perf_counter() - start)
    return samples


if __name__ == "__main__":
    main()
