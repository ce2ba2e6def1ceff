"""Shared drawing pieces: the image scale, the theme (colours, fonts), names, the score strip
and PNG encoding.

**Scale.** Every board and hand image is :data:`WIDTH` pixels wide. Discord shows an image about
:data:`PHONE_WIDTH` px wide on a phone and opens it full size on a tap, so sizes are chosen in
*phone pixels* (:func:`px` turns them into image pixels): texts and numbers are at least
:data:`MIN_PHONE_TEXT` phone px tall (digit and capital height), pips at least
:data:`MIN_PHONE_PIP` across, and the full image stays sharp when opened (1000 px wide).

**Font.** Noto Sans (OFL), shipped as the ``fontpkg-noto-sans`` package dependency and found
through ``fontpkg`` without any network or system font, so images are the same on every
machine. It covers Latin with its accents, Greek and Cyrillic; characters it has no glyph for
(emoji, other scripts) are left out of names rather than drawn as empty boxes.

Player colours are the Okabe-Ito palette, chosen to stay distinct for colour-blind players.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import fontpkg
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

WIDTH = 1000
"""The width of every board and hand image, in pixels."""
PHONE_WIDTH = 400
"""How wide Discord shows an image on a phone (before a tap opens it full size)."""
PHONE = WIDTH / PHONE_WIDTH
"""Image pixels per phone pixel."""
MIN_PHONE_TEXT = 7.5
"""The smallest digit or capital on a board or hand, in phone pixels. Discord's own text on a
phone is about 11 px tall (16 px type) and its smallest (timestamps, 12 px type) about 8.5 px;
7.5 px is just under that: read at arm's length without zooming."""
MIN_PHONE_PIP = 3.0
"""The smallest pip or dot diameter, in phone pixels."""

FAMILY = "Noto Sans"
REGULAR = 400
BOLD = 700
NORMAL_WIDTH = 100.0
CONDENSED = 75.0
"""The width axis of the font for numbers packed tight (tile numbers, axis labels)."""


def px(phone: float) -> int:
    """A length given in phone pixels, in image pixels."""
    return round(phone * PHONE)


def phone_px(image_px: float, width: int = WIDTH) -> float:
    """A length in an image ``width`` px wide, as seen on a phone (in phone pixels)."""
    return image_px * PHONE_WIDTH / width


@dataclass(frozen=True)
class TextSizes:
    """Font sizes (the em, in image px) used across the renderers."""

    small: int = px(10.8)
    """Labels and notes: the smallest text (digits 19 px, 7.6 phone px)."""
    body: int = px(12.5)
    """Names, tile names and the strip."""
    title: int = px(13.5)
    """Titles of hands and strips."""


TEXT = TextSizes()


@dataclass(frozen=True)
class Theme:
    """Colours used by every renderer."""

    background: RGB = (246, 243, 236)
    ink: RGB = (34, 34, 34)
    muted: RGB = (105, 105, 105)
    grid: RGB = (205, 200, 190)
    highlight: RGB = (230, 25, 75)
    strip: RGB = (40, 44, 52)
    strip_ink: RGB = (245, 245, 245)
    strip_muted: RGB = (185, 188, 196)
    strip_row: RGB = (70, 74, 84)
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


# -- the font ---------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def font_path() -> Path:
    """The bundled Noto Sans font file (a variable font: weight and width axes)."""
    return fontpkg.path(FAMILY)


@lru_cache(maxsize=128)
def font(size: int, weight: int = REGULAR, stretch: float = NORMAL_WIDTH) -> ImageFont.FreeTypeFont:
    """Noto Sans at ``size`` pixels (the em), ``weight`` (400 regular, 700 bold) and ``stretch``
    (100 normal, 62.5-100 condensed). The basic layout engine is used everywhere, so text looks
    the same whatever libraries are present."""
    face = ImageFont.truetype(str(font_path()), size, layout_engine=ImageFont.Layout.BASIC)
    values: list[float] = []
    for axis in face.get_variation_axes():
        name = _axis_name(axis)
        values.append(
            float(weight) if name == "weight" else stretch if name == "width" else float(axis["default"] or 0)
        )
    face.set_variation_by_axes(values)
    return face


def _axis_name(axis: Any) -> str:
    name = axis.get("name", b"")
    text = name.decode("ascii", "replace") if isinstance(name, bytes) else str(name)
    return text.strip().lower()


@lru_cache(maxsize=128)
def digit_height(size: int, weight: int = REGULAR, stretch: float = NORMAL_WIDTH) -> int:
    """The pixel height of a digit (as tall as a capital) drawn at ``size``."""
    _, top, _, bottom = font(size, weight, stretch).getbbox("0")
    return int(bottom - top)


@lru_cache(maxsize=1)
def _covered() -> frozenset[int]:
    """The code points the font has a glyph for."""
    with TTFont(str(font_path()), lazy=True) as face:
        return frozenset(face.getBestCmap())


def can_draw(char: str) -> bool:
    """True when the font has a real glyph for ``char`` (not the empty box) and it is printable."""
    return ord(char) in _covered() and not unicodedata.category(char).startswith("C")


# -- text ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DrawnText:
    """A text drawn on an image (recorded for the phone-scale tests)."""

    text: str
    size: int
    weight: int
    stretch: float

    @property
    def height(self) -> int:
        """The pixel height of a digit or capital of this text."""
        return digit_height(self.size, self.weight, self.stretch)


_recorders: list[list[DrawnText]] = []


@contextmanager
def recording_text() -> Iterator[list[DrawnText]]:
    """Collect every text drawn inside the ``with`` block (tests check their sizes)."""
    drawn: list[DrawnText] = []
    _recorders.append(drawn)
    try:
        yield drawn
    finally:
        _recorders.remove(drawn)


def text(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    string: str,
    size: int,
    fill: RGB,
    *,
    anchor: str = "la",
    weight: int = REGULAR,
    stretch: float = NORMAL_WIDTH,
) -> None:
    """Draw ``string`` at ``at`` (Pillow's ``anchor``: ``la`` top left, ``mm`` centred, ...)."""
    if not string:
        return
    for drawn in _recorders:
        drawn.append(DrawnText(string, size, weight, stretch))
    mask, (left, top) = text_mask(string, size, weight, stretch, anchor)
    draw.bitmap((round(at[0]) + left, round(at[1]) + top), mask, fill=fill)


@lru_cache(maxsize=8192)
def text_mask(
    string: str, size: int, weight: int, stretch: float, anchor: str
) -> tuple[Image.Image, tuple[int, int]]:
    """``string`` rendered once as a mask, with its offset from the anchor point (rendering a
    variable font is slow; boards repeat the same labels and numbers)."""
    face = font(size, weight, stretch)
    left, top, right, bottom = face.getbbox(string, anchor=anchor)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), string, font=face, fill=255, anchor=anchor)
    return mask, (int(left), int(top))


def draw_centered(
    draw: ImageDraw.ImageDraw,
    center: tuple[float, float],
    string: str,
    size: int,
    fill: RGB,
    weight: int = REGULAR,
    stretch: float = NORMAL_WIDTH,
) -> None:
    """Draw ``string`` centred on ``center``."""
    text(draw, center, string, size, fill, anchor="mm", weight=weight, stretch=stretch)


@lru_cache(maxsize=4096)
def text_width(string: str, size: int, weight: int = REGULAR, stretch: float = NORMAL_WIDTH) -> int:
    """The advance width of ``string`` in pixels."""
    return round(font(size, weight, stretch).getlength(string))


def shorten(string: str, size: int, width: int, weight: int = REGULAR) -> str:
    """``string`` cut with an ellipsis so that it is at most ``width`` pixels wide."""
    if text_width(string, size, weight) <= width:
        return string
    low, high = 0, len(string)
    while low < high:  # the longest prefix that fits with the ellipsis
        middle = (low + high + 1) // 2
        if text_width(string[:middle].rstrip() + "…", size, weight) <= width:
            low = middle
        else:
            high = middle - 1
    return string[:low].rstrip() + "…"


def tagged_name(name: str, tag: str, size: int, width: int, weight: int = REGULAR) -> str:
    """``name (tag)`` fitting ``width`` pixels: a long name is shortened, the tag always kept."""
    suffix = f" ({tag})" if tag else ""
    room = width - text_width(suffix, size, weight)
    return shorten(name, size, room, weight) + suffix


# -- names --------------------------------------------------------------------------------------


def drawable_name(name: str, fallback: str) -> str:
    """``name`` as the font can draw it, without empty boxes: characters it has no glyph for
    (emoji, scripts other than Latin, Greek and Cyrillic) are left out, an accent it lacks is
    dropped from its letter, and ``fallback`` stands in when nothing is left."""
    kept = []
    for char in unicodedata.normalize("NFC", name):
        if can_draw(char):
            kept.append(char)
            continue
        plain = unicodedata.normalize("NFKD", char)
        kept.extend(part for part in plain if not unicodedata.combining(part) and can_draw(part))
    return " ".join("".join(kept).split()) or fallback


def drawable_names(names: Sequence[str]) -> list[str]:
    """:func:`drawable_name` of each seat's name, ``Player N`` where nothing drawable is left."""
    return [drawable_name(name, f"Player {seat + 1}") for seat, name in enumerate(names)]


def verdict(outcome: Any, players: Sequence[str]) -> str:
    """Who won a finished game, in words: ``Pat wins``, ``a draw between Ann and Ben`` or
    ``nobody wins`` (seats that forfeited never win)."""
    winners = [seat for seat in outcome.winners if seat not in outcome.forfeited]
    if not winners:
        return "nobody wins"
    if len(winners) > 1:
        return "a draw between " + " and ".join(player_name(players, seat) for seat in winners)
    return f"{player_name(players, winners[0])} wins"


def player_name(players: Sequence[str], seat: int, fallback: str = "") -> str:
    """The display name of ``seat`` (``fallback``, or ``Player n``, when there is none)."""
    return players[seat] if seat < len(players) else fallback or f"Player {seat + 1}"


# -- the score strip ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreLine:
    """One player in the score strip: name, colour tag (``Red``), score and an extra note."""

    name: str
    score: int | str
    extra: str = ""
    tag: str = ""


STRIP_ROW = px(23)
STRIP_PAD = px(6)


def strip_title(draw: ImageDraw.ImageDraw, width: int, title: str, theme: Theme = THEME) -> None:
    """The title line of a strip, shortened to the width."""
    line = shorten(title, TEXT.title, width - 2 * STRIP_PAD, BOLD)
    text(
        draw,
        (STRIP_PAD, STRIP_ROW // 2 + STRIP_PAD // 2),
        line,
        TEXT.title,
        theme.strip_ink,
        anchor="lm",
        weight=BOLD,
    )


def score_strip(
    width: int,
    lines: Sequence[ScoreLine],
    to_act: int | None,
    *,
    title: str = "",
    theme: Theme = THEME,
) -> Image.Image:
    """A strip naming the players with their scores; the seat to act is marked.

    One row per player (two columns when there are more than four players), each with the
    player's colour swatch, name, an optional extra (hand size, ...) and score. Long names are
    shortened with an ellipsis (the colour tag is kept).
    """
    columns = 2 if len(lines) > 4 else 1
    per_column = -(-len(lines) // columns)
    title_height = STRIP_ROW if title else 0
    height = title_height + per_column * STRIP_ROW + STRIP_PAD * 2
    image = Image.new("RGB", (width, height), theme.strip)
    draw = ImageDraw.Draw(image)
    if title:
        strip_title(draw, width, title, theme)
    column_width = width // columns
    for seat, line in enumerate(lines):
        column, index = divmod(seat, per_column)
        box = (column * column_width, title_height + STRIP_PAD + index * STRIP_ROW, column_width)
        _score_row(draw, box, seat, line, seat == to_act, theme)
    return image


def _score_row(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int],
    seat: int,
    line: ScoreLine,
    acting: bool,
    theme: Theme,
) -> None:
    """One player's row of the score strip: marker, swatch, name, extra, score."""
    x, y, width = box
    middle = y + STRIP_ROW // 2
    if acting:
        draw.rectangle((x + px(1), y + px(1), x + width - px(1), y + STRIP_ROW - px(1)), fill=theme.strip_row)
        marker = [(x + px(3), middle - px(5)), (x + px(3), middle + px(5)), (x + px(9), middle)]
        draw.polygon(marker, fill=theme.to_act)
    draw.rectangle((x + px(12), middle - px(5), x + px(22), middle + px(5)), fill=theme.player(seat))
    score = str(line.score)
    right = x + width - STRIP_PAD
    text(draw, (right, middle), score, TEXT.body, theme.strip_ink, anchor="rm", weight=BOLD)
    name_left = x + px(27)
    right -= text_width(score, TEXT.body, BOLD) + px(8)
    if line.extra:
        extra = shorten(line.extra, TEXT.small, (right - name_left) // 2)
        text(draw, (right, middle), extra, TEXT.small, theme.strip_muted, anchor="rm")
        right -= text_width(extra, TEXT.small) + px(8)
    name = tagged_name(line.name, line.tag, TEXT.body, right - name_left)
    text(draw, (name_left, middle), name, TEXT.body, theme.strip_ink, anchor="lm")


def tint(colour: RGB, amount: float) -> RGB:
    """``colour`` mixed with white (``amount`` 0 keeps it, 1 gives white)."""
    r, g, b = colour
    return (
        round(r + (255 - r) * amount),
        round(g + (255 - g) * amount),
        round(b + (255 - b) * amount),
    )


HAND_BAND = px(24)


def hand_band(colour: RGB, line: str, theme: Theme = THEME) -> Image.Image:
    """The dark band heading a hand: a swatch of the player's colour and ``line``."""
    band = Image.new("RGB", (WIDTH, HAND_BAND), theme.strip)
    draw = ImageDraw.Draw(band)
    middle = HAND_BAND // 2
    draw.rectangle((px(6), middle - px(5), px(16), middle + px(5)), fill=colour)
    text(
        draw,
        (px(22), middle),
        shorten(line, TEXT.body, WIDTH - px(26)),
        TEXT.body,
        theme.strip_ink,
        anchor="lm",
    )
    return band


# -- smooth shapes ------------------------------------------------------------------------------

SMOOTH = 4
"""Masks are drawn this many times larger and reduced, for smooth edges."""
Point = tuple[float, float]


@lru_cache(maxsize=64)
def disc_mask(diameter: int) -> Image.Image:
    """A round dot ``diameter`` px across, with smooth edges, as a paste mask."""
    big = Image.new("L", (diameter * SMOOTH, diameter * SMOOTH), 0)
    ImageDraw.Draw(big).ellipse((0, 0, diameter * SMOOTH - 1, diameter * SMOOTH - 1), fill=255)
    return big.reduce(SMOOTH)


def paste_disc(image: Image.Image, centre: Point, diameter: float, colour: RGB) -> None:
    """A smooth dot of ``colour`` centred on ``centre``."""
    mask = disc_mask(max(1, round(diameter)))
    image.paste(colour, (round(centre[0] - mask.width / 2), round(centre[1] - mask.height / 2)), mask)


@lru_cache(maxsize=256)
def polygon_mask(points: tuple[Point, ...], size: tuple[int, int]) -> Image.Image:
    """A smooth mask ``size`` px of the polygon ``points`` (pixel coordinates in the mask)."""
    big = Image.new("L", (size[0] * SMOOTH, size[1] * SMOOTH), 0)
    ImageDraw.Draw(big).polygon([(x * SMOOTH, y * SMOOTH) for x, y in points], fill=255)
    return big.reduce(SMOOTH)


# -- composing and encoding ---------------------------------------------------------------------


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


def to_png(image: Image.Image) -> bytes:
    """Encode ``image`` as PNG bytes."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()
