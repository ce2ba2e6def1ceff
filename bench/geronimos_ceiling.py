"""How much better than ``normal`` can a Geronimos player be, and how much of it does ``hard`` take?

The performance-difference lemma: for a policy ``p`` playing one seat against ``normal``,

    win(p) - win(normal) = E over p's games [ sum over p's decisions of A(s, p(s)) ],

where ``A(s, m)`` is the advantage of move ``m`` over ``normal``'s move in ``s`` when both seats
play ``normal`` afterwards. Geronimos hides nothing but the order of the bags (public contents),
so ``A`` is measured exactly as the search measures a move: played out by the search's own
playouts (:class:`games.geronimos.heuristic.Table`, ``normal``'s policy for both seats) on
sampled bag orders, the moves compared on common worlds and dice.

Two modes, both writing one JSON line per game to ``--out`` (appending) and a summary at the end:

``ceiling``: ``normal`` against ``normal``; at every decision with a choice every legal move is
played out in 100 worlds, the 5 best and ``normal``'s move again in 600 fresh ones. Per seat and
game it sums, over the decisions, the best move's advantage: ``cv`` picks the move on one half of
the 600 worlds and measures it on the other (unbiased for the picked move), ``upper`` takes the
best mean over all 600 (biased upwards); each decision is kept too, with ``normal``'s move and
the best. What a one-step search over ``normal``'s playouts could add at most, on ``normal``'s own
games.

``advantage``: ``hard`` (the game's default playouts, no time cap) against ``normal``, seats
alternating; wherever ``hard``'s move differs from what ``normal`` would play, both are played out
in 600 common worlds. The sum per game estimates ``hard``'s win rate above one half with far less
variance than counting wins (the lemma's right side), beside the games' actual results.

Run: ``.venv/bin/python bench/geronimos_ceiling.py ceiling --seed 96000 --games 15 --out c.jsonl``
and ``... advantage --seed 96500 --games 40 --out a.jsonl`` (a game is 1-2 minutes of processor
in ``ceiling``, about 20 s in ``advantage``). ``--summary`` prints a file's summary only.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import jsonl  # noqa: E402
from games.ai import Budget, player_for  # noqa: E402
from games.ai.profile import profile_of  # noqa: E402
from games.ai.search import SearchPlayer, mean, standard_error  # noqa: E402
from games.geronimos import heuristic  # noqa: E402
from games.registry import get  # noqa: E402

GAME = get("geronimos")
PROFILE = profile_of(GAME)
SCREEN, WORLDS, KEEP = 100, 600, 5


def played_out(
    state: Any, seat: int, moves: Sequence[Any], worlds: int, rng: random.Random
) -> list[list[float]]:
    """Each move's result for ``seat`` in ``worlds`` sampled bag orders (common worlds and dice)."""
    results: list[list[float]] = [[] for _ in moves]
    for _ in range(worlds):
        run = heuristic.simulator(GAME, GAME.determinize(state, seat, rng), seat, PROFILE)
        dice = rng.getrandbits(63)
        for series, move in zip(results, moves, strict=True):
            series.append(run(move, random.Random(dice)).value)
    return results


def best_advantage(
    state: Any, seat: int, moves: list[Any], normal_move: Any, rng: random.Random
) -> dict[str, Any]:
    """The best move's advantage over ``normal_move`` in ``state``: ``cv`` and ``upper``."""
    screen = played_out(state, seat, moves, SCREEN, rng)
    ranked = sorted(range(len(moves)), key=lambda i: -mean(screen[i]))
    kept = list(dict.fromkeys([moves.index(normal_move), *ranked[:KEEP]]))
    series = played_out(state, seat, [moves[i] for i in kept], WORLDS, rng)
    base, half = series[0], WORLDS // 2
    first = max(range(len(kept)), key=lambda k: mean(series[k][:half]))
    second = max(range(len(kept)), key=lambda k: mean(series[k][half:]))
    cv = (
        mean(series[first][half:]) - mean(base[half:]) + mean(series[second][:half]) - mean(base[:half])
    ) / 2
    best = max(range(len(kept)), key=lambda k: mean(series[k]))
    return {
        "moves": len(moves),
        "normal": GAME.format_move(state, normal_move),
        "best": GAME.format_move(state, moves[kept[best]]),
        "cv": cv,
        "upper": mean(series[best]) - mean(base),
    }


def ceiling_game(seed: int) -> dict[str, Any]:
    """One ``normal`` against ``normal`` game: per seat the sums of the best advantage, and every
    decision measured (its seat, how many moves, ``normal``'s move, the best one, ``cv``, ``upper``)."""
    state = GAME.new(2, GAME.Options(), seed=seed)
    normals = [player_for("normal", seed * 31 + seat) for seat in range(2)]
    rng = random.Random(seed * 7 + 1)
    sums = [{"cv": 0.0, "upper": 0.0, "decisions": 0} for _ in range(2)]
    measured: list[dict[str, Any]] = []
    while (seat := GAME.to_act(state)) is not None:
        moves = list(GAME.legal_moves(state))
        chosen = normals[seat].choose(GAME, state)
        if len(moves) > 1:
            found = best_advantage(state, seat, moves, chosen, rng)
            sums[seat]["cv"] += found["cv"]
            sums[seat]["upper"] += found["upper"]
            sums[seat]["decisions"] += 1
            measured.append({"seat": seat, **found})
        state, _ = GAME.apply(state, chosen)
    return {"seed": seed, "winners": list(GAME.outcome(state).winners), "seats": sums, "decisions": measured}


def advantage_game(base_seed: int, index: int) -> dict[str, Any]:
    """Game ``index`` of ``hard`` against ``normal`` (deal ``base_seed + index // 2``, ``hard`` in
    seat ``index % 2``) with the summed advantage of ``hard``'s moves over ``normal``'s."""
    seed, hard_seat = base_seed + index // 2, index % 2
    state = GAME.new(2, GAME.Options(), seed=seed)
    opponent = player_for("normal", seed * 31 + 1 - hard_seat)
    shadow = player_for("normal", seed * 31 + hard_seat)  # what normal would play in hard's seat
    hard = SearchPlayer(seed=seed * 31 + hard_seat, budget=Budget(seconds=None))
    rng = random.Random(seed * 7 + 5)
    advantage, decisions, differing = 0.0, 0, 0
    while (seat := GAME.to_act(state)) is not None:
        if seat != hard_seat:
            move = opponent.choose(GAME, state)
        else:
            move = hard.choose(GAME, state)
            if len(GAME.legal_moves(state)) > 1:
                decisions += 1
                alternative = shadow.choose(GAME, state)
                if alternative != move:
                    differing += 1
                    ours, theirs = played_out(state, seat, [move, alternative], WORLDS, rng)
                    advantage += mean(ours) - mean(theirs)
        state, _ = GAME.apply(state, move)
    winners = GAME.outcome(state).winners
    score = 1.0 / len(winners) if hard_seat in winners else 0.0
    return {
        "index": index,
        "seed": seed,
        "seat": hard_seat,
        "score": score,
        "advantage": advantage,
        "decisions": decisions,
        "differing": differing,
    }


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its 95 % half-width (normal approximation)."""
    return mean(values), 1.96 * (standard_error(values) or 0.0)


def summary(lines: list[dict[str, Any]]) -> str:
    """What a results file says."""
    if not lines:
        return "no games"
    if "seats" in lines[0]:
        by_seed = {line["seed"]: line for line in lines}
        cv = [seat["cv"] for line in by_seed.values() for seat in line["seats"]]
        upper = [seat["upper"] for line in by_seed.values() for seat in line["seats"]]
        (c, ch), (u, uh) = interval(cv), interval(upper)
        seeds = f"{min(by_seed)}-{max(by_seed)}"
        return (
            f"ceiling, {len(by_seed)} games (seeds {seeds}), per seat and game: "
            f"cv {c:+.3f} ± {ch:.3f}, upper {u:+.3f} ± {uh:.3f}"
        )
    advantage = [line["advantage"] for line in lines]
    scores = [line["score"] for line in lines]
    (a, ah), (s, sh) = interval(advantage), interval(scores)
    seeds = f"{min(line['seed'] for line in lines)}-{max(line['seed'] for line in lines)}"
    return (
        f"hard vs normal, {len(lines)} games (seeds {seeds}): won {100 * s:.1f} % ± {100 * sh:.1f}; "
        f"advantage estimate {100 * (0.5 + a):.1f} % ± {100 * ah:.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("ceiling", "advantage"))
    parser.add_argument("--seed", type=int, default=96000)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--first", type=int, default=0, help="advantage: the first game index")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--summary", action="store_true", help="only print the file's summary")
    args = parser.parse_args(argv)
    if not args.summary:
        for number in range(args.games):
            if args.mode == "ceiling":
                line = ceiling_game(args.seed + number)
            else:
                line = advantage_game(args.seed, args.first + number)
            jsonl.append(args.out, [line])
    print(summary(jsonl.read(args.out)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
