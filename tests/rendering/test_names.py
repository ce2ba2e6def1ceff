"""Player names drawn on images: only what the bundled font can draw, never empty boxes."""

from __future__ import annotations

import io

from PIL import Image

from games import registry
from rendering import registry as renderers
from rendering.common import can_draw, drawable_name, drawable_names


def test_plain_names_are_kept() -> None:
    assert drawable_name("alice_99", "Player 1") == "alice_99"
    assert drawable_name("Bob · the builder", "Player 2") == "Bob · the builder"


def test_accents_the_font_lacks_are_folded() -> None:
    assert not can_draw("é")
    assert drawable_name("José Ñúñez", "Player 1") == "Jose Nunez"
    assert drawable_name("Zoë", "Player 1") == "Zoe"


def test_emoji_and_other_scripts_are_left_out_or_replaced() -> None:
    assert drawable_name("🔥 Kai 🔥", "Player 1") == "Kai"
    assert drawable_name("漢字", "Player 3") == "Player 3"
    assert drawable_names(["😀", "ann"]) == ["Player 1", "ann"]


def test_a_board_renders_with_such_names() -> None:
    game = registry.get("triominos")
    state = game.new(2, game.Options(), seed=3)
    png = renderers.board_png("triominos", game.view(state, None), ["Zoë 🎲", "李"])
    assert Image.open(io.BytesIO(png)).size[0] >= 400
