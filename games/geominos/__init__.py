"""Geominos: place two-sided polyomino tiles on a 21x21 board, matching pips like dominoes;
pips on light squares cost points, and the fewest points wins.

Rules as implemented: ``/work/shared/rules/geominos.md`` (summary in :data:`GAME.summary`).
Tiles, shapes and poses are in :mod:`games.geominos.tiles`, board geometry in
:mod:`games.geominos.board`, the rules in :mod:`games.geominos.rules`, the notation
(``Chair B90 K12``) in :mod:`games.geominos.notation`.

Explicit deal
-------------
``deal`` is the shuffled deck of 21 cards, one per tile, as tile names with the top card
first, or a list of such decks, one per game of a match (games beyond the listed decks are
shuffled by the seed)::

    ["Chair", "Seahorse", "Gorilla", "Tree", ...]          # one game
    [["Chair", ...], ["Anchor", ...]]                       # a match of two games

Each game is dealt from its deck in this order: the first card is the center tile (placed
side A up, rotation 0, its bounding box centered on K11); with three players still playing,
the *last two* cards are set aside unseen and never played; then, in Five-Tile, 5 cards to
each player one at a time in seat order from the game's starter (the first card to the
starter, the next to the seat on the left, ...); in All-Tile every remaining card the same
way; in One-Tile nothing. The rest of the deck is drawn from the top: in Five-Tile after each
placement, in One-Tile at the start of each turn.

Seeded games shuffle game ``g`` (from 0) with ``seeded_rng(seed, "geominos", "deck", g)``.
The starter of game ``g`` of a match is seat ``g`` (the starter rotates to the left).
"""

from __future__ import annotations

from games.geominos.game import Geominos
from games.geominos.state import Move, Options, State

GAME = Geominos()

__all__ = ["GAME", "Geominos", "Move", "Options", "State"]
