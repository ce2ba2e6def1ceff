"""`/leaderboard`, `/stats` and `/history`: standings per server and global, from stored results."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import admin
from bot.storage import HistoryRow, LeaderRow, SolvedTarget, SolverRow, Stats, TournamentHistoryRow
from bot.storage.rows import Season
from bot.tournaments.standings import format_points
from bot.words import escape
from games import registry
from games.core import Game, counted
from games.errors import UnknownGameError

if TYPE_CHECKING:
    from bot.client import TilehostBot

PAGE_SIZE = 10
SORTS = ("rating", "wins", "games")


def is_solitaire(game: Game[Any, Any]) -> bool:
    """A one-seat game: solved or not, no ratings; standings count targets and solve times."""
    return game.max_players == 1


def _ordinal(rank: int) -> str:
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def _game(bot: TilehostBot, name: str) -> Game[Any, Any]:
    game = registry.get(name)
    if game.name not in bot.standing_games:
        raise UnknownGameError(
            f"There is no game called {name!r} here. The games are: {', '.join(bot.standing_games)}."
        )
    return game


def leaderboard_embed(
    game: Game[Any, Any],
    scope: str,
    sort: str,
    page: int,
    rows: list[LeaderRow],
    total: int,
    season: str = "",
) -> discord.Embed:
    """One page of a leaderboard (``season``: which of the server's seasons, in words)."""
    lines = []
    for row in rows:
        skill = f"skill {row.rating:.1f}" if row.rating is not None else "unrated"
        record = f"{counted(row.wins, 'win')} / {counted(row.games, 'game')}"
        lines.append(f"<@{row.user_id}> — {skill} · {record}")
    return _ranked_page(
        f"{game.title} leaderboard — {_where(scope)}{season}, by {sort}",
        f"No finished {game.title} games yet. Start one with `/{game.name} new`!",
        lines,
        page,
        f"{counted(total, 'player')} · skill = OpenSkill mu - 3 sigma",
        total,
    )


def solitaire_embed(
    game: Game[Any, Any], scope: str, page: int, rows: list[SolverRow], total: int, season: str = ""
) -> discord.Embed:
    """One page of a solitaire leaderboard: most targets solved, then most solves, then quickest."""
    lines = []
    for row in rows:
        quickest = f" · quickest {_duration(row.fastest)}" if row.fastest is not None else ""
        targets = counted(row.targets, "target")
        helped = f" (+{row.helped} with hints)" if row.helped else ""
        lines.append(f"<@{row.user_id}> — {targets} · {counted(row.solves, 'solve')}{helped}{quickest}")
    return _ranked_page(
        f"{game.title} — best solvers, {_where(scope)}{season}",
        f"Nobody has solved a {game.title} target yet. Try `/puzzominos solo`!",
        lines,
        page,
        f"{counted(total, 'solver')} · /stats shows each target's best time",
        total,
    )


def _where(scope: str) -> str:
    return "this server" if scope == "server" else "all servers"


def _ranked_page(
    title: str, empty: str, lines: list[str], page: int, footer: str, total: int
) -> discord.Embed:
    """A page of ranked lines (numbered from the page's first rank), or ``empty`` when there
    are none; the footer says which page of how many."""
    embed = discord.Embed(title=title)
    if not lines:
        embed.description = empty
        return embed
    first = page * PAGE_SIZE + 1
    embed.description = "\n".join(f"**{rank}.** {line}" for rank, line in enumerate(lines, start=first))
    pages = max(1, -(-total // PAGE_SIZE))
    embed.set_footer(text=f"Page {page + 1}/{pages} · {footer}")
    return embed


def solved_field(solved: list[SolvedTarget]) -> str:
    """The targets a player solved, each with its count and quickest time."""
    if not solved:
        return "No target solved yet."
    lines = [
        f"`{row.target}` solved {row.solves}× · quickest "
        + ("-" if row.fastest is None else _duration(row.fastest))
        + (f" · {row.helped}× with hints" if row.helped else "")
        for row in solved
    ]
    return "\n".join(lines)[:1024]


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lb:(?P<game>[a-z_]+):(?P<guild>\d+):(?P<sort>rating|wins|games):(?P<page>\d+):(?P<label>prev|next)"
    r"(?::s(?P<season>\d+))?",
):
    """Previous/next page of a leaderboard; everything it needs is in its custom id, so it keeps
    working after a restart (a server's past season ends it with ``:s<number>``; buttons made
    before seasons existed have none, and show the current season)."""

    def __init__(
        self,
        game: str,
        guild_id: int,
        sort: str,
        page: int,
        label: str,
        disabled: bool = False,
        season: int | None = None,
    ) -> None:
        past = "" if season is None else f":s{season}"
        super().__init__(
            discord.ui.Button(
                label="◀ Previous" if label == "prev" else "Next ▶",
                style=discord.ButtonStyle.secondary,
                custom_id=f"lb:{game}:{guild_id}:{sort}:{page}:{label}{past}",
                disabled=disabled,
            )
        )
        self.game, self.guild_id, self.sort, self.page, self.season = game, guild_id, sort, page, season

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        season = int(match["season"]) if match["season"] else None
        return cls(
            match["game"],
            int(match["guild"]),
            match["sort"],
            int(match["page"]),
            match["label"],
            season=season,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Any = interaction.client
        embed, view = await leaderboard_page(
            bot, self.game, self.guild_id or None, self.sort, self.page, season_number=self.season
        )
        await interaction.response.edit_message(embed=embed, view=view)


async def chosen_season(bot: TilehostBot, guild_id: int | None, number: int | None) -> Season | None:
    """The server season a leaderboard shows (None for the global one); refuses a season the
    server does not have."""
    if guild_id is None:
        if number is not None:
            raise admin.AdminRefusal(
                "Seasons are a server's: leave out `season`, or choose `scope:this server`."
            )
        return None
    season = await bot.service.storage.season(guild_id, number)
    if season is None:
        current = await bot.service.storage.season(guild_id)
        assert current is not None
        raise admin.AdminRefusal(
            f"This server has no season {number}: it is in season {current.number} "
            "(`/tilehost season` starts the next)."
        )
    return season


def season_label(season: Season | None) -> str:
    """How a leaderboard's title names the season: nothing for a server that never started a
    second one."""
    if season is None or (season.current and season.number == 1):
        return ""
    return f", season {season.number}" if season.current else f", {admin.season_words(season)}"


async def leaderboard_page(
    bot: TilehostBot,
    game_name: str,
    guild_id: int | None,
    sort: str,
    page: int,
    *,
    season_number: int | None = None,
) -> tuple[discord.Embed, discord.ui.View]:
    """The embed and paging buttons of one leaderboard page (of a server's past season with
    ``season_number``)."""
    game = registry.get(game_name)
    storage = bot.service.storage
    scope = "server" if guild_id else "global"
    season = await chosen_season(bot, guild_id, season_number)
    label = season_label(season)
    if is_solitaire(game):
        solvers, total = await storage.solitaire_leaderboard(
            game.name, guild_id, limit=PAGE_SIZE, offset=page * PAGE_SIZE, season=season
        )
        embed = solitaire_embed(game, scope, page, solvers, total, label)
    else:
        rows, total = await storage.leaderboard(
            game.name, guild_id, sort, limit=PAGE_SIZE, offset=page * PAGE_SIZE, season=season
        )
        embed = leaderboard_embed(game, scope, sort, page, rows, total, label)
    last = max(0, -(-total // PAGE_SIZE) - 1)
    past = None if season is None or season.current else season.number
    view = discord.ui.View(timeout=None)
    view.add_item(
        PageButton(game.name, guild_id or 0, sort, max(0, page - 1), "prev", disabled=page == 0, season=past)
    )
    view.add_item(
        PageButton(
            game.name, guild_id or 0, sort, min(last, page + 1), "next", disabled=page >= last, season=past
        )
    )
    return embed, view


def stats_field(game: Game[Any, Any], stats: Stats) -> str:
    """A player's record in one game, as a few lines."""
    rate = f"{100 * stats.wins / stats.games:.0f}%" if stats.games else "-"
    best = "-" if stats.best is None else str(stats.best)
    average = "-" if stats.average is None else f"{stats.average:.1f}"
    if stats.streak > 0:
        streak = f"{counted(stats.streak, 'win')} in a row"
    elif stats.streak < 0:
        streak = f"{-stats.streak} without a win"
    else:
        streak = "-"
    skill = f"{stats.rating:.1f} ({stats.rated_games} rated)" if stats.rating is not None else "unrated"
    lines = [
        f"Games **{stats.games}** · wins **{stats.wins}** ({rate}) · draws {stats.draws} · "
        f"forfeits {stats.forfeits}",
        f"Skill {skill} · best score {best} · average {average}"
        + (" (fewest is best)" if game.lower_is_better else ""),
        f"Streak: {streak}",
    ]
    if stats.fastest_win is not None:
        lines.append(f"Fastest win: {_duration(stats.fastest_win)}")
    return "\n".join(lines)


def _duration(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m {secs:02d}s" if hours else f"{minutes}m {secs:02d}s"


def history_line(row: HistoryRow) -> str:
    """One finished game in a player's history, with a link to its last board."""
    game = registry.get(row.game)
    if is_solitaire(game):
        # one seat: no ranks, and no points to speak of
        result = ("solved with hints" if row.helped else "solved") if row.won else "gave up"
    else:
        result = ("won" if row.won else f"{_ordinal(row.rank)} of {row.players}") + f", {row.score} pts"
    line = f"**{game.title}** #{row.game_id} — {result} — <t:{int(row.finished_at)}:R>"
    if row.message_id:
        guild = row.guild_id if row.guild_id else "@me"
        line += f" — [board](https://discord.com/channels/{guild}/{row.channel_id}/{row.message_id})"
    return line


def tournament_line(row: TournamentHistoryRow) -> str:
    """One finished tournament in a player's history: their place, points and when."""
    game = registry.get(row.game)
    kind = "Swiss" if row.format == "swiss" else "round robin"
    place = f"{_ordinal(row.final_rank)} of {row.entrants}" if row.final_rank is not None else "withdrew"
    points = f", {format_points(Fraction(row.final_points or 0).limit_denominator(12))} pts"
    return (
        f"**{escape(row.name)}** (#{row.id}, {game.title} {kind}) — {place}{points} — "
        f"<t:{int(row.finished_at)}:R> — `/tournament standings tournament:{row.id}`"
    )


class StandingsCog(commands.Cog):
    """Leaderboards, stats and history."""

    def __init__(self, bot: TilehostBot) -> None:
        self.bot = bot

    async def game_autocomplete(
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        typed = value.lower().strip()
        return [
            app_commands.Choice(name=registry.get(name).title, value=name)
            for name in self.bot.standing_games
            if typed in name or typed in registry.get(name).title.lower()
        ][:25]

    @app_commands.command(description="The best players of a game, in this server or everywhere.")
    @app_commands.describe(
        game="Which game",
        scope="This server or all servers",
        sort="Order by",
        season="A past season of this server (default: the current one)",
    )
    @app_commands.choices(
        scope=[
            app_commands.Choice(name="this server", value="server"),
            app_commands.Choice(name="global", value="global"),
        ],
        sort=[app_commands.Choice(name=sort, value=sort) for sort in SORTS],
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str,
        scope: str = "server",
        sort: str = "rating",
        season: app_commands.Range[int, 1] | None = None,
    ) -> None:
        chosen = _game(self.bot, game)
        guild_id = interaction.guild_id if scope == "server" else None
        embed, view = await leaderboard_page(self.bot, chosen.name, guild_id, sort, 0, season_number=season)
        await interaction.response.send_message(embed=embed, view=view)

    @leaderboard.autocomplete("game")
    async def _leaderboard_game(
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        return await self.game_autocomplete(interaction, value)

    @app_commands.command(
        description="A player's record: games, wins, skill, best and average score, streak."
    )
    @app_commands.describe(
        player="Whose stats (default: yours)", game="One game (default: every game played)"
    )
    async def stats(
        self, interaction: discord.Interaction, player: discord.User | None = None, game: str | None = None
    ) -> None:
        who = player or interaction.user
        names = self.bot.standing_games
        games = [_game(self.bot, game)] if game else [registry.get(name) for name in names]
        embed = discord.Embed(title=f"Stats of {who.display_name}")
        for chosen in games:
            stats = await self.bot.service.storage.stats(
                who.id, chosen.name, interaction.guild_id, chosen.lower_is_better
            )
            if stats.games or game:
                embed.add_field(name=chosen.title, value=stats_field(chosen, stats), inline=False)
            if is_solitaire(chosen) and (stats.games or game):
                solved = await self.bot.service.storage.solved_targets(
                    who.id, chosen.name, interaction.guild_id
                )
                embed.add_field(
                    name=f"{chosen.title}: targets solved", value=solved_field(solved), inline=False
                )
        if not embed.fields:
            embed.description = "No finished games here yet."
        await interaction.response.send_message(embed=embed)

    @stats.autocomplete("game")
    async def _stats_game(
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        return await self.game_autocomplete(interaction, value)

    @app_commands.command(description="A player's recent games, with links to their final boards.")
    @app_commands.describe(player="Whose games (default: yours)")
    async def history(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        who = player or interaction.user
        rows = await self.bot.service.storage.history(who.id, interaction.guild_id, limit=10)
        embed = discord.Embed(title=f"Recent games of {who.display_name}")
        embed.description = "\n".join(history_line(row) for row in rows) or "No finished games here yet."
        played = await self.bot.service.storage.tournament_history(who.id, interaction.guild_id, limit=5)
        if played:
            embed.add_field(
                name="Tournaments",
                value="\n".join(tournament_line(row) for row in played)[:1024],
                inline=False,
            )
        if rows:
            embed.set_footer(text="Watch one again with /<game> replay game_id:<number>")
        await interaction.response.send_message(embed=embed)


async def setup(bot: TilehostBot) -> None:
    """Load the standings cog and its restart-proof buttons."""
    await bot.add_cog(StandingsCog(bot))
    bot.add_dynamic_items(PageButton)
