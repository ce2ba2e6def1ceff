"""Tri-Ominos rendering: layout maths, image sizes, the last tile highlighted and golden images."""

from __future__ import annotations

import math

import pytest

from games.ai import GreedyPlayer
from games.triominos import GAME, State
from games.triominos.grid import corners, neighbours, points_up
from rendering.common import THEME, WIDTH
from rendering.triominos import (
    LABEL_LEFT,
    LABEL_TOP,
    MAX_SIDE,
    Frame,
    Layout,
    frame_for,
    label_step,
    layout_for,
    render_board,
    render_hand,
)
from tests.support.golden import check_golden

PLAYERS = ["alice", "bob", "cara"]


def greedy_round(seed: int, players: int = 3) -> list[State]:
    """Every state of the first round of a greedy self-play game."""
    state = GAME.new(players, seed=seed)
    player = GreedyPlayer(seed)
    states = [state]
    while GAME.to_act(state) is not None:
        state, _ = GAME.apply(state, player.choose(GAME, state))
        if state.round != states[0].round:
            break
        states.append(state)
    return states


@pytest.fixture(scope="module")
def first_round() -> list[State]:
    return greedy_round(7)


# -- geometry ----------------------------------------------------------------------------------


def test_corners_to_pixels() -> None:
    layout = Layout(40.0, (100.0, 50.0))
    row = 40 * math.sqrt(3) / 2
    top, right, left = layout.triangle((0, 0))  # an up cell, top corner first, clockwise
    assert top == (pytest.approx(120.0), pytest.approx(50.0))
    assert right == (pytest.approx(140.0), pytest.approx(50 + row))
    assert left == (pytest.approx(100.0), pytest.approx(50 + row))
    bottom, upper_left, upper_right = layout.triangle((1, 0))  # a down cell, bottom corner first
    assert bottom == right and upper_left == top
    assert upper_right == (pytest.approx(160.0), pytest.approx(50.0))


def test_every_triangle_is_equilateral_and_points_the_right_way() -> None:
    layout = Layout(30.0, (0.0, 0.0))
    for cell in [(0, 0), (1, 0), (-3, 2), (4, -1), (5, 5)]:
        a, b, c = layout.triangle(cell)
        for p, q in [(a, b), (b, c), (c, a)]:
            assert math.dist(p, q) == pytest.approx(30.0)
        first_y = a[1]
        others_y = b[1]
        assert (first_y < others_y) == points_up(cell)
        for other in neighbours(cell):
            shared = set(corners(cell)) & set(corners(other))
            assert len(shared) == 2  # neighbours share an edge on screen too
        cx, cy = layout.centre(cell)
        assert layout.row_y(cell[1]) == pytest.approx((a[1] + b[1]) / 2)
        assert layout.column_x(cell[0]) == pytest.approx(cx)
        assert cy != layout.row_y(cell[1])


def test_numbers_sit_inside_their_corner() -> None:
    layout = Layout(60.0, (0.0, 0.0))
    for cell in [(0, 0), (1, 0)]:
        triangle = layout.triangle(cell)
        for index, corner in enumerate(triangle):
            point = layout.number_at(cell, index)
            nearest = min(range(3), key=lambda i: math.dist(point, triangle[i]))
            assert nearest == index and math.dist(point, corner) > 12


def test_frame_grows_in_whole_steps() -> None:
    cells = [(x, y) for x in range(-12, 13) for y in range(-5, 6)]
    frame = frame_for(cells)
    assert frame == Frame(-12, 13, -5, 6)  # 25 columns and 11 rows, widened to 26 and 12
    assert frame_for([(0, 0), (1, 0)]) == frame_for([(0, 0)]) == Frame(-3, 4, -1, 2)  # the smallest


def test_frame_and_layout_fit_the_width() -> None:
    frame = frame_for([(x, y) for x in range(-12, 13) for y in range(-5, 6)])
    layout, height = layout_for(frame)
    assert layout.side % 2 == 0
    for y in frame.rows:
        for x in frame.columns:
            for px, py in layout.triangle((x, y)):
                assert LABEL_LEFT - 0.5 <= px <= WIDTH + 0.5
                assert LABEL_TOP - 0.5 <= py <= height + 0.5
    small, _ = layout_for(frame_for([(0, 0)]))
    assert small.side == MAX_SIDE
    assert label_step(MAX_SIDE, frame) == 1 and label_step(60.0, frame) == 2


# -- images -----------------------------------------------------------------------------------


def test_board_image_of_a_late_round(first_round: list[State]) -> None:
    late = first_round[-1]
    assert len(late.board) > 10
    image = render_board(GAME.view(late, None), PLAYERS)
    assert image.mode == "RGB" and image.width == WIDTH and 600 < image.height < 1400


def test_last_tile_is_highlighted(first_round: list[State]) -> None:
    state = next(s for s in reversed(first_round) if s.last is not None)
    image = render_board(GAME.view(state, None), PLAYERS)
    frame = frame_for([*state.cells, *state.frontier])
    layout, height = layout_for(frame)
    strip_height = image.height - height
    xs = [p[0] for p in layout.triangle(state.last)]  # type: ignore[arg-type]
    ys = [p[1] + strip_height for p in layout.triangle(state.last)]  # type: ignore[arg-type]

    def near(pixel: object) -> bool:
        assert isinstance(pixel, tuple)
        return sum(abs(a - b) for a, b in zip(pixel, THEME.highlight, strict=False)) < 60

    inside = sum(
        near(image.getpixel((x, y)))
        for x in range(math.floor(min(xs)), math.ceil(max(xs)))
        for y in range(math.floor(min(ys)), math.ceil(max(ys)))
    )
    assert inside > 400
    elsewhere = sum(
        near(image.getpixel((x, y))) for x in range(0, image.width, 3) for y in range(0, image.height, 3)
    )
    assert elsewhere < inside


def test_empty_board_at_a_round_start_shows_the_origin() -> None:
    state = GAME.new(2, seed=3)
    image = render_board(GAME.view(state, None), PLAYERS[:2])
    assert image.width == WIDTH and image.height > 100


def test_hand_images(first_round: list[State]) -> None:
    state = first_round[5]
    seat = GAME.to_act(state)
    assert seat is not None
    image = render_hand(GAME.view(state, seat), seat, PLAYERS)
    assert image.width == WIDTH and image.height > 200
    other = (seat + 1) % 3
    idle = render_hand(GAME.view(state, other), other, PLAYERS)
    assert idle.height > 200  # the waiting player sees their tiles too
    hidden = render_hand(GAME.view(state, None), seat, PLAYERS)
    assert hidden.height < 100  # nothing to show of a hidden hand


def test_golden_board(first_round: list[State]) -> None:
    check_golden(render_board(GAME.view(first_round[-1], None), PLAYERS), "triominos-board")


def test_golden_hand(first_round: list[State]) -> None:
    state = first_round[5]
    seat = GAME.to_act(state)
    assert seat is not None
    check_golden(render_hand(GAME.view(state, seat), seat, PLAYERS), "triominos-hand")
