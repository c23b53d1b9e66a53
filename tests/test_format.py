"""The session file's format: versions, any column order, any quoting, and one engine that every
report shares with `verify`."""

import csv
import io
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from _types import Run

from scorepad.store.format import CREATED_VERSION, FORMAT_VERSION

ROOT = Path(__file__).parent.parent
V1 = ROOT / "tests" / "fixtures" / "v1"
V1_FILES = sorted(V1.glob("**/*.csv"))
V3 = ROOT / "tests" / "fixtures" / "v3"  # the samples as format 3 wrote them, byte for byte
V3_FILES = sorted(V3.glob("**/*.csv"))
V5 = ROOT / "tests" / "fixtures" / "v5"  # the samples as format 5 wrote them, before points_check
V5_FILES = sorted(V5.glob("**/*.csv"))
OLD_FILES = V1_FILES + V3_FILES + V5_FILES
READERS = [
    ("standings",),
    ("standings", "--format", "json"),
    ("sheet",),
    ("sheet", "--running"),
    ("sheet", "--format", "json"),
    ("sheet", "--format", "csv"),
    ("settle", "--rate", "0.25"),
    ("stats",),
    ("stats", "--format", "json"),
    ("status",),
    ("verify",),
    ("chart", "--width", "60", "--height", "12"),
]


def _cells(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.reader(f))


def _write(path: Path, rows: list[list[str]], **options: Any) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\r\n", **options).writerows(rows)


def test_the_v1_fixtures_are_todays_samples_as_they_were() -> None:
    # Written by scorepad before the format had a version: no `format` column.
    assert {p.name for p in V1_FILES} >= {
        "standard-friday.csv",
        "schafkopf-evening.csv",
        "first-night-race.csv",
        "six-dealer-sits-out.csv",
    }
    for path in V1_FILES:
        header = _cells(path)[0]
        assert "format" not in header and header[:3] == ["hand", "kind", "ref"]


def test_the_v5_fixtures_are_in_format_5_and_check_points_by_range() -> None:
    """The samples as the scorepad before `points_check` wrote them: a table without it keeps
    the old rule (card points 0 to 120), so every hand it recorded reads as it did."""
    assert len(V5_FILES) >= 10
    for path in V5_FILES:
        header, rules_row = _cells(path)[:2]
        assert rules_row[header.index("format")] == "5" and "undoes" not in header
        assert "points_check" not in rules_row[header.index("note")]


def test_the_v3_fixtures_are_in_format_3() -> None:
    assert len(V3_FILES) >= 7
    for path in V3_FILES:
        header, rules_row = _cells(path)[:2]
        assert rules_row[header.index("format")] == "3" and "last" not in header


@pytest.mark.parametrize("path", OLD_FILES, ids=[f"{p.parent.name}/{p.name}" for p in OLD_FILES])
def test_every_report_reads_an_older_file(run: Run, path: Path) -> None:
    for args in READERS:
        result = run("-f", path, *args)
        assert result.exit_code == 0, (args, result.stderr)
    # ... and an older night shows what the same night in today's format shows
    old_root = next(root for root in (V1, V3, V5) if path.is_relative_to(root))
    today = ROOT / "sample_sessions" / path.relative_to(old_root)
    if today.name == "bavarian-evening.csv":  # (the sample before jungfrau = double-all)
        today = ROOT / "tests" / "fixtures" / "before-43" / today.name
    for args in (("standings", "--format", "json"), ("sheet", "--format", "csv")):
        old, new = run("-f", path, *args).stdout, run("-f", today, *args).stdout
        assert old.replace(str(path), "F") == new.replace(str(today), "F")


def test_writing_commands_keep_a_version_1_file_in_version_1(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "friday.csv"
    shutil.copy(V1 / "standard-friday.csv", path)
    header = _cells(path)[0]
    for args in (
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "70"),
        ("amend", "1", "--points", "50"),
        (
            "amend",
            "1",
            "--points",
            "64",
        ),  # (an `undo` would need format 6: it names what it undoes)
        ("void", "2"),
        ("seat", "add", "Flo"),
        ("seat", "remove", "Ed"),
    ):
        result = run("-f", path, *args)
        assert result.exit_code == 0, (args, result.stderr)
    assert "format" not in _cells(path)[0]
    assert _cells(path)[0] == [*header[:8], "Flo", *header[8:]]  # Flo's column, nothing else
    assert run("-f", path, "verify").stdout == ""


def test_a_new_session_states_its_format(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    header, rules_row = _cells(path)[:2]
    assert "format" in header and "rules_line" in header
    assert rules_row[header.index("format")] == str(CREATED_VERSION) == "5"
    assert "undoes" not in header  # (format 6's columns come when a row needs them)


def test_the_first_undo_brings_the_format_that_names_what_it_takes_back(
    run: Run, tmp_path: Path
) -> None:
    """A new session is written in format 5, which every scorepad since reads; `undo` needs
    format 6's `undoes` column, so the file is rewritten in format 6 first (and reads as before)."""
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    hand = ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "70")
    assert run("-f", path, *hand).exit_code == 0
    assert run("-f", path, *hand).exit_code == 0
    before = json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"]
    assert run("-f", path, "undo").stdout.startswith("Undid hand 2.")
    header, rules_row, *_, last = _cells(path)
    assert rules_row[header.index("format")] == "6" and "digest" not in header  # (as it needs)
    assert last[header.index("undoes")] == "5" and last[header.index("kind")] == "void"
    assert run("-f", path, "verify").stdout == ""
    assert run("-f", path, "redo").exit_code == 0
    after = json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"]
    assert after == before


def test_a_file_from_a_newer_scorepad_is_refused_clearly(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    shutil.copy(ROOT / "sample_sessions" / "standard-friday.csv", path)
    rows = _cells(path)
    rows[1][rows[0].index("format")] = str(FORMAT_VERSION + 1)
    rows[0].insert(10, "blitz_color")  # a column this scorepad has never heard of
    for row in rows[1:]:
        row.insert(10, "")
    _write(path, rows)
    before = path.read_bytes()
    for command in ("standings", "verify", "status"):
        result = run("-f", path, command)
        assert result.exit_code == 1
        assert f"format {FORMAT_VERSION + 1}, written by a newer" in result.stdout + result.stderr
        assert "upgrade scorepad" in result.stdout + result.stderr
    result = run("-f", path, "hand", "--leaster", "--winner", "Ann")
    assert result.exit_code == 1 and "newer scorepad" in result.stderr
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "name",
    [
        "standard-friday.csv",
        "six-dealer-sits-out.csv",
        "first-night-race.csv",
        "schafkopf-evening.csv",
    ],
)
def test_a_file_resaved_with_every_cell_quoted_reads_the_same(
    run: Run, tmp_path: Path, name: str
) -> None:
    original = ROOT / "sample_sessions" / name
    quoted = tmp_path / name
    _write(quoted, _cells(original), quoting=csv.QUOTE_ALL)
    assert b'"amend"' in quoted.read_bytes() or name != "standard-friday.csv"
    for args in READERS:
        a, b = run("-f", original, *args), run("-f", quoted, *args)
        assert b.exit_code == a.exit_code == 0, (args, b.stderr)
        assert b.stdout.replace(str(quoted), "F") == a.stdout.replace(str(original), "F")
    # and it can go on: a correction of a corrected hand, then a new hand
    assert run("-f", quoted, "undo").exit_code == 0
    assert run("-f", quoted, "verify").stdout == ""


def test_only_the_correction_rows_quoted_read_the_same(run: Run, tmp_path: Path) -> None:
    """Corrections are found before the pass by the lines that begin with a comma (no hand
    number); a line that begins with a quote sends its part of the file to the slower search by
    the kinds' names. Both find the same corrections."""
    original = ROOT / "sample_sessions" / "standard-friday.csv"
    rows = _cells(original)
    kind = rows[0].index("kind")
    edited = tmp_path / original.name
    lines = []
    for row in rows:
        buffer = io.StringIO()
        csv.writer(
            buffer,
            lineterminator="\n",
            quoting=csv.QUOTE_ALL if row[kind] in ("amend", "void") else csv.QUOTE_MINIMAL,
        ).writerow(row)
        lines.append(buffer.getvalue())
    edited.write_text("".join(lines), encoding="utf-8")
    assert '\n"","amend"' in edited.read_text(encoding="utf-8")
    for args in READERS:
        a, b = run("-f", original, *args), run("-f", edited, *args)
        assert b.exit_code == a.exit_code == 0, (args, b.stderr)
        assert b.stdout.replace(str(edited), "F") == a.stdout.replace(str(original), "F")


def test_column_order_does_not_matter(run: Run, tmp_path: Path) -> None:
    original = ROOT / "sample_sessions" / "standard-friday.csv"
    rows = _cells(original)
    order = list(range(len(rows[0])))
    random.Random(3).shuffle(order)
    shuffled = tmp_path / "shuffled.csv"
    _write(shuffled, [[row[i] for i in order] for row in rows])
    for args in (("verify",), ("standings", "--format", "json"), ("stats", "--format", "json")):
        a, b = run("-f", original, *args), run("-f", shuffled, *args)
        assert b.exit_code == 0, b.stderr
        assert b.stdout.replace(str(shuffled), "F") == a.stdout.replace(str(original), "F")
    assert run("-f", shuffled, "hand", "--leaster", "--winner", "Cy").exit_code == 0
    assert run("-f", shuffled, "verify").stdout == ""
    assert _cells(shuffled)[-1][order.index(1)] == "leaster"  # written in the file's order


REPORTS = [
    ("standings",),
    ("sheet",),
    ("sheet", "--format", "csv"),
    ("settle",),
    ("stats",),
    ("chart",),
]


def _edited_last_hand(tmp_path: Path) -> Path:
    """standard-friday with the last hand's points moved +5/-5 and its totals cell to match."""
    path = tmp_path / "friday.csv"
    rows = _cells(ROOT / "sample_sessions" / "standard-friday.csv")
    header = rows[0]
    last = rows[-1]
    assert last[1] == "picker"
    a, b = header.index("Ann"), header.index("Bob")
    last[a], last[b] = str(int(last[a]) + 5), str(int(last[b]) - 5)
    totals = json.loads(last[header.index("totals")])
    totals["Ann"] += 5
    totals["Bob"] -= 5
    last[header.index("totals")] = json.dumps(totals, separators=(",", ":"))
    _write(path, rows)
    return path


def test_an_edited_last_hand_is_refused_by_every_report_as_by_verify(
    run: Run, tmp_path: Path
) -> None:
    path = _edited_last_hand(tmp_path)
    line = len(_cells(path))
    verify = run("-f", path, "verify")
    assert verify.exit_code == 1
    assert verify.stdout.startswith(f"{path}:{line}: points differ from the re-scoring")
    for args in REPORTS:
        result = run("-f", path, *args)
        assert result.exit_code == 1 and result.stdout == "", (args, result.stdout)
        assert result.stderr.startswith(f"Error: {path}:{line}: points differ"), result.stderr
        assert "run `scorepad verify`" in result.stderr
    result = run("season", path)
    assert result.exit_code == 1 and f"{path}:{line}: points differ" in result.stderr


def test_a_blanked_cell_is_refused_by_every_report_as_by_verify(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "race.csv"
    rows = _cells(ROOT / "sample_sessions" / "first-night-race.csv")
    header = rows[0]
    number, row = next(
        (n, r) for n, r in enumerate(rows[3:], 4) if r[1] == "picker" and "0" in r[3 : 3 + 5]
    )
    row[row.index("0", 3)] = ""  # a defender's 0 blanked by hand
    _write(path, rows)
    assert header[:3] == ["hand", "kind", "ref"]
    verify = run("-f", path, "verify")
    assert verify.exit_code == 1 and verify.stdout.startswith(f"{path}:{number}:")
    for args in REPORTS:
        result = run("-f", path, *args)
        assert result.exit_code == 1 and result.stderr.startswith(f"Error: {path}:{number}:"), (
            args,
            result.stderr,
        )


def test_reports_and_verify_agree_on_every_sample(run: Run) -> None:
    for path in sorted((ROOT / "sample_sessions").glob("**/*.csv")):
        assert run("-f", path, "verify").exit_code == 0
        for args in REPORTS[:-1]:
            assert run("-f", path, *args).exit_code == 0, (path, args)


def test_a_line_break_inside_a_cell_is_reported_not_misread(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "friday.csv"
    rows = _cells(ROOT / "sample_sessions" / "standard-friday.csv")
    rows[5][rows[0].index("note")] = "two\nlines"
    _write(path, rows)
    out = run("-f", path, "verify").stdout
    assert out.startswith(f"{path}:6: a cell holds a line break")
    assert run("-f", path, "standings").exit_code == 1


def test_the_sheet_streams_and_refuses_before_printing(run: Run, tmp_path: Path) -> None:
    path = _edited_last_hand(tmp_path)
    result = run("-f", path, "sheet", "--format", "csv")
    assert result.stdout == ""  # nothing printed from a file that fails
    good = run("-f", ROOT / "sample_sessions" / "standard-friday.csv", "sheet", "--format", "csv")
    rows = list(csv.reader(io.StringIO(good.stdout)))
    assert rows[0][:3] == ["Hand", "Dealer", "Played"] and rows[-1][2] == "Total"


def test_a_formula_typed_into_a_note_by_hand_is_reported_and_never_exported(
    run: Run, tmp_path: Path
) -> None:
    from scorepad.render import FORMULA_STARTS as shown
    from scorepad.store.format import FORMULA_STARTS

    assert shown == FORMULA_STARTS
    path = tmp_path / "friday.csv"
    rows = _cells(ROOT / "sample_sessions" / "standard-friday.csv")
    rows[4][rows[0].index("note")] = '=HYPERLINK("http://x","y")'
    _write(path, rows)
    verify = run("-f", path, "verify")
    assert verify.exit_code == 1
    assert verify.stdout.startswith(f"{path}:5: note: '=HYPERLINK") and "formula" in verify.stdout
    result = run("-f", path, "sheet", "--format", "csv")
    assert result.exit_code == 1 and result.stdout == ""


def test_verify_says_how_to_mend_a_row_changed_by_hand(run: Run, tmp_path: Path) -> None:
    path = _edited_last_hand(tmp_path)
    result = run("-f", path, "verify")
    assert result.exit_code == 1
    assert "put its cells back as scorepad wrote them" in result.stderr
    assert "`scorepad amend N ...`" in result.stderr


def test_undoing_a_void_in_a_version_1_file_rewrites_it_in_the_current_format(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "friday.csv"
    shutil.copy(V1 / "standard-friday.csv", path)
    assert run("-f", path, "void", "3").exit_code == 0
    assert "format" not in _cells(path)[0]  # a void: still version 1
    before = json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"]
    assert run("-f", path, "undo").stdout.startswith("Undid the void of hand 3.")
    header, rules_row = _cells(path)[:2]
    assert rules_row[header.index("format")] == "6"  # (its `undoes` column)
    after = json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"]
    assert after != before and run("-f", path, "verify").stdout == ""


def test_an_older_file_whose_player_is_named_like_a_newer_column_reads_as_that_player(
    run: Run, tmp_path: Path
) -> None:
    """A format-3 file knows no `last` column (format 4 brought it): a player called `last` in
    its header is a player, for every command, and a new hand keeps the file readable."""
    fixture = Path(__file__).parent / "fixtures" / "v3" / "standard-friday.csv"
    original = tmp_path / "original.csv"
    original.write_bytes(fixture.read_bytes())
    renamed = tmp_path / "renamed.csv"
    renamed.write_bytes(fixture.read_bytes().replace(b"Ann", b"last"))
    assert run("-f", renamed, "verify").exit_code == 0
    before = json.loads(run("-f", original, "standings", "--format", "json").stdout)["totals"]
    after = json.loads(run("-f", renamed, "standings", "--format", "json").stdout)["totals"]
    assert after == {("last" if p == "Ann" else p): v for p, v in before.items()}
    for command in ("sheet", "stats", "settle", "status", "log"):
        assert run("-f", renamed, command).exit_code == 0, command
    # A hand in which `last` picks is recorded in the file's own format ...
    result = run("-f", renamed, "hand", "--picker", "last", "--alone", "--points", "91")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Hand 41: last picked")
    assert run("-f", renamed, "verify").exit_code == 0
    # ... and a change that needs format 4 (whose columns include `last`) is refused, the file
    # as it was.
    before = renamed.read_bytes()
    result = run("-f", renamed, "penalty", "Bob", "--points", "2")
    assert result.exit_code == 1
    assert "has a column named 'last', the name of a player here" in result.stderr
    assert renamed.read_bytes() == before
