"""Tile Up! images: the 11×11 board with its stacks, the face-up goal cards, and a player's screen.

Geometry (square to pixel) is in :class:`BoardGeometry`; drawing functions take a geometry and a
box. Tile colours are Okabe-Ito orange, blue and reddish purple; each colour also has its own
pattern (plain, dots, diagonal stripes) and its letter in the corner, so colour is never the only
cue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.core import counted
from games.tileup import GAME
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
from rendering.base import Drawn
from rendering.charts import score_chart
from rendering.common import (
    BOLD,
    CONDENSED,
    RGB,
    TEXT,
    THEME,
    WIDTH,
    ScoreLine,
    digit_height,
    draw_centered,
    game_result,
    player_name,
    px,
    score_strip,
    shorten,
    stack_vertically,
    text,
    text_width,
)

Box = tuple[int, int, int, int]

TILE_FILL: dict[str, RGB] = {"O": (230, 159, 0), "B": (0, 114, 178), "P": (204, 121, 167)}
"""Okabe-Ito orange, blue and reddish purple: distinct for the common colour-blindnesses."""
TILE_INK: dict[str, RGB] = {"O": (30, 30, 30), "B": (255, 255, 255), "P": (30, 30, 30)}
TILE_PATTERN: dict[str, RGB] = {"O": (242, 190, 80), "B": (40, 140, 200), "P": (222, 160, 196)}
CENTER_FILL: RGB = (186, 224, 180)
CORNER_FILL: RGB = (222, 214, 196)
CORNER_OUTLINE: RGB = (166, 140, 100)
CORNER_INK: RGB = (80, 80, 80)
"""The word on an empty corner (5.4:1 on the corner's fill)."""
BOARD_FILL: RGB = (252, 250, 245)
CARD_FILL: RGB = (255, 255, 255)
SCORED_OUTLINE: RGB = (20, 20, 20)
"""The outline of the region scored by the last move (the placements are in the theme's highlight)."""


@dataclass(frozen=True)
class BoardGeometry:
    """Where each square of the board is drawn."""

    cell: int = 86
    left: int = px(16)
    top: int = px(15)

    @property
    def width(self) -> int:
        """Width of the board panel (labels included)."""
        return WIDTH

    @property
    def height(self) -> int:
        """Height of the board panel (labels included)."""
        return self.top + self.cell * SIZE + px(3)

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
        step = max(8, (x1 - x0) // 5)
        dot = max(2, step // 5)
        for y in range(y0 + step // 2, y1, step):
            for x in range(x0 + step // 2, x1, step):
                draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=shade)
    elif colour == "P":
        step = max(7, (x1 - x0) // 6)
        for offset in range(-(y1 - y0), x1 - x0, step):
            start = (x0 + max(offset, 0), y0 + max(-offset, 0))
            length = min(x1 - start[0], y1 - start[1])
            draw.line((start, (start[0] + length, start[1] + length)), fill=shade, width=max(2, step // 3))


STACK_STEP = px(2)
"""Pixels each tile below the top of a stack peeks out (down and right), for up to 3 tiles."""


def badge_box(box: Box, height: int) -> Box:
    """Where the stack height tag goes: the top-right corner of ``box`` (the colour letter is at
    the top left, the number below the middle), as small as its text allows."""
    _, y0, x1, _ = box
    width = text_width(f"x{height}", TEXT.small, BOLD, CONDENSED) + px(2.5)
    tall = digit_height(TEXT.small, BOLD, CONDENSED) + px(2.5)
    return x1 - width, y0, x1, y0 + tall


def height_badge(draw: ImageDraw.ImageDraw, box: Box, height: int) -> None:
    """The stack height as a dark tag ``x3`` in the top-right corner of ``box``."""
    label = f"x{height}"
    tag = badge_box(box, height)
    draw.rounded_rectangle(tag, radius=px(2), fill=THEME.ink, outline=(255, 255, 255), width=2)
    draw_centered(
        draw,
        ((tag[0] + tag[2]) / 2, (tag[1] + tag[3]) / 2),
        label,
        TEXT.small,
        (255, 255, 255),
        BOLD,
        CONDENSED,
    )


def stack_boxes(box: Box, height: int) -> list[Box]:
    """The boxes of a stack's visible tiles, bottom first: the top tile is last and largest in view;
    up to three tiles below it peek out to the bottom right."""
    x0, y0, x1, y1 = box
    depth = (min(height, 4) - 1) * STACK_STEP
    return [
        (x0 + offset, y0 + offset, x1 - depth + offset, y1 - depth + offset)
        for offset in range(depth, -1, -STACK_STEP)
    ]


def number_size(tile_size: int) -> int:
    """The font size of a tile's number for a tile ``tile_size`` px across."""
    return max(TEXT.body, tile_size // 2)


def draw_tile(draw: ImageDraw.ImageDraw, box: Box, tile: str, height: int = 1) -> None:
    """One tile, or the top of a stack of ``height``: colour, pattern, letter and number; a stack
    also shows the edges of the tiles below and its height tag."""
    colour, number = tile[0], tile[1]
    *below, top = stack_boxes(box, height)
    radius = max(4, (box[2] - box[0]) // 8)
    for layer in below:
        draw.rounded_rectangle(layer, radius=radius, fill=(110, 110, 110), outline=(250, 250, 250), width=2)
    x0, y0, x1, y1 = top
    size = x1 - x0
    draw.rounded_rectangle(top, radius=radius, fill=TILE_FILL[colour], outline=(60, 60, 60), width=2)
    _pattern(draw, (x0 + 3, y0 + 3, x1 - 3, y1 - 3), colour)
    ink = TILE_INK[colour]
    text(draw, (x0 + px(2), y0 + px(1)), colour, TEXT.small, ink, anchor="lt", weight=BOLD)
    draw_centered(draw, number_centre(top), number, number_size(size), ink, BOLD)
    if height > 1:
        height_badge(draw, box, height)


def number_centre(box: Box) -> tuple[float, float]:
    """Where a tile's number is centred: below the middle, clear of the corner letter and tag."""
    x0, y0, x1, y1 = box
    return (x0 + x1) / 2, (y0 + y1) / 2 + (y1 - y0) / 8


# -- goal cards ----------------------------------------------------------------------------


CARD_CELL = px(9)
"""Pixel size of a goal card's shape squares on the board image and the screen."""
CARD_HEAD = px(13)
CARD_FOOT = px(12)


def card_size(cell: int = CARD_CELL) -> tuple[int, int]:
    """Pixel size of a goal card drawn with shape squares of ``cell`` pixels."""
    return cell * 4 + px(24), CARD_HEAD + cell * 4 + CARD_FOOT + px(4)


def draw_card(
    draw: ImageDraw.ImageDraw, origin: tuple[int, int], number: int, card: str, cell: int = CARD_CELL
) -> Box:
    """A goal card: its number, its shape name, its shape in its colour (with the tile pattern)
    and its colour's name."""
    width, height = card_size(cell)
    x0, y0 = origin
    box = (x0, y0, x0 + width, y0 + height)
    colour = card_colour(card)
    draw.rounded_rectangle(box, radius=px(3), fill=CARD_FILL, outline=TILE_FILL[colour], width=px(1.2))
    cells = SHAPES[card_shape(card)]
    wide = max(x for x, _ in cells) + 1
    tall = max(y for _, y in cells) + 1
    left = x0 + (width - wide * cell) // 2
    top = y0 + CARD_HEAD + px(2) + (4 - tall) * cell // 2
    for x, y in cells:
        cell_box = (left + x * cell, top + y * cell, left + (x + 1) * cell - 2, top + (y + 1) * cell - 2)
        draw.rectangle(cell_box, fill=TILE_FILL[colour], outline=(60, 60, 60))
        _pattern(draw, cell_box, colour)
    middle = CARD_HEAD / 2 + px(2)
    disc = (x0 + px(2.5) + TEXT.small / 2 + px(1), y0 + middle)
    draw.ellipse((disc[0] - px(6), disc[1] - px(6), disc[0] + px(6), disc[1] + px(6)), fill=THEME.ink)
    draw_centered(draw, disc, str(number), TEXT.small, (255, 255, 255), BOLD)
    text(
        draw,
        (x0 + width - px(3), y0 + middle),
        card_shape(card),
        TEXT.small,
        THEME.ink,
        anchor="rm",
        weight=BOLD,
    )
    draw_centered(
        draw,
        (x0 + width / 2, y0 + height - CARD_FOOT / 2 - px(1)),
        COLOUR_NAMES[colour],
        TEXT.small,
        THEME.ink,
    )
    return box


# -- the board -----------------------------------------------------------------------------


@lru_cache(maxsize=2)
def base_layer(geometry: BoardGeometry) -> Image.Image:
    """What never changes: the grid, the green center, the corners and the labels."""
    image = Image.new("RGB", (geometry.width, geometry.height), THEME.background)
    draw = ImageDraw.Draw(image)
    center, corners = set(CENTER), set(CORNERS)
    for square in range(SQUARES):
        box = geometry.cell_box(square)
        fill = CENTER_FILL if square in center else CORNER_FILL if square in corners else BOARD_FILL
        draw.rectangle(box, fill=fill, outline=THEME.grid)
        if square in corners:
            x0, y0, x1, y1 = box
            draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=CORNER_OUTLINE, width=px(1.5))
            draw_centered(draw, geometry.center(square), "corner", TEXT.small, CORNER_INK, stretch=CONDENSED)
    for index in range(SIZE):
        x0, y0, x1, _ = geometry.cell_box(index)
        draw_centered(draw, ((x0 + x1) / 2, geometry.top / 2), COLUMNS[index], TEXT.small, THEME.ink, BOLD)
        _, y0, _, y1 = geometry.cell_box(index * SIZE)
        draw_centered(draw, (geometry.left / 2, (y0 + y1) / 2), str(index + 1), TEXT.small, THEME.ink, BOLD)
    return image


def _draw_stacks(draw: ImageDraw.ImageDraw, geometry: BoardGeometry, view: Any) -> None:
    inset = px(1.5)
    for square, stack in enumerate(view.board):
        if stack:
            x0, y0, x1, y1 = geometry.cell_box(square)
            draw_tile(draw, (x0 + inset, y0 + inset, x1 - inset, y1 - inset), stack[-1], len(stack))


def last_squares(view: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What the last move touched: (squares placed this turn or in the last turn that placed,
    the region of the last score if the last move scored)."""
    scored: tuple[int, ...] = ()
    if view.last_move.startswith("score "):
        square = parse_square(view.last_move.rsplit("@", 1)[-1])
        if square is not None:
            scored = region(view.board, square)
    return tuple(view.highlight), scored


def _draw_highlight(draw: ImageDraw.ImageDraw, geometry: BoardGeometry, view: Any) -> None:
    placed, scored = last_squares(view)
    width = px(2)
    for square in scored:
        x0, y0, x1, y1 = geometry.cell_box(square)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=SCORED_OUTLINE, width=width)
    for square in placed:
        x0, y0, x1, y1 = geometry.cell_box(square)
        draw.rectangle((x0, y0, x1, y1), outline=THEME.highlight, width=width)


def board_panel(view: Any, geometry: BoardGeometry = GEOMETRY) -> Image.Image:
    """The board alone: labels, green center, corners, stacks and the last move."""
    image = base_layer(geometry).copy()
    draw = ImageDraw.Draw(image)
    _draw_stacks(draw, geometry, view)
    _draw_highlight(draw, geometry, view)
    return image


def _cards_panel(view: Any, width: int) -> Image.Image:
    """The face-up goal cards (numbered as in ``score N@square``) and the public counts."""
    _, card_height = card_size()
    heading = px(14)
    image = Image.new("RGB", (width, heading + card_height + px(4)), THEME.background)
    draw = ImageDraw.Draw(image)
    text(
        draw,
        (px(4), heading / 2),
        "face-up goal cards (anyone may score them):",
        TEXT.small,
        THEME.muted,
        anchor="lm",
    )
    x = px(4)
    for number, card in enumerate(view.face_up, start=1):
        box = draw_card(draw, (x, heading), number, card)
        x = box[2] + px(4)
    lines = [
        f"tile bag {view.bag_size} · goal deck {view.deck_size}",
        f"discard pile {len(view.discards)}",
        f"turn {view.turn}" if not view.over else "game over",
        f"corners covered {sum(1 for corner in CORNERS if view.board[corner])}/4",
    ]
    line_height = (card_height - px(2)) / len(lines)
    for index, line in enumerate(lines):
        at = (x + px(4), heading + px(1) + line_height * (index + 0.5))
        text(draw, at, shorten(line, TEXT.body, width - x - px(8)), TEXT.body, THEME.ink, anchor="lm")
    return image


def _score_lines(view: Any, players: Sequence[str]) -> list[ScoreLine]:
    lines = []
    for seat in range(len(view.scores)):
        extra = f"{counted(view.tile_counts[seat], 'tile')} · {counted(view.card_counts[seat], 'card')}"
        if seat in view.forfeited:
            extra = "resigned"
        lines.append(ScoreLine(player_name(players, seat), view.scores[seat], extra))
    return lines


def _strip_title(view: Any) -> str:
    last = f" · last: {view.last_move}" if view.last_move else ""
    return f"Tile Up! · turn {view.turn}{last}"


def strip(view: Any, players: Sequence[str], width: int = WIDTH) -> Image.Image:
    """The score strip: each player's mark (shapes: the tile colours are the tiles'), name,
    tiles and cards held, score; at the end, the winner, why, and the players by rank."""
    outcome = GAME.outcome(view)
    lines = _score_lines(view, players)
    if outcome is not None:
        return score_strip(width, lines, None, result=game_result(GAME, outcome, players), marks=True)
    to_act = None if view.over else view.to_act
    return score_strip(width, lines, to_act, title=_strip_title(view), marks=True)


def render_board(view: Any, players: Sequence[str]) -> Image.Image:
    """The board, the face-up goal cards and counts, and the score strip (``WIDTH`` wide)."""
    board = board_panel(view)
    cards = _cards_panel(view, board.width)
    return stack_vertically([board, cards, strip(view, players, board.width)])


# -- the hand (screen) ---------------------------------------------------------------------

HAND_TITLE = px(24)
HAND_GAP = px(4)
HEADING = px(18)
FOOTER = 2 * px(14)
HAND_CARD_CELL = px(12)
"""A goal card's shape squares on the screen (larger than on the board: the screen has room)."""


@dataclass(frozen=True)
class HandLayout:
    """Where the screen image puts its tiles and goal cards."""

    tiles: int
    cards: int
    tile: int = px(44)
    """A tile on the screen: seven (the most a player keeps) fill a row."""
    gap: int = px(5)
    width: int = WIDTH

    @property
    def tiles_per_row(self) -> int:
        """Tiles in one row."""
        return (self.width - 2 * HAND_GAP) // (self.tile + self.gap)

    @property
    def cards_per_row(self) -> int:
        """Goal cards in one row."""
        return (self.width - 2 * HAND_GAP) // (card_size(HAND_CARD_CELL)[0] + HAND_GAP)

    @property
    def tile_row(self) -> int:
        """The height of a row of tiles with their names."""
        return self.tile + px(22)

    def tile_box(self, index: int) -> Box:
        """The pixel box of tile ``index``."""
        row, column = divmod(index, self.tiles_per_row)
        x = HAND_GAP + column * (self.tile + self.gap)
        y = HAND_TITLE + row * self.tile_row
        return x, y, x + self.tile, y + self.tile

    @property
    def cards_top(self) -> int:
        """The top of the goal-card heading."""
        rows = max(1, -(-self.tiles // self.tiles_per_row))
        return HAND_TITLE + rows * self.tile_row

    def card_origin(self, index: int) -> tuple[int, int]:
        """The top-left corner of goal card ``index``."""
        row, column = divmod(index, self.cards_per_row)
        width, height = card_size(HAND_CARD_CELL)
        return HAND_GAP + column * (width + HAND_GAP), self.cards_top + HEADING + row * (height + HAND_GAP)

    @property
    def height(self) -> int:
        """The whole image height."""
        rows = -(-self.cards // self.cards_per_row)
        return self.cards_top + HEADING + rows * (card_size(HAND_CARD_CELL)[1] + HAND_GAP) + FOOTER


def render_hand(view: Any, seat: int, players: Sequence[str]) -> Image.Image:
    """``seat``'s screen: its tiles with their names and its goal cards, numbered as in
    ``score N@square`` and ``discard goal N``."""
    tiles, cards = view.tiles[seat], view.cards[seat]
    name = player_name(players, seat)
    if tiles is None or cards is None:
        image = Image.new("RGB", (WIDTH, HAND_TITLE + HEADING), THEME.background)
        draw = ImageDraw.Draw(image)
        title = shorten(f"{name}'s screen · Tile Up!", TEXT.title, WIDTH - 2 * HAND_GAP, BOLD)
        text(draw, (HAND_GAP, HAND_TITLE / 2), title, TEXT.title, THEME.ink, anchor="lm", weight=BOLD)
        text(draw, (HAND_GAP, HAND_TITLE + HEADING / 2), "hidden", TEXT.body, THEME.muted, anchor="lm")
        return image
    layout = HandLayout(len(tiles), len(cards))
    image = Image.new("RGB", (layout.width, layout.height), THEME.background)
    draw = ImageDraw.Draw(image)
    title = shorten(
        f"{name}'s screen · {counted(len(tiles), 'tile')} · Tile Up!", TEXT.title, WIDTH - 2 * HAND_GAP, BOLD
    )
    text(draw, (HAND_GAP, HAND_TITLE / 2), title, TEXT.title, THEME.ink, anchor="lm", weight=BOLD)
    if not tiles:
        note = "no tiles: draw three with /tileup tiles"
        text(draw, (HAND_GAP, HAND_TITLE + layout.tile / 2), note, TEXT.body, THEME.muted, anchor="lm")
    for index, tile in enumerate(tiles):
        x0, y0, x1, y1 = layout.tile_box(index)
        draw_tile(draw, (x0, y0, x1, y1), tile)
        draw_centered(draw, ((x0 + x1) / 2, y1 + px(11)), tile, TEXT.title, THEME.ink, BOLD)
    top = layout.cards_top
    heading = (
        "your goal cards (score with /tileup score N@square):"
        if cards
        else "no goal cards: draw with /tileup goal"
    )
    text(
        draw,
        (HAND_GAP, top + HEADING / 2),
        heading,
        TEXT.body,
        THEME.ink if cards else THEME.muted,
        anchor="lm",
    )
    first = len(view.face_up) + 1
    for index, card in enumerate(cards):
        draw_card(draw, layout.card_origin(index), first + index, card, HAND_CARD_CELL)
    colours = ", ".join(f"{letter} = {word}" for letter, word in COLOUR_NAMES.items())
    notes = (f"{colours} · at most 7 tiles and 3 goal cards", "the face-up goal cards are numbered 1 and 2")
    for index, note in enumerate(notes):
        at = (HAND_GAP, layout.height - FOOTER + px(14) * (index + 0.5))
        text(draw, at, note, TEXT.small, THEME.muted, anchor="lm")
    return image


class TileupRenderer(Drawn):
    """Tile Up!'s board and screens. Players own no tiles, and the tile colours are the
    tiles': a player is their mark (a shape, :data:`rendering.common.MARK_NAMES`), never a
    colour, on the strip and in the chart."""

    def colour(self, seat: int) -> RGB:
        return THEME.ink

    def chart(
        self, views: Sequence[Any], scores: Sequence[Sequence[int]], players: Sequence[str], title: str
    ) -> Image.Image:
        """The score chart: every line in ink, told apart by its player's mark and dashes."""
        return score_chart(scores, players, [THEME.ink] * len(players), title, marks=True)


RENDERER = TileupRenderer("tileup", render_board, render_hand)
