"""Geronimos rendering: layout maths, image sizes, the last placement and golden images."""

from __future__ import annotations

import math

import pytest

from games.ai import greedy_states
from games.geronimos import GAME, State
from games.geronimos.hexgrid import DIRECTIONS, neighbours
from games.geronimos.rules import frontier
from rendering.common import BOLD, MIN_PHONE_TEXT, THEME, WIDTH, digit_height, phone_px
from rendering.geronimos import (
    HAND_HEX,
    MAX_HEX,
    Layout,
    fits_note,
    label_fits,
    layout_for,
    number_font,
    number_spots,
    render_board,
    render_hand,
)
from tests.support.golden import check_golden

PLAYERS = ["alice", "bob"]


def greedy_game(seed: int, plies: int | None = None) -> list[State]:
    """Every state of a greedy self-play game (stopping after ``plies`` moves if given)."""
    return greedy_states(GAME, 2, seed, plies=plies)


@pytest.fixture(scope="module")
def finished_game() -> list[State]:
    return greedy_game(7)


# -- geometry ----------------------------------------------------------------------------------


def test_cell_to_pixel() -> None:
    layout = Layout(20.0, (100.0, 50.0))
    assert layout.center((0, 0)) == (100.0, 50.0)
    x, y = layout.center((1, 0))
    assert x == pytest.approx(100 + 20 * math.sqrt(3)) and y == pytest.approx(50)
    x, y = layout.center((0, 1))
    assert x == pytest.approx(100 + 10 * math.sqrt(3)) and y == pytest.approx(80)
    for cell in neighbours((0, 0)):
        cx, cy = layout.center(cell)
        assert math.hypot(cx - 100, cy - 50) == pytest.approx(20 * math.sqrt(3))


def test_side_points_face_their_neighbours() -> None:
    layout = Layout(30.0, (0.0, 0.0))
    for side, step in enumerate(DIRECTIONS):
        nx, ny = layout.center(step)
        sx, sy = layout.side_point((0, 0), side, 2.0)  # twice the edge distance: the neighbour centre
        assert (sx, sy) == (pytest.approx(nx), pytest.approx(ny))
    top = layout.corners((0, 0))[0]
    assert top == (pytest.approx(0.0), pytest.approx(-30.0))


def test_layout_fits_the_width() -> None:
    cells = [(q, r) for q in range(-6, 7) for r in range(-3, 4)]
    layout, height = layout_for(cells)
    for cell in cells:
        for x, y in layout.corners(cell):
            assert -0.5 <= x <= WIDTH + 0.5 and -0.5 <= y <= height + 0.5
    small, _ = layout_for([(0, 0)])
    assert small.size == MAX_HEX


def test_table_grows_in_whole_steps() -> None:
    one, height = layout_for([(0, 0), (1, 0)])
    two, same = layout_for([(0, 0), (1, 0), (0, 1)])
    assert (one.size, height) == (two.size, same)  # two rows and two columns either way


# -- images -----------------------------------------------------------------------------------


def test_board_image_of_a_late_game(finished_game: list[State]) -> None:
    late = finished_game[-2]
    image = render_board(GAME.view(late, None), PLAYERS)
    assert image.mode == "RGB" and image.width == WIDTH and 600 < image.height < 1500


def test_last_placement_is_highlighted(finished_game: list[State]) -> None:
    state = finished_game[-2]
    assert state.last is not None
    cells = [*state.tops, *frontier(state.tops)]
    layout, _ = layout_for(cells)
    image = render_board(GAME.view(state, None), PLAYERS)
    strip_height = image.height - layout_for(cells)[1]
    x, y = layout.side_point(state.last, 1, 0.95)  # inside the outline
    pixel = image.getpixel((round(x), round(y + strip_height)))
    assert isinstance(pixel, tuple)
    assert sum(abs(a - b) for a, b in zip(pixel, THEME.highlight, strict=False)) < 60


def test_hand_images() -> None:
    states = greedy_game(7, plies=12)
    numbered = next(s for s in reversed(states) if s.drawn not in ("", "L"))
    image = render_hand(GAME.view(numbered, numbered.turn), numbered.turn, PLAYERS)
    assert image.width == WIDTH and image.height > 400
    idle = render_hand(GAME.view(numbered, 1 - numbered.turn), 1 - numbered.turn, PLAYERS)
    assert idle.height < 100
    assert fits_note([]) == "fits nowhere" and fits_note(["1,2", "0,0^"]) == "at 1,2 · 0,0^"
    assert fits_note(["a", "b", "c", "d"]) == "fits 4 places"


def test_golden_board_at_the_end(finished_game: list[State]) -> None:
    check_golden(render_board(GAME.view(finished_game[-1], None), PLAYERS), "geronimos-end")


def test_golden_hand() -> None:
    states = greedy_game(7, plies=12)
    state = next(s for s in reversed(states) if s.drawn not in ("", "L"))
    check_golden(render_hand(GAME.view(state, state.turn), state.turn, PLAYERS), "geronimos-hand")


def test_side_numbers_and_label_keep_apart() -> None:
    """The six numbers of a card stay inside it and apart; a label is drawn only where it
    clears them (on the default table's cards, numbers at the phone minimum)."""
    for size in (MAX_HEX, 56.6, HAND_HEX):
        font_size = number_font(size)
        assert phone_px(digit_height(font_size, BOLD)) >= MIN_PHONE_TEXT
        spots = number_spots(size)
        for x, y in spots:
            assert math.hypot(x, y) < size * math.sqrt(3) / 2
    assert label_fits(MAX_HEX, "-1,-2", leader=False)
    assert not label_fits(40.0, "-1,-2", leader=False)
    assert label_fits(56.6, "-1,-2", leader=True)
