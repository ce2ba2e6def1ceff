"""Puzz-Ominos solitaire: the :class:`~games.core.Game` (identity, phrases, hooks)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.ai.profile import SearchProfile
from games.core import Events, Game, GameOptions, Outcome, Seat, counted
from games.puzzominos.solver import SearchLimitError
from games.puzzominos.targets import parse_target, square_name, standing_name
from games.puzzosolo import notation, rules
from games.puzzosolo.state import GIVE_UP, UNDO, Move, MoveKind, SoloStatus, State, placing
from games.puzzosolo.state import Options as SoloOptions

EXPERT_LIMIT = 50_000
"""Positions the computer's solver may look at for one move (every named target's first move
takes well under a second)."""


def solver_move(game: Game[State, Move], state: State) -> Move | None:
    """The computer's move: the next piece of the solver's completion of the position; ``undo``
    (or ``giveup`` on an empty target) when the solver proves there is none; None when it cannot
    tell within :data:`EXPERT_LIMIT` positions (the search then decides)."""
    try:
        where = rules.hint_place(state, EXPERT_LIMIT)
    except SearchLimitError:
        return None
    if where is None:
        return UNDO if state.placed else GIVE_UP
    return placing(where)


class PuzzSolo(Game[State, Move]):
    """Puzz-Ominos solitaire: fill a target shape with pentominoes."""

    name = "puzzosolo"
    title = "Puzz-Ominos solitaire"
    aliases = ("puzzominos-solo", "puzz-solo", "puzzsolo")
    min_players = 1
    max_players = 1
    Options = SoloOptions
    hands_hidden = False
    hidden_information = False
    table_per_player = True
    search_profile: ClassVar[SearchProfile] = SearchProfile(
        candidates=6, horizon=12, scale=3.0, expert=solver_move
    )
    summary = (
        "Fill the target with pentominoes, no gaps and no overlaps: the 6x10 rectangle and its "
        "friends 5x12, 4x15, 3x20 (one set of 12); the 8x8 square with four empty squares "
        "(8x8-corners, 8x8-b2g7, 8x8-center); the big T (any 9 of the 12); the big cross; "
        "10x12, 6x20 and the ring with both sets (24); or any rectangle WxH, or a shape you draw "
        "as rows of X and . (up to 60 squares take one set, up to 120 both). `undo` takes the "
        "last piece back, `hint` places one more piece of a solution of your position (or says "
        "it cannot be completed), `giveup` shows a solution."
    )
    notation_help = (
        "Piece, orientation, square of the top-left corner of the placed piece's bounding box: "
        "`Lr1f@C4` (also `L r1f @C4`, `l r1 f c4`). Squares: column letter then row number, A1 "
        "top-left. Orientation r0-r3 = quarter turns clockwise, f = flipped left-right first. "
        "`undo` takes back the last piece, `giveup` ends the game and shows a solution."
    )
    phrases: ClassVar[Mapping[str, str]] = {
        "placed": "{count:@square} left to fill",
        "placed_on_hint": "placed on a hint; {count:@square} left to fill",
        "took_back": "took back {subject}",
        "target_solved": "solved {subject}!",
        "target_solved_with_hints": "solved {subject} with {count:@hint}!",
        "target_given_up": "gave up on {subject}",
        "position_completed": "your position completed: {subject}",
        "a_solution": "a solution: {subject}",
        "no_solution_found": "the solver found no solution within its limit",
        "solved": "{name} solved the target without hints",
        "solved_with_hints": "{name} solved the target with hints",
        "gave_up": "{name} gave up",
    }
    """Outcome reasons: ``solved`` (no hint: a solve for the standings), ``solved_with_hints``
    (shown apart), ``gave_up``."""

    def _new(self, players: int, options: SoloOptions, seed: int, deal: Any) -> State:
        return rules.new_state(options, deal)

    def to_act(self, state: State) -> Seat | None:
        return 0 if state.status is SoloStatus.PLAYING else None

    def _legal_moves(self, state: State) -> list[Move]:
        return rules.legal_moves(state)

    def is_legal(self, state: State, move: Any) -> bool:
        """A placement on a hint is legal exactly when the same placement is, though it is not
        listed among the legal moves (it would double them); checked directly, without the list."""
        return rules.is_legal(state, move)

    def _parse_move(self, state: State, text: str) -> Move:
        return notation.parse_move(text)

    def _format_move(self, state: State, move: Move) -> str:
        return notation.format_move(move)

    def _why_illegal(self, state: State, move: Move) -> str:
        return notation.why_illegal(state, move)

    def _apply(self, state: State, move: Move) -> tuple[State, Events]:
        return rules.apply_move(state, move)

    def searches(self, state: State, move: Move) -> bool:
        return move.kind is MoveKind.GIVE_UP

    def prepare(self, state: State) -> None:
        rules.prepare(state)

    def _resign(self, state: State, seat: Seat) -> tuple[State, Events]:
        return rules.resign(state)

    def _view(self, state: State, seat: Seat | None) -> State:
        return state  # nothing is hidden, and the state keeps no seed

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def scores(self, state: State) -> tuple[int, ...]:
        return (0 if state.status is SoloStatus.GAVE_UP else state.own_pieces,)

    def forfeited(self, state: State) -> frozenset[Seat]:
        return frozenset({0}) if state.status is SoloStatus.GAVE_UP else frozenset()

    def hand(self, state: State, seat: Seat) -> tuple[str, ...] | None:
        return state.left()

    def variant(self, options: GameOptions) -> str | None:
        """The target as standings group it: the named target of the same shape (``10x6`` and a
        drawn 6x10 count as ``6x10``), else ``WxH`` for a rectangle or the canonical drawing."""
        if not isinstance(options, SoloOptions):
            return None
        return standing_name(parse_target(options.target))

    def describe(self, state: State, names: Sequence[str]) -> str:
        target = state.target
        pieces = f"{len(state.placed)} of {counted(target.needed, 'piece')} placed"
        extra = f" · {counted(state.hints, 'hint')}" if state.hints else ""
        if state.status is not SoloStatus.PLAYING:
            return f"{target.name}: {pieces}{extra} · {state.status}"
        return f"{target.name}: {pieces}, {counted(state.empty_squares, 'square')} to fill{extra}"

    def move_gain(self, state: State, move: Move) -> float:
        if move.kind is MoveKind.UNDO:
            return -2.0
        if move.kind is MoveKind.GIVE_UP:
            return -1.0  # at a dead end the greedy player gives up rather than undo forever
        if rules.walls_off(state, move):
            return rules.WALLS_OFF
        return 1.0 if move.kind is MoveKind.PLACE else 0.5

    def move_label(self, state: State, move: Move) -> str:
        text = notation.format_move(move)
        if move.places:
            squares = sorted(move.place.cells, key=lambda c: (c[1], c[0]))
            return f"{text} — covers {' '.join(square_name(*c) for c in squares)}"
        if move.kind is MoveKind.UNDO:
            return f"{text} — take back {rules.format_place(state.placed[-1].place)}"
        return f"{text} — stop and see a solution"


def position(target: str, texts: Sequence[str]) -> State:
    """A solitaire position after playing ``texts`` (for tests and examples)."""
    game = PuzzSolo()
    state = game.new(1, SoloOptions(target))
    for text in texts:
        state, _ = game.apply(state, game.parse_move(state, text))
    return state
