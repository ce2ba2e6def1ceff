"""The protocol's contracts, checked on every game (and the test-only Tiny Tiles game).

- A view keeps nothing from which hidden things could be recomputed: no seed, no deal; a
  state :meth:`~games.core.Game.determinize`\\ d from a view has the same view, and two of them
  differ only in hidden things.
- ``apply`` refuses every move that is not legal now (stale moves, moves parsed on another
  state, things that are not moves) with ``IllegalMoveError``, and ``resign`` refuses a seat
  that does not exist or already resigned.
- ``parse_move`` raises only game errors, whatever the text (Hypothesis: random text, near
  misses of legal notation, huge and unicode input), and refuses huge input before reading it.
- Events are facts: an :class:`~games.core.EventKind`, a reason with a phrase, words that
  never call a player "seat N".
"""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import registry
from games.ai import RandomPlayer
from games.core import COMMON_PHRASES, MAX_MOVE_TEXT, EventKind, Game, event_phrase, outcome_phrase
from games.errors import GameError, IllegalMoveError
from tests.support import tiny
from tests.support.work import does_not_grow, linear

GAMES = [*registry.all_games(), *([] if tiny.GAME in registry.all_games() else [tiny.GAME])]
GAME_IDS = [game.name for game in GAMES]
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
SEAT_WORDS = re.compile(r"\bseat \d", re.IGNORECASE)
PLIES_BEFORE_CHECK = (0, 3, 11, 40)


def states_along(game: Game[Any, Any], players: int, seed: int, plies: int) -> list[Any]:
    """The states of a random game, up to ``plies`` moves (fewer if it ends)."""
    state = game.new(players, game.Options(), seed=seed)
    chooser = RandomPlayer(seed)
    found = [state]
    for _ in range(plies):
        if game.to_act(state) is None:
            break
        state, _ = game.apply(state, chooser.choose(game, state))
        found.append(state)
    return found


def sample_states(game: Game[Any, Any], seed: int = 4) -> list[Any]:
    states = states_along(game, game.max_players, seed, max(PLIES_BEFORE_CHECK))
    return [states[min(plies, len(states) - 1)] for plies in PLIES_BEFORE_CHECK]


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_a_view_keeps_no_seed_or_deal(game: Game[Any, Any]) -> None:
    for state in sample_states(game):
        for viewer in [None, *range(game.players(state))]:
            seen = game.view(state, viewer)
            for name in ("seed", "deal"):
                if any(f.name == name for f in dataclasses.fields(seen)):
                    assert getattr(seen, name) in (None, 0, (), {}), f"a view must not keep the {name}"


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_determinized_states_keep_the_view(game: Game[Any, Any]) -> None:
    for state in sample_states(game):
        for viewer in range(game.players(state)):
            seen = game.view(state, viewer)
            first = game.determinize(seen, viewer, random.Random(1))
            second = game.determinize(seen, viewer, random.Random(2))
            assert game.view(first, viewer) == seen, "a determinized state must have the same view"
            assert game.view(second, viewer) == seen
            assert game.determinize(seen, viewer, random.Random(1)) == first, "same rng, same state"


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_determinized_states_play_to_the_end(game: Game[Any, Any]) -> None:
    for state in sample_states(game)[1:]:
        viewer = game.to_act(state)
        if viewer is None:
            continue
        playable = game.determinize(game.view(state, viewer), viewer, random.Random(3))
        chooser = RandomPlayer(5)
        for _ in range(20_000):
            if game.to_act(playable) is None:
                break
            playable, _ = game.apply(playable, chooser.choose(game, playable))
        assert game.outcome(playable) is not None


REFUSALS_PER_KIND = 16
"""Moves refused per kind of wrong move and game: a fixed sample (the same on every run), not
every pair of states (that was about 70,000 refusals a game and minutes of the suite)."""


def wrong_moves(game: Game[Any, Any], here: list[Any], there: list[Any]) -> dict[str, list[tuple[Any, Any]]]:
    """A fixed sample of ``(state, move)`` pairs where ``move`` is not legal in ``state``, by kind:
    ``stale`` (legal earlier in the same game), ``ahead`` (legal later in it) and ``foreign``
    (legal in another game of the same kind, with more players)."""
    rng = random.Random(21)
    live = [index for index, state in enumerate(here) if game.to_act(state) is not None]
    sources = {
        "stale": [(i, here[j]) for i in live for j in range(i) if game.to_act(here[j]) is not None],
        "ahead": [(i, here[j]) for i in live for j in live if j > i],
        "foreign": [(i, other) for i in live for other in there if game.to_act(other) is not None],
    }
    found: dict[str, list[tuple[Any, Any]]] = {}
    for kind, pairs in sources.items():
        rng.shuffle(pairs)
        found[kind] = []
        for index, source in pairs:
            state, moves = here[index], game.legal_moves(source)[:40]
            move = moves[rng.randrange(len(moves))]
            if not game.is_legal(state, move):
                found[kind].append((state, move))
            if len(found[kind]) == REFUSALS_PER_KIND:
                break
    return found


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_apply_refuses_stale_and_foreign_moves(game: Game[Any, Any]) -> None:
    here = states_along(game, game.min_players, 21, 30)
    there = states_along(game, game.max_players, 22, 30)
    sample = wrong_moves(game, here, there)
    assert len(sample["stale"]) == len(sample["foreign"]) == REFUSALS_PER_KIND, "moves to refuse were found"
    for state, move in (pair for pairs in sample.values() for pair in pairs):
        with pytest.raises(IllegalMoveError):
            game.apply(state, move)
    for state in here:
        if game.to_act(state) is None:
            continue
        for junk in (None, "draw", 3, object()):
            with pytest.raises(IllegalMoveError):
                game.apply(state, junk)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_apply_refuses_moves_after_the_end(game: Game[Any, Any]) -> None:
    states = states_along(game, game.min_players, 8, 100_000)
    final = states[-1]
    assert game.to_act(final) is None
    for move in game.legal_moves(states[-2])[:20]:
        with pytest.raises(IllegalMoveError):
            game.apply(final, move)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_resign_refuses_unknown_and_repeated_seats(game: Game[Any, Any]) -> None:
    players = game.max_players
    state = game.new(players, game.Options(), seed=3)
    for seat in (-1, players, players + 5, 10**9):
        with pytest.raises(IllegalMoveError):
            game.resign(state, seat)
    if players > 2:
        after, _ = game.resign(state, players - 1)
        with pytest.raises(IllegalMoveError):
            game.resign(after, players - 1)


@st.composite
def near_miss(draw: st.DrawFn, notations: list[str]) -> str:
    """Legal notation with characters dropped, doubled, replaced or inserted."""
    chars = list(draw(st.sampled_from(notations)))
    for _ in range(draw(st.integers(1, 3))):
        if not chars:
            break
        index = draw(st.integers(0, len(chars) - 1))
        action = draw(st.sampled_from(("drop", "double", "replace", "insert")))
        if action == "drop":
            del chars[index]
        elif action == "double":
            chars.insert(index, chars[index])
        else:
            char = draw(st.sampled_from(list("0123456789-+,@ xyz?/.AbLr#`'é٣")))
            if action == "replace":
                chars[index] = char
            else:
                chars.insert(index, char)
    return "".join(chars)


def check_parse(game: Game[Any, Any], state: Any, text: str) -> None:
    try:
        move = game.parse_move(state, text)
    except GameError as error:
        message = str(error)
        assert message, "an error must say what was wrong"
        assert len(message) < 1_500, "an error message must quote a shortened form of the input"
        return
    assert game.is_legal(state, move)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_parse_raises_only_game_errors(game: Game[Any, Any]) -> None:
    states = [state for state in sample_states(game, seed=9) if game.to_act(state) is not None]
    notations = [game.format_move(state, move) for state in states for move in game.legal_moves(state)[:30]]

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        state=st.sampled_from(states),
        text=st.one_of(
            st.text(max_size=30),
            st.text(alphabet="0123456789-+,@ abcdefghijklmnopqrstuvwxyzABLRS?", max_size=30),
            near_miss(notations),
            st.integers(5_000, 60_000).map(lambda n: "9" * n),
            st.integers(1, 40).map(lambda n: "@" * n + "1" * n + "," * n),
        ),
    )
    def run(state: Any, text: str) -> None:
        check_parse(game, state, text)

    run()


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_huge_input_is_refused_at_once(game: Game[Any, Any]) -> None:
    """Text over the cap is refused before it is read: the work (counted in steps, not timed)
    does not grow with its length."""
    state = game.new(game.min_players, game.Options(), seed=1)
    for text in (lambda n: "7" * n, lambda n: "A" * n, lambda n: "@" * (n // 2) + "1" * (n // 2)):
        with pytest.raises(GameError):
            game.parse_move(state, text(100_000))
        work = linear(lambda n, text=text: game.parse_move(state, text(n)), 50_000, GameError)
        assert does_not_grow(work), work
    with pytest.raises(GameError):
        game.parse_move(state, "x" * (MAX_MOVE_TEXT + 1))


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_events_are_facts_with_phrases(game: Game[Any, Any]) -> None:
    for seed in range(3):
        state = game.new(game.max_players, game.Options(), seed=seed)
        chooser = RandomPlayer(seed)
        while game.to_act(state) is not None:
            state, events = game.apply(state, chooser.choose(game, state))
            for event in events:
                assert isinstance(event.kind, EventKind), event
                assert event.reason in game.phrases or event.reason in COMMON_PHRASES, event
                words = event_phrase(game, event, NAMES[: game.players(state)])
                assert words and not SEAT_WORDS.search(words), words
        outcome = game.outcome(state)
        assert outcome is not None
        reason = outcome_phrase(game, outcome, NAMES[: game.players(state)])
        assert reason and not SEAT_WORDS.search(reason), reason
        described = game.describe(state, NAMES[: game.players(state)])
        assert not SEAT_WORDS.search(described), described


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_resign_and_timeout_events_have_phrases(game: Game[Any, Any]) -> None:
    state = game.new(game.max_players, game.Options(), seed=2)
    for _, events in (game.resign(state, 0), game.on_timeout(state)):
        for event in events:
            assert isinstance(event.kind, EventKind)
            assert event.reason in game.phrases or event.reason in COMMON_PHRASES, event
            assert not SEAT_WORDS.search(event_phrase(game, event, NAMES))
