"""The Geronimos protocol object."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from games.core import Events, Game, GameOptions, Outcome, competition_ranks
from games.errors import IllegalMoveError, InvalidOptionsError
from games.geronimos import heuristic, notation, rules
from games.geronimos.cards import LEADER
from games.geronimos.hexgrid import format_cell
from games.geronimos.state import SEAT_NAMES, Move, Options, State

SUMMARY = """\
Two players, Blue (the 7th Cavalry) and Red, draw from identical bags of hexagonal cards \
showing 1-6 dots on their sides, plus a few blank, wild Leader cards.
Each turn you draw one card and must play it at once: every side it touches must show the same \
number (a Leader matches anything) and it must touch two cards (one on the outside of a full \
ring). You may lay it on top of the opponent's identical card in the same rotation. A Leader \
goes next to any card or on top of any card. A card with no place is discarded.
Matching 3/4/5/6 numbers earns 1/2/3/4 bonus cards at once.
Surround one enemy card with six of yours to win at once. If both bags run out: most own cards \
around one enemy card, then most cards on top; else a draw. The score shown is your cards on top."""

NOTATION_HELP = """\
Write the card as laid, read clockwise from side 0 (the top-right side), then the cell: \
`532641@2,-1`. A Leader is `L@2,-1`. Add `^` to lay on top of a card: `532641@2,-1^`, \
`L@0,0^`. `@2,-1` alone is enough when only one rotation fits there. `discard` when the card \
fits nowhere."""


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

    def new(
        self, players: int, options: GameOptions | None = None, seed: int | None = None, deal: Any = None
    ) -> State:
        """A new game; the start draws and the first card at 0,0 happen here (see ``describe``)."""
        if players != 2:
            raise InvalidOptionsError(f"Geronimos is for exactly 2 players, not {players}.")
        chosen = options if options is not None else Options()
        if not isinstance(chosen, Options):
            raise InvalidOptionsError("Geronimos needs its own options.")
        return rules.new_state(chosen, 0 if seed is None else seed, deal)

    def to_act(self, state: State) -> int | None:
        """The seat that must play the drawn card."""
        return None if state.finished else state.turn

    def continues_turn(self, before: State, after: State) -> bool:
        """A bonus card continues the turn (the clock runs on); the next card drawn when the
        opponent's bag is empty starts a new turn of the same seat."""
        return after.bonus_card and not after.finished

    def legal_moves(self, state: State) -> list[Move]:
        """Every placement of the drawn card, or ``discard`` when it fits nowhere."""
        return list(state.legal)

    def parse_move(self, state: State, text: str) -> Move:
        """Notation to move (see ``notation_help``)."""
        return notation.parse_move(state, text)

    def format_move(self, state: State, move: Move) -> str:
        """Canonical notation."""
        return notation.format_move(move)

    def apply(self, state: State, move: Move) -> tuple[State, Events]:
        """Play a legal move; raises :class:`IllegalMoveError` for any other."""
        if move not in state.legal:
            text = notation.format_move(move)
            raise IllegalMoveError(f"`{text}` is not legal now; {notation.fits_summary(state)}")
        return rules.apply_move(state, move)

    def outcome(self, state: State) -> Outcome | None:
        """The result once the game is over (a draw ranks both seats 1)."""
        if not state.finished:
            return None
        ranks: tuple[int, ...]
        if state.winner is None:
            ranks = (1, 1)
        elif state.forfeited:
            ranks = competition_ranks([0 if seat in state.forfeited else 1 for seat in range(2)])
        else:
            ranks = (1, 2) if state.winner == 0 else (2, 1)
        return Outcome(self.scores(state), ranks, state.reason, state.forfeited)

    def scores(self, state: State) -> tuple[int, ...]:
        """Top cards on the table per seat (there are no points in Geronimos)."""
        return rules.top_counts(state.tops)

    def resign(self, state: State, seat: int) -> tuple[State, Events]:
        """``seat`` forfeits; the other seat wins."""
        return rules.resign_state(state, seat)

    def view(self, state: State, seat: int | None) -> State:
        """Everything is public but the order of the bags (shown sorted)."""
        return replace(state, bags=(tuple(sorted(state.bags[0])), tuple(sorted(state.bags[1]))))

    def hand(self, state: State, seat: int) -> tuple[str, ...] | None:
        """The card ``seat`` must play now, else ()."""
        if state.finished or state.turn != seat or not state.drawn:
            return ()
        return (state.drawn,)

    def describe(self, state: State, names: Sequence[str]) -> str:
        """The start, the card to play, bonus cards pending and the bags."""
        parts: list[str] = []
        if state.plies == 0:
            parts.append(" ".join(state.start_log))
        bags = f"Bags: Blue {len(state.bags[0])}, Red {len(state.bags[1])}."
        if state.finished:
            parts.append(f"Game over: {state.reason}.")
        else:
            who = SEAT_NAMES[state.turn]
            card = "a Leader (L)" if state.drawn == LEADER else state.drawn
            what = "card"
            if state.opening:
                what = "start card, to lay next to the first card"
            elif state.bonus_card:
                what = "bonus card"
            line = f"{who} must play the {what}: {card}."
            if state.bonus_left:
                line += f" Then {state.bonus_left} more bonus card{'s' if state.bonus_left > 1 else ''}."
            if state.legal == (rules.DISCARD,):
                line += " It fits nowhere: `discard`."
            parts.append(line)
        parts.append(bags)
        sieges = rules.siege(state.tops, 0), rules.siege(state.tops, 1)
        parts.append(f"Best siege: Blue {sieges[0]}/6, Red {sieges[1]}/6.")
        return " ".join(parts)

    def move_label(self, state: State, move: Move) -> str:
        """The notation with what the move does (bonus cards, a win, a covered card)."""
        text = notation.format_move(move)
        if move.cell is None:
            return f"{text} · the card fits nowhere"
        notes: list[str] = []
        gain = heuristic.placement_gain(state, move)
        if gain >= heuristic.WIN:
            notes.append("WINS: surrounds a card")
        elif gain <= -heuristic.WIN:
            notes.append("loses: your card would be surrounded")
        if move.laid != LEADER and not state.opening:
            matches = rules.number_matches(state.tops, move.cell, rules.placed_piece(move, state.turn))
            bonus = rules.bonus_for(matches)
            if bonus:
                notes.append(f"{matches} matches, +{bonus} card{'s' if bonus > 1 else ''}")
        covered = state.tops.get(move.cell)
        if covered is not None:
            owner = "your" if covered.owner == state.turn else f"{SEAT_NAMES[covered.owner]}'s"
            notes.append(f"covers {owner} {covered.text} at {format_cell(move.cell)}")
        return " · ".join([text, *notes])[:90]

    def evaluate(self, state: State, seat: int) -> float:
        """Siege progress (see :mod:`games.geronimos.heuristic`), or +-1e6 once decided."""
        result = self.outcome(state)
        if result is not None:
            if result.is_draw:
                return 0.0
            return heuristic.WIN if result.ranks[seat] == 1 else -heuristic.WIN
        return heuristic.position_value(state, seat)

    def move_gain(self, state: State, move: Move) -> float:
        """The local change of siege value, plus bonus cards and a win or loss."""
        return heuristic.placement_gain(state, move)
