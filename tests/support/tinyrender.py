"""A renderer for the test-only Tiny Tiles game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import THEME, ScoreLine, score_strip, stack_vertically


def render_board(view: Any, players: Sequence[str]) -> Image.Image:
    board = Image.new("RGB", (300, 120), THEME.background)
    ImageDraw.Draw(board).text((10, 40), f"last {view.last} deck {view.deck_size}", fill=THEME.ink)
    lines = [ScoreLine(name, score) for name, score in zip(players, view.scores, strict=True)]
    return stack_vertically([board, score_strip(300, lines, view.to_act)])


def render_hand(view: Any, seat: int, players: Sequence[str]) -> Image.Image:
    image = Image.new("RGB", (200, 60), THEME.background)
    ImageDraw.Draw(image).text((10, 20), " ".join(map(str, view.hands[seat] or ())), fill=THEME.ink)
    return image
