"""Tile Up! notation: text <-> moves (syntax only; the rules check legality).

Canonical forms: ``goal``, ``tiles``, ``O4@C5``, ``score 2@E6``, ``discard O4``,
``discard goal 3``, ``end``. Relaxed forms: any case and spacing, a space instead of ``@``
(``o4 c5``, ``score 2 e6``), ``2@E6`` without ``score``, ``score 2`` without a square
(the rules accept it when card 2 matches exactly one region), ``draw goal`` / ``card`` for
``goal``, ``draw`` / ``draw tiles`` for ``tiles``, ``discard 3`` / ``discard card 3`` for
``discard goal 3``, ``done`` for ``end``.
"""

from __future__ import annotations

import re

from games.errors import InvalidMoveError
from games.tileup.data import parse_square, parse_tile, square_name
from games.tileup.state import TileUpMove

NOTATION_HELP = (
    "One move per command; a turn ends with `end`. Actions (one a turn): `goal` (draw a goal card), "
    "`tiles` (draw three tiles) or place tiles one at a time like `O4@C5` (tile O4 on square C5; "
    "colours O, B, P; columns A–K, rows 1–11). Score any time in your turn: `score 2@E6` (goal card 2 "
    "with the region holding E6; face-up cards are 1 and 2, yours follow). When over 7 tiles or "
    "3 goal cards after `end`: `discard O4` or `discard goal 3`."
)

_GOAL_WORDS = {"goal", "draw goal", "card", "draw card", "draw goal card", "goal card"}
_TILE_WORDS = {"tiles", "draw", "draw tiles", "draw 3", "draw three", "draw 3 tiles"}
_END_WORDS = {"end", "done", "end turn"}
_PAIR = re.compile(r"^\s*(\S+?)\s*(?:@|\s)\s*(\S+)\s*$")
_DISCARD_GOAL = re.compile(r"^(?:goal|card|g|#)?\s*#?\s*(\d+)$")


def _bad(text: str, why: str) -> InvalidMoveError:
    return InvalidMoveError(f"`{text}`: {why}. {NOTATION_HELP}")


def _square(text: str, raw: str) -> int:
    square = parse_square(raw)
    if square is None:
        raise InvalidMoveError(f"`{text}`: there is no square {raw.upper()}; squares are A1 to K11.")
    return square


def _score(text: str, rest: str) -> TileUpMove:
    alone = rest.strip().lstrip("#")
    if alone.isdigit():
        return TileUpMove("score", card=int(alone))
    match = _PAIR.match(rest)
    if not match or not match.group(1).lstrip("#").isdigit():
        raise _bad(text, "write a score as `score 2@E6` (card number, then a square of the region)")
    return TileUpMove("score", card=int(match.group(1).lstrip("#")), square=_square(text, match.group(2)))


def _discard(text: str, rest: str) -> TileUpMove:
    tile = parse_tile(rest)
    if tile is not None:
        return TileUpMove("discard", tile=tile)
    match = _DISCARD_GOAL.match(rest)
    if match:
        return TileUpMove("discard_goal", card=int(match.group(1)))
    raise _bad(text, "write a discard as `discard O4` (a tile) or `discard goal 3` (a goal card)")


def parse_text(text: str) -> TileUpMove:
    """The move ``text`` writes (a score's square may be any square of the region)."""
    words = " ".join(text.strip().lower().split())
    if not words:
        raise _bad(text, "the move is empty")
    if words in _GOAL_WORDS:
        return TileUpMove("goal")
    if words in _TILE_WORDS:
        return TileUpMove("tiles")
    if words in _END_WORDS:
        return TileUpMove("end")
    if words.startswith("score"):
        return _score(text, words[5:])
    if words.startswith("discard"):
        return _discard(text, words[7:].strip())
    match = _PAIR.match(words)
    if match:
        first, second = match.groups()
        if first.lstrip("#").isdigit():
            return TileUpMove("score", card=int(first.lstrip("#")), square=_square(text, second))
        tile = parse_tile(first)
        if tile is None:
            raise InvalidMoveError(
                f"`{text}`: {first.upper()} is not a tile; a tile is a colour letter (O, B, P) and a number "
                "1–5, like `O4@C5`."
            )
        return TileUpMove("place", tile=tile, square=_square(text, second))
    raise _bad(text, "this is not a move")


def format_move(move: TileUpMove) -> str:
    """The canonical notation of ``move``."""
    if move.kind == "place":
        return f"{move.tile}@{square_name(move.square)}"
    if move.kind == "score":
        return f"score {move.card}@{square_name(move.square)}"
    if move.kind == "discard":
        return f"discard {move.tile}"
    if move.kind == "discard_goal":
        return f"discard goal {move.card}"
    return move.kind
