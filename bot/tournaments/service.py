"""The tournament service: sign-up, rounds that run themselves, results, standings, organiser
tools. No discord here: it takes plain ids and publishes :class:`TournamentUpdate` values for
the Discord layer (:mod:`bot.ui.tournament`) to announce.

- Every change is stored before it is announced, under the tournament's lock; the tournament is
  read back from storage after each change, so memory never drifts from what a restart sees.
- A round's games are ordinary games of the session service (:meth:`SessionService.open_table`
  with the seats in the tournament's order, then :meth:`SessionService.start`): each plays in
  its own thread with the tournament's clock, and ratings move as for any game.
- The service listens to the session service's updates (:meth:`SessionService.subscribe`):
  when a tournament's game ends (or is called off) its table gets its result, and when every
  table of a round has one, the round closes: standings, then the next round or the end.
- Its own clock (a :class:`bot.clock.TurnClock` keyed by tournament) closes sign-up at its
  time and ends a round at its deadline.
- After a restart, :meth:`restore` re-arms the clocks and catches up with whatever happened
  meanwhile: games that ended, a round whose games were never started, a round left to pair.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from bot import errors, workers
from bot.clock import TurnClock
from bot.ratings import scopes
from bot.sessions import COMPUTER_NAMES, Session, SessionService, Status, Update, UpdateKind
from bot.storage import GameRow, SeatRow, Storage
from bot.storage.rows import UniqueViolation
from bot.tournaments import pairing
from bot.tournaments.model import (
    Entrant,
    Format,
    How,
    Phase,
    Plan,
    Rules,
    Table,
    TableResult,
    Tournament,
)
from bot.tournaments.standings import Standing, standings
from games import registry
from games.core import Game, competition_ranks
from games.errors import GameError

log = logging.getLogger(__name__)

MAX_ROUNDS = 20
MAX_ENTRANTS = 128
MAX_NAME = 60


class TournamentError(errors.SessionError):
    """A tournament request refused (nothing was stored)."""


class TournamentUpdateKind(StrEnum):
    """What a :class:`TournamentUpdate` announces."""

    SIGNUP = "signup"
    """The entrants changed (the sign-up message shows them)."""
    ROUND_STARTED = "round_started"
    """A round's games started (with the standings after the round before)."""
    FINISHED = "finished"
    """The last round ended: the final standings."""
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class TournamentUpdate:
    """What happened to a tournament, for the Discord layer to announce."""

    tournament: Tournament
    kind: TournamentUpdateKind
    standings: tuple[Standing, ...] = ()
    """The standings after the round that ended (none before the first round)."""
    note: str = ""
    """Why (a cancelled tournament)."""
    games: dict[int, Session] = field(default_factory=dict)
    """Table id -> the game started at it (this round's)."""


TournamentListener = Callable[[TournamentUpdate], Awaitable[None]]


@dataclass(frozen=True)
class NewTournament:
    """What the organiser asks for."""

    game: str
    format: Format
    rounds: int = 0
    table_size: int = 2
    clock_hours: int = 24
    round_hours: int = 0
    signup_hours: int = 24
    max_entrants: int = 64
    name: str = ""
    options: dict[str, Any] = field(default_factory=dict)


class TournamentService:
    """Runs every tournament. ``now`` and ``sleep`` are injectable (tests and SimCord)."""

    def __init__(
        self,
        storage: Storage,
        sessions: SessionService,
        *,
        now: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        self.storage = storage
        self.sessions = sessions
        self.now = now
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self._listeners: list[TournamentListener] = []
        self._locks: dict[int, asyncio.Lock] = {}
        self._games: dict[int, int] = {}
        """Game id -> tournament id, for the games of rounds under way."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.clock = TurnClock(self._alarm, now=now, sleep=sleep)
        sessions.subscribe(self._on_game_update)

    # -- listeners -------------------------------------------------------------------------------

    def subscribe(self, listener: TournamentListener) -> None:
        """Call ``listener`` with every tournament update."""
        self._listeners.append(listener)

    async def _publish(self, update: TournamentUpdate) -> None:
        for listener in self._listeners:
            try:
                await listener(update)
            except Exception:
                log.exception("tournament listener failed for %s of %s", update.kind, update.tournament.id)

    # -- reading -------------------------------------------------------------------------------

    async def get(self, tournament_id: int) -> Tournament:
        """The tournament as stored now."""
        found = await self.storage.tournament(tournament_id)
        if found is None:
            raise TournamentError(f"There is no tournament #{tournament_id}.")
        try:
            lower = registry.get(found.rules.game).lower_is_better
        except GameError:
            return found
        return replace(found, rules=replace(found.rules, lower_is_better=lower))

    async def in_channel(self, guild_id: int, channel_id: int | None = None) -> list[Tournament]:
        """The active tournaments of a server (of one channel, when given), newest first."""
        found = []
        for tournament_id in reversed(await self.storage.active_tournaments()):
            tournament = await self.get(tournament_id)
            if tournament.guild_id == guild_id and channel_id in (None, tournament.channel_id):
                found.append(tournament)
        return found

    def standings(self, tournament: Tournament) -> list[Standing]:
        """The standings now (every table with a result, every bye so far)."""
        byes = {r.number: list(r.byes) for r in tournament.rounds}
        return standings(tournament.entrants, tournament.tables, byes, tournament.rules)

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # -- sign-up ---------------------------------------------------------------------------------

    async def create(
        self, *, guild_id: int, channel_id: int, organiser_id: int, ask: NewTournament
    ) -> Tournament:
        """Open a tournament's sign-up (the options are checked first; nothing is stored when
        one is wrong)."""
        game = registry.get(ask.game)
        if game.max_players < 2:
            raise TournamentError(f"{game.title} is played alone: it has no tournaments.")
        if not game.min_players <= ask.table_size <= game.max_players:
            raise TournamentError(
                f"{game.title} is for {game.min_players} to {game.max_players} players a table, "
                f"not {ask.table_size}."
            )
        parsed = game.Options.from_dict(ask.options)
        if ask.format is Format.SWISS and not 1 <= ask.rounds <= MAX_ROUNDS:
            raise TournamentError(f"A Swiss needs between 1 and {MAX_ROUNDS} rounds (`rounds:`).")
        if ask.format is Format.ROUND_ROBIN and ask.rounds:
            raise TournamentError(
                "A round robin has as many rounds as it takes for everyone to meet everyone; leave "
                "`rounds:` out (it is for a Swiss)."
            )
        rules = Rules(
            game=game.name,
            format=ask.format,
            rounds=ask.rounds if ask.format is Format.SWISS else 0,
            table_size=ask.table_size,
            min_table=max(2, game.min_players),
            turn_seconds=ask.clock_hours * 3600,
            round_seconds=ask.round_hours * 3600,
            max_entrants=ask.max_entrants,
            options=parsed.to_dict(),
            lower_is_better=game.lower_is_better,
        )
        if not rules.min_entrants <= ask.max_entrants <= MAX_ENTRANTS:
            raise TournamentError(
                f"`max_players` must be between {rules.min_entrants} and {MAX_ENTRANTS} for tables of "
                f"{ask.table_size}."
            )
        name = " ".join(ask.name.split())[:MAX_NAME] or f"{game.title} {ask.format.label}"
        now = self.now()
        tournament_id = await self.storage.create_tournament(
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser_id,
            name=name,
            rules=rules,
            min_table=rules.min_table,
            seed=self._seed_source(),
            closes_at=now + ask.signup_hours * 3600 if ask.signup_hours else None,
            now=now,
        )
        tournament = await self.get(tournament_id)
        self._arm(tournament)
        return tournament

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the sign-up message (it is edited as entrants come and go)."""
        await self.storage.set_tournament_message(tournament_id, message_id)

    async def join(self, tournament_id: int, user_id: int, name: str) -> Tournament:
        """Sign a member up."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            _require_signup(tournament)
            if tournament.by_user(user_id) is not None:
                raise TournamentError(f"You are already signed up for {tournament.name}.")
            await self._add(tournament, user_id, name, None)
            return await self._changed(tournament_id)

    async def add_computer(
        self, tournament_id: int, user_id: int, level: str, *, moderator: bool
    ) -> Tournament:
        """The organiser signs a computer player up."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            _require_organiser(tournament, user_id, moderator)
            _require_signup(tournament)
            taken = {e.name for e in tournament.entrants}
            name = next((n for n in COMPUTER_NAMES if n not in taken), None)
            if name is None:
                name = next(
                    f"Computer {i}" for i in range(1, MAX_ENTRANTS + 2) if f"Computer {i}" not in taken
                )
            await self._add(tournament, None, name, level)
            return await self._changed(tournament_id)

    async def _add(self, tournament: Tournament, user_id: int | None, name: str, level: str | None) -> None:
        try:
            number = await self.storage.add_entrant(
                tournament.id, user_id=user_id, name=name, ai_level=level, now=self.now()
            )
        except UniqueViolation:
            raise TournamentError(f"You are already signed up for {tournament.name}.") from None
        if number is None:
            raise TournamentError(
                f"{tournament.name} is full ({tournament.rules.max_entrants} players is its limit)."
            )

    async def leave(self, tournament_id: int, user_id: int) -> Tournament:
        """A member takes their name off the sign-up."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            _require_signup(tournament)
            entrant = tournament.by_user(user_id)
            if entrant is None:
                raise TournamentError(f"You are not signed up for {tournament.name}.")
            await self.storage.remove_entrant(tournament_id, entrant.number)
            return await self._changed(tournament_id)

    async def remove(self, tournament_id: int, user_id: int, number: int, *, moderator: bool) -> Tournament:
        """The organiser takes an entrant (a computer, say) off the sign-up."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            _require_organiser(tournament, user_id, moderator)
            _require_signup(tournament)
            await self.storage.remove_entrant(tournament_id, number)
            return await self._changed(tournament_id)

    async def _changed(self, tournament_id: int) -> Tournament:
        tournament = await self.get(tournament_id)
        await self._publish(TournamentUpdate(tournament, TournamentUpdateKind.SIGNUP))
        return tournament

    # -- the start -------------------------------------------------------------------------------

    async def start(self, tournament_id: int, user_id: int, *, moderator: bool) -> Tournament:
        """The organiser closes sign-up and the first round starts."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            _require_organiser(tournament, user_id, moderator)
            _require_signup(tournament)
            rules = tournament.rules
            if len(tournament.entrants) < rules.min_entrants:
                raise TournamentError(
                    f"{tournament.name} needs at least {rules.min_entrants} players to start; it has "
                    f"{len(tournament.entrants)}."
                )
            return await self._begin(tournament)

    async def _begin(self, tournament: Tournament) -> Tournament:
        """Seed the entrants (server ratings, then sign-up order), draw a round robin's
        schedule, and start the first round."""
        people = [e.user_id for e in tournament.entrants if e.user_id is not None]
        rated = await self.storage.ratings_of(tournament.rules.game, scopes(tournament.guild_id)[0], people)
        order = sorted(
            tournament.entrants,
            key=lambda e: (-(rated.get(e.user_id, 0.0) if e.user_id is not None else 0.0), e.number),
        )
        seeds = {e.number: index for index, e in enumerate(order, start=1)}
        rules = tournament.rules
        schedule: list[Plan] = []
        rounds = rules.rounds
        if rules.format is Format.ROUND_ROBIN:
            numbers = [e.number for e in order]
            schedule = await workers.run(
                pairing.round_robin, numbers, rules.table_size, rules.min_table, kind=workers.PAIRING
            )
            rounds = len(schedule)
        if not await self.storage.start_tournament(
            tournament.id, seeds=seeds, rounds=rounds, schedule=schedule, now=self.now()
        ):
            raise TournamentError(f"{tournament.name} has already started.")
        self.clock.disarm(tournament.id)
        started = await self.get(tournament.id)
        await self._open_round(started, 1, ())
        return await self.get(tournament.id)

    # -- rounds ----------------------------------------------------------------------------------

    async def _plan(self, tournament: Tournament, number: int) -> Plan:
        """Round ``number``'s tables and byes (the lock is held)."""
        rules = tournament.rules
        if rules.format is Format.ROUND_ROBIN:
            return tournament.schedule[number - 1]
        lines = self.standings(tournament)
        active = {e.number for e in tournament.entrants if e.active_in(number)}
        ranking = [line.number for line in lines if line.number in active]
        points = {line.number: line.points for line in lines}
        hist = pairing.history(_played_plans(tournament))
        return await workers.run(
            pairing.swiss, ranking, points, hist, rules.table_size, rules.min_table, kind=workers.PAIRING
        )

    async def _open_round(self, tournament: Tournament, number: int, previous: Sequence[Standing]) -> None:
        """Pair round ``number``, store it, start its games and announce it (the lock is held)."""
        plan = await self._plan(tournament, number)
        tables: list[tuple[tuple[int, ...], TableResult | None]] = []
        byes = [p for p in plan.byes if tournament.entrant(p).active_in(number)]
        for seats in plan.tables:
            tables.append((seats, self._forfeit(tournament, seats, number)))
        if not tables and not byes:
            await self._finish(tournament, previous)
            return
        now = self.now()
        deadline = now + tournament.rules.round_seconds if tournament.rules.round_seconds else None
        await self.storage.open_round(
            tournament.id, number, tables=tables, byes=byes, now=now, deadline=deadline
        )
        opened = await self.get(tournament.id)
        games = await self._start_games(opened, number)
        self._arm(opened)
        fresh = await self.get(tournament.id)
        await self._publish(
            TournamentUpdate(fresh, TournamentUpdateKind.ROUND_STARTED, tuple(previous), games=games)
        )
        await self._check_round(fresh)

    def _forfeit(self, tournament: Tournament, seats: Sequence[int], number: int) -> TableResult | None:
        """The result of a table too short of players to be played (withdrawals), or None."""
        present = [s for s, p in enumerate(seats) if tournament.entrant(p).active_in(number)]
        if len(present) == len(seats) or len(present) >= tournament.rules.min_table:
            return None
        absent = frozenset(s for s in range(len(seats)) if s not in present)
        ranks = tuple(1 if s in present else 2 for s in range(len(seats)))
        return TableResult(ranks, (0,) * len(seats), absent, How.FORFEIT)

    async def _start_games(self, tournament: Tournament, number: int) -> dict[int, Session]:
        """Start the game of every table of the round that has none yet (or adopt the one a
        restart interrupted); table id -> session."""
        started: dict[int, Session] = {}
        for table in tournament.tables_of(number):
            if table.done:
                continue
            try:
                session = await self._table_game(tournament, table, number)
            except Exception:
                log.exception("tournament %s: the game of table %s could not start", tournament.id, table.id)
                continue
            if session is not None:
                started[table.id] = session
        return started

    async def _table_game(self, tournament: Tournament, table: Table, number: int) -> Session | None:
        seated = [tournament.entrant(p) for p in table.seats if tournament.entrant(p).active_in(number)]
        session = self.sessions.get(table.game_id) if table.game_id is not None else None
        if session is None and table.game_id is None:
            row = await self.storage.game_in_table(tournament.channel_id, tournament.rules.game, -table.id)
            if row is not None:
                session = self.sessions.get(row.id)
        if session is None and table.game_id is not None:
            return None  # its game is over: the restore catches up with it
        wanted = [(e.user_id, e.name, e.ai_level) for e in seated]
        if session is not None and [(s.user_id, s.name, s.ai_level) for s in session.seats] != wanted:
            # a lobby a restart interrupted while it was being seated: start afresh
            await self.sessions.abort(session, tournament.organiser_id, moderator=True)
            session = None
        if session is None:
            session = await self.sessions.open_table(
                tournament.rules.game,
                guild_id=tournament.guild_id,
                channel_id=tournament.channel_id,
                host_id=tournament.organiser_id,
                seats=[SeatRow(i, e.user_id, e.name, e.ai_level) for i, e in enumerate(seated)],
                options=dict(tournament.rules.options),
                turn_seconds=tournament.rules.turn_seconds,
                table_key=-table.id,
            )
        if table.game_id != session.id:
            await self.storage.set_table_game(table.id, session.id)
        self._games[session.id] = tournament.id
        if session.status is Status.LOBBY:
            await self.sessions.start(session, tournament.organiser_id, shuffle=False)
        return session

    # -- results ---------------------------------------------------------------------------------

    async def _on_game_update(self, update: Update) -> None:
        """The session service's listener: a tournament game that ended or was called off gets
        its table's result (in the background, so the move's reply does not wait)."""
        if not (update.finished or update.kind is UpdateKind.ABORTED):
            return
        tournament_id = self._games.get(update.session.id)
        if tournament_id is None:
            return
        self._spawn(self._game_over(tournament_id, update.session.id), f"tournament-{tournament_id}-result")

    def _spawn(self, work: Awaitable[None], name: str) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("%s failed", name)

        task = asyncio.get_running_loop().create_task(run(), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _game_over(self, tournament_id: int, game_id: int) -> None:
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            if tournament.phase not in (Phase.RUNNING, Phase.PAUSED):
                return
            table = tournament.table_of_game(game_id)
            if table is None or table.done:
                return
            row = await self.storage.game(game_id)
            result = self._result_of(tournament, table, row)
            if result is None:
                return
            await self.storage.set_table_result(table.id, result)
            self._games.pop(game_id, None)
            await self._check_round(await self.get(tournament_id))

    def _result_of(self, tournament: Tournament, table: Table, row: GameRow | None) -> TableResult | None:
        """A table's result from its game: the game's ranks where it finished; where it was
        called off, the player to act lost and the others rank by the scores then. Players who
        were not at the game (withdrawn) or forfeited it are absent. None while it runs."""
        if row is None or row.status.is_active:
            return None
        present = [s for s, p in enumerate(table.seats) if tournament.entrant(p).active_in(table.round)]
        count = len(table.seats)
        ranks = [len(present) + 1] * count
        scores = [0] * count
        absent = {s for s in range(count) if s not in present}
        if row.status is Status.FINISHED and row.outcome is not None:
            outcome = row.outcome
            for seat, table_seat in enumerate(present):
                ranks[table_seat] = int(outcome["ranks"][seat])
                scores[table_seat] = int(outcome["scores"][seat])
            absent |= {present[seat] for seat in outcome.get("forfeited", ())}
            return TableResult(tuple(ranks), tuple(scores), frozenset(absent), How.PLAYED)
        snapshot = row.snapshot or {}
        running = list(snapshot.get("scores") or [0] * len(present))
        to_act = snapshot.get("to_act")
        keys = []
        for seat, table_seat in enumerate(present):
            scores[table_seat] = int(running[seat]) if seat < len(running) else 0
            late = seat == to_act
            if late:
                absent.add(table_seat)
            score = scores[table_seat]
            keys.append((0 if late else 1, -score if tournament.rules.lower_is_better else score))
        for seat, rank in enumerate(competition_ranks(keys)):
            ranks[present[seat]] = rank
        return TableResult(tuple(ranks), tuple(scores), frozenset(absent), How.STOPPED)

    async def _check_round(self, tournament: Tournament) -> None:
        """Close the round under way once every table has a result; then the next round (while
        running) or the end (the lock is held)."""
        number = tournament.round
        if not number or not tournament.round_complete(number):
            return
        row = tournament.round_row(number)
        if row is not None and row.finished_at is None:
            await self.storage.finish_round(tournament.id, number, self.now())
            tournament = await self.get(tournament.id)
        self._arm(tournament)
        if tournament.phase is not Phase.RUNNING:
            return
        lines = self.standings(tournament)
        active = [e for e in tournament.entrants if e.active_in(number + 1)]
        if number >= tournament.rules.rounds or len(active) < 2:
            await self._finish(tournament, lines)
            return
        await self._open_round(tournament, number + 1, lines)

    async def _finish(self, tournament: Tournament, lines: Sequence[Standing]) -> None:
        final = [(line.number, line.rank, float(line.points)) for line in lines]
        if await self.storage.finish_tournament(tournament.id, final, self.now()):
            self.clock.disarm(tournament.id)
            done = await self.get(tournament.id)
            await self._publish(TournamentUpdate(done, TournamentUpdateKind.FINISHED, tuple(lines)))

    # -- organiser tools -------------------------------------------------------------------------

    async def withdraw(self, tournament_id: int, user_id: int, number: int, *, moderator: bool) -> Tournament:
        """Withdraw an entrant: a person's game under way is resigned (a loss), and they are not
        paired again (a round robin's later tables count them absent: a loss each)."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            entrant = tournament.entrant(number)
            if user_id != entrant.user_id:
                _require_organiser(tournament, user_id, moderator)
            if tournament.phase is Phase.SIGNUP:
                await self.storage.remove_entrant(tournament_id, number)
                return await self._changed(tournament_id)
            _require_under_way(tournament)
            if entrant.withdrawn_round is not None:
                raise TournamentError(f"{entrant.name} has already withdrawn.")
            await self.storage.withdraw_entrant(tournament_id, number, tournament.round + 1)
            for table in tournament.tables_of(tournament.round):
                if number in table.seats and not table.done and table.game_id is not None:
                    await self._resign(table.game_id, entrant)
            return await self.get(tournament_id)

    async def _resign(self, game_id: int, entrant: Entrant) -> None:
        session = self.sessions.get(game_id)
        if session is None or entrant.user_id is None or session.status is not Status.PLAYING:
            return  # a computer plays its game out
        try:
            await self.sessions.resign(session, entrant.user_id)
        except errors.SessionError as error:
            log.info("game %s: %s could not resign: %s", game_id, entrant.name, error)

    async def pause(self, tournament_id: int, user_id: int, *, moderator: bool) -> Tournament:
        """Hold the next round (games under way play on; the round's deadline waits)."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            _require_organiser(tournament, user_id, moderator)
            if not await self.storage.set_tournament_status(
                tournament_id, Phase.PAUSED.value, expect=("running",)
            ):
                raise TournamentError(f"{tournament.name} is not running (it is {tournament.phase.words}).")
            paused = await self.get(tournament_id)
            self._arm(paused)
            return paused

    async def resume(self, tournament_id: int, user_id: int, *, moderator: bool) -> Tournament:
        """Go on: the next round starts at once if the last one has ended."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            _require_organiser(tournament, user_id, moderator)
            if not await self.storage.set_tournament_status(
                tournament_id, Phase.RUNNING.value, expect=("paused",)
            ):
                raise TournamentError(f"{tournament.name} is not paused.")
            running = await self.get(tournament_id)
            self._arm(running)
            await self._check_round(running)
            return await self.get(tournament_id)

    async def cancel(
        self, tournament_id: int, user_id: int, *, moderator: bool, note: str = ""
    ) -> Tournament:
        """Call the tournament off: no standings are kept and it never shows in anyone's
        history. Games already finished stay as the ordinary games they were (their results
        and ratings stand); games under way are called off (no result)."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            _require_organiser(tournament, user_id, moderator)
            return await self._cancel(tournament, note)

    async def _cancel(self, tournament: Tournament, note: str) -> Tournament:
        expect = ("signup", "running", "paused")
        if not await self.storage.set_tournament_status(
            tournament.id, Phase.CANCELLED.value, expect=expect, now=self.now()
        ):
            raise TournamentError(f"{tournament.name} is over already.")
        self.clock.disarm(tournament.id)
        for table in tournament.tables:
            if table.game_id is None:
                continue
            self._games.pop(table.game_id, None)
            session = self.sessions.get(table.game_id)
            if session is not None and session.status.is_active:
                try:
                    await self.sessions.abort(session, tournament.organiser_id, moderator=True)
                except errors.SessionError as error:
                    log.info("game %s: not called off: %s", table.game_id, error)
        cancelled = await self.get(tournament.id)
        await self._publish(TournamentUpdate(cancelled, TournamentUpdateKind.CANCELLED, note=note))
        return cancelled

    async def adjust(
        self,
        tournament_id: int,
        user_id: int,
        *,
        round_number: int,
        entrant: int,
        order: Sequence[Sequence[int]],
        reason: str,
        moderator: bool,
    ) -> tuple[Table, TableResult]:
        """Change the result of ``entrant``'s table in a round: ``order`` lists the table's
        entrants by finishing place, best first (players sharing a place together). Recorded
        with who did it, when and why; the game itself (and ratings) stay as they were."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            _require_organiser(tournament, user_id, moderator)
            _require_under_way(tournament)
            table = next((t for t in tournament.tables_of(round_number) if entrant in t.seats), None)
            if table is None:
                raise TournamentError(
                    f"{tournament.entrant(entrant).name} had no table in round {round_number}."
                )
            if not table.done:
                raise TournamentError(
                    "That table's game is still being played; adjust it once it ends (or call the game off)."
                )
            placed = [p for group in order for p in group]
            if sorted(placed) != sorted(table.seats):
                names = ", ".join(tournament.entrant(p).name for p in table.seats)
                raise TournamentError(f"Give every player of that table once, in finishing order: {names}.")
            rank_of: dict[int, int] = {}
            place = 1
            for group in order:
                for p in group:
                    rank_of[p] = place
                place += len(group)
            before = table.result
            assert before is not None
            after = TableResult(
                tuple(rank_of[p] for p in table.seats), before.scores, frozenset(), How.ADJUSTED
            )
            await self.storage.adjust_result(
                tournament_id,
                table.id,
                before=before,
                after=after,
                user_id=user_id,
                reason=reason,
                now=self.now(),
            )
            return table, after

    # -- clocks ----------------------------------------------------------------------------------

    def _arm(self, tournament: Tournament) -> None:
        """Set the tournament's alarm: the end of sign-up, or the round's deadline."""
        when: float | None = None
        if tournament.phase is Phase.SIGNUP:
            when = tournament.closes_at
        elif tournament.phase is Phase.RUNNING:
            row = tournament.round_row(tournament.round)
            if row is not None and row.finished_at is None:
                when = row.deadline
        self.clock.arm(tournament.id, when)

    async def _alarm(self, tournament_id: int, kind: str) -> None:
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            now = self.now() + 1e-6
            if tournament.phase is Phase.SIGNUP and tournament.closes_at is not None:
                if tournament.closes_at > now:
                    return self._arm(tournament)
                if len(tournament.entrants) < tournament.rules.min_entrants:
                    await self._cancel(
                        tournament,
                        f"sign-up closed with {len(tournament.entrants)} of the "
                        f"{tournament.rules.min_entrants} players it needs",
                    )
                    return None
                await self._begin(tournament)
                return None
            if tournament.phase is Phase.RUNNING:
                await self._deadline(tournament, now)
        return None

    async def _deadline(self, tournament: Tournament, now: float) -> None:
        """The round's time is up: every game still under way is stopped; its player to act
        loses and the others rank by the scores then."""
        row = tournament.round_row(tournament.round)
        if row is None or row.deadline is None or row.finished_at is not None:
            return
        if row.deadline > now:
            self._arm(tournament)
            return
        for table in tournament.tables_of(tournament.round):
            if table.done or table.game_id is None:
                continue
            session = self.sessions.get(table.game_id)
            if session is not None and session.status.is_active:
                await self.sessions.abort(session, tournament.organiser_id, moderator=True)
            result = self._result_of(tournament, table, await self.storage.game(table.game_id))
            if result is not None:
                await self.storage.set_table_result(table.id, result)
                self._games.pop(table.game_id, None)
        await self._check_round(await self.get(tournament.id))

    # -- restart ---------------------------------------------------------------------------------

    async def restore(self) -> list[int]:
        """After a restart (once the session service has restored its games): re-arm every
        tournament's clock and catch up with what happened while the bot was away."""
        restored = []
        for tournament_id in await self.storage.active_tournaments(self.sessions.shards):
            try:
                async with self._lock(tournament_id):
                    await self._catch_up(await self.get(tournament_id))
            except Exception:
                log.exception("tournament %s could not be restored", tournament_id)
                continue
            restored.append(tournament_id)
        return restored

    async def _catch_up(self, tournament: Tournament) -> None:
        self._arm(tournament)
        if tournament.phase is Phase.SIGNUP or not tournament.round:
            return
        number = tournament.round
        await self._start_games(tournament, number)
        tournament = await self.get(tournament.id)
        for table in tournament.tables_of(number):
            if table.done or table.game_id is None:
                continue
            self._games[table.game_id] = tournament.id
            result = self._result_of(tournament, table, await self.storage.game(table.game_id))
            if result is not None:
                await self.storage.set_table_result(table.id, result)
                self._games.pop(table.game_id, None)
        await self._check_round(await self.get(tournament.id))

    async def idle(self) -> None:
        """Wait until the results being recorded (and what they set off) are done."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop the clock and wait for the results being recorded."""
        await self.clock.close()
        if self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def _played_plans(tournament: Tournament) -> list[Plan]:
    """The rounds so far as plans (tables in seat order, byes), for pairing's history."""
    plans = []
    for row in sorted(tournament.rounds, key=lambda r: r.number):
        tables = tuple(t.seats for t in tournament.tables_of(row.number))
        plans.append(Plan(tables, row.byes))
    return plans


def _require_signup(tournament: Tournament) -> None:
    if tournament.phase is not Phase.SIGNUP:
        raise TournamentError(f"Sign-up for {tournament.name} is closed.")


def _require_under_way(tournament: Tournament) -> None:
    if tournament.phase not in (Phase.RUNNING, Phase.PAUSED):
        raise TournamentError(f"{tournament.name} is {tournament.phase.words}.")


def _require_organiser(tournament: Tournament, user_id: int, moderator: bool) -> None:
    if user_id != tournament.organiser_id and not moderator:
        raise TournamentError(f"Only the organiser of {tournament.name} (or a server manager) can do that.")


def game_of(tournament: Tournament) -> Game[Any, Any]:
    """The tournament's game."""
    return registry.get(tournament.rules.game)
