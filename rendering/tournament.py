"""A tournament's standings as a picture: a title strip, then one row per player (rank, name,
points in bold, each tiebreak), the leaders marked. Plain strings in, PNG bytes out: the bot
decides what the columns say; this module only lays them out (readable on a phone: every text is
at least the boards' smallest size when the picture is shown 400 px wide)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering.common import (
    BOLD,
    CONDENSED,
    NORMAL_WIDTH,
    TEXT,
    THEME,
    WIDTH,
    drawable_name,
    px,
    shorten,
    text,
    text_width,
    tint,
    to_png,
)

PAD = px(8)
"""Space at the picture's sides and between columns."""
ROW = px(24)
"""The height of one row."""
TITLE_ROW = px(26)
GOLD = (245, 197, 66)
NAME_COLUMN = 1
"""The column that takes the width the others leave (the players' names)."""
MIN_NAME = px(90)


def column_widths(headings: Sequence[str], rows: Sequence[Sequence[str]], size: int) -> list[int]:
    """Each column as wide as its widest cell (numbers and headings condensed); the name column
    takes what is left."""
    widths = []
    for index, heading in enumerate(headings):
        stretch = NORMAL_WIDTH if index == NAME_COLUMN else CONDENSED
        cells = [text_width(heading, TEXT.small, BOLD, stretch)]
        cells += [text_width(row[index], size, BOLD, stretch) for row in rows]
        widths.append(max(cells) + PAD)
    others = sum(w for i, w in enumerate(widths) if i != NAME_COLUMN)
    widths[NAME_COLUMN] = max(MIN_NAME, WIDTH - 2 * PAD - others)
    return widths


def standings_image(
    title: str,
    subtitle: str,
    headings: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    leaders: int = 0,
) -> Image.Image:
    """The standings table; the first ``leaders`` rows are marked in gold (the winners)."""
    size = TEXT.body
    widths = column_widths(headings, rows, size)
    width = max(WIDTH, sum(widths) + 2 * PAD)
    height = 2 * TITLE_ROW + ROW * (len(rows) + 1) + PAD
    image = Image.new("RGB", (width, height), THEME.background)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, 2 * TITLE_ROW), fill=THEME.strip)
    text(
        draw,
        (PAD, TITLE_ROW // 2 + px(2)),
        shorten(title, TEXT.title, width - 2 * PAD, BOLD),
        TEXT.title,
        THEME.strip_ink,
        anchor="lm",
        weight=BOLD,
    )
    text(
        draw,
        (PAD, TITLE_ROW + TITLE_ROW // 2),
        shorten(subtitle, TEXT.small, width - 2 * PAD),
        TEXT.small,
        THEME.strip_muted,
        anchor="lm",
    )
    top = 2 * TITLE_ROW
    _row(draw, top, headings, widths, TEXT.small, THEME.muted, bold=True)
    draw.line((PAD, top + ROW - 1, width - PAD, top + ROW - 1), fill=THEME.grid, width=2)
    for index, cells in enumerate(rows):
        y = top + ROW * (index + 1)
        if index < leaders:
            draw.rectangle((0, y, width, y + ROW), fill=tint(GOLD, 0.55))
        elif index % 2:
            draw.rectangle((0, y, width, y + ROW), fill=tint(THEME.grid, 0.6))
        _row(draw, y, cells, widths, size, THEME.ink)
    return image


def _row(
    draw: ImageDraw.ImageDraw,
    y: int,
    cells: Sequence[str],
    widths: Sequence[int],
    size: int,
    colour: tuple[int, int, int],
    *,
    bold: bool = False,
) -> None:
    x = PAD
    middle = y + ROW // 2
    for index, (cell, width) in enumerate(zip(cells, widths, strict=True)):
        weight = BOLD if bold or index == 2 else 400
        if index == NAME_COLUMN:
            shown = cell if bold else shorten(drawable_name(cell, "Player"), size, width - PAD, weight)
            text(draw, (x, middle), shown, size, colour, anchor="lm", weight=weight)
        else:
            right = x + width - PAD // 2
            text(draw, (right, middle), cell, size, colour, anchor="rm", weight=weight, stretch=CONDENSED)
        x += width


def standings_png(
    title: str, subtitle: str, headings: Sequence[str], rows: Sequence[Sequence[str]], leaders: int = 0
) -> bytes:
    """:func:`standings_image` as PNG bytes."""
    return to_png(standings_image(title, subtitle, headings, rows, leaders=leaders))
