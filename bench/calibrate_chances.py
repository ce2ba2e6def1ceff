"""Are the chances that hints and reviews report true? Fit a game's chance model, and check it.

A hint says "the computer rates your chances at 73 %", and a review "about 14 % less chance to
win". Both come from the ``hard`` search's playouts, which judge where they stop: a finished game
by its result, an unfinished one by the logistic of the game's ``evaluate`` (see
:class:`games.ai.profile.Result`). That ranks moves well, but it is a chance only where the
playouts reach the end of the game. Where they stop short, a game may give its search profile a
``chance``: a model of the seat's chance of winning the position where the playout stopped,
fitted on games of the playout policy against itself.

``fit GAME``: plays ``--games`` deals from ``--seed`` (two players) with the game's playout
policy in both seats, takes a position every ``--every`` plies with the features of the game's
chance model, and fits its logistic weights by Newton's method: Tile Up!
(:func:`games.tileup.heuristics.win_chance`: the mover's lead and the corners' closed share) and
Puzz-Ominos (:func:`games.puzzominos.game.win_chance`: both seats' lead, whose turn it is and the
pieces played) and Tri-Ominos (:func:`games.triominos.heuristic.win_chance`: both seats' lead over
the target at every round's end, the targets cycling through 200 to 500). Prints the weights
and the fit's log loss and Brier score beside a constant 50 %.

``check GAME``: plays ``--games`` deals from ``--seed`` (``--players``, two by default) with the
game's playout policy in every seat (``normal`` where the game has none). At a share
(``--share``) of the decisions with a choice, ``hard`` (the game's default playouts, no time
cap) decides: its move is played, and its move's mean chance (what a hint says now) and mean
value (what hints said before the chances) are kept with the seat. At the end each is scored
against what the seat won (1, a half for a shared win, 0; with more players, the share of the
others it beat): Brier score, log loss and a table of what was said against what came true.
The chance assumes every seat plays on like the playouts, and so do these games.

Run: ``.venv/bin/python bench/calibrate_chances.py fit tileup --seed 94000 --games 300``,
``... fit puzzominos --seed 95000 --games 150 --every 1``, ``... fit triominos --seed 97000
--games 600`` and
``... check tileup --seed 98000 --games 60 --out c.jsonl`` (``--summary`` reads a file only).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import jsonl  # noqa: E402
from games.ai import Budget, player_for  # noqa: E402
from games.ai.profile import profile_of  # noqa: E402
from games.ai.search import SearchPlayer, rank_result  # noqa: E402
from games.puzzominos import game as puzzominos  # noqa: E402
from games.registry import get  # noqa: E402
from games.tileup import heuristics  # noqa: E402

BINS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


Row = tuple[tuple[float, ...], float]
"""A position's features for the seat it is taken for, and what that seat won in the end."""


def tileup_positions(seeds: Sequence[int], every: int) -> list[Row]:
    """The features of :func:`games.tileup.heuristics.win_chance` for the mover at every
    ``every``-th ply of the planning policy's games against itself."""
    game = get("tileup")
    rows: list[Row] = []
    for seed in seeds:
        state = game.new(2, game.Options(), seed=seed)
        taken: list[tuple[int, tuple[float, ...]]] = []
        ply = 0
        while (seat := game.to_act(state)) is not None:
            if ply % every == 0:
                taken.append((seat, heuristics.chance_features(state, seat)))
            state, _ = game.play_unchecked(state, heuristics.plan_move(state))
            ply += 1
        rows += finished(game, state, taken)
    return rows


def puzzominos_positions(seeds: Sequence[int], every: int) -> list[Row]:
    """The features of :func:`games.puzzominos.game.win_chance` for both seats at every
    ``every``-th ply of ``normal``'s games against itself."""
    game = get("puzzominos")
    rows: list[Row] = []
    for seed in seeds:
        state = game.new(2, game.Options(), seed=seed)
        normals = [player_for("normal", seed * 31 + seat) for seat in range(2)]
        taken: list[tuple[int, tuple[float, ...]]] = []
        ply = 0
        while (seat := game.to_act(state)) is not None:
            if ply % every == 0:
                taken += [(me, puzzominos.chance_features(state, me)) for me in (0, 1)]
            state, _ = game.play_unchecked(state, normals[seat].choose(game, state))
            ply += 1
        rows += finished(game, state, taken)
    return rows


TRIOMINOS_TARGETS = (200, 300, 400, 500)
"""The targets the Tri-Ominos fit's deals cycle through (deal ``seed`` plays to the
``seed % 4``-th)."""


def triominos_positions(seeds: Sequence[int], every: int) -> list[Row]:
    """The feature of :func:`games.triominos.heuristic.win_chance` (the lead over the target)
    for both seats at every round's end of ``normal``'s games against itself (where the search's
    playouts stop), the targets cycling; ``every`` is not used (every round end is taken)."""
    del every
    game = get("triominos")
    rows: list[Row] = []
    for seed in seeds:
        target = TRIOMINOS_TARGETS[seed % len(TRIOMINOS_TARGETS)]
        state = game.new(2, game.Options(target=target), seed=seed)
        normals = [player_for("normal", seed * 31 + seat) for seat in range(2)]
        taken: list[tuple[int, tuple[float, ...]]] = []
        round_number = state.round
        while (seat := game.to_act(state)) is not None:
            state, _ = game.play_unchecked(state, normals[seat].choose(game, state))
            if game.to_act(state) is not None and state.round != round_number:
                round_number = state.round
                taken += [(me, ((state.scores[me] - state.scores[1 - me]) / target,)) for me in (0, 1)]
        rows += finished(game, state, taken)
    return rows


def finished(game: Any, state: Any, taken: list[tuple[int, tuple[float, ...]]]) -> list[Row]:
    """The positions ``taken`` (seat, features) with what each seat won in the finished ``state``."""
    outcome = game.outcome(state)
    assert outcome is not None
    return [(features, rank_result(outcome, seat)) for seat, features in taken]


FITS: dict[str, Callable[[Sequence[int], int], list[Row]]] = {
    "tileup": tileup_positions,
    "puzzominos": puzzominos_positions,
    "triominos": triominos_positions,
}
"""The games with a fitted chance model, and how their positions are taken."""


def logistic(z: float) -> float:
    """``1 / (1 + e^-z)``, clipped."""
    return 1 / (1 + math.exp(-max(-60.0, min(60.0, z))))


def fit_logistic(rows: Sequence[Sequence[float]], results: Sequence[float], rounds: int = 30) -> list[float]:
    """The weights (no intercept) of a logistic regression of ``results`` on ``rows``, by
    Newton's method."""
    size = len(rows[0])
    weights = [0.0] * size
    for _ in range(rounds):
        gradient = [0.0] * size
        hessian = [[1e-9 if i == j else 0.0 for j in range(size)] for i in range(size)]
        for row, result in zip(rows, results, strict=True):
            chance = logistic(sum(w * x for w, x in zip(weights, row, strict=True)))
            slope = chance * (1 - chance)
            for i in range(size):
                gradient[i] += (result - chance) * row[i]
                for j in range(size):
                    hessian[i][j] += slope * row[i] * row[j]
        step = solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
    return weights


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix x = vector`` (Gauss-Jordan with partial pivoting)."""
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    for i in range(size):
        pivot = max(range(i, size), key=lambda r: abs(rows[r][i]))
        rows[i], rows[pivot] = rows[pivot], rows[i]
        for r in range(size):
            if r != i:
                factor = rows[r][i] / rows[i][i]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[i], strict=True)]
    return [rows[i][size] / rows[i][i] for i in range(size)]


def scores(said: Sequence[float], results: Sequence[float]) -> tuple[float, float]:
    """Brier score and log loss of the chances ``said`` against the ``results``."""
    brier = sum((p - r) ** 2 for p, r in zip(said, results, strict=True)) / len(said)
    clipped = [min(max(p, 1e-6), 1 - 1e-6) for p in said]
    loss = -sum(
        r * math.log(p) + (1 - r) * math.log(1 - p) for p, r in zip(clipped, results, strict=True)
    ) / len(said)
    return brier, loss


def reliability(said: Sequence[float], results: Sequence[float]) -> list[tuple[str, int, float, float]]:
    """Per band of chances said: the band, how many, the mean said and the mean result."""
    bands = []
    for low, high in itertools.pairwise(BINS):
        inside = [
            (p, r)
            for p, r in zip(said, results, strict=True)
            if low <= p < high or (high == 1.0 and p == 1.0)
        ]
        if inside:
            bands.append(
                (
                    f"{round(100 * low)}-{round(100 * high)} %",
                    len(inside),
                    sum(p for p, _ in inside) / len(inside),
                    sum(r for _, r in inside) / len(inside),
                )
            )
    return bands


def check_game(
    name: str, seed: int, share: float, playouts: int | None = None, players: int = 2
) -> list[dict[str, Any]]:
    """One deal of ``check`` for ``players``: a line per decision asked (seat, chance, value, the
    seat's result: for more than two players, the share of the others it beat); ``hard`` makes
    ``playouts`` playouts a decision (None: the game's default)."""
    game = get(name)
    profile = profile_of(game)
    state = game.new(players, game.Options(), seed=seed)
    rng, pick = random.Random(seed), random.Random(seed + 1)
    normals = [player_for("normal", seed * 31 + seat) for seat in range(players)]
    hard = SearchPlayer(seed, Budget(playouts=playouts, seconds=None))
    asked: list[dict[str, Any]] = []
    while (seat := game.to_act(state)) is not None:
        move = None
        if len(game.legal_moves(state)) > 1 and pick.random() < share:
            found = searched(hard, game, state)
            if found is not None:
                move, chance, value = found
                asked.append({"seed": seed, "seat": seat, "chance": chance, "value": value})
        if move is None:
            move = (
                profile.playout(game, state, rng)
                if profile.playout is not None
                else normals[seat].choose(game, state)
            )
        state, _ = game.play_unchecked(state, move)
    outcome = game.outcome(state)
    assert outcome is not None
    return [{**line, "result": rank_result(outcome, line["seat"])} for line in asked]


def searched(hard: SearchPlayer, game: Any, state: Any) -> tuple[Any, float, float] | None:
    """``hard``'s move in ``state`` with its mean chance and mean value, or None when the move
    needs no search (forced, or the game's expert)."""
    search = hard.search(game, state)
    world = search.first_world = search.sample()
    if game.forced_move(world) is not None:
        return None
    expert = search.profile.expert
    if expert is not None and expert(game, world) is not None:
        return None
    best = search.run(search.ordered(world, game.legal_moves(world)))[0]
    return best.move, best.chance(), best.mean()


def summary(lines: list[dict[str, Any]]) -> str:
    """What a ``check`` file says."""
    if not lines:
        return "nothing asked"
    results = [line["result"] for line in lines]
    seeds = f"{min(line['seed'] for line in lines)}-{max(line['seed'] for line in lines)}"
    text = [f"{len(lines)} decisions (seeds {seeds}); a constant 50 %: Brier 0.250, log loss 0.693"]
    for what in ("value", "chance"):
        said = [line[what] for line in lines]
        brier, loss = scores(said, results)
        text.append(f"{what}: Brier {brier:.3f}, log loss {loss:.3f}")
        text += [
            f"  said {band}: {count} decisions, said {mean_said:.2f}, won {mean_won:.2f}"
            for band, count, mean_said, mean_won in reliability(said, results)
        ]
    return "\n".join(text)


def fit_chances(
    name: str, seed: int, games: int, every: int, out: Callable[[str], None] = print
) -> list[float]:
    """``fit GAME``: fit and print the weights of the game's chance model."""
    rows = FITS[name](range(seed, seed + games), every)
    features = [row for row, _ in rows]
    results = [result for _, result in rows]
    weights = fit_logistic(features, results)
    said = [logistic(sum(w * x for w, x in zip(weights, row, strict=True))) for row in features]
    brier, loss = scores(said, results)
    shown = ", ".join(f"{w:.4f}" for w in weights)
    out(f"{len(rows)} positions (seeds {seed}-{seed + games - 1}): weights ({shown})")
    out(f"fit: Brier {brier:.3f}, log loss {loss:.3f} (a constant 50 %: 0.250, 0.693)")
    return weights


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("fit", "check"))
    parser.add_argument("game")
    parser.add_argument("--seed", type=int, default=98000)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--every", type=int, default=5, help="fit: a position every this many plies")
    parser.add_argument("--share", type=float, default=0.05, help="check: the share of decisions asked")
    parser.add_argument("--players", type=int, default=2, help="check: how many players")
    parser.add_argument("--out", type=Path, help="check: the results file (appended to)")
    parser.add_argument("--summary", action="store_true", help="check: only print the file's summary")
    args = parser.parse_args(argv)
    if args.mode == "fit":
        if args.game not in FITS:
            parser.error(f"the games with a fitted chance model: {', '.join(FITS)}")
        fit_chances(args.game, args.seed, args.games, args.every)
        return 0
    if args.out is None:
        parser.error("check needs --out")
    if not args.summary:
        for seed in range(args.seed, args.seed + args.games):
            found = check_game(args.game, seed, args.share, players=args.players)
            jsonl.append(args.out, found, echo=False)
    print(summary(jsonl.read(args.out)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
