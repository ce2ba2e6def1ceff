"""The engine review's pictures: two boards per move that lost (the move played above the
engine's, each under its band), a chart of expected final scores with those moves marked; every
text readable on a phone, 1000 px wide."""

from __future__ import annotations

import io
import warnings

from PIL import Image

from bot.between.review import ReviewBudget, decisions, review_decision, summary
from games import ai, records, registry
from games.records import RecordedMove
from rendering import registry as renderers
from rendering.common import MIN_CONTRAST, MIN_PHONE_TEXT, WIDTH, phone_px, recording_text
from rendering.review import _held, review_pictures
from tests.support import tiny
from tests.support.tiny.renderer import RENDERER

registry.register(tiny.GAME)
renderers.register(RENDERER)


def tiny_review() -> tuple[records.Record, dict[str, object]]:
    """A whole Tiny Tiles game (Αλέξανδρος plays the easy way) and the review of seat 0."""
    game = tiny.GAME
    record = records.new_record(game, ["Αλέξανδρος 🎲", "Дмитрий"], {"hand": 3}, 21)
    _, state = records.start(record)
    movers = [ai.EasyPlayer(2), ai.GreedyPlayer(3)]
    lines = []
    while game.outcome(state) is None:
        seat = game.to_act(state)
        assert seat is not None
        move = movers[seat].choose(game, state)
        lines.append(RecordedMove(seat, game.format_move(state, move)))
        state, _ = game.apply(state, move)
    record = record.with_moves(lines)
    budget = ReviewBudget(playouts=8, worlds=2, least=4)
    found, final, plies = decisions(record, 0)
    reviewed = [review_decision(game, d, 0, 5 + d.ply, 8, 2) for d in found]
    return record, summary(game, 0, list(record.players), reviewed, final, plies, budget)


def test_review_pictures_read_on_a_phone() -> None:
    record, data = tiny_review()
    forced = {**data, "mistakes": [d["ply"] for d in data["decisions"]][:3]}  # type: ignore[index]
    with recording_text() as drawn, warnings.catch_warnings():
        warnings.simplefilter("error")  # a glyph the chart's font lacks (the name's emoji) warns
        moments, chart = review_pictures(record, forced)
    assert len(moments) == len(forced["mistakes"]) == 3  # type: ignore[arg-type]
    for png in [*moments, chart]:
        assert Image.open(io.BytesIO(png)).width == WIDTH
    assert any("The engine would play" in text.text for text in drawn)
    assert any("1 · move" in text.text for text in drawn)
    assert any(text.text == "Αλέξανδρος 🎲 (reviewed)" for text in drawn), "the legend names the reviewed"
    for text in drawn:
        assert phone_px(text.height, text.image_width) >= MIN_PHONE_TEXT, text
        assert text.contrast >= MIN_CONTRAST, text


def test_the_chart_holds_each_expectation_until_the_next() -> None:
    assert _held([(2, 10.0), (5, 14.0)], 7, 20.0) == [10.0, 10.0, 10.0, 10.0, 10.0, 14.0, 14.0, 20.0]
    assert _held([], 3, 9.0) == [9.0, 9.0, 9.0, 9.0]
