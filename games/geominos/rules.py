"""The rules: setting up a game, legal placements, playing a move, passes, time-outs, forfeits
and match play. Everything returns new states; nothing is mutated."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from games.core import Event, Outcome, rank_by_scores, seeded_rng
from games.errors import InvalidOptionsError
from games.geominos.board import SIZE, center_origin, placement_cost
from games.geominos.state import HAND_SIZE, Move, Options, Placed, State
from games.geominos.tiles import TILE_NAMES, pose, poses

NO_PLACEMENT_PENALTY = 5
TIME_PENALTY = 5
EXTRA_MINUTE = 60


# -- set-up ---------------------------------------------------------------------------------


def resolve_tile(name: str) -> str | None:
    """The tile named ``name`` (any case), or None."""
    for tile in TILE_NAMES:
        if tile.lower() == name.strip().lower():
            return tile
    return None


def read_deal(deal: Any) -> tuple[tuple[str, ...], ...]:
    """The decks of an explicit deal: a list of 21 tile names (one game), or a list of such
    lists (one per game of a match). Raises :class:`InvalidOptionsError` when malformed."""
    if not isinstance(deal, list | tuple) or not deal:
        raise InvalidOptionsError("A Geominos deal is a list of the 21 tile names, or a list of such lists.")
    raw_decks = [deal] if all(isinstance(card, str) for card in deal) else list(deal)
    decks = []
    for number, raw in enumerate(raw_decks, start=1):
        if not isinstance(raw, list | tuple) or not all(isinstance(card, str) for card in raw):
            raise InvalidOptionsError(f"Deck {number} of the deal must be a list of tile names.")
        names = [resolve_tile(card) for card in raw]
        unknown = [card for card, name in zip(raw, names, strict=True) if name is None]
        if unknown:
            raise InvalidOptionsError(
                f"Deck {number} names unknown tiles {unknown}; the tiles are: {', '.join(TILE_NAMES)}."
            )
        known = [name for name in names if name is not None]
        if sorted(known) != sorted(TILE_NAMES):
            raise InvalidOptionsError(f"Deck {number} must list each of the 21 tiles exactly once.")
        decks.append(tuple(known))
    return tuple(decks)


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
    decks = read_deal(deal) if deal is not None else ()
    empty = tuple(() for _ in range(players))
    zero = tuple(0 for _ in range(players))
    blank = State(options, seed, decks, 0, 0, (), empty, (), (), None, zero, zero)
    state, _ = start_game(blank, 0, 0)
    return state


def start_game(state: State, game_index: int, starter: int) -> tuple[State, tuple[Event, ...]]:
    """Shuffle, place the center tile, set aside and deal; then the starter's turn."""
    order = seat_order(state.players, starter, state.forfeited)
    cards = list(deck_for(state.seed, state.decks, game_index))
    center_tile = cards.pop(0)
    center_pose = pose(center_tile, "A", 0)
    row, col = center_origin(center_pose)
    center = Placed(center_tile, "A", 0, row, col, None, 0)
    aside: list[str] = []
    if len(order) == 3:
        aside, cards = cards[-2:], cards[:-2]
    hands: list[list[str]] = [[] for _ in range(state.players)]
    mode = state.options.mode
    dealt = len(cards) if mode == "all" else (HAND_SIZE * len(order) if mode == "five" else 0)
    for index in range(min(dealt, len(cards))):
        hands[order[index % len(order)]].append(cards[index])
    cards = cards[dealt:]
    fresh = replace(
        state,
        game_index=game_index,
        starter=order[0] if order else starter,
        board=(center,),
        hands=tuple(tuple(hand) for hand in hands),
        deck=tuple(cards),
        aside=tuple(aside),
        turn=None,
        points=tuple(0 for _ in range(state.players)),
        penalized=False,
        last=None,
    )
    events = (Event("info", f"Game {game_index + 1}: {center_tile} is the center tile."),)
    return next_turn(fresh, order[0] if order else starter, events)


# -- legal placements -----------------------------------------------------------------------


def _candidates(state: State, tile: str) -> Iterator[Move]:
    """Every legal placement of ``tile``, side A then B, rotations in order, squares row by row."""
    frontier = state.frontier
    occupied = state.occupied
    for shape in poses(tile):
        last_row = SIZE - shape.height
        last_col = SIZE - shape.width
        origins: set[int] = set()
        for dr, dc, pips in shape.sections:
            for row, col in frontier[pips]:
                top, left = row - dr, col - dc
                if 0 <= top <= last_row and 0 <= left <= last_col:
                    origins.add(top * SIZE + left)
        mask = shape.mask
        for origin in sorted(origins):
            if not (mask << origin) & occupied:
                yield Move(tile, shape.side, shape.rotation, origin // SIZE, origin % SIZE)


def placements(state: State, hand: Sequence[str]) -> list[Move]:
    """Every legal placement of every tile of ``hand``."""
    found: list[Move] = []
    for tile in dict.fromkeys(hand):
        found.extend(_candidates(state, tile))
    return found


def can_place(state: State, hand: Sequence[str]) -> bool:
    """True when some tile of ``hand`` has a legal placement (stops at the first)."""
    return any(next(_candidates(state, tile), None) is not None for tile in dict.fromkeys(hand))


def move_cost(move: Move) -> int:
    """The points a placement costs."""
    return placement_cost(move.tile, move.side, move.rotation, move.row, move.col)


# -- turns ------------------------------------------------------------------------------------


def _add_points(state: State, seat: int, points: int) -> State:
    bump = [points if index == seat else 0 for index in range(state.players)]
    return replace(
        state,
        points=tuple(a + b for a, b in zip(state.points, bump, strict=True)),
        totals=tuple(a + b for a, b in zip(state.totals, bump, strict=True)),
    )


def _with_hand(state: State, seat: int, hand: tuple[str, ...]) -> State:
    hands = tuple(hand if index == seat else held for index, held in enumerate(state.hands))
    return replace(state, hands=hands)


def all_placed(state: State) -> bool:
    """True when no tile in play is left to place (deck and hands of playing seats empty)."""
    if state.deck:
        return False
    return not any(hand for seat, hand in enumerate(state.hands) if seat not in state.forfeited)


def next_turn(state: State, first: int, events: tuple[Event, ...]) -> tuple[State, tuple[Event, ...]]:
    """Give the turn to ``first`` or the next seat (to the left) that can place a tile.

    Seats with no legal placement are assessed 5 points and passed over (in One-Tile their drawn
    tile is set aside). The game ends when every tile in play is placed, or when no seat can
    place any tile.
    """
    order = seat_order(state.players, first, state.forfeited)
    if len(order) < 2:
        return end_game(state, "only one player is left", events)
    log = list(events)
    idle = 0
    step = 0
    while True:
        if all_placed(state):
            return end_game(state, "every tile is placed", tuple(log))
        seat = order[step % len(order)]
        step += 1
        if state.options.mode == "one" and not state.hands[seat]:
            drawn = state.deck[0]
            state = replace(_with_hand(state, seat, (drawn,)), deck=state.deck[1:])
            log.append(Event("draw", f"seat {seat + 1} draws {drawn}", seat))
        hand = state.hands[seat]
        if hand and can_place(state, hand):
            return replace(state, turn=seat, penalized=False), tuple(log)
        if hand:
            state = _add_points(state, seat, NO_PLACEMENT_PENALTY)
            log.append(
                Event(
                    "score",
                    f"seat {seat + 1}: no legal placement +{NO_PLACEMENT_PENALTY}",
                    seat,
                    NO_PLACEMENT_PENALTY,
                )
            )
            log.append(Event("pass", "", seat))  # the score event above says it
            if state.options.mode == "one":
                state = replace(_with_hand(state, seat, ()), aside=(*state.aside, *hand))
        idle += 1
        if state.options.mode != "one" and idle >= len(order):
            return end_game(state, "no player can place a tile", tuple(log))


def end_game(state: State, reason: str, events: tuple[Event, ...]) -> tuple[State, tuple[Event, ...]]:
    """End the current game: start the next game of a match, or finish."""
    number = state.game_index + 1
    past = (*state.past_games, state.points)
    summary = ", ".join(f"seat {seat + 1}: {points}" for seat, points in enumerate(state.points))
    playing = seat_order(state.players, 0, state.forfeited)
    games = state.players if state.options.match == "on" else 1
    done = replace(state, past_games=past, turn=None, penalized=False)
    if number < games and len(playing) >= 2:
        log = (*events, Event("round_end", f"game {number} of {games} over ({reason}): {summary}"))
        starter = (state.starter + 1) % state.players
        following, more = start_game(done, number, starter)
        return following, (*log, *more)
    finished = replace(done, finished=True, reason=reason)
    return finished, (*events, Event("game_end", f"game over: {reason}"))


def apply_move(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """Place a legal tile for the seat to act, draw (Five-Tile), then the next turn."""
    seat = state.turn
    assert seat is not None
    cost = move_cost(move)
    hand = list(state.hands[seat])
    hand.remove(move.tile)
    placed = Placed(move.tile, move.side, move.rotation, move.row, move.col, seat, cost)
    after = replace(
        _with_hand(state, seat, tuple(hand)),
        board=(*state.board, placed),
        last=len(state.board),
        plies=state.plies + 1,
        penalized=False,
        turn=None,
    )
    after = _add_points(after, seat, cost)
    events: list[Event] = [Event("score", f"pips on light squares +{cost}", seat, cost)]
    if state.options.mode == "five" and after.deck:
        drawn = after.deck[0]
        after = replace(_with_hand(after, seat, (*after.hands[seat], drawn)), deck=after.deck[1:])
        events.append(Event("draw", f"draws {drawn}", seat))
    return next_turn(after, (seat + 1) % state.players, tuple(events))


def forfeit(state: State, seat: int, why: str) -> tuple[State, tuple[Event, ...]]:
    """``seat`` forfeits: it ranks last and its tiles leave play; the others play on if two or
    more are left."""
    if state.finished or seat in state.forfeited:
        return state, ()
    after = replace(
        _with_hand(state, seat, ()),
        forfeited=state.forfeited | {seat},
        aside=(*state.aside, *state.hands[seat]),
        plies=state.plies + 1,
    )
    events = (Event("forfeit", f"seat {seat + 1} {why} and forfeits", seat),)
    playing = seat_order(after.players, 0, after.forfeited)
    if len(playing) < 2:
        finished = replace(
            after,
            turn=None,
            finished=True,
            penalized=False,
            reason=f"seat {seat + 1} {why}",
            past_games=(*after.past_games, after.points),
        )
        return finished, (*events, Event("game_end", "game over: one player is left"))
    if state.turn == seat:
        return next_turn(replace(after, turn=None), (seat + 1) % state.players, events)
    if all_placed(after):
        return end_game(after, "every tile is placed", events)
    return after, events


def time_out(state: State) -> tuple[State, tuple[Event, ...]]:
    """The seat to act ran out of time: +5 and one more period the first time, then forfeit."""
    seat = state.turn
    if seat is None or state.finished:
        return state, ()
    if state.penalized:
        return forfeit(state, seat, "ran out of time twice")
    after = replace(_add_points(state, seat, TIME_PENALTY), penalized=True, plies=state.plies + 1)
    extra = "one more minute" if state.options.clock == "live" else "one more period"
    return after, (
        Event("timeout", f"time penalty +{TIME_PENALTY}; {extra} to place a tile", seat, TIME_PENALTY),
    )


def outcome_of(state: State) -> Outcome | None:
    """Final standings: fewest total points first, forfeited seats last."""
    if not state.finished:
        return None
    ranks = rank_by_scores(state.totals, lower_is_better=True, forfeited=state.forfeited)
    return Outcome(state.totals, ranks, state.reason, frozenset(state.forfeited))
