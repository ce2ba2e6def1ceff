"""`/games`, `/help`, `/settings` (a player's own) and `/tilehost` (a server's): what can be
played, what is running, how it works, and the settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import admin, errors, words
from bot.client import virtual_now
from bot.sessions import Status
from bot.storage.store import FORMER_PLAYER
from bot.ui import replies
from games import registry

if TYPE_CHECKING:
    from bot.client import TilehostBot

FORGET_WHAT = (
    "This removes {who}'s data from this server, as they may ask: they leave its lobbies and resign "
    f'its running games; in its games their seats then read "{FORMER_PLAYER}", and their moves and '
    "results no longer name them (the ranks and scores stay, so the other players' games stay whole); "
    "their ratings here, this season's and past seasons', are deleted. Not removed: their global "
    "rating and their own reminder setting (the bot's operator can remove those), and messages already "
    "posted in Discord (delete them in Discord). It cannot be undone. To do it: add `confirm:True`."
)


class LobbyCog(commands.Cog):
    """Commands that are not about one game."""

    def __init__(self, bot: TilehostBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="games", description="What can be played, and what is running in this channel."
    )
    async def games(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Tilehost games")
        for game in registry.all_games():
            if game.name not in self.bot.game_names:
                continue
            embed.add_field(
                name=f"{game.title} — /{game.name}",
                value=f"{words.players_range(game)}. Start: `/{game.name} new`",
                inline=False,
            )
        running = self.bot.service.in_channel(interaction.channel_id or 0)
        lines = []
        for session in running:
            if session.status is Status.LOBBY:
                what = "lobby, " + words.counted(len(session.seats), "player")
            else:
                place = f" in <#{session.row.thread_id}>" if session.row.thread_id else ""
                what = f"{words.name(session, session.to_act())} to play{place}"
            lines.append(f"{session.game.title} #{session.id}: {what}")
        embed.add_field(name="Running here", value="\n".join(lines)[:1024] or "Nothing yet.", inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="help", description="How Tilehost works.")
    async def help(self, interaction: discord.Interaction) -> None:
        text = (
            "**Tilehost** hosts tile-placement board games in this server.\n"
            "1. `/<game> new` opens a lobby here (pick the options there); others press Join or use "
            "`/<game> join`; the host may fill seats with `/<game> computer`.\n"
            "2. The host starts the game: it plays in its own thread, where each turn gets one board and "
            "the player whose turn starts is mentioned. The result comes back to this channel.\n"
            "3. Play with `/<game> play` — autocomplete lists your legal moves, best first. "
            "`/<game> hand` shows your tiles (only to you), `/<game> hint` suggests a move, "
            "`/<game> rules` explains the game and its notation.\n"
            "Games can last days: every move is saved at once, and a turn clock with reminders keeps "
            "them moving (`/settings reminders` for reminders by direct message).\n"
            f"Games: {', '.join(f'`/{name}`' for name in self.bot.game_names)}."
        )
        await interaction.response.send_message(text, ephemeral=True)

    settings = app_commands.Group(name="settings", description="Your Tilehost settings.")

    @settings.command(name="reminders", description="Get turn reminders by direct message, or stop them.")
    async def reminders(self, interaction: discord.Interaction, direct_messages: bool) -> None:
        await self.bot.service.storage.set_dm_reminders(interaction.user.id, direct_messages)
        state = "on" if direct_messages else "off"
        await interaction.response.send_message(f"Reminders by direct message are {state}.", ephemeral=True)

    server = app_commands.Group(
        name="tilehost",
        description="Server settings and moderation for Tilehost.",
        guild_only=True,
        default_permissions=discord.Permissions(manage_channels=True),
    )

    @server.command(
        name="threads", description="Play each game in its own thread (on), or in its channel (off)."
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def threads(self, interaction: discord.Interaction, enabled: bool) -> None:
        assert interaction.guild_id is not None  # guild_only
        number = await self.bot.service.storage.set_threads_logged(
            interaction.guild_id, enabled, by=interaction.user.id, now=virtual_now()
        )
        where = "in their own threads" if enabled else "in their channels"
        await interaction.response.send_message(
            f"New games in this server play {where}. (#{number} in `/tilehost log`.)", ephemeral=True
        )

    @server.command(
        name="abort", description="Moderators: call off any game in this server (no result is kept)."
    )
    @app_commands.describe(game_id="The game's number (see /games)")
    @app_commands.checks.has_permissions(manage_channels=True)
    async def abort(self, interaction: discord.Interaction, game_id: int) -> None:
        await replies.defer_private(interaction)
        session = self.bot.service.get(game_id)
        if session is None or session.row.guild_id != interaction.guild_id:
            raise errors.NoGameHere(f"There is no running game #{game_id} in this server.")
        await self.bot.service.abort(session, interaction.user.id, moderator=True)
        await replies.private(interaction, words.aborted(session))

    @server.command(name="clock", description="Server admins: the default time for a move in new games here.")
    @app_commands.describe(
        hours="Hours a player has for a move (0: no clock); leave it out to see the default"
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def clock(
        self, interaction: discord.Interaction, hours: app_commands.Range[int, 0, 168] | None = None
    ) -> None:
        assert interaction.guild_id is not None  # guild_only
        storage, default = self.bot.service.storage, self.bot.settings.turn_hours
        if hours is None:
            current = await storage.guild_turn_hours(interaction.guild_id)
            how = "this server's default" if current is not None else "set one with `/tilehost clock hours:…`"
            await replies.private(
                interaction, f"New games here give {admin.hours_words(current, default)} ({how})."
            )
            return
        before = await storage.guild_turn_hours(interaction.guild_id)
        number = await storage.set_guild_turn_hours(
            interaction.guild_id, hours, by=interaction.user.id, now=virtual_now()
        )
        await replies.private(
            interaction,
            f"New games in this server now give {admin.hours_words(hours, default)} "
            f"(was {admin.hours_words(before, default)}); a lobby can still choose its own with "
            f"`clock_hours`. Games already running keep theirs. #{number} in `/tilehost log`: "
            f"`/tilehost undo action:{number}` puts it back.",
        )

    @server.command(name="season", description="Server admins: close this leaderboard season, start afresh.")
    @app_commands.describe(confirm="True to start the new season now (without it: what would happen)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def season(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        assert interaction.guild_id is not None  # guild_only
        storage = self.bot.service.storage
        current = await storage.season(interaction.guild_id)
        assert current is not None
        if not confirm:
            await replies.private(
                interaction,
                f"This closes {admin.season_words(current)}: its standings stay, shown with "
                f"`/leaderboard season:{current.number}`, and this server's leaderboards and ratings start "
                "afresh (games count from now). Global leaderboards, `/stats` and `/history` do not change. "
                "To do it: `/tilehost season confirm:True`.",
            )
            return
        await replies.defer_private(interaction)
        season, number = await storage.start_season(
            interaction.guild_id, by=interaction.user.id, now=virtual_now()
        )
        await replies.private(
            interaction,
            f"Season {season.number} has started: this server's leaderboards start afresh. Season "
            f"{current.number} is kept: `/leaderboard season:{current.number}`. #{number} in "
            f"`/tilehost log`: `/tilehost undo action:{number}` reopens season {current.number} while no "
            "game has finished in the new one.",
        )

    @server.command(name="forget", description="Server admins: remove a player's data from this server.")
    @app_commands.describe(
        player="The player whose data goes (a member, or paste their user id)",
        confirm="True to remove it now; it cannot be undone (without it: what would be removed)",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def forget(
        self, interaction: discord.Interaction, player: discord.User, confirm: bool = False
    ) -> None:
        assert interaction.guild_id is not None  # guild_only
        if not confirm:
            await replies.private(interaction, FORGET_WHAT.format(who=player.mention))
            return
        await replies.defer_private(interaction)
        forgotten, number, left = await admin.forget_player(
            self.bot.service, interaction.guild_id, player.id, by=interaction.user.id, now=virtual_now()
        )
        games = f"They left or resigned {words.counted(left, 'running game')} first. " if left else ""
        await replies.private(
            interaction,
            f"Done: {games}Their {words.counted(forgotten.seats, 'seat')} in this server's games now read "
            f'"{FORMER_PLAYER}"; {words.counted(forgotten.results, "result")} and '
            f"{words.counted(forgotten.moves, 'move')} no longer name them; "
            f"{words.counted(forgotten.ratings + forgotten.season_ratings, 'rating')} deleted. "
            f"#{number} in `/tilehost log` (which does not name them). This cannot be undone.",
        )

    @server.command(name="log", description="Server admins: what admins changed here, and how to undo it.")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def log(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None  # guild_only
        entries = await self.bot.service.storage.admin_log(interaction.guild_id)
        if not entries:
            await replies.private(interaction, "No admin has changed anything here yet.")
            return
        default = self.bot.settings.turn_hours
        lines = [
            f"**#{entry.number}** <t:{int(entry.created_at)}:f> {words.mention(entry.user_id)}: "
            f"{admin.entry_words(entry, default)} — {admin.undo_hint(entry)}"
            for entry in entries
        ]
        await replies.private(interaction, "\n".join(lines))

    @server.command(name="undo", description="Server admins: undo one change of /tilehost log.")
    @app_commands.describe(action="The change's number in /tilehost log")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def undo(self, interaction: discord.Interaction, action: int) -> None:
        assert interaction.guild_id is not None  # guild_only
        entry, number = await admin.undo(
            self.bot.service.storage, interaction.guild_id, action, by=interaction.user.id, now=virtual_now()
        )
        undone = admin.entry_words(entry, self.bot.settings.turn_hours)
        await replies.private(interaction, f"Undone: #{action} ({undone}). Logged as #{number}.")

    @server.command(name="sync", description="Bot owner: send the slash commands to Discord now.")
    async def sync(self, interaction: discord.Interaction) -> None:
        if not await self.bot.is_operator(interaction.user):
            raise app_commands.CheckFailure(
                "Only the bot's owner may sync its commands (the application's owner or team in the "
                "Developer Portal, or a user listed in TILEHOST_OWNER_IDS)."
            )
        await replies.defer_private(interaction)
        try:
            count = await self.bot.sync_now()
        except discord.HTTPException as error:
            await replies.private(
                interaction, f"Discord refused the sync ({error}); nothing changed. Try again later."
            )
            return
        where = "in this development server" if self.bot.settings.dev_guild_id else "everywhere"
        await replies.private(
            interaction,
            f"Synced {words.counted(count, 'command')} {where}. Discord may take a while to show changes; "
            "a reload of the Discord app (Ctrl+R) shows them sooner.",
        )


async def setup(bot: TilehostBot) -> None:
    """Load the lobby cog."""
    await bot.add_cog(LobbyCog(bot))
