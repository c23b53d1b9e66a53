"""The `scorepad` command line: thin commands over the domain core.

This package is the only place that imports click. Each command parses its options, calls one
or two domain functions and renders the result. Every `ScorepadError` and every usage mistake
becomes a one-line `Error: …` on stderr and a non-zero exit (1 for a bad hand or rules, 2 for
bad usage); any other exception is a bug and keeps its traceback. The commands are loaded when
called (a lazy group), so recording a hand does not build every other command first.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from .. import __version__
from ..errors import ScorepadError, set_wording
from ..i18n import LANGUAGES
from ..i18n import gettext as _
from ._common import (
    CONTEXT_SETTINGS,
    LANG_HELP,
    NumberRange,
    Translated,
    WholeHelpGroup,
    echo_error,
    language_for,
    option_word,
    use_color,
    with_lang,
)

set_wording(option_word)  # the domain's messages name inputs; here they are options

__all__ = ["cli", "main", "use_color"]

COMMANDS = {
    "check": "cards.check",
    "rules": "cards.rules_command",
    "count": "cards.count",
    "trick": "cards.trick",
    "replay": "cards.replay_command",
    "analyze": "analyze.analyze",
    "import": "importing.import_command",
    "new": "night.new",
    "hand": "hand.hand",
    "status": "night.status",
    "standings": "night.standings",
    "sheet": "night.sheet",
    "verify": "night.verify",
    "undo": "changes.undo",
    "redo": "changes.redo",
    "log": "night.log",
    "set": "changes.set_rules",
    "bock": "changes.bock",
    "void": "changes.void",
    "amend": "changes.amend",
    "penalty": "changes.penalty",
    "repair": "changes.repair",
    "seat": "changes.seat",
    "settle": "reports.settle",
    "stats": "reports.stats",
    "season": "reports.season",
    "chart": "reports.chart",
    "play": "play.play",
    "serve": "serve.serve",
    "tournament": "tournament.tournament",
    "rating": "rating.rating",
}
"""Every command, and where it lives (module.attribute within this package)."""

_SPEAKING = f"{__name__}._language"  # the module that speaks another language than English


class ScorepadGroup(WholeHelpGroup):
    """A click group that loads its commands when they are called, and reports every user
    error on one line with a non-zero exit."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        where = COMMANDS.get(name)
        if where is None:
            return None
        module, attribute = where.split(".")
        command: click.Command = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
        with_lang(command)  # (`scorepad standings --lang de`: before translating its help)
        if _SPEAKING in sys.modules:  # (a language other than English was spoken here)
            sys.modules[_SPEAKING].translate_help(command)
        return command

    def make_parser(self, ctx: click.Context) -> Any:
        """Click's parser, with the short options (`-f FILE`) also matched directly: click tries
        every option as a long one first, and each miss raises NoSuchOption with suggestions
        (importing difflib), about 1.5 ms for every command given -f."""
        parser = super().make_parser(ctx)
        long_options = getattr(parser, "_long_opt", None)
        short_options = getattr(parser, "_short_opt", None)
        if isinstance(long_options, dict) and isinstance(short_options, dict):
            for name, option in short_options.items():
                long_options.setdefault(name, option)
        return parser

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as exc:  # before click's own handling, which exits 1
            if exc.errno != errno.EPIPE:
                raise
            _reader_gone()

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        language = language_for(args)
        if language != "en" or _SPEAKING in sys.modules:
            from ._language import speak

            speak(language, self)
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Abort:
            click.echo(_("Aborted."), err=True)
            sys.exit(1)
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help())  # `scorepad` alone: the help, as asked for
            sys.exit(0)
        except click.ClickException as exc:
            hint = ""
            if isinstance(exc, click.UsageError) and exc.ctx is not None:
                hint = _("; see '{command} --help'").format(command=exc.ctx.command_path)
            echo_error(f"{exc.format_message().rstrip('.')}{hint}")
            sys.exit(exc.exit_code)
        except ScorepadError as exc:
            echo_error(str(exc))
            sys.exit(1)
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise
            _reader_gone()
        sys.exit(code if isinstance(code, int) else 0)


def _reader_gone() -> None:
    """The reader of the output went away (`scorepad sheet | head -1`): whatever the command
    wrote to the session is written; stop quietly, with success, and let nothing more be
    written to the closed pipe as Python exits."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # (a test's capture has no descriptor)
            os.dup2(devnull, stream.fileno())
    sys.exit(0)


def _seconds(ctx: click.Context, param: click.Parameter, value: float) -> float:
    if value != value:  # NaN, which every comparison (and so FloatRange) lets through
        raise click.BadParameter(_("not a number of seconds"))
    return value


@click.group(cls=ScorepadGroup, context_settings=CONTEXT_SETTINGS)
@click.option(
    "-f",
    "--file",
    "session_file",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="SCOREPAD_FILE",
    default="scorepad.csv",
    show_default=True,
    metavar="FILE",
    help="The session file (else $SCOREPAD_FILE, else scorepad.csv).",
)
@click.option(
    "--wait",
    type=NumberRange(0, 86400),
    callback=_seconds,
    envvar="SCOREPAD_WAIT",
    default=30,
    show_default=True,
    metavar="SECONDS",
    help="How long to wait while another scorepad holds the session's lock (else $SCOREPAD_WAIT).",
)
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    metavar="de|en",
    expose_value=False,
    help=LANG_HELP,
)
@click.version_option(
    __version__, "--version", prog_name="scorepad", message=Translated("%(prog)s %(version)s")
)
@click.pass_context
def cli(ctx: click.Context, session_file: Path, wait: float) -> None:
    """Keep score at a Sheepshead or Schafkopf table.

    Start a night with `new`, record each hand with `hand` as it ends, and see `standings` and
    the score `sheet` at any time. `check` scores a disputed hand without a session file, and
    `rules` shows the rules a table plays. Every command has its own help: scorepad COMMAND -h.

    Example:

    \b
        scorepad new --players Ann,Bob,Cy,Dee,Ed
        scorepad hand --picker Ann --partner Bob --points 64 --tricks 4
        scorepad standings

    Shell completion (commands, options, presets, settings and their choices, player names):

    \b
        eval "$(_SCOREPAD_COMPLETE=bash_source scorepad)"    # bash, in ~/.bashrc
        eval "$(_SCOREPAD_COMPLETE=zsh_source scorepad)"     # zsh, in ~/.zshrc
        _SCOREPAD_COMPLETE=fish_source scorepad | source     # fish
    """
    ctx.obj = session_file
    ctx.meta["scorepad.wait"] = wait


def main(args: Sequence[str] | None = None, prog_name: str = "scorepad") -> None:
    """Run the command line (the `scorepad` command and `python -m scorepad` call it)."""
    cli.main(args=args, prog_name=prog_name)
