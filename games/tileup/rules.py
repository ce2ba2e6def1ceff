"""The rules of Tile Up! as pure functions of the state: set-up, legal moves, moves and their
events, the end, forfeits, timeouts, and hidden information (views and determinized states)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from games.core import Event, EventKind, Events, Outcome, Seat, evolve, rank_by_scores, seeded_rng
from games.tileup import board as geo
from games.tileup.data import (
    ALL_CARDS,
    ALL_TILES,
    CARD_LIMIT,
    CORNERS,
    SQUARES,
    TILE_KINDS,
    TILE_LIMIT,
    card_colour,
    card_label,
    card_shape,
    tile_key,
)
from games.tileup.setup import set_up
from games.tileup.state import IDLE_ROUNDS, LEGACY_IDLE_ROUNDS, Move, MoveKind, Options, State, Step

CORNERS_COVERED = "corners"
"""End reason: all four corners are covered (the rule text's end)."""
EMPTY_BAG_ROUND = "empty_bag_round"
"""End reason: a full round without a placement while the bag is empty."""
IDLE_ROUNDS_REASON = {IDLE_ROUNDS: "ten_idle_rounds", LEGACY_IDLE_ROUNDS: "three_idle_rounds"}
"""End reason by the ``idle_rounds`` option: that many full rounds without a placement."""
LAST_STANDING = "last_standing"
"""End reason: every other player forfeited."""

Handler = Callable[[State, Seat, Move, list[Event]], State]


def new_state(players: int, options: Options, seed: int, deal: Any) -> State:
    """A set-up game (see the package docstring for the set-up and the deal format)."""
    setup = set_up(players, seed, deal)
    return State(
        board=setup.board,
        bag=setup.bag,
        bag_size=len(setup.bag),
        deck=setup.deck,
        deck_size=len(setup.deck),
        discards=(),
        face_up=setup.face_up,
        tiles=setup.tiles,
        cards=setup.cards,
        tile_counts=tuple(len(hand) for hand in setup.tiles),
        card_counts=tuple(len(hand) for hand in setup.cards),
        scores=(0,) * players,
        to_act=setup.first,
        first=setup.first,
        seed=setup.seed,
        shuffles=setup.shuffles,
        options=options,
    )


# -- facts of a state ---------------------------------------------------------------------------


def active_players(state: State) -> int:
    """The seats still in the game."""
    return state.players - len(state.forfeited)


def scorable_cards(state: State, seat: Seat) -> tuple[str, ...]:
    """The cards ``seat`` may score, numbered from 1: face-up cards first, then its own."""
    return state.face_up + (state.cards[seat] or ())


def over_limits(state: State, seat: Seat) -> bool:
    """True when ``seat`` holds more than 7 tiles or more than 3 goal cards."""
    return state.tile_counts[seat] > TILE_LIMIT or state.card_counts[seat] > CARD_LIMIT


def winners(state: State) -> list[Seat]:
    """The seats still in the game with the highest score."""
    live = [seat for seat in range(state.players) if seat not in state.forfeited]
    best = max(state.scores[seat] for seat in live)
    return [seat for seat in live if state.scores[seat] == best]


def set_hand(
    state: State,
    seat: Seat,
    *,
    tiles: tuple[str, ...] | None = None,
    cards: tuple[str, ...] | None = None,
) -> State:
    """``state`` with ``seat`` holding ``tiles`` (sorted here) and/or ``cards``, counts updated."""
    if tiles is not None:
        held = list(state.tiles)
        held[seat] = tuple(sorted(tiles, key=tile_key))
        counts = list(state.tile_counts)
        counts[seat] = len(tiles)
        state = evolve(state, tiles=tuple(held), tile_counts=tuple(counts))
    if cards is not None:
        held_cards = list(state.cards)
        held_cards[seat] = cards
        card_counts = list(state.card_counts)
        card_counts[seat] = len(cards)
        state = evolve(state, cards=tuple(held_cards), card_counts=tuple(card_counts))
    return state


# -- legal moves --------------------------------------------------------------------------------


def score_moves(state: State) -> list[Move]:
    """Every card the seat to act can score now, with each matching region."""
    cards = scorable_cards(state, state.to_act)
    if not cards:
        return []
    moves = []
    shaped = geo.shaped_regions(state.board)
    for number, card in enumerate(cards, start=1):
        colour, shape = card_colour(card), card_shape(card)
        for region_colour, region_shape, squares in shaped:
            if region_colour == colour and region_shape == shape:
                moves.append(Move(MoveKind.SCORE, square=squares[0], card=number))
    return moves


@cache
def _placements_of(tile: str) -> tuple[Move, ...]:
    """The moves placing ``tile``, by square (a move is a value: one shared per tile and square
    saves making it again for every state)."""
    return tuple(Move(MoveKind.PLACE, tile, square) for square in range(SQUARES))


def placement_moves(state: State) -> list[Move]:
    """Every tile of the seat to act on every square it may go."""
    held = set(state.tiles[state.to_act] or ())
    moves: list[Move] = []
    for tile in TILE_KINDS:
        if tile in held:
            squares = geo.legal_squares(state.board, tile)
            made = _placements_of(tile)
            moves.extend(made[square] for square in squares)
    return moves


def draw_moves(state: State) -> list[Move]:
    """The draws possible now: a goal card (while the deck or the discard pile lasts), tiles."""
    moves = []
    if state.deck_size or state.discards:
        moves.append(Move(MoveKind.GOAL))
    if state.bag_size:
        moves.append(Move(MoveKind.TILES))
    return moves


def discard_moves(state: State) -> list[Move]:
    """The discard step: a tile of each kind held while over 7, any own card while over 3."""
    seat = state.to_act
    moves: list[Move] = []
    if state.tile_counts[seat] > TILE_LIMIT:
        held = state.tiles[seat] or ()
        moves.extend(Move(MoveKind.DISCARD, tile) for tile in dict.fromkeys(held))
    if state.card_counts[seat] > CARD_LIMIT:
        first = len(state.face_up) + 1
        moves.extend(Move(MoveKind.DISCARD_GOAL, card=first + i) for i in range(state.card_counts[seat]))
    return moves


def legal_moves(state: State) -> list[Move]:
    """Every legal move of the seat to act, by turn step:

    - start: scores, placements, draws; ``end`` only when no action is possible;
    - drew: scores and ``end``;
    - placed: scores, more placements and ``end``;
    - discard: only discards.
    """
    if state.step == Step.OVER:
        return []
    if state.step == Step.DISCARD:
        return discard_moves(state)
    moves = score_moves(state)
    if state.step == Step.DREW:
        moves.append(Move(MoveKind.END))
        return moves
    placements = placement_moves(state)
    moves.extend(placements)
    if state.step == Step.PLACED:
        moves.append(Move(MoveKind.END))
        return moves
    draws = draw_moves(state)
    moves.extend(draws)
    if not draws and not placements:
        moves.append(Move(MoveKind.END))
    return moves


# -- moves --------------------------------------------------------------------------------------


def apply_move(state: State, move: Move, written: str) -> tuple[State, Events]:
    """The state after the legal ``move`` (``written`` is its notation, kept as the last move)
    and the events it caused."""
    events: list[Event] = []
    after = _HANDLERS[move.kind](state, state.to_act, move, events)
    return evolve(after, last_move=written), tuple(events)


def _take_card(state: State, events: list[Event]) -> tuple[State, str | None]:
    """The top goal card, turning the discard pile over (unshuffled) when the deck is empty."""
    deck = state.deck or ()
    if not deck:
        if not state.discards:
            return state, None
        deck = state.discards
        state = evolve(state, discards=())
        events.append(Event(EventKind.INFO, reason="deck_turned"))
    card, rest = deck[0], deck[1:]
    return evolve(state, deck=rest, deck_size=len(rest)), card


def _place(state: State, seat: Seat, move: Move, events: list[Event]) -> State:
    held = list(state.tiles[seat] or ())
    held.remove(move.tile)
    board = list(state.board)
    board[move.square] = (*board[move.square], move.tile)
    highlight = (*state.highlight, move.square) if state.step == Step.PLACED else (move.square,)
    state = evolve(state, board=tuple(board), step=Step.PLACED, highlight=highlight)
    return set_hand(state, seat, tiles=tuple(held))


def _draw_goal(state: State, seat: Seat, move: Move, events: list[Event]) -> State:
    state, card = _take_card(state, events)
    events.append(Event(EventKind.DRAW, seat=seat, reason="drew_goal", count=1))
    own = state.cards[seat] or ()
    return set_hand(evolve(state, step=Step.DREW), seat, cards=(*own, card) if card else own)


def _draw_tiles(state: State, seat: Seat, move: Move, events: list[Event]) -> State:
    bag = state.bag or ()
    taken, rest = bag[:3], bag[3:]
    events.append(Event(EventKind.DRAW, seat=seat, reason="drew_tiles", count=len(taken)))
    state = evolve(state, bag=rest, bag_size=len(rest), step=Step.DREW)
    return set_hand(state, seat, tiles=(*(state.tiles[seat] or ()), *taken))


def _score(state: State, seat: Seat, move: Move, events: list[Event]) -> State:
    card = scorable_cards(state, seat)[move.card - 1]
    gained = geo.points(state.board, geo.region(state.board, move.square))
    scores = list(state.scores)
    scores[seat] += gained
    events.append(
        Event(EventKind.SCORE, seat=seat, points=gained, reason="goal_card", subject=card_label(card))
    )
    state = evolve(state, scores=tuple(scores))
    if move.card <= len(state.face_up):
        state = _replace_face_up(state, move.card, events)
    else:
        own = list(state.cards[seat] or ())
        own.remove(card)
        state = set_hand(state, seat, cards=tuple(own))
    return evolve(state, discards=(*state.discards, card))


def _replace_face_up(state: State, number: int, events: list[Event]) -> State:
    """Face-up card ``number`` (scored) makes way for the top card; with none left, its slot goes."""
    state, card = _take_card(state, events)
    face_up = list(state.face_up)
    if card is None:
        del face_up[number - 1]
        events.append(Event(EventKind.INFO, reason="face_up_gone", count=number))
    else:
        face_up[number - 1] = card
        label = card_label(card)
        events.append(Event(EventKind.INFO, reason="face_up_replaced", count=number, subject=label))
    return evolve(state, face_up=tuple(face_up))


def _discard_tile(state: State, seat: Seat, move: Move, events: list[Event]) -> State:
    return _after_discard(_drop_tile(state, seat, move.tile, events), seat, events)


def _drop_tile(state: State, seat: Seat, tile: str, events: list[Event]) -> State:
    """``seat`` puts ``tile`` back into the bag, which is reshuffled (by the seed, if any)."""
    held = list(state.tiles[seat] or ())
    held.remove(tile)
    bag = [*(state.bag or ()), tile]
    shuffles = state.shuffles
    if state.seed is not None:
        seeded_rng(state.seed, "bag", shuffles).shuffle(bag)
        shuffles += 1
    events.append(Event(EventKind.DISCARD, seat=seat, reason="discarded_tile", subject=tile))
    state = evolve(state, bag=tuple(bag), bag_size=len(bag), shuffles=shuffles)
    return set_hand(state, seat, tiles=tuple(held))


def _discard_goal(state: State, seat: Seat, move: Move, events: list[Event]) -> State:
    return _after_discard(_drop_goal(state, seat, move.card, events), seat, events)


def _drop_goal(state: State, seat: Seat, number: int, events: list[Event]) -> State:
    """``seat`` discards its goal card ``number`` (counted after the face-up cards) face up."""
    own = list(state.cards[seat] or ())
    card = own.pop(number - len(state.face_up) - 1)
    events.append(Event(EventKind.DISCARD, seat=seat, reason="discarded_goal", subject=card_label(card)))
    state = evolve(state, discards=(*state.discards, card))
    return set_hand(state, seat, cards=tuple(own))


def _after_discard(state: State, seat: Seat, events: list[Event]) -> State:
    return state if over_limits(state, seat) else _finish_turn(state, events)


def _end(state: State, seat: Seat, move: Move, events: list[Event]) -> State:
    if over_limits(state, seat):
        events.append(Event(EventKind.INFO, seat=seat, reason="must_discard"))
        return evolve(state, step=Step.DISCARD)
    return _finish_turn(state, events)


_HANDLERS: dict[MoveKind, Handler] = {
    MoveKind.PLACE: _place,
    MoveKind.GOAL: _draw_goal,
    MoveKind.TILES: _draw_tiles,
    MoveKind.SCORE: _score,
    MoveKind.DISCARD: _discard_tile,
    MoveKind.DISCARD_GOAL: _discard_goal,
    MoveKind.END: _end,
}


# -- the end of a turn and of the game ----------------------------------------------------------


def _finish_turn(state: State, events: list[Event]) -> State:
    """The turn of the seat to act is over: the game ends (corners covered, or a safety end) or
    the next seat still in the game starts its turn.

    The safety ends: a full round (as many turns as players still in) without a placement
    while the bag is empty; or ``idle_rounds`` full rounds without a placement.
    """
    placed = state.step == Step.PLACED
    if all(state.board[corner] for corner in CORNERS):
        return _game_over(state, CORNERS_COVERED, events)
    idle = 0 if placed else state.idle_turns + 1
    idle_empty = 0 if placed or state.bag_size else state.idle_empty_turns + 1
    state = evolve(state, idle_turns=idle, idle_empty_turns=idle_empty)
    active = active_players(state)
    if idle_empty >= active:
        return _game_over(state, EMPTY_BAG_ROUND, events)
    rounds = state.options.idle_rounds
    if idle >= rounds * active:
        return _game_over(state, IDLE_ROUNDS_REASON[rounds], events)
    return evolve(state, to_act=_next_seat(state, state.to_act), step=Step.START, turn=state.turn + 1)


def _next_seat(state: State, seat: Seat) -> Seat:
    for step in range(1, state.players + 1):
        candidate = (seat + step) % state.players
        if candidate not in state.forfeited:
            return candidate
    return seat


def _game_over(state: State, reason: str, events: list[Event], reason_seat: Seat | None = None) -> State:
    """The game ends for ``reason``: the end event, then one event for each winner."""
    events.append(Event(EventKind.GAME_END, seat=reason_seat, reason=reason))
    best = winners(state)
    word = "wins" if len(best) == 1 else "shares_win"
    events.extend(Event(EventKind.GAME_END, seat=seat, reason=word) for seat in best)
    return evolve(state, step=Step.OVER, reason=reason)


def outcome(state: State) -> Outcome | None:
    """Highest score wins, ties share; forfeited seats rank last."""
    if state.step != Step.OVER:
        return None
    ranks = rank_by_scores(state.scores, forfeited=state.forfeited)
    survivor = winners(state)[0] if state.reason == LAST_STANDING else None
    return Outcome(state.scores, ranks, state.reason, state.forfeited, reason_seat=survivor)


def resign(state: State, seat: Seat) -> tuple[State, Events]:
    """``seat`` forfeits; the others play on while two or more remain (its turn, if it was
    playing one, ends as it stands)."""
    events = [Event(EventKind.FORFEIT, seat=seat, reason="resigned")]
    after = evolve(state, forfeited=state.forfeited | {seat}, last_move="!resign")
    if active_players(after) <= 1:
        survivor = next(other for other in range(after.players) if other not in after.forfeited)
        return _game_over(after, LAST_STANDING, events, reason_seat=survivor), tuple(events)
    if after.to_act == seat:
        after = _finish_turn(after, events)
    return after, tuple(events)


def on_timeout(state: State) -> tuple[State, Events]:
    """Out of time, the turn ends as it stands (no forfeit): with no action taken it is a turn
    without one; over the limits, the lowest-numbered tiles and the last-drawn goal cards are
    discarded for the player."""
    seat = state.to_act
    events = [Event(EventKind.TIMEOUT, seat=seat, reason="turn_timeout")]
    while state.tile_counts[seat] > TILE_LIMIT:
        lowest = min(state.tiles[seat] or (), key=lambda tile: (tile[1], tile_key(tile)))
        state = _drop_tile(state, seat, lowest, events)
    while state.card_counts[seat] > CARD_LIMIT:
        state = _drop_goal(state, seat, len(state.face_up) + state.card_counts[seat], events)
    state = _finish_turn(state, events)
    return evolve(state, last_move="!timeout"), tuple(events)


# -- hidden information -------------------------------------------------------------------------


def view(state: State, seat: Seat | None) -> State:
    """What ``seat`` sees: its own screen; other screens, the bag and deck orders and the seed
    removed (the counts stay public)."""
    tiles = tuple(held if index == seat else None for index, held in enumerate(state.tiles))
    cards = tuple(held if index == seat else None for index, held in enumerate(state.cards))
    return evolve(state, tiles=tiles, cards=cards, bag=None, deck=None, seed=0, shuffles=0)


def _unseen(full: Iterable[str], *seen: Iterable[str]) -> list[str]:
    """The items of ``full`` not in any of ``seen`` (counted with repeats), in canonical order."""
    left = Counter(full)
    for items in seen:
        left.subtract(items)
    return list(left.elements())


def _fill(
    hands: tuple[tuple[str, ...] | None, ...], counts: tuple[int, ...], pool: list[str], *, sort: bool
) -> tuple[tuple[tuple[str, ...], ...], list[str]]:
    """Hidden hands filled from the front of ``pool`` (their public sizes; tiles sorted as hands
    keep them); the rest of the pool."""
    filled = []
    for held, count in zip(hands, counts, strict=True):
        if held is None:
            taken = pool[:count]
            held, pool = tuple(sorted(taken, key=tile_key) if sort else taken), pool[count:]
        filled.append(held)
    return tuple(filled), pool


def determinize(seen: State, seat: Seat | None, rng: random.Random) -> State:
    """A whole state with the view ``seen`` of ``seat``: the tiles and cards it cannot account
    for dealt at random to the hidden screens (their public sizes), the bag and the deck (in a
    random order), and a fresh seed for the bag's later reshuffles."""
    on_board = (tile for stack in seen.board for tile in stack)
    known_tiles = (tile for held in seen.tiles if held for tile in held)
    tile_pool = _unseen(ALL_TILES, on_board, known_tiles)
    rng.shuffle(tile_pool)
    tiles, bag = _fill(seen.tiles, seen.tile_counts, tile_pool, sort=True)
    known_cards = (card for held in seen.cards if held for card in held)
    card_pool = _unseen(ALL_CARDS, seen.face_up, seen.discards, known_cards)
    rng.shuffle(card_pool)
    cards, deck = _fill(seen.cards, seen.card_counts, card_pool, sort=False)
    return evolve(
        seen,
        tiles=tiles,
        cards=cards,
        bag=tuple(bag),
        deck=tuple(deck),
        seed=rng.getrandbits(62),
        shuffles=0,
    )
