"""The final picture of every game names the winner by name, says why the game ended, and lists
the players by rank: wins, draws and forfeits, in the five games and the solitaire."""

from __future__ import annotations

from typing import Any

import pytest

from games import registry
from games.ai import greedy_states
from games.core import Outcome
from games.puzzominos.targets import get_target
from games.puzzosolo import GAME as SOLO
from games.puzzosolo.game import position
from games.puzzosolo.rules import first_solution, format_place
from games.puzzosolo.state import GIVE_UP
from rendering.common import ScoreLine, game_result, recording_text, score_strip
from rendering.registry import renderer

NAMES = ["Ann 🎲", "Бен", "Σοφία", "Łukasz"]
GAMES = {"geominos": (3, 6), "triominos": (3, 7), "geronimos": (2, 7), "puzzominos": (2, 4), "tileup": (4, 4)}


def texts_of(game: str, view: Any, players: list[str]) -> list[str]:
    with recording_text() as drawn:
        renderer(game).board(view, players)
    return [item.text for item in drawn]


def rows_in_rank_order(texts: list[str], outcome: Outcome, players: list[str]) -> None:
    """The players' names appear in the strip in rank order (each after its rank number)."""
    order = sorted(range(len(players)), key=lambda seat: (outcome.ranks[seat], seat))
    shown = [text for text in texts if any(text.startswith(players[seat]) for seat in order)]
    firsts = []
    for text in shown:
        seat = next(seat for seat in order if text.startswith(players[seat]))
        if seat not in firsts:
            firsts.append(seat)
    assert firsts[-len(order) :] == order, (firsts, order)
    ranks = [text for text in texts if text.rstrip(".").isdigit() and text.endswith(".")]
    assert ranks[-len(order) :] == [f"{outcome.ranks[seat]}." for seat in order]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_winner_is_named_with_why_and_players_by_rank(game: str) -> None:
    rules = registry.get(game)
    players, seed = GAMES[game]
    final = greedy_states(rules, players, seed)[-1]
    outcome = rules.outcome(final)
    assert outcome is not None
    names = NAMES[:players]
    texts = texts_of(game, rules.view(final, None), names)
    winners = [names[seat] for seat in outcome.winners]
    headline = f"🏆 {winners[0]} wins" if len(winners) == 1 else "🤝 A draw between " + " and ".join(winners)
    assert headline in texts
    assert any(text.startswith(f"{rules.title} · game over: ") for text in texts)
    assert not any("Blue surrounded" in text or "Red surrounded" in text for text in texts)
    rows_in_rank_order(texts, outcome, names)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_forfeit_names_the_winner_and_ranks_the_loser_last(game: str) -> None:
    rules = registry.get(game)
    players, seed = GAMES[game]
    state = greedy_states(rules, players, seed, plies=6)[-1]
    for seat in range(1, players):
        if rules.to_act(state) is None:
            break
        state, _ = rules.resign(state, seat)
    outcome = rules.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    texts = texts_of(game, rules.view(state, None), NAMES[:players])
    assert f"🏆 {NAMES[0]} wins" in texts
    rows_in_rank_order(texts, outcome, NAMES[:players])


def test_a_draw_names_both_and_ranks_them_first() -> None:
    game = registry.get("tileup")
    outcome = Outcome(scores=(12, 12, 3), ranks=(1, 1, 3), reason="shares_win", reason_seat=0)
    result = game_result(game, outcome, NAMES[:3])
    assert result.headline == f"🤝 A draw between {NAMES[0]} and {NAMES[1]}"
    lines = [ScoreLine(name, score) for name, score in zip(NAMES, outcome.scores, strict=False)]
    with recording_text() as drawn:
        score_strip(1000, lines, None, result=result)
    texts = [item.text for item in drawn]
    assert texts[:2] == [result.headline, f"Tile Up! · game over: {NAMES[0]} shares the win"]
    assert [text for text in texts if text.endswith(".")] == ["1.", "1.", "3."]


def test_the_solitaire_says_solved_or_given_up() -> None:
    solution = [format_place(place) for place in first_solution(get_target("6x10"))]
    solved = position("6x10", solution)
    playing = position("6x10", solution[:4])
    gave_up, _ = SOLO.apply(playing, GIVE_UP)
    assert "🏆 Jamie solved 6x10" in texts_of("puzzosolo", solved, ["Jamie"])
    assert "🏳️ Jamie gave up on 6x10" in texts_of("puzzosolo", gave_up, ["Jamie"])
