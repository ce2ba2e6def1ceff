"""The tournament service without Discord (a real session service and storage, SQLite and
PostgreSQL): restarts at the awkward moments lose nothing — a game that ended while the bot was
away, a round stored whose games never started, a lobby seated halfway — and the refusals."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from bot.sessions import SessionService
from bot.storage import SeatRow, Storage
from bot.tournaments.model import Format, Phase
from bot.tournaments.service import NewTournament, TournamentError, TournamentService
from games import registry
from tests.bot.fakes import FakeTime
from tests.support import tiny

registry.register(tiny.GAME)
GUILD, CHANNEL, ORGANISER = 1 << 22, 900, 1


@dataclass
class Bot:
    storage: Storage
    sessions: SessionService
    tournaments: TournamentService

    async def close(self) -> None:
        await self.tournaments.close()
        await self.sessions.close()


async def boot(url: str, time: FakeTime) -> Bot:
    """A bot's services on the database at ``url``, restored as after a restart."""
    storage = await Storage.open(url)
    sessions = SessionService(storage, now=time.now, sleep=time.sleep, seed_source=lambda: 5)
    tournaments = TournamentService(storage, sessions, now=time.now, sleep=time.sleep, seed_source=lambda: 6)
    await sessions.restore()
    for session in sessions.sessions():
        await sessions.ready(session)
    await tournaments.restore()
    return Bot(storage, sessions, tournaments)


@pytest.fixture
async def world(database_url: str) -> AsyncIterator[tuple[str, FakeTime, list[Bot]]]:
    time = FakeTime()
    bots: list[Bot] = []
    yield database_url, time, bots
    for bot in bots:
        await bot.close()
        await bot.storage.close()


async def swiss(bot: Bot, players: int = 4, rounds: int = 2) -> int:
    ask = NewTournament(game="tiny", format=Format.SWISS, rounds=rounds, signup_hours=0, options={"hand": 2})
    tournament = await bot.tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, organiser_id=ORGANISER, ask=ask
    )
    for user in range(10, 10 + players):
        await bot.tournaments.join(tournament.id, user, f"p{user}")
    await bot.tournaments.start(tournament.id, ORGANISER, moderator=False)
    return tournament.id


async def finish_round(bot: Bot, tournament_id: int) -> None:
    """The second seat of every game of the round under way resigns."""
    tournament = await bot.tournaments.get(tournament_id)
    for table in tournament.tables_of(tournament.round):
        session = bot.sessions.get(table.game_id or 0)
        if session is not None:
            await bot.sessions.resign(session, session.seats[1].user_id or 0)
    await bot.tournaments.idle()


async def test_a_game_that_ended_while_the_bot_was_away(world: tuple[str, FakeTime, list[Bot]]) -> None:
    url, time, bots = world
    first = await boot(url, time)
    bots.append(first)
    tid = await swiss(first)
    tournament = await first.tournaments.get(tid)
    game_ids = [t.game_id for t in tournament.tables_of(1)]
    # the games end while no tournament service listens (the bot is away)
    await first.tournaments.close()
    first.sessions._listeners.clear()  # the bot is away: nobody records results
    for game_id in game_ids:
        session = first.sessions.get(game_id or 0)
        assert session is not None
        await first.sessions.resign(session, session.seats[0].user_id or 0)
    second = await boot(url, time)
    bots.append(second)
    restored = await second.tournaments.get(tid)
    assert restored.round == 2 and restored.round_complete(1), "the restart caught up and paired round 2"
    assert all(t.game_id is not None for t in restored.tables_of(2))


async def test_a_round_stored_whose_games_never_started(world: tuple[str, FakeTime, list[Bot]]) -> None:
    url, time, bots = world
    first = await boot(url, time)
    bots.append(first)
    tid = await swiss(first, rounds=3)
    await finish_round(first, tid)
    tournament = await first.tournaments.get(tid)
    assert tournament.round == 2
    # pretend the bot stopped right after storing round 3, before any of its games existed
    await finish_round(first, tid)
    tournament = await first.tournaments.get(tid)
    assert tournament.round == 3
    await first.tournaments.close()
    first.sessions._listeners.clear()  # the tournament service is gone with the bot
    for table in tournament.tables_of(3):
        session = first.sessions.get(table.game_id or 0)
        assert session is not None
        await first.sessions.abort(session, ORGANISER, moderator=True)
    async with first.storage.database.transaction() as tx:
        await tx.execute("UPDATE tournament_tables SET game_id = NULL, result = NULL WHERE round = 3")
    # ... and a lobby seated halfway for one of them
    table = tournament.tables_of(3)[0]
    await first.storage.create_game(
        game="tiny",
        guild_id=GUILD,
        channel_id=CHANNEL,
        host=SeatRow(0, 99, "stranger"),
        options={"hand": 2},
        seed=1,
        deal=None,
        turn_seconds=3600,
        now=time.now(),
        table_key=-table.id,
        host_id=ORGANISER,
    )
    await first.close()
    second = await boot(url, time)
    bots.append(second)
    restored = await second.tournaments.get(tid)
    games = [second.sessions.get(t.game_id or 0) for t in restored.tables_of(3)]
    assert all(game is not None and game.state is not None for game in games), "every table has its game"
    for t, game in zip(restored.tables_of(3), games, strict=True):
        assert game is not None and [s.name for s in game.seats] == [
            restored.entrant(p).name for p in t.seats
        ]


async def test_refusals(world: tuple[str, FakeTime, list[Bot]]) -> None:
    url, time, bots = world
    bot = await boot(url, time)
    bots.append(bot)
    with pytest.raises(TournamentError, match="played alone"):
        await bot.tournaments.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            organiser_id=1,
            ask=NewTournament(game="puzzosolo", format=Format.SWISS, rounds=2),
        )
    ask = NewTournament(game="tiny", format=Format.SWISS, rounds=2, signup_hours=1)
    tournament = await bot.tournaments.create(guild_id=GUILD, channel_id=CHANNEL, organiser_id=1, ask=ask)
    await bot.tournaments.join(tournament.id, 10, "p10")
    # sign-up closes with too few players: the tournament is called off by itself
    await time.advance(3601)
    await bot.tournaments.idle()
    assert (await bot.tournaments.get(tournament.id)).phase is Phase.CANCELLED
