"""How good a position is when there are no points: progress towards surrounding a card.

Every card on the table is weighed by how many enemy cards already stand around it: enemy
cards you besiege count for you, your own besieged cards count against you (a little more,
since the opponent may finish the ring first). Bonus cards and cards on top count a little:
a bonus card is worth :data:`BONUS_CARD` from the moment it is earned until it is played.
Drawing it (``bonus``) turns that credit into the expected best placement of a card from the bag
(whose contents are public): a card that could only be laid where it loses the game makes
drawing a risk. Declining (``stop``) gives up the credit of every bonus card on offer.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

from games.ai.profile import Result, Run, SearchProfile
from games.ai.search import logistic
from games.core import Game, evolve
from games.geronimos import rules
from games.geronimos.cards import DOT_INDEX, LEADER, SIDES, unlaid
from games.geronimos.hexgrid import Cell, distance, full_rings, neighbours
from games.geronimos.rules import earned_bonus, legal_moves, owner_lookup, surround_after, top_counts
from games.geronimos.state import BONUS, DISCARD, Move, MoveKind, State

WIN = 1_000_000.0
SIEGE_WEIGHT = (0.0, 1.0, 3.0, 8.0, 20.0, 60.0, 0.0)
"""Value of an enemy card with 0..6 of your cards around it."""
DANGER = 1.25
"""How much more your own besieged cards weigh than the enemy's."""
BONUS_CARD = 4.0
TOP_CARD = 0.5

OwnerOf = Callable[[Cell], "int | None"]


def pressure(owner_of: OwnerOf, cells: Iterable[Cell], seat: int) -> float:
    """The siege value of ``cells`` for ``seat``."""
    total = 0.0
    for cell in cells:
        owner = owner_of(cell)
        if owner is None:
            continue
        around = sum(1 for other in neighbours(cell) if owner_of(other) == 1 - owner)
        weight = SIEGE_WEIGHT[around]
        total += weight if owner != seat else -DANGER * weight
    return total


def position_value(state: State, seat: int) -> float:
    """How good the table is for ``seat`` (the game not being over)."""
    tops = state.tops
    counts = top_counts(tops)
    value = pressure(owner_lookup(tops), tops, seat) + TOP_CARD * (counts[seat] - counts[1 - seat])
    if state.turn == seat:
        value += BONUS_CARD * pending_bonus(state)
    return value


def pending_bonus(state: State) -> int:
    """Bonus cards the seat to act has earned and not played yet (the drawn one included)."""
    return state.bonus_left + (1 if state.bonus_card and state.drawn else 0)


def move_gain(state: State, move: Move) -> float:
    """The immediate gain of ``move`` for the seat to act."""
    if move.kind is MoveKind.PLACE:
        return placement_gain(state, move)
    if move.kind is MoveKind.STOP:
        return -BONUS_CARD * state.bonus_left
    if move.kind is MoveKind.BONUS:
        return draw_value(state) - BONUS_CARD
    return 0.0


def draw_value(state: State) -> float:
    """The expected gain of the next bonus card: the best placement of each card the bag may
    yield (nothing for one that fits nowhere), averaged over the bag."""
    bag = state.bags[state.turn]
    if not bag:
        return 0.0
    total = 0.0
    for card, copies in sorted(Counter(bag).items()):  # sorted: the same sum for any bag order
        drawn = evolve(state, drawn=card, bonus_card=True, bonus_left=state.bonus_left - 1)
        moves = legal_moves(drawn)
        if moves != (DISCARD,):
            total += copies * max(placement_gain(drawn, move) for move in moves)
    return total / len(bag)


def placement_gain(state: State, move: Move) -> float:
    """The immediate gain of a placement for the seat to act, computed around its cell only."""
    assert move.cell is not None
    seat = state.turn
    tops = state.tops
    cell = move.cell
    before = owner_lookup(tops)
    after = owner_lookup(tops, cell, seat)
    won = surround_after(after, cell, seat)
    if won is not None:
        return WIN if won[0] == seat else -WIN
    region = (cell, *neighbours(cell))
    gain = pressure(after, region, seat) - pressure(before, region, seat)
    covered = tops.get(cell)
    if covered is None:
        gain += TOP_CARD
    elif covered.owner != seat:
        gain += 2 * TOP_CARD
    return gain + BONUS_CARD * earned_bonus(state, move)[1]


def playout_move(state: State, rng: random.Random, moves: Sequence[Move] | None = None) -> Move:
    """The search's playout policy: the greedy placement (ties at random), and always the next
    bonus card when one is on offer (weighing a draw against every card of the bag is the costly
    part of :func:`move_gain`, and declining is rarely right). ``moves``: the legal moves, when
    the caller has them already."""
    if moves is None:
        moves = legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    if BONUS in moves:
        return BONUS
    gains = [placement_gain(state, move) if move.kind is MoveKind.PLACE else 0.0 for move in moves]
    best = max(gains)
    ties = [move for move, gain in zip(moves, gains, strict=True) if gain >= best - 1e-9]
    return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]


# -- fast playouts for the search ---------------------------------------------------------------

NO_SIDES: tuple[int, ...] = ()
"""The sides of a Leader (blank and wild) in :class:`Table`."""


Front = tuple[int, dict[int, int]]
"""An empty cell next to the table: how many cards it touches, and side -> number asked."""


@lru_cache(maxsize=1 << 16)
def ring_of(cell: Cell) -> int:
    """The ring ``cell`` lies in (remembered)."""
    return distance(cell)


@lru_cache(maxsize=1 << 16)
def around_cells(cell: Cell) -> tuple[Cell, ...]:
    """The six neighbours of ``cell`` (remembered: playouts ask for them very often)."""
    return neighbours(cell)


class Table:
    """A mutable Geronimos game for the search's playouts: the top cards, the bags and the turn,
    played in place by the rules of :mod:`games.geronimos.rules` (placements, stacking, bonus
    cards, the surround, the end when both bags are empty), with the ``normal`` player's policy
    (:func:`placement_gain`, ties at random; bonus cards always drawn) for both seats. The
    engine stays the authority: tests play both side by side."""

    __slots__ = (
        "around",
        "bags",
        "bonus_card",
        "bonus_left",
        "cards",
        "compulsory",
        "counts",
        "drawn",
        "finished",
        "frontier",
        "full",
        "open_table",
        "opening",
        "owner",
        "rings",
        "sides",
        "turn",
        "winner",
    )

    def __init__(self, state: State) -> None:
        tops = state.tops
        self.owner: dict[Cell, int] = {cell: piece.owner for cell, piece in tops.items()}
        self.cards: dict[Cell, tuple[str, int]] = {cell: (p.card, p.rotation) for cell, p in tops.items()}
        self.sides: dict[Cell, tuple[int, ...]] = {cell: p.sides or NO_SIDES for cell, p in tops.items()}
        self.frontier: dict[Cell, Front] = {cell: self.front_of(cell) for cell in rules.frontier(tops)}
        """Every empty cell next to the table, with how many cards it touches and the number
        each touching number card asks for on each of its sides."""
        self.rings: dict[int, int] = {}
        for cell in tops:
            ring_number = ring_of(cell)
            self.rings[ring_number] = self.rings.get(ring_number, 0) + 1
        self.full = full_rings(tops)
        self.bags: list[list[str]] = [list(bag) for bag in state.bags]
        self.turn = state.turn
        self.drawn = state.drawn
        self.bonus_left = state.bonus_left
        self.bonus_card = state.bonus_card
        self.opening = state.opening
        self.open_table = state.options.table == "open"
        self.compulsory = state.options.bonus == "compulsory"
        self.finished = state.finished
        self.winner: int | None = state.winner
        self.counts = list(rules.top_counts(tops))
        self.around: dict[Cell, int] = {
            cell: sum(1 for other in around_cells(cell) if self.owner.get(other) == 1 - who)
            for cell, who in self.owner.items()
        }
        """For every card on the table, how many enemy cards stand around it."""

    def front_of(self, cell: Cell) -> Front:
        """How many cards the empty ``cell`` touches and what their numbers ask for."""
        count = 0
        asked: dict[int, int] = {}
        for side, other in enumerate(around_cells(cell)):
            numbers = self.sides.get(other)
            if numbers is None:
                continue
            count += 1
            if numbers:
                asked[side] = numbers[(side + 3) % 6]
        return count, asked

    def copy(self) -> Table:
        """An independent copy."""
        other = Table.__new__(Table)
        other.owner = dict(self.owner)
        other.cards = dict(self.cards)
        other.sides = dict(self.sides)
        other.frontier = {cell: (count, dict(asked)) for cell, (count, asked) in self.frontier.items()}
        other.rings = dict(self.rings)
        other.bags = [list(bag) for bag in self.bags]
        other.counts = list(self.counts)
        other.around = dict(self.around)
        for name in (
            "full",
            "turn",
            "drawn",
            "bonus_left",
            "bonus_card",
            "opening",
            "open_table",
            "compulsory",
            "finished",
            "winner",
        ):
            setattr(other, name, getattr(self, name))
        return other

    @property
    def deciding(self) -> bool:
        """True while the seat to act decides on its next bonus card."""
        return not self.finished and not self.drawn

    # -- placements -----------------------------------------------------------------------

    def placements(self) -> list[tuple[str, int, Cell, bool]]:
        """Every legal placement of the drawn card: ``(card, rotation, cell, stacked)``."""
        card = self.drawn
        owner = self.owner
        found: list[tuple[str, int, Cell, bool]] = []
        if card == LEADER:
            found.extend((LEADER, 0, cell, False) for cell in self.frontier)
            if not self.opening:
                found.extend((LEADER, 0, cell, True) for cell in owner)
            return found
        single_ok = self.opening or self.open_table
        index = DOT_INDEX[card]
        ring = self.full + 1
        for cell, (contacts, asked) in self.frontier.items():
            if contacts < 2 and not (single_ok or ring_of(cell) == ring):
                continue
            if not asked:
                found.extend((card, turned, cell, False) for turned in range(6))
                continue
            rotation = -1
            laid_sides: tuple[int, ...] = ()
            for side, number in asked.items():
                if rotation < 0:
                    rotation = (side - index[number]) % 6
                    laid_sides = SIDES[card, rotation]
                elif laid_sides[side] != number:
                    break
            else:
                found.append((card, rotation, cell, False))
        if not self.opening:
            seat = self.turn
            for cell, (other_card, turned) in self.cards.items():
                if other_card == card and owner[cell] != seat:
                    found.append((card, turned, cell, True))
        return found

    def can_win(self) -> bool:
        """True when the drawn card has a placement that wins at once."""
        return any(self.gain(card, rotation, cell) >= WIN for card, rotation, cell, _ in self.placements())

    def matches(self, card: str, rotation: int, cell: Cell) -> int:
        """Sides of a number card laid on ``cell`` that match a number card."""
        if card == LEADER:
            return 0
        laid_sides = SIDES[card, rotation]
        sides = self.sides
        count = 0
        for side, other in enumerate(around_cells(cell)):
            numbers = sides.get(other)
            if numbers and numbers[(side + 3) % 6] == laid_sides[side]:
                count += 1
        return count

    def gain(self, card: str, rotation: int, cell: Cell) -> float:
        """:func:`placement_gain` of a placement, on this table: a win or a loss, else the
        change of siege value around ``cell``, a card on top, and the bonus cards earned."""
        seat = self.turn
        enemy = 1 - seat
        owner = self.owner
        around = self.around
        previous = owner.get(cell)
        if previous == seat:  # a Leader on one's own card changes nothing
            return 0.0
        mine = 0
        gain = TOP_CARD if previous is None else 2 * TOP_CARD
        if previous is not None:  # the enemy card covered no longer counts
            gain -= SIEGE_WEIGHT[around[cell]]
        wins = False
        for other in around_cells(cell):
            who = owner.get(other)
            if who == enemy:
                mine += 1
                count = around[other]
                if count == 5:
                    wins = True
                else:
                    gain += SIEGE_WEIGHT[count + 1] - SIEGE_WEIGHT[count]
            elif who == seat and previous is not None:
                count = around[other]
                gain -= DANGER * (SIEGE_WEIGHT[count - 1] - SIEGE_WEIGHT[count])
        if wins:
            return WIN
        if mine == 6:
            return -WIN
        gain -= DANGER * SIEGE_WEIGHT[mine]
        if not self.opening and card != LEADER:
            gain += BONUS_CARD * rules.bonus_for(self.matches(card, rotation, cell))
        return gain

    def surround_by(self, cell: Cell, seat: int) -> int | None:
        """Who wins when ``seat`` lays a card on ``cell`` (not its own): ``seat`` when an enemy
        card next to it then has six of ``seat``'s around it, else the enemy when ``cell`` is
        ringed by six enemy cards; None when nobody. Updates the siege counts around ``cell``."""
        enemy = 1 - seat
        owner = self.owner
        around = self.around
        previous = owner.get(cell)
        mine = 0
        won = False
        for other in around_cells(cell):
            who = owner.get(other)
            if who == enemy:
                mine += 1
                around[other] += 1
                if around[other] == 6:
                    won = True
            elif who == seat and previous is not None:
                around[other] -= 1
        around[cell] = mine
        if won:
            return seat
        return enemy if mine == 6 else None

    # -- moves ----------------------------------------------------------------------------

    def place(self, card: str, rotation: int, cell: Cell) -> None:
        """The seat to act lays the drawn card (a legal placement)."""
        seat = self.turn
        previous = self.owner.get(cell)
        earned = 0 if self.opening else rules.bonus_for(self.matches(card, rotation, cell))
        won = self.surround_by(cell, seat) if previous != seat else None
        self.owner[cell] = seat
        self.cards[cell] = (card, rotation)
        self.sides[cell] = NO_SIDES if card == LEADER else SIDES[card, rotation]
        numbers = self.sides[cell]
        frontier = self.frontier
        for side, other in enumerate(around_cells(cell)):
            if other in self.owner:
                continue
            facing = (side + 3) % 6
            entry = frontier.get(other)
            if entry is None:
                entry = frontier[other] = (0, {})
            asked = entry[1]
            if previous is None:
                frontier[other] = (entry[0] + 1, asked)
            if numbers:
                asked[facing] = numbers[side]
            else:
                asked.pop(facing, None)
        if previous is None:
            self.counts[seat] += 1
            frontier.pop(cell, None)
            ring_number = ring_of(cell)
            self.rings[ring_number] = self.rings.get(ring_number, 0) + 1
            while self.rings.get(self.full + 1, 0) == (1 if self.full + 1 == 0 else 6 * (self.full + 1)):
                self.full += 1
        elif previous != seat:
            self.counts[seat] += 1
            self.counts[previous] -= 1
        self.drawn = ""
        self.bonus_card = False
        self.bonus_left += earned
        self.opening = False
        if won is not None:
            self.finished = True
            self.winner = won
            return
        self.after_card(seat)

    def discard(self) -> None:
        """The drawn card fits nowhere."""
        self.drawn = ""
        self.bonus_card = False
        self.after_card(self.turn)

    def after_card(self, seat: int) -> None:
        """Bonus cards on offer (drawn at once when compulsory), else the next turn."""
        if self.bonus_left and self.bags[seat]:
            if self.compulsory:
                self.draw_bonus()
            else:
                self.turn = seat
            return
        self.bonus_left = 0
        self.next_turn(seat)

    def draw_bonus(self) -> None:
        """The seat to act draws its next bonus card."""
        self.drawn = self.bags[self.turn].pop(0)
        self.bonus_left -= 1
        self.bonus_card = True

    def stop(self) -> None:
        """The seat to act declines its bonus cards."""
        self.bonus_left = 0
        self.next_turn(self.turn)

    def next_turn(self, seat: int) -> None:
        """The other seat draws (the same one when the other's bag is empty); both bags empty
        end the game."""
        self.bonus_left = 0
        self.bonus_card = False
        for player in (1 - seat, seat):
            if self.bags[player]:
                self.drawn = self.bags[player].pop(0)
                self.turn = player
                return
        self.finish_bags_empty()

    def finish_bags_empty(self) -> None:
        """Both bags are empty: the best siege wins, then the most top cards, else a draw."""
        sieges = [self.siege(0), self.siege(1)]
        self.finished = True
        self.drawn = ""
        if sieges[0] != sieges[1]:
            self.winner = 0 if sieges[0] > sieges[1] else 1
        elif self.counts[0] != self.counts[1]:
            self.winner = 0 if self.counts[0] > self.counts[1] else 1
        else:
            self.winner = None

    def siege(self, seat: int) -> int:
        """The most cards of ``seat`` around one enemy card."""
        owner = self.owner
        best = 0
        for cell, who in owner.items():
            if who != seat:
                best = max(best, self.around[cell])
        return best

    # -- the normal player's policy ---------------------------------------------------------

    def greedy_step(self, rng: random.Random) -> None:
        """One move by the playout policy: the next bonus card when one is on offer, else the
        placement with the best :func:`placement_gain` (ties at random), else discard."""
        if not self.drawn:
            self.draw_bonus()
            return
        options = self.placements()
        if not options:
            self.discard()
            return
        best = -math.inf
        ties: list[tuple[str, int, Cell, bool]] = []
        for option in options:
            gain = self.gain(option[0], option[1], option[2])
            if gain > best + 1e-9:
                best, ties = gain, [option]
            elif gain >= best - 1e-9:
                ties.append(option)
        card, rotation, cell, _ = ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
        self.place(card, rotation, cell)

    def play_out(self, rng: random.Random, plies: int) -> int:
        """Play on by the policy for at most ``plies`` moves or to the end; the moves made."""
        for made in range(plies):
            if self.finished:
                return made
            self.greedy_step(rng)
        return plies

    def value(self, seat: int) -> float:
        """:func:`position_value` on this table (the game not being over)."""
        total = 0.0
        around = self.around
        for cell, who in self.owner.items():
            weight = SIEGE_WEIGHT[around[cell]]
            total += weight if who != seat else -DANGER * weight
        total += TOP_CARD * (self.counts[seat] - self.counts[1 - seat])
        if self.turn == seat:
            total += BONUS_CARD * (self.bonus_left + (1 if self.bonus_card and self.drawn else 0))
        return total


def play(table: Table, move: Move) -> None:
    """Play an engine move on ``table``."""
    if move.kind is MoveKind.PLACE:
        assert move.cell is not None
        if move.laid == LEADER:
            table.place(LEADER, 0, move.cell)
        else:
            card, rotation = unlaid(move.laid)
            table.place(card, rotation, move.cell)
    elif move.kind is MoveKind.BONUS:
        table.draw_bonus()
    elif move.kind is MoveKind.STOP:
        table.stop()
    else:
        table.discard()


LEARNED = True
"""Judge unfinished playouts by :func:`learned_value` (else by the hand-tuned value)."""


def judge(table: Table, seat: int, scale: float) -> Result:
    """``seat``'s result where a playout stopped: 1 for a win, 0 for a loss, 1/2 for a draw;
    else :func:`learned_value` (or the logistic of :meth:`Table.value` over ``scale``). The
    score is the top cards."""
    lead = float(table.counts[seat] - table.counts[1 - seat])
    if table.finished:
        value = 0.5 if table.winner is None else 1.0 if table.winner == seat else 0.0
    elif LEARNED:
        value = learned_value(table, seat)
    else:
        value = logistic(table.value(seat) / scale)
    return Result(value, float(table.counts[seat]), lead, 0.0)


def simulator(game: Game[Any, Any], world: State, seat: int, profile: SearchProfile) -> Run:
    """The search's playouts in ``world``: the candidate, then the playout policy for both
    seats for the profile's ``horizon`` plies or to the end, judged by :func:`judge`."""
    del game
    table = Table(world)

    def run(move: Move, rng: random.Random) -> Result:
        playing = table.copy()
        before = playing.counts[seat]
        play(playing, move)
        points = playing.counts[seat] - before
        playing.play_out(rng, profile.horizon)
        return judge(playing, seat, profile.scale)._replace(points=float(points))

    return run


# -- a learned evaluation --------------------------------------------------------------------------

FEATURES = (
    "open5_mine",
    "closed5_mine",
    "four_mine",
    "three_mine",
    "two_mine",
    "open5_theirs",
    "closed5_theirs",
    "four_theirs",
    "three_theirs",
    "two_theirs",
    "leader_share_mine",
    "leader_share_theirs",
    "threat_mine",
    "threat_theirs",
    "to_act",
    "leader_in_hand_mine",
    "leader_in_hand_theirs",
    "bonus_pending",
    "tops_lead",
    "cards_left",
    "wins_now",
)
"""What the learned evaluation looks at, from one seat's side ("mine") and its opponent's
("theirs"): enemy cards with five of one's cards around them and the sixth neighbour empty
(``open5``) or taken by the enemy (``closed5``), with four, three and two around; the share of
Leaders among the cards left in one's bag; threats (open or closed five-sieges times that
share); who is to act, a Leader drawn and waiting to be played, bonus cards pending; the lead in
top cards; and how many cards are left in both bags (a fraction of the start)."""


def features(table: Table, seat: int) -> list[float]:
    """:data:`FEATURES` of ``table`` for ``seat``."""
    owner = table.owner
    around = table.around
    counts = [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]  # per besieger: open5, closed5, 4, 3, 2
    for cell, who in owner.items():
        besieger = 1 - who
        count = around[cell]
        if count == 5:
            missing = next(other for other in around_cells(cell) if owner.get(other) != besieger)
            counts[besieger][0 if missing not in owner else 1] += 1
        elif count >= 2:
            counts[besieger][6 - count] += 1
    enemy = 1 - seat
    share = [leader_share(table.bags[0]), leader_share(table.bags[1])]
    mine, theirs = counts[seat], counts[enemy]
    to_act = table.turn == seat and not table.finished
    waiting = table.drawn == LEADER
    pending = table.bonus_left + (1 if table.bonus_card and table.drawn else 0)
    left = (len(table.bags[0]) + len(table.bags[1])) / 88.0
    return [
        float(mine[0]),
        float(mine[1]),
        float(mine[2]),
        float(mine[3]),
        float(mine[4]),
        float(theirs[0]),
        float(theirs[1]),
        float(theirs[2]),
        float(theirs[3]),
        float(theirs[4]),
        share[seat],
        share[enemy],
        (mine[0] + mine[1]) * share[seat],
        (theirs[0] + theirs[1]) * share[enemy],
        1.0 if to_act else -1.0,
        1.0 if waiting and to_act else 0.0,
        1.0 if waiting and not to_act else 0.0,
        float(pending) * (1.0 if to_act else -1.0),
        float(table.counts[seat] - table.counts[enemy]),
        left,
        (1.0 if to_act else -1.0) if table.drawn and table.can_win() else 0.0,
    ]


def leader_share(bag: Sequence[str]) -> float:
    """The share of Leaders among the cards in ``bag`` (0 when it is empty)."""
    return bag.count(LEADER) / len(bag) if bag else 0.0


LEARNED_WEIGHTS = (
    +0.4227,  # open5_mine
    +0.3848,  # closed5_mine
    +0.0618,  # four_mine
    +0.0386,  # three_mine
    -0.0022,  # two_mine
    -0.4227,  # open5_theirs
    -0.3848,  # closed5_theirs
    -0.0618,  # four_theirs
    -0.0386,  # three_theirs
    +0.0022,  # two_theirs
    +2.1929,  # leader_share_mine
    -2.1929,  # leader_share_theirs
    +0.8062,  # threat_mine
    -0.8062,  # threat_theirs
    -0.0005,  # to_act
    +0.1887,  # leader_in_hand_mine
    -0.1887,  # leader_in_hand_theirs
    +0.2017,  # bonus_pending
    -0.0333,  # tops_lead
    -0.0000,  # cards_left
    +1.6457,  # wins_now
)
"""The learned evaluation's weights, in the order of :data:`FEATURES` (the intercept is 0 by
symmetry): a logistic regression of the final result on the features, fitted by
``bench/fit_geronimos_eval.py --games 3000 --seed 70000`` on 340,000 positions of games of the
``normal`` policy playing itself (log loss 0.658 on held-out games, against 0.693 for a coin and
0.697 for the hand-tuned :func:`position_value`)."""


def learned_value(table: Table, seat: int) -> float:
    """The learned chance that ``seat`` wins from ``table`` (the game not being over); a seat to
    act that can win with the card it holds wins."""
    if table.drawn and table.can_win():
        return 1.0 if table.turn == seat else 0.0
    found = features(table, seat)
    return logistic(sum(weight * value for weight, value in zip(LEARNED_WEIGHTS, found, strict=False)))
