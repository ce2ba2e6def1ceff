"""Render ``docs/images/puzzominos-board.png`` from a seeded greedy self-play game, and
``docs/images/puzzominos-solo.png``: a 6x10 solitaire half done (the last piece on a hint).

Run: ``.venv/bin/python bench/make_puzzominos_image.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.ai import greedy_states  # noqa: E402
from games.puzzominos import GAME  # noqa: E402
from games.puzzominos.targets import get_target  # noqa: E402
from games.puzzosolo import GAME as SOLO  # noqa: E402
from games.puzzosolo import hint  # noqa: E402
from games.puzzosolo.game import position  # noqa: E402
from games.puzzosolo.rules import first_solution, format_place  # noqa: E402
from rendering import puzzosolo  # noqa: E402
from rendering.puzzominos import render_board  # noqa: E402

SEED = 4
OUTPUT = ROOT / "docs" / "images" / "puzzominos-board.png"
SOLO_OUTPUT = ROOT / "docs" / "images" / "puzzominos-solo.png"


def main() -> None:
    """Play a greedy game to its end and save the final table."""
    state = greedy_states(GAME, 2, SEED)[-1]
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    render_board(GAME.view(state, None), ["Jamie", "Pat"]).save(OUTPUT)
    outcome = GAME.outcome(state)
    print(f"wrote {OUTPUT.relative_to(ROOT)}: {outcome.reason if outcome else ''}, scores {state.scores}")

    solo_image()


def solo_image() -> None:
    """Six pieces of the solver's first 6x10 solution, the sixth placed on a hint."""
    solution = first_solution(get_target("6x10"))
    state = position("6x10", [format_place(place) for place in solution[:5]])
    state, _ = SOLO.apply(state, hint(solution[5]))
    puzzosolo.render_board(state, ["Jamie"]).save(SOLO_OUTPUT)
    print(f"wrote {SOLO_OUTPUT.relative_to(ROOT)}: {SOLO.describe(state, ['Jamie'])}")


if __name__ == "__main__":
    main()
