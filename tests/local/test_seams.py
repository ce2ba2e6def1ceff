"""Local mode's seams on SimCord (pinned): the clock follows the wall clock and the bot's timers
fire on it, page actions wait for local mode's refreshes instead of being refused, and every tab
is refreshed and brought to its newest message when something happens. Plus the entry point's
choice between Discord and local mode. No browser here: the page's HTTP API is used directly."""

from __future__ import annotations

import asyncio
import logging
import socket
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import simcord

from bot import __main__ as entry
from bot import local
from bot.client import TilehostBot, create_bot
from bot.settings import LOCAL_DB, Settings
from tests.local.probecog import PREFIX
from tests.support.tokens import TOKEN


class PageClient:
    """One browser tab's HTTP conversation with the preview, without a browser."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        self._session = session
        self._origin, self._capability = url.split("/#", 1)
        self.context = ""
        self.snapshot: dict[str, Any] = {}

    def _headers(self) -> dict[str, str]:
        headers = {"X-Simcord-Capability": self._capability}
        if self.context:
            headers["X-Simcord-Context"] = self.context
        return headers

    async def open(self, viewer_id: int) -> None:
        async with self._session.post(
            f"{self._origin}/api/pages", json={"viewer_id": str(viewer_id)}, headers=self._headers()
        ) as response:
            self.snapshot = await response.json()
        self.context = self.snapshot["context"]["id"]

    async def read(self) -> dict[str, Any]:
        async with self._session.get(f"{self._origin}/api/state", headers=self._headers()) as response:
            self.snapshot = await response.json()
        return self.snapshot

    async def refresh_action(self, sequence: int = 1) -> dict[str, Any]:
        body = {
            "protocol_version": 3,
            "sequence": sequence,
            "request_id": str(uuid.uuid4()),
            "generation": self.snapshot["context"]["generation"],
            "bot_generation": self.snapshot["botGeneration"],
            "kind": "refresh",
        }
        async with self._session.post(
            f"{self._origin}/api/action", json=body, headers=self._headers()
        ) as response:
            assert response.status == 200, await response.text()
            return dict(await response.json())


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[local.LocalTable]:
    settings = Settings(token="", db_path=str(tmp_path / "local.db"))
    extensions = ("cogs.lobby", "cogs.triominos", "tests.local.probecog")
    async with local.open_table(settings, extensions=extensions) as running:
        yield running


HANG_SECONDS = 120.0
"""How long :func:`eventually` waits before it calls the bot hung: a guard against a hang, not
a speed budget (what a test checks never depends on how fast the machine is)."""


async def eventually(check: Any, seconds: float = HANG_SECONDS) -> Any:
    """Poll ``check()`` until it returns something true (or fail after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"not within {seconds} s")


def test_simcord_is_the_pinned_release() -> None:
    assert simcord.__version__ == local.SIMCORD_VERSION


def test_the_server_has_the_same_ids_in_every_run(tmp_path: Path) -> None:
    def ids() -> list[int]:
        env = simcord.Env(create_bot(Settings(token="", db_path=str(tmp_path / "x.db"))))
        world = local.build_world(env)
        return [env.guild.id, world.channel.id, *(player.id for player in world.players)]

    first = ids()
    assert first == ids()
    assert first[0] == local.SERVER_ID


async def test_the_clock_starts_at_and_follows_the_wall_clock(table: local.LocalTable) -> None:
    """The simulated clock is never ahead of the wall clock and catches up with it as it moves
    (waited for, not timed: a busy machine only makes the catching up later)."""
    for _ in range(2):
        mark = datetime.now(UTC)
        assert await eventually(lambda mark=mark: table.env.now() >= mark)
        assert table.env.now() <= datetime.now(UTC), "never ahead of the wall clock"
        await asyncio.sleep(1.0)
    assert table.env.now() - mark >= timedelta(seconds=1), "it moved on with the wall clock"


async def test_the_bots_timers_fire_on_the_wall_clock_and_the_pages_follow(
    table: local.LocalTable,
) -> None:
    """A timer of 1.5 s fires 1.5 s after it was set and not before the wall clock got there: the
    bot's clock it posts is never ahead of the wall clock (a clock skipping to the timer would be)."""
    alex = table.world.players[0]
    refreshes = table.live.refreshes
    table.env.settle_timeout = 0.5  # as a page action does just before an alarm
    asked = table.env.now().timestamp()
    await alex.slash(table.world.channel, "later", seconds=1.5)

    def posted() -> Any:
        return next((m for m in table.world.channel.history() if m.content.startswith(PREFIX)), None)

    message = await eventually(posted)
    bot_clock = float(message.content.removeprefix(PREFIX))
    rounding = 0.001  # the probe posts its clock to the millisecond
    assert asked + 1.5 - rounding <= bot_clock <= datetime.now(UTC).timestamp() + rounding, (asked, bot_clock)
    await eventually(lambda: table.live.refreshes > refreshes)


async def test_a_page_action_waits_for_a_refresh_instead_of_failing(table: local.LocalTable) -> None:
    async with aiohttp.ClientSession() as session:
        tab = PageClient(session, table.url)
        await tab.open(table.world.players[0].id)
        async with table.live._lock:  # as during a refresh
            action = asyncio.create_task(tab.refresh_action())
            await asyncio.sleep(0.3)
            assert not action.done(), "the action waits for the lock"
        receipt = await asyncio.wait_for(action, HANG_SECONDS)
    assert not receipt["rejected"] and receipt["settlement"] == "settled", receipt


async def test_what_one_player_does_shows_in_the_other_tabs(table: local.LocalTable) -> None:
    alex, sam = table.world.players[:2]
    async with aiohttp.ClientSession() as session:
        tab = PageClient(session, table.url)
        await tab.open(sam.id)
        before = set(tab.snapshot["timeline"])
        await alex.slash(table.world.channel, "triominos new")
        lobby = table.world.channel.last_message
        assert lobby is not None

        async def shown() -> bool:
            state = await tab.read()
            return str(lobby.id) in state["timeline"] and state["targetId"] == str(lobby.id)

        deadline = time.monotonic() + HANG_SECONDS
        while not await shown():
            assert time.monotonic() < deadline, "the other tab was not refreshed"
            await asyncio.sleep(0.1)
    assert str(lobby.id) not in before


async def test_commands_typed_in_a_tab_are_never_stale(table: local.LocalTable) -> None:
    async with aiohttp.ClientSession() as session:
        tab = PageClient(session, table.url)
        await tab.open(table.world.players[0].id)
        await table.preview.refresh()  # as for another tab: this tab's revision moves on
        current = table.preview._pages[tab.context].revision
        typed = {"kind": "run_command", "published_revision": current - 1}
        clicked = {"kind": "click", "published_revision": current - 1}
        assert table.live._current(tab.context, typed)["published_revision"] == current
        assert table.live._current(tab.context, clicked) == clicked


async def test_an_action_ends_before_the_next_turn_clock_alarm(table: local.LocalTable) -> None:
    assert table.env.bot.user is not None and table.env.bot.user.name == local.BOT_NAME
    assert local.seconds_to_next_alarm(table.env.bot, table.env) is None  # type: ignore[arg-type]
    async with table.live._settle_before_the_next_alarm():
        assert table.env.settle_timeout == local.SETTLE_SECONDS
    table.live._next_alarm = lambda: 3.0
    async with table.live._settle_before_the_next_alarm():
        assert table.env.settle_timeout == pytest.approx(3.0 - local.CLOCK_STEP)
    assert table.env.settle_timeout == local.SETTLE_SECONDS
    table.live._next_alarm = lambda: -5.0  # overdue: it fires now
    async with table.live._settle_before_the_next_alarm():
        assert table.env.settle_timeout == local.MIN_SETTLE_SECONDS


def test_local_mode_has_its_own_database() -> None:
    real = Settings(token="", db_path="data/tilehost.db", dev_guild_id=42, autoshard=True)
    real = replace(real, command_sync="changed")
    assert local.local_settings(real).db_path == LOCAL_DB
    assert local.local_settings(real).dev_guild_id is None
    assert not local.local_settings(real).sharded
    assert local.local_settings(real).command_sync == "always", "its Discord is new at every start"
    assert local.local_settings(replace(real, local_db="elsewhere.db")).db_path == "elsewhere.db"


async def test_the_page_can_listen_beyond_this_machine(tmp_path: Path) -> None:
    """In a container local mode listens on 0.0.0.0 (TILEHOST_LOCAL_HOST), on the port the host
    publishes under the same number; the page still answers only 127.0.0.1 or localhost there."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = Settings(token="", db_path=str(tmp_path / "local.db"), local_host="0.0.0.0", local_port=port)
    async with local.open_table(settings, extensions=("cogs.lobby",)) as running:
        bound = running.preview._server.site._server.sockets[0].getsockname()
        assert bound == ("0.0.0.0", port)
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/") as page:
                assert page.status == 200
            async with http.get(f"http://127.0.0.1:{port}/", headers={"Host": f"192.0.2.1:{port}"}) as page:
                assert page.status == 403
    assert "publish that port as 127.0.0.1" in local.banner(running.url, settings)


def test_without_a_token_the_entry_point_starts_local_mode(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    started: list[Settings] = []

    def run(settings: Settings) -> int:
        started.append(settings)
        return 0

    monkeypatch.setattr(local, "run", run)
    with caplog.at_level(logging.INFO):
        assert entry.main([]) == 0
    assert len(started) == 1 and not started[0].token
    assert "local mode" in caplog.text


def test_with_a_token_the_entry_point_connects_to_discord(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    connected: list[str] = []
    monkeypatch.setattr(TilehostBot, "run", lambda self, token, **_: connected.append(token))
    monkeypatch.setattr(local, "run", lambda settings: pytest.fail("local mode with a token"))
    with caplog.at_level(logging.INFO):
        assert entry.main([]) == 0
    assert connected == [TOKEN]
    assert "connecting to Discord" in caplog.text


def test_the_local_command_starts_local_mode_even_with_a_token(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    started: list[Settings] = []
    monkeypatch.setattr(local, "run", lambda settings: started.append(settings) or 0)
    assert entry.main(["local", "--host", "0.0.0.0", "--port", "8765", "--no-browser"]) == 0
    [settings] = started
    assert (settings.local_host, settings.local_port, settings.open_browser) == ("0.0.0.0", 8765, False)


def test_without_a_token_or_simcord_it_says_how_to_set_a_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)

    def missing() -> None:
        raise local.LocalModeUnavailable("no SimCord here")

    monkeypatch.setattr(local, "require_simcord", missing)
    assert local.run(Settings(token="")) == 2
    said = capsys.readouterr().err
    assert "Developer Portal" in said and "no SimCord here" in said


def test_a_bad_or_taken_port_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("TILEHOST_LOCAL_PORT", "eighty")
    assert entry.main(["local"]) == 2
    said = capsys.readouterr().err
    assert "TILEHOST_LOCAL_PORT='eighty' is not allowed: a port number from 1 to 65535." in said
    monkeypatch.delenv("TILEHOST_LOCAL_PORT")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        settings = Settings(token="", local_port=taken.getsockname()[1], local_db=str(tmp_path / "local.db"))
        assert local.run(settings) == 2
    assert "could not bind port" in capsys.readouterr().err


def test_the_banner_says_where_and_what() -> None:
    text = local.banner("http://127.0.0.1:1234/#secret", Settings(token="", db_path="data/local.db"))
    for words in (
        "LOCAL MODE",
        "http://127.0.0.1:1234/#secret",
        "Nothing leaves this machine",
        "DISCORD_TOKEN",
    ):
        assert words in text
    assert len({len(line) for line in text.splitlines()}) == 1, "a box"


def test_the_browser_opens_only_where_it_can(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    assert not local.should_open_browser(Settings(token="", open_browser=False))
    assert local.should_open_browser(Settings(token=""))
    monkeypatch.setenv("CI", "true")
    assert not local.should_open_browser(Settings(token=""))
