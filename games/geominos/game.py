"""The Geominos protocol object."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from games.core import Events, Game, GameOptions, Outcome
from games.errors import IllegalMoveError, InvalidOptionsError
from games.geominos import notation, rules
from games.geominos.state import Move, Options, State
from games.geominos.tiles import sections_count

SUMMARY = """\
Place your tiles next to the tiles on the board, matching pips to pips as in dominoes: at \
least one section must sit side by side (not diagonally) with a section showing the same \
number; other touching sections may differ. Either side of a tile may be up, in any rotation, \
and no section may be off the board or on a taken square.
Every pip of your tile on a light square costs a point, except on the free 3x3 center square. \
If none of your tiles fits you get 5 points and the turn passes. Fewest points wins.
Modes: Five-Tile (hold 5, draw after each placement), All-Tile (all dealt first), One-Tile \
(draw one and place it). With 3 players two tiles stay unplayed. Live clock: 1-3 minutes a \
move; out of time = +5 and one more minute, then you forfeit."""

NOTATION_HELP = """\
The tile's name, side and clockwise rotation, and the square of the top-left corner of the \
placed tile's bounding box: `Chair B90 K12`. Names are case-insensitive and a unique prefix \
is enough (`cha b90 k12`); `B` alone means `B0`. Your hand image shows every tile at A0 and B0."""


class Geominos(Game[State, Move]):
    """Geominos: place tiles matching pips, keep pips off the light squares."""

    name: ClassVar[str] = "geominos"
    title: ClassVar[str] = "Geominos"
    aliases: ClassVar[tuple[str, ...]] = ("geo", "geomino")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    Options: ClassVar[type[GameOptions]] = Options
    lower_is_better: ClassVar[bool] = True
    hands_hidden: ClassVar[bool] = False
    summary: ClassVar[str] = SUMMARY
    notation_help: ClassVar[str] = NOTATION_HELP

    def new(
        self, players: int, options: GameOptions | None = None, seed: int | None = None, deal: Any = None
    ) -> State:
        """A new game: shuffle (or the deal), center tile, set aside, deal; the starter to play."""
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptionsError(f"Geominos is for 2 to 4 players, not {players}.")
        chosen = options if options is not None else Options()
        if not isinstance(chosen, Options):
            raise InvalidOptionsError("Geominos needs its own options.")
        return rules.new_state(players, chosen, 0 if seed is None else seed, deal)

    def to_act(self, state: State) -> int | None:
        """The seat to place a tile, or None when the game (match) is over."""
        return None if state.finished else state.turn

    def legal_moves(self, state: State) -> list[Move]:
        """Every legal placement of every tile in the hand of the seat to act."""
        return list(state.legal)

    def parse_move(self, state: State, text: str) -> Move:
        """Notation to move (see ``notation_help``)."""
        return notation.parse_move(state, text)

    def format_move(self, state: State, move: Move) -> str:
        """Canonical notation."""
        return notation.format_move(move)

    def apply(self, state: State, move: Move) -> tuple[State, Events]:
        """Place a legal tile; raises :class:`IllegalMoveError` for any other move."""
        if state.finished or move not in state.legal:
            notation.check_legal(state, move, notation.format_move(move))
            raise IllegalMoveError(f"`{notation.format_move(move)}`: the game is over.")
        return rules.apply_move(state, move)

    def outcome(self, state: State) -> Outcome | None:
        """Fewest total points first; forfeited seats last."""
        return rules.outcome_of(state)

    def scores(self, state: State) -> tuple[int, ...]:
        """Points so far (match totals in match play)."""
        return state.totals

    def resign(self, state: State, seat: int) -> tuple[State, Events]:
        """``seat`` forfeits; with two players the other wins, else the rest play on."""
        return rules.forfeit(state, seat, "resigned")

    def on_timeout(self, state: State) -> tuple[State, Events]:
        """First expiry: +5 and one more minute (period); second: the seat forfeits."""
        return rules.time_out(state)

    def continues_turn(self, before: State, after: State) -> bool:
        """Every placement ends the turn: when all the others were passed over, the same player
        starts a new turn with a fresh clock."""
        return False

    def clock_label(self, options: GameOptions) -> str | None:
        """The live clock's minutes, with what happens when they run out."""
        assert isinstance(options, Options)
        if options.clock != "live":
            return None
        return f"live, {options.minutes} min a move (then +5 and one more minute, then forfeit)"

    def turn_seconds(self, state: State) -> float | None:
        """The live clock's time for this move (one more minute after a penalty); None for the
        async clock, whose hours the session keeps."""
        if state.finished or state.options.clock != "live":
            return None
        if state.penalized:
            return float(rules.EXTRA_MINUTE)
        return float(state.options.minutes * 60)

    def view(self, state: State, seat: int | None) -> State:
        """Hands are public; the deck (its order, the decks of a deal, the seed) and the
        set-aside tiles are hidden."""
        hidden = ("?",) * len(state.deck)
        return replace(state, deck=hidden, aside=("?",) * len(state.aside), decks=(), seed=0)

    def hand(self, state: State, seat: int) -> tuple[str, ...] | None:
        """The tiles ``seat`` holds (everybody can see them)."""
        return state.hands[seat]

    def describe(self, state: State, names: Sequence[str]) -> str:
        """Game of the match, hands and deck, and a time penalty pending."""
        parts: list[str] = []
        if state.options.match == "on":
            parts.append(f"Game {state.game_index + 1} of {state.players}.")
        hands = ", ".join(f"{names[seat]}: {len(hand)}" for seat, hand in enumerate(state.hands))
        if state.options.mode != "one":
            parts.append(f"Tiles in hand: {hands}.")
        parts.append(f"Deck: {len(state.deck)}.")
        if state.penalized and state.turn is not None:
            parts.append("Time penalty taken: place a tile in the extra time or forfeit.")
        if state.finished:
            parts.append(f"Game over: {state.reason}.")
        return " ".join(parts)

    def move_label(self, state: State, move: Move) -> str:
        """The notation with the points it costs."""
        cost = rules.move_cost(move)
        return f"{notation.format_move(move)} · {cost} point{'s' if cost != 1 else ''}"

    def move_gain(self, state: State, move: Move) -> float:
        """Minus the points the placement costs (bigger tiles first among equals)."""
        return -rules.move_cost(move) + 0.01 * sections_count(move.tile)
