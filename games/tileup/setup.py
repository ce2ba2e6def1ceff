"""Setting up a game of Tile Up! from a seed or from an explicit deal (see the package docstring)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.core import seeded_rng
from games.errors import InvalidOptionsError, quote
from games.tileup.data import ALL_CARDS, ALL_TILES, CENTER, SQUARES, Stack, tile_key, tile_number

MAX_REDRAWS = 500
"""A guard against a deal whose tie redraws would cycle for ever (then the lowest tied seat starts)."""


@dataclass(frozen=True)
class Setup:
    """Everything the set-up decided, before the first turn."""

    board: tuple[Stack, ...]
    bag: tuple[str, ...]
    deck: tuple[str, ...]
    face_up: tuple[str, ...]
    tiles: tuple[tuple[str, ...], ...]
    """Every seat's three tiles, sorted by colour then number."""
    cards: tuple[tuple[str, ...], ...]
    first: int
    seed: int | None
    """The seed that reshuffles the bag (None with a deal)."""
    shuffles: int


def _named(item: Any) -> str:
    """How a deal's error message shows one of its items (never a huge repr)."""
    return quote(item) if isinstance(item, str) else f"a value of type {type(item).__name__}"


def _complete(listed: Any, full: Sequence[str], what: str) -> list[str]:
    """``listed`` followed by the rest of ``full`` (canonical order), checking every name."""
    if not isinstance(listed, list | tuple):
        raise InvalidOptionsError(
            f"The deal's {what} order must be a list of {what} names, not {_named(listed)}."
        )
    left = Counter(full)
    for name in listed:
        if not isinstance(name, str) or left[name] <= 0:
            raise InvalidOptionsError(
                f"The deal's {what} list has {_named(name)} more often than the game has it "
                f"(or it is not a {what} name)."
            )
        left[name] -= 1
    rest = []
    for name in full:
        if left[name] > 0:
            rest.append(name)
            left[name] -= 1
    return [*listed, *rest]


def read_deal(deal: Any) -> tuple[list[str], list[str]]:
    """The full bag and deck orders of a deal (``{"bag": [...], "deck": [...]}`` or ``[bag, deck]``)."""
    if isinstance(deal, dict):
        unknown = [key for key in deal if key not in ("bag", "deck")]
        if unknown:
            listed = ", ".join(_named(key) for key in unknown[:3])
            raise InvalidOptionsError(f"A deal has only 'bag' and 'deck', not {listed}.")
        bag, deck = deal.get("bag", []), deal.get("deck", [])
    elif isinstance(deal, list | tuple) and len(deal) == 2:
        bag, deck = deal
    else:
        raise InvalidOptionsError('A deal is {"bag": [tiles...], "deck": [goal cards...]} or [bag, deck].')
    return _complete(bag, ALL_TILES, "tile"), _complete(deck, ALL_CARDS, "goal card")


class _Dealer:
    """The bag and deck while setting up (local and mutable; the state gets tuples)."""

    def __init__(self, bag: list[str], deck: list[str], seed: int | None) -> None:
        self.bag = bag
        self.deck = deck
        self.seed = seed
        self.shuffles = 0

    def draw_tiles(self, count: int) -> list[str]:
        taken, self.bag = self.bag[:count], self.bag[count:]
        return taken

    def draw_cards(self, count: int) -> list[str]:
        taken, self.deck = self.deck[:count], self.deck[count:]
        return taken

    def return_tiles(self, tiles: Sequence[str]) -> None:
        self.bag.extend(tiles)
        if self.seed is not None:
            seeded_rng(self.seed, "bag", self.shuffles).shuffle(self.bag)
            self.shuffles += 1


def _center(dealer: _Dealer) -> list[Stack]:
    board: list[Stack] = [() for _ in range(SQUARES)]
    back: list[str] = []
    placed = 0
    while placed < len(CENTER):
        tile = dealer.draw_tiles(1)[0]
        if tile_number(tile) >= 3:
            board[CENTER[placed]] = (tile,)
            placed += 1
        else:
            back.append(tile)
    dealer.return_tiles(back)
    return board


def _first_player(dealer: _Dealer, hands: list[list[str]]) -> int:
    """Tied highest sums redraw (only those seats) until one seat is highest."""
    for _ in range(MAX_REDRAWS):
        sums = [sum(tile_number(tile) for tile in hand) for hand in hands]
        best = max(sums)
        tied = [seat for seat, total in enumerate(sums) if total == best]
        if len(tied) == 1:
            return tied[0]
        for seat in tied:
            dealer.return_tiles(hands[seat])
            hands[seat] = []
        for seat in tied:
            hands[seat] = dealer.draw_tiles(3)
    sums = [sum(tile_number(tile) for tile in hand) for hand in hands]
    return sums.index(max(sums))


def set_up(players: int, seed: int, deal: Any) -> Setup:
    """Center tiles, two face-up goal cards, hands dealt, first seat chosen: from ``deal`` when
    given (checked strictly), else shuffled by ``seed``."""
    if deal is not None:
        bag, deck = read_deal(deal)
        dealer = _Dealer(bag, deck, None)
    else:
        bag, deck = list(ALL_TILES), list(ALL_CARDS)
        seeded_rng(seed, "bag").shuffle(bag)
        seeded_rng(seed, "deck").shuffle(deck)
        dealer = _Dealer(bag, deck, seed)
    board = _center(dealer)
    face_up = tuple(dealer.draw_cards(2))
    hands = [dealer.draw_tiles(3) for _ in range(players)]
    cards = tuple(tuple(dealer.draw_cards(1)) for _ in range(players))
    first = _first_player(dealer, hands)
    return Setup(
        board=tuple(board),
        bag=tuple(dealer.bag),
        deck=tuple(dealer.deck),
        face_up=face_up,
        tiles=tuple(tuple(sorted(hand, key=tile_key)) for hand in hands),
        cards=cards,
        first=first,
        seed=dealer.seed,
        shuffles=dealer.shuffles,
    )
