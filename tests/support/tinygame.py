"""Tiny Tiles: a test-only game (never shipped) that exercises the whole platform.

Twelve tiles numbered 1-6 (two of each) are shuffled by the seed; each seat gets three, hidden.
On your turn play a tile whose number differs from the last one played (score its number), or
`draw` one tile (while the deck lasts and you hold fewer than five), or `pass` when nothing
else is legal (which clears the last number). The game ends when every tile is played.

Deal: a list of the twelve tile numbers in the order they are dealt (seat 0 first, three
each), the rest being the deck, top first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.core import Event, EventKind, Game, GameOptions, Outcome, rank_by_scores, seeded_rng
from games.errors import InvalidMoveError, quote

TILES = tuple(sorted(list(range(1, 7)) * 2))


@dataclass(frozen=True)
class TinyOptions(GameOptions):
    """Tiny Tiles has one option: the hand size."""

    hand: int = 3

    def validate(self) -> None:
        if not 1 <= self.hand <= 4:
            from games.errors import InvalidOptionsError

            raise InvalidOptionsError(f"Option 'hand' must be between 1 and 4, not {self.hand}.")


@dataclass(frozen=True)
class TinyState:
    hands: tuple[tuple[int, ...] | None, ...]
    deck: tuple[int, ...]
    deck_size: int
    scores: tuple[int, ...]
    to_act: int
    last: int
    forfeited: frozenset[int] = frozenset()
    last_move: str = ""
    played: tuple[int, ...] = ()
    """Tiles out of the game, in order: played, or in the hand of a seat that resigned."""
    sizes: tuple[int, ...] = ()
    """In a view: how many tiles each seat holds (hidden hands are None)."""


@dataclass(frozen=True)
class TinyMove:
    kind: str
    tile: int = 0


class TinyGame(Game[TinyState, TinyMove]):
    name = "tiny"
    title = "Tiny Tiles"
    aliases = ("tinytiles",)
    min_players = 2
    max_players = 3
    Options = TinyOptions
    summary = "Play a tile different from the last one; score its number. Draw or pass when stuck."
    notation_help = "A tile number (`4`), `draw` or `pass`."

    phrases: ClassVar[Mapping[str, str]] = {
        "tile": "plays {subject} {points}",
        "drew": "draws a tile",
        "passed": "passes",
        "all_played": "every tile was played",
    }
    hidden_information = True

    def _new(self, players: int, options: TinyOptions, seed: int, deal: Any) -> TinyState:
        order = list(deal) if deal is not None else list(TILES)
        if deal is None:
            seeded_rng(seed, "deal").shuffle(order)
        size = options.hand
        hands = tuple(tuple(sorted(order[i * size : (i + 1) * size])) for i in range(players))
        deck = tuple(order[players * size :])
        return TinyState(hands, deck, len(deck), (0,) * players, 0, 0)

    def to_act(self, state: TinyState) -> int | None:
        if self._over(state):
            return None
        return state.to_act

    def _over(self, state: TinyState) -> bool:
        live = [s for s in range(len(state.scores)) if s not in state.forfeited]
        if len(live) <= 1:
            return True
        return not state.deck_size and all(not state.hands[s] for s in live)

    def _legal_moves(self, state: TinyState) -> list[TinyMove]:
        hand = state.hands[state.to_act] or ()
        moves = [TinyMove("play", t) for t in sorted(set(hand)) if t != state.last]
        if state.deck_size and len(hand) < 5:
            moves.append(TinyMove("draw"))
        if not moves:
            moves.append(TinyMove("pass"))
        return moves

    def _parse_move(self, state: TinyState, text: str) -> TinyMove:
        word = text.lower()
        if word in ("draw", "pass"):
            return TinyMove(word)
        if word.isdigit() and len(word) == 1:
            return TinyMove("play", int(word))
        raise InvalidMoveError(f"{quote(text)} is not a move: write a tile like `4`, `draw` or `pass`.")

    def _why_illegal(self, state: TinyState, move: TinyMove) -> str:
        legal = ", ".join(self.format_move(state, m) for m in self.legal_moves(state))
        return f"{quote(self._format_move(state, move))} is not allowed now. Legal: {legal}."

    def _format_move(self, state: TinyState, move: TinyMove) -> str:
        return str(move.tile) if move.kind == "play" else move.kind

    def _apply(self, state: TinyState, move: TinyMove) -> tuple[TinyState, tuple[Event, ...]]:
        seat = state.to_act
        hands = list(state.hands)
        hand = list(hands[seat] or ())
        scores = list(state.scores)
        events: list[Event] = []
        last = state.last
        deck = state.deck
        played = state.played
        if move.kind == "play":
            hand.remove(move.tile)
            scores[seat] += move.tile
            last = move.tile
            played = (*state.played, move.tile)
            events.append(
                Event(EventKind.SCORE, seat=seat, points=move.tile, reason="tile", subject=str(move.tile))
            )
        elif move.kind == "draw":
            hand.append(deck[0])
            deck = deck[1:]
            events.append(Event(EventKind.DRAW, seat=seat, reason="drew", count=1))
        else:
            last = 0
            events.append(Event(EventKind.PASS, seat=seat, reason="passed"))
        hands[seat] = tuple(sorted(hand))
        after = replace(
            state,
            hands=tuple(hands),
            deck=deck,
            deck_size=len(deck),
            scores=tuple(scores),
            last=last,
            last_move=self.format_move(state, move),
            played=played,
        )
        after = replace(after, to_act=self._next(after, seat))
        if self._over(after):
            events.append(Event(EventKind.GAME_END, reason="all_played"))
        return after, tuple(events)

    def _next(self, state: TinyState, seat: int) -> int:
        count = len(state.scores)
        for step in range(1, count + 1):
            candidate = (seat + step) % count
            if candidate not in state.forfeited:
                return candidate
        return seat

    def outcome(self, state: TinyState) -> Outcome | None:
        if not self._over(state):
            return None
        ranks = rank_by_scores(state.scores, forfeited=state.forfeited)
        reason = "all_played" if not state.forfeited else "forfeit"
        return Outcome(state.scores, ranks, reason, state.forfeited)

    def scores(self, state: TinyState) -> tuple[int, ...]:
        return state.scores

    def _resign(self, state: TinyState, seat: int) -> tuple[TinyState, tuple[Event, ...]]:
        hands = list(state.hands)
        gone = tuple(state.hands[seat] or ())
        hands[seat] = ()
        after = replace(
            state, hands=tuple(hands), forfeited=state.forfeited | {seat}, played=(*state.played, *gone)
        )
        if state.to_act == seat:
            after = replace(after, to_act=self._next(after, seat))
        return after, (Event(EventKind.FORFEIT, seat=seat, reason="resigned"),)

    def _view(self, state: TinyState, seat: int | None) -> TinyState:
        sizes = tuple(len(h or ()) for h in state.hands)
        hands = tuple(h if i == seat else None for i, h in enumerate(state.hands))
        return replace(state, hands=hands, deck=(), sizes=sizes)

    def _determinize(self, view: TinyState, seat: int | None, rng: random.Random) -> TinyState:
        unseen = list(TILES)
        for tile in (*[t for h in view.hands if h for t in h], *view.played):
            unseen.remove(tile)
        rng.shuffle(unseen)
        hands = []
        for index, held in enumerate(view.hands):
            if held is None:
                size = view.sizes[index]
                held, unseen = tuple(sorted(unseen[:size])), unseen[size:]
            hands.append(held)
        return replace(view, hands=tuple(hands), deck=tuple(unseen), sizes=())

    def hand(self, state: TinyState, seat: int) -> tuple[str, ...] | None:
        held = state.hands[seat]
        return None if held is None else tuple(str(t) for t in held)

    def describe(self, state: TinyState, names: Sequence[str]) -> str:
        return f"deck {state.deck_size} · last {state.last or '-'}"


GAME = TinyGame()
