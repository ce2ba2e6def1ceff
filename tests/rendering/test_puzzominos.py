"""Puzz-Ominos rendering: layout maths, image sizes, the last-turn highlight, a golden image."""

from __future__ import annotations

import pytest

from games.ai import GreedyPlayer, greedy_states
from games.core import Outcome
from games.puzzominos import GAME
from games.puzzominos.state import State as PuzzState
from rendering.common import BOLD, CONDENSED, TEXT, WIDTH, px, recording_text, text_width, verdict
from rendering.puzzominos import (
    HAND_CELL,
    LABEL_LEFT,
    MAX_CELL,
    MIN_SPAN,
    PAD,
    SEAT_COLOURS,
    Layout,
    board_image,
    hand_slot,
    layout_for,
    render_board,
    render_hand,
)
from tests.support.golden import check_golden

PLAYERS = ["Alice", "Bob"]


def late_game(seed: int = 4, plies: int = 24) -> PuzzState:
    state = GAME.new(2)
    player = GreedyPlayer(seed)
    while GAME.to_act(state) is not None and len(state.placements) < plies:
        state, _ = GAME.apply(state, player.choose(GAME, state))
    return state


@pytest.fixture(scope="module")
def state() -> PuzzState:
    return late_game()


def test_layout_cell_to_pixel() -> None:
    layout = Layout(min_x=-3, min_y=-2, cols=10, rows=8, cell=40)
    left, top = layout.left, layout.top
    assert left == LABEL_LEFT + (WIDTH - LABEL_LEFT - PAD - 400) // 2
    assert layout.cell_box((-3, -2)) == (left, top, left + 40, top + 40)
    assert layout.cell_box((0, 0)) == (left + 120, top + 80, left + 160, top + 120)
    assert layout.cell_center((1, 1)) == (left + 180, top + 140)
    assert layout.height == top + 320 + PAD
    assert layout.label_step() == 1


def test_layout_fits_the_played_area_with_a_margin_in_whole_steps() -> None:
    layout = layout_for([(0, 0), (20, 3), (-5, 12)])
    assert (layout.min_x, layout.min_y) == (-6, -1)
    assert layout.cols == 28 and layout.rows == 16  # 28 and 15, widened to whole steps
    assert layout.left + layout.cols * layout.cell <= WIDTH
    assert layout_for([(0, 0), (20, 3), (-5, 13)]) == layout  # one row more: the same size
    small = layout_for([])
    assert small.cols == small.rows == MIN_SPAN and small.cell == MAX_CELL


def test_tall_layout_limits_height_and_labels_fewer_coordinates() -> None:
    layout = layout_for([(0, 0), (0, 60)])
    assert layout.height <= 1160
    step = layout.label_step()
    bottom = str(layout.min_y + layout.rows - 1)
    assert step > 1 and step * layout.cell >= text_width(bottom, TEXT.small, BOLD, CONDENSED)


def test_board_and_hand_sizes(state: PuzzState) -> None:
    board = render_board(state, PLAYERS)
    assert board.mode == "RGB" and board.width == WIDTH and 600 < board.height < 1400
    hand = render_hand(state, 1, PLAYERS)
    assert hand.mode == "RGB" and hand.width == WIDTH
    assert render_hand(GAME.new(2), 0, PLAYERS).height > render_hand(state, 0, PLAYERS).height


def test_last_turn_is_highlighted(state: PuzzState) -> None:
    layout = layout_for(state.occupied)
    image = board_image(state, layout)
    last = state.last_turn[-1]
    older = next(p for p in state.placements if p.seat == last.seat and p not in state.last_turn)

    def inner_pixel(cells: tuple[tuple[int, int], ...]) -> tuple[int, int, int]:
        for cell in cells:
            x0, y0, _, _ = layout.cell_box(cell)
            pixel = image.getpixel((x0 + layout.cell // 4, y0 + layout.cell // 4))
            assert isinstance(pixel, tuple)
            return (pixel[0], pixel[1], pixel[2])
        raise AssertionError

    assert inner_pixel(older.cells) == SEAT_COLOURS[older.colour]
    highlighted = inner_pixel(last.cells)
    assert highlighted != SEAT_COLOURS[last.colour]
    assert sum(highlighted) > sum(SEAT_COLOURS[last.colour])  # tinted lighter


def test_hand_shows_pieces_in_r0(state: PuzzState) -> None:
    image = render_hand(GAME.new(2), 0, PLAYERS)
    x0, y0, x1, _ = hand_slot(1)  # I: five squares in a row, centred
    middle = ((x0 + x1) // 2, y0 + px(3) + 2 * HAND_CELL + HAND_CELL // 2)
    assert image.getpixel(middle) == SEAT_COLOURS[0]


def test_golden_board(state: PuzzState) -> None:
    check_golden(render_board(state, PLAYERS), "puzzominos-board")


def test_golden_hand(state: PuzzState) -> None:
    check_golden(render_hand(state, 0, PLAYERS), "puzzominos-hand")


def test_colours_follow_the_coin_flip() -> None:
    """When the coin flip makes the second seat Red, its pieces and hand are drawn in red."""
    state = GAME.new(2, deal=[1])
    state, _ = GAME.apply(state, GAME.parse_move(state, "Ir0@0,0"))
    assert state.placements[0].seat == 1 and SEAT_COLOURS[state.placements[0].colour] == SEAT_COLOURS[0]
    image = render_hand(state, 0, PLAYERS)
    x0, y0, x1, _ = hand_slot(0)  # F: its middle square
    assert image.getpixel(((x0 + x1) // 2, y0 + 6 + 2 * HAND_CELL + HAND_CELL // 2)) == SEAT_COLOURS[1]


def test_game_over_strip_names_the_winner() -> None:
    """The end strip says who won, not only why the game ended."""
    final = greedy_states(GAME, 2, 4)[-1]
    outcome = GAME.outcome(final)
    assert outcome is not None and len(outcome.winners) == 1
    with recording_text() as drawn:
        render_board(GAME.view(final, None), PLAYERS)
    winner = PLAYERS[outcome.winners[0]]
    texts = [item.text for item in drawn]
    assert f"🏆 {winner} wins" in texts
    assert any(text.startswith("Puzz-Ominos · game over: ") for text in texts)


def test_verdict_words() -> None:
    names = ["Ann", "Ben"]
    won = Outcome(scores=(3, 1), ranks=(1, 2), reason="x")
    assert verdict(won, names) == "Ann wins"
    drawn = Outcome(scores=(2, 2), ranks=(1, 1), reason="x")
    assert verdict(drawn, names) == "a draw between Ann and Ben"
    resigned = Outcome(scores=(0, 0), ranks=(1, 1), reason="x", forfeited=frozenset({0, 1}))
    assert verdict(resigned, names) == "nobody wins"
