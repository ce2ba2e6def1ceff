"""Pairing: who sits at which table, and in which seat, as pure functions.

**Table sizes.** Tables have the chosen size; when the entrants do not divide, the rest form
one smaller table if the game can be played with that many, else they sit the round out with
a bye (see :func:`table_plan`).

**Swiss, two players a table** is a minimum-cost perfect matching (networkx's blossom
algorithm, exact) where each possible pair costs, in strict order of priority:

1. a second bye for someone while another entrant has had fewer (the bye is a pretend
   opponent; it goes to the lowest-ranked of those with the fewest byes);
2. meeting again (pairs never repeat while another pairing exists);
3. seat balance broken, as FIDE's absolute colour rules count it (C.04.3): someone going beyond
   two more starts than follows (or the reverse; the excess squared), then someone playing a
   third game in a row in the same seat, each table seated as well as it can be;
4. the score difference, squared (equal scores meet; one floats down rather than two);
5. seat preferences not granted (see :func:`preference`), then strong ones not granted;
6. within a score group, the top half meets the bottom half (1 meets n/2 + 1).

So balance is broken only when every pairing of the round without a repeated pair (or an early
second bye) breaks it, and then as little as possible; a Swiss as long as a round robin can come
to that in its last rounds (round by round, nothing looks ahead).

**Swiss, three or four a table** sends the lowest-ranked of those with the fewest byes to the
bye, then splits the rest into tables by branch and bound (exact within a work budget counted
in nodes, never in seconds): meetings again first, then score differences; the first answer
tried is the standings cut into tables in order.

**Round robin, two a table** is the circle method: every pair meets once (a bye each round for
an odd count). **Three or four a table**: rounds are drawn one by one until every pair has met
and everyone has sat out equally often, byes rotating, each round split so that the times each
pair has met stay as even as possible (pairs that have not met yet first).

**Seats** balance who starts. At two, as a FIDE arbiter gives colours (C.04.3 E): the seating
that breaks balance least, then grants both preferences, then the stronger one, then alternates
from the last game where the two sat differently, then grants the higher-ranked player's
preference, then the higher-ranked starts. At more, the seats are dealt so nobody keeps the same
seat.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import networkx as nx

from bot.tournaments.model import Plan

NODE_BUDGET = 20_000
"""How many partial tables branch and bound may try for one round (a work budget: the same
pairing on any machine)."""
MAX_ROUND_ROBIN_ROUNDS = 3
"""A round robin at bigger tables has at most this many rounds per entrant (a safety bound)."""
BASE = 10**9
"""The base of the lexicographic costs (each term stays far below it)."""


def table_plan(count: int, size: int, min_table: int) -> tuple[list[int], int]:
    """The table sizes for ``count`` entrants at tables of ``size``, and how many sit out:
    full tables first; the rest form a smaller table if at least ``min_table`` of them are
    left, else they get byes."""
    full, rest = divmod(count, size)
    sizes = [size] * full
    if rest >= max(2, min_table):
        return [*sizes, rest], 0
    return sizes, rest


@dataclass
class History:
    """What pairing needs of the rounds so far."""

    met: Counter[tuple[int, int]] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)
    seats: dict[int, list[int]] = field(default_factory=dict)
    """Each entrant's seats in the tables they played, in order (0 is the one who starts)."""

    def meetings(self, a: int, b: int) -> int:
        """How many times ``a`` and ``b`` sat at the same table."""
        return self.met[(a, b) if a < b else (b, a)]

    def starts(self, player: int) -> tuple[int, int]:
        """``(games started, games not started)``."""
        seats = self.seats.get(player, [])
        started = sum(1 for seat in seats if seat == 0)
        return started, len(seats) - started

    def seat_count(self, player: int, seat: int) -> int:
        """How many times ``player`` sat in ``seat``."""
        return sum(1 for s in self.seats.get(player, []) if s == seat)

    def add(self, plan: Plan) -> None:
        """Count one more round."""
        for table in plan.tables:
            for a, b in itertools.combinations(table, 2):
                self.met[(a, b) if a < b else (b, a)] += 1
            for seat, player in enumerate(table):
                self.seats.setdefault(player, []).append(seat)
        for player in plan.byes:
            self.byes[player] += 1


def history(plans: Iterable[Plan]) -> History:
    """The history of the rounds ``plans`` (tables in seat order, and byes)."""
    found = History()
    for plan in plans:
        found.add(plan)
    return found


# -- seats ---------------------------------------------------------------------------------------

ABSOLUTE, STRONG, MILD = 3, 2, 1
"""How strongly a player wants a seat (FIDE's colour preferences, C.04.3 A.6): absolute when
their difference is beyond ±1 or their last two games were in the same seat, strong at ±1, mild
at 0 (they alternate)."""


@dataclass(frozen=True)
class Preference:
    """Which seat a player would rather have at a table of two."""

    direction: int
    """1 to start, -1 not to, 0 no preference (no game yet)."""
    strength: int
    """:data:`ABSOLUTE`, :data:`STRONG`, :data:`MILD`, or 0 with no preference."""


def _started(seats: Sequence[int]) -> list[bool]:
    return [s == 0 for s in seats]


def difference(hist: History, player: int) -> int:
    """Games followed minus games started (positive: ``player`` should start)."""
    started, followed = hist.starts(player)
    return followed - started


def preference(hist: History, player: int) -> Preference:
    """``player``'s seat preference: the difference first (beyond ±1 it is absolute), then two
    games in a row in the same seat (absolute too), then the difference of 1 (strong), then
    alternating from the last game (mild)."""
    started = _started(hist.seats.get(player, []))
    if not started:
        return Preference(0, 0)
    gap = difference(hist, player)
    if abs(gap) >= 2:
        return Preference(1 if gap > 0 else -1, ABSOLUTE)
    if len(started) >= 2 and started[-1] == started[-2]:
        return Preference(-1 if started[-1] else 1, ABSOLUTE)
    if gap:
        return Preference(1 if gap > 0 else -1, STRONG)
    return Preference(-1 if started[-1] else 1, MILD)


def strain(hist: History, player: int, starts: bool) -> tuple[int, int]:
    """What a seat does to ``player``: (how far their difference goes beyond ±2, squared; 1 if
    it is their third game in a row in the same seat)."""
    started = _started(hist.seats.get(player, []))
    after = difference(hist, player) + (-1 if starts else 1)
    third = len(started) >= 2 and started[-1] == started[-2] == starts
    return max(0, abs(after) - 2) ** 2, int(third)


SeatCost = tuple[int, int, int, int]
"""Differences beyond ±2 (the excess squared), third games in a row in one seat, preferences
not granted, strong (or absolute) ones not granted."""


def seat_cost(hist: History, player: int, starts: bool) -> SeatCost:
    """What starting (or following) costs ``player`` (see :data:`SeatCost`)."""
    excess, third = strain(hist, player, starts)
    wish = preference(hist, player)
    denied = bool(wish.direction) and (wish.direction > 0) != starts
    return excess, third, int(denied), int(denied and wish.strength >= STRONG)


def _both(first: SeatCost, second: SeatCost) -> SeatCost:
    return (first[0] + second[0], first[1] + second[1], first[2] + second[2], first[3] + second[3])


def seating_cost(hist: History, first: int, second: int) -> SeatCost:
    """What ``first`` starting against ``second`` costs, in order of priority (see
    :data:`SeatCost`)."""
    return _both(seat_cost(hist, first, True), seat_cost(hist, second, False))


def _alternation(hist: History, first: int, second: int) -> int:
    """0 if ``first`` starting alternates from the last game in which one of the two started
    and the other did not (FIDE E.3; unplayed rounds left out), else 1; 0 if there is none."""
    mine = _started(hist.seats.get(first, []))
    theirs = _started(hist.seats.get(second, []))
    for a, b in zip(reversed(mine), reversed(theirs), strict=False):
        if a != b:
            return int(a)
    return 0


def _seat_two(a: int, b: int, hist: History, rank: Mapping[int, int]) -> tuple[int, int]:
    """Who starts at a table of two, as a FIDE arbiter gives colours (C.04.3 E): the seating
    that costs least (:func:`seating_cost`: no difference beyond ±2, no third game in a row in
    one seat, both preferences, the stronger one), then alternating from the last game where
    their seats differed, then the higher-ranked player's preference, then the higher-ranked
    starts."""
    higher, lower = sorted((a, b), key=lambda p: rank.get(p, 0))
    wish = preference(hist, higher).direction

    def key(order: tuple[int, int]) -> tuple[SeatCost, int, int, int]:
        first, second = order
        refused = 0 if not wish or (wish > 0) == (first == higher) else 1
        return (
            seating_cost(hist, first, second),
            _alternation(hist, first, second),
            refused,
            int(first != higher),
        )

    return min(((higher, lower), (lower, higher)), key=key)


def seat(players: Sequence[int], hist: History, rank: Mapping[int, int]) -> tuple[int, ...]:
    """``players`` in seat order (the first starts). Two: as :func:`_seat_two`. More: the deal
    that repeats seats least (each player's count in their new seat, squared), then gives the
    first seat to the one whose :func:`preference` to start is strongest (counted as at two),
    then the higher-ranked first."""
    if len(players) == 2:
        return _seat_two(players[0], players[1], hist, rank)

    def cost(order: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
        repeats = sum((hist.seat_count(p, s) + 1) ** 2 for s, p in enumerate(order))
        wish = preference(hist, order[0])
        return repeats, -wish.direction * wish.strength, tuple(rank.get(p, 0) for p in order)

    return min(itertools.permutations(players), key=cost)


# -- swiss ---------------------------------------------------------------------------------------


def _units(points: Mapping[int, Fraction]) -> int:
    """A multiplier that makes every point total a whole number."""
    return math.lcm(1, *(value.denominator for value in points.values()))


def _lexicographic(*terms: int) -> int:
    total = 0
    for term in terms:
        total = total * BASE + term
    return total


BYE = -1
"""The pretend opponent of the entrant who gets the bye (in the matching)."""


def swiss(
    ranking: Sequence[int],
    points: Mapping[int, Fraction],
    hist: History,
    size: int,
    min_table: int,
    budget: int = NODE_BUDGET,
) -> Plan:
    """The next Swiss round for the entrants ``ranking`` (still playing, best first)."""
    if size == 2:
        return _swiss_pairs(ranking, points, hist)
    sizes, bye_count = table_plan(len(ranking), size, min_table)
    byes = _bye_choice(ranking, hist, bye_count)
    rest = [p for p in ranking if p not in byes]
    units = _units(points)
    groups: dict[Fraction, list[int]] = {}
    for p in rest:
        groups.setdefault(points[p], []).append(p)

    def pair_cost(a: int, b: int) -> int:
        gap = int((points[a] - points[b]) * units)
        fold = 0
        if not gap:
            group = groups[points[a]]
            # table-mates a table's share of the score group apart (1, 4, 7 at tables of three
            # in a group of nine), so the top of a group is spread over its tables
            fold = abs(size * abs(group.index(a) - group.index(b)) - len(group))
        return _lexicographic(hist.meetings(a, b), gap * gap, fold)

    start = _sliced(groups, size)
    tables = partition(start, sizes, pair_cost, budget)
    rank = {p: i for i, p in enumerate(ranking)}
    tables.sort(key=lambda t: min(rank[p] for p in t))
    return Plan(tuple(seat(table, hist, rank) for table in tables), tuple(byes))


def _sliced(groups: Mapping[Fraction, list[int]], size: int) -> list[int]:
    """The players, score group after score group, each group dealt over its share of tables
    (so that cutting the list into tables in order puts 1, 4, 7 together in a group of nine)."""
    order: list[int] = []
    for points in sorted(groups, reverse=True):
        group = groups[points]
        count = max(1, -(-len(group) // size))
        for table in range(count):
            order.extend(group[table::count])
    return order


def _bye_choice(ranking: Sequence[int], hist: History, count: int) -> list[int]:
    """The lowest-ranked ``count`` among those with the fewest byes."""
    if not count:
        return []
    order = sorted(range(len(ranking)), key=lambda i: (hist.byes[ranking[i]], -i))
    return sorted((ranking[i] for i in order[:count]), key=ranking.index)


def _swiss_pairs(ranking: Sequence[int], points: Mapping[int, Fraction], hist: History) -> Plan:
    players = list(ranking)
    if len(players) < 2:
        return Plan((), tuple(players))
    units = _units(points)
    position = {p: i for i, p in enumerate(players)}
    groups: dict[Fraction, list[int]] = {}
    for p in players:
        groups.setdefault(points[p], []).append(p)
    fewest = min(hist.byes[p] for p in players)
    lowest = min(points[p] for p in players) - Fraction(1, units)
    in_group = {p: group.index(p) for group in groups.values() for p in group}
    seats = {(p, starts): seat_cost(hist, p, starts) for p in players for starts in (True, False)}
    graph = nx.Graph()
    costs: dict[tuple[int, int], int] = {}
    for a, b in itertools.combinations(players, 2):
        costs[(a, b)] = _pair_cost(a, b, points, units, hist, groups, position, in_group, seats)
    if len(players) % 2:
        for p in players:
            gap = int((points[p] - lowest) * units)
            from_bottom = len(players) - 1 - position[p]
            costs[(p, BYE)] = _lexicographic(hist.byes[p] - fewest, 0, 0, 0, gap * gap, 0, 0, from_bottom)
    top = max(costs.values()) + 1
    for (a, b), cost in costs.items():
        graph.add_edge(a, b, weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    byes: list[int] = []
    tables: list[tuple[int, ...]] = []
    for a, b in matching:
        if BYE in (a, b):
            byes.append(b if a == BYE else a)
            continue
        tables.append(_seat_two(a, b, hist, position))
    tables.sort(key=lambda t: min(position[p] for p in t))
    return Plan(tuple(tables), tuple(byes))


def _pair_cost(
    a: int,
    b: int,
    points: Mapping[int, Fraction],
    units: int,
    hist: History,
    groups: Mapping[Fraction, list[int]],
    position: Mapping[int, int],
    in_group: Mapping[int, int],
    seats: Mapping[tuple[int, bool], SeatCost],
) -> int:
    excess, third, denied, denied_strong = min(
        _both(seats[(a, True)], seats[(b, False)]), _both(seats[(b, True)], seats[(a, False)])
    )
    gap = int((points[a] - points[b]) * units)
    if points[a] == points[b]:
        distance = abs(in_group[a] - in_group[b])
        fold = abs(2 * distance - len(groups[points[a]]))
    else:
        fold = abs(position[a] - position[b])
    return _lexicographic(0, hist.meetings(a, b), excess, third, gap * gap, denied, denied_strong, fold)


# -- tables of three or four ----------------------------------------------------------------------


def partition(
    players: Sequence[int],
    sizes: Sequence[int],
    pair_cost: Callable[[int, int], int],
    budget: int = NODE_BUDGET,
) -> list[tuple[int, ...]]:
    """Split ``players`` (in order of preference) into tables of ``sizes`` at the least total
    cost (the sum of ``pair_cost`` over the pairs at each table). ``players`` cut in order,
    improved by swapping players between tables, bounds a branch and bound that is exact
    unless it runs out of ``budget`` (partial tables tried): then the best found stands."""
    order = sorted(sizes, reverse=True)
    cost_of = {(a, b): pair_cost(a, b) for a, b in itertools.combinations(players, 2)}
    index = {p: i for i, p in enumerate(players)}

    def pair(a: int, b: int) -> int:
        return cost_of[(a, b)] if index[a] < index[b] else cost_of[(b, a)]

    def table_cost(table: Sequence[int]) -> int:
        return sum(pair(a, b) for a, b in itertools.combinations(table, 2))

    cut: list[tuple[int, ...]] = []
    start = 0
    for table_size in order:
        cut.append(tuple(players[start : start + table_size]))
        start += table_size
    best = _improve(cut, pair)
    best_cost = sum(table_cost(table) for table in best)
    nodes = 0
    chosen: list[tuple[int, ...]] = []

    def search(remaining: list[int], sizes_left: list[int], spent: int) -> None:
        nonlocal best, best_cost, nodes
        if not sizes_left:
            if spent < best_cost:
                best, best_cost = list(chosen), spent
            return
        head, rest = remaining[0], remaining[1:]
        for table_size in sorted(set(sizes_left), reverse=True):  # the head's table: any size left
            others = list(sizes_left)
            others.remove(table_size)
            for partners in itertools.combinations(rest, table_size - 1):
                nodes += 1
                if nodes > budget:
                    return
                table = (head, *partners)
                extra = table_cost(table)
                if spent + extra >= best_cost:
                    continue
                chosen.append(table)
                search([p for p in rest if p not in partners], others, spent + extra)
                chosen.pop()

    search(list(players), order, 0)
    return best


def _improve(tables: list[tuple[int, ...]], pair: Callable[[int, int], int]) -> list[tuple[int, ...]]:
    """Swap players between tables while a swap lowers the total cost (the best swap first)."""
    current = [list(table) for table in tables]
    while True:
        best_delta, best_swap = 0, None
        for i, j in itertools.combinations(range(len(current)), 2):
            for x, a in enumerate(current[i]):
                for y, b in enumerate(current[j]):
                    delta = sum(pair(b, o) - pair(a, o) for o in current[i] if o != a)
                    delta += sum(pair(a, o) - pair(b, o) for o in current[j] if o != b)
                    if delta < best_delta:
                        best_delta, best_swap = delta, (i, x, j, y)
        if best_swap is None:
            return [tuple(table) for table in current]
        i, x, j, y = best_swap
        current[i][x], current[j][y] = current[j][y], current[i][x]


# -- round robin ---------------------------------------------------------------------------------


def round_robin(players: Sequence[int], size: int, min_table: int, budget: int = NODE_BUDGET) -> list[Plan]:
    """Every round of a round robin of ``players`` (in seed order)."""
    if size == 2:
        return _circle(players)
    sizes, bye_count = table_plan(len(players), size, min_table)
    hist = History()
    rank = {p: i for i, p in enumerate(players)}
    plans: list[Plan] = []
    pairs = list(itertools.combinations(players, 2))
    cap = MAX_ROUND_ROBIN_ROUNDS * len(players)
    while len(plans) < cap and (
        any(not hist.meetings(a, b) for a, b in pairs) or len({hist.byes[p] for p in players}) > 1
    ):
        number = len(plans)
        # byes rotate: the fewest byes first, then down the seed list from this round's place
        order = sorted(players, key=lambda p: (hist.byes[p], (rank[p] - number) % len(players)))
        byes = sorted(order[:bye_count], key=rank.__getitem__)
        rest = [p for p in players if p not in byes]

        def pair_cost(a: int, b: int) -> int:
            return (hist.meetings(a, b) + 1) ** 2

        groups = partition(rest, sizes, pair_cost, budget)
        plan = Plan(tuple(seat(group, hist, rank) for group in groups), tuple(byes))
        hist.add(plan)
        plans.append(plan)
    return plans


def _circle(players: Sequence[int]) -> list[Plan]:
    """The circle method: one place stays (the bye, for an odd count), the others turn one
    place each round. Seats alternate as in Berger tables: nobody starts more than one game
    more than they follow."""
    ring: list[int | None] = [*players]
    if len(ring) % 2:
        ring.insert(0, None)
    count = len(ring)
    plans = []
    for number in range(count - 1):
        tables: list[tuple[int, ...]] = []
        byes: list[int] = []
        for i in range(count // 2):
            a, b = ring[i], ring[count - 1 - i]
            if a is None or b is None:
                byes.append(b if a is None else a)  # type: ignore[arg-type]
                continue
            first = number % 2 == 0 if i == 0 else i % 2 == 1
            tables.append((a, b) if first else (b, a))
        plans.append(Plan(tuple(tables), tuple(byes)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return plans
