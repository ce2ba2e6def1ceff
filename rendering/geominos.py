"""Geominos images: the board (a square window on the used area, growing in steps to the whole
board) and a player's hand.

Geometry (:class:`Window`, square to pixel) is kept apart from drawing. Tiles are drawn as
their shapes: each section tinted over the light or dark square beneath it (so a player sees
which pips cost points), its pips as domino dots, the whole tile outlined in the colour of the
player who placed it (the center tile in black, with a white edge that shows on dark squares).
The last placement is filled yellow and outlined thicker. The squares and labels of a window are
drawn once and reused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.core import counted
from games.geominos import GAME
from games.geominos.board import COLUMNS, SIZE, in_center, is_light
from games.geominos.tiles import pose
from rendering.base import Drawn
from rendering.common import (
    BOLD,
    RGB,
    TEXT,
    THEME,
    WIDTH,
    ScoreLine,
    draw_centered,
    game_result,
    hand_band,
    paste_disc,
    player_name,
    px,
    score_strip,
    stack_vertically,
    text,
)

LABEL = px(15)
"""Pixels kept on each edge for the coordinate labels."""
SPANS = (11, 15, 21)
"""The window sizes, in squares: the board grows in these steps (steady between moves)."""
MARGIN_SQUARES = 3
LIGHT: RGB = (250, 244, 226)
DARK: RGB = (122, 118, 112)
CENTER_LINE: RGB = (0, 0, 0)
CENTER_TILE: RGB = (20, 20, 20)
"""The outline of the center tile (owned by nobody), with a white edge inside it."""
CENTER_LIGHT, CENTER_DARK = (214, 209, 196), (48, 47, 45)
"""The center tile's sections over light and dark squares."""
LAST_FILL: RGB = (255, 214, 10)
SHADE: RGB = (25, 25, 25)
"""What a player's colour is darkened with over a dark square (mixing it with the grey of the
square would wash every colour out to a similar grey)."""
LIGHT_SHARE, DARK_SHARE = 0.55, 0.3
"""How much of the player's colour a section shows over a light square (mixed with the light
square) and how much it is darkened over a dark one: light and dark squares stay apart, and
the players' hues stay as distinct as the palette makes them on both."""
PIP_SPOTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)),
}
"""Domino dot positions on a 3x3 grid (row, column) for 1-6 pips."""
PIP_SHARE = 0.115
"""A pip's radius as a share of the square: on the largest board (21 squares, 44 px each) a
pip is 10 px across, 4 px on a phone."""
PIP_REACH = (0.23, 0.5, 0.77)
"""Where a square's three rows and columns of pips are, as shares of the square (spread so
that six pips keep apart)."""
HAND_CELL = px(21)
"""A hand's squares: pips of a tenth of it on each side, 4.2 phone px across."""

Box = tuple[int, int, int, int]


# -- geometry ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Window:
    """The squares shown (rows ``top``.., columns ``left``.., ``span`` x ``span``) at ``cell``
    pixels a square, with ``LABEL`` pixels of labels on every edge, centred in ``WIDTH``."""

    top: int
    left: int
    span: int
    cell: int

    @property
    def rows(self) -> int:
        """Rows shown."""
        return self.span

    @property
    def cols(self) -> int:
        """Columns shown."""
        return self.span

    @property
    def size(self) -> tuple[int, int]:
        """Width and height of the board part of the image in pixels."""
        return WIDTH, self.span * self.cell + 2 * LABEL

    @property
    def origin(self) -> tuple[int, int]:
        """The pixel corner of the top-left square shown."""
        return (WIDTH - self.span * self.cell) // 2, LABEL

    def box(self, row: int, col: int) -> Box:
        """The pixel box ``(x0, y0, x1, y1)`` of a board square (x1, y1 exclusive)."""
        x0, y0 = self.origin
        x = x0 + (col - self.left) * self.cell
        y = y0 + (row - self.top) * self.cell
        return x, y, x + self.cell, y + self.cell

    def shows(self, row: int, col: int) -> bool:
        """True when the square is inside the window."""
        return self.top <= row < self.top + self.span and self.left <= col < self.left + self.span


def _start(low: int, high: int, span: int) -> int:
    """The first row (column) of ``span`` squares centred on ``low..high``, inside the board."""
    start = (low + high + 1 - span) // 2
    return max(0, min(SIZE - span, start))


def window_for(board: Sequence[Any], width: int = WIDTH) -> Window:
    """The smallest of :data:`SPANS` showing the used area plus a margin of three squares,
    centred on it; square cells fitting ``width`` pixels."""
    squares = [(row, col) for placed in board for row, col, _ in placed.squares()] or [(10, 10)]
    top, bottom = min(r for r, _ in squares), max(r for r, _ in squares)
    left, right = min(c for _, c in squares), max(c for _, c in squares)
    needed = max(bottom - top, right - left) + 1 + 2 * MARGIN_SQUARES
    span = next((span for span in SPANS if span >= needed), SIZE)
    cell = (width - 2 * LABEL) // span
    return Window(_start(top, bottom, span), _start(left, right, span), span, cell)


def pip_radius(cell: int) -> float:
    """The radius of a pip in a square of ``cell`` pixels."""
    return cell * PIP_SHARE


def pip_centers(box: Box, pips: int) -> list[tuple[float, float]]:
    """Where the dots of ``pips`` go inside a square's pixel box."""
    x0, y0, x1, _ = box
    side = x1 - x0
    return [(x0 + side * PIP_REACH[c], y0 + side * PIP_REACH[r]) for r, c in PIP_SPOTS[pips]]


# -- drawing ------------------------------------------------------------------------------------


def _blend(a: RGB, b: RGB, share: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * share),
        round(a[1] + (b[1] - a[1]) * share),
        round(a[2] + (b[2] - a[2]) * share),
    )


def _draw_pips(image: Image.Image, box: Box, pips: int, ink: RGB, hollow: RGB | None = None) -> None:
    """The pips of a square in ``ink``; ``hollow`` (the square's fill) makes them rings (pips
    on the center square, which are never assessed)."""
    diameter = 2 * pip_radius(box[2] - box[0])
    for centre in pip_centers(box, pips):
        paste_disc(image, centre, diameter, ink)
        if hollow is not None:
            paste_disc(image, centre, diameter * 0.5, hollow)


def section_fill(light: bool, colour: RGB | None, last: bool) -> RGB:
    """The fill of a tile's section: the player's colour (``None`` for the center tile, a
    pale or a near-black grey) over a light or a dark square, or the yellow of the last
    placement. Pips are dark on a light square and white on a dark one: both contrast."""
    base = LIGHT if light else DARK
    if last:
        return _blend(base, LAST_FILL, 0.75)
    if colour is None:
        return CENTER_LIGHT if light else CENTER_DARK
    return _blend(LIGHT, colour, LIGHT_SHARE) if light else _blend(colour, SHADE, DARK_SHARE)


def _outline(draw: ImageDraw.ImageDraw, cells: dict[tuple[int, int], Box], colour: RGB, width: int) -> None:
    """Draw the outer edges of a tile (edges not shared by two of its sections), inside it."""
    for (row, col), (x0, y0, x1, y1) in cells.items():
        x1, y1 = x1 - 1, y1 - 1
        if (row - 1, col) not in cells:
            draw.rectangle((x0, y0, x1, y0 + width - 1), fill=colour)
        if (row + 1, col) not in cells:
            draw.rectangle((x0, y1 - width + 1, x1, y1), fill=colour)
        if (row, col - 1) not in cells:
            draw.rectangle((x0, y0, x0 + width - 1, y1), fill=colour)
        if (row, col + 1) not in cells:
            draw.rectangle((x1 - width + 1, y0, x1, y1), fill=colour)


@lru_cache(maxsize=8)
def base_layer(window: Window) -> Image.Image:
    """What never changes for a window: background, light and dark squares, labels."""
    image = Image.new("RGB", window.size, THEME.background)
    draw = ImageDraw.Draw(image)
    for row in range(window.top, window.top + window.span):
        for col in range(window.left, window.left + window.span):
            x0, y0, x1, y1 = window.box(row, col)
            shade = LIGHT if is_light(row, col) else DARK
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=shade, outline=THEME.grid)
    _draw_labels(draw, window)
    return image


def _draw_center(draw: ImageDraw.ImageDraw, window: Window) -> None:
    corners = [(r, c) for r in (9, 11) for c in (9, 11) if window.shows(r, c)]
    if len(corners) < 4:
        return
    x0, y0, _, _ = window.box(9, 9)
    _, _, x1, y1 = window.box(11, 11)
    width = max(2, window.cell // 16)
    draw.rectangle(
        (x0 - width // 2, y0 - width // 2, x1 + width // 2, y1 + width // 2), outline=CENTER_LINE, width=width
    )


def _draw_tile(image: Image.Image, window: Window, placed: Any, last: bool) -> None:
    draw = ImageDraw.Draw(image)
    colour = CENTER_TILE if placed.owner is None else THEME.player(placed.owner)
    cells: dict[tuple[int, int], Box] = {}
    for row, col, pips in placed.squares():
        if not window.shows(row, col):
            continue
        box = window.box(row, col)
        cells[row, col] = box
        light = is_light(row, col)
        fill = section_fill(light, None if placed.owner is None else colour, last)
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=fill)
        ink = THEME.ink if light or last else (255, 255, 255)
        _draw_pips(image, box, pips, ink, fill if in_center(row, col) else None)
    width = max(2, window.cell // 10) + (2 if last else 0)
    if placed.owner is None:  # a white edge inside the black outline shows on dark squares
        _outline(draw, cells, (255, 255, 255), width + max(1, width // 2))
    _outline(draw, cells, colour, width)


def _draw_labels(draw: ImageDraw.ImageDraw, window: Window) -> None:
    _, height = window.size
    x_left, _ = window.origin
    x_right = x_left + window.span * window.cell
    for col in range(window.left, window.left + window.span):
        x0, _, x1, _ = window.box(window.top, col)
        for y in (LABEL // 2, height - LABEL // 2):
            draw_centered(draw, ((x0 + x1) / 2, y), COLUMNS[col], TEXT.small, THEME.ink)
    for row in range(window.top, window.top + window.span):
        _, y0, _, y1 = window.box(row, window.left)
        for x in (x_left - LABEL // 2, x_right + LABEL // 2):
            draw_centered(draw, (x, (y0 + y1) / 2), str(row + 1), TEXT.small, THEME.ink)


def board_image(state: Any, window: Window) -> Image.Image:
    """The board part: squares, center square, tiles, labels."""
    image = base_layer(window).copy()
    for index, placed in enumerate(state.board):
        if index != state.last:
            _draw_tile(image, window, placed, last=False)
    _draw_center(ImageDraw.Draw(image), window)
    if state.last is not None:
        _draw_tile(image, window, state.board[state.last], last=True)
    return image


def strip_for(state: Any, players: Sequence[str], width: int) -> Image.Image:
    """The score strip: totals (fewest wins), tiles in hand, whose turn, game and deck."""
    lines = []
    for seat in range(state.players):
        if seat in state.forfeited:
            extra = "forfeited"
        elif state.options.mode == "one":
            extra = ""
        else:
            extra = f"hand {len(state.hands[seat])}"
        if state.options.match == "on" and seat not in state.forfeited:
            extra = f"this game {state.points[seat]}" + (f" · {extra}" if extra else "")
        lines.append(ScoreLine(player_name(players, seat), state.totals[seat], extra))
    parts = ["Geominos · fewest points wins"]
    if state.options.match == "on":
        parts.append(f"game {state.game_index + 1}/{state.players}")
    parts.append(f"deck {len(state.deck)}")
    outcome = GAME.outcome(state) if state.finished else None
    if outcome is not None:
        return score_strip(width, lines, None, result=game_result(GAME, outcome, players))
    if state.turn is not None:
        parts.append(f"{player_name(players, state.turn)} to play")
    turn = None if state.finished else state.turn
    return score_strip(width, lines, turn, title=" · ".join(parts))


def render_board(view: Any, players: Sequence[str]) -> Image.Image:
    """The board around the placed tiles, with labels, the last move and the score strip."""
    window = window_for(view.board)
    board = board_image(view, window)
    return stack_vertically([board, strip_for(view, players, board.width)])


# -- hand ---------------------------------------------------------------------------------------

CARD_PAD = px(6)
CARD_GAP = px(8)
NAME_BAND = px(20)
SIDE_BAND = px(16)


@lru_cache(maxsize=128)
def _pose_image(tile: str, side: str, colour: RGB) -> Image.Image:
    shape = pose(tile, side, 0)
    cell = HAND_CELL
    image = Image.new("RGB", (shape.width * cell + 4, shape.height * cell + 4), THEME.background)
    draw = ImageDraw.Draw(image)
    cells: dict[tuple[int, int], Box] = {}
    for row, col, pips in shape.sections:
        box = (2 + col * cell, 2 + row * cell, 2 + (col + 1) * cell, 2 + (row + 1) * cell)
        cells[row, col] = box
        draw.rectangle(
            (box[0], box[1], box[2] - 1, box[3] - 1), fill=_blend(LIGHT, colour, 0.2), outline=THEME.grid
        )
        _draw_pips(image, box, pips, THEME.ink)
    _outline(draw, cells, colour, max(2, cell // 10))
    return image


def hand_card(tile: str, colour: RGB) -> Image.Image:
    """One tile of a hand: its name above both of its sides at rotation 0 (``A0`` and ``B0``)."""
    sides = [_pose_image(tile, side, colour) for side in ("A", "B")]
    inner = max(image.height for image in sides)
    width = sides[0].width + sides[1].width + 3 * CARD_PAD
    card = Image.new("RGB", (width, NAME_BAND + inner + SIDE_BAND), THEME.background)
    draw = ImageDraw.Draw(card)
    text(draw, (CARD_PAD, NAME_BAND // 2), tile, TEXT.body, THEME.ink, anchor="lm", weight=BOLD)
    x = CARD_PAD
    for label, image in zip(("A0", "B0"), sides, strict=True):
        card.paste(image, (x, NAME_BAND + inner - image.height))
        draw_centered(
            draw, (x + image.width / 2, NAME_BAND + inner + SIDE_BAND // 2), label, TEXT.small, THEME.muted
        )
        x += image.width + CARD_PAD
    return card


def flow(cards: Sequence[Image.Image], width: int) -> list[list[Image.Image]]:
    """``cards`` in rows, as many in each as fit ``width`` pixels (with gaps)."""
    rows: list[list[Image.Image]] = []
    used = width
    for card in cards:
        if not rows or used + CARD_GAP + card.width > width:
            rows.append([])
            used = CARD_GAP
        rows[-1].append(card)
        used += card.width + CARD_GAP
    return rows


def render_hand(view: Any, seat: int, players: Sequence[str]) -> Image.Image:
    """Every tile ``seat`` holds, on both sides at rotation 0 with its name, under a band
    with the player's colour and name."""
    colour = THEME.player(seat)
    tiles = view.hands[seat]
    name = player_name(players, seat)
    title = f"{name} · {counted(len(tiles), 'tile')} in hand" if tiles else f"{name} holds no tiles"
    band = hand_band(colour, title)
    if not tiles:
        return band
    rows = flow([hand_card(tile, colour) for tile in tiles], WIDTH)
    heights = [max(card.height for card in row) + CARD_GAP for row in rows]
    image = Image.new("RGB", (WIDTH, CARD_GAP + sum(heights)), THEME.background)
    y = CARD_GAP
    for row, height in zip(rows, heights, strict=True):
        x = CARD_GAP
        for card in row:
            image.paste(card, (x, y))
            x += card.width + CARD_GAP
        y += height
    return stack_vertically([band, image])


RENDERER = Drawn("geominos", render_board, render_hand)
