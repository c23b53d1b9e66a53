"""Issue 23, items 3 and 4: `replay --record` records a hand file once and only at the
session's next dealer; what `repair` mends is named `scorepad repair` wherever it stops a
command, `repair` removes blank lines anywhere (renumbering the lines rows name), and
`verify` reports a bad row once, not with every row below it."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from _types import Run
from conftest import memo_of

from scorepad.session import Session

ROOT = Path(__file__).parent.parent
HAND_FILE = ROOT / "sample_sessions" / "hands" / "first-night-walkthrough.txt"
SEATS = "West,North,East,Pat,South"  # (the hand file's players; South deals)


def _friday(tmp_path: Path) -> Path:
    path = tmp_path / "friday.csv"
    path.write_bytes((ROOT / "sample_sessions" / "standard-friday.csv").read_bytes())
    return path


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\r\n")  # (the last piece is the empty one after the end)


def _write_lines(path: Path, lines: list[bytes]) -> None:
    path.write_bytes(b"\r\n".join(lines))


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return [dict(zip(rows[0], row)) for row in rows[1:]]


def _fast_and_full_agree(path: Path) -> list[str]:
    """The problems of the fast and the full pass (the same), as verify prints them."""
    found = []
    for fast in (True, False):
        ledger, problems = Session(path).check(memo=memo_of(fast))
        found.append((dict(ledger.totals), ledger.last_hand, problems))
    assert found[0] == found[1]
    return [f"{p.line}: {p.message}" for p in found[0][2]]


def _night(run: Run, path: Path, *commands: tuple[object, ...]) -> None:
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    for command in commands:
        result = run("-f", path, *command)
        assert result.exit_code == 0, result.output


HAND = ("hand", "--picker", "Ann", "--partner", "Bob", "--points", 70, "--tricks", 4)


# --- item 4: every message about what `repair` mends names it --------------------------------


def test_a_blank_line_between_rows_is_named_for_repair_by_every_command(
    run: Run, tmp_path: Path
) -> None:
    path = _friday(tmp_path)
    lines = _lines(path)
    _write_lines(path, [*lines[:10], b"", *lines[10:]])  # line 11
    verify = run("-f", path, "verify")
    assert verify.exit_code == 1
    assert verify.stdout == f"{path}:11: a blank line; run `scorepad repair` to remove it\n"
    standings = run("-f", path, "standings")
    assert standings.exit_code == 1
    assert standings.stderr == (
        f"Error: {path}:11: a blank line; run `scorepad repair` to remove it\n"
    )


def test_a_blank_line_at_the_end_is_named_for_repair_by_hand_and_status(
    run: Run, tmp_path: Path
) -> None:
    path = _friday(tmp_path)
    path.write_bytes(path.read_bytes() + b"\r\n")
    for command in (("status",), HAND, ("standings",)):
        result = run("-f", path, *command)
        assert result.exit_code == 1
        assert result.stderr == (
            f"Error: {path}:46: a blank line; run `scorepad repair` to remove it\n"
        ), command
    assert "cells where the header has" not in run("-f", path, "verify").stdout


def test_a_whole_number_saved_as_a_decimal_is_named_for_repair(run: Run, tmp_path: Path) -> None:
    path = _friday(tmp_path)
    lines = _lines(path)
    cells = lines[5].split(b",")
    cells[3] += b".0"  # Ann's points on line 6
    lines[5] = b",".join(cells)
    _write_lines(path, lines)
    message = "Ann's points: '-1.0' is not a whole number; run `scorepad repair` to write it as -1"
    assert run("-f", path, "verify").stdout == f"{path}:6: {message}\n"
    assert run("-f", path, "sheet").stderr == f"Error: {path}:6: {message}\n"
    assert "on 1 line (lines 6)" in run("-f", path, "repair").stdout
    assert run("-f", path, "verify").stdout == ""


# --- item 4: repair mends blank lines anywhere ----------------------------------------------


def test_repair_removes_blank_lines_between_rows(run: Run, tmp_path: Path) -> None:
    path = _friday(tmp_path)
    good = path.read_bytes()
    lines = _lines(path)
    _write_lines(path, [*lines[:10], b"", b"  ", *lines[10:20], b"", *lines[20:]])
    out = run("-f", path, "repair").stdout
    assert f"{path}: removed 3 blank lines between rows (lines 11, 12, 23).\n" in out
    assert path.read_bytes() == good
    assert run("-f", path, "verify").stdout == ""
    assert "nothing to repair" in run("-f", path, "repair").stdout


def _changes_night(run: Run, path: Path) -> None:
    """A night whose rows name lines: a change of the rules, undos and a redo."""
    _night(
        run,
        path,
        HAND,
        ("set", "double_on_the_bump=true"),
        ("hand", "--picker", "Cy", "--alone", "--points", 70, "--tricks", 4),
        ("amend", 1, "--points", 58),
        ("undo",),
        ("undo",),
        ("redo",),
        HAND,
    )


def test_repair_keeps_the_lines_rows_name_when_the_blank_lines_came_after_them(
    run: Run, tmp_path: Path
) -> None:
    """A blank line an editor put in moves the rows below it down, but not the lines that
    `rules_line`, `undoes` and `redoes` name: removing it puts the file back as it was."""
    path = tmp_path / "night.csv"
    _changes_night(run, path)
    good = path.read_bytes()
    lines = _lines(path)
    _write_lines(path, [*lines[:3], b"", *lines[3:5], b"", *lines[5:7], b"", *lines[7:]])
    assert run("-f", path, "verify").exit_code == 1
    out = run("-f", path, "repair").stdout
    assert "removed 3 blank lines between rows (lines 4, 7, 10)" in out
    assert "renumbered" not in out
    assert path.read_bytes() == good
    assert run("-f", path, "verify").stdout == ""


def test_repair_renumbers_the_lines_named_by_rows_written_below_a_blank_line(
    run: Run, tmp_path: Path
) -> None:
    """Rows scorepad appended below a blank line name rows by their lines with it: those
    cells are renumbered (and the ones written before it are kept)."""
    path = tmp_path / "night.csv"
    _night(run, path, HAND, ("hand", "--picker", "Cy", "--alone", "--points", 70), ("undo",))
    lines = _lines(path)
    _write_lines(path, [*lines[:4], b"", *lines[4:]])  # line 5, between hands 1 and 2
    for command in (HAND, ("set", "double_on_the_bump=true"), ("undo",), ("redo",)):
        assert run("-f", path, *command).exit_code == 0, command
    assert run("-f", path, "verify").exit_code == 1
    out = run("-f", path, "repair").stdout
    assert "removed 1 blank line between rows (line 5)" in out
    assert "renumbered the lines that rules_line, undoes and redoes name" in out
    assert "on 3 lines (lines 9, 10, 11)" in out
    assert run("-f", path, "verify").stdout == ""
    rows = _rows(path)
    # line 6: the undo of hand 2 (line 5), written before the blank line; then hand 3, the
    # change of the rules on line 8, its undo and its redo
    assert [(r["kind"], r["rules_line"], r["undoes"], r["redoes"]) for r in rows[4:]] == [
        ("void", "", "5", ""),
        ("picker", "", "", ""),
        ("set", "8", "", ""),
        ("set", "9", "8", ""),
        ("set", "10", "", "8"),
    ]
    for command in (("undo",), ("undo",)):  # (each finds the change it names)
        assert run("-f", path, *command).exit_code == 0
    assert run("-f", path, "verify").stdout == ""


def test_repair_refuses_an_undo_whose_line_cannot_be_told_and_changes_nothing(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    _changes_night(run, path)
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))
    at = rows[0].index("undoes")
    assert rows[7][at] == "7"  # line 8: the undo of the amendment on line 7
    rows[7][at] = "6"  # (edited by hand: line 6 is hand 2, line 5 the change of the rules)
    rows.insert(4, [])  # a blank line above both
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)
    before = path.read_bytes()
    result = run("-f", path, "repair")
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {path}:9: cannot repair: the undoes cell of line 9 names line 6, and with the "
        f"blank lines above it removed, which row it means cannot be told (neither of lines 7 "
        f"and 6 as the file is); nothing was changed (remove the blank lines and set that "
        f"cell by hand)\n"
    )
    assert path.read_bytes() == before
    assert not (tmp_path / "night.csv.bak").exists()


# --- item 4: verify reports the first cause, not its knock-on effects -----------------------


def test_verify_reports_a_bad_cell_of_a_hand_once(run: Run, tmp_path: Path) -> None:
    path = _friday(tmp_path)
    lines = _lines(path)
    cells = lines[3].split(b",")
    cells[3] = b"x"  # Ann's points in hand 1 (line 4)
    lines[3] = b",".join(cells)
    _write_lines(path, lines)
    assert run("-f", path, "verify").stdout == (
        f"{path}:4: Ann's points: 'x' is not a whole number\n"
    )
    assert _fast_and_full_agree(path) == ["4: Ann's points: 'x' is not a whole number"]


def test_verify_goes_on_after_a_hand_whose_kind_and_number_cannot_be_read(
    tmp_path: Path,
) -> None:
    for bad in (b"pickr", b""):  # its kind misspelt; its kind and its number gone
        path = _friday(tmp_path)
        lines = _lines(path)
        cells = lines[6].split(b",")  # hand 4
        cells[1] = bad
        if not bad:
            cells[0] = b""
        lines[6] = b",".join(cells)
        _write_lines(path, lines)
        problems = _fast_and_full_agree(path)
        assert len(problems) == 1 and problems[0].startswith("7: kind: ")


def test_verify_goes_on_after_a_missing_hand_as_the_numbers_say(tmp_path: Path) -> None:
    path = _friday(tmp_path)
    lines = _lines(path)
    del lines[6]  # hand 4: the rows below it go on from hand 5
    _write_lines(path, lines)
    problems = _fast_and_full_agree(path)
    assert problems == ["7: hand number 5 is out of order: 4 comes next"]


# --- item 3: replay --record ----------------------------------------------------------------


def test_replay_record_refuses_a_hand_file_recorded_already(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", SEATS, "--dealer", "South").exit_code == 0
    first = run("-f", path, "replay", HAND_FILE, "--record")
    assert first.exit_code == 0, first.output
    assert "Recorded into" in first.stdout
    row = _rows(path)[2]
    # (its digest is format 7's; its call, AC, is format 9's `called`, which the file now has)
    assert len(row["digest"]) == 64 and _rows(path)[0]["format"] == "9"
    assert row["called"] == "clubs"
    assert run("-f", path, "verify").stdout == ""
    # the same hand again (the session's next dealer is West now: the hand file's is
    # South, but the first thing said is that it is recorded), spelt otherwise too
    respelt = tmp_path / "again.txt"
    respelt.write_text(
        "# the same hand, copied\n" + HAND_FILE.read_text(encoding="utf-8").replace(":", " : "),
        encoding="utf-8",
    )
    before = path.read_bytes()
    for hand_file in (HAND_FILE, respelt):
        again = run("-f", path, "replay", hand_file, "--record")
        assert again.exit_code == 1
        assert again.stderr == (
            "Error: not recorded: this hand file is recorded already, as hand 1 "
            "(void that hand first to record it again)\n"
        )
        assert path.read_bytes() == before


def test_replay_record_of_a_voided_hand_records_it_again(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", SEATS, "--dealer", "South").exit_code == 0
    assert run("-f", path, "replay", HAND_FILE, "--record").exit_code == 0
    assert run("-f", path, "void", 1).exit_code == 0
    again = run("-f", path, "replay", HAND_FILE, "--record")
    assert again.exit_code == 0, again.output
    assert [r["hand"] for r in _rows(path) if r["digest"]] == ["1", "2"]
    assert run("-f", path, "verify").stdout == ""


def test_replay_record_refuses_a_dealer_other_than_the_sessions_next(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", SEATS, "--dealer", "West").exit_code == 0
    before = path.read_bytes()
    result = run("-f", path, "replay", HAND_FILE, "--record")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: not recorded: the hand file says South deals, but the session's next hand (1) "
        "is West's to deal\n"
    )
    assert path.read_bytes() == before


def test_verify_checks_a_digest_cell(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", SEATS, "--dealer", "South").exit_code == 0
    assert run("-f", path, "replay", HAND_FILE, "--record").exit_code == 0
    text = path.read_text(encoding="utf-8")
    digest = _rows(path)[2]["digest"]
    path.write_text(text.replace(digest, "not a digest"), encoding="utf-8", newline="")
    assert _fast_and_full_agree(path) == [
        "4: digest: 'not a digest' is not what `replay --record` keeps (the digest of a hand "
        "file, 64 hexadecimal digits, on a hand's row)"
    ]


def test_replay_record_refuses_a_hand_file_of_other_seats(run: Run, tmp_path: Path) -> None:
    """The hand file deals West, North, East, Pat, South in, in seat order: a session that
    seats North and West the other way round, or seats someone else, does not take it (its
    hand would be scored for seats it was not played at), and nothing is written."""
    for seats in ("North,West,East,Pat,South", "West,North,East,Sam,South"):
        path = tmp_path / f"{seats}.csv"
        dealer = seats.split(",")[-1]
        assert run("-f", path, "new", "--players", seats, "--dealer", dealer).exit_code == 0
        before = path.read_bytes()
        refused = run("-f", path, "replay", HAND_FILE, "--record")
        assert refused.exit_code == 1
        assert refused.stderr == (
            "Error: not recorded: the hand file deals West, North, East, Pat, South in, in seat "
            f"order; the session's hand deals {seats.replace(',', ', ')}\n"
        )
        assert path.read_bytes() == before


def test_repair_moves_a_line_verify_cannot_read_as_csv_into_rejected_saying_so_first(
    run: Run, tmp_path: Path
) -> None:
    path = _friday(tmp_path)
    lines = _lines(path)
    last = len(lines) - 2  # the index of the last row (the night's last hand)
    cut = lines[last].index(b",", 20) + 1
    broken = lines[last][:cut] + b'"x"y' + lines[last][cut:]  # a quoted cell, then more
    _write_lines(path, [*lines[:last], broken, b""])
    number = last + 1
    verify = run("-f", path, "verify")
    assert verify.exit_code == 1
    assert verify.stdout == (
        f"{path}:{number}: cannot read this line as CSV: ',' expected after '\"'; "
        "`scorepad repair` moves it into a .rejected file beside it\n"
    )
    rejected = path.with_name(path.name + ".rejected")
    rejected.write_bytes(b"kept from before\n")  # (appended to, never overwritten)
    out = run("-f", path, "repair").stdout.splitlines()
    assert out[0] == (
        f"{path}:{number}: cannot be read as CSV (',' expected after '\"'); moving it into "
        f"{path.name}.rejected (kept there as it was, not lost)"
    )
    assert out[1] == f"{path}: moved line {number}, which cannot be read as CSV, to " + (
        f"{path.name}.rejected."
    )
    assert out[-1].startswith(f"{path}: the lines moved into {path.name}.rejected no longer count")
    assert rejected.read_bytes() == b"kept from before\n" + broken + b"\r\n"
    assert path.read_bytes() == b"".join(line + b"\r\n" for line in lines[:last])
    assert run("-f", path, "verify").stdout == ""
    assert "nothing to repair" in run("-f", path, "repair").stdout
    assert rejected.read_bytes() == b"kept from before\n" + broken + b"\r\n"
