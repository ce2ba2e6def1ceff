"""Every board and hand reads on a phone: Discord shows an image about 400 px wide there.

At that scale (``rendering.common.phone_px``) every text and number drawn is at least
``MIN_PHONE_TEXT`` px tall (digit and capital height), pips and dots at least ``MIN_PHONE_PIP``
across, and images are ``WIDTH`` (1000) px wide, so they stay sharp when opened full size.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image

from games import registry
from games.ai import greedy_states
from games.puzzominos.targets import get_target
from games.puzzosolo.game import position
from games.puzzosolo.rules import first_solution, format_place
from rendering import geominos, geronimos, triominos
from rendering.base import Renderer
from rendering.common import (
    BOLD,
    MIN_PHONE_PIP,
    MIN_PHONE_TEXT,
    PHONE_WIDTH,
    WIDTH,
    digit_height,
    phone_px,
    recording_text,
)
from rendering.registry import renderer

NAMES = ["Αλέξανδρος", "Дмитрий", "José", "Łukasz"]
Picture = Callable[[Renderer], Image.Image]


def boards(game: str, players: int, seed: int, options: Any = None) -> Iterator[tuple[str, Picture]]:
    """The start, middle and end of a greedy game, and the hand of the seat to act midway."""
    rules = registry.get(game)
    states = greedy_states(rules, players, seed, options)
    names = NAMES[:players]
    for label, state in (("start", states[0]), ("middle", states[len(states) // 2]), ("end", states[-1])):
        view = rules.view(state, None)
        yield f"{game}-{label}", lambda r, view=view: r.board(view, names)
    middle = states[len(states) // 2]
    seat = rules.to_act(middle) or 0
    own = rules.view(middle, seat)
    yield f"{game}-hand", lambda r: r.hand(own, seat, names)


def solo() -> Iterator[tuple[str, Picture]]:
    solution = first_solution(get_target("10x12"))
    state = position("10x12", [format_place(place) for place in solution[:8]])
    yield "puzzosolo-board", lambda r: r.board(state, ["Jamie"])
    yield "puzzosolo-hand", lambda r: r.hand(state, 0, ["Jamie"])


CASES = [
    *boards("geominos", 2, 4, registry.get("geominos").Options(mode="all")),
    *boards("geominos", 4, 6),
    *boards("triominos", 2, 8),
    *boards("triominos", 4, 7),
    *boards("triominos", 6, 3),
    *boards("geronimos", 2, 7),
    *boards("puzzominos", 2, 4),
    *boards("tileup", 3, 3),
    *boards("tileup", 4, 4),
    *solo(),
]


@pytest.mark.parametrize(("name", "picture"), CASES, ids=[name for name, _ in CASES])
def test_every_text_reads_on_a_phone(name: str, picture: Picture) -> None:
    game = name.split("-")[0]
    with recording_text() as drawn:
        image = picture(renderer(game))
    assert image.width == WIDTH
    assert drawn, "nothing written"
    smallest = min(drawn, key=lambda text: text.height)
    assert phone_px(smallest.height, image.width) >= MIN_PHONE_TEXT, smallest


def test_tri_ominos_numbers_measured_in_the_image() -> None:
    """The ink of a tile number, measured in the pixels, is as tall as the threshold asks."""
    rules = registry.get("triominos")
    state = max(greedy_states(rules, 2, 8), key=lambda s: len(s.board))
    image = triominos.draw_board(rules.view(state, None)).convert("L")
    frame = triominos.frame_for([*state.cells, *state.frontier])
    layout, _ = triominos.layout_for(frame)
    reach = triominos.number_size(layout.side) * 0.6
    heights = []
    for cell, _ in state.board:
        if cell == state.last:
            continue
        for index in range(3):
            x, y = layout.number_at(cell, index)
            crop = image.crop(
                (round(x - reach / 2), round(y - reach), round(x + reach / 2), round(y + reach))
            )
            rows = [
                row
                for row in range(crop.height)
                if crop.crop((0, row, crop.width, row + 1)).getextrema()[0] < 50  # type: ignore[index,operator]
            ]
            heights.append(max(rows) - min(rows) + 1)
    assert phone_px(min(heights), image.width) >= MIN_PHONE_TEXT


def test_pips_and_dots_read_on_a_phone() -> None:
    rules = registry.get("geominos")
    full = greedy_states(rules, 2, 4, rules.Options(mode="all"))[-1]
    window = geominos.window_for(full.board)
    assert window.span == 21
    assert phone_px(2 * geominos.pip_radius(window.cell)) >= MIN_PHONE_PIP
    assert phone_px(2 * geominos.pip_radius(geominos.HAND_CELL)) >= MIN_PHONE_PIP
    table = registry.get("geronimos")
    end = greedy_states(table, 2, 7)[-1]
    layout, _ = geronimos.layout_for([*end.tops, *geronimos.frontier(end.tops)])
    for size in (layout.size, geronimos.HAND_HEX):  # a card's numbers are digits, not dots
        assert phone_px(digit_height(geronimos.number_font(size), BOLD)) >= MIN_PHONE_TEXT


def test_the_phone_scale() -> None:
    assert PHONE_WIDTH == 400 and WIDTH >= 1000
    assert phone_px(WIDTH) == PHONE_WIDTH
