"""What players read about a tournament: the sign-up message with its rules, the round's
pairings with links to every game, the standings as text, the winner. Names as written (escaped),
never "seat N"; plurals right; no pings (the game threads ping the player whose turn starts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.tournaments.model import WIN, Format, Phase, Table, Tiebreak, Tournament
from bot.tournaments.standings import Standing, format_points
from bot.words import clip, counted, escape, short
from games import registry

TEXT_NAME = 16
"""How many characters of a name the text standings show (the picture shows more)."""
TEXT_ROWS = 20
"""Standings lines in a message; the picture has them all."""


def title(tournament: Tournament) -> str:
    """``Spring Swiss`` in bold, escaped."""
    return f"**{escape(tournament.name)}**"


def who(tournament: Tournament, number: int) -> str:
    """An entrant's name, bold, with (computer) where it is one."""
    entrant = tournament.entrant(number)
    tag = " (computer)" if entrant.is_computer else ""
    return f"**{escape(short(entrant.name))}**{tag}"


def duration(seconds: int) -> str:
    """``24 h a move``-style hours or days."""
    hours = seconds // 3600
    if hours and hours % 24 == 0:
        return counted(hours // 24, "day")
    return f"{hours} h" if hours else f"{seconds // 60} min"


def table_words(tournament: Tournament) -> str:
    """How tables are formed."""
    rules = tournament.rules
    size = rules.table_size
    seats = f"{size} players a table"
    if rules.format is Format.SWISS:
        how = (
            "paired by points each round: equal points meet, nobody meets the same player again while "
            "another pairing exists"
        )
        if size > 2:
            how = (
                "tables drawn by points each round: equal points sit together, as few repeat meetings "
                "as can be"
            )
    else:
        how = (
            "everyone meets everyone once"
            if size == 2
            else "tables drawn so everyone meets everyone, as evenly as can be"
        )
    rest = (
        "when the count does not divide, the rest play at a smaller table, or one player sits out with a "
        "bye (never twice while someone else has had none)"
    )
    starts = "who starts alternates" if size == 2 else "seats rotate so nobody always starts"
    return f"{seats}, {how}; {rest}; {starts}."


def points_words(tournament: Tournament) -> str:
    """What a win, a draw, a place and a bye are worth."""
    size = tournament.rules.table_size
    win = format_points(WIN)
    text = f"a win {win}, a draw ½, a loss 0"
    if size > 2:
        text += "; at a bigger table first place 1 and last 0, the places between shared evenly (ties share)"
    return text + f"; a bye {win}. A game lost on time, abandoned or forfeited is a loss."


def tiebreak_words(tournament: Tournament) -> str:
    """How ties are broken, in order."""
    return ", then ".join(t.words for t in tournament.rules.tiebreaks) + "."


def clock_line(tournament: Tournament) -> str:
    """The move clock and the round deadline."""
    rules = tournament.rules
    move = f"{duration(rules.turn_seconds)} a move" if rules.turn_seconds else "no move clock"
    line = f"{move}; each round starts as soon as every game of the round before has ended"
    if rules.round_seconds:
        line += (
            f", and ends after {duration(rules.round_seconds)} at the latest (a game still running then is "
            "lost by the player to move; the others rank by their scores)"
        )
    return line + "."


def entrant_list(tournament: Tournament) -> str:
    """The entrants, in sign-up order."""
    if not tournament.entrants:
        return "nobody yet"
    names = []
    for entrant in tournament.entrants:
        tag = f" (computer, {entrant.ai_level})" if entrant.is_computer else ""
        names.append(escape(short(entrant.name)) + tag)
    return ", ".join(names)


def rounds_words(tournament: Tournament) -> str:
    """``3 rounds`` (a Swiss), or what a round robin's count depends on."""
    rules = tournament.rules
    if rules.rounds:
        return counted(rules.rounds, "round")
    return "as many rounds as it takes"


def signup_message(tournament: Tournament) -> str:
    """The sign-up message: what, the rules, when it closes, who is in."""
    rules = tournament.rules
    game = registry.get(rules.game)
    lines = [
        f"🏆 {title(tournament)} — a {game.title} {rules.format.label}, {rounds_words(tournament)} · "
        f"organised by <@{tournament.organiser_id}> · #{tournament.id}",
        f"**Tables:** {table_words(tournament)}",
        f"**Points:** {points_words(tournament)}",
        f"**Ties:** {tiebreak_words(tournament)}",
        f"**Clock:** {clock_line(tournament)}",
    ]
    options = game.Options.from_dict(dict(rules.options)).describe()
    if options:
        lines.append(f"**Game options:** {options}")
    count = len(tournament.entrants)
    players = f"**Players ({count}/{rules.max_entrants}):** {entrant_list(tournament)}"
    if tournament.phase is Phase.SIGNUP:
        closes = (
            f"Sign-up closes <t:{int(tournament.closes_at)}:R> or when the organiser starts it"
            if tournament.closes_at
            else "Sign-up closes when the organiser starts it"
        )
        lines += [players, f"{closes} (at least {rules.min_entrants} players). Press **Join** to play."]
    else:
        lines += [players, phase_line(tournament)]
    return clip("\n".join(lines))


def phase_line(tournament: Tournament) -> str:
    """Where it stands, after sign-up."""
    if tournament.phase is Phase.CANCELLED:
        return "❌ Called off."
    if tournament.phase is Phase.FINISHED:
        return "🏁 Finished: `/tournament standings` shows the final table."
    paused = " — ⏸ paused" if tournament.phase is Phase.PAUSED else ""
    return (
        f"▶️ Under way: round {tournament.round} of {tournament.rules.rounds}{paused}. `/tournament standings`"
    )


def standings_table(tournament: Tournament, lines: Sequence[Standing], limit: int = TEXT_ROWS) -> str:
    """The standings as a monospaced table (rank, name, points, the first tiebreaks)."""
    shown = tournament.rules.tiebreaks[:2]
    head = f"{'#':>2}  {'Player':<{TEXT_NAME}} {'Pts':>4}" + "".join(f" {t.short:>6}" for t in shown)
    rows = [head]
    for line in lines[:limit]:
        name = short(tournament.entrant(line.number).name, TEXT_NAME).replace("`", "'")
        mark = "†" if line.withdrawn else ""
        values = "".join(f" {format_points(line.tiebreaks[t]):>6}" for t in shown)
        rows.append(f"{line.rank:>2}  {name + mark:<{TEXT_NAME}} {format_points(line.points):>4}{values}")
    if len(lines) > limit:
        rows.append(f"… and {counted(len(lines) - limit, 'more player')} (see the picture)")
    text = "```\n" + "\n".join(rows) + "\n```"
    if any(line.withdrawn for line in lines):
        text += "† withdrew"
    return text


def picture_rows(tournament: Tournament, lines: Sequence[Standing]) -> tuple[list[str], list[list[str]]]:
    """The standings picture's headings and rows: points, the tiebreaks that say something (a
    head-to-head column only where it was needed), games played, and byes where there were."""
    shown = [
        t
        for t in tournament.rules.tiebreaks
        if t is not Tiebreak.HEAD_TO_HEAD or any(line.tiebreaks[t] is not None for line in lines)
    ]
    byes = any(line.byes for line in lines)
    headings = ["#", "Player", "Pts", *(t.short for t in shown), "Games", *(["Byes"] if byes else [])]
    rows = []
    for line in lines:
        entrant = tournament.entrant(line.number)
        name = entrant.name + (" (computer)" if entrant.is_computer else "")
        name += " †" if line.withdrawn else ""
        values = [format_points(line.tiebreaks[t]) for t in shown]
        row = [str(line.rank), name, format_points(line.points), *values, str(line.played)]
        rows.append(row + ([str(line.byes)] if byes else []))
    return headings, rows


def table_line(tournament: Tournament, table: Table, where: str | None) -> str:
    """``Table 2: Ann vs Bo — <#thread>`` (the result once it has one)."""
    names = " vs ".join(who(tournament, p) for p in table.seats)
    line = f"Table {table.number}: {names}"
    if table.result is not None:
        return line + " — " + result_words(tournament, table)
    return line + (f" — {where}" if where else "")


def result_words(tournament: Tournament, table: Table) -> str:
    """``Ann won``, ``a draw``, ``Bo won by forfeit``; at bigger tables the order."""
    result = table.result
    assert result is not None
    order = sorted(range(len(table.seats)), key=lambda s: (s in result.absent, result.ranks[s]))
    firsts = [s for s in order if result.ranks[s] == result.ranks[order[0]] and s not in result.absent]
    forfeit = " by forfeit" if result.absent else ""
    if len(table.seats) == 2:
        if len(firsts) == 2:
            return "a draw"
        if not firsts:
            return "both lost (absent)"
        return f"{escape(short(tournament.entrant(table.seats[firsts[0]]).name))} won{forfeit}"
    return " > ".join(escape(short(tournament.entrant(table.seats[s]).name)) for s in order) + forfeit


def round_message(
    tournament: Tournament, number: int, previous: Sequence[Standing], links: Mapping[int, str]
) -> str:
    """A round starts: the standings after the one before, this round's tables with links to
    their games, and the byes."""
    rules = tournament.rules
    parts = [f"🏆 {title(tournament)} — **round {number} of {rules.rounds}**"]
    if previous:
        parts += [f"Standings after round {number - 1}:", standings_table(tournament, previous)]
    tables = tournament.tables_of(number)
    parts.append("Tables:" if tables else "No table this round.")
    parts += [table_line(tournament, table, links.get(table.id)) for table in tables]
    row = tournament.round_row(number)
    if row is not None and row.byes:
        byes = ", ".join(who(tournament, p) for p in row.byes)
        parts.append(f"Bye: {byes} ({format_points(WIN)} point)")
    if row is not None and row.deadline:
        parts.append(f"The round ends <t:{int(row.deadline)}:R> at the latest.")
    return clip("\n".join(parts))


def final_message(tournament: Tournament, lines: Sequence[Standing]) -> str:
    """The end: the winner (or winners) and the final table."""
    winners = [line for line in lines if line.rank == 1]
    names = " and ".join(who(tournament, line.number) for line in winners)
    if not winners:
        head = f"🏁 {title(tournament)} is over."
    else:
        verb = "win" if len(winners) > 1 else "wins"
        points = format_points(winners[0].points)
        unit = "point" if winners[0].points == 1 else "points"
        head = f"🏁🏆 {names} {verb} {title(tournament)} with {points} {unit}!"
    return clip("\n".join([head, "Final standings:", standings_table(tournament, lines)]))


def standings_message(tournament: Tournament, lines: Sequence[Standing]) -> str:
    """``/tournament standings``: where it stands, and the table."""
    if tournament.phase is Phase.FINISHED:
        status = "final standings"
    else:
        done = len(tournament.completed_rounds())
        status = f"standings after {counted(done, 'round')} of {tournament.rules.rounds}"
    return clip(f"🏆 {title(tournament)} — {status}\n{standings_table(tournament, lines)}")


def tiebreak_legend(tournament: Tournament) -> str:
    """The column headings explained (under the picture)."""
    return " · ".join(f"{t.short}: {t.words}" for t in tournament.rules.tiebreaks if t is not Tiebreak.WINS)
