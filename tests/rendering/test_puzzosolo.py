"""Puzz-Ominos solitaire rendering: layout maths, holes, piece colours, highlight, ghosts, golden."""

from __future__ import annotations

import pytest
from PIL import Image

from games.puzzosolo import GAME
from games.puzzosolo.game import position
from games.puzzosolo.state import GIVE_UP
from games.puzzosolo.state import State as SoloState
from rendering.common import THEME, WIDTH
from rendering.puzzosolo import (
    HOLE,
    MAX_BOARD_HEIGHT,
    PIECE_COLOURS,
    Layout,
    board_image,
    layout_for,
    render_board,
    render_hand,
)
from tests.support.golden import check_golden

PLAYERS = ["Alice"]
MOVES = ["Fr3@A1", "Ir0@B1", "Nr0f@D2", "Lr2@E2", "Yr2@A3"]
"""Five pieces of a 6x10 solution, and then an X on a hint."""


@pytest.fixture(scope="module")
def state() -> SoloState:
    after = position("6x10", MOVES)
    after, _ = GAME.apply(after, GAME.parse_move(after, "hint Xr0@B3"))
    return after


def pixel(image: Image.Image, layout: Layout, cell: tuple[int, int]) -> tuple[int, int, int]:
    x0, y0, _, _ = layout.cell_box(cell)
    value = image.getpixel((x0 + layout.cell // 4, y0 + layout.cell // 2))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def test_layout_fits_phone_width_and_height() -> None:
    wide = layout_for(10, 12)
    assert wide.left >= 30 and wide.left + 10 * wide.cell <= WIDTH
    tall = layout_for(3, 20)
    assert tall.height <= MAX_BOARD_HEIGHT
    assert tall.cell_box((0, 0)) == (tall.left, tall.top, tall.left + tall.cell, tall.top + tall.cell)


def test_the_default_target_fills_most_of_the_width() -> None:
    """A phone shows the picture 400 px wide: the 6x10 board uses most of it, not a strip."""
    layout = layout_for(6, 10)
    assert layout.cols * layout.cell >= 0.7 * WIDTH
    assert layout.height <= MAX_BOARD_HEIGHT
    assert layout_for(10, 12).cols * layout_for(10, 12).cell >= 0.9 * WIDTH


def test_holes_are_dark_and_pieces_have_their_colours(state: SoloState) -> None:
    corners = position("8x8-corners", ["Ir0@B1"])
    layout = layout_for(8, 8)
    image = board_image(corners, layout)
    assert pixel(image, layout, (0, 0)) == HOLE
    assert pixel(image, layout, (7, 7)) == HOLE
    assert pixel(image, layout, (3, 0)) == PIECE_COLOURS["I"]
    assert len(set(PIECE_COLOURS.values())) == 12


def test_last_piece_highlighted_and_hint_striped(state: SoloState) -> None:
    layout = layout_for(6, 10)
    image = board_image(state, layout)
    last = state.placed[-1]
    assert last.hinted
    x0, y0, x1, y1 = layout.cell_box(last.cells[0])
    edge = [image.getpixel((x, y0 + 1)) for x in range(x0, x1)]
    assert THEME.highlight in edge or any(
        image.getpixel((x0 + 1, y)) == THEME.highlight for y in range(y0, y1)
    )
    first = state.placed[0]
    assert pixel(image, layout, first.cells[0]) == PIECE_COLOURS[first.place.piece]


def test_give_up_shows_the_rest_pale(state: SoloState) -> None:
    gave_up, _ = GAME.apply(state, GIVE_UP)
    layout = layout_for(6, 10)
    image = board_image(gave_up, layout)
    ghost = gave_up.solution[-1]
    shade = pixel(image, layout, ghost.cells[0])
    colour = PIECE_COLOURS[ghost.piece]
    assert shade != colour and sum(shade) > sum(colour)


def test_hand_lists_two_copies_once(state: SoloState) -> None:
    two_sets = position("10x12", ["Ir0@A1"])
    image = render_hand(two_sets, 0, PLAYERS)
    assert image.width == WIDTH and image.height > 3 * 150


def test_golden_board(state: SoloState) -> None:
    check_golden(render_board(state, PLAYERS), "puzzosolo-board")


def test_golden_hand(state: SoloState) -> None:
    check_golden(render_hand(state, 0, PLAYERS), "puzzosolo-hand")
