"""Board geometry for Tile Up!: placement legality and same-colour regions of top tiles."""

from __future__ import annotations

from collections.abc import Sequence

from games.tileup.data import NEIGHBOURS, SQUARES, Stack, shape_of, tile_colour, tile_number


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


def legal_squares(board: Sequence[Stack], tile: str) -> list[int]:
    """Every square where ``tile`` may be placed, in reading order."""
    colour, number = tile_colour(tile), tile_number(tile)
    found = []
    for square in range(SQUARES):
        stack = board[square]
        if stack:
            below = stack[-1]
            if below[0] != colour and int(below[1]) > number:
                found.append(square)
        elif any(board[near] for near in NEIGHBOURS[square]):
            found.append(square)
    return found


def region(board: Sequence[Stack], square: int) -> tuple[int, ...]:
    """The connected squares whose top tiles share the colour of ``square``'s top tile."""
    stack = board[square]
    return _flood(board, square, stack[-1][0]) if stack else ()


def regions(board: Sequence[Stack]) -> list[tuple[str, tuple[int, ...]]]:
    """Every same-colour region of top tiles as (colour, squares in reading order)."""
    seen: set[int] = set()
    found = []
    for square in range(SQUARES):
        if square in seen or not board[square]:
            continue
        squares = region(board, square)
        seen.update(squares)
        found.append((board[square][-1][0], squares))
    return found


def shaped_regions(board: Sequence[Stack]) -> list[tuple[str, str, tuple[int, ...]]]:
    """Every region that forms a goal shape, as (colour, shape, squares in reading order)."""
    found = []
    for colour, squares in regions(board):
        shape = shape_of(squares)
        if shape is not None:
            found.append((colour, shape, squares))
    return found


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
