"""The search player (``hard``): information-set Monte Carlo search over the seat's view, with
common random numbers, racing the best candidate moves within a playout budget.

How a decision is made
----------------------
The player sees only its seat's :meth:`~games.core.Game.view` of the state. World after world,
it samples a whole state consistent with that view (:meth:`~games.core.Game.determinize`: the
hidden hands dealt from the unseen tiles in a way that honours what the seat saw, such as a
Tri-Ominos player who drew holding nothing that fitted; the bags' orders shuffled) and plays
every candidate move in that same world, each followed by a playout with the same dice: every
seat plays the ``normal`` policy (the game's own, where it has one) to the end of the game, or
of the round, or for a number of plies, and the result is judged from the searching seat's side
(:class:`~games.ai.profile.Result`: a finished game by its ranks, an unfinished one by the
game's evaluation). Comparing the candidates on the same worlds and dice removes most of the
luck from the comparison, so a candidate that is significantly worse than the leader (a paired
test over the worlds both played) is dropped, and the search stops when one is left or the
playouts are spent. In a game without hidden information or chance one playout per candidate
says all, so the search widens to further candidates instead.

This is determinized ("perfect information") Monte Carlo search at the root with the
``normal`` player as the rollout policy: one step of policy improvement by simulation
(Tesauro and Galperin 1996; Bertsekas' rollout algorithm), as Scrabble programs simulate
candidate moves over racks sampled from the unseen tiles (Sheppard's Maven, Quackle). The
candidates are the legal moves, best first by the game's ordering (its ``move_gain``), at most
the profile's ``candidates``.

Budgets are in playouts (:mod:`games.ai.budget`): the same view, seed and budget give the same
decision on any machine. Games with a fast simulator of their own (``simulator`` in their
:class:`~games.ai.profile.SearchProfile`) play their playouts there; the others go through the
protocol (``apply``), which is slower but needs nothing from the game.

For the post-game review
------------------------
:meth:`SearchPlayer.weigh` evaluates given moves (the move a player made and the engine's own
choice, say) on the same sampled worlds from the seat's view, within a playout budget, and
returns each move's expected result, expected score and lead where the playouts ended, with
standard errors; :meth:`Weighing.gap` gives the paired difference between two of them.
:meth:`SearchPlayer.review` does both steps: the decision, then the played move against it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.ai.budget import Budget, Deadline
from games.ai.decision import Choice, Confidence, Decision, Step, Why
from games.ai.players import seat_to_decide
from games.ai.profile import Result, Run, SearchProfile, profile_of
from games.core import Game, Outcome
from games.errors import GameError

CHOICES_KEPT = 5
"""How many of the weighed moves a decision reports."""
LINE_LENGTH = 6
"""The longest expected line a decision reports."""
PRUNE_GROWTH = 1.25
"""Candidates are tested for dropping after ``min_worlds`` worlds, then each time the worlds
played have grown by this factor (fewer tests, fewer false drops)."""


def logistic(value: float) -> float:
    """``1 / (1 + e^-value)``, safe for large values."""
    if value >= 0:
        return 1.0 / (1.0 + math.exp(-min(value, 60.0)))
    small = math.exp(max(value, -60.0))
    return small / (1.0 + small)


def rank_result(outcome: Outcome, seat: int) -> float:
    """``seat``'s result in a finished game: the share of the other seats it beat (ties count
    half); in a solitaire 1, or 0 when given up."""
    ranks = outcome.ranks
    others = [other for other in range(len(ranks)) if other != seat]
    if not others:
        return 0.0 if seat in outcome.forfeited else 1.0
    beaten = sum(1.0 if ranks[o] > ranks[seat] else 0.5 if ranks[o] == ranks[seat] else 0.0 for o in others)
    return beaten / len(others)


def score_lead(scores: Sequence[float], seat: int, lower_is_better: bool) -> float:
    """``seat``'s lead over the best other seat (in a game where points are bad, fewer points
    lead); its score itself in a solitaire."""
    sign = -1 if lower_is_better else 1
    others = [sign * score for other, score in enumerate(scores) if other != seat]
    return sign * scores[seat] - max(others, default=0)


class TimeUp(Exception):
    """The clock ran out in the middle of a playout (the playout is dropped)."""


LATE_CHECK = 32
"""How many moves a greedy playout step weighs between looks at the clock."""


def greedy_playout_move(
    game: Game[Any, Any],
    state: Any,
    rng: random.Random,
    epsilon: float,
    sample: int | None,
    late: Callable[[], bool] | None = None,
) -> Any:
    """The default playout policy: a random move with chance ``epsilon``, else the best by
    ``move_gain`` among all legal moves (or ``sample`` random ones), ties broken at random.
    Raises :class:`TimeUp` when ``late()`` says so (it is asked every few moves weighed)."""
    moves = game.legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    if epsilon and rng.random() < epsilon:
        return moves[rng.randrange(len(moves))]
    pool = rng.sample(moves, sample) if sample is not None and len(moves) > sample else moves
    best_gain = -math.inf
    best: list[Any] = []
    for index, move in enumerate(pool):
        if late is not None and index % LATE_CHECK == LATE_CHECK - 1 and late():
            raise TimeUp
        gain = game.move_gain(state, move)
        if gain > best_gain + 1e-9:
            best_gain, best = gain, [move]
        elif gain >= best_gain - 1e-9:
            best.append(move)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


# -- playouts through the protocol -----------------------------------------------------------------


@dataclass
class ProtocolPlayouts:
    """Playouts through the game protocol (``apply``), for games without a simulator of their
    own: after the candidate, every seat plays the profile's policy (default: the greedy one)
    for ``horizon`` plies or until ``stop``; the position reached is judged."""

    game: Game[Any, Any]
    world: Any
    seat: int
    profile: SearchProfile
    late: Callable[[], bool] = lambda: False

    def __call__(self, move: Any, rng: random.Random) -> Result:
        """Play ``move`` and a playout; raises :class:`TimeUp` when ``late()`` says so."""
        game = self.game
        after, _ = game.apply(self.world, move)
        points = game.scores(after)[self.seat] - game.scores(self.world)[self.seat]
        return self.play_on(after, rng)._replace(points=float(points))

    def play_on(self, state: Any, rng: random.Random, line: list[Step] | None = None) -> Result:
        """The playout from ``state`` (``line`` collects the moves made)."""
        game = self.game
        profile = self.profile
        policy = profile.playout
        for _ in range(profile.horizon):
            mover = game.to_act(state)
            if mover is None or (profile.stop is not None and profile.stop(game, self.world, state)):
                break
            if self.late():
                raise TimeUp
            if policy is not None:
                move = policy(game, state, rng)
            else:
                move = greedy_playout_move(game, state, rng, profile.epsilon, profile.sample, self.late)
            after, _ = game.play_unchecked(state, move)
            if line is not None:
                points = game.scores(after)[mover] - game.scores(state)[mover]
                line.append(Step(mover, game.format_move(state, move), points))
                if len(line) >= LINE_LENGTH:
                    line = None
            state = after
        return self.judge(state)

    def judge(self, state: Any) -> Result:
        """The searching seat's result in ``state``."""
        game = self.game
        profile = self.profile
        scores = game.scores(state)
        lead = score_lead(scores, self.seat, game.lower_is_better)
        outcome = game.outcome(state)
        if outcome is None:
            value = logistic(game.evaluate(state, self.seat) / profile.scale)
            chance = None if profile.chance is None else profile.chance(game, state, self.seat)
        else:
            value = chance = rank_result(outcome, self.seat)
            if profile.margin:
                value = (1 - profile.margin) * value + profile.margin * logistic(lead / profile.scale)
        return Result(value, float(scores[self.seat]), float(lead), 0.0, chance)


def expected_line(
    game: Game[Any, Any], world: Any, seat: int, move: Any, profile: SearchProfile
) -> tuple[Step, ...]:
    """The play the move sets up in ``world``: a few plies of the playout policy after it (no
    more than the profile's ``horizon``)."""
    plies = min(LINE_LENGTH, profile.horizon)
    short = SearchProfile(horizon=plies, playout=profile.playout, stop=profile.stop, epsilon=0.0)
    after, _ = game.apply(world, move)
    line: list[Step] = []
    ProtocolPlayouts(game, world, seat, short).play_on(after, random.Random(0), line)
    return tuple(line)


# -- the candidates and their statistics -----------------------------------------------------------


@dataclass
class Candidate:
    """A move being weighed: its results world by world (world ``i`` at index ``i``: every
    candidate plays the worlds from the first one on) and the points it made at once. The
    search ranks by ``values``; what it reports are ``chances`` (see
    :class:`~games.ai.profile.Result`)."""

    move: Any
    rank: int
    """Its place in the move ordering (0: the greedy choice)."""
    gain: float | None = None
    """Its ``move_gain`` (None until needed, when the game orders moves its own way)."""
    values: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    leads: list[float] = field(default_factory=list)
    points: list[float] = field(default_factory=list)
    chances: list[float] = field(default_factory=list)

    def add(self, result: Result) -> None:
        """Record the result of one more world."""
        self.values.append(result.value)
        self.chances.append(result.value if result.chance is None else result.chance)
        self.scores.append(result.score)
        self.leads.append(result.lead)
        self.points.append(result.points)

    def mean(self) -> float:
        """The mean result (0 before any)."""
        return mean(self.values)

    def chance(self) -> float:
        """The mean chance (0 before any)."""
        return mean(self.chances)


def mean(values: Sequence[float]) -> float:
    """The mean (0 of nothing)."""
    return sum(values) / len(values) if values else 0.0


def standard_error(values: Sequence[float]) -> float | None:
    """The standard error of the mean of ``values`` (None with fewer than two)."""
    count = len(values)
    if count < 2:
        return None
    centre = sum(values) / count
    variance = sum((v - centre) ** 2 for v in values) / (count - 1)
    return math.sqrt(variance / count)


def paired(first: Sequence[float], second: Sequence[float]) -> tuple[float, float, int]:
    """The mean of ``first - second`` over the worlds both played (a common prefix), its
    standard error (infinite with fewer than two worlds) and the number of worlds."""
    count = min(len(first), len(second))
    differences = [first[i] - second[i] for i in range(count)]
    error = standard_error(differences)
    return mean(differences), math.inf if error is None else error, count


def worse_than(candidate: Candidate, leader: Candidate, z: float) -> bool:
    """True when ``candidate`` is significantly worse than ``leader`` on the worlds both played
    (a one-sided paired test at ``z`` standard errors)."""
    gap, error, count = paired(candidate.values, leader.values)
    return count >= 2 and gap + z * error < 0


# -- the search ------------------------------------------------------------------------------------


class WorldSearch:
    """One decision's search: the candidates, the sampled worlds and the budget being spent."""

    def __init__(
        self,
        game: Game[Any, Any],
        view: Any,
        seat: int,
        rng: random.Random,
        profile: SearchProfile,
        deadline: Deadline,
    ) -> None:
        self.game = game
        self.view = view
        self.seat = seat
        self.rng = rng
        self.profile = profile
        self.deadline = deadline
        self.exact = (
            not game.hidden_information
            and profile.simulator is None
            and profile.epsilon == 0
            and profile.playout is None
        )
        """True when one playout per candidate says all (no hidden state, no chance)."""
        self.worlds = 0
        self.first_world: Any = None
        self.answered = False
        """True once some candidate has a result: from then on the clock may cut playouts short."""

    def sample(self) -> Any:
        """A state consistent with the view (the view itself without hidden information)."""
        if not self.game.hidden_information:
            return self.view
        return self.game.determinize(self.view, self.seat, self.rng)

    def ordered(self, state: Any, moves: list[Any]) -> list[Candidate]:
        """Every legal move as a candidate, best first by the game's ordering."""
        game = self.game
        if self.profile.order is not None:
            ranked = self.profile.order(game, state, moves)
            return [Candidate(move, index) for index, move in enumerate(ranked)]
        gains = [game.move_gain(state, move) for move in moves]
        order = sorted(range(len(moves)), key=lambda i: -gains[i])
        return [Candidate(moves[i], rank, gains[i]) for rank, i in enumerate(order)]

    def late(self) -> bool:
        """True when the time is up and some candidate already has a result to go on, or when
        the time is long up without one (the first playouts get a grace, not a blank cheque)."""
        if self.answered:
            return self.deadline.out_of_time()
        return self.deadline.overdue()

    def runner(self, world: Any) -> Run:
        """How candidates are played out in ``world``: the game's simulator, or the protocol."""
        simulator = self.profile.simulator
        if simulator is not None:
            return simulator(self.game, world, self.seat, self.profile)
        return ProtocolPlayouts(self.game, world, self.seat, self.profile, self.late)

    def play_world(self, world: Any, active: list[Candidate]) -> bool:
        """Every active candidate in ``world`` with the same dice; False when the time ran out
        (the world's partial results are then dropped, unless it is the first)."""
        dice = self.rng.getrandbits(63)
        run = self.runner(world)
        played: list[Candidate] = []
        for candidate in active:
            if self.exact and candidate.values:  # one playout said all there is to know
                played.append(candidate)
                continue
            if self.late():
                break
            try:
                result = run(candidate.move, random.Random(dice))
            except TimeUp:
                break
            candidate.add(result)
            self.deadline.playouts += 1
            self.answered = True
            played.append(candidate)
        if len(played) == len(active):
            return True
        if self.worlds:
            for candidate in played:
                if len(candidate.values) > self.worlds:
                    for series in (
                        candidate.values,
                        candidate.chances,
                        candidate.scores,
                        candidate.leads,
                        candidate.points,
                    ):
                        series.pop()
        return False

    # -- the race -------------------------------------------------------------------------------

    def leader(self, active: list[Candidate]) -> Candidate:
        """The best candidate so far (equal means: the better ordered)."""
        return max(active, key=lambda c: (c.mean(), -c.rank))

    def prune(self, active: list[Candidate]) -> list[Candidate]:
        """The candidates not significantly worse than the leader."""
        best = self.leader(active)
        if self.exact:
            return [best]
        return [c for c in active if c is best or not worse_than(c, best, self.profile.confidence)]

    def settle(self, best: Candidate, played: list[Candidate]) -> Candidate:
        """The move to play: ``best``, unless the profile asks for evidence before leaving the
        game's own first choice (``switch``) and ``best`` is not significantly better than it."""
        first = min(played, key=lambda c: c.rank)
        if self.exact or not self.profile.switch or best is first:
            return best
        return best if worse_than(first, best, self.profile.switch) else first

    def run(self, candidates: list[Candidate]) -> list[Candidate]:
        """Weigh the candidates within the budget; returns every candidate that played, best
        first."""
        width = max(1, min(self.profile.candidates, self.deadline.limit, self.affordable()))
        if self.exact:
            self.widen(candidates, width)
        else:
            self.halve(candidates[:width])
        played = [c for c in candidates if c.values]
        if not played:
            return candidates[:1]
        most = max(len(c.values) for c in played)
        best = self.settle(self.leader([c for c in played if len(c.values) == most]), played)
        rest = sorted((c for c in played if c is not best), key=lambda c: (-len(c.values), -c.mean(), c.rank))
        return [best, *rest]

    def affordable(self) -> int:
        """How many candidates the budget can weigh with the profile's ``per_candidate``
        playouts each (at least two; no limit without ``per_candidate``)."""
        per_candidate = self.profile.per_candidate
        if per_candidate is None or self.exact:
            return self.deadline.limit
        return max(2, self.deadline.limit // per_candidate)

    def widen(self, candidates: list[Candidate], width: int) -> None:
        """Games without hidden information or chance: one playout per candidate says all, so
        candidates join in batches of ``width`` while the budget lasts."""
        active = candidates[:width]
        waiting = candidates[width:]
        while True:
            if self.worlds and (self.deadline.left() < self.cost(active) or self.deadline.out_of_time()):
                return
            finished = self.play_world(self.first_world, active)
            self.worlds = 1
            if not finished or not waiting:
                return
            active = [*self.prune(active), *waiting[:width]]
            waiting = waiting[width:]

    def halve(self, active: list[Candidate]) -> None:
        """Sequential halving over sampled worlds (Karnin, Koren and Somekh 2013): the budget is
        split over ``log2`` of the candidates' number of rounds; each round plays every
        candidate still in on new common worlds, then keeps the better half by mean result.
        Within a round a candidate significantly worse than the leader (paired over the
        worlds both played) drops at once, and the search stops when one is left."""
        rounds = max(1, math.ceil(math.log2(len(active))))
        next_test = self.profile.min_worlds
        for round_number in range(rounds):
            share = self.deadline.left() // (rounds - round_number)
            target = self.worlds + max(1, share // len(active))
            while self.worlds < target or not self.worlds:
                if self.worlds and (self.deadline.left() < len(active) or self.deadline.out_of_time()):
                    return
                world = self.first_world if self.worlds == 0 else self.sample()
                finished = self.play_world(world, active)
                if finished or not self.worlds:
                    self.worlds += 1
                if not finished:
                    return
                if self.worlds >= next_test:
                    active = self.prune(active)
                    next_test = max(self.worlds + 1, math.ceil(self.worlds * PRUNE_GROWTH))
                if len(active) == 1:
                    return
            if round_number < rounds - 1:
                ranked = sorted(active, key=lambda c: (-c.mean(), c.rank))
                active = ranked[: max(2, math.ceil(len(ranked) / 2))] if len(ranked) > 2 else ranked

    def cost(self, active: list[Candidate]) -> int:
        """The playouts one more world of ``active`` takes."""
        if self.exact:
            return sum(1 for c in active if not c.values)
        return len(active)

    def decide(self, level: str) -> Decision:
        """The decision: a forced move or the game's expert needs no search; else the race."""
        game = self.game
        world = self.first_world = self.sample()
        moves = game.legal_moves(world)
        if not moves:
            raise GameError("There is no legal move to choose from.")
        forced = game.forced_move(world)
        if forced is None and len(moves) == 1:
            forced = moves[0]
        if forced is not None:
            return quick_decision(game, world, forced, self.seat, level, Why.FORCED, self.deadline)
        if self.profile.expert is not None:
            known = self.profile.expert(game, world)
            if known is not None:
                return quick_decision(game, world, known, self.seat, level, Why.EXPERT, self.deadline)
        ranked = self.run(self.ordered(world, moves))
        return summarize(self, world, ranked, level)


@dataclass
class SearchPlayer:
    """The ``hard`` level: a search over what the seat can see, within ``budget``.

    Each decision draws its worlds from a generator seeded by ``seed`` and the number of
    decisions this player has made, so a decision is reproducible under a playout budget.
    """

    seed: int = 0
    budget: Budget = field(default_factory=Budget)
    profile: SearchProfile | None = None
    decisions: int = field(default=0, init=False)
    level = "hard"

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        """The move to play in ``state`` (the seat to act is the mover)."""
        return self.decide(game, state).move

    def search(self, game: Game[Any, Any], state: Any, seat: int | None = None) -> WorldSearch:
        """A fresh search for the seat to act in ``state`` (``seat``, when given, must be it),
        seeing only its view."""
        seat = seat_to_decide(game, state, seat)
        profile = self.profile or profile_of(game)
        deadline = self.budget.start(profile.playouts)
        rng = random.Random(f"{self.seed}:{self.decisions}")
        self.decisions += 1
        return WorldSearch(game, game.view(state, seat), seat, rng, profile, deadline)

    def decide(self, game: Game[Any, Any], state: Any, seat: int | None = None) -> Decision:
        """The decision for the seat to act in ``state``, read only through its view (``state``
        may be the true state). ``seat``, when given, must be the seat to act (a hint for a
        player whose turn it is not is an error)."""
        return self.search(game, state, seat).decide(self.level)

    def weigh(
        self, game: Game[Any, Any], state: Any, moves: Sequence[Any], seat: int | None = None
    ) -> Weighing:
        """``moves`` (legal in ``state``) played out on the same sampled worlds from the view of
        the seat to act, each world once per move with the same dice, until the budget's
        playouts are spent (at least one world). See :class:`Weighing`."""
        search = self.search(game, state, seat)
        if not moves:
            raise GameError("Give at least one move to weigh.")
        for move in moves:
            if not game.is_legal(state, move):
                raise GameError(f"{game.format_move(state, move)!r} is not a legal move here.")
        candidates = [Candidate(move, rank) for rank, move in enumerate(dict.fromkeys(moves))]
        search.first_world = search.sample()
        deadline = search.deadline
        while not search.worlds or (
            deadline.left() >= len(candidates) and not search.exact and not deadline.out_of_time()
        ):
            world = search.first_world if search.worlds == 0 else search.sample()
            finished = search.play_world(world, candidates)
            if finished or not search.worlds:
                search.worlds += 1
            if not finished:
                break
        weighed = tuple(weighed_move(game, search.first_world, c) for c in candidates)
        return Weighing(
            search.seat, weighed, search.worlds, deadline.playouts, deadline.elapsed(), exact=search.exact
        )

    def review(self, game: Game[Any, Any], state: Any, played: Any, seat: int | None = None) -> Review:
        """How ``played`` (a legal move of the seat to act) compares with this player's own
        choice, from what that seat could see: the decision (half the budget's playouts), then
        both moves weighed on fresh common worlds (the other half)."""
        half = self.halved()
        decision = half.decide(game, state, seat)
        moves = [played] if decision.move == played else [decision.move, played]
        weighing = half.weigh(game, state, moves, seat)
        return Review(decision, weighing, played)

    def halved(self) -> SearchPlayer:
        """A player like this one with half its playouts (for the two steps of a review)."""
        budget = self.budget
        if budget.playouts is not None:
            budget = Budget(max(1, budget.playouts // 2), budget.seconds, budget.scale, budget.clock)
        else:
            budget = Budget(None, budget.seconds, budget.scale / 2, budget.clock)
        return SearchPlayer(self.seed, budget, self.profile)


@dataclass(frozen=True)
class Weighed:
    """One weighed move: its mean ``value`` (the mover's chance, 0 to 1: of winning, for two
    players; see :class:`~games.ai.profile.Result`), ``score`` and ``lead`` (the mover's expected score and
    score lead where the playouts ended: the end of the game, of the round in Tri-Ominos, or a
    few moves on), the ``points`` it makes at once, each world's chances (``values``, for paired
    comparisons) and leads, and the standard errors of the means."""

    move: Any
    notation: str
    value: float
    value_error: float | None
    score: float
    lead: float
    lead_error: float | None
    points: float
    values: tuple[float, ...]
    leads: tuple[float, ...]


@dataclass(frozen=True)
class Weighing:
    """Moves weighed on the same worlds (:meth:`SearchPlayer.weigh`): per move a
    :class:`Weighed`, in the order given; how many ``worlds`` and ``playouts``; ``seconds``;
    ``exact`` when one playout of each move was all there is to know (no hidden information, no
    chance: the gaps then have no error)."""

    seat: int
    moves: tuple[Weighed, ...]
    worlds: int
    playouts: int
    seconds: float = field(default=0.0, compare=False)
    exact: bool = False

    def of(self, move: Any) -> Weighed:
        """The weighing of ``move``."""
        for weighed in self.moves:
            if weighed.move == move:
                return weighed
        raise KeyError(move)

    def gap(self, better: Any, worse: Any) -> tuple[float, float]:
        """How much more ``better`` is worth than ``worse`` in expected result (0..1), paired
        over the same worlds, and the standard error of that difference (infinite with one
        world, unless the weighing is ``exact``: then none)."""
        found, error, _ = paired(self.of(better).values, self.of(worse).values)
        return found, 0.0 if self.exact else error

    def lead_gap(self, better: Any, worse: Any) -> tuple[float, float]:
        """Like :meth:`gap`, in expected score lead (the game's points; in Geominos, where
        points are bad, a lead is fewer points)."""
        found, error, _ = paired(self.of(better).leads, self.of(worse).leads)
        return found, 0.0 if self.exact else error


@dataclass(frozen=True)
class Review:
    """A move reviewed (:meth:`SearchPlayer.review`): the engine's ``decision``, and a
    ``weighing`` of its move and the ``played`` one on common worlds."""

    decision: Decision
    weighing: Weighing
    played: Any

    @property
    def loss(self) -> tuple[float, float]:
        """How much worse ``played`` was than the engine's choice in expected result (0 when it
        is the same move), with the standard error."""
        if self.played == self.decision.move:
            return 0.0, 0.0
        return self.weighing.gap(self.decision.move, self.played)

    @property
    def lead_loss(self) -> tuple[float, float]:
        """Like :attr:`loss`, in expected score lead."""
        if self.played == self.decision.move:
            return 0.0, 0.0
        return self.weighing.lead_gap(self.decision.move, self.played)


def weighed_move(game: Game[Any, Any], world: Any, candidate: Candidate) -> Weighed:
    """A candidate's statistics as a :class:`Weighed`."""
    return Weighed(
        candidate.move,
        game.format_move(world, candidate.move),
        candidate.chance(),
        standard_error(candidate.chances),
        mean(candidate.scores),
        mean(candidate.leads),
        standard_error(candidate.leads),
        mean(candidate.points),
        tuple(candidate.chances),
        tuple(candidate.leads),
    )


def quick_decision(
    game: Game[Any, Any], world: Any, move: Any, seat: int, level: str, why: str, deadline: Deadline
) -> Decision:
    """A decision made without a search (forced, or the game's expert)."""
    notation = game.format_move(world, move)
    after, _ = game.apply(world, move)
    points = game.scores(after)[seat] - game.scores(world)[seat]
    choice = Choice(move, notation, points=float(points), gain=game.move_gain(world, move))
    return Decision(move, notation, seat, level, why, (choice,), seconds=deadline.elapsed())


def summarize(search: WorldSearch, world: Any, ranked: list[Candidate], level: str) -> Decision:
    """The decision: the best candidate, the others weighed, the line it sets up, and how sure
    the search is of it."""
    game = search.game
    choices = tuple(
        Choice(
            c.move,
            game.format_move(world, c.move),
            visits=len(c.values),
            value=c.chance() if c.chances else None,
            points=mean(c.points),
            gain=c.gain if c.gain is not None else game.move_gain(world, c.move),
            error=standard_error(c.chances),
            score=mean(c.scores) if c.scores else None,
            lead=mean(c.leads) if c.leads else None,
        )
        for c in ranked[:CHOICES_KEPT]
    )
    best = ranked[0]
    return Decision(
        best.move,
        choices[0].notation,
        search.seat,
        level,
        Why.SEARCH,
        choices,
        expected_line(game, world, search.seat, best.move, search.profile),
        playouts=search.deadline.playouts,
        worlds=search.worlds,
        seconds=search.deadline.elapsed(),
        confidence=confidence(game, world, ranked, search.exact),
    )


def confidence(
    game: Game[Any, Any], world: Any, ranked: list[Candidate], exact: bool = False
) -> Confidence | None:
    """How sure the search is of ``ranked[0]``: its gap to the runner-up (the rival that stayed
    in the race longest, the better of those), paired over the worlds both played. In an
    ``exact`` search (no hidden information, no chance) the one playout of each move is all
    there is to know: the gap has no error."""
    best, rivals = ranked[0], [c for c in ranked[1:] if c.values]
    if not rivals or not best.values:
        return None
    runner = max(rivals, key=lambda c: (len(c.values), c.mean(), -c.rank))
    gap, error, count = paired(best.chances, runner.chances)
    if exact:
        error = 0.0
    return Confidence(game.format_move(world, runner.move), gap, error, count)
