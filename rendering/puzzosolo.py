"""Puzz-Ominos solitaire: the target board with ``A1`` labels, and the pieces left.

Each pentomino has its own colour (a 12-colour set built from the Okabe-Ito and Paul Tol
palettes) *and* its letter and a dark outline, so pieces stay distinct without relying on
colour. The last piece placed is outlined in the highlight colour; pieces placed on a hint are
striped. Squares outside the target are dark. After giving up, the solution's other pieces are
drawn pale ("ghosts") around the player's own. The empty target with its labels is drawn once
and reused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.core import counted
from games.puzzominos.board import Place
from games.puzzominos.pieces import PENTOMINOES
from games.puzzominos.targets import COLUMNS
from games.puzzosolo.state import SoloStatus
from rendering.base import Drawn
from rendering.charts import Series, line_chart
from rendering.common import (
    BOLD,
    RGB,
    TEXT,
    THEME,
    WHITE,
    WIDTH,
    Result,
    ScoreLine,
    draw_centered,
    ink_on,
    player_name,
    px,
    score_strip,
    stack_vertically,
    text,
    tint,
)
from rendering.puzzominos import OUTLINE, Layout, hand_image, label_cell, letter_size, outline

PIECE_COLOURS: dict[str, RGB] = dict(
    zip(
        PENTOMINOES,
        (
            (230, 159, 0),  # F orange
            (86, 180, 233),  # I sky blue
            (0, 158, 115),  # L bluish green
            (240, 228, 66),  # N yellow
            (0, 114, 178),  # P blue
            (190, 80, 0),  # T vermillion (darkened, as the players' Red)
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
HOLE: RGB = (70, 72, 80)
EMPTY: RGB = (255, 255, 255)
MAX_BOARD_HEIGHT = 1250
"""A portrait target (6x10) is as tall as a Tile Up! board, so that it fills most of the width."""
MAX_CELL = px(50)
LABEL_LEFT, LABEL_TOP, PAD = px(18), px(15), px(4)


def layout_for(cols: int, rows: int, width: int = WIDTH) -> Layout:
    """The largest layout of a ``cols`` x ``rows`` board that fits the width and height."""
    by_width = (width - LABEL_LEFT - PAD) // cols
    by_height = (MAX_BOARD_HEIGHT - LABEL_TOP - PAD) // rows
    cell = max(1, min(MAX_CELL, by_width, by_height))
    return Layout(0, 0, cols, rows, cell, width, label_top=LABEL_TOP, pad=PAD)


@lru_cache(maxsize=8)
def base_layer(layout: Layout, squares: frozenset[tuple[int, int]]) -> Image.Image:
    """The empty target: squares, holes and the ``A1`` labels."""
    image = Image.new("RGB", (layout.width, layout.height), THEME.background)
    draw = ImageDraw.Draw(image)
    for y in range(layout.rows):
        for x in range(layout.cols):
            fill = EMPTY if (x, y) in squares else HOLE
            draw.rectangle(layout.cell_box((x, y)), fill=fill, outline=THEME.grid)
    for x in range(layout.cols):
        centre = layout.cell_center((x, 0))
        draw_centered(draw, (centre[0], layout.top / 2), COLUMNS[x], TEXT.small, THEME.ink, BOLD)
    for y in range(layout.rows):
        centre = layout.cell_center((0, y))
        text(
            draw,
            (layout.left - px(3), centre[1]),
            str(y + 1),
            TEXT.small,
            THEME.ink,
            anchor="rm",
            weight=BOLD,
        )
    return image


def _piece(draw: ImageDraw.ImageDraw, layout: Layout, place: Place, *, ghost: bool, hinted: bool) -> None:
    cells = place.cells
    colour = PIECE_COLOURS[place.piece]
    fill = tint(colour, 0.7) if ghost else colour
    for cell in cells:
        x0, y0, x1, y1 = layout.cell_box(cell)
        draw.rectangle((x0, y0, x1, y1), fill=fill)
        if hinted:
            draw.line((x0, y1, x1, y0), fill=tint(colour, 0.5), width=max(2, layout.cell // 8))
    line = max(2, layout.cell // 14) if ghost else max(3, layout.cell // 10)
    outline(draw, layout, cells, tint(OUTLINE, 0.5) if ghost else OUTLINE, line)
    ink = OUTLINE if ghost else ink_on(colour, WHITE, OUTLINE)
    centre = layout.cell_center(label_cell(cells))
    draw_centered(draw, centre, place.piece, letter_size(layout.cell, place.piece), ink, BOLD)


def board_image(state: Any, layout: Layout) -> Image.Image:
    """The target alone (no score strip)."""
    image = base_layer(layout, frozenset(state.target.cells)).copy()
    draw = ImageDraw.Draw(image)
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
    if state.placed and state.status is not SoloStatus.GAVE_UP:
        outline(draw, layout, state.placed[-1].place.cells, THEME.highlight, max(3, layout.cell // 7))
    return image


def _title(state: Any) -> str:
    target = state.target.name
    return f"Puzz-Ominos solitaire · {target} · {counted(state.empty_squares, 'square')} to fill"


def solo_result(state: Any, players: Sequence[str]) -> Result:
    """How a finished solitaire went: solved (with how many hints) or given up, and what the
    picture shows then."""
    who = player_name(players, 0, "Player")
    target = state.target.name
    if state.status is SoloStatus.SOLVED:
        hints = f" with {counted(state.hints, 'hint')}" if state.hints else " without hints"
        return Result(
            f"🏆 {who} solved {target}", f"Puzz-Ominos solitaire · solved{hints}", (1,), frozenset({0}), False
        )
    kept = state.solution[: len(state.placed)] == state.places and state.placed
    shows = "your pieces, completed by a solution (pale)" if kept else "a solution"
    return Result(
        f"🏳️ {who} gave up on {target}", f"Puzz-Ominos solitaire · shown: {shows}", (1,), frozenset(), False
    )


def render_board(view: Any, players: Sequence[str]) -> Image.Image:
    """The target board, ``A1`` labels, the last piece highlighted, and a score strip."""
    target = view.target
    layout = layout_for(target.width, target.height)
    board = board_image(view, layout)
    extra = counted(view.hints, "hint") if view.hints else ""
    line = ScoreLine(player_name(players, 0, "Player"), f"{len(view.placed)}/{target.needed}", extra)
    if view.status is SoloStatus.PLAYING:
        strip = score_strip(board.width, [line], 0, title=_title(view))
    else:
        strip = score_strip(board.width, [line], None, result=solo_result(view, players))
    return stack_vertically([board, strip])


# -- hand ---------------------------------------------------------------------------------------


def render_hand(view: Any, seat: int, players: Sequence[str]) -> Image.Image:
    """The pieces left in orientation ``r0``, each in its colour with its name (``x2`` for two
    copies)."""
    counts = Counter(view.left())
    who = player_name(players, seat, "You")
    title = f"{who} · {view.target.name} · {counted(len(view.left()), 'piece')} left (shown in r0)"
    shown = [
        (piece, piece, f"x{count}" if count > 1 else "", PIECE_COLOURS[piece])
        for piece, count in counts.items()
    ]
    return hand_image(title, shown, "No pieces left.")


# -- the replay chart ---------------------------------------------------------------------------


def progress_chart(views: Sequence[Any], players: Sequence[str], title: str) -> Image.Image:
    """Pieces on the board after each move (a hint's piece counted too, and apart), up to the
    dashed line of the pieces the target needs."""
    placed = [len(view.placed) for view in views]
    hinted = [sum(1 for piece in view.placed if piece.hinted) for view in views]
    series = [Series(f"{player_name(players, 0, 'Player')}: pieces placed", placed, THEME.player(0))]
    if any(hinted):
        series.append(Series("of them from hints", hinted, THEME.player(1)))
    needed = views[-1].target.needed if views else 0
    return line_chart(
        series, title, y_label="pieces on the board", goal=needed, goal_label=f"needed: {needed}"
    )


class PuzzosoloRenderer(Drawn):
    """The solitaire target, the pieces left, and a chart of the pieces placed."""

    def chart(
        self, views: Sequence[Any], scores: Sequence[Sequence[int]], players: Sequence[str], title: str
    ) -> Image.Image:
        """Pieces placed over the moves (a score chart of one line would say less)."""
        target = views[-1].target.name if views else ""
        return progress_chart(views, players, f"Puzz-Ominos solitaire · {target} · pieces placed")


RENDERER = PuzzosoloRenderer("puzzosolo", render_board, render_hand)
