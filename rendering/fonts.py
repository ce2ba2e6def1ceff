"""The text font: Noto Sans (OFL), shipped as the ``fontpkg-noto-sans`` package dependency and
found through ``fontpkg`` without any network or system font, and the characters it covers
(used by :mod:`rendering.common` to draw and by :mod:`rendering.emoji` to tell text from emoji)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import fontpkg
from fontTools.ttLib import TTFont

FAMILY = "Noto Sans"


@lru_cache(maxsize=1)
def font_path() -> Path:
    """The bundled Noto Sans font file (a variable font: weight and width axes)."""
    return fontpkg.path(FAMILY)


@lru_cache(maxsize=1)
def covered() -> frozenset[int]:
    """The code points the font has a glyph for."""
    with TTFont(str(font_path()), lazy=True) as face:
        return frozenset(face.getBestCmap())
