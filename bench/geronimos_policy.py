"""Can a better own policy lift Geronimos' ``hard``? Two measures of a player that differs from
``normal`` only in how it plays its own cards, against ``normal``, on the fast table
(:class:`games.geronimos.heuristic.Table`), seats alternating on every deal.

``leaders``: ``normal``, except that every Leader it draws (when it cannot win at once) is laid by a
one-step search: ``normal``'s ``--candidates`` best Leader placements are each played out in
``--worlds`` sampled bag orders (the bags' contents are public, their order is not), ``normal``
playing on for both seats, common worlds and dice; the best mean is played. Its win rate bounds
what a better Leader policy in ``hard``'s playouts could add to them.

``weights``: the cross-entropy method over the fifteen weights of ``normal``'s greedy gain (the
siege values of an enemy card with one to five of your cards around it, the same for your own
besieged cards, a card on top, covering an enemy card, a bonus card, and a bias for a Leader on a
card or in an empty cell): each generation draws ``--population`` weightings around the mean
(the first is the mean itself), plays each ``--games`` games against ``normal`` on the
generation's deals, and moves the mean to its best quarter. The last line measures the final
mean and the best weighting seen on ``--check`` fresh games.

Run: ``.venv/bin/python bench/geronimos_policy.py leaders --seed 510000 --games 1000`` (about
20 minutes of processor) and ``... weights --seed 400000`` (about 15 minutes). ``--jobs`` worker
processes (2 by default).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.geronimos import GAME, rules  # noqa: E402
from games.geronimos.cards import LEADER  # noqa: E402
from games.geronimos.heuristic import (  # noqa: E402
    BONUS_CARD,
    DANGER,
    SIEGE_WEIGHT,
    TOP_CARD,
    WIN,
    Table,
    around_cells,
)
from games.geronimos.hexgrid import Cell  # noqa: E402

Placement = tuple[str, int, Cell, bool]
Chooser = Callable[[Table, random.Random], Placement]

NORMAL_WEIGHTS = (
    *SIEGE_WEIGHT[1:6],
    *(DANGER * weight for weight in SIEGE_WEIGHT[1:6]),
    TOP_CARD,
    TOP_CARD,
    BONUS_CARD,
    0.0,
    0.0,
)
"""``normal``'s greedy gain as fifteen weights: siege 1-5, danger 1-5, top card, covering an enemy
card (on top of the top card), bonus card, a Leader on a card, a Leader in an empty cell."""
POSITIVE = 13
"""The first weights are positive (searched on a log scale); the Leader biases are not."""


def weighed_gain(table: Table, weights: Sequence[float], card: str, rotation: int, cell: Cell) -> float:
    """:meth:`Table.gain` with free weights (the same as it with :data:`NORMAL_WEIGHTS`: a test
    checks it)."""
    seat = table.turn
    enemy = 1 - seat
    siege = (0.0, *weights[0:5], 0.0)
    danger = (0.0, *weights[5:10], 0.0)
    previous = table.owner.get(cell)
    if previous == seat:
        return 0.0
    gain = weights[10] if previous is None else weights[10] + weights[11] - siege[table.around[cell]]
    mine = 0
    for other in around_cells(cell):
        who = table.owner.get(other)
        count = table.around.get(other, 0)
        if who == enemy:
            mine += 1
            if count == 5:
                return WIN
            gain += siege[count + 1] - siege[count]
        elif who == seat and previous is not None:
            gain -= danger[count - 1] - danger[count]
    if mine == 6:
        return -WIN
    gain -= danger[mine]
    if card == LEADER:
        return gain + (weights[13] if previous is not None else weights[14])
    if not table.opening:
        gain += weights[12] * rules.bonus_for(table.matches(card, rotation, cell))
    return gain


def greedy(weights: Sequence[float]) -> Chooser:
    """The greedy placement by :func:`weighed_gain` (ties at random), as ``normal`` chooses."""

    def choose(table: Table, rng: random.Random) -> Placement:
        best, ties = -math.inf, []
        for option in table.placements():
            gain = weighed_gain(table, weights, option[0], option[1], option[2])
            if gain > best + 1e-9:
                best, ties = gain, [option]
            elif gain >= best - 1e-9:
                ties.append(option)
        return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    return choose


def leader_search(candidates: int, worlds: int) -> Chooser:
    """``normal``'s choice, except a Leader that cannot win at once: the best of ``normal``'s
    ``candidates`` best Leader placements, played out in ``worlds`` common sampled worlds."""
    normal = greedy(NORMAL_WEIGHTS)

    def choose(table: Table, rng: random.Random) -> Placement:
        if table.drawn != LEADER or table.opening:
            return normal(table, rng)
        options = table.placements()
        gains = [table.gain(card, rotation, cell) for card, rotation, cell, _ in options]
        order = sorted(range(len(options)), key=lambda i: -gains[i])
        if gains[order[0]] >= WIN:
            return options[order[0]]
        kept = [options[i] for i in order[:candidates]]
        totals = [0.0] * len(kept)
        seat = table.turn
        for _ in range(worlds):
            world = table.copy()
            for bag in world.bags:
                rng.shuffle(bag)
            dice = rng.getrandbits(63)
            for k, (card, rotation, cell, _) in enumerate(kept):
                playing = world.copy()
                playing.place(card, rotation, cell)
                playing.play_out(random.Random(dice), 400)
                totals[k] += 0.5 if playing.winner is None else float(playing.winner == seat)
        return kept[max(range(len(kept)), key=lambda k: totals[k])]

    return choose


def play(seed: int, seat: int, choose: Chooser) -> float:
    """One game from ``seed``'s deal: ``choose`` in ``seat``, ``normal`` in the other; its
    result for ``seat`` (1 won, 1/2 drawn, 0 lost)."""
    table = Table(GAME.new(2, seed=seed))
    rng = random.Random(seed * 7 + seat)
    while not table.finished:
        if table.turn != seat or not table.drawn:
            table.greedy_step(rng)
            continue
        if not table.placements():
            table.discard()
            continue
        card, rotation, cell, _ = choose(table, rng)
        table.place(card, rotation, cell)
    return 0.5 if table.winner is None else float(table.winner == seat)


@dataclass(frozen=True)
class Job:
    """Games ``index`` of a run: the deal ``seed + index // 2``, the player in seat ``index % 2``."""

    seed: int
    index: int
    mode: str
    weights: tuple[float, ...] = NORMAL_WEIGHTS
    candidates: int = 12
    worlds: int = 32

    def __call__(self) -> float:
        chooser = (
            leader_search(self.candidates, self.worlds) if self.mode == "leaders" else greedy(self.weights)
        )
        return play(self.seed + self.index // 2, self.index % 2, chooser)


def run_job(job: Job) -> float:
    """:meth:`Job.__call__` (for the pool)."""
    return job()


def rate(results: Sequence[float]) -> str:
    """A win rate with its 95 % interval (normal approximation)."""
    share = sum(results) / len(results)
    half_width = 196 * math.sqrt(share * (1 - share) / len(results))
    return f"{100 * share:.1f} % ± {half_width:.1f} ({len(results)} games)"


def cross_entropy(args: argparse.Namespace, pool: Pool) -> None:
    """The ``weights`` mode."""
    rng = random.Random(args.seed)
    mean_x = [math.log(w) for w in NORMAL_WEIGHTS[:POSITIVE]] + list(NORMAL_WEIGHTS[POSITIVE:])
    spread = [0.5] * POSITIVE + [5.0, 5.0]
    best: tuple[float, tuple[float, ...]] = (0.0, NORMAL_WEIGHTS)
    for generation in range(args.generations):
        seed = args.seed + 10_000 * generation
        drawn = [mean_x] + [
            [m + s * rng.gauss(0, 1) for m, s in zip(mean_x, spread, strict=True)]
            for _ in range(args.population - 1)
        ]
        weightings = [decode(x) for x in drawn]
        scores = []
        for weights in weightings:
            results = pool.map(
                run_job, [Job(seed, i, "weights", weights) for i in range(args.games)], chunksize=25
            )
            scores.append(sum(results) / len(results))
        order = sorted(range(len(drawn)), key=lambda i: -scores[i])
        if scores[order[0]] > best[0]:
            best = (scores[order[0]], weightings[order[0]])
        elite = [drawn[i] for i in order[: max(2, args.population // 4)]]
        mean_x = [sum(x[j] for x in elite) / len(elite) for j in range(len(mean_x))]
        spread = [
            max(
                0.05 if j < POSITIVE else 0.5,
                math.sqrt(sum((x[j] - mean_x[j]) ** 2 for x in elite) / len(elite)),
            )
            for j in range(len(mean_x))
        ]
        print(
            f"generation {generation}: the mean {100 * scores[0]:.1f} %, "
            f"the best {100 * scores[order[0]]:.1f} % "
            f"({args.games} games each); new mean {show(decode(mean_x))}",
            flush=True,
        )
    check = args.seed + 10_000 * args.generations
    for name, weights in (("final mean", decode(mean_x)), ("best seen", best[1])):
        results = pool.map(
            run_job, [Job(check, i, "weights", weights) for i in range(args.check)], chunksize=25
        )
        print(f"{name} {show(weights)} against normal, seeds from {check}: {rate(results)}", flush=True)


def decode(x: Sequence[float]) -> tuple[float, ...]:
    """Weights from the search's coordinates (log scale for the positive ones)."""
    return (*(math.exp(v) for v in x[:POSITIVE]), *x[POSITIVE:])


def show(weights: Sequence[float]) -> str:
    """Weights, rounded."""
    return "(" + ", ".join(f"{w:.2f}" for w in weights) + ")"


def main(argv: list[str] | None = None) -> int:
    """Run one mode and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("leaders", "weights"))
    parser.add_argument("--seed", type=int, required=True, help="the first deal (a fresh one)")
    parser.add_argument("--games", type=int, default=1500, help="games (leaders) or games a weighting")
    parser.add_argument("--candidates", type=int, default=12)
    parser.add_argument("--worlds", type=int, default=32)
    parser.add_argument("--population", type=int, default=24)
    parser.add_argument("--generations", type=int, default=6)
    parser.add_argument("--check", type=int, default=4000, help="games that measure the final weights")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    with Pool(args.jobs) as pool:
        if args.mode == "weights":
            cross_entropy(args, pool)
            return 0
        jobs = [
            Job(args.seed, i, "leaders", candidates=args.candidates, worlds=args.worlds)
            for i in range(args.games)
        ]
        results = pool.map(run_job, jobs, chunksize=4)
        print(
            f"normal with its Leaders searched ({args.candidates} candidates, {args.worlds} worlds) against "
            f"normal, seeds {args.seed}-{args.seed + (args.games - 1) // 2}: {rate(results)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
