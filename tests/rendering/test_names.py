"""Player names drawn on images: as written (accents, Greek, Cyrillic), never as empty boxes."""

from __future__ import annotations

import io

import pytest
from fontTools.ttLib import TTFont
from PIL import Image

from games import registry
from rendering import registry as renderers
from rendering.common import (
    BOLD,
    TEXT,
    can_draw,
    drawable_name,
    drawable_names,
    font,
    font_path,
    shorten,
    tagged_name,
    text_width,
)

NAMES = ["José", "Ærøskøbing", "Łukasz", "Дмитрий", "Αλέξανδρος", "Zoë Ñúñez", "Đặng Thị"]


@pytest.fixture(scope="module")
def cmap() -> dict[int, str]:
    with TTFont(str(font_path()), lazy=True) as face:
        return dict(face.getBestCmap())


def test_the_font_is_the_bundled_noto_sans() -> None:
    assert font_path().name.startswith("NotoSans[")
    assert font(20).getname()[0] == "Noto Sans"


@pytest.mark.parametrize("name", NAMES)
def test_names_are_kept_as_written(name: str) -> None:
    assert drawable_name(name, "Player 1") == name


@pytest.mark.parametrize("name", NAMES)
def test_every_letter_has_a_real_glyph(name: str, cmap: dict[int, str]) -> None:
    """Each letter is in the font's character map, and drawn it differs from the empty box
    (the glyph drawn for a character the font lacks)."""
    face = font(40)
    missing = bytes(face.getmask("\ue000"))  # private use: the empty box
    for char in name.replace(" ", ""):
        assert ord(char) in cmap, char
        assert cmap[ord(char)] != ".notdef"
        assert bytes(face.getmask(char)) != missing, char


def test_emoji_and_other_scripts_are_left_out_or_replaced() -> None:
    assert drawable_name("🔥 Kai 🔥", "Player 1") == "Kai"
    assert drawable_name("漢字", "Player 3") == "Player 3"
    assert drawable_names(["😀", "ann"]) == ["Player 1", "ann"]
    assert not can_draw("🔥") and not can_draw("\u200b")


def test_decomposed_accents_are_composed() -> None:
    assert drawable_name("Jose\u0301", "Player 1") == "José"


def test_long_names_are_shortened_with_an_ellipsis_keeping_the_tag() -> None:
    name = "Bartholomew Featherstonehaugh-Cholmondeley"
    short = tagged_name(name, "Red", TEXT.body, 400)
    assert short.endswith("… (Red)") and short.startswith("Bartholomew")
    assert text_width(short, TEXT.body) <= 400
    assert shorten("Ann", TEXT.body, 400, BOLD) == "Ann"


def test_a_board_renders_with_such_names() -> None:
    game = registry.get("triominos")
    state = game.new(3, game.Options(), seed=3)
    png = renderers.board_png("triominos", game.view(state, None), ["Zoë 🎲", "李", "Дмитрий"])
    assert Image.open(io.BytesIO(png)).size[0] == 1000
