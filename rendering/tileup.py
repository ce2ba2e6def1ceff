"""Tile Up! images: the 11×11 board with its stacks, the face-up goal cards, and a player's screen.

Geometry (square to pixel) is in :class:`BoardGeometry`; drawing functions take a geometry and a
box. Tile colours are Okabe-Ito orange, blue and reddish purple; each colour also has its own
pattern (plain, dots, diagonal stripes) and its letter in the corner, so colour is never the only
cue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from games.tileup.data import (
    CENTER,
    COLOUR_NAMES,
    COLUMNS,
    CORNERS,
    SHAPES,
    SIZE,
    SQUARES,
    card_colour,
    card_label,
    card_shape,
)
from games.tileup.state import TileUpState
from rendering.common import (
    BOARD_WIDTH,
    RGB,
    THEME,
    ScoreLine,
    draw_centered,
    font,
    score_strip,
    stack_vertically,
)

Box = tuple[int, int, int, int]

TILE_FILL: dict[str, RGB] = {"O": (230, 159, 0), "B": (0, 114, 178), "P": (204, 121, 167)}
"""Okabe-Ito orange, blue and reddish purple: distinct for the common colour-blindnesses."""
TILE_INK: dict[str, RGB] = {"O": (30, 30, 30), "B": (255, 255, 255), "P": (30, 30, 30)}
TILE_PATTERN: dict[str, RGB] = {"O": (242, 190, 80), "B": (40, 140, 200), "P": (222, 160, 196)}
CENTER_FILL: RGB = (186, 224, 180)
CORNER_FILL: RGB = (222, 214, 196)
BOARD_FILL: RGB = (252, 250, 245)
CARD_FILL: RGB = (255, 255, 255)


@dataclass(frozen=True)
class BoardGeometry:
    """Where each square of the board is drawn."""

    cell: int = 46
    left: int = 24
    top: int = 22

    @property
    def width(self) -> int:
        """Width of the board panel (labels included)."""
        return self.left + self.cell * SIZE + 10

    @property
    def height(self) -> int:
        """Height of the board panel (labels included)."""
        return self.top + self.cell * SIZE + 8

    def cell_box(self, square: int) -> Box:
        """The pixel box of ``square`` (left, top, right, bottom; right/bottom inclusive)."""
        row, column = divmod(square, SIZE)
        x = self.left + column * self.cell
        y = self.top + row * self.cell
        return x, y, x + self.cell - 1, y + self.cell - 1

    def center(self, square: int) -> tuple[int, int]:
        """The pixel centre of ``square``."""
        x0, y0, x1, y1 = self.cell_box(square)
        return (x0 + x1 + 1) // 2, (y0 + y1 + 1) // 2

    def square_at(self, x: int, y: int) -> int | None:
        """The square under pixel (x, y), or None outside the grid."""
        column = (x - self.left) // self.cell
        row = (y - self.top) // self.cell
        if 0 <= column < SIZE and 0 <= row < SIZE and x >= self.left and y >= self.top:
            return row * SIZE + column
        return None


GEOMETRY = BoardGeometry()


# -- tiles ---------------------------------------------------------------------------------


def _pattern(draw: ImageDraw.ImageDraw, box: Box, colour: str) -> None:
    x0, y0, x1, y1 = box
    shade = TILE_PATTERN[colour]
    if colour == "B":
        step = max(6, (x1 - x0) // 5)
        for y in range(y0 + step // 2, y1, step):
            for x in range(x0 + step // 2, x1, step):
                draw.ellipse((x - 1, y - 1, x + 1, y + 1), fill=shade)
    elif colour == "P":
        step = max(5, (x1 - x0) // 6)
        for offset in range(-(y1 - y0), x1 - x0, step):
            start = (x0 + max(offset, 0), y0 + max(-offset, 0))
            length = min(x1 - start[0], y1 - start[1])
            draw.line((start, (start[0] + length, start[1] + length)), fill=shade, width=2)


def draw_tile(draw: ImageDraw.ImageDraw, box: Box, tile: str, height: int = 1) -> None:
    """One tile (the top of a stack of ``height``): colour, pattern, letter, number, height pips."""
    colour, number = tile[0], tile[1]
    x0, y0, x1, y1 = box
    size = x1 - x0
    draw.rounded_rectangle(box, radius=max(3, size // 8), fill=TILE_FILL[colour], outline=(60, 60, 60))
    _pattern(draw, (x0 + 2, y0 + 2, x1 - 2, y1 - 2), colour)
    ink = TILE_INK[colour]
    draw.text((x0 + 3, y0 + 1), colour, font=font(max(9, size // 4)), fill=ink)
    draw_centered(draw, ((x0 + x1) / 2 + 2, (y0 + y1) / 2), number, max(12, size // 2), ink)
    if height > 1:
        pip = max(2, size // 16)
        for index in range(height):
            cx = x1 - 4 - pip - index * (2 * pip + 2)
            cy = y1 - 4 - pip
            draw.ellipse((cx - pip, cy - pip, cx + pip, cy + pip), fill=ink, outline=TILE_FILL[colour])


# -- goal cards ----------------------------------------------------------------------------


def card_size(cell: int) -> tuple[int, int]:
    """Pixel size of a goal card drawn with mini cells of ``cell`` pixels."""
    return cell * 4 + 16, cell * 4 + 30


def draw_card(draw: ImageDraw.ImageDraw, origin: tuple[int, int], number: int, card: str, cell: int) -> Box:
    """A goal card: its number, its shape in its colour (with the tile pattern), its name."""
    width, height = card_size(cell)
    x0, y0 = origin
    box = (x0, y0, x0 + width, y0 + height)
    colour = card_colour(card)
    draw.rounded_rectangle(box, radius=8, fill=CARD_FILL, outline=TILE_FILL[colour], width=3)
    cells = SHAPES[card_shape(card)]
    wide = max(x for x, _ in cells) + 1
    tall = max(y for _, y in cells) + 1
    left = x0 + (width - wide * cell) // 2
    top = y0 + 22 + (height - 30 - tall * cell) // 2
    for x, y in cells:
        cell_box = (left + x * cell, top + y * cell, left + (x + 1) * cell - 2, top + (y + 1) * cell - 2)
        draw.rectangle(cell_box, fill=TILE_FILL[colour], outline=(60, 60, 60))
        _pattern(draw, cell_box, colour)
    draw.ellipse((x0 + 5, y0 + 4, x0 + 25, y0 + 24), fill=THEME.ink)
    draw_centered(draw, (x0 + 15, y0 + 14), str(number), 14, (255, 255, 255))
    draw.text((x0 + 30, y0 + 6), card_label(card), font=font(12), fill=THEME.ink)
    return box


# -- the board -----------------------------------------------------------------------------


def _draw_grid(draw: ImageDraw.ImageDraw, geometry: BoardGeometry) -> None:
    center, corners = set(CENTER), set(CORNERS)
    for square in range(SQUARES):
        box = geometry.cell_box(square)
        fill = CENTER_FILL if square in center else CORNER_FILL if square in corners else BOARD_FILL
        draw.rectangle(box, fill=fill, outline=THEME.grid)
        if square in corners:
            x0, y0, x1, y1 = box
            draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=THEME.ink, width=2)
            draw_centered(draw, geometry.center(square), "corner", 10, THEME.muted)
    for index in range(SIZE):
        x0, y0, x1, _ = geometry.cell_box(index)
        draw_centered(draw, ((x0 + x1) / 2, geometry.top / 2), COLUMNS[index], 13, THEME.ink)
        _, y0, _, y1 = geometry.cell_box(index * SIZE)
        draw_centered(draw, (geometry.left / 2, (y0 + y1) / 2), str(index + 1), 13, THEME.ink)


def _draw_stacks(draw: ImageDraw.ImageDraw, geometry: BoardGeometry, view: TileUpState) -> None:
    inset = 3
    for square, stack in enumerate(view.board):
        if stack:
            x0, y0, x1, y1 = geometry.cell_box(square)
            draw_tile(draw, (x0 + inset, y0 + inset, x1 - inset, y1 - inset), stack[-1], len(stack))


def _draw_highlight(draw: ImageDraw.ImageDraw, geometry: BoardGeometry, squares: Sequence[int]) -> None:
    for square in squares:
        x0, y0, x1, y1 = geometry.cell_box(square)
        draw.rectangle((x0, y0, x1, y1), outline=THEME.highlight, width=3)


def board_panel(view: TileUpState, geometry: BoardGeometry = GEOMETRY) -> Image.Image:
    """The board alone: labels, green center, corners, stacks and the last placements."""
    image = Image.new("RGB", (geometry.width, geometry.height), THEME.background)
    draw = ImageDraw.Draw(image)
    _draw_grid(draw, geometry)
    _draw_stacks(draw, geometry, view)
    _draw_highlight(draw, geometry, view.highlight)
    return image


def _cards_panel(view: TileUpState, width: int) -> Image.Image:
    cell = 14
    _, card_height = card_size(cell)
    image = Image.new("RGB", (width, card_height + 16), THEME.background)
    draw = ImageDraw.Draw(image)
    x = 10
    for number, card in enumerate(view.face_up, start=1):
        box = draw_card(draw, (x, 8), number, card, cell)
        x = box[2] + 10
    lines = [
        "face-up goal cards",
        "(anyone may score them)",
        f"tile bag: {view.bag_size}",
        f"goal deck: {view.deck_size}",
        f"discard pile: {len(view.discards)}",
        f"turn {view.turn}" if not view.over else "game over",
    ]
    for index, line in enumerate(lines):
        draw.text((x + 4, 10 + index * 15), line, font=font(12), fill=THEME.ink if index > 1 else THEME.muted)
    return image


def _score_lines(view: TileUpState, players: Sequence[str]) -> list[ScoreLine]:
    lines = []
    for seat, name in enumerate(players):
        extra = f"{view.tile_counts[seat]} tiles · {view.card_counts[seat]} cards"
        if seat in view.forfeited:
            extra = "resigned"
        lines.append(ScoreLine(name, view.scores[seat], extra))
    return lines


def _strip_title(view: TileUpState) -> str:
    if view.over:
        return f"Tile Up! — game over: {view.reason}"
    last = f" · last: {view.last_move}" if view.last_move else ""
    return f"Tile Up! — turn {view.turn}{last}"


def render_board(view: TileUpState, players: Sequence[str]) -> Image.Image:
    """The board, the face-up goal cards and the score strip (``BOARD_WIDTH`` wide)."""
    board = board_panel(view)
    cards = _cards_panel(view, board.width)
    to_act = None if view.over else view.to_act
    strip = score_strip(board.width, _score_lines(view, players), to_act, title=_strip_title(view))
    image = stack_vertically([board, cards, strip])
    assert image.width == BOARD_WIDTH
    return image


# -- the hand (screen) ---------------------------------------------------------------------


def render_hand(view: TileUpState, seat: int, players: Sequence[str]) -> Image.Image:
    """``seat``'s screen: its tiles with their names and its goal cards with their numbers."""
    tiles = view.tiles[seat]
    cards = view.cards[seat]
    width = BOARD_WIDTH
    tile_size, gap = 44, 8
    per_row = (width - 20) // (tile_size + gap)
    tile_rows = max(1, -(-len(tiles or ()) // per_row))
    cell = 14
    card_width, card_height = card_size(cell)
    card_rows = max(1, -(-len(cards or ()) // 4))
    height = 34 + tile_rows * (tile_size + 22) + 26 + card_rows * (card_height + 10) + 24
    image = Image.new("RGB", (width, height), THEME.background)
    draw = ImageDraw.Draw(image)
    name = players[seat] if seat < len(players) else f"seat {seat + 1}"
    draw.text((10, 8), f"{name}'s screen — Tile Up!", font=font(16), fill=THEME.ink)
    if tiles is None or cards is None:
        draw.text((10, 40), "hidden", font=font(14), fill=THEME.muted)
        return image
    y = 34
    if not tiles:
        draw.text((10, y + 10), "no tiles — draw with `tiles`", font=font(13), fill=THEME.muted)
    for index, tile in enumerate(tiles):
        row, column = divmod(index, per_row)
        x = 10 + column * (tile_size + gap)
        top = y + row * (tile_size + 22)
        draw_tile(draw, (x, top, x + tile_size, top + tile_size), tile)
        draw_centered(draw, (x + tile_size / 2, top + tile_size + 10), tile, 13, THEME.ink)
    y += tile_rows * (tile_size + 22)
    draw.text((10, y + 4), "your goal cards (score with `score N@square`):", font=font(13), fill=THEME.ink)
    y += 26
    first = len(view.face_up) + 1
    if not cards:
        draw.text((10, y + 10), "no goal cards — draw with `goal`", font=font(13), fill=THEME.muted)
    for index, card in enumerate(cards):
        row, column = divmod(index, 4)
        draw_card(
            draw, (10 + column * (card_width + 10), y + row * (card_height + 10)), first + index, card, cell
        )
    y += card_rows * (card_height + 10)
    colours = ", ".join(f"{letter} = {word}" for letter, word in COLOUR_NAMES.items())
    draw.text((10, y + 2), f"{colours} · face-up cards are 1 and 2", font=font(12), fill=THEME.muted)
    return image
