"""The rules of Geronimos: the start, legal placements, bonuses, the surround win, the end."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from games.core import Event, Events, seeded_rng
from games.errors import InvalidOptionsError
from games.geronimos.cards import ALL_CARDS, CARD_SET, LEADER, SIDES, first_player_key, laid, unlaid
from games.geronimos.hexgrid import ORIGIN, Cell, distance, format_cell, full_rings, neighbour, neighbours
from games.geronimos.state import DISCARD, SEAT_NAMES, Move, Options, Piece, State

MAX_REDRAWS = 1000
BONUS_BY_MATCHES = {3: 1, 4: 2, 5: 3, 6: 4}
"""Sides matching a number card -> bonus cards drawn and played at once."""

Tops = dict[Cell, Piece]


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
    if not (isinstance(deal, (list, tuple)) and len(deal) == 2):
        raise InvalidOptionsError("A Geronimos deal is a list of two bags: [[Blue's cards], [Red's cards]].")
    bags = []
    for seat, bag in enumerate(deal):
        if not isinstance(bag, (list, tuple)) or not all(isinstance(card, str) for card in bag):
            raise InvalidOptionsError(f"{SEAT_NAMES[seat]}'s bag in the deal must be a list of card names.")
        cards = [LEADER if card.strip().upper() == LEADER else card.strip() for card in bag]
        wrong = [card for card in cards if card != LEADER and card not in CARD_SET]
        if wrong:
            raise InvalidOptionsError(
                f"Deal: {wrong[0]!r} is not a card; write a card from its single dot, e.g. '153264', or 'L'."
            )
        numbers = [card for card in cards if card != LEADER]
        if len(set(numbers)) != len(numbers):
            raise InvalidOptionsError(f"Deal: {SEAT_NAMES[seat]}'s bag holds a card twice.")
        bags.append(cards)
    return bags


def first_to_lay(blue: str, red: str) -> int | None:
    """Which seat lays its start card at 0,0, or None when both must draw again."""
    if blue == red:
        return None  # identical cards, or two Leaders
    if blue == LEADER:
        return 1
    if red == LEADER:
        return 0
    return 0 if first_player_key(blue) < first_player_key(red) else 1


def start_draws(bags: list[list[str]], seed: int, dealt: bool) -> tuple[int, tuple[str, str], list[str]]:
    """Draw start cards until one seat lays first; returns it, both cards and the log.

    Cards drawn again go back into their bags: with a seeded game the bags are shuffled (by
    the seed); with an explicit deal they go to the bottom, in the order drawn.
    """
    log: list[str] = []
    for attempt in range(MAX_REDRAWS):
        if not bags[0] or not bags[1]:
            raise InvalidOptionsError("The deal runs out of cards before the start is decided.")
        drawn = (bags[0].pop(0), bags[1].pop(0))
        log.append(f"Blue draws {drawn[0]}, Red draws {drawn[1]}.")
        first = first_to_lay(*drawn)
        if first is not None:
            if LEADER in drawn:
                log.append(f"{SEAT_NAMES[1 - first]} drew a Leader, so {SEAT_NAMES[first]} lays first.")
            else:
                log.append(
                    f"{SEAT_NAMES[first]}'s numbers after the single dot are lower, so "
                    f"{SEAT_NAMES[first]} lays first."
                )
            return first, drawn, log
        why = "Two Leaders" if drawn[0] == LEADER else "Identical cards"
        log.append(f"{why}: both go back into the bags and both draw again.")
        for seat in range(2):
            bags[seat].append(drawn[seat])
            if not dealt:
                seeded_rng(seed, "geronimos", "redraw", attempt, seat).shuffle(bags[seat])
    raise InvalidOptionsError("The start could not be decided.")  # pragma: no cover


def new_state(options: Options, seed: int, deal: Any) -> State:
    """A game after the automatic start: the first card lies at 0,0 (rotation 0).

    The other player is to act, with their start card to lay next to it.
    """
    bags = dealt_bags(deal) if deal is not None else seeded_bags(options, seed)
    first, drawn, log = start_draws(bags, seed, deal is not None)
    log.append(f"{SEAT_NAMES[first]} lays {laid(drawn[first], 0) if drawn[first] != LEADER else 'L'}@0,0.")
    board = ((ORIGIN, (Piece(drawn[first], 0, first),)),)
    return State(
        options=options,
        seed=seed,
        bags=(tuple(bags[0]), tuple(bags[1])),
        board=board,
        turn=1 - first,
        drawn=drawn[1 - first],
        opening=True,
        first=first,
        start_log=tuple(log),
        last=ORIGIN,
        last_text=f"{SEAT_NAMES[first]} {laid(drawn[first], 0) if drawn[first] != LEADER else 'L'}@0,0",
    )


# -- legal placements -------------------------------------------------------------------------


def frontier(tops: Tops) -> list[Cell]:
    """The empty cells next to the table, sorted."""
    cells = {cell for occupied in tops for cell in neighbours(occupied) if cell not in tops}
    return sorted(cells)


def contacts(tops: Tops, cell: Cell) -> list[tuple[int, Piece]]:
    """The cards touching ``cell``, as ``(side of cell, top piece)``."""
    found = []
    for side in range(6):
        piece = tops.get(neighbour(cell, side))
        if piece is not None:
            found.append((side, piece))
    return found


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


def compute_legal(state: State) -> tuple[Move, ...]:
    """Every legal move of the seat to act: placements of the drawn card, else ``discard``."""
    if state.finished or not state.drawn:
        return ()
    tops = state.tops
    cells = frontier(tops)
    moves: list[Move] = []
    if state.drawn == LEADER:
        moves.extend(Move(LEADER, cell) for cell in cells)
        if not state.opening:
            moves.extend(Move(LEADER, cell, True) for cell in sorted(tops))
        return tuple(moves)
    card = state.drawn
    full = full_rings(tops)
    for cell in cells:
        touching = contacts(tops, cell)
        if len(touching) < 2 and not single_contact_ok(state, cell, full):
            continue
        for rotation in range(6):
            if not side_clashes(card, rotation, touching):
                moves.append(Move(laid(card, rotation), cell))
    if not state.opening:
        for cell in sorted(tops):
            piece = tops[cell]
            if piece.card == card and piece.owner != state.turn:
                moves.append(Move(laid(card, piece.rotation), cell, True))
    return tuple(moves) if moves else (DISCARD,)


def placed_piece(move: Move, seat: int) -> Piece:
    """The piece a placement puts on the table."""
    if move.laid == LEADER:
        return Piece(LEADER, 0, seat)
    card, rotation = unlaid(move.laid)
    return Piece(card, rotation, seat)


def number_matches(tops: Tops, cell: Cell, piece: Piece) -> int:
    """Sides of a placed number card that match a number card (Leader contacts don't count)."""
    if piece.is_leader:
        return 0
    sides = piece.sides
    assert sides is not None
    count = 0
    for side, other in contacts(tops, cell):
        other_sides = other.sides
        if other_sides is not None and other_sides[(side + 3) % 6] == sides[side]:
            count += 1
    return count


def bonus_for(matches: int) -> int:
    """Bonus cards earned by ``matches`` matching sides."""
    return BONUS_BY_MATCHES.get(matches, 0)


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


def with_piece(
    board: tuple[tuple[Cell, tuple[Piece, ...]], ...], cell: Cell, piece: Piece
) -> tuple[tuple[Cell, tuple[Piece, ...]], ...]:
    """The board with ``piece`` laid in (or on top of) ``cell``."""
    stacks = dict(board)
    stacks[cell] = (*stacks.get(cell, ()), piece)
    return tuple(sorted(stacks.items()))


def apply_move(state: State, move: Move) -> tuple[State, Events]:
    """Play ``move`` (legal) for the seat to act, then draw the next card to play."""
    seat = state.turn
    name = SEAT_NAMES[seat]
    events: list[Event] = []
    board = state.board
    discards = state.discards
    bonus_left = state.bonus_left
    winner: int | None = None
    surrounded: Cell | None = None
    if move.is_discard:
        kept = list(discards)
        kept[seat] = (*kept[seat], state.drawn)
        discards = (kept[0], kept[1])
        events.append(Event("pass", f"{name} discards {state.drawn}: it has no legal place", seat))
        last, last_text = state.last, f"{name} discards {state.drawn}"
    else:
        assert move.cell is not None
        tops = state.tops
        piece = placed_piece(move, seat)
        covered = tops.get(move.cell)
        matches = number_matches(tops, move.cell, piece)
        board = with_piece(board, move.cell, piece)
        text = f"{move.laid}@{format_cell(move.cell)}{'^' if move.stack else ''}"
        last, last_text = move.cell, f"{name} {text}"
        events.append(Event("info", f"{name} lays {text}", seat))
        events.extend(_score_events(seat, covered))
        earned = 0 if state.opening else bonus_for(matches)
        if earned:
            bonus_left += earned
            plural = "s" if earned > 1 else ""
            events.append(Event("bonus", f"{matches} matching numbers: {earned} bonus card{plural}", seat))
        won = surround_after(owner_lookup(tops, move.cell, seat), move.cell, seat)
        if won is not None:
            winner, surrounded = won
    after = State(
        options=state.options,
        seed=state.seed,
        bags=state.bags,
        board=board,
        turn=seat,
        drawn="",
        bonus_left=bonus_left,
        opening=False,
        first=state.first,
        start_log=state.start_log,
        discards=discards,
        last=last,
        last_text=last_text,
        plies=state.plies + 1,
    )
    if winner is not None:
        assert surrounded is not None
        return _finish_surround(after, winner, surrounded, events)
    return _next_draw(after, seat, events)


def _score_events(seat: int, covered: Piece | None) -> list[Event]:
    """The score is top cards on the table: +1 for the mover, -1 for a covered enemy card."""
    if covered is not None and covered.owner == seat:
        return []
    events = [Event("score", "card on the table +1", seat, 1)]
    if covered is not None:
        events.append(Event("score", "card covered -1", covered.owner, -1))
    return events


def _finish_surround(state: State, winner: int, cell: Cell, events: list[Event]) -> tuple[State, Events]:
    loser = 1 - winner
    reason = f"{SEAT_NAMES[winner]} surrounded {SEAT_NAMES[loser]}'s card at {format_cell(cell)}"
    events.append(Event("game_end", f"{reason}: {SEAT_NAMES[winner]} wins", winner))
    return _replace_end(state, winner=winner, surrounded=cell, reason=reason), tuple(events)


def _replace_end(state: State, **changes: Any) -> State:
    return replace(state, finished=True, drawn="", bonus_left=0, bonus_card=False, **changes)


def _next_draw(state: State, seat: int, events: list[Event]) -> tuple[State, Events]:
    """Draw the next card: a bonus card for ``seat``, else the other seat's turn card."""
    bags = list(state.bags)
    if state.bonus_left and bags[seat]:
        card, bags[seat] = bags[seat][0], bags[seat][1:]
        events.append(Event("draw", f"{SEAT_NAMES[seat]} draws bonus card {card}", seat))
        left = state.bonus_left - 1
        after = replace(
            state, bags=(bags[0], bags[1]), turn=seat, drawn=card, bonus_left=left, bonus_card=True
        )
        return after, tuple(events)
    for player in (1 - seat, seat):
        if bags[player]:
            card, bags[player] = bags[player][0], bags[player][1:]
            if player == seat:
                empty = f"{SEAT_NAMES[1 - seat]}'s bag is empty: {SEAT_NAMES[seat]} plays on"
                events.append(Event("info", empty))
            events.append(Event("draw", f"{SEAT_NAMES[player]} draws {card}", player))
            after = replace(
                state, bags=(bags[0], bags[1]), turn=player, drawn=card, bonus_left=0, bonus_card=False
            )
            return after, tuple(events)
    return _finish_bags_empty(replace(state, bonus_left=0), events)


def _finish_bags_empty(state: State, events: list[Event]) -> tuple[State, Events]:
    tops = state.tops
    sieges = (siege(tops, 0), siege(tops, 1))
    counts = top_counts(tops)
    if sieges[0] != sieges[1]:
        winner: int | None = 0 if sieges[0] > sieges[1] else 1
        reason = (
            f"both bags are empty; {SEAT_NAMES[winner or 0]} has {max(sieges)} cards around one enemy card "
            f"(against {min(sieges)})"
        )
    elif counts[0] != counts[1]:
        winner = 0 if counts[0] > counts[1] else 1
        reason = (
            f"both bags are empty; sieges equal ({sieges[0]}), {SEAT_NAMES[winner]} has more cards on top "
            f"({max(counts)} against {min(counts)})"
        )
    else:
        winner = None
        reason = f"both bags are empty; sieges ({sieges[0]}) and cards on top ({counts[0]}) equal: a draw"
    events.append(Event("game_end", reason, winner))
    return _replace_end(state, winner=winner, reason=reason), tuple(events)


def resign_state(state: State, seat: int) -> tuple[State, Events]:
    """``seat`` forfeits; with two players the other wins at once."""
    if state.finished:
        return state, ()
    reason = f"{SEAT_NAMES[seat]} resigned"
    after = _replace_end(state, winner=1 - seat, reason=reason, forfeited=state.forfeited | {seat})
    events = (
        Event("forfeit", f"{SEAT_NAMES[seat]} resigns", seat),
        Event("game_end", f"{reason}: {SEAT_NAMES[1 - seat]} wins", 1 - seat),
    )
    return after, events
