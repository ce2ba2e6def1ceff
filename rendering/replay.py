"""Replays: an animated GIF of a whole game, and a chart of the scores over the turns."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import THEME, font, text_size
from rendering.registry import renderer

MAX_FRAMES = 30
FRAME_MS = 700
LAST_FRAME_MS = 4000
CHART_SIZE = (540, 300)


def sample_indices(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """At most ``limit`` indices spread evenly over ``range(count)``, first and last included."""
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


def _fit(frame: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``frame`` scaled to fit ``size`` and centred on the background colour."""
    scale = min(size[0] / frame.width, size[1] / frame.height, 1.0)
    if scale < 1.0:
        frame = frame.resize((max(1, round(frame.width * scale)), max(1, round(frame.height * scale))))
    canvas = Image.new("RGB", size, THEME.background)
    canvas.paste(frame, ((size[0] - frame.width) // 2, (size[1] - frame.height) // 2))
    return canvas


def replay_gif(game: str, views: Sequence[Any], players: Sequence[str]) -> bytes:
    """An animated GIF of the boards in ``views`` (public views, one per ply), sampled to at most
    :data:`MAX_FRAMES` frames, every frame the size of the last board."""
    draw = renderer(game).render_board
    chosen = [views[i] for i in sample_indices(len(views))]
    frames = [draw(view, players).convert("RGB") for view in chosen]
    size = frames[-1].size
    fitted = [_fit(frame, size).quantize(colors=255, dither=Image.Dither.NONE) for frame in frames]
    durations = [FRAME_MS] * (len(fitted) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    fitted[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=fitted[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    return buffer.getvalue()


def score_chart(series: Sequence[Sequence[int]], players: Sequence[str], title: str) -> Image.Image:
    """A line chart of every player's score after each ply (``series[ply][seat]``)."""
    width, height = CHART_SIZE
    image = Image.new("RGB", CHART_SIZE, THEME.background)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = 48, 34, width - 12, height - 58
    draw.text((left, 8), title, font=font(15), fill=THEME.ink)
    values = [score for row in series for score in row] or [0]
    low, high = min(0, *values), max(1, *values)
    plies = max(1, len(series) - 1)

    def point(ply: int, score: int) -> tuple[float, float]:
        x = left + (right - left) * ply / plies
        y = bottom - (bottom - top) * (score - low) / (high - low)
        return x, y

    draw.rectangle((left, top, right, bottom), outline=THEME.grid)
    for fraction in (0.0, 0.25, 0.5, 0.75, 1.0):
        value = round(low + (high - low) * fraction)
        _, y = point(0, value)
        draw.line((left, y, right, y), fill=THEME.grid)
        draw.text((left - 6, y), str(value), font=font(11), fill=THEME.muted, anchor="rm")
    draw.text(
        ((left + right) / 2, bottom + 6), f"moves (0-{plies})", font=font(11), fill=THEME.muted, anchor="ma"
    )
    for seat in range(len(players)):
        line = [point(ply, row[seat]) for ply, row in enumerate(series)]
        if len(line) > 1:
            draw.line(line, fill=THEME.player(seat), width=3)
    x = left
    for seat, name in enumerate(players):
        draw.rectangle((x, height - 26, x + 10, height - 16), fill=THEME.player(seat))
        label = name if len(name) <= 14 else name[:13] + "…"
        draw.text((x + 14, height - 29), label, font=font(12), fill=THEME.ink)
        x += 24 + text_size(draw, label, 12)[0]
    return image


def replay_files(record: Any) -> tuple[bytes, bytes, dict[str, Any]]:
    """Replay a :class:`games.records.Record` (validating it move by move) into an animated GIF,
    a score chart PNG and its summary. Raises :class:`games.errors.RecordError` for a bad record."""
    from games import records
    from rendering.common import drawable_names, to_png

    result = records.replay(record)
    game = result.game
    views = [game.view(state, None) for state in result.states]
    names = drawable_names(record.players)
    gif = replay_gif(game.name, views, names)
    series = [tuple(game.scores(state)) for state in result.states]
    label = " (fewest wins)" if game.lower_is_better else ""
    chart = to_png(score_chart(series, names, f"{game.title} · scores{label}"))
    return gif, chart, records.summary(record)
