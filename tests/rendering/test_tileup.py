"""Tile Up! rendering: layout maths, what the images show, and golden images."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from games.ai import greedy_states
from games.tileup import GAME
from games.tileup.data import SIZE, SQUARES, parse_square
from games.tileup.rules import set_hand as _set_hand
from games.tileup.state import State as TileUpState
from rendering import tileup
from rendering.common import BOLD, THEME, WIDTH, digit_height, mark_points
from rendering.tileup import (
    GEOMETRY,
    SCORED_OUTLINE,
    STACK_STEP,
    HandLayout,
    badge_box,
    card_size,
    last_squares,
    number_centre,
    number_size,
    render_board,
    render_hand,
    stack_boxes,
)
from tests.support.golden import check_golden

PLAYERS = ["alice", "bob", "cara"]


def sq(name: str) -> int:
    square = parse_square(name)
    assert square is not None
    return square


def greedy_game(seed: int, players: int = 3, plies: int | None = None) -> list[TileUpState]:
    """Every state of a greedy self-play game (stopping after ``plies`` moves if given)."""
    return greedy_states(GAME, players, seed, plies=plies)


@pytest.fixture(scope="module")
def finished_game() -> list[TileUpState]:
    return greedy_game(3)


def stacked() -> TileUpState:
    """A position with stacks of 2, 3 and 5 tiles and a scored orange L4 as the last move."""
    board: list[tuple[str, ...]] = [() for _ in range(SQUARES)]
    for name, tiles in {
        "C3": "O3",
        "C4": "B5 O2",
        "C5": "O4",
        "D5": "P5 B4 O1",
        "D4": "P5 B4 O3 B2 P1",
        "F6": "B4",
    }.items():
        board[sq(name)] = tuple(tiles.split())
    state = GAME.new(3, seed=5)
    return replace(state, board=tuple(board), last_move="score 1@C3", highlight=(sq("D5"),), scores=(7, 3, 0))


def near(pixel: object, colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    assert isinstance(pixel, tuple)
    return sum(abs(a - b) for a, b in zip(pixel, colour, strict=False)) < tolerance


# -- geometry ----------------------------------------------------------------------------------


def test_squares_to_pixels_and_back() -> None:
    assert GEOMETRY.width == WIDTH
    last = GEOMETRY.cell - 1
    assert GEOMETRY.cell_box(0) == (GEOMETRY.left, GEOMETRY.top, GEOMETRY.left + last, GEOMETRY.top + last)
    assert GEOMETRY.left + SIZE * GEOMETRY.cell <= WIDTH
    x0, y0, _, _ = GEOMETRY.cell_box(sq("K11"))
    assert (x0, y0) == (GEOMETRY.left + 10 * GEOMETRY.cell, GEOMETRY.top + 10 * GEOMETRY.cell)
    for square in range(SQUARES):
        assert GEOMETRY.square_at(*GEOMETRY.center(square)) == square
    assert GEOMETRY.square_at(GEOMETRY.left - 1, GEOMETRY.top) is None
    assert GEOMETRY.square_at(GEOMETRY.left + SIZE * GEOMETRY.cell, GEOMETRY.top) is None


def test_stack_boxes_show_up_to_three_tiles_below_the_top() -> None:
    box = (10, 10, 50, 50)
    assert stack_boxes(box, 1) == [box]
    three = stack_boxes(box, 3)
    depth = 2 * STACK_STEP
    assert three[-1] == (10, 10, 50 - depth, 50 - depth)  # the top tile, drawn last
    assert three[0] == (10 + depth, 10 + depth, 50, 50)  # the lowest one reaches the far corner
    assert len(stack_boxes(box, 7)) == 4
    assert all(right <= 50 and bottom <= 50 for _, _, right, bottom in stack_boxes(box, 7))


def test_hand_layout_fits_and_never_overlaps() -> None:
    layout = HandLayout(tiles=16, cards=5)
    boxes = [layout.tile_box(index) for index in range(16)]
    assert all(x0 >= 0 and x1 <= WIDTH for x0, _, x1, _ in boxes)
    for first, second in itertools.pairwise(boxes):
        assert first[2] < second[0] or first[3] < second[1]
    assert layout.cards_top > max(box[3] for box in boxes)
    width, height = card_size()
    origins = [layout.card_origin(index) for index in range(5)]
    assert all(x + width <= WIDTH and y + height < layout.height for x, y in origins)
    assert HandLayout(tiles=3, cards=1).height < layout.height


def test_last_squares_are_the_placements_and_the_scored_region() -> None:
    placed, scored = last_squares(stacked())
    assert placed == (sq("D5"),)
    assert scored == tuple(sorted(sq(name) for name in ("C3", "C4", "C5", "D5")))
    assert last_squares(replace(stacked(), last_move="O4@C6"))[1] == ()


# -- images ------------------------------------------------------------------------------------


def test_board_shows_the_last_move_stacks_and_counts() -> None:
    state = stacked()
    image = render_board(GAME.view(state, None), PLAYERS)
    assert image.mode == "RGB" and image.width == WIDTH and 1300 < image.height < 1600
    x0, y0, x1, _ = GEOMETRY.cell_box(sq("D5"))
    assert near(image.getpixel(((x0 + x1) // 2, y0 + 1)), THEME.highlight)  # the placement outline
    x0, y0, _, _ = GEOMETRY.cell_box(sq("C3"))
    assert near(image.getpixel((x0 + 2, y0 + 10)), SCORED_OUTLINE)  # the scored region outline
    _, y0, x1, _ = GEOMETRY.cell_box(sq("D4"))
    assert near(image.getpixel((x1 - 8, y0 + 8)), THEME.ink, 60)  # the height tag of a 5-tile stack


def test_board_image_of_a_late_game(finished_game: list[TileUpState]) -> None:
    late = finished_game[-2]
    image = render_board(GAME.view(late, None), PLAYERS)
    assert image.width == WIDTH and image.height < 1600


def screen() -> TileUpState:
    """Seat 0 holds nine tiles and four goal cards (over both limits)."""
    state = _set_hand(stacked(), 0, tiles=("O1", "O4", "B2", "B5", "P3", "P5", "O2", "B1", "P1"))
    return _set_hand(state, 0, cards=("O-X5", "B-S4", "P-P5", "O-T4"))


def test_hand_images() -> None:
    own = render_hand(GAME.view(screen(), 0), 0, PLAYERS)
    assert own.width == WIDTH and own.height == HandLayout(9, 4).height
    hidden = render_hand(GAME.view(screen(), 1), 0, PLAYERS)
    assert hidden.height < 120
    empty = _set_hand(screen(), 0, tiles=(), cards=())
    assert render_hand(GAME.view(empty, 0), 0, PLAYERS).height == HandLayout(0, 0).height


def test_golden_board_at_the_end(finished_game: list[TileUpState]) -> None:
    check_golden(render_board(GAME.view(finished_game[-1], None), PLAYERS), "tileup-end")


def test_golden_stacks() -> None:
    check_golden(render_board(GAME.view(stacked(), None), PLAYERS), "tileup-stacks")


def test_golden_hand() -> None:
    check_golden(render_hand(GAME.view(screen(), 0), 0, PLAYERS), "tileup-hand")


def test_height_tag_leaves_the_number_clear() -> None:
    """A stack's ``x3`` tag sits in the top-right corner, above the tile's number."""
    box = GEOMETRY.cell_box(sq("F5"))
    for height in (2, 3, 4):
        top = stack_boxes(box, height)[-1]
        tag = badge_box(box, height)
        _, y = number_centre(top)
        half_number = digit_height(number_size(top[2] - top[0]), BOLD) / 2
        assert tag[3] < y - half_number, "the tag would cover the number"
        assert tag[0] > top[0] + (top[2] - top[0]) / 2, "the tag would cover the colour letter"


def test_players_are_marks_not_tile_colours(finished_game: list[TileUpState]) -> None:
    """Players own no tiles: the strip shows each player's mark (a shape), never a colour a
    tile has or a player colour of the other games."""
    view = GAME.view(finished_game[1], None)
    image = render_board(view, PLAYERS)
    strip = tileup.strip(view, PLAYERS)
    part = image.crop((0, image.height - strip.height, image.width, image.height))
    colours = {colour for _, colour in part.getcolors(part.width * part.height) or ()}
    assert not colours & {*tileup.TILE_FILL.values(), *THEME.players}
    shapes = {tuple(mark_points(seat, (0.0, 0.0), 20.0)) for seat in range(GAME.max_players)}
    assert len(shapes) == GAME.max_players
