"""Every picture reads on a phone: Discord shows an image about 400 px wide there.

Every picture kind is drawn (boards of every game early, midway and at the end, the final
pictures, hands of every game, the solitaire playing, solved and given up, the frames of a
replay, the charts) and every text drawn on it is recorded with the colour it was drawn over
(the pixels under its ink, measured as it is drawn; a chart's texts are measured in the chart's
pixels). Scaled to 400 px wide (``rendering.common.phone_px``) every text is at least
``MIN_PHONE_TEXT`` px tall (digit and capital height) with a contrast of at least
``MIN_CONTRAST`` to what is behind it, and pips and dots are at least ``MIN_PHONE_PIP``
across; pictures are ``WIDTH`` (1000) px wide, so they stay sharp when opened full size.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image, ImageSequence

from games import registry
from games.ai import greedy_states
from games.puzzominos.targets import get_target
from games.puzzosolo import GAME as SOLO
from games.puzzosolo.game import position
from games.puzzosolo.rules import first_solution, format_place
from games.puzzosolo.state import GIVE_UP
from games.records import new_record
from rendering import geominos, geronimos, triominos
from rendering.base import Renderer
from rendering.common import (
    BOLD,
    MIN_CONTRAST,
    MIN_PHONE_PIP,
    MIN_PHONE_TEXT,
    PHONE_WIDTH,
    WIDTH,
    DrawnText,
    digit_height,
    phone_px,
    recording_text,
)
from rendering.registry import renderer
from rendering.replay import replay_files

NAMES = ["Αλέξανδρος 🎲", "Дмитрий", "José (normal)", "Łukasz 🇵🇱"]
Picture = Callable[[Renderer], Image.Image]
GAMES = {
    "geominos": (3, 6, None),
    "triominos": (3, 7, None),
    "geronimos": (2, 7, None),
    "puzzominos": (2, 4, None),
    "tileup": (4, 4, None),
}


def states_of(game: str, players: int, seed: int, options: Any = None) -> list[Any]:
    return greedy_states(registry.get(game), players, seed, options)


def pictures(game: str, players: int, seed: int, options: Any = None) -> Iterator[tuple[str, Picture]]:
    """The board early, midway and at its end (the final picture), and hands early and midway."""
    rules = registry.get(game)
    states = states_of(game, players, seed, options)
    names = NAMES[:players]
    for label, index in (("early", min(2, len(states) - 1)), ("middle", len(states) // 2), ("end", -1)):
        view = rules.view(states[index], None)
        yield f"{game}-{label}", lambda r, view=view: r.board(view, names)
    for label, index in (("hand-early", min(2, len(states) - 1)), ("hand-middle", len(states) // 2)):
        state = states[index]
        seat = rules.to_act(state) or 0
        own = rules.view(state, seat)
        yield f"{game}-{label}", lambda r, own=own, seat=seat: r.hand(own, seat, names)
    views = [rules.view(state, None) for state in states]
    scores = [tuple(rules.scores(state)) for state in states]
    yield f"{game}-chart", lambda r: r.chart(views, scores, names, f"{rules.title} · scores")


def solo() -> Iterator[tuple[str, Picture]]:
    solution = [format_place(place) for place in first_solution(get_target("10x12"))]
    playing = position("10x12", solution[:8])
    solved = position("10x12", solution)
    gave_up, _ = SOLO.apply(playing, GIVE_UP)
    names = ["Jamie 🧩"]
    yield "puzzosolo-board", lambda r: r.board(playing, names)
    yield "puzzosolo-solved", lambda r: r.board(solved, names)
    yield "puzzosolo-gave-up", lambda r: r.board(gave_up, names)
    yield "puzzosolo-hand", lambda r: r.hand(playing, 0, names)
    views = [position("10x12", solution[:count]) for count in range(len(solution) + 1)]
    yield "puzzosolo-chart", lambda r: r.chart(views, [(0,)] * len(views), names, "solitaire")


CASES = [
    *(
        case
        for game, (players, seed, options) in GAMES.items()
        for case in pictures(game, players, seed, options)
    ),
    *pictures("geominos", 2, 4, registry.get("geominos").Options(mode="all")),
    *pictures("triominos", 6, 3),
    *solo(),
]


def worst(drawn: list[DrawnText], width: int) -> tuple[DrawnText, DrawnText]:
    """The smallest text and the text of least contrast."""
    assert drawn, "nothing written"
    return min(drawn, key=lambda t: t.height), min(drawn, key=lambda t: t.contrast)


@pytest.mark.parametrize(("name", "picture"), CASES, ids=[name for name, _ in CASES])
def test_every_text_reads_on_a_phone(name: str, picture: Picture) -> None:
    game = name.split("-")[0]
    with recording_text() as drawn:
        image = picture(renderer(game))
    assert image.width == WIDTH
    smallest, faintest = worst(drawn, image.width)
    assert phone_px(smallest.height, image.width) >= MIN_PHONE_TEXT, smallest
    assert faintest.contrast >= MIN_CONTRAST, faintest


@pytest.mark.parametrize("game", ["triominos", "tileup"])
def test_replay_frames_are_the_boards_at_full_size(game: str) -> None:
    """A replay's frames are the boards themselves, full width (as sharp as a board and as
    legible: the same texts at the same scale), and every text drawn for them reads."""
    rules = registry.get(game)
    players, seed, options = GAMES[game]
    states = states_of(game, players, seed, options)
    moves = _record_of(rules, players, seed)
    with recording_text() as drawn:
        animation, _, _ = replay_files(moves)
    frames = [frame.convert("RGB") for frame in ImageSequence.Iterator(Image.open(io.BytesIO(animation)))]
    assert len(frames) > 2 and frames[0].width == WIDTH
    smallest, faintest = worst(drawn, WIDTH)
    assert phone_px(smallest.height) >= MIN_PHONE_TEXT, smallest
    assert faintest.contrast >= MIN_CONTRAST, faintest
    last = frames[-1]
    final = renderer(game).board(rules.view(states[-1], None), NAMES[:players]).convert("RGB")
    assert last.size == final.size
    assert _mean_difference(last, final) < 2.0, "the last frame is the final board, unblurred"


def _record_of(rules: Any, players: int, seed: int) -> Any:
    """The record of the greedy game (its moves in notation, with the seat of each)."""
    from games.ai import GreedyPlayer
    from games.records import RecordedMove

    state = rules.new(players, None, seed=seed)
    player = GreedyPlayer(seed)
    moves = []
    while (seat := rules.to_act(state)) is not None:
        move = player.choose(rules, state)
        moves.append(RecordedMove(seat, rules.format_move(state, move)))
        state, _ = rules.apply(state, move)
    return new_record(rules, NAMES[:players], {}, seed).with_moves(moves)


def _mean_difference(a: Image.Image, b: Image.Image) -> float:
    from PIL import ImageChops, ImageStat

    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


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


def test_pips_measured_in_the_hand_image() -> None:
    """The pips of a Geominos hand's tiles, measured in their pixels (each dark dot's width),
    at the scale of the hand picture (``WIDTH`` wide)."""
    rules = registry.get("geominos")
    state = rules.new(2, None, seed=4)
    hand = geominos.render_hand(rules.view(state, 0), 0, ["Ann", "Ben"])
    assert hand.width == WIDTH
    widths = []
    for tile in state.hands[0]:
        for side in ("A", "B"):
            widths += _dot_widths(geominos._pose_image(tile, side, (0, 114, 178)).convert("L"))
    assert len(widths) >= 20 and phone_px(min(widths), hand.width) >= MIN_PHONE_PIP


def _dot_widths(image: Image.Image) -> list[int]:
    """The widths of the small dark blobs (pips) of ``image``: runs of dark pixels along rows
    through each blob's middle, outlines (long runs) left out."""
    dark = image.point(lambda v: 255 if v < 90 else 0)
    widths = []
    pixels = dark.load()
    assert pixels is not None
    seen: set[tuple[int, int]] = set()
    for y in range(dark.height):
        x = 0
        while x < dark.width:
            if pixels[x, y] and (x, y) not in seen:
                start = x
                while x < dark.width and pixels[x, y]:
                    x += 1
                run = x - start
                if 2 <= run <= 40 and _is_blob(pixels, start, x, y, dark.height):
                    widths.append(run)
                    seen.update((i, j) for i in range(start - 2, x + 2) for j in range(y, y + run + 2))
            x += 1
    return widths


def _is_blob(pixels: Any, left: int, right: int, y: int, height: int) -> bool:
    """True when the run is a dot's widest row: the rows above and below are no wider."""
    middle = (left + right) // 2
    top = y
    while top > 0 and pixels[middle, top - 1]:
        top -= 1
    bottom = y
    while bottom + 1 < height and pixels[middle, bottom + 1]:
        bottom += 1
    tall = bottom - top + 1
    return abs(tall - (right - left)) <= 2 and y == (top + bottom) // 2


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


def test_the_phone_scale() -> None:
    assert PHONE_WIDTH == 400 and WIDTH >= 1000
    assert phone_px(WIDTH) == PHONE_WIDTH
    assert MIN_PHONE_TEXT >= 7.5 and MIN_PHONE_PIP >= 4 and MIN_CONTRAST >= 4.5
