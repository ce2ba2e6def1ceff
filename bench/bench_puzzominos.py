"""Puzz-Ominos benchmark: median render time of a late-game board and of ``legal_moves``, for
the duel and for solitaire (plus the time of a solitaire hint).

Run: ``.venv/bin/python bench/bench_puzzominos.py`` (targets: render < 50 ms, moves < 20 ms).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ai import GreedyPlayer
from games.puzzominos import GAME
from games.puzzominos.state import Move
from games.puzzominos.state import State as PuzzState
from games.puzzominos.targets import get_target
from games.puzzosolo import GAME as SOLO
from games.puzzosolo.game import position
from games.puzzosolo.rules import first_solution, format_place, hint_place
from games.puzzosolo.state import State as SoloState
from rendering import puzzosolo
from rendering.common import to_png
from rendering.puzzominos import render_board


def late_game(seed: int, plies: int) -> PuzzState:
    """A greedy self-play game stopped after ``plies`` placements."""
    state = GAME.new(2)
    player = GreedyPlayer(seed)
    while GAME.to_act(state) is not None and len(state.placements) < plies:
        state, _ = GAME.apply(state, player.choose(GAME, state))
    return state


def median_ms(action: Callable[[], object], runs: int) -> float:
    """The median wall time of ``action`` in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def render_png(state: PuzzState) -> bytes:
    """The board as PNG bytes (what the bot sends)."""
    return to_png(render_board(state, ["Alice", "Bob"]))


def all_gains(state: PuzzState, moves: Sequence[Move]) -> list[float]:
    """``move_gain`` of every move (what autocomplete and the greedy player do)."""
    return [GAME.move_gain(state, move) for move in moves]


def main() -> None:
    """Print the figures for a few late-game positions."""
    for seed, plies in ((4, 24), (7, 16), (11, 10)):
        state = late_game(seed, plies)
        moves = GAME.legal_moves(state)
        render = median_ms(partial(render_png, state), 30)
        legal = median_ms(partial(GAME.legal_moves, state), 50)
        gains = median_ms(partial(all_gains, state, moves), 10)
        print(
            f"seed {seed}, {len(state.placements)} pieces down: render+png {render:.1f} ms, "
            f"legal_moves {legal:.1f} ms ({len(moves)} moves), move_gain of all {gains:.1f} ms"
        )

    for name, pieces in (("6x10", 4), ("10x12", 8)):
        solution = first_solution(get_target(name))
        board = position(name, [format_place(place) for place in solution[:pieces]])
        moves = SOLO.legal_moves(board)
        render = median_ms(partial(solo_png, board), 30)
        legal = median_ms(partial(SOLO.legal_moves, board), 50)
        hint = median_ms(partial(hint_place, board), 5)
        print(
            f"solitaire {name}, {pieces} pieces down: render+png {render:.1f} ms, "
            f"legal_moves {legal:.1f} ms ({len(moves)} moves), hint {hint:.1f} ms"
        )


def solo_png(state: SoloState) -> bytes:
    """A solitaire board as PNG bytes."""
    return to_png(puzzosolo.render_board(state, ["Alice"]))


if __name__ == "__main__":
    main()
