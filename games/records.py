"""Game records: a header and the moves in canonical notation; replaying one rebuilds the game.

The text form::

    # Tilehost record
    game: triominos
    options: {"max_draws": "unlimited", "target": 400}
    players: ["alice", "bob"]
    seed: 1234
    deal: null

    0 543@0,0
    1 draw
    0 !timeout

Header lines are ``key: JSON value``; a blank line ends the header; each move line is the seat
that made it and the move in canonical notation. Two actions are not moves of the game:
``!timeout`` (the seat to act ran out of time) and ``!resign`` (that seat resigned, in or out
of turn). Lines starting with ``#`` are comments.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import registry
from games.core import Event, Game, Outcome, Seat
from games.errors import GameError, RecordError, quote

TIMEOUT = "!timeout"
RESIGN = "!resign"
MAX_MOVES = 200_000
"""The most record lines a record may hold (a real game has a few hundred)."""
MAX_HEADER_VALUE = 20_000
"""The longest header value (JSON) a record may hold."""
MAX_JSON_DEPTH = 20
"""How deeply a header value may nest lists and objects."""


@dataclass(frozen=True)
class RecordedMove:
    """One line of a record: who acted and what they did."""

    seat: Seat
    text: str


@dataclass(frozen=True)
class Record:
    """A whole game: header (game, options, players, seed or deal) and the moves."""

    game: str
    options: dict[str, Any]
    players: tuple[str, ...]
    seed: int | None = None
    deal: Any = None
    moves: tuple[RecordedMove, ...] = field(default=())

    def with_move(self, seat: Seat, text: str) -> Record:
        """This record with one more line (a copy: to add many, use :meth:`with_moves`)."""
        return self.with_moves((*self.moves, RecordedMove(seat, text)))

    def with_moves(self, moves: Sequence[RecordedMove]) -> Record:
        """This record's header with ``moves`` as its lines."""
        return Record(self.game, self.options, self.players, self.seed, self.deal, tuple(moves))

    def to_text(self) -> str:
        """The record as text (see the module docstring)."""
        lines = [
            "# Tilehost record",
            f"game: {json.dumps(self.game)}",
            f"options: {json.dumps(self.options, sort_keys=True)}",
            f"players: {json.dumps(list(self.players))}",
            f"seed: {json.dumps(self.seed)}",
            f"deal: {json.dumps(self.deal)}",
            "",
        ]
        lines.extend(f"{move.seat} {move.text}" for move in self.moves)
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Record:
        """Read a record; raises :class:`RecordError` saying which line is wrong."""
        header: dict[str, Any] = {}
        moves: list[RecordedMove] = []
        in_header = True
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if line.startswith("#"):
                continue
            if in_header:
                if not line:
                    if header:
                        in_header = False
                    continue
                key, value = _header_line(number, raw)
                header[key] = value
                continue
            if not line:
                continue
            moves.append(_move_line(number, raw))
            if len(moves) > MAX_MOVES:
                raise RecordError(f"The record has more than {MAX_MOVES} moves; no real game is that long.")
        return cls._from_header(header, tuple(moves))

    @classmethod
    def _from_header(cls, header: dict[str, Any], moves: tuple[RecordedMove, ...]) -> Record:
        game = header.get("game")
        players = header.get("players")
        if not isinstance(game, str):
            raise RecordError("The record has no 'game:' line.")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("The record has no valid 'players:' line (a JSON list of names).")
        options = header.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError("The 'options:' line must be a JSON object.")
        seed = header.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise RecordError("The 'seed:' line must be a whole number or null.")
        return cls(game, options, tuple(players), seed, header.get("deal"), moves)


def _header_line(number: int, raw: str) -> tuple[str, Any]:
    key, sep, value = raw.strip().partition(":")
    if not sep:
        raise RecordError(f"Line {number}: expected 'key: value' in the header, got {quote(raw)}.")
    name = key.strip().lower()
    if len(value) > MAX_HEADER_VALUE:
        raise RecordError(f"Line {number}: the value of {quote(name)} is too long.")
    if _nesting(value) > MAX_JSON_DEPTH:
        raise RecordError(f"Line {number}: the value of {quote(name)} nests too deeply.")
    try:
        return name, json.loads(value.strip())
    except (ValueError, RecursionError):  # bad JSON, or a number too long to read
        raise RecordError(f"Line {number}: the value of {quote(name)} is not valid JSON.") from None


def _nesting(text: str) -> int:
    """How deeply JSON text nests brackets (an upper bound: brackets in strings count too)."""
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _move_line(number: int, raw: str) -> RecordedMove:
    seat_text, _, move_text = raw.strip().partition(" ")
    if not seat_text.isdecimal() or len(seat_text) > 2 or not move_text.strip():
        raise RecordError(f"Line {number}: expected '<seat> <move>', got {quote(raw)}.")
    return RecordedMove(int(seat_text), move_text.strip())


@dataclass
class Replay:
    """The result of replaying a record: every state, and the events of every line."""

    game: Game[Any, Any]
    states: list[Any]
    events: list[tuple[Event, ...]]

    @property
    def final(self) -> Any:
        """The last state."""
        return self.states[-1]


def start(record: Record) -> tuple[Game[Any, Any], Any]:
    """The game object and the initial state the record's header describes."""
    try:
        game = registry.get(record.game)
        options = game.Options.from_dict(record.options)
        state = game.new(len(record.players), options, seed=record.seed, deal=record.deal)
    except RecordError:
        raise
    except GameError as error:
        raise RecordError(f"The record's header is not valid: {error}") from error
    return game, state


def play_line(game: Game[Any, Any], state: Any, line: RecordedMove) -> tuple[Any, tuple[Event, ...]]:
    """Apply one record line to ``state``; raises :class:`GameError` if it is not legal."""
    if line.text == RESIGN:
        if game.outcome(state) is not None:
            raise RecordError("The game is already over; nobody can resign.")
        return game.resign(state, line.seat)
    to_act = game.to_act(state)
    if to_act is None:
        raise RecordError(f"The game is already over; {quote(line.text)} cannot be played.")
    if line.seat != to_act:
        raise RecordError(
            f"It is player {to_act + 1}'s turn, not player {line.seat + 1}'s ({quote(line.text)})."
        )
    if line.text == TIMEOUT:
        return game.on_timeout(state)
    move = game.parse_move(state, line.text)
    return game.apply(state, move)


def iter_replay(record: Record) -> Iterator[tuple[int, RecordedMove, Any, tuple[Event, ...]]]:
    """Yield ``(line number, line, state after it, events)`` for every line of ``record``."""
    game, state = start(record)
    for index, line in enumerate(record.moves, start=1):
        try:
            state, events = play_line(game, state, line)
        except GameError as error:
            raise RecordError(f"Move {index} ({line.seat} {line.text}): {error}") from error
        yield index, line, state, events


def final_state(game: Game[Any, Any], record: Record) -> Any:
    """The state after every line of ``record`` (played by ``game``), keeping no other state:
    linear in the record's length, for restoring long games."""
    options = game.Options.from_dict(record.options)
    state = game.new(len(record.players), options, seed=record.seed, deal=record.deal)
    for index, line in enumerate(record.moves, start=1):
        try:
            state, _ = play_line(game, state, line)
        except GameError as error:
            raise RecordError(f"Move {index} ({line.seat} {quote(line.text)}): {error}") from error
    return state


def replay(record: Record) -> Replay:
    """Replay ``record`` from its header; raises :class:`RecordError` at the first bad line."""
    game, state = start(record)
    result = Replay(game, [state], [()])
    for _, _, after, events in iter_replay(record):
        result.states.append(after)
        result.events.append(events)
    return result


@dataclass(frozen=True)
class Summary:
    """How a record ends: its players, how many moves, the final scores and the outcome (None
    when the record stops before the end of the game)."""

    game: str
    players: tuple[str, ...]
    moves: int
    scores: tuple[int, ...]
    outcome: Outcome | None

    @property
    def finished(self) -> bool:
        """True when the record reaches the end of the game."""
        return self.outcome is not None

    def won(self, seat: Seat) -> bool:
        """True when ``seat`` is among the winners (and did not forfeit)."""
        return (
            self.outcome is not None and seat in self.outcome.winners and seat not in self.outcome.forfeited
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (``python -m games replay --json``)."""
        return {
            "game": self.game,
            "players": list(self.players),
            "moves": self.moves,
            "scores": list(self.scores),
            "finished": self.finished,
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }


def summary(record: Record, replayed: Replay | None = None) -> Summary:
    """The final scores and outcome of ``record`` (replayed here unless ``replayed`` is given)."""
    result = replayed or replay(record)
    game, final = result.game, result.final
    return Summary(
        game.name, tuple(record.players), len(record.moves), tuple(game.scores(final)), game.outcome(final)
    )


def new_record(
    game: Game[Any, Any], players: Sequence[str], options: dict[str, Any], seed: int | None, deal: Any = None
) -> Record:
    """An empty record for a new game."""
    return Record(game.name, dict(options), tuple(players), seed, deal, ())
