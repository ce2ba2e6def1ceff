"""Play: moves and resignations, forced turns, computer turns, timeouts, and the one commit
that stores a record line (with its snapshot, clock and, at the end, the results)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any

from bot import errors, workers
from bot.looping import StepGate
from bot.ratings import rating_update
from bot.sessions.clocks import Clocks
from bot.sessions.lookup import Shared
from bot.sessions.restore import Restorer
from bot.sessions.session import (
    Chooser,
    Queued,
    Session,
    Step,
    Update,
    UpdateKind,
    ready,
    require_playing,
    seat_for,
)
from bot.status import Status
from bot.storage import Clock, Finish, Line, ResultRow, SeatRow, StaleMove
from games.core import Event, Game, Outcome
from games.records import RESIGN, TIMEOUT, RecordedMove

log = logging.getLogger(__name__)

MAX_COMPUTER_PLIES = 2_000
"""A safety bound on consecutive computer or forced moves in one go."""


class Referee:
    """Makes the moves of people, computers and the clock, each stored before it is announced."""

    def __init__(self, shared: Shared, clocks: Clocks, restorer: Restorer, chooser: Chooser) -> None:
        self.shared = shared
        self.clocks = clocks
        self.restorer = restorer
        self._chooser = chooser
        self._computer_tasks: dict[int, asyncio.Task[None]] = {}
        self._gate = StepGate()
        """The rules' work of a move (reading, applying, preparing its line) one per turn of the
        event loop: a burst of moves never holds the loop for a whole turn (see :mod:`bot.looping`)."""

    # -- people --------------------------------------------------------------------------------

    async def play(
        self, session: Session, user_id: int, text: str, expected_ply: int | None = None
    ) -> Update:
        """Make a move for the user's seat; stored (with any forced turns after it) before this
        returns, then announced."""
        await ready(session)
        async with Queued(session):
            await self._gate.turn()
            require_playing(session)
            seat = seat_for(session, user_id)
            if expected_ply is not None and expected_ply != session.ply:
                raise errors.StaleAction("The game has moved on since then; look at the latest board.")
            to_act = session.to_act()
            if to_act != seat:
                who = session.seats[to_act].name if to_act is not None else "nobody"
                raise errors.NotYourTurn(f"It is not your turn: {who} is to play.")
            move = await _read_move(session, text)
            lines = Lines(session)
            await self._add_move(lines, seat, move, user_id)
            await self._add_forced(lines, after_move=True)
            steps = await self._store(session, lines)
            update = self.moves_update(session, steps, user_id)
        await self.shared.publish(update)
        self.carry_on(session)
        return update

    async def resign(self, session: Session, user_id: int) -> Update:
        """The user's seat resigns (in or out of turn)."""
        await ready(session)
        async with Queued(session):
            require_playing(session)
            seat = seat_for(session, user_id)
            before = session.to_act()
            state, events = session.game.resign(session.state, seat)
            lines = Lines(session)
            self._add(lines, seat, RESIGN, user_id, state, events)
            await self._add_forced(lines, after_move=True)
            steps = await self._store(session, lines)
            update = self.moves_update(session, steps, user_id, before=before)
        await self.shared.publish(update)
        self.carry_on(session)
        return update

    async def time_out(self, session: Session) -> Update | None:
        """Store what the rules do when the seat to act ran out of time (None: the deadline
        moved on since the alarm was set)."""
        async with session.lock:
            if session.deadline is None or session.deadline > self.shared.now() + 1e-6:
                return None
            seat = session.to_act()
            if seat is None:
                return None
            state, events = session.game.on_timeout(session.state)
            lines = Lines(session)
            self._add(lines, seat, TIMEOUT, None, state, events)
            await self._add_forced(lines, after_move=True)
            steps = await self._store(session, lines)
            return self.moves_update(session, steps, None, before=seat)

    async def resume(self, session: Session) -> None:
        """After a restart: play forced turns left pending and wake computer seats."""
        try:
            async with session.lock:
                steps = await self.play_forced(session)
        except Exception:
            log.exception("game %s: forced turns could not be played after the restart", session.id)
            return
        if steps:
            await self.shared.publish(self.moves_update(session, steps, None))
        self.carry_on(session)

    def moves_update(
        self, session: Session, steps: tuple[Step, ...], user_id: int | None, before: int | None = None
    ) -> Update:
        """The update announcing ``steps``; ``before`` is the seat that was to act before them
        where it need not be the first mover (a resignation, a timeout).

        The turn passed when any line ended a turn (a forced draw that opens the next player's
        turn included) or another seat is to act now: its player is then told in a new
        message; otherwise the running turn goes on (its message is edited). A timeout that
        leaves its seat to act (a penalty and more time) is a step of the same turn."""
        acting = before if before is not None else (steps[0].seat if steps else None)
        after = session.to_act()
        ended = any(step.new_turn and not (step.line == TIMEOUT and step.seat == after) for step in steps)
        passed = session.is_over or ended or (after is not None and after != acting)
        return Update(session, UpdateKind.MOVES, steps, turn_passed=passed, user_id=user_id)

    # -- storing lines ---------------------------------------------------------------------

    async def _add_move(
        self,
        lines: Lines,
        seat: int,
        move: Any,
        user_id: int | None,
        *,
        forced: bool = False,
        by_computer: bool = False,
    ) -> None:
        """Apply ``move`` to the position ``lines`` reach and add its line (see :meth:`_add`)."""
        game, state = lines.probe.game, lines.probe.state
        notation = game.format_move(state, move)
        if game.searches(state, move):  # a solitaire given up: its solver run off the loop
            who = workers.Owner(lines.probe.row.guild_id, user_id=user_id, game_id=lines.probe.id)
            after, events = await workers.run(
                workers.apply_move, game, state, move, kind=workers.GIVE_UP, owner=who
            )
        else:
            after, events = game.apply(state, move)
        self._add(lines, seat, notation, user_id, after, events, forced=forced, by_computer=by_computer)

    def _add(
        self,
        lines: Lines,
        seat: int,
        notation: str,
        user_id: int | None,
        state: Any,
        events: tuple[Event, ...],
        *,
        forced: bool = False,
        by_computer: bool = False,
    ) -> None:
        """Work out one record line: the position after it, its clock and (if over) the results.
        Nothing is stored and the session does not change (:meth:`_store` does both)."""
        probe = lines.probe
        before = probe.state
        outcome = probe.game.outcome(state)
        finish = self._finish(probe, outcome) if outcome is not None else None
        same_turn = before is not None and probe.game.continues_turn(before, state)
        probe.state = state
        probe.lines.append(RecordedMove(seat, notation))
        try:
            timeout = notation == TIMEOUT
            clock = Clock() if finish else self.clocks.next_clock(probe, same_turn=same_turn, force=timeout)
        except BaseException:  # the probe stays at the last line worked out
            probe.state = before
            probe.lines.pop()
            raise
        probe.deadline, probe.reminder_at = clock.deadline, clock.reminder_at
        if finish is not None:
            probe.row = replace(probe.row, status=Status.FINISHED)
        lines.add(
            Line(probe.ply, seat, notation, user_id),
            Step(seat, notation, events, forced=forced, by_computer=by_computer, new_turn=not same_turn),
            clock,
            finish,
        )

    async def _store(self, session: Session, lines: Lines) -> tuple[Step, ...]:
        """Store every line worked out in one transaction (one trip to the database, whatever
        their number), then take them into memory; their steps. Nothing in memory changes
        unless the write succeeded."""
        if not lines.steps:
            return ()
        probe = lines.probe
        try:
            await self.shared.storage.record_moves(
                session.id,
                lines.lines,
                snapshot=probe.snapshot(),
                clock=lines.clock,
                now=self.shared.now(),
                finish=lines.finish,
            )
        except StaleMove:
            await self.restorer.reload(session)
            raise errors.StaleAction(
                "The game moved on while your move was being stored (someone else moved first); "
                "look at the latest board and try again."
            ) from None
        session.state = probe.state
        session.lines.extend(probe.lines[session.ply :])
        session._suggested = None
        if lines.finish is not None:
            session.row = replace(session.row, status=Status.FINISHED)
            self.clocks.disarm(session)
            self.shared.tables.drop(session)
        else:
            self.clocks.set_clock(session, lines.clock)
        return tuple(lines.steps)

    async def play_forced(self, session: Session) -> tuple[Step, ...]:
        """Play every forced turn of a person now (the lock is held), stored together: no ping,
        no clock for a formality. Computers take their forced moves in their own turn."""
        lines = Lines(session)
        await self._add_forced(lines)
        return await self._store(session, lines)

    async def _add_forced(self, lines: Lines, *, after_move: bool = False) -> None:
        """Add the forced turns of people that follow the position ``lines`` reach, each
        decided from the position the one before it left.

        ``after_move``: the lines hold an action of someone's already (a move, a resignation, a
        timeout), which must be stored whatever happens here: if working out a forced turn
        fails, the failure is logged and the lines so far are stored without it (the turn is
        still forced afterwards, and is played when the game is next resumed)."""
        try:
            for _ in range(MAX_COMPUTER_PLIES):
                seat = lines.probe.seat_to_act()
                if seat is None or seat.is_computer:
                    break
                await self._gate.turn(carrying_on=True)
                move = lines.probe.game.forced_move(lines.probe.state)
                if move is None:
                    break
                await self._add_move(lines, seat.seat, move, None, forced=True)
        except Exception:
            if not after_move:
                raise
            log.exception("game %s: a forced turn could not be worked out", lines.probe.id)

    def _finish(self, session: Session, outcome: Outcome) -> Finish:
        results = [
            ResultRow(
                seat=seat.seat,
                user_id=seat.user_id,
                ai_level=seat.ai_level,
                rank=outcome.ranks[seat.seat],
                score=outcome.scores[seat.seat],
                forfeited=seat.seat in outcome.forfeited,
                won=outcome.ranks[seat.seat] == 1
                and not outcome.is_draw
                and seat.seat not in outcome.forfeited,
                draw=outcome.is_draw and outcome.ranks[seat.seat] == 1,
                helped=seat.seat in outcome.helped,
            )
            for seat in session.seats
        ]
        rated = rating_update(session.game.name, session.row.guild_id, results)
        return Finish(outcome.to_dict(), results, rated)

    # -- computers -----------------------------------------------------------------------------

    def carry_on(self, session: Session) -> None:
        """Let computer players move (in the background) if one of them is to act."""
        seat = session.seat_to_act()
        if seat is None or not seat.is_computer:
            return
        running = self._computer_tasks.get(session.id)
        if running is not None and not running.done():
            return
        task = asyncio.get_running_loop().create_task(
            self._run_computers(session), name=f"computers-{session.id}"
        )
        self._computer_tasks[session.id] = task
        task.add_done_callback(lambda _: self._computer_tasks.pop(session.id, None))

    async def _run_computers(self, session: Session) -> None:
        for _ in range(MAX_COMPUTER_PLIES):
            seat = session.seat_to_act()
            if seat is None or not seat.is_computer:
                return
            try:
                update = await self._computer_turn(session, seat)
            except errors.StaleAction:
                continue  # someone resigned or the clock ran meanwhile: look again
            except Exception:
                log.exception("game %s: the computer in seat %s could not move", session.id, seat.seat)
                return
            await self.shared.publish(update)
        log.error("game %s: computers made %d moves in a row; stopping", session.id, MAX_COMPUTER_PLIES)

    async def _computer_turn(self, session: Session, seat: SeatRow) -> Update:
        """One whole turn of a computer seat (several moves where a turn has several steps)."""
        steps: list[Step] = []
        while session.to_act() == seat.seat and len(steps) < MAX_COMPUTER_PLIES:
            state = session.state
            move = session.game.forced_move(state)
            if move is None:
                move = await self._chooser(session)
            async with Queued(session):
                if session.state is not state:
                    if steps:
                        break
                    raise errors.StaleAction("the position changed while the computer was thinking")
                lines = Lines(session)
                await self._add_move(lines, seat.seat, move, None, by_computer=True)
                await self._add_forced(lines, after_move=True)
                steps.extend(await self._store(session, lines))
            if any(step.new_turn for step in steps):
                break
        return self.moves_update(session, tuple(steps), None)

    async def close(self) -> None:
        """Stop the computer players."""
        tasks = list(self._computer_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class Lines:
    """Record lines worked out from a session's position and not stored yet (a move and the
    forced turns after it): each is decided from the position the one before it left, on
    :attr:`probe`, a copy of the session; the session itself changes only once they are stored."""

    def __init__(self, session: Session) -> None:
        self.probe = Session(
            session.row,
            session.game,
            session.seats,
            session.state,
            session.header,
            list(session.lines),
            deadline=session.deadline,
            reminder_at=session.reminder_at,
        )
        self.lines: list[Line] = []
        self.steps: list[Step] = []
        self.clock = Clock(session.deadline, session.reminder_at)
        """The clock after the last line."""
        self.finish: Finish | None = None
        """The end of the game, when the last line ends it."""

    def add(self, line: Line, step: Step, clock: Clock, finish: Finish | None) -> None:
        """One more line, with the clock and end it leaves."""
        self.lines.append(line)
        self.steps.append(step)
        self.clock, self.finish = clock, finish


async def _read_move(session: Session, text: str) -> Any:
    """The move ``text`` names, read on the game's state; what the rules keep for reading it (a
    solitaire's compiled target) is built in a thread first, never on the event loop."""
    game = session.game
    if type(game).prepare is not Game.prepare:
        await asyncio.to_thread(game.prepare, session.state)
    return game.parse_move(session.state, text)
