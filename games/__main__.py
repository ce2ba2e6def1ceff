"""``python -m games``: list the games, replay a record, self-play, play in the terminal, solve.

python -m games list
python -m games replay FILE [--json]
python -m games selfplay GAME --players N --seed S [--levels hard,normal,...] [--budget SECONDS] [--json]
python -m games play GAME [--players N] [--seed S] [--computer SEAT ...]
python -m games solve puzzominos TARGET [--count] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from games import ai, records, registry
from games.ai.match import play_match
from games.core import Game, counted, event_phrase
from games.errors import GameError


def cmd_list(_: argparse.Namespace) -> int:
    """Print the registered games as JSON."""
    listing = [
        {
            "name": game.name,
            "title": game.title,
            "aliases": list(game.aliases),
            "min_players": game.min_players,
            "max_players": game.max_players,
            "options": game.Options().to_dict(),
            "lower_is_better": game.lower_is_better,
        }
        for game in registry.all_games()
    ]
    print(json.dumps(listing, indent=2))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record file and print its final scores and outcome."""
    record = records.Record.from_text(Path(args.file).read_text(encoding="utf-8"))
    summary = records.summary(record)
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        print(_summary_text(summary))
    return 0


def _summary_text(summary: records.Summary) -> str:
    lines = [f"{summary.game}: {counted(summary.moves, 'move')}"]
    for name, score in zip(summary.players, summary.scores, strict=True):
        lines.append(f"  {name}: {score}")
    outcome = summary.outcome
    if outcome:
        winners = ", ".join(summary.players[seat] for seat in outcome.winners)
        lines.append(f"  {'draw' if outcome.is_draw else 'winner'}: {winners} ({outcome.reason})")
    else:
        lines.append("  (not finished)")
    return "\n".join(lines)


def selfplay(
    game: Game[Any, Any],
    players: int,
    seed: int,
    level: str = ai.DEFAULT_LEVEL,
    levels: Sequence[str] | None = None,
    budget: float | None = None,
) -> records.Record:
    """A whole game between computer players (``level`` in every seat, or ``levels[seat]``), as
    a record; ``budget`` is the seconds per decision of ``hard`` players (default 2)."""
    return play_match(game, seat_levels(players, level, levels), seed, budget).record


def seat_levels(players: int, level: str, levels: Sequence[str] | None) -> list[str]:
    """The level of every seat: ``levels`` (one for each seat), else ``level`` everywhere; raises
    :class:`GameError` for a wrong count or an unknown level."""
    chosen = list(levels) if levels else [level]
    if len(chosen) == 1:
        chosen *= players
    if len(chosen) != players:
        raise GameError(f"Give one level, or one level for each of the {players} seats, not {len(chosen)}.")
    try:
        return [ai.level_of(name) for name in chosen]
    except KeyError as error:
        raise GameError(str(error.args[0])) from None


def cmd_selfplay(args: argparse.Namespace) -> int:
    """Play a whole game between computers; print the record, scores and outcome."""
    game = registry.get(args.game)
    if not game.min_players <= args.players <= game.max_players:
        raise GameError(
            f"{game.title} is for {game.min_players}-{game.max_players} players, not {args.players}."
        )
    if args.budget is not None and args.budget <= 0:
        raise GameError(f"The budget is seconds per decision, more than 0, not {args.budget}.")
    levels = [name.strip() for name in args.levels.split(",")] if args.levels else None
    result = play_match(game, seat_levels(args.players, args.level, levels), args.seed, args.budget)
    record = result.record
    summary = records.summary(record)
    if args.json:
        timing = {
            "levels": list(result.levels),
            "decisions": list(result.decisions),
            "slowest_decision_seconds": [round(seconds, 3) for seconds in result.slowest],
        }
        print(json.dumps({**summary.to_dict(), **timing, "record": record.to_text()}, indent=2))
    else:
        print(record.to_text())
        print(_summary_text(summary))
    return 0


def play_terminal(
    game: Game[Any, Any],
    players: int,
    seed: int,
    computers: set[int],
    read: Callable[[str], str] = input,
    out: TextIO = sys.stdout,
) -> records.Record:
    """Hot-seat play in the terminal; seats in ``computers`` are played by the greedy AI."""
    options = game.Options()
    state = game.new(players, options, seed=seed)
    names = [f"Player {i + 1}" for i in range(players)]
    record = records.new_record(game, names, options.to_dict(), seed)
    bots = {seat: ai.GreedyPlayer(seed + seat) for seat in computers}
    while (seat := game.to_act(state)) is not None:
        print(f"\nScores: {list(game.scores(state))}  {game.describe(state, names)}", file=out)
        if seat in bots:
            move = bots[seat].choose(game, state)
            print(f"{names[seat]} (computer) plays {game.format_move(state, move)}", file=out)
        else:
            hand = game.hand(state, seat)
            print(f"{names[seat]} to play; hand: {', '.join(hand) if hand else '-'}", file=out)
            move = _ask_move(game, state, read, out)
        record = record.with_move(seat, game.format_move(state, move))
        state, events = game.apply(state, move)
        for event in events:
            print(f"  {event_phrase(game, event, names)}", file=out)
    outcome = game.outcome(state)
    print(f"\nGame over: {outcome.to_dict() if outcome else '-'}", file=out)
    return record


def _ask_move(game: Game[Any, Any], state: Any, read: Callable[[str], str], out: TextIO) -> Any:
    while True:
        text = read("move (or 'moves' to list them)> ").strip()
        if text == "moves":
            ranked = game.rank_moves(state, game.legal_moves(state))[:25]
            print("  " + "\n  ".join(game.move_label(state, m) for m in ranked), file=out)
            continue
        try:
            return game.parse_move(state, text)
        except GameError as error:
            print(f"  {error}", file=out)


def cmd_play(args: argparse.Namespace) -> int:
    """Hot-seat play in the terminal."""
    game = registry.get(args.game)
    players = args.players or game.min_players
    record = play_terminal(game, players, args.seed, set(args.computer or []))
    print(record.to_text())
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    """Solve a puzzle (Puzz-Ominos solitaire targets)."""
    game = registry.get(args.game)
    if game.name != "puzzominos":
        raise GameError(f"Only Puzz-Ominos has puzzles to solve, not {game.title}.")
    from games.puzzominos import solver

    return solver.main_solve(args.rest)


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(prog="python -m games", description="Tilehost game engines.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="the registered games as JSON").set_defaults(func=cmd_list)
    replay = sub.add_parser("replay", help="replay a record file")
    replay.add_argument("file")
    replay.add_argument("--json", action="store_true")
    replay.set_defaults(func=cmd_replay)
    play = sub.add_parser("selfplay", help="a whole game between computer players")
    play.add_argument("game")
    play.add_argument("--players", type=int, required=True)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--level", default=ai.DEFAULT_LEVEL, help="one level for every seat")
    play.add_argument("--levels", help="a level per seat, e.g. hard,normal (easy, normal, hard, random)")
    play.add_argument("--budget", type=float, help="seconds per decision of a hard player (default 2)")
    play.add_argument("--json", action="store_true")
    play.set_defaults(func=cmd_selfplay)
    hot = sub.add_parser("play", help="hot-seat play in the terminal")
    hot.add_argument("game")
    hot.add_argument("--players", type=int)
    hot.add_argument("--seed", type=int, default=0)
    hot.add_argument("--computer", type=int, action="append", help="a seat (0-based) played by the computer")
    hot.set_defaults(func=cmd_play)
    solve = sub.add_parser("solve", help="solve a puzzle: solve puzzominos TARGET [--count] [--json]")
    solve.add_argument("game")
    solve.add_argument("rest", nargs=argparse.REMAINDER)
    solve.set_defaults(func=cmd_solve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; game errors print a message and exit with 2."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except GameError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
