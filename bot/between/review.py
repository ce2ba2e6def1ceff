"""The engine's review of a finished game, for one player: where they lost the most against the
``hard`` engine's own choice, and each player's expected final score over the game. Pure
computation over a record (no storage, no discord): the functions here run in worker processes.

At each of the player's decisions (a move with a real choice: not forced, not a resignation or
a timeout) the engine sees only what that player saw then (:meth:`games.core.Game.view`: their
own hand and the public table, never the later draws) and gives its verdict on the move played
(:func:`bot.between.engine.judge`). Beside it, from the same view:

- the points each move made at once (exact: the table is public);
- what each move gave away: the most points the next player could take right after it (a greedy
  reply, on average over worlds sampled from what the player could not see);
- what the engine's move set up: the player's own next moves in the line it expects;
- the expected final scores of every player after the move played (greedy playouts to the end
  of the game in sampled worlds): the chart's points.

Everything is counted in playouts, never in seconds: the same record, seat and budget give the
same review on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.between.engine import judge
from bot.words import clip, escape, short
from games import ai, records
from games.core import Game
from games.records import RESIGN, TIMEOUT, Record

VERSION = 1
"""The stored reviews' format and engine; a review stored with another version is made again."""
MAX_PLIES = 5_000
"""A safety bound on one playout to the end of a game."""
MISTAKES = 3


@dataclass(frozen=True)
class ReviewBudget:
    """What one review may spend: ``playouts`` a move for the engine (the per-move budget),
    ``worlds`` sampled worlds a move for the replies and the expected scores, and ``cap``
    engine playouts for the whole request (a long game's moves get fewer each)."""

    playouts: int = 200
    worlds: int = 6
    cap: int = 6_000
    least: int = 24
    """The fewest playouts a move gets however long the game (below that, a verdict says little)."""

    def per_move(self, moves: int) -> int:
        """The engine's playouts for each of ``moves`` moves."""
        if moves <= 0:
            return self.playouts
        return max(min(self.playouts, self.cap // moves), min(self.least, self.playouts))

    def label(self, moves: int) -> str:
        """``200 playouts a move``."""
        return f"{self.per_move(moves)} playouts a move"


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed player: the record line's number, the state before it and
    the move played."""

    ply: int
    number: int
    """The player's decisions counted from 1."""
    state: Any
    notation: str


def decisions(record: Record, seat: int) -> tuple[list[Decision], list[int], int]:
    """Replay ``record``: ``seat``'s decisions (moves with a real choice), the final scores, and
    how many lines the record has. Runs in a worker process."""
    game, state = records.start(record)
    found: list[Decision] = []
    for ply, line in enumerate(record.moves, start=1):
        if (
            line.seat == seat
            and line.text not in (RESIGN, TIMEOUT)
            and game.to_act(state) == seat
            and game.forced_move(state) is None
            and len(game.legal_moves(state)) > 1
        ):
            found.append(Decision(ply, len(found) + 1, state, line.text))
        state, _ = records.play_line(game, state, line)
    return found, list(game.scores(state)), len(record.moves)


def review_decision(
    game: Game[Any, Any], decision: Decision, seat: int, seed: int, playouts: int, worlds: int
) -> dict[str, Any]:
    """The engine's verdict on one decision, with the facts its words are made of (JSON-ready).
    Runs in a worker process."""
    state = decision.state
    played = game.parse_move(state, decision.notation)
    verdict = judge(game, state, seat, played, seed, playouts)
    rng = random.Random(f"review:{seed}")
    samples = _worlds(game, state, seat, rng, worlds)
    return {
        "ply": decision.ply,
        "number": decision.number,
        "played": decision.notation,
        "best": verdict.notation,
        "agreed": verdict.agreed,
        "loss": None if math.isnan(verdict.loss) else round(verdict.loss, 4),
        "error": verdict.error,
        "points_played": _points_now(game, state, seat, played),
        "points_best": _points_now(game, state, seat, verdict.best),
        "gave_played": _gave_away(game, samples, seat, played, rng),
        "gave_best": _gave_away(game, samples, seat, verdict.best, rng),
        "setup": [[step.notation, round(step.points, 2)] for step in verdict.line if step.seat == seat][:2],
        "expected": _expected_finals(game, samples, played, rng),
        "playouts": verdict.playouts,
    }


def _worlds(game: Game[Any, Any], state: Any, seat: int, rng: random.Random, count: int) -> list[Any]:
    """``count`` states ``seat`` could not tell from ``state`` (the view itself, twice, where
    nothing is hidden: only ties then tell playouts apart)."""
    view = game.view(state, seat)
    if not game.hidden_information:
        return [view] * min(2, count)
    return [game.determinize(view, seat, rng) for _ in range(count)]


def _points_now(game: Game[Any, Any], state: Any, seat: int, move: Any) -> float:
    after, _ = game.apply(state, move)
    return float(game.scores(after)[seat] - game.scores(state)[seat])


def _gave_away(
    game: Game[Any, Any], worlds: Sequence[Any], seat: int, move: Any, rng: random.Random
) -> dict[str, Any] | None:
    """The most points the next player could take right after ``move`` (mean over ``worlds``),
    with who that is; None when the mover plays on."""
    taken: list[float] = []
    replier: int | None = None
    for world in worlds:
        after, _ = game.apply(world, move)
        nxt = game.to_act(after)
        if nxt is None or nxt == seat:
            return None
        replier = nxt
        best = max(
            (
                game.scores(game.apply(after, reply)[0])[nxt] - game.scores(after)[nxt]
                for reply in game.legal_moves(after)
            ),
            key=lambda gain: -gain if game.lower_is_better else gain,
        )
        taken.append(float(best))
    if not taken or replier is None:
        return None
    return {"seat": replier, "points": round(sum(taken) / len(taken), 2)}


def _expected_finals(
    game: Game[Any, Any], worlds: Sequence[Any], move: Any, rng: random.Random
) -> list[float]:
    """Every seat's mean final score after ``move`` when everyone then plays the ``normal``
    (greedy) way to the end, over ``worlds``."""
    player = ai.GreedyPlayer(rng.getrandbits(32))
    totals: list[float] = []
    for world in worlds:
        state, _ = game.apply(world, move)
        for _ in range(MAX_PLIES):
            if game.outcome(state) is not None or game.to_act(state) is None:
                break
            state, _ = game.apply(state, player.choose(game, state))
        scores = game.scores(state)
        totals = (
            [a + b for a, b in zip(totals, scores, strict=True)] if totals else [float(s) for s in scores]
        )
    return [round(total / len(worlds), 2) for total in totals]


def summary(
    game: Game[Any, Any],
    seat: int,
    names: Sequence[str],
    reviewed: Sequence[dict[str, Any]],
    final: Sequence[int],
    plies: int,
    budget: ReviewBudget,
) -> dict[str, Any]:
    """The review as stored: the decisions with their verdicts, the three largest losses, and the
    expected final scores over the game (the start's come from the first decision's worlds)."""
    ranked = sorted(
        (d for d in reviewed if not d["agreed"] and d["loss"] is not None and d["loss"] > 0),
        key=lambda d: (-d["loss"], d["ply"]),
    )
    return {
        "version": VERSION,
        "game": game.name,
        "seat": seat,
        "names": list(names),
        "plies": plies,
        "final": list(final),
        "playouts": budget.per_move(len(reviewed)),
        "worlds": budget.worlds,
        "decisions": list(reviewed),
        "mistakes": [d["ply"] for d in ranked[:MISTAKES]],
        "agreed": sum(1 for d in reviewed if d["agreed"]),
    }


# -- words -----------------------------------------------------------------------------------------


def points_words(game: Game[Any, Any], points: float) -> str:
    """``5 points now``, ``no points now``; where points are bad, ``costs 5 points now``."""
    amount = round(points)
    if amount == 0:
        return "no points now"
    unit = "point" if abs(amount) == 1 else "points"
    if game.lower_is_better:
        return f"costs {amount} {unit} now" if amount > 0 else f"takes off {-amount} {unit} now"
    return f"{amount} {unit} now" if amount > 0 else f"loses {-amount} {unit} now"


def loss_words(loss: float, error: float | None, players: int) -> str:
    """How much the engine prefers its move: ``about 14 % less chance to win`` (two players),
    ``an expected place about 14 % worse`` (more), with the margin where known."""
    percent = max(1, round(100 * loss))
    what = (
        f"about {percent} % less chance to win"
        if players == 2
        else f"an expected place about {percent} % worse"
    )
    if error:
        what += f" (± {max(1, round(100 * error))} %)"
    return what


def _gave_words(names: Sequence[str], decision: dict[str, Any], lower_is_better: bool) -> str:
    mine, best = decision.get("gave_played"), decision.get("gave_best")
    if not mine or not best or mine["seat"] != best["seat"]:
        return ""
    who = names[mine["seat"]]
    if lower_is_better:
        return (
            f"after `{decision['played']}`, {who}'s best reply scores {mine['points']:+g}, "
            f"after `{decision['best']}` {best['points']:+g} (fewer is better)"
        )
    if round(mine["points"]) == round(best["points"]):
        return ""
    return (
        f"after `{decision['played']}`, {who} could score up to {round(mine['points'])} at once, "
        f"after `{decision['best']}` up to {round(best['points'])}"
    )


def mistake_words(game: Game[Any, Any], names: Sequence[str], decision: dict[str, Any], number: int) -> str:
    """One move that lost: what was played and what the engine prefers, and why in its words."""
    setup = decision.get("setup") or []
    reasons = [points_words(game, decision["points_best"])]
    if setup:
        notation, points = setup[0]
        reasons.append(f"it sets up `{notation}` next" + (f" ({round(points):+d})" if round(points) else ""))
    gave = _gave_words(names, decision, game.lower_is_better)
    if gave:
        reasons.append(gave)
    played, best = f"`{decision['played']}`", f"`{decision['best']}`"
    cost = loss_words(decision["loss"], decision.get("error"), len(names))
    return (
        f"**{number}. Move {decision['ply']}** (decision {decision['number']}): played {played} "
        f"({points_words(game, decision['points_played'])}); the engine would play {best} "
        f"({'; '.join(reasons)}). {cost[0].upper()}{cost[1:]}."
    )


def review_message(game: Game[Any, Any], game_id: int, names: Sequence[str], data: dict[str, Any]) -> str:
    """The review in words: the engine and its budget, how often it agreed, the moves that cost
    the most, and what the chart shows. Names as written (it may be posted for everyone)."""
    who = escape(short(names[data["seat"]]))
    decisions = data["decisions"]
    by_ply = {decision["ply"]: decision for decision in decisions}
    shown = [escape(short(name)) for name in names]
    engine = f"the hard engine, {data['playouts']} playouts a move"
    lines = [
        f"🔎 **Review of {who}** in **{game.title}** #{game_id} — {engine}, seeing only what {who} "
        "could see at each move.",
        f"The engine agreed with {data['agreed']} of {who}'s {len(decisions)} decisions."
        + (" The moves it liked least:" if data["mistakes"] else " It found nothing better to play."),
    ]
    lines += [
        mistake_words(game, shown, by_ply[ply], number) for number, ply in enumerate(data["mistakes"], 1)
    ]
    lines.append(
        f"The chart: each player's expected final score after each of {who}'s moves (normal play to the "
        f"end in {data['worlds']} worlds {who} could not tell apart), then the real one."
    )
    return clip("\n".join(lines))
