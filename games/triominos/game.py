"""The Tri-Ominos protocol object."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from games.core import Events, Game, GameOptions, Outcome, rank_by_scores
from games.errors import IllegalMoveError, InvalidOptionsError
from games.triominos import notation, rules
from games.triominos.state import HIDDEN, PLACE, Move, Options, State
from games.triominos.tiles import LAID_TO_TILE, total

SUMMARY = """\
2-6 players lay triangular tiles with a number 0-5 at each corner. Every corner that touches \
a tile on the table must show the same number, and a new tile shares at least one edge.
The highest triple opens at 0,0 for its total +10 (0-0-0: +40); with no triple, the highest \
total opens. Each play scores the tile's total. Closing a hexagon: +50 (two at once +60, three \
+70); a bridge: +40.
Nothing fits? `draw`: −5 a tile until one fits, which you must then play. Well empty: `pass`, −10.
Going out: +25 plus the tiles left in the other hands. Blocked round: the fewest tiles wins the \
others' hands minus its own. Rounds go on until someone reaches the target (400); the round \
is finished and the round winner wins if at or above it, else the highest score."""

NOTATION_HELP = """\
Write the numbers as they lie, from the top corner of an up cell (x+y even) or the bottom \
corner of a down cell, clockwise, then the cell x,y: `453@2,-1` (also `453 2,-1`, `4-5-3@2,-1`). \
x grows to the right, y downward; the board shows x along the top and y along the left. \
`draw` draws until a tile fits; `pass` when nothing fits and the well is empty."""


class Triominos(Game[State, Move]):
    """Tri-Ominos: match numbers on every touching corner; rounds to the target score."""

    name: ClassVar[str] = "triominos"
    title: ClassVar[str] = "Tri-Ominos"
    aliases: ClassVar[tuple[str, ...]] = ("tri", "triomino", "triominoes", "tri-ominos")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    Options: ClassVar[type[GameOptions]] = Options
    summary: ClassVar[str] = SUMMARY
    notation_help: ClassVar[str] = NOTATION_HELP

    def new(
        self, players: int, options: GameOptions | None = None, seed: int | None = None, deal: Any = None
    ) -> State:
        """A new game, dealt, with the opener to act (see the package docstring for ``deal``)."""
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptionsError(f"Tri-Ominos is for 2 to 6 players, not {players}.")
        chosen = options if options is not None else Options()
        if not isinstance(chosen, Options):
            raise InvalidOptionsError("Tri-Ominos needs its own options.")
        return rules.new_state(players, chosen, 0 if seed is None else seed, deal)

    def to_act(self, state: State) -> int | None:
        """The seat to act, or None when the game is over."""
        return None if state.finished else state.turn

    def legal_moves(self, state: State) -> list[Move]:
        """Every placement of a tile that fits, else ``draw`` or ``pass``."""
        return list(state.legal)

    def parse_move(self, state: State, text: str) -> Move:
        """Notation to a legal move (see ``notation_help``)."""
        return notation.parse_move(state, text)

    def format_move(self, state: State, move: Move) -> str:
        """Canonical notation: ``453@2,-1``, ``draw``, ``pass``."""
        return notation.format_move(move)

    def apply(self, state: State, move: Move) -> tuple[State, Events]:
        """Play a legal move; raises :class:`IllegalMoveError` for any other."""
        if move not in state.legal:
            text = notation.format_move(move)
            raise IllegalMoveError(notation.why_illegal(state, move, text))
        return rules.apply_move(state, move)

    def outcome(self, state: State) -> Outcome | None:
        """Winners first, then by score; forfeited seats last."""
        if not state.finished:
            return None
        tiebreak = [1 if seat in state.winners else 0 for seat in range(state.players)]
        keys = [(tiebreak[seat], state.scores[seat]) for seat in range(state.players)]
        ranks = rank_by_scores([0] * state.players, forfeited=state.forfeited, tiebreak=keys)
        return Outcome(state.scores, ranks, state.reason, state.forfeited)

    def scores(self, state: State) -> tuple[int, ...]:
        """The game totals."""
        return state.scores

    def resign(self, state: State, seat: int) -> tuple[State, Events]:
        """``seat`` forfeits and ranks last; the others play on while two remain."""
        return rules.forfeit(state, seat)

    def on_timeout(self, state: State) -> tuple[State, Events]:
        """Running out of time: the forced opening is laid for the opener; any other turn
        loses 10 points and passes (a tile drawn stays in the hand; it counts as a pass)."""
        if state.finished:
            return state, ()
        if state.opening:
            return rules.place(state, state.legal[0])
        return rules.pass_turn(state, "turn lost", rules.PASS_PENALTY)

    def view(self, state: State, seat: int | None) -> State:
        """Other hands and the well are masked (their sizes stay); the deal is removed."""
        hidden = frozenset(other for other in range(state.players) if other != seat)
        hands = tuple(
            (HIDDEN,) * len(hand) if index in hidden else hand for index, hand in enumerate(state.hands)
        )
        return replace(state, hands=hands, well=(HIDDEN,) * len(state.well), deal=None, masked=hidden)

    def hand(self, state: State, seat: int) -> tuple[str, ...] | None:
        """``seat``'s tiles by name, or None when this view hides them."""
        if seat in state.masked:
            return None
        return state.hands[seat]

    def describe(self, state: State, names: Sequence[str]) -> str:
        """Round, hand sizes, well size, a pending drawn tile, and the last round's summary."""
        sizes = ", ".join(f"{names[seat]} {len(state.hands[seat])}" for seat in state.active)
        parts = []
        if state.opening and state.round_summary:
            parts.append(state.round_summary)
        parts.append(f"Round {state.round} · tiles in hand: {sizes} · well: {len(state.well)}.")
        if not state.finished:
            if state.opening:
                parts.append(f"{names[state.turn]} opens at 0,0.")
            elif state.drawn:
                parts.append(f"{names[state.turn]} must play the drawn tile {state.drawn}.")
            elif state.stuck:
                parts.append(f"{names[state.turn]} found nothing and must `pass`.")
        return " ".join(parts)

    def move_label(self, state: State, move: Move) -> str:
        """The notation with its points and bonus (``453@2,-1 · +12 · bridge +40``)."""
        text = notation.format_move(move)
        if move.kind != PLACE:
            what = "draw until a tile fits, −5 each" if move.kind == "draw" else "−10, the turn passes"
            return f"{text} · {what}"
        tile_points, bonus_name, bonus_points = rules.placement_points(state, move)
        label = f"{text} · +{tile_points + bonus_points}"
        if bonus_points:
            label += f" · {bonus_name} +{bonus_points}"
        if len(state.hands[state.turn]) == 1:
            label += " · goes out"
        return label

    def move_gain(self, state: State, move: Move) -> float:
        """Points now (tile, bonus, going out), minus penalties; a small bonus for shedding
        heavy tiles."""
        if move.kind != PLACE:
            return -float(rules.DRAW_PENALTY if move.kind == "draw" else rules.PASS_PENALTY)
        tile_points, _, bonus_points = rules.placement_points(state, move)
        gain = float(tile_points + bonus_points)
        hand = state.hands[state.turn]
        if len(hand) == 1 and not state.opening:
            gain += rules.GOING_OUT_BONUS + rules.others_total(state, state.turn)
        return gain + 0.01 * total(LAID_TO_TILE[move.laid])

    def evaluate(self, state: State, seat: int) -> float:
        """Score lead over the best other seat, minus a little for tiles still held."""
        result = self.outcome(state)
        if result is not None:
            return 1_000_000.0 if result.ranks[seat] == 1 else -1_000_000.0 * result.ranks[seat]
        others = [state.scores[s] for s in state.active if s != seat]
        return float(state.scores[seat] - (max(others) if others else 0) - len(state.hands[seat]))
