"""What the commands share: options, completion, error lines, and the session helpers.

Only the `scorepad.cli` package imports click. Commands live in small modules that the
`scorepad` group loads when they are called, so a command starts without building the others.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import ScorepadError, worded
from ..games import GAMES as GAME_NAMES
from ..i18n import LANGUAGES, N_, joined, ngettext
from ..i18n import gettext as _
from ..names import PRESETS
from ..names import PRESETS as PRESET_NAMES

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

    from ..hands import Input
    from ..ledger import Ledger, Memo
    from ..reports import PlayerStats
    from ..rules import Rules
    from ..scoring import Hand, Score
    from ..session import Head, Session, Waiting
    from ..store.format import Row


CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


# --- the language of a call (the German machinery is `_language`, imported only for it) ---

_TOP_OPTIONS_WITH_VALUE = ("-f", "--file", "--wait")


def language_of(args: Sequence[str]) -> str | None:
    """The `--lang` given, before the command's name (a top-level option) or after it (every
    command takes it too: `scorepad standings --lang de`); the last one given counts, and
    nothing after `--` is an option."""
    found = None
    words = iter(args)
    for word in words:
        if word == "--":
            break
        if word == "--lang":
            found = next(words, None)
        elif word.startswith("--lang="):
            found = word.partition("=")[2]
        elif word in _TOP_OPTIONS_WITH_VALUE:
            next(words, None)
    return found


LANG_HELP = N_(
    "The language to speak (else $SCOREPAD_LANG, else the locale's, else English). "
    "What programs read (CSV, JSON, the session file) is never translated."
)


def lang_option() -> click.Option:
    """`--lang`, as the top level takes it (the language is chosen before click parses: see
    `language_for`); every command takes it too, unlisted in its help (`with_lang`)."""
    return click.Option(
        ["--lang"],
        type=click.Choice(LANGUAGES),
        metavar="de|en",
        expose_value=False,
        hidden=True,
        help=LANG_HELP,
    )


_GIVEN_LANG = "_scorepad_lang"


def with_lang(command: click.Command) -> click.Command:
    """Let `command` (and a group's commands, all the way down) take `--lang` after its name,
    as the top level takes it before: `scorepad tournament standings DIR --lang de`. A command
    with a `--lang` of its own (`serve`'s, the page's language) keeps it."""
    if command.__dict__.get(_GIVEN_LANG):
        return command
    command.__dict__[_GIVEN_LANG] = True
    if not any("--lang" in getattr(p, "opts", ()) for p in command.params):
        command.params.append(lang_option())
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            with_lang(sub)
    return command


MACHINE_FORMATS = ("csv", "json", "toml", "tsv")
"""The formats programs read: a command given one speaks English throughout."""


def for_programs(args: Sequence[str]) -> bool:
    """Whether the command line asks for output for programs (`--format csv|json|toml|tsv`)."""
    for before, word in zip(["", *args], args):
        if before == "--format" and word in MACHINE_FORMATS:
            return True
        if word.startswith("--format=") and word.partition("=")[2] in MACHINE_FORMATS:
            return True
    return False


def language_for(args: Sequence[str] | None) -> str:
    """The language of this call: `--lang` (before the command or after it), else the
    environment's (`i18n.choose`); English for output that programs read."""
    from .. import i18n

    words = sys.argv[1:] if args is None else list(args)
    typed = language_of(words)
    if for_programs(words):
        return "en"
    return i18n.choose(typed if typed in i18n.LANGUAGES else None)


class Translated(str):
    """A message click formats itself (`--version`'s), translated as it is formatted."""

    __slots__ = ()

    def __mod__(self, values: Any) -> str:
        return str(_(str(self)) % values)


N_("%(prog)s %(version)s")


class WholeHelpGroup(click.Group):
    """A group whose list of commands shows the whole first sentence of each one's help."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands with the whole first sentence of each one's help, wrapped (click's
        own list cuts it mid-sentence to fit one line)."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=300)))
        if rows:
            with formatter.section(_("Commands")):
                formatter.write_dl(rows)


class GameChoice(click.Choice):  # type: ignore[type-arg]
    """`--game`: a game's name, or its German name where it differs (`rufspiel`, `sauspiel`:
    the partner game), as written or in capitals."""

    def __init__(self) -> None:
        super().__init__(GAME_NAMES)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from ..games import ALIASES

        if isinstance(value, str):
            value = ALIASES.get(value.strip().lower(), value)
        return super().convert(value, param, ctx)


class _TypeName(str):
    """A number type's name ("integer") that reads in the language in force where click's
    message shows it (`'x' is not a valid integer.`); its metavar (INTEGER) stays as written."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return format(_(str(self)), spec)


class _Ascii:
    """A click number type that takes only the ASCII digits 0-9 (with a sign, and for a float
    a `.`), as every number scorepad reads: Python's `int` and `float` would also take `7_0`
    and other scripts' digits (`٧٠`). Spaces around the number are fine. Text that is no
    number to Python either gets click's own message."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            text = value.strip()
            digits = text[1:] if text[:1] in ("+", "-") else text
            whole, dot, part = digits.partition(".")
            floats = isinstance(self, click.FloatRange)
            if not (
                digits.isascii()
                and (whole or part)
                and (not whole or whole.isdigit())
                and (not part or part.isdigit())
                and (not dot or floats)
            ) and _python_reads(text, floats):
                if floats:
                    text = _(
                        "{value} is not a number (the digits 0-9, a point and a sign, nothing else)"
                    )
                else:
                    text = _(
                        "{value} is not a whole number (the digits 0-9 and a sign, nothing else)"
                    )
                self.fail(text.format(value=repr(value[:40])), param, ctx)  # type: ignore[attr-defined]
            value = text
        return super().convert(value, param, ctx)  # type: ignore[misc]


def _python_reads(text: str, floats: bool) -> bool:
    """Whether Python's `float` (or `int`) reads the text as a number (NaN aside: an option
    that takes one says what it is not)."""
    try:
        number = (float if floats else int)(text)
    except ValueError:
        return False
    return number == number


class Whole(_Ascii, click.types.IntParamType):
    """A whole number (`type=Whole()` where click would take `type=int`)."""

    name = _TypeName(N_("integer"))


class WholeRange(_Ascii, click.IntRange):
    """A whole number in a range (click.IntRange, of ASCII digits only)."""


class NumberRange(_Ascii, click.FloatRange):
    """A number in a range (click.FloatRange, of ASCII digits only: no `nan`, no `1e3`)."""


def placings_option(help: str) -> Callable[..., Any]:
    """Add `--placings [N,N,...]` (`placings_spec`: the points by place, "default" when given
    bare, None when not given)."""
    return click.option(
        "--placings",
        "placings_spec",
        is_flag=False,
        flag_value="default",
        default=None,
        metavar="[N,N,...]",
        help=help,
    )


def escaped(message: str) -> str:
    """A message as it may reach a terminal: each character that is not printable (a control
    character, a bidirectional override, ...) written as its escape, `\\x1b`."""
    if message.isprintable():
        return message
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def echo_error(message: str) -> None:
    """Print `Error: message` on one line: control characters the user typed are escaped."""
    click.echo(_("Error: {message}").format(message=escaped(message)), err=True)


def complete_rules(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    from click.shell_completion import CompletionItem

    names = [CompletionItem(n) for n in PRESET_NAMES if n.startswith(incomplete)]
    return names or [CompletionItem(incomplete, type="file")]


def complete_setting(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    from click.shell_completion import CompletionItem

    from ..rules import load_rules, values_of

    key, equals, typed = incomplete.partition("=")
    if equals:  # KEY=<TAB>: a choice's choices (true and false for a yes-or-no setting)
        return [
            CompletionItem(f"{key}={value}") for value in values_of(key) if value.startswith(typed)
        ]
    before: tuple[str, ...] = tuple(ctx.params.get("changes") or ())
    if len(before) >= 2 and before[-1] == "=":  # (bash breaks KEY=VALUE into KEY, =, VALUE)
        return [CompletionItem(v) for v in values_of(before[-2]) if v.startswith(incomplete)]
    try:
        keys = load_rules(ctx.params.get("rules_spec")).flat()
    except ScorepadError:
        return []
    return [CompletionItem(f"{key}=") for key in keys if key.startswith(incomplete)]


def complete_player(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The players a name option may name: from --players on the line, else the players
    seated now in the session file. A name with a space is offered quoted, as the shell needs
    it."""
    import shlex

    from click.shell_completion import CompletionItem

    from ..scoring import same_name

    players = ctx.params.get("players")
    if not players:  # a session command: the players seated now
        from ..session import Session

        path = ctx.obj if isinstance(ctx.obj, Path) else ctx.find_root().params.get("session_file")
        try:
            players = Session(path or Path("scorepad.csv")).state().seated
        except (ScorepadError, OSError):
            players = ()
    wanted = same_name(incomplete.strip("'\""))
    return [
        CompletionItem(shlex.quote(p) if not p.isalnum() else p)
        for p in players
        if same_name(p).startswith(wanted)
    ]


def open_session(path: Path) -> Session:
    """The session at `path`, waiting for another scorepad's lock as `--wait` says (and saying
    so on stderr when the wait is longer than a moment)."""
    from ..session import Session

    most_hands = None
    if path.name.startswith("table-") and path.parent.name.startswith("round-"):
        from ..tournament_store import round_hands  # (a tournament's table, maybe: only then)

        most_hands = round_hands(path)
    return Session(path, waiting(), most_hands)


def waiting() -> Waiting:
    """How to wait for another scorepad's lock: as `--wait` says, saying so on stderr when
    the wait is longer than a moment."""
    from ..session import DEFAULT_WAIT, Waiting

    ctx = click.get_current_context(silent=True)
    seconds = ctx.meta.get("scorepad.wait", DEFAULT_WAIT) if ctx else DEFAULT_WAIT
    return Waiting(seconds, lambda text: click.echo(text, err=True))


def _file_here(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
    if value is not None:
        ctx.obj = value  # what the command is passed (`pass_obj`): this file, not the group's


def session_file_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add `-f/--file` to a command, so the session file may also follow the command's name
    (`scorepad standings -f friday.csv`), as people type it."""
    return click.option(
        "-f",
        "--file",
        type=click.Path(dir_okay=False, path_type=Path),
        expose_value=False,
        callback=_file_here,
        metavar="FILE",
        help="The session file (also accepted before the command).",
    )(command)


# A live board's options (`serve`, `tournament serve`): where it listens, what it answers to.
host_option = click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on; 0.0.0.0 lets phones on the same network in.",
)
port_option = click.option(
    "--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="The port."
)
allow_host_option = click.option(
    "--allow-host",
    "allow_hosts",
    metavar="NAME",
    multiple=True,
    help="One more host name the page may be opened by (repeatable): a name of this machine.",
)
max_listeners_option = click.option(
    "--max-listeners",
    default=256,  # (web.follow.MAX_LISTENERS: the board's modules load only as it starts)
    show_default=True,
    type=click.IntRange(1, 100_000),
    metavar="N",
    help="The most clients listening to the live events at once (past it the one listening "
    "longest is let go, and its page reconnects); at most half the connections.",
)
page_language_option = click.option(
    "--lang",
    "language",
    type=click.Choice(LANGUAGES),
    metavar="de|en",
    help="The page's language (else each browser's, as it asks: Accept-Language).",
)


def rules_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add `--rules NAME|PATH` and `--set KEY=VALUE` to a command."""
    command = click.option(
        "--set",
        "overrides",
        multiple=True,
        metavar="KEY=VALUE",
        shell_complete=complete_setting,
        help="Override one setting for this call (repeatable), e.g. --set "
        "double_on_the_bump=true. `scorepad rules` lists every setting.",
    )(command)
    return click.option(
        "--rules",
        "rules_spec",
        metavar="NAME|PATH",
        shell_complete=complete_rules,
        help=f"Rules preset ({', '.join(PRESETS)}) or a TOML rules file. Default: standard.",
    )(command)


def format_option(*choices: str) -> Callable[..., Any]:
    """Add `--format` with the given choices (the first is the default)."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(choices),
        default=choices[0],
        show_default=True,
        help="Output format.",
    )


class FormatType(click.ParamType):  # type: ignore[type-arg]  # (generic from click 8.4 on)
    """text, csv, json, any of tabulate's table formats, and any extra formats a command has.

    tabulate's list is read only when a format outside the usual three is given, so a command
    does not pay for importing tabulate just to check its options.
    """

    name = "format"

    def __init__(self, extra: tuple[str, ...] = ()):
        self.extra = extra

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if value in ("text", "csv", "json", *self.extra):
            return str(value)
        if value == "markdown":  # what people call it; tabulate calls it github (or pipe)
            return "github"
        from ..render import table_formats

        known = [*table_formats(), *self.extra]
        if value in known:
            return str(value)
        self.fail(
            _("{value} is not a format; use one of {formats}").format(
                value=repr(value), formats=", ".join(known)
            ),
            param,
            ctx,
        )

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        from ..render import table_formats

        return [
            CompletionItem(f) for f in [*table_formats(), *self.extra] if f.startswith(incomplete)
        ]


def table_format_option(*extra: str) -> Callable[..., Any]:
    """Add `--format`: text (the default), csv, json, any tabulate format, and `extra`."""
    more = "".join(f", {e}" for e in extra)
    return click.option(
        "--format",
        "fmt",
        type=FormatType(extra),
        default="text",
        show_default=True,
        metavar="FORMAT",
        help=f"text, csv, json{more}, or a tabulate table format such as grid, "
        f"github, markdown or rounded_outline.",
    )


def use_color(fmt: str) -> bool:
    """Colour points in a table on a terminal, unless NO_COLOR is set or the output is data."""
    return (
        fmt not in ("csv", "json", "toml")
        and not os.environ.get("NO_COLOR")
        and sys.stdout.isatty()
    )


def _csv_items(value: str) -> list[str]:
    """Split an option's comma-separated value (a name may be in double quotes)."""
    import csv

    if any(c in value for c in "\r\n"):
        raise click.BadParameter(_("a list of names is one line: it cannot hold a line break"))
    try:
        rows = list(csv.reader([value], skipinitialspace=True))
    except csv.Error as exc:
        raise click.BadParameter(
            _("{value} is not a list of names: {reason}").format(value=repr(value[:40]), reason=exc)
        ) from None
    return [item.strip() for item in rows[0]] if rows else [""]


def split_names(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(_csv_items(value))


def _split_pairs(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> dict[str, int] | None:
    """Read `A=N,B=N,...` into a dict of name to whole number."""
    if value is None:
        return None
    from ..store.format import whole

    pairs = {}
    for item in _csv_items(value):
        name, sep, number = item.rpartition("=")
        name, number = name.strip(), number.strip()
        if not sep or not name or whole(number) is None:
            raise click.BadParameter(
                _("{item}: write NAME=N, e.g. Ann=10,Bob=25").format(item=repr(item))
            )
        if len(number) > 6:
            raise click.BadParameter(
                _("{item}: more card points than a deck holds").format(item=repr(item[:40]))
            )
        if name in pairs:
            raise click.BadParameter(_("{name} is given twice").format(name=name))
        pairs[name] = int(number)
    return pairs


def option_word(name: str) -> str:
    """How the command line names an input or a setting in a message: its option (`--partner`
    for partners), or `--NAME` for the options that are not a hand's (--players, --set)."""
    from ..hands import BY_NAME

    found = BY_NAME.get(name)
    return "--" + (found.option if found else name.replace("_", "-"))


def _input_option(item: Input, amend: bool) -> Callable[..., Any]:
    """The click option of one of a hand's inputs (see `hands.INPUTS`)."""
    from ..hands import Type

    word = f"--{item.option}"
    text = worded((item.amend_help or item.help) if amend else item.help, option_word)
    if item.type == Type.FLAG:
        if amend:
            return click.option(f"{word}/--no-{item.option}", item.name, default=None, help=text)
        return click.option(word, item.name, is_flag=True, help=text)
    if item.type == Type.KIND:
        return click.option(word, item.name, is_flag=True, help=text)
    extra: dict[str, Any] = {"metavar": item.metavar or None}
    if item.type in (Type.NAME, Type.NAMES):
        extra["shell_complete"] = complete_player
        extra["multiple"] = item.type == Type.NAMES
    elif item.type in (Type.INT, Type.COUNT):
        extra["type"] = Whole()
    elif item.type == Type.COUNTS:
        extra["callback"] = _split_pairs
    elif item.type == Type.GAME:
        extra = {"type": GameChoice()}
    elif item.type == Type.CALL:
        extra["shell_complete"] = _complete_call
    return click.option(word, item.name, help=text, **extra)


def _complete_call(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The words `--called` takes (the table's rules check which of them it writes)."""
    from click.shell_completion import CompletionItem

    from ..scoring.called import WORDS

    return [CompletionItem(w) for w in WORDS if w.startswith(incomplete.lower())]


def _bock_cell(ctx: click.Context, param: click.Parameter, value: int | None) -> str | None:
    """`--bock N` as a hand's `bock` input holds it (`xN`)."""
    return None if value is None else f"x{value}"


def hand_options(amend: bool = False) -> Callable[..., Any]:
    """Add the options of one hand (`hands.OPTIONS`); under `amend` every flag also has a
    --no- form."""
    from ..hands import OPTIONS

    options = [_input_option(item, amend) for item in OPTIONS]
    if amend:
        options.append(click.option("--no-crack", is_flag=True, help="Nobody cracked."))
    else:
        options.append(
            click.option(
                "--doubled",
                count=True,
                help="The hand is doubled by a doubler before it (give twice for x4). A session "
                "works this out itself.",
            )
        )
        options.append(
            click.option(
                "--bock",
                type=WholeRange(min=2, max=4096),  # (rules.MAX_BOCK)
                callback=_bock_cell,
                metavar="N",
                help="The hand is a Bock hand, xN (2; 4 for a Doppelbock). A session works "
                "this out itself.",
            )
        )

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def build_hand(players: tuple[str, ...], params: dict[str, Any], out: Sequence[str] = ()) -> Hand:
    """The hand the options describe (`hands.build_hand`); options that do not go together
    are a usage mistake (exit 2)."""
    from ..errors import HandError
    from ..hands import build_hand as build

    try:
        return build(players, params, out)
    except HandError as exc:
        raise click.UsageError(str(exc)) from None


def score_table(result: Score, totals: Mapping[str, int] | None = None, fmt: str = "text") -> str:
    from ..render import Points, Word, render

    headers = ["Player", "Role", "Points"] + (["Total"] if totals is not None else [])
    rows = []
    for player, role in result.roles.items():
        row = [
            player,
            Word(role),
            Points(result.deltas[player]) if player in result.deltas else None,
        ]
        if totals is not None:
            row.append(Points(totals[player]))
        rows.append(row)
    return render(
        headers, rows, fmt, ("left", "left", "right", "right")[: len(headers)], use_color(fmt)
    )


def rules_in_force(head: Head, state: Ledger) -> str:
    """The rules in force in a session, in a few words (see `reports.rules_in_force`)."""
    from ..reports import rules_in_force as words

    return words(head, state)


def rules_sentence(rules: Rules) -> str:
    return _("Rules: {rules}.").format(rules=rules.summary())


def next_line(state: Ledger) -> str:
    """`Next: hand 2, Ann deals, Bob leads.` (see `reports.next_hand`)."""
    from ..reports import next_hand

    return next_hand(state).text()


def race_line(state: Ledger) -> str | None:
    if state.race_winners:
        return ngettext(
            "{players} reaches {target} and wins the night!",
            "{players} reach {target} and win the night!",
            len(state.race_winners),
        ).format(players=joined(state.race_winners), target=state.rules.target)
    return None


def echo_recorded(
    path: Path, row: Row, result: Score | None, state: Ledger, fmt: str, explain: bool = False
) -> None:
    if fmt == "json":
        from ..render import to_json
        from ..reports import recorded_record

        click.echo(to_json(recorded_record(path, row, result, state)))
        return
    table = (
        score_table(result, state.totals, fmt) if result is not None else totals_table(state, fmt)
    )
    if fmt == "csv":
        click.echo(table)
        return
    from ..reports import summary_text

    click.echo(summary_text(row, result))
    click.echo(table)
    if explain and result is not None:
        click.echo()
        for line in result.explanation:
            click.echo(line)
    click.echo()
    race = race_line(state)
    if row.last and not race:
        click.echo(_("That was the night's last hand: settle up with `scorepad settle`."))
        return
    click.echo(race if race else next_line(state))


def totals_table(state: Ledger, fmt: str = "text") -> str:
    from ..render import Points, render

    return render(
        ("Player", "Total"),
        [(p, Points(state.totals[p])) for p in state.totals],
        fmt,
        ("left", "right"),
        use_color(fmt),
    )


def night_stats(
    session: Session, memo: Memo | None = None
) -> tuple[Head, Ledger, dict[str, PlayerStats]]:
    """The checked night and every player's numbers (one pass; `memo`: where scored hands are
    remembered, for the next night of a season)."""
    from ..reports import PlayerCounts

    with session.reading() as reading:  # the head and the rows of one version of the file
        counts = PlayerCounts(reading.head.players)
        ledger = reading.night(counts=counts, memo=memo)
    return reading.head, ledger, counts.finish()


def session_files(sources: Sequence[Path]) -> list[Path]:
    """The session files that files and folders name: a file itself; a tournament's folder,
    its tables' files; another folder, its *.csv (or a folder of them per night). A file given
    twice is refused."""
    files: list[Path] = []
    for source in sources:
        if source.is_dir():
            if (source / "tournament.toml").is_file():
                files += sorted(source.glob("round-*/table-*.csv"))
            else:
                files += sorted(source.glob("*.csv")) or sorted(source.glob("*/*.csv"))
        else:
            files.append(source)
    if not files:
        raise ScorepadError(
            _("no session files (*.csv) in {folders}").format(folders=", ".join(map(str, sources)))
        )
    seen: dict[Path, Path] = {}
    for file in files:
        same = seen.setdefault(file.resolve(), file)
        if same is not file:
            raise ScorepadError(
                _("{file}: this night is given twice (also as {other})").format(
                    file=file, other=same
                )
            )
    return files
