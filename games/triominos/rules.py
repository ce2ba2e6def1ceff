"""The rules of Tri-Ominos: dealing, the opening, legal moves, scoring, rounds and the end.

Every function takes a :class:`State` and returns new values; nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from games.core import Event, seeded_rng
from games.errors import InvalidOptionsError
from games.triominos.grid import Cell, cells_at, corner_parts, corners, format_cell
from games.triominos.state import DRAW_MOVE, PASS, PASS_MOVE, PLACE, Move, Options, State
from games.triominos.tiles import (
    LAID_TO_TILE,
    ROTATIONS,
    TILES,
    hand_total,
    is_triple,
    opening_rank,
    total,
)

ORIGIN: Cell = (0, 0)
OPENING_BONUS = 10
ZEROS_BONUS = 30
HEXAGON_BONUS = {1: 50, 2: 60, 3: 70}
BRIDGE_BONUS = 40
DRAW_PENALTY = 5
PASS_PENALTY = 10
GOING_OUT_BONUS = 25


def seat_name(seat: int) -> str:
    """How events name a seat (the bot shows player names beside them)."""
    return f"seat {seat + 1}"


def hand_size(players: int) -> int:
    """Tiles dealt to each player: 9 for two, 7 for three or four, 6 for five or six."""
    return 9 if players == 2 else 7 if players <= 4 else 6


# -- dealing -----------------------------------------------------------------------------------


def normalise_deal(deal: object) -> tuple[tuple[str, ...], ...]:
    """The explicit deal as a tuple of rounds, each a complete order of the 56 tiles.

    ``deal`` is a list of rounds, or one flat list for a single round; each round lists tile
    names (any rotation, separators ``-`` allowed); the tiles it leaves out follow in the
    canonical order.
    """
    if not isinstance(deal, list | tuple) or not deal:
        raise InvalidOptionsError("A Tri-Ominos deal is a list of rounds, each a list of tile names.")
    rounds = [deal] if all(isinstance(item, str) for item in deal) else list(deal)
    return tuple(_normalise_round(index, order) for index, order in enumerate(rounds))


def _normalise_round(index: int, order: object) -> tuple[str, ...]:
    if not isinstance(order, list | tuple):
        raise InvalidOptionsError(f"Round {index + 1} of the deal must be a list of tile names.")
    listed: list[str] = []
    for item in order:
        text = str(item).replace("-", "").strip()
        tile = LAID_TO_TILE.get(text)
        if tile is None:
            raise InvalidOptionsError(f"{item!r} in round {index + 1} of the deal is not a tile.")
        if tile in listed:
            raise InvalidOptionsError(f"Tile {tile} appears twice in round {index + 1} of the deal.")
        listed.append(tile)
    return (*listed, *(tile for tile in TILES if tile not in listed))


def round_order(state_seed: int, deal: tuple[tuple[str, ...], ...] | None, round_no: int) -> tuple[str, ...]:
    """The order of the 56 tiles in round ``round_no`` (1-based): from the deal, else shuffled."""
    if deal is not None and round_no <= len(deal):
        return deal[round_no - 1]
    order = list(TILES)
    seeded_rng(state_seed, "triominos", "round", round_no).shuffle(order)
    return tuple(order)


def deal_round(state: State, round_no: int) -> State:
    """A fresh round: hands dealt one after the other to the active seats, the rest the well,
    the opener found; the scores stay."""
    order = round_order(state.seed, state.deal, round_no)
    size = hand_size(len(state.active))
    hands: list[tuple[str, ...]] = [() for _ in range(state.players)]
    at = 0
    for seat in state.active:
        hands[seat] = tuple(sorted(order[at : at + size]))
        at += size
    fresh = replace(
        state,
        round=round_no,
        hands=tuple(hands),
        well=order[at:],
        board=(),
        opening=True,
        drawn="",
        stuck=False,
        passes=0,
        last=None,
    )
    opener = find_opener(fresh)
    return replace(fresh, turn=opener, opener=opener)


def opening_tile(hands: Sequence[Sequence[str]], seats: Iterable[int]) -> tuple[int, str]:
    """The seat that opens and its tile (highest triple, else highest total)."""
    best = max(((seat, tile) for seat in seats for tile in hands[seat]), key=lambda st: opening_rank(st[1]))
    return best


def find_opener(state: State) -> int:
    """The seat holding the opening tile."""
    return opening_tile(state.hands, state.active)[0]


def opening_moves(state: State) -> tuple[Move, ...]:
    """The opener's choices at 0,0: every way the opening tile lies; also 0-0-0 for a player
    holding it beside a higher triple."""
    seat, tile = opening_tile(state.hands, state.active)
    moves = [Move(PLACE, laid, ORIGIN) for laid in ROTATIONS[tile]]
    if is_triple(tile) and tile != "000" and "000" in state.hands[seat]:
        moves.append(Move(PLACE, "000", ORIGIN))
    return tuple(moves)


# -- placement ---------------------------------------------------------------------------------


def fits(state: State, laid: str, cell: Cell) -> bool:
    """True when ``laid`` may go on the empty frontier ``cell``: every corner that touches a
    tile shows that tile's number."""
    numbers = state.corner_numbers
    for corner, digit in zip(corners(cell), laid, strict=True):
        need = numbers.get(corner)
        if need is not None and need != int(digit):
            return False
    return True


def placements(state: State, tiles: Iterable[str]) -> list[Move]:
    """Every placement of ``tiles`` on the frontier (cells grouped by what their corners need)."""
    numbers = state.corner_numbers
    by_need: dict[tuple[int, int, int], list[Cell]] = {}
    for cell in state.frontier:
        need = tuple(numbers.get(corner, -1) for corner in corners(cell))
        by_need.setdefault(need, []).append(cell)  # type: ignore[arg-type]
    moves: list[Move] = []
    for tile in sorted(set(tiles)):
        for laid in ROTATIONS[tile]:
            a, b, c = int(laid[0]), int(laid[1]), int(laid[2])
            for (na, nb, nc), cells in by_need.items():
                if (na < 0 or na == a) and (nb < 0 or nb == b) and (nc < 0 or nc == c):
                    moves.extend(Move(PLACE, laid, cell) for cell in cells)
    return moves


def tile_fits_somewhere(state: State, tile: str) -> bool:
    """True when ``tile`` has a legal place on the table."""
    return any(fits(state, laid, cell) for laid in ROTATIONS[tile] for cell in state.frontier)


def compute_legal(state: State) -> tuple[Move, ...]:
    """The legal moves of the seat to act."""
    if state.finished or (state.masked and (state.opening or state.turn in state.masked)):
        return ()  # a view that hides what the moves depend on
    if state.opening:
        return opening_moves(state)
    if state.stuck:
        return (PASS_MOVE,)
    if state.drawn:
        return tuple(placements(state, [state.drawn]))
    moves = placements(state, state.hands[state.turn])
    if moves:
        return tuple(moves)
    if state.well:
        return (DRAW_MOVE,)
    return (PASS_MOVE,)


# -- bonuses -----------------------------------------------------------------------------------


def bonus(occupied: dict[Cell, str] | set[Cell], cell: Cell) -> tuple[str, int]:
    """The bonus for a tile just placed on ``cell`` (``occupied`` includes it): a hexagon
    (50/60/70 for one, two or three closed at once) replaces a bridge (40); else none."""
    hexagons = sum(1 for corner in corners(cell) if all(c in occupied for c in cells_at(corner)))
    if hexagons:
        name = "hexagon" if hexagons == 1 else f"{hexagons} hexagons"
        return name, HEXAGON_BONUS[hexagons]
    for index in range(3):
        edge, only, opposite = corner_parts(cell, index)
        if opposite in occupied and any(c in occupied for c in only) and not all(c in occupied for c in edge):
            return "bridge", BRIDGE_BONUS
    return "", 0


def placement_points(state: State, move: Move) -> tuple[int, str, int]:
    """``(tile points, bonus name, bonus points)`` of a placement (the opening bonus included)."""
    assert move.cell is not None
    tile_points = total(move.laid)
    if state.opening:
        if not is_triple(move.laid):
            return tile_points, "", 0
        extra = OPENING_BONUS + (ZEROS_BONUS if move.laid == "000" else 0)
        return tile_points, "opening triple 0-0-0" if move.laid == "000" else "opening triple", extra
    occupied = set(state.cells)
    occupied.add(move.cell)
    name, points = bonus(occupied, move.cell)
    return tile_points, name, points


# -- turns -------------------------------------------------------------------------------------


def next_seat(state: State, seat: int) -> int:
    """The next active seat after ``seat`` in seat order."""
    for step in range(1, state.players + 1):
        other = (seat + step) % state.players
        if other not in state.forfeited:
            return other
    return seat


def add_points(scores: tuple[int, ...], seat: int, points: int) -> tuple[int, ...]:
    """``scores`` with ``points`` added to ``seat``."""
    return tuple(score + points if index == seat else score for index, score in enumerate(scores))


def remove_tile(hand: tuple[str, ...], tile: str) -> tuple[str, ...]:
    """``hand`` without one ``tile``."""
    items = list(hand)
    items.remove(tile)
    return tuple(items)


def with_hand(state: State, seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The hands with ``seat``'s replaced."""
    return tuple(hand if index == seat else other for index, other in enumerate(state.hands))


def apply_move(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """Play a legal move (the caller checked it is legal)."""
    if move.kind == PLACE:
        return place(state, move)
    if move.kind == PASS:
        return pass_turn(state, "passes", PASS_PENALTY)
    return draw(state)


def place(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """Lay a tile: its points and bonus; going out ends the round."""
    assert move.cell is not None
    seat = state.turn
    tile = LAID_TO_TILE[move.laid]
    tile_points, bonus_name, bonus_points = placement_points(state, move)
    where = f"{move.laid}@{format_cell(move.cell)}"
    events = [Event("score", f"tile {tile} +{tile_points}", seat, tile_points)]
    shown = opening_tile(state.hands, state.active)[1] if state.opening else ""
    if tile == "000" and shown not in ("", "000"):
        events.append(Event("info", f"opens with 0-0-0 and shows {shown}", seat))
    if bonus_points:
        events.append(Event("score", f"{bonus_name} +{bonus_points}", seat, bonus_points))
    gained = tile_points + bonus_points
    hand = remove_tile(state.hands[seat], tile)
    after = replace(
        state,
        hands=with_hand(state, seat, hand),
        board=(*state.board, (move.cell, move.laid)),
        scores=add_points(state.scores, seat, gained),
        opening=False,
        drawn="",
        stuck=False,
        passes=0,
        last=move.cell,
        last_seat=seat,
        last_text=f"{where} +{gained}" + (f" ({bonus_name})" if bonus_name else ""),
        plies=state.plies + 1,
    )
    if not hand:
        return end_round(after, seat, "went out", events)
    return replace(after, turn=next_seat(after, seat)), tuple(events)


def draw(state: State) -> tuple[State, tuple[Event, ...]]:
    """Draw from the well until a tile fits, the well is empty or the draw limit is reached."""
    seat = state.turn
    limit = state.options.draw_limit
    well = list(state.well)
    drawn: list[str] = []
    found = ""
    while well and (limit is None or len(drawn) < limit):
        tile = well.pop(0)
        drawn.append(tile)
        if tile_fits_somewhere(state, tile):
            found = tile
            break
    lost = DRAW_PENALTY * len(drawn)
    count = len(drawn)
    text = f"draws {count} tile{'s' if count != 1 else ''} from the well, −{DRAW_PENALTY} each: −{lost}"
    if found:
        text += f"; {'the last one, ' if count > 1 else ''}{found}, fits and must be played"
    elif not well:
        text += "; nothing fits and the well is empty: pass (−10)"
    else:
        text += f"; nothing fits after {count} draws: pass (−10)"
    events = [Event("draw", text, seat, -lost)]
    hand = tuple(sorted((*state.hands[seat], *drawn)))
    after = replace(
        state,
        hands=with_hand(state, seat, hand),
        well=tuple(well),
        scores=add_points(state.scores, seat, -lost),
        drawn=found,
        stuck=not found,
        last_seat=seat,
        last_text=f"drew {count} (−{lost})",
        plies=state.plies + 1,
    )
    return after, tuple(events)


def pass_turn(state: State, verb: str, penalty: int) -> tuple[State, tuple[Event, ...]]:
    """The seat to act loses ``penalty`` and the turn passes; all active seats passing with an
    empty well blocks the round."""
    seat = state.turn
    events = [Event("pass", f"{verb} −{penalty}", seat, -penalty)]
    after = replace(
        state,
        scores=add_points(state.scores, seat, -penalty),
        drawn="",
        stuck=False,
        passes=state.passes + 1,
        last_seat=seat,
        last_text=f"{verb} (−{penalty})",
        plies=state.plies + 1,
    )
    if not after.well and after.passes >= len(after.active):
        return blocked_round(after, events)
    return replace(after, turn=next_seat(after, seat)), tuple(events)


# -- rounds and the end ------------------------------------------------------------------------


def others_total(state: State, seat: int) -> int:
    """The points left in the hands of the active seats other than ``seat``."""
    return sum(hand_total(state.hands[other]) for other in state.active if other != seat)


def end_round(state: State, winner: int, how: str, events: list[Event]) -> tuple[State, tuple[Event, ...]]:
    """``winner`` went out: +25 and the others' hands; then the game ends or a round starts."""
    from_hands = others_total(state, winner)
    events.append(Event("score", f"going out +{GOING_OUT_BONUS}", winner, GOING_OUT_BONUS))
    events.append(Event("score", f"tiles left in the other hands +{from_hands}", winner, from_hands))
    gained = GOING_OUT_BONUS + from_hands
    after = replace(state, scores=add_points(state.scores, winner, gained))
    summary = (
        f"Round {state.round}: {seat_name(winner)} {how} and wins the round: "
        f"+{GOING_OUT_BONUS} and +{from_hands} from the hands"
    )
    return close_round(after, winner, summary, events)


def blocked_round(state: State, events: list[Event]) -> tuple[State, tuple[Event, ...]]:
    """Everybody passed with an empty well: the fewest tiles wins the round (then the lower hand
    total, then the earlier seat from the opener) and scores the others' hands minus its own."""
    order = [(state.opener + step) % state.players for step in range(state.players)]
    seats = [seat for seat in order if seat in state.active]
    winner = min(seats, key=lambda s: (len(state.hands[s]), hand_total(state.hands[s]), seats.index(s)))
    from_hands = others_total(state, winner)
    own = hand_total(state.hands[winner])
    gained = from_hands - own
    events.append(Event("info", "the round is blocked: every player passed and the well is empty"))
    events.append(Event("score", f"tiles left in the other hands +{from_hands}", winner, from_hands))
    events.append(Event("score", f"own hand −{own}", winner, -own))
    after = replace(state, scores=add_points(state.scores, winner, gained))
    summary = (
        f"Round {state.round} is blocked: {seat_name(winner)} holds the fewest tiles and wins the round: "
        f"+{from_hands} from the other hands −{own} from its own"
    )
    return close_round(after, winner, summary, events)


def close_round(
    state: State, winner: int, summary: str, events: list[Event]
) -> tuple[State, tuple[Event, ...]]:
    """Post the round summary, then end the game or deal the next round."""
    hands = ", ".join(
        f"{seat_name(seat)} {hand_total(state.hands[seat])}" for seat in state.active if seat != winner
    )
    totals = ", ".join(f"{seat_name(seat)} {state.scores[seat]}" for seat in range(state.players))
    text = f"{summary} · points in the hands: {hands or 'none'} · totals: {totals}"
    events.append(Event("round_end", text, winner))
    target = state.options.target
    reached = [seat for seat in state.active if state.scores[seat] >= target]
    if reached:
        if winner in reached:
            winners: tuple[int, ...] = (winner,)
        else:
            best = max(state.scores[seat] for seat in reached)
            winners = tuple(seat for seat in reached if state.scores[seat] == best)
        names = " and ".join(seat_name(seat) for seat in winners)
        reason = f"{names} reached {target} and won"
        events.append(Event("game_end", f"Game over: {reason}."))
        done = replace(state, finished=True, reason=reason, winners=winners, round_summary=text, drawn="")
        return done, tuple(events)
    fresh = deal_round(replace(state, round_summary=text), state.round + 1)
    opener_tile = opening_tile(fresh.hands, fresh.active)[1]
    events.append(
        Event(
            "info", f"Round {fresh.round}: {seat_name(fresh.opener)} opens with {opener_tile}", fresh.opener
        )
    )
    return fresh, tuple(events)


def forfeit(state: State, seat: int) -> tuple[State, tuple[Event, ...]]:
    """``seat`` resigns: it ranks last; its tiles leave the game; the others play on."""
    if state.finished or seat in state.forfeited:
        return state, ()
    events = [Event("forfeit", f"{seat_name(seat)} resigns", seat)]
    after = replace(state, forfeited=state.forfeited | {seat})
    if len(after.active) <= 1:
        winners = after.active
        reason = "the other players resigned"
        events.append(Event("game_end", f"Game over: {reason}."))
        return replace(after, finished=True, reason=reason, winners=winners, drawn="", stuck=False), tuple(
            events
        )
    if after.opening:
        opener = find_opener(after)
        return replace(after, turn=opener, opener=opener), tuple(events)
    if after.turn == seat:
        after = replace(after, turn=next_seat(after, seat), drawn="", stuck=False)
    if not after.well and after.passes >= len(after.active):
        return blocked_round(after, events)
    return after, tuple(events)


def new_state(players: int, options: Options, seed: int, deal: object) -> State:
    """The first round of a new game, dealt and with its opener to act."""
    rounds = None if deal is None else normalise_deal(deal)
    blank = State(
        options=options,
        seed=seed,
        players=players,
        deal=rounds,
        round=0,
        hands=tuple(() for _ in range(players)),
        well=(),
        board=(),
        scores=tuple(0 for _ in range(players)),
        turn=0,
        opener=0,
    )
    return deal_round(blank, 1)
