"""Puzz-Ominos benchmark: median render time of a late-game board, of computing the legal moves
(the hook, not the protocol's per-state cache), of ``apply`` and of ranking every move, for the
duel and for solitaire (plus the time of a solitaire hint).

Run: ``.venv/bin/python bench/bench_puzzominos.py`` (targets: render < 50 ms, moves < 20 ms).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ai import GreedyPlayer
from games.core import Game
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
        legal = median_ms(partial(GAME._legal_moves, state), 50)
        gains = median_ms(partial(all_gains, state, moves), 10)
        apply = median_ms(partial(apply_all, GAME, state, moves[:100]), 5) / len(moves[:100])
        print(
            f"seed {seed}, {len(state.placements)} pieces down: render+png {render:.1f} ms, "
            f"legal moves {legal:.1f} ms ({len(moves)} moves), apply {apply * 1000:.0f} µs, "
            f"move_gain of all {gains:.1f} ms"
        )

    for name, pieces in (("6x10", 4), ("10x12", 8)):
        solution = first_solution(get_target(name))
        board = position(name, [format_place(place) for place in solution[:pieces]])
        moves = SOLO.legal_moves(board)
        render = median_ms(partial(solo_png, board), 30)
        legal = median_ms(partial(SOLO._legal_moves, board), 50)
        apply = median_ms(partial(apply_all, SOLO, board, moves[:200]), 5) / len(moves[:200])
        ranked = median_ms(partial(SOLO.rank_moves, board, moves), 5)
        hint = median_ms(partial(hint_place, board), 5)
        print(
            f"solitaire {name}, {pieces} pieces down: render+png {render:.1f} ms, "
            f"legal moves {legal:.1f} ms ({len(moves)} moves), apply {apply * 1000:.0f} µs, "
            f"rank_moves {ranked:.1f} ms, hint {hint:.1f} ms"
        )


def apply_all(game: Game[Any, Any], state: object, moves: Sequence[object]) -> None:
    """``apply`` every move to ``state``."""
    for move in moves:
        game.apply(state, move)


def solo_png(state: SoloState) -> bytes:
    """A solitaire board as PNG bytes."""
    return to_png(puzzosolo.render_board(state, ["Alice"]))


if __name__ == "__main__":
    main()
