"""The engine review in words (see :mod:`bot.between.review`): the engine and its budget, how
often it agreed, and for each move that cost the most, what was played, what the engine prefers
and why (points now, what it sets up, what the next player could take), names as written."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from bot.words import clip, escape, short
from games.core import Game


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
    if error and math.isfinite(error):
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
            f"after `{decision['best']}` {best['points']:+g}, fewer being better"
        )
    if round(mine["points"]) == round(best["points"]):
        return ""
    return (
        f"after `{decision['played']}`, {who} could score {round(mine['points'])} at once, "
        f"after `{decision['best']}` {round(best['points'])}"
    )


def mistake_words(game: Game[Any, Any], names: Sequence[str], decision: dict[str, Any], number: int) -> str:
    """One move that lost: what was played and what the engine prefers, and why in its words."""
    setup = decision.get("setup") or []
    reasons = [points_words(game, decision["points_best"])]
    if setup:
        notation, points = setup[0]
        # "for +5", not "(+5)": the reasons are already in parentheses
        reasons.append(
            f"it sets up `{notation}` next" + (f" for {round(points):+d}" if round(points) else "")
        )
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
