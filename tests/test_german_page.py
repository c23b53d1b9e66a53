"""Issue 40: no English word in any German output of the manual's German page.

Every console command of docs/deutsch.md (and of README.de.md) runs on the sample sessions, as
tests/test_docs.py runs it; what each command given in German (`--lang de` last) prints is
looked through for English words (a list of words that must not appear in German text; card
codes, player names, file names, option names, setting keys and what is quoted as a command are
no words of the text)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from _console import Example, examples
from _types import Run

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "docs" / "deutsch.md", ROOT / "README.de.md"]
GERMAN = [e for page in PAGES for e in examples(page)]

_WORDS = """
    the and of to with from for by than which where when while what who whose this that these
    is are were be been has have had does not nothing none every each all any only also
    hand hands point points card cards trick tricks picker picked picks partner's defender
    defenders total totals player players win wins won loss lost loses pot doubler doublers
    stake level deals dealer leads next round rounds rules settle standings money amount
    rate currency cracked crack bump double doubled leaster knocked knocks passed called calls
    alone void amended night sum found wrong took side runs game games first last whole per
    owes pays paid into out sits plays played held holds taken tie ties more most less
"""
ENGLISH = frozenset(_WORDS.split())
"""English words no German output holds (none of them a German word too: `die`, `was`, `will`,
`man`, `hat`, `so`, `in`, `an`, `Partner`, `Solo`, `Wenz`, `Ramsch`, `Bock`, `Re`, `Stand`
are left out for that)."""

# a command or a value quoted, a setting as KEY = VALUE: no words of the text
_QUOTED = re.compile(r"`[^`]*`|'[^']*'|\S+ = \S+")


def english_words(text: str) -> list[str]:
    """The English words of `text`, as written, in order."""
    found = []
    for token in _QUOTED.sub(" ", text).split():
        if any(mark in token for mark in ("_", "/", "--", ".csv", "=", "⟨")):
            continue  # a setting key, a file, an option, KEY=VALUE
        word = token.strip(".,;:!?()[]{}\"'…-+*")
        if word.lower() in ENGLISH:
            found.append(word)
    return found


def test_the_word_list_finds_english_and_leaves_german_alone() -> None:
    assert english_words("Hand 3: Ann picked, partner Bob.") == ["Hand", "picked"]
    assert english_words("Spiel 3: Vroni spielt mit Anni; die Gras-Sau, was für ein Spiel") == []
    assert english_words("siehe `scorepad settle` und all_pass = ramsch, -f x.csv") == []


def _language(args: list[str]) -> str:
    langs = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--lang"]
    return langs[-1] if langs else "en"


@pytest.mark.parametrize("example", GERMAN, ids=lambda e: e.name)
def test_no_english_word_in_any_german_output_of_the_german_page(
    example: Example, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "sample_sessions", tmp_path / "sample_sessions")
    for name, text in example.files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("SCOREPAD_FILE", raising=False)
    checked = 0
    for command in example.commands:
        args = shlex.split(command.args)
        result = run(*args)
        if _language(args) != "de":
            continue
        printed = result.stdout + result.stderr
        assert english_words(printed) == [], f"{example.page.name}:{command.line}\n{printed}"
        checked += 1
    assert checked or all(_language(shlex.split(c.args)) != "de" for c in example.commands)


def test_the_german_page_runs_every_command_that_shows_cards() -> None:
    """The page shows the commands that name cards (item 12), so the test above reads them."""
    shown = {word for e in GERMAN for c in e.commands for word in shlex.split(c.args)}
    assert {"replay", "trick", "count", "check"} <= shown
