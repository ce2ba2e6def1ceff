"""Puzz-Ominos for two players: the state, the turn structure and the :class:`Game` protocol.

Seat 0 is Red and starts; seat 1 is Blue (the session's seat assignment is the coin flip).
Turn rules this project fixed where the rules leave room:

- A turn is one piece; a turn that *begins* with a Free Turn piece (``V3`` or ``T4``) gives a
  second piece. With the default option ``second_piece=optional`` the player may decline it
  with ``pass``; with ``compulsory`` they must place one when they can. Either way, when no
  second placement exists the turn simply ends.
- A player who has no legal placement when their turn comes passes automatically, and (since
  the opponent's pieces can only take room away) is skipped for the rest of the game; the
  other plays on, turn after turn. When neither can place, the game ends.
- The game ends the moment a player has played all 14 pieces.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.core import Event, Events, Game, GameOptions, Outcome, Seat, require_choice
from games.errors import IllegalMoveError, InvalidOptionsError
from games.puzzominos import notation
from games.puzzominos.board import frontier, iter_placements, placed_cells
from games.puzzominos.notation import PASS, Move, Pass, Place
from games.puzzominos.pieces import (
    ALL_PIECES,
    FREE_TURN_PIECES,
    Cell,
    Cells,
    Orientation,
    distinct_orientations,
)
from games.puzzominos.scoring import estimate, score_placement, standings

SEAT_NAMES = ("Red", "Blue")
SET_SIZE = len(ALL_PIECES)
SECOND_PIECE_CHOICES = ("optional", "compulsory")
NO_SQUARES: frozenset[Cell] = frozenset()


@dataclass(frozen=True)
class PuzzOptions(GameOptions):
    """``second_piece``: whether a Free Turn's second piece may be declined (``pass``)."""

    second_piece: str = "optional"

    def validate(self) -> None:
        require_choice("second_piece", self.second_piece, SECOND_PIECE_CHOICES)


@dataclass(frozen=True)
class Placement:
    """A piece on the table, in the order played, with the turn it belongs to and its points."""

    seat: Seat
    piece: str
    orientation: Orientation
    x: int
    y: int
    turn: int
    points: int

    @property
    def cells(self) -> Cells:
        """The squares it covers."""
        return placed_cells(self.piece, self.orientation, self.x, self.y)

    @property
    def move(self) -> Place:
        """The move that put it there."""
        return Place(self.piece, self.orientation, self.x, self.y)


@dataclass(frozen=True)
class PuzzState:
    """The whole game: every placement, each colour's squares, scores and whose turn it is."""

    options: PuzzOptions = PuzzOptions()
    placements: tuple[Placement, ...] = ()
    squares: tuple[frozenset[Cell], frozenset[Cell]] = (NO_SQUARES, NO_SQUARES)
    occupied: frozenset[Cell] = NO_SQUARES
    scores: tuple[int, int] = (0, 0)
    to_act: Seat | None = 0
    turn: int = 1
    """The number of the current turn (1 is Red's first)."""
    second_piece: bool = False
    """True while the seat to act is placing the second piece of a Free Turn."""
    stuck: frozenset[Seat] = frozenset()
    """Seats that found no legal placement: they are skipped from then on."""
    forfeited: frozenset[Seat] = frozenset()
    end_reason: str = ""

    def played(self, seat: Seat) -> tuple[str, ...]:
        """The pieces ``seat`` has played, in order."""
        return tuple(p.piece for p in self.placements if p.seat == seat)

    def left(self, seat: Seat) -> tuple[str, ...]:
        """The pieces ``seat`` still holds, in set order."""
        done = set(self.played(seat))
        return tuple(piece for piece in ALL_PIECES if piece not in done)

    @property
    def last_turn(self) -> tuple[Placement, ...]:
        """The placements of the most recent turn that placed anything (highlighted on boards)."""
        if not self.placements:
            return ()
        turn = self.placements[-1].turn
        return tuple(p for p in self.placements if p.turn == turn)


def name(seat: Seat) -> str:
    """``Red`` or ``Blue``."""
    return SEAT_NAMES[seat]


def targets(state: PuzzState, seat: Seat) -> set[Cell]:
    """The empty cells a placement of ``seat`` must cover one of (its own frontier; Red's
    pieces for Blue's first piece; the single corner ``0,0`` for Red's first piece)."""
    own = state.squares[seat]
    if own:
        return frontier(own, state.occupied)
    other = state.squares[1 - seat]
    if other:
        return frontier(other, state.occupied)
    return set()


def placements(state: PuzzState, seat: Seat, pieces: Sequence[str] | None = None) -> list[Place]:
    """Every legal placement of ``seat`` (of ``pieces`` if given), without duplicates."""
    return list(_iter_places(state, seat, pieces))


def _iter_places(state: PuzzState, seat: Seat, pieces: Sequence[str] | None = None) -> Iterator[Place]:
    chosen = state.left(seat) if pieces is None else pieces
    if not state.occupied:
        return (Place(p, o, 0, 0) for p in chosen for o in distinct_orientations(p))
    cells = targets(state, seat)
    return (Place(p, o, x, y) for p, o, x, y in iter_placements(chosen, cells, state.occupied))


def can_place(state: PuzzState, seat: Seat) -> bool:
    """True when ``seat`` has at least one legal placement."""
    return next(_iter_places(state, seat), None) is not None


def illegal_reason(state: PuzzState, seat: Seat, move: Place) -> str | None:
    """Why ``move`` is not legal for ``seat`` now (a sentence), or None when it is legal."""
    text = f"`{notation.format_place(move)}`"
    if move.piece in state.played(seat):
        left = ", ".join(state.left(seat))
        return f"{text}: you have already played {move.piece}; your pieces left: {left}."
    cells = placed_cells(move.piece, move.orientation, move.x, move.y)
    if not state.occupied:
        if (move.x, move.y) != (0, 0):
            return (
                f"{text}: the first piece goes with the top-left corner of its bounding box at 0,0, "
                f"e.g. `{move.piece}{move.orientation.notation()}@0,0`."
            )
        return None
    taken = sorted((c for c in cells if c in state.occupied), key=lambda c: (c[1], c[0]))
    if taken:
        squares = ", ".join(f"{x},{y}" for x, y in taken)
        return f"{text}: it would cover {squares}, already taken.{_suggest(state, seat, move.piece)}"
    if not set(cells) & targets(state, seat):
        whose = "one of your pieces" if state.squares[seat] else "a Red piece (Blue's first piece)"
        return f"{text}: it must touch {whose} edge to edge.{_suggest(state, seat, move.piece)}"
    return None


def _suggest(state: PuzzState, seat: Seat, piece: str) -> str:
    options = [notation.format_place(m) for m in _first(_iter_places(state, seat, (piece,)), 3)]
    if not options:
        return f" {piece} has no legal place now."
    return " Legal for " + piece + ": " + ", ".join(f"`{o}`" for o in options) + ", …"


def _first(items: Iterator[Place], count: int) -> list[Place]:
    found: list[Place] = []
    for item in items:
        found.append(item)
        if len(found) == count:
            break
    return found


def is_last_piece(state: PuzzState, seat: Seat) -> bool:
    """True when ``seat``'s next piece is its last (the 14th)."""
    return len(state.played(seat)) == SET_SIZE - 1


def gain(state: PuzzState, seat: Seat, move: Place) -> int:
    """The cheap immediate points of ``move`` (see :func:`scoring.estimate`)."""
    cells = placed_cells(move.piece, move.orientation, move.x, move.y)
    return estimate(cells, state.squares[1 - seat], state.occupied, last=is_last_piece(state, seat))


def place(state: PuzzState, seat: Seat, move: Place) -> tuple[PuzzState, Events]:
    """Put ``move`` on the table for ``seat``, score it, and move the turn on."""
    cells = placed_cells(move.piece, move.orientation, move.x, move.y)
    last = is_last_piece(state, seat)
    result = score_placement(cells, state.squares[1 - seat], state.occupied, last=last)
    events = list(_score_events(seat, result.touched, result.scoring_groups, result.idle_groups, last))
    squares = list(state.squares)
    squares[seat] = squares[seat] | set(cells)
    scores = list(state.scores)
    scores[seat] += result.total
    placement = Placement(seat, move.piece, move.orientation, move.x, move.y, state.turn, result.total)
    after = replace(
        state,
        placements=(*state.placements, placement),
        squares=(squares[0], squares[1]),
        occupied=state.occupied | set(cells),
        scores=(scores[0], scores[1]),
    )
    if len(after.played(seat)) == SET_SIZE:
        return _finish(after, f"{name(seat)} played all {SET_SIZE} pieces", events)
    if not state.second_piece and move.piece in FREE_TURN_PIECES:
        if can_place(after, seat):
            events.append(Event("bonus", f"Free Turn: {name(seat)} plays a second piece", seat))
            return replace(after, second_piece=True), tuple(events)
        events.append(Event("pass", f"{name(seat)} has no place for a Free Turn's second piece", seat))
    return next_turn(after, seat, events)


def _score_events(
    seat: Seat, touched: int, scoring: tuple[int, ...], idle: tuple[int, ...], last: bool
) -> list[Event]:
    events: list[Event] = []
    if touched:
        plural = "s" if touched > 1 else ""
        text = f"touches {touched} {name(1 - seat)} square{plural} +{touched}"
        events.append(Event("score", text, seat, touched))
    for size in scoring:
        why = "last piece encloses" if last and size > 2 else "encloses"
        plural = "s" if size > 1 else ""
        events.append(Event("score", f"{why} {size} empty square{plural} +{size}", seat, size))
    for size in idle:
        events.append(Event("info", f"encloses {size} empty squares: no points (3 or more)", seat))
    return events


def next_turn(state: PuzzState, seat: Seat, events: list[Event]) -> tuple[PuzzState, Events]:
    """End ``seat``'s turn: the other seat plays unless it cannot (then it is skipped)."""
    stuck = set(state.stuck)
    for candidate in (1 - seat, seat):
        if candidate in stuck:
            continue
        if can_place(state, candidate):
            after = replace(
                state, to_act=candidate, turn=state.turn + 1, second_piece=False, stuck=frozenset(stuck)
            )
            return after, tuple(events)
        stuck.add(candidate)
        text = f"{name(candidate)} cannot place a piece and passes for the rest of the game"
        events.append(Event("pass", text, candidate))
    return _finish(replace(state, stuck=frozenset(stuck)), "neither player can place a piece", events)


def _finish(state: PuzzState, reason: str, events: list[Event]) -> tuple[PuzzState, Events]:
    after = replace(state, to_act=None, second_piece=False, end_reason=reason)
    played = [len(after.played(s)) for s in (0, 1)]
    ranks = standings(after.scores, played, after.forfeited)
    verdict = "a draw" if ranks[0] == ranks[1] else f"{name(ranks.index(1))} wins"
    tally = f"Red {after.scores[0]}, Blue {after.scores[1]}"
    events.append(Event("game_end", f"{reason}: {tally} — {verdict}"))
    return after, tuple(events)


class PuzzOminos(Game[PuzzState, Move]):
    """The two-player game: touch your opponent's squares, wall in small empty spaces."""

    name = "puzzominos"
    title = "Puzz-Ominos"
    aliases = ("puzz", "puzz-ominos", "puzzominoes")
    min_players = 2
    max_players = 2
    Options = PuzzOptions
    hands_hidden = False
    summary = (
        "Red (seat 0, starts) and Blue each have the 12 pentominoes plus two Free Turn pieces, V3 and T4. "
        "There is no board: Red's first piece goes at 0,0; Blue's first piece must touch Red; after "
        "that every piece must touch one of your own pieces edge to edge, without overlapping.\n"
        "Score 1 point per distinct opponent square your piece touches, plus 1 per square of each "
        "empty group of 1 or 2 squares your piece walls in (any size with your last piece).\n"
        "Begin a turn with a Free Turn piece to play a second piece. The game ends as soon as one "
        "player has played all 14: high score wins, then fewer pieces played, then a draw.\n"
        "Alone? `/puzzominos solo` starts a solitaire challenge: fill a target (6x10, 5x12, 4x15, "
        "3x20, three 8x8 squares with four holes, the big T, 10x12 and 6x20 with both sets)."
    )
    notation_help = (
        "Piece, orientation, top-left corner of the placed piece's bounding box: `Lr1f@3,-2` "
        "(also `L r1f @3,-2`, `l r1 f 3,-2`). Pieces: F I L N P T U V W X Y Z V3 T4; "
        "orientation r0-r3 = quarter turns clockwise, f = flipped left-right first. x grows to "
        "the right, y downward. `pass` declines a Free Turn's second piece."
    )

    def new(
        self, players: int, options: GameOptions | None = None, seed: int | None = None, deal: Any = None
    ) -> PuzzState:
        """A new game: Red (seat 0) to place the first piece at 0,0. No chance is involved, so
        ``seed`` is unused and ``deal`` must be None or an empty list."""
        if players != 2:
            raise InvalidOptionsError(f"Puzz-Ominos is for exactly 2 players, not {players}.")
        if deal not in (None, []):
            raise InvalidOptionsError("Puzz-Ominos has no random deal; `deal` must be null or [].")
        opts = options if isinstance(options, PuzzOptions) else PuzzOptions()
        return PuzzState(options=opts)

    def to_act(self, state: PuzzState) -> Seat | None:
        return state.to_act

    def legal_moves(self, state: PuzzState) -> list[Move]:
        seat = state.to_act
        if seat is None:
            return []
        moves: list[Move] = list(_iter_places(state, seat))
        if state.second_piece and state.options.second_piece == "optional":
            moves.append(PASS)
        return moves

    def parse_move(self, state: PuzzState, text: str) -> Move:
        move = notation.parse(text)
        seat = state.to_act
        if seat is None:
            raise IllegalMoveError(f"`{text.strip()}`: the game is over ({state.end_reason}).")
        if isinstance(move, Pass):
            if state.second_piece and state.options.second_piece == "optional":
                return move
            if state.second_piece:
                raise IllegalMoveError(
                    f"`{text.strip()}`: in this game a Free Turn's second piece is compulsory; place a piece."
                )
            raise IllegalMoveError(
                f"`{text.strip()}`: you can only pass to decline a Free Turn's second piece; place a piece."
            )
        reason = illegal_reason(state, seat, move)
        if reason is not None:
            raise IllegalMoveError(reason)
        return move

    def format_move(self, state: PuzzState, move: Move) -> str:
        return notation.format_move(move)

    def apply(self, state: PuzzState, move: Move) -> tuple[PuzzState, Events]:
        seat = state.to_act
        if seat is None:
            raise IllegalMoveError("The game is over; no more pieces can be played.")
        if isinstance(move, Pass):
            if not (state.second_piece and state.options.second_piece == "optional"):
                raise IllegalMoveError("`pass`: you can only pass to decline a Free Turn's second piece.")
            return next_turn(state, seat, [Event("pass", f"{name(seat)} declines the second piece", seat)])
        reason = illegal_reason(state, seat, move)
        if reason is not None:
            raise IllegalMoveError(reason)
        return place(state, seat, move)

    def outcome(self, state: PuzzState) -> Outcome | None:
        if state.to_act is not None:
            return None
        played = [len(state.played(seat)) for seat in (0, 1)]
        ranks = standings(state.scores, played, state.forfeited)
        return Outcome(state.scores, ranks, state.end_reason, state.forfeited)

    def scores(self, state: PuzzState) -> tuple[int, ...]:
        return state.scores

    def resign(self, state: PuzzState, seat: Seat) -> tuple[PuzzState, Events]:
        if state.to_act is None:
            return state, ()
        events = [Event("forfeit", f"{name(seat)} resigns", seat)]
        after = replace(state, forfeited=state.forfeited | {seat})
        return _finish(after, f"{name(seat)} resigned", events)

    def view(self, state: PuzzState, seat: Seat | None) -> PuzzState:
        return state  # everything is public

    def hand(self, state: PuzzState, seat: Seat) -> tuple[str, ...] | None:
        return state.left(seat)

    def describe(self, state: PuzzState, names: Sequence[str]) -> str:
        left = " · ".join(f"{name(s)}: {len(state.left(s))} pieces left" for s in (0, 1))
        if state.to_act is None:
            return f"{left} · game over ({state.end_reason})"
        extra = ""
        if state.second_piece:
            optional = state.options.second_piece == "optional"
            extra = f" · {name(state.to_act)}'s Free Turn: second piece"
            extra += " (or `pass`)" if optional else ""
        elif not state.placements:
            extra = " · Red's first piece goes at 0,0"
        elif len(state.placements) and not state.squares[1] and state.to_act == 1:
            extra = " · Blue's first piece must touch Red"
        if state.stuck:
            extra += " · cannot place: " + ", ".join(name(s) for s in sorted(state.stuck))
        return left + extra

    def move_gain(self, state: PuzzState, move: Move) -> float:
        seat = state.to_act
        if seat is None or isinstance(move, Pass):
            return -0.01  # placing a piece is never worse than declining it, all else equal
        return float(gain(state, seat, move))

    def move_label(self, state: PuzzState, move: Move) -> str:
        text = notation.format_move(move)
        if isinstance(move, Pass):
            return f"{text} — decline the Free Turn's second piece"
        return f"{text} — +{int(self.move_gain(state, move))}"


GAME = PuzzOminos()


def position(
    pieces: Sequence[tuple[Seat, str]],
    *,
    to_act: Seat = 0,
    scores: tuple[int, int] = (0, 0),
    options: PuzzOptions | None = None,
) -> PuzzState:
    """A position built from ``(seat, move text)`` pairs placed without rules or scoring
    (for tests, puzzles and rule examples); ``to_act`` begins a fresh turn."""
    state = PuzzState(options=options or PuzzOptions(), scores=scores)
    for turn, (seat, text) in enumerate(pieces, start=1):
        move = notation.parse(text)
        if not isinstance(move, Place):
            raise InvalidOptionsError(f"`{text}` does not place a piece.")
        cells = placed_cells(move.piece, move.orientation, move.x, move.y)
        squares = list(state.squares)
        squares[seat] = squares[seat] | set(cells)
        placement = Placement(seat, move.piece, move.orientation, move.x, move.y, turn, 0)
        state = replace(
            state,
            placements=(*state.placements, placement),
            squares=(squares[0], squares[1]),
            occupied=state.occupied | set(cells),
        )
    return replace(state, to_act=to_act, turn=len(pieces) + 1)
