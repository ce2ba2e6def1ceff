"""Tri-Ominos images: the whole layout of triangular tiles, and a player's hand.

Geometry (:class:`Layout`: cell and corner to pixel) is kept apart from drawing. A triangle has
side ``side`` px; cell ``(x, y)`` spans ``x/2 .. x/2 + 1`` sides horizontally and row ``y``
vertically (see :mod:`games.triominos.grid`). The board shows every tile, the empty cells where
a tile may go, a margin, the x labels of the columns along the top (every other one where they
would collide) and the y labels along the left.

The frame grows in steps (columns by :data:`COLUMN_STEP`, rows by :data:`ROW_STEP`), so the
image keeps its size from move to move until the layout outgrows it. The grid and labels of a
frame are drawn once and reused; triangles are pasted through smoothed masks made once per size.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.core import counted
from games.triominos import GAME
from games.triominos.grid import Cell, Corner, corners, points_up
from games.triominos.state import HIDDEN, MoveKind
from games.triominos.tiles import ROTATIONS
from rendering.base import Drawn
from rendering.common import (
    BOLD,
    CONDENSED,
    RGB,
    TEXT,
    THEME,
    WIDTH,
    Point,
    ScoreLine,
    draw_centered,
    game_result,
    hand_band,
    player_name,
    polygon_mask,
    px,
    score_strip,
    stack_vertically,
    text,
    text_width,
)

ROW = math.sqrt(3.0) / 2
"""The height of a row in sides."""
MAX_SIDE = 2 * px(22)
MAX_BOARD_HEIGHT = 1150
LABEL_TOP = px(16)
LABEL_LEFT = px(20)
PAD = px(4)
MARGIN_CELLS = 0
"""Empty columns of margin beside the frontier (the frontier is the margin all round)."""
COLUMN_STEP = 2
ROW_STEP = 2
"""The frame's columns and rows come in multiples of these (so its size is steady)."""
MIN_COLUMNS, MIN_ROWS = 8, 4
"""The smallest frame (the empty table at a round's start)."""
NUMBER_SHARE = 0.33
"""A tile number's font size as a share of the side (condensed bold digits)."""
NUMBER_PULL = 0.68
"""How far from its corner towards the centre a number sits."""
TILE_INSET = 0.05
"""How far a tile is drawn inside its cell, as a share of the side."""


TILE_FILL: RGB = (255, 252, 240)
TILE_EDGE: RGB = (60, 60, 60)
EMPTY_FILL: RGB = (224, 216, 196)
LAST_FILL: RGB = (255, 226, 140)


# -- geometry ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """Triangles of side ``side`` px; corner ``(u, r)`` lies at ``origin + (u/2 side, r row)``."""

    side: float
    origin: Point

    def corner(self, corner: Corner) -> Point:
        """The pixel position of a grid corner."""
        u, r = corner
        return self.origin[0] + u * self.side / 2, self.origin[1] + r * self.side * ROW

    def triangle(self, cell: Cell) -> list[Point]:
        """The three corners of ``cell`` in notation order."""
        return [self.corner(c) for c in corners(cell)]

    def centre(self, cell: Cell) -> Point:
        """The centroid of ``cell``."""
        points = self.triangle(cell)
        return sum(p[0] for p in points) / 3, sum(p[1] for p in points) / 3

    def column_x(self, x: int) -> float:
        """The pixel x of the middle of column ``x`` (where its label goes)."""
        return self.origin[0] + (x + 1) * self.side / 2

    def row_y(self, y: int) -> float:
        """The pixel y of the middle of row ``y``."""
        return self.origin[1] + (y + 0.5) * self.side * ROW

    def number_at(self, cell: Cell, index: int, pull: float = NUMBER_PULL) -> Point:
        """Where the number of corner ``index`` is written: ``pull`` of the way to the centre."""
        cx, cy = self.centre(cell)
        px_, py_ = self.triangle(cell)[index]
        return px_ + (cx - px_) * pull, py_ + (cy - py_) * pull

    def top_left(self, cell: Cell) -> tuple[int, int]:
        """The pixel corner of the cell's bounding box (rounded)."""
        x, y = cell
        return round(self.origin[0] + x * self.side / 2), round(self.origin[1] + y * self.side * ROW)


@dataclass(frozen=True)
class Frame:
    """The range of columns and rows an image shows."""

    x0: int
    x1: int
    y0: int
    y1: int

    @property
    def columns(self) -> range:
        """Every column shown."""
        return range(self.x0, self.x1 + 1)

    @property
    def rows(self) -> range:
        """Every row shown."""
        return range(self.y0, self.y1 + 1)


def _steps(low: int, high: int, step: int, least: int) -> tuple[int, int]:
    """``low..high`` widened to at least ``least`` and a whole number of ``step`` (the extra
    split around it)."""
    count = max(least, -(-(high - low + 1) // step) * step)
    low -= (count - (high - low + 1)) // 2
    return low, low + count - 1


def frame_for(cells: Iterable[Cell], margin: int = MARGIN_CELLS) -> Frame:
    """The columns and rows of ``cells`` with ``margin`` more columns on both sides, at least
    :data:`MIN_COLUMNS` by :data:`MIN_ROWS`, widened to a whole number of :data:`COLUMN_STEP`
    columns and :data:`ROW_STEP` rows."""
    listed = list(cells) or [(0, 0)]
    xs, ys = [c[0] for c in listed], [c[1] for c in listed]
    x0, x1 = _steps(min(xs) - margin, max(xs) + margin, COLUMN_STEP, MIN_COLUMNS)
    y0, y1 = _steps(min(ys), max(ys), ROW_STEP, MIN_ROWS)
    return Frame(x0, x1, y0, y1)


def layout_for(frame: Frame, width: int = WIDTH, max_height: int = MAX_BOARD_HEIGHT) -> tuple[Layout, int]:
    """The largest layout fitting ``frame`` (plus the label bands) into ``width`` px and at most
    ``max_height``, with an even side (whole-pixel columns); returns it and the image height."""
    span_x = (frame.x1 - frame.x0 + 2) / 2  # in sides
    span_y = (frame.y1 - frame.y0 + 1) * ROW
    room_x = width - LABEL_LEFT - PAD
    room_y = max_height - LABEL_TOP - PAD
    side = 2 * math.floor(min(MAX_SIDE, room_x / span_x, room_y / span_y) / 2)
    height = math.ceil(LABEL_TOP + span_y * side + PAD)
    left = LABEL_LEFT + round((room_x - span_x * side) / 2)
    origin = (left - frame.x0 * side / 2, LABEL_TOP - frame.y0 * side * ROW)
    return Layout(float(side), origin), height


def number_size(side: float) -> int:
    """The font size of the tile numbers for triangles of ``side`` px."""
    return round(side * NUMBER_SHARE)


def label_step(side: float, frame: Frame) -> int:
    """Label every column when the labels fit side by side, else every second one (or more)."""
    widest = max(text_width(str(x), TEXT.small, BOLD, CONDENSED) for x in (frame.x0, frame.x1))
    pitch = side / 2
    step = 1
    while step * pitch < widest + px(3):
        step += 1
    return step


# -- drawing ----------------------------------------------------------------------------------


def _shrink(points: Sequence[Point], by: float) -> list[Point]:
    """The triangle ``points`` with every side moved ``by`` px inwards (the corners move twice
    as far, along the bisectors)."""
    cx = sum(p[0] for p in points) / 3
    cy = sum(p[1] for p in points) / 3
    result = []
    for x, y in points:
        dx, dy = cx - x, cy - y
        length = math.hypot(dx, dy) or 1.0
        result.append((x + dx / length * 2 * by, y + dy / length * 2 * by))
    return result


def triangle_mask(side: float, up: bool, inset: float) -> Image.Image:
    """A smoothed mask of a cell's triangle moved ``inset`` px inside its edges; its (0, 0) is
    one pixel above and left of the corner of the cell's bounding box."""
    size = (math.ceil(side) + 2, math.ceil(side * ROW) + 2)
    tall = side * ROW
    points = (
        [(side / 2, 0.0), (side, tall), (0.0, tall)] if up else [(side / 2, tall), (0.0, 0.0), (side, 0.0)]
    )
    return polygon_mask(tuple((x + 1, y + 1) for x, y in _shrink(points, inset)), size)


def paste_triangle(image: Image.Image, layout: Layout, cell: Cell, inset: float, colour: RGB) -> None:
    """Fill ``cell``'s triangle, ``inset`` px inside its edges, with ``colour`` (smooth edges)."""
    x, y = layout.top_left(cell)
    image.paste(colour, (x - 1, y - 1), triangle_mask(layout.side, points_up(cell), inset))


def draw_tile(image: Image.Image, layout: Layout, cell: Cell, *, last: bool = False) -> None:
    """A tile's shape (its numbers are drawn by :func:`draw_numbers`); the last tile laid is
    filled yellow inside a thick red edge."""
    inset = layout.side * TILE_INSET
    edge = max(1.5, layout.side / 32)
    if last:
        band = max(3.0, layout.side * 0.06)
        paste_triangle(image, layout, cell, inset * 0.5, THEME.highlight)
        paste_triangle(image, layout, cell, inset * 0.5 + band, LAST_FILL)
        return
    paste_triangle(image, layout, cell, inset, TILE_EDGE)
    paste_triangle(image, layout, cell, inset + edge, TILE_FILL)


def draw_numbers(
    draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell, laid: str, fill: RGB = THEME.ink
) -> None:
    """The three numbers of a tile, each near its corner."""
    size = number_size(layout.side)
    for index, digit in enumerate(laid):
        draw_centered(draw, layout.number_at(cell, index), digit, size, fill, BOLD, CONDENSED)


@lru_cache(maxsize=8)
def base_layer(frame: Frame, layout: Layout, height: int) -> Image.Image:
    """What never changes for a frame: background, faint cell outlines, labels."""
    image = Image.new("RGB", (WIDTH, height), THEME.background)
    draw = ImageDraw.Draw(image)
    for y in frame.rows:
        for x in frame.columns:
            draw.polygon(layout.triangle((x, y)), outline=THEME.grid, width=2)
    _draw_labels(draw, layout, frame, height)
    return image


def _draw_labels(draw: ImageDraw.ImageDraw, layout: Layout, frame: Frame, height: int) -> None:
    """x labels of the columns along the top, y labels of the rows along the left."""
    draw.rectangle((0, 0, WIDTH, LABEL_TOP - 3), fill=THEME.background)
    draw.rectangle((0, 0, LABEL_LEFT - 4, height), fill=THEME.background)
    step = label_step(layout.side, frame)
    for x in frame.columns:
        if x % step == 0:
            at = (layout.column_x(x), LABEL_TOP / 2)
            draw_centered(draw, at, str(x), TEXT.small, THEME.muted, BOLD, CONDENSED)
    for y in frame.rows:
        at = (LABEL_LEFT - px(4), layout.row_y(y))
        text(draw, at, str(y), TEXT.small, THEME.muted, anchor="rm", weight=BOLD, stretch=CONDENSED)
    text(draw, (px(3), LABEL_TOP / 2), "x", TEXT.small, THEME.ink, anchor="lm", weight=BOLD)
    if layout.row_y(frame.y0) - LABEL_TOP > TEXT.small:  # room for "y" above the first row label
        text(draw, (px(3), LABEL_TOP + px(1)), "y", TEXT.small, THEME.ink, anchor="lt", weight=BOLD)


def draw_board(view: Any) -> Image.Image:
    """The layout with its margin, labels and the last tile highlighted."""
    frontier = set(view.frontier) if view.board else {(0, 0)}
    frame = frame_for([*view.cells, *frontier])
    layout, height = layout_for(frame)
    image = base_layer(frame, layout, height).copy()
    inset = layout.side * TILE_INSET
    for cell in frontier:
        paste_triangle(image, layout, cell, inset, EMPTY_FILL)
    for cell, _ in view.board:
        draw_tile(image, layout, cell, last=cell == view.last)
    draw = ImageDraw.Draw(image)
    for cell, laid in view.board:
        draw_numbers(draw, layout, cell, laid)
    return image


def strip_title(view: Any, players: Sequence[str]) -> str:
    """Round, well, and the last move."""
    title = f"Round {view.round} · well {len(view.well)} · target {view.options.target}"
    if not view.board:
        title = f"Round {view.round}: the opening tile goes on 0,0 · well {len(view.well)}"
    if view.last_seat is not None and view.last_text:
        title += f" · last: {player_name(players, view.last_seat)} {view.last_text}"
    return title


def strip(view: Any, players: Sequence[str], width: int) -> Image.Image:
    """The score strip: every player with score and tiles in hand; the seat to act marked."""
    lines = []
    for seat in range(view.players):
        extra = "resigned" if seat in view.forfeited else counted(len(view.hands[seat]), "tile")
        lines.append(ScoreLine(player_name(players, seat), view.scores[seat], extra))
    outcome = GAME.outcome(view) if view.finished else None
    if outcome is not None:
        return score_strip(width, lines, None, result=game_result(GAME, outcome, players))
    return score_strip(width, lines, None if view.finished else view.turn, title=strip_title(view, players))


def render_board(view: Any, players: Sequence[str]) -> Image.Image:
    """The board with its coordinates, the last tile highlighted, and the score strip."""
    board = draw_board(view)
    return stack_vertically([strip(view, players, board.width), board])


# -- the hand ---------------------------------------------------------------------------------

HAND_SIDE = float(2 * px(20))
HAND_COLUMNS = 6
HAND_CELL_W = WIDTH // HAND_COLUMNS
HAND_CELL_H = round(HAND_SIDE * ROW) + px(40)


def fit_counts(view: Any, seat: int) -> dict[str, int]:
    """How many placements each tile has, when ``seat`` is to act."""
    counts: dict[str, int] = {}
    if view.finished or view.turn != seat or view.opening:
        return counts
    for move in GAME.legal_moves(view):
        if move.kind == MoveKind.PLACE:
            tile = next(t for t in view.hands[seat] if move.laid in ROTATIONS[t])
            counts[tile] = counts.get(tile, 0) + 1
    return counts


def hand_header(view: Any, seat: int, players: Sequence[str]) -> str:
    """What the seat should do now."""
    name = player_name(players, seat)
    if view.finished:
        return f"{name}: the game is over"
    if view.turn != seat:
        return f"{name}: {counted(len(view.hands[seat]), 'tile')} · wait for your turn"
    if view.opening:
        return f"{name}: open the round at 0,0 (see /triominos play)"
    if view.drawn:
        return f"{name}: play the tile you drew, {view.drawn}"
    legal = GAME.legal_moves(view)
    if view.stuck or (legal and legal[0].kind != MoveKind.PLACE):
        word = legal[0].kind if legal else "pass"
        return f"{name}: nothing fits, {word}"
    return f"{name}: your turn"


def render_hand(view: Any, seat: int, players: Sequence[str]) -> Image.Image:
    """``seat``'s tiles, each with its name and how many places it fits now."""
    hand = view.hands[seat]
    header = hand_band(THEME.player(seat), hand_header(view, seat, players))
    if not hand or HIDDEN in hand:
        return header
    counts = fit_counts(view, seat)
    rows = -(-len(hand) // HAND_COLUMNS)
    image = Image.new("RGB", (WIDTH, rows * HAND_CELL_H), THEME.background)
    draw = ImageDraw.Draw(image)
    for index, tile in enumerate(hand):
        row, column = divmod(index, HAND_COLUMNS)
        left = column * HAND_CELL_W + (HAND_CELL_W - HAND_SIDE) / 2
        layout = Layout(HAND_SIDE, (left, row * HAND_CELL_H + px(4)))  # cell 0,0 points up
        draw_tile(image, layout, (0, 0), last=tile == view.drawn)
        draw_numbers(draw, layout, (0, 0), tile)
        cx = layout.column_x(0)
        base = layout.row_y(0) + HAND_SIDE * ROW / 2
        draw_centered(draw, (cx, base + px(9)), tile, TEXT.body, THEME.ink, BOLD)
        if counts:
            fits = counts.get(tile, 0)
            draw_centered(
                draw, (cx, base + px(24)), f"fits {fits}" if fits else "no fit", TEXT.small, THEME.muted
            )
    return stack_vertically([header, image])


RENDERER = Drawn("triominos", render_board, render_hand)
