"""Geronimos: two players lay hexagonal number cards and try to surround an enemy card.

Rules as implemented: ``/work/shared/rules/geronimos.md`` (summary in :data:`GAME.summary`).

The start is automatic and happens inside :meth:`Geronimos.new`: both players draw, the lower
card (numbers after the single dot compared in turn) is laid at ``0,0`` by its owner in
rotation 0, and redraws happen as the rules say; :meth:`Geronimos.describe` tells the story
before the first move. The other player's first move lays their drawn start card next to it.

Explicit deal
-------------
``deal`` is a JSON list of two bags, Blue's (seat 0) then Red's (seat 1), each a list of card
names in draw order, the first drawn first::

    [["153264", "L", "162345", ...], ["164523", "153264", ...]]

A card name reads the dots clockwise from the single dot (``153264``); ``L`` is a Leader.
With a deal the ``bag`` and ``leaders`` options are ignored (the deal's bags are used as they
are; a bag may not hold a number card twice). Each bag's first card is its start card. When the
start cards must be drawn again (identical cards or two Leaders), with a deal they go back to
the bottom of their bags in order, so the next cards of the lists are drawn; with a seed the
bags are reshuffled with ``seeded_rng(seed, "geronimos", "redraw", attempt, seat)``. After the
start, every card is drawn from the front of its bag: Red and Blue draw their turn cards and
bonus cards in the listed order.

Seeded games choose ``bag`` distinct cards with ``seeded_rng(seed, "geronimos", "cards")``,
put the same cards plus ``leaders`` Leaders in both bags and shuffle each bag with
``seeded_rng(seed, "geronimos", "bag", seat)``.
"""

from __future__ import annotations

from games.geronimos.game import Geronimos
from games.geronimos.state import Move, Options, State

GAME = Geronimos()

__all__ = ["GAME", "Geronimos", "Move", "Options", "State"]
