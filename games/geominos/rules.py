"""The rules as pure functions of a :class:`~games.geominos.state.State`: setting up a game,
legal placements, playing a move, passes, time-outs, forfeits, match play, and what a seat may
see. Everything returns new states; nothing is mutated.

Events carry reason codes; their words are the ``phrases`` of
:class:`~games.geominos.game.Geominos`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.core import Event, EventKind, Events, Outcome, counted, evolve, rank_by_scores, seeded_rng
from games.errors import InvalidOptionsError, quote
from games.geominos.board import ASSESSED, SIZE, center_origin
from games.geominos.state import (
    HAND_SIZE,
    NO_PLACEMENT_PENALTY,
    TIME_PENALTY,
    Move,
    Options,
    Placed,
    State,
)
from games.geominos.tiles import ROTATIONS, SIDES, TILE_NAMES, Pose, pose, poses

HIDDEN = "?"
"""How a view shows a card it hides."""
TILES_BY_LOWER = {tile.lower(): tile for tile in TILE_NAMES}

# Reason codes of the events and outcomes (their words are the game's phrases).
ALL_PLACED = "all_placed"
BLOCKED = "blocked"
LAST_STANDING = "last_standing"


# -- set-up ---------------------------------------------------------------------------------


def resolve_tile(name: str) -> str | None:
    """The tile named ``name`` (any case, spaces around ignored), or None."""
    return TILES_BY_LOWER.get(name.strip().lower())


def read_deal(deal: Any, games: int) -> tuple[tuple[str, ...], ...]:
    """The decks of an explicit deal: a list of the 21 tile names (one game), or a list of such
    lists (one per game of a match, at most ``games``). Raises :class:`InvalidOptionsError`
    when it is anything else."""
    shape = "A Geominos deal is a list of the 21 tile names, or a list of such lists (one per game)."
    if not isinstance(deal, list | tuple) or not deal:
        raise InvalidOptionsError(shape)
    raw_decks = [deal] if all(isinstance(card, str) for card in deal) else list(deal)
    if len(raw_decks) > games:
        raise InvalidOptionsError(f"{shape} This game has {counted(games, 'game')}.")
    return tuple(read_deck(number, raw) for number, raw in enumerate(raw_decks, start=1))


def read_deck(number: int, raw: Any) -> tuple[str, ...]:
    """Deck ``number`` of a deal: each of the 21 tiles once, by name."""
    if not isinstance(raw, list | tuple) or not all(isinstance(card, str) for card in raw):
        raise InvalidOptionsError(f"Deck {number} of the deal must be a list of tile names.")
    if len(raw) != len(TILE_NAMES):
        raise InvalidOptionsError(
            f"Deck {number} of the deal must list each of the 21 tiles once, not {len(raw)} names."
        )
    names = [resolve_tile(card) for card in raw]
    unknown = [quote(card) for card, name in zip(raw, names, strict=True) if name is None]
    if unknown:
        named, tiles = ", ".join(unknown[:3]), ", ".join(TILE_NAMES)
        raise InvalidOptionsError(f"Deck {number} names unknown tiles {named}; the tiles are: {tiles}.")
    known = tuple(name for name in names if name is not None)
    if len(set(known)) != len(TILE_NAMES):
        raise InvalidOptionsError(f"Deck {number} of the deal must list each of the 21 tiles exactly once.")
    return known


def deck_for(seed: int, decks: tuple[tuple[str, ...], ...], game_index: int) -> tuple[str, ...]:
    """The shuffled deck of game ``game_index``: from the deal, else shuffled by the seed."""
    if game_index < len(decks):
        return decks[game_index]
    cards = list(TILE_NAMES)
    seeded_rng(seed, "geominos", "deck", game_index).shuffle(cards)
    return tuple(cards)


def seat_order(players: int, first: int, forfeited: Iterable[int]) -> list[int]:
    """The seats still playing, ``first`` (or the next one still playing) first, then to the left."""
    gone = set(forfeited)
    return [(first + step) % players for step in range(players) if (first + step) % players not in gone]


def new_state(players: int, options: Options, seed: int, deal: Any) -> State:
    """A new game (the first of a match), up to the first seat that can place a tile."""
    games = players if options.match == "on" else 1
    decks = read_deal(deal, games) if deal is not None else ()
    empty = tuple(() for _ in range(players))
    zero = tuple(0 for _ in range(players))
    blank = State(options, seed, decks, 0, 0, (), empty, (), (), None, zero, zero)
    state, _ = start_game(blank, 0, 0)
    return state


def start_game(state: State, game_index: int, starter: int) -> tuple[State, Events]:
    """Shuffle, place the center tile, set aside and deal; then the starter's turn."""
    order = seat_order(state.players, starter, state.forfeited)
    cards = list(deck_for(state.seed, state.decks, game_index))
    center_tile = cards.pop(0)
    row, col = center_origin(pose(center_tile, "A", 0))
    center = Placed(center_tile, "A", 0, row, col, None, 0)
    unseen: list[str] = []
    if len(order) == 3:
        unseen, cards = cards[-2:], cards[:-2]
    hands: list[list[str]] = [[] for _ in range(state.players)]
    mode = state.options.mode
    dealt = len(cards) if mode == "all" else (HAND_SIZE * len(order) if mode == "five" else 0)
    for index in range(min(dealt, len(cards))):
        hands[order[index % len(order)]].append(cards[index])
    fresh = evolve(
        state,
        game_index=game_index,
        starter=order[0],
        board=(center,),
        hands=tuple(tuple(hand) for hand in hands),
        deck=tuple(cards[dealt:]),
        unseen=tuple(unseen),
        aside=(),
        turn=None,
        points=tuple(0 for _ in range(state.players)),
        penalized=False,
        last=None,
    )
    began = Event(EventKind.INFO, reason="center_tile", count=game_index + 1, subject=center_tile)
    return next_turn(fresh, order[0], (began,))


# -- legal placements -----------------------------------------------------------------------


@cache
def _moves_of(tile: str, side: str, rotation: int) -> list[Move | None]:
    """The moves placing one pose, by the square of its top-left corner, made when first needed
    (a move is a value: sharing one saves making it again for every state)."""
    return [None] * (SIZE * SIZE)


@dataclass(frozen=True)
class Reach:
    """A pose as the bit masks see it: ``origins``, the squares its top-left corner may take
    (the pose then lies on the board); ``offsets``, each section's distance from that corner in
    square indices (``dr * 21 + dc``), with its pips."""

    origins: int
    offsets: tuple[tuple[int, int], ...]


@cache
def _reach(shape: Pose) -> Reach:
    """The :class:`Reach` of a pose."""
    rows, cols = range(SIZE - shape.height + 1), range(SIZE - shape.width + 1)
    origins = sum(1 << (row * SIZE + col) for row in rows for col in cols)
    return Reach(origins, tuple((dr * SIZE + dc, pips) for dr, dc, pips in shape.sections))


def _origins(state: State, shape: Pose) -> int:
    """A bit mask of the squares where ``shape``'s top-left corner makes a legal placement: on
    the board, no section on a taken square, some section beside one with the same pips.

    A mask shifted right by a section's offset moves each square to the corner that would put
    the section there; a square that wraps round a row edge lands outside ``origins``."""
    reach = _reach(shape)
    frontier = state.frontier
    occupied = state.occupied
    touching = 0
    blocked = 0
    for offset, pips in reach.offsets:
        touching |= frontier[pips] >> offset
        blocked |= occupied >> offset
    return touching & ~blocked & reach.origins


def placements(state: State, hand: Sequence[str]) -> list[Move]:
    """Every legal placement of every tile of ``hand``: tile by tile, side A then B, rotations
    in order, squares row by row."""
    found: list[Move] = []
    for tile in dict.fromkeys(hand):
        for shape in poses(tile):
            origins = _origins(state, shape)
            if not origins:
                continue
            found.extend(_moves_at(tile, shape, origins))
    return found


def _moves_at(tile: str, shape: Pose, corners: int) -> list[Move]:
    """The placements of ``tile`` in pose ``shape`` at the corners of the bit mask ``corners``,
    lowest square first (each move value made once and shared)."""
    made = _moves_of(tile, shape.side, shape.rotation)
    moves: list[Move] = []
    while corners:
        lowest = corners & -corners
        origin = lowest.bit_length() - 1
        corners ^= lowest
        move = made[origin]
        if move is None:
            move = made[origin] = Move(tile, shape.side, shape.rotation, *divmod(origin, SIZE))
        moves.append(move)
    return moves


@cache
def _cost_levels(shape: Pose) -> dict[int, int]:
    """The corners of a pose on the board by what the placement costs, cheapest first: cost ->
    bit mask of the corners."""
    reach = _reach(shape)
    levels: dict[int, int] = {}
    origins = reach.origins
    while origins:
        lowest = origins & -origins
        origin = lowest.bit_length() - 1
        origins ^= lowest
        cost = sum(pips for offset, pips in reach.offsets if ASSESSED[origin + offset])
        levels[cost] = levels.get(cost, 0) | lowest
    return dict(sorted(levels.items()))


def cheapest_placements(state: State, hand: Sequence[str]) -> list[tuple[str, int, list[Move]]]:
    """For each tile of ``hand`` that has a legal placement, in hand order: the tile, the
    least its placements cost, and its placements costing that (in the order of
    :func:`placements`). Found without listing the dearer placements."""
    found: list[tuple[str, int, list[Move]]] = []
    for tile in dict.fromkeys(hand):
        least: int | None = None
        fitting: list[tuple[Pose, int]] = []
        for shape in poses(tile):
            origins = _origins(state, shape)
            if not origins:
                continue
            fitting.append((shape, origins))
            for cost, corners in _cost_levels(shape).items():
                if origins & corners:
                    least = cost if least is None else min(least, cost)
                    break
        if least is None:
            continue
        moves: list[Move] = []
        for shape, origins in fitting:
            moves.extend(_moves_at(tile, shape, origins & _cost_levels(shape).get(least, 0)))
        found.append((tile, least, moves))
    return found


def is_placement(state: State, move: Move) -> bool | None:
    """Whether ``move`` is a legal placement for the seat to act, found from the board's masks
    without listing every placement; None when the move's fields are not plain names and
    whole numbers (let the list of legal moves decide)."""
    row, col = move.row, move.col
    if not (
        type(row) is int and type(col) is int and type(move.rotation) is int and isinstance(move.tile, str)
    ):
        return None
    if state.turn is None or state.finished or move.tile not in state.hands[state.turn]:
        return False
    if move.side not in SIDES or move.rotation not in ROTATIONS or not (0 <= row < SIZE and 0 <= col < SIZE):
        return False
    return bool(_origins(state, pose(move.tile, move.side, move.rotation)) >> (row * SIZE + col) & 1)


def legal_moves(state: State) -> list[Move]:
    """Every legal placement of the seat to act (none when the game is over)."""
    if state.turn is None or state.finished:
        return []
    return placements(state, state.hands[state.turn])


def can_place(state: State, hand: Sequence[str]) -> bool:
    """True when some tile of ``hand`` has a legal placement (stops at the first)."""
    return any(_origins(state, shape) for tile in dict.fromkeys(hand) for shape in poses(tile))


def move_cost(move: Move) -> int:
    """The points a placement costs."""
    return move.cost


# -- turns ------------------------------------------------------------------------------------


def _add_points(state: State, seat: int, points: int) -> State:
    bump = [points if index == seat else 0 for index in range(state.players)]
    return evolve(
        state,
        points=tuple(a + b for a, b in zip(state.points, bump, strict=True)),
        totals=tuple(a + b for a, b in zip(state.totals, bump, strict=True)),
    )


def _with_hand(state: State, seat: int, hand: tuple[str, ...]) -> State:
    hands = tuple(hand if index == seat else held for index, held in enumerate(state.hands))
    return evolve(state, hands=hands)


def all_placed(state: State) -> bool:
    """True when no tile in play is left to place (deck and hands of playing seats empty)."""
    if state.deck:
        return False
    return not any(hand for seat, hand in enumerate(state.hands) if seat not in state.forfeited)


def _draw_one(state: State, seat: int) -> tuple[State, Event]:
    """The top card's tile goes to ``seat``'s hand."""
    drawn = state.deck[0]
    after = evolve(_with_hand(state, seat, (*state.hands[seat], drawn)), deck=state.deck[1:])
    return after, Event(EventKind.DRAW, seat=seat, reason="drew", count=1, subject=drawn)


def _pass_over(state: State, seat: int) -> tuple[State, list[Event]]:
    """``seat`` holds tiles and none fits: +5 and the turn passes (in One-Tile its drawn tile
    is set aside, unplayed)."""
    hand = state.hands[seat]
    state = _add_points(state, seat, NO_PLACEMENT_PENALTY)
    if state.options.mode != "one":
        penalty = Event(EventKind.SCORE, seat=seat, points=NO_PLACEMENT_PENALTY, reason="no_fit")
        return state, [penalty, Event(EventKind.PASS, seat=seat, reason="passed")]
    tile = hand[0]
    state = evolve(_with_hand(state, seat, ()), aside=(*state.aside, tile))
    return state, [
        Event(EventKind.SCORE, seat=seat, points=NO_PLACEMENT_PENALTY, reason="drawn_no_fit", subject=tile),
        Event(EventKind.DISCARD, seat=seat, reason="set_aside", subject=tile),
        Event(EventKind.PASS, seat=seat, reason="passed"),
    ]


def next_turn(state: State, first: int, events: Events) -> tuple[State, Events]:
    """Give the turn to ``first`` or the next seat (to the left) that can place a tile.

    Seats with no legal placement are assessed 5 points and passed over (in One-Tile their drawn
    tile is set aside). The game ends when every tile in play is placed, or when no seat can
    place any tile.
    """
    order = seat_order(state.players, first, state.forfeited)
    log = list(events)
    idle = 0
    step = 0
    while True:
        if all_placed(state):
            return end_game(state, ALL_PLACED, tuple(log))
        seat = order[step % len(order)]
        step += 1
        if state.options.mode == "one" and not state.hands[seat]:
            state, drew = _draw_one(state, seat)
            log.append(drew)
        hand = state.hands[seat]
        if hand and can_place(state, hand):
            return evolve(state, turn=seat, penalized=False), tuple(log)
        if hand:
            state, passed = _pass_over(state, seat)
            log.extend(passed)
        idle += 1
        if state.options.mode != "one" and idle >= len(order):
            return end_game(state, BLOCKED, tuple(log))


def _game_summary(state: State, reason: str) -> list[Event]:
    """A game of a match is over: why, then what each seat still playing was assessed in it."""
    number = state.game_index + 1
    summary = [Event(EventKind.ROUND_END, reason=f"game_{reason}", count=number)]
    summary.extend(
        Event(EventKind.ROUND_END, seat=seat, points=state.points[seat], reason="game_points", count=number)
        for seat in seat_order(state.players, 0, state.forfeited)
    )
    return summary


def end_game(state: State, reason: str, events: Events) -> tuple[State, Events]:
    """End the current game (``reason``: :data:`ALL_PLACED` or :data:`BLOCKED`): start the next
    game of a match, or finish."""
    done = evolve(state, past_games=(*state.past_games, state.points), turn=None, penalized=False)
    log = [*events, *(_game_summary(state, reason) if state.games > 1 else ())]
    playing = seat_order(state.players, 0, state.forfeited)
    if state.game_index + 1 < state.games and len(playing) >= 2:
        following, more = start_game(done, state.game_index + 1, (state.starter + 1) % state.players)
        return following, (*log, *more)
    finished = evolve(done, finished=True, reason=reason, reason_seat=None)
    return finished, (*log, Event(EventKind.GAME_END, reason=reason))


def apply_move(state: State, move: Move) -> tuple[State, Events]:
    """Place a legal tile for the seat to act, draw (Five-Tile), then the next turn."""
    seat = state.turn
    assert seat is not None
    cost = move_cost(move)
    hand = list(state.hands[seat])
    hand.remove(move.tile)
    placed = Placed(move.tile, move.side, move.rotation, move.row, move.col, seat, cost)
    after = evolve(
        _with_hand(state, seat, tuple(hand)),
        board=(*state.board, placed),
        last=len(state.board),
        plies=state.plies + 1,
        penalized=False,
        turn=None,
    )
    after = _add_points(after, seat, cost)
    events: list[Event] = [Event(EventKind.SCORE, seat=seat, points=cost, reason="pips", subject=move.tile)]
    if state.options.mode == "five" and after.deck:
        after, drew = _draw_one(after, seat)
        events.append(drew)
    return next_turn(after, (seat + 1) % state.players, tuple(events))


def resign(state: State, seat: int, reason: str = "resigned") -> tuple[State, Events]:
    """``seat`` (still playing, game not over) forfeits: it ranks last and its tiles leave
    play; the others play on if two or more are left. ``reason`` is the forfeit's phrase code."""
    after = evolve(
        _with_hand(state, seat, ()),
        forfeited=state.forfeited | {seat},
        aside=(*state.aside, *state.hands[seat]),
        plies=state.plies + 1,
    )
    events: Events = (Event(EventKind.FORFEIT, seat=seat, reason=reason),)
    playing = seat_order(after.players, 0, after.forfeited)
    if len(playing) < 2:
        left = playing[0] if playing else None
        finished = evolve(
            after,
            turn=None,
            finished=True,
            penalized=False,
            reason=LAST_STANDING,
            reason_seat=left,
            past_games=(*after.past_games, after.points),
        )
        return finished, (*events, Event(EventKind.GAME_END, seat=left, reason=LAST_STANDING))
    if state.turn == seat:
        return next_turn(evolve(after, turn=None), (seat + 1) % state.players, events)
    if all_placed(after):
        return end_game(after, ALL_PLACED, events)
    return after, events


def on_timeout(state: State) -> tuple[State, Events]:
    """The seat to act ran out of time: +5 and one more period the first time, then it forfeits."""
    seat = state.turn
    assert seat is not None
    if state.penalized:
        return resign(state, seat, "forfeit_timeout")
    after = evolve(_add_points(state, seat, TIME_PENALTY), penalized=True, plies=state.plies + 1)
    reason = f"time_penalty_{state.options.clock}"
    return after, (Event(EventKind.TIMEOUT, seat=seat, points=TIME_PENALTY, reason=reason),)


def outcome(state: State) -> Outcome | None:
    """Final standings: fewest total points first, forfeited seats last."""
    if not state.finished:
        return None
    ranks = rank_by_scores(state.totals, lower_is_better=True, forfeited=state.forfeited)
    return Outcome(state.totals, ranks, state.reason, frozenset(state.forfeited), state.reason_seat)


# -- hidden information -----------------------------------------------------------------------


def view(state: State) -> State:
    """What every seat sees (hands are public): the deck's order, the unseen cards, the decks
    of a deal and the seed hidden."""
    return evolve(
        state,
        deck=(HIDDEN,) * len(state.deck),
        unseen=(HIDDEN,) * len(state.unseen),
        decks=(),
        seed=0,
    )


def determinize(seen: State, rng: random.Random) -> State:
    """A whole state with the same view: the deck and the unseen cards drawn at random from the
    tiles the view leaves unaccounted for, and a fresh seed for the later games of a match."""
    known = {placed.tile for placed in seen.board}
    known.update(tile for hand in seen.hands for tile in hand)
    known.update(seen.aside)
    missing = [tile for tile in TILE_NAMES if tile not in known]
    rng.shuffle(missing)
    size = len(seen.deck)
    return evolve(
        seen,
        deck=tuple(missing[:size]),
        unseen=tuple(missing[size:]),
        seed=rng.getrandbits(63),
    )
