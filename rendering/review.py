"""The pictures of an engine review (see :mod:`bot.between.review`): for each move that lost the
most, the board after the move played above the board after the engine's choice, each under a
band saying which it is; and a chart of every player's expected final score over the game, with
those moves marked.

Boards are public views (no hand is shown), so a review can be posted for everyone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from games import records
from games.core import Game
from games.records import Record
from rendering.charts import LEGEND_NAME, Series, line_chart
from rendering.common import THEME, drawable_names, hand_band, stack_vertically, to_png
from rendering.registry import renderer

ENGINE_COLOUR = THEME.strip_muted
"""The engine's swatch on its band (a light grey on the dark band)."""


def review_pictures(record: Record, data: dict[str, Any]) -> tuple[list[bytes], bytes]:
    """The PNGs of a stored review of ``record``: one per move that lost the most (in the order
    of :data:`data["mistakes"]`), and the chart. Runs in a worker process."""
    game, state = records.start(record)
    states = [state]
    for line in record.moves:
        state, _ = records.play_line(game, state, line)
        states.append(state)
    names = drawable_names(record.players)
    by_ply = {decision["ply"]: decision for decision in data["decisions"]}
    moments = [
        to_png(moment(game, states[ply - 1], by_ply[ply], data["seat"], names, number))
        for number, ply in enumerate(data["mistakes"], start=1)
    ]
    return moments, to_png(expectation_chart(game, data, names, game.view(states[-1], None)))


def moment(
    game: Game[Any, Any], before: Any, decision: dict[str, Any], seat: int, names: Sequence[str], number: int
) -> Image.Image:
    """The board after the move played, then the board after the engine's, each under its band."""
    draw = renderer(game.name)
    played = game.parse_move(before, decision["played"])
    best = game.parse_move(before, decision["best"])
    mine, _ = game.apply(before, played)
    engine, _ = game.apply(before, best)
    yours = f"{decision['played']}{_points(decision['points_played'])}"
    return stack_vertically(
        [
            hand_band(
                draw.seat_colour(game.view(before, None), seat),
                f"{number} · move {decision['ply']} · {names[seat]} played {yours}",
            ),
            draw.board(game.view(mine, None), names),
            hand_band(
                ENGINE_COLOUR, f"The engine would play {decision['best']}{_points(decision['points_best'])}"
            ),
            draw.board(game.view(engine, None), names),
        ]
    )


def _points(points: float) -> str:
    amount = round(points)
    return f" ({amount:+d})" if amount else ""


def expectation_chart(
    game: Game[Any, Any], data: dict[str, Any], names: Sequence[str], final_view: Any
) -> Image.Image:
    """Every player's expected final score after each of the reviewed player's moves (as that
    player could foresee it), held until the next, ending at the real final score; the moves that
    lost the most are marked 1, 2, 3."""
    decisions = data["decisions"]
    plies = data["plies"]
    draw = renderer(game.name)
    series = []
    for seat, name in enumerate(names):
        known = [(d["ply"], d["expected"][seat]) for d in decisions if d.get("expected") is not None]
        values = _held(known, plies, data["final"][seat])
        label = _reviewed(name) if seat == data["seat"] else name
        series.append(Series(label, values, draw.seat_colour(final_view, seat)))
    fewest = " (fewest wins)" if game.lower_is_better else ""
    marks = [(ply - 0.5, str(number)) for number, ply in enumerate(data["mistakes"], start=1)]
    return line_chart(
        series,
        f"{game.title} · expected final scores{fewest}",
        x_label="move",
        y_label="expected final score",
        marks=marks,
    )


def _reviewed(name: str) -> str:
    """The reviewed player's legend name (the legend, not the title, names players: it is drawn
    with the boards' text, which keeps a name's emoji; the chart's own font has none)."""
    mark = " (reviewed)"
    room = LEGEND_NAME - len(mark)
    return (name if len(name) <= room else name[: room - 1].rstrip() + "…") + mark


def _held(points: Sequence[tuple[int, float]], plies: int, final: float) -> list[float]:
    """A value for every ply 0..``plies``: the latest expectation (the first one before it),
    and the final score at the end."""
    if not points:
        return [final] * (plies + 1)
    values = []
    index = 0
    current = points[0][1]
    for ply in range(plies + 1):
        while index < len(points) and points[index][0] <= ply:
            current = points[index][1]
            index += 1
        values.append(current)
    values[-1] = final
    return values
