"""The manual's examples are real: every console block of every page of it, and of both READMEs,
is run as written and prints what the page shows (tests/_console.py says how)."""

import shlex
import shutil
from pathlib import Path

import pytest
from _console import ROOT, Example, examples, fenced, matches, pages, shown_files
from _types import Run

EXAMPLES = [example for page in pages() for example in examples(page)]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_every_example_prints_what_the_page_shows(
    example: Example, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "sample_sessions", tmp_path / "sample_sessions")
    for name, text in example.files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("SCOREPAD_FILE", raising=False)
    for command in example.commands:
        result = run(*shlex.split(command.args))
        printed = result.stdout + result.stderr
        where = f"{example.page.name}:{command.line}: scorepad {command.args}"
        assert matches(command.shown, printed), f"{where}\n{printed}"


@pytest.mark.parametrize(
    "block", [b for page in pages() for b in shown_files(page)], ids=lambda b: b.file
)
def test_a_file_a_page_shows_is_the_file(block: object) -> None:
    from _console import Fenced

    assert isinstance(block, Fenced) and block.file is not None
    assert block.text == (ROOT / block.file).read_text(encoding="utf-8")


def test_every_page_is_read_and_every_console_block_is_an_example() -> None:
    """No console block is left out (a block is run whole or the page fails to read)."""
    for page in pages():
        blocks = [b for b in fenced(page) if b.language == "console"]
        run = [c for e in examples(page) for c in e.commands]
        assert sum(b.text.count("\n$ ") + b.text.startswith("$ ") for b in blocks) == len(run)
    assert {p.name for p in pages()} >= {"README.md", "README.de.md", "index.md"}


# --- the stories the pages tell (each is run above; here, that each page still tells it) ---


def _first(page: str) -> list[str]:
    """The commands of a page's first example, as written after `scorepad `."""
    return [command.args for command in examples(ROOT / page)[0].commands]


def _shown(page: str) -> str:
    return "".join(command.shown for command in examples(ROOT / page)[0].commands)


def test_the_night_at_the_table_goes_from_new_to_verify() -> None:
    night = _first("docs/night.md")
    assert night[0].startswith("new --players ") and night[-1] == "verify"
    said = {args.split()[0] for args in night}
    assert said >= {"hand", "amend", "undo", "redo", "set", "status", "sheet", "standings"}
    assert "Error:" not in _shown("docs/night.md")


def test_the_pot_night_plays_hands_for_the_pot() -> None:
    night = _first("docs/pot.md")
    assert night[0].startswith("new ") and "all_pass=pot" in night[0]
    assert "hand --pot" in night and night[-1] == "settle"


def test_the_tournament_runs_from_new_to_payout() -> None:
    cup = _first("docs/tournaments.md")
    assert cup[0].startswith("tournament new ") and cup[-1].startswith("tournament payout ")
    assert sum(args.startswith("tournament draw ") for args in cup) == 2
    assert "Error:" not in _shown("docs/tournaments.md")


def test_the_bock_night_brings_bock_rounds() -> None:
    night = _first("docs/bock.md")
    assert night[0].startswith("new ") and "bock_after=" in night[0]
    assert any(args.startswith("bock ") for args in night)


@pytest.mark.parametrize("page", ["docs/deutsch.md", "README.de.md"])
def test_the_bavarian_evening_is_played_in_german(page: str) -> None:
    evening = _first(page)
    assert evening[0].startswith("--lang de new ") and "--rules bavarian" in evening[0]
    assert all(args.startswith("--lang de ") for args in evening)
    # (a Bavarian night settles in euro at its table's rate, issue 40: no --rate needed)
    assert evening[-1] == "--lang de settle"
    assert "Abrechnung zu 0,01 EUR je Punkt" in _shown(page)
    assert "Satz und Währung aus dem Regelwerk bavarian." in _shown(page)
