"""Tile Up!: stack numbered tiles in three colours to match the shapes on goal cards.

Rules as implemented: docs/games/tileup.md and :data:`GAME.summary`. Modules:
:mod:`~games.tileup.data` (squares, tiles, shapes, cards), :mod:`~games.tileup.board`
(placement and regions), :mod:`~games.tileup.setup` (the deal), :mod:`~games.tileup.state`
(options, moves, state), :mod:`~games.tileup.rules`, :mod:`~games.tileup.notation`,
:mod:`~games.tileup.heuristics` (move ordering) and :mod:`~games.tileup.game` (the game object).

Names: tiles are a colour letter and a number (``O4``: orange 4; colours ``O``, ``B``, ``P``).
Goal cards in a deal are ``<colour>-<shape>`` (``O-L4``: orange L4; shapes ``I3 V3 I4 L4 T4
O4 S4 P5 X5``). Squares are ``A1`` (top left) to ``K11``.

Deal format (``new(..., deal=...)``): ``{"bag": [tiles...], "deck": [goal cards...]}`` or the
list ``[bag, deck]``. Each list gives the order from the top (first drawn first); it may list
only its first items, the rest then follow in the canonical order (tiles by colour O, B, P, then
number; cards by colour O, B, P, then shape in the order above). The deal is consumed so:

1. Center: tiles are drawn from the bag until five numbered 3–5 have been drawn; they go on
   ``F5 E6 F6 G6 F7`` in that order. Drawn 1s and 2s go back to the END of the bag, in draw order.
2. The first two deck cards are turned face up (card 1, then card 2).
3. Seats 0, 1, ... each draw three tiles from the bag (seat 0 first), then seats 0, 1, ... each
   draw one goal card from the deck.
4. While the highest tile sum is shared, the tied seats (in seat order) put their three tiles
   back at the END of the bag (in the order drawn), then each draws three new ones (in seat
   order); every seat's sum is compared again. The highest sum starts; play passes to the next
   seat.
5. During play tiles are drawn from the front of the bag, discarded tiles go to its end, and
   goal cards are drawn from the front of the deck.

With a seed instead (None means 0): bag and deck are shuffled by the seed, and the bag is
reshuffled (seeded) each time tiles go back into it; otherwise the same procedure.

Decisions the rules leave open: a player must take an action; ``end`` before the action is
legal only when no action is possible (nothing to draw and no legal placement). ``end`` while
over 7 tiles or 3 goal cards starts the discard step, where only discards are legal; the last
needed discard ends the turn. A scored face-up card is replaced from the deck first (turning
the discard pile over when the deck is empty), then goes onto the discard pile; with no card
left anywhere the slot stays empty. The discard pile turned over keeps its order: the card
discarded first becomes the top of the new deck.

Safety ends, so that every game ends: a full round (as many consecutive turns as there are
players still in the game) with no tile placed while the bag is empty; or ten full rounds in a
row with no tile placed, whatever the bag holds (players who only draw goal cards, or draw
tiles and discard them again). Games stored before issue 13 keep the old three rounds (the
option ``idle_rounds`` = 3, set by a migration and never offered in lobbies).

Hidden information: a view keeps its own screen and the public counts; other screens, the bag
and deck orders and the seed are removed, and :func:`~games.tileup.rules.determinize` deals
what the viewer cannot account for at random.
"""

from games.tileup.game import TileUp
from games.tileup.state import Move, MoveKind, Options, State, Step

GAME = TileUp()

__all__ = ["GAME", "Move", "MoveKind", "Options", "State", "Step", "TileUp"]
