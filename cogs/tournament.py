"""`/tournament`: open a Swiss or round robin of any game, sign up, follow the standings, and
the organiser's tools (start, computer entrants, withdraw, pause, resume, cancel, adjust a
result). Thin: parse, check who may, call the tournament service, reply; the service pairs,
starts the games and the announcer posts the rounds."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.tournaments import words
from bot.tournaments.model import Format, Phase, Tournament
from bot.tournaments.service import NewTournament, TournamentError
from bot.ui import replies
from bot.ui.buttons import display_name
from bot.ui.tournament import TournamentButton, signup_view, standings_file
from games import ai, registry
from games.errors import InvalidOptionsError

if TYPE_CHECKING:
    from bot.client import TilehostBot

REASON_LIMIT = 200
OPTION = re.compile(r"^\s*([a-z_]+)\s*[=:]\s*(\S+)\s*$")


def parse_options(text: str | None) -> dict[str, Any]:
    """``hand=2 mode=five`` (or ``hand:2, mode:five``) as a dict; the game checks the values."""
    found: dict[str, Any] = {}
    for part in re.split(r"[,;\s]+(?=[a-z_]+\s*[=:])", (text or "").strip().lower()):
        if not part:
            continue
        match = OPTION.match(part)
        if match is None:
            raise InvalidOptionsError(
                "Write the game's options as `name=value`, separated by spaces (e.g. `hand=2`), "
                f"not {part[:40]!r}."
            )
        value: Any = match[2]
        found[match[1]] = int(value) if value.lstrip("-").isdigit() else value
    return found


def parse_order(text: str) -> list[list[str]]:
    """``Bob > Ann = Cy > Di``: the finishing order, best first; ``=`` shares a place."""
    groups = [[name.strip() for name in group.split("=")] for group in text.split(">")]
    if not all(name for group in groups for name in group):
        raise TournamentError(
            "Write the finishing order as names with `>` between places, e.g. `Bob > Ann` (`=` for a tie)."
        )
    return groups


def find_entrant(tournament: Tournament, name: str) -> int:
    """The entrant called ``name`` (as written, any case; or the only one whose name starts so)."""
    wanted = name.casefold()
    exact = [e for e in tournament.entrants if e.name.casefold() == wanted]
    if len(exact) == 1:
        return exact[0].number
    starting = [e for e in tournament.entrants if e.name.casefold().startswith(wanted)]
    if len(starting) == 1:
        return starting[0].number
    raise TournamentError(f"No single player of {tournament.name} is called {words.escape(name[:40])!s}.")


@app_commands.guild_only()
class TournamentCog(
    commands.GroupCog, group_name="tournament", group_description="Swiss and round-robin tournaments."
):
    """Tournament commands."""

    def __init__(self, bot: TilehostBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> Any:
        """The tournament service."""
        return self.bot.tournaments

    # -- who may -------------------------------------------------------------------------------

    async def runs_tournaments(self, interaction: discord.Interaction) -> bool:
        """Manage Server, or the role the server chose (``/tournament role``)."""
        member = interaction.user
        permissions = getattr(member, "guild_permissions", None)
        if permissions is not None and permissions.manage_guild:
            return True
        if interaction.guild_id is None:
            return False
        role = await self.bot.storage.tournament_role(interaction.guild_id)
        return role is not None and any(r.id == role for r in getattr(member, "roles", ()))

    async def require_runner(self, interaction: discord.Interaction) -> None:
        """Refuse a member who may not run tournaments here."""
        if not await self.runs_tournaments(interaction):
            raise TournamentError(
                "Only members with Manage Server (or the tournament role a server manager chose with "
                "`/tournament role`) can open tournaments."
            )

    async def pick(self, interaction: discord.Interaction, number: int | None, *phases: Phase) -> Tournament:
        """The tournament a command means: the one numbered, else the newest active one of this
        channel (of this server, when the channel has none)."""
        guild_id = interaction.guild_id or 0
        if number is not None:
            tournament = await self.service.get(number)
            if tournament.guild_id != guild_id:
                raise TournamentError(f"There is no tournament #{number} in this server.")
        else:
            here = await self.service.in_channel(guild_id, interaction.channel_id)
            here = here or await self.service.in_channel(guild_id)
            matching = [t for t in here if t.phase in phases]
            here = matching or here
            if not here and not phases:
                last = await self.bot.storage.last_tournament(guild_id, interaction.channel_id or 0)
                here = [await self.service.get(last)] if last is not None else []
            if not here:
                raise TournamentError("There is no tournament under way here. `/tournament new` opens one.")
            if len(here) > 1:
                listed = ", ".join(f"#{t.id} {t.name}" for t in here[:5])
                raise TournamentError(
                    f"Several tournaments run here ({listed}): say which with `tournament:`."
                )
            tournament = here[0]
        if phases and tournament.phase not in phases:
            if Phase.SIGNUP in phases:
                raise TournamentError(f"Sign-up for {tournament.name} is closed.")
            raise TournamentError(f"{tournament.name} is {tournament.phase.words}.")
        return tournament

    # -- opening and sign-up ---------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a tournament: a sign-up message with Join and Leave.")
    @app_commands.describe(
        game="Which game",
        format="Swiss (paired by score) or round robin (everyone meets everyone)",
        rounds="Swiss: how many rounds",
        clock_hours="Hours allowed for each move (default 24)",
        players_per_table="Players at each table (default 2)",
        signup_hours="Hours until sign-up closes and round 1 starts (0: when you start it; default 24)",
        round_hours="A round's deadline in hours (0: none, the move clock keeps games going)",
        max_players="The most players who may sign up (default 64)",
        name="The tournament's name",
        options="The game's options as name=value, e.g. hand=2",
    )
    @app_commands.choices(
        format=[
            app_commands.Choice(name="Swiss", value=Format.SWISS.value),
            app_commands.Choice(name="round robin", value=Format.ROUND_ROBIN.value),
        ]
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str,
        rounds: app_commands.Range[int, 0, 20] = 0,
        clock_hours: app_commands.Range[int, 0, 168] = 24,
        players_per_table: app_commands.Range[int, 2, 6] = 2,
        signup_hours: app_commands.Range[int, 0, 336] = 24,
        round_hours: app_commands.Range[int, 0, 720] = 0,
        max_players: app_commands.Range[int, 3, 128] = 64,
        name: str | None = None,
        options: str | None = None,
    ) -> None:
        await self.require_runner(interaction)
        chosen = registry.get(game)
        if chosen.name not in self.bot.game_names:
            raise TournamentError(f"There is no game called {game[:40]!r} here.")
        ask = NewTournament(
            game=chosen.name,
            format=Format(format),
            rounds=rounds,
            table_size=players_per_table,
            clock_hours=clock_hours,
            round_hours=round_hours,
            signup_hours=signup_hours,
            max_entrants=max_players,
            name=name or "",
            options=parse_options(options),
        )
        assert interaction.guild_id is not None and interaction.channel_id is not None
        tournament = await self.service.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            organiser_id=interaction.user.id,
            ask=ask,
        )
        view = signup_view(tournament)
        assert view is not None  # a new tournament is in sign-up
        await interaction.response.send_message(
            words.signup_message(tournament), view=view, allowed_mentions=replies.NO_PINGS
        )
        message = await interaction.original_response()
        await self.service.set_message(tournament.id, message.id)

    @new.autocomplete("game")
    async def _game_choices(
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        typed = value.lower().strip()
        found = []
        for name in self.bot.game_names:
            game = registry.get(name)
            if game.max_players >= 2 and (typed in name or typed in game.title.lower()):
                found.append(app_commands.Choice(name=game.title, value=name))
        return found[:25]

    @app_commands.command(description="Sign up for the tournament here.")
    @app_commands.describe(tournament="The tournament's number (default: the one here)")
    async def join(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        chosen = await self.pick(interaction, tournament, Phase.SIGNUP)
        done = await self.service.join(chosen.id, interaction.user.id, display_name(interaction.user))
        await replies.private(interaction, f"You are signed up for {words.title(done)}.")

    @app_commands.command(description="Take your name off the sign-up.")
    @app_commands.describe(tournament="The tournament's number (default: the one here)")
    async def leave(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        chosen = await self.pick(interaction, tournament, Phase.SIGNUP)
        done = await self.service.leave(chosen.id, interaction.user.id)
        await replies.private(interaction, f"You left {words.title(done)}.")

    @app_commands.command(description="Organiser: sign a computer player up.")
    @app_commands.describe(
        level="How strong it plays (default: normal)", tournament="The tournament's number"
    )
    @app_commands.choices(
        level=[app_commands.Choice(name=label, value=key) for key, label in ai.LEVELS.items()]
    )
    async def computer(
        self, interaction: discord.Interaction, level: str = ai.DEFAULT_LEVEL, tournament: int | None = None
    ) -> None:
        chosen = await self.pick(interaction, tournament, Phase.SIGNUP)
        moderator = await self.runs_tournaments(interaction)
        done = await self.service.add_computer(chosen.id, interaction.user.id, level, moderator=moderator)
        await replies.private(
            interaction, f"A computer player ({level}) is signed up for {words.title(done)}."
        )

    @app_commands.command(description="Organiser: close sign-up and start round 1 now.")
    @app_commands.describe(tournament="The tournament's number")
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await replies.defer_private(interaction)
        chosen = await self.pick(interaction, tournament, Phase.SIGNUP)
        moderator = await self.runs_tournaments(interaction)
        done = await self.service.start(chosen.id, interaction.user.id, moderator=moderator)
        await self.bot.tournament_announcer.caught_up(done.id)
        await replies.private(interaction, f"{words.title(done)} has started: round 1 is under way.")

    # -- following --------------------------------------------------------------------------------

    @app_commands.command(description="The standings (points and tiebreaks), as text and a picture.")
    @app_commands.describe(
        tournament="The tournament's number (default: the one here)", public="Post it for everyone"
    )
    async def standings(
        self, interaction: discord.Interaction, tournament: int | None = None, public: bool = False
    ) -> None:
        if public:
            await replies.defer_public(interaction)
        else:
            await replies.defer_private(interaction)
        chosen = await self.pick(interaction, tournament)
        lines = self.service.standings(chosen)
        if chosen.phase is Phase.SIGNUP:
            await interaction.followup.send(
                words.signup_message(chosen), ephemeral=not public, allowed_mentions=replies.NO_PINGS
            )
            return
        heading = "final standings" if chosen.phase is Phase.FINISHED else "standings"
        picture = await standings_file(chosen, lines, heading)
        await interaction.followup.send(
            words.standings_message(chosen, lines),
            file=picture,
            ephemeral=not public,
            allowed_mentions=replies.NO_PINGS,
        )

    # -- organiser tools ----------------------------------------------------------------------------

    @app_commands.command(description="Withdraw from the tournament (organiser: withdraw a player).")
    @app_commands.describe(
        player="Who (default: you); their game under way is lost", tournament="The tournament's number"
    )
    async def withdraw(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        tournament: int | None = None,
    ) -> None:
        await replies.defer_private(interaction)
        chosen = await self.pick(interaction, tournament, Phase.SIGNUP, Phase.RUNNING, Phase.PAUSED)
        who = player or interaction.user
        entrant = chosen.by_user(who.id)
        if entrant is None:
            raise TournamentError(f"{words.escape(display_name(who))} is not playing in {chosen.name}.")
        moderator = await self.runs_tournaments(interaction)
        await self.service.withdraw(chosen.id, interaction.user.id, entrant.number, moderator=moderator)
        await self.bot.announcer.post(
            chosen.channel_id,
            f"{words.who(chosen, entrant.number)} withdrew from {words.title(chosen)}: their game under "
            "way (if any) is lost and they are not paired again.",
        )
        await replies.private(interaction, f"{words.who(chosen, entrant.number)} is withdrawn.")

    @app_commands.command(description="Organiser: hold the next round (games under way play on).")
    @app_commands.describe(tournament="The tournament's number")
    async def pause(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        chosen = await self.pick(interaction, tournament, Phase.RUNNING)
        moderator = await self.runs_tournaments(interaction)
        done = await self.service.pause(chosen.id, interaction.user.id, moderator=moderator)
        await self.bot.tournament_announcer.refresh_signup(done)
        await interaction.response.send_message(
            f"⏸ {words.title(done)} is paused: games under way play on; the next round waits for "
            "`/tournament resume`.",
            allowed_mentions=replies.NO_PINGS,
        )

    @app_commands.command(description="Organiser: go on after a pause.")
    @app_commands.describe(tournament="The tournament's number")
    async def resume(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await replies.defer_public(interaction)
        chosen = await self.pick(interaction, tournament, Phase.PAUSED)
        moderator = await self.runs_tournaments(interaction)
        done = await self.service.resume(chosen.id, interaction.user.id, moderator=moderator)
        await self.bot.tournament_announcer.refresh_signup(done)
        await interaction.followup.send(
            f"▶️ {words.title(done)} goes on (round {done.round} of {done.rules.rounds}).",
            allowed_mentions=replies.NO_PINGS,
        )

    @app_commands.command(description="Organiser: call the tournament off (no standings are kept).")
    @app_commands.describe(tournament="The tournament's number")
    async def cancel(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await replies.defer_private(interaction)
        chosen = await self.pick(interaction, tournament, Phase.SIGNUP, Phase.RUNNING, Phase.PAUSED)
        moderator = await self.runs_tournaments(interaction)
        done = await self.service.cancel(
            chosen.id, interaction.user.id, moderator=moderator, note=f"by {display_name(interaction.user)}"
        )
        await self.bot.tournament_announcer.caught_up(done.id)
        await replies.private(interaction, f"{words.title(done)} is called off.")

    @app_commands.command(description="Organiser: change a table's result (recorded with who and why).")
    @app_commands.describe(
        round="The round",
        order="The table's players by finishing place, best first: `Bob > Ann` (`Ann = Bob` for a draw)",
        reason="Why (kept with the change)",
        tournament="The tournament's number",
    )
    async def adjust(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, 60],
        order: str,
        reason: app_commands.Range[str, 3, REASON_LIMIT],
        tournament: int | None = None,
    ) -> None:
        await replies.defer_private(interaction)
        chosen = await self.pick(interaction, tournament, Phase.RUNNING, Phase.PAUSED)
        groups = [[find_entrant(chosen, name) for name in group] for group in parse_order(order)]
        moderator = await self.runs_tournaments(interaction)
        table, _ = await self.service.adjust(
            chosen.id,
            interaction.user.id,
            round_number=round,
            entrant=groups[0][0],
            order=groups,
            reason=reason,
            moderator=moderator,
        )
        fresh = await self.service.get(chosen.id)
        changed = next(t for t in fresh.tables if t.id == table.id)
        line = words.table_line(fresh, changed, None)
        await self.bot.announcer.post(
            chosen.channel_id,
            f"✏️ {words.title(fresh)}, round {round}: {line} (changed by "
            f"{words.escape(display_name(interaction.user))}: {words.escape(reason)}).",
        )
        await replies.private(interaction, f"Recorded: round {round}, {line}.")

    @app_commands.command(
        description="Server managers: the role (besides Manage Server) that may run tournaments."
    )
    @app_commands.describe(role="The role (leave out to clear it)")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def role(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        assert interaction.guild_id is not None
        await self.bot.storage.set_tournament_role(interaction.guild_id, role.id if role else None)
        said = (
            f"Members with {role.mention} can now run tournaments."
            if role
            else "Only Manage Server can run tournaments."
        )
        await interaction.response.send_message(said, ephemeral=True, allowed_mentions=replies.NO_PINGS)


async def setup(bot: TilehostBot) -> None:
    """Load the tournament cog and its restart-proof buttons."""
    await bot.add_cog(TournamentCog(bot))
    bot.add_dynamic_items(TournamentButton)
