"""Tiny Tiles notation: a tile number (``4``), ``draw`` or ``pass``."""

from __future__ import annotations

from games.errors import InvalidMoveError, quote
from tests.support.tiny.state import Move, MoveKind

WORDS = {"draw": MoveKind.DRAW, "pass": MoveKind.PASS}


def parse_move(text: str) -> Move:
    """The move ``text`` names; :class:`InvalidMoveError` when it names none."""
    word = text.lower()
    if word in WORDS:
        return Move(WORDS[word])
    if word.isdigit() and len(word) == 1:
        return Move(MoveKind.PLAY, int(word))
    raise InvalidMoveError(f"{quote(text)} is not a move: write a tile like `4`, `draw` or `pass`.")


def format_move(move: Move) -> str:
    """The canonical notation of ``move``."""
    return str(move.tile) if move.kind is MoveKind.PLAY else move.kind.value
