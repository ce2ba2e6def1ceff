"""Local mode in a real browser: ``python -m bot`` with no token, the page in headless Chromium
(Debian's, driven by Playwright), two players in two tabs and a computer, a few moves of
Tri-Ominos typed as slash commands with autocomplete suggestions picked from the list.

Set ``TILEHOST_SCREENSHOTS=docs/images`` to refresh the docs' picture from this test.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.helpers import game_state, rows, seat_names
from tests.local.page import CHROMIUM_FLAGS, TablePage, chromium_path

CHROMIUM = chromium_path()
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="Debian's chromium is not installed: `make test` installs it with apt-get when run as root "
        "(else: apt-get install chromium). This test never downloads a browser.",
    ),
]

URL = re.compile(r"http://127\.0\.0\.1:\d+/#[\w-]+")
STARTUP_SECONDS = 30.0
MOVES = 4
HUMANS = ("Alex", "Sam")
REAL_DB = Path("real", "tilehost.db")
"""Where ``TILEHOST_DB`` points (under the test's folder, which is also local mode's working
folder, where the default ``data/tilehost.db`` would go)."""


@dataclass
class LocalMode:
    """``python -m bot`` running in local mode."""

    url: str
    db_path: str
    started_in: float
    output: list[str]


def keep_screenshot(path: Path) -> None:
    """Copy ``path`` to the folder named by ``TILEHOST_SCREENSHOTS``, if set (the docs' pictures)."""
    folder = os.environ.get("TILEHOST_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / path.name)


@pytest.fixture
async def local_mode(tmp_path: Path) -> AsyncIterator[LocalMode]:
    env = {key: value for key, value in os.environ.items() if key not in ("DISCORD_TOKEN", "TILEHOST_DB")}
    db_path = str(tmp_path / "local.db")
    env.update(
        TILEHOST_LOCAL_DB=db_path,
        TILEHOST_DB=str(tmp_path / REAL_DB),  # the real bot's: local mode must never touch it
        TILEHOST_NO_BROWSER="1",
        PYTHONUNBUFFERED="1",
    )
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot",
        cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    assert process.stdout is not None
    output: list[str] = []
    found: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def drain() -> None:
        assert process.stdout is not None
        async for raw in process.stdout:
            line = raw.decode(errors="replace").rstrip()
            output.append(line)
            if (match := URL.search(line)) and not found.done():
                found.set_result(match.group())
        if not found.done():
            found.set_exception(AssertionError("local mode stopped:\n" + "\n".join(output)))

    reader = asyncio.create_task(drain())
    try:
        url = await asyncio.wait_for(found, STARTUP_SECONDS)
        yield LocalMode(url, db_path, time.monotonic() - started, output)
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), 15)
            except TimeoutError:
                process.kill()
                await process.wait()
        await reader


async def test_two_players_and_a_computer_play_in_two_tabs(local_mode: LocalMode, tmp_path: Path) -> None:
    from playwright.async_api import async_playwright

    assert local_mode.started_in < STARTUP_SECONDS
    assert any("LOCAL MODE" in line for line in local_mode.output)
    shots = tmp_path / "screenshots"
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_FLAGS))
        try:
            tabs = {}
            for name in HUMANS:
                tab = TablePage(await browser.new_page(viewport={"width": 1280, "height": 900}))
                await tab.open(local_mode.url)
                await tab.view_as(name)
                tabs[name] = tab
            alex, sam = tabs["Alex"], tabs["Sam"]

            await alex.command("triominos new")
            await sam.command("triominos join")
            await alex.command("triominos computer")
            seen = [message.id for message in await sam.messages()]
            await alex.command("triominos start")
            start = await sam.wait_for_message(seen, images=True)  # shown in the other tab, unasked
            assert start.images, "the first board"
            (game_id,) = rows(local_mode.db_path, "SELECT id FROM games")[0]
            names = seat_names(local_mode.db_path, game_id)
            await alex.screenshot(shots / "local-start.png")

            # a refused command is shown as a refusal (not "Action outcome uncertain")
            _, ply, to_act = game_state(local_mode.db_path, game_id)
            waiting = tabs[next(name for name in HUMANS if name != names[to_act])]
            await waiting.command("triominos play", move="000@0,0")  # checks the action settled
            refusal = (await waiting.messages())[-1]
            assert "It is not your turn" in refusal.text, refusal
            assert "uncertain" not in await waiting.status(), "no error badge for a refusal"
            assert game_state(local_mode.db_path, game_id)[1] == ply, "nothing stored"

            played: list[str] = []
            for move in range(MOVES):
                _, ply, to_act = game_state(local_mode.db_path, game_id)
                assert to_act is not None, "the game goes on"
                mover = names[to_act]
                assert mover in tabs, "the computer moves at once"
                watcher = tabs[next(name for name in HUMANS if name != mover)]
                seen = [message.id for message in await watcher.messages()]
                shot = shots / "local-suggestions.png" if move == MOVES - 1 else None
                played.append(await tabs[mover].play_suggestion("triominos play", shot=shot))
                board = await watcher.wait_for_message(seen, images=True)
                assert board.images, "a board image after the move"
                assert game_state(local_mode.db_path, game_id)[1] > ply
            await alex.screenshot(shots / "local-mode.png")
            await sam.screenshot(shots / "local-mode-sam.png")

            seen = [message.id for message in await sam.messages()]
            await alex.command("triominos hand")
            hand = (await alex.messages())[-1]
            assert hand.images and hand.id not in seen, "Alex sees the tiles"
            assert hand.id not in [message.id for message in await sam.messages()], "only Alex"
            await alex.screenshot(shots / "local-hand.png")
        finally:
            await browser.close()

    moves = rows(local_mode.db_path, "SELECT user_id FROM moves WHERE game_id = ?", game_id)
    assert len(moves) >= MOVES and any(user is None for (user,) in moves), "humans and the computer"
    assert all(note for note in played)
    assert not (tmp_path / REAL_DB.parent).exists() and not (tmp_path / "data").exists(), (
        "local mode never creates the real bot's database (nor its folder)"
    )
    keep_screenshot(shots / "local-suggestions.png")
