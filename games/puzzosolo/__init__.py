"""Puzz-Ominos solitaire (``GAME``, registered as ``puzzosolo``): fill a target with pentominoes.

One player places pieces from the target's set onto the target's own board, squares named ``A1``
(column letter, row number, ``A1`` top-left). The target is a named one, any rectangle ``WxH``
or a drawn shape (:mod:`games.puzzominos.targets`): up to 60 squares take pieces from one set,
up to 120 from both. The game ends *solved* the moment the target is full, or *gave up*, which
shows a solution. Hints (``hint Lr1f@C4``, found by :func:`hint_place`) are counted: a solve
with hints ends with the reason ``solved_with_hints``, apart from ``solved``.

There is no chance: ``seed`` is unused and ``deal`` must be null or ``[]``. The score is the
number of pieces on the board that the player placed without a hint (0 after giving up).

For ``/puzzominos solo``: :func:`target_option` reads the two slash options (``target``,
``shape``) into the option value, and :func:`check_target` runs the bounded solver on it (not
needed for a named target, :func:`is_named`: every one is proven fillable by the tests).
"""

from games.puzzominos.targets import DEFAULT_TARGET, is_named, target_option
from games.puzzosolo.game import PuzzSolo
from games.puzzosolo.notation import format_move
from games.puzzosolo.rules import TargetCheck, check_target, hint_place
from games.puzzosolo.state import hint

GAME = PuzzSolo()

__all__ = [
    "DEFAULT_TARGET",
    "GAME",
    "TargetCheck",
    "check_target",
    "format_move",
    "hint",
    "hint_place",
    "is_named",
    "target_option",
]
