"""Replays: an animated GIF of a whole game, and the chart of the game (scores over the moves)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image

from rendering.common import THEME, drawable_names, to_png
from rendering.registry import renderer

MAX_FRAMES = 30
FRAME_MS = 700
LAST_FRAME_MS = 4000
GIF_REDUCTION = 2
"""Frames are halved (500 px wide): the proportions, and so the phone view, stay; a GIF of 30
frames stays small and quick to make (halving is a fast box filter)."""


def sample_indices(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """At most ``limit`` indices spread evenly over ``range(count)``, first and last included."""
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


def _fit(frame: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``frame`` halved, then scaled down to fit ``size`` if need be, centred on the background."""
    frame = frame.reduce(GIF_REDUCTION)
    scale = min(size[0] / frame.width, size[1] / frame.height, 1.0)
    if scale < 1.0:
        new_size = (max(1, round(frame.width * scale)), max(1, round(frame.height * scale)))
        frame = frame.resize(new_size, Image.Resampling.BOX)
    if frame.size == size:
        return frame
    canvas = Image.new("RGB", size, THEME.background)
    canvas.paste(frame, ((size[0] - frame.width) // 2, (size[1] - frame.height) // 2))
    return canvas


def replay_gif(game: str, views: Sequence[Any], players: Sequence[str]) -> bytes:
    """An animated GIF of the boards in ``views`` (public views, one per ply), sampled to at most
    :data:`MAX_FRAMES` frames, every frame the size of the last board halved,
    all in the palette of the last one."""
    draw = renderer(game).board
    chosen = [views[i] for i in sample_indices(len(views))]
    frames = [draw(view, players).convert("RGB") for view in chosen]
    size = (frames[-1].width // GIF_REDUCTION, frames[-1].height // GIF_REDUCTION)
    fitted = [_fit(frame, size) for frame in frames]
    palette = fitted[-1].quantize(colors=255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    coded = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in fitted]
    durations = [FRAME_MS] * (len(coded) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    coded[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=coded[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    return buffer.getvalue()


def replay_files(record: Any) -> tuple[bytes, bytes, Any]:
    """Replay a :class:`games.records.Record` (validating it move by move) into an animated GIF,
    the game's chart as PNG (:meth:`rendering.base.Renderer.chart`) and its
    :class:`games.records.Summary`. Raises
    :class:`games.errors.RecordError` for a bad record."""
    from games import records

    result = records.replay(record)
    game = result.game
    views = [game.view(state, None) for state in result.states]
    names = drawable_names(record.players)
    gif = replay_gif(game.name, views, names)
    scores = [tuple(game.scores(state)) for state in result.states]
    label = " (fewest wins)" if game.lower_is_better else ""
    chart = renderer(game.name).chart(views, scores, names, f"{game.title} · scores{label}")
    return gif, to_png(chart), records.summary(record, result)
