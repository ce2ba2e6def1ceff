"""Render ``docs/images/geronimos-board.png`` from a seeded greedy self-play game.

Run: ``.venv/bin/python bench/make_geronimos_image.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.ai import greedy_states  # noqa: E402
from games.core import outcome_phrase  # noqa: E402
from games.geronimos import GAME  # noqa: E402
from rendering.geronimos import render_board  # noqa: E402

SEED = 7
OUTPUT = ROOT / "docs" / "images" / "geronimos-board.png"


def main() -> None:
    """Play the game to its end and save the final table (the surround and its token)."""
    state = greedy_states(GAME, 2, SEED)[-1]
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    names = ["Custer", "Geronimo"]
    render_board(GAME.view(state, None), names).save(OUTPUT)
    outcome = GAME.outcome(state)
    ending = outcome_phrase(GAME, outcome, names) if outcome else ""
    print(f"wrote {OUTPUT.relative_to(ROOT)} after {state.plies} moves: {ending}")


if __name__ == "__main__":
    main()
