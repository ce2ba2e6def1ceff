"""Tile Up! notation: text <-> moves, and why a well-formed move is not legal now.

Canonical forms: ``goal``, ``tiles``, ``O4@C5``, ``score 2@E6``, ``discard O4``,
``discard goal 3``, ``end``. Relaxed forms: any case and spacing, a space instead of ``@``
(``o4 c5``, ``score 2 e6``), ``2@E6`` without ``score``, ``score 2`` without a square
(accepted when card 2 matches exactly one region), ``draw goal`` / ``card`` for ``goal``,
``draw`` / ``draw tiles`` for ``tiles``, ``discard 3`` / ``discard card 3`` for
``discard goal 3``, ``done`` for ``end``. The parser reads words and splits at most once: it is
linear in its input.
"""

from __future__ import annotations

from games.core import counted, evolve
from games.errors import IllegalMoveError, InvalidMoveError, quote
from games.tileup import board as geo
from games.tileup.data import (
    CARD_LIMIT,
    COLOUR_NAMES,
    SQUARES,
    TILE_LIMIT,
    card_colour,
    card_label,
    card_shape,
    parse_square,
    parse_tile,
    shape_of,
    square_name,
)
from games.tileup.rules import scorable_cards
from games.tileup.state import Move, MoveKind, State, Step

NOTATION_HELP = (
    "One move per command; a turn ends with `end`. Actions (one a turn): `goal` (draw a goal card), "
    "`tiles` (draw three tiles) or place tiles one at a time like `O4@C5` (tile O4 on square C5; "
    "colours O, B, P; columns A–K, rows 1–11). Score any time in your turn: `score 2@E6` (goal card 2 "
    "with the region holding E6; face-up cards are 1 and 2, yours follow). When over 7 tiles or "
    "3 goal cards after `end`: `discard O4` or `discard goal 3`."
)

_GOAL_WORDS = {"goal", "draw goal", "card", "draw card", "draw goal card", "goal card"}
_TILE_WORDS = {"tiles", "draw", "draw tiles", "draw 3", "draw three", "draw 3 tiles"}
_END_WORDS = {"end", "done", "end turn"}
_CARD_PREFIXES = ("goal", "card", "g", "#")


# -- reading -----------------------------------------------------------------------------------


def _bad(text: str, why: str) -> InvalidMoveError:
    return InvalidMoveError(f"{quote(text)}: {why}. {NOTATION_HELP}")


def _shown(token: str) -> str:
    """A piece of the input inside a message (upper case, at most 8 characters, no backticks)."""
    token = token.upper().replace("`", "'")
    return token if len(token) <= 8 else token[:7] + "…"


def _number(token: str) -> int | None:
    """``3`` or ``#3`` -> 3 (ASCII digits only), else None."""
    token = token.removeprefix("#")
    return int(token) if token.isascii() and token.isdigit() else None


def _pair(words: str) -> tuple[str, str] | None:
    """``a@b`` or ``a b`` (spaces around ``@`` allowed) -> ``(a, b)``, else None."""
    if "@" in words:
        first, _, second = words.partition("@")
        first, second = first.strip(), second.strip()
    else:
        first, _, second = words.partition(" ")
    if not first or not second or " " in first or " " in second or "@" in second:
        return None
    return first, second


def _square(text: str, raw: str) -> int:
    square = parse_square(raw)
    if square is None:
        raise InvalidMoveError(f"{quote(text)}: there is no square {_shown(raw)}; squares are A1 to K11.")
    return square


def _score(text: str, rest: str) -> Move:
    alone = _number(rest)
    if alone is not None:
        return Move(MoveKind.SCORE, card=alone)
    pair = _pair(rest)
    number = _number(pair[0]) if pair else None
    if pair is None or number is None:
        raise _bad(text, "write a score as `score 2@E6` (card number, then a square of the region)")
    return Move(MoveKind.SCORE, card=number, square=_square(text, pair[1]))


def _discard(text: str, rest: str) -> Move:
    tile = parse_tile(rest)
    if tile is not None:
        return Move(MoveKind.DISCARD, tile=tile)
    for prefix in _CARD_PREFIXES:
        if rest.startswith(prefix):
            rest = rest[len(prefix) :].strip()
            break
    number = _number(rest.strip())
    if number is not None:
        return Move(MoveKind.DISCARD_GOAL, card=number)
    raise _bad(text, "write a discard as `discard O4` (a tile) or `discard goal 3` (a goal card)")


def _placement_or_score(text: str, first: str, second: str) -> Move:
    number = _number(first)
    if number is not None:
        return Move(MoveKind.SCORE, card=number, square=_square(text, second))
    tile = parse_tile(first)
    if tile is None:
        raise InvalidMoveError(
            f"{quote(text)}: {_shown(first)} is not a tile; a tile is a colour letter (O, B, P) and a "
            "number 1–5, like `O4@C5`."
        )
    return Move(MoveKind.PLACE, tile=tile, square=_square(text, second))


def parse_text(text: str) -> Move:
    """The move ``text`` writes, by syntax alone (a score's square may be any square of the
    region, or missing)."""
    words = " ".join(text.lower().split())
    if not words:
        raise _bad(text, "the move is empty")
    if words in _GOAL_WORDS:
        return Move(MoveKind.GOAL)
    if words in _TILE_WORDS:
        return Move(MoveKind.TILES)
    if words in _END_WORDS:
        return Move(MoveKind.END)
    if words.startswith("score"):
        return _score(text, words[5:].strip())
    if words.startswith("discard"):
        return _discard(text, words[7:].strip())
    pair = _pair(words)
    if pair is None:
        raise _bad(text, "this is not a move")
    return _placement_or_score(text, *pair)


def parse_move(state: State, text: str) -> Move:
    """The move ``text`` writes in ``state``: a score names its region by the region's first
    square (reading order). Raises ``InvalidMoveError``, or ``IllegalMoveError`` for a score
    that cannot be made (with the reason)."""
    move = parse_text(text)
    if move.kind != MoveKind.SCORE or state.step == Step.DISCARD:
        return move
    if move.square < 0:
        move = _only_region(state, text, move)
    problem = score_problem(state, move)
    if problem is not None:
        raise IllegalMoveError(f"{quote(text)}: {problem}.")
    return evolve(move, square=geo.region(state.board, move.square)[0])


def _only_region(state: State, text: str, move: Move) -> Move:
    """``score N`` without a square: the one region that card ``N`` matches."""
    cards = scorable_cards(state, state.to_act)
    if not 1 <= move.card <= len(cards):
        return move  # score_problem says which cards there are
    card = cards[move.card - 1]
    wanted = (card_colour(card), card_shape(card))
    shaped = geo.shaped_regions(state.board)
    found = [squares for colour, shape, squares in shaped if (colour, shape) == wanted]
    if not found:
        raise IllegalMoveError(
            f"{quote(text)}: no whole {card_label(card)} region is on the board now, so card {move.card} "
            "cannot score."
        )
    if len(found) > 1:
        listed = ", ".join(f"`score {move.card}@{square_name(squares[0])}`" for squares in found)
        raise IllegalMoveError(
            f"{quote(text)}: card {move.card} matches several regions; choose one: {listed}."
        )
    return evolve(move, square=found[0][0])


def score_problem(state: State, move: Move) -> str | None:
    """Why card ``move.card`` cannot score the region at ``move.square`` now, or None when it can."""
    cards = scorable_cards(state, state.to_act)
    if not 1 <= move.card <= len(cards):
        listed = ", ".join(f"{n} {card_label(c)}" for n, c in enumerate(cards, start=1)) or "none"
        return f"there is no goal card {move.card}; your cards are {listed}"
    card = cards[move.card - 1]
    if not 0 <= move.square < SQUARES:
        return f"name a square of a {card_label(card)} region, like `score {move.card}@E6`"
    squares = geo.region(state.board, move.square)
    where = square_name(move.square)
    colour = COLOUR_NAMES[card_colour(card)]
    if not squares:
        return f"{where} is empty; name a square of a {card_label(card)} region"
    if state.board[move.square][-1][0] != card_colour(card):
        return f"the top tile on {where} is not {colour}; card {move.card} is {card_label(card)}"
    if shape_of(squares) != card_shape(card):
        return (
            f"the {colour} region at {where} has {counted(len(squares), 'square')} and is not exactly a "
            f"{card_shape(card)} (no other tile of its colour may touch the shape)"
        )
    return None


# -- writing -----------------------------------------------------------------------------------


def format_move(move: Move) -> str:
    """The canonical notation of ``move``."""
    if move.kind == MoveKind.PLACE:
        return f"{move.tile}@{square_name(move.square)}"
    if move.kind == MoveKind.SCORE:
        return f"score {move.card}@{square_name(move.square)}" if move.square >= 0 else f"score {move.card}"
    if move.kind == MoveKind.DISCARD:
        return f"discard {move.tile}"
    if move.kind == MoveKind.DISCARD_GOAL:
        return f"discard goal {move.card}"
    return str(move.kind)


# -- refusing ----------------------------------------------------------------------------------


def why_illegal(state: State, move: Move) -> str:
    """Why ``move`` (well formed) is not legal now, quoting it and saying what is."""
    return f"{quote(format_move(move))}: {_reason(state, move)}."


def _reason(state: State, move: Move) -> str:
    if state.step == Step.DISCARD:
        return _discard_reason(state, move)
    if move.kind == MoveKind.PLACE:
        return _placement_reason(state, move)
    if move.kind in (MoveKind.GOAL, MoveKind.TILES):
        if state.step != Step.START:
            return "you already took your action this turn; you may score or `end`"
        return "the bag is empty" if move.kind == MoveKind.TILES else "there are no goal cards left"
    if move.kind in (MoveKind.DISCARD, MoveKind.DISCARD_GOAL):
        return "you discard only at the end of your turn when over 7 tiles or 3 goal cards"
    if move.kind == MoveKind.END:
        return "take your action first: `goal`, `tiles` or place a tile like `O4@C5`"
    if move.kind == MoveKind.SCORE:
        problem = score_problem(state, move)
        if problem is not None:
            return problem
        first = geo.region(state.board, move.square)[0]
        return f"name the region by its first square: `score {move.card}@{square_name(first)}`"
    return "that is not allowed now"


def _placement_reason(state: State, move: Move) -> str:
    held = state.tiles[state.to_act] or ()
    if state.step == Step.DREW:
        return "you drew this turn, so you cannot place tiles; you may score or `end`"
    if move.tile not in held:
        return f"you have no {move.tile}; your tiles are {', '.join(held) or 'none'}"
    if not 0 <= move.square < SQUARES:
        return "there is no such square; squares are A1 to K11"
    problem = geo.placement_problem(state.board, move.tile, move.square)
    return f"{move.tile} cannot go on {square_name(move.square)}: {problem}"


def _discard_reason(state: State, move: Move) -> str:
    seat = state.to_act
    limits = (
        f"you are over the limits (tiles {state.tile_counts[seat]}/{TILE_LIMIT}, goal cards "
        f"{state.card_counts[seat]}/{CARD_LIMIT}): discard with `discard O4` or `discard goal N`"
    )
    if move.kind == MoveKind.DISCARD and state.tile_counts[seat] > TILE_LIMIT:
        return f"you have no {move.tile}; your tiles are {', '.join(state.tiles[seat] or ())}"
    if move.kind == MoveKind.DISCARD_GOAL and state.card_counts[seat] > CARD_LIMIT:
        first = len(state.face_up) + 1
        return f"your goal cards are {first} to {first + state.card_counts[seat] - 1}"
    return limits
