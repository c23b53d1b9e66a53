"""Text typed into a session file by hand is untrusted: a control character (NUL, an escape
sequence, a bidirectional override) or a formula in a note, a time or a name is reported by
`verify` with its line, for a row whose hand the pass remembers (its inputs repeat an earlier
hand's) as for one it decodes, and nothing from the file reaches a terminal."""

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from _types import Run

from scorepad.ledger import Ledger
from scorepad.session import Session
from scorepad.store.format import Problem

PLAYERS = "Ann,Bob,Cy,Dee,Ed"
HAND = ("--picker", "Ann", "--partner", "Bob", "--points", "70")
FIRST_OF_ITS_KIND = 5  # the line of hand 2: the first hand Ann deals (decoded)
BAD_TEXTS = [
    ("NUL", "a\x00b", "U+0000"),
    ("OSC title", "x\x1b]0;pwned\x07", "U+001B"),
    ("CSI colour", "\x1b[31mred", "U+001B"),
    ("DEL", "a\x7fb", "U+007F"),
    ("C1 CSI", "a\x9b31m", "U+009B"),
    ("right-to-left override", "ok \u202eevil", "U+202E"),
    ("left-to-right embedding", "\u202aembedded", "U+202A"),
    ("first strong isolate", "a\u2068b", "U+2068"),
    ("pop directional isolate", "a\u2069", "U+2069"),
    ("line separator", "one\u2028two", "U+2028"),
]
FORMULAS = ['=HYPERLINK("http://x","y")', "+1+1", "@SUM(A1)", "-2+3"]


def _cells(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def _write(path: Path, rows: list[list[str]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)


@pytest.fixture
def clean(run: Run, tmp_path: Path) -> Path:
    """Seven hands alike but for the dealer, five players: hand 6 (line 9) is dealt by Ed
    again, so its inputs repeat hand 1's (line 4), a hand the pass remembers."""
    path = tmp_path / "clean.csv"
    assert run("-f", path, "new", "--players", PLAYERS).exit_code == 0
    for _ in range(7):
        assert run("-f", path, "hand", *HAND).exit_code == 0
    return path


def _decoded_lines(path: Path, monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """The lines the one pass decodes (the others repeat a hand it remembers)."""
    seen: set[int] = set()
    real = Ledger._feed_decoded

    def spy(self: Ledger, cells: Sequence[str], line: int, known: Any = None) -> list[Problem]:
        seen.add(line)
        return real(self, cells, line, known)

    monkeypatch.setattr(Ledger, "_feed_decoded", spy)
    Session(path).check()
    monkeypatch.undo()
    return seen


def test_the_repeated_hand_is_checked_by_the_hand_remembered(
    clean: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the tests below rely on: hand 6 (line 9) is applied without being decoded (its
    inputs are those of a hand the pass scored and remembers)."""
    slow = _decoded_lines(clean, monkeypatch)
    assert 4 in slow and 9 not in slow


def _edited(clean: Path, tmp_path: Path, line: int, column: str, text: str) -> Path:
    rows = _cells(clean)
    rows[line - 1][rows[0].index(column)] = text
    path = tmp_path / "edited.csv"
    _write(path, rows)
    return path


def _assert_refused_everywhere(run: Run, path: Path, line: int, says: str) -> None:
    before = path.read_bytes()
    _, problems = Session(path).check()
    assert problems and problems[0].line == line, problems
    assert says in problems[0].message, problems[0]
    verify = run("-f", path, "verify")
    assert verify.exit_code == 1
    assert verify.stdout.startswith(f"{path}:{line}: "), verify.stdout
    for command in (("sheet",), ("log",), ("standings",), ("sheet", "--format", "csv")):
        result = run("-f", path, *command)
        assert result.exit_code == 1, command
        assert result.stdout == "" and f"{path}:{line}: " in result.stderr
    for result in (verify, run("-f", path, "sheet"), run("-f", path, "log")):
        shown = result.stdout + result.stderr
        assert all(c.isprintable() or c == "\n" for c in shown), repr(shown)
    assert path.read_bytes() == before  # (no command above changed the file)


@pytest.mark.parametrize("line", [FIRST_OF_ITS_KIND, 9], ids=["decoded", "remembered"])
@pytest.mark.parametrize(("what", "text", "code"), BAD_TEXTS, ids=[b[0] for b in BAD_TEXTS])
def test_a_control_character_in_a_note_is_reported_on_either_path(
    run: Run, clean: Path, tmp_path: Path, line: int, what: str, text: str, code: str
) -> None:
    path = _edited(clean, tmp_path, line, "note", text)
    _assert_refused_everywhere(run, path, line, f"note: {text[:40]!r} holds a control character")
    assert code in run("-f", path, "verify").stdout


@pytest.mark.parametrize("line", [FIRST_OF_ITS_KIND, 9], ids=["decoded", "remembered"])
@pytest.mark.parametrize("formula", FORMULAS)
def test_a_formula_in_a_note_is_reported_on_either_path(
    run: Run, clean: Path, tmp_path: Path, line: int, formula: str
) -> None:
    path = _edited(clean, tmp_path, line, "note", formula)
    _assert_refused_everywhere(run, path, line, "would run as a formula in a spreadsheet")


@pytest.mark.parametrize("line", [FIRST_OF_ITS_KIND, 9], ids=["decoded", "remembered"])
@pytest.mark.parametrize("text", ["2026-01-01\x1b]0;pwned\x07", "=NOW()"])
def test_a_control_character_or_a_formula_in_a_time_is_reported_on_either_path(
    run: Run, clean: Path, tmp_path: Path, line: int, text: str
) -> None:
    path = _edited(clean, tmp_path, line, "time", text)
    _assert_refused_everywhere(run, path, line, f"time: {text[:40]!r}")


def test_a_tab_inside_a_note_typed_by_hand_is_no_control_character(
    run: Run, clean: Path, tmp_path: Path
) -> None:
    for line in (FIRST_OF_ITS_KIND, 9):
        path = _edited(clean, tmp_path, line, "note", "counted\ttwice")
        assert run("-f", path, "verify").stdout == ""


def test_a_clean_note_on_the_repeated_hand_still_verifies(
    run: Run, clean: Path, tmp_path: Path
) -> None:
    path = _edited(clean, tmp_path, 9, "note", "Ed's deal again, ümlaut and all")
    assert run("-f", path, "verify").stdout == ""
    assert "Ed's deal again" in run("-f", path, "sheet").stdout


@pytest.mark.parametrize(("what", "text", "code"), BAD_TEXTS[:6], ids=[b[0] for b in BAD_TEXTS[:6]])
def test_a_control_character_in_a_correction_note_is_reported(
    run: Run, clean: Path, tmp_path: Path, what: str, text: str, code: str
) -> None:
    assert run("-f", clean, "void", "2", "--reason", "misdeal").exit_code == 0
    assert run("-f", clean, "amend", "3", "--points", "80").exit_code == 0
    for line in (11, 12):  # the void, the amendment
        path = _edited(clean, tmp_path, line, "note", text)
        _assert_refused_everywhere(run, path, line, "holds a control character")


def test_a_control_character_in_a_player_name_is_reported_at_the_header(
    run: Run, clean: Path, tmp_path: Path
) -> None:
    for name in ("Ann\x1b[2J", "Ann\u202e", "Ann\x00"):
        data = clean.read_bytes().replace(b"Ann", name.encode())
        path = tmp_path / "named.csv"
        path.write_bytes(data)
        verify = run("-f", path, "verify")
        assert verify.exit_code == 1
        assert verify.stdout.startswith(f"{path}:1: header: player ")
        assert "control characters" in verify.stdout
        assert all(c.isprintable() or c == "\n" for c in verify.stdout)
        result = run("-f", path, "sheet")
        assert result.exit_code == 1 and result.stdout == ""
        assert all(c.isprintable() or c == "\n" for c in result.stderr)


@pytest.mark.parametrize("key", ["note", "changes"])
def test_a_control_character_in_a_change_of_the_rules_is_reported(
    run: Run, clean: Path, tmp_path: Path, key: str
) -> None:
    assert run("-f", clean, "set", "double_on_the_bump=true", "--note", "Ed's house").exit_code == 0
    rows = _cells(clean)
    at = rows[0].index("note")
    data = json.loads(rows[-1][at])
    data[key] = "\x1b]0;pwned\x07" if key == "note" else ["double_on_the_bump=true\x1b[2J"]
    rows[-1][at] = json.dumps(data)  # (JSON writes the escape as \u001b: the cell is printable)
    path = tmp_path / "set.csv"
    _write(path, rows)
    verify = run("-f", path, "verify")
    assert verify.exit_code == 1
    assert verify.stdout.startswith(f"{path}:{len(rows)}: this change of the rules cannot be:")
    assert "holds a control character (U+001B)" in verify.stdout
    for command in ("log", "status", "sheet"):
        result = run("-f", path, command)
        assert "\x1b" not in result.stdout + result.stderr, command


@pytest.mark.parametrize(("what", "text", "code"), BAD_TEXTS[:6], ids=[b[0] for b in BAD_TEXTS[:6]])
def test_a_control_character_in_a_hand_file_for_replay_is_reported_at_its_line(
    run: Run, tmp_path: Path, what: str, text: str, code: str
) -> None:
    sample = Path(__file__).parent.parent / "sample_sessions" / "hands" / "bavarian-bettel.txt"
    lines = sample.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("players:"))
    lines = [line.replace("Anni", f"An{text}ni") for line in lines]
    path = tmp_path / "hand.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("replay", path)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(f"Error: {path}:{at + 1}: this line: ")
    assert f"holds a control character ({code})" in result.stderr
    assert all(c.isprintable() or c == "\n" for c in result.stderr)
