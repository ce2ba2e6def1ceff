"""The Tiny Tiles protocol object: the hooks of :class:`games.core.Game`, filled in from
:mod:`rules` and :mod:`notation`."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.core import Events, Game, Outcome, rank_by_scores
from games.errors import quote
from tests.support.tiny import notation, rules
from tests.support.tiny.state import Move, State
from tests.support.tiny.state import Options as TinyOptions


class TinyGame(Game[State, Move]):
    """Tiny Tiles: play a tile different from the last one and score its number."""

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

    def _new(self, players: int, options: TinyOptions, seed: int, deal: Any) -> State:
        return rules.deal(players, options, seed, deal)

    def to_act(self, state: State) -> int | None:
        return None if rules.is_over(state) else state.to_act

    def _legal_moves(self, state: State) -> list[Move]:
        return rules.legal_moves(state)

    def _parse_move(self, state: State, text: str) -> Move:
        return notation.parse_move(text)

    def _format_move(self, state: State, move: Move) -> str:
        return notation.format_move(move)

    def _why_illegal(self, state: State, move: Move) -> str:
        legal = ", ".join(notation.format_move(m) for m in self.legal_moves(state))
        return f"{quote(notation.format_move(move))} is not allowed now. Legal: {legal}."

    def _apply(self, state: State, move: Move) -> tuple[State, Events]:
        return rules.apply(state, move, notation.format_move(move))

    def _resign(self, state: State, seat: int) -> tuple[State, Events]:
        return rules.resign(state, seat)

    def _view(self, state: State, seat: int | None) -> State:
        return rules.view(state, seat)

    def _determinize(self, view: State, seat: int | None, rng: random.Random) -> State:
        return rules.determinize(view, rng)

    def outcome(self, state: State) -> Outcome | None:
        if not rules.is_over(state):
            return None
        ranks = rank_by_scores(state.scores, forfeited=state.forfeited)
        reason = "forfeit" if state.forfeited else "all_played"
        return Outcome(state.scores, ranks, reason, state.forfeited)

    def scores(self, state: State) -> tuple[int, ...]:
        return state.scores

    def hand(self, state: State, seat: int) -> tuple[str, ...] | None:
        held = state.hands[seat]
        return None if held is None else tuple(str(tile) for tile in held)

    def describe(self, state: State, names: Sequence[str]) -> str:
        return f"deck {state.deck_size} · last {state.last or '-'}"
