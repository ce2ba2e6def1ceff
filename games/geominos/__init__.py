"""Geominos: place two-sided polyomino tiles on a 21x21 board, matching pips like dominoes;
pips on light squares cost points, and the fewest points wins.

Rules as implemented: docs/games/geominos.md (summary in :data:`GAME.summary`).
Tiles, shapes and poses are in :mod:`games.geominos.tiles`, board geometry in
:mod:`games.geominos.board`, options, moves and the state in :mod:`games.geominos.state`, the
rules in :mod:`games.geominos.rules`, the notation (``Chair B90 K12``) in
:mod:`games.geominos.notation`, and the game object in :mod:`games.geominos.game`.

Placing a tile is the only move. A seat none of whose tiles fits anywhere is passed over by the
rules themselves (+5; in One-Tile its drawn tile is set aside), and when no seat can place, the
game ends. Hands are public; the deck's order, the two cards set aside unseen with three
players, the decks of a deal and the seed are hidden from every view.

Explicit deal
-------------
``deal`` is the shuffled deck of 21 cards, one per tile, as tile names with the top card
first, or a list of such decks, one per game of a match (games beyond the listed decks are
shuffled by the seed)::

    ["Chair", "Seahorse", "Gorilla", "Tree", ...]          # one game
    [["Chair", ...], ["Anchor", ...]]                       # a match of two games

A deal lists at most as many decks as the game has games (one, or one per player in match
play); names are case-insensitive; anything else is refused with ``InvalidOptionsError``.

Each game is dealt from its deck in this order: the first card is the center tile (placed
side A up, rotation 0, its bounding box centered on K11); with three players still playing,
the *last two* cards are set aside unseen (``State.unseen``) and never played; then, in
Five-Tile, 5 cards to each player one at a time in seat order from the game's starter (the
first card to the starter, the next to the seat on the left, ...); in All-Tile every remaining
card the same way; in One-Tile nothing. The rest of the deck is drawn from the top: in Five-Tile after each
placement, in One-Tile at the start of each turn.

Seeded games shuffle game ``g`` (from 0) with ``seeded_rng(seed, "geominos", "deck", g)``.
The starter of game ``g`` of a match is seat ``g`` (the starter rotates to the left).
"""

from __future__ import annotations

from games.geominos.game import Geominos
from games.geominos.state import Move, Options, State

GAME = Geominos()

__all__ = ["GAME", "Geominos", "Move", "Options", "State"]
