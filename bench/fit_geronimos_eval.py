"""Fit the Geronimos search's learned evaluation: a logistic regression of the final result on
:data:`games.geronimos.heuristic.FEATURES`, from games of the ``normal`` policy playing itself.

    .venv/bin/python bench/fit_geronimos_eval.py [--games 3000] [--seed 70000] [--explore 0.2]

Games ``seed`` .. ``seed + games - 1`` are played on the fast table (the first ``--opening``
plies of each now and then at random, so that the positions vary), every position is recorded
from both seats' sides, and labelled with that seat's result (1 won, 0 lost, 1/2 drawn). The fit
runs on four fifths of the games and is checked on the rest (log loss and how often the favourite
won), beside the hand-tuned evaluation (the logistic of ``position_value / 60``). It prints the
weights to paste into ``LEARNED_WEIGHTS``. The seeds are training seeds: the tournaments use
others.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.geronimos import GAME
from games.geronimos import heuristic as h


def play(seed: int, explore: float, opening: int) -> tuple[list[list[float]], list[float], list[float]]:
    """One game: the features of every position from both sides, the results, and the
    hand-tuned evaluation's values."""
    table = h.Table(GAME.new(2, seed=seed))
    rng = random.Random(seed)
    rows: list[tuple[list[float], int, float]] = []
    plies = 0
    while not table.finished:
        for seat in (0, 1):
            rows.append((h.features(table, seat), seat, table.value(seat)))
        if plies < opening and table.drawn and rng.random() < explore:
            options = table.placements()
            if options:
                card, rotation, cell, _ = options[rng.randrange(len(options))]
                table.place(card, rotation, cell)
            else:
                table.discard()
        else:
            table.greedy_step(rng)
        plies += 1
    results = [0.5, 0.5] if table.winner is None else [1.0 if table.winner == s else 0.0 for s in (0, 1)]
    return [r[0] for r in rows], [results[r[1]] for r in rows], [r[2] for r in rows]


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, rounds: int = 30) -> np.ndarray:
    """Logistic regression by Newton's method (weights, the last one the intercept)."""
    design = np.hstack([x, np.ones((len(x), 1))])
    weights = np.zeros(design.shape[1])
    for _ in range(rounds):
        p = 1 / (1 + np.exp(-design @ weights))
        gradient = design.T @ (p - y) / len(y) + l2 * weights
        hessian = (design * (p * (1 - p))[:, None]).T @ design / len(y) + l2 * np.eye(len(weights))
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.abs(step).max() < 1e-8:
            break
    return weights


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean log loss."""
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> int:
    """Generate, fit, check, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=70000)
    parser.add_argument("--explore", type=float, default=0.2)
    parser.add_argument("--opening", type=int, default=12)
    args = parser.parse_args()
    data = [play(args.seed + n, args.explore, args.opening) for n in range(args.games)]
    cut = len(data) * 4 // 5

    def stack(part: list[tuple[list[list[float]], list[float], list[float]]]) -> tuple[np.ndarray, ...]:
        xs = np.array([row for rows, _, _ in part for row in rows])
        ys = np.array([y for _, labels, _ in part for y in labels])
        hand = np.array([v for _, _, values in part for v in values])
        return xs, ys, hand

    train_x, train_y, _ = stack(data[:cut])
    test_x, test_y, test_hand = stack(data[cut:])
    weights = fit(train_x, train_y)
    predicted = 1 / (1 + np.exp(-(np.hstack([test_x, np.ones((len(test_x), 1))]) @ weights)))
    hand = 1 / (1 + np.exp(-test_hand / 60.0))
    decided = test_y != 0.5
    print(f"{len(train_y)} training positions, {len(test_y)} test positions")
    for name, p in (
        ("constant", np.full(len(test_y), train_y.mean())),
        ("hand-tuned", hand),
        ("learned", predicted),
    ):
        right = np.mean((p[decided] > 0.5) == (test_y[decided] > 0.5))
        print(f"{name:10}: log loss {log_loss(p, test_y):.4f}, favourite won {100 * right:.1f} %")
    print("LEARNED_WEIGHTS = (")
    for name, weight in zip((*h.FEATURES, "intercept"), weights, strict=True):
        print(f"    {weight:+.4f},  # {name}")
    print(")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
