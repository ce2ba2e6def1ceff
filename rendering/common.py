"""Shared drawing pieces: the image scale, the theme (colours, fonts), names, the score strip
and PNG encoding (lossless, Up-filtered rows, zlib-ng: see :func:`to_png`).

**Scale.** Every board and hand image is :data:`WIDTH` pixels wide. Discord shows an image about
:data:`PHONE_WIDTH` px wide on a phone and opens it full size on a tap, so sizes are chosen in
*phone pixels* (:func:`px` turns them into image pixels): texts and numbers are at least
:data:`MIN_PHONE_TEXT` phone px tall (digit and capital height), pips at least
:data:`MIN_PHONE_PIP` across, and the full image stays sharp when opened (1000 px wide).

**Font.** Noto Sans (OFL), shipped as the ``fontpkg-noto-sans`` package dependency
(:mod:`rendering.fonts`), so images are the same on every machine. It covers Latin with its
accents, Greek and Cyrillic; emoji are drawn in colour by :mod:`rendering.emoji` (OpenMoji, a
package dependency too); characters neither font has (other scripts) are left out of names
rather than drawn as empty boxes.

Player colours are the Okabe-Ito palette, chosen to stay distinct for colour-blind players
(vermillion a little darker, so that white numbers on it keep a 4.5:1 contrast). Every text
keeps a contrast of at least :data:`MIN_CONTRAST` with what is behind it (:func:`ink_on`).
"""

from __future__ import annotations

import io
import math
import struct
import unicodedata
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont, ImageStat

from games.core import with_note
from rendering.emoji import can_draw as emoji_can_draw
from rendering.emoji import clusters, emoji_image, emoji_size, has_emoji
from rendering.fonts import covered, font_path

try:  # zlib-ng: the same deflate format; its level 2 is smaller than zlib's level 1, in half the time
    from zlib_ng.zlib_ng import compress as deflate

    DEFLATE_NAME = "zlib-ng"
except ImportError:  # pragma: no cover - a platform without a zlib-ng wheel
    from zlib import compress as deflate

    DEFLATE_NAME = "zlib"

RGB = tuple[int, int, int]

IMAGE_BLOCKS_KEPT = 8
"""Freed image memory blocks Pillow keeps for the next picture (its default keeps none). Every
board allocates several full-size canvases; fresh memory from the system costs a page fault per
4 KB, which made a late board's job up to twice as slow on a busy machine. At most this many
blocks are kept (a board's canvases are 1-6 MB each; drawing every kind of picture in a loop
peaked 6 MB higher than with none kept)."""
Image.core.set_blocks_max(max(Image.core.get_blocks_max(), IMAGE_BLOCKS_KEPT))

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
MIN_PHONE_PIP = 4.0
"""The smallest pip or dot diameter, in phone pixels."""

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
    headline: int = px(16)
    """The winner on a final picture."""


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
        (190, 80, 0),  # vermillion, darkened: white text on it reaches 4.8:1
        (0, 158, 115),  # bluish green
        (204, 121, 167),  # reddish purple
        (230, 159, 0),  # orange
        (86, 180, 233),  # sky blue
    )

    def player(self, seat: int) -> RGB:
        """The colour of ``seat``."""
        return self.players[seat % len(self.players)]


THEME = Theme()


# -- the font ---------------------------------------------------------------------------------


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


def can_draw(char: str) -> bool:
    """True when the text font has a real glyph for ``char`` (not the empty box) and it is
    printable (emoji are drawn by :mod:`rendering.emoji`)."""
    return ord(char) in covered() and not unicodedata.category(char).startswith("C")


# -- contrast -----------------------------------------------------------------------------------

WHITE: RGB = (255, 255, 255)
MIN_CONTRAST = 4.5
"""The least contrast between a text and what is behind it (WCAG 2 AA for normal text)."""


def luminance(colour: RGB) -> float:
    """The relative luminance of an sRGB colour (WCAG 2)."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(channel) for channel in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ink_on(fill: RGB, light: RGB = WHITE, dark: RGB = (34, 34, 34)) -> RGB:
    """The text colour, ``light`` or ``dark``, that contrasts more with ``fill``."""
    return light if contrast(light, fill) >= contrast(dark, fill) else dark


# -- text ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DrawnText:
    """A text drawn on an image, recorded for the phone-scale tests: its font, its colour and
    the colour it was drawn over (the median of the pixels under its ink, just before)."""

    text: str
    size: int
    weight: int
    stretch: float
    fill: RGB = (0, 0, 0)
    background: RGB = (255, 255, 255)
    image_width: int = WIDTH
    """The width of the picture the text ends up in (charts and boards are ``WIDTH``)."""

    @property
    def height(self) -> int:
        """The pixel height of a digit or capital of this text."""
        return digit_height(self.size, self.weight, self.stretch)

    @property
    def contrast(self) -> float:
        """The contrast ratio of the text with what is behind it."""
        return contrast(self.fill, self.background)


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


def record(drawn: DrawnText) -> None:
    """Tell the recorders of a text drawn by other means (the charts' matplotlib texts)."""
    for recorder in _recorders:
        recorder.append(drawn)


def _behind(image: Image.Image, mask: Image.Image, origin: tuple[int, int]) -> RGB:
    """The median colour of ``image`` under the ink of ``mask`` placed at ``origin``."""
    x, y = origin
    box = (max(0, x), max(0, y), min(image.width, x + mask.width), min(image.height, y + mask.height))
    if box[0] >= box[2] or box[1] >= box[3]:
        return WHITE
    ink = mask.crop((box[0] - x, box[1] - y, box[2] - x, box[3] - y)).point(lambda v: 255 if v > 127 else 0)
    if ink.getbbox() is None:
        return WHITE
    under = image.crop(box).convert("RGB")
    median = ImageStat.Stat(under, mask=ink).median
    return (int(median[0]), int(median[1]), int(median[2]))


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
    """Draw ``string`` at ``at`` (Pillow's ``anchor``: ``la`` top left, ``mm`` centred, ...);
    emoji in it are drawn in colour."""
    if not string:
        return
    mask, colour, (left, top) = text_layers(string, size, weight, stretch, anchor)
    origin = (round(at[0]) + left, round(at[1]) + top)
    image: Image.Image = draw._image
    if _recorders:
        behind = _behind(image, mask, origin)
        record(DrawnText(string, size, weight, stretch, fill[:3], behind, image.width))
    draw.bitmap(origin, mask, fill=fill)
    if colour is not None:
        image.paste(colour, origin, colour)


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


@lru_cache(maxsize=1024)
def text_layers(
    string: str, size: int, weight: int, stretch: float, anchor: str
) -> tuple[Image.Image, Image.Image | None, tuple[int, int]]:
    """``string`` as a mask of its text, an RGBA layer of its emoji (None without emoji) and
    their offset from the anchor point."""
    if not has_emoji(string):
        mask, offset = text_mask(string, size, weight, stretch, anchor)
        return mask, None, offset
    return _mixed_layers(string, size, weight, stretch, anchor)


def _mixed_layers(
    string: str, size: int, weight: int, stretch: float, anchor: str
) -> tuple[Image.Image, Image.Image, tuple[int, int]]:
    """Text and emoji laid along one baseline (emoji centred on the capitals' middle)."""
    face = font(size, weight, stretch)
    ascent, descent = face.getmetrics()
    cap = digit_height(size, weight, stretch)
    pieces = _pieces(string, size, weight, stretch)
    width = max(1, sum(advance for _, _, advance in pieces))
    mask = Image.new("L", (width, ascent + descent), 0)
    colour = Image.new("RGBA", mask.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(mask)
    x = 0
    for piece, picture, advance in pieces:
        if picture is None:
            draw.text((x, ascent), piece, font=face, fill=255, anchor="ls")
        else:
            top = round(ascent - cap / 2 - picture.height / 2)
            colour.alpha_composite(picture, (x + (advance - picture.width) // 2, max(0, top)))
        x += advance
    ink_top = min((face.getbbox(p, anchor="ls")[1] for p, pic, _ in pieces if pic is None), default=-cap)
    dx = {"l": 0, "m": width // 2, "r": width, "s": 0}[anchor[0]]
    dy = {"a": 0, "m": (ascent + descent) // 2, "s": ascent, "d": ascent + descent}.get(anchor[1], 0)
    if anchor[1] == "t":
        dy = ascent + int(ink_top)
    elif anchor[1] == "b":
        dy = ascent + descent
    return mask, colour, (-dx, -dy)


Piece = tuple[str, Image.Image | None, int]
"""A run of text (no picture) or an emoji (its picture), with its advance in px."""


@lru_cache(maxsize=1024)
def _pieces(string: str, size: int, weight: int, stretch: float) -> tuple[Piece, ...]:
    """The runs of ``string``: text with its advance, or an emoji's picture (cropped to its
    ink) with its advance (a little room on both sides)."""
    face = font(size, weight, stretch)
    cap = digit_height(size, weight, stretch)
    pieces: list[Piece] = []
    for piece, is_emoji in clusters(string):
        if not is_emoji:
            pieces.append((piece, None, round(face.getlength(piece))))
            continue
        picture = emoji_image(piece, emoji_size(cap))
        box = picture.getbbox() or (0, 0, picture.width, picture.height)
        cropped = picture.crop(box)
        pieces.append((piece, cropped, cropped.width + max(2, round(size * 0.12))))
    return tuple(pieces)


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
    """The advance width of ``string`` in pixels (emoji included)."""
    if has_emoji(string):
        return sum(advance for _, _, advance in _pieces(string, size, weight, stretch))
    return round(font(size, weight, stretch).getlength(string))


def units(string: str) -> list[str]:
    """``string`` cut where it may be shortened: between characters, never inside an emoji."""
    cut: list[str] = []
    for piece, is_emoji in clusters(string):
        cut.extend([piece] if is_emoji else list(piece))
    return cut


def shorten(string: str, size: int, width: int, weight: int = REGULAR) -> str:
    """``string`` cut with an ellipsis so that it is at most ``width`` pixels wide."""
    if text_width(string, size, weight) <= width:
        return string
    parts = units(string)
    low, high = 0, len(parts)
    while low < high:  # the longest prefix that fits with the ellipsis
        middle = (low + high + 1) // 2
        if text_width("".join(parts[:middle]).rstrip() + "…", size, weight) <= width:
            low = middle
        else:
            high = middle - 1
    return "".join(parts[:low]).rstrip() + "…"


def wrap(string: str, size: int, width: int, weight: int = REGULAR, lines: int = 2) -> list[str]:
    """``string`` in at most ``lines`` lines of ``width`` pixels, cut between words (the last
    line shortened with an ellipsis if need be)."""
    words = string.split()
    result: list[str] = []
    while words and len(result) < lines - 1:
        line = words.pop(0)
        while words and text_width(f"{line} {words[0]}", size, weight) <= width:
            line += " " + words.pop(0)
        result.append(line)
    if words:
        result.append(shorten(" ".join(words), size, width, weight))
    return result


def tagged_name(name: str, tag: str, size: int, width: int, weight: int = REGULAR) -> str:
    """``name (tag)`` (:func:`games.core.with_note`: ``Ada (normal, Red)``) fitting ``width``
    pixels: a long name is shortened, the tag always kept."""
    full = with_note(name, tag)
    if not tag or text_width(full, size, weight) <= width:
        return full
    merged = name.endswith(")") and "(" in name
    suffix = full[full.rindex("(") :] if merged else f" ({tag})"
    head = name[: name.rindex("(")].rstrip() if merged else name
    room = width - text_width(" " + suffix if merged else suffix, size, weight)
    return shorten(head, size, room, weight) + (" " + suffix if merged else suffix)


# -- names --------------------------------------------------------------------------------------


def drawable_name(name: str, fallback: str) -> str:
    """``name`` as the fonts can draw it, without empty boxes: emoji the emoji font has are
    kept (in colour), other characters the text font has no glyph for (scripts other than
    Latin, Greek and Cyrillic) are left out, an accent it lacks is dropped from its letter, and
    ``fallback`` stands in when nothing is left."""
    kept = []
    for piece, is_emoji in clusters(unicodedata.normalize("NFC", name)):
        if is_emoji:
            if emoji_can_draw(piece):
                kept.append(piece)
            continue
        for char in piece:
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


@dataclass(frozen=True)
class Result:
    """A finished game on its final picture: who won (``headline``), why (``reason``) and
    every seat's rank (1 for the winners; the strip lists the players by rank)."""

    headline: str
    reason: str
    ranks: tuple[int, ...]
    winners: frozenset[int] = frozenset()
    ranked: bool = True
    """False for a solitaire: its one row is not numbered."""


def game_result(game: Any, outcome: Any, players: Sequence[str]) -> Result:
    """The :class:`Result` of ``game``'s ``outcome``: ``🏆 Pat wins`` (``🤝`` for a draw),
    and ``<Game> · game over: <why>`` in the game's own words."""
    from games.core import outcome_phrase

    said = verdict(outcome, players)
    winners = frozenset(seat for seat in outcome.winners if seat not in outcome.forfeited)
    mark = "🤝" if len(winners) > 1 else "🏆" if winners else "🏁"
    reason = outcome_phrase(game, outcome, players)
    lower = " (fewest points wins)" if getattr(game, "lower_is_better", False) else ""
    return Result(
        f"{mark} {said[0].upper()}{said[1:]}",
        f"{game.title} · game over: {reason}{lower}",
        tuple(outcome.ranks),
        winners,
    )


STRIP_ROW = px(23)
STRIP_PAD = px(6)
RESULT_LINE = px(19)
"""The height of a line of the reason under a result's headline."""


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


def _result_head(draw: ImageDraw.ImageDraw, width: int, result: Result, theme: Theme) -> None:
    """A result's headline (the winner) and its reason, wrapped to two lines."""
    headline = shorten(result.headline, TEXT.headline, width - 2 * STRIP_PAD, BOLD)
    middle = STRIP_PAD + RESULT_HEAD // 2
    text(draw, (STRIP_PAD, middle), headline, TEXT.headline, theme.to_act, anchor="lm", weight=BOLD)
    for index, line in enumerate(_reason_lines(width, result)):
        at = (STRIP_PAD, STRIP_PAD + RESULT_HEAD + RESULT_LINE * (index + 0.5))
        text(draw, at, line, TEXT.small, theme.strip_ink, anchor="lm")


RESULT_HEAD = px(27)


def _reason_lines(width: int, result: Result) -> list[str]:
    return wrap(result.reason, TEXT.small, width - 2 * STRIP_PAD) if result.reason else []


def score_strip(
    width: int,
    lines: Sequence[ScoreLine],
    to_act: int | None,
    *,
    title: str = "",
    theme: Theme = THEME,
    result: Result | None = None,
    marks: bool = False,
) -> Image.Image:
    """A strip naming the players with their scores; the seat to act is marked.

    One row per player (two columns when there are more than four players), each with the
    player's colour swatch (or, with ``marks``, their :func:`draw_mark`), name, an optional
    extra (hand size, ...) and score. Long names are shortened with an ellipsis (the colour tag
    is kept). With a ``result`` the strip heads with the winner and why, and lists the players
    by rank, the winners' rows lit.
    """
    columns = 2 if len(lines) > 4 else 1
    per_column = -(-len(lines) // columns)
    if result is not None:
        head = RESULT_HEAD + RESULT_LINE * len(_reason_lines(width, result)) + STRIP_PAD // 2
    else:
        head = STRIP_ROW if title else 0
    height = head + per_column * STRIP_ROW + STRIP_PAD * 2
    image = Image.new("RGB", (width, height), theme.strip)
    draw = ImageDraw.Draw(image)
    if result is not None:
        _result_head(draw, width, result, theme)
    elif title:
        strip_title(draw, width, title, theme)
    order = list(range(len(lines)))
    if result is not None:
        order.sort(key=lambda seat: (result.ranks[seat], seat))
    column_width = width // columns
    for place, seat in enumerate(order):
        column, index = divmod(place, per_column)
        box = (column * column_width, head + STRIP_PAD + index * STRIP_ROW, column_width)
        row = Row(seat, lines[seat], seat == to_act, marks)
        if result is not None:
            rank = result.ranks[seat] if result.ranked else None
            row = replace(row, rank=rank, won=seat in result.winners)
        _score_row(draw, box, row, theme)
    return image


@dataclass(frozen=True)
class Row:
    """What one row of the score strip shows."""

    seat: int
    line: ScoreLine
    acting: bool = False
    marks: bool = False
    rank: int | None = None
    won: bool = False


def _score_row(draw: ImageDraw.ImageDraw, box: tuple[int, int, int], row: Row, theme: Theme) -> None:
    """One player's row of the score strip: marker (or rank), swatch, name, extra, score."""
    x, y, width = box
    middle = y + STRIP_ROW // 2
    line = row.line
    if row.acting or row.won:
        draw.rectangle((x + px(1), y + px(1), x + width - px(1), y + STRIP_ROW - px(1)), fill=theme.strip_row)
    left = x + px(12)
    if row.rank is not None:
        ink = theme.to_act if row.won else theme.strip_ink
        text(draw, (x + px(3), middle), f"{row.rank}.", TEXT.body, ink, anchor="lm", weight=BOLD)
        left = x + px(3) + text_width("9.", TEXT.body, BOLD) + px(3)
    elif row.acting:
        marker = [(x + px(3), middle - px(5)), (x + px(3), middle + px(5)), (x + px(9), middle)]
        draw.polygon(marker, fill=theme.to_act)
    if row.marks:
        draw_mark(draw, (left + px(5), middle), px(11), row.seat, theme.strip_ink)
    else:
        draw.rectangle((left, middle - px(5), left + px(10), middle + px(5)), fill=theme.player(row.seat))
    score = str(line.score)
    right = x + width - STRIP_PAD
    text(draw, (right, middle), score, TEXT.body, theme.strip_ink, anchor="rm", weight=BOLD)
    name_left = left + px(15)
    right -= text_width(score, TEXT.body, BOLD) + px(8)
    if line.extra:
        extra = shorten(line.extra, TEXT.small, (right - name_left) // 2)
        text(draw, (right, middle), extra, TEXT.small, theme.strip_muted, anchor="rm")
        right -= text_width(extra, TEXT.small) + px(8)
    name = tagged_name(line.name, line.tag, TEXT.body, right - name_left)
    text(draw, (name_left, middle), name, TEXT.body, theme.strip_ink, anchor="lm")


MARK_NAMES = ("circle", "square", "triangle", "diamond", "star", "cross")
"""The shape of each seat's mark, where colours cannot tell players apart (Tile Up!, whose
tiles have the colours): shapes read without colour, on a phone and for colour-blind players."""


def mark_points(seat: int, centre: Point, size: float) -> list[Point]:
    """The outline of ``seat``'s mark of ``size`` px centred on ``centre`` (a circle is a
    polygon of many sides)."""
    x, y = centre
    half = size / 2
    shape = MARK_NAMES[seat % len(MARK_NAMES)]
    if shape == "circle":
        corners, spin, reach = 32, 0.0, [half]
    elif shape == "square":
        corners, spin, reach = 4, 45.0, [half * 1.3]
    elif shape == "triangle":
        corners, spin, reach = 3, -90.0, [half * 1.2]
    elif shape == "diamond":
        corners, spin, reach = 4, -90.0, [half * 1.15]
    elif shape == "star":
        corners, spin, reach = 10, -90.0, [half * 1.2, half * 0.5]
    else:  # a cross: twelve corners
        arm = half * 0.36
        return [
            (x + dx, y + dy)
            for dx, dy in (
                (-arm, -half),
                (arm, -half),
                (arm, -arm),
                (half, -arm),
                (half, arm),
                (arm, arm),
                (arm, half),
                (-arm, half),
                (-arm, arm),
                (-half, arm),
                (-half, -arm),
                (-arm, -arm),
            )
        ]
    points = []
    for index in range(corners):
        angle = math.radians(spin + 360 * index / corners)
        length = reach[index % len(reach)]
        points.append((x + length * math.cos(angle), y + length * math.sin(angle)))
    return points


def draw_mark(draw: ImageDraw.ImageDraw, centre: Point, size: float, seat: int, colour: RGB) -> None:
    """``seat``'s mark (see :data:`MARK_NAMES`) in ``colour``, smooth-edged."""
    points = mark_points(seat, centre, size)
    box = (math.floor(centre[0] - size), math.floor(centre[1] - size))
    extent = (math.ceil(2 * size) + 2, math.ceil(2 * size) + 2)
    mask = polygon_mask(tuple((px_ - box[0], py_ - box[1]) for px_, py_ in points), extent)
    draw.bitmap(box, mask, fill=colour)


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


# PNG, written here rather than by Pillow: Pillow tries five filters on every row, which took
# 58-89 % of a board job; boards repeat row after row, so the Up filter alone (each byte minus the
# one above it: mostly zeros) compresses to 6-15 % more bytes for a seventh to a tenth of the CPU.
# Lossless, so every picture is exactly what was drawn. The figures and the alternatives measured
# (compression levels, palette images, other encoders): docs/notes/cheap.md, bench/bench_render.py.

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_COLOUR_TYPES: dict[str, tuple[int, int]] = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4)}
"""Image mode -> (PNG colour type, bytes per pixel) for the modes written directly."""
PNG_UP = 2
"""The PNG row filter used for every row: Up."""
PNG_LEVEL = 2 if DEFLATE_NAME == "zlib-ng" else 1
"""The deflate level: zlib-ng's level 2 (boards 6-15 % larger than Pillow's zlib level 6 made,
in half the time of the standard library's level 1), or the standard library's level 1 without
zlib-ng."""


def to_png(image: Image.Image) -> bytes:
    """Encode ``image`` as PNG bytes, losslessly (L, RGB and RGBA written directly, other modes
    by Pillow)."""
    kind = PNG_COLOUR_TYPES.get(image.mode)
    if kind is None:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=PNG_LEVEL)
        return buffer.getvalue()
    colour_type, depth = kind
    width, height = image.size
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    data = deflate(up_filtered(image, depth), PNG_LEVEL)
    return PNG_SIGNATURE + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", data) + png_chunk(b"IEND", b"")


def up_filtered(image: Image.Image, depth: int) -> memoryview:
    """The rows of ``image`` (``depth`` bytes a pixel), each as the Up filter byte then every
    byte minus the byte above it (modulo 256; the first row is as it is)."""
    rows = np.frombuffer(image.tobytes(), dtype=np.uint8).reshape(image.height, image.width * depth)
    out = np.empty((image.height, image.width * depth + 1), dtype=np.uint8)
    out[:, 0] = PNG_UP
    out[0, 1:] = rows[0]
    np.subtract(rows[1:], rows[:-1], out=out[1:, 1:])
    return out.data


def png_chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data and CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
