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
from bot.storage import Clock, Finish, ResultRow, SeatRow, StaleMove
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
            step = await self.commit_move(session, seat, move, user_id)
            steps = (step, *await self.play_forced(session))
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
            step = await self.commit(session, seat, RESIGN, user_id, state, events)
            steps = (step, *await self.play_forced(session))
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
            step = await self.commit(session, seat, TIMEOUT, None, state, events)
            steps = (step, *await self.play_forced(session))
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

    # -- storing a line ------------------------------------------------------------------------

    async def commit_move(
        self,
        session: Session,
        seat: int,
        move: Any,
        user_id: int | None,
        *,
        forced: bool = False,
        by_computer: bool = False,
    ) -> Step:
        """Apply ``move`` and store it (see :meth:`commit`)."""
        game = session.game
        notation = game.format_move(session.state, move)
        if game.searches(session.state, move):  # a solitaire given up: its solver run off the loop
            who = workers.Owner(session.row.guild_id, user_id=user_id, game_id=session.id)
            state, events = await workers.run(
                workers.apply_move, game, session.state, move, kind=workers.GIVE_UP, owner=who
            )
        else:
            state, events = game.apply(session.state, move)
        return await self.commit(
            session, seat, notation, user_id, state, events, forced=forced, by_computer=by_computer
        )

    async def commit(
        self,
        session: Session,
        seat: int,
        notation: str,
        user_id: int | None,
        state: Any,
        events: tuple[Event, ...],
        *,
        forced: bool = False,
        by_computer: bool = False,
    ) -> Step:
        """Write one record line with its snapshot, clock and (if over) results; then adopt it.
        Nothing in memory changes unless the write succeeded."""
        before = session.state
        line = RecordedMove(seat, notation)
        probe = Session(
            session.row, session.game, session.seats, state, session.header, [*session.lines, line]
        )
        outcome = session.game.outcome(state)
        finish = self._finish(session, outcome) if outcome is not None else None
        same_turn = before is not None and session.game.continues_turn(before, state)
        probe.deadline, probe.reminder_at = session.deadline, session.reminder_at
        timeout = notation == TIMEOUT
        clock = Clock() if finish else self.clocks.next_clock(probe, same_turn=same_turn, force=timeout)
        try:
            await self.shared.storage.record_move(
                session.id,
                ply=probe.ply,
                seat=seat,
                notation=notation,
                user_id=user_id,
                snapshot=probe.snapshot(),
                clock=clock,
                now=self.shared.now(),
                finish=finish,
            )
        except StaleMove:
            await self.restorer.reload(session)
            raise errors.StaleAction(
                "The game moved on while your move was being stored (someone else moved first); "
                "look at the latest board and try again."
            ) from None
        self._adopt(session, state, line, clock, finished=finish is not None)
        return Step(seat, notation, events, forced=forced, by_computer=by_computer, new_turn=not same_turn)

    def _adopt(
        self, session: Session, state: Any, line: RecordedMove, clock: Clock, *, finished: bool
    ) -> None:
        """Take a stored line into memory: the state, the record, the clock or the end."""
        session.state = state
        session.lines.append(line)
        session._suggested = None
        if finished:
            session.row = replace(session.row, status=Status.FINISHED)
            self.clocks.disarm(session)
            self.shared.tables.drop(session)
        else:
            self.clocks.set_clock(session, clock)

    async def play_forced(self, session: Session) -> tuple[Step, ...]:
        """Play every forced turn of a person now (the lock is held): no ping, no clock for a
        formality. Computers take their forced moves in their own turn."""
        steps: list[Step] = []
        for _ in range(MAX_COMPUTER_PLIES):
            seat = session.seat_to_act()
            if seat is None or seat.is_computer:
                break
            await self._gate.turn(carrying_on=True)
            move = session.game.forced_move(session.state)
            if move is None:
                break
            steps.append(await self.commit_move(session, seat.seat, move, None, forced=True))
        return tuple(steps)

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
                steps.append(
                    await self.commit_move(session, seat.seat, move, None, forced=False, by_computer=True)
                )
                steps.extend(await self.play_forced(session))
            if any(step.new_turn for step in steps):
                break
        return self.moves_update(session, tuple(steps), None)

    async def close(self) -> None:
        """Stop the computer players."""
        tasks = list(self._computer_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _read_move(session: Session, text: str) -> Any:
    """The move ``text`` names, read on the game's state; what the rules keep for reading it (a
    solitaire's compiled target) is built in a thread first, never on the event loop."""
    game = session.game
    if type(game).prepare is not Game.prepare:
        await asyncio.to_thread(game.prepare, session.state)
    return game.parse_move(session.state, text)
