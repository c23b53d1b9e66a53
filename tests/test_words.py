"""Issue 23, items 7 and 8: the sheet shows what happened (rule changes, runs, why a stake is what
it is, the rules in force), and wording and help as a user expects them."""

import csv
import io
import json
from pathlib import Path

from _types import Run


def _ok(run: Run, *args: object) -> str:
    result = run(*args)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result.stdout


def _night_with_changes(run: Run, path: Path) -> None:
    _ok(run, "-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed")
    _ok(run, "-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", 64)
    _ok(run, "-f", path, "set", "double_on_the_bump=true", "--note", "Ed's house")
    _ok(run, "-f", path, "hand", "--picker", "Cy", "--partner", "Dee", "--points", 50)
    _ok(run, "-f", path, "set", "base=2")


# -- 7. the sheet shows what happened ---------------------------------------------------------


def test_the_sheet_shows_a_change_of_the_rules_and_its_note_where_it_happened(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    _night_with_changes(run, path)
    lines = _ok(run, "-f", path, "sheet").splitlines()
    played = lines[2:]
    assert "Ann + Bob 64" in played[0]
    assert "rules: double_on_the_bump=true" in played[1] and played[1].endswith("Ed's house")
    assert "Cy + Dee 50" in played[2]
    assert "rules: base=2" in played[3]
    assert "Total" in played[4]
    rows = list(csv.reader(io.StringIO(_ok(run, "-f", path, "sheet", "--format", "csv"))))
    assert rows[2] == ["", "", "rules: double_on_the_bump=true", "", "", "", "", "", "Ed's house"]
    assert rows[4][2] == "rules: base=2"
    data = json.loads(_ok(run, "-f", path, "sheet", "--format", "json"))
    assert len(data["hands"]) == 2  # (hands only: a change is not a hand)
    first, second = data["changes"]
    assert first["note"] == "Ed's house" and first["from_hand"] == 2
    assert first["changes"] == "double_on_the_bump=true"
    assert second["from_hand"] == 3
    assert second["rules"] == "standard, with double_on_the_bump=true, base=2"
    running = _ok(run, "-f", path, "sheet", "--running").splitlines()
    assert "rules: base=2" in running[5]


def test_reports_say_which_rules_were_in_force_after_they_changed(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    _night_with_changes(run, path)
    words = "standard rules, changed 2 times; from hand 3 on: standard, with "
    words += "double_on_the_bump=true, base=2"
    assert _ok(run, "-f", path, "standings").splitlines()[-1] == f"2 hands ({words})."
    assert _ok(run, "-f", path, "settle").splitlines()[0] == (
        f"Settlement at $1.00 a point (2 hands, {words}):"
    )
    assert _ok(run, "-f", path, "stats").splitlines()[-1].startswith(f"2 hands ({words}).")
    one = tmp_path / "one.csv"
    _ok(run, "-f", one, "new", "--players", "Ann,Bob,Cy,Dee,Ed")
    _ok(run, "-f", one, "set", "base=2")
    assert _ok(run, "-f", one, "standings").splitlines()[-1] == (
        "0 hands (standard rules; from hand 1 on: standard, with base=2)."
    )


def test_a_bavarian_hand_names_its_runs(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "abend.csv"
    _ok(run, "-f", path, "new", "--players", "Anni,Bertl,Sepp,Vroni", "--rules", "bavarian")
    hand = ("--picker", "Anni", "--partner", "Bertl", "--points", 95, "--runs", 3)
    said = _ok(run, "-f", path, "hand", *hand, "--knocks", 1).splitlines()[0]
    assert said == (
        "Hand 1: Anni played a partner game with Bertl, 95 points: a win, stake 100 "
        "(x2 knock); 3 runs; knocked; schneider."
    )
    assert "Anni + Bertl 95, 3 runs, knocked, schneider" in _ok(run, "-f", path, "sheet")


def test_the_summary_after_a_hand_says_why_its_stake_is_what_it_is(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    _ok(run, "-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed", "--rules", "pagat")
    bumped = _ok(run, "-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", 50)
    assert bumped.splitlines()[0] == (
        "Hand 1: Ann picked, partner Bob, 50 points: a loss, level 1, stake 2 "
        "(x2 double on the bump)."
    )
    plain = _ok(run, "-f", path, "hand", "--picker", "Cy", "--partner", "Dee", "--points", 70)
    assert plain.splitlines()[0].endswith("a win, level 1, stake 1.")
    cracked = _ok(
        run, "-f", path, "hand", "--picker", "Cy", "--partner", "Ann", "--points", 70,
        "--crack", "Dee", "--recrack",
    )  # fmt: skip
    assert cracked.splitlines()[0] == (
        "Hand 3: Cy picked, partner Ann, 70 points: a win, level 1, stake 4 "
        "(x2 crack by Dee, x2 re-crack); cracked by Dee; re-cracked."
    )
