"""Puzz-Ominos solitaire (``GAME``, registered as ``puzzosolo``): fill a target with pentominoes.

One player places pieces from the target's set (:mod:`games.puzzominos.targets`) onto the
target's own board, squares named ``A1`` (column letter, row number, ``A1`` top-left). The game
ends *solved* the moment the target is full, or *gave up*, which shows a solution.

Moves (canonical form first):

- ``Lr1f@C4``: piece, orientation (``r0``-``r3`` quarter turns clockwise, ``f`` flipped left to
  right first), and the square of the top-left corner of the placed piece's bounding box (that
  square need not be covered by the piece). Also ``L r1f @C4``, ``l r1 f c4``; no orientation
  means ``r0``.
- ``hint Lr1f@C4``: the same placement, made on the solver's advice (``/puzzominos hint``
  finds it); counted as a hint, and not in :meth:`legal_moves` (it duplicates a placement).
- ``undo`` (also ``back``, ``takeback``): take the last piece back.
- ``giveup`` (also ``give up``, ``quit``): end without solving; the state then carries a
  solution (a completion of the position when a short search finds one, else a fresh one).

There is no chance: ``seed`` is unused and ``deal`` must be None or ``[]``. The score is the
number of pieces on the board that the player placed without a hint (0 after giving up).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from games.core import Event, Events, Game, GameOptions, Outcome, Seat, require_choice
from games.errors import IllegalMoveError, InvalidMoveError, InvalidOptionsError
from games.puzzominos import solver
from games.puzzominos.notation import Place
from games.puzzominos.pieces import (
    Cell,
    Orientation,
    canonical_orientation,
    find_piece,
    oriented_cells,
)
from games.puzzominos.targets import TARGETS, Target, get_target, parse_square, square_name

DEFAULT_TARGET = "6x10"
GIVE_UP_LIMIT = 20_000
"""Positions the solver may look at to complete the player's own position when they give up."""
HINT_LIMIT = solver.DEFAULT_LIMIT
"""Positions a hint may look at before saying the position is too open to decide quickly."""
"""Search nodes a hint may spend before saying the position is too open to decide quickly."""


@dataclass(frozen=True)
class SoloOptions(GameOptions):
    """``target``: which shape to fill (see :data:`games.puzzominos.targets.TARGETS`)."""

    target: str = DEFAULT_TARGET

    def validate(self) -> None:
        require_choice("target", self.target, tuple(TARGETS))


@dataclass(frozen=True)
class Hint:
    """A placement made on the solver's advice."""

    place: Place


@dataclass(frozen=True)
class Undo:
    """Take the last piece back."""


@dataclass(frozen=True)
class GiveUp:
    """Stop without solving (a solution is shown)."""


UNDO = Undo()
GIVE_UP = GiveUp()
SoloMove = Place | Hint | Undo | GiveUp

UNDO_WORDS = frozenset({"undo", "back", "takeback", "take back"})
GIVE_UP_WORDS = frozenset({"giveup", "give up", "quit", "give-up"})

_MOVE = re.compile(
    r"^(?:(?P<hint>hint)\s*:?\s*)?(?P<piece>[a-z]\d?)\s*(?:r\s*(?P<rot>\d+))?\s*(?P<flip>f)?\s*@?\s*"
    r"(?P<square>[a-z]\s*\d+)$",
    re.IGNORECASE,
)
_TABLE_FORM = re.compile(r"[+-]?\d+\s*,\s*[+-]?\d+\s*$")

EXAMPLE = "`Lr1f@C4` (piece L, turned once clockwise after a flip, top-left corner on square C4)"


@dataclass(frozen=True)
class Placed:
    """A piece on the target, with whether a hint put it there."""

    place: Place
    hinted: bool = False

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The squares it covers (target coordinates)."""
        return cells_of(self.place)


@dataclass(frozen=True)
class SoloState:
    """A solitaire game: the target, the pieces on it, and how it ended."""

    options: SoloOptions = SoloOptions()
    placed: tuple[Placed, ...] = ()
    covered: int = 0
    """Bitmask of covered squares in the solver's numbering of the target."""
    hints: int = 0
    undos: int = 0
    status: str = "playing"
    """``playing``, ``solved`` or ``gave up``."""
    solution: tuple[Place, ...] = ()
    """After giving up: a full solution (the player's pieces first when they could stay)."""

    @property
    def target(self) -> Target:
        """The target being filled."""
        return get_target(self.options.target)

    @property
    def places(self) -> tuple[Place, ...]:
        """The placements on the board, in order."""
        return tuple(p.place for p in self.placed)

    def left(self) -> tuple[str, ...]:
        """The pieces not on the board, in set order (a name twice with two sets)."""
        remaining = Counter(self.target.pieces)
        remaining.subtract(p.place.piece for p in self.placed)
        return tuple(name for name in dict.fromkeys(self.target.pieces) for _ in range(remaining[name]))

    def covered_cells(self) -> frozenset[Cell]:
        """Every covered square."""
        return frozenset(cell for p in self.placed for cell in p.cells)

    @property
    def empty_squares(self) -> int:
        """How many target squares are still empty."""
        return len(self.target.cells) - 5 * len(self.placed)

    @property
    def own_pieces(self) -> int:
        """Pieces on the board placed without a hint."""
        return sum(1 for p in self.placed if not p.hinted)


def cells_of(place: Place) -> tuple[Cell, ...]:
    """The squares ``place`` covers."""
    return tuple((place.x + x, place.y + y) for x, y in oriented_cells(place.piece, place.orientation))


@cache
def placements(target: Target) -> tuple[tuple[int, Place], ...]:
    """Every placement of every piece name on the empty target, with its bitmask, in set order,
    then orientation, then reading order of the top-left square."""
    compiled = solver.problem(target)
    order = {name: i for i, name in enumerate(dict.fromkeys(target.pieces))}
    items = sorted(
        compiled.place_of.items(),
        key=lambda item: (order[item[1].piece], item[1].orientation, item[1].y, item[1].x),
    )
    return tuple(items)


def mask_of(target: Target, place: Place) -> int | None:
    """The bitmask of ``place`` on ``target`` or None if it leaves the target."""
    return solver.problem(target).mask_of(cells_of(place))


# -- notation -------------------------------------------------------------------------------------


def format_place(place: Place) -> str:
    """``Lr1f@C4``."""
    return f"{place.piece}{place.orientation.notation()}@{square_name(place.x, place.y)}"


def format_move(move: SoloMove) -> str:
    """The canonical text of any solitaire move."""
    if isinstance(move, Hint):
        return f"hint {format_place(move.place)}"
    if isinstance(move, Undo):
        return "undo"
    if isinstance(move, GiveUp):
        return "giveup"
    return format_place(move)


def parse(text: str) -> SoloMove:
    """Read a move (syntax only). Raises :class:`InvalidMoveError` saying what would be valid."""
    cleaned = " ".join(text.strip().split())
    lowered = cleaned.lower()
    if lowered in UNDO_WORDS:
        return UNDO
    if lowered in GIVE_UP_WORDS:
        return GIVE_UP
    match = _MOVE.match(cleaned)
    if match is None:
        if _TABLE_FORM.search(cleaned):
            raise InvalidMoveError(
                f"`{cleaned}`: in solitaire the corner is a square of the target, not x,y: e.g. {EXAMPLE}."
            )
        raise InvalidMoveError(
            f"`{cleaned}` is not a move. Write the piece, its orientation and the square of the top-left "
            f"corner of where it goes, e.g. {EXAMPLE}; or `undo`, or `giveup`."
        )
    piece = find_piece(match["piece"])
    if piece is None or len(piece) > 1:
        raise InvalidMoveError(
            f"`{cleaned}`: there is no piece {match['piece'].upper()} in solitaire; "
            "the pieces are the pentominoes F I L N P T U V W X Y Z."
        )
    rotation = int(match["rot"] or 0)
    if rotation > 3:
        raise InvalidMoveError(
            f"`{cleaned}`: the orientation r{rotation} does not exist; use r0 to r3 "
            "(quarter turns clockwise), with f after it for a flipped piece, e.g. `r1f`."
        )
    x, y = parse_square(match["square"].replace(" ", ""))
    orientation = canonical_orientation(piece, Orientation(rotation, match["flip"] is not None))
    place = Place(piece, orientation, x, y)
    return Hint(place) if match["hint"] else place


# -- rules ----------------------------------------------------------------------------------------


def legal_places(state: SoloState) -> list[Place]:
    """Every placement of a piece left that fits on the empty squares, without duplicates."""
    if state.status != "playing":
        return []
    left = Counter(state.left())
    covered = state.covered
    return [place for mask, place in placements(state.target) if not mask & covered and left[place.piece]]


def illegal_reason(state: SoloState, place: Place) -> str | None:
    """Why ``place`` cannot go on the board now (a sentence), or None when it can."""
    text = f"`{format_place(place)}`"
    target = state.target
    if place.piece not in target.pieces:
        return f"{text}: {place.piece} is not in this target's set."
    if place.piece not in state.left():
        return f"{text}: {place.piece} is already on the board; pieces left: {', '.join(state.left())}."
    cells = cells_of(place)
    off = [c for c in cells if c not in target.cells]
    if off:
        squares = ", ".join(_square(c) for c in off)
        return f"{text}: it would cover {squares}, outside the target.{_suggest(state, place.piece)}"
    taken = sorted(set(cells) & state.covered_cells(), key=lambda c: (c[1], c[0]))
    if taken:
        squares = ", ".join(_square(c) for c in taken)
        return f"{text}: it would cover {squares}, already covered.{_suggest(state, place.piece)}"
    return None


def _square(cell: Cell) -> str:
    x, y = cell
    return square_name(x, y) if x >= 0 and y >= 0 else f"{x},{y}"


def _suggest(state: SoloState, piece: str) -> str:
    options = [format_place(p) for p in legal_places(state) if p.piece == piece][:3]
    if not options:
        return f" {piece} fits nowhere now (`undo` takes the last piece back)."
    return f" {piece} fits e.g. at " + ", ".join(f"`{o}`" for o in options) + "."


@cache
def first_solution(target: Target) -> tuple[Place, ...]:
    """The solver's first solution of the empty target (well under a second on every target)."""
    found = solver.complete(target, (), limit=None)
    if found is None:
        raise InvalidOptionsError(f"The target {target.name} has no solution.")
    return found


def shown_solution(state: SoloState) -> tuple[Place, ...]:
    """What giving up shows: the position completed when a short search finds a completion,
    else a solution of the empty target."""
    try:
        rest = solver.complete(state.target, state.places, limit=GIVE_UP_LIMIT)
    except solver.SearchLimitError:
        rest = None
    if rest is not None:
        return (*state.places, *rest)
    return first_solution(state.target)


def hint_place(state: SoloState, limit: int = HINT_LIMIT) -> Place | None:
    """One more piece of a completion of the position, or None when it cannot be completed.
    Raises :class:`solver.SearchLimitError` when the solver cannot decide within ``limit``
    positions."""
    rest = solver.complete(state.target, state.places, limit=limit)
    if not rest:
        return None
    return rest[0]


# -- the game -------------------------------------------------------------------------------------


def _place(state: SoloState, place: Place, hinted: bool) -> tuple[SoloState, Events]:
    reason = illegal_reason(state, place)
    if reason is not None:
        raise IllegalMoveError(reason)
    mask = mask_of(state.target, place)
    assert mask is not None
    after = replace(
        state,
        placed=(*state.placed, Placed(place, hinted)),
        covered=state.covered | mask,
        hints=state.hints + hinted,
    )
    how = "placed on a hint · " if hinted else ""
    events = [Event("info", f"{how}{after.empty_squares} squares to fill", 0)]
    if after.empty_squares == 0:
        after = replace(after, status="solved")
        hints = f" with {after.hints} hint{'s' if after.hints != 1 else ''}" if after.hints else ""
        events.append(Event("game_end", f"solved {after.target.name}{hints}!", 0))
    return after, tuple(events)


def _undo(state: SoloState) -> tuple[SoloState, Events]:
    if not state.placed:
        raise IllegalMoveError("`undo`: there is no piece on the board to take back.")
    last = state.placed[-1]
    mask = mask_of(state.target, last.place)
    assert mask is not None
    after = replace(state, placed=state.placed[:-1], covered=state.covered & ~mask, undos=state.undos + 1)
    return after, (Event("info", f"took back {format_place(last.place)}", 0),)


def _give_up(state: SoloState) -> tuple[SoloState, Events]:
    solution = shown_solution(state)
    kept = solution[: len(state.placed)] == state.places
    how = "your position completed" if kept and state.placed else "a solution"
    after = replace(state, status="gave up", solution=solution)
    listed = " ".join(format_place(place) for place in solution[len(state.placed) if kept else 0 :])
    return after, (Event("game_end", f"gave up on {state.target.name}; {how}: {listed}", 0),)


class PuzzSolo(Game[SoloState, SoloMove]):
    """Puzz-Ominos solitaire: fill a target shape with pentominoes."""

    name = "puzzosolo"
    title = "Puzz-Ominos solitaire"
    aliases = ("puzzominos-solo", "puzz-solo", "puzzsolo")
    min_players = 1
    max_players = 1
    Options = SoloOptions
    hands_hidden = False
    table_per_player = True
    summary = (
        "Fill the target with pentominoes, no gaps and no overlaps: the 6x10 rectangle and its "
        "friends 5x12, 4x15, 3x20 (one set of 12); the 8x8 square with four empty squares "
        "(8x8-corners, 8x8-b2g7, 8x8-center); the big T (any 9 of the 12); 10x12 and 6x20 with "
        "both sets (24). `undo` takes the last piece back, `hint` places one more piece of a "
        "solution of your position (or says it cannot be completed), `giveup` shows a solution."
    )
    notation_help = (
        "Piece, orientation, square of the top-left corner of the placed piece's bounding box: "
        "`Lr1f@C4` (also `L r1f @C4`, `l r1 f c4`). Squares: column letter then row number, A1 "
        "top-left. Orientation r0-r3 = quarter turns clockwise, f = flipped left-right first. "
        "`undo` takes back the last piece, `giveup` ends the game and shows a solution."
    )

    def new(
        self, players: int, options: GameOptions | None = None, seed: int | None = None, deal: Any = None
    ) -> SoloState:
        """An empty target. No chance is involved: ``seed`` is unused, ``deal`` must be None or []."""
        if players != 1:
            raise InvalidOptionsError(f"Puzz-Ominos solitaire is for 1 player, not {players}.")
        if deal not in (None, []):
            raise InvalidOptionsError("Puzz-Ominos solitaire has no random deal; `deal` must be null or [].")
        opts = options if isinstance(options, SoloOptions) else SoloOptions()
        return SoloState(options=opts)

    def to_act(self, state: SoloState) -> Seat | None:
        return 0 if state.status == "playing" else None

    def legal_moves(self, state: SoloState) -> list[SoloMove]:
        if state.status != "playing":
            return []
        moves: list[SoloMove] = list(legal_places(state))
        if state.placed:
            moves.append(UNDO)
        moves.append(GIVE_UP)
        return moves

    def parse_move(self, state: SoloState, text: str) -> SoloMove:
        move = parse(text)
        if state.status != "playing":
            raise IllegalMoveError(f"`{text.strip()}`: the game is over ({state.status}).")
        if isinstance(move, Undo) and not state.placed:
            raise IllegalMoveError(f"`{text.strip()}`: there is no piece on the board to take back.")
        place = move.place if isinstance(move, Hint) else move
        if isinstance(place, Place):
            reason = illegal_reason(state, place)
            if reason is not None:
                raise IllegalMoveError(reason)
        return move

    def format_move(self, state: SoloState, move: SoloMove) -> str:
        return format_move(move)

    def apply(self, state: SoloState, move: SoloMove) -> tuple[SoloState, Events]:
        if state.status != "playing":
            raise IllegalMoveError(f"The game is over ({state.status}).")
        if isinstance(move, Undo):
            return _undo(state)
        if isinstance(move, GiveUp):
            return _give_up(state)
        if isinstance(move, Hint):
            return _place(state, move.place, True)
        return _place(state, move, False)

    def outcome(self, state: SoloState) -> Outcome | None:
        if state.status == "playing":
            return None
        forfeited = frozenset({0}) if state.status == "gave up" else frozenset()
        reason = f"{state.status} {state.target.name}"
        helped = frozenset({0}) if state.status == "solved" and state.hints else frozenset()
        if helped:
            reason += f" with {state.hints} hint{'s' if state.hints != 1 else ''}"
        return Outcome(self.scores(state), (1,), reason, forfeited, helped=helped)

    def variant(self, options: GameOptions) -> str | None:
        """Standings are kept per target (its name is its canonical form)."""
        return options.target if isinstance(options, SoloOptions) else DEFAULT_TARGET

    def scores(self, state: SoloState) -> tuple[int, ...]:
        return (0 if state.status == "gave up" else state.own_pieces,)

    def resign(self, state: SoloState, seat: Seat) -> tuple[SoloState, Events]:
        if state.status != "playing":
            return state, ()
        return _give_up(state)

    def view(self, state: SoloState, seat: Seat | None) -> SoloState:
        return state  # nothing is hidden

    def hand(self, state: SoloState, seat: Seat) -> tuple[str, ...] | None:
        return state.left()

    def describe(self, state: SoloState, names: Sequence[str]) -> str:
        target = state.target
        pieces = f"{len(state.placed)} of {target.needed} pieces placed"
        extra = f" · {state.hints} hint{'s' if state.hints != 1 else ''}" if state.hints else ""
        if state.status != "playing":
            return f"{target.name}: {pieces}{extra} · {state.status}"
        return f"{target.name}: {pieces}, {state.empty_squares} squares to fill{extra}"

    def move_gain(self, state: SoloState, move: SoloMove) -> float:
        if isinstance(move, Undo):
            return -2.0
        if isinstance(move, GiveUp):
            return -1.0  # at a dead end the greedy player gives up rather than undo forever
        return 1.0

    def move_label(self, state: SoloState, move: SoloMove) -> str:
        text = format_move(move)
        if isinstance(move, Place):
            squares = sorted(cells_of(move), key=lambda c: (c[1], c[0]))
            return f"{text} — covers {' '.join(_square(c) for c in squares)}"
        if isinstance(move, Undo):
            return f"{text} — take back {format_place(state.placed[-1].place)}"
        return f"{text} — stop and see a solution"


GAME = PuzzSolo()


def position(target: str, texts: Sequence[str]) -> SoloState:
    """A solitaire position after playing ``texts`` (for tests and examples)."""
    state = GAME.new(1, SoloOptions(target))
    for text in texts:
        state, _ = GAME.apply(state, GAME.parse_move(state, text))
    return state
