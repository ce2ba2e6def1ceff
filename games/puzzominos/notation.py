"""Two-player notation: ``Lr1f@3,-2`` (piece, orientation, top-left of the placed bounding box).

Accepted forms (any case, spaces optional): ``L r1f @3,-2``, ``Lr1f@3,-2``, ``l r1 f 3,-2``;
the orientation may be left out (``r0``) and ``@`` is optional. ``pass`` (also ``end``,
``done``, ``stop``) declines the second piece of a Free Turn. The canonical form is
``Lr1f@3,-2`` with the canonical orientation of the placed shape. The text is read in one pass
(:mod:`games.puzzominos.reading`): reading is linear in its length.
"""

from __future__ import annotations

from collections.abc import Iterator

from games.errors import InvalidMoveError, quote
from games.puzzominos.board import Place, placed_cells
from games.puzzominos.pieces import ALL_PIECES, canonical_orientation, find_piece
from games.puzzominos.reading import Scanner, Written, orientation_of, read_written
from games.puzzominos.rules import iter_places, targets
from games.puzzominos.state import PASS, Move, MoveKind, State

PASS_WORDS = frozenset({"pass", "end", "done", "stop"})
EXAMPLE = "`Lr1f@3,-2` (piece L, turned once clockwise after a flip, top-left corner at 3,-2)"
SUGGESTIONS = 3


def format_place(place: Place | Move) -> str:
    """The canonical text of a placement, e.g. ``Lr1f@3,-2``."""
    return f"{place.piece}{place.orientation.notation()}@{place.x},{place.y}"


def format_move(move: Move) -> str:
    """The canonical text of any move."""
    return "pass" if move.kind is MoveKind.PASS else format_place(move)


def parse_move(text: str) -> Move:
    """Read a move (syntax only); the orientation comes back canonical.

    Raises :class:`InvalidMoveError` quoting ``text`` and saying what would be valid.
    """
    if " ".join(text.lower().split()) in PASS_WORDS:
        return PASS
    return Move.placing(read_place(text))


def read_place(text: str) -> Place:
    """Read a placement (syntax only); raises :class:`InvalidMoveError`."""
    scan = Scanner(text)
    written = read_written(scan)
    scan.take("@")
    x = scan.number(signed=True)
    y = scan.number(signed=True) if x is not None and scan.take(",") else None
    if written is None or x is None or y is None or not scan.done():
        raise InvalidMoveError(
            f"{quote(text)} is not a move. Write the piece, its orientation and the top-left corner "
            f"of where it goes, e.g. {EXAMPLE}; or `pass` to decline a Free Turn's second piece."
        )
    return Place(piece_of(text, written), orientation_of(text, written), x, y)


def piece_of(text: str, written: Written) -> str:
    """The piece ``written`` names; raises :class:`InvalidMoveError` when there is none."""
    piece = find_piece(written.piece)
    if piece is None:
        raise InvalidMoveError(
            f"{quote(text)}: there is no piece {written.piece}; the pieces are {', '.join(ALL_PIECES)}."
        )
    return piece


def why_illegal(state: State, move: Move) -> str:
    """Why the well-formed ``move`` is not legal now, and what is."""
    seat = state.to_act
    assert seat is not None
    if move.kind is MoveKind.PASS:
        if state.second_piece:
            return "`pass`: in this game a Free Turn's second piece is compulsory; place a piece."
        return "`pass`: you can only pass to decline a Free Turn's second piece; place a piece."
    text = quote(format_place(move))
    if (
        move.piece not in ALL_PIECES
        or canonical_orientation(move.piece, move.orientation) != move.orientation
    ):
        return f"{text} is not a placement of this game; write e.g. {EXAMPLE}."
    if move.piece in state.played(seat):
        return (
            f"{text}: you have already played {move.piece}; your pieces left: {', '.join(state.left(seat))}."
        )
    if not state.occupied:
        return (
            f"{text}: the first piece goes with the top-left corner of its bounding box at 0,0, "
            f"e.g. `{move.piece}{move.orientation.notation()}@0,0`."
        )
    cells = placed_cells(move.piece, move.orientation, move.x, move.y)
    taken = sorted((c for c in cells if c in state.occupied), key=lambda c: (c[1], c[0]))
    if taken:
        squares = ", ".join(f"{x},{y}" for x, y in taken)
        return f"{text}: it would cover {squares}, already taken.{suggest(state, seat, move.piece)}"
    if set(cells) & targets(state, seat):
        return f"{text} is not a legal move now.{suggest(state, seat, move.piece)}"
    if state.squares[seat]:
        whose = "one of your pieces"
    else:
        whose = f"a {state.colour(1 - seat).label} piece (your first piece)"
    return f"{text}: it must touch {whose} edge to edge.{suggest(state, seat, move.piece)}"


def suggest(state: State, seat: int, piece: str) -> str:
    """A few legal places for ``piece``, as a sentence to add to a refusal."""
    places = [format_place(m) for m in _first(iter_places(state, seat, (piece,)), SUGGESTIONS)]
    if not places:
        return f" {piece} has no legal place now."
    return f" Legal for {piece}: " + ", ".join(f"`{p}`" for p in places) + ", …"


def _first(items: Iterator[Move], count: int) -> list[Move]:
    found: list[Move] = []
    for item in items:
        found.append(item)
        if len(found) == count:
            break
    return found
