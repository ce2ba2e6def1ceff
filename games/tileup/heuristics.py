"""How promising a Tile Up! move looks, for ordering moves and the greedy computer player.

Points for a score; for a placement a small bonus that grows when it completes or grows a shape
on one of the mover's cards, and that steers the leader towards the open corners (which end the
game) and the others away from them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from games.ai.search import logistic
from games.tileup import board as geo
from games.tileup.data import (
    CARD_LIMIT,
    COLOURS,
    CORNERS,
    NEIGHBOURS,
    SHAPES,
    SIZE,
    SQUARES,
    Stack,
    card_colour,
    card_shape,
    fits_inside,
    orientations,
    shape_of,
    square_index,
)
from games.tileup.rules import legal_moves, scorable_cards, score_moves
from games.tileup.state import Move, MoveKind, State, Step


def move_gain(state: State, move: Move) -> float:
    """Points for a score; a small heuristic for the rest (placements that set up a card)."""
    seat = state.to_act
    if move.kind == MoveKind.SCORE:
        return float(geo.points(state.board, geo.region(state.board, move.square)))
    if move.kind == MoveKind.PLACE:
        return _placement_gain(state, seat, move)
    if move.kind == MoveKind.TILES:
        return 0.15 if state.tile_counts[seat] < 3 else 0.05
    if move.kind == MoveKind.GOAL:
        return 0.1 if state.card_counts[seat] < 2 else 0.0
    if move.kind == MoveKind.DISCARD:
        return -0.01 * int(move.tile[1])
    return 0.0


def enabled_card(state: State, move: Move, squares: tuple[int, ...] | None = None) -> tuple[str, int] | None:
    """The card (and its points) that the placement ``move`` would make scorable for the seat to
    act, if any; ``squares`` is the region the tile would join, when already known."""
    if squares is None:
        squares = geo.region_after(state.board, move.tile, move.square)
    shape = shape_of(squares)
    if shape is None:
        return None
    for card in scorable_cards(state, state.to_act):
        if card_colour(card) == move.tile[0] and card_shape(card) == shape:
            return card, geo.points(state.board, squares) + 1
    return None


def _placement_gain(state: State, seat: int, move: Move) -> float:
    stack = state.board[move.square]
    if stack:
        gain = 0.15 + 0.02 * len(stack)
    else:
        # The leader heads for the open corners to close the game; the others keep away.
        closeness = 1 - _corner_distance(state, move.square) / 20
        gain = 0.2 + (0.1 * closeness if _leads(state, seat) else 0.05 * (1 - closeness))
    squares = geo.region_after(state.board, move.tile, move.square)
    enabled = enabled_card(state, move, squares)
    if enabled is not None:
        gain += 0.5 + min(enabled[1], 20) / 100
    elif _breaks_match(state.board, scorable_cards(state, seat), move):
        gain -= 0.3
    else:
        gain += _progress(state, seat, move, squares)
    return gain


def _progress(state: State, seat: int, move: Move, squares: tuple[int, ...]) -> float:
    """A bonus for growing a region of a card's colour that still fits inside the card's shape
    (bigger and taller regions more); ``squares`` is the region the tile would join."""
    if len(squares) > 4:
        return 0.0
    best = 0.0
    for card in scorable_cards(state, seat):
        if card_colour(card) == move.tile[0] and fits_inside(squares, card_shape(card)):
            height = geo.points(state.board, squares) + 1
            best = max(best, 0.04 * len(squares) + 0.01 * height)
    return best


def _corner_distance(state: State, square: int) -> int:
    row, column = divmod(square, SIZE)
    open_corners = [corner for corner in CORNERS if not state.board[corner]] or list(CORNERS)
    return min(abs(row - c // SIZE) + abs(column - c % SIZE) for c in open_corners)


def _leads(state: State, seat: int) -> bool:
    return all(state.scores[seat] > score for other, score in enumerate(state.scores) if other != seat)


@lru_cache(maxsize=16)
def _matched_squares(board: tuple[Stack, ...], cards: tuple[str, ...]) -> frozenset[int]:
    """Squares of regions that some card in ``cards`` could score now."""
    wanted = {(card_colour(card), card_shape(card)) for card in cards}
    found: set[int] = set()
    for colour, shape, squares in geo.shaped_regions(board):
        if (colour, shape) in wanted:
            found.update(squares)
    return frozenset(found)


def _breaks_match(board: tuple[Stack, ...], cards: tuple[str, ...], move: Move) -> bool:
    """True when the placement spoils a region that could be scored now."""
    matched = _matched_squares(board, cards)
    if not matched:
        return False
    if move.square in matched:
        return True
    return any(near in matched and board[near][-1][0] == move.tile[0] for near in NEIGHBOURS[move.square])


# -- plans: the search player's Tile Up! knowledge ------------------------------------------------
#
# A plan lays tiles from the hand so that a whole same-colour region takes a card's exact shape,
# then scores it. Every way the shape can lie on the board (a site) is tried: the site's squares
# already of the card's colour stay, the others take a tile of that colour (on an empty square
# reached from the board, or on a stack of another colour whose top is higher), and no square
# around the site may show the colour (the region must be whole).

START_CORNERS_LEFT = 36
"""About what :func:`corners_left` is at the start (four paths of nine tiles from the centre)."""
CLOSING_WEIGHT = 2.0
"""How much more a lead counts once the corners are covered (see :func:`closing_value`)."""
TILE_COST = 1.2
"""What a tile laid in a plan costs (drawing three tiles takes a whole turn)."""
LEAD_TO_CLOSE = 4
"""The lead from which the search player heads for the corners to end the game."""


@dataclass(frozen=True)
class Plan:
    """Tiles to lay, in a legal order, so that card ``card`` (its number in the score moves)
    scores ``points``; ``missing`` tiles of the card's colour are not in the hand yet."""

    card: int
    colour: str
    squares: tuple[int, ...]
    placements: tuple[tuple[str, int], ...]
    points: int
    missing: int

    @property
    def value(self) -> float:
        """Points less the tiles it spends (a plan worth nothing is no plan)."""
        return self.points - TILE_COST * (len(self.placements) + self.missing)


Site = tuple[tuple[int, ...], int, int]
"""A way a shape can lie: its squares, their bit mask and the mask of the squares around them."""


@cache
def shape_sites(shape: str) -> tuple[Site, ...]:
    """Every way ``shape`` can lie on the board (bit ``i`` of a mask is square ``i``)."""
    sites = []
    for form in sorted(orientations(SHAPES[shape]), key=sorted):
        width = 1 + max(x for x, _ in form)
        height = 1 + max(y for _, y in form)
        for dy in range(SIZE - height + 1):
            for dx in range(SIZE - width + 1):
                squares = tuple(sorted(square_index(x + dx, y + dy) for x, y in form))
                around = {near for square in squares for near in NEIGHBOURS[square]} - set(squares)
                sites.append((squares, _mask(squares), _mask(around)))
    return tuple(sites)


def _mask(squares: Iterable[int]) -> int:
    mask = 0
    for square in squares:
        mask |= 1 << square
    return mask


@lru_cache(maxsize=64)
def _board_masks(board: tuple[Stack, ...]) -> tuple[dict[str, int], int]:
    """Per colour, the squares whose top tile has it; and the squares a site may start from
    (covered, or empty next to a covered one)."""
    colours = dict.fromkeys(COLOURS, 0)
    covered = 0
    for square, stack in enumerate(board):
        if stack:
            colours[stack[-1][0]] |= 1 << square
            covered |= 1 << square
    reach = covered
    for square in range(len(board)):
        if covered >> square & 1:
            for near in NEIGHBOURS[square]:
                reach |= 1 << near
    return colours, reach


def site_plan(
    board: tuple[Stack, ...], card: int, colour: str, squares: tuple[int, ...], numbers: list[int]
) -> Plan | None:
    """The plan that makes ``squares`` a whole region of ``colour`` with the hand's tiles of that
    colour (``numbers``, sorted), or None when the site cannot be reached or needs nothing."""
    stacks: list[tuple[int, int]] = []
    empty: list[int] = []
    reached = False
    for square in squares:
        stack = board[square]
        if stack:
            reached = True
            if stack[-1][0] != colour:
                stacks.append((int(stack[-1][1]), square))
        else:
            empty.append(square)
            reached = reached or any(board[near] for near in NEIGHBOURS[square])
    if not reached or not (stacks or empty):
        return None
    left = list(numbers)
    placements: list[tuple[str, int]] = []
    missing = 0
    for top_number, square in sorted(stacks):
        fitting = [n for n in left if n < top_number]
        if not fitting:
            missing += 1
            continue
        left.remove(fitting[-1])
        placements.append((f"{colour}{fitting[-1]}", square))
    for square in _reach_order(board, empty):
        if not left:
            missing += 1
            continue
        placements.append((f"{colour}{left.pop()}", square))
    points = sum(len(board[square]) for square in squares) + len(stacks) + len(empty)
    return Plan(card, colour, squares, tuple(placements), points, missing)


def _reach_order(board: tuple[Stack, ...], empty: list[int]) -> list[int]:
    """``empty`` squares in an order in which each touches the board or one laid before it."""
    placed: set[int] = set()
    order: list[int] = []
    waiting = list(empty)
    while waiting:
        for square in waiting:
            if any(board[near] or near in placed for near in NEIGHBOURS[square]):
                break
        else:
            return order + waiting  # cannot happen on a site that is reached
        waiting.remove(square)
        placed.add(square)
        order.append(square)
    return order


@dataclass(frozen=True)
class SiteIndex:
    """A shape's sites (:func:`shape_sites`) as bit masks over their indices: for each square,
    the sites that cover it (``covering``) and the sites it lies next to (``beside``)."""

    covering: tuple[int, ...]
    beside: tuple[int, ...]


@cache
def site_index(shape: str) -> SiteIndex:
    """The :class:`SiteIndex` of ``shape``."""
    covering = [0] * SQUARES
    beside = [0] * SQUARES
    for index, (squares, _, around) in enumerate(shape_sites(shape)):
        for square in squares:
            covering[square] |= 1 << index
        for square in geo.squares_of(around):
            beside[square] |= 1 << index
    return SiteIndex(tuple(covering), tuple(beside))


@lru_cache(maxsize=256)
def _own_sites(shape: str, own: int) -> tuple[int, int]:
    """The sites of ``shape`` next to a square of ``own``, and those covering one (bit masks
    over the sites' indices; remembered for the last few boards and colours)."""
    index = site_index(shape)
    beside = covering = 0
    while own:
        lowest = own & -own
        square = lowest.bit_length() - 1
        beside |= index.beside[square]
        covering |= index.covering[square]
        own ^= lowest
    return beside, covering


def site_candidates(shape: str, own: int, allowed: int) -> int:
    """A bit mask of the sites of ``shape`` that may hold a plan: no top tile of the plan's
    colour (``own``) next to them, and (when fewer than the shape's squares may be laid or
    lack) some such tile in them. Every site that passes the checks of :func:`plans` is among
    them; they only skip the others quickly."""
    beside, covering = _own_sites(shape, own)
    found = ((1 << len(shape_sites(shape))) - 1) & ~beside
    if allowed < len(SHAPES[shape]):
        found &= covering
    return found


@lru_cache(maxsize=64)
def _height_layers(board: tuple[Stack, ...]) -> tuple[int, ...]:
    """Per height ``h`` from 1, the squares holding at least ``h`` tiles (bit masks)."""
    layers: list[int] = []
    for square, stack in enumerate(board):
        for level in range(len(stack)):
            if level == len(layers):
                layers.append(0)
            layers[level] |= 1 << square
    return tuple(layers)


class Candidate(NamedTuple):
    """A site that passes every check of :func:`plans` but the tiles lacking: the card
    (``number``), its ``colour``, the site's ``squares``, the hand's ``numbers`` of that colour,
    and the ``value`` its plan will have (known before the plan is made: the plan lays or lacks
    one tile on every square not showing the colour). A named tuple: a search makes hundreds of
    thousands."""

    value: float
    number: int
    colour: str
    squares: tuple[int, ...]
    numbers: tuple[int, ...]

    def plan(self, board: tuple[Stack, ...]) -> Plan | None:
        """The site's plan (:func:`site_plan`)."""
        return site_plan(board, self.number, self.colour, self.squares, list(self.numbers))


def _candidates(
    board: tuple[Stack, ...], held: tuple[str, ...], cards: tuple[str, ...], most_missing: int
) -> list[Candidate]:
    """Every site of every card's shape whose plan :func:`plans` could keep: reached, nothing of
    the colour around it, something to lay, not too many tiles to lay, and worth something."""
    found: list[Candidate] = []
    for number, card in enumerate(cards, start=1):
        colour, shape = card_colour(card), card_shape(card)
        numbers = tuple(sorted(int(tile[1]) for tile in held if tile[0] == colour))
        allowed = len(numbers) + most_missing
        for laid, value, squares in _card_sites(board, card, allowed < len(SHAPES[shape])):
            if laid <= allowed:
                found.append(Candidate(value, number, colour, squares, numbers))
    return found


@lru_cache(maxsize=2048)
def _card_sites(
    board: tuple[Stack, ...], card: str, covering_only: bool
) -> tuple[tuple[int, float, tuple[int, ...]], ...]:
    """The sites of ``card``'s shape that pass the board's checks of :func:`_candidates` (reached,
    nothing of the colour around, something to lay, worth something), in site order, as the
    tiles each lays, its plan's value and its squares; with ``covering_only``, only those that
    already show the colour somewhere. A search asks for the same board and card many times
    (both seats, other hands, other numbers of tiles lacking), so these are remembered."""
    colours, reach = _board_masks(board)
    layers = _height_layers(board)
    shape = card_shape(card)
    own = colours[card_colour(card)]
    sites = shape_sites(shape)
    candidates = site_candidates(shape, own, 0 if covering_only else len(SHAPES[shape]))
    kept: list[tuple[int, float, tuple[int, ...]]] = []
    while candidates:
        lowest = candidates & -candidates
        candidates ^= lowest
        squares, mask, around = sites[lowest.bit_length() - 1]
        laid = (mask & ~own).bit_count()
        if around & own or not mask & reach or not laid:
            continue
        # The plan's points are the site's tiles and one more per square laid on.
        points = sum((mask & layer).bit_count() for layer in layers) + laid
        value = points - TILE_COST * laid
        if value > 0:
            kept.append((laid, value, squares))
    return tuple(kept)


def _kept(board: tuple[Stack, ...], candidate: Candidate, most_missing: int) -> Plan | None:
    """The candidate's plan, when it lacks at most ``most_missing`` tiles."""
    plan = candidate.plan(board)
    return plan if plan is not None and plan.missing <= most_missing else None


def _best_first(plan: Plan) -> tuple[float, int, int, tuple[int, ...]]:
    """The order of plans: the most valuable first, then the fewest tiles lacking."""
    return (-plan.value, plan.missing, plan.card, plan.squares)


@lru_cache(maxsize=256)
def _plans(
    board: tuple[Stack, ...],
    held: tuple[str, ...],
    cards: tuple[str, ...],
    most_missing: int,
    count: int | None,
) -> tuple[Plan, ...]:
    """The first ``count`` (all when None) plans for the cards ``cards`` and the hand ``held``
    (sorted), best first. Plans are made in falling order of value, a whole value at a time,
    until ``count`` are kept: the others cannot come before them."""
    candidates = sorted(_candidates(board, held, cards, most_missing), key=lambda candidate: -candidate.value)
    found: list[Plan] = []
    index = 0
    while index < len(candidates) and (count is None or len(found) < count):
        value = candidates[index].value
        while index < len(candidates) and candidates[index].value == value:
            plan = _kept(board, candidates[index], most_missing)
            if plan is not None:
                found.append(plan)
            index += 1
    found.sort(key=_best_first)
    return tuple(found if count is None else found[:count])


def plans(state: State, seat: int, most_missing: int = 0, count: int | None = None) -> list[Plan]:
    """Every plan for ``seat``'s cards with at most ``most_missing`` tiles lacking, best first
    (the first ``count`` only, when given). Remembered for the last few boards, hands and
    cards: the same ones come back many times within one search."""
    held = tuple(sorted(state.tiles[seat] or ()))
    return list(_plans(state.board, held, scorable_cards(state, seat), most_missing, count))


def lead_and_closed(state: State, seat: int) -> tuple[int, float]:
    """``seat``'s lead over the best other seat still playing, and the share of the way to the
    corners already covered (0 at the start, 1 once every corner is covered)."""
    scores = state.scores
    others = [scores[other] for other in range(len(scores)) if other != seat and other not in state.forfeited]
    closed = 1 - min(corners_left(state.board), START_CORNERS_LEFT) / START_CORNERS_LEFT
    return scores[seat] - max(others, default=0), closed


def closing_value(state: State, seat: int) -> float:
    """The lead of ``seat`` over the best other seat, weighing more as the corners fill (the game
    nears its end, so a lead is likelier to hold): a leader gains by covering corners, the
    others by keeping them open."""
    lead, closed = lead_and_closed(state, seat)
    return lead * (1 + CLOSING_WEIGHT * closed)


CHANCE_WEIGHTS = (0.0233, -0.0857, 0.2287)
"""The weights of :func:`win_chance` on the lead, the lead times the corners' closed share, and
the lead times its fourth power: fitted by ``bench/calibrate_chances.py fit tileup`` on the
planning policy's games against itself, seeds 94000-94299 (two players, a position every five
plies)."""


def chance_features(state: State, seat: int) -> tuple[float, float, float]:
    """What :func:`win_chance` weighs, in :data:`CHANCE_WEIGHTS`' order: the lead, the lead times
    the corners' closed share, and the lead times its fourth power."""
    lead, closed = lead_and_closed(state, seat)
    return (lead, lead * closed, lead * closed**4)


def win_chance(state: State, seat: int) -> float:
    """``seat``'s chance of winning ``state`` if both seats play on with the planning policy: a
    logistic model of the lead, which says little until the corners close (a lead of 10 points
    is about 56 % at the start, 50 % halfway, 84 % with the corners all but covered)."""
    features = chance_features(state, seat)
    return logistic(sum(weight * feature for weight, feature in zip(CHANCE_WEIGHTS, features, strict=True)))


def plan_move(state: State) -> Move:
    """The search player's Tile Up! policy for the seat to act: score what can be scored; lay
    the next tile of the best plan; when leading, lay spare tiles towards the open corners to
    end the game; otherwise draw what the plans lack (tiles, or goal cards when few are held);
    discard what no plan needs."""
    seat = state.to_act
    if state.step == Step.DISCARD:
        return _discard(state, seat)
    scores = score_moves(state)
    if scores:
        return max(scores, key=lambda move: (_score_points(state, move), -move.card))
    if state.step == Step.DREW:
        return Move(MoveKind.END)
    ready = plans(state, seat, count=1)
    if ready:
        tile, square = ready[0].placements[0]
        return Move(MoveKind.PLACE, tile, square)
    closing = _towards_corner(state, seat) if _leads_by(state, seat, LEAD_TO_CLOSE) else None
    if closing is not None:
        return closing
    if state.step == Step.PLACED:
        return Move(MoveKind.END)
    return _action(state, seat)


def _action(state: State, seat: int) -> Move:
    """The action of a turn without a plan to lay: draw (tiles or a goal card), else place."""
    own_cards = state.card_counts[seat]
    can_goal = bool(state.deck_size or state.discards)
    if can_goal and (own_cards == 0 or (own_cards < 2 and state.tile_counts[seat] >= 4)):
        return Move(MoveKind.GOAL)
    if state.bag_size:
        return Move(MoveKind.TILES)
    if can_goal and own_cards < CARD_LIMIT:
        return Move(MoveKind.GOAL)
    kinds = (MoveKind.PLACE, MoveKind.GOAL, MoveKind.END)
    legal = [move for move in legal_moves(state) if move.kind in kinds]
    return max(legal, key=lambda move: (move_gain(state, move), move.kind == MoveKind.PLACE))


def _score_points(state: State, move: Move) -> int:
    """What the score ``move`` earns."""
    return geo.points(state.board, geo.region(state.board, move.square))


def _leads_by(state: State, seat: int, margin: int) -> bool:
    """True when ``seat``'s score beats every other seat still playing by ``margin`` or more."""
    scores = state.scores
    others = [scores[other] for other in range(len(scores)) if other != seat and other not in state.forfeited]
    return all(scores[seat] >= score + margin for score in others)


def _spare_tiles(state: State, seat: int) -> list[str]:
    """The tiles no near plan needs (every tile when there is no plan), highest first."""
    held = list(state.tiles[seat] or ())
    wanted = {plan.colour for plan in plans(state, seat, most_missing=2, count=3)}
    spare = [tile for tile in held if tile[0] not in wanted] or held
    return sorted(spare, key=lambda tile: -int(tile[1]))


def _towards_corner(state: State, seat: int) -> Move | None:
    """A spare tile on the empty square that brings the board nearest an open corner."""
    spare = _spare_tiles(state, seat)
    if not spare:
        return None
    step = _corner_step(state.board)
    if step is None:
        return None
    return Move(MoveKind.PLACE, spare[0], step)


@lru_cache(maxsize=64)
def _reach(board: tuple[Stack, ...]) -> dict[int, int]:
    """How many tiles it takes to cover each empty square reachable from the board (1 for a
    square next to it)."""
    distance = {
        square: 1
        for square, stack in enumerate(board)
        if not stack and any(board[near] for near in NEIGHBOURS[square])
    }
    todo = list(distance)
    while todo:
        following = []
        for square in todo:
            for near in NEIGHBOURS[square]:
                if not board[near] and near not in distance:
                    distance[near] = distance[square] + 1
                    following.append(near)
        todo = following
    return distance


def corners_left(board: tuple[Stack, ...]) -> int:
    """The tiles it takes at least to cover every open corner, one path to each."""
    reach = _reach(board)
    return sum(reach.get(corner, SIZE) for corner in CORNERS if not board[corner])


def _corner_step(board: tuple[Stack, ...]) -> int | None:
    """The empty square next to the board on a shortest path to the nearest open corner."""
    reach = _reach(board)
    open_corners = [corner for corner in CORNERS if not board[corner] and corner in reach]
    if not open_corners:
        return None
    square = min(open_corners, key=lambda corner: reach[corner])
    while reach[square] > 1:
        square = next(near for near in NEIGHBOURS[square] if reach.get(near) == reach[square] - 1)
    return square


def _discard(state: State, seat: int) -> Move:
    """Over the limits: the goal card with the poorest plan, else the tile no plan needs."""
    first = len(state.face_up) + 1
    if state.card_counts[seat] > CARD_LIMIT:
        own = state.cards[seat] or ()
        near = plans(state, seat, most_missing=3)
        best = {plan.card: plan.value for plan in reversed(near)}
        worst = min(range(len(own)), key=lambda i: (best.get(first + i, -99.0), -i))
        return Move(MoveKind.DISCARD_GOAL, card=first + worst)
    spare = _spare_tiles(state, seat)
    return Move(MoveKind.DISCARD, spare[-1])


def plan_first(moves: list[Move], state: State) -> list[Move]:
    """``moves`` with :func:`plan_move`'s choice first, the rest best first by :func:`move_gain`."""
    planned = plan_move(state)
    rest = sorted((move for move in moves if move != planned), key=lambda move: -move_gain(state, move))
    return [planned, *rest] if planned in moves else rest


def settled_move(state: State) -> Move | None:
    """A move no search could improve on: a score (points are never worth keeping for later), or
    ``end`` once the action is taken and nothing scores."""
    scores = score_moves(state)
    if scores and state.step != Step.DISCARD:
        return plan_move(state)
    return None
