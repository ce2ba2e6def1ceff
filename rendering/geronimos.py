"""Geronimos images: the table of hexagonal cards and the card a player must play.

Geometry (cell to pixel, :class:`Layout`) is kept apart from drawing. Hexagons are pointy-top;
side ``k`` of a cell (0 = top-right, clockwise) faces the neighbour in direction ``k``.
Everything is drawn at twice the size and reduced, for smooth edges.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from games.core import outcome_phrase
from games.geronimos import GAME
from games.geronimos.cards import LEADER, SIDES, laid
from games.geronimos.hexgrid import Cell, format_cell, neighbours
from games.geronimos.rules import frontier, legal_moves, siege
from games.geronimos.state import SEAT_NAMES, Piece, State
from rendering.common import BOARD_WIDTH, RGB, THEME, ScoreLine, font, score_strip, stack_vertically

SCALE = 2
SQRT3 = math.sqrt(3.0)
MAX_HEX = 46.0
MIN_HEX = 16.0
MAX_BOARD_HEIGHT = 640
MARGIN = 10.0
DOT_ROWS = {1: (1,), 2: (2,), 3: (3,), 4: (2, 2), 5: (3, 2), 6: (3, 3)}
"""How the dots of each number are arranged in rows along their side (edge row first)."""

Point = tuple[float, float]


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
        radius = self.size - inset
        return [
            (
                cx + radius * math.cos(math.radians(-90 + 60 * i)),
                cy + radius * math.sin(math.radians(-90 + 60 * i)),
            )
            for i in range(6)
        ]

    def side_point(self, cell: Cell, side: int, depth: float) -> Point:
        """A point on the line from the centre to the middle of ``side``; ``depth`` 1 is the edge."""
        cx, cy = self.center(cell)
        angle = math.radians(-60 + 60 * side)
        reach = self.size * SQRT3 / 2 * depth
        return cx + reach * math.cos(angle), cy + reach * math.sin(angle)

    def scaled(self, factor: float) -> Layout:
        """The same layout ``factor`` times larger."""
        return Layout(self.size * factor, (self.origin[0] * factor, self.origin[1] * factor))


def layout_for(
    cells: Iterable[Cell], width: int = BOARD_WIDTH, max_height: int = MAX_BOARD_HEIGHT
) -> tuple[Layout, int]:
    """A layout fitting ``cells`` into ``width`` px (and at most ``max_height``); returns it and
    the height the cells need."""
    cells = list(cells) or [(0, 0)]
    xs = [SQRT3 * (q + r / 2) for q, r in cells]
    ys = [1.5 * r for _, r in cells]
    span_x = max(xs) - min(xs) + SQRT3  # in units of the hexagon size
    span_y = max(ys) - min(ys) + 2.0
    size = min(MAX_HEX, (width - 2 * MARGIN) / span_x, (max_height - 2 * MARGIN) / span_y)
    size = max(MIN_HEX, size)
    height = math.ceil(span_y * size + 2 * MARGIN)
    left = (width - span_x * size) / 2
    origin = (left + (SQRT3 / 2 - min(xs)) * size, MARGIN + (1.0 - min(ys)) * size)
    return Layout(size, origin), height


# -- drawing ----------------------------------------------------------------------------------


def tint(colour: RGB, amount: float) -> RGB:
    """``colour`` mixed with white (``amount`` 1 is white)."""
    r, g, b = colour
    return (
        round(r + (255 - r) * amount),
        round(g + (255 - g) * amount),
        round(b + (255 - b) * amount),
    )


def draw_dots(draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell, sides: Sequence[int], fill: RGB) -> None:
    """The dots of every side, in rows parallel to that side, near its edge."""
    size = layout.size
    radius = max(1.2, size * 0.058)
    step = size * 0.175
    for side, number in enumerate(sides):
        angle = math.radians(-60 + 60 * side)
        along = (-math.sin(angle), math.cos(angle))  # parallel to the edge
        for row, count in enumerate(DOT_ROWS[number]):
            base = layout.side_point(cell, side, 0.74 - 0.21 * row)
            for i in range(count):
                offset = (i - (count - 1) / 2) * step
                x = base[0] + along[0] * offset
                y = base[1] + along[1] * offset
                draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill)


def draw_card(
    draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell, piece: Piece, *, height: int = 1, label: str = ""
) -> None:
    """One card: its owner's colour, its dots (or the Leader's star), its stack and a label."""
    draw_card_shape(draw, layout, cell, piece, height)
    draw_card_text(draw, layout, cell, piece, height, label)


def draw_card_shape(draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell, piece: Piece, height: int) -> None:
    """A card without its texts: the cards under it, its colour and its dots or star."""
    colour = THEME.player(piece.owner)
    unit = layout.size / 40
    for level in range(min(height, 4) - 1, 0, -1):  # cards underneath peek out below
        shift = level * 3.0 * unit * SCALE / 2
        shadow = [(x + shift, y + shift) for x, y in layout.corners(cell, 1.5 * unit)]
        draw.polygon(shadow, fill=tint(colour, 0.35), outline=THEME.ink, width=max(1, round(unit)))
    corners = layout.corners(cell, 1.5 * unit)
    if piece.card == LEADER:
        draw.polygon(corners, fill=tint(colour, 0.78), outline=colour, width=max(2, round(4 * unit)))
        draw_star(draw, layout.center(cell), layout.size * 0.42, colour)
    else:
        draw.polygon(corners, fill=colour, outline=THEME.ink, width=max(1, round(unit)))
        sides = piece.sides
        assert sides is not None
        draw_dots(draw, layout, cell, sides, (255, 255, 255))


def draw_card_text(
    draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell, piece: Piece, height: int, label: str
) -> None:
    """A card's texts: its ``q,r`` label and its stack height (drawn at the final scale)."""
    text_fill: RGB = THEME.ink if piece.card == LEADER else (255, 255, 255)
    cx, cy = layout.center(cell)
    if piece.card == LEADER:
        cy += layout.size * 0.58  # below the star
    if label:
        draw.text((cx, cy), label, font=font(max(8, round(layout.size * 0.27))), fill=text_fill, anchor="mm")
    if height > 1:
        badge = f"x{height}"
        draw.text(
            (cx, cy + layout.size * (-1.16 if piece.card == LEADER else 0.3)),
            badge,
            font=font(max(8, round(layout.size * 0.24))),
            fill=text_fill,
            anchor="mm",
        )


def draw_star(draw: ImageDraw.ImageDraw, center: Point, radius: float, fill: RGB) -> None:
    """A five-pointed star (the Leader)."""
    cx, cy = center
    points = []
    for i in range(10):
        reach = radius if i % 2 == 0 else radius * 0.42
        angle = math.radians(-90 + 36 * i)
        points.append((cx + reach * math.cos(angle), cy + reach * math.sin(angle)))
    draw.polygon(points, fill=fill)


def draw_winner_token(draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell, winner: int) -> None:
    """The winner's Leader token laid on the surrounded card."""
    cx, cy = layout.center(cell)
    radius = layout.size * 0.62
    draw.ellipse(
        (cx - radius, cy - radius, cx + radius, cy + radius),
        fill=THEME.to_act,
        outline=THEME.player(winner),
        width=max(2, round(layout.size * 0.12)),
    )
    draw_star(draw, (cx, cy - radius * 0.12), radius * 0.55, THEME.player(winner))


def draw_winner_text(draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell) -> None:
    """``WIN`` on the winner's token."""
    cx, cy = layout.center(cell)
    size = max(8, round(layout.size * 0.26))
    draw.text((cx, cy + layout.size * 0.37), "WIN", font=font(size), fill=THEME.ink, anchor="mm")


def draw_empty(draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell) -> None:
    """An empty cell next to the table, labelled with its ``q,r``."""
    unit = layout.size / 40
    draw.polygon(
        layout.corners(cell, 2 * unit), fill=(236, 232, 222), outline=THEME.grid, width=max(1, round(unit))
    )


def draw_empty_text(draw: ImageDraw.ImageDraw, layout: Layout, cell: Cell) -> None:
    """The ``q,r`` label of an empty cell."""
    draw.text(
        layout.center(cell),
        format_cell(cell),
        font=font(max(8, round(layout.size * 0.3))),
        fill=THEME.muted,
        anchor="mm",
    )


def draw_table(view: State, layout: Layout, image_size: tuple[int, int]) -> Image.Image:
    """The table (cards and empty cells near them): shapes at ``SCALE`` times the layout, then
    reduced, then the texts at the final size (sharper and faster)."""
    big = layout.scaled(SCALE)
    image = Image.new("RGB", (image_size[0] * SCALE, image_size[1] * SCALE), THEME.background)
    draw = ImageDraw.Draw(image)
    empty = frontier(view.tops)
    for cell in empty:
        draw_empty(draw, big, cell)
    for cell, stack in view.board:
        draw_card_shape(draw, big, cell, stack[-1], len(stack))
    if view.surrounded is not None and view.winner is not None:
        for other in neighbours(view.surrounded):
            draw.polygon(big.corners(other, SCALE * 1.0), outline=THEME.to_act, width=round(big.size * 0.06))
        draw_winner_token(draw, big, view.surrounded, view.winner)
    if view.last is not None and view.last in view.tops:
        draw.polygon(
            big.corners(view.last, SCALE * 1.0), outline=THEME.highlight, width=round(big.size * 0.11)
        )
    image = image.reduce(SCALE)
    draw = ImageDraw.Draw(image)
    for cell in empty:
        draw_empty_text(draw, layout, cell)
    for cell, stack in view.board:
        if cell != view.surrounded:
            draw_card_text(draw, layout, cell, stack[-1], len(stack), format_cell(cell))
    if view.surrounded is not None and view.winner is not None:
        draw_winner_text(draw, layout, view.surrounded)
    return image


def strip_title(view: State) -> str:
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
        title += f"  +{view.bonus_left} bonus"
    return title


def strip(view: State, players: Sequence[str], width: int) -> Image.Image:
    """The score strip: cards on top, bag size and best siege of each player."""
    tops = view.tops
    counts = [0, 0]
    for piece in tops.values():
        counts[piece.owner] += 1
    lines = [
        ScoreLine(
            f"{players[seat] if seat < len(players) else SEAT_NAMES[seat]} ({SEAT_NAMES[seat]})",
            counts[seat],
            f"bag {len(view.bags[seat])} · siege {siege(tops, seat)}/6",
        )
        for seat in range(2)
    ]
    return score_strip(width, lines, None if view.finished else view.turn, title=strip_title(view))


def render_board(view: State, players: Sequence[str]) -> Image.Image:
    """The table with its coordinates, the last placement outlined and the score strip."""
    cells = [*view.tops, *frontier(view.tops)]
    layout, height = layout_for(cells)
    table = draw_table(view, layout, (BOARD_WIDTH, height))
    return stack_vertically([strip(view, players, BOARD_WIDTH), table])


# -- the hand ---------------------------------------------------------------------------------

HAND_HEX = 44.0
HAND_COLUMNS = 3
HAND_CELL_W = BOARD_WIDTH // HAND_COLUMNS
HAND_CELL_H = 150


def rotation_fits(view: State) -> dict[str, list[str]]:
    """The legal cells (``q,r``, ``^`` for a stack) of each rotation of the drawn card."""
    fits: dict[str, list[str]] = {}
    for move in legal_moves(view):
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


def render_hand(view: State, seat: int, players: Sequence[str]) -> Image.Image:
    """The card ``seat`` must play now, in its six rotations labelled with their notation."""
    name = players[seat] if seat < len(players) else SEAT_NAMES[seat]
    header = Image.new("RGB", (BOARD_WIDTH, 40), THEME.strip)
    head = ImageDraw.Draw(header)
    colour = THEME.player(seat)
    head.rectangle((8, 12, 22, 26), fill=colour)
    if view.finished or view.turn != seat or not view.drawn:
        text = f"{name} ({SEAT_NAMES[seat]}): nothing to play now"
        head.text((30, 11), text, font=font(15), fill=THEME.strip_ink)
        return header
    card = view.drawn
    if card == LEADER:
        head.text(
            (30, 11),
            f"{name} ({SEAT_NAMES[seat]}) must play a Leader: L",
            font=font(15),
            fill=THEME.strip_ink,
        )
        return stack_vertically([header, leader_panel(seat)])
    extra = f" (+{view.bonus_left} bonus)" if view.bonus_left else ""
    head.text(
        (30, 11),
        f"{name} ({SEAT_NAMES[seat]}) must play card {card}{extra}",
        font=font(15),
        fill=THEME.strip_ink,
    )
    return stack_vertically([header, rotations_panel(view, card, seat)])


def leader_panel(seat: int) -> Image.Image:
    """A Leader card and how to write it."""
    image = Image.new("RGB", (BOARD_WIDTH * SCALE, 130 * SCALE), THEME.background)
    draw = ImageDraw.Draw(image)
    layout = Layout(HAND_HEX * SCALE, (70 * SCALE, 65 * SCALE))
    draw_card(draw, layout, (0, 0), Piece(LEADER, 0, seat))
    notes = ("L@q,r  next to any card", "L@q,r^  on top of any card", "wild: matches every number")
    for i, note in enumerate(notes):
        draw.text((140 * SCALE, (35 + 25 * i) * SCALE), note, font=font(16 * SCALE), fill=THEME.ink)
    return image.reduce(SCALE)


def rotations_panel(view: State, card: str, seat: int) -> Image.Image:
    """The six rotations of ``card``, each with its notation and how many places it fits."""
    rows = 6 // HAND_COLUMNS
    image = Image.new("RGB", (BOARD_WIDTH * SCALE, rows * HAND_CELL_H * SCALE), THEME.background)
    draw = ImageDraw.Draw(image)
    fits = rotation_fits(view)
    for rotation in range(6):
        row, column = divmod(rotation, HAND_COLUMNS)
        cx = (column + 0.5) * HAND_CELL_W
        cy = row * HAND_CELL_H + 58
        layout = Layout(HAND_HEX * SCALE, (cx * SCALE, cy * SCALE))
        draw_card(draw, layout, (0, 0), Piece(card, rotation, seat))
        sides = SIDES[card, rotation]
        for side in range(6):
            x, y = layout.side_point((0, 0), side, 1.2)
            draw.text((x, y), str(sides[side]), font=font(11 * SCALE), fill=THEME.muted, anchor="mm")
        text = laid(card, rotation)
        places = fits.get(text, [])
        label_y = (cy + 66) * SCALE
        draw.text((cx * SCALE, label_y), text, font=font(17 * SCALE), fill=THEME.ink, anchor="mm")
        note = fits_note(places)
        draw.text(
            (cx * SCALE, label_y + 18 * SCALE), note, font=font(11 * SCALE), fill=THEME.muted, anchor="mm"
        )
    return image.reduce(SCALE)
