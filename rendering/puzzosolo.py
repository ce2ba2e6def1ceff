"""Puzz-Ominos solitaire: the target board with ``A1`` labels, and the pieces left.

Each pentomino has its own colour (a 12-colour set built from the Okabe-Ito and Paul Tol
palettes) *and* its letter and a dark outline, so pieces stay distinct without relying on
colour. The last piece placed is outlined in the highlight colour; pieces placed on a hint are
striped. Squares outside the target are dark. After giving up, the solution's other pieces are
drawn pale ("ghosts") around the player's own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from PIL import Image, ImageDraw

from games.puzzominos.board import Place
from games.puzzominos.pieces import PENTOMINOES, Cell
from games.puzzominos.targets import COLUMNS
from games.puzzosolo.state import State as SoloState
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
from rendering.puzzominos import OUTLINE, Layout, draw_hand_piece, hand_slot, label_cell, outline, tint

PIECE_COLOURS: dict[str, RGB] = dict(
    zip(
        PENTOMINOES,
        (
            (230, 159, 0),  # F orange
            (86, 180, 233),  # I sky blue
            (0, 158, 115),  # L bluish green
            (240, 228, 66),  # N yellow
            (0, 114, 178),  # P blue
            (213, 94, 0),  # T vermillion
            (204, 121, 167),  # U reddish purple
            (136, 34, 85),  # V wine
            (68, 170, 153),  # W teal
            (153, 153, 51),  # X olive
            (170, 68, 153),  # Y purple
            (102, 102, 102),  # Z grey
        ),
        strict=True,
    )
)
DARK_LETTER = frozenset({"F", "I", "N", "W", "X", "U"})
"""Pieces light enough that their letter is drawn dark."""
HOLE: RGB = (70, 72, 80)
EMPTY: RGB = (255, 255, 255)
MAX_BOARD_HEIGHT = 640
MAX_CELL = 40
LABEL_LEFT, LABEL_TOP, PAD = 30, 24, 8


def layout_for(cols: int, rows: int, width: int = BOARD_WIDTH) -> Layout:
    """The largest layout of a ``cols`` x ``rows`` board that fits the width and height."""
    by_width = (width - LABEL_LEFT - PAD) // cols
    by_height = (MAX_BOARD_HEIGHT - LABEL_TOP - PAD) // rows
    cell = max(12, min(MAX_CELL, by_width, by_height))
    return Layout(0, 0, cols, rows, cell, width, label_top=LABEL_TOP, pad=PAD)


def _grid(draw: ImageDraw.ImageDraw, layout: Layout, squares: frozenset[Cell]) -> None:
    for y in range(layout.rows):
        for x in range(layout.cols):
            fill = EMPTY if (x, y) in squares else HOLE
            draw.rectangle(layout.cell_box((x, y)), fill=fill, outline=THEME.grid)
    size = 13 if layout.cell >= 20 else 11
    for x in range(layout.cols):
        centre = layout.cell_center((x, 0))
        draw_centered(draw, (centre[0], layout.top - 11), COLUMNS[x], size, THEME.ink)
    for y in range(layout.rows):
        centre = layout.cell_center((0, y))
        draw.text((layout.left - 5, centre[1]), str(y + 1), font=font(size), fill=THEME.ink, anchor="rm")


def _piece(draw: ImageDraw.ImageDraw, layout: Layout, place: Place, *, ghost: bool, hinted: bool) -> None:
    cells = place.cells
    colour = PIECE_COLOURS[place.piece]
    fill = tint(colour, 0.7) if ghost else colour
    for cell in cells:
        x0, y0, x1, y1 = layout.cell_box(cell)
        draw.rectangle((x0, y0, x1, y1), fill=fill)
        if hinted:
            draw.line((x0, y1, x1, y0), fill=tint(colour, 0.5), width=max(2, layout.cell // 8))
    line = max(1, layout.cell // 14) if ghost else max(2, layout.cell // 10)
    outline(draw, layout, cells, tint(OUTLINE, 0.5) if ghost else OUTLINE, line)
    ink = OUTLINE if ghost or place.piece in DARK_LETTER else (255, 255, 255)
    draw_centered(draw, layout.cell_center(label_cell(cells)), place.piece, int(layout.cell * 0.6), ink)


def board_image(state: SoloState, layout: Layout) -> Image.Image:
    """The target alone (no score strip)."""
    image = Image.new("RGB", (layout.width, layout.height), THEME.background)
    draw = ImageDraw.Draw(image)
    _grid(draw, layout, state.target.cells)
    own = state.places
    kept = bool(state.solution) and state.solution[: len(own)] == own
    if state.solution and not kept:  # a fresh solution, shown instead of the stuck position
        for place in state.solution:
            _piece(draw, layout, place, ghost=False, hinted=False)
        return image
    for placed in state.placed:
        _piece(draw, layout, placed.place, ghost=False, hinted=placed.hinted)
    for place in state.solution[len(own) :]:
        _piece(draw, layout, place, ghost=True, hinted=False)
    if state.placed and state.status != "gave up":
        outline(draw, layout, state.placed[-1].place.cells, THEME.highlight, max(3, layout.cell // 7))
    return image


def _title(state: SoloState) -> str:
    target = state.target.name
    if state.status == "solved":
        return f"Puzz-Ominos solitaire · {target} · solved!"
    if state.status == "gave up":
        kept = state.solution[: len(state.placed)] == state.places and state.placed
        return f"Puzz-Ominos solitaire · {target} · gave up: " + (
            "your pieces completed (pale)" if kept else "a solution"
        )
    return f"Puzz-Ominos solitaire · {target} · {state.empty_squares} squares to fill"


def render_board(view: SoloState, players: Sequence[str]) -> Image.Image:
    """The target board, ``A1`` labels, the last piece highlighted, and a score strip."""
    target = view.target
    layout = layout_for(target.width, target.height)
    board = board_image(view, layout)
    extra = f"{view.hints} hint{'s' if view.hints != 1 else ''}" if view.hints else ""
    line = ScoreLine(players[0] if players else "Player", f"{len(view.placed)}/{target.needed}", extra)
    to_act = 0 if view.status == "playing" else None
    strip = score_strip(board.width, [line], to_act, title=_title(view))
    return stack_vertically([board, strip])


# -- hand ---------------------------------------------------------------------------------------

HAND_CELL = 16
HAND_TITLE = 30
HAND_COLUMNS = 5
SLOT_HEIGHT = 5 * HAND_CELL + 34


def render_hand(view: SoloState, seat: int, players: Sequence[str]) -> Image.Image:
    """The pieces left in orientation ``r0``, each in its colour with its name (``x2`` for two
    copies)."""
    counts = Counter(view.left())
    names = list(counts)
    rows = max(1, (len(names) + HAND_COLUMNS - 1) // HAND_COLUMNS)
    image = Image.new("RGB", (BOARD_WIDTH, HAND_TITLE + rows * SLOT_HEIGHT + 6), THEME.background)
    draw = ImageDraw.Draw(image)
    who = players[seat] if seat < len(players) else "You"
    title = f"{who} · {view.target.name} · {len(view.left())} pieces left (shown in r0)"
    draw.text((10, 8), title, font=font(15), fill=THEME.ink)
    if not names:
        draw.text((10, HAND_TITLE + 10), "No pieces left.", font=font(14), fill=THEME.muted)
    for index, piece in enumerate(names):
        x0, y0, x1, _ = hand_slot(index)
        draw_hand_piece(draw, index, piece, PIECE_COLOURS[piece])
        label = f"{piece} x{counts[piece]}" if counts[piece] > 1 else piece
        draw_centered(draw, ((x0 + x1) / 2, y0 + 5 * HAND_CELL + 20), label, 14, THEME.ink)
    return image
