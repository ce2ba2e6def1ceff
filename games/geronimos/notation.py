"""Geronimos notation: ``532641@2,-1`` (the card as laid, read from side 0, then the cell),
``L@2,-1`` for a Leader, a ``^`` suffix to stack, ``@2,-1`` alone when one rotation fits, and
``discard``.
"""

from __future__ import annotations

import re

from games.errors import IllegalMoveError, InvalidMoveError
from games.geronimos.cards import LEADER, is_laid_card, unlaid
from games.geronimos.hexgrid import Cell, format_cell, full_rings
from games.geronimos.rules import contacts, side_clashes
from games.geronimos.state import DISCARD, Move, State

MOVE_PATTERN = re.compile(
    r"^(?P<card>\d{6}|[lL])?\s*@\s*\(?\s*(?P<q>[+-]?\d+)\s*,\s*(?P<r>[+-]?\d+)\s*\)?\s*(?P<stack>\^)?$"
)
HOW = (
    "write the card as laid, read clockwise from side 0, then @q,r (e.g. `532641@2,-1`), "
    "`L@2,-1` for a Leader, add `^` to stack (`532641@2,-1^`), or `discard`"
)
LISTED = 8


def format_move(move: Move) -> str:
    """The canonical text of ``move``."""
    if move.cell is None:
        return "discard"
    return f"{move.laid}@{format_cell(move.cell)}{'^' if move.stack else ''}"


def listing(moves: tuple[Move, ...] | list[Move]) -> str:
    """A short list of moves for an error message."""
    shown = ", ".join(f"`{format_move(move)}`" for move in moves[:LISTED])
    more = len(moves) - LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def fits_summary(state: State) -> str:
    """Where the drawn card may go, for error messages."""
    legal = state.legal
    if legal == (DISCARD,):
        return f"{state.drawn} fits nowhere, so the only move is `discard`."
    return f"{state.drawn} fits at: {listing(list(legal))}."


def parse_move(state: State, text: str) -> Move:
    """Read a move for the seat to act; raises with what would be legal instead."""
    raw = text.strip()
    if state.finished:
        raise IllegalMoveError(f"`{raw}`: the game is over ({state.reason}).")
    if raw.lower() == "discard":
        if state.legal == (DISCARD,):
            return DISCARD
        raise IllegalMoveError(
            f"`{raw}`: your card {state.drawn} has a legal place, so it must be played; {fits_summary(state)}"
        )
    match = MOVE_PATTERN.match(raw.replace(" ", ""))
    if match is None:
        raise InvalidMoveError(f"`{raw}` is not a Geronimos move: {HOW}.")
    cell = (int(match["q"]), int(match["r"]))
    card_text = match["card"]
    stack = bool(match["stack"]) or cell in state.tops
    if match["stack"] and cell not in state.tops:
        where = format_cell(cell)
        raise IllegalMoveError(f"`{raw}`: {where} is empty, there is nothing to stack on; drop the `^`.")
    if card_text is None:
        return _cell_only(state, raw, cell, stack)
    if card_text.upper() == LEADER:
        if state.drawn != LEADER:
            fits = fits_summary(state)
            raise IllegalMoveError(f"`{raw}`: your card is {state.drawn}, not a Leader; {fits}")
        move = Move(LEADER, cell, stack)
    else:
        if not is_laid_card(card_text):
            raise InvalidMoveError(f"`{raw}`: a card shows each number 1 to 6 exactly once; {HOW}.")
        card, _ = unlaid(card_text)
        if card != state.drawn:
            raise IllegalMoveError(
                f"`{raw}`: that is card {card}, but the card you must play is {state.drawn}; "
                f"{fits_summary(state)}"
            )
        move = Move(card_text, cell, stack)
    if move in state.legal:
        return move
    raise IllegalMoveError(f"`{raw}`: {why_not(state, move)}; {fits_summary(state)}")


def _cell_only(state: State, raw: str, cell: Cell, stack: bool) -> Move:
    options = [move for move in state.legal if move.cell == cell and move.stack == stack]
    if len(options) == 1:
        return options[0]
    where = format_cell(cell)
    if not options:
        raise IllegalMoveError(f"`{raw}`: {state.drawn} does not fit at {where}; {fits_summary(state)}")
    raise IllegalMoveError(
        f"`{raw}`: {state.drawn} fits at {where} in {len(options)} ways: {listing(options)}; "
        "write one of them."
    )


def why_not(state: State, move: Move) -> str:
    """Why a well-formed placement of the drawn card is not legal."""
    assert move.cell is not None
    cell = move.cell
    where = format_cell(cell)
    tops = state.tops
    if move.stack:
        top = tops[cell]
        if state.opening:
            return "the start card is laid next to the first card, not on it"
        if top.owner == state.turn:
            return f"the top card at {where} is your own; you may only stack on the opponent's identical card"
        return (
            "you may only stack on the opponent's identical card in the same rotation, "
            f"and {where} shows {top.text}"
        )
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
    ring_note = f"only ring {full + 1} may (rings 0 to {full} are full)" if full >= 0 else ""
    return f"{where} touches just one card; a card must touch at least two cards ({ring_note})"
