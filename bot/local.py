"""Local mode: Tilehost without Discord, in a browser page on this machine.

With no ``DISCORD_TOKEN``, ``python -m bot`` (``make run``) runs the real bot, with every cog,
against SimCord's simulated Discord: a server named Tilehost with one channel, ``#games``, and
three members to play as. SimCord's preview shows that channel on 127.0.0.1 like a Discord
client: slash commands with the bot's own autocomplete, board images, buttons and ephemeral
replies. Nothing leaves the machine. Games are kept in their own database (``data/local.db``).

SimCord is a test tool: its clock moves only when told to, its page shows a snapshot published
on demand, and it refuses overlapping operations. These seams, on SimCord internals pinned to
3.2.1 and each covered by ``tests/local/test_seams.py``, make it a live table:

- the clock (:class:`WallClock`, ``Backend.advance_clock``): it starts at the wall-clock time
  and moves with it, so message times and the bot's ``utcnow`` are real. The bot's own timers
  (its turn clock) fire on the wall clock through SimCord's real-time fallback for timers;
- page actions (:class:`LiveTable`, ``Preview._action``): serialized with this module's
  refreshes by one lock, and bounded (``Env.settle_timeout``) to end before the bot's next
  turn-clock alarm, since SimCord waits for every timer that comes due during an action;
- every tab (``Preview._publish``, ``_initial_target``, ``_pages``): refreshed when the bot did
  something on its own, and pointed at its newest message so that it scrolls there;
- refusals (:func:`bot.ui.replies.answer_refusals`, on the command tree's ``on_error``, which
  SimCord wraps at start to capture the bot's errors): a refused command is answered as a
  refusal, not shown as a failed action.

SimCord's page shows one channel per session (no threads) and allows one session per simulated
Discord, so the local server turns games in threads off: every game is played in ``#games`` (a
channel holds one game of each kind at a time).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import webbrowser
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot import workers
from bot.client import TilehostBot, create_bot
from bot.settings import LOCAL_HOST, ConfigError, Settings, load_settings, mask
from bot.ui.replies import answer_refusals

if TYPE_CHECKING:
    from simcord import ChannelHandle, Env, MemberActor, Preview

log = logging.getLogger(__name__)

SIMCORD_VERSION = "3.2.1"
"""The SimCord release whose internals the seams below use (pinned in pyproject.toml)."""

SERVER_NAME = "Tilehost"
SERVER_ID = 1_100_000_000_000_000_016
"""Pinned so results and ratings stay with the same server from one run to the next."""
CHANNEL_NAME = "games"
PLAYERS = (("alex", "Alex"), ("sam", "Sam"), ("robin", "Robin"))
"""``(user name, display name)`` of the members to play as, in the page's "Viewing as" list."""
BOT_NAME = "Tilehost"
GUIDE_NAME = "Local mode"

CLOCK_STEP = 0.2
"""Seconds between two moves of the simulated clock (and checks for changes to publish)."""
SETTLE_SECONDS = 45.0
"""How long one page action waits for the bot (computer players think, boards render). SimCord
waits for every timer that comes due meanwhile, so this stays under the shortest turn clock the
bot arms (Geominos' live minute): an action that starts a turn returns without waiting for it."""
MIN_SETTLE_SECONDS = 1.0
"""The least a page action waits for the bot, even just before a turn clock runs out."""

TYPED_ACTIONS = frozenset({"run_command", "autocomplete_command"})
"""Page actions made from the message box rather than from a message on the page."""

OWN_TAB_ACTIONS = frozenset(
    {
        "click",
        "select",
        "modal_submit",
        "send_message",
        "edit_message",
        "delete_message",
        "set_reaction",
        "set_poll_votes",
        "set_pinned",
    }
)
"""Page actions that can change messages but that SimCord publishes to the acting tab only (a
slash command republishes every tab itself)."""

FOLLOWING_PUBLICATIONS = frozenset({"initial", "action", "refresh"})
"""Publications that bring a tab to its newest message (not a tab's own scrolling back)."""

WELCOME = (
    "**Welcome to Tilehost's local table.** This is a simulated Discord on your computer: "
    "nothing you do here leaves it.\n"
    "Type `/` in the message box to see the commands; the move lists are the bot's own autocomplete.\n"
    "**Play the computer:** `/triominos new`, then `/triominos computer`, `/triominos start`, and "
    "`/triominos play` (pick a move from the list). Every game works the same way: `/geominos`, "
    "`/geronimos`, `/puzzominos`, `/tileup`. `/puzzominos solo` is a solitaire.\n"
    "`/triominos hand` shows your tiles to you alone, `/help` explains the rest, and `/leaderboard` "
    "and `/stats` show the results.\n"
    "**Two at one computer:** open this page in a second tab and pick another player under "
    "*Viewing as*; a move in one tab shows in the other."
)


class LocalModeUnavailable(RuntimeError):
    """SimCord's preview is not installed; the message says how to install it."""


def local_settings(settings: Settings) -> Settings:
    """``settings`` for local mode: its own database (``TILEHOST_LOCAL_DB``, ``data/local.db`` by
    default), one unsharded connection (SimCord's server is one shard), and its commands synced
    at every start (its simulated Discord is new every time)."""
    return replace(
        settings,
        token="",
        dev_guild_id=None,
        db_path=settings.local_db,
        shard_count=None,
        shard_ids=None,
        autoshard=False,
        command_sync="always",
    )


def require_simcord() -> None:
    """Raise :class:`LocalModeUnavailable` unless SimCord and its preview extra can be imported."""
    try:
        with _quiet("discord.client", "discord.state"):  # SimCord checks discord.py with a bare client
            import simcord
        from simcord.preview import _require_preview_runtime
    except ImportError as error:
        raise LocalModeUnavailable(
            "local mode needs SimCord's preview: run `make run` (or pip install -e '.[local]')."
        ) from error
    try:
        _require_preview_runtime()
    except simcord.SetupError as error:
        raise LocalModeUnavailable(f"{error} (or run `make run`, which installs it)") from error
    if simcord.__version__ != SIMCORD_VERSION:
        log.warning(
            "local mode was written for SimCord %s, not %s; run `make run` to install that version",
            SIMCORD_VERSION,
            simcord.__version__,
        )


@contextlib.contextmanager
def _quiet(*names: str) -> Iterator[None]:
    """Only errors from these loggers while in the block."""
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


# -- the simulated server ----------------------------------------------------------------------


@dataclass(frozen=True)
class World:
    """The simulated server: its channel, the members to play as, and the guide who says hello."""

    channel: ChannelHandle
    players: tuple[MemberActor, ...]
    guide: MemberActor


def build_world(env: Env) -> World:
    """Create the server, its channel and members. Called before the clock moves to the wall
    clock, so the ids come out the same in every run (the database refers to them)."""
    env.backend.edit_bot_profile(BOT_NAME)
    server = env.create_guild(SERVER_NAME, id=SERVER_ID)
    channel = server.create_text_channel(CHANNEL_NAME, topic="Tilehost's games, on this computer only")
    players = tuple(server.add_member(env.create_user(name, global_name=shown)) for name, shown in PLAYERS)
    guide = server.add_member(env.create_user("local-mode", bot=True, global_name=GUIDE_NAME))
    return World(channel, players, guide)


# -- the clock ---------------------------------------------------------------------------------


class WallClock:
    """Keeps SimCord's simulated clock on the wall clock.

    Seam: ``env.backend.advance_clock(seconds)`` moves the clock without taking SimCord's
    operation guard (which page actions hold). Timers the bot sets (``asyncio.sleep`` in its turn
    clock) fire at their wall-clock time through SimCord's real-time fallback, which moves the
    clock to the timer's instant; between timers this class moves it.
    """

    def __init__(self, env: Env) -> None:
        self._env = env

    def catch_up(self) -> None:
        """Move the simulated clock to the wall clock (never back)."""
        behind = (datetime.now(UTC) - self._env.now()).total_seconds()
        if behind > 0:
            self._env.backend.advance_clock(behind)


# -- the page ---------------------------------------------------------------------------------


class LiveTable:
    """Keeps the clock on the wall clock and every open tab current, on its newest message.

    Seams, on SimCord's ``Preview``:

    - ``_action(context_id, body)`` runs one page action under SimCord's operation guard. A
      refresh from here while it runs would be refused, and a page action refused that way leaves
      its tab waiting for an answer that never comes; so both take one lock.
    - ``_publish(page, reason=...)`` makes what a tab shows next. A tab scrolls to the message it
      is pointed at (``page.target_id``, found with ``_initial_target``), so each publication
      points it at the newest message: a new board comes into view as in Discord.
    """

    def __init__(
        self, env: Env, preview: Preview, clock: WallClock, next_alarm: Callable[[], float | None]
    ) -> None:
        self._env = env
        self._preview = preview
        self._clock = clock
        self._next_alarm = next_alarm
        self._lock = asyncio.Lock()
        self._published = len(env.http_requests)
        self._original_action: Callable[[str | None, Any], Awaitable[dict[str, Any]]] = preview._action
        self._original_publish: Callable[..., None] = preview._publish
        self.refreshes = 0

    def install(self) -> None:
        """Route the preview's page actions and publications through this table."""
        setattr(self._preview, "_action", self.page_action)  # noqa: B010 (shadows the method on purpose)
        setattr(self._preview, "_publish", self.publish)  # noqa: B010

    async def page_action(self, context_id: str | None, body: Any) -> dict[str, Any]:
        """Run one page action; the acting tab reads the result after this returns."""
        async with self._lock, self._settle_before_the_next_alarm():
            self._clock.catch_up()
            result = await self._original_action(context_id, self._current(context_id, body))
            if isinstance(body, dict) and body.get("kind") in OWN_TAB_ACTIONS:
                await self._refresh()
            self._published = len(self._env.http_requests)
            return result

    def publish(self, page: Any, *, reason: str = "action") -> None:
        """Publish one tab, pointed at its newest message unless it scrolled back on its own."""
        if reason in FOLLOWING_PUBLICATIONS and page.id != "python":
            newest = self._preview._initial_target(page.viewer, page.channel_id)
            if newest is not None:
                page.target_id, page.window_end_id = newest, None
        self._original_publish(page, reason=reason)

    def _current(self, context_id: str | None, body: Any) -> Any:
        """``body``, and for a typed command the tab's current revision: a refresh made for
        another tab does not make a command typed here stale (SimCord would refuse it, and the
        player would have to send it again). Clicks keep theirs: a button can change."""
        page = self._preview._pages.get(context_id or "")
        if page is None or not isinstance(body, dict) or body.get("kind") not in TYPED_ACTIONS:
            return body
        return {**body, "published_revision": page.revision}

    def changed(self) -> bool:
        """Whether the bot made REST calls (posts, edits) that no tab was refreshed for."""
        return len(self._env.http_requests) != self._published

    async def tick(self) -> None:
        """Move the clock; refresh the tabs if the bot did something on its own (a turn clock
        ran out, a reminder). Skipped while a page action runs: it publishes its own results."""
        self._clock.catch_up()
        if self._lock.locked() or not self.changed():
            return
        async with self._lock, self._settle_before_the_next_alarm():
            await self._refresh()

    async def run(self, step: float = CLOCK_STEP) -> None:
        """Tick every ``step`` seconds until cancelled."""
        from simcord import SetupError

        while True:
            await asyncio.sleep(step)
            try:
                await self.tick()
            except TimeoutError:
                log.warning("the bot is still busy; the page will catch up when it is done")
            except SetupError as error:  # another SimCord operation (not a page's) is running
                log.debug("refresh deferred: %s", error)

    @asynccontextmanager
    async def _settle_before_the_next_alarm(self) -> AsyncIterator[None]:
        """Wait for the bot at most until its next turn-clock alarm while in this block.

        SimCord's settle also waits for every timer due before it ends; with a long settle, a
        player asking for suggestions in the last seconds of a live turn would wait for the
        clock to run out. Timers still fire on time through SimCord's real-time fallback, which
        gets the long settle back after the block.
        """
        until = self._next_alarm()
        if until is not None:
            self._env.settle_timeout = min(SETTLE_SECONDS, max(MIN_SETTLE_SECONDS, until - CLOCK_STEP))
        try:
            yield
        finally:
            self._env.settle_timeout = SETTLE_SECONDS

    async def _refresh(self) -> None:
        await self._preview.refresh()
        self._published = len(self._env.http_requests)
        self.refreshes += 1


def seconds_to_next_alarm(bot: TilehostBot, env: Env) -> float | None:
    """Seconds until the bot's turn clock next wakes (a deadline or reminder), if it will."""
    upcoming = bot.service.clock.next_alarm()
    return None if upcoming is None else upcoming[0] - env.now().timestamp()


# -- running it --------------------------------------------------------------------------------


@dataclass(frozen=True)
class LocalTable:
    """A running local table: the address of its page and what is behind it."""

    url: str
    env: Env
    preview: Preview
    world: World
    live: LiveTable


async def listen_on(preview: Preview, host: str) -> None:
    """Seam: SimCord's page server listens on 127.0.0.1 only (``PreviewServer.site``); move it
    to ``host`` (0.0.0.0 in a container, so that the port published to the host reaches it), on
    the same port. The page still answers only requests addressed to 127.0.0.1 or localhost at
    that port, so the port is published under the same number (``127.0.0.1:8765:8765``)."""
    from aiohttp import web

    server = preview._server
    await server.site.stop()
    server.site = web.TCPSite(server.runner, host, server.port)
    await server.site.start()


@asynccontextmanager
async def open_table(
    settings: Settings, *, extensions: Sequence[str] | None = None
) -> AsyncIterator[LocalTable]:
    """Start the bot (with every cog, or ``extensions``) on a simulated Discord and serve the
    page on ``settings.local_host`` and ``local_port``; stop both on exit."""
    import simcord

    bot = create_bot(settings, extensions=extensions)
    env = simcord.Env(bot, check_errors=False, settle_timeout=SETTLE_SECONDS)
    world = build_world(env)
    clock = WallClock(env)
    clock.catch_up()  # before the bot starts, so every timer it sets is on the wall clock
    await env.start()
    answer_refusals(bot.tree)
    try:
        # The page shows one channel, not threads: games play in #games itself.
        await bot.storage.set_threads(SERVER_ID, False)
        preview = env.preview(
            world.channel,
            viewers=list(world.players),
            layout="channel",
            width=1280,
            height=900,
            port=settings.local_port,
        )
        async with preview:
            if settings.local_host != LOCAL_HOST:
                await listen_on(preview, settings.local_host)
            # Said once the page exists: with no message to focus, every tab opens on the
            # newest messages and follows them.
            await world.guide.send(world.channel, WELCOME)
            live = LiveTable(env, preview, clock, lambda: seconds_to_next_alarm(bot, env))
            live.install()
            clock.catch_up()
            ticker = asyncio.create_task(live.run(), name="tilehost-local-clock")
            try:
                yield LocalTable(preview.url, env, preview, world, live)
            finally:
                ticker.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await ticker
    finally:
        await env.shutdown()
        await bot.close()


def banner(url: str, settings: Settings) -> str:
    """The box printed in the terminal: the address, what local mode is, how to leave it."""
    names = ", ".join(shown for _, shown in PLAYERS)
    port = url.split(":")[2].split("/")[0]
    listening = (
        [f"(It listens on {settings.local_host}:{port}: publish that port as 127.0.0.1:{port}:{port}.)"]
        if settings.local_host != LOCAL_HOST
        else []
    )
    lines = [
        "Tilehost is running in LOCAL MODE (a simulated Discord, no DISCORD_TOKEN used).",
        "",
        "Open this address in your browser:",
        f"  {url}",
        *listening,
        "",
        f'A simulated Discord on this computer: the server "{SERVER_NAME}", the channel',
        f"#{CHANNEL_NAME}, and players to play as ({names}: pick one under",
        '"Viewing as"; a second tab can play as another). Nothing leaves this machine.',
        f"Games are kept in {mask(settings.db_path)}, apart from a real server's database.",
        "",
        "To connect to real Discord instead, put DISCORD_TOKEN=<your bot token> in",
        "a file named .env (see docs/hosting.md, 'Create the Discord application')",
        "and run make run again.  Stop local mode with Ctrl+C.",
    ]
    width = max(len(line) for line in lines)
    top = "+" + "-" * (width + 2) + "+"
    return "\n".join([top, *(f"| {line.ljust(width)} |" for line in lines), top])


def should_open_browser(settings: Settings) -> bool:
    """Open the page in a browser unless told not to, in CI, or with no screen to show it on."""
    if not settings.open_browser or os.environ.get("CI"):
        return False
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


async def serve(settings: Settings) -> None:
    """Run local mode until the page's session is ended or the task is cancelled."""
    async with open_table(settings) as table:
        print(banner(table.url, settings), flush=True)
        if should_open_browser(settings):
            webbrowser.open(table.url)
        await table.preview.wait_closed()
        print("The page's session was ended; local mode stops.", flush=True)


def token_help() -> str:
    """What the settings say about a missing ``DISCORD_TOKEN`` (how to create and set one)."""
    try:
        load_settings(env_file=None)
    except ConfigError as error:
        return next((line for line in str(error).splitlines() if "DISCORD_TOKEN" in line), str(error))
    return "DISCORD_TOKEN is not set."


def run(settings: Settings) -> int:
    """Run local mode in the foreground until Ctrl+C (or SIGTERM); the exit code."""
    try:
        require_simcord()
    except LocalModeUnavailable as error:
        print(f"Tilehost cannot start: {token_help()}", file=sys.stderr)
        print(f"It cannot start local mode (without Discord) either: {error}", file=sys.stderr)
        return 2
    import simcord

    settings = local_settings(settings)
    workers.warm()  # before SimCord's clock runs (see workers.warm)
    log.info("local mode: simulated Discord in a browser page, database %s", mask(settings.db_path))

    async def main() -> None:
        task = asyncio.current_task()
        assert task is not None
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
        await serve(settings)

    try:
        with contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError):
            asyncio.run(main())
    except simcord.SetupError as error:  # e.g. the port is taken
        print(f"Tilehost cannot start local mode: {error}", file=sys.stderr)
        return 2
    print("Local mode stopped.", flush=True)
    return 0
