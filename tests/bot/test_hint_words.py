"""How sure a hint says it is, in words (``bot.words._sureness``)."""

from __future__ import annotations

import math

from bot.words import _rating, _sureness
from games.ai import Confidence


def test_a_hint_gives_the_gap_in_chances_with_its_margin() -> None:
    assert (
        _sureness(Confidence("B2@C3", 0.06, 0.02, 80)) == "clearly better than `B2@C3` (chances +6 %, ± 4 %)"
    )
    assert (
        _sureness(Confidence("B2@C3", 0.03, 0.02, 80)) == "probably better than `B2@C3` (chances +3 %, ± 4 %)"
    )
    assert _sureness(Confidence("B2@C3", 0.01, 0.02, 80)) == "a close call: `B2@C3` is about as good"
    assert _sureness(Confidence("B2@C3", 0.05, math.inf, 1)) == "a close call: `B2@C3` is about as good"
    assert _sureness(None) == ""


def test_after_an_exact_search_the_gap_has_no_margin() -> None:
    assert _sureness(Confidence("Ir1@4,-1", 0.16, 0.0, 1)) == "better than `Ir1@4,-1` (chances +16 %)"
    assert _sureness(Confidence("Ir1@4,-1", 0.0, 0.0, 1)) == "a close call: `Ir1@4,-1` is about as good"


def test_with_more_players_a_hint_says_what_its_number_is() -> None:
    """With three or four players the search's value is the share of the others beaten, not a
    chance of winning (a seat that expects to beat half of three others rarely wins), and the
    hint says so."""
    assert _rating(0.55, 2) == "the computer rates your chances at 55 %"
    assert _rating(0.67, 4) == "the computer expects you to finish ahead of 67 % of the others"
    assert (
        _sureness(Confidence("B2@C3", 0.06, 0.02, 80), players=3)
        == "clearly better than `B2@C3` (+6 % of the others beaten, ± 4 %)"
    )
    assert (
        _sureness(Confidence("Ir1@4,-1", 0.16, 0.0, 1), players=4)
        == "better than `Ir1@4,-1` (+16 % of the others beaten)"
    )
