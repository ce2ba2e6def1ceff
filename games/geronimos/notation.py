"""Geronimos notation: ``532641@2,-1`` (the card as laid, read from side 0, then the cell),
``L@2,-1`` for a Leader, a ``^`` suffix to stack, ``@2,-1`` alone when one rotation fits,
``discard``, and ``bonus`` / ``stop`` to draw the next bonus card or decline the rest.

The parser reads the text once from left to right (no regular expressions).
"""

from __future__ import annotations

from games.errors import IllegalMoveError, InvalidMoveError, quote
from games.geronimos.cards import LEADER, is_laid_card, unlaid
from games.geronimos.hexgrid import Cell, format_cell, full_rings
from games.geronimos.rules import contacts, legal_moves, side_clashes
from games.geronimos.state import BONUS, DISCARD, STOP, Move, MoveKind, State

HOW = (
    "write the card as laid, read clockwise from side 0, then @q,r (e.g. `532641@2,-1`), "
    "`L@2,-1` for a Leader, add `^` to stack (`532641@2,-1^`), or `discard`"
)
WORDS = {"discard": DISCARD, "bonus": BONUS, "stop": STOP, "done": STOP}
"""The moves written as a word (``done`` is another way to write ``stop``)."""
LISTED = 8


def format_move(move: Move) -> str:
    """The canonical text of ``move``."""
    if move.kind is not MoveKind.PLACE:
        return str(move.kind)
    assert move.cell is not None
    return f"{move.laid}@{format_cell(move.cell)}{'^' if move.stack else ''}"


def listing(moves: tuple[Move, ...] | list[Move]) -> str:
    """A short list of moves for an error message."""
    shown = ", ".join(f"`{format_move(move)}`" for move in moves[:LISTED])
    more = len(moves) - LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def fits_summary(state: State) -> str:
    """What the seat to act may do, for error messages."""
    if state.deciding:
        return bonus_choice(state)
    legal = legal_moves(state)
    if legal == (DISCARD,):
        return f"{state.drawn} fits nowhere, so the only move is `discard`."
    return f"{state.drawn} fits at: {listing(list(legal))}."


def bonus_choice(state: State) -> str:
    """What a player deciding on a bonus card may write."""
    offer = bonus_offer(state.bonus_left)
    return f"you may draw {offer}: write `bonus` to draw the next one or `stop` to end your turn."


def bonus_offer(left: int) -> str:
    """The bonus cards on offer, in words."""
    return "a bonus card" if left == 1 else f"{left} bonus cards, one at a time"


# -- reading --------------------------------------------------------------------------------


def parse_move(state: State, text: str) -> Move:
    """Read a move (stripped, at most 64 characters) for the seat to act; raises with what
    would be legal instead. The base class checks that the move is legal."""
    word = WORDS.get(text.lower())
    if word is not None:
        return word
    compact = "".join(text.split())
    card_text, at, cell_text = compact.partition("@")
    if not at:
        raise InvalidMoveError(f"{quote(text)} is not a Geronimos move: {HOW}.")
    stack = cell_text.endswith("^")
    cell = read_cell(text, cell_text[:-1] if stack else cell_text)
    if state.deciding:
        raise IllegalMoveError(f"{quote(text)}: first decide on your bonus card; {bonus_choice(state)}")
    if stack and cell not in state.tops:
        raise IllegalMoveError(
            f"{quote(text)}: {format_cell(cell)} is empty, there is nothing to stack on; drop the `^`."
        )
    stack = stack or cell in state.tops  # laying on an occupied cell can only be a stack
    if not card_text:
        return only_rotation(state, text, cell, stack)
    return Move.place(read_card(state, text, card_text), cell, stack)


def read_cell(text: str, cell_text: str) -> Cell:
    """``q,r`` (optionally in brackets) to a cell."""
    if cell_text.startswith("(") and cell_text.endswith(")"):
        cell_text = cell_text[1:-1]
    q_text, comma, r_text = cell_text.partition(",")
    q, r = read_int(q_text), read_int(r_text)
    if not comma or q is None or r is None:
        raise InvalidMoveError(f"{quote(text)} is not a Geronimos move: the cell is written q,r; {HOW}.")
    return q, r


def read_int(text: str) -> int | None:
    """A whole number written with ASCII digits and an optional sign, else None."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not digits or not (digits.isascii() and digits.isdigit()):
        return None
    return int(text)


def read_card(state: State, text: str, card_text: str) -> str:
    """The laid card of a placement (``L`` for a Leader); it must be the card drawn."""
    if card_text.upper() == LEADER:
        if state.drawn != LEADER:
            fits = fits_summary(state)
            raise IllegalMoveError(f"{quote(text)}: your card is {state.drawn}, not a Leader; {fits}")
        return LEADER
    if not is_laid_card(card_text):
        raise InvalidMoveError(f"{quote(text)}: a card shows each number 1 to 6 exactly once; {HOW}.")
    card, _ = unlaid(card_text)
    if card != state.drawn:
        drawn = "a Leader" if state.drawn == LEADER else state.drawn
        fits = fits_summary(state)
        said = quote(text)
        raise IllegalMoveError(f"{said}: that is card {card}, but the card you must play is {drawn}; {fits}")
    return card_text


def only_rotation(state: State, text: str, cell: Cell, stack: bool) -> Move:
    """``@q,r``: the placement at ``cell`` when only one rotation fits there."""
    options = [move for move in legal_moves(state) if move.cell == cell and move.stack == stack]
    if len(options) == 1:
        return options[0]
    where = format_cell(cell)
    if not options:
        raise IllegalMoveError(f"{quote(text)}: {state.drawn} does not fit at {where}; {fits_summary(state)}")
    raise IllegalMoveError(
        f"{quote(text)}: {state.drawn} fits at {where} in {len(options)} ways: {listing(options)}; "
        "write one of them."
    )


# -- why a move is not legal ------------------------------------------------------------------


def why_illegal(state: State, move: Move) -> str:
    """Why a well-formed ``move`` is not legal now, quoting it and saying what is."""
    said = quote(format_move(move))
    if state.deciding:
        return f"{said}: first decide on your bonus card; {bonus_choice(state)}"
    if move.kind in (MoveKind.BONUS, MoveKind.STOP):
        return f"{said}: there is no bonus card on offer now; {fits_summary(state)}"
    if move.kind is MoveKind.DISCARD:
        fits = fits_summary(state)
        return f"{said}: your card {state.drawn} has a legal place, so it must be played; {fits}"
    card = LEADER if move.laid == LEADER else unlaid(move.laid)[0]
    if card != state.drawn:
        return f"{said}: that is not your card ({state.drawn}); {fits_summary(state)}"
    return f"{said}: {why_not(state, move)}; {fits_summary(state)}"


def why_not(state: State, move: Move) -> str:
    """Why a placement of the drawn card is not legal."""
    assert move.cell is not None
    cell = move.cell
    where = format_cell(cell)
    tops = state.tops
    if move.stack:
        return why_no_stack(state, move, cell)
    if cell in tops:
        return f"{where} is taken; add `^` to lay on top of a card"
    touching = contacts(tops, cell)
    if not touching:
        return f"{where} is not next to the table; a card must butt up against other cards"
    card, rotation = unlaid(move.laid)
    clashes = side_clashes(card, rotation, touching)
    if clashes:
        listed = ", ".join(str(side) for side in clashes)
        verb = "do" if len(clashes) > 1 else "does"
        sides = "sides" if len(clashes) > 1 else "side"
        return f"{sides} {listed} of {move.laid} {verb} not match the cards they touch"
    full = full_rings(tops)
    ring_note = f" (only ring {full + 1} may: rings 0 to {full} are full)" if full >= 0 else ""
    return f"{where} touches just one card; a card must touch at least two cards{ring_note}"


def why_no_stack(state: State, move: Move, cell: Cell) -> str:
    """Why the drawn card may not go on top of the card at ``cell``."""
    where = format_cell(cell)
    top = state.tops.get(cell)
    if top is None:
        return f"{where} is empty, there is nothing to stack on"
    if state.opening:
        return "the start card is laid next to the first card, not on it"
    if top.owner == state.turn:
        return f"the top card at {where} is your own; you may only stack on the opponent's identical card"
    return (
        "you may only stack on the opponent's identical card in the same rotation, "
        f"and {where} shows {top.text}"
    )
