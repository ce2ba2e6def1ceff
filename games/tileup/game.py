"""The Tile Up! game object: identity, the protocol's hooks (delegating to :mod:`rules` and
:mod:`notation`), and what players read (phrases, the turn line, move labels)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.ai.profile import SearchProfile
from games.core import Events, Game, Outcome, Seat, counted, outcome_phrase
from games.tileup import board as geo
from games.tileup import heuristics, notation, rules
from games.tileup import state as values
from games.tileup.data import CARD_LIMIT, TILE_LIMIT, card_label
from games.tileup.state import IDLE_ROUNDS, LEGACY_IDLE_ROUNDS, Move, MoveKind, State, Step

SUMMARY = (
    "Tile Up! (2–4 players): stack numbered tiles in three colours on an 11×11 board to form the "
    "shapes on goal cards. On your turn take ONE action: draw a goal card, draw three tiles, or place "
    "any number of tiles (next to a tile on the board, or on top of a different colour with a higher "
    "number). Before, during or after it, score the two face-up cards or your own: a whole same-colour "
    "region of top tiles with exactly the card's shape scores the sum of its stack heights. End your "
    "turn with at most 7 tiles and 3 goal cards. The game ends after the turn that covers all four corners."
)

PHRASES: Mapping[str, str] = {
    "drew_goal": "draws a goal card",
    "drew_tiles": "draws {count:@tile}",
    "deck_turned": "the discard pile is turned over as the new goal deck",
    "goal_card": "scores {subject} {points}",
    "face_up_replaced": "face-up card {count} is now {subject}",
    "face_up_gone": "no goal card is left to replace face-up card {count}",
    "discarded_tile": "discards {subject} into the bag",
    "discarded_goal": "discards goal card {subject}",
    "must_discard": f"must discard down to {TILE_LIMIT} tiles and {CARD_LIMIT} goal cards to end the turn",
    "turn_timeout": "ran out of time: the turn ends as it stands",
    rules.CORNERS_COVERED: "all four corners are covered",
    rules.EMPTY_BAG_ROUND: "a full round passed with no tile placed and the bag empty",
    rules.IDLE_ROUNDS_REASON[IDLE_ROUNDS]: "ten full rounds passed with no tile placed",
    rules.IDLE_ROUNDS_REASON[LEGACY_IDLE_ROUNDS]: "three full rounds passed with no tile placed",
    "wins": "{name} wins",
    "shares_win": "{name} shares the win",
}
"""Event reasons and end reasons, in words (``last_standing`` and ``resigned`` are common)."""


class TileUp(Game[State, Move]):
    """Tile Up!: the protocol object registered as ``tileup``."""

    name = "tileup"
    title = "Tile Up!"
    aliases = ("tile-up", "tile", "tile_up", "tileup!")
    min_players = 2
    max_players = 4
    Options = values.Options
    summary = SUMMARY
    notation_help = notation.NOTATION_HELP
    phrases: ClassVar[Mapping[str, str]] = PHRASES
    search_profile: ClassVar[SearchProfile] = SearchProfile(
        candidates=5,
        horizon=12,
        scale=8.0,
        switch=1.5,
        playout=lambda game, state, rng: heuristics.plan_move(state),
        order=lambda game, state, moves: heuristics.plan_first(moves, state),
        expert=lambda game, state: heuristics.settled_move(state),
        chance=lambda game, state, seat: heuristics.win_chance(state, seat),
    )

    # -- hooks -----------------------------------------------------------------------------

    def _new(self, players: int, options: values.Options, seed: int, deal: Any) -> State:
        return rules.new_state(players, options, seed, deal)

    def to_act(self, state: State) -> Seat | None:
        """The seat whose turn it is, or None when the game is over."""
        return None if state.over else state.to_act

    def _legal_moves(self, state: State) -> list[Move]:
        return rules.legal_moves(state)

    def _parse_move(self, state: State, text: str) -> Move:
        return notation.parse_move(state, text)

    def _format_move(self, state: State, move: Move) -> str:
        return notation.format_move(move)

    def _why_illegal(self, state: State, move: Move) -> str:
        return notation.why_illegal(state, move)

    def _apply(self, state: State, move: Move) -> tuple[State, Events]:
        return rules.apply_move(state, move, notation.format_move(move))

    def _resign(self, state: State, seat: Seat) -> tuple[State, Events]:
        return rules.resign(state, seat)

    def _on_timeout(self, state: State) -> tuple[State, Events]:
        """Out of time, the turn ends as it stands (no forfeit); see :func:`rules.on_timeout`."""
        return rules.on_timeout(state)

    def _view(self, state: State, seat: Seat | None) -> State:
        return rules.view(state, seat)

    def _determinize(self, view: State, seat: Seat | None, rng: random.Random) -> State:
        return rules.determinize(view, seat, rng)

    def outcome(self, state: State) -> Outcome | None:
        """Highest score wins, ties share; forfeited seats rank last."""
        return rules.outcome(state)

    def scores(self, state: State) -> tuple[int, ...]:
        """Every seat's points."""
        return state.scores

    def hand(self, state: State, seat: Seat) -> tuple[str, ...] | None:
        """``seat``'s tiles (``O4``) and goal cards (``goal 3: orange L4``), or None if hidden."""
        tiles, cards = state.tiles[seat], state.cards[seat]
        if tiles is None or cards is None:
            return None
        first = len(state.face_up) + 1
        return (*tiles, *(f"goal {first + i}: {card_label(card)}" for i, card in enumerate(cards)))

    # -- presentation and AI helpers ---------------------------------------------------------

    def forced_move(self, state: State) -> Move | None:
        """The only legal move, when there is just one (``end`` with nothing to do, a single
        possible discard)."""
        moves = self.legal_moves(state)
        return moves[0] if len(moves) == 1 else None

    def describe(self, state: State, names: Sequence[str]) -> str:
        """Turn step, tile and card counts, the face-up cards, bag and deck sizes."""
        holding = ", ".join(
            f"{names[s]} {counted(state.tile_counts[s], 'tile')} and {counted(state.card_counts[s], 'card')}"
            for s in range(state.players)
            if s not in state.forfeited
        )
        face = ", ".join(f"{n} {card_label(card)}" for n, card in enumerate(state.face_up, start=1))
        counts = f"bag {state.bag_size} · goal deck {state.deck_size} · discards {len(state.discards)}"
        return f"{self._step_text(state, names)}\nholding: {holding} · face up: {face or 'none'} · {counts}"

    def _step_text(self, state: State, names: Sequence[str]) -> str:
        result = rules.outcome(state)
        if result is not None:
            return f"game over ({outcome_phrase(self, result, names)})"
        seat = state.to_act
        left = state.tile_counts[seat]
        steps = {
            Step.START: "take one action (`goal`, `tiles` or place tiles like `O4@C5`), score cards any "
            "time, then `end`",
            Step.DREW: "action taken: score cards or `end`",
            Step.PLACED: f"placing: place more tiles ({counted(left, 'tile')} in hand), score cards or `end`"
            if left
            else "placing: no tiles left, score cards or `end`",
            Step.DISCARD: f"over the limits ({counted(left, 'tile')}, "
            f"{counted(state.card_counts[seat], 'goal card')}): `discard` "
            f"down to {TILE_LIMIT} tiles and {CARD_LIMIT} goal cards",
        }
        text = f"{names[seat]}: {steps[state.step]}"
        if state.step != Step.DISCARD:
            ready = [
                f"`{notation.format_move(move)}` +{self._points(state, move)}"
                for move in rules.score_moves(state)
                if move.card <= len(state.face_up)
            ]
            if ready:
                text += f" · face-up cards ready: {', '.join(ready)}"
        return text

    @staticmethod
    def _points(state: State, move: Move) -> int:
        """What the score ``move`` earns."""
        return geo.points(state.board, geo.region(state.board, move.square))

    def evaluate(self, state: State, seat: Seat) -> float:
        """The lead over the best other seat, counting more as the corners fill (see
        :func:`heuristics.closing_value`); +-1e6 once the game is over."""
        result = self.outcome(state)
        if result is not None:
            return 1_000_000.0 if result.ranks[seat] == 1 else -1_000_000.0 * result.ranks[seat]
        return heuristics.closing_value(state, seat)

    def move_gain(self, state: State, move: Move) -> float:
        """Points for a score; a small heuristic for the rest (see :mod:`heuristics`)."""
        return heuristics.move_gain(state, move)

    def move_label(self, state: State, move: Move) -> str:
        """Notation plus points for scores and what a placement sets up."""
        text = notation.format_move(move)
        if move.kind == MoveKind.SCORE:
            card = rules.scorable_cards(state, state.to_act)[move.card - 1]
            return f"{text} — +{self._points(state, move)} ({card_label(card)})"
        if move.kind == MoveKind.PLACE:
            enabled = heuristics.enabled_card(state, move)
            if enabled is not None:
                return f"{text} — makes {card_label(enabled[0])} (+{enabled[1]})"
            return text
        labels = {
            MoveKind.GOAL: "goal — draw a goal card",
            MoveKind.TILES: f"tiles — draw {counted(min(3, state.bag_size), 'tile')}",
            MoveKind.END: "end — end your turn",
        }
        return labels.get(move.kind, text)
