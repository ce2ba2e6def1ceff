"""Plurals and punctuation in everything players read, end to end through SimCord: a whole game
of every kind (a person with an emoji and an accent in their name, against computers whose
names carry their level) through slash commands, and every text the channel and the players
see checked: the public messages (as each command leaves them), the private answers, the
suggestions, and the texts drawn on the boards and hands (drawn here by the workers' own
function, with every text recorded). No "1 tiles" nor "2 tile", no doubled punctuation
("hints!."), no doubled parentheses ("Ada (normal) (Red)")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import workers
from bot.between.review import ReviewBudget
from bot.client import TilehostBot
from games import registry
from rendering.common import recording_text
from rendering.registry import renderer
from tests.e2e.helpers import build_bot, game_state, make_world, only_game, posts, private, room, shown

GAMES = ("geominos", "triominos", "geronimos", "puzzominos", "tileup", "puzzosolo")
EXTENSIONS = (
    "cogs.lobby",
    "cogs.standings",
    "cogs.between",
    *(f"cogs.{name}" for name in GAMES if name != "puzzosolo"),
)
REVIEW = ReviewBudget(playouts=12, worlds=2, cap=400, least=4)
"""A small review budget: the review's words are read, not its judgement."""
SHORT = {"triominos": {"target": 200}, "geronimos": {"bag": 20}, "geominos": {"mode": "one"}}
MAX_COMMANDS = 400
HINT_AT = 4
"""The command before which the person asks for a hint (and reads it)."""
PICTURE_EVERY = 3
"""The pictures are read after every third command (and at the end): their words repeat."""
PERSON = "Zoë 🎲"

NOUNS = (
    "tile|card|goal card|bonus card|piece|point|hint|square|move|game|player|turn|round|draw|win|"
    "hour|minute|place|match|target"
)
ONE_MANY = re.compile(rf"(?<![\d.,])\b1 (?:{NOUNS})s\b")
MANY_ONE = re.compile(rf"(?<![\d.,−-])\b(?:0|[2-9]|\d\d+) (?:{NOUNS})\b(?!s|-)")
DOUBLED = re.compile(r"[!?:;,]\.(?!\.)|(?<![.])\.\.(?!\.)|,,|;;|\)\s*\(|\(\(|\)\)")
CODE = re.compile(r"`[^`]*`")


def problems(text: str) -> list[str]:
    """What is wrong in ``text``: wrong plurals, doubled punctuation or parentheses."""
    plain = CODE.sub("`code`", text)
    found = [f"plural {m.group(0)!r}" for m in ONE_MANY.finditer(plain)]
    found += [f"plural {m.group(0)!r}" for m in MANY_ONE.finditer(plain)]
    found += [f"doubled {m.group(0)!r}" for m in DOUBLED.finditer(plain)]
    return found


def test_the_checks_catch_what_the_issue_saw() -> None:
    assert problems("Ben 3 tiles/1 cards")
    assert problems("1 pieces left") and problems("with 11 hints!.") and problems("Ada (normal) (Red)")
    assert problems("2 tile left")
    assert not problems("Ann 3 tiles and 1 card · 2 pieces left · round 2 · Ada (normal, Red).")
    assert not problems("Wait… `..XX/XXXX` 12 points, 1 point")


@pytest.fixture
def simcord_bot(db_path: str) -> TilehostBot:
    seeds = iter(range(4100, 5000))
    return build_bot(db_path, EXTENSIONS, lambda: next(seeds), computer_iterations=4)


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Word Club", "words", names=(PERSON,))


class Reader:
    """Everything a player reads, gathered as the game goes and checked at the end."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def read(self, where: str, text: str | None) -> None:
        if text:
            self.seen.setdefault(text, where)

    def check(self) -> None:
        wrong = [
            f"{where}: {problem} in {text!r}"
            for text, where in self.seen.items()
            for problem in problems(text)
        ]
        assert not wrong, "\n".join(wrong[:20])


def read_pictures(reader: Reader, session: Any, seat: int | None) -> None:
    """The board (and the person's hand) as the workers draw them, every text recorded."""
    if session.state is None:
        return
    drawer = renderer(session.game.name)
    with recording_text() as drawn:
        workers.render(drawer, "board", session.game.view(session.state, None), session.picture_names)
        if seat is not None:
            view = session.game.view(session.state, seat)
            workers.render(drawer, "hand", view, seat, session.picture_names)
    for item in drawn:
        reader.read("picture", item.text)


async def play_one(env: Any, place: Any, who: Any, name: str, reader: Reader) -> None:
    """``who`` reads the suggestions and plays the first (a verb is its own command); in the
    solitaire, takes a hint (the computer places a piece) until the target is solved."""
    command = "puzzominos" if name == "puzzosolo" else name
    if name == "puzzosolo":
        message = shown(await who.slash(place, "puzzominos hint"))
        reader.read("private", message.content if message is not None else None)
        return
    choices = await who.autocomplete(place, f"{command} play", "move", "")
    for choice in choices:
        reader.read("suggestion", choice["name"])
    assert choices, "autocomplete offers the legal moves"
    value = choices[0]["value"]
    verbs = {c.name for c in env.bot.tree.get_command(command).commands}
    if value in verbs:
        result = await who.slash(place, f"{command} {value}")
    else:
        result = await who.slash(place, f"{command} play", move=value)
    message = shown(result)
    reader.read("private", message.content if message is not None else None)


async def open_game(channel: Any, person: Any, name: str) -> None:
    if name == "puzzosolo":
        await person.slash(channel, "puzzominos solo", target="6x10")
        return
    await person.slash(channel, f"{name} new", **SHORT.get(name, {}))
    computers = registry.get(name).max_players - 1 if name in ("geominos", "triominos", "tileup") else 1
    for level in ("normal", "easy", "normal")[: min(computers, 2)]:
        await person.slash(channel, f"{name} computer", level=level)
    await person.slash(channel, f"{name} start")


@pytest.mark.parametrize("name", GAMES)
async def test_every_text_a_player_reads_has_right_plurals_and_punctuation(
    world: Any, db_path: str, name: str
) -> None:
    env, channel, people = world
    person = people[PERSON]
    reader = Reader()
    await open_game(channel, person, name)
    game_id = only_game(db_path)
    place = room(channel, game_id)
    session = env.bot.service.get(game_id)
    seat = session.seat_of(person.id)
    for command in range(MAX_COMMANDS):
        for message in [*posts(channel), *(posts(place) if place is not channel else [])]:
            reader.read("public", message.content)
        if command % PICTURE_EVERY == 0:
            read_pictures(reader, session, seat)
        if game_state(db_path, game_id)[0] != "playing":
            break
        if command == HINT_AT and name != "puzzosolo":
            hint = private(await person.slash(place, f"{name} hint"))
            assert hint.content.startswith("💡 The computer would play"), hint.content
            reader.read("private", hint.content)
        await play_one(env, place, person, name, reader)
    read_pictures(reader, session, seat)
    assert game_state(db_path, game_id)[0] == "finished"
    for message in [*posts(channel), *(posts(place) if place is not channel else [])]:
        reader.read("public", message.content)
    hand = shown(await person.slash(place, f"{'puzzominos' if name == 'puzzosolo' else name} rules"))
    reader.read("private", hand.content if hand is not None else None)
    if name != "puzzosolo":  # a solitaire has no review
        env.bot.service.reviews.budget = REVIEW
        review = private(await person.slash(channel, "review", game_id=game_id))
        assert review.content.startswith("🔎 **Review of"), review.content
        reader.read("private", review.content)
    kinds = set(reader.seen.values())
    assert {"public", "private", "picture"} <= kinds and len(reader.seen) > 30, (kinds, len(reader.seen))
    reader.check()
