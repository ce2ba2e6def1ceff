"""Solitaire notation: ``Lr1f@C4`` (piece, orientation, square of the top-left corner).

- ``Lr1f@C4``: piece, orientation (``r0``-``r3`` quarter turns clockwise, ``f`` flipped left to
  right first), and the square of the top-left corner of the placed piece's bounding box (that
  square need not be covered by the piece). Also ``L r1f @C4``, ``l r1 f c4``; no orientation
  means ``r0``.
- ``hint Lr1f@C4``: the same placement, made on the solver's advice.
- ``undo`` (also ``back``, ``takeback``, ``take back``), ``giveup`` (also ``give up``, ``quit``).

The square is read from the end of the text and the piece from its start, each in one pass
(:mod:`games.puzzominos.reading`), so reading is linear in the length of the text.
"""

from __future__ import annotations

from games.errors import InvalidMoveError, quote
from games.puzzominos.pieces import PENTOMINOES, find_piece
from games.puzzominos.reading import Scanner, orientation_of, read_written, split_square
from games.puzzominos.targets import COLUMNS, square_name
from games.puzzosolo.rules import format_place, legal_places
from games.puzzosolo.state import GIVE_UP, UNDO, Move, MoveKind, State

UNDO_WORDS = frozenset({"undo", "back", "takeback", "take back"})
GIVE_UP_WORDS = frozenset({"giveup", "give up", "quit", "give-up"})
HINT_WORD = "hint"
EXAMPLE = "`Lr1f@C4` (piece L, turned once clockwise after a flip, top-left corner on square C4)"
SUGGESTIONS = 3


def format_move(move: Move) -> str:
    """The canonical text of any solitaire move."""
    if move.kind is MoveKind.UNDO:
        return "undo"
    if move.kind is MoveKind.GIVE_UP:
        return "giveup"
    text = format_place(move.place)
    return f"{HINT_WORD} {text}" if move.kind is MoveKind.HINT else text


def parse_move(text: str) -> Move:
    """Read a move (syntax only). Raises :class:`InvalidMoveError` saying what would be valid."""
    words = " ".join(text.lower().split())
    if words in UNDO_WORDS:
        return UNDO
    if words in GIVE_UP_WORDS:
        return GIVE_UP
    body = text.strip()
    hinted = body[: len(HINT_WORD)].lower() == HINT_WORD
    if hinted:
        body = body[len(HINT_WORD) :].lstrip().removeprefix(":")
    found = split_square(body)
    scan = Scanner(found[0] if found else "")
    written = read_written(scan)
    scan.take("@")
    if found is None or written is None or not scan.done():
        raise InvalidMoveError(_not_a_move(text))
    _, column, row = found
    piece = find_piece(written.piece)
    if piece is None or len(piece) > 1:
        raise InvalidMoveError(
            f"{quote(text)}: there is no piece {written.piece} in solitaire; "
            f"the pieces are the pentominoes {' '.join(PENTOMINOES)}."
        )
    if row < 1:
        raise InvalidMoveError(
            f"{quote(text)}: `{column}{row}` is not a square; rows are numbered from 1 "
            "(`A1` is the top-left square)."
        )
    orientation = orientation_of(text, written)
    kind = MoveKind.HINT if hinted else MoveKind.PLACE
    return Move(kind, piece, orientation, COLUMNS.index(column), row - 1)


def _not_a_move(text: str) -> str:
    stripped = text.strip()
    if "," in stripped and stripped[-1:].isdigit():
        return f"{quote(text)}: in solitaire the corner is a square of the target, not x,y: e.g. {EXAMPLE}."
    return (
        f"{quote(text)} is not a move. Write the piece, its orientation and the square of the top-left "
        f"corner of where it goes, e.g. {EXAMPLE}; or `undo`, or `giveup`."
    )


def why_illegal(state: State, move: Move) -> str:
    """Why the well-formed ``move`` cannot be played now, and what can."""
    if move.kind is MoveKind.UNDO:
        return "`undo`: there is no piece on the board to take back."
    text = quote(format_move(move))
    target = state.target
    if move.kind is MoveKind.GIVE_UP or move.piece not in PENTOMINOES:
        return f"{text} is not a move of this game; write e.g. {EXAMPLE}."
    if move.piece not in target.pieces:
        return f"{text}: {move.piece} is not in this target's set."
    if move.piece not in state.left():
        return f"{text}: {move.piece} is already on the board; pieces left: {', '.join(state.left())}."
    cells = move.place.cells
    outside = [(x, y) for x, y in cells if not (0 <= x < target.width and 0 <= y < target.height)]
    if outside:
        last = f"{COLUMNS[target.width - 1]}{target.height}"
        return (
            f"{text}: it would go outside the target, which spans A1 to {last} "
            f"({target.width} wide, {target.height} high).{suggest(state, move.piece)}"
        )
    holes = [cell for cell in cells if cell not in target.cells]
    if holes:
        squares = ", ".join(square_name(*cell) for cell in holes)
        return f"{text}: it would cover {squares}, outside the target.{suggest(state, move.piece)}"
    taken = sorted(set(cells) & state.covered_cells(), key=lambda c: (c[1], c[0]))
    if taken:
        squares = ", ".join(square_name(*cell) for cell in taken)
        return f"{text}: it would cover {squares}, already covered.{suggest(state, move.piece)}"
    return f"{text} is not a legal placement now.{suggest(state, move.piece)}"


def suggest(state: State, piece: str) -> str:
    """A few places where ``piece`` fits, as a sentence to add to a refusal."""
    places = [format_place(move.place) for move in legal_places(state) if move.piece == piece][:SUGGESTIONS]
    if not places:
        return f" {piece} fits nowhere now (`undo` takes the last piece back)."
    return f" {piece} fits e.g. at " + ", ".join(f"`{p}`" for p in places) + "."
