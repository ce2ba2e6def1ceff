"""Player names drawn on images: as written (accents, Greek, Cyrillic), never as empty boxes."""

from __future__ import annotations

import io

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw

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
    text,
    text_width,
)
from rendering.emoji import clusters

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


def test_emoji_are_kept_and_other_scripts_left_out() -> None:
    assert drawable_name("🔥 Kai 🔥", "Player 1") == "🔥 Kai 🔥"
    assert drawable_name("漢字", "Player 3") == "Player 3"
    assert drawable_names(["😀", "ann"]) == ["😀", "ann"]
    assert drawable_name("Zoë 👍🏽🇫🇷", "Player 1") == "Zoë 👍🏽🇫🇷"
    assert not can_draw("🔥") and not can_draw("\u200b")  # the text font has no emoji


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


MIXED = "Zoë 👍🏽 Дмитрий Σοφία 🇵🇱 👩‍💻"


def test_mixed_text_draws_emoji_in_colour_and_every_letter() -> None:
    """A name mixing accents, Cyrillic, Greek and emoji (a skin tone, a flag, a joined
    sequence): the emoji are drawn in colour, each as one picture, and the letters as letters."""
    image = Image.new("RGB", (1000, 90), (255, 255, 255))
    text(ImageDraw.Draw(image), (10, 45), MIXED, TEXT.body, (0, 0, 0), anchor="lm")
    data = image.tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    coloured = sum(1 for r, g, b in pixels if max(r, g, b) - min(r, g, b) > 80)
    assert coloured > 300, "the emoji are in colour"
    pieces = [piece for piece, is_emoji in clusters(MIXED) if is_emoji]
    assert pieces == ["👍🏽", "🇵🇱", "👩\u200d💻"]
    letters = "".join(piece for piece, is_emoji in clusters(MIXED) if not is_emoji)
    blank = Image.new("RGB", (1000, 90), (255, 255, 255))
    text(ImageDraw.Draw(blank), (10, 45), letters, TEXT.body, (0, 0, 0), anchor="lm")
    assert blank.getbbox() is not None
    for char in letters.replace(" ", ""):
        assert can_draw(char), char
    one = text_width("👍🏽", TEXT.body)
    assert one < 2 * text_width("M", TEXT.body), "a skin-toned emoji is one picture, not two"


def test_a_final_board_renders_with_mixed_names() -> None:
    game = registry.get("puzzominos")
    from games.ai import greedy_states

    final = greedy_states(game, 2, 4)[-1]
    png = renderers.board_png("puzzominos", game.view(final, None), [MIXED, "Σοφία"])
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size[0] == 1000
