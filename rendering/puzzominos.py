"""Puzz-Ominos (two players): the table around the played area and a player's unplayed pieces.

Red (whoever starts) is drawn in Okabe-Ito vermillion and Blue in Okabe-Ito blue; every piece has its
own dark outline and its letter, so pieces stay distinct without relying on colour. The last
turn's pieces are tinted lighter and outlined in the highlight colour.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from PIL import Image, ImageDraw

from games.core import outcome_phrase
from games.puzzominos import GAME
from games.puzzominos.board import bounds_of
from games.puzzominos.pieces import FREE_TURN_PIECES, Cell, base_cells
from games.puzzominos.state import COLOUR_NAMES as SEAT_NAMES
from games.puzzominos.state import Placement
from games.puzzominos.state import State as PuzzState
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

SEAT_COLOURS: tuple[RGB, RGB] = (THEME.players[1], THEME.players[0])
"""Red = vermillion, Blue = blue (Okabe-Ito: distinct for colour-blind players)."""
STRIP_THEME = replace(THEME, players=SEAT_COLOURS)
OUTLINE: RGB = (25, 25, 25)
MAX_BOARD_HEIGHT = 640
MIN_CELL, MAX_CELL = 8, 36
MIN_SPAN = 9
MARGIN = 1
LABEL_LEFT, LABEL_TOP, PAD = 30, 22, 6


# -- geometry ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """Cell-to-pixel geometry of the drawn part of the table (the solitaire board too: its
    squares start at ``0,0``)."""

    min_x: int
    min_y: int
    cols: int
    rows: int
    cell: int
    width: int = BOARD_WIDTH
    label_top: int = LABEL_TOP
    """Room above the grid for the column labels."""
    pad: int = PAD
    """Room right of and below the grid."""

    @property
    def left(self) -> int:
        """Pixel x of the left edge of the grid (the grid is centred)."""
        return LABEL_LEFT + (self.width - LABEL_LEFT - self.pad - self.cols * self.cell) // 2

    @property
    def top(self) -> int:
        """Pixel y of the top edge of the grid."""
        return self.label_top

    @property
    def height(self) -> int:
        """Height of the board image (without the score strip)."""
        return self.top + self.rows * self.cell + self.pad

    def cell_box(self, cell: Cell) -> tuple[int, int, int, int]:
        """The pixel box ``(x0, y0, x1, y1)`` of a table cell (``x1, y1`` exclusive)."""
        x0 = self.left + (cell[0] - self.min_x) * self.cell
        y0 = self.top + (cell[1] - self.min_y) * self.cell
        return x0, y0, x0 + self.cell, y0 + self.cell

    def cell_center(self, cell: Cell) -> tuple[float, float]:
        """The pixel centre of a table cell."""
        x0, y0, x1, y1 = self.cell_box(cell)
        return (x0 + x1) / 2, (y0 + y1) / 2

    def label_step(self) -> int:
        """Label every coordinate, every other one, or every fifth, as room allows."""
        if self.cell >= 18:
            return 1
        return 2 if self.cell >= 11 else 5


def layout_for(cells: Iterable[Cell], width: int = BOARD_WIDTH) -> Layout:
    """The layout showing ``cells`` (and ``0,0``) with a margin, as large as fits."""
    min_x, min_y, max_x, max_y = bounds_of([(0, 0), *cells])
    min_x, min_y, max_x, max_y = min_x - MARGIN, min_y - MARGIN, max_x + MARGIN, max_y + MARGIN
    cols, rows = max_x - min_x + 1, max_y - min_y + 1
    if cols < MIN_SPAN:
        min_x -= (MIN_SPAN - cols) // 2
        cols = MIN_SPAN
    if rows < MIN_SPAN:
        min_y -= (MIN_SPAN - rows) // 2
        rows = MIN_SPAN
    by_width = (width - LABEL_LEFT - PAD) // cols
    by_height = (MAX_BOARD_HEIGHT - LABEL_TOP - PAD) // rows
    cell = max(MIN_CELL, min(MAX_CELL, by_width, by_height))
    return Layout(min_x, min_y, cols, rows, cell, max(width, LABEL_LEFT + PAD + cols * cell))


# -- drawing ------------------------------------------------------------------------------------


def tint(colour: RGB, amount: float) -> RGB:
    """``colour`` mixed with white (``amount`` 0 keeps it, 1 gives white)."""
    r, g, b = colour
    return (
        round(r + (255 - r) * amount),
        round(g + (255 - g) * amount),
        round(b + (255 - b) * amount),
    )


def _draw_grid(draw: ImageDraw.ImageDraw, layout: Layout) -> None:
    right = layout.left + layout.cols * layout.cell
    bottom = layout.top + layout.rows * layout.cell
    for col in range(layout.cols + 1):
        x = layout.left + col * layout.cell
        draw.line((x, layout.top, x, bottom), fill=THEME.grid)
    for row in range(layout.rows + 1):
        y = layout.top + row * layout.cell
        draw.line((layout.left, y, right, y), fill=THEME.grid)
    step = layout.label_step()
    size = 11 if layout.cell < 18 else 12
    for col in range(layout.cols):
        x = layout.min_x + col
        if x % step == 0:
            centre = layout.cell_center((x, layout.min_y))
            colour = THEME.ink if x == 0 else THEME.muted
            draw_centered(draw, (centre[0], layout.top - 10), str(x), size, colour)
    for row in range(layout.rows):
        y = layout.min_y + row
        if y % step == 0:
            centre = layout.cell_center((layout.min_x, y))
            colour = THEME.ink if y == 0 else THEME.muted
            draw.text((layout.left - 4, centre[1]), str(y), font=font(size), fill=colour, anchor="rm")


class Grid(Protocol):
    """Anything that maps a cell to its pixel box (both Puzz-Ominos layouts)."""

    def cell_box(self, cell: Cell) -> tuple[int, int, int, int]:
        """The pixel box ``(x0, y0, x1, y1)`` of a cell."""
        ...


def outline(draw: ImageDraw.ImageDraw, layout: Grid, cells: Sequence[Cell], colour: RGB, width: int) -> None:
    """Draw the boundary edges of the piece made of ``cells``."""
    own = set(cells)
    for cell in cells:
        x0, y0, x1, y1 = layout.cell_box(cell)
        x, y = cell
        if (x, y - 1) not in own:
            draw.line((x0, y0, x1, y0), fill=colour, width=width)
        if (x, y + 1) not in own:
            draw.line((x0, y1, x1, y1), fill=colour, width=width)
        if (x - 1, y) not in own:
            draw.line((x0, y0, x0, y1), fill=colour, width=width)
        if (x + 1, y) not in own:
            draw.line((x1, y0, x1, y1), fill=colour, width=width)


def label_cell(cells: Sequence[Cell]) -> Cell:
    """The cell of a piece nearest its centre of mass (where its letter goes)."""
    mean_x = sum(x for x, _ in cells) / len(cells)
    mean_y = sum(y for _, y in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - mean_x) ** 2 + (c[1] - mean_y) ** 2, c[1], c[0]))


def _draw_piece(draw: ImageDraw.ImageDraw, layout: Layout, placement: Placement, last: bool) -> None:
    cells = placement.cells
    colour = SEAT_COLOURS[placement.colour]
    fill = tint(colour, 0.45) if last else colour
    for cell in cells:
        x0, y0, x1, y1 = layout.cell_box(cell)
        draw.rectangle((x0, y0, x1, y1), fill=fill)
    outline(draw, layout, cells, OUTLINE, max(1, layout.cell // 12))
    if layout.cell >= 14:
        centre = layout.cell_center(label_cell(cells))
        ink = OUTLINE if last else (255, 255, 255)
        size = max(9, int(layout.cell * (0.5 if len(placement.piece) > 1 else 0.62)))
        draw_centered(draw, centre, placement.piece, size, ink)


def board_image(state: PuzzState, layout: Layout) -> Image.Image:
    """The table alone (no score strip) drawn with ``layout``."""
    image = Image.new("RGB", (layout.width, layout.height), THEME.background)
    draw = ImageDraw.Draw(image)
    _draw_grid(draw, layout)
    if not state.placements:  # where Red's first piece goes
        x0, y0, _, _ = layout.cell_box((0, 0))
        size = layout.cell // 2
        draw.polygon([(x0, y0), (x0 + size, y0), (x0, y0 + size)], fill=SEAT_COLOURS[0])
    last = set(state.last_turn)
    for placement in state.placements:
        _draw_piece(draw, layout, placement, placement in last)
    for placement in state.last_turn:
        outline(draw, layout, placement.cells, THEME.highlight, max(3, layout.cell // 6))
    return image


def _strip(state: PuzzState, players: Sequence[str], width: int) -> Image.Image:
    lines = [
        ScoreLine(
            f"{players[s]} ({SEAT_NAMES[state.colour(s)]})", state.scores[s], f"{len(state.left(s))} left"
        )
        for s in (0, 1)
    ]
    outcome = GAME.outcome(state)
    to_act = SEAT_NAMES[state.colour(state.to_act or 0)]
    if outcome is not None:
        title = f"Puzz-Ominos · game over: {outcome_phrase(GAME, outcome, players)}"
    elif state.second_piece:
        title = f"Puzz-Ominos · turn {state.turn} · {to_act}: Free Turn, second piece"
    else:
        title = f"Puzz-Ominos · turn {state.turn} · {to_act} to play"
    theme = replace(STRIP_THEME, players=tuple(SEAT_COLOURS[state.colour(s)] for s in (0, 1)))
    return score_strip(width, lines, state.to_act, title=title, theme=theme)


def render_board(view: PuzzState, players: Sequence[str]) -> Image.Image:
    """The table around the played area, axes labelled, last turn highlighted, score strip."""
    layout = layout_for(view.occupied)
    board = board_image(view, layout)
    return stack_vertically([board, _strip(view, players, board.width)])


# -- hand ---------------------------------------------------------------------------------------

HAND_COLUMNS = 5
HAND_CELL = 16
SLOT_HEIGHT = 5 * HAND_CELL + 34
HAND_TITLE = 30


def draw_hand_piece(draw: ImageDraw.ImageDraw, index: int, piece: str, colour: RGB) -> None:
    """``piece`` in orientation ``r0``, centred in hand slot ``index``."""
    x0, y0, x1, _ = hand_slot(index)
    cells = base_cells(piece)
    width = (max(x for x, _ in cells) + 1) * HAND_CELL
    height = (max(y for _, y in cells) + 1) * HAND_CELL
    ox = (x0 + x1 - width) // 2
    oy = y0 + 6 + (5 * HAND_CELL - height) // 2
    for x, y in cells:
        box = (ox + x * HAND_CELL, oy + y * HAND_CELL, ox + (x + 1) * HAND_CELL, oy + (y + 1) * HAND_CELL)
        draw.rectangle(box, fill=colour, outline=OUTLINE)


def hand_slot(index: int, width: int = BOARD_WIDTH) -> tuple[int, int, int, int]:
    """The pixel box of the ``index``-th piece in the hand image."""
    slot_width = width // HAND_COLUMNS
    row, col = divmod(index, HAND_COLUMNS)
    x0 = col * slot_width
    y0 = HAND_TITLE + row * SLOT_HEIGHT
    return x0, y0, x0 + slot_width, y0 + SLOT_HEIGHT


def render_hand(view: PuzzState, seat: int, players: Sequence[str]) -> Image.Image:
    """``seat``'s unplayed pieces in orientation ``r0``, each with its name."""
    pieces = view.left(seat)
    rows = max(1, (len(pieces) + HAND_COLUMNS - 1) // HAND_COLUMNS)
    image = Image.new("RGB", (BOARD_WIDTH, HAND_TITLE + rows * SLOT_HEIGHT + 6), THEME.background)
    draw = ImageDraw.Draw(image)
    colour = SEAT_COLOURS[view.colour(seat)]
    title = f"{players[seat]} ({SEAT_NAMES[view.colour(seat)]}) · {len(pieces)} pieces left (shown in r0)"
    draw.text((10, 8), title, font=font(15), fill=THEME.ink)
    if not pieces:
        draw.text((10, HAND_TITLE + 10), "All pieces played.", font=font(14), fill=THEME.muted)
    for index, piece in enumerate(pieces):
        x0, y0, x1, _ = hand_slot(index)
        draw_hand_piece(draw, index, piece, colour)
        label = f"{piece} · Free Turn" if piece in FREE_TURN_PIECES else piece
        draw_centered(draw, ((x0 + x1) / 2, y0 + 5 * HAND_CELL + 20), label, 14, THEME.ink)
    return image
