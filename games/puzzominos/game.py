"""Puzz-Ominos for two players: the :class:`~games.core.Game` (identity, phrases, hooks)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.ai.profile import SearchProfile
from games.ai.search import logistic
from games.core import Events, Game, Outcome, Seat, counted, evolve, with_note
from games.puzzominos import notation, rules
from games.puzzominos.state import SET_SIZE, Move, MoveKind, Placement, State
from games.puzzominos.state import Options as PuzzOptions

CHANCE_WEIGHTS = (0.3043, 0.547, -0.0041, 1.0483, -0.5177)
"""The weights of :func:`win_chance` on the lead, the lead times the share of the 28 pieces
played, the tempo (1 when the seat is to act, -1 when the other is), the tempo times that share,
and the seat's pieces played less the other's: fitted by ``bench/calibrate_chances.py fit
puzzominos`` on ``normal``'s games against itself, seeds 95000-95149 (every position)."""


def chance_features(state: State, seat: Seat) -> tuple[float, ...]:
    """What :func:`win_chance` weighs, in :data:`CHANCE_WEIGHTS`' order."""
    played = state.pieces_played
    lead = state.scores[seat] - state.scores[1 - seat]
    share = sum(played) / (2 * SET_SIZE)
    tempo = 0.0 if state.to_act is None else 1.0 if state.to_act == seat else -1.0
    return (lead, lead * share, tempo, tempo * share, played[seat] - played[1 - seat])


def win_chance(state: State, seat: Seat) -> float:
    """``seat``'s chance of winning ``state`` if both seats play on like ``normal``: a logistic
    model of the lead, whose turn it is and the pieces played (the search judges a position two
    moves on, where a lead counts less early and the seat to act is about to score)."""
    features = chance_features(state, seat)
    return logistic(sum(weight * feature for weight, feature in zip(CHANCE_WEIGHTS, features, strict=True)))


class PuzzOminos(Game[State, Move]):
    """The two-player game: touch your opponent's squares, wall in small empty spaces."""

    name = "puzzominos"
    title = "Puzz-Ominos"
    aliases = ("puzz", "puzz-ominos", "puzzominoes")
    min_players = 2
    max_players = 2
    Options = PuzzOptions
    hands_hidden = False
    hidden_information = False
    search_profile: ClassVar[SearchProfile] = SearchProfile(
        playouts=40,  # 200 took 8.6 s of processor a decision on average: too slow
        horizon=2,
        scale=4.0,
        chance=lambda game, state, seat: win_chance(state, seat),
    )
    summary = (
        "Red and Blue each have the 12 pentominoes plus two Free Turn pieces, V3 and T4; a coin "
        "flip decides who plays Red and starts. There is no board: Red's first piece goes at 0,0; "
        "Blue's first piece must touch Red; after that every piece must touch one of your own "
        "pieces edge to edge, without overlapping.\n"
        "Score 1 point per distinct opponent square your piece touches, plus 1 per square of each "
        "empty group of 1 or 2 squares your piece walls in (any size with your last piece).\n"
        "Begin a turn with a Free Turn piece to play a second piece. The game ends as soon as one "
        "player has played all 14: high score wins, then fewer pieces played, then a draw.\n"
        "Alone? `/puzzominos solo` starts a solitaire challenge: fill a target (6x10, 5x12, 4x15, "
        "3x20, three 8x8 squares with four holes, the big T, the big cross, 10x12, 6x20 and a ring "
        "with both sets, any rectangle, or a shape you draw)."
    )
    notation_help = (
        "Piece, orientation, top-left corner of the placed piece's bounding box: `Lr1f@3,-2` "
        "(also `L r1f @3,-2`, `l r1 f 3,-2`). Pieces: F I L N P T U V W X Y Z V3 T4; "
        "orientation r0-r3 = quarter turns clockwise, f = flipped left-right first. x grows to "
        "the right, y downward. `pass` declines a Free Turn's second piece."
    )
    phrases: ClassVar[Mapping[str, str]] = {
        "touch": "touches {count:@{subject} square} {points}",
        "enclose": "encloses {count:@empty square} {points}",
        "enclose_last": "last piece encloses {count:@empty square} {points}",
        "enclose_idle": "encloses {count} empty squares: no points (3 or more)",
        "free_turn": "Free Turn: {name} plays a second piece",
        "free_turn_no_room": "has no place for a Free Turn's second piece",
        "declined": "declines the second piece",
        "stuck": "{name} cannot place a piece and passes for the rest of the game",
        "all_played": f"{{name}} played all {SET_SIZE} pieces",
        "nobody_can_place": "neither player can place a piece",
        "final_score": "{name} ({subject}) ends with {count:@point}",
    }

    def _new(self, players: int, options: PuzzOptions, seed: int, deal: Any) -> State:
        return rules.new_state(options, seed, deal)

    def to_act(self, state: State) -> Seat | None:
        return state.to_act

    def _legal_moves(self, state: State) -> list[Move]:
        return rules.legal_moves(state)

    def _parse_move(self, state: State, text: str) -> Move:
        return notation.parse_move(text)

    def _format_move(self, state: State, move: Move) -> str:
        return notation.format_move(move)

    def _why_illegal(self, state: State, move: Move) -> str:
        return notation.why_illegal(state, move)

    def _apply(self, state: State, move: Move) -> tuple[State, Events]:
        return rules.apply_move(state, move)

    def _resign(self, state: State, seat: Seat) -> tuple[State, Events]:
        return rules.resign(state, seat)

    def _on_timeout(self, state: State) -> tuple[State, Events]:
        assert state.to_act is not None
        return rules.resign(state, state.to_act, timeout=True)

    def _view(self, state: State, seat: Seat | None) -> State:
        return state  # everything is public, and the state keeps no seed

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def scores(self, state: State) -> tuple[int, ...]:
        return state.scores

    def hand(self, state: State, seat: Seat) -> tuple[str, ...] | None:
        return state.left(seat)

    def continues_turn(self, before: State, after: State) -> bool:
        """Only a Free Turn's second piece continues a turn: when the opponent is stuck and the
        same player moves again, that is a new turn (its own board message and a fresh clock)."""
        return after.second_piece and self.to_act(before) == self.to_act(after)

    def forced_move(self, state: State) -> Move | None:
        """The only legal move, when there is just one (a last piece with one place)."""
        if state.to_act is None:
            return None
        moves = self.legal_moves(state)
        return moves[0] if len(moves) == 1 else None

    def describe(self, state: State, names: Sequence[str]) -> str:
        def called(seat: Seat) -> str:
            return with_note(names[seat] if seat < len(names) else "a player", state.colour(seat).label)

        order = (state.red, 1 - state.red)
        left = " · ".join(f"{called(s)}: {counted(len(state.left(s)), 'piece')} left" for s in order)
        if state.to_act is None:
            return f"{left} · game over"
        extra = ""
        if state.second_piece:
            extra = f" · {called(state.to_act)}'s Free Turn: second piece"
            extra += " (or `pass`)" if rules.may_pass(state) else ""
        elif not state.placements:
            extra = f" · {called(state.to_act)} starts: Red's first piece goes at 0,0"
        elif not state.squares[state.to_act]:
            extra = f" · {called(state.to_act)}'s first piece must touch Red"
        if state.stuck:
            extra += " · cannot place: " + ", ".join(called(s) for s in sorted(state.stuck))
        return left + extra

    def move_gain(self, state: State, move: Move) -> float:
        seat = state.to_act
        if seat is None or move.kind is MoveKind.PASS:
            return -0.01  # placing a piece is never worse than declining it, all else equal
        return float(rules.gain(state, seat, move))

    def move_label(self, state: State, move: Move) -> str:
        text = notation.format_move(move)
        if move.kind is MoveKind.PASS:
            return f"{text} — decline the Free Turn's second piece"
        return f"{text} — +{int(self.move_gain(state, move))}"


def position(
    pieces: Sequence[tuple[Seat, str]],
    *,
    to_act: Seat = 0,
    scores: tuple[int, int] = (0, 0),
    options: PuzzOptions | None = None,
    red: Seat = 0,
) -> State:
    """A position built from ``(seat, move text)`` pairs placed without rules or scoring
    (for tests, puzzles and rule examples); ``to_act`` begins a fresh turn."""
    state = State(options=options or PuzzOptions(), scores=scores, red=red)
    for turn, (seat, text) in enumerate(pieces, start=1):
        place = notation.read_place(text)
        cells = place.cells
        squares = list(state.squares)
        squares[seat] = squares[seat] | set(cells)
        placement = Placement(
            seat, place.piece, place.orientation, place.x, place.y, turn, 0, state.colour(seat)
        )
        state = evolve(
            state,
            placements=(*state.placements, placement),
            squares=(squares[0], squares[1]),
            occupied=state.occupied | set(cells),
        )
    return evolve(state, to_act=to_act, turn=len(pieces) + 1)
