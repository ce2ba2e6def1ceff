"""The 56 Tri-Ominos tiles as data: names, rotations and totals.

A tile is named by its three numbers read clockwise from the lowest, which never decrease
(``012``, ``005``, ``555``). Tiles with three different numbers are chiral: ``012`` exists,
``021`` does not. A tile *as laid* is one of its rotations (``120`` and ``201`` are ``012``).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

NUMBERS = range(6)

TILES: tuple[str, ...] = tuple(
    "".join(map(str, combo)) for combo in combinations_with_replacement(NUMBERS, 3)
)
"""Every tile name in canonical order (``000``, ``001``, ... ``555``)."""


def digits(text: str) -> tuple[int, int, int]:
    """The three numbers of a tile name or a laid tile."""
    a, b, c = (int(ch) for ch in text)
    return a, b, c


def rotations(tile: str) -> tuple[str, ...]:
    """The distinct ways ``tile`` can lie, read from the first corner clockwise (1 or 3)."""
    seen: list[str] = []
    for shift in range(3):
        text = tile[shift:] + tile[:shift]
        if text not in seen:
            seen.append(text)
    return tuple(seen)


LAID_TO_TILE: dict[str, str] = {laid: tile for tile in TILES for laid in rotations(tile)}
"""Every valid laid reading to the tile it is (``453`` -> ``345``)."""

ROTATIONS: dict[str, tuple[str, ...]] = {tile: rotations(tile) for tile in TILES}


def total(tile: str) -> int:
    """The sum of a tile's numbers (its points when played)."""
    return sum(digits(tile))


def is_triple(tile: str) -> bool:
    """True for the six tiles with one number three times."""
    return tile[0] == tile[1] == tile[2]


def opening_rank(tile: str) -> tuple[int, int, tuple[int, ...]]:
    """Larger opens first: triples (highest number first), then the total, then the numbers
    sorted high to low (``553`` beats ``544``)."""
    numbers = digits(tile)
    return (1 if is_triple(tile) else 0, total(tile), tuple(sorted(numbers, reverse=True)))


def hand_total(hand: tuple[str, ...]) -> int:
    """The points of the tiles in a hand."""
    return sum(total(tile) for tile in hand)
