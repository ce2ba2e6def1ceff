"""Render ``docs/images/puzzominos-board.png`` from a seeded greedy self-play game.

Run: ``.venv/bin/python bench/make_puzzominos_image.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.ai import GreedyPlayer  # noqa: E402
from games.puzzominos import GAME  # noqa: E402
from rendering.puzzominos import render_board  # noqa: E402

SEED = 4
OUTPUT = ROOT / "docs" / "images" / "puzzominos-board.png"


def main() -> None:
    """Play a greedy game to its end and save the final table."""
    state = GAME.new(2, seed=SEED)
    player = GreedyPlayer(SEED)
    while GAME.to_act(state) is not None:
        state, _ = GAME.apply(state, player.choose(GAME, state))
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    render_board(GAME.view(state, None), ["Jamie", "Pat"]).save(OUTPUT)
    outcome = GAME.outcome(state)
    print(f"wrote {OUTPUT.relative_to(ROOT)}: {outcome.reason if outcome else ''}, scores {state.scores}")


if __name__ == "__main__":
    main()
