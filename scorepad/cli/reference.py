"""The parts of the manual made from the code: the command reference and the table of settings.

`markdown()` walks the `scorepad` group (its commands loaded as a call would load them) and
writes every command and subcommand as Markdown: its help, its usage, its arguments and a table
of its options with their defaults. `settings_markdown()` writes every setting of the rules with
its value in each preset and its meaning. The manual's build puts each where a page has its
marker line (`GENERATED`; a MkDocs hook, `scripts/docs_hooks.py`), so neither can fall behind
the code; the command line never imports this module.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator

import click

MARKER = "<!-- the command reference, made from the commands -->"
"""The line of `docs/reference.md` that the build replaces with `markdown()`."""

SETTINGS_MARKER = "<!-- every setting, preset by preset, made from the presets -->"
"""The line of `docs/rules-and-presets.md` that the build replaces with `settings_markdown()`."""

_DEFAULT_IN_HELP = re.compile(r"\(?\b[Dd]efault: ([^.)]*)[.)]")


def markdown(group: click.Group | None = None) -> str:
    """The reference of `group` (the `scorepad` group unless given), every command in it."""
    if group is None:
        from . import cli

        group = cli
    lines = [line for ctx in _walk(_context(group, "scorepad", None)) for line in _one(ctx)]
    return "\n".join(lines) + "\n"


def settings_markdown() -> str:
    """Every setting a preset states: its value in each preset (— where a preset of the other
    family has none) and its meaning, as `scorepad rules` words it."""
    from ..names import PRESETS
    from ..rules import describe, load_rules

    presets = {name: {key: (v, m) for key, v, m in describe(load_rules(name))} for name in PRESETS}
    keys = list(dict.fromkeys(key for table in presets.values() for key in table))
    lines = [
        "| Setting | " + " | ".join(f"`{name}`" for name in PRESETS) + " | Meaning |",
        "|---" * (len(PRESETS) + 2) + "|",
    ]
    for key in keys:
        meaning = next(table[key][1] for table in presets.values() if key in table)
        values = [f"`{t[key][0]}`" if key in t and t[key][0] else "—" for t in presets.values()]
        lines.append("| " + " | ".join(map(_cell, (f"`{key}`", *values, meaning))) + " |")
    return "\n".join(lines) + "\n"


def commands(group: click.Group | None = None) -> Iterator[click.Context]:
    """A context for the group and each command under it, all the way down, in the order the
    reference shows them."""
    if group is None:
        from . import cli

        group = cli
    yield from _walk(_context(group, "scorepad", None))


GENERATED = {MARKER: markdown, SETTINGS_MARKER: settings_markdown}
"""Each marker line of the manual, and what the build puts in its place."""


def _walk(ctx: click.Context) -> Iterator[click.Context]:
    yield ctx
    command = ctx.command
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from _walk(_context(sub, name, ctx))


def _context(command: click.Command, name: str, parent: click.Context | None) -> click.Context:
    return command.context_class(command, info_name=name, parent=parent, **command.context_settings)


def _one(ctx: click.Context) -> Iterator[str]:
    """One command: `scorepad` and its commands are headings of level 2, a group's commands
    one level below their group."""
    command = ctx.command
    level = max(2, len(ctx.command_path.split()))
    yield f"{'#' * level} {ctx.command_path}"
    yield ""
    yield from _help(command.help or "")
    pieces = " ".join(command.collect_usage_pieces(ctx))
    yield "Usage:"
    yield ""
    yield "```text"
    yield f"{ctx.command_path} {pieces}".rstrip()
    yield "```"
    yield ""
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    if arguments:
        yield "Arguments: " + "; ".join(_argument(a, ctx) for a in arguments) + "."
        yield ""
    rows = [row for p in command.get_params(ctx) if (row := _option(p, ctx)) is not None]
    if rows:
        yield "| Option | Default | What it does |"
        yield "|---|---|---|"
        yield from rows
        yield ""
    if isinstance(command, click.Group):
        names = [n for n in command.list_commands(ctx) if _visible(command, ctx, n)]
        yield "Commands: " + ", ".join(
            f"[`{n}`](#{_anchor(f'{ctx.command_path} {n}')})" for n in names
        )
        yield ""


def _visible(group: click.Group, ctx: click.Context, name: str) -> bool:
    command = group.get_command(ctx, name)
    return command is not None and not command.hidden


def _anchor(heading: str) -> str:
    """The anchor MkDocs gives a heading of plain words (its `toc` slugify)."""
    return re.sub(r"[^\w\s-]", "", heading).strip().lower().replace(" ", "-")


def _help(text: str) -> Iterator[str]:
    """A command's help as Markdown: its paragraphs as written, and each paragraph click keeps
    as it is (`\\b`, the examples) as a block of text."""
    text = inspect.cleandoc(text).partition("\f")[0]
    for paragraph in re.split(r"\n\s*\n", text):
        if paragraph.startswith("\b"):
            yield "```text"
            yield inspect.cleandoc(paragraph[1:].strip("\n"))
            yield "```"
        else:
            yield " ".join(line.strip() for line in paragraph.splitlines())
        yield ""


def _argument(argument: click.Argument, ctx: click.Context) -> str:
    name = argument.make_metavar(ctx)
    default = argument.get_default(ctx, call=False)
    if argument.required:
        return f"`{name}` (required)"
    if _given(default):
        return f"`{name}` (default: {_value(default)})"
    return f"`{name}` (optional)"


def _option(param: click.Parameter, ctx: click.Context) -> str | None:
    if not isinstance(param, click.Option):
        return None
    record = param.get_help_record(ctx)
    if record is None:  # hidden: `--lang` after a command's name, described once at the top
        return None
    help_text = " ".join((param.help or "").split())
    cells = (f"`{record[0]}`", _default(param, ctx, help_text), _described(param, help_text))
    return "| " + " | ".join(_cell(cell) for cell in cells) + " |"


def _cell(text: str) -> str:
    """Text for a table's cell: a `|` outside code escaped (the table reads one in code as
    text, and would show the escape there)."""
    parts = text.split("`")
    return "`".join(part if at % 2 else part.replace("|", "\\|") for at, part in enumerate(parts))


def _described(param: click.Option, help_text: str) -> str:
    """What the option does: its help, with the range of a number it takes."""
    kind = param.type
    if isinstance(kind, click.IntRange | click.FloatRange):
        low, high = kind.min, kind.max
        if low is not None and high is not None:
            return f"{help_text} ({_value(low)} to {_value(high)})"
        if low is not None:
            return f"{help_text} (at least {_value(low)})"
    return help_text or "—"


def _default(param: click.Option, ctx: click.Context, help_text: str) -> str:
    """The option's default as a user meets it: its value (else what its help says the
    default is), where an environment variable can set it first, and whether it is needed."""
    if param.required:
        return "required"
    if isinstance(param.show_default, str):
        return param.show_default
    default = param.get_default(ctx, call=False)
    said = _DEFAULT_IN_HELP.search(help_text)
    if param.is_flag and not param.secondary_opts:
        shown = "—" if not param.expose_value else ("on" if default is True else "off")
    elif _given(default):
        shown = _value(default)
    elif said:
        shown = said.group(1)
    else:
        shown = "—"
    if param.envvar:
        names = [param.envvar] if isinstance(param.envvar, str) else list(param.envvar)
        shown = ", else ".join([*(f"`${name}`" for name in names), shown])
    return shown


def _given(default: object) -> bool:
    """Whether a default is a value (not click's marks for none: None, UNSET, '', ())."""
    if default is None or default == "" or default == () or default == []:
        return False
    return type(default).__name__ != "Sentinel"  # (click 8.3 on: UNSET)


def _value(value: object) -> str:
    if callable(value):
        return "computed"
    if isinstance(value, list | tuple):
        return ", ".join(_value(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"`{value}`"
