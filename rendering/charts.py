"""Charts drawn with matplotlib (its Agg renderer, the object API, no pyplot and no global
backend switch): round tick values, the players' board colours (or, where colours are the
tiles', their marks and dashes), and the bundled Noto Sans for every text (by file, so no
system font is ever looked up). The legend is drawn with the boards' own text (names keep their
emoji) under the plot; every text is recorded for the phone-scale tests."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator
from PIL import Image, ImageDraw, ImageStat

from rendering.common import (
    MARK_NAMES,
    REGULAR,
    RGB,
    TEXT,
    THEME,
    WIDTH,
    DrawnText,
    draw_mark,
    font_path,
    px,
    record,
    shorten,
    stack_vertically,
    text,
    text_width,
)

CHART_HEIGHT = 600
"""Charts are :data:`rendering.common.WIDTH` x this many pixels."""
DPI = 200
"""Dots per inch of the figure: at 1000 px wide, a 10 pt tick label (28 px) has digits about
20 px tall, 8 px on a phone."""
TICK_POINTS = 10.0
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
    mark: int | None = None
    """The seat whose mark (:data:`rendering.common.MARK_NAMES`) and dashes the line wears,
    where colour alone must not tell the lines apart."""


MARKERS = {"circle": "o", "square": "s", "triangle": "^", "diamond": "D", "star": "*", "cross": "P"}
DASHES = ("-", (0, (5, 2)), (0, (1, 1.5)), (0, (6, 2, 1, 2)), (0, (3, 1)), (0, (8, 2)))
LEGEND_ROW = px(20)
LEGEND_SAMPLE = px(26)


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
    entries = [(line.name, line.colour, line.mark) for line in series]
    if goal is not None and goal_label:
        entries.append((goal_label, THEME.muted, None))
    legend = _legend(entries, WIDTH)
    with _lock:
        plot = _draw(series, title, x_label, y_label, goal, CHART_HEIGHT - legend.height, marks)
    return stack_vertically([plot, legend])


def _legend(entries: Sequence[tuple[str, RGB, int | None]], width: int) -> Image.Image:
    """Every series' line sample (with its mark) and name, in rows centred under the plot."""
    size = TEXT.small
    items = []
    for name, colour, mark in entries:
        label = shorten(_legend_name(name), size, width // 2)
        items.append((label, colour, mark, LEGEND_SAMPLE + px(4) + text_width(label, size) + px(12)))
    rows: list[list[tuple[str, RGB, int | None, int]]] = []
    for item in items:
        if not rows or sum(i[3] for i in rows[-1]) + item[3] > width - px(8):
            rows.append([])
        rows[-1].append(item)
    image = Image.new("RGB", (width, max(1, len(rows)) * LEGEND_ROW + px(4)), THEME.background)
    draw = ImageDraw.Draw(image)
    for index, row in enumerate(rows):
        x = (width - sum(i[3] for i in row)) // 2
        y = px(2) + LEGEND_ROW * index + LEGEND_ROW // 2
        for label, colour, mark, advance in row:
            draw.line((x, y, x + LEGEND_SAMPLE, y), fill=colour, width=max(2, px(1.1)))
            if mark is not None:
                draw_mark(draw, (x + LEGEND_SAMPLE / 2, y), px(7), mark, colour)
            text(draw, (x + LEGEND_SAMPLE + px(4), y), label, size, THEME.ink, anchor="lm")
            x += advance
    return image


def _record_texts(figure: Figure, canvas: FigureCanvasAgg, image: Image.Image) -> None:
    """Record every visible text of the plot with the colour behind it (the pixels of its box)."""
    renderer = canvas.get_renderer()
    for artist in figure.findobj(Text):
        if not artist.get_visible() or not artist.get_text().strip():
            continue
        box = artist.get_window_extent(renderer)
        crop = (round(box.x0), round(image.height - box.y1), round(box.x1), round(image.height - box.y0))
        if crop[2] <= crop[0] or crop[3] <= crop[1]:
            continue
        median = ImageStat.Stat(image.crop(crop)).median
        red, green, blue = (round(channel * 255) for channel in to_rgb(artist.get_color()))
        size = round(float(artist.get_fontsize()) * DPI / 72)
        behind = (int(median[0]), int(median[1]), int(median[2]))
        record(DrawnText(artist.get_text(), size, REGULAR, 100.0, (red, green, blue), behind, image.width))


def _marks(axes: Any, marks: Sequence[tuple[float, str]], moves: int) -> None:
    """Dotted upright lines at ``marks``, labelled at the top (close ones one under the other),
    each label on the plot's ground."""
    close = moves * 0.05
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
            color=_hex(THEME.ink),
            fontproperties=_font(TICK_POINTS),
            bbox={"boxstyle": "square,pad=0.1", "facecolor": axes.get_facecolor(), "edgecolor": "none"},
            zorder=5,  # over the lines, on the plot's own ground: a line never runs through it
        )


def _draw(
    series: Sequence[Series],
    title: str,
    x_label: str,
    y_label: str,
    goal: float | None,
    height: int,
    marks: Sequence[tuple[float, str]] = (),
) -> Image.Image:
    figure = Figure(figsize=(WIDTH / DPI, height / DPI), dpi=DPI, layout="constrained")
    figure.set_facecolor(_hex(THEME.background))
    axes = figure.add_subplot()
    axes.set_facecolor("#ffffff")
    moves = max((len(line.values) for line in series), default=1) - 1
    values = [value for line in series for value in line.values] + ([goal] if goal is not None else [])
    low, high = min([0.0, *values]), max([1.0, *values])
    for line in series:
        style = {} if line.mark is None else _marked(line.mark, len(line.values))
        axes.plot(
            range(len(line.values)),
            line.values,
            drawstyle="steps-pre",
            color=_hex(line.colour),
            linewidth=2.2,
            **style,
        )
    if goal is not None:
        axes.axhline(goal, color=_hex(THEME.muted), linewidth=1.2, linestyle="--")
    _marks(axes, marks, max(1, moves))
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
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    image = Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba()).convert("RGB")
    _record_texts(figure, canvas, image)
    return image


def _marked(seat: int, points: int) -> dict[str, Any]:
    """A line's dashes and markers for ``seat`` (about a dozen markers along it)."""
    marker = MARKERS[MARK_NAMES[seat % len(MARK_NAMES)]]
    return {
        "linestyle": DASHES[seat % len(DASHES)],
        "marker": marker,
        "markersize": 7,
        "markevery": max(1, points // 12),
    }


def score_chart(
    scores: Sequence[Sequence[int]],
    players: Sequence[str],
    colours: Sequence[RGB],
    title: str,
    *,
    marks: bool = False,
) -> Image.Image:
    """Every player's score after each move (``scores[ply][seat]``), in the players' colours
    (with ``marks``, each line also wears its seat's mark and dashes)."""
    series = [
        Series(name, [row[seat] for row in scores], colours[seat], seat if marks else None)
        for seat, name in enumerate(players)
    ]
    return line_chart(series, title)
