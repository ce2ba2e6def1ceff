"""Replay charts: matplotlib with the bundled font, round ticks, full legends, board colours."""

from __future__ import annotations

import io

from PIL import Image

from games import registry
from games.puzzominos.solo import first_solution, format_place
from games.puzzominos.targets import get_target
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
    scores = [(0, 0), (5, 0), (5, 6), (11, 6)]
    image = renderer("puzzominos").chart([None] * 4, scores, ["Ann (red)", "Ben (blue)"], "scores")
    assert image.size == (WIDTH, charts.CHART_HEIGHT)
    assert renderer("puzzominos").colour(0) == SEAT_COLOURS[0] == (213, 94, 0)  # Red is vermillion
    red, blue = (colour_count(image, colour) for colour in SEAT_COLOURS)
    assert red > 200 and blue > 200


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
    assert image.size == (WIDTH, charts.CHART_HEIGHT) and summary["moves"] == 6
    assert Image.open(io.BytesIO(gif)).n_frames == 7
