"""The search player (``hard``): determinized playouts with common random numbers, over the best
candidate moves, racing them until one stands out or the budget is spent.

The player sees only its seat's :meth:`~games.core.Game.view` of the state. Its candidates are
its legal moves, best first by the game's :meth:`~games.core.Game.move_gain` (or the game's own
ordering), the few best of them. Then, world after world, it samples a state consistent with
the view (:meth:`~games.core.Game.determinize`: hidden hands, bag and deck orders) and plays
every candidate in that same world, each followed by the same playout (the same random numbers):
every seat plays the game's greedy policy (or the game's own) for a number of plies, and the
position reached is judged (a finished game by its ranks, an unfinished one by the game's
:meth:`~games.core.Game.evaluate`). Comparing the candidates on the same worlds and dice removes
most of the luck from the comparison (common random numbers), so a candidate that is
significantly worse than the leader (a paired test) is dropped early, and the search stops as
soon as one candidate is left. In a game without hidden information or chance one playout per
candidate says all, so the search widens to further candidates instead.

This is a Monte Carlo *rollout* of the greedy policy (policy improvement by simulation,
Tesauro and Galperin 1996; Bertsekas' rollout algorithm) with perfect-information sampling of
the hidden state: it looks as many plies ahead as the playouts go, and every opponent in a
playout answers as the greedy player would. Results are numbers in 0..1 for the searching
seat: 1 for first place alone, 0 for last, shared places split; an unfinished position gives
the logistic of its evaluation over the profile's scale.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.ai.budget import Budget, Deadline
from games.ai.decision import Choice, Decision, Step, Why
from games.ai.players import seat_to_decide
from games.ai.profile import SearchProfile, profile_of
from games.core import Game, Outcome
from games.errors import GameError

CHOICES_KEPT = 5
"""How many of the weighed moves a decision reports."""
LINE_LENGTH = 6
"""The longest expected line a decision reports."""
MIN_WORLDS = 3
"""Worlds every candidate plays before any is dropped."""


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


@dataclass
class Candidate:
    """A move being weighed: its results world by world, and the points it made at once."""

    move: Any
    rank: int
    """Its place in the move ordering (0: the greedy choice)."""
    gain: float | None = None
    """Its ``move_gain`` (None until needed, when the game orders moves its own way)."""
    results: dict[int, float] = field(default_factory=dict)
    """World number -> the searching seat's result after the move and its playout."""
    points: dict[int, float] = field(default_factory=dict)
    """World number -> the points the move made at once for the searching seat."""
    line: tuple[Step, ...] = ()

    def mean(self) -> float:
        """The mean result (0 before any)."""
        return sum(self.results.values()) / len(self.results) if self.results else 0.0

    def mean_points(self) -> float:
        """The mean points made at once (0 before any)."""
        return sum(self.points.values()) / len(self.points) if self.points else 0.0


def worse_than(candidate: Candidate, leader: Candidate, z: float) -> bool:
    """True when ``candidate`` is significantly worse than ``leader`` on the worlds both played
    (a one-sided paired test at ``z`` standard errors)."""
    shared = [w for w in candidate.results if w in leader.results]
    if len(shared) < 1:
        return False
    differences = [candidate.results[w] - leader.results[w] for w in shared]
    mean = sum(differences) / len(differences)
    if len(differences) == 1:
        return False
    variance = sum((d - mean) ** 2 for d in differences) / (len(differences) - 1)
    return mean + z * math.sqrt(variance / len(differences)) < 0


class RolloutSearch:
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
        self.exact = not game.hidden_information and profile.epsilon == 0 and profile.playout is None
        """True when one playout per candidate says all (no hidden state, no chance)."""
        self.worlds = 0
        self.answered = False
        """True once some candidate has a result: from then on the clock may cut playouts short."""

    def world(self) -> Any:
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

    # -- playouts ---------------------------------------------------------------------------

    def playout(self, root: Any, state: Any, rng: random.Random, line: list[Step] | None) -> float | None:
        """Play on from ``state`` with the playout policy and judge the result for the searching
        seat; ``line`` collects the moves played. None when the time ran out on the way."""
        game = self.game
        profile = self.profile
        policy = profile.playout
        for _ in range(profile.horizon):
            mover = game.to_act(state)
            if mover is None or (profile.stop is not None and profile.stop(game, root, state)):
                break
            if self.late():
                return None
            if policy is not None:
                move = policy(game, state, rng)
            else:
                try:
                    move = greedy_playout_move(game, state, rng, profile.epsilon, profile.sample, self.late)
                except TimeUp:
                    return None
            after, _ = game.apply(state, move)
            if line is not None and len(line) < LINE_LENGTH:
                points = game.scores(after)[mover] - game.scores(state)[mover]
                line.append(Step(mover, game.format_move(state, move), points))
            state = after
        return self.judge(state)

    def late(self) -> bool:
        """True when the time is up and some candidate already has a result to go on, or when
        the time is long up without one (the first playouts get a grace, not a blank cheque)."""
        if self.answered:
            return self.deadline.out_of_time()
        return self.deadline.overdue()

    def judge(self, state: Any) -> float:
        """The searching seat's result in ``state`` (see the module docstring)."""
        outcome = self.game.outcome(state)
        if outcome is None:
            return logistic(self.game.evaluate(state, self.seat) / self.profile.scale)
        result = rank_result(outcome, self.seat)
        margin = self.profile.margin
        if margin:
            result = (1 - margin) * result + margin * logistic(self.lead(outcome) / self.profile.scale)
        return result

    def lead(self, outcome: Outcome) -> float:
        """The searching seat's final score lead over the best other seat (fewer points are
        better where the game says so)."""
        sign = -1 if self.game.lower_is_better else 1
        scores = [sign * score for score in outcome.scores]
        others = [score for other, score in enumerate(scores) if other != self.seat]
        return scores[self.seat] - max(others, default=0)

    def play_world(self, world: Any, active: list[Candidate], number: int) -> bool:
        """Every active candidate in ``world`` with the same playout dice; False when the time
        ran out (the world's partial results are then dropped, unless it is the first)."""
        game = self.game
        dice = self.rng.getrandbits(63)
        before = game.scores(world)[self.seat]
        played: list[Candidate] = []
        for candidate in active:
            if self.exact and candidate.results:  # one playout said all there is to know
                played.append(candidate)
                continue
            if self.late():
                break
            after, _ = game.apply(world, candidate.move)
            line: list[Step] | None = [] if number == 0 else None
            result = self.playout(world, after, random.Random(dice), line)
            if result is None:
                break
            candidate.results[number] = result
            candidate.points[number] = game.scores(after)[self.seat] - before
            if line is not None:
                candidate.line = tuple(line)
            self.deadline.iterations += 1
            self.answered = True
            played.append(candidate)
        if len(played) == len(active):
            return True
        if number:
            for candidate in played:
                candidate.results.pop(number, None)
                candidate.points.pop(number, None)
        return False

    # -- the race ---------------------------------------------------------------------------

    def leader(self, active: list[Candidate]) -> Candidate:
        """The best candidate so far (equal means: the better ordered)."""
        return max(active, key=lambda c: (c.mean(), -c.rank))

    def prune(self, active: list[Candidate]) -> list[Candidate]:
        """The candidates not significantly worse than the leader."""
        best = self.leader(active)
        if self.exact:
            return [best]
        if self.worlds < MIN_WORLDS:
            return active
        return [c for c in active if c is best or not worse_than(c, best, self.profile.confidence)]

    def settle(self, best: Candidate, played: list[Candidate]) -> Candidate:
        """The move to play: ``best``, unless the profile asks for evidence before leaving the
        game's own first choice (``switch``) and ``best`` is not significantly better than it."""
        first = min(played, key=lambda c: c.rank)
        if self.exact or not self.profile.switch or best is first:
            return best
        return best if worse_than(first, best, self.profile.switch) else first

    def run(self, world: Any, candidates: list[Candidate]) -> list[Candidate]:
        """Race the candidates until one is left, the budget is spent, or (exact games) every
        candidate has played; returns every candidate that played, best first."""
        width = self.profile.candidates
        active = candidates[:width]
        waiting = candidates[width:]
        while True:
            if self.worlds and (self.deadline.exhausted() or self.over_playouts(active)):
                break
            current = world if self.worlds == 0 or self.exact else self.world()
            finished = self.play_world(current, active, self.worlds)
            if not finished and self.worlds:
                break
            self.worlds += 1
            if not finished:
                break
            active = self.prune(active)
            if self.exact:
                if not waiting:
                    break
                active = [*active, *waiting[:width]]
                waiting = waiting[width:]
            elif len(active) == 1:
                break
        played = [c for c in candidates if c.results]
        if not played:
            return candidates[:1]
        best = self.settle(self.leader([c for c in active if c.results] or played), played)
        rest = sorted((c for c in played if c is not best), key=lambda c: (-c.mean(), c.rank))
        return [best, *rest]

    def decide(self, level: str) -> Decision:
        """The decision: a forced move or the game's expert needs no search; else the race."""
        game = self.game
        world = self.world()
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
        ranked = self.run(world, self.ordered(world, moves))
        return summarize(self, world, ranked, level)

    def over_playouts(self, active: list[Candidate]) -> bool:
        """True when the iteration budget cannot pay for another world of ``active``."""
        limit = self.deadline.budget.iterations
        return limit is not None and self.deadline.iterations + len(active) > limit


@dataclass
class SearchPlayer:
    """The ``hard`` level: a search over what the seat can see, within ``budget``.

    Each decision draws its worlds from a generator seeded by ``seed`` and the number of
    decisions this player has made, so a decision is reproducible under an iteration budget.
    """

    seed: int = 0
    budget: Budget = field(default_factory=Budget)
    profile: SearchProfile | None = None
    decisions: int = field(default=0, init=False)
    level = "hard"

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        """The move to play in ``state`` (the seat to act is the mover)."""
        return self.decide(game, state).move

    def decide(self, game: Game[Any, Any], state: Any, seat: int | None = None) -> Decision:
        """The decision for the seat to act in ``state``, read only through its view (``state``
        may be the true state). ``seat``, when given, must be the seat to act (a hint for a
        player whose turn it is not is an error)."""
        deadline = self.budget.start()
        seat = seat_to_decide(game, state, seat)
        rng = random.Random(f"{self.seed}:{self.decisions}")
        self.decisions += 1
        view = game.view(state, seat)
        search = RolloutSearch(game, view, seat, rng, self.profile or profile_of(game), deadline)
        return search.decide(self.level)


def quick_decision(
    game: Game[Any, Any], world: Any, move: Any, seat: int, level: str, why: str, deadline: Deadline
) -> Decision:
    """A decision made without a search (forced, or the game's expert)."""
    notation = game.format_move(world, move)
    after, _ = game.apply(world, move)
    points = game.scores(after)[seat] - game.scores(world)[seat]
    choice = Choice(move, notation, points=float(points), gain=game.move_gain(world, move))
    return Decision(move, notation, seat, level, why, (choice,), seconds=deadline.elapsed())


def summarize(search: RolloutSearch, world: Any, ranked: list[Candidate], level: str) -> Decision:
    """The decision: the best candidate, the others weighed, the line its playout followed."""
    game = search.game
    choices = tuple(
        Choice(
            c.move,
            game.format_move(world, c.move),
            visits=len(c.results),
            value=c.mean() if c.results else None,
            points=c.mean_points(),
            gain=c.gain if c.gain is not None else game.move_gain(world, c.move),
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
        best.line,
        iterations=search.deadline.iterations,
        seconds=search.deadline.elapsed(),
        extra={"worlds": search.worlds},
    )
