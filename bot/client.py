"""The Discord client: opens storage, loads the cogs, restores every game, syncs commands."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot import workers
from bot.limits import Limits
from bot.sessions import SessionService
from bot.settings import Settings
from bot.storage import Storage
from bot.ui import replies
from bot.ui.buttons import TableButton
from bot.ui.table import TableAnnouncer

log = logging.getLogger(__name__)

EXIT_LOGIN = 4
EXIT_NETWORK = 5

GAME_COGS = ("geominos", "triominos", "geronimos", "puzzominos", "tileup")
BASE_EXTENSIONS = ("cogs.lobby", "cogs.standings")


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
        self.storage: Storage
        self.service: SessionService
        self.announcer = TableAnnouncer(self)
        self.add_listener(self.announcer.on_raw_thread_delete, "on_raw_thread_delete")
        self.add_listener(self.announcer.on_raw_thread_update, "on_raw_thread_update")
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
        for name in self.extension_names:
            await self.load_extension(name)
        self.add_dynamic_items(TableButton)
        restored = await self.service.restore()
        log.info("restored %d games", len(restored))
        await self._sync_commands()

    async def _sync_commands(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, getattr(self.user, "id", "?"))

    async def close(self) -> None:
        service = getattr(self, "service", None)
        if service is not None:
            await service.close()
        await self.announcer.close()
        storage = getattr(self, "storage", None)
        if storage is not None:
            await storage.close()
        await super().close()


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
