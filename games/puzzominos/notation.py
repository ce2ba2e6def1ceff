"""Two-player notation: ``Lr1f@3,-2`` (piece, orientation, top-left of the placed bounding box).

Accepted forms (any case, spaces optional): ``L r1f @3,-2``, ``Lr1f@3,-2``, ``l r1 f 3,-2``;
the orientation may be left out (``r0``) and ``@`` is optional. ``pass`` (also ``end``,
``done``, ``stop``) declines the second piece of a Free Turn. The canonical form is
``Lr1f@3,-2`` with the canonical orientation of the placed shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.errors import InvalidMoveError
from games.puzzominos.pieces import ALL_PIECES, Orientation, canonical_orientation, find_piece


@dataclass(frozen=True, order=True)
class Place:
    """Put ``piece`` in ``orientation`` with its bounding box's top-left corner at ``x,y``."""

    piece: str
    orientation: Orientation
    x: int
    y: int


@dataclass(frozen=True)
class Pass:
    """Decline the second piece of a Free Turn (the turn ends)."""


PASS = Pass()
Move = Place | Pass

PASS_WORDS = frozenset({"pass", "end", "done", "stop"})

_MOVE = re.compile(
    r"^(?P<piece>[a-z]\d?)\s*(?:r\s*(?P<rot>\d+))?\s*(?P<flip>f)?\s*@?\s*"
    r"(?P<x>[+-]?\d+)\s*,\s*(?P<y>[+-]?\d+)$",
    re.IGNORECASE,
)

EXAMPLE = "`Lr1f@3,-2` (piece L, turned once clockwise after a flip, top-left corner at 3,-2)"


def format_place(move: Place) -> str:
    """The canonical text of a placement, e.g. ``Lr1f@3,-2``."""
    return f"{move.piece}{move.orientation.notation()}@{move.x},{move.y}"


def format_move(move: Move) -> str:
    """The canonical text of any move."""
    return "pass" if isinstance(move, Pass) else format_place(move)


def parse(text: str) -> Move:
    """Read a move (syntax only); the orientation comes back canonical.

    Raises :class:`InvalidMoveError` quoting ``text`` and saying what would be valid.
    """
    cleaned = text.strip()
    if cleaned.lower() in PASS_WORDS:
        return PASS
    match = _MOVE.match(cleaned)
    if match is None:
        raise InvalidMoveError(
            f"`{cleaned}` is not a move. Write the piece, its orientation and the top-left corner "
            f"of where it goes, e.g. {EXAMPLE}; or `pass` to decline a Free Turn's second piece."
        )
    piece = find_piece(match["piece"])
    if piece is None:
        raise InvalidMoveError(
            f"`{cleaned}`: there is no piece {match['piece'].upper()}; "
            f"the pieces are {', '.join(ALL_PIECES)}."
        )
    rotation = int(match["rot"] or 0)
    if rotation > 3:
        raise InvalidMoveError(
            f"`{cleaned}`: the orientation r{rotation} does not exist; use r0 to r3 "
            "(quarter turns clockwise), with f after it for a flipped piece, e.g. `r1f`."
        )
    orientation = canonical_orientation(piece, Orientation(rotation, match["flip"] is not None))
    return Place(piece, orientation, int(match["x"]), int(match["y"]))
