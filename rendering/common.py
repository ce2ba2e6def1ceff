"""Shared drawing pieces: the theme (colours, fonts), the score strip and PNG encoding.

Fonts are Pillow's bundled scalable default font, so images are identical on every machine.
Player colours are the Okabe-Ito palette, chosen to stay distinct for colour-blind players.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

BOARD_WIDTH = 540
"""Target width of a board image: Discord shows images about 400-550 px wide on phones."""


@dataclass(frozen=True)
class Theme:
    """Colours used by every renderer."""

    background: RGB = (246, 243, 236)
    ink: RGB = (34, 34, 34)
    muted: RGB = (120, 120, 120)
    grid: RGB = (205, 200, 190)
    highlight: RGB = (230, 25, 75)
    strip: RGB = (40, 44, 52)
    strip_ink: RGB = (245, 245, 245)
    to_act: RGB = (255, 214, 10)
    players: tuple[RGB, ...] = (
        (0, 114, 178),  # blue
        (213, 94, 0),  # vermillion
        (0, 158, 115),  # bluish green
        (204, 121, 167),  # reddish purple
        (230, 159, 0),  # orange
        (86, 180, 233),  # sky blue
    )

    def player(self, seat: int) -> RGB:
        """The colour of ``seat``."""
        return self.players[seat % len(self.players)]


THEME = Theme()


@lru_cache(maxsize=32)
def counted(count: int, noun: str) -> str:
    """``count`` with ``noun`` in the singular or plural: ``1 tile``, ``3 tiles``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels."""
    return ImageFont.load_default(size)


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    """The bitmap the font draws for a character it has no glyph for (a private-use one)."""
    return bytes(font(14).getmask("\ue000"))


@lru_cache(maxsize=4096)
def can_draw(char: str) -> bool:
    """True when the theme font has a glyph for ``char`` (it covers ASCII, few accents)."""
    return char.isascii() or bytes(font(14).getmask(char)) != _missing_glyph()


def drawable_name(name: str, fallback: str) -> str:
    """``name`` as the theme font can draw it, without empty boxes: accents it lacks are dropped
    (``José`` -> ``Jose``), other characters it lacks (emoji, other scripts) are left out, and
    ``fallback`` stands in when nothing is left. Discord's own messages keep the real name."""
    kept = []
    for char in name:
        if can_draw(char):
            kept.append(char)
            continue
        plain = unicodedata.normalize("NFKD", char)
        kept.extend(part for part in plain if not unicodedata.combining(part) and can_draw(part))
    return " ".join("".join(kept).split()) or fallback


def drawable_names(names: Sequence[str]) -> list[str]:
    """:func:`drawable_name` of each seat's name, ``Player N`` where nothing drawable is left."""
    return [drawable_name(name, f"Player {seat + 1}") for seat, name in enumerate(names)]


def text_size(draw: ImageDraw.ImageDraw, text: str, size: int) -> tuple[int, int]:
    """Width and height of ``text`` in the theme font."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font(size))
    return int(right - left), int(bottom - top)


def draw_centered(
    draw: ImageDraw.ImageDraw, center: tuple[float, float], text: str, size: int, fill: RGB
) -> None:
    """Draw ``text`` centred on ``center``."""
    draw.text(center, text, font=font(size), fill=fill, anchor="mm")


@dataclass(frozen=True)
class ScoreLine:
    """One player in the score strip."""

    name: str
    score: int | str
    extra: str = ""


STRIP_ROW = 22


def score_strip(
    width: int,
    lines: Sequence[ScoreLine],
    to_act: int | None,
    *,
    title: str = "",
    theme: Theme = THEME,
) -> Image.Image:
    """A strip naming the players with their scores; the seat to act is marked.

    One row per player (two columns when there are more than three players), each with the
    player's colour swatch, name, score and an optional extra (hand size, ...).
    """
    columns = 2 if len(lines) > 3 else 1
    rows = (len(lines) + columns - 1) // columns
    title_height = STRIP_ROW if title else 0
    height = title_height + rows * STRIP_ROW + 8
    image = Image.new("RGB", (width, height), theme.strip)
    draw = ImageDraw.Draw(image)
    if title:
        draw.text((8, 4), title, font=font(13), fill=theme.strip_ink)
    column_width = width // columns
    for seat, line in enumerate(lines):
        column, row = divmod(seat, rows)
        x = column * column_width + 8
        y = title_height + 4 + row * STRIP_ROW
        if seat == to_act:
            draw.rectangle((x - 4, y, x + column_width - 12, y + STRIP_ROW - 2), fill=(70, 74, 84))
            draw.polygon([(x, y + 5), (x, y + 15), (x + 7, y + 10)], fill=theme.to_act)
        draw.rectangle((x + 11, y + 5, x + 21, y + 15), fill=theme.player(seat))
        name = line.name if len(line.name) <= 16 else line.name[:15] + "…"
        draw.text((x + 27, y + 3), name, font=font(14), fill=theme.strip_ink)
        right = x + column_width - 18
        score = str(line.score)
        draw.text((right, y + 3), score, font=font(14), fill=theme.strip_ink, anchor="ra")
        if line.extra:
            score_width = text_size(draw, score, 14)[0]
            extra_at = (right - score_width - 10, y + 5)
            draw.text(extra_at, line.extra, font=font(11), fill=(180, 180, 180), anchor="ra")
    return image


def stack_vertically(parts: Sequence[Image.Image], background: RGB = THEME.background) -> Image.Image:
    """Stack images top to bottom, centred, on one canvas."""
    width = max(part.width for part in parts)
    height = sum(part.height for part in parts)
    canvas = Image.new("RGB", (width, height), background)
    y = 0
    for part in parts:
        canvas.paste(part, ((width - part.width) // 2, y))
        y += part.height
    return canvas


def fit_width(image: Image.Image, width: int) -> Image.Image:
    """Scale ``image`` down (never up) to ``width`` pixels, keeping its proportions."""
    if image.width <= width:
        return image
    height = round(image.height * width / image.width)
    return image.resize((width, height), Image.Resampling.LANCZOS)


def to_png(image: Image.Image) -> bytes:
    """Encode ``image`` as PNG bytes."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()
