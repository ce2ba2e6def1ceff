"""Play again a tournament's costliest games with today's code: does every decision stay under the
2 s cap, and is every game still the same?

Reads a results file of ``bench/ai_tournament.py``, picks the games of one pair whose first
entrant's costliest decision took more than ``--over`` seconds of processor when they were
played, plays each again exactly as the tournament did (same deal, seats and players), checks
that it ends the same way in the same number of moves (no time cap: the decisions depend on the
seed only), and prints its costliest decision now beside the old one. One game at a time, one
process: the figure is one search running, as the cap is stated.

Run: ``.venv/bin/python bench/replay_costly.py bench/results/ai-70000-final.json
'tileup|2p|hard:hard/10|seed 70000' --over 1.8``
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.ai_tournament import entrant, one_game  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Replay, check and print; exit 1 when a game came out differently."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="a results file of bench/ai_tournament.py")
    parser.add_argument("pair", help="a pair's key in it, like 'tileup|2p|hard:hard/10|seed 70000'")
    parser.add_argument("--over", type=float, default=1.8, help="seconds of processor (the old costliest)")
    args = parser.parse_args(argv)
    run = json.loads(args.results.read_text(encoding="utf-8"))["runs"][args.pair]
    name, players = run["game"], run["players"]
    first, second = (entrant(level) for level in run["levels"])
    games = sorted(
        (game for game in run["games"].values() if game["slowest_cpu"][0] > args.over),
        key=lambda game: -game["slowest_cpu"][0],
    )
    print(f"{len(games)} games of {args.pair} whose costliest decision took over {args.over} s")
    print("index  seed   same  plies  costliest then  now (processor s)")
    changed = 0
    worst = 0.0
    for old in games:
        new = one_game(name, first, second, players, run["seed"], old["index"])
        same = (new.score, new.plies) == (old["score"], old["plies"])
        changed += not same
        worst = max(worst, new.slowest_cpu[0])
        print(
            f"{old['index']:5}  {new.seed}  {'yes' if same else 'NO '}  {new.plies:5}  "
            f"{old['slowest_cpu'][0]:14.2f}  {new.slowest_cpu[0]:.2f}",
            flush=True,
        )
    print(f"costliest now: {worst:.2f} s; games that came out differently: {changed}")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
