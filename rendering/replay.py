"""Replays: an animated GIF of a whole game, and the chart of the game (scores over the moves).

The animation's frames are the boards themselves, full width (:data:`rendering.common.WIDTH`):
on a phone they read as the boards do, and opened full size they are as sharp. GIF was chosen
by measurement (``bench/bench_replay.py``): Discord plays a GIF inline on every client, while an
APNG attachment is shown still, an animated WebP animates on recent desktop clients only, and a
video does not play by itself; a board has few colours, so one 255-colour palette without
dithering keeps text edges exact, and Pillow writes only what changed between frames.
"""

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
PALETTE_SAMPLES = 4
"""Frames (spread over the game, the last included) whose colours make the shared palette."""


def sample_indices(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """At most ``limit`` indices spread evenly over ``range(count)``, first and last included."""
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


def _fit(frame: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``frame`` on a canvas of ``size`` (the last board's): centred, scaled down only if it
    is larger (a board that shrank later in the game)."""
    scale = min(size[0] / frame.width, size[1] / frame.height, 1.0)
    if scale < 1.0:
        new_size = (max(1, round(frame.width * scale)), max(1, round(frame.height * scale)))
        frame = frame.resize(new_size, Image.Resampling.LANCZOS)
    if frame.size == size:
        return frame
    canvas = Image.new("RGB", size, THEME.background)
    canvas.paste(frame, ((size[0] - frame.width) // 2, (size[1] - frame.height) // 2))
    return canvas


def _palette(frames: Sequence[Image.Image]) -> Image.Image:
    """One palette for every frame, from the colours of a few frames spread over the game."""
    chosen = [frames[i] for i in sample_indices(len(frames), PALETTE_SAMPLES)]
    sheet = Image.new("RGB", (chosen[0].width, sum(frame.height for frame in chosen)))
    y = 0
    for frame in chosen:
        sheet.paste(frame, (0, y))
        y += frame.height
    return sheet.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def encode_gif(frames: Sequence[Image.Image]) -> bytes:
    """``frames`` (all one size) as a looping GIF: one shared palette, no dithering."""
    palette = _palette(frames)
    coded = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
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


def replay_gif(game: str, views: Sequence[Any], players: Sequence[str]) -> bytes:
    """An animated GIF of the boards in ``views`` (public views, one per ply), sampled to at most
    :data:`MAX_FRAMES` frames, every frame full width, the size of the last board."""
    draw = renderer(game).board
    chosen = [views[i] for i in sample_indices(len(views))]
    frames = [draw(view, players).convert("RGB") for view in chosen]
    size = frames[-1].size
    return encode_gif([_fit(frame, size) for frame in frames])


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
