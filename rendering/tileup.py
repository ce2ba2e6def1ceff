"""Tile Up! images: the 11×11 board with its stacks, the face-up goal cards, and a player's screen.

Geometry (square to pixel) is in :class:`BoardGeometry`; drawing functions take a geometry and a
box. Tile colours are Okabe-Ito orange, blue and reddish purple; each colour also has its own
pattern (plain, dots, diagonal stripes) and its letter in the corner, so colour is never the only
cue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

from games.tileup.board import region
from games.tileup.data import (
    CENTER,
    COLOUR_NAMES,
    COLUMNS,
    CORNERS,
    SHAPES,
    SIZE,
    SQUARES,
    card_colour,
    card_shape,
    parse_square,
)
from games.tileup.state import State as TileUpState
from rendering.common import (
    BOARD_WIDTH,
    RGB,
    THEME,
    ScoreLine,
    counted,
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
CORNER_OUTLINE: RGB = (166, 140, 100)
BOARD_FILL: RGB = (252, 250, 245)
CARD_FILL: RGB = (255, 255, 255)
SCORED_OUTLINE: RGB = (20, 20, 20)
"""The outline of the region scored by the last move (the placements are in the theme's highlight)."""
STRIP = replace(THEME, players=((200, 200, 200),) * 4)
"""Players own no colour in Tile Up!, so the score strip uses neutral swatches (no clash with tiles)."""


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


STACK_STEP = 3
"""Pixels each tile below the top of a stack peeks out (down and right), for up to 3 tiles."""


def height_badge(draw: ImageDraw.ImageDraw, box: Box, height: int) -> None:
    """The stack height as a dark tag ``x3`` over the bottom-right corner of ``box``."""
    x0, _, x1, y1 = box
    size = max(11, (x1 - x0) // 3)
    text = f"x{height}"
    width = size * len(text) * 6 // 10 + 6
    tag = (x1 - width, y1 - size - 2, x1, y1)
    draw.rounded_rectangle(tag, radius=4, fill=THEME.ink, outline=(255, 255, 255))
    draw_centered(draw, ((tag[0] + tag[2]) / 2, (tag[1] + tag[3]) / 2), text, size, (255, 255, 255))


def stack_boxes(box: Box, height: int) -> list[Box]:
    """The boxes of a stack's visible tiles, bottom first: the top tile is last and largest in view;
    up to three tiles below it peek out to the bottom right."""
    x0, y0, x1, y1 = box
    depth = (min(height, 4) - 1) * STACK_STEP
    return [
        (x0 + offset, y0 + offset, x1 - depth + offset, y1 - depth + offset)
        for offset in range(depth, -1, -STACK_STEP)
    ]


def draw_tile(draw: ImageDraw.ImageDraw, box: Box, tile: str, height: int = 1) -> None:
    """One tile, or the top of a stack of ``height``: colour, pattern, letter and number; a stack
    also shows the edges of the tiles below and its height tag."""
    colour, number = tile[0], tile[1]
    *below, top = stack_boxes(box, height)
    radius = max(3, (box[2] - box[0]) // 8)
    for layer in below:
        draw.rounded_rectangle(layer, radius=radius, fill=(110, 110, 110), outline=(250, 250, 250))
    x0, y0, x1, y1 = top
    size = x1 - x0
    draw.rounded_rectangle(top, radius=radius, fill=TILE_FILL[colour], outline=(60, 60, 60))
    _pattern(draw, (x0 + 2, y0 + 2, x1 - 2, y1 - 2), colour)
    ink = TILE_INK[colour]
    draw.text((x0 + 3, y0 + 1), colour, font=font(max(9, size // 4)), fill=ink)
    draw_centered(draw, ((x0 + x1) / 2, (y0 + y1) / 2 - size // 14), number, max(12, size // 2), ink)
    if height > 1:
        height_badge(draw, box, height)


# -- goal cards ----------------------------------------------------------------------------


CARD_CELL = 15
"""Pixel size of a goal card's shape squares on the board image and the screen."""


def card_size(cell: int = CARD_CELL) -> tuple[int, int]:
    """Pixel size of a goal card drawn with shape squares of ``cell`` pixels."""
    return cell * 4 + 40, cell * 4 + 44


def draw_card(
    draw: ImageDraw.ImageDraw, origin: tuple[int, int], number: int, card: str, cell: int = CARD_CELL
) -> Box:
    """A goal card: its number, its shape name, its shape in its colour (with the tile pattern)
    and its colour's name."""
    width, height = card_size(cell)
    x0, y0 = origin
    box = (x0, y0, x0 + width, y0 + height)
    colour = card_colour(card)
    draw.rounded_rectangle(box, radius=8, fill=CARD_FILL, outline=TILE_FILL[colour], width=3)
    cells = SHAPES[card_shape(card)]
    wide = max(x for x, _ in cells) + 1
    tall = max(y for _, y in cells) + 1
    left = x0 + (width - wide * cell) // 2
    top = y0 + 26 + (height - 44 - tall * cell) // 2
    for x, y in cells:
        cell_box = (left + x * cell, top + y * cell, left + (x + 1) * cell - 2, top + (y + 1) * cell - 2)
        draw.rectangle(cell_box, fill=TILE_FILL[colour], outline=(60, 60, 60))
        _pattern(draw, cell_box, colour)
    draw.ellipse((x0 + 5, y0 + 5, x0 + 25, y0 + 25), fill=THEME.ink)
    draw_centered(draw, (x0 + 15, y0 + 15), str(number), 14, (255, 255, 255))
    draw.text((x0 + width - 7, y0 + 6), card_shape(card), font=font(15), fill=THEME.ink, anchor="ra")
    draw_centered(draw, (x0 + width / 2, y0 + height - 10), COLOUR_NAMES[colour], 12, THEME.ink)
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
            draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=CORNER_OUTLINE, width=3)
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


def last_squares(view: TileUpState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What the last move touched: (squares placed this turn or in the last turn that placed,
    the region of the last score if the last move scored)."""
    scored: tuple[int, ...] = ()
    if view.last_move.startswith("score "):
        square = parse_square(view.last_move.rsplit("@", 1)[-1])
        if square is not None:
            scored = region(view.board, square)
    return tuple(view.highlight), scored


def _draw_highlight(draw: ImageDraw.ImageDraw, geometry: BoardGeometry, view: TileUpState) -> None:
    placed, scored = last_squares(view)
    for square in scored:
        x0, y0, x1, y1 = geometry.cell_box(square)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=SCORED_OUTLINE, width=3)
    for square in placed:
        x0, y0, x1, y1 = geometry.cell_box(square)
        draw.rectangle((x0, y0, x1, y1), outline=THEME.highlight, width=3)


def board_panel(view: TileUpState, geometry: BoardGeometry = GEOMETRY) -> Image.Image:
    """The board alone: labels, green center, corners, stacks and the last move."""
    image = Image.new("RGB", (geometry.width, geometry.height), THEME.background)
    draw = ImageDraw.Draw(image)
    _draw_grid(draw, geometry)
    _draw_stacks(draw, geometry, view)
    _draw_highlight(draw, geometry, view)
    return image


def _cards_panel(view: TileUpState, width: int) -> Image.Image:
    """The face-up goal cards (numbered as in ``score N@square``) and the public counts."""
    _, card_height = card_size()
    image = Image.new("RGB", (width, card_height + 30), THEME.background)
    draw = ImageDraw.Draw(image)
    draw.text((10, 4), "face-up goal cards (anyone may score them):", font=font(12), fill=THEME.muted)
    x = 10
    for number, card in enumerate(view.face_up, start=1):
        box = draw_card(draw, (x, 22), number, card)
        x = box[2] + 10
    lines = [
        f"tile bag: {view.bag_size}",
        f"goal deck: {view.deck_size}",
        f"discard pile: {len(view.discards)}",
        f"turn {view.turn}" if not view.over else "game over",
        f"corners covered: {sum(1 for corner in CORNERS if view.board[corner])}/4",
    ]
    for index, line in enumerate(lines):
        draw.text((x + 8, 26 + index * 18), line, font=font(14), fill=THEME.ink)
    return image


def _score_lines(view: TileUpState, players: Sequence[str]) -> list[ScoreLine]:
    lines = []
    for seat, name in enumerate(players):
        extra = f"{counted(view.tile_counts[seat], 'tile')} · {counted(view.card_counts[seat], 'card')}"
        if seat in view.forfeited:
            extra = "resigned"
        lines.append(ScoreLine(name, view.scores[seat], extra))
    return lines


def _strip_title(view: TileUpState) -> str:
    if view.over:
        return f"Tile Up! · game over: {view.reason}"
    last = f" · last: {view.last_move}" if view.last_move else ""
    return f"Tile Up! · turn {view.turn}{last}"


def render_board(view: TileUpState, players: Sequence[str]) -> Image.Image:
    """The board, the face-up goal cards and counts, and the score strip (``BOARD_WIDTH`` wide)."""
    board = board_panel(view)
    cards = _cards_panel(view, board.width)
    to_act = None if view.over else view.to_act
    strip = score_strip(
        board.width, _score_lines(view, players), to_act, title=_strip_title(view), theme=STRIP
    )
    image = stack_vertically([board, cards, strip])
    assert image.width == BOARD_WIDTH
    return image


# -- the hand (screen) ---------------------------------------------------------------------


@dataclass(frozen=True)
class HandLayout:
    """Where the screen image puts its tiles and goal cards."""

    tiles: int
    cards: int
    tile: int = 44
    gap: int = 8
    width: int = BOARD_WIDTH

    @property
    def tiles_per_row(self) -> int:
        """Tiles in one row."""
        return (self.width - 20) // (self.tile + self.gap)

    @property
    def cards_per_row(self) -> int:
        """Goal cards in one row."""
        return (self.width - 20) // (card_size()[0] + 10)

    def tile_box(self, index: int) -> Box:
        """The pixel box of tile ``index``."""
        row, column = divmod(index, self.tiles_per_row)
        x = 10 + column * (self.tile + self.gap)
        y = 34 + row * (self.tile + 24)
        return x, y, x + self.tile, y + self.tile

    @property
    def cards_top(self) -> int:
        """The top of the goal-card heading."""
        rows = max(1, -(-self.tiles // self.tiles_per_row))
        return 34 + rows * (self.tile + 24)

    def card_origin(self, index: int) -> tuple[int, int]:
        """The top-left corner of goal card ``index``."""
        row, column = divmod(index, self.cards_per_row)
        width, height = card_size()
        return 10 + column * (width + 10), self.cards_top + 24 + row * (height + 10)

    @property
    def height(self) -> int:
        """The whole image height."""
        rows = max(1, -(-self.cards // self.cards_per_row))
        return self.cards_top + 24 + rows * (card_size()[1] + 10) + 22


def render_hand(view: TileUpState, seat: int, players: Sequence[str]) -> Image.Image:
    """``seat``'s screen: its tiles with their names and its goal cards, numbered as in
    ``score N@square`` and ``discard goal N``."""
    tiles, cards = view.tiles[seat], view.cards[seat]
    name = players[seat] if seat < len(players) else f"seat {seat + 1}"
    if tiles is None or cards is None:
        image = Image.new("RGB", (BOARD_WIDTH, 60), THEME.background)
        draw = ImageDraw.Draw(image)
        draw.text((10, 8), f"{name}'s screen · Tile Up!", font=font(16), fill=THEME.ink)
        draw.text((10, 34), "hidden", font=font(14), fill=THEME.muted)
        return image
    layout = HandLayout(len(tiles), len(cards))
    image = Image.new("RGB", (layout.width, layout.height), THEME.background)
    draw = ImageDraw.Draw(image)
    title = f"{name}'s screen · {counted(len(tiles), 'tile')} · Tile Up!"
    draw.text((10, 8), title, font=font(16), fill=THEME.ink)
    if not tiles:
        draw.text((10, 44), "no tiles: draw three with `tiles`", font=font(13), fill=THEME.muted)
    for index, tile in enumerate(tiles):
        x0, y0, x1, y1 = layout.tile_box(index)
        draw_tile(draw, (x0, y0, x1, y1), tile)
        draw_centered(draw, ((x0 + x1) / 2, y1 + 11), tile, 13, THEME.ink)
    top = layout.cards_top
    heading = "your goal cards (score with `score N@square`):" if cards else "no goal cards: draw with `goal`"
    draw.text((10, top + 4), heading, font=font(13), fill=THEME.ink if cards else THEME.muted)
    first = len(view.face_up) + 1
    for index, card in enumerate(cards):
        draw_card(draw, layout.card_origin(index), first + index, card)
    colours = ", ".join(f"{letter} = {word}" for letter, word in COLOUR_NAMES.items())
    footer = f"{colours} · face-up cards are 1 and 2 · limits 7 tiles, 3 cards"
    draw.text((10, layout.height - 18), footer, font=font(12), fill=THEME.muted)
    return image
