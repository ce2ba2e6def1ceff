"""The Tile Up! game object: turns, actions, scoring goal cards, discards and the end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from games.core import Event, Events, Game, GameOptions, Outcome, Seat, rank_by_scores, seeded_rng
from games.errors import IllegalMoveError
from games.tileup import board as geo
from games.tileup.data import (
    CARD_LIMIT,
    CORNERS,
    NEIGHBOURS,
    SIZE,
    TILE_KINDS,
    TILE_LIMIT,
    card_colour,
    card_label,
    card_shape,
    fits_inside,
    shape_of,
    square_name,
    tile_key,
)
from games.tileup.notation import NOTATION_HELP, format_move, parse_text
from games.tileup.setup import new_state
from games.tileup.state import DISCARD, DREW, OVER, PLACED, START, Stack, TileUpMove, TileUpState

SUMMARY = (
    "Tile Up! (2–4 players): stack numbered tiles in three colours on an 11×11 board to form the "
    "shapes on goal cards. On your turn take ONE action: draw a goal card, draw three tiles, or place "
    "any number of tiles (next to a tile on the board, or on top of a different colour with a higher "
    "number). Before, during or after it, score the two face-up cards or your own: a whole same-colour "
    "region of top tiles with exactly the card's shape scores the sum of its stack heights. End your "
    "turn with at most 7 tiles and 3 goal cards. The game ends after the turn that covers all four corners."
)


@dataclass(frozen=True)
class TileUpOptions(GameOptions):
    """Tile Up! has no variants."""


def _active(state: TileUpState) -> int:
    return state.players - len(state.forfeited)


def scorable_cards(state: TileUpState, seat: int) -> tuple[str, ...]:
    """The cards ``seat`` may score, numbered from 1: face-up cards first, then its own."""
    return state.face_up + (state.cards[seat] or ())


def _over_limits(state: TileUpState, seat: int) -> bool:
    return state.tile_counts[seat] > TILE_LIMIT or state.card_counts[seat] > CARD_LIMIT


def _set_hand(
    state: TileUpState,
    seat: int,
    *,
    tiles: tuple[str, ...] | None = None,
    cards: tuple[str, ...] | None = None,
) -> TileUpState:
    if tiles is not None:
        held = list(state.tiles)
        held[seat] = tuple(sorted(tiles, key=tile_key))
        counts = list(state.tile_counts)
        counts[seat] = len(tiles)
        state = replace(state, tiles=tuple(held), tile_counts=tuple(counts))
    if cards is not None:
        held_cards = list(state.cards)
        held_cards[seat] = cards
        card_counts = list(state.card_counts)
        card_counts[seat] = len(cards)
        state = replace(state, cards=tuple(held_cards), card_counts=tuple(card_counts))
    return state


def _take_card(state: TileUpState, events: list[Event]) -> tuple[TileUpState, str | None]:
    """The top goal card, turning the discard pile over (unshuffled) when the deck is empty."""
    deck = state.deck or ()
    if not deck:
        if not state.discards:
            return state, None
        deck = state.discards
        state = replace(state, discards=())
        events.append(Event("info", "the discard pile is turned over as the new goal deck"))
    card, rest = deck[0], deck[1:]
    return replace(state, deck=rest, deck_size=len(rest)), card


def _corner_distance(state: TileUpState, square: int) -> int:
    row, column = divmod(square, SIZE)
    open_corners = [corner for corner in CORNERS if not state.board[corner]] or list(CORNERS)
    return min(abs(row - c // SIZE) + abs(column - c % SIZE) for c in open_corners)


def _leads(state: TileUpState, seat: int) -> bool:
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


def _breaks_match(board: tuple[Stack, ...], cards: tuple[str, ...], move: TileUpMove) -> bool:
    """True when the placement spoils a region that could be scored now."""
    matched = _matched_squares(board, cards)
    if not matched:
        return False
    if move.square in matched:
        return True
    return any(near in matched and board[near][-1][0] == move.tile[0] for near in NEIGHBOURS[move.square])


class TileUpGame(Game[TileUpState, TileUpMove]):
    """Tile Up!: the protocol object registered as ``tileup``."""

    name = "tileup"
    title = "Tile Up!"
    aliases = ("tile-up", "tile", "tile_up", "tileup!")
    min_players = 2
    max_players = 4
    Options = TileUpOptions
    summary = SUMMARY
    notation_help = NOTATION_HELP

    # -- setup -------------------------------------------------------------------------

    def new(
        self, players: int, options: GameOptions | None = None, seed: int | None = None, deal: Any = None
    ) -> TileUpState:
        """A new game: see the package docstring for the set-up and the deal format."""
        if not self.min_players <= players <= self.max_players:
            from games.errors import InvalidOptionsError

            raise InvalidOptionsError(f"Tile Up! is for 2 to 4 players, not {players}.")
        return new_state(players, seed, deal)

    # -- play --------------------------------------------------------------------------

    def to_act(self, state: TileUpState) -> Seat | None:
        """The seat whose turn it is, or None when the game is over."""
        return None if state.over else state.to_act

    def score_moves(self, state: TileUpState) -> list[TileUpMove]:
        """Every card the seat to act can score now, with each matching region."""
        cards = scorable_cards(state, state.to_act)
        if not cards:
            return []
        moves = []
        shaped = geo.shaped_regions(state.board)
        for number, card in enumerate(cards, start=1):
            colour, shape = card_colour(card), card_shape(card)
            for region_colour, region_shape, squares in shaped:
                if region_colour == colour and region_shape == shape:
                    moves.append(TileUpMove("score", square=squares[0], card=number))
        return moves

    def placement_moves(self, state: TileUpState) -> list[TileUpMove]:
        """Every tile of the seat to act on every square it may go."""
        held = set(state.tiles[state.to_act] or ())
        moves: list[TileUpMove] = []
        for tile in TILE_KINDS:
            if tile in held:
                moves.extend(
                    TileUpMove("place", tile, square) for square in geo.legal_squares(state.board, tile)
                )
        return moves

    def _draw_moves(self, state: TileUpState) -> list[TileUpMove]:
        moves = []
        if state.deck_size or state.discards:
            moves.append(TileUpMove("goal"))
        if state.bag_size:
            moves.append(TileUpMove("tiles"))
        return moves

    def _discard_moves(self, state: TileUpState) -> list[TileUpMove]:
        seat = state.to_act
        moves: list[TileUpMove] = []
        if state.tile_counts[seat] > TILE_LIMIT:
            held = state.tiles[seat] or ()
            moves.extend(TileUpMove("discard", tile) for tile in dict.fromkeys(held))
        if state.card_counts[seat] > CARD_LIMIT:
            first = len(state.face_up) + 1
            moves.extend(TileUpMove("discard_goal", card=first + i) for i in range(state.card_counts[seat]))
        return moves

    def legal_moves(self, state: TileUpState) -> list[TileUpMove]:
        """Scores, placements, draws, ``end``; only discards after ``end`` over the limits."""
        if state.over:
            return []
        if state.phase == DISCARD:
            return self._discard_moves(state)
        moves = self.score_moves(state)
        if state.phase in (START, PLACED):
            moves.extend(self.placement_moves(state))
        if state.phase == START:
            actions = self._draw_moves(state)
            moves.extend(actions)
            if not actions and not any(move.kind == "place" for move in moves):
                moves.append(TileUpMove("end"))
        else:
            moves.append(TileUpMove("end"))
        return moves

    # -- notation ----------------------------------------------------------------------

    def parse_move(self, state: TileUpState, text: str) -> TileUpMove:
        """Notation to move (see :mod:`games.tileup.notation`); checks it against the rules."""
        move = parse_text(text)
        if state.over:
            raise IllegalMoveError(f"`{text}`: the game is over.")
        if move.kind == "score":
            move = self._canonical_score(state, text, move)
        if move in self.legal_moves(state):
            return move
        raise IllegalMoveError(f"`{text}`: {self._why_illegal(state, move)}")

    def _canonical_score(self, state: TileUpState, text: str, move: TileUpMove) -> TileUpMove:
        cards = scorable_cards(state, state.to_act)
        if not 1 <= move.card <= len(cards):
            listed = ", ".join(f"{n} {card_label(c)}" for n, c in enumerate(cards, start=1))
            raise IllegalMoveError(f"`{text}`: there is no goal card {move.card}; your cards are {listed}.")
        card = cards[move.card - 1]
        if move.square < 0:
            move = self._only_region(state, text, move, card)
        squares = geo.region(state.board, move.square)
        where = square_name(move.square)
        if not squares:
            raise IllegalMoveError(
                f"`{text}`: {where} is empty; name a square of a {card_label(card)} region."
            )
        colour = state.board[move.square][-1][0]
        if colour != card_colour(card):
            raise IllegalMoveError(
                f"`{text}`: the top tile on {where} is not {card_label(card).split()[0]}; card {move.card} "
                f"is {card_label(card)}."
            )
        if shape_of(squares) != card_shape(card):
            raise IllegalMoveError(
                f"`{text}`: the {card_label(card).split()[0]} region at {where} has {len(squares)} squares "
                f"and is not exactly a {card_shape(card)} (no other tile of its colour may touch the shape)."
            )
        return replace(move, square=squares[0])

    def _only_region(self, state: TileUpState, text: str, move: TileUpMove, card: str) -> TileUpMove:
        """``score N`` without a square: the one region that card ``N`` matches."""
        wanted = (card_colour(card), card_shape(card))
        found = [
            squares for colour, shape, squares in geo.shaped_regions(state.board) if (colour, shape) == wanted
        ]
        if not found:
            raise IllegalMoveError(
                f"`{text}`: no whole {card_label(card)} region is on the board now, so card {move.card} "
                "cannot score."
            )
        if len(found) > 1:
            listed = ", ".join(f"`score {move.card}@{square_name(squares[0])}`" for squares in found)
            raise IllegalMoveError(
                f"`{text}`: card {move.card} matches several regions; choose one: {listed}."
            )
        return replace(move, square=found[0][0])

    def _why_illegal(self, state: TileUpState, move: TileUpMove) -> str:
        seat = state.to_act
        if state.phase == DISCARD:
            return (
                f"you are over the limits (tiles {state.tile_counts[seat]}/7, goal cards "
                f"{state.card_counts[seat]}/3): discard with `discard O4` or `discard goal N`."
            )
        if move.kind == "place":
            if state.phase == DREW:
                return "you drew this turn, so you cannot place tiles; you may score or `end`."
            if move.tile not in (state.tiles[seat] or ()):
                return (
                    f"you have no {move.tile}; your tiles are {', '.join(state.tiles[seat] or ()) or 'none'}."
                )
            problem = geo.placement_problem(state.board, move.tile, move.square)
            return f"{move.tile} cannot go on {square_name(move.square)}: {problem}."
        if move.kind in ("goal", "tiles"):
            if state.phase != START:
                return "you already took your action this turn; you may score or `end`."
            return (
                "there is nothing left to draw." if move.kind == "tiles" else "there are no goal cards left."
            )
        if move.kind in ("discard", "discard_goal"):
            return "you discard only at the end of your turn when over 7 tiles or 3 goal cards."
        if move.kind == "end":
            return "take your action first: `goal`, `tiles` or place a tile like `O4@C5`."
        return "that is not allowed now."

    def format_move(self, state: TileUpState, move: TileUpMove) -> str:
        """The canonical notation of ``move``."""
        return format_move(move)

    # -- applying moves ----------------------------------------------------------------

    def apply(self, state: TileUpState, move: TileUpMove) -> tuple[TileUpState, Events]:
        """The state after ``move`` (legal) and what it caused."""
        seat = state.to_act
        events: list[Event] = []
        handler = {
            "place": self._place,
            "goal": self._draw_goal,
            "tiles": self._draw_tiles,
            "score": self._score,
            "discard": self._discard_tile,
            "discard_goal": self._discard_goal,
            "end": self._end,
        }[move.kind]
        after = handler(state, seat, move, events)
        return replace(after, last_move=format_move(move)), tuple(events)

    def _place(self, state: TileUpState, seat: int, move: TileUpMove, events: list[Event]) -> TileUpState:
        held = list(state.tiles[seat] or ())
        held.remove(move.tile)
        board = list(state.board)
        board[move.square] = (*board[move.square], move.tile)
        highlight = (*state.highlight, move.square) if state.phase == PLACED else (move.square,)
        events.append(Event("info", f"placed {move.tile} on {square_name(move.square)}", seat))
        state = replace(state, board=tuple(board), phase=PLACED, highlight=highlight)
        return _set_hand(state, seat, tiles=tuple(held))

    def _draw_goal(self, state: TileUpState, seat: int, move: TileUpMove, events: list[Event]) -> TileUpState:
        state, card = _take_card(state, events)
        events.append(Event("draw", "drew a goal card", seat))
        cards = (*(state.cards[seat] or ()), card) if card else state.cards[seat] or ()
        return _set_hand(replace(state, phase=DREW), seat, cards=cards)

    def _draw_tiles(
        self, state: TileUpState, seat: int, move: TileUpMove, events: list[Event]
    ) -> TileUpState:
        bag = state.bag or ()
        taken, rest = bag[:3], bag[3:]
        events.append(Event("draw", f"drew {len(taken)} tile{'s' if len(taken) != 1 else ''}", seat))
        state = replace(state, bag=rest, bag_size=len(rest), phase=DREW)
        return _set_hand(state, seat, tiles=(*(state.tiles[seat] or ()), *taken))

    def _score(self, state: TileUpState, seat: int, move: TileUpMove, events: list[Event]) -> TileUpState:
        card = scorable_cards(state, seat)[move.card - 1]
        squares = geo.region(state.board, move.square)
        gained = geo.points(state.board, squares)
        scores = list(state.scores)
        scores[seat] += gained
        events.append(Event("score", f"{card_label(card)} +{gained}", seat, gained))
        state = replace(state, scores=tuple(scores))
        if move.card <= len(state.face_up):
            slot = move.card - 1
            state, new_card = _take_card(state, events)
            face_up = list(state.face_up)
            if new_card is None:
                del face_up[slot]
            else:
                face_up[slot] = new_card
                events.append(Event("info", f"face-up card {move.card} is now {card_label(new_card)}"))
            state = replace(state, face_up=tuple(face_up))
        else:
            own = list(state.cards[seat] or ())
            own.remove(card)
            state = _set_hand(state, seat, cards=tuple(own))
        return replace(state, discards=(*state.discards, card))

    def _discard_tile(
        self, state: TileUpState, seat: int, move: TileUpMove, events: list[Event]
    ) -> TileUpState:
        return self._after_discard(self._drop_tile(state, seat, move, events), seat, events)

    def _drop_tile(self, state: TileUpState, seat: int, move: TileUpMove, events: list[Event]) -> TileUpState:
        held = list(state.tiles[seat] or ())
        held.remove(move.tile)
        bag = [*(state.bag or ()), move.tile]
        shuffles = state.shuffles
        if state.seed is not None:
            seeded_rng(state.seed, "bag", shuffles).shuffle(bag)
            shuffles += 1
        events.append(Event("info", f"discarded {move.tile} into the bag", seat))
        state = replace(state, bag=tuple(bag), bag_size=len(bag), shuffles=shuffles)
        return _set_hand(state, seat, tiles=tuple(held))

    def _discard_goal(
        self, state: TileUpState, seat: int, move: TileUpMove, events: list[Event]
    ) -> TileUpState:
        return self._after_discard(self._drop_goal(state, seat, move, events), seat, events)

    def _drop_goal(self, state: TileUpState, seat: int, move: TileUpMove, events: list[Event]) -> TileUpState:
        own = list(state.cards[seat] or ())
        card = own.pop(move.card - len(state.face_up) - 1)
        events.append(Event("info", f"discarded goal card {card_label(card)}", seat))
        state = replace(state, discards=(*state.discards, card))
        return _set_hand(state, seat, cards=tuple(own))

    def _after_discard(self, state: TileUpState, seat: int, events: list[Event]) -> TileUpState:
        return state if _over_limits(state, seat) else self._finish_turn(state, events)

    def _end(self, state: TileUpState, seat: int, move: TileUpMove, events: list[Event]) -> TileUpState:
        if _over_limits(state, seat):
            events.append(
                Event(
                    "info",
                    f"must discard down to {TILE_LIMIT} tiles and {CARD_LIMIT} goal cards to end the turn",
                    seat,
                )
            )
            return replace(state, phase=DISCARD)
        return self._finish_turn(state, events)

    def _finish_turn(self, state: TileUpState, events: list[Event]) -> TileUpState:
        placed = state.phase == PLACED
        if all(state.board[corner] for corner in CORNERS):
            return self._game_over(state, "all four corners are covered", events)
        idle = 0 if placed else state.idle_turns + 1
        idle_empty = 0 if placed or state.bag_size else state.idle_empty_turns + 1
        state = replace(state, idle_turns=idle, idle_empty_turns=idle_empty)
        active = _active(state)
        if idle_empty >= active:
            return self._game_over(state, "a full round passed with no tile placed and the bag empty", events)
        if idle >= 3 * active:
            return self._game_over(state, "three full rounds passed with no tile placed", events)
        return replace(state, to_act=self._next_seat(state, state.to_act), phase=START, turn=state.turn + 1)

    def _next_seat(self, state: TileUpState, seat: int) -> int:
        for step in range(1, state.players + 1):
            candidate = (seat + step) % state.players
            if candidate not in state.forfeited:
                return candidate
        return seat

    def _game_over(self, state: TileUpState, reason: str, events: list[Event]) -> TileUpState:
        best = max(score for seat, score in enumerate(state.scores) if seat not in state.forfeited)
        winners = [
            f"seat {s + 1}"
            for s, score in enumerate(state.scores)
            if score == best and s not in state.forfeited
        ]
        events.append(Event("game_end", f"the game is over: {reason}; winner: {', '.join(winners)}"))
        return replace(state, phase=OVER, reason=reason)

    # -- end, forfeits, timeouts -------------------------------------------------------

    def on_timeout(self, state: TileUpState) -> tuple[TileUpState, Events]:
        """Out of time, the turn ends as it stands (no forfeit): with no action taken it is a
        turn without one; over the limits, the lowest-numbered tiles and the last-drawn goal
        cards are discarded for the player."""
        if state.over:
            return state, ()
        seat = state.to_act
        events = [Event("timeout", f"seat {seat + 1} ran out of time: the turn ends", seat)]
        while state.tile_counts[seat] > TILE_LIMIT:
            lowest = min(state.tiles[seat] or (), key=lambda tile: (tile[1], tile_key(tile)))
            state = self._drop_tile(state, seat, TileUpMove("discard", lowest), events)
        while state.card_counts[seat] > CARD_LIMIT:
            last = len(state.face_up) + state.card_counts[seat]
            state = self._drop_goal(state, seat, TileUpMove("discard_goal", card=last), events)
        state = self._finish_turn(state, events)
        return replace(state, last_move="!timeout"), tuple(events)

    def outcome(self, state: TileUpState) -> Outcome | None:
        """Highest score wins, ties share; forfeited seats rank last."""
        if not state.over:
            return None
        ranks = rank_by_scores(state.scores, forfeited=state.forfeited)
        return Outcome(state.scores, ranks, state.reason, state.forfeited)

    def scores(self, state: TileUpState) -> tuple[int, ...]:
        """Every seat's points."""
        return state.scores

    def resign(self, state: TileUpState, seat: Seat) -> tuple[TileUpState, Events]:
        """``seat`` forfeits; the others play on while two or more remain."""
        if state.over or seat in state.forfeited:
            return state, ()
        events = [Event("forfeit", f"seat {seat + 1} forfeits", seat)]
        after = replace(state, forfeited=state.forfeited | {seat}, last_move="!resign")
        if _active(after) <= 1:
            return self._game_over(after, "the other players forfeited", events), tuple(events)
        if after.to_act == seat:
            after = self._finish_turn(after, events)
        return after, tuple(events)

    # -- hidden information ------------------------------------------------------------

    def view(self, state: TileUpState, seat: Seat | None) -> TileUpState:
        """Other seats' tiles and cards, the bag and deck order and the seed are removed."""
        tiles = tuple(held if index == seat else None for index, held in enumerate(state.tiles))
        cards = tuple(held if index == seat else None for index, held in enumerate(state.cards))
        return replace(state, tiles=tiles, cards=cards, bag=None, deck=None, seed=None, shuffles=0)

    def hand(self, state: TileUpState, seat: Seat) -> tuple[str, ...] | None:
        """``seat``'s tiles (``O4``) and goal cards (``goal 3: orange L4``), or None if hidden."""
        tiles, cards = state.tiles[seat], state.cards[seat]
        if tiles is None or cards is None:
            return None
        first = len(state.face_up) + 1
        return (*tiles, *(f"goal {first + i}: {card_label(card)}" for i, card in enumerate(cards)))

    # -- presentation and AI -----------------------------------------------------------

    def describe(self, state: TileUpState, names: Sequence[str]) -> str:
        """Turn step, tile and card counts, the face-up cards, bag and deck sizes."""
        parts = [self._step_text(state, names)]
        parts.append(
            "holding: "
            + ", ".join(
                f"{names[s]} {state.tile_counts[s]} tiles/{state.card_counts[s]} cards"
                for s in range(state.players)
                if s not in state.forfeited
            )
        )
        face = ", ".join(f"{n} {card_label(card)}" for n, card in enumerate(state.face_up, start=1))
        parts.append(f"face up: {face or 'none'}")
        parts.append(f"bag {state.bag_size} · goal deck {state.deck_size} · discards {len(state.discards)}")
        return parts[0] + "\n" + " · ".join(parts[1:])

    def _step_text(self, state: TileUpState, names: Sequence[str]) -> str:
        if state.over:
            return f"game over ({state.reason})"
        seat = state.to_act
        who = names[seat]
        left = state.tile_counts[seat]
        steps = {
            START: "take one action (`goal`, `tiles` or place tiles like `O4@C5`), score cards any time, "
            "then `end`",
            DREW: "action taken: score cards or `end`",
            PLACED: f"placing: place more tiles ({left} in hand), score cards or `end`"
            if left
            else "placing: no tiles left, score cards or `end`",
            DISCARD: f"over the limits ({left} tiles, {state.card_counts[seat]} goal cards): `discard` down "
            f"to {TILE_LIMIT} tiles and {CARD_LIMIT} goal cards",
        }
        text = f"{who}: {steps[state.phase]}"
        if state.phase != DISCARD:
            ready = [
                f"`{format_move(move)}` +{geo.points(state.board, geo.region(state.board, move.square))}"
                for move in self.score_moves(state)
                if move.card <= len(state.face_up)
            ]
            if ready:
                text += f" · face-up cards ready: {', '.join(ready)}"
        return text

    def move_gain(self, state: TileUpState, move: TileUpMove) -> float:
        """Points for a score; a small heuristic for the rest (placements that set up a card)."""
        seat = state.to_act
        if move.kind == "score":
            return float(geo.points(state.board, geo.region(state.board, move.square)))
        if move.kind == "place":
            return self._placement_gain(state, seat, move)
        if move.kind == "tiles":
            return 0.15 if state.tile_counts[seat] < 3 else 0.05
        if move.kind == "goal":
            return 0.1 if state.card_counts[seat] < 2 else 0.0
        if move.kind == "discard":
            return -0.01 * int(move.tile[1])
        return 0.0

    def _placement_gain(self, state: TileUpState, seat: int, move: TileUpMove) -> float:
        stack = state.board[move.square]
        if stack:
            gain = 0.15 + 0.02 * len(stack)
        else:
            # The leader heads for the open corners to close the game; the others keep away.
            closeness = 1 - _corner_distance(state, move.square) / 20
            gain = 0.2 + (0.1 * closeness if _leads(state, seat) else 0.05 * (1 - closeness))
        squares = geo.region_after(state.board, move.tile, move.square)
        enabled = self._enabled_card(state, seat, move, squares)
        if enabled is not None:
            gain += 0.5 + min(enabled[1], 20) / 100
        elif _breaks_match(state.board, scorable_cards(state, seat), move):
            gain -= 0.3
        else:
            gain += self._progress(state, seat, move, squares)
        return gain

    def _progress(self, state: TileUpState, seat: int, move: TileUpMove, squares: tuple[int, ...]) -> float:
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

    def _enabled_card(
        self, state: TileUpState, seat: int, move: TileUpMove, squares: tuple[int, ...] | None = None
    ) -> tuple[str, int] | None:
        """The card (and its points) the placement would make scorable, if any."""
        if squares is None:
            squares = geo.region_after(state.board, move.tile, move.square)
        shape = shape_of(squares)
        if shape is None:
            return None
        for card in scorable_cards(state, seat):
            if card_colour(card) == move.tile[0] and card_shape(card) == shape:
                return card, geo.points(state.board, squares) + 1
        return None

    def move_label(self, state: TileUpState, move: TileUpMove) -> str:
        """Notation plus points for scores and what a placement sets up."""
        text = format_move(move)
        seat = state.to_act
        if move.kind == "score":
            card = scorable_cards(state, seat)[move.card - 1]
            gained = geo.points(state.board, geo.region(state.board, move.square))
            return f"{text} — +{gained} ({card_label(card)})"
        if move.kind == "place":
            enabled = self._enabled_card(state, seat, move)
            if enabled is not None:
                return f"{text} — makes {card_label(enabled[0])} (+{enabled[1]})"
            return text
        labels = {
            "goal": "goal — draw a goal card",
            "tiles": f"tiles — draw {min(3, state.bag_size)} tiles",
            "end": "end — end your turn",
        }
        return labels.get(move.kind, text)


GAME = TileUpGame()
