"""The rules of Geronimos as pure functions of a :class:`State`: the start, legal placements,
bonus cards, the surround win, the end when both bags are empty, views and determinization."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from games.core import Event, EventKind, Events, evolve, seeded_rng
from games.errors import InvalidOptionsError, quote
from games.geronimos.cards import (
    ALL_CARDS,
    CARD_SET,
    LAID,
    LEADER,
    SIDES,
    first_player_key,
    rotation_showing,
    unlaid,
)
from games.geronimos.hexgrid import DIRECTIONS, ORIGIN, Cell, distance, format_cell, full_rings, neighbours
from games.geronimos.state import BONUS, DISCARD, SEAT_NAMES, STOP, Move, MoveKind, Options, Piece, State

MAX_REDRAWS = 1000
MAX_DEAL_CARDS = 1000
"""The most cards a deal's bag may list (a bag holds at most 120 number cards and some Leaders,
but a deal may repeat Leaders)."""
BONUS_BY_MATCHES = {3: 1, 4: 2, 5: 3, 6: 4}
"""Sides matching a number card -> bonus cards earned."""

Tops = dict[Cell, Piece]
Board = tuple[tuple[Cell, tuple[Piece, ...]], ...]


# -- start ----------------------------------------------------------------------------------


def seeded_bags(options: Options, seed: int) -> list[list[str]]:
    """Two bags holding the same cards (chosen by the seed), each shuffled by the seed."""
    chosen = seeded_rng(seed, "geronimos", "cards").sample(ALL_CARDS, options.bag)
    bags = []
    for seat in range(2):
        bag = [*chosen, *([LEADER] * options.leaders)]
        seeded_rng(seed, "geronimos", "bag", seat).shuffle(bag)
        bags.append(bag)
    return bags


def dealt_bags(deal: Any) -> list[list[str]]:
    """Check an explicit deal: ``[[Blue's bag], [Red's bag]]``, card names in draw order."""
    if not (isinstance(deal, list | tuple) and len(deal) == 2):
        raise InvalidOptionsError("A Geronimos deal is a list of two bags: [[Blue's cards], [Red's cards]].")
    return [dealt_bag(SEAT_NAMES[seat], bag) for seat, bag in enumerate(deal)]


def dealt_bag(colour: str, bag: Any) -> list[str]:
    """One bag of a deal: a list of card names (``153264`` or ``L``), no number card twice."""
    if not isinstance(bag, list | tuple) or not all(isinstance(card, str) for card in bag):
        raise InvalidOptionsError(f"{colour}'s bag in the deal must be a list of card names.")
    if len(bag) > MAX_DEAL_CARDS:
        size = len(bag)
        raise InvalidOptionsError(f"{colour}'s bag in the deal has {size} cards; at most {MAX_DEAL_CARDS}.")
    cards = [LEADER if card.strip().upper() == LEADER else card.strip() for card in bag]
    wrong = [card for card in cards if card != LEADER and card not in CARD_SET]
    if wrong:
        raise InvalidOptionsError(
            f"Deal: {quote(wrong[0])} is not a card; write a card from its single dot, e.g. '153264', or 'L'."
        )
    numbers = [card for card in cards if card != LEADER]
    if len(set(numbers)) != len(numbers):
        raise InvalidOptionsError(f"Deal: {colour}'s bag holds a card twice.")
    return cards


def first_to_lay(blue: str, red: str) -> int | None:
    """Which seat lays its start card at 0,0, or None when both must draw again."""
    if blue == red:
        return None  # identical cards, or two Leaders
    if blue == LEADER:
        return 1
    if red == LEADER:
        return 0
    return 0 if first_player_key(blue) < first_player_key(red) else 1


def draw_start_cards(
    bags: list[list[str]], seed: int, dealt: bool
) -> tuple[int, tuple[tuple[str, str], ...]]:
    """Draw start cards until one seat lays first; returns it and every pair drawn.

    Cards drawn again go back into their bags: with a seeded game the bags are shuffled (by
    the seed); with an explicit deal they go to the bottom, in the order drawn.
    """
    draws: list[tuple[str, str]] = []
    for attempt in range(MAX_REDRAWS):
        if not bags[0] or not bags[1]:
            raise InvalidOptionsError("The deal runs out of cards before the start is decided.")
        drawn = (bags[0].pop(0), bags[1].pop(0))
        draws.append(drawn)
        first = first_to_lay(*drawn)
        if first is not None:
            return first, tuple(draws)
        for seat in range(2):
            bags[seat].append(drawn[seat])
            if not dealt:
                seeded_rng(seed, "geronimos", "redraw", attempt, seat).shuffle(bags[seat])
    raise InvalidOptionsError("The start could not be decided: the bags hold only the same card.")


def new_state(options: Options, seed: int, deal: Any) -> State:
    """A game after the automatic start: the first card lies at 0,0 (rotation 0).

    The other player is to act, with their start card to lay next to it.
    """
    bags = dealt_bags(deal) if deal is not None else seeded_bags(options, seed)
    first, draws = draw_start_cards(bags, seed, deal is not None)
    cards = draws[-1]
    return State(
        options=options,
        seed=seed,
        bags=(tuple(bags[0]), tuple(bags[1])),
        board=((ORIGIN, (Piece(cards[first], 0, first),)),),
        turn=1 - first,
        drawn=cards[1 - first],
        opening=True,
        first=first,
        start_draws=draws,
        last=ORIGIN,
    )


# -- legal moves ------------------------------------------------------------------------------


def frontier(tops: Tops) -> list[Cell]:
    """The empty cells next to the table, sorted."""
    cells = {cell for occupied in tops for cell in neighbours(occupied) if cell not in tops}
    return sorted(cells)


def contacts(tops: Tops, cell: Cell) -> list[tuple[int, Piece]]:
    """The cards touching ``cell``, as ``(side of cell, top piece)``."""
    q, r = cell
    found = []
    for side, (dq, dr) in enumerate(DIRECTIONS):
        piece = tops.get((q + dq, r + dr))
        if piece is not None:
            found.append((side, piece))
    return found


def fitting_rotations(card: str, touching: Sequence[tuple[int, Piece]]) -> Sequence[int]:
    """The rotations of ``card`` whose sides match every number card they touch: all six next
    to Leaders only, else the one rotation the first number card asks for, if it suits the rest."""
    wanted = [(side, other[(side + 3) % 6]) for side, piece in touching if (other := piece.sides) is not None]
    if not wanted:
        return range(6)
    rotation = rotation_showing(card, *wanted[0])
    sides = SIDES[card, rotation]
    return (rotation,) if all(sides[side] == number for side, number in wanted) else ()


def side_clashes(card: str, rotation: int, touching: Sequence[tuple[int, Piece]]) -> list[int]:
    """The sides of the laid card whose number differs from the number card it touches."""
    sides = SIDES[card, rotation]
    clashes = []
    for side, piece in touching:
        other = piece.sides
        if other is not None and other[(side + 3) % 6] != sides[side]:
            clashes.append(side)
    return clashes


def single_contact_ok(state: State, cell: Cell, full: int) -> bool:
    """May a card touching just one card go in ``cell``? (``full`` = largest full ring)."""
    if state.opening or state.options.table == "open":
        return True
    return distance(cell) == full + 1


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal move of the seat to act: ``bonus``/``stop`` while it decides on a bonus
    card, else the placements of the drawn card, else ``discard``."""
    if state.finished:
        return ()
    if state.deciding:
        return (BONUS, STOP)
    if state.drawn == LEADER:
        return leader_placements(state)
    return card_placements(state) or (DISCARD,)


def leader_placements(state: State) -> tuple[Move, ...]:
    """A Leader goes in any empty cell next to the table, or (after the start) on any card."""
    tops = state.tops
    moves = [Move.place(LEADER, cell) for cell in frontier(tops)]
    if not state.opening:
        moves.extend(Move.place(LEADER, cell, True) for cell in sorted(tops))
    return tuple(moves)


def card_placements(state: State) -> tuple[Move, ...]:
    """The placements of the drawn number card: every touching side matches, two contacts
    (one outside the full rings), or on top of the opponent's identical card."""
    tops = state.tops
    card = state.drawn
    full = full_rings(tops)
    moves: list[Move] = []
    for cell in frontier(tops):
        touching = contacts(tops, cell)
        if len(touching) < 2 and not single_contact_ok(state, cell, full):
            continue
        moves.extend(Move.place(LAID[card, rotation], cell) for rotation in fitting_rotations(card, touching))
    if not state.opening:
        for cell in sorted(tops):
            piece = tops[cell]
            if piece.card == card and piece.owner != state.turn:
                moves.append(Move.place(LAID[card, piece.rotation], cell, True))
    return tuple(moves)


def placed_piece(move: Move, seat: int) -> Piece:
    """The piece a placement puts on the table."""
    if move.laid == LEADER:
        return Piece(LEADER, 0, seat)
    card, rotation = unlaid(move.laid)
    return Piece(card, rotation, seat)


def number_matches(tops: Tops, cell: Cell, piece: Piece) -> int:
    """Sides of a placed number card that match a number card (Leader contacts don't count)."""
    sides = piece.sides
    if sides is None:
        return 0
    count = 0
    for side, other in contacts(tops, cell):
        other_sides = other.sides
        if other_sides is not None and other_sides[(side + 3) % 6] == sides[side]:
            count += 1
    return count


def bonus_for(matches: int) -> int:
    """Bonus cards earned by ``matches`` matching sides."""
    return BONUS_BY_MATCHES.get(matches, 0)


def earned_bonus(state: State, move: Move) -> tuple[int, int]:
    """``(matching sides, bonus cards)`` a placement earns (none for the start card)."""
    if state.opening or move.cell is None or move.laid == LEADER:
        return 0, 0
    matches = number_matches(state.tops, move.cell, placed_piece(move, state.turn))
    return matches, bonus_for(matches)


# -- surrounding ------------------------------------------------------------------------------


def surrounder(owner_of: Callable[[Cell], int | None], cell: Cell) -> int | None:
    """The seat whose cards make all six neighbours of ``cell`` (owned by the other), or None."""
    owner = owner_of(cell)
    if owner is None:
        return None
    for other in neighbours(cell):
        if owner_of(other) != 1 - owner:
            return None
    return 1 - owner


def owner_lookup(
    tops: Tops, cell: Cell | None = None, owner: int | None = None
) -> Callable[[Cell], int | None]:
    """Who owns each cell's top card, optionally as if ``owner`` had just laid on ``cell``."""

    def owner_of(c: Cell) -> int | None:
        if c == cell:
            return owner
        piece = tops.get(c)
        return None if piece is None else piece.owner

    return owner_of


def surround_after(owner_of: Callable[[Cell], int | None], cell: Cell, mover: int) -> tuple[int, Cell] | None:
    """A surround completed by a placement at ``cell``: the mover's own win comes first (a
    card laid into a hole ringed by six enemy cards loses, unless it wins at once itself)."""
    found: dict[int, Cell] = {}
    for candidate in (*neighbours(cell), cell):
        winner = surrounder(owner_of, candidate)
        if winner is not None and winner not in found:
            found[winner] = candidate
    for seat in (mover, 1 - mover):
        if seat in found:
            return seat, found[seat]
    return None


def siege(tops: Tops, seat: int) -> int:
    """The most cards of ``seat`` around any single enemy card (the first tiebreak)."""
    best = 0
    for cell, piece in tops.items():
        if piece.owner != seat:
            around = sum(1 for other in neighbours(cell) if (p := tops.get(other)) and p.owner == seat)
            best = max(best, around)
    return best


def top_counts(tops: Tops) -> tuple[int, int]:
    """Top cards on the table per seat (the score)."""
    counts = [0, 0]
    for piece in tops.values():
        counts[piece.owner] += 1
    return counts[0], counts[1]


# -- applying a move --------------------------------------------------------------------------


def with_piece(board: Board, cell: Cell, piece: Piece) -> Board:
    """The board with ``piece`` laid in (or on top of) ``cell``."""
    stacks = dict(board)
    stacks[cell] = (*stacks.get(cell, ()), piece)
    return tuple(sorted(stacks.items()))


def apply_move(state: State, move: Move) -> tuple[State, Events]:
    """Play ``move`` (legal) for the seat to act, then draw what comes next."""
    events: list[Event] = []
    counted = evolve(state, plies=state.plies + 1)
    if move.kind is MoveKind.BONUS:
        return draw_bonus(counted, state.turn, events)
    if move.kind is MoveKind.STOP:
        events.append(Event(EventKind.PASS, seat=state.turn, count=state.bonus_left, reason="bonus_declined"))
        return next_turn(evolve(counted, bonus_left=0), state.turn, events)
    if move.kind is MoveKind.DISCARD:
        return after_card(discard(counted, events), state.turn, events)
    return place(counted, move, events)


def discard(state: State, events: list[Event]) -> State:
    """The drawn card, which fits nowhere, goes face up beside its owner's bag."""
    seat = state.turn
    kept = list(state.discards)
    kept[seat] = (*kept[seat], state.drawn)
    events.append(Event(EventKind.DISCARD, seat=seat, subject=state.drawn, reason="discard"))
    return evolve(state, discards=(kept[0], kept[1]), drawn="", bonus_card=False)


def place(state: State, move: Move, events: list[Event]) -> tuple[State, Events]:
    """Lay the drawn card: score it, earn bonus cards, and check for a surround."""
    assert move.cell is not None
    seat = state.turn
    tops = state.tops
    piece = placed_piece(move, seat)
    covered = tops.get(move.cell)
    matches, earned = earned_bonus(state, move)
    events.extend(score_events(seat, covered))
    if earned:
        events.append(Event(EventKind.BONUS, seat=seat, count=earned, subject=str(matches), reason="bonus"))
    after = evolve(
        state,
        board=with_piece(state.board, move.cell, piece),
        drawn="",
        bonus_card=False,
        bonus_left=state.bonus_left + earned,
        opening=False,
        last=move.cell,
    )
    won = surround_after(owner_lookup(tops, move.cell, seat), move.cell, seat)
    if won is not None:
        return finish_surround(after, *won, events)
    return after_card(after, seat, events)


def score_events(seat: int, covered: Piece | None) -> list[Event]:
    """The score is top cards on the table: +1 for the mover, -1 for a covered enemy card."""
    if covered is not None and covered.owner == seat:
        return []
    events = [Event(EventKind.SCORE, seat=seat, points=1, reason="top_card")]
    if covered is not None:
        owner, text = covered.owner, covered.text
        events.append(
            Event(EventKind.SCORE, seat=owner, points=-1, other=seat, subject=text, reason="covered")
        )
    return events


def after_card(state: State, seat: int, events: list[Event]) -> tuple[State, Events]:
    """After a card is played or discarded: bonus cards on offer (drawn at once where the
    ``bonus`` option makes them compulsory), else the next turn."""
    if state.bonus_left and state.bags[seat]:
        if state.options.bonus == "compulsory":
            return draw_bonus(state, seat, events)
        return evolve(state, turn=seat, drawn="", bonus_card=False), tuple(events)
    if state.bonus_left:
        events.append(Event(EventKind.INFO, seat=seat, count=state.bonus_left, reason="bonus_bag_empty"))
    return next_turn(evolve(state, bonus_left=0), seat, events)


def draw_bonus(state: State, seat: int, events: list[Event]) -> tuple[State, Events]:
    """``seat`` draws its next bonus card, to be played at once."""
    bags = list(state.bags)
    card, bags[seat] = bags[seat][0], bags[seat][1:]
    events.append(Event(EventKind.DRAW, seat=seat, count=1, subject=card, reason="bonus_draw"))
    after = evolve(
        state,
        bags=(bags[0], bags[1]),
        turn=seat,
        drawn=card,
        bonus_left=state.bonus_left - 1,
        bonus_card=True,
    )
    return after, tuple(events)


def next_turn(state: State, seat: int, events: list[Event]) -> tuple[State, Events]:
    """The other seat draws its turn card; when its bag is empty, ``seat`` plays on; when both
    bags are empty, the game ends."""
    bags = list(state.bags)
    for player in (1 - seat, seat):
        if bags[player]:
            card, bags[player] = bags[player][0], bags[player][1:]
            if player == seat:
                events.append(Event(EventKind.INFO, seat=1 - seat, other=seat, reason="bag_empty"))
            events.append(Event(EventKind.DRAW, seat=player, count=1, subject=card, reason="draw"))
            after = evolve(
                state, bags=(bags[0], bags[1]), turn=player, drawn=card, bonus_left=0, bonus_card=False
            )
            return after, tuple(events)
    return finish_bags_empty(evolve(state, bonus_left=0), events)


# -- the end ----------------------------------------------------------------------------------


def ended(state: State, **changes: Any) -> State:
    """``state`` as a finished game."""
    return evolve(state, finished=True, drawn="", bonus_left=0, bonus_card=False, **changes)


def finish_surround(state: State, winner: int, cell: Cell, events: list[Event]) -> tuple[State, Events]:
    """``winner`` surrounded the card at ``cell``: the game ends at once."""
    events.append(
        Event(EventKind.GAME_END, seat=winner, other=1 - winner, subject=format_cell(cell), reason="surround")
    )
    return ended(state, winner=winner, surrounded=cell, reason="surrounded"), tuple(events)


def finish_bags_empty(state: State, events: list[Event]) -> tuple[State, Events]:
    """Both bags are empty: the most cards around one enemy card wins, then the most top cards."""
    tops = state.tops
    sieges = (siege(tops, 0), siege(tops, 1))
    counts = top_counts(tops)
    if sieges[0] != sieges[1]:
        winner = 0 if sieges[0] > sieges[1] else 1
        best = sieges[winner]
        events.append(
            Event(EventKind.GAME_END, seat=winner, other=1 - winner, count=best, reason="bags_siege")
        )
        return ended(state, winner=winner, reason="most_around"), tuple(events)
    if counts[0] != counts[1]:
        winner = 0 if counts[0] > counts[1] else 1
        events.append(
            Event(EventKind.GAME_END, seat=winner, other=1 - winner, count=counts[winner], reason="bags_tops")
        )
        return ended(state, winner=winner, reason="most_on_top"), tuple(events)
    events.append(Event(EventKind.GAME_END, count=sieges[0], reason="bags_draw"))
    return ended(state, winner=None, reason="all_equal"), tuple(events)


def resign(state: State, seat: int, reason: str = "resigned") -> tuple[State, Events]:
    """``seat`` forfeits (it resigned, or its time ran out: ``reason``); with two players the
    other wins at once."""
    after = ended(state, winner=1 - seat, reason="last_standing", forfeited=state.forfeited | {seat})
    events = (
        Event(EventKind.FORFEIT, seat=seat, reason=reason),
        Event(EventKind.GAME_END, seat=1 - seat, reason="last_standing"),
    )
    return after, events


def outcome_ranks(state: State) -> tuple[int, int]:
    """The ranks of a finished game: the winner first, or both first in a draw."""
    if state.winner is None:
        return 1, 1
    return (1, 2) if state.winner == 0 else (2, 1)


# -- hidden information -----------------------------------------------------------------------


def view(state: State) -> State:
    """What anyone may see: everything but the order of the bags (shown sorted) and the seed."""
    return evolve(state, seed=0, bags=(tuple(sorted(state.bags[0])), tuple(sorted(state.bags[1]))))


def determinize(seen: State, rng: random.Random) -> State:
    """A whole state with the same view: each bag in an order drawn from ``rng`` (its cards are
    public), and a fresh seed."""
    blue, red = (tuple(rng.sample(bag, len(bag))) for bag in seen.bags)
    return evolve(seen, bags=(blue, red), seed=rng.getrandbits(62))
