"""Issue 23, items 7 and 8: the sheet shows what happened (rule changes, runs, why a stake is what
it is, the rules in force), and wording and help as a user expects them."""

import csv
import io
import json
from pathlib import Path

from _types import Fails, Run


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


# -- 8. wording and help ------------------------------------------------------------------------


def test_a_penaltys_receivers_are_not_labelled_as_paying(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    _ok(run, "-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed")
    lines = _ok(run, "-f", path, "penalty", "Ann", "--points", 2).splitlines()
    roles = {line.split()[0]: line for line in lines if line[:3] in ("Ann", "Bob")}
    assert "pays a penalty" in roles["Ann"]
    assert "is paid the penalty" in roles["Bob"] and "paid a penalty" not in roles["Bob"]


def test_rules_lists_a_choice_settings_choices(run: Run) -> None:
    lines = _ok(run, "rules", "standard").splitlines()
    all_pass = next(line for line in lines if line.startswith("all_pass "))
    assert all_pass.endswith(
        "what happens when everyone passes "
        "(choices: leaster, doubler, forced, redeal, schwanzer, ramsch, pot)"
    )


def test_the_doubler_error_gives_the_command_that_turns_doublers_on(
    run: Run, fails: Fails, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    _ok(run, "-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed")
    assert fails("-f", path, "hand", "--doubler").endswith(
        "a doubler needs all_pass = doubler: scorepad set all_pass=doubler (from the next hand on)"
    )


def test_help_says_how_to_turn_on_shell_completion(run: Run) -> None:
    out = _ok(run, "--help")
    assert 'eval "$(_SCOREPAD_COMPLETE=bash_source scorepad)"' in out
    assert "_SCOREPAD_COMPLETE=zsh_source" in out and "_SCOREPAD_COMPLETE=fish_source" in out


def _complete(line: str, shell: str = "bash") -> list[str]:
    from click.testing import CliRunner

    from scorepad.cli import cli

    words = line.split(" ")
    result = CliRunner().invoke(
        cli,
        [],
        prog_name="scorepad",
        env={
            "_SCOREPAD_COMPLETE": f"{shell}_complete",
            "COMP_WORDS": line,
            "COMP_CWORD": str(len(words) - 1),
        },
    )
    if shell == "zsh":
        return result.stdout.splitlines()[1::3]
    return [item.split(",", 1)[1] for item in result.stdout.splitlines()]


def test_set_key_tab_offers_the_settings_choices() -> None:
    choices = ["leaster", "doubler", "forced", "redeal", "schwanzer", "ramsch", "pot"]
    assert _complete("scorepad set all_pass = ") == choices  # (bash breaks words at =)
    assert _complete("scorepad set all_pass = r") == ["redeal", "ramsch"]
    assert _complete("scorepad set all_pass=r", "zsh") == ["all_pass=redeal", "all_pass=ramsch"]
    assert _complete("scorepad new --set blitz=", "zsh") == ["blitz=true", "blitz=false"]
    assert "all_pass=" in _complete("scorepad set all_")


def test_season_says_so_when_it_adds_schafkopf_points_to_sheepshead_points(
    run: Run,
) -> None:
    samples = Path(__file__).parent.parent / "sample_sessions"
    mixed = run("season", samples / "standard-friday.csv", samples / "bavarian-evening.csv")
    assert mixed.exit_code == 0
    assert mixed.stderr == (
        "Warning: this season adds Sheepshead game points (standard-friday) to Schafkopf "
        "points (bavarian-evening): not the same unit (a Bavarian tariff counts cents); give "
        "each game a season of its own to compare like with like\n"
        "Warning: no settlement: standard-friday set no rate; give --rate\n"
    )
    alike = run("season", samples / "standard-friday.csv", samples / "house-rules.csv")
    assert alike.exit_code == 0 and alike.stderr == ""


def test_verify_v_says_which_rows_standings_counts_as_hands(run: Run) -> None:
    friday = Path(__file__).parent.parent / "sample_sessions" / "standard-friday.csv"
    assert _ok(run, "-f", friday, "verify", "-v") == (
        f"{friday}: 40 rows of hands, 39 hands counted (1 void), 2 corrections: all consistent.\n"
    )
    assert _ok(run, "-f", friday, "standings").splitlines()[-1] == "39 hands (standard rules)."


def test_status_on_a_new_night_names_no_leader(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    _ok(run, "-f", path, "new", "--players", "Jürgen,Bob,Cy,Dee,Ed")
    assert "Leader:    nobody yet (everyone at 0)" in _ok(run, "-f", path, "status")
    _ok(run, "-f", path, "hand", "--picker", "Bob", "--partner", "Cy", "--points", 64)
    assert "Leader:    Bob +2" in _ok(run, "-f", path, "status")


def test_seat_remove_of_someone_who_left_says_they_left(
    run: Run, fails: Fails, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    _ok(run, "-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed")
    _ok(run, "-f", path, "seat", "remove", "Ed")
    assert fails("-f", path, "seat", "remove", "ed") == (
        "Error: Ed has already left the table; seated: Ann, Bob, Cy, Dee"
    )
    assert fails("-f", path, "seat", "remove", "Zed").startswith(
        "Error: seat remove Zed: unknown player"
    )


def test_seat_add_and_remove_keep_a_note(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    _ok(run, "-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed")
    _ok(run, "-f", path, "seat", "remove", "Ed", "--note", "went home")
    _ok(run, "-f", path, "seat", "add", "Flo", "--note", "late")
    _ok(run, "-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", 64)
    hands = json.loads(_ok(run, "-f", path, "sheet", "--format", "json"))["hands"]
    assert hands[0]["note"] == "Ed leaves: went home; Flo joins: late"


def test_the_charts_y_axis_shows_whole_numbers(run: Run) -> None:
    friday = Path(__file__).parent.parent / "sample_sessions" / "standard-friday.csv"
    out = _ok(run, "-f", friday, "chart", "--width", 60, "--height", 14)
    ticks = [line.split("┤")[0].strip() for line in out.splitlines() if "┤" in line]
    assert len(ticks) >= 3 and all(t.lstrip("-").isdigit() for t in ticks), ticks


def test_a_csv_of_another_program_is_refused_with_a_short_reason(
    run: Run, fails: Fails, tmp_path: Path
) -> None:
    other = tmp_path / "scores.csv"
    other.write_text("name,score\nAnn,3\n", encoding="utf-8")
    assert fails("-f", other, "standings") == (
        f"Error: {other}:1: not a scorepad session: its header has no hand and kind columns "
        "(a session file starts hand,kind,ref,...)"
    )


def test_new_on_an_empty_file_says_to_run_repair_which_removes_it(
    run: Run, fails: Fails, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    path.write_bytes(b"")
    assert fails("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed") == (
        f"Error: {path}: is empty (a `scorepad new` that never finished?): `scorepad repair` "
        "removes it; then run `scorepad new` again"
    )
    assert path.read_bytes() == b""
    _ok(run, "-f", path, "repair")
    assert not path.exists()
    _ok(run, "-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed")


def test_replay_of_several_files_replays_each(run: Run) -> None:
    hands = Path(__file__).parent.parent / "sample_sessions" / "hands"
    first, second = hands / "bavarian-bettel.txt", hands / "schafkopf-sauspiel.txt"
    result = run("replay", first, second)
    assert result.exit_code == 0, result.stderr
    alone = [_ok(run, "replay", f) for f in (first, second)]
    assert result.stdout == f"==> {first} <==\n{alone[0]}\n==> {second} <==\n{alone[1]}"
    data = json.loads(_ok(run, "replay", first, second, "--format", "json"))
    assert [d["dealer"] for d in data] == [
        json.loads(_ok(run, "replay", f, "--format", "json"))["dealer"] for f in (first, second)
    ]
    disputed = run("replay", first, hands / "friday-disputed.txt")  # (a renege in it)
    assert disputed.exit_code == 1 and disputed.stdout.startswith(f"==> {first} <==\n")
