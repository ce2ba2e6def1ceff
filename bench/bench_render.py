"""Rendering benchmark: a board job (draw + encode) for every picture the bot sends, at 1000 px.

Run: ``.venv/bin/python bench/bench_render.py [--runs N] [--alternatives]``.

For each picture kind (every game's late board, its hand, the solitaire's board and hand, a
replay's chart, a replay GIF per frame) it prints the median and 90th percentile of the draw, of
the encode (``rendering.common.to_png``, the encoding chosen) and of the whole job, and the size
of the file. "first" is the first drawing in a fresh process (layers and text not cached yet);
the other figures are the runs after it, as the bot redraws boards of the same size move after
move. The aim (issue 21): a late board's job at most 50 ms median on the 2-core machine.

``--alternatives`` also times the encodings that were weighed, on the same pictures: Pillow's
encoder at zlib levels 6 (the old one) and 1, rows filtered with Up and deflated by the standard
library's zlib or by zlib-ng at several levels, and a palette ('P') image of the picture's own
colours (lossy: its error is printed as the mean and largest difference of a channel, 0-255).
Times are wall clock and CPU (process) time: on a shared machine CPU time is the steadier one.
"""

from __future__ import annotations

import argparse
import datetime
import io
import os
import platform
import statistics
import struct
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
from PIL import Image, ImageChops

from bench.timing import greedy_states
from games import registry
from games.puzzominos.targets import get_target
from games.puzzosolo.game import position
from games.puzzosolo.rules import first_solution, format_place
from rendering import common
from rendering.common import to_png
from rendering.registry import renderer
from rendering.replay import replay_gif, sample_indices

NAMES = ["Joe", "Anna", "Cara", "Dev"]


@dataclass(frozen=True)
class Picture:
    """One picture the bot sends: its name and how it is drawn (an image, not yet encoded)."""

    name: str
    draw: Callable[[], Image.Image]


def late_games() -> Iterator[tuple[str, Any, Any, list[str]]]:
    """A late state of each game (the same positions as the per-game benchmarks), with names."""
    geominos = registry.get("geominos")
    yield "geominos", geominos, greedy_states(geominos, 2, 4, geominos.Options(mode="all"))[-3], NAMES[:2]
    triominos = registry.get("triominos")
    fullest = max(greedy_states(triominos, 4, 7), key=lambda state: len(state.board))
    yield "triominos", triominos, fullest, NAMES
    geronimos = registry.get("geronimos")
    states = greedy_states(geronimos, 2, 7, geronimos.Options.from_dict({"table": "open", "bag": 60}))
    yield "geronimos", geronimos, states[-2], NAMES[:2]
    puzzominos = registry.get("puzzominos")
    yield "puzzominos", puzzominos, greedy_states(puzzominos, 2, 4)[-1], NAMES[:2]
    tileup = registry.get("tileup")
    states = greedy_states(tileup, 4, 4)
    yield "tileup", tileup, states[len(states) * 3 // 4], NAMES


def pictures() -> Iterator[Picture]:
    """Every kind of picture: boards and hands of each game, the solitaire's, a replay chart."""
    for name, game, state, names in late_games():
        draw = renderer(name)
        board_view = game.view(state, None)
        seat = game.to_act(state) or 0
        own_view = game.view(state, seat)
        yield Picture(f"{name} board", lambda d=draw, v=board_view, n=names: d.board(v, n))
        yield Picture(f"{name} hand", lambda d=draw, v=own_view, s=seat, n=names: d.hand(v, s, n))
    solution = first_solution(get_target("10x12"))
    solo = position("10x12", [format_place(place) for place in solution[:8]])
    yield Picture("puzzosolo board", lambda: renderer("puzzosolo").board(solo, ["Alice"]))
    yield Picture("puzzosolo hand", lambda: renderer("puzzosolo").hand(solo, 0, ["Alice"]))
    game = registry.get("puzzominos")
    states = greedy_states(game, 2, 4)
    views = [game.view(state, None) for state in states]
    scores = [tuple(game.scores(state)) for state in states]
    chart = renderer("puzzominos")
    yield Picture("replay chart", lambda: chart.chart(views, scores, NAMES[:2], "Puzz-Ominos · scores"))


# -- measuring ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    """Samples of one action, in seconds: wall clock and CPU (process) time."""

    wall: list[float]
    cpu: list[float]

    @staticmethod
    def of(action: Callable[[], object], runs: int) -> Timing:
        wall, cpu = [], []
        for _ in range(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            action()
            cpu.append(time.process_time() - start_cpu)
            wall.append(time.perf_counter() - start)
        return Timing(wall, cpu)

    def text(self) -> str:
        """``median/p90`` wall, and the CPU median, in milliseconds."""
        return f"{ms(self.wall, 50):6.1f} {ms(self.wall, 90):6.1f} {ms(self.cpu, 50):6.1f}"


def ms(samples: list[float], percent: int) -> float:
    """The ``percent``-th percentile of ``samples`` (seconds), in milliseconds."""
    if len(samples) == 1 or percent == 50:
        return statistics.median(samples) * 1000
    return statistics.quantiles(samples, n=100, method="inclusive")[percent - 1] * 1000


def machine() -> str:
    """Date, processor, cores and load average, for the figures' context."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"{now}; {model}; {os.cpu_count()} cores; load average {load}"


def bench_chosen(items: list[Picture], runs: int) -> None:
    """Draw, encode and job figures of every picture with the encoding chosen."""
    print(f"encoding: {describe_choice()}")
    print("times in ms: median and p90 of the wall clock, then the CPU median")
    columns = f"{'draw: med p90 cpu':>20}  {'encode: med p90 cpu':>20}  {'job: med p90 cpu':>20}"
    print(f"{'picture':17} {'size':>9} {'first':>6}  {columns}  {'file':>6}")
    for picture in items:
        start = time.perf_counter()
        image = picture.draw()
        first = (time.perf_counter() - start) * 1000
        draw = Timing.of(picture.draw, runs)
        encode = Timing.of(lambda i=image: to_png(i), runs)  # type: ignore[misc]
        job = Timing.of(lambda p=picture: to_png(p.draw()), runs)  # type: ignore[misc]
        size = len(to_png(image))
        print(
            f"{picture.name:17} {image.width:4}x{image.height:<4} {first:6.1f}  {draw.text()}  "
            f"{encode.text()}  {job.text()}  {size / 1024:5.0f}K",
            flush=True,
        )


def bench_replay(runs: int) -> None:
    """A replay GIF (its frames are boards, halved and quantised): time per frame and size."""
    game = registry.get("puzzominos")
    views = [game.view(state, None) for state in greedy_states(game, 2, 4)]
    frames = len(sample_indices(len(views)))
    gif = b""

    def make() -> None:
        nonlocal gif
        gif = replay_gif("puzzominos", views, NAMES[:2])

    timing = Timing.of(make, max(1, runs // 5))
    print(
        f"{'replay GIF':17} {frames} frames: {ms(timing.wall, 50) / frames:.1f} ms a frame "
        f"(whole GIF {ms(timing.wall, 50):.0f} ms median, CPU {ms(timing.cpu, 50):.0f} ms), "
        f"{len(gif) / 1024:.0f}K"
    )


def describe_choice() -> str:
    return (
        f"PNG written by rendering.common.to_png: lossless, every row Up-filtered, deflated by "
        f"{common.DEFLATE_NAME} level {common.PNG_LEVEL}"
    )


# -- the alternatives weighed ------------------------------------------------------------------


def pillow_png(level: int) -> Callable[[Image.Image], bytes]:
    def encode(image: Image.Image) -> bytes:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=level)
        return buffer.getvalue()

    return encode


def up_png(compress: Callable[[Any, int], bytes], level: int) -> Callable[[Image.Image], bytes]:
    """The chosen writer with another deflate (the standard library's or zlib-ng) and level."""

    def encode(image: Image.Image) -> bytes:
        colour_type, depth = common.PNG_COLOUR_TYPES[image.mode]
        header = struct.pack(">IIBBBBB", image.width, image.height, 8, colour_type, 0, 0, 0)
        data = compress(common.up_filtered(image, depth), level)
        return b"".join(
            [
                common.PNG_SIGNATURE,
                common.png_chunk(b"IHDR", header),
                common.png_chunk(b"IDAT", data),
                common.png_chunk(b"IEND", b""),
            ]
        )

    return encode


_LUT = np.empty(1 << 24, dtype=np.uint8)
"""Colour (24 bits) -> palette index, for the palette alternative (only the rows used are set)."""


def palette_image(image: Image.Image, reserve: int = 64) -> Image.Image:
    """A 'P' image of ``image``'s own colours: the most frequent ones exactly, plus ``reserve``
    chosen among the rest (anti-aliased edges) where they are farthest from the palette,
    weighted by the square root of their pixel count; every other colour maps to its nearest."""
    colours = sorted(image.getcolors(1 << 16) or [], reverse=True)
    rgb = np.array([colour for _, colour in colours], dtype=np.int32)
    kept = np.arange(len(rgb))
    nearest = kept
    if len(rgb) > 256:
        top = 256 - reserve
        rest = rgb[top:]
        best = _distances(rest, rgb[:top]).min(1).astype(np.float64)
        weight = np.sqrt(np.array([count for count, _ in colours[top:]], dtype=np.float64))
        extra: list[int] = []
        for _ in range(reserve):
            pick = int((best * weight).argmax())
            if best[pick] <= 0:
                break
            extra.append(pick)
            np.minimum(best, ((rest - rest[pick]) ** 2).sum(1), out=best)
        kept = np.concatenate([np.arange(top), top + np.array(extra, dtype=np.int64)])
        nearest = np.concatenate([np.arange(top), _distances(rest, rgb[kept]).argmin(1)])
    _LUT[rgb[:, 0] | rgb[:, 1] << 8 | rgb[:, 2] << 16] = nearest
    raw = image.tobytes() + b"\0"
    keys = np.ndarray((image.width * image.height,), dtype="<u4", buffer=raw, strides=(3,)) & 0xFFFFFF
    indexed = Image.frombytes("P", image.size, _LUT[keys].tobytes())
    indexed.putpalette(rgb[kept].astype(np.uint8).tobytes())
    return indexed


def _distances(points: np.ndarray, palette: np.ndarray) -> np.ndarray:
    total = np.zeros((len(points), len(palette)), dtype=np.int32)
    for channel in range(3):
        difference = points[:, channel, None] - palette[None, :, channel]
        total += difference * difference
    return total


def palette_png(level: int) -> Callable[[Image.Image], bytes]:
    save = pillow_png(level)
    return lambda image: save(palette_image(image))


def alternatives() -> dict[str, Callable[[Image.Image], bytes]]:
    found: dict[str, Callable[[Image.Image], bytes]] = {
        "Pillow zlib 6 (old)": pillow_png(6),
        "Pillow zlib 1": pillow_png(1),
        "Up + zlib 1": up_png(zlib.compress, 1),
        "Up + zlib 6": up_png(zlib.compress, 6),
    }
    try:
        from zlib_ng.zlib_ng import compress as ng
    except ImportError:
        print("(zlib-ng is not installed: its rows are left out)")
    else:
        for level in (1, 2, 3, 6):
            found[f"Up + zlib-ng {level}"] = up_png(ng, level)
    found["palette + zlib 1"] = palette_png(1)
    found["palette + zlib 6"] = palette_png(6)
    return found


def bench_alternatives(items: list[Picture], runs: int) -> None:
    """Every alternative on every picture: encode time (wall median, CPU median), size, error."""
    images = [(picture.name, picture.draw().convert("RGB")) for picture in items]
    print("\nalternatives: encode ms (wall median / CPU median), file KB, error (mean/max of a channel)")
    print(f"{'encoding':20} " + " ".join(f"{name:>27}" for name, _ in images))
    for label, encode in alternatives().items():
        cells = []
        for _, image in images:
            timing = Timing.of(lambda e=encode, i=image: e(i), runs)  # type: ignore[misc]
            data = encode(image)
            back = Image.open(io.BytesIO(data)).convert("RGB")
            difference = np.asarray(ImageChops.difference(image, back))
            error = f"{difference.mean():.2f}/{difference.max()}" if difference.any() else "exact"
            times = f"{ms(timing.wall, 50):5.1f}/{ms(timing.cpu, 50):5.1f}"
            cells.append(f"{times} {len(data) / 1024:4.0f}K {error:>9}")
        print(f"{label:20} " + " ".join(f"{cell:>27}" for cell in cells), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--alternatives", action="store_true", help="also time the encodings weighed")
    args = parser.parse_args()
    print(machine())
    items = list(pictures())
    bench_chosen(items, args.runs)
    bench_replay(args.runs)
    if args.alternatives:
        bench_alternatives(items, max(3, args.runs // 2))
    print(machine())


if __name__ == "__main__":
    main()
