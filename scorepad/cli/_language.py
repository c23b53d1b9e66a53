"""The language of the command line: chosen before click reads a word, and click taught it.

The language is `--lang` (a top-level option, read here before click parses anything, so
that its own messages, a usage mistake, are in that language too), else `$SCOREPAD_LANG`, else
the locale (see `i18n.choose`). In English nothing is loaded and nothing changed. In another
language click's messages are translated by scorepad's catalog (click words them with the
standard library's gettext, in the text domain in force: scorepad's is made so, see
`click_speaks`), and a command's help (its docstring and its options' help, written in English
where they are declared) is translated paragraph by paragraph as the command is loaded.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import click

from .. import i18n
from ..i18n import N_, N_plural

CLICK_MODULES = (
    "core",
    "exceptions",
    "parser",
    "formatting",
    "types",
    "decorators",
    "termui",
    "utils",
)

CLICK_MESSAGES = (
    N_("Usage:"),
    N_("[OPTIONS]"),
    N_("COMMAND [ARGS]..."),
    N_("Options"),
    N_("Commands"),
    N_("Show this message and exit."),
    N_("Show the version and exit."),
    N_("Missing option"),
    N_("Missing argument"),
    N_("Missing parameter"),
    N_("Missing command."),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_plural("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"),
    N_plural("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    N_plural(
        "Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."
    ),
    N_("Option {name!r} does not take a value."),
    N_plural("{value!r} is not {choice}.", "{value!r} is not one of {choices}."),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    N_("default: {default}"),
    N_("env var: {var}"),
    N_("required"),
    N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."),
    N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not readable."),
    N_("{name} {filename!r} is not writable."),
    N_("file"),
    N_("directory"),
    N_("path"),
    N_("Aborted!"),
    N_("Error: {message}"),
)
"""Click's own messages a user meets, translated in scorepad's catalog (their ids are click's)."""


def speak(code: str, root: click.Command) -> None:
    """Speak `code` in this process: scorepad's messages, click's, and the help of `root`
    (this module is imported only once a language other than English is spoken)."""
    i18n.use(code)
    click_speaks(code)
    translate_help(root)


_FOUND: list[tuple[str, str | None]] = []  # gettext's text domain and $LANGUAGE as found


def click_speaks(code: str) -> None:
    """Have click's own messages in `code`. click marks them with the standard library's
    `gettext`, which translates by the text domain in force, in the language `$LANGUAGE` names
    (before the locale's variables): in another language than English the domain is made
    scorepad's, whose catalog holds click's messages, and `$LANGUAGE` that language; in English
    both are as the process found them (gettext's default domain has no catalog: click's
    messages are as written)."""
    import gettext

    if not _FOUND:
        _FOUND.append((gettext.textdomain(), os.environ.get("LANGUAGE")))
    domain, language = _FOUND[0]
    if code != "en":
        gettext.bindtextdomain(i18n.DOMAIN, str(i18n.LOCALE_DIR))
        domain, language = i18n.DOMAIN, code
    gettext.textdomain(domain)
    if language is None:
        os.environ.pop("LANGUAGE", None)
    else:
        os.environ["LANGUAGE"] = language


_ENGLISH = "_scorepad_english"


def translate_help(command: click.Command) -> None:
    """Put a command's help, and its options', in the language in force (and back: the
    English is kept beside them, so one process may speak both, as the tests do). Only a
    command already loaded is translated; a group's are as they are loaded."""
    if i18n.language() == "en" and not hasattr(command, _ENGLISH):
        return
    for thing, names in _helped(command):
        english: dict[str, Any] = thing.__dict__.setdefault(
            _ENGLISH, {n: getattr(thing, n, None) for n in names}
        )
        for name in names:
            text = english.get(name)
            if isinstance(text, str):
                setattr(thing, name, metavar_text(text) if name == "metavar" else help_text(text))
    if getattr(command, "_help_option", None) is not None:
        # click makes -h/--help once, in the language then spoken: made again when shown
        command._help_option = None
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            translate_help(sub)


def _helped(command: click.Command) -> Iterator[tuple[Any, tuple[str, ...]]]:
    group = ("subcommand_metavar",) if isinstance(command, click.Group) else ()
    yield command, ("help", "short_help", "epilog", "options_metavar", *group)
    for param in command.params:
        yield param, ("help", "metavar")


METAVARS = (
    N_("FILE"),
    N_("SECONDS"),
    N_("NAME"),
    N_("TEXT"),
    N_("DIR"),
    N_("COLUMNS"),
    N_("LINES"),
    N_("AMOUNT"),
    N_("MONEY"),
    N_("SYMBOL"),
    N_("SUIT"),
    N_("LIST"),
    N_("FORMAT"),
    N_("PATH"),
    N_("PRESET"),
)
"""The placeholders of the help (`--file FILE`) said in the language in force (DATEI)."""


def metavar_text(metavar: str) -> str:
    """An option's placeholder in the language in force, each of its words (NAME|PATH) that
    is one of METAVARS translated; others (N, de|en) as they are."""
    if i18n.language() == "en":
        return metavar
    return "|".join(i18n.gettext(w) if w in METAVARS else w for w in metavar.split("|"))


def help_text(text: str) -> str:
    """Help as written (paragraphs apart by a blank line) in the language in force: each
    paragraph its own message, but a block kept as written (click's `\\b`) that holds only
    command lines, which read the same in every language."""
    if i18n.language() == "en":
        return text
    return "\n\n".join(_paragraph(p) for p in text.split("\n\n"))


def _paragraph(paragraph: str) -> str:
    """One paragraph of help translated: its message is the paragraph dedented, and the
    translation is indented as the paragraph was (click dedents the whole help as it shows it)."""
    if is_code(paragraph):
        return paragraph
    import textwrap

    indent = paragraph[: len(paragraph) - len(paragraph.lstrip(" "))]
    trailing = paragraph[len(paragraph.rstrip()) :]
    return textwrap.indent(i18n.gettext(message_of(paragraph)), indent) + trailing


def message_of(paragraph: str) -> str:
    """The message of a paragraph of help: the paragraph dedented, without its trailing space."""
    import textwrap

    return textwrap.dedent(paragraph).strip()


def is_code(paragraph: str) -> bool:
    """Whether a paragraph of help is a block of command lines alone (nothing to translate)."""
    lines = paragraph.strip(" ").split("\n")
    return (
        lines[0] == "\b"
        and "#" not in paragraph
        and all(line[:1] in (" ", "") for line in lines[1:])
    )


def paragraphs(text: str | None) -> list[str]:
    """The messages of a help text (what `help_text` translates)."""
    if not text:
        return []
    return [message_of(p) for p in text.split("\n\n") if p.strip() and not is_code(p)]
