"""One explicit list of renderers, registered by type; the bot's PNG functions."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import pytest
from PIL import Image

from games import registry as games
from games.errors import UnknownGameError
from rendering import registry
from rendering.base import Renderer


class Blank(Renderer):
    game = "blank"

    def board(self, view: Any, players: Sequence[str]) -> Image.Image:
        return Image.new("RGB", (1000, 100), (255, 255, 255))

    def hand(self, view: Any, seat: int, players: Sequence[str]) -> Image.Image:
        return Image.new("RGB", (1000, 50), (255, 255, 255))


def test_every_shipped_game_has_its_renderer() -> None:
    assert {renderer.game for renderer in registry.SHIPPED} == set(games.shipped_names())
    for renderer in registry.SHIPPED:
        assert registry.renderer(renderer.game) is renderer


def test_unknown_games_fail_loudly() -> None:
    with pytest.raises(UnknownGameError, match="No renderer"):
        registry.renderer("chess")
    with pytest.raises(TypeError):
        registry.register("blank")  # type: ignore[arg-type]


def test_a_renderer_must_draw_boards_and_hands() -> None:
    class Half(Renderer):
        game = "half"

        def board(self, view: Any, players: Sequence[str]) -> Image.Image:
            return Image.new("RGB", (1, 1))

    with pytest.raises(TypeError):
        Half()  # type: ignore[abstract]


def test_tests_register_their_own_renderers() -> None:
    registry.register(Blank())
    try:
        png = registry.board_png("blank", None, ["Zoë 🎲"])
        assert Image.open(io.BytesIO(png)).size == (1000, 100)
        assert Image.open(io.BytesIO(registry.hand_png("blank", None, 0, ["a"]))).size == (1000, 50)
    finally:
        registry.unregister("blank")
    with pytest.raises(UnknownGameError):
        registry.renderer("blank")
