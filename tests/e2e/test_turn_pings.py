"""Every turn start is told (issue 22, item 1): whole games of every kind through SimCord, with
people only and with computer players (``normal`` and ``easy``; a computer opens), checked
after every command. For every change of turn, the player whose turn starts (with a decision to
make) is notified exactly once: one new message whose allowed mentions ping them, whatever
forced steps or computer moves came before it; a step inside a running turn notifies nobody; the
result pings the players but the one who ended the game; nothing else pings anyone. A
solitaire pings nobody.

Pings are read when each message is created (Discord does not notify on edits; SimCord would
recompute an edited message's mentions), from the simulated Discord's own gateway events."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

from bot import workers
from bot.client import TilehostBot
from games import records, registry
from tests.e2e.helpers import Pings, build_bot, game_state, make_world, private, room, rows

GAMES = ("geominos", "triominos", "geronimos", "puzzominos", "tileup")
EXTENSIONS = ("cogs.lobby", "cogs.standings", *(f"cogs.{name}" for name in GAMES))
SHORT = {"triominos": {"target": 200}, "geronimos": {"bag": 20}, "geominos": {"mode": "one"}}
"""Options that keep a game short, where the game has them."""
MAX_COMMANDS = 400


@pytest.fixture
def seed() -> list[int]:
    return [1000]


@pytest.fixture
def simcord_bot(db_path: str, seed: list[int]) -> TilehostBot:
    return build_bot(db_path, EXTENSIONS, seed)


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Ping Club", "games", names=("łukasz", "zoë", "ana"))


@dataclass(frozen=True)
class Turn:
    """Where a stored game stands: how many turns have started, who acts, and whether they
    have a decision to make."""

    status: str
    turns: int
    user_id: int | None
    """The person to act (None: a computer, or nobody)."""
    ended_by: int | None = None
    """The person whose command made the last moves (None: a computer's move came last)."""


class Record:
    """A stored game followed move by move as it is stored (turns counted as the bot counts
    them: a new turn when the game says the turn did not go on)."""

    def __init__(self, db_path: str, game_id: int) -> None:
        self.db_path, self.game_id = db_path, game_id
        (name, options, seed), *_ = rows(
            db_path, "SELECT game, options, seed FROM games WHERE id = ?", game_id
        )
        self.game = registry.get(name)
        self.seats = dict(rows(db_path, "SELECT seat, user_id FROM seats WHERE game_id = ?", game_id))
        players = len(self.seats)
        self.state = self.game.new(players, self.game.Options.from_dict(json.loads(options)), seed=seed)
        self.ply, self.turns, self.ended_by = 0, 1, None

    def now(self) -> Turn:
        """The game as stored now."""
        lines = rows(
            self.db_path,
            "SELECT seat, notation, user_id FROM moves WHERE game_id = ? AND ply > ? ORDER BY ply",
            self.game_id,
            self.ply,
        )
        for seat, notation, user_id in lines:
            before = self.state
            self.state, _ = records.play_line(self.game, self.state, records.RecordedMove(seat, notation))
            self.ply += 1
            if self.game.to_act(self.state) is not None and not self.game.continues_turn(before, self.state):
                self.turns += 1
            if user_id is not None or self.seats[seat] is None:
                self.ended_by = user_id  # a person's forced moves after their own are theirs
        to_act = self.game.to_act(self.state)
        status = game_state(self.db_path, self.game_id)[0]
        return Turn(status, self.turns, self.seats.get(to_act) if to_act is not None else None, self.ended_by)


def check_told(pings: Pings, mark: int, before: Turn | None, after: Turn, humans: set[int]) -> None:
    """What the messages created since ``mark`` notified, as the game went from ``before``
    (None: the start) to ``after``."""
    notified = pings.notified_since(mark)
    if after.status == "finished":
        others = humans - {after.ended_by} if after.ended_by is not None else humans
        assert notified == ([frozenset(others)] if others else []), (notified, pings.created[mark:])
        return
    assert after.status == "playing", after
    turn_started = before is None or after.turns != before.turns
    if turn_started and after.user_id is not None:
        assert notified == [frozenset({after.user_id})], (
            "the player whose turn starts is notified exactly once",
            notified,
            after,
            [content for _, _, content in pings.created[mark:]],
        )
    else:
        assert notified == [], ("nobody is notified inside a running turn", notified, pings.created[mark:])


async def take_first_suggestion(env: Any, place: Any, who: Any, name: str, game_id: int) -> None:
    """``who`` plays the first suggestion (a verb such as ``pass`` or ``draw`` is its command),
    ranked here as autocomplete ranks it."""
    session = env.bot.service.get(game_id)
    value = workers.ranked_moves(session.game, session.state)[0][1]
    verbs = {command.name for command in env.bot.tree.get_command(name).commands}
    if value in verbs:
        answer = private(await who.slash(place, f"{name} {value}"))
    else:
        answer = private(await who.slash(place, f"{name} play", move=value))
    assert answer.content.startswith("✅ Recorded"), answer.content


def computer_opens(players: int) -> int:
    """A seed whose seat order puts a computer (joined after the one person) first."""
    for candidate in range(1000, 2000):
        order = list(range(players))
        random.Random(candidate).shuffle(order)
        if order[0] != 0:
            return candidate
    raise AssertionError("no seed")


async def walk(world: Any, db_path: str, name: str, people: list[Any], computers: list[str]) -> list[str]:
    """Open, fill, start and play a whole game, checking the pings after every command; the
    contents of every message created, for a look."""
    env, channel, _ = world
    host = people[0]
    pings = Pings(env)
    humans = {person.id for person in people}
    lobby = await host.slash(channel, f"{name} new", **SHORT.get(name, {}))
    assert lobby.response is not None and not lobby.response.ephemeral
    game_id = env.bot.service.lobby_in(channel.id, name).id
    for person in people[1:]:
        private(await person.slash(channel, f"{name} join"))
    for level in computers:
        private(await host.slash(channel, f"{name} computer", level=level))
    mark = pings.mark()
    private(await host.slash(channel, f"{name} start"))
    record = Record(db_path, game_id)
    after = record.now()
    check_told(pings, mark, None, after, humans)
    place = room(channel, game_id)
    by_id = {person.id: person for person in people}
    for _ in range(MAX_COMMANDS):
        if after.status != "playing":
            break
        assert after.user_id is not None, "after a command settles, a person is to act"
        before, mover = after, by_id[after.user_id]
        mark = pings.mark()
        await take_first_suggestion(env, place, mover, name, game_id)
        after = record.now()
        check_told(pings, mark, before, after, humans)
    assert game_state(db_path, game_id)[0] == "finished"
    return [content for _, _, content in pings.created]


PEOPLE = {"geominos": 3, "triominos": 3, "geronimos": 2, "puzzominos": 2, "tileup": 2}
"""How many people play each game of the people-only walk."""
PEOPLE_SEEDS = {"triominos": 1008, "tileup": 1011}
"""Seeds of short games (first suggestions); the Tri-Ominos one has five turns that open with
a forced draw (the turn start the bot used to announce by editing the previous message)."""


@pytest.mark.parametrize("name", GAMES)
async def test_people_only_every_turn_start_pings_its_player_once(
    world: Any, db_path: str, seed: list[int], name: str
) -> None:
    _, _, people = world
    seed[0] = PEOPLE_SEEDS.get(name, seed[0])
    await walk(world, db_path, name, list(people.values())[: PEOPLE[name]], [])


@pytest.mark.parametrize("name", GAMES)
async def test_with_computers_every_turn_start_pings_the_person_once(
    world: Any, db_path: str, seed: list[int], name: str
) -> None:
    _, _, people = world
    levels = ["normal", "easy"] if registry.get(name).max_players >= 3 else ["normal"]
    seed[0] = computer_opens(1 + len(levels))
    await walk(world, db_path, name, [people["łukasz"]], levels)


async def test_a_solitaire_pings_nobody(world: Any, db_path: str) -> None:
    env, channel, people = world
    ana = people["ana"]
    pings = Pings(env)
    private(await ana.slash(channel, "puzzominos solo", shape="XXXXX/XXXXX/XXXXX"))
    for _ in range(3):
        private(await ana.slash(channel, "puzzominos hint"))
    assert game_state(db_path, rows(db_path, "SELECT MAX(id) FROM games")[0][0])[0] == "finished"
    assert pings.notified_since(0) == [] and len(pings.created) == 1, pings.created
