"""The renderer of the test-only Tiny Tiles game (what ``rendering/<game>.py`` is for a shipped one)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from rendering.base import Renderer
from rendering.common import TEXT, THEME, WIDTH, ScoreLine, score_strip, stack_vertically, text


class TinyRenderer(Renderer):
    """The board (last tile and deck size) and a hand (the tiles held)."""

    game = "tiny"

    def board(self, view: Any, players: Sequence[str]) -> Image.Image:
        board = Image.new("RGB", (WIDTH, 120), THEME.background)
        text(ImageDraw.Draw(board), (10, 40), f"last {view.last} deck {view.deck_size}", TEXT.body, THEME.ink)
        lines = [ScoreLine(name, score) for name, score in zip(players, view.scores, strict=True)]
        return stack_vertically([board, score_strip(WIDTH, lines, view.to_act)])

    def hand(self, view: Any, seat: int, players: Sequence[str]) -> Image.Image:
        image = Image.new("RGB", (WIDTH, 60), THEME.background)
        held = " ".join(map(str, view.hands[seat] or ()))
        text(ImageDraw.Draw(image), (10, 10), held, TEXT.body, THEME.ink)
        return image


RENDERER = TinyRenderer()
