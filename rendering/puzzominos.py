"""Puzz-Ominos (two players): the table around the played area and a player's unplayed pieces.

Red (whoever starts) is drawn in Okabe-Ito vermillion and Blue in Okabe-Ito blue; every piece has its
own dark outline and its letter, so pieces stay distinct without relying on colour. The last
turn's pieces are tinted lighter and outlined in the highlight colour. The table grows in steps
of :data:`STEP` columns and rows (so its image keeps its size between moves); its grid and axis
labels are drawn once per size and reused, and a label goes on every coordinate, or every
other one, or every fifth, as room allows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Protocol

from PIL import Image, ImageDraw

from games.core import counted, with_note
from games.puzzominos import GAME
from games.puzzominos.board import bounds_of
from games.puzzominos.pieces import FREE_TURN_PIECES, Cell, base_cells
from games.puzzominos.state import COLOUR_NAMES as SEAT_NAMES
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
    draw_centered,
    game_result,
    player_name,
    px,
    score_strip,
    shorten,
    stack_vertically,
    text,
    text_width,
    tint,
)

SEAT_COLOURS: tuple[RGB, RGB] = (THEME.players[1], THEME.players[0])
"""Red = vermillion, Blue = blue (Okabe-Ito: distinct for colour-blind players)."""
STRIP_THEME = replace(THEME, players=SEAT_COLOURS)
OUTLINE: RGB = (25, 25, 25)
MAX_BOARD_HEIGHT = 1150
MAX_CELL = px(22)
MIN_SPAN = 10
MARGIN = 1
STEP = 2
"""The table's columns and rows come in multiples of this (so its size is steady)."""
LABEL_LEFT, LABEL_TOP, PAD = px(18), px(15), px(4)


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
    width: int = WIDTH
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
        lowest, highest = (self.min_x, self.min_y), (self.min_x + self.cols - 1, self.min_y + self.rows - 1)
        widest = max(text_width(str(value), TEXT.small, BOLD, CONDENSED) for value in (*lowest, *highest))
        for step in (1, 2, 5):
            if step * self.cell >= widest + px(3):
                return step
        return 10


def _grown(low: int, high: int) -> tuple[int, int]:
    """``low..high`` with the margin, at least :data:`MIN_SPAN` long, in whole steps."""
    low, high = low - MARGIN, high + MARGIN
    count = max(MIN_SPAN, high - low + 1)
    count = -(-count // STEP) * STEP
    low -= (count - (high - low + 1)) // 2
    return low, count


def layout_for(cells: Iterable[Cell], width: int = WIDTH) -> Layout:
    """The layout showing ``cells`` (and ``0,0``) with a margin, as large as fits."""
    min_x, min_y, max_x, max_y = bounds_of([(0, 0), *cells])
    min_x, cols = _grown(min_x, max_x)
    min_y, rows = _grown(min_y, max_y)
    by_width = (width - LABEL_LEFT - PAD) // cols
    by_height = (MAX_BOARD_HEIGHT - LABEL_TOP - PAD) // rows
    cell = max(1, min(MAX_CELL, by_width, by_height))
    return Layout(min_x, min_y, cols, rows, cell, width)


def letter_size(cell: int, name: str) -> int:
    """The font size of a piece's name in a cell of ``cell`` px (never below the small text)."""
    return max(TEXT.small, round(cell * (0.52 if len(name) > 1 else 0.62)))


# -- drawing ------------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def base_layer(layout: Layout) -> Image.Image:
    """What never changes for a layout: background, grid and axis labels."""
    image = Image.new("RGB", (layout.width, layout.height), THEME.background)
    draw = ImageDraw.Draw(image)
    right = layout.left + layout.cols * layout.cell
    bottom = layout.top + layout.rows * layout.cell
    for col in range(layout.cols + 1):
        x = layout.left + col * layout.cell
        draw.line((x, layout.top, x, bottom), fill=THEME.grid)
    for row in range(layout.rows + 1):
        y = layout.top + row * layout.cell
        draw.line((layout.left, y, right, y), fill=THEME.grid)
    step = layout.label_step()
    for col in range(layout.cols):
        x = layout.min_x + col
        if x % step == 0:
            centre = layout.cell_center((x, layout.min_y))
            colour = THEME.ink if x == 0 else THEME.muted
            draw_centered(draw, (centre[0], layout.top / 2), str(x), TEXT.small, colour, BOLD, CONDENSED)
    for row in range(layout.rows):
        y = layout.min_y + row
        if y % step == 0:
            centre = layout.cell_center((layout.min_x, y))
            colour = THEME.ink if y == 0 else THEME.muted
            at = (layout.left - px(3), centre[1])
            text(draw, at, str(y), TEXT.small, colour, anchor="rm", weight=BOLD, stretch=CONDENSED)
    return image


class Grid(Protocol):
    """Anything that maps a cell to its pixel box (both Puzz-Ominos layouts)."""

    def cell_box(self, cell: Cell) -> tuple[int, int, int, int]:
        """The pixel box ``(x0, y0, x1, y1)`` of a cell."""
        ...


def outline(draw: ImageDraw.ImageDraw, layout: Grid, cells: Sequence[Cell], colour: RGB, width: int) -> None:
    """Draw the boundary edges of the piece made of ``cells`` (centred on the grid lines)."""
    own = set(cells)
    low, high = width // 2, (width - 1) // 2
    for cell in cells:
        x0, y0, x1, y1 = layout.cell_box(cell)
        x, y = cell
        if (x, y - 1) not in own:
            draw.rectangle((x0 - low, y0 - low, x1 + high, y0 + high), fill=colour)
        if (x, y + 1) not in own:
            draw.rectangle((x0 - low, y1 - low, x1 + high, y1 + high), fill=colour)
        if (x - 1, y) not in own:
            draw.rectangle((x0 - low, y0 - low, x0 + high, y1 + high), fill=colour)
        if (x + 1, y) not in own:
            draw.rectangle((x1 - low, y0 - low, x1 + high, y1 + high), fill=colour)


def label_cell(cells: Sequence[Cell]) -> Cell:
    """The cell of a piece nearest its centre of mass (where its letter goes)."""
    mean_x = sum(x for x, _ in cells) / len(cells)
    mean_y = sum(y for _, y in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - mean_x) ** 2 + (c[1] - mean_y) ** 2, c[1], c[0]))


def _draw_piece(draw: ImageDraw.ImageDraw, layout: Layout, placement: Any, last: bool) -> None:
    cells = placement.cells
    colour = SEAT_COLOURS[placement.colour]
    fill = tint(colour, 0.45) if last else colour
    for cell in cells:
        x0, y0, x1, y1 = layout.cell_box(cell)
        draw.rectangle((x0, y0, x1, y1), fill=fill)
    outline(draw, layout, cells, OUTLINE, max(2, layout.cell // 14))
    centre = layout.cell_center(label_cell(cells))
    ink = OUTLINE if last else (255, 255, 255)
    draw_centered(
        draw, centre, placement.piece, letter_size(layout.cell, placement.piece), ink, BOLD, CONDENSED
    )


def board_image(state: Any, layout: Layout) -> Image.Image:
    """The table alone (no score strip) drawn with ``layout``."""
    image = base_layer(layout).copy()
    draw = ImageDraw.Draw(image)
    if not state.placements:  # where Red's first piece goes
        x0, y0, _, _ = layout.cell_box((0, 0))
        size = layout.cell // 2
        draw.polygon([(x0, y0), (x0 + size, y0), (x0, y0 + size)], fill=SEAT_COLOURS[0])
    last = set(state.last_turn)
    for placement in state.placements:
        _draw_piece(draw, layout, placement, placement in last)
    for placement in state.last_turn:
        outline(draw, layout, placement.cells, THEME.highlight, max(4, layout.cell // 6))
    return image


def _strip(state: Any, players: Sequence[str], width: int) -> Image.Image:
    lines = [
        ScoreLine(
            player_name(players, seat, SEAT_NAMES[state.colour(seat)]),
            state.scores[seat],
            f"{counted(len(state.left(seat)), 'piece')} left",
            SEAT_NAMES[state.colour(seat)],
        )
        for seat in (0, 1)
    ]
    outcome = GAME.outcome(state)
    to_act = SEAT_NAMES[state.colour(state.to_act or 0)]
    theme = replace(STRIP_THEME, players=tuple(SEAT_COLOURS[state.colour(s)] for s in (0, 1)))
    if outcome is not None:
        result = game_result(GAME, outcome, players)
        return score_strip(width, lines, None, result=result, theme=theme)
    if state.second_piece:
        title = f"Puzz-Ominos · turn {state.turn} · {to_act}: Free Turn, second piece"
    else:
        title = f"Puzz-Ominos · turn {state.turn} · {to_act} to play"
    return score_strip(width, lines, state.to_act, title=title, theme=theme)


def render_board(view: Any, players: Sequence[str]) -> Image.Image:
    """The table around the played area, axes labelled, last turn highlighted, score strip."""
    layout = layout_for(view.occupied)
    board = board_image(view, layout)
    return stack_vertically([board, _strip(view, players, board.width)])


# -- hand ---------------------------------------------------------------------------------------

HAND_COLUMNS = 5
HAND_CELL = px(10)
"""A hand piece's squares: 10 phone px, each piece's shape plain on a phone."""
SLOT_HEIGHT = 5 * HAND_CELL + px(34)
HAND_TITLE = px(22)


def draw_hand_piece(draw: ImageDraw.ImageDraw, index: int, piece: str, colour: RGB) -> None:
    """``piece`` in orientation ``r0``, centred in hand slot ``index``."""
    x0, y0, x1, _ = hand_slot(index)
    cells = base_cells(piece)
    width = (max(x for x, _ in cells) + 1) * HAND_CELL
    height = (max(y for _, y in cells) + 1) * HAND_CELL
    ox = (x0 + x1 - width) // 2
    oy = y0 + px(3) + (5 * HAND_CELL - height) // 2
    line = max(2, HAND_CELL // 12)
    for x, y in cells:
        box = (ox + x * HAND_CELL, oy + y * HAND_CELL, ox + (x + 1) * HAND_CELL, oy + (y + 1) * HAND_CELL)
        draw.rectangle(box, fill=colour, outline=OUTLINE, width=line)


def hand_slot(index: int, width: int = WIDTH) -> tuple[int, int, int, int]:
    """The pixel box of the ``index``-th piece in the hand image."""
    slot_width = width // HAND_COLUMNS
    row, col = divmod(index, HAND_COLUMNS)
    x0 = col * slot_width
    y0 = HAND_TITLE + row * SLOT_HEIGHT
    return x0, y0, x0 + slot_width, y0 + SLOT_HEIGHT


def hand_image(title: str, pieces: Sequence[tuple[str, str, str, RGB]], empty: str) -> Image.Image:
    """A hand: ``title``, then each piece (name, label, note, colour) in ``r0`` with its label
    and a note under it."""
    rows = max(1, -(-len(pieces) // HAND_COLUMNS))
    image = Image.new("RGB", (WIDTH, HAND_TITLE + rows * SLOT_HEIGHT + px(3)), THEME.background)
    draw = ImageDraw.Draw(image)
    title = shorten(title, TEXT.title, WIDTH - px(8), BOLD)
    text(draw, (px(4), HAND_TITLE // 2), title, TEXT.title, THEME.ink, anchor="lm", weight=BOLD)
    if not pieces:
        text(draw, (px(4), HAND_TITLE + px(10)), empty, TEXT.body, THEME.muted, anchor="lm")
    for index, (piece, label, note, colour) in enumerate(pieces):
        x0, y0, x1, _ = hand_slot(index)
        draw_hand_piece(draw, index, piece, colour)
        middle = (x0 + x1) / 2
        draw_centered(draw, (middle, y0 + 5 * HAND_CELL + px(13)), label, TEXT.body, THEME.ink, BOLD)
        draw_centered(draw, (middle, y0 + 5 * HAND_CELL + px(26)), note, TEXT.small, THEME.muted)
    return image


def render_hand(view: Any, seat: int, players: Sequence[str]) -> Image.Image:
    """``seat``'s unplayed pieces in orientation ``r0``, each with its name."""
    pieces = view.left(seat)
    colour = SEAT_COLOURS[view.colour(seat)]
    tag = SEAT_NAMES[view.colour(seat)]
    who = with_note(player_name(players, seat, tag), tag)
    title = f"{who} · {counted(len(pieces), 'piece')} left (shown in r0)"
    shown = [(piece, piece, "Free Turn" if piece in FREE_TURN_PIECES else "", colour) for piece in pieces]
    return hand_image(title, shown, "All pieces played.")


class PuzzominosRenderer(Drawn):
    """The Puzz-Ominos table and hands; Red (whoever the coin made start) is vermillion, in the
    charts too."""

    def colour(self, seat: int) -> RGB:
        return SEAT_COLOURS[seat % 2]

    def seat_colour(self, view: Any, seat: int) -> RGB:
        return SEAT_COLOURS[view.colour(seat)]

    def chart(
        self, views: Sequence[Any], scores: Sequence[Sequence[int]], players: Sequence[str], title: str
    ) -> Image.Image:
        """The score chart, each player in the colour they played."""
        colours = [SEAT_COLOURS[views[-1].colour(seat)] for seat in range(len(players))]
        return score_chart(scores, players, colours, title)


RENDERER = PuzzominosRenderer("puzzominos", render_board, render_hand)
