"""scorepad's messages and their translations: extract, update, compile, check.

    python scripts/messages.py            # extract the messages, update every .po, compile
    python scripts/messages.py --check    # list every message a language lacks (exit 1)
    python scripts/messages.py --add fr   # start a new language's catalog (then translate it)

The messages are (1) the strings the code marks (`_()`, `gettext()`, `ngettext()`, `N_()`,
`N_plural()`), extracted with Babel as `pybabel extract -F babel.cfg` does, and (2) the help of
every command and option, paragraph by paragraph (a docstring is no call to mark), and what the
domain declares once and a user reads: the settings' meanings (`rules.SETTINGS`), the roles,
the games' names and the presets' descriptions; and (3) the messages of the board's pages,
marked `⟦...⟧`. They go into `scorepad/locale/scorepad.pot`; each language's
`scorepad/locale/LANG/LC_MESSAGES/scorepad.po` is updated from it (new messages come in empty,
to be translated; a changed one is marked fuzzy), and compiled into the `.mo` beside it, which
scorepad ships and loads.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LOCALE = ROOT / "scorepad" / "locale"
POT = LOCALE / "scorepad.pot"
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "N_plural": (1, 2)}


class Context(NamedTuple):
    """A message that says something else elsewhere: `partner`, the game (a Sauspiel), is not
    `partner`, the role."""

    context: str
    id: str


Message = str | tuple[str, str] | Context


def _id(message: Message) -> tuple[str | tuple[str, str], str | None]:
    """A message's id and context, as a catalog takes them."""
    if isinstance(message, Context):
        return message.id, message.context
    return message, None


def marked() -> Iterator[tuple[Message, str]]:
    """The strings the code marks, with where each is (Babel's extraction)."""
    from babel.messages.extract import extract_from_dir

    for filename, line, message, _comments, _context in extract_from_dir(
        str(ROOT / "scorepad"), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        yield message, f"scorepad/{filename}:{line}"


def helps() -> Iterator[tuple[Message, str]]:
    """Each paragraph of every command's help and of its options' help."""
    import click

    from scorepad import i18n
    from scorepad.cli import COMMANDS, cli
    from scorepad.cli._language import paragraphs, translate_help

    i18n.use("en")
    translate_help(cli)  # (the English help, in a process that spoke another language before)
    ctx = click.Context(cli)

    def walk(command: click.Command, path: str) -> Iterator[tuple[Message, str]]:
        for text in (command.help, command.short_help, command.epilog):
            for paragraph in paragraphs(text):
                yield paragraph, f"help of {path}"
        for param in command.params:
            for paragraph in paragraphs(getattr(param, "help", None)):
                yield paragraph, f"help of {path} {param.opts[-1] if param.opts else param.name}"
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                yield from walk(sub, f"{path} {name}")

    yield from walk(cli, "scorepad")
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None
        yield from walk(command, f"scorepad {name}")


def declared() -> Iterator[tuple[Message, str]]:
    """What the domain declares once and a user reads in its words."""
    from scorepad.games import TABLE
    from scorepad.names import Role
    from scorepad.rules import SETTINGS

    for setting in SETTINGS:
        yield setting.help, f"meaning of {setting.key}"
    for role in Role:
        yield role.value, "scorepad/names.py: Role"
    for game in TABLE:
        yield Context("game", game.name), "scorepad/games.py: a game's name (i18n.game_word)"
    from scorepad.analysis.words import A_OUTCOME, THE_OUTCOME

    for words in (*A_OUTCOME.values(), *THE_OUTCOME.values()):
        yield Context("outcome", words), "scorepad/analysis/words.py: an outcome (analyze)"
    from scorepad.names import PRESETS
    from scorepad.rules import load_rules

    for name in PRESETS:
        yield load_rules(name).description, f"scorepad/presets/{name}.toml: description"


def pages() -> Iterator[tuple[Message, str]]:
    """The messages of the board's pages, marked `⟦...⟧` in scorepad/web/ (`page_html`)."""
    import re

    for page in sorted((ROOT / "scorepad" / "web").glob("*.*")):
        if page.suffix in (".html", ".js"):
            text = page.read_text(encoding="utf-8")
            for found in re.finditer("⟦(.*?)⟧", text, re.DOTALL):
                line = text.count("\n", 0, found.start()) + 1
                yield found[1], f"scorepad/web/{page.name}:{line}"


def collect() -> dict[Message, list[str]]:
    """Every message, with where it is used."""
    found: dict[Message, list[str]] = {}
    for source in (marked(), helps(), declared(), pages()):
        for message, where in source:
            if message:
                found.setdefault(message, []).append(where)
    return found


def template() -> object:
    """The catalog of every message, untranslated (the .pot)."""
    from babel.messages.catalog import Catalog

    pot = Catalog(project="scorepad", version="0.1.0", fuzzy=False)
    for message, where in collect().items():
        id, context = _id(message)
        pot.add(id, locations=[(w, None) for w in where[:3]], context=context)
    return pot


def languages() -> list[str]:
    return sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/scorepad.po"))


def read(language: str) -> object:
    from babel.messages.pofile import read_po

    with (LOCALE / language / "LC_MESSAGES" / "scorepad.po").open("rb") as file:
        return read_po(file, locale=language)


def lacking(language: str) -> list[str]:
    """Each message `language` does not translate: missing from its .po, empty, or fuzzy."""
    catalog = read(language)
    wrong = []
    for message, where in collect().items():
        id, context = _id(message)
        key = id if isinstance(id, str) else id[0]
        entry = catalog.get(key, context=context)  # type: ignore[attr-defined]
        if entry is None:
            wrong.append(f"{where[0]}: not in the .po: {message!r}")
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry.fuzzy:
            wrong.append(f"{where[0]}: fuzzy: {message!r}")
        elif not all(strings):
            wrong.append(f"{where[0]}: not translated: {message!r}")
    return wrong


def update() -> None:
    """Write the .pot, update every .po from it, and compile each into its .mo."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import write_po

    pot = template()
    with POT.open("wb") as file:
        write_po(file, pot, width=100, omit_header=False)  # type: ignore[arg-type]
    for language in languages():
        catalog = read(language)
        catalog.update(pot, update_header_comment=False)  # type: ignore[attr-defined]
        po = LOCALE / language / "LC_MESSAGES" / "scorepad.po"
        with po.open("wb") as file:
            write_po(file, catalog, width=100, ignore_obsolete=True)  # type: ignore[arg-type]
        with po.with_suffix(".mo").open("wb") as file:
            write_mo(file, catalog)  # type: ignore[arg-type]  # (fuzzy and empty ones left out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="list what each language lacks")
    parser.add_argument("--add", metavar="LANG", help="start the catalog of a new language")
    args = parser.parse_args()
    if args.add:
        from babel.messages.catalog import Catalog
        from babel.messages.pofile import write_po

        po = LOCALE / args.add / "LC_MESSAGES" / "scorepad.po"
        po.parent.mkdir(parents=True, exist_ok=True)
        with po.open("wb") as file:
            write_po(file, Catalog(locale=args.add, project="scorepad"))  # type: ignore[arg-type]
    if args.check:
        wrong = [f"{lang}: {w}" for lang in languages() for w in lacking(lang)]
        print("\n".join(wrong) or "every message is translated")
        return 1 if wrong else 0
    update()
    return 0


if __name__ == "__main__":
    sys.exit(main())
