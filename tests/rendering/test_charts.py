"""Replay charts: matplotlib with the bundled font, round ticks, full legends, board colours."""

from __future__ import annotations

import io

from PIL import Image

from games import registry
from games.puzzominos.targets import get_target
from games.puzzosolo.rules import first_solution, format_place
from games.records import new_record
from rendering import charts
from rendering.common import WIDTH, font_path
from rendering.puzzominos import SEAT_COLOURS
from rendering.registry import renderer
from rendering.replay import replay_files


def colour_count(image: Image.Image, colour: tuple[int, int, int]) -> int:
    return sum(count for count, pixel in image.getcolors(1 << 20) or [] if pixel == colour)


def test_ticks_are_round() -> None:
    for low, high in ((0, 87), (-12, 431), (0, 12), (0, 1), (-3, 3)):
        ticks = charts._ticks(low, high)
        assert len(ticks) >= 2 and all(low <= tick <= high for tick in ticks)
        step = ticks[1] - ticks[0]
        assert step in {1, 2, 5, 10, 20, 50, 100, 200, 500}
        assert all(tick % step == 0 for tick in ticks)


def test_charts_use_the_bundled_font() -> None:
    assert charts._font(10).get_file() == str(font_path())


def test_puzzominos_chart_draws_red_and_blue_in_their_board_colours() -> None:
    """Each player's line has the colour they played (the coin decides which seat is Red)."""
    game = registry.get("puzzominos")
    scores = [(0, 0), (5, 0), (5, 6), (11, 6), (12, 30)]
    assert SEAT_COLOURS[0] == (190, 80, 0)  # Red is (darkened) vermillion
    for red_seat in (0, 1):
        view = next(state for seed in range(40) if (state := game.new(2, seed=seed)).red == red_seat)
        image = renderer("puzzominos").chart([view] * 5, scores, ["Ann", "Ben"], "scores")
        assert image.size == (WIDTH, charts.CHART_HEIGHT)
        low, high = (colour_count(image, SEAT_COLOURS[view.colour(seat)]) for seat in (0, 1))
        assert low > 200 and high > low, "Ben's longer line is in the colour Ben played"


def test_long_names_keep_their_start_in_the_legend() -> None:
    assert charts._legend_name("Ærøskøbing Łukasz") == "Ærøskøbing Łukasz"
    long = charts._legend_name("x" * 40)
    assert len(long) == charts.LEGEND_NAME and long.endswith("…")


def test_a_solitaire_replay_charts_the_pieces_placed() -> None:
    game = registry.get("puzzosolo")
    record = new_record(game, ["Jamie"], {"target": "6x10"}, None)
    for index, place in enumerate(first_solution(get_target("6x10"))[:6]):
        record = record.with_move(0, ("hint " if index == 2 else "") + format_place(place))
    gif, chart, summary = replay_files(record)
    image = Image.open(io.BytesIO(chart)).convert("RGB")
    assert image.size == (WIDTH, charts.CHART_HEIGHT) and summary.moves == 6
    assert Image.open(io.BytesIO(gif)).n_frames == 7
