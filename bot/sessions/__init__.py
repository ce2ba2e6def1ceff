"""The session service: lobbies, moves, clocks, computer players, results. No discord here.

A session is one game at one table (a channel, or the game's own thread). Every change is made
under the game's lock and written to storage in one transaction before anything is returned or
announced: nothing a player did is ever lost, and an error leaves the stored game as it was.

After every committed change the service itself carries the game on, whatever Discord does with
the replies: it plays forced turns (a move the rules leave no choice about), lets computer seats
move, arms the turn clock, and publishes one :class:`Update` for the Discord layer to announce.

:class:`SessionService` (:mod:`bot.sessions.service`) is the one entry point; its collaborators
are :mod:`~bot.sessions.lookup`, :mod:`~bot.sessions.lobby`, :mod:`~bot.sessions.play`,
:mod:`~bot.sessions.clocks`, :mod:`~bot.sessions.advice` and :mod:`~bot.sessions.restore`, over
the types of :mod:`~bot.sessions.session`.
"""

from bot.sessions.advice import SUGGESTION_LIMIT, filter_suggestions, lead_with_hint, search_seed
from bot.sessions.clocks import CLOCK_RETRY_SECONDS
from bot.sessions.lobby import COMPUTER_NAMES
from bot.sessions.play import MAX_COMPUTER_PLIES
from bot.sessions.service import SessionService
from bot.sessions.session import Chooser, Listener, Session, Step, Update, UpdateKind
from bot.status import Status

__all__ = [
    "CLOCK_RETRY_SECONDS",
    "COMPUTER_NAMES",
    "MAX_COMPUTER_PLIES",
    "SUGGESTION_LIMIT",
    "Chooser",
    "Listener",
    "Session",
    "SessionService",
    "Status",
    "Step",
    "Update",
    "UpdateKind",
    "filter_suggestions",
    "lead_with_hint",
    "search_seed",
]
