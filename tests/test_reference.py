"""The manual's command reference covers every command, subcommand, option and default: it is
made from the commands (scorepad/cli/reference.py) as the manual is built, and this holds the
page as the build makes it to the commands themselves."""

import importlib.util
import re
from pathlib import Path

import click
import pytest

from scorepad.cli import cli
from scorepad.cli.reference import GENERATED, MARKER, SETTINGS_MARKER, commands, markdown
from scorepad.names import PRESETS
from scorepad.rules import describe, load_rules

ROOT = Path(__file__).parent.parent


def built_page(name: str = "reference.md") -> str:
    """A page of docs/ as the manual's build makes it (through the hook mkdocs.yml names)."""
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "scripts" / "docs_hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    page = (ROOT / "docs" / name).read_text(encoding="utf-8")
    made: str = hooks.on_page_markdown(page, page=None, config=None, files=None)
    return made


def sections(page: str) -> dict[str, str]:
    """Each command's part of the page, by its heading (`scorepad seat add`)."""
    parts = re.split(r"^#{2,6} (scorepad\b.*)$", page, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def every_command() -> dict[str, click.Command]:
    """Every command by its path, found by walking the group here (not the reference's walk)."""
    found: dict[str, click.Command] = {}

    def walk(command: click.Command, path: str, parent: click.Context | None) -> None:
        found[path] = command
        ctx = click.Context(command, info_name=path.split()[-1], parent=parent)
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None, name
                walk(sub, f"{path} {name}", ctx)

    walk(cli, "scorepad", None)
    return found


def missing(page: str) -> list[str]:
    """What the page lacks: a command, an option (each of its names), an argument, a default."""
    shown = sections(page)
    lacking = []
    for path, command in every_command().items():
        section = shown.get(path)
        if section is None:
            lacking.append(path)
            continue
        for param in command.params:
            names = [*param.opts, *param.secondary_opts]
            if isinstance(param, click.Argument):
                if param.make_metavar(click.Context(command)) not in section:
                    lacking.append(f"{path}: argument {param.name}")
                continue
            if getattr(param, "hidden", False):
                continue  # (`--lang` after the name: the page says so once, at the top)
            row = re.compile(rf"^\| `{re.escape(names[0])}(?=[ `,])", re.M)
            rows = [line for line in section.splitlines() if row.match(line)]
            if len(rows) != 1 or any(name not in rows[0] for name in names):
                lacking.append(f"{path}: {' / '.join(names)}")
                continue
            default_cell = re.sub(r"^\| `[^`]*` \| ", "", rows[0]).split(" | ")[0]
            if _has_value(param.default) and f"`{param.default}`" not in default_cell:
                lacking.append(f"{path}: {names[0]}'s default {param.default!r}")
    return lacking


def _has_value(default: object) -> bool:
    """Whether an option's default is a value a user would type (not a flag's, not none)."""
    return isinstance(default, str | int) and not isinstance(default, bool) and default != ""


def test_the_reference_covers_every_command_option_and_default() -> None:
    page = built_page()
    assert MARKER not in page
    assert missing(page) == []
    assert len(sections(page)) == len(every_command()) >= 35


def test_the_check_finds_what_a_reference_lacks() -> None:
    """The check above can fail: a command, an option and a default taken out are each found."""
    page = built_page()
    without_void = page.split("\n## scorepad void\n")[0]
    assert "scorepad void" in missing(without_void)
    without_points = "\n".join(
        line for line in page.splitlines() if not line.startswith("| `--points N`")
    )
    assert "scorepad hand: --points" in missing(without_points)
    wrong_default = page.replace("| `--rounds N` | `1` |", "| `--rounds N` | `2` |")
    assert wrong_default != page
    assert "scorepad bock: --rounds's default 1" in missing(wrong_default)


def test_the_page_asks_for_the_reference_and_the_manual_builds_it() -> None:
    page = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    assert page.count(MARKER) == 1
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "hooks:\n  - scripts/docs_hooks.py\n" in config
    assert "reference.md" in config
    assert "--lang" in page.split(MARKER)[0]  # the option every command takes after its name


def test_the_reference_walks_the_commands_in_the_order_it_shows_them() -> None:
    paths = [ctx.command_path for ctx in commands()]
    assert paths[0] == "scorepad" and sorted(paths) == sorted(every_command())
    assert list(sections(markdown())) == paths


@pytest.mark.parametrize("path", ["scorepad hand", "scorepad tournament new"])
def test_a_command_shows_its_usage_and_its_help(path: str) -> None:
    command = every_command()[path]
    section = sections(markdown())[path]
    assert f"Usage:\n\n```text\n{path} [OPTIONS]" in section
    assert (command.help or "").split("\n")[0] in section


def test_every_setting_of_every_preset_is_in_the_manual_with_its_value() -> None:
    page = built_page("rules-and-presets.md")
    assert SETTINGS_MARKER not in page and set(GENERATED) == {MARKER, SETTINGS_MARKER}
    rows = {row.split(" | ")[0].removeprefix("| "): row for row in page.splitlines()}
    header = rows["Setting"]
    assert header == "| Setting | " + " | ".join(f"`{p}`" for p in PRESETS) + " | Meaning |"
    for at, preset in enumerate(PRESETS, start=1):
        for key, value, meaning in describe(load_rules(preset)):
            cells = rows[f"`{key}`"].removeprefix("| ").removesuffix(" |").split(" | ")
            assert cells[at] == f"`{value}`", (preset, key)
            assert cells[-1] == meaning.replace("|", "\\|"), key
