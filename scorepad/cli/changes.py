"""Changes to a night once hands are in: undo and redo, void and amend a hand, penalties, Bock
rounds, the rules changed mid-night, players joining and leaving, and repair of a damaged file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
    format_option,
    hand_options,
    next_line,
    open_session,
    session_file_option,
    table_format_option,
    totals_table,
)

if TYPE_CHECKING:
    from ..ledger import Ledger
    from ..store.format import Row


def _reason(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    from ..store.format import check_note

    try:
        return check_note(value)
    except HandError as exc:  # ("⟨note⟩: a note cannot ...": the option is --reason here)
        raise click.BadParameter(exc.raw.partition(": ")[2]) from None


def reason_option(help: str) -> Callable[..., Any]:
    """Add `--reason TEXT`, checked as a note is (its message names --reason)."""
    return click.option("--reason", default="", metavar="TEXT", help=help, callback=_reason)


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("steps", type=WholeRange(min=1), default=1, metavar="[N]")
@reason_option("Why (kept as the new row's note).")
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
@reason_option("Why (kept as the new row's note).")
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
@click.option(
    "--from",
    "start",
    type=WholeRange(min=1),
    default=None,
    metavar="N",
    help="Change the rules from hand N on, a tariff fixed after play: every hand from N is "
    "scored again under them, and the totals before and after are shown.",
)
@session_file_option
@click.pass_obj
def set_rules(path: Path, changes: tuple[str, ...], note: str, start: int | None) -> None:
    """Change the house rules from the next hand on (a row of its own; `undo` takes it back).

    Each KEY=VALUE is checked as `--set` checks it (`scorepad rules` lists every setting).
    Hands recorded before keep the rules they were played under; `verify`, every report and
    `status` follow the change. With `--from N` the change reaches back to hand N: every hand
    from it is scored again, in one change (refused, with nothing written, when a hand cannot
    be scored under the new rules). A session file of an older format is rewritten in the
    current one first.

    Examples:

    \b
        scorepad set double_on_the_bump=true --note "Ed's house, Ed's rules"
        scorepad set sit_out=dealer
        scorepad set alone_multiplier=2 --from 1
    """
    if start is not None:
        _set_from(path, changes, note, start)
        return
    _row, state = open_session(path).set_rules(changes, note)
    click.echo(
        _("From hand {hand} on: {changes}.").format(
            hand=state.last_hand + 1, changes=", ".join(changes)
        )
    )
    click.echo(_("Rules: {rules}.").format(rules=state.rules.summary()))
    click.echo(next_line(state))


_FIGURES = ("left", "right", "right", "right")


def _set_from(path: Path, changes: tuple[str, ...], note: str, start: int) -> None:
    """`set --from N`: the change, and the totals before and after it."""
    from ..render import Points, render

    row, state = open_session(path).set_rules_from(changes, start, note)
    before = {p: v - row.deltas.get(p, 0) for p, v in state.totals.items()}
    last = state.last_hand
    click.echo(
        (
            _("From hand {hand} on: {changes}; hand {hand} scored again.")
            if start == last
            else _("From hand {hand} on: {changes}; hands {hand} to {last} scored again.")
        ).format(hand=start, last=last, changes=", ".join(changes))
    )
    rows = [
        [p, Points(before[p]), Points(v), Points(v - before[p])] for p, v in state.totals.items()
    ]
    click.echo(render(["Player", "Before", "After", "Change"], rows, colalign=_FIGURES))
    click.echo(_("Rules: {rules}.").format(rules=state.rules.summary()))
    click.echo(next_line(state))


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("number", type=WholeRange(min=1), metavar="N")
@reason_option("Why the hand is voided.")
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
