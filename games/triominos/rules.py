"""The rules of Tri-Ominos: dealing, the opening, legal moves, scoring, rounds, the end, views.

Every function takes a :class:`State` and returns new values; nothing is mutated. Events are
facts with reason codes; their words are the game's phrases (:mod:`games.triominos.game`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from games.core import Event, EventKind, Events, Outcome, counted, evolve, rank_by_scores, seeded_rng
from games.errors import InvalidOptionsError, quote
from games.triominos.grid import Cell, cells_at, corner_parts, corners, format_cell
from games.triominos.state import DRAW_MOVE, HIDDEN, PASS_MOVE, Move, MoveKind, Options, State, placement
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

MAX_DEAL_ROUNDS = 1000
"""The most rounds an explicit deal may list."""
MAX_TILE_TEXT = 12
"""The longest tile name a deal may use (``5 - 5 - 5`` with spaces)."""


@dataclass(frozen=True)
class Bonus:
    """A bonus of a placement: its reason code, how many (hexagons) and its points."""

    reason: str
    count: int
    points: int


BONUS_LABELS = {
    "opening_triple": "opening triple",
    "opening_zeros": "0-0-0",
    "hexagon": "hexagon",
    "hexagons": "{count} hexagons",
    "bridge": "bridge",
}
"""How the board's last-move line and the move labels name a bonus."""


def bonus_label(bonus: Bonus) -> str:
    """A bonus in a few words: ``bridge``, ``2 hexagons``."""
    return BONUS_LABELS[bonus.reason].format(count=bonus.count)


def hand_size(players: int) -> int:
    """Tiles dealt to each player: 9 for two, 7 for three or four, 6 for five or six."""
    return 9 if players == 2 else 7 if players <= 4 else 6


# -- dealing -----------------------------------------------------------------------------------


def normalise_deal(deal: object) -> tuple[tuple[str, ...], ...]:
    """The explicit deal as a tuple of rounds, each a complete order of the 56 tiles.

    ``deal`` is a list of rounds, or one flat list for a single round; each round lists tile
    names (any rotation, separators ``-`` allowed); the tiles it leaves out follow in the
    canonical order. Anything else raises :class:`InvalidOptionsError`.
    """
    if not isinstance(deal, list | tuple) or not deal:
        raise InvalidOptionsError("A Tri-Ominos deal is a list of rounds, each a list of tile names.")
    rounds = [deal] if all(isinstance(item, str) for item in deal) else list(deal)
    if len(rounds) > MAX_DEAL_ROUNDS:
        raise InvalidOptionsError(
            f"A Tri-Ominos deal lists at most {MAX_DEAL_ROUNDS} rounds, not {len(rounds)}."
        )
    return tuple(_normalise_round(index, order) for index, order in enumerate(rounds))


def _normalise_round(index: int, order: object) -> tuple[str, ...]:
    if not isinstance(order, list | tuple):
        raise InvalidOptionsError(f"Round {index + 1} of the deal must be a list of tile names.")
    if len(order) > len(TILES):
        raise InvalidOptionsError(
            f"Round {index + 1} of the deal lists {counted(len(order), 'tile')}; there are only {len(TILES)}."
        )
    listed: list[str] = []
    for item in order:
        tile = _deal_tile(index, item)
        if tile in listed:
            raise InvalidOptionsError(f"Tile {tile} appears twice in round {index + 1} of the deal.")
        listed.append(tile)
    return (*listed, *(tile for tile in TILES if tile not in listed))


def _deal_tile(index: int, item: object) -> str:
    """The tile a deal names by ``item`` (a name in any rotation, ``-`` and spaces allowed)."""
    if not isinstance(item, str):
        kind = json_kind(item)
        raise InvalidOptionsError(f"Round {index + 1} of the deal must list tile names, not {kind}.")
    text = item.replace("-", "").replace(" ", "") if len(item) <= MAX_TILE_TEXT else item
    tile = LAID_TO_TILE.get(text)
    if tile is None:
        raise InvalidOptionsError(f"{quote(item)} in round {index + 1} of the deal is not a tile.")
    return tile


def json_kind(item: object) -> str:
    """What a JSON value is, in words (for errors about a deal)."""
    if item is None or isinstance(item, bool):
        return "null" if item is None else "true or false"
    if isinstance(item, int | float):
        return "a number"
    return "a list" if isinstance(item, list | tuple) else "an object" if isinstance(item, dict) else "text"


def round_order(seed: int, deal: tuple[tuple[str, ...], ...] | None, round_no: int) -> tuple[str, ...]:
    """The order of the 56 tiles in round ``round_no`` (1-based): from the deal, else shuffled."""
    if deal is not None and round_no <= len(deal):
        return deal[round_no - 1]
    order = list(TILES)
    seeded_rng(seed, "triominos", "round", round_no).shuffle(order)
    return tuple(order)


def find_opening(hands: Sequence[Sequence[str]], seats: Iterable[int]) -> tuple[int, str]:
    """The seat that opens and its tile (highest triple, else highest total)."""
    return max(((seat, tile) for seat in seats for tile in hands[seat]), key=lambda st: opening_rank(st[1]))


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
    opener, tile = find_opening(hands, state.active)
    return evolve(
        state,
        round=round_no,
        hands=tuple(hands),
        well=order[at:],
        board=(),
        turn=opener,
        opener=opener,
        opening_tile=tile,
        drawn="",
        stuck=False,
        passes=0,
        last=None,
        misses=(),
    )


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


# -- legal moves -------------------------------------------------------------------------------


def opening_moves(state: State) -> tuple[Move, ...]:
    """The opener's choices at 0,0: every way the opening tile lies; also 0-0-0 for an opener
    holding it beside a higher triple."""
    tile = state.opening_tile
    moves = [placement(laid, ORIGIN) for laid in ROTATIONS[tile]]
    if is_triple(tile) and tile != "000" and "000" in state.hands[state.turn]:
        moves.append(placement("000", ORIGIN))
    return tuple(moves)


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
    number = state.corner_numbers.get
    by_need: dict[tuple[int, int, int], list[Cell]] = {}
    for cell in state.frontier:
        first, second, third = corners(cell)
        need = (number(first, -1), number(second, -1), number(third, -1))
        by_need.setdefault(need, []).append(cell)
    groups = list(by_need.items())
    moves: list[Move] = []
    for tile in sorted(set(tiles)):
        for laid in ROTATIONS[tile]:
            a, b, c = int(laid[0]), int(laid[1]), int(laid[2])
            for (na, nb, nc), cells in groups:
                if (na < 0 or na == a) and (nb < 0 or nb == b) and (nc < 0 or nc == c):
                    moves.extend(placement(laid, cell) for cell in cells)
    return moves


def tile_fits_somewhere(state: State, tile: str) -> bool:
    """True when ``tile`` has a legal place on the table."""
    return any(fits(state, laid, cell) for laid in ROTATIONS[tile] for cell in state.frontier)


def legal_moves(state: State) -> tuple[Move, ...]:
    """The legal moves of the seat to act: a placement if any fits, else ``draw``, else
    ``pass``; none when the game is over or this view hides the hand they depend on."""
    if state.finished or state.turn in state.masked:
        return ()
    if state.opening:
        return opening_moves(state)
    if state.stuck:
        return (PASS_MOVE,)
    if state.drawn:
        return tuple(placements(state, [state.drawn]))
    moves = placements(state, state.hands[state.turn])
    if moves:
        return tuple(moves)
    return (DRAW_MOVE,) if state.well else (PASS_MOVE,)


# -- points ------------------------------------------------------------------------------------


def bonus(occupied: dict[Cell, str] | set[Cell], cell: Cell) -> Bonus | None:
    """The bonus for a tile just placed on ``cell`` (``occupied`` includes it): a hexagon
    (50/60/70 for one, two or three closed at once) replaces a bridge (40); else None."""
    hexagons = sum(1 for corner in corners(cell) if all(c in occupied for c in cells_at(corner)))
    if hexagons:
        return Bonus("hexagon" if hexagons == 1 else "hexagons", hexagons, HEXAGON_BONUS[hexagons])
    for index in range(3):
        edge, only, opposite = corner_parts(cell, index)
        if opposite in occupied and any(c in occupied for c in only) and not all(c in occupied for c in edge):
            return Bonus("bridge", 1, BRIDGE_BONUS)
    return None


def placement_points(state: State, move: Move) -> tuple[int, tuple[Bonus, ...]]:
    """The tile's points and the bonuses of a placement (the opening bonuses included)."""
    assert move.cell is not None
    tile_points = total(move.laid)
    if state.opening:
        if not is_triple(move.laid):
            return tile_points, ()
        triple = Bonus("opening_triple", 1, OPENING_BONUS)
        if move.laid == "000":
            return tile_points, (triple, Bonus("opening_zeros", 1, ZEROS_BONUS))
        return tile_points, (triple,)
    occupied = set(state.cells)
    occupied.add(move.cell)
    found = bonus(occupied, move.cell)
    return tile_points, () if found is None else (found,)


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


def apply_move(state: State, move: Move) -> tuple[State, Events]:
    """Play a legal move (the caller checked it is legal)."""
    if move.kind == MoveKind.PLACE:
        return place(state, move)
    if move.kind == MoveKind.PASS:
        if not state.stuck:  # nothing fits and the well is empty: everyone saw it (a draw told it already)
            state = evolve(state, misses=(*state.misses, (state.turn, len(state.board), 0)))
        return pass_turn(state, EventKind.PASS, "passed")
    return draw(state)


def place(state: State, move: Move) -> tuple[State, Events]:
    """Lay a tile: its points and bonuses; going out ends the round."""
    assert move.cell is not None
    seat = state.turn
    tile = LAID_TO_TILE[move.laid]
    tile_points, bonuses = placement_points(state, move)
    events = [Event(EventKind.SCORE, seat=seat, points=tile_points, reason="tile", subject=tile)]
    events.extend(
        Event(EventKind.SCORE, seat=seat, points=found.points, reason=found.reason, count=found.count)
        for found in bonuses
    )
    if tile == "000" and state.opening_tile not in ("", "000"):
        events.append(Event(EventKind.INFO, seat=seat, reason="shows_triple", subject=state.opening_tile))
    gained = tile_points + sum(found.points for found in bonuses)
    hand = remove_tile(state.hands[seat], tile)
    labels = " + ".join(bonus_label(found) for found in bonuses)
    after = evolve(
        state,
        hands=with_hand(state, seat, hand),
        board=(*state.board, (move.cell, move.laid)),
        scores=add_points(state.scores, seat, gained),
        opening_tile="",
        drawn="",
        stuck=False,
        passes=0,
        last=move.cell,
        last_seat=seat,
        last_text=f"{move.laid}@{format_cell(move.cell)} +{gained}" + (f" ({labels})" if labels else ""),
    )
    if not hand:
        return went_out(after, seat, events)
    return evolve(after, turn=next_seat(after, seat)), tuple(events)


def draw(state: State) -> tuple[State, Events]:
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
    count = len(drawn)
    lost = DRAW_PENALTY * count
    events = [Event(EventKind.DRAW, seat=seat, points=-lost, reason="drew", count=count)]
    if found:
        events.append(Event(EventKind.INFO, seat=seat, reason="drawn_fits", subject=found))
    elif not well:
        events.append(Event(EventKind.INFO, seat=seat, reason="well_empty"))
    else:
        events.append(Event(EventKind.INFO, seat=seat, reason="draw_limit", count=count))
    after = evolve(
        state,
        hands=with_hand(state, seat, tuple(sorted((*state.hands[seat], *drawn)))),
        well=tuple(well),
        scores=add_points(state.scores, seat, -lost),
        drawn=found,
        stuck=not found,
        last_seat=seat,
        last_text=f"drew {count} (−{lost})",
        misses=(*state.misses, (seat, len(state.board), count - (1 if found else 0))),
    )
    return after, tuple(events)


PASS_WORDS = {"passed": "passes", "turn_lost": "turn lost"}
"""How the board's last-move line names a pass, by its reason."""


def pass_turn(state: State, kind: EventKind, reason: str) -> tuple[State, Events]:
    """The seat to act loses 10 points and the turn passes (``reason`` says why: a pass, a turn
    lost to the clock); all active seats passing with an empty well blocks the round. A tile
    drawn and not played stays in the hand."""
    seat = state.turn
    events = [Event(kind, seat=seat, points=-PASS_PENALTY, reason=reason)]
    after = evolve(
        state,
        scores=add_points(state.scores, seat, -PASS_PENALTY),
        drawn="",
        stuck=False,
        passes=state.passes + 1,
        last_seat=seat,
        last_text=f"{PASS_WORDS[reason]} (−{PASS_PENALTY})",
    )
    if is_blocked(after):
        return blocked_round(after, events)
    return evolve(after, turn=next_seat(after, seat)), tuple(events)


def on_timeout(state: State) -> tuple[State, Events]:
    """Running out of time: the opening is laid for the opener (its first way); any other turn
    loses 10 points and passes."""
    if state.opening:
        return place(state, opening_moves(state)[0])
    return pass_turn(state, EventKind.TIMEOUT, "turn_lost")


def is_blocked(state: State) -> bool:
    """True when the well is empty and every active seat has passed since the last tile."""
    return not state.well and state.passes >= len(state.active)


# -- rounds and the end ------------------------------------------------------------------------


def other_hands(state: State, seat: int) -> list[tuple[str, ...]]:
    """The hands of the active seats other than ``seat``."""
    return [state.hands[other] for other in state.active if other != seat]


def others_total(state: State, seat: int) -> int:
    """The points left in the hands of the active seats other than ``seat``."""
    return sum(hand_total(hand) for hand in other_hands(state, seat))


def went_out(state: State, winner: int, events: list[Event]) -> tuple[State, Events]:
    """``winner`` played their last tile: +25 and the others' hands; then the game ends or a
    round starts."""
    from_hands = others_total(state, winner)
    tiles = sum(len(hand) for hand in other_hands(state, winner))
    events.extend(
        (
            Event(EventKind.ROUND_END, seat=winner, reason="went_out", count=state.round),
            Event(EventKind.SCORE, seat=winner, points=GOING_OUT_BONUS, reason="going_out"),
            Event(EventKind.SCORE, seat=winner, points=from_hands, reason="others_hands", count=tiles),
        )
    )
    after = evolve(state, scores=add_points(state.scores, winner, GOING_OUT_BONUS + from_hands))
    return close_round(after, winner, events)


def blocked_winner(state: State) -> int:
    """The winner of a blocked round: the fewest tiles, then the lower hand total, then the
    earlier seat from the opener."""
    order = [(state.opener + step) % state.players for step in range(state.players)]
    seats = [seat for seat in order if seat in state.active]
    return min(seats, key=lambda s: (len(state.hands[s]), hand_total(state.hands[s]), seats.index(s)))


def blocked_round(state: State, events: list[Event]) -> tuple[State, Events]:
    """Everybody passed with an empty well: the fewest tiles wins the round and scores the
    others' hands minus its own."""
    winner = blocked_winner(state)
    from_hands = others_total(state, winner)
    tiles = sum(len(hand) for hand in other_hands(state, winner))
    own = state.hands[winner]
    events.extend(
        (
            Event(EventKind.ROUND_END, seat=winner, reason="blocked", count=state.round),
            Event(EventKind.SCORE, seat=winner, points=from_hands, reason="others_hands", count=tiles),
            Event(EventKind.SCORE, seat=winner, points=-hand_total(own), reason="own_hand", count=len(own)),
        )
    )
    after = evolve(state, scores=add_points(state.scores, winner, from_hands - hand_total(own)))
    return close_round(after, winner, events)


def game_winners(state: State, round_winner: int) -> tuple[tuple[int, ...], str] | None:
    """Who wins and why (a phrase code) when a seat is at or above the target after a round,
    else None: the round winner if at or above it, else the highest score there (ties share)."""
    reached = [seat for seat in state.active if state.scores[seat] >= state.options.target]
    if not reached:
        return None
    scores = state.scores
    if round_winner in reached:
        higher = any(scores[seat] > scores[round_winner] for seat in state.active)
        return (round_winner,), "round_winner_over_higher" if higher else "round_winner_at_target"
    best = max(scores[seat] for seat in reached)
    winners = tuple(seat for seat in reached if scores[seat] == best)
    return winners, "highest_at_target" if len(winners) == 1 else "tie_at_target"


def close_round(state: State, winner: int, events: list[Event]) -> tuple[State, Events]:
    """After a round's scoring: end the game, or deal the next round."""
    ending = game_winners(state, winner)
    if ending is not None:
        winners, reason = ending
        return finish(state, winners, reason, events)
    fresh = deal_round(state, state.round + 1)
    events.append(opens_round(fresh))
    return fresh, tuple(events)


def opens_round(state: State) -> Event:
    """The fact that the round waits for its opener and the opening tile."""
    return Event(
        EventKind.INFO, seat=state.opener, reason="opens_round", count=state.round, subject=state.opening_tile
    )


def finish(state: State, winners: tuple[int, ...], reason: str, events: list[Event]) -> tuple[State, Events]:
    """The game is over: ``winners`` win for ``reason`` (a phrase code)."""
    events.append(Event(EventKind.GAME_END, seat=reason_seat(winners), reason=reason))
    done = evolve(state, finished=True, reason=reason, winners=winners, drawn="", stuck=False)
    return done, tuple(events)


def reason_seat(winners: tuple[int, ...]) -> int | None:
    """The seat an outcome's reason speaks of: the winner, unless the win is shared."""
    return winners[0] if len(winners) == 1 else None


def resign(state: State, seat: int) -> tuple[State, Events]:
    """``seat`` (still playing; the game not over) resigns: it ranks last, its tiles leave the
    game and the others play on while two remain."""
    events = [Event(EventKind.FORFEIT, seat=seat, reason="resigned")]
    after = evolve(state, forfeited=state.forfeited | {seat})
    if len(after.active) <= 1:
        return finish(after, after.active, "last_standing", events)
    if after.opening:
        opener, tile = find_opening(after.hands, after.active)
        after = evolve(after, turn=opener, opener=opener, opening_tile=tile)
        if opener != state.opener:
            events.append(opens_round(after))
        return after, tuple(events)
    if after.turn == seat:
        after = evolve(after, turn=next_seat(after, seat), drawn="", stuck=False)
    if is_blocked(after):
        return blocked_round(after, events)
    return after, tuple(events)


def outcome(state: State) -> Outcome | None:
    """Winners first, then by score; forfeited seats last."""
    if not state.finished:
        return None
    keys = [(1 if seat in state.winners else 0, state.scores[seat]) for seat in range(state.players)]
    ranks = rank_by_scores([0] * state.players, forfeited=state.forfeited, tiebreak=keys)
    return Outcome(state.scores, ranks, state.reason, state.forfeited, reason_seat(state.winners))


# -- hidden information ------------------------------------------------------------------------


def view(state: State, seat: int | None) -> State:
    """What ``seat`` may see: the other hands and the well become :data:`HIDDEN` tiles (their
    sizes stay); the seed and the deal, from which they could be recomputed, go."""
    hidden = frozenset(other for other in range(state.players) if other != seat)
    hands = tuple((HIDDEN,) * len(held) if i in hidden else held for i, held in enumerate(state.hands))
    return evolve(state, hands=hands, well=(HIDDEN,) * len(state.well), seed=0, deal=None, masked=hidden)


def determinize(seen: State, rng: random.Random) -> State:
    """A whole state with the view ``seen``: the hidden hands and the well drawn from ``rng``
    among the tiles the view does not show, and a fresh seed for the later rounds' deals.

    Public facts are kept: every hand size and the well's size, the drawn tile that must be
    played (in the hand of the seat to act), and what the round told about the hidden hands
    (:func:`hand_limits`): nobody else held a tile that would have opened the round before the
    opening tile, and a seat that drew or passed held nothing that fitted the table then. A
    hand is dealt from the shuffled unseen tiles, each hidden seat in turn taking the first
    tiles that keep its limits (limits that cannot all be kept are relaxed).
    """
    known = public_tiles(seen)
    unseen = unseen_tiles(seen, known)
    rng.shuffle(unseen)
    hands = list(seen.hands)
    limits = hand_limits(seen)
    for seat in sorted(seen.masked):
        hands[seat], unseen = deal_hidden(seen, seat, known, unseen, limits.get(seat, ()))
    return evolve(
        seen,
        hands=tuple(hands),
        well=tuple(unseen),
        seed=rng.getrandbits(63),
        deal=None,
        masked=frozenset(),
    )


Limit = tuple[frozenset[str], int]
"""A set of tiles and how many of them a hidden hand may hold at most."""


def hand_limits(seen: State) -> dict[int, tuple[Limit, ...]]:
    """What the round told about each hidden hand, as limits.

    - The opening: the opener held the highest tile of all hands, so no hand held one that
      ranks above it (while the round opens, the opening tile itself; later the tile at
      0,0, unless 0-0-0 opened in place of a triple); only tiles drawn since may.
    - A miss (``State.misses``): a seat that drew or passed held nothing that fitted the table
      then, so it holds no more such tiles than it drew and kept since.
    """
    hidden = [seat for seat in sorted(seen.masked) if seat in seen.active]
    kept = {seat: sum(count for who, _, count in seen.misses if who == seat) for seat in hidden}
    found: dict[int, list[Limit]] = {seat: [] for seat in hidden}
    ceiling = seen.opening_tile
    if not ceiling and seen.board and seen.board[0][1] != "000":  # 0-0-0 may have opened for a triple
        ceiling = LAID_TO_TILE[seen.board[0][1]]
    if ceiling:
        above = tiles_above(ceiling)
        for seat in hidden:
            found[seat].append((above, kept[seat]))
    for index, (seat, laid_count, _) in enumerate(seen.misses):
        if seat in found:
            since = sum(count for who, _, count in seen.misses[index + 1 :] if who == seat)
            found[seat].append((tiles_fitting(seen.board[:laid_count]), since))
    return {seat: tuple(limits) for seat, limits in found.items() if limits}


@lru_cache(maxsize=64)
def tiles_above(tile: str) -> frozenset[str]:
    """The tiles that would open a round before ``tile``."""
    return frozenset(other for other in TILES if opening_rank(other) > opening_rank(tile))


@lru_cache(maxsize=512)
def tiles_fitting(board: tuple[tuple[Cell, str], ...]) -> frozenset[str]:
    """Every tile that has a place on a table laid out as ``board`` (all of them on an empty
    table)."""
    if not board:
        return frozenset(TILES)
    table = State(
        options=Options(),
        seed=0,
        players=2,
        deal=None,
        round=1,
        hands=((), ()),
        well=(),
        board=board,
        scores=(0, 0),
        turn=0,
        opener=0,
    )
    return frozenset(tile for tile in TILES if tile_fits_somewhere(table, tile))


def public_tiles(seen: State) -> dict[int, tuple[str, ...]]:
    """The tiles known to be in hidden hands: the drawn tile the seat to act must play, the
    opening tile in the opener's hand."""
    known: dict[int, tuple[str, ...]] = {}
    if seen.turn in seen.masked:
        if seen.drawn:
            known[seen.turn] = (seen.drawn,)
        elif seen.opening:
            known[seen.turn] = (seen.opening_tile,)
    return known


def unseen_tiles(seen: State, known: dict[int, tuple[str, ...]]) -> list[str]:
    """The tiles the view does not show anywhere (in canonical order)."""
    shown = {LAID_TO_TILE[laid] for _, laid in seen.board}
    shown.update(tile for seat, hand in enumerate(seen.hands) if seat not in seen.masked for tile in hand)
    shown.update(tile for tiles in known.values() for tile in tiles)
    return [tile for tile in TILES if tile not in shown]


def deal_hidden(
    seen: State,
    seat: int,
    known: dict[int, tuple[str, ...]],
    pool: list[str],
    limits: Sequence[Limit] = (),
) -> tuple[tuple[str, ...], list[str]]:
    """``seat``'s hidden hand (its known tiles and the first tiles of ``pool`` that keep its
    ``limits``, then any if too few do) and what is left of the pool, in its order."""
    public = known.get(seat, ())
    need = len(seen.hands[seat]) - len(public)
    taken: list[str] = []
    left: list[str] = []
    counts = [sum(1 for tile in public if tile in tiles) for tiles, _ in limits]
    for tile in pool:
        if len(taken) < need and all(
            tile not in tiles or counts[i] < most for i, (tiles, most) in enumerate(limits)
        ):
            taken.append(tile)
            for i, (tiles, _) in enumerate(limits):
                if tile in tiles:
                    counts[i] += 1
        else:
            left.append(tile)
    while len(taken) < need:  # the limits cannot all be kept: relax them
        taken.append(left.pop(0))
    return tuple(sorted((*public, *taken))), left
