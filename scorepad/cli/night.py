"""The session ledger: start a night, record hands, correct them, see where it stands."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, BinaryIO, cast

import click

from ..errors import HandError
from ..i18n import gettext as _
from ..i18n import ngettext
from ._common import (
    CONTEXT_SETTINGS,
    WholeHelpGroup,
    WholeRange,
    complete_player,
    complete_setting,
    echo_recorded,
    escaped,
    format_option,
    hand_options,
    next_line,
    night_stats,
    open_session,
    race_line,
    rules_in_force,
    rules_options,
    session_file_option,
    split_names,
    table_format_option,
    totals_table,
    use_color,
)

if TYPE_CHECKING:
    from ..ledger import HandView, Ledger
    from ..store.format import Row


@click.command(context_settings=CONTEXT_SETTINGS)
@rules_options
@click.option(
    "--players",
    required=True,
    callback=split_names,
    metavar="A,B,C,...",
    help="Everyone at the table, in seat order. A name with a comma goes in double quotes.",
)
@click.option(
    "--dealer",
    metavar="NAME",
    shell_complete=complete_player,
    help="Who deals the first hand. Default: the last player listed.",
)
@session_file_option
@click.pass_obj
def new(
    path: Path,
    rules_spec: str | None,
    overrides: tuple[str, ...],
    players: tuple[str, ...],
    dealer: str | None,
) -> None:
    """Start a session file for a night: the players in seat order and the rules.

    The rules table is written into the file, so the file alone scores every hand even if the
    rules file changes later. An existing file is never overwritten.

    Example:

    \b
        scorepad -f friday.csv new --players Ann,Bob,Cy,Dee,Ed --rules pagat --dealer Ed
    """
    from ..rules import load_rules
    from ..scoring import seat
    from ..session import Session
    from ..store.format import check_new_name

    rules = load_rules(rules_spec, overrides)
    players = tuple(check_new_name(p) for p in players)
    seating = seat(rules, players, dealer)  # can this table be dealt at all?
    Session.create(path, players, rules, seating.dealer)
    click.echo(
        _("Started {file}: {players}; rules: {rules}.").format(
            file=path, players=", ".join(players), rules=rules.summary()
        )
    )
    click.echo(
        _("Next: hand {hand}, {dealer} deals, {leads} leads").format(
            hand=1, dealer=seating.dealer, leads=seating.order[0]
        )
        + "."
    )


@click.command(context_settings=CONTEXT_SETTINGS)
@format_option("text", "json")
@session_file_option
@click.pass_obj
def status(path: Path, fmt: str) -> None:
    """Where the night stands: the next hand, its dealer, who leads and sits out, doublers.

    Reads only the top and the end of the file, however long the night.

    Example:

    \b
        scorepad status
    """
    from ..reports import bock_owed, bock_record, next_hand, plays_pot, pot_record

    with open_session(path).reading() as reading:
        head, state = reading.head, reading.state()
    coming = next_hand(state)
    pending = len(state.pending)
    leader = max(state.seated, key=lambda p: state.totals[p])
    info = {
        "file": str(path),
        "rules": head.rules.name,
        "rules_in_force": rules_in_force(head, state),
        "players": list(state.seated),
        "next_hand": coming.hand,
        "dealer": coming.dealer,
        "leads": coming.leads,
        "sits_out": list(coming.sits_out),
        "doublers_pending": pending,
        "next_hand_doubled": coming.doubled,
        "leader": leader,
        "totals": dict(state.totals),
        "race_winners": list(state.race_winners),
        "last_hand_played": state.night_over,
        **pot_record(state),
    }
    owed = bock_owed(state)
    # (a night that can have no Bock keeps the keys it had: one of a file before format 8
    # under rules without bock_after)
    bocks = owed or state.rules.bock_after or "bock_queue" in head.codec.columns
    if bocks:
        info.update(bock=bock_record(coming.bock), bock_owed=owed)
    if fmt == "json":
        from ..render import to_json

        click.echo(to_json(info))
        return
    from ..render import signed

    doubled = coming.doubled
    lines = [
        (_("Session"), str(path)),
        (
            _("Rules"),
            rules_in_force(head, state),
        ),
        (_("Players"), ", ".join(state.seated)),
        (_("Next hand"), str(coming.hand)),
        (_("Dealer"), coming.dealer),
        (_("Leads"), coming.leads),
        (_("Sits out"), ", ".join(coming.sits_out) or _("nobody")),
        (
            _("Doublers"),
            _("{count} pending").format(count=pending)
            + (
                _("; the next hand is doubled (x{factor})").format(factor=2**doubled)
                if doubled
                else ""
            )
            if pending
            else _("none pending"),
        ),
        (
            _("Leader"),
            f"{leader} {signed(state.totals[leader])}"
            if any(state.totals.values())
            else _("nobody yet (everyone at 0)"),
        ),
    ]
    if bocks:
        from ..scoring import Bock

        bock = Bock.parse(coming.bock)
        lines.append(
            (
                "Bock",
                ngettext(
                    "the next hand is {words}; {owed} Bock hand owed",
                    "the next hand is {words}; {owed} Bock hands owed",
                    max(owed, 1),  # (none owed reads as before: "0 Bock hand owed")
                ).format(words=bock.words(), owed=owed)
                if bock is not None
                else _("none owed"),
            )
        )
    if plays_pot(state):
        lines.append((_("Pot"), _pot_text(state.pot)))
    race = race_line(state)
    if race:
        lines.append((_("Race"), race))
    if state.night_over:
        lines.append(
            (
                _("Last hand"),
                _("hand {hand} was the night's last: settle up").format(hand=state.night_over),
            )
        )
    width = max(len(k) for k, _v in lines) + 1
    for key, value in lines:
        click.echo(f"{key + ':':<{width}} {value}")


def _pot_text(pot: int) -> str:
    """What the pot holds, and what becomes of it, in words (status, standings)."""
    if not pot:
        return _("empty")
    return _("{pot} (the next hand with a picker plays for it)").format(pot=pot)


@click.command(context_settings=CONTEXT_SETTINGS)
@table_format_option()
@session_file_option
@click.pass_obj
def standings(path: Path, fmt: str) -> None:
    """The night so far: each player's total, hands played, picks and picker wins.

    Checks every row as it adds it up, as `verify` does (every hand re-scored from its recorded
    inputs, corrections, the file's running totals); a file that fails is refused with the
    first problem.

    Example:

    \b
        scorepad -f sample_sessions/standard-friday.csv standings
    """

    head, state, stats = night_stats(open_session(path))
    order = sorted(state.totals, key=lambda p: -state.totals[p])
    if fmt == "json":
        from ..render import to_json
        from ..reports import standings_record

        click.echo(to_json(standings_record(str(path), head.rules.name, state, stats)))
        return
    from ..render import Points, render
    from ..reports import plays_pot, rules_words

    rows = [
        (rank, p, Points(state.totals[p]), stats[p].played, stats[p].picks, stats[p].picker_wins)
        for rank, p in enumerate(order, 1)
    ]
    click.echo(
        render(
            ("#", "Player", "Total", "Hands", "Picks", "Picker wins"),
            rows,
            fmt,
            ("right", "left", "right", "right", "right", "right"),
            use_color(fmt),
        )
    )
    if fmt == "csv":
        return
    click.echo()
    summary = ngettext("{count} hand ({rules})", "{count} hands ({rules})", state.hands).format(
        count=state.hands, rules=rules_words(head, state)
    )
    race = race_line(state)
    click.echo(f"{summary}. {race}" if race else f"{summary}.")
    if plays_pot(state):
        click.echo(_("Pot: {pot}.").format(pot=_pot_text(state.pot)))


@click.command(context_settings=CONTEXT_SETTINGS)
@click.option("--running", is_flag=True, help="Show running totals instead of each hand's points.")
@table_format_option()
@session_file_option
@click.pass_obj
def sheet(path: Path, running: bool, fmt: str) -> None:
    """The score sheet: a row per hand with each player's points, and the totals.

    A voided hand shows as void; an amended hand shows as amended, with its new points. A
    change of the rules (`scorepad set`) is a row of its own where it was made, with its note
    (in JSON: `changes`, each with the hand it applies from).

    Examples:

    \b
        scorepad sheet
        scorepad sheet --running
    """
    import csv
    import json
    import tempfile

    from ..render import Points, render_stream
    from ..reports import HandLines, SheetRows, plays_pot, set_record

    # The rows are written to a spool as the one checking pass reaches them, and shown only
    # once the whole file has passed: memory stays flat and a bad file shows nothing.
    with (
        open_session(path).reading() as reading,
        tempfile.TemporaryFile("w+", encoding="utf-8", newline="") as spool,
    ):
        players = reading.head.players
        headers = ["Hand", "Dealer", "Played", *players, "Note"]
        sheet_rows = SheetRows(players, running)
        writer = csv.writer(spool, lineterminator="\n")
        if fmt == "csv":
            writer.writerow(headers)

        # (lines go to the spool a few thousand at a time)
        write_csv, add_line, flush = sheet_rows.csv_writer(spool.write)

        def running_totals(view: HandView) -> dict[str, int]:
            sheet_rows.row(view)  # keeps the running totals
            return dict(sheet_rows.totals)

        write_json, flush_json = HandLines().json_writer(
            spool.write, running_totals if running else None
        )

        changes: list[dict[str, Any]] = []  # (JSON: after the hands, each with its place)

        def write_set(row: Row, from_hand: int) -> None:  # a change of the rules, in its place
            if fmt == "json":
                changes.append(set_record(row, from_hand))
            else:
                add_line(sheet_rows.set_csv_line(row))

        def written() -> None:  # (what the pass wrote so far, from the batch to the spool)
            flush_json()
            flush()

        # (text too: it is read back as CSV)
        state = reading.night(write_json if fmt == "json" else write_csv, on_set=write_set)
        written()
        total = sheet_rows.total_row(state.totals)
        pot = sheet_rows.pot_row(state.pot) if plays_pot(state) else None
        if fmt == "json":
            click.echo(
                '{"file": %s, "players": %s, "running": %s, "hands": ['
                % (
                    json.dumps(str(path)),
                    json.dumps(list(players), ensure_ascii=False),
                    json.dumps(running),
                )
            )
            _copy_out(spool)
            totals = dict(zip(players, total[3:-1]))
            click.echo(
                '], "totals": %s, "changes": %s%s}'
                % (
                    json.dumps(totals, ensure_ascii=False),
                    json.dumps(changes, ensure_ascii=False),
                    f', "pot": {state.pot}' if pot is not None else "",
                )
            )
            return
        if fmt == "csv":
            writer.writerow(total)
            if pot is not None:
                writer.writerow(pot)
            _copy_out(spool)
            return

        def rows() -> Iterator[list[Any]]:
            spool.seek(0)
            for cells in csv.reader(spool):
                yield _sheet_cells(cells, len(players))

        def with_total() -> Iterator[list[Any]]:
            yield from rows()
            yield [*total[:3], *(Points(v) for v in total[3:-1]), ""]
            if pot is not None:
                yield pot

        lines = render_stream(
            headers,
            with_total,
            fmt,
            ("right", "left", "left", *["right"] * len(players), "left"),
            use_color(fmt),
        )
        while batch := list(islice(lines, 4096)):  # (a few thousand lines a write)
            click.echo("\n".join(batch))


def _copy_out(spool: IO[str]) -> None:
    """What a report wrote to its spool, to standard output."""
    import os
    import shutil

    spool.flush()
    sys.stdout.flush()
    out = getattr(sys.stdout, "buffer", None)
    if out is not None and os.linesep == "\n":  # (the bytes as they are: no decoding)
        raw = cast("BinaryIO", spool.buffer)  # type: ignore[attr-defined]
        raw.seek(0)
        shutil.copyfileobj(raw, out)
        out.flush()
    else:  # (Windows writes its line ends: as the text it is)
        spool.seek(0)
        shutil.copyfileobj(spool, sys.stdout)
        sys.stdout.flush()


def _sheet_cells(cells: list[str], count: int) -> list[Any]:
    """A spooled sheet row back as cells: the hand number and points as numbers."""
    from ..render import Points

    points = [Points(int(c)) if c else None for c in cells[3 : 3 + count]]
    number = int(cells[0]) if cells[0] else ""  # (none: a change of the rules)
    return [number, cells[1], cells[2], *points, cells[3 + count]]


@click.command(context_settings=CONTEXT_SETTINGS)
@click.option("-v", "--verbose", is_flag=True, help="Also say what was checked when all is well.")
@click.option(
    "--fast",
    is_flag=True,
    help="Check only the rows after the checkpoint a report left.",
)
@session_file_option
@click.pass_obj
def verify(path: Path, verbose: bool, fast: bool) -> None:
    """Re-read the file and re-score every hand from its recorded inputs and rules.

    Prints nothing and exits 0 when all is well (with -v, what was checked); otherwise prints
    every problem, one per line, as FILE:LINE: message, and exits 1.

    Example:

    \b
        scorepad -f friday.csv verify
    """
    from ..reports import PlayerCounts
    from ..session import SessionError
    from ..store.checkpoint import sidecar

    try:
        with open_session(path).reading() as reading:
            counts = PlayerCounts(reading.head.players)
            if fast:
                ledger, problems = reading.check(counts=counts, resume=True)
            else:  # (the whole file: the checkpoint beside it is only checked against it)
                ledger, problems, amiss, written = reading.verify(counts)
                if amiss:
                    said = (
                        _("{file}: {why}; verify read every row, and wrote it anew")
                        if written
                        else _("{file}: {why}; verify read every row")
                    )
                    click.echo(said.format(file=sidecar(path), why=amiss), err=True)
    except SessionError as exc:
        if exc.line is None:
            raise
        click.echo(escaped(str(exc)))
        sys.exit(1)
    for problem in problems:  # (a problem quotes the file escaped; this is belt and braces)
        click.echo(escaped(f"{path}:{problem.line}: {problem.message}"))
    if problems:
        if any(p.edited for p in problems):
            click.echo(
                _(
                    "To mend a row changed by hand: put its cells back as scorepad wrote them "
                    "(a spreadsheet's undo, or the file's backup), then record the change with "
                    "`scorepad amend N ...` (or `scorepad void N`)."
                ),
                err=True,
            )
        sys.exit(1)
    if verbose:
        click.echo(
            _("{file}: {summary}: all consistent.").format(file=path, summary=ledger.summary())
        )


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("steps", type=WholeRange(min=1), default=1, metavar="[N]")
@click.option("--reason", default="", metavar="TEXT", help="Why (kept as the new row's note).")
@table_format_option()
@session_file_option
@click.pass_obj
def undo(path: Path, steps: int, reason: str, fmt: str) -> None:
    """Take back the last change, whatever it was, with a row of its own; again, the one
    before it (N: that many, one row each). `scorepad redo` makes it again.

    A hand (or a doubler, or a penalty) is voided and the deal goes back to whoever dealt it;
    a void is taken back (the hand counts again); an amendment is taken back (the hand as it
    was before it); a seat change or a change of the rules is reversed. It says what it took
    back; `scorepad log` lists every change, and each undo as "undo of ...".

    Examples:

    \b
        scorepad undo --reason "recorded twice"
        scorepad undo 2
    """
    _step(path, reason, fmt, steps, back=True)


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("steps", type=WholeRange(min=1), default=1, metavar="[N]")
@click.option("--reason", default="", metavar="TEXT", help="Why (kept as the new row's note).")
@table_format_option()
@session_file_option
@click.pass_obj
def redo(path: Path, steps: int, reason: str, fmt: str) -> None:
    """Make again what the last `undo` took back (N: that many), with a row of its own; until a
    new change is made, which starts afresh.

    Example:

    \b
        scorepad undo 2 && scorepad redo
    """
    _step(path, reason, fmt, steps, back=False)


def _step(path: Path, reason: str, fmt: str, steps: int, back: bool) -> None:
    """`undo` or `redo`, `steps` times (each a row of its own; all of them as one change, or
    none: `Session.steps`)."""
    from ..store.format import RowKind

    taken = open_session(path).steps(steps, reason, back)
    done = [what for what, _row, _result, _state in taken]
    for what, row, _result, state in taken:
        _warn_departed(row, state)
        if fmt == "text":
            click.echo((_("Undid {what}.") if back else _("Redid {what}.")).format(what=what))
    _what, row, result, state = taken[-1]
    if fmt == "json":
        from ..render import to_json

        click.echo(
            to_json(
                {
                    "file": str(path),
                    "undid" if back else "redid": done[-1],
                    "steps": done,
                    "kind": str(row.kind),
                    "ref": row.ref,
                    "deltas": dict(row.deltas),
                    "totals": dict(state.totals),
                    "next_dealer": state.next_dealer,
                }
            )
        )
        return
    if row.kind is RowKind.VOID:
        _echo_void(path, row, state, fmt)
    elif row.kind is RowKind.RESTORE and fmt == "text" and not back:
        _echo_restored(path, row.ref or 0, state)
    elif row.kind is RowKind.AMEND:
        echo_recorded(path, row, result, state, fmt)
    else:
        if fmt == "text" and row.kind is RowKind.SEAT:
            click.echo(_("Seats: {players}.").format(players=", ".join(state.seated)))
        click.echo(totals_table(state, fmt))
        if fmt != "csv":
            click.echo()
            click.echo(next_line(state))


@click.command(context_settings=CONTEXT_SETTINGS)
@click.option(
    "--rounds",
    type=WholeRange(min=1, max=20),
    default=1,
    show_default=True,
    metavar="N",
    help="How many Bock rounds, one after another.",
)
@click.option("--note", default="", metavar="TEXT", help="Why (kept with the row).")
@format_option("text", "json")
@session_file_option
@click.pass_obj
def bock(path: Path, rounds: int, note: str, fmt: str) -> None:
    """Start Bock rounds by the table's decision: the next hands count bock_factor times.

    A round is bock_hands hands (0: a hand for each seated player). Under bock_stacking =
    queue the rounds follow those owed; under multiply they start at once, and the hands two
    rounds cover are multiplied again (Doppelbock). A row of its own: `undo` takes it back
    while no hand has been played in it. The rounds that events bring (`bock_after`) the
    session starts by itself.

    Examples:

    \b
        scorepad bock
        scorepad bock --rounds 2 --note "Ann's birthday"
    """
    from ..reports import bock_owed

    _row, state = open_session(path).bock(rounds, note)
    owed = bock_owed(state)
    if fmt == "json":
        from ..render import to_json
        from ..reports import bock_record

        click.echo(
            to_json(
                {
                    "file": str(path),
                    "rounds": rounds,
                    "bock_owed": owed,
                    "next_hand": state.last_hand + 1,
                    "bock": bock_record(state.bock_next()),
                }
            )
        )
        return
    started = ngettext("1 Bock round", "{count} Bock rounds", rounds).format(count=rounds)
    click.echo(
        ngettext(
            "Bock: {started} started; {owed} Bock hand owed.",
            "Bock: {started} started; {owed} Bock hands owed.",
            owed,
        ).format(started=started, owed=owed)
    )
    click.echo(next_line(state))


@click.command("set", context_settings=CONTEXT_SETTINGS)
@click.argument(
    "changes", nargs=-1, required=True, metavar="KEY=VALUE...", shell_complete=complete_setting
)
@click.option("--note", default="", metavar="TEXT", help="Why the rules change (kept with it).")
@session_file_option
@click.pass_obj
def set_rules(path: Path, changes: tuple[str, ...], note: str) -> None:
    """Change the house rules from the next hand on (a row of its own; `undo` takes it back).

    Each KEY=VALUE is checked as `--set` checks it (`scorepad rules` lists every setting).
    Hands recorded before keep the rules they were played under; `verify`, every report and
    `status` follow the change. A session file of an older format is rewritten in the current
    one first.

    Examples:

    \b
        scorepad set double_on_the_bump=true --note "Ed's house, Ed's rules"
        scorepad set sit_out=dealer
    """
    _row, state = open_session(path).set_rules(changes, note)
    click.echo(
        _("From hand {hand} on: {changes}.").format(
            hand=state.last_hand + 1, changes=", ".join(changes)
        )
    )
    click.echo(_("Rules: {rules}.").format(rules=state.rules.summary()))
    click.echo(next_line(state))


@click.command(context_settings=CONTEXT_SETTINGS)
@table_format_option()
@session_file_option
@click.pass_obj
def log(path: Path, fmt: str) -> None:
    """Every change of the ledger, newest last: its line in the file, time, what and note.

    Hands, corrections (void, amend, restore) and seat changes, each as the file records it.

    Example:

    \b
        scorepad -f sample_sessions/standard-friday.csv log
    """
    from ..ledger import set_row_text
    from ..render import render
    from ..reports import change_text
    from ..store.format import RowKind

    with open_session(path).reading() as reading:
        reading.night()  # a file that verify refuses is refused here too
        rows = []
        said: dict[int, str] = {}  # each change in words, by its line (an undo names one)
        for row in reading.rows():
            text = change_text(row)
            for step, line in (
                (_("undo of {change}"), row.undoes),
                (_("redo of {change}"), row.redoes),
            ):
                if line is not None:
                    change = said.get(line, _("line {line}").format(line=line))
                    text = step.format(change=change)
            said[row.line] = text
            note = set_row_text(row.note)[1] if row.kind is RowKind.SET else row.note
            rows.append((row.line, row.time, text, note))
    click.echo(
        render(("Line", "Time", "Change", "Note"), rows, fmt, ("right", "left", "left", "left"))
    )


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("number", type=WholeRange(min=1), metavar="N")
@click.option("--reason", default="", metavar="TEXT", help="Why the hand is voided.")
@table_format_option()
@session_file_option
@click.pass_obj
def void(path: Path, number: int, reason: str, fmt: str) -> None:
    """Void hand N: its points are reversed by a new row; nothing is erased.

    Example:

    \b
        scorepad void 7 --reason "misdeal found after scoring"
    """

    row, state = open_session(path).void(number, reason)
    _warn_departed(row, state)
    _echo_void(path, row, state, fmt)


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("name", shell_complete=complete_player)
@click.option(
    "--points",
    required=True,
    type=WholeRange(min=1),
    metavar="N",
    help="What NAME pays each other seated player (or the one player --to names).",
)
@click.option(
    "--to",
    metavar="NAME",
    shell_complete=complete_player,
    help="Pay one player only (say, the one the renege cost).",
)
@click.option("--note", default="", metavar="TEXT", help="What it was for (kept with it).")
@table_format_option()
@session_file_option
@click.pass_obj
def penalty(path: Path, name: str, points: int, to: str | None, note: str, fmt: str) -> None:
    """A penalty (a misplay, a renege, a look at the blind): NAME pays N to each other seated
    player, or to one player with --to.

    A row of its own: it takes the next number on the sheet, moves no deal and no doubling, and
    `void` or `undo` takes it back. In a race, NAME moves down N instead.

    Examples:

    \b
        scorepad penalty Ed --points 2 --note "reneged"
        scorepad penalty Cy --points 3 --to Ann --note "looked at the blind"
    """
    from ..scoring import Penalty

    row, result, state = open_session(path).penalty(Penalty((), name, points, to), note)
    echo_recorded(path, row, result, state, fmt, explain=False)


def _warn_departed(row: Row, state: Ledger) -> None:
    """Say loudly when a correction changes the total of a player who has left the table."""
    from ..render import signed

    for player, change in row.deltas.items():
        if change and player not in state.seated:
            click.echo(
                _(
                    "Warning: {player} has left the table; this changes the total {player} left "
                    "with by {change}, to {total}."
                ).format(player=player, change=signed(change), total=signed(state.totals[player])),
                err=True,
            )


def _echo_restored(path: Path, ref: int, state: Ledger) -> None:
    """After a redo that made a voided hand count again: that hand, as `hand` said it (its
    final version, found by a pass), and the totals."""
    from ..reports import summary_text

    found: list[Any] = []  # (the hand's view, once the pass meets it)
    open_session(path).check(on_hand=lambda view: found.extend([view] * (view.number == ref)))
    if found:
        view = found[-1]
        click.echo(summary_text(view.row._replace(hand=ref), view.entry.result))
    click.echo(totals_table(state, "text"))
    click.echo()
    click.echo(next_line(state))


def _echo_void(path: Path, row: Row, state: Ledger, fmt: str) -> None:
    if fmt == "json":
        from ..render import to_json

        click.echo(
            to_json(
                {
                    "file": str(path),
                    "void": row.ref,
                    "deltas": dict(row.deltas),
                    "totals": dict(state.totals),
                    "next_dealer": state.next_dealer,
                }
            )
        )
        return
    if fmt == "csv":
        click.echo(totals_table(state, fmt))
        return
    if row.note:
        text = _("Hand {hand} is void ({note}): its points are reversed.")
    else:
        text = _("Hand {hand} is void: its points are reversed.")
    click.echo(text.format(hand=row.ref, note=row.note))
    click.echo(totals_table(state, fmt))
    click.echo()
    click.echo(next_line(state))


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("number", type=WholeRange(min=1), metavar="N")
@hand_options(amend=True)
@click.option(
    "--out",
    multiple=True,
    metavar="NAME",
    shell_complete=complete_player,
    help="Who sat out this hand (replaces the recorded list).",
)
@click.option(
    "--note",
    default="",
    metavar="TEXT",
    help="The hand's note from now on (e.g. why it was amended). Default: the note it had.",
)
@click.option("--explain", is_flag=True, help="Also print how the hand was scored.")
@table_format_option()
@session_file_option
@click.pass_obj
def amend(
    path: Path,
    /,
    number: int,
    out: tuple[str, ...],
    note: str,
    explain: bool,
    fmt: str,
    **params: Any,
) -> None:
    """Correct some inputs of hand N and re-score it; the change is a new row.

    Give only what changes; everything else stays as recorded. Flags have a --no- form
    (--no-alone, --no-recrack, --no-forced, --no-crack).

    Examples:

    \b
        scorepad amend 4 --points 58
        scorepad amend 6 --partner Dee
        scorepad amend 9 --leaster --winner Cy
    """

    changes = _amend_changes(params, out)
    if not changes:
        raise click.UsageError(_("give at least one hand option to change, e.g. --points 58"))
    row, result, state = open_session(path).amend(number, changes, note)
    _warn_departed(row, state)
    echo_recorded(path, row, result, state, fmt, explain)


def _amend_changes(params: dict[str, Any], out: tuple[str, ...]) -> dict[str, Any]:
    """The recorded inputs that the given amend options replace (`hands.amend_changes`);
    options that do not go together are a usage mistake (exit 2)."""
    from ..hands import amend_changes

    try:
        return amend_changes(params, out)
    except HandError as exc:
        raise click.UsageError(str(exc)) from None


@click.command(context_settings=CONTEXT_SETTINGS)
@session_file_option
@click.pass_obj
def repair(path: Path) -> None:
    """Mend what a crash or an editor left: a torn last line, blank lines, 2.0.

    A torn last line (the machine stopped mid-write) moves into FILE.rejected, and so does a
    line that cannot be read as CSV (saying so before it is moved); blank lines go,
    wherever they are (the lines that rows name are renumbered as the rows below move up);
    whole numbers saved as decimals (2.0, as a spreadsheet or pandas writes them)
    are written as whole numbers. Every complete hand stays; the file as it was is kept as
    FILE.bak. It says what it changed; run again, it changes nothing.

    Example:

    \b
        scorepad repair
    """

    told: list[str] = []  # (said before the file is changed)

    def tell(plan: str) -> None:
        told.append(plan)
        click.echo(plan)

    done = open_session(path).repair(tell)
    if not done:
        click.echo(_("{file}: nothing to repair.").format(file=path))
        return
    for what in done:
        click.echo(f"{path}: {what}.")
    if told:
        click.echo(
            _(
                "{file}: the lines moved into {name}.rejected no longer count: mend them there "
                "and record those hands again; `scorepad verify` says what is missing."
            ).format(file=path, name=path.name)
        )
        return
    click.echo(_("{file}: every complete hand is kept.").format(file=path))


@click.group(cls=WholeHelpGroup, context_settings=CONTEXT_SETTINGS)
def seat() -> None:
    """Seats that change during a night: someone joins late or leaves early.

    A player who leaves keeps their total in the standings and the settlement and is no longer
    dealt in; the deal and sitting out follow the seats in force for each hand.

    Example:

    \b
        scorepad seat add Flo --after Bob
    """


@seat.command("add", context_settings=CONTEXT_SETTINGS)
@click.argument("name")
@click.option(
    "--after",
    metavar="NAME",
    shell_complete=complete_player,
    help="Seat the player on this player's left (next after them in seat order). "
    "Default: after the last seat.",
)
@click.option("--note", default="", metavar="TEXT", help="Why they join (kept with it).")
@session_file_option
@click.pass_obj
def seat_add(path: Path, name: str, after: str | None, note: str) -> None:
    """Seat a player who joins (or comes back): dealt in from the next hand.

    Example:

    \b
        scorepad seat add Flo --after Bob
    """

    from ..scoring import seat as seating_of

    session = open_session(path)
    now = session.state()
    before = seating_of(now.rules, now.seated).deal
    player, place, state = session.seat_add(name, after, note)
    if place:  # (" after Bob", as the session notes it)
        place = _(" after {player}").format(player=place.removeprefix(" after "))
    click.echo(
        _("{player} joins the table{place}. Seats: {players}.").format(
            player=player, place=place, players=", ".join(state.seated)
        )
    )
    hand = seating_of(state.rules, state.seated)
    if hand.deal != before:
        calls = {
            "ace": _(", the partner found by a called ace"),
            "jack-of-diamonds": _(", the partner found by the jack of diamonds"),
            "none": _(", the partner found by "),
        }
        how = calls[hand.deal.call] if hand.deal.partners else ""
        click.echo(
            _(
                "Warning: the deal changes: {size}-handed hands, {cards} cards each{how}. "
                "To have the dealer sit out instead: scorepad set sit_out=dealer"
            ).format(size=hand.size, cards=hand.deal.cards, how=how),
            err=True,
        )
    click.echo(next_line(state))


@seat.command("remove", context_settings=CONTEXT_SETTINGS)
@click.argument("name", shell_complete=complete_player)
@click.option("--note", default="", metavar="TEXT", help="Why they leave (kept with it).")
@session_file_option
@click.pass_obj
def seat_remove(path: Path, name: str, note: str) -> None:
    """A player leaves: they keep their total and are no longer dealt in.

    Example:

    \b
        scorepad seat remove Ed
    """
    from ..render import signed

    player, state = open_session(path).seat_remove(name, note)
    click.echo(
        _("{player} leaves the table with {total}. Seats: {players}.").format(
            player=player, total=signed(state.totals[player]), players=", ".join(state.seated)
        )
    )
    click.echo(next_line(state))
