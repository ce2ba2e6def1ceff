"""Board geometry for Tile Up!: placement legality and same-colour regions of top tiles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from games.tileup.data import COLOURS, NEIGHBOURS, SIZE, SQUARES, Stack, shape_of, tile_colour, tile_number


def top(stack: Stack) -> str | None:
    """The top tile of a stack, or None for an empty square."""
    return stack[-1] if stack else None


def placement_problem(board: Sequence[Stack], tile: str, square: int) -> str | None:
    """Why ``tile`` may not go on ``square`` (a sentence), or None when it may."""
    stack = board[square]
    if stack:
        below = stack[-1]
        if tile_colour(below) == tile_colour(tile):
            return f"its top tile {below} is the same colour; stack only on a different colour"
        if tile_number(below) <= tile_number(tile):
            return f"its top tile {below} is not higher than {tile[1]}; stack only on a higher number"
        return None
    if any(board[near] for near in NEIGHBOURS[square]):
        return None
    return "it is empty and not next to any tile"


@dataclass(frozen=True)
class Tops:
    """A board's top tiles as bit masks (bit ``i`` is square ``i``): the ``covered`` squares, per
    colour the squares whose top tile has it, per number ``n`` (0 to 5) the squares whose top
    tile is higher than ``n``, and the empty squares next to a covered one (``beside``)."""

    covered: int
    colours: Mapping[str, int]
    higher: tuple[int, ...]
    beside: int


@lru_cache(maxsize=64)
def tops(board: tuple[Stack, ...]) -> Tops:
    """The :class:`Tops` of ``board`` (the last few boards are remembered: the rules and the
    computer players ask about the same board several times)."""
    covered = 0
    colours = dict.fromkeys(COLOURS, 0)
    numbers = [0] * 6
    for square, stack in enumerate(board):
        if stack:
            bit = 1 << square
            covered |= bit
            colours[stack[-1][0]] |= bit
            numbers[int(stack[-1][1])] |= bit
    higher = tuple(sum(numbers[n + 1 :]) for n in range(6))
    return Tops(covered, colours, higher, spread(covered) & ~covered)


NOT_FIRST_COLUMN = sum(1 << square for square in range(SQUARES) if square % SIZE)
NOT_LAST_COLUMN = sum(1 << square for square in range(SQUARES) if square % SIZE != SIZE - 1)
ALL_SQUARES = (1 << SQUARES) - 1


def spread(mask: int) -> int:
    """``mask`` and the squares next to (not diagonally) one of its squares."""
    sideways = ((mask << 1) & NOT_FIRST_COLUMN) | ((mask >> 1) & NOT_LAST_COLUMN)
    return (mask | (mask << SIZE) | (mask >> SIZE) | sideways) & ALL_SQUARES


def squares_of(mask: int) -> list[int]:
    """The squares of ``mask``, in reading order."""
    found = []
    while mask:
        lowest = mask & -mask
        found.append(lowest.bit_length() - 1)
        mask ^= lowest
    return found


def legal_squares(board: Sequence[Stack], tile: str) -> list[int]:
    """Every square where ``tile`` may be placed, in reading order: on a top tile of another
    colour and a higher number, or on an empty square next to a tile."""
    facts = tops(tuple(board))
    stackable = facts.covered & ~facts.colours[tile_colour(tile)] & facts.higher[tile_number(tile)]
    return squares_of(stackable | facts.beside)


def region(board: Sequence[Stack], square: int) -> tuple[int, ...]:
    """The connected squares whose top tiles share the colour of ``square``'s top tile."""
    stack = board[square]
    return _flood(board, square, stack[-1][0]) if stack else ()


def regions(board: Sequence[Stack]) -> list[tuple[str, tuple[int, ...]]]:
    """Every same-colour region of top tiles as (colour, squares in reading order), in the
    reading order of their first squares."""
    return list(_regions(tuple(board)))


@lru_cache(maxsize=64)
def _regions(board: tuple[Stack, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    facts = tops(board)
    left = facts.covered
    found = []
    while left:
        first = (left & -left).bit_length() - 1
        colour = board[first][-1][0]
        same = facts.colours[colour]
        joined = 1 << first
        while (grown := spread(joined) & same) != joined:
            joined = grown
        left &= ~joined
        found.append((colour, tuple(squares_of(joined))))
    return tuple(found)


def shaped_regions(board: Sequence[Stack]) -> list[tuple[str, str, tuple[int, ...]]]:
    """Every region that forms a goal shape, as (colour, shape, squares in reading order)."""
    return list(_shaped_regions(tuple(board)))


@lru_cache(maxsize=64)
def _shaped_regions(board: tuple[Stack, ...]) -> tuple[tuple[str, str, tuple[int, ...]], ...]:
    found = []
    for colour, squares in _regions(board):
        shape = shape_of(squares)
        if shape is not None:
            found.append((colour, shape, squares))
    return tuple(found)


def points(board: Sequence[Stack], squares: Sequence[int]) -> int:
    """The tiles in ``squares``, covered tiles included (the sum of the stack heights)."""
    return sum(len(board[square]) for square in squares)


def region_after(board: Sequence[Stack], tile: str, square: int) -> tuple[int, ...]:
    """The region that would hold ``square`` once ``tile`` is placed on it (board unchanged)."""
    return _flood(board, square, tile[0], limit=5)


def _flood(board: Sequence[Stack], square: int, colour: str, limit: int | None = None) -> tuple[int, ...]:
    """``square`` and the squares joined to it through top tiles of ``colour``, in reading
    order; the search stops once it holds more than ``limit`` squares (no goal shape is larger)."""
    seen = {square}
    todo = [square]
    while todo:
        current = todo.pop()
        for near in NEIGHBOURS[current]:
            other = board[near]
            if near not in seen and other and other[-1][0] == colour:
                seen.add(near)
                todo.append(near)
                if limit is not None and len(seen) > limit:
                    return tuple(sorted(seen))
    return tuple(sorted(seen))
