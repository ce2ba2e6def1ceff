"""Geominos rendering: window and pixel maths, dot layout, the last placement, golden images."""

from __future__ import annotations

import itertools

import pytest

from games.ai import greedy_states
from games.geominos import GAME, Options, State
from games.geominos.board import is_light
from games.geominos.state import Placed
from rendering.common import THEME, WIDTH
from rendering.geominos import (
    DARK,
    LABEL,
    LAST_FILL,
    PIP_SPOTS,
    SPANS,
    Window,
    pip_centers,
    render_board,
    render_hand,
    section_fill,
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
    window = Window(top=4, left=2, span=11, cell=30)
    x0, y0 = window.origin
    assert (x0, y0) == ((WIDTH - 330) // 2, LABEL)
    assert window.box(4, 2) == (x0, y0, x0 + 30, y0 + 30)
    assert window.box(5, 4) == (x0 + 60, y0 + 30, x0 + 90, y0 + 60)
    assert window.size == (WIDTH, 11 * 30 + 2 * LABEL)
    assert window.shows(14, 12) and not window.shows(15, 12) and not window.shows(4, 1)


def test_window_of_the_start_is_the_smallest_around_the_center() -> None:
    state = GAME.new(2, seed=1)
    window = window_for(state.board)
    assert window.rows == window.cols == SPANS[0]
    assert window.shows(10, 10)
    assert window.size[0] == WIDTH
    assert window.cell == (WIDTH - 2 * LABEL) // SPANS[0]


def test_window_grows_in_steps_and_stays_on_the_board() -> None:
    middle = window_for([Placed("Chair", "A", 0, 9, 9, None), Placed("Hammer", "A", 0, 6, 6, 0)])
    assert middle.span == 15  # rows and columns 6-12 plus 3 on each side: 13 squares
    assert middle.shows(3, 3) and middle.shows(15, 15)
    far = Placed("Hammer", "A", 0, 0, 0, 0)
    window = window_for([far, Placed("Chair", "A", 0, 9, 9, None)])
    assert (window.top, window.left, window.span) == (0, 0, 21)  # the whole board
    assert window.size[0] == WIDTH


def test_domino_dots() -> None:
    box = (0, 0, 40, 40)
    assert pip_centers(box, 1) == [(20.0, 20.0)]
    for pips, spots in PIP_SPOTS.items():
        assert len(spots) == pips == len(set(pip_centers(box, pips)))
    assert all(0 < x < 40 and 0 < y < 40 for x, y in pip_centers(box, 6))


# -- images -----------------------------------------------------------------------------------


def test_late_game_board_shows_all_21_rows(finished_game: list[State]) -> None:
    window = window_for(finished_game[-1].board)
    assert (window.top, window.left, window.span) == (0, 0, 21)
    image = render_board(GAME.view(finished_game[-1], None), PLAYERS[:2])
    assert image.width == WIDTH and 1000 <= image.height < 1400


def test_center_tile_outline_shows_on_dark_squares() -> None:
    state = GAME.new(2, seed=1)
    window = window_for(state.board)
    image = render_board(GAME.view(state, None), PLAYERS[:2]).convert("RGB")
    center = state.board[0]
    for row, col, _ in center.squares():
        if not is_light(row, col):
            x0, y0, x1, y1 = window.box(row, col)
            edge = [image.getpixel((x, y0 + 1)) for x in range(x0 + 2, x1 - 2)]
            edge += [image.getpixel((x0 + 1, y)) for y in range(y0 + 2, y1 - 2)]
            assert any(sum(pixel) < 150 for pixel in edge)  # type: ignore[arg-type]
            break
    else:
        pytest.skip("the center tile lies on light squares only")


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
    assert image.width == WIDTH
    assert len(state.hands[0]) == 10
    assert image.height > 5 * 150


def test_golden_board_at_the_end(finished_game: list[State]) -> None:
    check_golden(render_board(GAME.view(finished_game[-1], None), PLAYERS[:2]), "geominos-end")


def test_golden_board_early_three_players() -> None:
    states = greedy_game(6, players=3)
    check_golden(render_board(GAME.view(states[4], None), PLAYERS), "geominos-early")


def test_golden_hand() -> None:
    state = GAME.new(2, seed=3)
    check_golden(render_hand(GAME.view(state, 1), 1, PLAYERS[:2]), "geominos-hand")


def _distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5


def test_players_stay_apart_on_light_and_dark_squares() -> None:
    """Every two players' sections differ clearly over either kind of square, and a section
    over a dark square is not the grey of an empty one."""
    for light in (True, False):
        fills = [section_fill(light, THEME.player(seat), last=False) for seat in range(4)]
        for a, b in itertools.combinations(fills, 2):
            assert _distance(a, b) > 40, (light, a, b)
    for seat in range(4):
        assert _distance(section_fill(False, THEME.player(seat), last=False), DARK) > 40


def test_center_tile_pips_contrast_with_its_fill() -> None:
    for light in (True, False):
        fill = section_fill(light, None, last=False)
        ink = THEME.ink if light else (255, 255, 255)
        assert _distance(fill, ink) > 120
