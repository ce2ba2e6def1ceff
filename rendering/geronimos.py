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

from games.core import with_note
from games.geronimos import GAME
from games.geronimos.cards import LEADER, SIDES, laid
from games.geronimos.hexgrid import Cell, format_cell, neighbours
from games.geronimos.rules import frontier, siege
from games.geronimos.state import SEAT_NAMES
from rendering.base import Drawn
from rendering.common import (
    BOLD,
    NORMAL_WIDTH,
    RGB,
    TEXT,
    THEME,
    WIDTH,
    Point,
    ScoreLine,
    digit_height,
    draw_centered,
    game_result,
    hand_band,
    paste_disc,
    player_name,
    polygon_mask,
    px,
    score_strip,
    stack_vertically,
    text,
    text_mask,
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
"""Cell labels are set narrow, to fit between a card's numbers."""
NUMBER_GAP = float(px(1))
"""The room between a side's number and the card's edge, and between two texts."""
LABEL_GAP = float(px(2))
"""The extra room around a card's label, so that it never reads as one with a number."""
LABEL_PAD = float(px(1.5))
"""The pale tag behind a card's label reaches this far around its ink (within the gap)."""
MIN_NUMBER_FONT = 12
"""The smallest font for a side's number, on the tiniest hexagons of a huge open table (below
the phone minimum there: the picture opened full size still reads)."""
EMPTY_FILL: RGB = (232, 227, 215)
EMPTY_INK: RGB = (88, 88, 88)
"""An empty cell's label (5.4:1 on its fill)."""
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


def label_size(size: float) -> int:
    """The font size of an empty cell's ``q,r`` label."""
    return max(TEXT.small, round(size * 0.5))


def _inner(size: float) -> float:
    """How far from a card's centre its numbers may reach towards a side."""
    return size * SQRT3 / 2 - size / 25 - _edge(size) - NUMBER_GAP


def _ink_half_width(string: str, font_size: int, stretch: float = NORMAL_WIDTH) -> float:
    """Half the width of the ink of ``string`` (centred), in px."""
    mask, (left, _) = text_mask(string, font_size, BOLD, stretch, "mm")
    box = mask.getbbox() or (0, 0, 0, 0)
    return max(abs(left + box[0]), abs(left + box[2]))


def _number_box(font_size: int) -> tuple[float, float]:
    """The half width and half height of the widest side number at ``font_size``."""
    return max(_ink_half_width(str(n), font_size) for n in range(1, 7)), digit_height(font_size, BOLD) / 2


def _spots(size: float, font_size: int) -> tuple[Point, ...]:
    """The centres of the six side numbers (from the card's centre), each as near its side
    as the number's box allows."""
    half_w, half_h = _number_box(font_size)
    spots = []
    for side in range(6):
        angle = math.radians(-60 + 60 * side)
        reach = _inner(size) - half_w * abs(math.cos(angle)) - half_h * abs(math.sin(angle))
        spots.append((reach * math.cos(angle), reach * math.sin(angle)))
    return tuple(spots)


def _apart(a: Point, b: Point, half_a: Point, half_b: Point) -> bool:
    """True when two boxes centred on ``a`` and ``b`` are at least ``NUMBER_GAP`` apart."""
    return (
        abs(a[0] - b[0]) >= half_a[0] + half_b[0] + NUMBER_GAP
        or abs(a[1] - b[1]) >= half_a[1] + half_b[1] + NUMBER_GAP
    )


@lru_cache(maxsize=64)
def number_font(size: float) -> int:
    """The font size of the side numbers on a card of ``size``: about half the hexagon, at
    least the phone minimum while neighbouring numbers keep apart (smaller on tiny hexagons)."""
    font_size = max(TEXT.small, round(size * 0.48))
    while font_size > MIN_NUMBER_FONT:
        half = _number_box(font_size)
        spots = _spots(size, font_size)
        if all(_apart(spots[i], spots[(i + 1) % 6], half, half) for i in range(6)):
            break
        font_size -= 1
    return font_size


@lru_cache(maxsize=64)
def number_spots(size: float) -> tuple[Point, ...]:
    """Where the six side numbers of a card of ``size`` are centred, from its centre."""
    return _spots(size, number_font(size))


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


def draw_numbers(
    draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell, sides: Sequence[int], fill: RGB
) -> None:
    """The number of every side as a digit, near the middle of that side."""
    cx, cy = layout.center(cell)
    font_size = number_font(layout.size)
    for (x, y), number in zip(number_spots(layout.size), sides, strict=True):
        draw_centered(draw, (cx + x, cy + y), str(number), font_size, fill, BOLD)


def _edge(size: float) -> float:
    return max(1.5, size / 28)


def draw_card_shape(image: Image.Image, layout: Layout, cell: Cell, piece: Any, height: int) -> None:
    """A card without its texts: the cards under it, its colour and, on a Leader, its star."""
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
        paste_at(image, (cx, cy - size * STAR_RISE), colour, star_mask(size * STAR_SHARE))
        return
    paste_at(image, (cx, cy), THEME.ink, hex_mask(size, inset))
    paste_at(image, (cx, cy), colour, hex_mask(size, inset + edge))


STAR_SHARE, STAR_RISE = 0.4, 0.16
"""A Leader's star: its radius and how far above the centre it sits (shares of the hexagon)."""


@lru_cache(maxsize=256)
def label_fits(size: float, label: str, leader: bool) -> bool:
    """True when a card's ``q,r`` label fits: between its numbers, or under a Leader's star
    inside the hexagon (on a crowded table it is left out; empty cells keep theirs)."""
    half = (_ink_half_width(label, TEXT.small, LABEL_STRETCH) + LABEL_GAP, digit_height(TEXT.small, BOLD) / 2)
    centre = label_centre(size, leader)
    if leader:
        bottom = centre[1] + half[1]
        return bottom < size / 2 or half[0] + NUMBER_GAP < (size - bottom) * SQRT3 - _edge(size) * 3
    number = _number_box(number_font(size))
    return all(_apart(centre, spot, half, number) for spot in number_spots(size))


def label_centre(size: float, leader: bool) -> Point:
    """Where a card's label is centred, from its centre: the middle, or under a Leader's star."""
    if not leader:
        return (0.0, 0.0)
    star_bottom = size * (STAR_SHARE * math.sin(math.radians(54)) - STAR_RISE)
    return (0.0, star_bottom + NUMBER_GAP + digit_height(TEXT.small, BOLD) / 2)


def draw_card_text(
    draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell, piece: Any, height: int, label: str
) -> None:
    """A card's texts: its side numbers, its label where it fits and a stack's height."""
    leader = piece.card == LEADER
    cx, cy = layout.center(cell)
    if not leader:
        draw_numbers(draw, layout, cell, piece.sides, WHITE)
    if label and label_fits(layout.size, label, leader):
        dx, dy = label_centre(layout.size, leader)
        if not leader:  # a pale tag: the cell to type reads apart from the side numbers
            half_w = _ink_half_width(label, TEXT.small, LABEL_STRETCH) + LABEL_PAD
            half_h = digit_height(TEXT.small, BOLD) / 2 + LABEL_PAD
            box = (cx + dx - half_w, cy + dy - half_h, cx + dx + half_w, cy + dy + half_h)
            draw.rounded_rectangle(box, radius=px(2), fill=tint(THEME.player(piece.owner), 0.85))
        draw_centered(draw, (cx + dx, cy + dy), label, TEXT.small, THEME.ink, BOLD, LABEL_STRETCH)
    if height > 1:
        draw_badge(draw, (cx, cy + layout.size), f"x{height}")


def draw_badge(draw: ImageDraw.ImageDraw, centre: Point, string: str) -> None:
    """A small dark tag with ``string`` (a stack's height) centred on ``centre``, a card's
    bottom corner: it covers none of the card's numbers."""
    half_w = text_width(string, TEXT.small, BOLD, LABEL_STRETCH) / 2 + px(2)
    half_h = digit_height(TEXT.small, BOLD) / 2 + px(2)
    x, y = centre
    box = (x - half_w, y - half_h, x + half_w, y + half_h)
    draw.rounded_rectangle(box, radius=px(3), fill=THEME.ink, outline=WHITE, width=max(1, px(0.5)))
    draw_centered(draw, centre, string, TEXT.small, WHITE, BOLD, LABEL_STRETCH)


def draw_empty(image: Image.Image, layout: Layout, cell: Cell) -> None:
    """An empty cell next to the table (its label is drawn with the texts)."""
    size = layout.size
    centre = layout.center(cell)
    paste_at(image, centre, THEME.grid, hex_mask(size, size / 20))
    paste_at(image, centre, EMPTY_FILL, hex_mask(size, size / 20 + _edge(size)))


def draw_winner_token(image: Image.Image, layout: Layout, cell: Cell, winner: int) -> None:
    """The winner's Leader token, laid on the top corner of the surrounded card so that the
    card itself stays in view."""
    cx, cy = layout.center(cell)
    centre = (cx, cy - layout.size * 0.8)
    radius = max(float(px(7)), layout.size * 0.3)
    paste_disc(image, centre, 2 * radius, THEME.ink)
    paste_disc(image, centre, 2 * radius - 2 * _edge(layout.size), THEME.to_act)
    paste_disc(image, centre, 2 * radius * 0.74, THEME.player(winner))
    paste_at(image, centre, THEME.to_act, star_mask(radius * 0.62))


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
    if view.last is not None and view.last in view.tops:
        paste_at(image, layout.center(view.last), THEME.highlight, ring_mask(size, 0, size * 0.12))
    draw = ImageDraw.Draw(image)
    for cell in empty:
        draw_centered(
            draw, layout.center(cell), format_cell(cell), label_size(size), EMPTY_INK, BOLD, LABEL_STRETCH
        )
    for cell, stack in view.board:
        draw_card_text(draw, layout, cell, stack[-1], len(stack), format_cell(cell))
    if won:
        draw_winner_token(image, layout, view.surrounded, view.winner)
    return image


def strip_title(view: Any, players: Sequence[str] = SEAT_NAMES) -> str:
    """Whose turn and the card to play."""
    who = player_name(players, view.turn, SEAT_NAMES[view.turn])
    card = "a Leader (L)" if view.drawn == LEADER else view.drawn
    title = f"{who} to play {card}"
    if view.opening:
        title += " · start card"
    elif view.bonus_card:
        title += " · bonus card"
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
    outcome = GAME.outcome(view)
    if outcome is not None:
        named = [player_name(players, seat, SEAT_NAMES[seat]) for seat in range(2)]
        return score_strip(width, lines, None, result=game_result(GAME, outcome, named))
    return score_strip(width, lines, view.turn, title=strip_title(view, players))


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
    who = with_note(player_name(players, seat, SEAT_NAMES[seat]), SEAT_NAMES[seat])
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
        draw_numbers(draw, layout, (0, 0), SIDES[card, rotation], WHITE)
        label_y = cy + HAND_HEX + px(17)
        text_laid = laid(card, rotation)
        draw_centered(draw, (cx, label_y), text_laid, TEXT.title, THEME.ink, BOLD)
        draw_centered(
            draw, (cx, label_y + px(16)), fits_note(fits.get(text_laid, [])), TEXT.small, THEME.muted
        )
    return image


RENDERER = Drawn("geronimos", render_board, render_hand)
