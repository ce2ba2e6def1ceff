"""Geominos rendering: window and pixel maths, dot layout, the last placement, golden images."""

from __future__ import annotations

import pytest

from games.ai import greedy_states
from games.geominos import GAME, Options, State
from games.geominos.state import Placed
from rendering.common import BOARD_WIDTH
from rendering.geominos import (
    LABEL,
    LAST_FILL,
    MIN_SPAN,
    PIP_SPOTS,
    Window,
    pip_centers,
    render_board,
    render_hand,
    window_for,
)
from tests.support.golden import check_golden

PLAYERS = ["Joe", "Anna", "Cara"]


def greedy_game(seed: int, players: int = 2, mode: str = "five") -> list[State]:
    """Every state of a greedy self-play game."""
    return greedy_states(GAME, players, seed, Options(mode=mode))


@pytest.fixture(scope="module")
def finished_game() -> list[State]:
    return greedy_game(4)


# -- geometry ----------------------------------------------------------------------------------


def test_square_to_pixel() -> None:
    window = Window(top=4, left=2, rows=11, cols=13, cell=30)
    assert window.box(4, 2) == (LABEL, LABEL, LABEL + 30, LABEL + 30)
    assert window.box(5, 4) == (LABEL + 60, LABEL + 30, LABEL + 90, LABEL + 60)
    assert window.size == (13 * 30 + 2 * LABEL, 11 * 30 + 2 * LABEL)
    assert window.shows(14, 14) and not window.shows(15, 14) and not window.shows(4, 1)


def test_window_of_the_start_is_the_minimum_around_the_center() -> None:
    state = GAME.new(2, seed=1)
    window = window_for(state.board)
    assert window.rows == window.cols == MIN_SPAN
    assert window.shows(10, 10)
    assert window.size[0] <= BOARD_WIDTH
    assert window.cell == 40


def test_window_grows_with_the_board_and_stays_on_it() -> None:
    far = Placed("Hammer", "A", 0, 0, 0, 0)
    window = window_for([far, Placed("Chair", "A", 0, 9, 9, None)])
    assert (window.top, window.left) == (0, 0)
    assert window.rows == 16 and window.cols == 15  # rows 0-12 and columns 0-11, plus 3
    assert window.size[0] <= BOARD_WIDTH
    full = window_for([far, Placed("Hammer", "A", 0, 18, 18, 1)])
    assert (full.rows, full.cols) == (21, 21)
    assert full.size[0] <= BOARD_WIDTH


def test_domino_dots() -> None:
    box = (0, 0, 40, 40)
    assert pip_centers(box, 1) == [(20.0, 20.0)]
    for pips, spots in PIP_SPOTS.items():
        assert len(spots) == pips == len(set(pip_centers(box, pips)))
    assert all(0 < x < 40 and 0 < y < 40 for x, y in pip_centers(box, 6))


# -- images -----------------------------------------------------------------------------------


def test_board_image_of_a_late_game_reads_on_a_phone(finished_game: list[State]) -> None:
    image = render_board(GAME.view(finished_game[-1], None), PLAYERS[:2])
    assert 400 <= image.width <= BOARD_WIDTH
    assert image.height < 700


def test_last_placement_is_highlighted(finished_game: list[State]) -> None:
    state = finished_game[5]
    window = window_for(state.board)
    image = render_board(GAME.view(state, None), PLAYERS[:2]).convert("RGB")
    assert state.last is not None
    last = state.board[state.last]
    row, col, _ = last.squares()[0]
    x0, y0, x1, y1 = window.box(row, col)
    colours = image.crop((x0 + 3, y0 + 3, x1 - 3, y1 - 3)).getcolors(4096) or []
    dominant = max(colours)[1]
    assert dominant[0] > 200 and dominant[1] > 170 and dominant[2] < 150, dominant
    earlier = state.board[1]
    row, col, _ = earlier.squares()[0]
    x0, y0, x1, y1 = window.box(row, col)
    colours = image.crop((x0 + 3, y0 + 3, x1 - 3, y1 - 3)).getcolors(4096) or []
    assert max(colours)[1] != LAST_FILL


def test_hand_shows_both_sides_of_every_tile() -> None:
    state = GAME.new(2, Options(mode="all"), seed=2)
    image = render_hand(GAME.view(state, 0), 0, PLAYERS[:2])
    assert image.width <= 600
    assert len(state.hands[0]) == 10
    assert image.height > 5 * 60


def test_golden_board_at_the_end(finished_game: list[State]) -> None:
    check_golden(render_board(GAME.view(finished_game[-1], None), PLAYERS[:2]), "geominos-end")


def test_golden_board_early_three_players() -> None:
    states = greedy_game(6, players=3)
    check_golden(render_board(GAME.view(states[4], None), PLAYERS), "geominos-early")


def test_golden_hand() -> None:
    state = GAME.new(2, seed=3)
    check_golden(render_hand(GAME.view(state, 1), 1, PLAYERS[:2]), "geominos-hand")
