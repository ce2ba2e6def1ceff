"""Geronimos: two players lay hexagonal number cards and try to surround an enemy card.

Rules as implemented: docs/games/geronimos.md (summary in :data:`GAME.summary`).

Modules: :mod:`cards` and :mod:`hexgrid` (values and geometry), :mod:`state` (options, moves,
the state), :mod:`rules` (the rules as functions of a state), :mod:`notation`,
:mod:`heuristic` (the computer's view of a position) and :mod:`game` (the protocol object).

The start is automatic and happens inside :meth:`Geronimos.new`: both players draw, the lower
card (numbers after the single dot compared in turn) is laid at ``0,0`` by its owner in
rotation 0, and redraws happen as the rules say; :meth:`Geronimos.describe` tells the story
before the first move. The other player's first move lays their drawn start card next to it.

Bonus cards: a placement matching 3, 4, 5 or 6 numbers earns 1 to 4 bonus cards. With the
``bonus`` option ``optional`` (the default, as the rule text says a player *may* draw) the
player then decides before each bonus card: ``bonus`` draws it (it must be played at once, and
may earn more), ``stop`` declines the rest and ends the turn. With ``compulsory`` (the rule
before this choice; games stored before it keep it) every bonus card is drawn at once.

Explicit deal
-------------
``deal`` is a JSON list of two bags, Blue's (seat 0) then Red's (seat 1), each a list of card
names in draw order, the first drawn first::

    [["153264", "L", "162345", ...], ["164523", "153264", ...]]

A card name reads the dots clockwise from the single dot (``153264``); ``L`` is a Leader.
With a deal the ``bag`` and ``leaders`` options are ignored (the deal's bags are used as they
are; a bag may not hold a number card twice, nor more than 1000 cards). Each bag's first card
is its start card. When the start cards must be drawn again (identical cards or two Leaders),
with a deal they go back to the bottom of their bags in order, so the next cards of the lists
are drawn; with a seed the bags are reshuffled with
``seeded_rng(seed, "geronimos", "redraw", attempt, seat)``. After the start, every card is drawn
from the front of its bag: Red and Blue draw their turn cards and bonus cards in the listed order.

Seeded games choose ``bag`` distinct cards with ``seeded_rng(seed, "geronimos", "cards")``,
put the same cards plus ``leaders`` Leaders in both bags and shuffle each bag with
``seeded_rng(seed, "geronimos", "bag", seat)``.

Hidden information: only the order of the bags (their contents are public: the same cards in
both at the start, and every card drawn is shown). A view shows the bags sorted and no seed.
"""

from __future__ import annotations

from games.geronimos.game import Geronimos
from games.geronimos.state import Move, MoveKind, Options, State

GAME = Geronimos()

__all__ = ["GAME", "Geronimos", "Move", "MoveKind", "Options", "State"]
