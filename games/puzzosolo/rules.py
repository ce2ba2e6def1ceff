"""Puzz-Ominos solitaire: the rules as pure functions of :class:`State`, and the solver's help
(hints, the solution shown on giving up, whether a chosen target can be filled at all).

Every search here has a node limit, never a time limit: a give-up replays to the same solution.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from games.core import Event, EventKind, Events, Outcome, evolve
from games.errors import InvalidOptionsError
from games.puzzominos import solver
from games.puzzominos.board import Place
from games.puzzominos.solver import CHECK_LIMIT, Verdict
from games.puzzominos.targets import PIECE_SIZE, Target, parse_target
from games.puzzosolo.state import GIVE_UP, UNDO, Move, MoveKind, Options, Placed, SoloStatus, State

GIVE_UP_LIMIT = 5_000
"""Positions the solver may look at to complete the player's own position when they give up
(then a solution of the empty target is shown instead)."""
SOLUTION_LIMIT = CHECK_LIMIT
"""Positions the solver may look at to find a solution of the empty target: the same search and
limit as :func:`check_target`, so every target a game was started on shows a solution."""
GIVE_UP_MOST = GIVE_UP_LIMIT + SOLUTION_LIMIT
"""The most positions a give-up looks at (25,000: a few seconds of CPU at worst)."""
HINT_LIMIT = solver.DEFAULT_LIMIT
"""Positions a hint may look at before saying the position is too open to decide quickly."""
WALLS_OFF = -3.0
"""The gain of a placement that leaves an empty region no piece can fill: below undo and giving
up, so that such placements come last in suggestions."""


def new_state(options: Options, deal: object) -> State:
    """An empty target. Raises :class:`InvalidOptionsError` for a deal (there is nothing to deal)."""
    if deal is not None and deal != []:
        raise InvalidOptionsError("Puzz-Ominos solitaire has no random deal; `deal` must be null or [].")
    return State(options=options)


# -- placements ----------------------------------------------------------------------------------


def prepare(state: State) -> None:
    """Compile the state's target for the solver (kept for later moves; a second or more for a
    drawn target of 120 squares)."""
    solver.problem(state.target)


@lru_cache(maxsize=32)
def placements(target: Target) -> tuple[tuple[int, Move], ...]:
    """Every placement of every piece name on the empty target, with its bitmask, in set order,
    then orientation, then reading order of the top-left square."""
    compiled = solver.problem(target)
    order = {name: i for i, name in enumerate(dict.fromkeys(target.pieces))}
    items = sorted(
        compiled.place_of.items(),
        key=lambda item: (order[item[1].piece], item[1].orientation, item[1].y, item[1].x),
    )
    return tuple((mask, Move(MoveKind.PLACE, p.piece, p.orientation, p.x, p.y)) for mask, p in items)


def mask_of(target: Target, place: Place) -> int | None:
    """The bitmask of ``place`` on ``target`` or None if it leaves the target."""
    return solver.problem(target).mask_of(place.cells)


def legal_places(state: State) -> list[Move]:
    """Every placement of a piece left that fits on the empty squares, without duplicates."""
    if state.status is not SoloStatus.PLAYING:
        return []
    left = Counter(state.left())
    covered = state.covered
    return [move for mask, move in placements(state.target) if not mask & covered and left[move.piece]]


def legal_moves(state: State) -> list[Move]:
    """Every placement, then ``undo`` (when a piece is down) and ``giveup``. Placements on a
    hint are legal too (:func:`is_legal`) but not listed: each duplicates a placement."""
    moves = legal_places(state)
    if state.placed:
        moves.append(UNDO)
    moves.append(GIVE_UP)
    return moves


def is_legal(state: State, move: object) -> bool:
    """True when ``move`` may be played now: a placement (on a hint or not) of a piece left onto
    empty squares of the target, ``undo`` with a piece down, ``giveup``."""
    if not isinstance(move, Move) or state.status is not SoloStatus.PLAYING:
        return False
    if move.kind is MoveKind.UNDO:
        return bool(state.placed)
    if move.kind is MoveKind.GIVE_UP:
        return move == GIVE_UP
    if not move.places:
        return False
    compiled = solver.problem(state.target)
    mask = compiled.mask_of_place.get(move.place)
    return mask is not None and not mask & state.covered and move.piece in state.left()


# -- playing -------------------------------------------------------------------------------------


def apply_move(state: State, move: Move) -> tuple[State, Events]:
    """The state after the legal ``move`` and its events."""
    if move.kind is MoveKind.UNDO:
        return undo(state)
    if move.kind is MoveKind.GIVE_UP:
        return give_up(state)
    return place(state, move.place, hinted=move.kind is MoveKind.HINT)


def place(state: State, where: Place, hinted: bool) -> tuple[State, Events]:
    """Put a piece on the target; the game is solved when the target is full."""
    mask = mask_of(state.target, where)
    assert mask is not None
    after = evolve(
        state,
        placed=(*state.placed, Placed(where, hinted)),
        covered=state.covered | mask,
        hints=state.hints + hinted,
    )
    reason = "placed_on_hint" if hinted else "placed"
    events = [Event(EventKind.PLAY, seat=0, reason=reason, count=after.empty_squares)]
    if after.empty_squares == 0:
        after = evolve(after, status=SoloStatus.SOLVED)
        solved = "target_solved_with_hints" if after.hints else "target_solved"
        events.append(
            Event(EventKind.GAME_END, seat=0, reason=solved, count=after.hints, subject=after.target.name)
        )
    return after, tuple(events)


def undo(state: State) -> tuple[State, Events]:
    """Take the last piece back."""
    last = state.placed[-1]
    mask = mask_of(state.target, last.place)
    assert mask is not None
    after = evolve(state, placed=state.placed[:-1], covered=state.covered & ~mask, undos=state.undos + 1)
    return after, (Event(EventKind.INFO, seat=0, reason="took_back", subject=format_place(last.place)),)


def give_up(state: State) -> tuple[State, Events]:
    """End without solving; the state keeps a solution to show (the position completed when a
    short search finds a completion, else a solution of the empty target, else none)."""
    solution = shown_solution(state)
    kept = bool(solution) and solution[: len(state.placed)] == state.places
    after = evolve(state, status=SoloStatus.GAVE_UP, solution=solution)
    events = [Event(EventKind.GAME_END, seat=0, reason="target_given_up", subject=state.target.name)]
    if not solution:
        events.append(Event(EventKind.INFO, seat=0, reason="no_solution_found"))
    else:
        shown = solution[len(state.placed) :] if kept else solution
        reason = "position_completed" if kept and state.placed else "a_solution"
        events.append(
            Event(EventKind.INFO, seat=0, reason=reason, subject=" ".join(map(format_place, shown)))
        )
    return after, tuple(events)


def resign(state: State) -> tuple[State, Events]:
    """Resigning a solitaire is giving up."""
    return give_up(state)


def outcome(state: State) -> Outcome | None:
    """Solved (with or without hints: a solve with hints is *helped*, counted apart) or given up;
    the score is the pieces placed without a hint."""
    if state.status is SoloStatus.PLAYING:
        return None
    if state.status is SoloStatus.GAVE_UP:
        return Outcome((0,), (1,), "gave_up", frozenset({0}), 0)
    if state.hints:
        return Outcome((state.own_pieces,), (1,), "solved_with_hints", frozenset(), 0, helped=frozenset({0}))
    return Outcome((state.own_pieces,), (1,), "solved", frozenset(), 0)


def format_place(where: Place) -> str:
    """``Lr1f@C4``."""
    return solver.format_solitaire(where)


# -- the solver's help ---------------------------------------------------------------------------


@lru_cache(maxsize=64)
def first_solution(target: Target, limit: int | None = SOLUTION_LIMIT) -> tuple[Place, ...]:
    """The solver's first solution of the empty target, or ``()`` when it has none or none was
    found within ``limit`` positions."""
    try:
        found = solver.complete(target, (), limit=limit)
    except solver.SearchLimitError:
        return ()
    return found or ()


def shown_solution(state: State) -> tuple[Place, ...]:
    """What giving up shows: the position completed when a short search finds a completion,
    else a solution of the empty target (``()`` when none was found)."""
    try:
        rest = solver.complete(state.target, state.places, limit=GIVE_UP_LIMIT)
    except solver.SearchLimitError:
        rest = None
    if rest is not None:
        return (*state.places, *rest)
    return first_solution(state.target, SOLUTION_LIMIT)


def hint_place(state: State, limit: int = HINT_LIMIT) -> Place | None:
    """One more piece of a completion of the position, or None when it cannot be completed.
    Raises :class:`solver.SearchLimitError` when the solver cannot decide within ``limit``
    positions."""
    rest = solver.complete(state.target, state.places, limit=limit)
    if not rest:
        return None
    return rest[0]


def walls_off(state: State, move: Move) -> bool:
    """True when placing ``move`` leaves an empty region that no piece can fill: a size that is
    not a multiple of 5, or pockets of 5 squares shaped like no piece left (or like more copies
    of a piece than are left)."""
    compiled = solver.problem(state.target)
    mask = compiled.mask_of_place.get(move.place)
    if mask is None:
        return False
    empty = compiled.full & ~state.covered
    sizes = [(region, region.bit_count()) for region in compiled.regions(empty ^ mask, compiled.beside(mask))]
    if any(size % PIECE_SIZE for _, size in sizes):
        return True
    pockets = [region for region, size in sizes if size == PIECE_SIZE]
    if not pockets:
        return False
    shapes = [compiled.place_of.get(pocket) for pocket in pockets]
    if any(shape is None for shape in shapes):
        return True
    left = Counter(state.left())
    left[move.piece] -= 1
    wanted = Counter(shape.piece for shape in shapes if shape is not None)
    return any(count > left[piece] for piece, count in wanted.items())


@dataclass(frozen=True)
class TargetCheck:
    """Whether a chosen target can be filled: the verdict and a sentence for the player."""

    verdict: Verdict
    message: str

    @property
    def refused(self) -> bool:
        """True unless the target is proven fillable: a game must not start on a target proven
        impossible, nor on one the solver could not decide (its give-up would have no solution
        to show, and its hints might never come)."""
        return self.verdict is not Verdict.SOLVABLE


def check_target(spec: str, limit: int | None = CHECK_LIMIT) -> TargetCheck:
    """Run the solver on the target ``spec`` names (an option value), within ``limit``
    positions (never seconds: the verdict is the same on any machine). Every target is decided
    (a solution, or proof that there is none) or refused with the reason. Raises
    :class:`InvalidOptionsError` when ``spec`` names no target."""
    target = parse_target(spec)
    found = solver.check(target, limit)
    name = f"`{target.name}`"
    if found.verdict is Verdict.SOLVABLE:
        return TargetCheck(found.verdict, f"{name} can be filled with {target.needed} pentominoes.")
    if found.verdict is Verdict.UNDECIDED:
        return TargetCheck(
            found.verdict,
            f"The solver could not tell within {found.positions:,} positions whether {name} can be "
            "filled, so no game starts on it: it may have no solution, and then giving up could show "
            "none and hints would not come. Draw a smaller or simpler shape, or choose a named target.",
        )
    why = f": {', '.join(found.homeless)} fit nowhere in it" if found.homeless else ""
    return TargetCheck(
        found.verdict,
        f"{name} cannot be filled with {target.needed} pentominoes{why} (the solver proved it). "
        "Choose another target or change the shape.",
    )
