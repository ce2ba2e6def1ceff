"""Tri-Ominos images: the whole layout of triangular tiles, and a player's hand.

Geometry (:class:`Layout`: cell and corner to pixel) is kept apart from drawing. A triangle has
side ``side`` px; cell ``(x, y)`` spans ``x/2 .. x/2 + 1`` sides horizontally and row ``y``
vertically (see :mod:`games.triominos.grid`). The board shows every tile, the empty cells where
a tile may go, a ring of margin, the x labels of the cells along the top and the y labels along
the left. Shapes are drawn at twice the size and reduced, for smooth edges; texts are drawn at
the final size.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from games.triominos.grid import Cell, Corner, corners
from games.triominos.rules import legal_moves
from games.triominos.state import HIDDEN, MoveKind, State
from games.triominos.tiles import ROTATIONS
from rendering.common import BOARD_WIDTH, RGB, THEME, ScoreLine, font, score_strip, stack_vertically

SCALE = 2
ROW = math.sqrt(3.0) / 2
"""The height of a row in sides."""
MAX_SIDE = 64.0
MIN_SIDE = 22.0
MAX_BOARD_HEIGHT = 620
LABEL_TOP = 22
LABEL_LEFT = 28
MARGIN_CELLS = 1
"""Empty columns of margin beside the frontier (the frontier is the margin above and below)."""

EMPTY_AREA = [(x, y) for x in range(-3, 4) for y in range(-1, 2)]
"""The cells shown around 0,0 before the opening tile is laid."""
NOTE_BAND = 26

TILE_FILL: RGB = (255, 252, 240)
TILE_EDGE: RGB = (60, 60, 60)
EMPTY_FILL: RGB = (234, 229, 216)
LAST_FILL: RGB = (255, 226, 140)
Point = tuple[float, float]


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

    def number_at(self, cell: Cell, index: int, pull: float = 0.5) -> Point:
        """Where the number of corner ``index`` is written: ``pull`` of the way to the centre."""
        cx, cy = self.centre(cell)
        px, py = self.triangle(cell)[index]
        return px + (cx - px) * pull, py + (cy - py) * pull

    def scaled(self, factor: float) -> Layout:
        """The same layout ``factor`` times larger."""
        return Layout(self.side * factor, (self.origin[0] * factor, self.origin[1] * factor))


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


def frame_for(cells: Iterable[Cell], margin: int = MARGIN_CELLS) -> Frame:
    """The columns and rows of ``cells`` with ``margin`` more columns on both sides."""
    listed = list(cells) or [(0, 0)]
    xs = [c[0] for c in listed]
    ys = [c[1] for c in listed]
    return Frame(min(xs) - margin, max(xs) + margin, min(ys), max(ys))


def layout_for(
    frame: Frame, width: int = BOARD_WIDTH, max_height: int = MAX_BOARD_HEIGHT
) -> tuple[Layout, int]:
    """A layout fitting ``frame`` (plus the label bands) into ``width`` px and at most
    ``max_height``; returns it and the image height."""
    span_x = (frame.x1 - frame.x0 + 2) / 2  # in sides
    span_y = (frame.y1 - frame.y0 + 1) * ROW
    room_x = width - LABEL_LEFT - 8
    room_y = max_height - LABEL_TOP - 8
    side = max(MIN_SIDE, min(MAX_SIDE, room_x / span_x, room_y / span_y))
    height = math.ceil(LABEL_TOP + span_y * side + 8)
    left = LABEL_LEFT + (room_x - span_x * side) / 2
    origin = (left - frame.x0 * side / 2, LABEL_TOP - frame.y0 * side * ROW)
    return Layout(side, origin), height


def board_width_needed(frame: Frame, side: float) -> int:
    """The width the frame needs at ``side`` px (when the minimum side makes it wider)."""
    return math.ceil(LABEL_LEFT + 8 + (frame.x1 - frame.x0 + 2) / 2 * side)


# -- drawing ----------------------------------------------------------------------------------


def label_step(side: float) -> int:
    """Label every column when they are far enough apart, else every second one."""
    return 1 if side / 2 >= 17 else 2


def draw_grid(draw: ImageDraw.ImageDraw, layout: Layout, frame: Frame, playable: set[Cell]) -> None:
    """Faint outlines of every cell in the frame; cells where a tile may go are shaded."""
    unit = max(1, round(layout.side / 40))
    for y in frame.rows:
        for x in frame.columns:
            cell = (x, y)
            fill = EMPTY_FILL if cell in playable else None
            draw.polygon(layout.triangle(cell), fill=fill, outline=THEME.grid, width=unit)


def draw_tile(draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell, *, last: bool = False) -> None:
    """A tile's shape (the numbers are drawn later, at the final size)."""
    inset = shrink(layout.triangle(cell), layout.side * 0.06)
    unit = max(1, round(layout.side / 30))
    draw.polygon(inset, fill=LAST_FILL if last else TILE_FILL, outline=TILE_EDGE, width=unit)


def draw_last_outline(draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell) -> None:
    """A thick outline around the last tile laid."""
    width = max(3, round(layout.side * 0.09))
    points = shrink(layout.triangle(cell), width * 0.9)
    draw.line([*points, points[0]], fill=THEME.highlight, width=width, joint="curve")


def shrink(points: Sequence[Point], by: float) -> list[Point]:
    """The triangle ``points`` moved ``by`` px towards its centre at every corner."""
    cx = sum(p[0] for p in points) / 3
    cy = sum(p[1] for p in points) / 3
    result = []
    for px, py in points:
        dx, dy = cx - px, cy - py
        length = math.hypot(dx, dy) or 1.0
        result.append((px + dx / length * by, py + dy / length * by))
    return result


def draw_numbers(
    draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell, laid: str, fill: RGB = THEME.ink
) -> None:
    """The three numbers of a tile, each near its corner."""
    size = max(9, round(layout.side * 0.23))
    for index, digit in enumerate(laid):
        draw.text(layout.number_at(cell, index), digit, font=font(size), fill=fill, anchor="mm")


def draw_labels(draw: ImageDraw.ImageDraw, layout: Layout, frame: Frame, width: int, height: int) -> None:
    """x labels of the columns along the top, y labels of the rows along the left."""
    draw.rectangle((0, 0, width, LABEL_TOP - 3), fill=THEME.background)
    draw.rectangle((0, 0, LABEL_LEFT - 4, height), fill=THEME.background)
    step = label_step(layout.side)
    size = 11 if layout.side / 2 >= 17 else 10
    for x in frame.columns:
        if x % step == 0:
            draw.text(
                (layout.column_x(x), LABEL_TOP / 2), str(x), font=font(size), fill=THEME.muted, anchor="mm"
            )
    for y in frame.rows:
        draw.text((LABEL_LEFT - 8, layout.row_y(y)), str(y), font=font(11), fill=THEME.muted, anchor="rm")
    draw.text((6, LABEL_TOP / 2), "x", font=font(11), fill=THEME.ink, anchor="lm")
    draw.text((6, LABEL_TOP + 10), "y", font=font(11), fill=THEME.ink, anchor="lm")


def draw_board(view: State) -> Image.Image:
    """The layout with its margin, labels and the last tile highlighted."""
    frontier = set(view.frontier) if view.board else {(0, 0)}
    frame = frame_for([*view.cells, *frontier] if view.board else EMPTY_AREA)
    layout, height = layout_for(frame)
    note = "" if view.board or view.finished else f"Round {view.round}: the opening tile goes on 0,0"
    width = max(BOARD_WIDTH, board_width_needed(frame, layout.side))
    big = layout.scaled(SCALE)
    image = Image.new("RGB", (width * SCALE, (height + (NOTE_BAND if note else 0)) * SCALE), THEME.background)
    draw = ImageDraw.Draw(image)
    draw_grid(draw, big, frame, frontier)
    for cell, _ in view.board:
        draw_tile(draw, big, cell, last=cell == view.last)
    if view.last is not None and view.last in view.cells:
        draw_last_outline(draw, big, view.last)
    image = image.reduce(SCALE)
    draw = ImageDraw.Draw(image)
    for cell, laid in view.board:
        draw_numbers(draw, layout, cell, laid)
    draw_labels(draw, layout, frame, width, height)
    if note:
        draw.text((width / 2, height + NOTE_BAND / 2), note, font=font(14), fill=THEME.ink, anchor="mm")
    return image


def strip_title(view: State, players: Sequence[str]) -> str:
    """Round, well, and the last move or the result."""
    if view.finished:
        winners = " and ".join(player_name(players, seat) for seat in view.winners)
        return f"Game over: {winners} won"[:70]
    title = f"Round {view.round} · well {len(view.well)} · target {view.options.target}"
    if view.last_seat is not None and view.last_text:
        title += f" · last: {player_name(players, view.last_seat)} {view.last_text}"
    return title[:80]


def player_name(players: Sequence[str], seat: int) -> str:
    """The display name of ``seat`` (``Seat n`` when unknown)."""
    return players[seat] if seat < len(players) else f"Seat {seat + 1}"


def strip(view: State, players: Sequence[str], width: int) -> Image.Image:
    """The score strip: every player with score and tiles in hand; the seat to act marked."""
    lines = []
    for seat in range(view.players):
        count = len(view.hands[seat])
        extra = "resigned" if seat in view.forfeited else f"{count} tile{'' if count == 1 else 's'}"
        lines.append(ScoreLine(player_name(players, seat), view.scores[seat], extra))
    return score_strip(width, lines, None if view.finished else view.turn, title=strip_title(view, players))


def render_board(view: State, players: Sequence[str]) -> Image.Image:
    """The board with its coordinates, the last tile highlighted, and the score strip."""
    board = draw_board(view)
    return stack_vertically([strip(view, players, board.width), board])


# -- the hand ---------------------------------------------------------------------------------

HAND_SIDE = 70.0
HAND_COLUMNS = 6
HAND_CELL_W = BOARD_WIDTH // HAND_COLUMNS
HAND_CELL_H = 104


def fit_counts(view: State, seat: int) -> dict[str, int]:
    """How many placements each tile has, when ``seat`` is to act."""
    counts: dict[str, int] = {}
    if view.finished or view.turn != seat or view.opening:
        return counts
    for move in legal_moves(view):
        if move.kind == MoveKind.PLACE:
            tile = next(t for t in view.hands[seat] if move.laid in ROTATIONS[t])
            counts[tile] = counts.get(tile, 0) + 1
    return counts


def hand_header(view: State, seat: int, players: Sequence[str]) -> str:
    """What the seat should do now."""
    name = player_name(players, seat)
    if view.finished:
        return f"{name}: the game is over"
    if view.turn != seat:
        return f"{name}: {len(view.hands[seat])} tiles · wait for your turn"
    if view.opening:
        return f"{name}: open the round at 0,0 (see /triominos play)"
    if view.drawn:
        return f"{name}: play the tile you drew, {view.drawn}"
    if view.stuck or (legal_moves(view) and legal_moves(view)[0].kind != MoveKind.PLACE):
        word = legal_moves(view)[0].kind if legal_moves(view) else "pass"
        return f"{name}: nothing fits, {word}"
    return f"{name}: your turn"


def render_hand(view: State, seat: int, players: Sequence[str]) -> Image.Image:
    """``seat``'s tiles, each with its name and how many places it fits now."""
    hand = view.hands[seat]
    header = Image.new("RGB", (BOARD_WIDTH, 34), THEME.strip)
    head = ImageDraw.Draw(header)
    head.rectangle((8, 10, 20, 22), fill=THEME.player(seat))
    head.text((28, 9), hand_header(view, seat, players), font=font(14), fill=THEME.strip_ink)
    if not hand or HIDDEN in hand:
        return header
    counts = fit_counts(view, seat)
    rows = (len(hand) + HAND_COLUMNS - 1) // HAND_COLUMNS
    big = Image.new("RGB", (BOARD_WIDTH * SCALE, rows * HAND_CELL_H * SCALE), THEME.background)
    draw = ImageDraw.Draw(big)
    layouts = []
    for index, tile in enumerate(hand):
        row, column = divmod(index, HAND_COLUMNS)
        left = column * HAND_CELL_W + (HAND_CELL_W - HAND_SIDE) / 2
        top = row * HAND_CELL_H + 8
        layout = Layout(HAND_SIDE, (left, top))  # cell 0,0 points up
        layouts.append(layout)
        draw_tile(draw, layout.scaled(SCALE), (0, 0), last=tile == view.drawn)
        if tile == view.drawn:
            draw_last_outline(draw, layout.scaled(SCALE), (0, 0))
    image = big.reduce(SCALE)
    draw = ImageDraw.Draw(image)
    for tile, layout in zip(hand, layouts, strict=True):
        draw_numbers(draw, layout, (0, 0), tile)
        cx = layout.column_x(0)
        base = layout.row_y(0) + HAND_SIDE * ROW / 2
        draw.text((cx, base + 10), tile, font=font(15), fill=THEME.ink, anchor="mm")
        if counts:
            fits = counts.get(tile, 0)
            note = f"fits {fits}" if fits else "no fit"
            draw.text((cx, base + 25), note, font=font(10), fill=THEME.muted, anchor="mm")
    return stack_vertically([header, image])
