"""Charts drawn with matplotlib (its Agg renderer, the object API, no pyplot and no global
backend switch): round tick values, a full legend, the players' board colours, and the bundled
Noto Sans for every text (by file, so no system font is ever looked up)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.ticker import MaxNLocator
from PIL import Image

from rendering.common import RGB, THEME, WIDTH, font_path

CHART_HEIGHT = 600
"""Charts are :data:`rendering.common.WIDTH` x this many pixels."""
DPI = 200
"""Dots per inch of the figure: at 1000 px wide, a 9.5 pt tick label has digits about 19 px
tall, 7.6 px on a phone."""
TICK_POINTS = 9.5
LEGEND_POINTS = 9.5
TITLE_POINTS = 11.5
LEGEND_NAME = 28
"""Longest name in a legend, in characters (longer ones end with an ellipsis)."""

_lock = threading.Lock()
"""matplotlib shares its font caches between figures: one chart is drawn at a time."""


@dataclass(frozen=True)
class Series:
    """One line of a chart: its legend name, a value after each move, its colour."""

    name: str
    values: Sequence[float]
    colour: RGB


@lru_cache(maxsize=8)
def _font(points: float) -> FontProperties:
    return FontProperties(fname=str(font_path()), size=points)


def _hex(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _legend_name(name: str) -> str:
    return name if len(name) <= LEGEND_NAME else name[: LEGEND_NAME - 1].rstrip() + "…"


def _ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten apart) within ``low..high``."""
    locator = MaxNLocator(nbins=count, steps=[1, 2, 5, 10], integer=True, min_n_ticks=2)
    return [float(value) for value in locator.tick_values(low, high) if low <= value <= high]


def _tick_label(value: float) -> str:
    return f"{value:.0f}".replace("-", "−")


def line_chart(
    series: Sequence[Series],
    title: str,
    *,
    x_label: str = "move",
    y_label: str = "score",
    goal: float | None = None,
    goal_label: str = "",
    marks: Sequence[tuple[float, str]] = (),
) -> Image.Image:
    """Lines of ``series`` over the moves (the value after move ``k`` is drawn from ``k - 1`` to
    ``k``), with round ticks, a legend naming every series and, if given, a dashed line at
    ``goal`` and dotted upright lines at the moves ``marks`` names (each labelled at the top)."""
    with _lock:
        return _draw(series, title, x_label, y_label, goal, goal_label, marks)


def _draw(
    series: Sequence[Series],
    title: str,
    x_label: str,
    y_label: str,
    goal: float | None,
    goal_label: str,
    marks: Sequence[tuple[float, str]] = (),
) -> Image.Image:
    figure = Figure(figsize=(WIDTH / DPI, CHART_HEIGHT / DPI), dpi=DPI, layout="constrained")
    figure.set_facecolor(_hex(THEME.background))
    axes = figure.add_subplot()
    axes.set_facecolor("#ffffff")
    moves = max((len(line.values) for line in series), default=1) - 1
    values = [value for line in series for value in line.values] + ([goal] if goal is not None else [])
    low, high = min([0.0, *values]), max([1.0, *values])
    for line in series:
        axes.plot(
            range(len(line.values)),
            line.values,
            drawstyle="steps-pre",
            color=_hex(line.colour),
            linewidth=2.2,
            label=_legend_name(line.name),
        )
    if goal is not None:
        axes.axhline(goal, color=_hex(THEME.muted), linewidth=1.2, linestyle="--", label=goal_label or None)
    close = max(1, moves) * 0.05
    level, previous = 0, None
    for at, label in sorted(marks):
        level = level + 1 if previous is not None and at - previous < close else 0
        previous = at
        axes.axvline(at, color=_hex(THEME.highlight), linewidth=1.2, linestyle=":")
        axes.annotate(
            label,
            (at, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(3, -2 - 12 * (level % 3)),
            textcoords="offset points",
            va="top",
            color=_hex(THEME.highlight),
            fontproperties=_font(TICK_POINTS),
        )
    room = (high - low) * 0.03
    x_ticks = _ticks(0, max(1, moves))
    y_ticks = _ticks(low - (room if low < 0 else 0), high + room)
    axes.set_xticks(x_ticks, labels=[_tick_label(v) for v in x_ticks], fontproperties=_font(TICK_POINTS))
    axes.set_yticks(y_ticks, labels=[_tick_label(v) for v in y_ticks], fontproperties=_font(TICK_POINTS))
    axes.set_xlim(0, max(1, moves))
    axes.set_ylim(low - (room if low < 0 else 0), high + room)
    axes.grid(True, color=_hex(THEME.grid), linewidth=0.8)
    axes.set_axisbelow(True)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    axes.set_xlabel(x_label, fontproperties=_font(TICK_POINTS), color=_hex(THEME.muted))
    axes.set_ylabel(y_label, fontproperties=_font(TICK_POINTS), color=_hex(THEME.muted))
    axes.set_title(title, fontproperties=_font(TITLE_POINTS), loc="left", color=_hex(THEME.ink))
    if series:
        figure.legend(
            loc="outside lower center",
            ncols=min(len(axes.get_legend_handles_labels()[1]), 3),
            prop=_font(LEGEND_POINTS),
            frameon=False,
            handlelength=1.6,
        )
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    return Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba()).convert("RGB")


def score_chart(
    scores: Sequence[Sequence[int]], players: Sequence[str], colours: Sequence[RGB], title: str
) -> Image.Image:
    """Every player's score after each move (``scores[ply][seat]``), in the players' colours."""
    series = [Series(name, [row[seat] for row in scores], colours[seat]) for seat, name in enumerate(players)]
    return line_chart(series, title)
