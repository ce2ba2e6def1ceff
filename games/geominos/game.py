"""The Geominos game object: identity, phrases and the hooks of :class:`games.core.Game`, each
delegating to :mod:`games.geominos.rules` and :mod:`games.geominos.notation`."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.ai.profile import SearchProfile
from games.core import Events, Game, GameOptions, Outcome, counted, outcome_phrase
from games.geominos import notation, rules
from games.geominos.state import EXTRA_MINUTE, Move, State
from games.geominos.state import Options as GeominosOptions
from games.geominos.tiles import TILE_NAMES, sections_count

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

PHRASES: Mapping[str, str] = {
    "pips": "pips on light squares {points}",
    "drew": "draws {subject}",
    "no_fit": "has no tile that fits anywhere on the board {points}",
    "drawn_no_fit": "cannot place {subject} anywhere on the board {points}",
    "set_aside": "sets {subject} aside unplayed",
    "passed": "passes",
    "time_penalty_live": "time penalty {points}; one more minute to place a tile",
    "time_penalty_async": "time penalty {points}; one more period to place a tile",
    "center_tile": "game {count} begins with {subject} as the center tile",
    "game_all_placed": "game {count} is over: every tile in play is placed",
    "game_blocked": "game {count} is over: no player can place a tile",
    "game_points": "was assessed {points} in game {count}",
    rules.ALL_PLACED: "every tile in play is placed",
    rules.BLOCKED: "no player can place a tile",
}
"""Reason code -> words (see :attr:`games.core.Game.phrases`); resignations, forfeits and the
last player left use :data:`games.core.COMMON_PHRASES`."""

SECTIONS: Mapping[str, int] = {tile: sections_count(tile) for tile in TILE_NAMES}
"""How many sections each tile has (a tie-break of ``move_gain``, looked up for every move a
playout weighs)."""


def placement_gain(move: Move) -> float:
    """Minus the points the placement costs, bigger tiles first among equals (the game's
    ``move_gain``)."""
    return -move.cost + 0.01 * SECTIONS[move.tile]


def greedy_playout(game: Game[State, Move], state: State, rng: random.Random) -> Move:
    """The playouts' policy: the search's default greedy playout move (the best
    :func:`placement_gain` among the legal moves, equal ones in their order and chosen at random
    with the same draws), found from each tile's cheapest placements without listing the
    others. Gains differ by 0.01 at least, so equal means equal."""
    assert state.turn is not None
    cheapest = rules.cheapest_placements(state, state.hands[state.turn])
    gains = [-cost + 0.01 * SECTIONS[tile] for tile, cost, _ in cheapest]
    best = max(gains)
    ties = [
        move
        for (_, _, moves), gain in zip(cheapest, gains, strict=True)
        if gain >= best - 1e-9
        for move in moves
    ]
    return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]


def tiles_first(game: Game[State, Move], state: State, moves: list[Move]) -> list[Move]:
    """The search's candidates: the cheapest placement of each tile in hand first (which tile to
    spend now is the real choice), then every other placement, cheapest first."""
    ranked = sorted(moves, key=lambda move: -game.move_gain(state, move))
    firsts: dict[str, Move] = {}
    for move in ranked:
        firsts.setdefault(move.tile, move)
    chosen = set(firsts.values())
    return [*firsts.values(), *(move for move in ranked if move not in chosen)]


class Geominos(Game[State, Move]):
    """Geominos: place tiles matching pips, keep pips off the light squares."""

    name: ClassVar[str] = "geominos"
    title: ClassVar[str] = "Geominos"
    aliases: ClassVar[tuple[str, ...]] = ("geo", "geomino")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    Options: ClassVar[type[GameOptions]] = GeominosOptions
    lower_is_better: ClassVar[bool] = True
    hands_hidden: ClassVar[bool] = False
    search_profile: ClassVar[SearchProfile] = SearchProfile(
        playouts=80,  # 200 took 4.1 s of processor a decision on average (up to 12 s): too slow
        horizon=40,
        scale=6.0,
        margin=0.5,
        order=lambda game, state, moves: tiles_first(game, state, moves),
        playout=greedy_playout,
    )
    summary: ClassVar[str] = SUMMARY
    notation_help: ClassVar[str] = NOTATION_HELP
    phrases: ClassVar[Mapping[str, str]] = PHRASES

    # -- hooks ----------------------------------------------------------------------------

    def _new(self, players: int, options: GeominosOptions, seed: int, deal: Any) -> State:
        return rules.new_state(players, options, seed, deal)

    def to_act(self, state: State) -> int | None:
        """The seat to place a tile, or None when the game (match) is over."""
        return None if state.finished else state.turn

    def _legal_moves(self, state: State) -> list[Move]:
        return rules.legal_moves(state)

    def is_legal(self, state: State, move: Any) -> bool:
        """True when ``move`` is a legal placement now (checked on the board's masks: playouts
        apply a move in every state they pass, and listing every placement to check one would
        cost more than choosing it)."""
        if self.to_act(state) is None or not isinstance(move, Move):
            return False
        found = rules.is_placement(state, move)
        return super().is_legal(state, move) if found is None else found

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
        """First expiry: +5 and one more period; second: the seat forfeits."""
        return rules.on_timeout(state)

    def _view(self, state: State, seat: int | None) -> State:
        return rules.view(state)

    def _determinize(self, view: State, seat: int | None, rng: random.Random) -> State:
        return rules.determinize(view, rng)

    def outcome(self, state: State) -> Outcome | None:
        """Fewest total points first; forfeited seats last."""
        return rules.outcome(state)

    def scores(self, state: State) -> tuple[int, ...]:
        """Points so far (match totals in match play)."""
        return state.totals

    def hand(self, state: State, seat: int) -> tuple[str, ...] | None:
        """The tiles ``seat`` holds (everybody can see them)."""
        return state.hands[seat]

    # -- clock ----------------------------------------------------------------------------

    def continues_turn(self, before: State, after: State) -> bool:
        """Every placement ends the turn: when all the others were passed over, the same player
        starts a new turn with a fresh clock."""
        return False

    def clock_label(self, options: GameOptions) -> str | None:
        """The live clock's minutes, with what happens when they run out."""
        assert isinstance(options, GeominosOptions)
        if options.clock != "live":
            return None
        return f"live, {options.minutes} min a move (then +5 and one more minute, then forfeit)"

    def turn_seconds(self, state: State) -> float | None:
        """The live clock's time for this move (one more minute after a penalty); None for the
        async clock, whose hours the session keeps."""
        if state.finished or state.options.clock != "live":
            return None
        if state.penalized:
            return float(EXTRA_MINUTE)
        return float(state.options.minutes * 60)

    # -- presentation and AI helpers ------------------------------------------------------

    def describe(self, state: State, names: Sequence[str]) -> str:
        """Game of the match, hands and deck, and a time penalty pending."""
        parts: list[str] = []
        if state.options.match == "on":
            parts.append(f"Game {state.game_index + 1} of {state.games}.")
        if state.options.mode != "one":
            hands = ", ".join(f"{names[seat]}: {len(hand)}" for seat, hand in enumerate(state.hands))
            parts.append(f"Tiles in hand: {hands}.")
        parts.append(f"Deck: {len(state.deck)}.")
        if state.penalized and state.turn is not None:
            parts.append("Time penalty taken: place a tile in the extra time or forfeit.")
        ended = self.outcome(state)
        if ended is not None:
            parts.append(f"Game over: {outcome_phrase(self, ended, names)}.")
        return " ".join(parts)

    def move_label(self, state: State, move: Move) -> str:
        """The notation with the points it costs."""
        return f"{notation.format_move(move)} · {counted(rules.move_cost(move), 'point')}"

    def move_gain(self, state: State, move: Move) -> float:
        """Minus the points the placement costs (bigger tiles first among equals)."""
        return placement_gain(move)
