"""Every sentence Tilehost says about a game, built from facts with display names.

Events and outcomes are facts (:mod:`games.core`); this module turns them into words: turn
lines, running scores, whose turn, standings, the lobby, reminders. Names are escaped so that a
nickname can neither format a message nor mention anyone; only :func:`mention` makes a ping,
and the Discord layer allows exactly the users it meant to ping.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.between.rematch import identity
from games import ai
from games.core import Event, EventKind, Game, counted, event_phrase, outcome_phrase
from games.records import RESIGN, TIMEOUT

if TYPE_CHECKING:
    from bot.sessions import Session, Step

MESSAGE_LIMIT = 2000
NAME_LIMIT = 32
_MARKDOWN = re.compile(r"([\\*_~|`>#\[\]()-])")
_MENTIONS = re.compile(r"@(everyone|here)|<(@[!&]?|#)(\d+)>")


def escape(text: str) -> str:
    """``text`` as plain words in a message: markdown characters escaped, and mentions
    (``@everyone``, ``<@id>``, ``<#id>``) broken with a zero-width space so they cannot ping."""
    flat = " ".join(str(text).split())
    flat = _MENTIONS.sub(lambda m: m.group(0).replace("@", "@\u200b").replace("<", "<\u200b"), flat)
    return _MARKDOWN.sub(r"\\\1", flat)


def short(name: str, limit: int = NAME_LIMIT) -> str:
    """A display name cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(name.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def mention(user_id: int) -> str:
    """A mention that pings ``user_id`` (where the message allows it)."""
    return f"<@{user_id}>"


def name(session: Session, seat: int | None) -> str:
    """A seat's display name in bold (computers say so)."""
    if seat is None or not 0 <= seat < len(session.seats):
        return "nobody"
    return f"**{escape(short(session.seats[seat].name))}**"


def called(session: Session, seat: int, *, ping: bool) -> str:
    """A mention of the person in ``seat`` when ``ping``, else their name."""
    row = session.seats[seat]
    if ping and row.user_id is not None:
        return mention(row.user_id)
    return name(session, seat)


def plain_names(session: Session) -> list[str]:
    """Display names in seat order, escaped, for phrases."""
    return [f"**{escape(short(seat.name))}**" for seat in session.seats]


def sentence(text: str) -> str:
    """``text`` ending with one stop: a full stop is added unless it already ends with one
    (``.``, ``!``, ``?``, ``…``), so that "solved 6x10 with 11 hints!" never ends ``!.``."""
    return text if text.rstrip().endswith((".", "!", "?", "…")) else text + "."


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to fit one message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def players_range(game: Game[Any, Any]) -> str:
    """``2 players``, ``2–4 players``."""
    if game.min_players == game.max_players:
        return counted(game.min_players, "player")
    return f"{game.min_players}–{game.max_players} players"


# -- events ----------------------------------------------------------------------------------------


def merge_events(events: Iterable[Event]) -> list[Event]:
    """Events with repeated facts merged: the same reason for the same seat (and subject) once,
    with its points and counts summed ("encloses 2 empty squares +2")."""
    merged: dict[tuple[Any, ...], Event] = {}
    for event in events:
        key = (
            (event.reason, event.seat, event.other, event.subject, event.kind)
            if event.reason
            else (id(event),)
        )
        seen = merged.get(key)
        merged[key] = (
            event
            if seen is None
            else replace(seen, points=seen.points + event.points, count=seen.count + event.count)
        )
    return list(merged.values())


def event_words(session: Session, events: Iterable[Event], mover: int | None) -> list[str]:
    """What the events say, merged; an event about another seat than the one the words are about
    (the mover, until an event about someone else) names it: "Ann plays …; Ben passes; Ann draws"."""
    names = plain_names(session)
    said = []
    about = mover
    for event in merge_events(events):
        if event.kind in (EventKind.GAME_END,) and not event.reason:
            continue
        phrase = _phrase(session.game, event, names)
        if not phrase:
            continue
        if event.seat is None:
            said.append(phrase)
            continue
        needs_name = event.seat != about and names[event.seat] not in phrase
        said.append(f"{names[event.seat]} {phrase}" if needs_name else phrase)
        about = event.seat
    return said


def _phrase(game: Game[Any, Any], event: Event, names: Sequence[str]) -> str:
    try:
        return event_phrase(game, event, names)
    except (KeyError, IndexError, ValueError):
        return event.reason


# -- turn lines --------------------------------------------------------------------------------------


def step_lines(session: Session, steps: Sequence[Step]) -> list[str]:
    """One line per turn of ``steps``: who did what, and what it caused."""
    lines: list[str] = []
    for group in _turns(steps):
        lines.append(_turn_line(session, group))
    return lines


def _turns(steps: Sequence[Step]) -> list[list[Step]]:
    """The steps grouped into lines: one per turn, split where the rules took over (a forced
    step that says nothing, such as a Tile Up! turn ended for want of anything to do, joins
    the line of the moves before it instead of a bare "had no choice")."""
    groups: list[list[Step]] = []
    for step in steps:
        if groups and _same_line(groups[-1][-1], step):
            groups[-1].append(step)
        else:
            groups.append([step])
    return groups


def _same_line(last: Step, step: Step) -> bool:
    if last.seat != step.seat or last.new_turn:
        return False  # another player's turn, or a new turn of the same player
    if last.line.startswith("!") or step.line.startswith("!"):
        return False  # a timeout or a resignation has its own line
    return step.forced == last.forced or (step.forced and not step.events)


def _turn_line(session: Session, group: Sequence[Step]) -> str:
    seat = group[0].seat
    who = name(session, seat)
    forced = all(step.forced for step in group)
    moves = [step.line for step in group if not step.line.startswith("!") and (forced or not step.forced)]
    special = [step.line for step in group if step.line.startswith("!")]
    events = [event for step in group for event in step.events]
    if "!resign" in special:
        events = [event for event in events if event.reason != "resigned"]  # the head says it
    elif "!timeout" in special:  # out of time, the game resigns for them: they forfeit
        events = [
            replace(event, reason="forfeit") if event.reason == "resigned" and event.seat == seat else event
            for event in events
        ]
    caused = event_words(session, events, seat)
    if "!timeout" in special and not moves:
        head = f"⏰ {who} ran out of time"
    elif "!resign" in special:
        head = f"🏳️ {who} resigned"
    elif forced:
        head = f"{who} had no choice"
    elif moves:
        head = f"{who} played " + ", ".join(f"`{move}`" for move in moves)
    else:
        head = f"{who} acted"
    if caused:
        head += ": " + "; ".join(caused)
    return sentence(head)


def scores_line(session: Session) -> str:
    """The running scores in words: ``Scores: Ann 12 · Ben 30 (fewest wins)``."""
    scores = session.scores()
    if not scores or (len(scores) < 2 and session.game.max_players == 1):
        return ""
    parts = [f"{name(session, seat)} {score}" for seat, score in enumerate(scores)]
    unit = " (fewest wins)" if session.game.lower_is_better else ""
    return "Scores: " + " · ".join(parts) + unit


def turn_prompt(session: Session, *, ping: bool) -> str:
    """Whose turn it is, with the deadline: ``@Ben, it's your turn — time runs out in 2 hours.``"""
    seat = session.to_act()
    if seat is None:
        return ""
    row = session.seats[seat]
    who = called(session, seat, ping=ping)
    if row.is_computer:
        text = f"{who} is thinking…"
    else:
        text = f"{who}, it's your turn"
        if session.deadline is not None:
            text += f" — time runs out <t:{int(session.deadline)}:R>"
        text += "."
    return text


def status_lines(session: Session, *, ping: bool = False) -> list[str]:
    """The state of play: scores, the game's public facts, whose turn."""
    lines = [line for line in (scores_line(session), _facts(session)) if line]
    prompt = turn_prompt(session, ping=ping)
    if prompt:
        lines.append(prompt)
    return lines


def _facts(session: Session) -> str:
    if session.state is None:
        return ""
    return session.game.describe(session.state, plain_names(session))


def header(session: Session) -> str:
    """``**Tri-Ominos** #12``"""
    return f"**{session.game.title}** #{session.id}"


def turn_message(session: Session, before: Sequence[Step], running: Sequence[Step], *, ping: bool) -> str:
    """A turn's public message: what happened since the last one (``before``), the steps of the
    running turn so far, then the state of play (pinging the player to act when ``ping``)."""
    lines = [header(session)]
    lines.extend(step_lines(session, [*before, *running]))
    if session.is_over:
        lines.append(game_over_line(session))
        lines.append(standings_line(session))
    else:
        lines.extend(status_lines(session, ping=ping))
    return clip("\n".join(lines))


# -- the end -------------------------------------------------------------------------------------------


def game_over_line(session: Session) -> str:
    """Who won and why: ``🏁 Game over — Ann wins: she went out with 412 (target 400).``"""
    outcome = session.outcome()
    if outcome is None:
        return "🏁 Game over."
    reason = outcome_phrase(session.game, outcome, plain_names(session))
    winners = [seat for seat in outcome.winners if seat not in outcome.forfeited]
    if session.game.max_players == 1:
        if winners:
            return f"🏁 {name(session, 0)}: solved! ({reason})"
        return f"🏁 {name(session, 0)}: not solved ({reason})."
    if not winners:
        verdict = "nobody wins"
    elif outcome.is_draw:
        verdict = "a draw between " + " and ".join(name(session, seat) for seat in winners)
    else:
        verdict = f"{name(session, winners[0])} wins"
    return sentence(f"🏁 Game over — {verdict}: {reason}")


def standings_line(session: Session) -> str:
    """Every seat by rank with its score: ``1. Ann 412 · 2. Cat 398 · 3. Ben 250 (resigned)``."""
    outcome = session.outcome()
    if outcome is None or session.game.max_players == 1:
        return ""
    order = sorted(range(len(outcome.ranks)), key=lambda seat: (outcome.ranks[seat], seat))
    rows = [
        f"{outcome.ranks[seat]}. {name(session, seat)} {outcome.scores[seat]}"
        + (f" ({_forfeit_words(session, seat)})" if seat in outcome.forfeited else "")
        for seat in order
    ]
    unit = " (fewest wins)" if session.game.lower_is_better else ""
    return "Standings" + unit + ": " + " · ".join(rows)


def _forfeit_words(session: Session, seat: int) -> str:
    """Why a seat forfeited: it resigned, or (without a resignation) its time ran out."""
    own = {line.text for line in session.lines if line.seat == seat}
    if RESIGN in own:
        return "resigned"
    return "out of time" if TIMEOUT in own else "forfeited"


def result_message(session: Session, pings: Sequence[int], where: str | None) -> str:
    """The game-over message for the channel: the verdict, standings and the players."""
    lines = [header(session), game_over_line(session)]
    standings = standings_line(session)
    if standings:
        lines.append(standings)
    if where:
        lines.append(f"The whole game: {where}")
    if pings:
        lines.append(" ".join(mention(user) for user in pings))
    return clip("\n".join(lines))


# -- lobby -------------------------------------------------------------------------------------------


def clock_words(session: Session) -> str:
    """The lobby's clock: the game's own (Geominos' live clock) or the session's turn clock."""
    label = session.game.clock_label(session.options)
    if label:
        return label
    seconds = session.row.turn_seconds
    if not seconds:
        return "no clock"
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{counted(seconds // 3600, 'hour')} a move"
    return f"{counted(max(1, seconds // 60), 'minute')} a move"


def options_words(session: Session) -> str:
    """The options players chose, with the game's own labels."""
    chosen = []
    for spec in session.game.Options.specs():
        if not spec.offered:
            continue
        value = getattr(session.options, spec.name)
        label = spec.labels.get(value, str(value))
        chosen.append(f"{spec.name.replace('_', ' ')}: {label.split(':')[0]}")
    return " · ".join(chosen)


def lobby_message(session: Session) -> str:
    """The lobby: options, clock, seats, how to join. Names only: nobody is pinged."""
    game = session.game
    seats = "\n".join(f"{seat + 1}. {_seat_label(session, seat)}" for seat in range(len(session.seats)))
    players = f"Players ({len(session.seats)} of {players_range(game)}):"
    kind = "lobby"
    if session.row.seating is not None:
        kind = f"rematch of #{session.row.rematch_of}"
        players, seats = rematch_seats(session)
    options = options_words(session)
    lines = [
        f"{header(session)} — {kind}, host {name(session, 0)}",
        f"Options: {options}" if options else "",
        f"Clock: {clock_words(session)}",
        players,
        seats,
        f"Join with the button or `/{game.name} join`; the host starts with the button or "
        f"`/{game.name} start`.",
    ]
    return clip("\n".join(line for line in lines if line))


def rematch_seats(session: Session) -> tuple[str, str]:
    """A rematch lobby's players in their planned order, each with whether they have joined
    (the last game's order moved on by one); and the heading over them."""
    plan = session.row.seating or []
    joined = {identity(seat) for seat in session.seats}
    planned = {identity(entry) for entry in plan}
    lines = []
    for number, entry in enumerate(plan, start=1):
        label = f"**{escape(short(entry['name']))}**"
        if entry.get("ai_level") is not None:
            label += f" (computer, {ai.level_of(entry['ai_level'])})"
        status = (
            "✅ in"
            if identity(entry) in joined
            else "not yet: press **Join** (or **Rematch** under the result)"
        )
        lines.append(f"{number}. {label} — {status}")
    extra = [seat.seat for seat in session.seats if identity(seat) not in planned]
    lines += [
        f"{len(plan) + index}. {_seat_label(session, seat)} — ✅ in" for index, seat in enumerate(extra, 1)
    ]
    ready = sum(1 for entry in plan if identity(entry) in joined) + len(extra)
    heading = f"Order of play, the last game's moved on by one ({ready} of {len(plan) + len(extra)} in):"
    return heading, "\n".join(lines)


def _seat_label(session: Session, seat: int) -> str:
    row = session.seats[seat]
    label = name(session, seat)
    if row.is_computer:
        label += f" (computer, {ai.level_of(row.ai_level)})"
    return label


def started_lobby(session: Session, where: str | None) -> str:
    """The lobby message once the game has started."""
    order = ", ".join(f"{seat + 1}. {name(session, seat)}" for seat in range(len(session.seats)))
    text = f"{header(session)} has started. Order of play: {order}."
    if where:
        text += f"\nFollow it in {where}."
    return clip(text)


def aborted(session: Session) -> str:
    """What a lobby or game says when it is called off."""
    return f"{header(session)} was called off; no result is kept."


def thread_name(session: Session) -> str:
    """A game's thread: ``Tri-Ominos #12 · Ann, Ben, Cat`` (at most 100 characters)."""
    names = ", ".join(short(seat.name, 20) for seat in session.seats)
    return f"{session.game.title} #{session.id} · {names}"[:100]


def reminder(session: Session) -> str:
    """A reminder that pings the player to act."""
    seat = session.to_act()
    if seat is None:
        return ""
    when = f" — time runs out <t:{int(session.deadline)}:R>" if session.deadline is not None else ""
    return f"⏳ {called(session, seat, ping=True)}, it's still your turn in {header(session)}{when}."


def private_ack(session: Session, steps: Sequence[Step], seat: int | None) -> str:
    """What the mover reads privately once their move is stored: not the public turn message
    again, but what only they need: their move, their hand now (where hands are hidden) and
    their next step (their turn goes on, it is theirs again, or who plays next)."""
    if steps and steps[0].line == RESIGN:
        left = your_finish(session, seat) if session.is_over else "You rank last; the others play on."
        return clip("\n".join(line for line in ("✅ Recorded: you resigned.", left) if line))
    own = [step.line for step in steps if step.seat == seat and not step.forced] if seat is not None else []
    lines = ["✅ Recorded: " + ", ".join(f"`{line}`" for line in own) + "." if own else "✅ Recorded."]
    if session.is_over:
        lines.append(your_finish(session, seat))
        return clip("\n".join(line for line in lines if line))
    if seat is not None and session.state is not None and session.game.hands_hidden:
        hand = session.game.hand(session.game.view(session.state, seat), seat)
        if hand is not None:
            lines.append(f"Your hand now: {', '.join(hand) if hand else 'nothing'}.")
    lines.append(next_step(session, seat, steps))
    return clip("\n".join(line for line in lines if line))


def your_finish(session: Session, seat: int | None) -> str:
    """The mover's own place when their move ended the game (the result is public):
    ``🏁 The game is over: you finish 2nd of 3, with 212 points.``"""
    outcome = session.outcome()
    if outcome is None or seat is None or session.game.max_players == 1:
        return ""
    rank, players = outcome.ranks[seat], len(outcome.ranks)
    shared = sum(1 for other in outcome.ranks if other == rank) > 1
    place = f"{_ordinal(rank)} of {players}" + (" (shared)" if shared else "")
    return f"🏁 The game is over: you finish {place}, with {counted(outcome.scores[seat], 'point')}."


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def next_step(session: Session, seat: int | None, steps: Sequence[Step]) -> str:
    """The mover's next step: ``Your turn goes on: 23 placements or `pass` (`/puzzominos
    play`).``, ``It's your turn again.``, or who plays next."""
    to_act = session.to_act()
    if to_act is None or seat is None or session.state is None or session.game.max_players == 1:
        return ""
    if to_act != seat:
        return f"{name(session, to_act)} plays next."
    if any(step.new_turn for step in steps):
        return "It's your turn again (the others had no move to make)."
    return f"Your turn goes on: {_choices(session)} (`/{session.game.name} play`: autocomplete lists them)."


def _choices(session: Session) -> str:
    """The kinds of move the seat to act has: ``23 placements, `score` or `end```."""
    game, state = session.game, session.state
    placements, verbs = 0, []
    for move in game.legal_moves(state):
        notation = game.format_move(state, move)
        verb = notation.split()[0]
        if notation.isalpha() or (" " in notation and verb.isalpha()):
            verbs.append(f"`{verb}`")
        else:
            placements += 1
    kinds = ([counted(placements, "placement")] if placements else []) + list(dict.fromkeys(verbs))
    return ", ".join(kinds[:-1]) + (" or " if len(kinds) > 1 else "") + kinds[-1] if kinds else "a move"


def hint_message(session: Session, decision: ai.Decision, command: str) -> str:
    """A hint in words: the move, the points it makes now, how the computer rates the asker's
    chances after it and how sure it is of the move (its lead over the next best move), and what
    it sets up (the asker's own next moves in the line it expects)."""
    game = session.game
    facts = [_points_now(game, decision.points)]
    players = len(session.seats)
    if decision.value is not None and session.game.max_players > 1 and players > 1:
        facts.append(_rating(decision.value, players))
        sureness = _sureness(decision.confidence, players)
        if sureness:
            facts.append(sureness)
    setup = [f"`{step.notation}`" + _signed(game, step.points) for step in decision.setup[:2]]
    if setup:
        facts.append("it sets up " + " then ".join(setup))
    return (
        f"💡 The computer would play `{decision.notation}`: {'; '.join(facts)}.\n"
        f"Play it with `{command} move:{decision.notation}`; it leads the suggestions, marked as the hint."
    )


def _rating(value: float, players: int) -> str:
    """The asker's prospects after the hinted move. With two players the value is the chance of
    winning; with more it is the share of the others the asker can expect to finish ahead of (see
    :func:`games.ai.search.rank_result`), which is no chance of winning and is not called one."""
    percent = round(value * 100)
    if players == 2:
        return f"the computer rates your chances at {percent} %"
    return f"the computer expects you to finish ahead of {percent} % of the others"


def _sureness(confidence: ai.Confidence | None, players: int = 2) -> str:
    """How sure the hint is, from the search's paired results against the next best move: the
    gap in chances (with more than two players, in the share of the others beaten) with its 95 %
    margin (two standard errors; none after an exact search, where one playout of each move says
    all), or a close call."""
    if confidence is None:
        return ""
    rival = f"`{confidence.runner_up}`"
    gap = round(confidence.gap * 100)
    if confidence.error == 0:  # an exact search: the gap is all there is to know
        return (
            f"better than {rival} ({_gap_words(gap, players)})"
            if gap > 0
            else f"a close call: {rival} is about as good"
        )
    margin = max(1, round(2 * confidence.error * 100)) if math.isfinite(confidence.error) else None
    if confidence.z < 1 or gap <= 0 or margin is None:
        return f"a close call: {rival} is about as good"
    certainty = "clearly" if confidence.sure else "probably"
    return f"{certainty} better than {rival} ({_gap_words(gap, players)}, ± {margin} %)"


def _gap_words(gap: int, players: int) -> str:
    """A hint's lead over the runner-up, in the hint's own measure (see :func:`_rating`)."""
    return f"chances +{gap} %" if players == 2 else f"+{gap} % of the others beaten"


def _points_now(game: Game[Any, Any], points: float) -> str:
    amount = round(points)
    if amount == 0:
        return "no points now"
    if game.lower_is_better:
        return (
            f"it costs {counted(amount, 'point')} now"
            if amount > 0
            else f"it takes off {counted(-amount, 'point')} now"
        )
    return f"{counted(amount, 'point')} now" if amount > 0 else f"it loses {counted(-amount, 'point')} now"


def _signed(game: Game[Any, Any], points: float) -> str:
    amount = round(points)
    return f" ({amount:+d})" if amount else ""


# -- where a table is, and what the bot may not do there --------------------------------------------

PERMISSIONS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "attach_files": "Attach Files",
    "create_public_threads": "Create Public Threads",
}
"""Discord's names of the permissions a table needs, as a server admin sees them."""


def missing_permissions(
    session: Session, missing: Sequence[str], channel_id: int, role: str, what: str
) -> str:
    """What the bot could not do at a table for want of permissions, and who can fix it:
    ``⚠️ Tri-Ominos #12: no board was posted. Tilehost needs Attach Files in #games: a server
    admin can allow it in that channel's permissions (Edit Channel → Permissions), for the
    Tilehost role.``"""
    needed = " and ".join(f"**{PERMISSIONS.get(key, key)}**" for key in missing)
    them = "them" if len(missing) > 1 else "it"
    return (
        f"⚠️ {header(session)}: {what}. Tilehost needs {needed} in <#{channel_id}>: a server admin can "
        f"allow {them} in that channel's permissions (Edit Channel → Permissions), for the "
        f"**{escape(role)}** role."
    )


def no_picture_note(role: str) -> str:
    """The line a board message has when the bot may not attach its picture."""
    return (
        f"(No picture: Tilehost may not attach files here. A server admin can allow **Attach Files** "
        f"for the **{escape(role)}** role in this channel's permissions.)"
    )


def thread_gone(session: Session, why: str, new_thread: bool) -> str:
    """Why a game left its thread and where it goes on: ``🧵 The thread of Tri-Ominos #12 was
    deleted: the game goes on in a new thread.``"""
    where = "in a new thread" if new_thread else "here, in this channel"
    return f"🧵 The thread of {header(session)} {why}: the game goes on {where}."


def not_posted(session: Session, why: str) -> str:
    """What the mover and the host read when nothing could be posted for a table."""
    return (
        f"⚠️ {header(session)}: your move is stored, but its board could not be posted ({why}). "
        f"The game goes on; `/{session.game.name} board` shows it."
    )


# -- autocomplete that has no move to offer ------------------------------------------------------------

NOT_A_MOVE = "(not a move)"
"""The value of an autocomplete line that only tells something (whose turn it is): picking it
is refused, and nothing is stored."""
CHOICE_LIMIT = 100


def plain(text: str) -> str:
    """``text`` for an autocomplete line (Discord shows no markdown there), within its 100
    characters."""
    flat = " ".join(text.replace("**", "").replace("`", "").split())
    return flat if len(flat) <= CHOICE_LIMIT else flat[: CHOICE_LIMIT - 1] + "…"


def no_moves_note(session: Session, user_id: int) -> str | None:
    """Why autocomplete offers ``user_id`` no move in this game (one line), or None when it
    has moves to offer: the game is loading, not started or over, or it is someone else's
    turn (said to a player and to a spectator alike, by name)."""
    title = f"{session.game.title} #{session.id}"
    if session.loading is not None:
        return f"{title} is loading after a restart: try again in a moment."
    if session.state is None:
        return f"{title} has not started yet."
    to_act = session.to_act()
    if to_act is None:
        return f"{title} is over."
    seat = session.seat_of(user_id)
    if seat == to_act:
        return None
    row = session.seats[to_act]
    whose = f"{short(row.name)}'s turn" + (" (a computer, thinking)" if row.is_computer else "")
    if seat is None:
        return f"It's {whose}: you are watching {title} (you have no seat in it)."
    return f"It's {whose}, not yours: you'll be pinged when yours starts."


def nothing_matches(typed: str, prefix: str = "") -> str:
    """The autocomplete line when no legal move matches what was typed."""
    if prefix and not typed.strip():
        return f"No {prefix} move is possible now."
    shown = short(typed.strip(), 40)
    return f"No legal move matches “{shown}”: clear the box to see them all."


def not_a_move(note: str | None) -> str:
    """The refusal when the line that only told something is picked as a move."""
    said = f" ({note})" if note else ""
    return f"That line of the list is not a move{said}; nothing was stored. Pick a move from the list."
