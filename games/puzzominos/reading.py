"""Reading what players write: piece names, orientations, numbers and square names.

Both notations (the duel's ``Lr1f@3,-2`` and the solitaire's ``Lr1f@C4``) are read by one small
scanner that walks the text once, left to right, and never backtracks, so reading is linear in
the length of the text whatever it holds (no regular expression with overlapping quantifiers).
Only ASCII letters and digits count: ``٣`` or ``²`` are not digits here.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from games.errors import InvalidMoveError, quote
from games.puzzominos.pieces import SHAPES, Orientation, canonical_orientation

LETTERS = frozenset(string.ascii_letters)
DIGITS = frozenset(string.digits)
MAX_DIGITS = 9
"""The longest number read (a coordinate or a row); longer runs of digits are not a number."""


@dataclass
class Scanner:
    """A cursor over ``text``: each method reads a token at the cursor or leaves it where it is."""

    text: str
    at: int = 0

    def done(self) -> bool:
        """True when only spaces are left."""
        self.skip_spaces()
        return self.at >= len(self.text)

    def skip_spaces(self) -> None:
        """Move past spaces (any whitespace)."""
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def peek(self) -> str:
        """The character at the cursor, lower case ('' at the end)."""
        return self.text[self.at].lower() if self.at < len(self.text) else ""

    def take(self, char: str) -> bool:
        """Read ``char`` (any case) if it is next, after spaces."""
        self.skip_spaces()
        if self.peek() == char:
            self.at += 1
            return True
        return False

    def letter(self) -> str:
        """Read one ASCII letter (upper case) at the cursor, or ''."""
        if self.at < len(self.text) and self.text[self.at] in LETTERS:
            self.at += 1
            return self.text[self.at - 1].upper()
        return ""

    def digits(self) -> str:
        """Read a run of ASCII digits at the cursor ('' if there is none)."""
        start = self.at
        while self.at < len(self.text) and self.text[self.at] in DIGITS:
            self.at += 1
        return self.text[start : self.at]

    def number(self, signed: bool = False) -> int | None:
        """Read a whole number (``-2``, ``+3`` when ``signed``) after spaces; None if there is
        none or it has more than :data:`MAX_DIGITS` digits."""
        self.skip_spaces()
        start = self.at
        sign = self.peek() if signed and self.peek() in ("+", "-") else ""
        self.at += len(sign)
        digits = self.digits()
        if not digits or len(digits) > MAX_DIGITS:
            self.at = start
            return None
        return -int(digits) if sign == "-" else int(digits)


@dataclass(frozen=True)
class Written:
    """A piece with its orientation as written: the piece's name may not exist (``Q``) and the
    rotation may be out of range (``r7``); the notation says what is wrong."""

    piece: str
    rotation: int
    flipped: bool


def read_piece(scan: Scanner) -> str:
    """A piece name: a letter, and the digit after it when the two name a piece (``V3``, ``T4``:
    ``V30,0`` is V3 at 0,0 while ``L3,4`` is L at 3,4). '' when no letter is next."""
    scan.skip_spaces()
    letter = scan.letter()
    if letter and scan.peek() in DIGITS and letter + scan.peek() in SHAPES:
        scan.at += 1
        return letter + scan.text[scan.at - 1]
    return letter


def read_orientation(scan: Scanner) -> tuple[int, bool] | None:
    """``r1f``, ``r 1 f``, ``f`` or nothing: ``(rotation, flipped)``; the rotation is one digit.
    None for an ``r`` without its digit."""
    rotation = 0
    if scan.take("r"):
        scan.skip_spaces()
        digit = scan.peek()
        if digit not in DIGITS:
            return None
        scan.at += 1
        rotation = int(digit)
    return rotation, scan.take("f")


def read_written(scan: Scanner) -> Written | None:
    """A piece and its orientation (``L r1f``), or None when the text does not start with one."""
    piece = read_piece(scan)
    if not piece:
        return None
    orientation = read_orientation(scan)
    if orientation is None:
        return None
    return Written(piece, *orientation)


def orientation_of(text: str, written: Written) -> Orientation:
    """The canonical orientation ``written`` gives its piece (a piece that exists). Raises
    :class:`InvalidMoveError`, quoting ``text``, for a rotation other than r0 to r3."""
    if written.rotation > 3:
        raise InvalidMoveError(
            f"{quote(text)}: the orientation r{written.rotation} does not exist; use r0 to r3 "
            "(quarter turns clockwise), with f after it for a flipped piece, e.g. `r1f`."
        )
    return canonical_orientation(written.piece, Orientation(written.rotation, written.flipped))


def split_square(text: str) -> tuple[str, str, int] | None:
    """``(head, column letter, row number)`` when ``text`` ends with a square name (``C4``,
    ``c 12``), read from the end; None otherwise. The head is everything before it."""
    end = len(text.rstrip())
    at = end
    while at > 0 and text[at - 1] in DIGITS:
        at -= 1
    digits = text[at:end]
    if not digits or len(digits) > MAX_DIGITS:
        return None
    while at > 0 and text[at - 1].isspace():
        at -= 1
    if at == 0 or text[at - 1] not in LETTERS:
        return None
    return text[: at - 1], text[at - 1].upper(), int(digits)
