"""The Geronimos cards: 120 number cards (1-6 once each around a hexagon) and the blank Leader.

A number card is named by reading its dots clockwise from the single dot (``153264``). Laid
on the table in rotation ``k`` its single dot is on side ``k``; the notation reads the laid
card clockwise from side 0 (``153264`` in rotation 5 reads ``532641``).
"""

from __future__ import annotations

from itertools import permutations

LEADER = "L"
"""The Leader card: blank and wild."""

ALL_CARDS: tuple[str, ...] = tuple("1" + "".join(rest) for rest in permutations("23456"))
"""The 120 number cards by name, in increasing order."""

CARD_SET = frozenset(ALL_CARDS)


def laid(card: str, rotation: int) -> str:
    """The numbers of ``card`` read clockwise from side 0 when laid in ``rotation``."""
    return "".join(card[(side - rotation) % 6] for side in range(6))


def unlaid(digits: str) -> tuple[str, int]:
    """The card name and rotation of a laid card written from side 0 (``532641`` -> 153264, 5)."""
    rotation = digits.index("1")
    return digits[rotation:] + digits[:rotation], rotation


def is_laid_card(digits: str) -> bool:
    """True when ``digits`` shows each number 1-6 exactly once."""
    return len(digits) == 6 and sorted(digits) == list("123456")


SIDES: dict[tuple[str, int], tuple[int, ...]] = {
    (card, rotation): tuple(int(digit) for digit in laid(card, rotation))
    for card in ALL_CARDS
    for rotation in range(6)
}
"""The number on each side 0-5 of every card in every rotation."""


LAID: dict[tuple[str, int], str] = {
    (card, rotation): laid(card, rotation) for card in ALL_CARDS for rotation in range(6)
}
"""The notation of every card in every rotation (:func:`laid`, computed once)."""

DOT_INDEX: dict[str, dict[int, int]] = {
    card: {int(digit): index for index, digit in enumerate(card)} for card in ALL_CARDS
}
"""Where each number sits on a card, counted clockwise from the single dot."""


def rotation_showing(card: str, side: int, number: int) -> int:
    """The one rotation in which ``card`` shows ``number`` on ``side``."""
    return (side - DOT_INDEX[card][number]) % 6


def first_player_key(card: str) -> str:
    """What the start compares: the numbers after the single dot (lower lays first)."""
    return card[1:]
