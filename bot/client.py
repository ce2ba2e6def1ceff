"""The Discord client: opens storage, loads the cogs, restores every game, syncs commands."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot import looping, workers
from bot.limits import Limits
from bot.sessions import SessionService
from bot.settings import Settings
from bot.storage import Storage
from bot.tournaments.service import TournamentService
from bot.ui import replies
from bot.ui.buttons import TableButton
from bot.ui.daily import DailyNotices
from bot.ui.invite import invite_url, missing_permissions
from bot.ui.rematch import RematchButton
from bot.ui.table import TableAnnouncer
from bot.ui.tournament import TournamentAnnouncer

log = logging.getLogger(__name__)

EXIT_LOGIN = 4
EXIT_NETWORK = 5
HEARTBEAT_SECONDS = 30.0
"""How often a running bot touches its health file (``TILEHOST_HEALTH_FILE``)."""

GAME_COGS = ("geominos", "triominos", "geronimos", "puzzominos", "tileup")
BASE_EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.tournament", "cogs.between")


def default_extensions() -> tuple[str, ...]:
    """The lobby and standings cogs and every game's cog (a missing one is an error when the
    bot loads it, never a silent skip)."""
    return BASE_EXTENSIONS + tuple(f"cogs.{name}" for name in GAME_COGS)


def virtual_now() -> float:
    """Now as unix seconds, from discord.py's clock (which tests can move)."""
    return discord.utils.utcnow().timestamp()


class TilehostTree(app_commands.CommandTree["TilehostBot"]):
    """The command tree: every refused or failed command is answered in one place."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await replies.answer_error(interaction, error)


class TilehostBot(commands.Bot):
    """The Tilehost bot. Everything stateful is created in :meth:`setup_hook`."""

    def __init__(
        self,
        settings: Settings,
        *,
        extensions: Sequence[str] | None = None,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=TilehostTree,
            allowed_mentions=discord.AllowedMentions.none(),
            **shard_options(settings),
        )
        self.settings = settings
        self.extension_names = tuple(extensions) if extensions is not None else default_extensions()
        self._seed_source = seed_source
        self.sync_only = False
        """Set by ``python -m bot sync``: log in, sync the commands, nothing else."""
        self._heartbeat: Heartbeat | None = None
        self.storage: Storage
        self.service: SessionService
        self.tournaments: TournamentService
        self.announcer = TableAnnouncer(self)
        self.add_listener(self.announcer.on_raw_thread_delete, "on_raw_thread_delete")
        self.add_listener(self.announcer.on_raw_thread_update, "on_raw_thread_update")
        self.daily_notices = DailyNotices(self, self.announcer.post)
        self.tournament_announcer = TournamentAnnouncer(self)
        self.limits = Limits(settings.rate_user, settings.rate_channel, now=virtual_now)
        """Rate limits on the commands that draw or search (see :mod:`bot.limits`)."""
        self._restored = False

    @property
    def game_names(self) -> list[str]:
        """The games this bot has a cog for, by command name."""
        return [cog.game_name for cog in self.cogs.values() if hasattr(cog, "game_name")]

    @property
    def standing_games(self) -> list[str]:
        """Every game whose results the standings show: each cog's game and the games it also
        hosts (Puzz-Ominos solitaire under ``/puzzominos``)."""
        names: list[str] = []
        for cog in self.cogs.values():
            if hasattr(cog, "game_name"):
                names += [cog.game_name, *getattr(cog, "also_hosts", ())]
        return names

    async def setup_hook(self) -> None:
        if self.sync_only:
            self.storage = await Storage.open(self.settings.db_path)
            for name in self.extension_names:
                await self.load_extension(name)
            return
        await asyncio.to_thread(workers.warm)
        self.storage = await Storage.open(self.settings.db_path)
        self.service = SessionService(
            self.storage,
            now=virtual_now,
            default_turn_seconds=self.settings.turn_seconds,
            seed_source=self._seed_source,
            shards=self.settings.shards,
            computer_budget=self.settings.computer_budget,
        )
        self.service.subscribe(self.announcer.on_update)
        self.service.subscribe(self.daily_notices.on_update)
        self.tournaments = TournamentService(
            self.storage, self.service, now=virtual_now, seed_source=self._seed_source
        )
        self.tournaments.subscribe(self.tournament_announcer.on_update)
        for name in self.extension_names:
            await self.load_extension(name)
        self.add_dynamic_items(TableButton, RematchButton)
        restored = await self.service.restore()
        log.info("restored %d games", len(restored))
        tournaments = await self.tournaments.restore()
        log.info("restored %d tournaments", len(tournaments))
        looping.freeze_the_heap()
        await self.sync_at_start()
        if self.settings.token and self.application_id is not None:
            log.info("invite link: %s", invite_url(self.application_id))
        if self.settings.health_file:
            self._heartbeat = Heartbeat(self, Path(self.settings.health_file))

    # -- slash commands ------------------------------------------------------------------

    def _sync_scope(self) -> discord.Object | None:
        """Where the commands are synced: the development server, or everywhere (None)."""
        if not self.settings.dev_guild_id:
            return None
        guild = discord.Object(id=self.settings.dev_guild_id)
        self.tree.copy_global_to(guild=guild)
        return guild

    def command_hash(self, guild: discord.Object | None) -> str:
        """A hash of what a sync would send Discord: every command, option and description."""
        payload = sorted(
            (command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)),
            key=lambda command: (command["name"], command.get("type", 1)),
        )
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()

    def _sync_key(self, guild: discord.Object | None) -> str:
        scope = f"guild:{guild.id}" if guild is not None else "global"
        return f"commands:{self.application_id}:{scope}"

    async def sync_at_start(self) -> None:
        """Sync the slash commands if they changed since this database's last sync, from the one
        process that runs shard 0 (``settings.command_sync`` may say always, or never)."""
        mode = self.settings.command_sync
        if mode == "never":
            return
        if not self.settings.runs_shard_zero:
            log.info("slash commands: synced by the process that runs shard 0, not this one")
            return
        guild = self._sync_scope()
        if mode == "changed" and await self.storage.bot_state(self._sync_key(guild)) == self.command_hash(
            guild
        ):
            log.info("slash commands unchanged since the last sync: not synced")
            return
        try:
            await self.sync_commands(guild)
        except discord.HTTPException as error:
            log.warning(
                "slash commands could not be synced (%s); the bot runs with the commands Discord has. "
                "Run `python -m bot sync` later.",
                error,
            )

    async def sync_commands(self, guild: discord.Object | None = None) -> int:
        """Send the command tree to Discord now and remember its hash; the number of commands."""
        synced = await self.tree.sync(guild=guild)
        await self.storage.set_bot_state(self._sync_key(guild), self.command_hash(guild), virtual_now())
        where = (
            f"to server {guild.id}" if guild is not None else "globally (they can take up to an hour to show)"
        )
        log.info("synced %d slash commands %s", len(synced), where)
        return len(synced)

    async def sync_now(self) -> int:
        """:meth:`sync_commands` in the settings' scope (``/tilehost sync``, ``python -m bot sync``)."""
        return await self.sync_commands(self._sync_scope())

    async def is_operator(self, user: discord.abc.User) -> bool:
        """True for the application's owner (or its team) and the users in TILEHOST_OWNER_IDS."""
        return user.id in self.settings.owner_ids or await self.is_owner(user)

    # -- events --------------------------------------------------------------------------

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, getattr(self.user, "id", "?"))
        for guild in self.guilds:
            self._say_missing_permissions(guild)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        log.info("joined server %s (%s)", guild.name, guild.id)
        self._say_missing_permissions(guild)

    def _say_missing_permissions(self, guild: discord.Guild) -> None:
        if guild.me is None or not self.settings.token:
            return
        missing = missing_permissions(guild.me.guild_permissions)
        if missing:
            log.warning(
                "in server %s (%s) the bot lacks %s: games there may not work fully (see docs/hosting.md, "
                "Troubleshooting)",
                guild.name,
                guild.id,
                ", ".join(missing),
            )

    async def close(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.stop()
        tournaments = getattr(self, "tournaments", None)
        if tournaments is not None:
            await tournaments.close()
        await self.tournament_announcer.close()
        await self.daily_notices.close()
        service = getattr(self, "service", None)
        if service is not None:
            await service.close()
        await self.announcer.close()
        storage = getattr(self, "storage", None)
        if storage is not None:
            await storage.close()
        await super().close()


class Heartbeat:
    """Touches a file every :data:`HEARTBEAT_SECONDS` while the bot is connected and its event
    loop answers (``python -m bot check --alive`` reads it: the container's health check). A
    thread of its own, so that no timer of the bot's loop is added for it."""

    def __init__(self, bot: TilehostBot, path: Path) -> None:
        self._bot = bot
        self._path = path
        self._loop = asyncio.get_running_loop()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tilehost-heartbeat", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stopped.wait(HEARTBEAT_SECONDS if self._path.exists() else 1.0):
            answered = threading.Event()
            try:
                self._loop.call_soon_threadsafe(answered.set)
            except RuntimeError:  # the loop is closed
                return
            if answered.wait(10) and self._bot.is_ready() and not self._bot.is_closed():
                try:
                    self._path.parent.mkdir(parents=True, exist_ok=True)
                    self._path.touch()
                except OSError as error:
                    log.warning("could not touch the health file %s: %s", self._path, error)

    def stop(self) -> None:
        """Stop touching the file, and remove it (a stopped bot is not alive)."""
        self._stopped.set()
        self._path.unlink(missing_ok=True)


class ShardedTilehostBot(TilehostBot, commands.AutoShardedBot):
    """The bot on discord.py's sharded client: the shards the settings name, or as many as
    Discord recommends, all in this process."""


def shard_options(settings: Settings) -> dict[str, Any]:
    """What the sharded client is told: how many shards there are and which ones run here."""
    if not settings.sharded:
        return {}
    ids = sorted(settings.shard_ids) if settings.shard_ids is not None else None
    return {"shard_count": settings.shard_count, "shard_ids": ids}


def create_bot(settings: Settings, **kwargs: object) -> TilehostBot:
    """Build the bot (the SimCord tests build it the same way): sharded when the settings
    say so (see :attr:`Settings.sharded`)."""
    kind = ShardedTilehostBot if settings.sharded else TilehostBot
    looping.share_the_interpreter()
    workers.use_long_nice(settings.long_nice)
    return kind(settings, **kwargs)  # type: ignore[arg-type]


def connect(settings: Settings) -> int:
    """Run the bot on Discord until it is stopped; a refused token or an unreachable Discord is
    said in one line (no traceback) with a non-zero exit code."""
    bot = create_bot(settings)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print(
            "Tilehost cannot start: Discord refused the token. Check DISCORD_TOKEN in .env (or your "
            "environment): copy it again from the Discord Developer Portal (your app -> Bot -> Reset "
            "Token); a token that was reset or revoked no longer works.",
            file=sys.stderr,
        )
        return EXIT_LOGIN
    except (TimeoutError, aiohttp.ClientError, OSError) as error:
        reason = " ".join(str(error).split())[:200] or type(error).__name__
        print(
            f"Tilehost cannot start: Discord cannot be reached ({reason}). Check the network "
            "connection and DNS of this machine.",
            file=sys.stderr,
        )
        return EXIT_NETWORK
    return 0


def sync_commands_now(settings: Settings) -> int:
    """``python -m bot sync``: log in, sync the slash commands, log out; the exit code (the
    failures said in one line, as at start)."""
    try:
        count = asyncio.run(sync_only(settings))
    except discord.LoginFailure:
        print("sync: Discord refused the token (check DISCORD_TOKEN).", file=sys.stderr)
        return EXIT_LOGIN
    except discord.HTTPException as error:
        print(f"sync: Discord refused the commands ({error}).", file=sys.stderr)
        return 1
    except (TimeoutError, aiohttp.ClientError, OSError) as error:
        print(f"sync: Discord cannot be reached ({error}).", file=sys.stderr)
        return EXIT_NETWORK
    where = f"to server {settings.dev_guild_id}" if settings.dev_guild_id else "globally"
    print(f"synced {count} slash commands {where}")
    return 0


async def sync_only(settings: Settings) -> int:
    """``python -m bot sync``: log in, sync the slash commands, log out; the number synced."""
    bot = create_bot(replace(settings, autoshard=False, shard_count=None, shard_ids=None))
    bot.sync_only = True
    async with bot:
        await bot.login(settings.token)
        return await bot.sync_now()
