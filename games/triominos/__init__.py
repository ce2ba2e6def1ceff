"""Tri-Ominos: 2-6 players lay triangular number tiles, matching every touching corner.

Rules as implemented: docs/games/triominos.md (summary in :data:`GAME.summary`);
the board geometry is in :mod:`games.triominos.grid`, the notation in
:mod:`games.triominos.notation`.

Each round the 56 tiles are put in an order; the hands are dealt from the front of it, one
whole hand after the other in seat order (9 tiles each for two players, 7 for three or four,
6 for five or six), and the rest is the well, drawn from the front. The player holding the
opening tile (highest triple, else highest total) is to act and lays it at ``0,0``; that is
the first move of the round in the record (e.g. ``555@0,0``).

Explicit deal
-------------
``deal`` is a JSON list of rounds; each round is a list of tile names in the order above (the
first names form seat 1's hand, and so on; then the well, top first)::

    [["555", "012", "013", ...], ["000", ...]]

A tile may be written in any of its rotations and with ``-`` separators or spaces
(``4-5-3``). Tiles a round leaves out follow the listed ones in the canonical order (``000``,
``001``, ... ``555``), so a short list fixes the hands and the top of the well. A single flat
list is one round. Rounds after the listed ones are shuffled from the seed. Forfeited seats are
skipped when dealing. Anything else (a name that is no tile, a tile twice in a round, more than
56 names in a round or 1000 rounds, values that are not text) is refused with
:class:`~games.errors.InvalidOptionsError`.

Seeded rounds shuffle the 56 tiles with ``seeded_rng(seed, "triominos", "round", n)`` for
round ``n`` (1-based).

Hidden information
------------------
A view hides the other hands and the well (as ``?`` tiles, their sizes kept) and drops the seed
and the deal. Public: the board, every hand size, the opening tile while the round opens (the
players compare their triples to find the opener) and a drawn tile that must be played.
"""

from __future__ import annotations

from games.triominos.game import Triominos
from games.triominos.state import Move, MoveKind, Options, State

GAME = Triominos()

__all__ = ["GAME", "Move", "MoveKind", "Options", "State", "Triominos"]
