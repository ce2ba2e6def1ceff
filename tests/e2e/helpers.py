"""Helpers for the SimCord tests: what a command showed, and the database rows."""

from __future__ import annotations

import json
import re
import sqlite3
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from bot.client import TilehostBot, create_bot
from bot.errors import SessionError
from bot.settings import Settings
from bot.words import NOT_A_MOVE
from games.errors import GameError


def shown(result: Any) -> Any:
    """The message a command finally showed (a deferred reply is edited by its followup)."""
    return result.followups[-1] if result.followups else result.response


def rows(db_path: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Rows of a query on the bot's database."""
    with sqlite3.connect(db_path) as db:
        return db.execute(sql, params).fetchall()


def table_counts(db_path: str) -> dict[str, int]:
    """How many rows each table holds (to check that nothing was stored)."""
    return {
        table: rows(db_path, f"SELECT COUNT(*) FROM {table}")[0][0]
        for table in ("games", "seats", "moves", "results")
    }


def game_state(db_path: str, game_id: int) -> tuple[str, int, int | None]:
    """``(status, ply, seat to act)`` of a stored game."""
    status, ply, snapshot = rows(db_path, "SELECT status, ply, snapshot FROM games WHERE id = ?", game_id)[0]
    to_act = json.loads(snapshot)["to_act"] if snapshot else None
    return status, ply, to_act


def seat_names(db_path: str, game_id: int) -> dict[int, str]:
    """Seat number -> player name."""
    return dict(rows(db_path, "SELECT seat, name FROM seats WHERE game_id = ?", game_id))


TEST_PLAYOUTS = 8
"""What a ``hard`` computer or a hint spends on one decision in the tests: playouts, never seconds
(the bot's default, two seconds, would make the choice and the test's time depend on the
machine's speed)."""


def build_bot(
    db_path: str, extensions: Sequence[str], seed: list[int] | Callable[[], int], **settings: Any
) -> TilehostBot:
    """The real bot on the test database with ``extensions`` (the one bot builder of the tests).
    Games get their seeds from ``seed``: a function, or a list whose first item a test may
    change before ``new``. ``settings`` override :class:`Settings` fields (a hard decision costs
    :data:`TEST_PLAYOUTS` unless ``computer_iterations`` says otherwise). Call again to restart
    on the same data."""
    seeds = seed if callable(seed) else (lambda: seed[0])
    settings.setdefault("computer_iterations", TEST_PLAYOUTS)
    config = Settings(token="test-token", db_path=db_path, **settings)
    return create_bot(config, extensions=extensions, seed_source=seeds)


def make_world(env: Any, guild: str, channel: str, names: Sequence[str] = ("alice", "bob", "cara")) -> Any:
    """A server with one text channel and members called ``names``: ``(env, channel, people)``."""
    server = env.create_guild(guild)
    room = server.create_text_channel(channel)
    people = {name: server.add_member(env.create_user(name)) for name in names}
    return env, room, people


PUBLIC_KINDS = (
    discord.MessageType.default,
    discord.MessageType.reply,
    discord.MessageType.chat_input_command,
)
"""Messages the bot writes (a reply to a slash command included), not Discord's system notes."""


def room(channel: Any, game_id: int) -> Any:
    """Where a game's boards go: its thread (named ``<Game> #<id> · ...``), else the channel."""
    for thread in channel.threads:
        if f" #{game_id} " in f"{thread.name} ":
            return thread
    return channel


def posts(place: Any) -> list[Any]:
    """The bot's own messages in a channel or thread (not Discord's system messages)."""
    return [
        message
        for message in place.history()
        if message.author.bot and message.type in PUBLIC_KINDS and not message.flags.ephemeral
    ]


def boards(place: Any) -> list[Any]:
    """The bot's messages with a board picture."""
    return [
        message for message in posts(place) if any(a.filename.endswith(".png") for a in message.attachments)
    ]


def last_board(place: Any) -> Any:
    """The newest board message."""
    found = boards(place)
    assert found, "no board was posted"
    return found[-1]


def only_game(db_path: str) -> int:
    """The id of the one game in the database."""
    ((game_id,),) = rows(db_path, "SELECT id FROM games")
    return int(game_id)


def to_act(db_path: str, game_id: int, people: dict[str, Any]) -> Any:
    """The member whose turn it is."""
    _, _, seat = game_state(db_path, game_id)
    return people[seat_names(db_path, game_id)[seat]]


def private(result: Any) -> Any:
    """The private answer to a command, checked to be ephemeral."""
    message = shown(result)
    assert message is not None and message.ephemeral, message
    return message


async def start_game(
    env: Any, channel: Any, game: str, host: Any, *others: Any, computers: int = 0, **options: Any
) -> int:
    """The one way tests start a game through Discord: ``host`` opens a ``game`` lobby in
    ``channel`` with ``options`` (a public message), ``others`` join and ``computers`` computer
    players take seats (privately answered), and the host starts it. The game's id."""
    lobby = shown(await host.slash(channel, f"{game} new", **options))
    assert lobby is not None and not lobby.ephemeral, lobby
    game_id = env.bot.service.lobby_in(channel.id, game).id
    for other in others:
        private(await other.slash(channel, f"{game} join"))
    for _ in range(computers):
        private(await host.slash(channel, f"{game} computer"))
    private(await host.slash(channel, f"{game} start"))
    return int(game_id)


REFUSALS = (SessionError, GameError, app_commands.TransformerError, app_commands.CheckFailure)
"""What a refused command raises (the tree's error handler answers it privately)."""


def refused(env: Any, result: Any, expected: str = "") -> str:
    """A refused command: its private answer (containing ``expected``, checked to quote only a
    shortened input), and the refusal it raised, acknowledged so that SimCord does not report it
    as a bot error at the end of the test."""
    message = private(result)
    assert expected.lower() in message.content.lower(), (expected, message.content)
    assert len(message.content) < 600, "a refusal quotes a shortened form of the input"
    raised = env.errors
    new = raised[_errors_seen.get(env, 0) :]
    _errors_seen[env] = len(raised)
    assert len(new) == 1, f"one refusal raised, not {new!r}"
    assert isinstance(getattr(new[0], "original", new[0]), REFUSALS), repr(new[0])
    return str(message.content)


_errors_seen: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
"""How many of each SimCord env's errors :func:`refused` has looked at."""


SEAT_WORDS = re.compile(r"\bseat \d", re.IGNORECASE)
"""Words no message may use: players are called by their names."""


def last_mover(db_path: str, game_id: int) -> int | None:
    """Who made the last stored move (None: a computer, the clock or a forced turn): when it
    ended the game, the result pings the other players, not them."""
    ((user_id,),) = rows(
        db_path, "SELECT user_id FROM moves WHERE game_id = ? ORDER BY ply DESC LIMIT 1", game_id
    )
    return int(user_id) if user_id is not None else None


class Watch:
    """Follows a game's public messages (channel and thread) through a test, checking after each
    command what issue 11 asks of a quiet channel:

    - no message calls a player "seat N";
    - a new message pings at most the player whose turn it now is (and at the end, the players
      but not the one who just moved): nobody is pinged for their own running turn;
    - a person to act always has a real decision (forced turns have played themselves);
    - in all, at most one public message per turn, plus the lobby and the result.
    """

    def __init__(self, env: Any, channel: Any, db_path: str) -> None:
        self.env, self.channel, self.db_path = env, channel, db_path
        self.seen: set[int] = set()
        self.pinged: list[set[int]] = []

    def messages(self, game_id: int) -> list[Any]:
        thread = room(self.channel, game_id)
        return posts(self.channel) + (posts(thread) if thread is not self.channel else [])

    def after(self, game_id: int, mover: int | None = None) -> None:
        """Check what appeared since the last call (``mover``: the member whose command ended
        the game, if it did: the result pings the other players, not them)."""
        status, _, seat = game_state(self.db_path, game_id)
        seats = dict(rows(self.db_path, "SELECT seat, user_id FROM seats WHERE game_id = ?", game_id))
        to_act = seats.get(seat) if status == "playing" else None
        for message in self.messages(game_id):
            assert not SEAT_WORDS.search(message.content), message.content
            if message.id in self.seen:
                continue
            self.seen.add(message.id)
            pings = {user.id for user in message.mentions}
            self.pinged.append(pings)
            assert not message.mention_everyone and not message.role_mentions, message.content
            if status == "playing":
                assert pings <= {to_act}, (message.content, pings, to_act)
            elif mover is not None:
                assert mover not in pings, message.content
        if status == "playing" and to_act is not None:
            session = self.env.bot.service.get(game_id)
            if session is not None and session.state is not None:
                assert session.game.forced_move(session.state) is None, "a forced turn waits for a person"

    def finish(self, game_id: int) -> None:
        """At the end: at most one public message per turn, plus the lobby and the result."""
        turns = turns_played(self.db_path, game_id)
        assert len(self.messages(game_id)) <= turns + 2, (len(self.messages(game_id)), turns)


def turns_played(db_path: str, game_id: int) -> int:
    """How many turns a stored game had (a turn of several steps counts once)."""
    from games import records, registry

    (name, options, seed), *_ = rows(db_path, "SELECT game, options, seed FROM games WHERE id = ?", game_id)
    game = registry.get(name)
    players = len(seat_names(db_path, game_id))
    state = game.new(players, game.Options.from_dict(json.loads(options)), seed=seed)
    turns = 1
    for seat, notation in rows(
        db_path, "SELECT seat, notation FROM moves WHERE game_id = ? ORDER BY ply", game_id
    ):
        before = state
        state, _ = records.play_line(game, state, records.RecordedMove(seat, notation))
        if game.to_act(state) is not None and not game.continues_turn(before, state):
            turns += 1
    return turns


@dataclass
class Table:
    """One game of turns (its state counts them in ``turn``) seen through SimCord, checked after
    every command (see :meth:`command`). Used by the Tile Up! and Puzz-Ominos tests."""

    game: str
    """The command group, e.g. ``tileup``."""
    env: Any
    channel: Any
    db_path: str
    game_id: int
    people: dict[str, Any]
    watch: Watch

    @classmethod
    def watching(
        cls,
        game: str,
        env: Any,
        channel: Any,
        db_path: str,
        people: dict[str, Any],
        game_id: int | None = None,
    ) -> Table:
        """The table of game ``game_id`` (default: the one game in the database), its start
        checked by a new :class:`Watch`."""
        game_id = only_game(db_path) if game_id is None else game_id
        watch = Watch(env, channel, db_path)
        watch.after(game_id)
        return cls(game, env, channel, db_path, game_id, people, watch)

    @property
    def thread(self) -> Any:
        return room(self.channel, self.game_id)

    def mover(self) -> Any:
        return to_act(self.db_path, self.game_id, self.people)

    def state(self) -> Any:
        session = self.env.bot.service.get(self.game_id)
        assert session is not None and session.state is not None
        return session.state

    def playing(self) -> bool:
        return game_state(self.db_path, self.game_id)[0] == "playing"

    async def suggestions(self, who: Any, command: str, option: str, typed: str = "") -> list[str]:
        """The moves autocomplete offers (not a line saying why it offers none)."""
        choices = await who.autocomplete(self.thread, f"{self.game} {command}", option, typed)
        return [choice["value"] for choice in choices if choice["value"] != NOT_A_MOVE]

    async def command(self, who: Any, name: str, **options: Any) -> Any:
        """``who`` runs ``/<game> name``: a private "Recorded" answer; a step of a running turn
        edits the turn's public message (no new post, no ping), and each turn that passes posts
        at most one board."""
        thread = self.thread
        before, turn = len(posts(thread)), self.state().turn
        message_id = last_board(thread).id
        answer = private(await who.slash(thread, f"{self.game} {name}", **options))
        assert answer.content.startswith("✅ Recorded"), answer.content
        self.watch.after(self.game_id, who.id)
        new = [message.content for message in posts(thread)[before:]]
        if self.playing() and self.state().turn == turn:
            assert not new, f"a step of a running turn edits its message, yet posted {new}"
            board = last_board(thread)
            assert board.id == message_id and who.mention not in board.content, board.content
        elif self.playing():
            assert 1 <= len(new) <= self.state().turn - turn, new
        return answer


EPHEMERAL = 1 << 6


@dataclass
class Pings:
    """Every public message the bot creates, with the users it notified when it was created."""

    env: Any
    created: list[tuple[int, frozenset[int], str]] = field(default_factory=list)
    """``(channel or thread id, users notified, content)`` in order of creation."""

    def __post_init__(self) -> None:
        self.env.backend.subscribers.append(self._heard)

    def _heard(self, event: str, payload: Any) -> None:
        if event != "MESSAGE_CREATE":
            return
        channel_id, message_id = int(payload["channel_id"]), int(payload["id"])
        message = self.env.backend.messages.get(channel_id, {}).get(message_id)
        if message is None or message.author_id != self.env.bot.user.id or message.flags & EPHEMERAL:
            return
        self.created.append((channel_id, frozenset(message.ping_user_ids), message.content))

    def mark(self) -> int:
        return len(self.created)

    def notified_since(self, mark: int) -> list[frozenset[int]]:
        """The non-empty ping sets of the messages created since ``mark``."""
        return [users for _, users, _ in self.created[mark:] if users]
