"""Geominos images: the board (cropped to the used area plus a margin) and a player's hand.

Geometry (:class:`Window`, square to pixel) is kept apart from drawing. Tiles are drawn as
their shapes: each section tinted over the light or dark square beneath it (so a player sees
which pips cost points), its pips as domino dots, the whole tile outlined in the colour of the
player who placed it. The last placement is filled yellow and outlined thicker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from games.geominos.board import COLUMNS, SIZE, in_center, is_light
from games.geominos.state import Placed, State
from games.geominos.tiles import pose
from rendering.common import BOARD_WIDTH, RGB, THEME, ScoreLine, font, score_strip, stack_vertically

LABEL = 18
"""Pixels kept on each edge for the coordinate labels."""
MIN_SPAN = 11
"""The smallest window shown, in squares."""
MARGIN_SQUARES = 3
MAX_CELL = 40
LIGHT: RGB = (250, 244, 226)
DARK: RGB = (122, 118, 112)
CENTER_LINE: RGB = (0, 0, 0)
LAST_FILL: RGB = (255, 214, 10)
NEUTRAL: RGB = (90, 90, 90)
PIP_SPOTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)),
}
"""Domino dot positions on a 3x3 grid (row, column) for 1-6 pips."""
HAND_CELL = 19


# -- geometry ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Window:
    """The squares shown (rows ``top``.., columns ``left``.., ``rows`` x ``cols``) at ``cell``
    pixels a square, with ``LABEL`` pixels of labels on every edge."""

    top: int
    left: int
    rows: int
    cols: int
    cell: int

    @property
    def size(self) -> tuple[int, int]:
        """Width and height of the board part of the image in pixels."""
        return self.cols * self.cell + 2 * LABEL, self.rows * self.cell + 2 * LABEL

    def box(self, row: int, col: int) -> tuple[int, int, int, int]:
        """The pixel box ``(x0, y0, x1, y1)`` of a board square (x1, y1 exclusive)."""
        x = LABEL + (col - self.left) * self.cell
        y = LABEL + (row - self.top) * self.cell
        return x, y, x + self.cell, y + self.cell

    def shows(self, row: int, col: int) -> bool:
        """True when the square is inside the window."""
        return self.top <= row < self.top + self.rows and self.left <= col < self.left + self.cols


def _span(low: int, high: int) -> tuple[int, int]:
    """Grow ``low..high`` by the margin and to at least ``MIN_SPAN``, inside the board."""
    low, high = max(0, low - MARGIN_SQUARES), min(SIZE - 1, high + MARGIN_SQUARES)
    while high - low + 1 < MIN_SPAN:
        if low > 0:
            low -= 1
        if high - low + 1 < MIN_SPAN and high < SIZE - 1:
            high += 1
    return low, high


def window_for(board: Sequence[Placed], width: int = BOARD_WIDTH) -> Window:
    """The used area of the board plus a margin, square cells fitting ``width`` pixels."""
    squares = [(row, col) for placed in board for row, col, _ in placed.squares()] or [(10, 10)]
    top, bottom = _span(min(r for r, _ in squares), max(r for r, _ in squares))
    left, right = _span(min(c for _, c in squares), max(c for _, c in squares))
    rows, cols = bottom - top + 1, right - left + 1
    cell = min(MAX_CELL, (width - 2 * LABEL) // max(rows, cols))
    return Window(top, left, rows, cols, cell)


def pip_centers(box: tuple[int, int, int, int], pips: int) -> list[tuple[float, float]]:
    """Where the dots of ``pips`` go inside a square's pixel box."""
    x0, y0, x1, _ = box
    step = (x1 - x0) / 4
    return [(x0 + step * (1 + c), y0 + step * (1 + r)) for r, c in PIP_SPOTS[pips]]


# -- drawing ------------------------------------------------------------------------------------


def _blend(a: RGB, b: RGB, share: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * share),
        round(a[1] + (b[1] - a[1]) * share),
        round(a[2] + (b[2] - a[2]) * share),
    )


def _owner_colour(owner: int | None) -> RGB:
    return NEUTRAL if owner is None else THEME.player(owner)


def _draw_pips(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], pips: int, ink: RGB) -> None:
    radius = max(1.5, (box[2] - box[0]) * 0.09)
    for x, y in pip_centers(box, pips):
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=ink)


def _outline(
    draw: ImageDraw.ImageDraw,
    cells: dict[tuple[int, int], tuple[int, int, int, int]],
    colour: RGB,
    width: int,
) -> None:
    """Draw the outer edges of a tile (edges not shared by two of its sections)."""
    for (row, col), (x0, y0, x1, y1) in cells.items():
        inset = width // 2
        if (row - 1, col) not in cells:
            draw.line((x0, y0 + inset, x1 - 1, y0 + inset), fill=colour, width=width)
        if (row + 1, col) not in cells:
            draw.line((x0, y1 - 1 - inset, x1 - 1, y1 - 1 - inset), fill=colour, width=width)
        if (row, col - 1) not in cells:
            draw.line((x0 + inset, y0, x0 + inset, y1 - 1), fill=colour, width=width)
        if (row, col + 1) not in cells:
            draw.line((x1 - 1 - inset, y0, x1 - 1 - inset, y1 - 1), fill=colour, width=width)


def _draw_squares(draw: ImageDraw.ImageDraw, window: Window) -> None:
    for row in range(window.top, window.top + window.rows):
        for col in range(window.left, window.left + window.cols):
            x0, y0, x1, y1 = window.box(row, col)
            shade = LIGHT if is_light(row, col) else DARK
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=shade, outline=THEME.grid)


def _draw_center(draw: ImageDraw.ImageDraw, window: Window) -> None:
    corners = [(r, c) for r in (9, 11) for c in (9, 11) if window.shows(r, c)]
    if len(corners) < 4:
        return
    x0, y0, _, _ = window.box(9, 9)
    _, _, x1, y1 = window.box(11, 11)
    draw.rectangle((x0 - 1, y0 - 1, x1, y1), outline=CENTER_LINE, width=2)


def _draw_tile(draw: ImageDraw.ImageDraw, window: Window, placed: Placed, last: bool) -> None:
    colour = _owner_colour(placed.owner)
    cells: dict[tuple[int, int], tuple[int, int, int, int]] = {}
    for row, col, pips in placed.squares():
        if not window.shows(row, col):
            continue
        box = window.box(row, col)
        cells[row, col] = box
        base = LIGHT if is_light(row, col) else DARK
        fill = _blend(base, LAST_FILL, 0.75) if last else _blend(base, colour, 0.28)
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=fill)
        free = in_center(row, col)
        ink = THEME.ink if is_light(row, col) or last else (255, 255, 255)
        _draw_pips(draw, box, pips, THEME.muted if free and not last else ink)
    _outline(draw, cells, colour, max(2, window.cell // 9) + (1 if last else 0))


def _draw_labels(draw: ImageDraw.ImageDraw, window: Window) -> None:
    width, height = window.size
    size = 11 if window.cell >= 22 else 9
    for col in range(window.left, window.left + window.cols):
        x0, _, x1, _ = window.box(window.top, col)
        for y in (LABEL // 2, height - LABEL // 2):
            draw.text(((x0 + x1) / 2, y), COLUMNS[col], font=font(size), fill=THEME.ink, anchor="mm")
    for row in range(window.top, window.top + window.rows):
        _, y0, _, y1 = window.box(row, window.left)
        for x in (LABEL // 2, width - LABEL // 2):
            draw.text((x, (y0 + y1) / 2), str(row + 1), font=font(size), fill=THEME.ink, anchor="mm")


def board_image(state: State, window: Window) -> Image.Image:
    """The board part: squares, center square, tiles, labels."""
    image = Image.new("RGB", window.size, THEME.background)
    draw = ImageDraw.Draw(image)
    _draw_squares(draw, window)
    for index, placed in enumerate(state.board):
        if index != state.last:
            _draw_tile(draw, window, placed, last=False)
    _draw_center(draw, window)
    if state.last is not None:
        _draw_tile(draw, window, state.board[state.last], last=True)
    _draw_labels(draw, window)
    return image


def strip_for(state: State, players: Sequence[str], width: int) -> Image.Image:
    """The score strip: totals (fewest wins), tiles in hand, whose turn, game and deck."""
    lines = []
    for seat, name in enumerate(players):
        if seat in state.forfeited:
            extra = "forfeited"
        elif state.options.mode == "one":
            extra = ""
        else:
            extra = f"hand {len(state.hands[seat])}"
        if state.options.match == "on" and seat not in state.forfeited:
            extra = f"this game {state.points[seat]}" + (f" · {extra}" if extra else "")
        lines.append(ScoreLine(name, state.totals[seat], extra))
    parts = ["Geominos · fewest points wins"]
    if state.options.match == "on":
        parts.append(f"game {state.game_index + 1}/{state.players}")
    parts.append(f"deck {len(state.deck)}")
    if state.finished:
        playing = [seat for seat in range(state.players) if seat not in state.forfeited]
        best = min((state.totals[seat] for seat in playing), default=0)
        winners = [players[seat] for seat in playing if state.totals[seat] == best]
        parts.append(f"game over: {' and '.join(winners)} {'wins' if len(winners) == 1 else 'share first'}")
    elif state.turn is not None:
        parts.append(f"{players[state.turn]} to play")
    turn = None if state.finished else state.turn
    return score_strip(width, lines, turn, title=" · ".join(parts))


def render_board(view: State, players: Sequence[str]) -> Image.Image:
    """The board around the placed tiles, with labels, the last move and the score strip."""
    window = window_for(view.board)
    board = board_image(view, window)
    return stack_vertically([board, strip_for(view, players, board.width)])


# -- hand ---------------------------------------------------------------------------------------


def _pose_image(tile: str, side: str, colour: RGB) -> Image.Image:
    shape = pose(tile, side, 0)
    cell = HAND_CELL
    image = Image.new("RGB", (shape.width * cell + 4, shape.height * cell + 4), THEME.background)
    draw = ImageDraw.Draw(image)
    cells: dict[tuple[int, int], tuple[int, int, int, int]] = {}
    for row, col, pips in shape.sections:
        box = (2 + col * cell, 2 + row * cell, 2 + (col + 1) * cell, 2 + (row + 1) * cell)
        cells[row, col] = box
        inside = (box[0], box[1], box[2] - 1, box[3] - 1)
        draw.rectangle(inside, fill=_blend(LIGHT, colour, 0.2), outline=THEME.grid)
        _draw_pips(draw, box, pips, THEME.ink)
    _outline(draw, cells, colour, 2)
    return image


def _hand_card(tile: str, colour: RGB) -> Image.Image:
    sides = [_pose_image(tile, side, colour) for side in ("A", "B")]
    inner = max(image.height for image in sides)
    width = sides[0].width + sides[1].width + 30
    card = Image.new("RGB", (max(width, 110), inner + 36), THEME.background)
    draw = ImageDraw.Draw(card)
    draw.text((4, 2), tile, font=font(14), fill=THEME.ink)
    x = 4
    for label, image in zip(("A0", "B0"), sides, strict=True):
        card.paste(image, (x, 20))
        draw.text((x + image.width / 2, 22 + inner + 6), label, font=font(10), fill=THEME.muted, anchor="mm")
        x += image.width + 20
    return card


def render_hand(view: State, seat: int, players: Sequence[str]) -> Image.Image:
    """Every tile ``seat`` holds, on both sides at rotation 0 with its name."""
    colour = THEME.player(seat)
    tiles = view.hands[seat]
    cards = [_hand_card(tile, colour) for tile in tiles]
    cell_w = max((card.width for card in cards), default=160) + 10
    columns = max(1, min(3, (BOARD_WIDTH - 16) // cell_w))
    rows = [cards[i : i + columns] for i in range(0, len(cards), columns)]
    row_heights = [max(card.height for card in row) + 8 for row in rows]
    width = max(BOARD_WIDTH, cell_w * columns + 16)
    header = 26
    image = Image.new("RGB", (width, header + sum(row_heights) + 8), THEME.background)
    draw = ImageDraw.Draw(image)
    name = players[seat] if seat < len(players) else f"Seat {seat + 1}"
    title = f"{name}'s tiles ({len(tiles)})" if tiles else f"{name} holds no tiles"
    draw.text((8, 6), title, font=font(15), fill=colour)
    y = header
    for row, height in zip(rows, row_heights, strict=True):
        for index, card in enumerate(row):
            image.paste(card, (8 + index * cell_w, y))
        y += height
    return image
