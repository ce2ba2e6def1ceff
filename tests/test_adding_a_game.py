"""docs/development.md's "Adding a game", followed step by step with the test-only Tiny Tiles game
(``tests/support/tiny``): the package template, registration, the shared contract and
conformance checks, the renderer, and the cog in the real bot through SimCord."""

from __future__ import annotations

import ast
import importlib
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.client import BASE_EXTENSIONS, TilehostBot
from games import registry
from games.core import Game
from rendering import registry as renderers
from tests.e2e.helpers import game_state, only_game, posts, private, room, to_act
from tests.games import test_conformance, test_contracts
from tests.support import tiny
from tests.support.tiny import renderer

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ("state", "rules", "notation", "game")
"""The package template's modules, each importing only those before it (then ``__init__``)."""
TINY_COG = "tests.support.tiny.cog"


def package_imports(folder: Path, package: str) -> dict[str, set[str]]:
    """Template module -> the template modules of the same package it imports."""
    found: dict[str, set[str]] = {}
    for module in TEMPLATE:
        tree = ast.parse((folder / f"{module}.py").read_text())
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
        found[module] = {other for other in TEMPLATE if f"{package}.{other}" in names}
    return found


def check_template(folder: Path, package: str) -> Game[Any, Any]:
    """Step 1: the package has the template's files, imports in one direction, exposes GAME."""
    assert (folder / "__init__.py").is_file()
    for module, imported in package_imports(folder, package).items():
        allowed = set(TEMPLATE[: TEMPLATE.index(module)])
        assert imported <= allowed, f"{package}.{module} imports {imported - allowed}: the template's order"
    game = importlib.import_module(package).GAME
    assert isinstance(game, Game)
    for name in ("State", "Options", "Move"):
        assert hasattr(importlib.import_module(f"{package}.state"), name), f"{package}.state.{name}"
    return game


@pytest.mark.parametrize("module", registry.GAME_MODULES)
def test_every_shipped_game_follows_the_template(module: str) -> None:
    game = check_template(ROOT / "games" / module, f"games.{module}")
    assert registry.get(game.name) is game


def test_step_1_2_the_package_registered_like_a_shipped_game() -> None:
    game = check_template(ROOT / "tests" / "support" / "tiny", "tests.support.tiny")
    # Step 2: the registry loads every GAME_MODULES entry and registers its GAME with this call.
    assert registry.register(game) is game
    assert registry.get("tiny") is registry.get("tinytiles") is tiny.GAME


@pytest.mark.parametrize("module", [test_contracts, test_conformance], ids=["contracts", "conformance"])
def test_step_6_the_shared_suites_pass_on_it(module: Any) -> None:
    registry.register(tiny.GAME)
    checks = [getattr(module, name) for name in dir(module) if name.startswith("test_")]
    assert checks
    for check in checks:
        check(tiny.GAME)


def test_step_3_the_renderer_draws_a_board_and_a_hand() -> None:
    # Step 3: rendering.registry registers every renderer of SHIPPED with this call.
    renderers.register(renderer.RENDERER)
    state = tiny.GAME.new(2, seed=5)
    board = Image.open(io.BytesIO(renderers.board_png("tiny", tiny.GAME.view(state, None), ["Ann", "Bo"])))
    hand = Image.open(io.BytesIO(renderers.hand_png("tiny", tiny.GAME.view(state, 0), 0, ["Ann", "Bo"])))
    assert board.width >= 1000 and hand.width >= 1000


@pytest.fixture
def simcord_bot(make_bot: Callable[..., TilehostBot]) -> TilehostBot:
    """Step 4: the bot with the lobby and standings cogs and the new game's cog."""
    return make_bot(extensions=(*BASE_EXTENSIONS, TINY_COG))


async def test_step_4_the_cog_plays_a_whole_game_in_the_real_bot(simcord_env: Any, db_path: str) -> None:
    guild = simcord_env.create_guild("Tiles Club")
    channel = guild.create_text_channel("games")
    people = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    alice, bob = people["alice"], people["bob"]
    await alice.slash(channel, "tiny new", hand=2)
    private(await bob.slash(channel, "tiny join"))
    private(await alice.slash(channel, "tiny start"))
    game_id = only_game(db_path)
    place = room(channel, game_id)
    assert place is not channel, "the game plays in its own thread"
    while game_state(db_path, game_id)[0] == "playing":
        mover = to_act(db_path, game_id, people)
        choices = await mover.autocomplete(place, "tiny play", "move", "")
        ack = private(await mover.slash(place, "tiny play", move=choices[0]["value"]))
        assert ack.content.startswith("✅ Recorded"), ack.content
    result = posts(channel)[-1]
    assert "Game over" in result.content and result.attachments
