"""The `scorepad` command line: thin commands over the domain core.

This is the only module that imports click. Each command parses its options, calls one or two
domain functions and renders the result. Every `ScorepadError` and every usage mistake becomes a
one-line `Error: …` on stderr and a non-zero exit (1 for a bad hand or rules, 2 for bad usage);
any other exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from pathlib import Path

import click

from . import __version__
from .errors import ScorepadError

PRESET_NAMES = ("standard", "pagat", "first-night", "schafkopf")  # also in rules.PRESETS
GAME_NAMES = ("partner", "solo", "wenz", "geier", "solo-tout", "wenz-tout", "geier-tout")
CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class ScorepadGroup(click.Group):
    """A click group that reports every user error on one line and exits non-zero."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help())  # `scorepad` alone: the help, as asked for
            sys.exit(0)
        except click.ClickException as exc:
            hint = ""
            if isinstance(exc, click.UsageError) and exc.ctx is not None:
                hint = f"; see '{exc.ctx.command_path} --help'"
            _error(f"{exc.format_message().rstrip('.')}{hint}")
            sys.exit(exc.exit_code)
        except ScorepadError as exc:
            _error(str(exc))
            sys.exit(1)
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise
            # The reader went away (e.g. `scorepad rules | head`): stop quietly.
            sys.stderr = open(os.devnull, "w")  # noqa: SIM115
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def _error(message: str) -> None:
    """Print `Error: message` on one line: control characters the user typed are escaped."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
    click.echo(f"Error: {shown}", err=True)


# --- shell completion ---------------------------------------------------------------------------


def _complete_rules(ctx, param, incomplete):
    from click.shell_completion import CompletionItem

    names = [CompletionItem(n) for n in PRESET_NAMES if n.startswith(incomplete)]
    return names or [CompletionItem(incomplete, type="file")]


def _complete_setting(ctx, param, incomplete):
    from click.shell_completion import CompletionItem

    from .rules import load_rules

    try:
        keys = load_rules(ctx.params.get("rules_spec")).flat()
    except ScorepadError:
        return []
    return [CompletionItem(f"{key}=") for key in keys if key.startswith(incomplete)]


def _complete_player(ctx, param, incomplete):
    players = ctx.params.get("players")
    if not players:  # a session command: the names in the session file
        from .session import read_head

        try:
            players = read_head(ctx.find_root().params.get("session_file")
                                or Path("scorepad.csv")).players
        except (ScorepadError, OSError):
            players = ()
    return [p for p in players if p.casefold().startswith(incomplete.casefold())]


# --- shared options -----------------------------------------------------------------------------


def rules_options(command: Callable) -> Callable:
    """Add `--rules NAME|PATH` and `--set KEY=VALUE` to a command."""
    command = click.option(
        "--set", "overrides", multiple=True, metavar="KEY=VALUE",
        shell_complete=_complete_setting,
        help="Override one setting for this call (repeatable), e.g. --set "
             "double_on_the_bump=true. `scorepad rules` lists every setting.")(command)
    return click.option(
        "--rules", "rules_spec", metavar="NAME|PATH", shell_complete=_complete_rules,
        help="Rules preset (standard, pagat, first-night, schafkopf) or a TOML rules file. "
             "Default: standard.")(command)


def format_option(*choices: str) -> Callable:
    """Add `--format` with the given choices (the first is the default)."""
    return click.option("--format", "fmt", type=click.Choice(choices), default=choices[0],
                        show_default=True, help="Output format.")


class FormatType(click.ParamType):
    """text, csv, json, any of tabulate's table formats, and any extra formats a command has.

    tabulate's list is read only when a format outside the usual three is given, so a command
    does not pay for importing tabulate just to check its options.
    """

    name = "format"

    def __init__(self, extra: tuple[str, ...] = ()):
        self.extra = extra

    def convert(self, value, param, ctx):
        if value in ("text", "csv", "json", *self.extra):
            return value
        from .render import table_formats

        known = [*table_formats(), *self.extra]
        if value in known:
            return value
        self.fail(f"{value!r} is not a format; use one of {', '.join(known)}", param, ctx)

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        from .render import table_formats

        return [CompletionItem(f) for f in [*table_formats(), *self.extra]
                if f.startswith(incomplete)]


def table_format_option(*extra: str) -> Callable:
    """Add `--format`: text (the default), csv, json, any tabulate format, and `extra`."""
    more = "".join(f", {e}" for e in extra)
    return click.option("--format", "fmt", type=FormatType(extra), default="text",
                        show_default=True, metavar="FORMAT",
                        help=f"text, csv, json{more}, or a tabulate table format such as grid, "
                             f"github, markdown or rounded_outline.")


def use_color(fmt: str) -> bool:
    """Colour points in a table on a terminal, unless NO_COLOR is set or the output is data."""
    return (fmt not in ("csv", "json", "toml") and not os.environ.get("NO_COLOR")
            and sys.stdout.isatty())


def _csv_items(value: str) -> list[str]:
    """Split an option's comma-separated value; a name holding a comma goes in double quotes."""
    import csv

    rows = list(csv.reader([value], skipinitialspace=True))
    return [item.strip() for item in rows[0]] if rows else [""]


def _split_names(ctx, param, value):
    if value is None:
        return None
    return tuple(_csv_items(value))


def _split_pairs(ctx, param, value):
    """Read `A=N,B=N,...` into a dict of name to whole number."""
    if value is None:
        return None
    pairs = {}
    for item in _csv_items(value):
        name, sep, number = item.rpartition("=")
        name, number = name.strip(), number.strip()
        if not sep or not name or not number.lstrip("-").isdigit():
            raise click.BadParameter(f"{item!r}: write NAME=N, e.g. Ann=10,Bob=25")
        if name in pairs:
            raise click.BadParameter(f"{name} is given twice")
        pairs[name] = int(number)
    return pairs


# --- the options that describe a hand (shared by check, hand and amend) ---------------------------

_PICKER_ONLY = ("picker", "partners", "alone", "points", "tricks", "crack", "recrack", "forced",
                "game", "runs", "blitz")
_LEASTER_ONLY = ("winner", "leaster_points", "leaster_tricks")


def hand_options(amend: bool = False) -> Callable:
    """Add the options of one hand; under `amend` every flag also has a --no- form."""

    def flag(name: str, text: str):
        if amend:
            return click.option(f"--{name}/--no-{name}", default=None, help=text)
        return click.option(f"--{name}", is_flag=True, help=text)

    options = [
        click.option("--dealer", metavar="NAME", shell_complete=_complete_player,
                     help="Who dealt. Default: " + ("as recorded." if amend else
                                                   "the last player listed (a session: whoever "
                                                   "is next).")),
        click.option("--picker", metavar="NAME", shell_complete=_complete_player,
                     help="Who picked (in Schafkopf: the declarer)."),
        click.option("--partner", "partners", multiple=True, metavar="NAME",
                     shell_complete=_complete_player, help="The picker's partner (repeatable)."),
        flag("alone", "The picker went alone."),
        click.option("--points", type=int, metavar="N",
                     help="Card points of the picker's side, bury included (0-120)."),
        click.option("--tricks", type=int, metavar="N",
                     help="Tricks the picker's side took. Without it, each side is taken to "
                          "have won a trick."),
        click.option("--crack", metavar="NAME", shell_complete=_complete_player,
                     help="A defender cracked (Stoss in Schafkopf): x2."),
        flag("recrack", "The picker's side re-cracked (Gegenstoss): x2 more."),
        flag("forced", "The dealer was forced to pick (all_pass = forced)."),
        click.option("--blitz", type=click.IntRange(0, 2), metavar="N", help="Blitzes shown.")
        if amend else click.option(
            "--blitz", count=True,
            help="A blitz was shown (where the rules play blitz); give twice for two."),
        click.option("--game", type=click.Choice(GAME_NAMES),
                     help="Schafkopf: the game declared. Default: partner."),
        click.option("--runs", type=int, metavar="N",
                     help="Schafkopf: runs (consecutive top trumps held by one side)."),
        click.option("--leaster", is_flag=True, help="Nobody picked: a leaster."),
        click.option("--winner", metavar="NAME", shell_complete=_complete_player,
                     help="Leaster: who won."),
        click.option("--leaster-points", callback=_split_pairs, metavar="A=N,B=N,...",
                     help="Leaster: each player's card points (adding up to 120); scorepad "
                          "finds the winner."),
        click.option("--leaster-tricks", callback=_split_pairs, metavar="A=N,B=N,...",
                     help="Leaster: each player's tricks."),
    ]
    if amend:
        options.append(click.option("--no-crack", is_flag=True, help="Nobody cracked."))
    else:
        options.append(click.option(
            "--doubled", count=True,
            help="The hand is doubled by a doubler before it (give twice for x4). A session "
                 "works this out itself."))

    def decorate(command: Callable) -> Callable:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def _option_name(param: str) -> str:
    return "--partner" if param == "partners" else "--" + param.replace("_", "-")


def _given(params: dict, names: tuple[str, ...]) -> list[str]:
    """The options among `names` that the user gave (flags set, counts above 0)."""
    return [_option_name(n) for n in names
            if not (params.get(n) is None or params.get(n) is False or params.get(n) == ()
                    or (n == "blitz" and params.get(n) == 0))]


def _build_hand(players, params, out=()):
    """The PickerHand or LeasterHand the options describe (usage mistakes exit 2)."""
    from .scoring import LeasterHand, PickerHand

    if params["leaster"]:
        stray = _given(params, _PICKER_ONLY)
        if stray:
            raise click.UsageError(f"{stray[0]} does not belong with --leaster")
        return LeasterHand(players, params["dealer"], params["winner"], params["leaster_points"],
                           params["leaster_tricks"], params["doubled"], tuple(out))
    stray = _given(params, _LEASTER_ONLY)
    if stray:
        raise click.UsageError(f"{stray[0]} belongs to a leaster; add --leaster")
    for needed in ("picker", "points"):
        if params[needed] is None:
            raise click.UsageError(f"Missing option '--{needed}' (or give --leaster)")
    return PickerHand(players, params["picker"], params["points"], params["dealer"],
                      params["partners"], params["alone"], params["tricks"], params["crack"],
                      params["recrack"], params["doubled"], params["forced"], params["game"],
                      params["runs"], params["blitz"], tuple(out))


def _score_table(result, totals=None, fmt="text") -> str:
    from .render import Points, render

    headers = ["Player", "Role", "Points"] + (["Total"] if totals is not None else [])
    rows = []
    for player, role in result.roles.items():
        row = [player, role, Points(result.deltas[player]) if player in result.deltas else None]
        if totals is not None:
            row.append(Points(totals[player]))
        rows.append(row)
    return render(headers, rows, fmt, ("left", "left", "right", "right")[:len(headers)],
                  use_color(fmt))


# --- the session file option --------------------------------------------------------------------


@click.group(cls=ScorepadGroup, context_settings=CONTEXT_SETTINGS)
@click.option("-f", "--file", "session_file", type=click.Path(dir_okay=False, path_type=Path),
              envvar="SCOREPAD_FILE", default="scorepad.csv", show_default=True,
              metavar="FILE", help="The session file (else $SCOREPAD_FILE, else scorepad.csv).")
@click.version_option(__version__, "--version", prog_name="scorepad",
                      message="%(prog)s %(version)s")
@click.pass_context
def cli(ctx, session_file):
    """Keep score at a Sheepshead or Schafkopf table.

    Start a night with `new`, record each hand with `hand` as it ends, and see `standings` and
    the score `sheet` at any time. `check` scores a disputed hand without a session file, and
    `rules` shows the rules a table plays. Every command has its own help: scorepad COMMAND -h.

    Example:

    \b
        scorepad new --players Ann,Bob,Cy,Dee,Ed
        scorepad hand --picker Ann --partner Bob --points 64 --tricks 4
        scorepad standings
    """
    ctx.obj = session_file


# --- commands without a session -----------------------------------------------------------------


@cli.command(context_settings=CONTEXT_SETTINGS)
@rules_options
@click.option("--players", required=True, callback=_split_names, metavar="A,B,C,...",
              help="Everyone at the table, in seat order (which is the picking order after the "
                   "dealer).")
@hand_options()
@table_format_option()
def check(rules_spec, overrides, players, fmt, **params):
    """Score one hand without a session file: each player's points, explained step by step.

    Use it to settle a disputed hand at the table. --points are the card points of the picker's
    side, bury included; --tricks the tricks that side took. The rules are a preset or a TOML
    file (--rules), with any setting changed for this call (--set).

    Examples:

    \b
        scorepad check --players Ann,Bob,Cy,Dee,Ed --picker Ann --partner Bob --points 64 --tricks 4
        scorepad check --rules pagat --players Ann,Bob,Cy,Dee,Ed --picker Ann --partner Bob \\
            --points 25 --crack Cy
        scorepad check --players Ann,Bob,Cy,Dee,Ed --leaster --leaster-points \\
            Ann=10,Bob=20,Cy=30,Dee=40,Ed=20 --leaster-tricks Ann=1,Bob=1,Cy=1,Dee=2,Ed=1
        scorepad check --rules schafkopf --players Ann,Bob,Cy,Dee --picker Ann --game solo \\
            --points 95 --tricks 7 --runs 3
    """
    from .rules import load_rules
    from .scoring import score

    rules = load_rules(rules_spec, overrides)
    result = score(rules, _build_hand(players, params))
    if fmt == "json":
        from .render import to_json

        click.echo(to_json({"rules": rules.name, "overrides": list(rules.overrides),
                            **result.to_dict()}))
        return
    click.echo(_score_table(result, fmt=fmt))
    if fmt == "csv":
        return
    click.echo()
    click.echo(_rules_line(rules))
    for line in result.explanation:
        click.echo(line)


def _rules_line(rules) -> str:
    return f"Rules: {rules.summary()}."


@cli.command("rules", context_settings=CONTEXT_SETTINGS)
@click.argument("spec", required=False, metavar="[NAME|PATH]", shell_complete=_complete_rules)
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              shell_complete=_complete_setting, help="Override one setting (repeatable).")
@table_format_option("toml")
def rules_command(spec, overrides, fmt):
    """Show a rules table: every setting in force and what it means.

    NAME is a preset (standard, pagat, first-night, schafkopf; default standard) and PATH a TOML
    file of your table's own rules, which may start from a preset (preset = "pagat") and change
    some settings. --format toml writes a complete rules file to start your own from.

    Examples:

    \b
        scorepad rules pagat
        scorepad rules standard --set all_pass=doubler --format toml > our-table.toml
        scorepad check --rules our-table.toml --players Ann,Bob,Cy,Dee,Ed --leaster --winner Cy
    """
    from .rules import describe, load_rules

    rules = load_rules(spec, overrides)
    if fmt == "toml":
        import tomli_w

        click.echo(tomli_w.dumps(rules.to_dict()), nl=False)
        return
    if fmt == "json":
        from .render import to_json

        click.echo(to_json(rules.to_dict()))
        return
    from .render import render

    table = render(("Setting", "Value", "Meaning"), describe(rules), fmt)
    if fmt != "csv":
        click.echo(f"{_rules_line(rules)} {rules.description}.")
        click.echo()
    click.echo(table)


# --- the session -------------------------------------------------------------------------------


def _summary(row, result=None) -> str:
    """One line saying what a recorded hand was."""
    label = f"Hand {row.hand}" if row.hand else f"Hand {row.ref}, amended"
    if row.kind == "doubler":
        return f"{label}: everyone passed; a doubler (the next hand is doubled)."
    if result is None:
        return f"{label}."
    if result.outcome == "leaster":
        won = " and ".join(result.winners) or "nobody"
        return f"{label}: a leaster, won by {won} (payout {result.stake})."
    side = f"{row.picker} picked"
    if row.partners:
        side += f", partner {', '.join(row.partners)}"
    elif row.alone:
        side += " alone"
    if row.game and row.game != "partner":
        side = f"{row.picker} played a {row.game}"
    level = f", level {result.level}" if result.level else ""
    return (f"{label}: {side}, {row.points} points: a {result.outcome}{level}, stake "
            f"{result.stake}.")


def _next_line(state, rules) -> str:
    from .scoring import seat

    seating = seat(rules, state.seated, state.next_dealer)
    text = f"Next: hand {state.last_hand + 1}, {state.next_dealer} deals, {seating.order[0]} leads"
    if seating.sitting_out:
        text += f", {', '.join(seating.sitting_out)} sits out"
    doubled = state.doubled_next()
    if doubled:
        text += f"; it is doubled (x{2 ** doubled})"
    return text + "."


def _race_line(state) -> str | None:
    if state.race_winners:
        who = " and ".join(state.race_winners)
        return f"{who} {'reaches' if len(state.race_winners) == 1 else 'reach'} " \
               f"{state.rules.target} and {'wins' if len(state.race_winners) == 1 else 'win'} " \
               f"the night!"
    return None


def _echo_recorded(path, row, result, state, fmt, explain=False) -> None:
    if fmt == "json":
        from .render import to_json

        click.echo(to_json({
            "file": str(path), "hand": row.hand, "ref": row.ref, "kind": row.kind,
            "deltas": dict(row.deltas), "totals": dict(state.totals),
            "next_dealer": state.next_dealer, "pending": len(state.pending),
            "race_winners": list(state.race_winners),
            "score": result.to_dict() if result else None}))
        return
    table = (_score_table(result, state.totals, fmt) if result is not None
             else _totals_table(state, fmt))
    if fmt == "csv":
        click.echo(table)
        return
    click.echo(_summary(row, result))
    click.echo(table)
    if explain and result is not None:
        click.echo()
        for line in result.explanation:
            click.echo(line)
    click.echo()
    race = _race_line(state)
    click.echo(race if race else _next_line(state, state.rules))


def _totals_table(state, fmt="text") -> str:
    from .render import Points, render

    return render(("Player", "Total"), [(p, Points(state.totals[p])) for p in state.totals],
                  fmt, ("left", "right"), use_color(fmt))


@cli.command(context_settings=CONTEXT_SETTINGS)
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
    from .ledger import check_name
    from .rules import load_rules
    from .scoring import seat
    from .session import create

    rules = load_rules(rules_spec, overrides)
    players = tuple(check_name(p) for p in players)
    seating = seat(rules, players, dealer)  # can this table be dealt at all?
    head = create(path, players, rules, seating.dealer)
    click.echo(f"Started {path}: {', '.join(head.players)}; rules: {rules.summary()}.")
    click.echo(f"Next: hand 1, {seating.dealer} deals, {seating.order[0]} leads.")


@cli.command(context_settings=CONTEXT_SETTINGS)
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
    from .session import now

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


def _record(path, make):
    """Under the lock: read the head and the tail, make the new row, append it."""
    from .ledger import Replay
    from .session import append, locked, read_head, read_tail

    with locked(path) as fd:
        head = read_head(path)
        last, last_hand = read_tail(head)
        state = Replay.resume(head.rules, head.players, last, last_hand)
        row, result = make(state)
        append(path, fd, head.players, [row])
    return row, result, state


def _resume(path):
    """The state of the night from the file's head and tail (no lock: for showing only)."""
    from .ledger import Replay
    from .session import read_head, read_tail

    head = read_head(path)
    last, last_hand = read_tail(head)
    return Replay.resume(head.rules, head.players, last, last_hand)


@cli.command(context_settings=CONTEXT_SETTINGS)
@format_option("text", "json")
@click.pass_obj
def status(path, fmt):
    """Where the night stands: the next hand, its dealer, who leads and sits out, doublers.

    Reads only the top and the end of the file, however long the night.

    Example:

    \b
        scorepad status
    """
    from .ledger import Replay
    from .scoring import seat
    from .session import read_head, read_tail

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
        from .render import to_json

        click.echo(to_json(info))
        return
    from .render import signed

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


@cli.command(context_settings=CONTEXT_SETTINGS)
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
    from .session import read_head, tally

    head = read_head(path)
    state = tally(head)
    order = sorted(state.totals, key=lambda p: -state.totals[p])
    if fmt == "json":
        from .render import to_json

        click.echo(to_json({
            "file": str(path), "rules": head.rules.name, "hands": state.hands,
            "totals": dict(state.totals),
            "players": [{"name": p, "total": state.totals[p], "played": state.stats[p].played,
                         "picks": state.stats[p].picks,
                         "picker_wins": state.stats[p].picker_wins} for p in order],
            "race_winners": list(state.race_winners)}))
        return
    from .render import Points, render

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


@cli.command(context_settings=CONTEXT_SETTINGS)
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
    from .render import Points, render_stream
    from .session import checked_replay, read_head

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


class _Hand:
    """A hand as the reports show it: its last version, and whether it was voided."""

    __slots__ = ("number", "row", "deltas", "void", "amended")

    def __init__(self, number, row, deltas, void, amended):
        self.number, self.row, self.deltas = number, row, deltas
        self.void, self.amended = void, amended


def _hands(head, state):
    """Every hand in order, as last corrected, streamed from the file (after a checked replay
    that kept the corrected hands' last versions)."""
    from .ledger import Row
    from .session import rows

    for row in rows(head):
        if not isinstance(row, Row) or row.kind not in ("picker", "leaster", "doubler"):
            continue
        version = state.kept.get(row.hand)
        shown = version.row if version else row
        deltas = version.deltas if version else row.deltas
        yield _Hand(row.hand, shown, deltas, row.hand in state.voided,
                    version is not None and shown.kind == "amend")


def _what(row, deltas) -> str:
    """A few words for the sheet's Played column: who picked with whom, and the points."""
    if row.kind == "doubler":
        return "doubler"
    if row.picker is None:
        winners = [p for p, v in deltas.items() if v > 0]
        return f"leaster: {' and '.join(winners)}" if winners else "leaster: no winner"
    side = row.picker
    if row.partners:
        side += " + " + " + ".join(row.partners)
    elif row.alone:
        side += " alone"
    if row.game and row.game != "partner":
        side += f" {row.game}"
    return f"{side} {row.points}"


@cli.command(context_settings=CONTEXT_SETTINGS)
@click.pass_obj
def verify(path):
    """Re-read the file and re-score every hand from its recorded inputs and rules.

    Prints nothing and exits 0 when all is well; otherwise prints every problem, one per line,
    as FILE:LINE: message, and exits 1.

    Example:

    \b
        scorepad -f friday.csv verify
    """
    from .session import SessionError, read_head, replay

    try:
        head = read_head(path)
    except SessionError as exc:
        if exc.line is None:
            raise
        click.echo(str(exc))
        sys.exit(1)
    _, problems = replay(head)
    for problem in problems:
        click.echo(f"{path}:{problem.line}: {problem.message}")
    if problems:
        sys.exit(1)


def _correct(path, ref_for, make_row):
    """Under the lock: check the whole file, then append the correction row `make_row` makes."""
    from .session import append, checked_replay, locked, read_head, scan_refs

    with locked(path) as fd:
        head = read_head(path)
        refs = scan_refs(path)
        ref = ref_for(head)
        state = checked_replay(head, set(refs) | {ref})
        row, result = make_row(state, ref)
        append(path, fd, head.players, [row])
    return row, result, state


@cli.command(context_settings=CONTEXT_SETTINGS)
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
    from .session import now, read_tail, scan_refs

    def last_effective(head):
        _, last_hand = read_tail(head)
        voided = scan_refs(path, kinds=("void",))
        hand_number = last_hand
        while hand_number in voided:
            hand_number -= 1
        if hand_number < 1:
            from .errors import HandError

            raise HandError("there is no hand to undo")
        return hand_number

    row, _, state = _correct(path, last_effective,
                             lambda state, ref: (state.void_row(ref, reason, now()), None))
    _echo_void(path, row, state, fmt)


@cli.command(context_settings=CONTEXT_SETTINGS)
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
    from .session import now

    row, _, state = _correct(path, lambda head: number,
                             lambda state, ref: (state.void_row(ref, reason, now()), None))
    _echo_void(path, row, state, fmt)


def _echo_void(path, row, state, fmt) -> None:
    if fmt == "json":
        from .render import to_json

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


@cli.command(context_settings=CONTEXT_SETTINGS)
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
    from .session import now

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


@cli.command(context_settings=CONTEXT_SETTINGS)
@click.pass_obj
def repair(path):
    """Move a torn last line (the machine stopped mid-write) into FILE.rejected.

    Every complete hand stays in the file; the torn line is kept in FILE.rejected.

    Example:

    \b
        scorepad repair
    """
    from .session import repair as repair_file

    line, size = repair_file(path)
    if not line:
        click.echo(f"{path}: nothing to repair: the last line is complete.")
        return
    click.echo(f"{path}: moved the incomplete line {line} ({size} bytes) to "
               f"{path.name}.rejected; every complete hand is kept.")


@cli.command(context_settings=CONTEXT_SETTINGS)
@click.option("--rate", default="1", show_default=True, metavar="AMOUNT",
              help="Money per game point, e.g. 0.25.")
@click.option("--currency", default="$", show_default=True, metavar="SYMBOL",
              help="Currency symbol to show amounts with.")
@table_format_option()
@click.pass_obj
def settle(path, rate, currency, fmt):
    """Settle the night: each player's points and money, then who pays whom.

    The payments clear every balance with the fewest payments possible (exactly, for up to 12
    players with a balance), to the cent. A race night has no money: it shows the result.

    Examples:

    \b
        scorepad settle --rate 0.25
        scorepad -f sample_sessions/standard-friday.csv settle --rate 0.10 --format json
    """
    from .render import Money, Points, render, to_json
    from .session import checked_replay, read_head
    from .settlement import fewest_payments, money_balances, parse_rate

    per_point = parse_rate(rate)
    head = read_head(path)
    state = checked_replay(head)
    order = sorted(state.totals, key=lambda p: (-state.totals[p], p))
    if not head.rules.zero_sum:
        race = _race_line(state) or (f"Nobody has reached {head.rules.target} yet: the race "
                                     f"goes on.")
        if fmt == "json":
            click.echo(to_json({"file": str(path), "race": True, "target": head.rules.target,
                                "winners": list(state.race_winners),
                                "totals": dict(state.totals)}))
            return
        click.echo(render(("Player", "Points"), [(p, Points(state.totals[p])) for p in order],
                          fmt, ("left", "right"), use_color(fmt)))
        if fmt != "csv":
            click.echo()
            click.echo(f"A race to {head.rules.target} settles no money. {race}")
        return
    balances = money_balances(state.totals, per_point)
    payments = fewest_payments(balances)
    if fmt == "json":
        click.echo(to_json({
            "file": str(path), "rate": str(per_point), "currency": currency,
            "points": dict(state.totals),
            "balances": {p: f"{balances[p]:.2f}" for p in state.totals},
            "payments": [pay.to_dict() for pay in payments]}))
        return
    color = use_color(fmt)
    people = render(("Player", "Points", "Money"),
                    [(p, Points(state.totals[p]), Money(balances[p], currency)) for p in order],
                    fmt, ("left", "right", "right"), color)
    plan = render(("From", "To", "Amount"),
                  [(pay.payer, pay.payee, Money(pay.amount, currency)) for pay in payments],
                  fmt, ("left", "left", "right"))
    if fmt == "csv":
        click.echo(people)
        click.echo()
        click.echo(plan)
        return
    click.echo(f"Settlement at {Money(per_point, currency)} a point "
               f"({state.hands} hands, {head.rules.name} rules):")
    click.echo(people)
    click.echo()
    if payments:
        count = len(payments)
        click.echo(f"{count} payment{'s' if count != 1 else ''} settle{'s' if count == 1 else ''}"
                   f" it:")
        click.echo(plan)
    else:
        click.echo("Everyone is even: nobody pays.")


@cli.group(context_settings=CONTEXT_SETTINGS)
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
    from .ledger import Replay, check_name
    from .scoring import find_player
    from .session import add_column, append, locked, now, read_head, read_tail

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
    from .ledger import Replay
    from .scoring import find_player
    from .session import append, locked, now, read_head, read_tail

    with locked(path) as fd:
        head = read_head(path)
        last, last_hand = read_tail(head)
        state = Replay.resume(head.rules, head.players, last, last_hand)
        player = find_player(name, state.seated, "seat remove")
        order = [p for p in state.seated if p != player]
        row = state.seat_row(order, f"{player} leaves", now())
        append(path, fd, head.players, [row])
    click.echo(f"{player} leaves the table with {state.totals[player]:+d}. "
               f"Seats: {', '.join(state.seated)}.")
    click.echo(_next_line(state, state.rules))


@cli.command(context_settings=CONTEXT_SETTINGS)
@table_format_option()
@click.pass_obj
def stats(path, fmt):
    """Each player's night in numbers: picks, wins, schneiders, partners, best and worst hand.

    Schneiders and no-tricks count "for" a player on the side that made them and "against" a
    player on the side that suffered them. A voided hand counts for nothing; an amended hand
    counts as amended.

    Example:

    \b
        scorepad -f sample_sessions/standard-friday.csv stats
    """
    from .render import Points, render, to_json
    from .session import checked_replay, read_head

    head = read_head(path)
    state = checked_replay(head)
    records = []
    for player in state.totals:
        st = state.stats[player]
        records.append({
            "player": player, "total": st.total, "hands": st.played, "picks": st.picks,
            "pick_rate": round(st.picks / st.played, 3) if st.played else None,
            "picker_wins": st.picker_wins,
            "picker_win_rate": round(st.picker_wins / st.picks, 3) if st.picks else None,
            "average_picker_points": round(st.picker_points / st.picks, 1) if st.picks else None,
            "partner": st.partner,
            "schneider_for": st.schneider_for, "schneider_against": st.schneider_against,
            "no_trick_for": st.no_trick_for, "no_trick_against": st.no_trick_against,
            "leasters_won": st.leasters_won, "best": st.best, "worst": st.worst})
    if fmt == "json":
        click.echo(to_json({"file": str(path), "hands": state.hands, "players": records}))
        return

    def percent(value):
        return None if value is None else f"{value:.0%}"

    def points(value):
        return None if value is None else Points(value)

    rows = [(r["player"], r["hands"], r["picks"], percent(r["pick_rate"]),
             percent(r["picker_win_rate"]), r["average_picker_points"], r["partner"],
             f"{r['schneider_for']}/{r['schneider_against']}",
             f"{r['no_trick_for']}/{r['no_trick_against']}", r["leasters_won"],
             points(r["best"]), points(r["worst"])) for r in records]
    headers = ("Player", "Hands", "Picks", "Pick rate", "Wins", "Avg points", "Partner",
               "Schneider +/-", "No-trick +/-", "Leasters", "Best", "Worst")
    if fmt == "csv":
        rows = [[r[h] for h in ("player", "hands", "picks", "pick_rate", "picker_win_rate",
                                "average_picker_points", "partner", "schneider_for",
                                "schneider_against", "no_trick_for", "no_trick_against",
                                "leasters_won", "best", "worst")] for r in records]
        headers = ("Player", "Hands", "Picks", "Pick rate", "Picker win rate",
                   "Average picker points", "Partner", "Schneider for", "Schneider against",
                   "No-trick for", "No-trick against", "Leasters won", "Best", "Worst")
    click.echo(render(headers, rows, fmt, ("left", *["right"] * (len(headers) - 1)),
                      use_color(fmt)))
    if fmt not in ("csv",):
        click.echo()
        click.echo(f"{state.hands} hands ({head.rules.name} rules). Wins: the picker's wins "
                   f"out of picks; Avg points: card points taken when picking.")


@cli.command(context_settings=CONTEXT_SETTINGS)
@click.argument("sources", nargs=-1, required=True, metavar="FILE_OR_FOLDER...",
                type=click.Path(exists=True, path_type=Path))
@click.option("--skip-bad", is_flag=True,
              help="Leave out a night that fails verification (named on stderr) instead of "
                   "failing.")
@table_format_option()
def season(sources, skip_bad, fmt):
    """A league table over many nights: each night a column, then totals and averages.

    Give session files, or folders of them (*.csv). Nights played under different rules add
    up the same way. Every night is checked as it is read; one that fails stops the table
    unless --skip-bad, which names it and leaves it out.

    Examples:

    \b
        scorepad season sample_sessions/
        scorepad season fall-league/*.csv --skip-bad --format csv > league.csv
    """
    from .render import Points, render, to_json
    from .session import SessionError, checked_replay, read_head

    files = []
    for source in sources:
        if source.is_dir():
            files += sorted(source.glob("*.csv"))
        else:
            files.append(source)
    if not files:
        raise ScorepadError(f"no session files (*.csv) in {', '.join(map(str, sources))}")
    nights, names = [], {}  # names: casefold -> the spelling shown
    for file in files:
        try:
            state = checked_replay(read_head(file))
        except SessionError as exc:
            if not skip_bad:
                raise SessionError(exc.path, f"{exc.message} (leave it out with --skip-bad)",
                                   exc.line) from None
            click.echo(f"scorepad: skipped {exc}", err=True)
            continue
        totals = {}
        for player, total in state.totals.items():
            key = names.setdefault(player.casefold(), player)
            totals[key] = total
        nights.append((file.stem, totals))
    if not nights:
        raise ScorepadError("every night failed verification: no table to show")
    players = sorted(names.values(), key=lambda p: (-sum(n.get(p, 0) for _, n in nights), p))
    records = []
    for player in players:
        played = [n[player] for _, n in nights if player in n]
        total = sum(played)
        records.append({"player": player, "nights": {name: n.get(player) for name, n in nights},
                        "total": total, "played": len(played),
                        "average": round(total / len(played), 2) if played else None})
    if fmt == "json":
        click.echo(to_json({"nights": [name for name, _ in nights], "players": records}))
        return
    headers = ["Player", *[name for name, _ in nights], "Total", "Nights", "Average"]
    rows = [[r["player"], *[None if v is None else Points(v) for v in r["nights"].values()],
             Points(r["total"]), r["played"],
             f"{r['average']:+.2f}" if r["average"] else "0.00"] for r in records]
    click.echo(render(headers, rows, fmt, ("left", *["right"] * (len(headers) - 1)),
                      use_color(fmt)))


@cli.command(context_settings=CONTEXT_SETTINGS)
@click.option("--output", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write the chart as an image (.png or .svg) instead; needs the plot extra: "
                   "pip install 'scorepad[plot]'.")
@click.option("--width", type=click.IntRange(20, 400), metavar="COLUMNS",
              help="Width of the terminal chart. Default: the terminal's.")
@click.option("--height", type=click.IntRange(8, 200), metavar="LINES",
              help="Height of the terminal chart. Default: 20.")
@click.pass_obj
def chart(path, output, width, height):
    """Draw each player's running total over the night, in the terminal or as an image.

    Examples:

    \b
        scorepad chart
        scorepad -f sample_sessions/standard-friday.csv chart --output friday.png
    """
    from .session import checked_replay, read_head

    if output and output.suffix.lower() not in (".png", ".svg"):
        raise click.BadParameter("the image must be a .png or .svg file", param_hint="--output")
    head = read_head(path)
    state = checked_replay(head)
    players = list(state.totals)
    running = dict.fromkeys(players, 0)
    hands = [0]
    series = {p: [0] for p in players}
    for hand in _hands(head, state):
        if hand.void:
            continue
        hands.append(hand.number)
        for p in players:
            running[p] += hand.deltas.get(p, 0)
            series[p].append(running[p])
    title = f"Running totals: {path.name} ({head.rules.name} rules)"
    if output:
        _chart_image(output, title, hands, series)
        click.echo(f"Wrote {output}.")
        return
    import shutil

    import plotext as plt

    plt.clf()
    plt.plotsize(width or shutil.get_terminal_size((100, 24)).columns, height or 20)
    plt.theme("clear")
    color = use_color("text")
    marks = "ox+*#@%&=~"  # without colour, each player gets a mark of their own
    for number, player in enumerate(players):
        plt.plot(hands, series[player], label=player,
                 marker="braille" if color else marks[number % len(marks)])
    last = hands[-1]
    plt.xticks(sorted({round(last * i / 5) for i in range(6)}))  # whole hands on the axis
    plt.title(title)
    plt.xlabel("hand")
    text = plt.build()
    if not color:
        text = plt.uncolorize(text)
    click.echo(text.rstrip("\n"))


def _chart_image(output, title, hands, series):
    try:
        import matplotlib
    except ImportError:
        raise ScorepadError("--output needs matplotlib, which is not installed: "
                            "pip install 'scorepad[plot]'") from None
    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(10, 5))
    for player, values in series.items():
        axes.step(hands, values, where="post", label=player)
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_title(title)
    axes.set_xlabel("hand")
    axes.set_ylabel("game points")
    axes.legend()
    try:
        figure.savefig(output)
    except OSError as exc:
        raise ScorepadError(f"{output}: cannot write: {exc.strerror or exc}") from None
    finally:
        pyplot.close(figure)


# --- the cards -----------------------------------------------------------------------------------


@cli.command(context_settings=CONTEXT_SETTINGS)
@click.argument("cards", nargs=-1, required=True, metavar="CARD...")
@table_format_option()
def count(cards, fmt):
    """Count the card points of some cards (a trick, a bury, a side's pile).

    Cards are rank then suit: 7 8 9 10 J Q K A (T for ten) and C S H D (or ♣ ♠ ♥ ♦), e.g. QC
    10D; German names work too (Eichel-Ober, Herz-Sau, or short: EO, HA, S10).

    Example:

    \b
        scorepad count 10C AC 7D KC 9H
    """
    from .cards import card_points, parse_cards
    from .render import render, to_json

    hand = parse_cards(cards)
    total = card_points(hand)
    if fmt == "json":
        click.echo(to_json({"points": total, "cards": [{"card": str(c), "points": c.points}
                                                       for c in hand]}))
        return
    rows = [(str(c), c.points) for c in hand]
    if fmt == "csv":
        click.echo(render(("Card", "Points"), rows, fmt))
        return
    click.echo(render(("Card", "Points"), [*rows, ("Total", total)], fmt, ("left", "right")))


def _game_for(rules, game, trump):
    """The trump order a trick is played in, by the rules' family and the game declared."""
    from .cards import Game, parse_suit

    if not rules.is_schafkopf:
        for option, given in (("--game", game), ("--trump", trump)):
            if given:
                raise ScorepadError(f"{option} belongs to Schafkopf; {rules.name} rules are "
                                    f"Sheepshead, where trump never changes")
        return Game.sheepshead()
    game = game or "partner"
    suit = parse_suit(trump) if trump else None
    if suit is not None and game.removesuffix("-tout") != "solo":
        raise ScorepadError(f"--trump: only a solo names its trump suit, not a {game}")
    return Game.schafkopf(game, suit)


@cli.command(context_settings=CONTEXT_SETTINGS)
@click.argument("cards", nargs=-1, required=True, metavar="CARD...")
@click.option("--rules", "rules_spec", metavar="NAME|PATH", shell_complete=_complete_rules,
              help="Rules preset or file (its family decides the trumps). Default: standard.")
@click.option("--game", type=click.Choice(GAME_NAMES), help="Schafkopf: the game being played.")
@click.option("--trump", metavar="SUIT", help="Schafkopf solo: the trump suit (C, S, H, D).")
@click.option("--players", callback=_split_names, metavar="A,B,...",
              help="Who played the cards, in the same order, to say who won.")
@table_format_option()
def trick(cards, rules_spec, game, trump, players, fmt):
    """Say which card wins a trick, and why, and what the trick is worth.

    Give the cards in the order they were played. With --players (in the same order) it says
    who won.

    Examples:

    \b
        scorepad trick 10C AC 7D KC 9H
        scorepad trick --players Ann,Bob,Cy,Dee,Ed 10C AC 7D KC 9H
        scorepad trick --rules schafkopf --game wenz EO HU HA H10
    """
    from .cards import card_points, parse_cards
    from .render import render, to_json
    from .rules import load_rules

    rules = load_rules(rules_spec)
    order = _game_for(rules, game, trump)
    played = parse_cards(cards, "trick")
    if players is not None and len(players) != len(played):
        raise ScorepadError(f"--players names {len(players)} players for {len(played)} cards")
    win = order.winner(played)
    points = card_points(played)
    why = order.why(played)
    winner = players[win] if players else None
    if fmt == "json":
        data = {"card": str(played[win]), "points": points, "why": why,
                "cards": [str(c) for c in played]}
        if winner:
            data["winner"] = winner
        click.echo(to_json(data))
        return
    rows = [((players[i] if players else i + 1), str(c), "trump" if order.is_trump(c) else "",
             c.points, "wins" if i == win else "") for i, c in enumerate(played)]
    headers = ("Player" if players else "#", "Card", "Trump", "Points", "")
    click.echo(render(headers, rows, fmt, ("left", "left", "left", "right", "left")))
    if fmt == "csv":
        return
    who = f"{winner}'s " if winner else ""
    german = f" ({played[win].german})" if rules.is_schafkopf else ""
    click.echo()
    click.echo(f"{who}{played[win]}{german} wins: {why}. The trick is worth {points} card "
               f"points.")


@cli.command("replay", context_settings=CONTEXT_SETTINGS)
@click.argument("hand_file", type=click.Path(dir_okay=False, path_type=Path), metavar="HAND_FILE")
@click.option("--record", is_flag=True,
              help="Append the hand to the session (-f) when nothing was found wrong.")
@click.option("--note", default="", metavar="TEXT", help="With --record: a note for the hand.")
@table_format_option()
@click.pass_obj
def replay_command(path, hand_file, record, note, fmt):
    """Replay a whole hand from its cards: check the deal and every play, and score it.

    HAND_FILE is plain text (see the README): the players and the dealer, each player's cards,
    the blind, the picker, the bury, the call, and each trick's cards in the order played. It
    reports every renege (with the card that should have followed) and every breach of the
    called-ace rules, works out each trick, the picker's side's card points and tricks, and the
    score. It exits 1 when something was found wrong. --record appends the hand to the session,
    only when nothing was.

    Examples:

    \b
        scorepad replay sample_sessions/hands/friday-hand-7.txt
        scorepad -f friday.csv replay hand.txt --record
    """
    from .render import render, to_json
    from .replay import HandFileError, parse_hand_file, replay
    from .rules import load_rules

    try:
        text = hand_file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ScorepadError(f"{hand_file}: no such hand file") from None
    except UnicodeDecodeError:
        raise ScorepadError(f"{hand_file}: not UTF-8 text") from None
    except OSError as exc:
        raise ScorepadError(f"{hand_file}: cannot read: {exc.strerror}") from None
    try:
        parsed = parse_hand_file(text)
        rules_line = parsed.lines.get("rules", 1)
        try:
            rules = load_rules(parsed.rules)
        except ScorepadError as exc:
            raise HandFileError(rules_line, str(exc)) from None
        outcome = replay(parsed, rules)
    except HandFileError as exc:
        raise ScorepadError(f"{hand_file}:{exc.line}: {exc.message}") from None
    recorded = None
    if record:
        if outcome.problems:
            raise ScorepadError(f"not recorded: {len(outcome.problems)} thing(s) found wrong "
                                f"(run without --record to see them)")
        from .session import now

        recorded = _record(path, lambda state: state.record(outcome.hand(), note, now()))
    if fmt == "json":
        data = {
            "rules": rules.name, "players": list(outcome.players), "dealer": outcome.dealer,
            "picker": outcome.picker, "partners": list(outcome.partners),
            "call": outcome.call_text, "bury": [str(c) for c in outcome.bury],
            "tricks": [{"number": t.number, "leader": t.leader,
                        "cards": [{"player": p, "card": str(c)} for p, c in t.plays],
                        "winner": t.winner, "card": str(t.card), "why": t.why,
                        "points": t.points} for t in outcome.tricks],
            "points": outcome.points, "side_tricks": outcome.side_tricks,
            "runs": outcome.runs,
            "problems": [{"trick": p.trick, "player": p.player, "message": p.message}
                         for p in outcome.problems],
            "score": outcome.score.to_dict() if outcome.score else None,
            "recorded": recorded[0].hand if recorded else None}
        click.echo(to_json(data))
    else:
        _echo_replay(outcome, fmt, render)
        if recorded:
            click.echo()
            click.echo(f"Recorded into {path}:")
            row, result, state = recorded
            click.echo(_summary(row, result))
            click.echo(_next_line(state, state.rules))
    if outcome.problems:
        sys.exit(1)


def _echo_replay(outcome, fmt, render) -> None:
    words = "declarer" if outcome.rules.is_schafkopf else "picker"
    side = ", ".join((outcome.picker, *outcome.partners))
    bury = " ".join(map(str, outcome.bury))
    head = f"{outcome.rules.name} rules, {len(outcome.players)} players; {outcome.dealer} deals."
    head += f" {outcome.picker} picks" if not outcome.rules.is_schafkopf else \
        f" {outcome.picker} declares"
    if bury:
        head += f", buries {bury} ({sum(c.points for c in outcome.bury)} points)"
    head += f" and {outcome.call_text}"
    if outcome.partners:
        head += f": {', '.join(outcome.partners)} {'is' if len(outcome.partners) == 1 else 'are'}"
        head += " the partner" + ("s" if len(outcome.partners) > 1 else "")
    click.echo(head + ".")
    rows = [(t.number, t.leader, " ".join(f"{p} {c}" for p, c in t.plays), t.winner,
             f"{t.card} ({t.why})", t.points) for t in outcome.tricks]
    click.echo(render(("Trick", "Led by", "Cards played", "Won by", "With", "Points"), rows, fmt,
                      ("right", "left", "left", "left", "left", "right")))
    if fmt == "csv":
        return
    click.echo()
    runs = f"; runs: {outcome.runs}" if outcome.runs is not None else ""
    click.echo(f"The {words}'s side ({side}) took {outcome.points} card points"
               f"{' with the bury' if outcome.bury else ''} and {outcome.side_tricks} of "
               f"{len(outcome.tricks)} tricks{runs}.")
    if outcome.score is not None:
        click.echo(_score_table(outcome.score, fmt=fmt))
    click.echo()
    if outcome.problems:
        click.echo(f"Found wrong ({len(outcome.problems)}):")
        for problem in outcome.problems:
            click.echo(f"- {problem}")
    else:
        click.echo("Nothing found wrong: every card was played by the rules.")


# --- guided entry --------------------------------------------------------------------------------


class _Stop(Exception):
    """The table is done: an empty answer where a hand would start, or Ctrl-D."""


def _ask(question, check, default=None):
    """Ask until `check` accepts the answer (it returns the value or raises ScorepadError).

    An answer `check` refuses is explained on one line and asked again; Ctrl-D stops the loop.
    """
    while True:
        try:
            answer = click.prompt(question, default=default if default is not None else "",
                                  show_default=default not in (None, ""))
        except click.exceptions.Abort:
            raise _Stop from None
        try:
            return check(answer.strip())
        except ScorepadError as exc:
            click.echo(f"  {str(exc).strip()}", err=True)


def _whole(low, high, blank=None):
    def check(text):
        if text == "" and blank is not None:
            return blank[0]
        if not text.lstrip("-").isdigit() or not low <= int(text) <= high:
            raise ScorepadError(f"give a whole number from {low} to {high}")
        return int(text)

    return check


def _yes(text):
    if text.lower() in ("y", "yes"):
        return True
    if text.lower() in ("", "n", "no"):
        return False
    raise ScorepadError("answer y or n")


def _one_of(names, extra=(), allow_blank=False):
    from .scoring import find_player

    def check(text):
        if text == "" and allow_blank:
            return None
        if text.lower() in extra:
            return text.lower()
        return find_player(text, names, "")

    return check


@cli.command(context_settings=CONTEXT_SETTINGS)
@click.pass_obj
def play(path):
    """Record the night hand by hand, answering questions (the table's guided mode).

    For each hand it asks who picked (or leaster / doubler), the partner, the points, the tricks
    and any doublings, offering the session's names; shows the hand's points and asks before
    recording it; then shows the totals. Every answer is checked as `hand` checks it, and a
    wrong one is asked again; nothing is recorded half way. An empty answer to "Who picked?"
    or Ctrl-D ends it.

    Example:

    \b
        scorepad -f friday.csv play
    """
    from .render import Points, render

    state = _resume(path)  # a missing or damaged file stops here, before any question
    click.echo(f"Recording into {path} ({state.rules.name} rules). An empty answer to "
               f"'Who picked?' or Ctrl-D ends.")
    while True:
        try:
            recorded = _play_one(path)
        except _Stop:
            break
        if recorded is None:
            continue
        row, result, state = recorded
        click.echo(_totals_table(state))
        race = _race_line(state)
        if race:
            click.echo(race)
            break
    state = _resume(path)
    order = sorted(state.totals, key=lambda p: -state.totals[p])
    click.echo()
    click.echo("Standings:")
    click.echo(render(("Player", "Total"), [(p, Points(state.totals[p])) for p in order],
                      colalign=("left", "right"), color=use_color("text")))


def _play_one(path):
    """Ask for one hand and record it; returns what was recorded, or None to start over."""
    from .scoring import LeasterHand, PickerHand, score, seat
    from .session import now

    state = _resume(path)
    rules = state.rules
    seating = seat(rules, state.seated, state.next_dealer)
    players = list(seating.order)
    click.echo()
    line = _next_line(state, rules).removeprefix("Next: h").rstrip(".")
    click.echo(f"H{line}.")
    extra = {"leaster": "leaster", "doubler": "doubler"}.get(rules.all_pass)
    choices = ", ".join(players + ([extra] if extra else []))
    who = _ask(f"Who picked? ({choices}; Enter to stop)",
               _one_of(players, (extra,) if extra else (), True))
    if who is None:
        raise _Stop
    if who == "doubler":
        if not _ask("Record a doubler (the next hand is doubled)? [Y/n]",
                    lambda t: _yes(t or "y")):
            return None
        row, result, state = _record(path, lambda s: (s.record_doubler(note="", time=now()),
                                                      None))
        click.echo(_summary(row))
        return row, result, state
    if who == "leaster":
        winner = _ask(f"Who won the leaster? ({', '.join(players)})", _one_of(players))
        hand = LeasterHand(state.seated, winner=winner)
    else:
        hand = _ask_picker_hand(state, seating, who)
    try:
        preview = score(rules, _preview(state, hand))
    except ScorepadError as exc:
        click.echo(f"  {exc}. Let's take that hand again.", err=True)
        return None
    click.echo(_score_table(preview))
    if not _ask(f"Record hand {state.last_hand + 1}? [Y/n]", lambda t: _yes(t or "y")):
        click.echo("Not recorded.")
        return None
    row, result, state = _record(path, lambda s: s.record(hand, "", now()))
    click.echo(_summary(row, result))
    return row, result, state


def _preview(state, hand):
    """The hand as `record` would score it (dealer and doublings from the session)."""
    from dataclasses import replace

    from .ledger import canonical

    hand = canonical(state.rules, replace(hand, players=state.seated), state.seated)
    return replace(hand, dealer=hand.dealer or state.next_dealer, doubled=state.doubled_next())


def _ask_picker_hand(state, seating, picker):
    from .scoring import PickerHand

    rules = state.rules
    others = [p for p in seating.order if p != picker]
    game, partners, alone = None, (), False
    if rules.is_schafkopf:
        games = sorted(rules.game_values, key=lambda g: (rules.game_values[g], g))

        def pick_game(text):
            if text not in games:
                raise ScorepadError(f"choose one of {', '.join(games)}")
            return text

        game = _ask(f"Game? ({', '.join(games)})", pick_game, "partner")
        if game == "partner":
            partners = (_ask(f"Who held the called ace, the partner? ({', '.join(others)})",
                             _one_of(others)),)
    elif seating.deal.partners:
        def pick_partners(text):
            if text.lower() == "alone":
                return "alone"
            names = tuple(_one_of(others)(n.strip()) for n in text.split(",") if n.strip())
            if not names:
                raise ScorepadError("name the partner, or say alone")
            if len(names) > seating.deal.partners:
                raise ScorepadError(f"at most {seating.deal.partners} partner(s)")
            return names

        answer = _ask(f"Partner? ({', '.join(others)}, alone)", pick_partners)
        alone = answer == "alone"
        partners = () if alone else answer
    else:
        alone = True
    tricks_in_hand = seating.deal.cards
    points = _ask("Card points of the picker's side, bury included (0-120)?", _whole(0, 120))
    tricks = _ask(f"Tricks the picker's side took (0-{tricks_in_hand}; Enter if not counted)?",
                  _whole(0, tricks_in_hand, blank=(None,)))
    crack = recrack = None
    if rules.cracks:
        side = {picker, *partners}
        after = seating.order[seating.order.index(picker) + 1:]
        can = [p for p in (after if rules.crack_by == "after-picker" else seating.order)
               if p not in side]
        if can:
            word = "Stoss" if rules.is_schafkopf else "Cracked"
            crack = _ask(f"{word} by? ({', '.join(can)}; Enter for nobody)",
                         _one_of(can, allow_blank=True))
            if crack:
                recrack = _ask("Re-cracked? [y/N]", _yes)
    runs = _ask("Runs? (0 for none)", _whole(0, 14), "0") if rules.is_schafkopf else None
    blitz = _ask("Blitzes shown? (0-2)", _whole(0, 2), "0") if rules.blitz else 0
    forced = False
    if rules.all_pass == "forced" and picker == seating.dealer:
        forced = _ask("Was the pick forced? [y/N]", _yes)
    return PickerHand(state.seated, picker, points, partners=tuple(partners), alone=alone,
                      tricks=tricks, crack=crack, recrack=bool(recrack), forced=forced,
                      game=game, runs=runs, blitz=blitz)


def main(args=None, prog_name="scorepad"):
    """Run the command line (the `scorepad` console script)."""
    cli.main(args=args, prog_name=prog_name)
