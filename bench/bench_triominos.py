"""Tri-Ominos benchmark: median render time of a late-game board, of ``legal_moves`` and of
``apply``.

Run: ``.venv/bin/python bench/bench_triominos.py`` (targets: render < 50 ms, legal_moves < 20 ms).
``--image PATH`` also saves the late-game board (``docs/images/triominos-board.png`` is made so).

The positions come from a greedy self-play game (seed 7, four players): the fullest board is
rendered; legal moves are timed where they have the most work (empty cells next to the tiles
times tiles in hand); ``apply`` is timed on every move of the game (on fresh copies of the
states, so its legality check computes the legal moves each time).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import fresh, median_ms
from games.ai import GreedyPlayer
from games.triominos import GAME, Move, State
from rendering.triominos import render_board

RUNS = 60
PLAYERS = ["Alice", "Bob", "Carol", "Dave"]


def late_game(seed: int = 7, players: int = 4) -> tuple[State, State, list[tuple[State, Move]]]:
    """Two positions of a greedy self-play game, the heaviest for legal-move generation (the
    most empty cells next to the tiles times the tiles in the hand of the seat to act) and the
    fullest board, and every state of the game with the move played in it."""
    state = GAME.new(players, seed=seed)
    player = GreedyPlayer(seed)
    heaviest, weight, fullest = state, 0, state
    played: list[tuple[State, Move]] = []
    while GAME.to_act(state) is not None:
        if not (state.opening or state.drawn or state.stuck):
            load = len(state.frontier) * len(state.hands[state.turn])
            if load > weight:
                heaviest, weight = state, load
        if len(state.board) > len(fullest.board):
            fullest = state
        move = player.choose(GAME, state)
        played.append((state, move))
        state, _ = GAME.apply(state, move)
    return heaviest, fullest, played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--image", type=Path, help="save the late-game board image here")
    args = parser.parse_args()
    state, fullest, played = late_game()
    view = GAME.view(fullest, None)
    renders = []
    for _ in range(RUNS):
        start = time.perf_counter()
        render_board(view, PLAYERS)
        renders.append(time.perf_counter() - start)
    legal = []
    for _ in range(RUNS * 5):
        copy = fresh(state)
        start = time.perf_counter()
        GAME.legal_moves(copy)
        legal.append(time.perf_counter() - start)
    applies = []
    for before, move in played:
        copy = fresh(before)
        start = time.perf_counter()
        GAME.apply(copy, move)
        applies.append(time.perf_counter() - start)
    moves = len(GAME.legal_moves(state))
    hand = len(state.hands[state.turn])
    print(f"triominos: rendering a board of {len(fullest.board)} tiles")
    print(f"legal moves: {len(state.board)} tiles on the table, {hand} in hand, {moves} moves")
    print(f"render_board median: {median_ms(renders):.1f} ms (target < 50 ms)")
    print(f"legal_moves median: {median_ms(legal):.2f} ms (target < 20 ms)")
    print(f"apply median over the game's {len(played)} moves: {median_ms(applies):.3f} ms")
    if args.image is not None:
        args.image.parent.mkdir(parents=True, exist_ok=True)
        render_board(view, PLAYERS).save(args.image)
        print(f"wrote {args.image}")


if __name__ == "__main__":
    main()
