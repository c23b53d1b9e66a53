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
    players = ctx.params.get("players") or ()
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


def _split_names(ctx, param, value):
    if value is None:
        return None
    return tuple(name.strip() for name in value.split(","))


def _split_pairs(ctx, param, value):
    """Read `A=N,B=N,...` into a dict of name to whole number."""
    if value is None:
        return None
    pairs = {}
    for item in value.split(","):
        name, sep, number = item.partition("=")
        name, number = name.strip(), number.strip()
        if not sep or not name or not number.lstrip("-").isdigit():
            raise click.BadParameter(f"{item.strip()!r}: write NAME=N, e.g. Ann=10,Bob=25")
        if name in pairs:
            raise click.BadParameter(f"{name} is given twice")
        pairs[name] = int(number)
    return pairs


# --- commands -----------------------------------------------------------------------------------


@click.group(cls=ScorepadGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "--version", prog_name="scorepad",
                      message="%(prog)s %(version)s")
def cli():
    """Keep score at a Sheepshead or Schafkopf table.

    Score a hand, check a disputed one step by step, and see the rules a table plays. Every
    command has its own help: scorepad COMMAND --help.

    Example:

    \b
        scorepad check --players Ann,Bob,Cy,Dee,Ed --picker Ann --partner Bob --points 64
    """


_PICKER_ONLY = ("picker", "partners", "alone", "points", "tricks", "crack", "recrack", "forced",
                "game", "runs", "blitz")
_LEASTER_ONLY = ("winner", "leaster_points", "leaster_tricks")


def _option_name(param: str) -> str:
    return "--partner" if param == "partners" else "--" + param.replace("_", "-")


def _given(params: dict, names: tuple[str, ...]) -> list[str]:
    """The options among `names` that the user gave (flags set, counts above 0)."""
    return [_option_name(n) for n in names
            if not (params[n] is None or params[n] is False or params[n] == ()
                    or (n == "blitz" and params[n] == 0))]


@cli.command(context_settings=CONTEXT_SETTINGS)
@rules_options
@click.option("--players", required=True, callback=_split_names, metavar="A,B,C,...",
              help="Everyone at the table, in seat order (which is the picking order after the "
                   "dealer).")
@click.option("--dealer", metavar="NAME", shell_complete=_complete_player,
              help="Who dealt. Default: the last player listed.")
@click.option("--picker", metavar="NAME", shell_complete=_complete_player,
              help="Who picked (in Schafkopf: the declarer).")
@click.option("--partner", "partners", multiple=True, metavar="NAME",
              shell_complete=_complete_player, help="The picker's partner (repeatable).")
@click.option("--alone", is_flag=True, help="The picker went alone.")
@click.option("--points", type=int, metavar="N",
              help="Card points of the picker's side, bury included (0-120).")
@click.option("--tricks", type=int, metavar="N",
              help="Tricks the picker's side took. Without it, each side is taken to have won "
                   "a trick.")
@click.option("--crack", metavar="NAME", shell_complete=_complete_player,
              help="A defender cracked (Stoss in Schafkopf): x2.")
@click.option("--recrack", is_flag=True,
              help="The picker's side re-cracked (Gegenstoss): x2 more.")
@click.option("--doubled", count=True,
              help="The hand is doubled by a doubler before it (give twice for x4).")
@click.option("--forced", is_flag=True, help="The dealer was forced to pick (all_pass = forced).")
@click.option("--blitz", count=True,
              help="A blitz was shown (where the rules play blitz); give twice for two.")
@click.option("--game", type=click.Choice(GAME_NAMES),
              help="Schafkopf: the game declared. Default: partner.")
@click.option("--runs", type=int, metavar="N",
              help="Schafkopf: runs (consecutive top trumps held by one side).")
@click.option("--leaster", is_flag=True, help="Nobody picked: a leaster.")
@click.option("--winner", metavar="NAME", shell_complete=_complete_player,
              help="Leaster: who won.")
@click.option("--leaster-points", callback=_split_pairs, metavar="A=N,B=N,...",
              help="Leaster: each player's card points (adding up to 120); scorepad finds the "
                   "winner.")
@click.option("--leaster-tricks", callback=_split_pairs, metavar="A=N,B=N,...",
              help="Leaster: each player's tricks.")
@format_option("text", "json")
def check(rules_spec, overrides, players, dealer, fmt, leaster, doubled, **params):
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
    from .scoring import LeasterHand, PickerHand, score

    rules = load_rules(rules_spec, overrides)
    if leaster:
        stray = _given(params, _PICKER_ONLY)
        if stray:
            raise click.UsageError(f"{stray[0]} does not belong with --leaster")
        hand = LeasterHand(players, dealer, params["winner"], params["leaster_points"],
                           params["leaster_tricks"], doubled)
    else:
        stray = _given(params, _LEASTER_ONLY)
        if stray:
            raise click.UsageError(f"{stray[0]} belongs to a leaster; add --leaster")
        for needed in ("picker", "points"):
            if params[needed] is None:
                raise click.UsageError(f"Missing option '--{needed}' (or give --leaster)")
        hand = PickerHand(players, params["picker"], params["points"], dealer,
                          params["partners"], params["alone"], params["tricks"], params["crack"],
                          params["recrack"], doubled, params["forced"], params["game"],
                          params["runs"], params["blitz"])
    result = score(rules, hand)
    if fmt == "json":
        from .render import to_json

        click.echo(to_json({"rules": rules.name, "overrides": list(rules.overrides),
                            **result.to_dict()}))
        return
    from .render import render, signed

    rows = [(player, role, signed(result.deltas[player]) if player in result.deltas else "")
            for player, role in result.roles.items()]
    click.echo(render(("Player", "Role", "Points"), rows, colalign=("left", "left", "right")))
    click.echo()
    click.echo(_rules_line(rules))
    for line in result.explanation:
        click.echo(line)


def _rules_line(rules) -> str:
    line = f"Rules: {rules.name}"
    if rules.source != rules.name:
        line += f" ({rules.source}, from {rules.preset})"
    if rules.overrides:
        line += ", with " + ", ".join(rules.overrides)
    return line + "."


@cli.command("rules", context_settings=CONTEXT_SETTINGS)
@click.argument("spec", required=False, metavar="[NAME|PATH]", shell_complete=_complete_rules)
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              shell_complete=_complete_setting, help="Override one setting (repeatable).")
@format_option("text", "toml", "json")
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

    click.echo(f"{_rules_line(rules)} {rules.description}.")
    click.echo()
    click.echo(render(("Setting", "Value", "Meaning"), list(describe(rules))))


def main(args=None, prog_name="scorepad"):
    """Run the command line (the `scorepad` console script)."""
    cli.main(args=args, prog_name=prog_name)
