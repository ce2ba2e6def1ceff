"""Your turns at a glance: every running game of a member, in every server, from the stored
headers and snapshots alone (one query, nothing replayed).

The list puts the member's own turns first, nearest deadline first (games without a clock
after those with one), then the games where others are to play, in the same order. ``/turns``
shows it privately; a reminder by direct message carries it too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.storage import GameRow, SeatRow
from bot.words import clip, counted, escape, short
from games import registry
from games.errors import GameError

LINE_LIMIT = 3800
"""The most characters of lines one list shows (an embed's description holds 4096)."""
DM_LIMIT = 1900
"""The most characters a reminder's list adds to its direct message (a message holds 2000)."""


@dataclass(frozen=True)
class Running:
    """One running game of the member: its stored row and seats, as the snapshot has it."""

    row: GameRow
    seats: Sequence[SeatRow]
    user_id: int

    @property
    def to_act(self) -> SeatRow | None:
        """The seat to act, from the stored snapshot."""
        seat = (self.row.snapshot or {}).get("to_act")
        return next((s for s in self.seats if s.seat == seat), None)

    @property
    def mine(self) -> bool:
        """True when it is the member's turn."""
        seat = self.to_act
        return seat is not None and seat.user_id == self.user_id

    @property
    def scores(self) -> list[int]:
        """The running scores in seat order, from the stored snapshot."""
        return list((self.row.snapshot or {}).get("scores") or [])

    @property
    def room_id(self) -> int:
        """Where the game's boards go: its thread, or its channel."""
        return self.row.thread_id or self.row.channel_id

    def link(self) -> str:
        """A link that opens the game's thread (or channel)."""
        guild = self.row.guild_id if self.row.guild_id is not None else "@me"
        return f"https://discord.com/channels/{guild}/{self.room_id}"


def running(games: Sequence[tuple[GameRow, Sequence[SeatRow]]], user_id: int) -> list[Running]:
    """The member's games (from :meth:`bot.storage.Storage.running_games_of`) in the order the
    list shows them: their own turns first, each part nearest deadline first."""
    found = [Running(row, seats, user_id) for row, seats in games if _known(row.game)]
    return sorted(found, key=lambda game: (not game.mine, game.row.deadline or math.inf, game.row.id))


def _known(game: str) -> bool:
    try:
        registry.get(game)
    except GameError:
        return False
    return True


def line(game: Running, server: str | None) -> str:
    """One game: ``**Tile Up!** #12 · Club — **your turn**, time runs out <t:…:R> · Ann 12,
    Ben 9 · [open](link)``."""
    kind = registry.get(game.row.game)
    parts = [f"**{kind.title}** #{game.row.id}" + (f" · {escape(short(server))}" if server else "")]
    seat = game.to_act
    if game.mine:
        turn = "**your turn**"
    elif seat is None:
        turn = "between turns"
    elif seat.is_computer:
        turn = f"{escape(short(seat.name))} (computer) to play"
    else:
        turn = f"{escape(short(seat.name))} to play"
    if game.row.deadline is not None:
        turn += f", time runs out <t:{int(game.row.deadline)}:R>"
    parts.append(turn)
    scores = _scores(game, kind.lower_is_better)
    if scores:
        parts.append(scores)
    parts.append(f"[open]({game.link()})")
    return " — ".join(parts[:2]) + " · " + " · ".join(parts[2:])


def _scores(game: Running, fewest_wins: bool) -> str:
    scores = game.scores
    if len(game.seats) < 2 or len(scores) != len(game.seats):
        return ""
    parts = [
        ("you" if seat.user_id == game.user_id else escape(short(seat.name, 20))) + f" {scores[seat.seat]}"
        for seat in game.seats
    ]
    return ", ".join(parts) + (" (fewest wins)" if fewest_wins else "")


def pages(
    games: Sequence[Running], server: Callable[[int | None], str | None], limit: int = LINE_LIMIT
) -> list[str]:
    """The list as pages of at most ``limit`` characters, one game a line, in order."""
    found: list[str] = []
    page: list[str] = []
    used = 0
    for game in games:
        text = clip(line(game, server(game.row.guild_id)), limit)
        if page and used + len(text) + 1 > limit:
            found.append("\n".join(page))
            page, used = [], 0
        page.append(text)
        used += len(text) + 1
    if page:
        found.append("\n".join(page))
    return found


def title(games: Sequence[Running]) -> str:
    """``Your games: 2 turns to play of 5 games``."""
    if not games:
        return "Your games"
    mine = sum(1 for game in games if game.mine)
    if not mine:
        return f"Your games: {counted(len(games), 'game')}, none waiting for you"
    return f"Your games: {counted(mine, 'turn')} to play, of {counted(len(games), 'game')}"


NOTHING = "You are in no game under way. Start one with `/<game> new`, or join a lobby."


def digest(games: Sequence[Running], server: Callable[[int | None], str | None]) -> str:
    """The list as a reminder's direct message shows it under the reminder: what fits, then how
    many more games ``/turns`` lists."""
    if not games:
        return ""
    head = f"**{title(games)}**"
    first = pages(games, server, DM_LIMIT - len(head) - 80)[0]
    left = len(games) - (first.count("\n") + 1)
    tail = f"\n… and {counted(left, 'more game')}: `/turns` lists them all." if left else ""
    return f"{head}\n{first}{tail}"
