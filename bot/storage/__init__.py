"""Storage: every query of Tilehost, on SQLite (the default) or PostgreSQL.

- :mod:`bot.storage.rows`: the dataclasses queries take and return, and the errors;
- :mod:`bot.storage.engines`: the two engines (connections, transactions, migrations);
- :mod:`bot.storage.store`: :class:`Storage`, the queries, written once for both engines.
"""

from bot.storage.between import DailyAttempt, DailyResult, DailyTaken
from bot.storage.rows import (
    ActiveGameExists,
    Clock,
    Finish,
    GameRow,
    HistoryRow,
    LeaderRow,
    Line,
    MoveRow,
    RematchExists,
    ResultRow,
    SeatRow,
    SolvedTarget,
    SolverRow,
    StaleMove,
    Stats,
    StorageError,
    TournamentHistoryRow,
    unavailable,
)
from bot.storage.store import Storage

__all__ = [
    "ActiveGameExists",
    "Clock",
    "DailyAttempt",
    "DailyResult",
    "DailyTaken",
    "Finish",
    "GameRow",
    "HistoryRow",
    "LeaderRow",
    "Line",
    "MoveRow",
    "RematchExists",
    "ResultRow",
    "SeatRow",
    "SolvedTarget",
    "SolverRow",
    "StaleMove",
    "Stats",
    "Storage",
    "StorageError",
    "TournamentHistoryRow",
    "unavailable",
]
