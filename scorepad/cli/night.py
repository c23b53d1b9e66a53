"""The session ledger: start a night, record hands, correct them, see where it stands."""

from __future__ import annotations

import sys

import click

from ..errors import ScorepadError
from ._common import (_LEASTER_ONLY, _PICKER_ONLY, CONTEXT_SETTINGS, _build_hand,
                      _complete_player, _echo_recorded, _given, _hands, _next_line, _race_line,
                      format_option,
                      _record, _split_names, _totals_table, _what, hand_options, rules_options,
                      table_format_option, use_color)


@click.command(context_settings=CONTEXT_SETTINGS)
@rules_options
@click.option("--players", required=True, callback=_split_names, metavar="A,B,C,...",
              help="Everyone at the table, in seat order. A name with a comma goes in double "
                   "quotes.")
@click.option("--dealer", metavar="NAME", shell_complete=_complete_player,
              help="Who deals the first hand. Default: the last player listed.")
@click.pass_obj
def new(path, rules_spec, overrides, players, dealer):
    """Start a session file for a night: the players in seat order and the rules.

    The rules table is written into the file, so the file alone scores every hand even if the
    rules file changes later. An existing file is never overwritten.

    Example:

    \b
        scorepad -f friday.csv new --players Ann,Bob,Cy,Dee,Ed --rules pagat --dealer Ed
    """
    from ..ledger import check_name
    from ..rules import load_rules
    from ..scoring import seat
    from ..session import create

    rules = load_rules(rules_spec, overrides)
    players = tuple(check_name(p) for p in players)
    seating = seat(rules, players, dealer)  # can this table be dealt at all?
    head = create(path, players, rules, seating.dealer)
    click.echo(f"Started {path}: {', '.join(head.players)}; rules: {rules.summary()}.")
    click.echo(f"Next: hand 1, {seating.dealer} deals, {seating.order[0]} leads.")


@click.command(context_settings=CONTEXT_SETTINGS)
@hand_options()
@click.option("--doubler", is_flag=True,
              help="Everyone passed and the table plays doublers: the next hand is doubled.")
@click.option("--out", multiple=True, metavar="NAME", shell_complete=_complete_player,
              help="Sit this player out for this hand (repeatable).")
@click.option("--note", default="", metavar="TEXT", help="A note kept with the hand.")
@click.option("--explain", is_flag=True, help="Also print how the hand was scored.")
@table_format_option()
@click.pass_obj
def hand(path, doubler, out, note, explain, fmt, **params):
    """Record a hand as it ends: score it, append it to the session, show the totals.

    The options are those of `check` (without --players, --rules and --set, which come from the
    session). The dealer is whoever is next unless --dealer says otherwise, and doublers pending
    from earlier hands are applied by themselves.

    Examples:

    \b
        scorepad hand --picker Ann --partner Bob --points 64 --tricks 4
        scorepad hand --picker Cy --alone --points 95 --crack Ed --note "Cy's big one"
        scorepad hand --leaster --winner Dee
        scorepad hand --doubler
    """
    from ..session import now

    if doubler:
        stray = _given({**params, "leaster": params["leaster"] or None},
                       _PICKER_ONLY + _LEASTER_ONLY + ("leaster",))
        if stray:
            raise click.UsageError(f"{stray[0]} does not belong with --doubler")

    def make(state):
        if doubler:
            return state.record_doubler(params["dealer"], note, now()), None
        return state.record(_build_hand(state.players, params, out), note, now())

    row, result, state = _record(path, make)
    _echo_recorded(path, row, result, state, fmt, explain)


@click.command(context_settings=CONTEXT_SETTINGS)
@format_option("text", "json")
@click.pass_obj
def status(path, fmt):
    """Where the night stands: the next hand, its dealer, who leads and sits out, doublers.

    Reads only the top and the end of the file, however long the night.

    Example:

    \b
        scorepad status
    """
    from ..ledger import Replay
    from ..scoring import seat
    from ..session import read_head, read_tail

    head = read_head(path)
    last, last_hand = read_tail(head)
    state = Replay.resume(head.rules, head.players, last, last_hand)
    seating = seat(head.rules, state.seated, state.next_dealer)
    pending = len(state.pending)
    leader = max(state.seated, key=lambda p: state.totals[p])
    info = {
        "file": str(path),
        "rules": head.rules.name,
        "rules_in_force": head.start.note or head.rules.name,
        "players": list(state.seated),
        "next_hand": last_hand + 1,
        "dealer": state.next_dealer,
        "leads": seating.order[0],
        "sits_out": list(seating.sitting_out),
        "doublers_pending": pending,
        "next_hand_doubled": state.doubled_next(),
        "leader": leader,
        "totals": dict(state.totals),
        "race_winners": list(state.race_winners),
    }
    if fmt == "json":
        from ..render import to_json

        click.echo(to_json(info))
        return
    from ..render import signed

    doubled = state.doubled_next()
    lines = [
        ("Session", str(path)),
        ("Rules", head.start.note or head.rules.name),
        ("Players", ", ".join(state.seated)),
        ("Next hand", str(last_hand + 1)),
        ("Dealer", state.next_dealer),
        ("Leads", seating.order[0]),
        ("Sits out", ", ".join(seating.sitting_out) or "nobody"),
        ("Doublers", f"{pending} pending" + (f"; the next hand is doubled (x{2 ** doubled})"
                                             if doubled else "") if pending else "none pending"),
        ("Leader", f"{leader} {signed(state.totals[leader])}"),
    ]
    race = _race_line(state)
    if race:
        lines.append(("Race", race))
    width = max(len(k) for k, _ in lines) + 1
    for key, value in lines:
        click.echo(f"{key + ':':<{width}} {value}")


@click.command(context_settings=CONTEXT_SETTINGS)
@table_format_option()
@click.pass_obj
def standings(path, fmt):
    """The night so far: each player's total, hands played, picks and picker wins.

    Checks every row as it adds it up (points, hand numbers, names, every hand summing to zero,
    corrections, the file's running totals); a file that fails is refused with the first
    problem. `scorepad verify` also re-scores every hand from its card points.

    Example:

    \b
        scorepad -f sample_sessions/standard-friday.csv standings
    """
    from ..session import read_head, tally

    head = read_head(path)
    state = tally(head)
    order = sorted(state.totals, key=lambda p: -state.totals[p])
    if fmt == "json":
        from ..render import to_json

        click.echo(to_json({
            "file": str(path), "rules": head.rules.name, "hands": state.hands,
            "totals": dict(state.totals),
            "players": [{"name": p, "total": state.totals[p], "played": state.stats[p].played,
                         "picks": state.stats[p].picks,
                         "picker_wins": state.stats[p].picker_wins} for p in order],
            "race_winners": list(state.race_winners)}))
        return
    from ..render import Points, render

    rows = [(rank, p, Points(state.totals[p]), state.stats[p].played, state.stats[p].picks,
             state.stats[p].picker_wins) for rank, p in enumerate(order, 1)]
    click.echo(render(("#", "Player", "Total", "Hands", "Picks", "Picker wins"), rows, fmt,
                      ("right", "left", "right", "right", "right", "right"), use_color(fmt)))
    if fmt == "csv":
        return
    click.echo()
    summary = f"{state.hands} hands ({head.rules.name} rules)"
    race = _race_line(state)
    click.echo(f"{summary}. {race}" if race else f"{summary}.")


@click.command(context_settings=CONTEXT_SETTINGS)
@click.option("--running", is_flag=True, help="Show running totals instead of each hand's points.")
@table_format_option()
@click.pass_obj
def sheet(path, running, fmt):
    """The score sheet: a row per hand with each player's points, and the totals.

    A voided hand shows as void; an amended hand shows as amended, with its new points.

    Examples:

    \b
        scorepad sheet
        scorepad sheet --running
    """
    from ..render import Points, render_stream
    from ..session import checked_replay, read_head

    head = read_head(path)
    state = checked_replay(head)  # checks every row and keeps the corrected hands' last versions
    players = head.players
    headers = ["Hand", "Dealer", "Played", *players, "Note"]
    totals = {}

    def sheet_rows():
        """One row per hand, in hand order, then the totals; streamed from the file."""
        running_totals = dict.fromkeys(players, 0)
        started = set()
        for hand in _hands(head, state):
            cells = []
            for p in players:
                seated = p in hand.deltas  # a player not at the table for this hand: blank
                points = 0 if hand.void else hand.deltas.get(p, 0)
                running_totals[p] += points
                joined = seated or running_totals[p] or p in started
                if seated:
                    started.add(p)
                if running:
                    cells.append(Points(running_totals[p]) if joined else None)
                else:
                    cells.append(Points(points) if seated and not hand.void else None)
            what = _what(hand.row, hand.deltas) + (" (void)" if hand.void else
                                                   " (amended)" if hand.amended else "")
            yield [hand.number, hand.row.dealer or "", what, *cells, hand.row.note]
        totals.update(running_totals)
        yield ["", "", "Total", *[Points(running_totals[p]) for p in players], ""]

    if fmt == "json":
        import json

        click.echo('{"file": %s, "players": %s, "running": %s, "hands": [' % (
            json.dumps(str(path)), json.dumps(list(players), ensure_ascii=False),
            json.dumps(running)))
        first = True
        for row in sheet_rows():
            if row[2] == "Total":
                break
            click.echo(("" if first else ",") + json.dumps(dict(zip(headers, row)),
                                                           ensure_ascii=False))
            first = False
        click.echo('], "totals": %s}' % json.dumps(totals, ensure_ascii=False))
        return
    for line in render_stream(headers, sheet_rows, fmt,
                              ("right", "left", "left", *["right"] * len(players), "left"),
                              use_color(fmt)):
        click.echo(line)


@click.command(context_settings=CONTEXT_SETTINGS)
@click.pass_obj
def verify(path):
    """Re-read the file and re-score every hand from its recorded inputs and rules.

    Prints nothing and exits 0 when all is well; otherwise prints every problem, one per line,
    as FILE:LINE: message, and exits 1.

    Example:

    \b
        scorepad -f friday.csv verify
    """
    from ..session import SessionError, read_head, replay

    try:
        head = read_head(path)
    except SessionError as exc:
        if exc.line is None:
            raise
        click.echo(str(exc))
        sys.exit(1)
    _, problems = replay(head, counting=False)
    for problem in problems:
        click.echo(f"{path}:{problem.line}: {problem.message}")
    if problems:
        sys.exit(1)


def _correct(path, ref_for, make_row):
    """Under the lock: check the whole file, then append the correction row `make_row` makes."""
    from ..session import append, checked_replay, locked, read_head, scan_refs

    with locked(path) as fd:
        head = read_head(path)
        refs = scan_refs(path)
        ref = ref_for(head)
        state = checked_replay(head, set(refs) | {ref})
        row, result = make_row(state, ref)
        append(path, fd, head.players, [row])
    return row, result, state


@click.command(context_settings=CONTEXT_SETTINGS)
@click.option("--reason", default="", metavar="TEXT", help="Why the hand is voided.")
@table_format_option()
@click.pass_obj
def undo(path, reason, fmt):
    """Void the last hand (it stays in the file, reversed by a void row).

    The deal goes back to whoever dealt the voided hand.

    Example:

    \b
        scorepad undo --reason "recorded twice"
    """
    from ..session import now, read_tail, scan_refs

    def last_effective(head):
        _, last_hand = read_tail(head)
        voided = scan_refs(path, kinds=("void",))
        hand_number = last_hand
        while hand_number in voided:
            hand_number -= 1
        if hand_number < 1:
            from ..errors import HandError

            raise HandError("there is no hand to undo")
        return hand_number

    row, _, state = _correct(path, last_effective,
                             lambda state, ref: (state.void_row(ref, reason, now()), None))
    _echo_void(path, row, state, fmt)


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("number", type=click.IntRange(min=1), metavar="N")
@click.option("--reason", default="", metavar="TEXT", help="Why the hand is voided.")
@table_format_option()
@click.pass_obj
def void(path, number, reason, fmt):
    """Void hand N: its points are reversed by a new row; nothing is erased.

    Example:

    \b
        scorepad void 7 --reason "misdeal found after scoring"
    """
    from ..session import now

    row, _, state = _correct(path, lambda head: number,
                             lambda state, ref: (state.void_row(ref, reason, now()), None))
    _echo_void(path, row, state, fmt)


def _echo_void(path, row, state, fmt) -> None:
    if fmt == "json":
        from ..render import to_json

        click.echo(to_json({"file": str(path), "void": row.ref, "deltas": dict(row.deltas),
                            "totals": dict(state.totals), "next_dealer": state.next_dealer}))
        return
    if fmt == "csv":
        click.echo(_totals_table(state, fmt))
        return
    click.echo(f"Hand {row.ref} is void" + (f" ({row.note})" if row.note else "") +
               ": its points are reversed.")
    click.echo(_totals_table(state, fmt))
    click.echo()
    click.echo(_next_line(state, state.rules))


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("number", type=click.IntRange(min=1), metavar="N")
@hand_options(amend=True)
@click.option("--out", multiple=True, metavar="NAME", shell_complete=_complete_player,
              help="Who sat out this hand (replaces the recorded list).")
@click.option("--note", default="", metavar="TEXT", help="Why the hand is amended.")
@click.option("--explain", is_flag=True, help="Also print how the hand was scored.")
@table_format_option()
@click.pass_obj
def amend(path, number, out, note, explain, fmt, **params):
    """Correct some inputs of hand N and re-score it; the change is a new row.

    Give only what changes; everything else stays as recorded. Flags have a --no- form
    (--no-alone, --no-recrack, --no-forced, --no-crack).

    Examples:

    \b
        scorepad amend 4 --points 58
        scorepad amend 6 --partner Dee
        scorepad amend 9 --leaster --winner Cy
    """
    from ..session import now

    changes = _amend_changes(params, out)
    if not changes:
        raise click.UsageError("give at least one hand option to change, e.g. --points 58")
    row, result, state = _correct(
        path, lambda head: number,
        lambda state, ref: state.amend_row(ref, changes, note, now()))
    _echo_recorded(path, row, result, state, fmt, explain)


def _amend_changes(params, out) -> dict:
    """The recorded inputs that the given amend options replace."""
    changes = {}
    for name in ("dealer", "picker", "points", "tricks", "crack", "recrack", "forced", "blitz",
                 "game", "runs", "winner", "leaster_points", "leaster_tricks", "alone"):
        if params.get(name) is not None:
            changes[name] = params[name]
    if params["partners"]:
        changes.update(partners=params["partners"], alone=False)
    if params["alone"]:
        changes["partners"] = ()
    if params["no_crack"]:
        changes.update(crack=None, recrack=False)
    if out:
        changes["out"] = tuple(out)
    if params["leaster"]:
        stray = _given(params, _PICKER_ONLY)
        if stray:
            raise click.UsageError(f"{stray[0]} does not belong with --leaster")
        changes.update(picker=None, partners=(), alone=False, points=None, tricks=None,
                       crack=None, recrack=False, forced=False, game=None, runs=None, blitz=0)
    elif params["picker"] is not None:
        changes.update(winner=None, leaster_points=None, leaster_tricks=None)
    return changes


@click.command(context_settings=CONTEXT_SETTINGS)
@click.pass_obj
def repair(path):
    """Move a torn last line (the machine stopped mid-write) into FILE.rejected.

    Every complete hand stays in the file; the torn line is kept in FILE.rejected.

    Example:

    \b
        scorepad repair
    """
    from ..session import repair as repair_file

    line, size = repair_file(path)
    if not line:
        click.echo(f"{path}: nothing to repair: the last line is complete.")
        return
    click.echo(f"{path}: moved the incomplete line {line} ({size} bytes) to "
               f"{path.name}.rejected; every complete hand is kept.")


@click.group(context_settings=CONTEXT_SETTINGS)
def seat():
    """Seats that change during a night: someone joins late or leaves early.

    A player who leaves keeps their total in the standings and the settlement and is no longer
    dealt in; the deal and sitting out follow the seats in force for each hand.

    Example:

    \b
        scorepad seat add Flo --after Bob
    """


@seat.command("add", context_settings=CONTEXT_SETTINGS)
@click.argument("name")
@click.option("--after", metavar="NAME", shell_complete=_complete_player,
              help="Seat the player on this player's left (next after them in seat order). "
                   "Default: after the last seat.")
@click.pass_obj
def seat_add(path, name, after):
    """Seat a player who joins (or comes back): dealt in from the next hand.

    Example:

    \b
        scorepad seat add Flo --after Bob
    """
    from ..ledger import Replay, check_name
    from ..scoring import find_player
    from ..session import add_column, append, locked, now, read_head, read_tail

    with locked(path) as fd:
        head = read_head(path)
        last, last_hand = read_tail(head)
        state = Replay.resume(head.rules, head.players, last, last_hand)
        name = check_name(name)
        player = next((p for p in head.players if p.casefold() == name.casefold()), name)
        if player in state.seated:
            raise ScorepadError(f"{player} is already seated")
        order = list(state.seated)
        after = find_player(after, order, "--after") if after else None
        order.insert(order.index(after) + 1 if after else len(order), player)
        players = head.players
        if player not in players:  # a newcomer: a new column, next to where they sit
            index = players.index(after) + 1 if after else len(players)
            players = (*players[:index], player, *players[index:])
            state = Replay.resume(head.rules, players, last, last_hand)
        place = f" after {after}" if after else ""
        row = state.seat_row(order, f"{player} joins{place}", now())
        if players == head.players:
            append(path, fd, players, [row])
        else:
            add_column(path, head, players, [row])
    click.echo(f"{player} joins the table{place}. Seats: {', '.join(state.seated)}.")
    click.echo(_next_line(state, state.rules))


@seat.command("remove", context_settings=CONTEXT_SETTINGS)
@click.argument("name")
@click.pass_obj
def seat_remove(path, name):
    """A player leaves: they keep their total and are no longer dealt in.

    Example:

    \b
        scorepad seat remove Ed
    """
    from ..ledger import Replay
    from ..scoring import find_player
    from ..session import append, locked, now, read_head, read_tail

    with locked(path) as fd:
        head = read_head(path)
        last, last_hand = read_tail(head)
        state = Replay.resume(head.rules, head.players, last, last_hand)
        player = find_player(name, state.seated, "seat remove")
        order = [p for p in state.seated if p != player]
        row = state.seat_row(order, f"{player} leaves", now())
        append(path, fd, head.players, [row])
    from ..render import signed

    click.echo(f"{player} leaves the table with {signed(state.totals[player])}. "
               f"Seats: {', '.join(state.seated)}.")
    click.echo(_next_line(state, state.rules))
