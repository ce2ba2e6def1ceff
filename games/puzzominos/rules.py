"""Puzz-Ominos for two players: the rules as pure functions of :class:`State`.

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
from typing import Any

from games.core import Event, EventKind, Events, Outcome, Seat, evolve, seeded_rng
from games.errors import InvalidOptionsError, quote
from games.puzzominos.board import frontier, iter_placements, placed_cells
from games.puzzominos.pieces import FREE_TURN_PIECES, Cell, distinct_orientations
from games.puzzominos.scoring import SMALL_GROUP, PlacementScore, estimate_place, score_placement, standings
from games.puzzominos.state import PASS, SET_SIZE, Move, MoveKind, Options, Placement, State

FIRST_SALT = "first"
"""The salt of the coin flip that decides who plays Red and starts."""


# -- a new game ----------------------------------------------------------------------------------


def new_state(options: Options, seed: int, deal: Any) -> State:
    """A new game: the coin flip (by ``seed``, or the ``deal``) decides which seat is Red and
    places the first piece at 0,0. Raises :class:`InvalidOptionsError` for a deal that is not
    ``null``, ``[]``, ``[0]`` or ``[1]``."""
    red = red_seat(options, seed, deal)
    return State(options=options, red=red, to_act=red)


def red_seat(options: Options, seed: int, deal: Any) -> Seat:
    """The seat that plays Red: the deal's, else the first seat in games stored before the
    coin flip (``first=seat0``), else the coin flip by the seed."""
    if deal is not None:
        if (
            not isinstance(deal, list)
            or len(deal) > 1
            or any(type(item) is not int or item not in (0, 1) for item in deal)
        ):
            raise InvalidOptionsError(
                f"Puzz-Ominos deals nothing but who plays Red: `deal` must be null, [] or [0] or [1] "
                f"(the seat that plays Red), not {quote(repr(deal))}."
            )
        if deal:
            return int(deal[0])
    if options.first == "seat0":
        return 0
    return seeded_rng(seed, FIRST_SALT).randrange(2)


# -- placements ----------------------------------------------------------------------------------


def targets(state: State, seat: Seat) -> set[Cell]:
    """The empty cells a placement of ``seat`` must cover one of (its own frontier; Red's
    pieces for Blue's first piece; nothing for Red's first piece, which goes at 0,0)."""
    own = state.squares[seat]
    if own:
        return frontier(own, state.occupied)
    other = state.squares[1 - seat]
    if other:
        return frontier(other, state.occupied)
    return set()


def iter_places(state: State, seat: Seat, pieces: Sequence[str] | None = None) -> Iterator[Move]:
    """Every legal placement of ``seat`` (of ``pieces`` if given), each once, in a fixed order."""
    chosen = state.left(seat) if pieces is None else pieces
    if not state.occupied:
        return (Move(MoveKind.PLACE, p, o, 0, 0) for p in chosen for o in distinct_orientations(p))
    cells = targets(state, seat)
    return (Move(MoveKind.PLACE, p, o, x, y) for p, o, x, y in iter_placements(chosen, cells, state.occupied))


def can_place(state: State, seat: Seat) -> bool:
    """True when ``seat`` has at least one legal placement."""
    return next(iter_places(state, seat), None) is not None


def may_pass(state: State) -> bool:
    """True when the seat to act may decline its Free Turn's second piece."""
    return state.second_piece and state.options.second_piece == "optional"


def legal_moves(state: State) -> list[Move]:
    """Every legal move of the seat to act (the game is not over)."""
    assert state.to_act is not None
    moves = list(iter_places(state, state.to_act))
    if may_pass(state):
        moves.append(PASS)
    return moves


def is_last_piece(state: State, seat: Seat) -> bool:
    """True when ``seat``'s next piece is its last (the 14th)."""
    return state.pieces_played[seat] == SET_SIZE - 1


def gain(state: State, seat: Seat, move: Move) -> int:
    """The cheap immediate points of placing ``move`` (see :func:`scoring.estimate`)."""
    last = is_last_piece(state, seat)
    opponent = state.squares[1 - seat]
    place = (move.piece, move.orientation, move.x, move.y)
    return estimate_place(*place, opponent, state.occupied, last=last, free=state.free_neighbours)


# -- playing -------------------------------------------------------------------------------------


def apply_move(state: State, move: Move) -> tuple[State, Events]:
    """The state after the legal ``move`` of the seat to act, and its events."""
    seat = state.to_act
    assert seat is not None
    if move.kind is MoveKind.PASS:
        return next_turn(state, seat, [Event(EventKind.PASS, seat=seat, reason="declined")])
    return place(state, seat, move)


def place(state: State, seat: Seat, move: Move) -> tuple[State, Events]:
    """Put ``move`` on the table for ``seat``, score it, and move the turn on."""
    cells = placed_cells(move.piece, move.orientation, move.x, move.y)
    last = is_last_piece(state, seat)
    result = score_placement(cells, state.squares[1 - seat], state.occupied, last=last)
    events = score_events(state, seat, result, last)
    squares = list(state.squares)
    squares[seat] = squares[seat] | set(cells)
    scores = list(state.scores)
    scores[seat] += result.total
    placement = Placement(
        seat, move.piece, move.orientation, move.x, move.y, state.turn, result.total, state.colour(seat)
    )
    after = evolve(
        state,
        placements=(*state.placements, placement),
        squares=(squares[0], squares[1]),
        occupied=state.occupied | set(cells),
        scores=(scores[0], scores[1]),
    )
    if len(after.played(seat)) == SET_SIZE:
        events.append(Event(EventKind.GAME_END, seat=seat, reason="all_played", count=SET_SIZE))
        return finish(after, "all_played", seat, events)
    if not state.second_piece and move.piece in FREE_TURN_PIECES:
        if can_place(after, seat):
            events.append(Event(EventKind.BONUS, seat=seat, reason="free_turn"))
            return evolve(after, second_piece=True), tuple(events)
        events.append(Event(EventKind.PASS, seat=seat, reason="free_turn_no_room"))
    return next_turn(after, seat, events)


def score_events(state: State, seat: Seat, result: PlacementScore, last: bool) -> list[Event]:
    """The facts of a placement's score: the opponent squares touched, then one event per
    enclosed empty group (so that the bot can merge them), scoring or not."""
    events: list[Event] = []
    if result.touched:
        other = state.colour(1 - seat).label
        events.append(
            Event(
                EventKind.SCORE,
                seat=seat,
                points=result.touched,
                count=result.touched,
                reason="touch",
                subject=other,
            )
        )
    for size in result.scoring_groups:
        reason = "enclose_last" if last and size > SMALL_GROUP else "enclose"
        events.append(Event(EventKind.SCORE, seat=seat, points=size, count=size, reason=reason))
    for size in result.idle_groups:
        events.append(Event(EventKind.INFO, seat=seat, count=size, reason="enclose_idle"))
    return events


def next_turn(state: State, seat: Seat, events: list[Event]) -> tuple[State, Events]:
    """End ``seat``'s turn: the other seat plays unless it cannot (then it is skipped)."""
    stuck = set(state.stuck)
    for candidate in (1 - seat, seat):
        if candidate in stuck:
            continue
        if can_place(state, candidate):
            after = evolve(
                state, to_act=candidate, turn=state.turn + 1, second_piece=False, stuck=frozenset(stuck)
            )
            return after, tuple(events)
        stuck.add(candidate)
        events.append(Event(EventKind.PASS, seat=candidate, reason="stuck"))
    events.append(Event(EventKind.GAME_END, reason="nobody_can_place"))
    return finish(evolve(state, stuck=frozenset(stuck)), "nobody_can_place", None, events)


def finish(state: State, reason: str, seat: Seat | None, events: list[Event]) -> tuple[State, Events]:
    """End the game for ``reason`` (said of ``seat``), with each seat's final score."""
    after = evolve(state, to_act=None, second_piece=False, end_reason=reason, end_seat=seat)
    for player in (after.red, 1 - after.red):
        score = after.scores[player]
        events.append(
            Event(
                EventKind.INFO,
                seat=player,
                count=score,
                reason="final_score",
                subject=after.colour(player).label,
            )
        )
    return after, tuple(events)


def resign(state: State, seat: Seat, timeout: bool = False) -> tuple[State, Events]:
    """``seat`` resigns (or ran out of time): the game ends and the other wins."""
    reason = "timeout" if timeout else "resigned"
    events = [Event(EventKind.TIMEOUT if timeout else EventKind.FORFEIT, seat=seat, reason=reason)]
    return finish(evolve(state, forfeited=state.forfeited | {seat}), reason, seat, events)


def outcome(state: State) -> Outcome | None:
    """The standings once the game is over: high score, then fewer pieces played, then a draw."""
    if state.to_act is not None:
        return None
    played = [len(state.played(seat)) for seat in (0, 1)]
    ranks = standings(state.scores, played, state.forfeited)
    return Outcome(state.scores, ranks, state.end_reason, state.forfeited, state.end_seat)
