"""Fast Tri-Ominos playouts for the search player (``hard``).

The search plays thousands of moves per decision, so it does not go through the immutable
engine (:mod:`games.triominos.rules`) move by move: :class:`Table` is a mutable copy of one
(determinized) state that plays the same rules in place (placements, bonuses, draws, passes,
going out, blocked rounds, the next rounds' deals and the end of the game), with the ``normal``
player's policy (the best points now, ties at random) for every seat. The engine stays the
authority: tests play both side by side and compare every move and score.

Placements are found through :data:`FITS`: for every pattern of numbers a cell's corners ask
for (``-1`` where a corner is free), the laid tiles that match it. A frontier cell always has
at least two numbers asked (it shares an edge), so at most six laid tiles fit it, and the
moves of a hand are a few dictionary look-ups per frontier cell.

What a seat knows about the hidden hands (a player who drew held nothing that fitted) is
used where the worlds are sampled, in :func:`games.triominos.rules.determinize`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from games.ai.profile import Result, Run, SearchProfile
from games.ai.search import logistic, rank_result, score_lead
from games.core import Game, Outcome, StateCache
from games.triominos.grid import Cell, Corner, cells_at, corner_parts, corners, neighbours
from games.triominos.rules import (
    BRIDGE_BONUS,
    DRAW_PENALTY,
    GOING_OUT_BONUS,
    HEXAGON_BONUS,
    OPENING_BONUS,
    PASS_PENALTY,
    ZEROS_BONUS,
    hand_size,
    placement_points,
)
from games.triominos.state import Move, MoveKind, State
from games.triominos.tiles import LAID_TO_TILE, TILES, is_triple, opening_rank, total

Need = tuple[int, int, int]
Fit = tuple[str, str, int]
"""A laid tile that fits a cell: ``(laid, tile, points)``."""


def _fits_table() -> dict[Need, tuple[Fit, ...]]:
    table: dict[Need, list[Fit]] = {}
    for laid, tile in LAID_TO_TILE.items():
        numbers = tuple(int(ch) for ch in laid)
        for mask in range(8):
            need = tuple(numbers[i] if mask >> i & 1 else -1 for i in range(3))
            table.setdefault(need, []).append((laid, tile, total(tile)))  # type: ignore[arg-type]
    return {need: tuple(sorted(fits)) for need, fits in table.items()}


FITS: dict[Need, tuple[Fit, ...]] = _fits_table()
"""Corner pattern (``-1``: free) -> every laid tile that matches it, in notation order."""
Options = tuple[tuple[Fit, ...], frozenset[str]]
"""What fits a cell: the laid tiles, and the tiles they are."""
OPTIONS: dict[Need, Options] = {
    need: (fits, frozenset(tile for _, tile, _ in fits)) for need, fits in FITS.items()
}
NOTHING: Options = ((), frozenset())
TILE_POINTS: dict[str, int] = {tile: total(tile) for tile in TILES}


class Weights(NamedTuple):
    """How the ``normal`` player weighs a placement beside the points it makes now: the bonus
    chances it opens to the others (``caution``), each of its own tiles that would still have a
    place (``mobility``), and a bonus it could take later itself (``reserve``, a share of it):
    see :meth:`Table.judgement`."""

    caution: float = 0.0
    mobility: float = 0.0
    reserve: float = 0.0


PLAIN = Weights()
"""The points now and nothing else (fast)."""
NORMAL = Weights(caution=1.0, mobility=20.0, reserve=0.8)
"""The ``normal`` level's weights, chosen on games against the plain policy (seeds 60000-63299;
600 games each: caution 1 and mobility 10 won 57.5 %, with mobility 20 58.8 %, 40 57.3 %;
without the reserve, or with the next player's chance to be stuck, no better)."""
PLAYOUT_WEIGHTS = PLAIN
"""The policy of every seat in the search's playouts."""


@lru_cache(maxsize=1 << 16)
def geometry(cell: Cell) -> tuple[tuple[Corner, ...], tuple[tuple[Cell, ...], ...], tuple[Any, ...]]:
    """What a placement on ``cell`` looks at: its corners, the five other cells around each
    corner (a hexagon), and for each corner the bridge's parts (edge pair, corner-only cells,
    opposite cell)."""
    around = corners(cell)
    hexagons = tuple(tuple(c for c in cells_at(corner) if c != cell) for corner in around)
    bridges = tuple(corner_parts(cell, index) for index in range(3))
    return around, hexagons, bridges


@lru_cache(maxsize=1 << 16)
def touching(cell: Cell) -> tuple[Cell, ...]:
    """The twelve other cells sharing a corner with ``cell``."""
    return tuple(dict.fromkeys(c for corner in corners(cell) for c in cells_at(corner) if c != cell))


def options_at(numbers: dict[Corner, int], cell: Cell) -> Options:
    """What fits ``cell`` given the numbers on the table."""
    a, b, c = corners(cell)
    get = numbers.get
    return OPTIONS.get((get(a, -1), get(b, -1), get(c, -1)), NOTHING)


def bonus_points(occupied: dict[Cell, str], cell: Cell) -> int:
    """The bonus a tile placed on ``cell`` would earn (``cell`` is still empty in
    ``occupied``): 50/60/70 for one, two or three hexagons, else 40 for a bridge, else 0."""
    _, hexagons, bridges = geometry(cell)
    closed = 0
    for ring in hexagons:
        for other in ring:
            if other not in occupied:
                break
        else:
            closed += 1
    if closed:
        return HEXAGON_BONUS[closed]
    for (first, second), only, opposite in bridges:
        if (
            opposite in occupied
            and (only[0] in occupied or only[1] in occupied or only[2] in occupied)
            and (first not in occupied or second not in occupied)
        ):
            return BRIDGE_BONUS
    return 0


class Table:
    """A mutable Tri-Ominos game for playouts: the board, the hands, the well and the scores,
    played in place by the rules of :mod:`games.triominos.rules`."""

    __slots__ = (
        "active",
        "board",
        "draw_limit",
        "drawn",
        "finished",
        "frontier",
        "hands",
        "numbers",
        "on_table",
        "opener",
        "opening",
        "passes",
        "pending",
        "players",
        "round_ends",
        "scores",
        "target",
        "turn",
        "well",
        "winners",
    )

    def __init__(self, state: State) -> None:
        self.board: dict[Cell, str] = dict(state.board)
        self.numbers: dict[Corner, int] = dict(state.corner_numbers)
        self.frontier: dict[Cell, Options] = {cell: options_at(self.numbers, cell) for cell in state.frontier}
        """Every empty cell sharing an edge with a tile, and what fits it."""
        self.on_table: set[str] = {LAID_TO_TILE[laid] for _, laid in state.board}
        self.hands: list[list[str]] = [list(hand) for hand in state.hands]
        self.well: list[str] = list(state.well)
        self.scores: list[int] = list(state.scores)
        self.players = state.players
        self.active: tuple[int, ...] = state.active
        self.turn = state.turn
        self.opener = state.opener
        self.opening = state.opening_tile
        self.drawn = state.drawn
        self.passes = state.passes
        self.target = state.options.target
        self.draw_limit = state.options.draw_limit
        self.finished = state.finished
        self.winners: tuple[int, ...] = state.winners
        self.round_ends = 0
        self.pending = False
        """True between a round's end and the next deal."""

    def copy(self) -> Table:
        """An independent copy (a candidate's playout starts from one)."""
        other = Table.__new__(Table)
        other.board = dict(self.board)
        other.numbers = dict(self.numbers)
        other.frontier = dict(self.frontier)
        other.on_table = set(self.on_table)
        other.hands = [list(hand) for hand in self.hands]
        other.well = list(self.well)
        other.scores = list(self.scores)
        for name in (
            "players",
            "active",
            "turn",
            "opener",
            "opening",
            "drawn",
            "passes",
            "target",
            "draw_limit",
            "finished",
            "winners",
            "round_ends",
            "pending",
        ):
            setattr(other, name, getattr(self, name))
        return other

    # -- moves ---------------------------------------------------------------------------------

    def placements(self, tiles: Iterable[str]) -> list[tuple[str, Cell]]:
        """Every placement of ``tiles`` (``(laid, cell)``): what the engine's legal moves are
        after the opening, in another order."""
        held = set(tiles)
        return [
            (laid, cell)
            for cell, (fits, _) in self.frontier.items()
            for laid, tile, _ in fits
            if tile in held
        ]

    def best_placements(
        self, tiles: Iterable[str], weights: Weights = PLAIN
    ) -> tuple[float, list[tuple[str, Cell]]]:
        """A greedy player's choice: the placements of ``tiles`` with the best gain (the points
        now, tile and bonus, plus what ``weights`` add: :meth:`judgement`), with that gain;
        ``(-inf, [])`` when none fits."""
        held = set(tiles)
        board = self.board
        best = -math.inf
        ties: list[tuple[str, Cell]] = []
        spots = self.spots(set(self.hands[self.turn])) if weights is not PLAIN else None
        for cell, (fits, kinds) in self.frontier.items():
            if held.isdisjoint(kinds):
                continue
            extra = bonus_points(board, cell)
            for laid, tile, points in fits:
                if tile not in held:
                    continue
                gain: float = points + extra
                if spots is not None:
                    gain += self.judgement(laid, cell, weights, spots)
                if gain > best + 1e-9:
                    best, ties = gain, [(laid, cell)]
                elif gain >= best - 1e-9:
                    ties.append((laid, cell))
        return best, ties

    def judgement(
        self, laid: str, cell: Cell, weights: Weights, spots: dict[str, int] | None = None
    ) -> float:
        """What ``weights`` add to the points of laying ``laid`` on ``cell``: ``mobility`` for
        each of the mover's other tiles that would still have a place, less ``caution`` times
        the change of the bonus points the others may expect to take next (for every empty cell
        around that would give a bridge or a hexagon, the bonus times the chance that another
        hand holds a tile fitting there: each tile the mover cannot see is in another hand with
        the chance of the hands' share of the unseen tiles), less ``reserve`` times the bonuses
        the mover could take there itself later. ``spots``: :meth:`spots` of the mover's hand,
        when already counted. Reads only what the mover can see."""
        seat = self.turn
        board = self.board
        numbers = self.numbers
        frontier = self.frontier
        tile = LAID_TO_TILE[laid]
        own = set(self.hands[seat])
        counts = dict(self.spots(own) if spots is None else spots)
        unseen = len(TILES) - len(self.on_table) - len(own)
        others = sum(len(self.hands[other]) for other in self.active if other != seat)
        share = others / unseen if unseen > 0 else 0.0
        hidden = self.on_table | own
        reserve = weights.reserve
        around = [c for c in touching(cell) if c not in board]
        exposure = 0.0
        for other in (cell, *around):
            entry = frontier.get(other)
            if entry is None:
                continue
            for kind in entry[1] & own:
                counts[kind] -= 1
            if weights.caution:  # the cell itself too: a bonus taken is denied to the others
                exposure -= self.chance(other, hidden, share, reserve)
        added = [corner for corner in corners(cell) if corner not in numbers]
        board[cell] = laid
        for corner, digit in zip(corners(cell), laid, strict=True):
            numbers.setdefault(corner, int(digit))
        try:
            for other in around:
                if not any(n in board for n in neighbours(other)):
                    continue
                for kind in options_at(numbers, other)[1] & own:
                    counts[kind] = counts.get(kind, 0) + 1
                if weights.caution:
                    exposure += self.chance(other, hidden, share, reserve)
        finally:
            del board[cell]
            for corner in added:
                del numbers[corner]
        mobility = sum(1 for kind in own if kind != tile and counts.get(kind, 0) > 0)
        return weights.mobility * mobility - weights.caution * exposure

    def spots(self, tiles: set[str]) -> dict[str, int]:
        """For each of ``tiles``, on how many frontier cells it fits."""
        counts = dict.fromkeys(tiles, 0)
        for _, kinds in self.frontier.values():
            for kind in kinds & tiles:
                counts[kind] += 1
        return counts

    def chance(self, cell: Cell, hidden: set[str], share: float, reserve: float) -> float:
        """The bonus on ``cell`` times the chance another hand fits it, less ``reserve`` times
        the bonus the mover can take there later when nobody takes it first (see
        :meth:`judgement`)."""
        extra = bonus_points(self.board, cell)
        if not extra:
            return 0.0
        _, kinds = options_at(self.numbers, cell)
        count = sum(1 for kind in kinds if kind not in hidden)
        theirs = 1.0 - (1.0 - share) ** count if count else 0.0
        if reserve and not kinds.isdisjoint(self.hands[self.turn]):
            return extra * (theirs - reserve * (1.0 - theirs))
        return extra * theirs

    def fits_somewhere(self, tile: str) -> bool:
        """True when ``tile`` has a place on the table."""
        return any(tile in kinds for _, kinds in self.frontier.values())

    def place(self, laid: str, cell: Cell) -> None:
        """The seat to act lays ``laid`` on ``cell`` (a legal placement) and scores it."""
        seat = self.turn
        tile = LAID_TO_TILE[laid]
        points = TILE_POINTS[tile]
        if self.opening:
            if is_triple(laid):
                points += OPENING_BONUS + (ZEROS_BONUS if laid == "000" else 0)
            self.opening = ""
        else:
            points += bonus_points(self.board, cell)
        board = self.board
        numbers = self.numbers
        board[cell] = laid
        for corner, digit in zip(corners(cell), laid, strict=True):
            numbers[corner] = int(digit)
        frontier = self.frontier
        frontier.pop(cell, None)
        for other in neighbours(cell):
            if other not in board:
                frontier[other] = NOTHING
        for other in touching(cell):
            if other in frontier:
                frontier[other] = options_at(numbers, other)
        hand = self.hands[seat]
        hand.remove(tile)
        self.on_table.add(tile)
        self.scores[seat] += points
        self.drawn = ""
        self.passes = 0
        if not hand:
            self.went_out(seat)
        else:
            self.turn = self.next_seat(seat)

    def draw(self) -> str:
        """The seat to act draws until a tile fits (−5 each), the well is empty or the draw
        limit is reached; returns the tile that fits ("" when none did: it must pass)."""
        seat = self.turn
        hand = self.hands[seat]
        count = 0
        found = ""
        while self.well and (self.draw_limit is None or count < self.draw_limit):
            tile = self.well.pop(0)
            count += 1
            hand.append(tile)
            if self.fits_somewhere(tile):
                found = tile
                break
        self.scores[seat] -= DRAW_PENALTY * count
        self.drawn = found
        return found

    def pass_turn(self) -> None:
        """−10 and the turn passes; everybody passing with an empty well blocks the round."""
        seat = self.turn
        self.scores[seat] -= PASS_PENALTY
        self.drawn = ""
        self.passes += 1
        if not self.well and self.passes >= len(self.active):
            self.blocked()
        else:
            self.turn = self.next_seat(seat)

    def next_seat(self, seat: int) -> int:
        """The next active seat after ``seat``."""
        for step in range(1, self.players + 1):
            other = (seat + step) % self.players
            if other in self.active:
                return other
        return seat

    # -- the end of a round and of the game ---------------------------------------------------

    def others_total(self, seat: int) -> int:
        """The points left in the other active hands."""
        return sum(TILE_POINTS[tile] for other in self.active if other != seat for tile in self.hands[other])

    def went_out(self, seat: int) -> None:
        """``seat`` played its last tile: +25 and the other hands."""
        self.scores[seat] += GOING_OUT_BONUS + self.others_total(seat)
        self.close_round(seat)

    def blocked(self) -> None:
        """Everybody passed with an empty well: the fewest tiles wins the others' hands minus
        its own."""
        order = [(self.opener + step) % self.players for step in range(self.players)]
        seats = [seat for seat in order if seat in self.active]
        winner = min(
            seats,
            key=lambda s: (len(self.hands[s]), sum(TILE_POINTS[t] for t in self.hands[s]), seats.index(s)),
        )
        own = sum(TILE_POINTS[tile] for tile in self.hands[winner])
        self.scores[winner] += self.others_total(winner) - own
        self.close_round(winner)

    def close_round(self, winner: int) -> None:
        """After a round: the game ends when a seat reached the target (the round winner wins
        if among them, else the highest score there), else the round is over."""
        self.round_ends += 1
        reached = [seat for seat in self.active if self.scores[seat] >= self.target]
        if not reached:
            self.pending = True
            return
        self.finished = True
        if winner in reached:
            self.winners = (winner,)
        else:
            best = max(self.scores[seat] for seat in reached)
            self.winners = tuple(seat for seat in reached if self.scores[seat] == best)

    def deal(self, rng: random.Random) -> None:
        """A new round dealt from ``rng`` (the scores stay), its opener to act."""
        order = list(TILES)
        rng.shuffle(order)
        size = hand_size(len(self.active))
        hands: list[list[str]] = [[] for _ in range(self.players)]
        at = 0
        for seat in self.active:
            hands[seat] = sorted(order[at : at + size])
            at += size
        self.hands = hands
        self.well = order[at:]
        self.board = {}
        self.on_table = set()
        self.numbers = {}
        self.frontier = {(0, 0): OPTIONS[-1, -1, -1]}
        opener, tile = max(
            ((seat, tile) for seat in self.active for tile in hands[seat]), key=lambda st: opening_rank(st[1])
        )
        self.turn = self.opener = opener
        self.opening = tile
        self.drawn = ""
        self.passes = 0
        self.pending = False

    # -- the normal player's policy ---------------------------------------------------------------

    def greedy_step(self, rng: random.Random, weights: Weights = PLAIN) -> None:
        """One move of the seat to act by a greedy policy: the best gain under ``weights`` (by
        default the most points now), ties at random; nothing fits: draw, and play the drawn
        tile, or pass."""
        seat = self.turn
        if self.opening:
            self.open_round()
            return
        if self.drawn:
            tiles: Sequence[str] = (self.drawn,)
        else:
            tiles = self.hands[seat]
        _, ties = self.best_placements(tiles, weights)
        if not ties and not self.drawn:
            found = self.draw()
            if not found:
                self.pass_turn()
                return
            _, ties = self.best_placements((found,), weights)
        laid, cell = ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
        self.place(laid, cell)

    def open_round(self) -> None:
        """The opener lays the opening tile (0-0-0 instead, for more points, when it may)."""
        tile = self.opening
        laid = "000" if is_triple(tile) and "000" in self.hands[self.turn] else tile
        self.place(laid, (0, 0))

    def play_out(
        self, rng: random.Random, rounds: int = 1, plies: int = 10_000, deals: random.Random | None = None
    ) -> None:
        """Play on by the greedy policy of the points now (fast; the ``normal`` level weighs
        more, :data:`NORMAL`) until ``rounds`` rounds have ended (new rounds dealt
        from ``deals``, else ``rng``), the game is over, or ``plies`` moves were made."""
        for _ in range(plies):
            if self.finished or self.round_ends >= rounds:
                return
            if self.pending:
                self.deal(deals or rng)
            self.greedy_step(rng, PLAYOUT_WEIGHTS)


# -- the normal level ------------------------------------------------------------------------------

TABLES: StateCache[State, Table] = StateCache(Table, size=8)
"""Tables of the states whose moves are being weighed (every move of a state is weighed on one)."""


def judgement(state: State, move: Move, weights: Weights = NORMAL) -> float:
    """What the ``normal`` player adds to the points a placement makes now (see
    :meth:`Table.judgement`; nothing for the opening, a draw or a pass). It reads only what the
    mover can see: its hand, the table, and how many tiles the others hold."""
    if move.kind is not MoveKind.PLACE or state.opening or move.cell is None:
        return 0.0
    return TABLES(state).judgement(move.laid, move.cell, weights)


# -- the search's playouts -----------------------------------------------------------------------


def play(table: Table, move: Move) -> None:
    """Play an engine move on ``table``."""
    if move.kind is MoveKind.PLACE:
        assert move.cell is not None
        table.place(move.laid, move.cell)
    elif move.kind is MoveKind.DRAW:
        table.draw()
    else:
        table.pass_turn()


CHANCE_WEIGHT = 3.3724
"""The weight of :func:`win_chance` on the lead over the target: fitted by
``bench/calibrate_chances.py fit triominos`` on ``normal``'s games against itself, seeds
97000-97599 (both seats at every round's end, targets 200 to 500 in turn)."""


def win_chance(lead: float, target: int) -> float:
    """The chance of winning the game from a round's end with a score ``lead`` over the best
    other seat, if everyone plays on like ``normal``: a lead of 50 points is about 60 % in a game
    to 400 (the search's value, the logistic of the lead over 30 points, said 84 %)."""
    return logistic(CHANCE_WEIGHT * lead / target)


def judge(table: Table, seat: int, scale: float) -> Result:
    """``seat``'s result where a playout stopped: a finished game by its ranks (the winners
    first, then by score), else the logistic of its score lead over ``scale`` (its chance:
    :func:`win_chance`)."""
    scores = table.scores
    lead = score_lead(scores, seat, False)
    if table.finished:
        keys = [(1 if other in table.winners else 0, scores[other]) for other in range(table.players)]
        active = set(table.active)
        ranks = tuple(
            1 + sum(1 for o in range(table.players) if (o in active, keys[o]) > (s in active, keys[s]))
            for s in range(table.players)
        )
        value = chance = rank_result(Outcome(tuple(scores), ranks, ""), seat)
    else:
        value = logistic(lead / scale)
        chance = win_chance(lead, table.target)
    return Result(value, float(scores[seat]), float(lead), 0.0, chance)


def simulator(game: Game[Any, Any], world: State, seat: int, profile: SearchProfile) -> Run:
    """The search's playouts in ``world``: the candidate, then the ``normal`` policy for every
    seat until the round ends (:data:`PLAYOUT_ROUNDS`), judged by :func:`judge`."""
    del game
    table = Table(world)

    def run(move: Move, rng: random.Random) -> Result:
        deals = random.Random(rng.getrandbits(64))  # the same later deals after every candidate
        playing = table.copy()
        before = playing.scores[seat]
        play(playing, move)
        points = playing.scores[seat] - before
        playing.play_out(rng, rounds=PLAYOUT_ROUNDS, deals=deals)
        return judge(playing, seat, profile.scale)._replace(points=float(points))

    return run


PLAYOUT_ROUNDS = 1
"""How many round ends a playout plays through before it is judged."""


# -- the easy level ------------------------------------------------------------------------------

BONUS_SIGHT = 0.2
"""How often the beginner (``easy``) looks for the most points now (a bridge or a hexagon)."""


def beginner_move(game: Game[Any, Any], state: State, rng: random.Random) -> Move:
    """The ``easy`` level: a beginner who lays any tile that fits, anywhere it fits (at random),
    and only now and then (:data:`BONUS_SIGHT`) looks for the most points now, a bridge or a
    hexagon; it draws or passes when nothing fits. (In Tri-Ominos luck weighs so much that the
    generic easy level, one of the three best moves by the points now, is as strong as
    ``normal`` was: it won 45 % of 200 games against it.)"""
    moves = game.legal_moves(state)
    if len(moves) == 1 or state.opening:
        return moves[0] if len(moves) == 1 else max(moves, key=lambda move: game.move_gain(state, move))
    if rng.random() < BONUS_SIGHT:
        points = {move: float(rules_points(state, move)) for move in moves}
        best = max(points.values())
        moves = [move for move in moves if points[move] >= best]
    return moves[rng.randrange(len(moves))]


def rules_points(state: State, move: Move) -> int:
    """The points a move makes now (tile and bonus; nothing for a draw or a pass)."""
    if move.kind is not MoveKind.PLACE:
        return -1
    tile_points, bonuses = placement_points(state, move)
    return tile_points + sum(found.points for found in bonuses)
