"""PNG encoding (``rendering.common.to_png``): lossless, so a picture a player receives is exactly
the picture drawn, and every golden-image and phone-scale check made on drawn images holds for
the files sent too."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from games.puzzosolo import GAME
from games.puzzosolo.game import position
from rendering.common import PNG_SIGNATURE, to_png
from rendering.registry import board_png, hand_png
from tests.support.golden import GOLDEN, check_golden

MODES = ["RGB", "RGBA", "L", "P", "LA", "1"]


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@settings(max_examples=60, deadline=None)
@given(
    mode=st.sampled_from(MODES),
    width=st.integers(1, 40),
    height=st.integers(1, 30),
    seed=st.binary(min_size=1, max_size=64),
)
def test_any_image_comes_back_exactly(mode: str, width: int, height: int, seed: bytes) -> None:
    pixels = (seed * (width * height * 4 // len(seed) + 1))[: width * height * 4]
    image = Image.frombytes("RGBA", (width, height), pixels).convert(mode)
    data = to_png(image)
    assert data.startswith(PNG_SIGNATURE)
    back = decoded(data)
    assert (back.mode, back.size) == (image.mode, image.size)
    assert back.tobytes() == image.tobytes()
    if mode == "P":
        assert back.getpalette() == image.getpalette()


def test_a_file_pillow_verifies() -> None:
    image = Image.linear_gradient("L").convert("RGB").resize((300, 200))
    data = to_png(image)
    Image.open(io.BytesIO(data)).verify()  # chunk CRCs, structure
    assert decoded(data).tobytes() == image.tobytes()


@pytest.mark.parametrize("name", sorted(path.stem for path in GOLDEN.glob("*.png")))
def test_golden_pictures_survive_encoding(name: str) -> None:
    """Every golden picture (boards and hands of every game, as the renderers drew them), sent
    through the encoder, is pixel for pixel the same: the golden checks hold for what is sent."""
    drawn = Image.open(GOLDEN / f"{name}.png").convert("RGB")
    sent = decoded(to_png(drawn))
    assert sent.tobytes() == drawn.tobytes()
    check_golden(sent, name, tolerance=1e-9)


def test_the_files_the_bot_sends_are_the_drawn_pictures() -> None:
    """The PNG functions the bot calls, against the golden images (the solitaire's, as
    tests/rendering/test_puzzosolo.py draws them), with the golden tests' tolerance."""
    state = position("6x10", ["Fr3@A1", "Ir0@B1", "Nr0f@D2", "Lr2@E2", "Yr2@A3"])
    state, _ = GAME.apply(state, GAME.parse_move(state, "hint Xr0@B3"))
    check_golden(decoded(board_png("puzzosolo", state, ["Alice"])).convert("RGB"), "puzzosolo-board")
    check_golden(decoded(hand_png("puzzosolo", state, 0, ["Alice"])).convert("RGB"), "puzzosolo-hand")
