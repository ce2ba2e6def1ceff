"""What a game's renderer provides: its board and hand images, its players' colours and the
chart of a replay."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from rendering.charts import score_chart
from rendering.common import RGB, THEME


class Renderer(ABC):
    """How one game is drawn. ``view`` is ``game.view(state, seat_or_None)``; ``players`` are
    display names in seat order, already made drawable (:func:`rendering.common.drawable_names`)."""

    game: str
    """The registered name of the game drawn."""

    @abstractmethod
    def board(self, view: Any, players: Sequence[str]) -> Image.Image:
        """The public board with its coordinates, the last move and the score strip."""

    @abstractmethod
    def hand(self, view: Any, seat: int, players: Sequence[str]) -> Image.Image:
        """What ``seat`` holds, with the names used in the notation."""

    def colour(self, seat: int) -> RGB:
        """The colour ``seat`` has on the board (charts use the same)."""
        return THEME.player(seat)

    def seat_colour(self, view: Any, seat: int) -> RGB:
        """The colour ``seat`` plays in the game ``view`` shows (where the game deals colours)."""
        return self.colour(seat)

    def chart(
        self, views: Sequence[Any], scores: Sequence[Sequence[int]], players: Sequence[str], title: str
    ) -> Image.Image:
        """The chart of a replay: every player's score after each move (``scores[ply][seat]``
        for the public ``views`` of the game)."""
        colours = [self.colour(seat) for seat in range(len(players))]
        return score_chart(scores, players, colours, title)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.game}>"


BoardFunction = Callable[[Any, Sequence[str]], Image.Image]
HandFunction = Callable[[Any, int, Sequence[str]], Image.Image]


class Drawn(Renderer):
    """A renderer made of a game module's ``render_board`` and ``render_hand`` functions."""

    def __init__(self, game: str, board: BoardFunction, hand: HandFunction) -> None:
        self.game = game
        self._board = board
        self._hand = hand

    def board(self, view: Any, players: Sequence[str]) -> Image.Image:
        return self._board(view, players)

    def hand(self, view: Any, seat: int, players: Sequence[str]) -> Image.Image:
        return self._hand(view, seat, players)
