"""Measure the formats a replay animation could take: size, time to encode, sharpness.

Run: ``.venv/bin/python bench/bench_replay.py``. For one greedy game of each of three games,
the same sampled boards (at most ``MAX_FRAMES``, full width) are encoded as an animated GIF
(one palette), an animated WebP (lossless, and lossy at quality 90), an APNG and an H.264 MP4
(PyAV, a dev dependency only: measured, not shipped), then decoded again and compared with the
boards they came from: the mean error per channel and the share of text pixels that moved by
more than 24 levels (what makes text look blurred). The old half-size GIF is measured too. Note
the load average beside the times; the sizes and errors do not depend on the machine.
"""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image, ImageChops, ImageSequence, ImageStat

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import registry
from games.ai import greedy_states
from rendering.registry import renderer
from rendering.replay import MAX_FRAMES, encode_gif, sample_indices

GAMES = (("triominos", 3, 7), ("geronimos", 2, 7), ("tileup", 4, 4))
NAMES = ["Ann", "Ben", "Cat", "Dan"]


def frames_of(game: str, players: int, seed: int) -> list[Image.Image]:
    rules = registry.get(game)
    states = greedy_states(rules, players, seed)
    chosen = [states[i] for i in sample_indices(len(states), MAX_FRAMES)]
    return [renderer(game).board(rules.view(state, None), NAMES[:players]).convert("RGB") for state in chosen]


def same_size(frames: Sequence[Image.Image]) -> list[Image.Image]:
    size = frames[-1].size
    out = []
    for frame in frames:
        canvas = Image.new("RGB", size, (246, 243, 236))
        canvas.paste(frame.crop((0, 0, min(frame.width, size[0]), min(frame.height, size[1]))), (0, 0))
        out.append(canvas)
    return out


def pillow(fmt: str, **options: object) -> Callable[[list[Image.Image]], bytes]:
    def encode(frames: list[Image.Image]) -> bytes:
        buffer = io.BytesIO()
        rest = frames[1:]
        frames[0].save(buffer, format=fmt, save_all=True, append_images=rest, duration=700, loop=0, **options)
        return buffer.getvalue()

    return encode


def mp4(frames: list[Image.Image]) -> bytes:
    import av

    buffer = io.BytesIO()
    with av.open(buffer, mode="w", format="mp4") as container:
        stream = container.add_stream("libx264", rate=2)
        stream.width, stream.height = frames[0].width // 2 * 2, frames[0].height // 2 * 2
        stream.pix_fmt = "yuv420p"
        stream.options = {"crf": "20"}
        for frame in frames:
            video = av.VideoFrame.from_image(frame.crop((0, 0, stream.width, stream.height)))
            for packet in stream.encode(video):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return buffer.getvalue()


def decode(data: bytes) -> list[Image.Image]:
    try:
        return [frame.convert("RGB") for frame in ImageSequence.Iterator(Image.open(io.BytesIO(data)))]
    except Exception:  # a video: decode it with PyAV
        import av

        with av.open(io.BytesIO(data)) as container:
            return [frame.to_image() for frame in container.decode(video=0)]


def errors(original: list[Image.Image], decoded: list[Image.Image]) -> tuple[float, float]:
    """Mean error per channel, and the share of dark (text) pixels off by more than 24."""
    mean, moved = [], []
    for source, copy in zip(original, decoded, strict=False):
        copy = copy.resize(source.size, Image.Resampling.BILINEAR) if copy.size != source.size else copy
        difference = ImageChops.difference(source, copy).convert("L")
        mean.append(sum(ImageStat.Stat(ImageChops.difference(source, copy)).mean) / 3)
        ink = source.convert("L").point(lambda v: 255 if v < 100 else 0)
        off = difference.point(lambda v: 255 if v > 24 else 0)
        total = ImageStat.Stat(ink).sum[0] or 1
        moved.append(ImageStat.Stat(ImageChops.multiply(ink, off)).sum[0] / total)
    return sum(mean) / len(mean), 100 * sum(moved) / len(moved)


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.2f}")
    encoders: dict[str, Callable[[list[Image.Image]], bytes]] = {
        "GIF full (shipped)": lambda frames: encode_gif(frames),
        "WebP lossless": pillow("WEBP", lossless=True, method=4),
        "WebP lossy q90": pillow("WEBP", quality=90, method=4),
        "APNG": pillow("PNG", optimize=False),
        "MP4 H.264 crf20": mp4,
    }
    for game, players, seed in GAMES:
        frames = same_size(frames_of(game, players, seed))
        half = [frame.reduce(2) for frame in frames]
        print(f"\n{game}: {len(frames)} frames of {frames[-1].size[0]}x{frames[-1].size[1]}")
        rows = [("GIF half (before)", encode_gif(half), half)]
        for name, encode in encoders.items():
            start = time.perf_counter()
            data = encode(frames)
            took = time.perf_counter() - start
            rows.append((f"{name} [{took:.2f} s]", data, frames))
        for name, data, source in rows:
            mean, moved = errors(source, decode(data))
            size = len(data) / 1024
            print(f"  {name:32} {size:8.0f} KiB  error {mean:5.2f}  text pixels moved {moved:5.1f} %")


if __name__ == "__main__":
    main()
