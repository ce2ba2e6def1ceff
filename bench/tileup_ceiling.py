"""Is there room for Tile Up!'s ``hard`` to use more playouts? Its moves measured by whole games.

Tile Up!'s ``hard`` plays its planning policy's first choice unless a short search (12 actions,
judged by the lead) finds another move better by 1.5 standard errors. With ten times fewer
playouts it plays the same moves 83 % of the time and wins as often (49.0 % in 200 games). This
asks whether any one-step search could do better, by measuring moves the way that counts: each
move played in many worlds sampled from the seat's view (:meth:`~games.core.Game.determinize`),
then the planning policy (:func:`games.tileup.heuristics.plan_move`) for both seats to the end of
the game, judged by who won. The policy draws nothing at random, so the worlds are the only luck,
and every move plays the same worlds.

Two modes, both writing one JSON line per decision or game to ``--out`` (appending) and a summary:

``ceiling``: the planning policy against itself. At a share (``--every``) of its decisions with
a choice (not a sure score), its five first-ordered moves (:func:`~games.tileup.heuristics.
plan_first`, the search's candidates; ``--candidates`` for more) are played out in ``--worlds``
worlds each. ``cv`` picks the best on one half of the worlds and measures it on the other (both
ways, averaged): unbiased for the move a perfect one-step search would pick, against the policy's
own. ``upper`` is the best mean over all the worlds less the policy's (biased upwards).

``switches``: ``hard`` (the game's profile, or one changed with ``--horizon``, ``--playouts`` and
``--margin``) against ``hard/10`` of the game's profile, seats alternating; wherever ``hard``'s
move differs from the planning policy's, both are measured as above. The per-game sum is what
``hard``'s departures from the policy are worth (the performance-difference lemma, with the policy
as the yardstick).

Run: ``.venv/bin/python bench/tileup_ceiling.py ceiling --seed 92000 --games 3 --out c.jsonl`` and
``... switches --seed 92100 --games 6 --out s.jsonl``. A measured decision costs about half a
minute of processor early in a game (200 worlds of five moves), less later; a ``switches`` game
a few minutes. ``--summary`` prints a file's summary only.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import jsonl  # noqa: E402
from games.ai import Budget  # noqa: E402
from games.ai.profile import profile_of  # noqa: E402
from games.ai.search import SearchPlayer, mean, rank_result, standard_error  # noqa: E402
from games.registry import get  # noqa: E402
from games.tileup import heuristics  # noqa: E402

GAME = get("tileup")
CANDIDATES = 5


def played_out(
    state: Any, seat: int, moves: Sequence[Any], worlds: int, rng: random.Random
) -> list[list[float]]:
    """Each move's result for ``seat`` (1 a win, 0.5 a shared one, 0 a loss) in ``worlds`` worlds
    sampled from the seat's view, the planning policy playing both seats to the end."""
    view = GAME.view(state, seat)
    results: list[list[float]] = [[] for _ in moves]
    for _ in range(worlds):
        world = GAME.determinize(view, seat, rng)
        for series, move in zip(results, moves, strict=True):
            series.append(whole_game(world, move, seat))
    return results


def whole_game(world: Any, move: Any, seat: int) -> float:
    """``move`` in ``world``, then the planning policy to the end: ``seat``'s result."""
    state, _ = GAME.play_unchecked(world, move)
    while GAME.to_act(state) is not None:
        state, _ = GAME.play_unchecked(state, heuristics.plan_move(state))
    return rank_result(GAME.outcome(state), seat)


def best_advantage(
    state: Any, seat: int, worlds: int, rng: random.Random, candidates: int = CANDIDATES
) -> dict[str, Any]:
    """The best of the search's candidates against the policy's own move (the first), by ``cv``
    and ``upper``, with each candidate's mean."""
    moves = heuristics.plan_first(list(GAME.legal_moves(state)), state)[:candidates]
    series = played_out(state, seat, moves, worlds, rng)
    half = worlds // 2
    first = max(range(len(moves)), key=lambda k: (mean(series[k][:half]), -k))
    second = max(range(len(moves)), key=lambda k: (mean(series[k][half:]), -k))
    base = series[0]
    cv = (
        mean(series[first][half:]) - mean(base[half:]) + mean(series[second][:half]) - mean(base[:half])
    ) / 2
    return {
        "moves": [GAME.format_move(state, move) for move in moves],
        "means": [round(mean(values), 4) for values in series],
        "cv": cv,
        "upper": max(mean(values) for values in series) - mean(base),
    }


def ceiling_game(seed: int, every: float, worlds: int, candidates: int = CANDIDATES) -> list[dict[str, Any]]:
    """The planning policy against itself from deal ``seed``; a line per measured decision."""
    state = GAME.new(2, GAME.Options(), seed=seed)
    pick = random.Random(seed * 11 + 3)
    lines: list[dict[str, Any]] = []
    ply = 0
    while (seat := GAME.to_act(state)) is not None:
        choice = len(GAME.legal_moves(state)) > 1 and heuristics.settled_move(state) is None
        if choice and pick.random() < every:
            found = best_advantage(state, seat, worlds, random.Random(seed * 7919 + ply), candidates)
            lines.append({"seed": seed, "ply": ply, "seat": seat, **found})
        state, _ = GAME.play_unchecked(state, heuristics.plan_move(state))
        ply += 1
    return lines


def switches_game(base_seed: int, index: int, profile: Any, worlds: int) -> dict[str, Any]:
    """Game ``index`` of ``hard`` (``profile``) against ``hard/10`` (deal ``base_seed + index //
    2``, ``hard`` in seat ``index % 2``): the summed advantage of ``hard``'s moves wherever they
    differ from the planning policy's, and the result."""
    seed, hard_seat = base_seed + index // 2, index % 2
    state = GAME.new(2, GAME.Options(), seed=seed)
    hard = SearchPlayer(seed * 31 + hard_seat, Budget(seconds=None), profile)
    tenth = SearchPlayer(seed * 31 + 1 - hard_seat, Budget(seconds=None, scale=0.1))
    rng = random.Random(seed * 7 + 5)
    advantage, errors, decisions, differing = 0.0, 0.0, 0, 0
    while (seat := GAME.to_act(state)) is not None:
        if seat != hard_seat:
            move = tenth.choose(GAME, state)
        else:
            move = hard.choose(GAME, state)
            if len(GAME.legal_moves(state)) > 1:
                decisions += 1
                planned = heuristics.plan_move(state)
                if planned != move:
                    differing += 1
                    ours, theirs = played_out(state, seat, [move, planned], worlds, rng)
                    gaps = [a - b for a, b in zip(ours, theirs, strict=True)]
                    advantage += mean(gaps)
                    errors += (standard_error(gaps) or 0.0) ** 2
        state, _ = GAME.play_unchecked(state, move)
    winners = GAME.outcome(state).winners
    return {
        "index": index,
        "seed": seed,
        "seat": hard_seat,
        "score": 1.0 / len(winners) if hard_seat in winners else 0.0,
        "advantage": advantage,
        "error": errors**0.5,
        "decisions": decisions,
        "differing": differing,
    }


def summary(lines: list[dict[str, Any]]) -> str:
    """What a results file says, with 95 % half-widths."""
    if not lines:
        return "nothing measured"
    if "cv" in lines[0]:
        cv = [line["cv"] for line in lines]
        upper = [line["upper"] for line in lines]
        seeds = f"{min(line['seed'] for line in lines)}-{max(line['seed'] for line in lines)}"
        return (
            f"ceiling, {len(lines)} decisions (seeds {seeds}), per decision: "
            f"cv {mean(cv):+.4f} ± {1.96 * (standard_error(cv) or 0.0):.4f}, "
            f"upper {mean(upper):+.4f} ± {1.96 * (standard_error(upper) or 0.0):.4f}"
        )
    advantage = sum(line["advantage"] for line in lines)
    error = sum(line["error"] ** 2 for line in lines) ** 0.5
    differing = sum(line["differing"] for line in lines)
    scores = [line["score"] for line in lines]
    seeds = f"{min(line['seed'] for line in lines)}-{max(line['seed'] for line in lines)}"
    per_switch = advantage / differing if differing else 0.0
    return (
        f"hard vs hard/10, {len(lines)} games (seeds {seeds}): won {100 * mean(scores):.1f} %; "
        f"{differing} moves off the policy, worth {per_switch:+.4f} ± {1.96 * error / max(differing, 1):.4f} "
        f"each, {advantage / len(lines):+.3f} ± {1.96 * error / len(lines):.3f} a game"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("ceiling", "switches"))
    parser.add_argument("--seed", type=int, default=92000)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="switches: the first game index")
    parser.add_argument("--every", type=float, default=0.15, help="ceiling: the share of decisions measured")
    parser.add_argument("--worlds", type=int, default=200, help="worlds a measured move plays")
    parser.add_argument("--horizon", type=int, help="switches: hard's horizon (default: the game's)")
    parser.add_argument("--playouts", type=int, help="switches: hard's playouts (default: the game's)")
    parser.add_argument("--margin", type=float, help="switches: hard's margin (default: the game's)")
    parser.add_argument("--candidates", type=int, default=CANDIDATES, help="ceiling: moves measured")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--summary", action="store_true", help="only print the file's summary")
    args = parser.parse_args(argv)
    changes = {
        name: value
        for name, value in (("horizon", args.horizon), ("playouts", args.playouts), ("margin", args.margin))
        if value is not None
    }
    profile = dataclasses.replace(profile_of(GAME), **changes)
    if not args.summary:
        for number in range(args.games):
            if args.mode == "ceiling":
                found = ceiling_game(args.seed + number, args.every, args.worlds, args.candidates)
            else:
                found = [switches_game(args.seed, args.first + number, profile, args.worlds)]
            jsonl.append(args.out, found)
    print(summary(jsonl.read(args.out)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
