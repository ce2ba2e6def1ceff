"""The Tri-Ominos game object: identity, phrases, the protocol's hooks (each delegating to
:mod:`~games.triominos.rules` or :mod:`~games.triominos.notation`) and presentation helpers."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.ai.profile import SearchProfile
from games.core import Events, Game, GameOptions, Outcome
from games.triominos import notation, rules
from games.triominos.state import Move, MoveKind, Options, State
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

PHRASES: Mapping[str, str] = {
    # a placement
    "tile": "lays {subject} {points}",
    "opening_triple": "opens with a triple {points}",
    "opening_zeros": "opens with 0-0-0 {points}",
    "shows_triple": "shows {subject}, the highest triple in the hands",
    "hexagon": "closes a hexagon {points}",
    "hexagons": "closes {count} hexagons at once {points}",
    "bridge": "forms a bridge {points}",
    # drawing and passing
    "drew": "draws {count:@tile} from the well {points}",
    "drawn_fits": "drew {subject}, which fits and must be played now",
    "well_empty": "found nothing that fits and the well is empty: must pass",
    "draw_limit": "found nothing that fits in {count:@draw}: must pass",
    "passed": "passes {points}",
    "turn_lost": "loses the turn {points}",
    # the end of a round
    "went_out": "goes out and wins the round",
    "blocked": "wins the round with the fewest tiles: every player passed and the well is empty",
    "going_out": "takes the going-out bonus {points}",
    "others_hands": "scores {points} for the {count:@tile} left in the other hands",
    "own_hand": "counts {points} for the {count:@tile} left in their own hand",
    "opens_round": "opens round {count} with {subject}",
    # the end of the game (outcome reasons)
    "round_winner_at_target": "{name} won the last round and reached the target",
    "round_winner_over_higher": (
        "{name} won the last round at or above the target, and per the rules the round winner wins, "
        "even with fewer points"
    ),
    "highest_at_target": (
        "{name} has the highest score at or above the target (the round winner did not reach it)"
    ),
    "tie_at_target": "the highest scores at or above the target are equal, so the win is shared",
}


def round_over(game: Game[State, Move], searched: State, state: State) -> bool:
    """Playouts stop when the searched round is over (the next round's deal is all luck)."""
    return state.round != searched.round


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
    phrases: ClassVar[Mapping[str, str]] = PHRASES
    search_profile: ClassVar[SearchProfile] = SearchProfile(horizon=200, scale=30.0, stop=round_over)

    # -- hooks -----------------------------------------------------------------------------

    def _new(self, players: int, options: Any, seed: int, deal: Any) -> State:
        return rules.new_state(players, options, seed, deal)

    def to_act(self, state: State) -> int | None:
        """The seat to act, or None when the game is over."""
        return None if state.finished else state.turn

    def _legal_moves(self, state: State) -> Sequence[Move]:
        return rules.legal_moves(state)

    def _parse_move(self, state: State, text: str) -> Move:
        return notation.parse_move(text)

    def _format_move(self, state: State, move: Move) -> str:
        return notation.format_move(move)

    def _why_illegal(self, state: State, move: Move) -> str:
        return notation.why_illegal(state, move)

    def _apply(self, state: State, move: Move) -> tuple[State, Events]:
        return rules.apply_move(state, move)

    def _resign(self, state: State, seat: int) -> tuple[State, Events]:
        return rules.resign(state, seat)

    def _on_timeout(self, state: State) -> tuple[State, Events]:
        """The opening is laid for the opener; any other turn loses 10 points and passes."""
        return rules.on_timeout(state)

    def _view(self, state: State, seat: int | None) -> State:
        return rules.view(state, seat)

    def _determinize(self, view: State, seat: int | None, rng: random.Random) -> State:
        return rules.determinize(view, rng)

    def outcome(self, state: State) -> Outcome | None:
        """Winners first, then by score; forfeited seats last."""
        return rules.outcome(state)

    def scores(self, state: State) -> tuple[int, ...]:
        """The game totals."""
        return state.scores

    def hand(self, state: State, seat: int) -> tuple[str, ...] | None:
        """``seat``'s tiles by name, or None when this view hides them."""
        return None if seat in state.masked else state.hands[seat]

    # -- presentation and AI helpers ---------------------------------------------------------

    def forced_move(self, state: State) -> Move | None:
        """The only legal move, when there is one: ``draw`` when nothing fits, ``pass`` when
        nothing fits and the well is empty (or the draws are used up), the drawn tile's or the
        opening tile's only way to lie."""
        if self.to_act(state) is None:
            return None
        moves = self.legal_moves(state)
        return moves[0] if len(moves) == 1 else None

    def continues_turn(self, before: State, after: State) -> bool:
        """A draw leaves the turn running: the drawn tile is played, or the seat passes."""
        return not after.finished and after.turn == before.turn and bool(after.drawn or after.stuck)

    def describe(self, state: State, names: Sequence[str]) -> str:
        """Round, hand sizes, well size, and what the seat to act must do if it is forced."""
        sizes = ", ".join(f"{names[seat]} {len(state.hands[seat])}" for seat in state.active)
        parts = [f"Round {state.round} · tiles in hand: {sizes} · well: {len(state.well)}."]
        if not state.finished:
            if state.opening:
                parts.append(f"{names[state.turn]} opens at 0,0.")
            elif state.drawn:
                parts.append(f"{names[state.turn]} must play the drawn tile {state.drawn}.")
            elif state.stuck:
                parts.append(f"{names[state.turn]} found nothing and must `pass`.")
        return " ".join(parts)

    def move_label(self, state: State, move: Move) -> str:
        """The notation with its points and bonus (``453@2,-1 · +52 · bridge +40``)."""
        text = notation.format_move(move)
        if move.kind != MoveKind.PLACE:
            what = "draw until a tile fits, −5 each" if move.kind == MoveKind.DRAW else "−10, the turn passes"
            return f"{text} · {what}"
        tile_points, bonuses = rules.placement_points(state, move)
        label = f"{text} · +{tile_points + sum(found.points for found in bonuses)}"
        for found in bonuses:
            label += f" · {rules.bonus_label(found)} +{found.points}"
        if len(state.hands[state.turn]) == 1:
            label += " · goes out"
        return label

    def move_gain(self, state: State, move: Move) -> float:
        """Points now (tile, bonus, going out), minus penalties; a small bonus for shedding
        heavy tiles."""
        if move.kind != MoveKind.PLACE:
            return -float(rules.DRAW_PENALTY if move.kind == MoveKind.DRAW else rules.PASS_PENALTY)
        tile_points, bonuses = rules.placement_points(state, move)
        gain = float(tile_points + sum(found.points for found in bonuses))
        if len(state.hands[state.turn]) == 1 and not state.opening:
            gain += rules.GOING_OUT_BONUS + rules.others_total(state, state.turn)
        return gain + 0.01 * total(LAID_TO_TILE[move.laid])

    def evaluate(self, state: State, seat: int) -> float:
        """Score lead over the best other seat, minus a little for tiles still held."""
        result = self.outcome(state)
        if result is not None:
            return 1_000_000.0 if result.ranks[seat] == 1 else -1_000_000.0 * result.ranks[seat]
        others = [state.scores[s] for s in state.active if s != seat]
        return float(state.scores[seat] - (max(others) if others else 0) - len(state.hands[seat]))
