"""Hypothesis on record import (issue 17, break 11): random text, near misses of real records,
huge numbers and lines, unicode, nested JSON and hostile header values. Reading and replaying a
record (what ``/<game> import`` does in its worker) raises only game errors, and the huge and
strange ones cost work linear in their length (counted in steps, not timed: a few steps per
character); near misses and random records are no bigger than real ones.

(Every game's ``parse_move`` is fuzzed the same way in ``tests/games/test_contracts.py``.)"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import records, registry
from games.__main__ import selfplay
from games.errors import GameError
from games.records import MAX_HEADER_VALUE, Record
from tests.support.work import counted

GAMES = ("triominos", "geominos", "geronimos", "puzzominos", "puzzosolo", "tileup")
STEPS_PER_CHARACTER = 5
"""The work a huge record may cost per character of its text (about 3 to 4 when this was
written), besides :data:`STEPS_AT_MOST`."""
STEPS_AT_MOST = 100_000
"""The work any short record may cost (a real record of a whole game costs up to about 1.1
million steps: it replays every move; these are refused within a few lines)."""


def whole_record(name: str) -> str:
    game = registry.get(name)
    return selfplay(game, game.min_players, seed=3).to_text()


RECORDS = {name: whole_record(name) for name in GAMES}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
HEADER_KEYS = ("game", "options", "players", "seed", "deal")


def read_and_replay(text: str) -> None:
    """What the import worker does: read the record, then replay it to its last line."""
    try:
        record = Record.from_text(text)
        records.final_state(registry.get(record.game), record)
    except GameError as error:
        assert str(error) and len(str(error)) < 1_500, "a short message saying what is wrong"


@st.composite
def near_miss(draw: st.DrawFn) -> str:
    """A real record with one thing changed: a header value, a move line, or a line added."""
    lines = RECORDS[draw(st.sampled_from(GAMES))].splitlines()
    action = draw(st.sampled_from(["header", "move", "seat", "insert", "cut", "swap-game"]))
    header_end = lines.index("")
    if action == "header":
        key = draw(st.sampled_from((*HEADER_KEYS, "extra")))
        value = draw(json_values)
        lines = [line for line in lines if not line.startswith(f"{key}:")]
        lines.insert(1, f"{key}: {json.dumps(value)}")
    elif action == "swap-game":
        lines[1] = f"game: {json.dumps(draw(st.sampled_from((*GAMES, 'tiny', 'chess'))))}"
    elif len(lines) > header_end + 1:
        index = draw(st.integers(header_end + 1, len(lines) - 1))
        seat, _, move = lines[index].partition(" ")
        if action == "move":
            lines[index] = f"{seat} {draw(st.text(min_size=1, max_size=20))}"
        elif action == "seat":
            lines[index] = f"{draw(st.sampled_from(['7', '99', '-1', '٣', '00', '1e3']))} {move}"
        elif action == "insert":
            extra = draw(st.sampled_from(["!resign", "!resign 9", "!timeout", "undo", "pass", "draw", "end"]))
            lines.insert(index, f"{draw(st.integers(0, 12))} {extra}")
        else:
            lines = lines[:index]
    return "\n".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=near_miss())
def test_near_misses_of_real_records(text: str) -> None:
    read_and_replay(text)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    text=st.one_of(
        st.text(max_size=200),
        st.lists(st.sampled_from(["# Tilehost record", 'game: "tileup"', "players: []", "", "0 x", ":"])).map(
            "\n".join
        ),
        st.builds(
            lambda values: (
                "\n".join(f"{key}: {json.dumps(value)}" for key, value in values.items()) + "\n\n0 x"
            ),
            st.fixed_dictionaries(dict.fromkeys(HEADER_KEYS, json_values)),
        ),
    )
)
def test_random_records(text: str) -> None:
    read_and_replay(text)


FEWER_MOVES = 2_000
"""The limit on a record's lines in :func:`test_huge_and_strange_records` (it is
:data:`~games.records.MAX_MOVES` in use): the same refusal, on a text a hundred times shorter."""

HUGE = [
    'game: "triominos"\nplayers: ["a", "b"]\nseed: ' + "9" * 5_000 + "\n\n0 draw",
    'game: "triominos"\nplayers: ["a", "b"]\nseed: 1\noptions: ' + "[" * 100_000 + "\n\n0 draw",
    'game: "triominos"\nplayers: ["a", "b"]\nseed: 1\noptions: {"a": ' + "{" * 19 + "}" * 20 + "\n\n0 draw",
    'game: "triominos"\nplayers: ["a", "b"]\nseed: 1\n\n0 ' + "7" * 1_000_000,
    'game: "tileup"\nplayers: ' + json.dumps(["x" * 100] * 180) + "\nseed: 1\n\n0 end",
    'game: "tileup"\nplayers: ["a", "b"]\nseed: 1\nextra: "' + "z" * (MAX_HEADER_VALUE + 1) + '"\n\n0 end',
    'game: "tileup"\nplayers: ["a", "b"]\nseed: 1\n\n' + "0 end\n" * (FEWER_MOVES + 1),
    'game: "puzzosolo"\nplayers: ["a"]\nseed: 1\noptions: {"target": "' + "X" * 15_000 + '"}\n\n0 giveup',
    'game: "geronimos"\nplayers: ["\\u202e", "\U0001f600"]\nseed: 1\n\n0 \u0663\u0663@\u0663',
    'game: "geominos"\nplayers: ["a", "b"]\nseed: -1\ndeal: {"tiles": [[1e308]]}\n\n0 pass',
]


@pytest.mark.parametrize("text", HUGE, ids=range(len(HUGE)))
def test_huge_and_strange_records(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(records, "MAX_MOVES", FEWER_MOVES)
    with counted() as work:
        read_and_replay(text)
    assert work.steps <= STEPS_PER_CHARACTER * len(text) + STEPS_AT_MOST, (work.steps, len(text))


def test_a_record_reads_back_unchanged() -> None:
    for name, text in RECORDS.items():
        record = Record.from_text(text)
        assert record.game == name and Record.from_text(record.to_text()) == record
