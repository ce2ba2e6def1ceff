"""Geronimos images: the table of hexagonal cards and the card a player must play.

Geometry (cell to pixel, :class:`Layout`) is kept apart from drawing. Hexagons are pointy-top;
side ``k`` of a cell (0 = top-right, clockwise) faces the neighbour in direction ``k``. Shapes
are pasted through smooth masks made once per size (hexagons, rings, dots, stars); the table
grows in steps of two columns and two rows, so its image keeps its size between moves.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from games.core import outcome_phrase
from games.geronimos import GAME
from games.geronimos.cards import LEADER, SIDES, laid
from games.geronimos.hexgrid import Cell, format_cell, neighbours
from games.geronimos.rules import frontier, siege
from games.geronimos.state import SEAT_NAMES
from rendering.base import Drawn
from rendering.common import (
    BOLD,
    RGB,
    TEXT,
    THEME,
    WIDTH,
    Point,
    ScoreLine,
    digit_height,
    draw_centered,
    hand_band,
    paste_disc,
    player_name,
    polygon_mask,
    px,
    score_strip,
    stack_vertically,
    text,
    text_width,
    tint,
)

SQRT3 = math.sqrt(3.0)
MAX_HEX = float(px(30))
MAX_BOARD_HEIGHT = 1150
MARGIN = float(px(4))
STEP = 2
"""The table's columns and rows come in multiples of this (so its size is steady)."""
LABEL_STRETCH = 62.5
"""Cell labels are set narrow, to pass between the dots."""
DOT_ROWS = {1: (1,), 2: (2,), 3: (3,), 4: (2, 2), 5: (3, 2), 6: (3, 3)}
"""How the dots of each number are arranged in rows along their side (edge row first)."""
DOT_SHARE = 0.072
"""A dot's radius as a share of the hexagon's radius."""
OUTER_DEPTH, INNER_DEPTH = 0.83, 0.63
DOT_STEP = 0.17
"""The distance between two dots of a row, as a share of the hexagon's radius."""
"""Where the two rows of dots of a side lie, from the centre (0) to the edge (1)."""
EMPTY_FILL: RGB = (232, 227, 215)
WHITE: RGB = (255, 255, 255)


# -- geometry ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """Pointy-top hexagons of circumradius ``size`` px; cell 0,0 is centred on ``origin``."""

    size: float
    origin: Point

    def center(self, cell: Cell) -> Point:
        """The pixel centre of ``cell``."""
        q, r = cell
        return (
            self.origin[0] + self.size * SQRT3 * (q + r / 2),
            self.origin[1] + self.size * 1.5 * r,
        )

    def corners(self, cell: Cell, inset: float = 0.0) -> list[Point]:
        """The six corners, starting at the top and going clockwise (``inset`` px inwards)."""
        cx, cy = self.center(cell)
        return [(cx + x, cy + y) for x, y in hexagon(self.size - inset)]

    def side_point(self, cell: Cell, side: int, depth: float) -> Point:
        """A point on the line from the centre to the middle of ``side``; ``depth`` 1 is the edge."""
        cx, cy = self.center(cell)
        angle = math.radians(-60 + 60 * side)
        reach = self.size * SQRT3 / 2 * depth
        return cx + reach * math.cos(angle), cy + reach * math.sin(angle)


def hexagon(radius: float) -> list[Point]:
    """The corners of a pointy-top hexagon of ``radius`` around (0, 0), top first, clockwise."""
    return [
        (radius * math.cos(math.radians(-90 + 60 * i)), radius * math.sin(math.radians(-90 + 60 * i)))
        for i in range(6)
    ]


def _quantized(low: float, high: float, unit: float, extra: float) -> float:
    """The span ``low..high`` (plus ``extra``) rounded up to whole steps of ``STEP * unit``."""
    count = math.ceil(round((high - low) / unit, 6)) + 1
    return math.ceil(count / STEP) * STEP * unit - unit + extra


def layout_for(
    cells: Iterable[Cell], width: int = WIDTH, max_height: int = MAX_BOARD_HEIGHT
) -> tuple[Layout, int]:
    """The largest layout fitting ``cells`` (their span rounded up to whole steps of columns
    and rows) into ``width`` px and at most ``max_height``; returns it and the image height."""
    cells = list(cells) or [(0, 0)]
    xs = [SQRT3 * (q + r / 2) for q, r in cells]
    ys = [1.5 * r for _, r in cells]
    span_x = _quantized(min(xs), max(xs), SQRT3, SQRT3)  # in units of the hexagon size
    span_y = _quantized(min(ys), max(ys), 1.5, 2.0)
    size = min(MAX_HEX, (width - 2 * MARGIN) / span_x, (max_height - 2 * MARGIN) / span_y)
    height = math.ceil(span_y * size + 2 * MARGIN)
    used_x = max(xs) - min(xs) + SQRT3
    used_y = max(ys) - min(ys) + 2.0
    left = (width - used_x * size) / 2
    top = (height - used_y * size) / 2
    origin = (left + (SQRT3 / 2 - min(xs)) * size, top + (1.0 - min(ys)) * size)
    return Layout(size, origin), height


def dot_radius(size: float) -> float:
    """The radius of a card's dots for hexagons of ``size`` px."""
    return size * DOT_SHARE


def label_size(size: float) -> int:
    """The font size of a cell's ``q,r`` label."""
    return max(TEXT.small, round(size * 0.5))


# -- smooth shapes ----------------------------------------------------------------------------


@lru_cache(maxsize=64)
def hex_mask(size: float, inset: float) -> Image.Image:
    """A smooth hexagon of radius ``size - inset`` centred in a square ``2 size + 2`` px."""
    box = math.ceil(2 * size) + 2
    middle = box / 2
    points = tuple((middle + x, middle + y) for x, y in hexagon(size - inset))
    return polygon_mask(points, (box, box))


@lru_cache(maxsize=32)
def ring_mask(size: float, inset: float, width: float) -> Image.Image:
    """A hexagonal band ``width`` px wide, ``inset`` px inside the edge of the hexagon."""
    return ImageChops.subtract(hex_mask(size, inset), hex_mask(size, inset + width))


def paste_at(image: Image.Image, centre: Point, colour: RGB, mask: Image.Image) -> None:
    """Paste ``colour`` through ``mask`` centred on ``centre``."""
    image.paste(colour, (round(centre[0] - mask.width / 2), round(centre[1] - mask.height / 2)), mask)


def star_mask(radius: float) -> Image.Image:
    """A five-pointed star (the Leader) of ``radius`` centred in a square mask."""
    box = math.ceil(2 * radius) + 2
    points = []
    for i in range(10):
        reach = radius if i % 2 == 0 else radius * 0.42
        angle = math.radians(-90 + 36 * i)
        points.append((box / 2 + reach * math.cos(angle), box / 2 + reach * math.sin(angle)))
    return polygon_mask(tuple(points), (box, box))


# -- drawing ----------------------------------------------------------------------------------


def draw_dots(image: Image.Image, layout: Layout, cell: Cell, sides: Sequence[int], fill: RGB) -> None:
    """The dots of every side, in rows parallel to that side, near its edge."""
    size = layout.size
    diameter = 2 * dot_radius(size)
    step = size * DOT_STEP
    for side, number in enumerate(sides):
        angle = math.radians(-60 + 60 * side)
        along = (-math.sin(angle), math.cos(angle))  # parallel to the edge
        for row, count in enumerate(DOT_ROWS[number]):
            base = layout.side_point(cell, side, OUTER_DEPTH - (OUTER_DEPTH - INNER_DEPTH) * row)
            for i in range(count):
                offset = (i - (count - 1) / 2) * step
                paste_disc(image, (base[0] + along[0] * offset, base[1] + along[1] * offset), diameter, fill)


def _edge(size: float) -> float:
    return max(1.5, size / 28)


def draw_card_shape(image: Image.Image, layout: Layout, cell: Cell, piece: Any, height: int) -> None:
    """A card without its texts: the cards under it, its colour and its dots or star."""
    colour = THEME.player(piece.owner)
    size = layout.size
    inset, edge = size / 25, _edge(size)
    cx, cy = layout.center(cell)
    for level in range(min(height, 4) - 1, 0, -1):  # cards underneath peek out below
        shift = level * size / 14
        paste_at(image, (cx + shift, cy + shift), THEME.ink, hex_mask(size, inset))
        paste_at(image, (cx + shift, cy + shift), tint(colour, 0.35), hex_mask(size, inset + edge))
    if piece.card == LEADER:
        paste_at(image, (cx, cy), colour, hex_mask(size, inset))
        paste_at(image, (cx, cy), tint(colour, 0.78), hex_mask(size, inset + 2.5 * edge))
        paste_at(image, (cx, cy - size * 0.08), colour, star_mask(size * 0.42))
        return
    paste_at(image, (cx, cy), THEME.ink, hex_mask(size, inset))
    paste_at(image, (cx, cy), colour, hex_mask(size, inset + edge))
    draw_dots(image, layout, cell, piece.sides, WHITE)


@lru_cache(maxsize=16)
def dot_spots(size: float) -> tuple[Point, ...]:
    """Every place a dot may take on a card of ``size`` centred on (0, 0)."""
    layout = Layout(size, (0.0, 0.0))
    spots = []
    for side in range(6):
        angle = math.radians(-60 + 60 * side)
        along = (-math.sin(angle), math.cos(angle))
        for depth in (OUTER_DEPTH, INNER_DEPTH):
            base = layout.side_point((0, 0), side, depth)
            for offset in (-1.0, -0.5, 0.0, 0.5, 1.0):
                spots.append(
                    (
                        base[0] + along[0] * offset * size * DOT_STEP,
                        base[1] + along[1] * offset * size * DOT_STEP,
                    )
                )
    return tuple(spots)


def card_lines(size: float, height: int, label: str) -> tuple[str, ...]:
    """The texts written in a number card's middle: its ``q,r`` and, for a stack, ``x3``, as
    many as fit between its dots (the cards below a stack peek out in any case)."""
    choices: list[tuple[str, ...]] = [(label, f"x{height}")] if height > 1 else []
    choices.append((label,))
    return next((lines for lines in choices if card_text_fits(size, lines)), ())


@lru_cache(maxsize=256)
def card_text_fits(size: float, lines: tuple[str, ...]) -> bool:
    """True when ``lines`` fit between a card's dots (on a crowded table they are left out:
    the empty cells keep their labels and the cards below a stack still peek out)."""
    font_size = label_size(size)
    half_w = max(text_width(line, font_size, BOLD, LABEL_STRETCH) for line in lines) / 2
    half_h = (digit_height(font_size, BOLD, LABEL_STRETCH) + (len(lines) - 1) * _line(font_size)) / 2
    reach = dot_radius(size) + 1
    for x, y in dot_spots(size):
        dx, dy = max(0.0, abs(x) - half_w), max(0.0, abs(y) - half_h)
        if math.hypot(dx, dy) < reach:
            return False
    return True


def _line(font_size: int) -> int:
    return digit_height(font_size, BOLD, LABEL_STRETCH) + px(2)


def draw_card_text(
    draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell, piece: Any, height: int, label: str
) -> None:
    """A card's texts in its middle (below the star on a Leader), where they fit."""
    leader = piece.card == LEADER
    lines = (
        (label, *([f"x{height}"] if height > 1 else [])) if leader else card_lines(layout.size, height, label)
    )
    fill: RGB = THEME.ink if leader else WHITE
    cx, cy = layout.center(cell)
    font_size = label_size(layout.size)
    line = _line(font_size)
    if leader:
        cy += layout.size * 0.62 - line * (len(lines) - 1) / 2
    top = cy - line * (len(lines) - 1) / 2
    for index, string in enumerate(lines):
        draw_centered(draw, (cx, top + index * line), string, font_size, fill, BOLD, LABEL_STRETCH)


def draw_empty(image: Image.Image, layout: Layout, cell: Cell) -> None:
    """An empty cell next to the table (its label is drawn with the texts)."""
    size = layout.size
    centre = layout.center(cell)
    paste_at(image, centre, THEME.grid, hex_mask(size, size / 20))
    paste_at(image, centre, EMPTY_FILL, hex_mask(size, size / 20 + _edge(size)))


def draw_winner_token(image: Image.Image, layout: Layout, cell: Cell, winner: int) -> None:
    """The winner's Leader token laid on the surrounded card."""
    cx, cy = layout.center(cell)
    radius = layout.size * 0.66
    paste_disc(image, (cx, cy), 2 * radius, THEME.player(winner))
    paste_disc(image, (cx, cy), 2 * radius * 0.82, THEME.to_act)
    paste_at(image, (cx, cy - radius * 0.25), THEME.player(winner), star_mask(radius * 0.5))


def draw_table(view: Any, layout: Layout, image_size: tuple[int, int]) -> Image.Image:
    """The table: empty cells next to it, the cards, the last placement and the surround."""
    image = Image.new("RGB", image_size, THEME.background)
    size = layout.size
    empty = frontier(view.tops)
    for cell in empty:
        draw_empty(image, layout, cell)
    for cell, stack in view.board:
        draw_card_shape(image, layout, cell, stack[-1], len(stack))
    won = view.surrounded is not None and view.winner is not None
    if won:
        for other in neighbours(view.surrounded):
            paste_at(image, layout.center(other), THEME.to_act, ring_mask(size, 0, size * 0.09))
        draw_winner_token(image, layout, view.surrounded, view.winner)
    if view.last is not None and view.last in view.tops:
        paste_at(image, layout.center(view.last), THEME.highlight, ring_mask(size, 0, size * 0.12))
    draw = ImageDraw.Draw(image)
    for cell in empty:
        draw_centered(
            draw, layout.center(cell), format_cell(cell), label_size(size), THEME.muted, BOLD, LABEL_STRETCH
        )
    for cell, stack in view.board:
        if not (won and cell == view.surrounded):
            draw_card_text(draw, layout, cell, stack[-1], len(stack), format_cell(cell))
    if won:
        cx, cy = layout.center(view.surrounded)
        draw_centered(draw, (cx, cy + size * 0.3), "WIN", label_size(size), THEME.ink, BOLD, LABEL_STRETCH)
    return image


def strip_title(view: Any) -> str:
    """Whose turn and the card to play, or the result."""
    outcome = GAME.outcome(view)
    if outcome is not None:
        return f"Game over: {outcome_phrase(GAME, outcome, SEAT_NAMES)}"[:70]
    who = SEAT_NAMES[view.turn]
    card = "a Leader (L)" if view.drawn == LEADER else view.drawn
    title = f"{who} to play {card}"
    if view.opening:
        title += " (start card)"
    elif view.bonus_card:
        title += " (bonus card)"
    if view.bonus_left:
        title += f" · +{view.bonus_left} bonus"
    return title


def strip(view: Any, players: Sequence[str], width: int) -> Image.Image:
    """The score strip: cards on top, bag size and best siege of each player."""
    tops = view.tops
    counts = [0, 0]
    for piece in tops.values():
        counts[piece.owner] += 1
    lines = [
        ScoreLine(
            player_name(players, seat, SEAT_NAMES[seat]),
            counts[seat],
            f"bag {len(view.bags[seat])} · siege {siege(tops, seat)}/6",
            SEAT_NAMES[seat],
        )
        for seat in range(2)
    ]
    return score_strip(width, lines, None if view.finished else view.turn, title=strip_title(view))


def render_board(view: Any, players: Sequence[str]) -> Image.Image:
    """The table with its coordinates, the last placement outlined and the score strip."""
    cells = [*view.tops, *frontier(view.tops)]
    layout, height = layout_for(cells)
    table = draw_table(view, layout, (WIDTH, height))
    return stack_vertically([strip(view, players, WIDTH), table])


# -- the hand ---------------------------------------------------------------------------------

HAND_HEX = float(px(24))
HAND_COLUMNS = 3
HAND_CELL_W = WIDTH // HAND_COLUMNS
HAND_CELL_H = round(2 * HAND_HEX) + px(62)


def rotation_fits(view: Any) -> dict[str, list[str]]:
    """The legal cells (``q,r``, ``^`` for a stack) of each rotation of the drawn card."""
    fits: dict[str, list[str]] = {}
    for move in GAME.legal_moves(view):
        if move.cell is not None:
            fits.setdefault(move.laid, []).append(format_cell(move.cell) + ("^" if move.stack else ""))
    return fits


def fits_note(places: Sequence[str]) -> str:
    """``fits nowhere``, ``at 2,1 · 1,2`` or ``fits 5 places``."""
    if not places:
        return "fits nowhere"
    if len(places) <= 3:
        return "at " + " · ".join(places)
    return f"fits {len(places)} places"


def render_hand(view: Any, seat: int, players: Sequence[str]) -> Image.Image:
    """The card ``seat`` must play now, in its six rotations labelled with their notation."""
    who = f"{player_name(players, seat, SEAT_NAMES[seat])} ({SEAT_NAMES[seat]})"
    if view.finished or view.turn != seat or not view.drawn:
        return hand_band(THEME.player(seat), f"{who}: nothing to play now")
    card = view.drawn
    if card == LEADER:
        return stack_vertically(
            [hand_band(THEME.player(seat), f"{who} must play a Leader: L"), leader_panel(seat)]
        )
    extra = f" (+{view.bonus_left} bonus)" if view.bonus_left else ""
    header = hand_band(THEME.player(seat), f"{who} must play card {card}{extra}")
    return stack_vertically([header, rotations_panel(view, card, seat)])


def leader_panel(seat: int) -> Image.Image:
    """A Leader card and how to write it."""
    height = round(2 * HAND_HEX) + px(24)
    image = Image.new("RGB", (WIDTH, height), THEME.background)
    layout = Layout(HAND_HEX, (px(10) + HAND_HEX, height / 2))
    draw_card_shape(image, layout, (0, 0), Shown(LEADER, 0, seat), 1)
    draw = ImageDraw.Draw(image)
    notes = ("L@q,r  next to any card", "L@q,r^  on top of any card", "wild: matches every number")
    left = round(px(20) + 2 * HAND_HEX)
    for i, note in enumerate(notes):
        text(draw, (left, height / 2 + (i - 1) * px(17)), note, TEXT.body, THEME.ink, anchor="lm")
    return image


@dataclass(frozen=True)
class Shown:
    """A card drawn in a hand: its name (or ``L``), its rotation and its owner's seat."""

    card: str
    rotation: int
    owner: int

    @property
    def sides(self) -> tuple[int, ...] | None:
        """The number on each side 0-5 (None for a Leader)."""
        return None if self.card == LEADER else SIDES[self.card, self.rotation]


def rotations_panel(view: Any, card: str, seat: int) -> Image.Image:
    """The six rotations of ``card``, each with its notation and where it fits."""
    rows = 6 // HAND_COLUMNS
    image = Image.new("RGB", (WIDTH, rows * HAND_CELL_H), THEME.background)
    fits = rotation_fits(view)
    placed = []
    for rotation in range(6):
        row, column = divmod(rotation, HAND_COLUMNS)
        centre = ((column + 0.5) * HAND_CELL_W, row * HAND_CELL_H + px(14) + HAND_HEX)
        layout = Layout(HAND_HEX, centre)
        draw_card_shape(image, layout, (0, 0), Shown(card, rotation, seat), 1)
        placed.append((rotation, layout, centre))
    draw = ImageDraw.Draw(image)
    for rotation, layout, (cx, cy) in placed:
        sides = SIDES[card, rotation]
        for side in range(6):
            at = layout.side_point((0, 0), side, 1.28)
            draw_centered(draw, at, str(sides[side]), TEXT.small, THEME.muted, BOLD)
        label_y = cy + HAND_HEX + px(17)
        text_laid = laid(card, rotation)
        draw_centered(draw, (cx, label_y), text_laid, TEXT.title, THEME.ink, BOLD)
        draw_centered(
            draw, (cx, label_y + px(16)), fits_note(fits.get(text_laid, [])), TEXT.small, THEME.muted
        )
    return image


RENDERER = Drawn("geronimos", render_board, render_hand)
