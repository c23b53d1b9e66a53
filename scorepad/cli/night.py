"""The session ledger: start a night, record hands, correct them, see where it stands."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, BinaryIO, cast

import click

from ..i18n import gettext as _
from ..i18n import ngettext
from ._common import (
    CONTEXT_SETTINGS,
    complete_player,
    escaped,
    format_option,
    night_stats,
    open_session,
    race_line,
    rules_in_force,
    rules_options,
    session_file_option,
    split_names,
    table_format_option,
    use_color,
)

if TYPE_CHECKING:
    from ..ledger import HandView
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
    if not pending and state.rules.is_schafkopf:  # (a Schafkopf table has no doublers)
        lines = [line for line in lines if line[0] != _("Doublers")]
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

    from ..render import Points, header_text, render_stream, text_cell, text_lines
    from ..reports import HandLines, SheetRows, plays_pot, set_record

    # The rows are written to a spool as the one checking pass reaches them, and shown only
    # once the whole file has passed: memory stays flat and a bad file shows nothing.
    with (
        open_session(path).reading() as reading,
        tempfile.TemporaryFile("w+", encoding="utf-8", newline="") as spool,
    ):
        players = reading.head.players
        headers = ["Hand", "Dealer", "Played", *players, "Note"]
        # (plain text reads the spool back as its cells: the points are written as it shows them)
        as_text = fmt == "text" and not use_color(fmt)
        sheet_rows = SheetRows(players, running, signed=as_text)
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

        total_cells = [*total[:3], *(Points(v) for v in total[3:-1]), ""]

        def with_total() -> Iterator[list[Any]]:
            yield from rows()
            yield total_cells
            if pot is not None:
                yield pot

        align = ("right", "left", "left", *["right"] * len(players), "left")
        if as_text:
            # (the spool's cells are the text as they are, not turned into numbers and back)
            ends = [[text_cell(c) for c in row] for row in [total_cells, pot] if row is not None]

            def text_rows() -> Iterator[Sequence[str]]:
                spool.seek(0)
                yield from csv.reader(spool)
                yield from ends

            widths = sheet_rows.text_widths()  # (the pass measured its lines as it made them)
            for cells in ends:
                widths = list(map(max, widths, map(len, cells)))
            lines = text_lines([header_text(h) for h in headers], text_rows, align, widths)
        else:
            lines = render_stream(headers, with_total, fmt, align, use_color(fmt))
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
        from ..reports import pass_summary

        click.echo(
            _("{file}: {summary}: all consistent.").format(file=path, summary=pass_summary(ledger))
        )


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
