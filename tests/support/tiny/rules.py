"""The rules of Tiny Tiles as functions of a state: deal, legal moves, apply, resign, views."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from games.core import Event, EventKind, Events, seeded_rng
from tests.support.tiny.state import HAND_LIMIT, TILES, Move, MoveKind, Options, State


def deal(players: int, options: Options, seed: int, order: Any) -> State:
    """Hands of ``options.hand`` tiles in seat order, the rest the deck (top first)."""
    tiles = list(order) if order is not None else list(TILES)
    if order is None:
        seeded_rng(seed, "deal").shuffle(tiles)
    size = options.hand
    hands = tuple(tuple(sorted(tiles[i * size : (i + 1) * size])) for i in range(players))
    deck = tuple(tiles[players * size :])
    return State(hands, deck, len(deck), (0,) * players, 0, 0)


def is_over(state: State) -> bool:
    """True when one seat is left, or every tile is played."""
    live = [seat for seat in range(len(state.scores)) if seat not in state.forfeited]
    if len(live) <= 1:
        return True
    return not state.deck_size and all(not state.hands[seat] for seat in live)


def legal_moves(state: State) -> list[Move]:
    """Tiles that differ from the last one; a draw while the deck lasts; else a pass."""
    hand = state.hands[state.to_act] or ()
    moves = [Move(MoveKind.PLAY, tile) for tile in sorted(set(hand)) if tile != state.last]
    if state.deck_size and len(hand) < HAND_LIMIT:
        moves.append(Move(MoveKind.DRAW))
    return moves or [Move(MoveKind.PASS)]


def apply(state: State, move: Move, notation: str) -> tuple[State, Events]:
    """The state after a legal ``move`` (written ``notation``) and its events."""
    seat = state.to_act
    hands = list(state.hands)
    hand = list(hands[seat] or ())
    scores = list(state.scores)
    after = state
    if move.kind is MoveKind.PLAY:
        hand.remove(move.tile)
        scores[seat] += move.tile
        after = replace(after, last=move.tile, played=(*state.played, move.tile))
        event = Event(EventKind.SCORE, seat=seat, points=move.tile, reason="tile", subject=str(move.tile))
    elif move.kind is MoveKind.DRAW:
        hand.append(state.deck[0])
        after = replace(after, deck=state.deck[1:], deck_size=state.deck_size - 1)
        event = Event(EventKind.DRAW, seat=seat, reason="drew", count=1)
    else:
        after = replace(after, last=0)
        event = Event(EventKind.PASS, seat=seat, reason="passed")
    hands[seat] = tuple(sorted(hand))
    after = replace(after, hands=tuple(hands), scores=tuple(scores), last_move=notation)
    after = replace(after, to_act=next_seat(after, seat))
    if is_over(after):
        return after, (event, Event(EventKind.GAME_END, reason="all_played"))
    return after, (event,)


def next_seat(state: State, seat: int) -> int:
    """The next seat after ``seat`` that still plays."""
    count = len(state.scores)
    for step in range(1, count + 1):
        candidate = (seat + step) % count
        if candidate not in state.forfeited:
            return candidate
    return seat


def resign(state: State, seat: int) -> tuple[State, Events]:
    """``seat`` forfeits; its tiles leave the game."""
    hands = list(state.hands)
    gone = tuple(state.hands[seat] or ())
    hands[seat] = ()
    after = replace(
        state, hands=tuple(hands), forfeited=state.forfeited | {seat}, played=(*state.played, *gone)
    )
    if state.to_act == seat:
        after = replace(after, to_act=next_seat(after, seat))
    return after, (Event(EventKind.FORFEIT, seat=seat, reason="resigned"),)


def view(state: State, seat: int | None) -> State:
    """What ``seat`` sees: its own hand, the others' sizes, no deck."""
    sizes = tuple(len(hand or ()) for hand in state.hands)
    hands = tuple(hand if index == seat else None for index, hand in enumerate(state.hands))
    return replace(state, hands=hands, deck=(), sizes=sizes)


def determinize(seen: State, rng: random.Random) -> State:
    """A full state consistent with the view ``seen``: unseen tiles dealt at random."""
    unseen = list(TILES)
    for tile in (*[t for hand in seen.hands if hand for t in hand], *seen.played):
        unseen.remove(tile)
    rng.shuffle(unseen)
    hands = []
    for index, held in enumerate(seen.hands):
        if held is None:
            size = seen.sizes[index]
            held, unseen = tuple(sorted(unseen[:size])), unseen[size:]
        hands.append(held)
    return replace(seen, hands=tuple(hands), deck=tuple(unseen), sizes=())
