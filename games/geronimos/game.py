"""The Geronimos protocol object: identity, the hooks (each delegating to :mod:`rules` or
:mod:`notation`), and the presentation and computer-player helpers."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.ai.profile import SearchProfile
from games.core import Events, Game, GameOptions, Outcome, counted, outcome_phrase, with_note
from games.geronimos import heuristic, notation, rules
from games.geronimos.cards import LEADER
from games.geronimos.state import DISCARD, SEAT_NAMES, Move, MoveKind, Options, State

GeronimosOptions = Options
"""The options type, by a name the class body does not shadow."""

SUMMARY = """\
Two players, Blue (the 7th Cavalry) and Red, draw from identical bags of hexagonal cards \
showing 1-6 dots on their sides, plus a few blank, wild Leader cards.
Each turn you draw one card and must play it at once: every side it touches must show the same \
number (a Leader matches anything) and it must touch two cards (one on the outside of a full \
ring). You may lay it on top of the opponent's identical card in the same rotation. A Leader \
goes next to any card or on top of any card. A card with no place is discarded.
Matching 3/4/5/6 numbers earns 1/2/3/4 bonus cards: you may draw them one at a time, each \
played at once (`bonus`), or stop (`stop`); with the option bonus=compulsory they are all drawn.
Surround one enemy card with six of yours to win at once. If both bags run out: most own cards \
around one enemy card, then most cards on top; else a draw. The score shown is your cards on top."""

NOTATION_HELP = """\
Write the card as laid, read clockwise from side 0 (the top-right side), then the cell: \
`532641@2,-1`. A Leader is `L@2,-1`. Add `^` to lay on top of a card: `532641@2,-1^`, \
`L@0,0^`. `@2,-1` alone is enough when only one rotation fits there. `discard` when the card \
fits nowhere. After matching 3 or more numbers: `bonus` draws your next bonus card, `stop` \
declines the rest."""

PHRASES: Mapping[str, str] = {
    "top_card": "has one more card on top {points}",
    "covered": "has {subject} covered by {other} {points}",
    "bonus": "matches {subject} numbers: {count:@bonus card}",
    "bonus_draw": "draws bonus card {subject}",
    "bonus_declined": "declines {count:@bonus card}",
    "bonus_bag_empty": "has no card left in the bag for {count:@bonus card}",
    "draw": "draws {subject}",
    "bag_empty": "has an empty bag, so {other} plays on",
    "discard": "discards {subject}: it fits nowhere",
    "surround": "surrounds {other}'s card at {subject} and wins",
    "bags_siege": "wins with {count} cards around one enemy card: both bags are empty",
    "bags_tops": "wins with {count} cards on top: both bags are empty and the sieges are equal",
    "bags_draw": "both bags are empty and the sieges ({count}) and cards on top are equal: a draw",
    "surrounded": "{name} surrounded an enemy card",
    "most_around": "both bags are empty and {name} has the most cards around one enemy card",
    "most_on_top": "both bags are empty, the sieges are equal and {name} has the most cards on top",
    "all_equal": "both bags are empty; the sieges and the cards on top are equal",
}
"""Event reasons (said of the event's seat) and, with ``{name}``, the reasons a game ends."""


class Geronimos(Game[State, Move]):
    """Geronimos: surround an enemy card with six of your own."""

    name: ClassVar[str] = "geronimos"
    title: ClassVar[str] = "Geronimos"
    aliases: ClassVar[tuple[str, ...]] = ("geronimo", "gero", "cavalry")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    Options: ClassVar[type[GameOptions]] = Options
    hands_hidden: ClassVar[bool] = False
    summary: ClassVar[str] = SUMMARY
    notation_help: ClassVar[str] = NOTATION_HELP
    phrases: ClassVar[Mapping[str, str]] = PHRASES
    search_profile: ClassVar[SearchProfile] = SearchProfile(
        playouts=600,
        min_worlds=6,
        per_candidate=20,
        switch=1.0,
        horizon=200,
        scale=60.0,
        playout=lambda game, state, rng: heuristic.playout_move(state, rng, game.legal_moves(state)),
        simulator=heuristic.simulator,
    )

    # -- hooks ----------------------------------------------------------------------------

    def _new(self, players: int, options: GeronimosOptions, seed: int, deal: Any) -> State:
        return rules.new_state(options, seed, deal)

    def to_act(self, state: State) -> int | None:
        """The seat that must play the drawn card or decide on a bonus card."""
        return None if state.finished else state.turn

    def _legal_moves(self, state: State) -> Sequence[Move]:
        return rules.legal_moves(state)

    def _parse_move(self, state: State, text: str) -> Move:
        return notation.parse_move(state, text)

    def _format_move(self, state: State, move: Move) -> str:
        return notation.format_move(move)

    def _why_illegal(self, state: State, move: Move) -> str:
        return notation.why_illegal(state, move)

    def _apply(self, state: State, move: Move) -> tuple[State, Events]:
        return rules.apply_move(state, move)

    def _resign(self, state: State, seat: int) -> tuple[State, Events]:
        return rules.resign(state, seat)

    def _on_timeout(self, state: State) -> tuple[State, Events]:
        return rules.resign(state, state.turn, reason="forfeit")  # the player whose time ran out forfeits

    def _view(self, state: State, seat: int | None) -> State:
        return rules.view(state)

    def _determinize(self, view: State, seat: int | None, rng: random.Random) -> State:
        return rules.determinize(view, rng)

    def outcome(self, state: State) -> Outcome | None:
        """The result once the game is over (a draw ranks both seats 1)."""
        if not state.finished:
            return None
        ranks = rules.outcome_ranks(state)
        return Outcome(self.scores(state), ranks, state.reason, state.forfeited, reason_seat=state.winner)

    def scores(self, state: State) -> tuple[int, ...]:
        """Top cards on the table per seat (there are no points in Geronimos)."""
        return rules.top_counts(state.tops)

    def hand(self, state: State, seat: int) -> tuple[str, ...] | None:
        """The card ``seat`` must play now, else ()."""
        if state.finished or state.turn != seat or not state.drawn:
            return ()
        return (state.drawn,)

    # -- turns --------------------------------------------------------------------------

    def continues_turn(self, before: State, after: State) -> bool:
        """Bonus cards continue the turn (the clock runs on); the next card drawn when the
        opponent's bag is empty starts a new turn of the same seat."""
        return after.turn == before.turn and (after.bonus_card or after.deciding)

    def forced_move(self, state: State) -> Move | None:
        """``discard`` when the drawn card fits nowhere; every other turn is a decision."""
        if self.to_act(state) is None:
            return None
        return DISCARD if self.legal_moves(state) == [DISCARD] else None

    # -- presentation and the computer --------------------------------------------------

    def describe(self, state: State, names: Sequence[str]) -> str:
        """The start (before the first move), what the seat to act must do, and the bags."""
        parts: list[str] = []
        if state.plies == 0:
            parts.append(start_story(state, names))
        parts.append(self._now(state, names))
        blue, red = called(names, 0), called(names, 1)
        parts.append(f"Bags: {blue} {len(state.bags[0])}, {red} {len(state.bags[1])}.")
        sieges = rules.siege(state.tops, 0), rules.siege(state.tops, 1)
        parts.append(f"Best siege: {blue} {sieges[0]}/6, {red} {sieges[1]}/6.")
        return " ".join(parts)

    def _now(self, state: State, names: Sequence[str]) -> str:
        """The result, or what the seat to act must do."""
        result = self.outcome(state)
        if result is not None:
            return f"Game over: {outcome_phrase(self, result, names)}."
        who = called(names, state.turn)
        if state.deciding:
            offer = notation.bonus_offer(state.bonus_left)
            return f"{who} may draw {offer}: `bonus` draws the next, `stop` ends the turn."
        card = "a Leader (L)" if state.drawn == LEADER else state.drawn
        what = "card"
        if state.opening:
            what = "start card, to lay next to the first card"
        elif state.bonus_card:
            what = "bonus card"
        line = f"{who} must play the {what}: {card}."
        if state.bonus_left:
            line += f" Then {counted(state.bonus_left, 'more bonus card')}."
        if self.forced_move(state) is not None:
            line += " It fits nowhere: `discard`."
        return line

    def move_label(self, state: State, move: Move) -> str:
        """The notation with what the move does (bonus cards, a win, a covered card)."""
        text = notation.format_move(move)
        if move.kind is MoveKind.DISCARD:
            return f"{text} · the card fits nowhere"
        if move.kind is MoveKind.BONUS:
            return f"{text} · draw your next bonus card ({state.bonus_left} on offer)"
        if move.kind is MoveKind.STOP:
            return f"{text} · decline {counted(state.bonus_left, 'bonus card')}"
        return " · ".join([text, *placement_notes(state, move)])[:100]

    def evaluate(self, state: State, seat: int) -> float:
        """Siege progress (see :mod:`games.geronimos.heuristic`), or +-1e6 once decided."""
        result = self.outcome(state)
        if result is not None:
            if result.is_draw:
                return 0.0
            return heuristic.WIN if result.ranks[seat] == 1 else -heuristic.WIN
        return heuristic.position_value(state, seat)

    def move_gain(self, state: State, move: Move) -> float:
        """The local change of siege value, bonus cards and a win or loss; for ``bonus``, the
        expected value of the card drawn (see :mod:`games.geronimos.heuristic`)."""
        return heuristic.move_gain(state, move)


def called(names: Sequence[str], seat: int) -> str:
    """The display name of ``seat`` (its colour when no name is given)."""
    return names[seat] if 0 <= seat < len(names) else SEAT_NAMES[seat]


def start_story(state: State, names: Sequence[str]) -> str:
    """How the start went: the cards drawn, any redraw, who laid first and what."""
    blue, red = with_note(called(names, 0), "Blue"), with_note(called(names, 1), "Red")
    lines = []
    for cards in state.start_draws:
        lines.append(f"{blue} draws {cards[0]}, {red} draws {cards[1]}.")
        if cards[0] == cards[1]:
            why = "Two Leaders" if cards[0] == LEADER else "Identical cards"
            lines.append(f"{why}: both go back into the bags and both draw again.")
    first = called(names, state.first)
    if LEADER in state.start_draws[-1]:
        lines.append(f"{called(names, 1 - state.first)} drew a Leader, so {first} lays first.")
    else:
        lines.append(f"{first}'s numbers after the single dot are lower, so {first} lays first.")
    laid = state.stacks[(0, 0)][0].text
    lines.append(f"{first} lays {laid}@0,0.")
    return " ".join(lines)


def placement_notes(state: State, move: Move) -> list[str]:
    """What a placement does, as the other games' suggestions say it: a win or a loss, the
    score (cards on top) it makes, the siege it builds, bonus cards, a covered card."""
    assert move.cell is not None
    notes: list[str] = []
    gain = heuristic.placement_gain(state, move)
    if gain >= heuristic.WIN:
        notes.append("WINS: surrounds a card")
    elif gain <= -heuristic.WIN:
        notes.append("loses: your card would be surrounded")
    seat = state.turn
    covered = state.tops.get(move.cell)
    notes.append(_score_note(covered, seat))
    notes.append(_siege_note(state, move))
    matches, bonus = rules.earned_bonus(state, move)
    if bonus:
        notes.append(f"{matches} matches: {counted(bonus, 'bonus card')}")
    if covered is not None:
        owner = "your" if covered.owner == seat else f"{SEAT_NAMES[covered.owner]}'s"
        notes.append(f"covers {owner} {covered.text}")
    return notes


def _score_note(covered: Any, seat: int) -> str:
    """The score a placement makes (the score is the cards on top)."""
    if covered is None:
        return "+1 on top"
    if covered.owner == seat:
        return "+0 on top"
    return f"+1 on top, {SEAT_NAMES[covered.owner]} −1"


def _siege_note(state: State, move: Move) -> str:
    """The mover's best siege (own cards around one enemy card) after the placement."""
    assert move.cell is not None
    seat = state.turn
    before = rules.siege(state.tops, seat)
    tops = dict(state.tops)
    tops[move.cell] = rules.placed_piece(move, seat)
    after = rules.siege(tops, seat)
    change = f" (+{after - before})" if after > before else f" (−{before - after})" if after < before else ""
    return f"siege {after}/6{change}"
