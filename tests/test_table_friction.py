"""What a new user tripped over at a real table (issue: at the table), one test each."""

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
from _types import Fails, Run

from scorepad.cli import COMMANDS, cli

ROOT = Path(__file__).parent.parent
FRIDAY = ROOT / "sample_sessions" / "standard-friday.csv"


def _helps() -> Iterator[str]:
    """The help text of every command and subcommand."""
    ctx = click.Context(cli, info_name="scorepad")
    yield cli.get_help(ctx)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None
        sub = click.Context(command, info_name=name, parent=ctx)
        yield command.get_help(sub)
        for inner in getattr(command, "commands", {}).values():
            yield inner.get_help(click.Context(inner, info_name=inner.name, parent=sub))


def test_every_path_named_in_help_exists() -> None:
    named = {m for text in _helps() for m in re.findall(r"sample_sessions/[\w./-]+", text)}
    assert named, "the help names the bundled samples"
    for path in named:
        assert (ROOT / path.rstrip(".")).exists(), path


def _pipe_into_head(*args: object) -> tuple[int, bytes, bytes]:
    """Run scorepad with its output read by `head -1`; returns scorepad's exit and stderr."""
    scorepad = subprocess.Popen(
        [sys.executable, "-m", "scorepad", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert scorepad.stdout is not None and scorepad.stderr is not None
    first = scorepad.stdout.readline()
    scorepad.stdout.close()  # the reader goes away
    scorepad.wait(timeout=60)
    return scorepad.returncode, first, scorepad.stderr.read()


def test_a_reader_that_goes_away_is_no_error(tmp_path: Path) -> None:
    big = tmp_path / "friday.csv"
    shutil.copy(FRIDAY, big)
    code, first, err = _pipe_into_head("-f", big, "sheet", "--running")
    assert code == 0 and first.strip() and err == b""


def test_a_hand_piped_into_head_is_recorded_and_exits_zero(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    code, _, err = _pipe_into_head(
        "-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "70", "--explain"
    )
    assert code == 0 and err == b""
    standings = json.loads(run("-f", path, "standings", "--format", "json").stdout)
    assert standings["hands"] == 1 and standings["totals"]["Ann"] == 2


def test_verify_says_what_it_checked_when_asked(run: Run, tmp_path: Path) -> None:
    assert run("-f", FRIDAY, "verify").stdout == ""
    out = run("-f", FRIDAY, "verify", "-v").stdout
    assert out == (
        f"{FRIDAY}: 40 rows of hands, 39 hands counted (1 void), 2 corrections: all consistent.\n"
    )
    path = tmp_path / "six.csv"
    shutil.copy(FRIDAY, path)
    assert run("-f", path, "seat", "add", "Flo").exit_code == 0
    assert "1 seat change: all consistent" in run("-f", path, "verify", "--verbose").stdout


def test_settle_shows_the_rate_as_given_and_refuses_one_that_pays_nothing(
    run: Run, fails: Fails
) -> None:
    out = run("-f", FRIDAY, "settle", "--rate", "0.125").stdout
    assert out.startswith("Settlement at $0.125 a point")
    assert run("-f", FRIDAY, "settle", "--rate", "1").stdout.startswith("Settlement at $1.00")
    error = fails("-f", FRIDAY, "settle", "--rate", "0.0001")
    assert "every balance rounds to nothing" in error and "12 points" in error


def test_an_amend_that_changes_nothing_is_refused(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    assert run("-f", path, "hand", "--leaster", "--winner", "Cy").exit_code == 0
    assert (
        run(
            "-f",
            path,
            "hand",
            "--picker",
            "Ann",
            "--partner",
            "Bob",
            "--points",
            "70",
            "--tricks",
            "4",
        ).exit_code
        == 0
    )
    before = path.read_bytes()
    for args in (("1", "--winner", "cy"), ("2", "--points", "70"), ("2", "--partner", "Bob")):
        result = run("-f", path, "amend", *args)
        assert result.exit_code == 1, args
        assert "already has these inputs: there is nothing to amend" in result.stderr
    assert path.read_bytes() == before
    assert run("-f", path, "amend", "2", "--points", "71").exit_code == 0  # a real change


def _night(run: Run, path: Path, winner: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    assert run("-f", path, "hand", "--leaster", "--winner", winner).exit_code == 0


def test_season_over_folders_of_scorepad_csv_keeps_every_night(run: Run, tmp_path: Path) -> None:
    _night(run, tmp_path / "2026-11-06" / "scorepad.csv", "Ann")
    _night(run, tmp_path / "2026-11-13" / "scorepad.csv", "Bob")
    files = sorted(tmp_path.glob("*/scorepad.csv"))
    data = json.loads(run("season", *files, "--format", "json").stdout)
    assert data["nights"] == ["2026-11-06", "2026-11-13"]
    ann = next(r for r in data["players"] if r["player"] == "Ann")
    assert ann["nights"] == {"2026-11-06": 4, "2026-11-13": -1}
    assert ann["total"] == 3 and ann["played"] == 2
    text = run("season", *files).stdout
    assert text.splitlines()[0].split()[:3] == [
        "Player",
        "2026-11-06",
        "2026-11-13",
    ]


def test_season_refuses_a_night_given_twice(run: Run, fails: Fails, tmp_path: Path) -> None:
    _night(run, tmp_path / "fri.csv", "Ann")
    error = fails("season", tmp_path / "fri.csv", tmp_path)
    assert "fri.csv: this night is given twice" in error


def test_season_refuses_to_add_a_race_to_game_points(
    run: Run, fails: Fails, tmp_path: Path
) -> None:
    shutil.copy(ROOT / "sample_sessions" / "first-night-race.csv", tmp_path)
    shutil.copy(FRIDAY, tmp_path)
    error = fails("season", tmp_path)
    assert "first-night-race.csv: a race night" in error


def test_the_session_file_may_follow_the_command(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert run("new", "--players", "Ann,Bob,Cy,Dee,Ed", "-f", path).exit_code == 0
    assert run("hand", "--leaster", "--winner", "Cy", "--file", path).exit_code == 0
    out = run("standings", "-f", path, "--format", "json").stdout
    assert json.loads(out)["totals"]["Cy"] == 4
    # the one after the command wins over the one before it, as the nearest does
    assert (
        json.loads(
            run("-f", tmp_path / "other.csv", "standings", "-f", path, "--format", "json").stdout
        )["hands"]
        == 1
    )
    for command in ("status", "sheet", "verify", "settle", "stats", "undo"):
        assert run(command, "-f", path).exit_code == 0, command
    assert run("seat", "add", "Flo", "-f", path).exit_code == 0
    result = run("standings", "-f", tmp_path / "missing.csv")
    assert result.exit_code == 1 and "(or give -f FILE)" in result.stderr


def test_notes_carry_over_and_the_sheet_shows_why_a_hand_was_voided(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    for note in ("Ann's big one", "misdeal?", "third"):
        assert (
            run(
                "-f",
                path,
                "hand",
                "--picker",
                "Ann",
                "--partner",
                "Bob",
                "--points",
                "70",
                "--note",
                note,
            ).exit_code
            == 0
        )
    assert run("-f", path, "amend", "1", "--points", "80").exit_code == 0  # no --note: kept
    assert run("-f", path, "amend", "3", "--points", "50", "--note", "recounted").exit_code == 0
    assert run("-f", path, "void", "2", "--reason", "misdeal found").exit_code == 0
    hands = json.loads(run("-f", path, "sheet", "--format", "json").stdout)["hands"]
    notes = [h["note"] for h in hands]
    assert notes == ["Ann's big one", "misdeal?; void: misdeal found", "recounted"]
    assert run("-f", path, "verify").stdout == ""
    # the note also stays with the hand in the file, for the next correction
    assert run("-f", path, "amend", "1", "--points", "81").exit_code == 0
    hands = json.loads(run("-f", path, "sheet", "--format", "json").stdout)["hands"]
    assert hands[0]["note"] == "Ann's big one"


def test_the_list_of_commands_cuts_no_sentence_short() -> None:
    for text in _helps():
        if "Commands:" not in text:
            continue
        listing = text.split("Commands:", 1)[1]
        assert "..." not in listing, listing


def test_blitz_is_a_number_in_hand_and_amend_alike(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert (
        run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed", "--set", "blitz=true").exit_code
        == 0
    )
    hand = run(
        "-f",
        path,
        "hand",
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        "70",
        "--blitz",
        "1",
        "--format",
        "json",
    )
    assert json.loads(hand.stdout)["score"]["stake"] == 2
    amended = run("-f", path, "amend", "1", "--blitz", "0", "--format", "json")
    assert json.loads(amended.stdout)["score"]["stake"] == 1


def test_a_correction_that_changes_a_departed_players_total_says_so(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    assert (
        run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "70").exit_code
        == 0
    )
    assert run("-f", path, "seat", "remove", "Ed").exit_code == 0
    result = run("-f", path, "amend", "1", "--points", "50")
    assert result.exit_code == 0
    assert result.stderr == (
        "Warning: Ed has left the table; this changes the total Ed left with by +2, to +1.\n"
    )
    result = run("-f", path, "void", "1")
    assert (
        "Warning: Ed has left the table; this changes the total Ed left with by -1, to 0."
        in result.stderr
    )


def test_json_gives_each_hand_as_data_with_the_same_keys(run: Run) -> None:
    keys = {
        "hand",
        "kind",
        "dealer",
        "picker",
        "partners",
        "alone",
        "points",
        "tricks",
        "winner",
        "note",
        "void",
        "amended",
        "stake",
        "deltas",
    }
    sheet = json.loads(run("-f", FRIDAY, "sheet", "--format", "json").stdout)
    hands = sheet["hands"]
    assert all(keys <= set(h) for h in hands) and len(hands) == 40
    leaster = next(h for h in hands if h["kind"] == "leaster")
    assert leaster["winner"] in leaster["deltas"] and leaster["picker"] is None
    assert sum(h["deltas"]["Dee"] for h in hands if not h["void"]) == sheet["totals"]["Dee"]
    running = json.loads(run("-f", FRIDAY, "sheet", "--running", "--format", "json").stdout)
    assert running["hands"][-1]["totals"] == running["totals"]
    check = json.loads(
        run(
            "check",
            "--players",
            "Ann,Bob,Cy,Dee,Ed",
            "--picker",
            "Ann",
            "--partner",
            "Bob",
            "--points",
            "64",
            "--format",
            "json",
        ).stdout
    )
    assert check["winners"] == ["Ann", "Bob"]


def _complete(run: Run, line: str) -> list[str]:
    """What bash completion offers for a command line (its last word being completed)."""
    from click.testing import CliRunner

    words = line.split(" ")
    result = CliRunner().invoke(
        cli,
        [],
        prog_name="scorepad",
        env={
            "_SCOREPAD_COMPLETE": "bash_complete",
            "COMP_WORDS": line,
            "COMP_CWORD": str(len(words) - 1),
        },
    )
    return [item.split(",", 1)[1] for item in result.stdout.splitlines()]


def test_completion_offers_the_players_seated_now_quoted_when_needed(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Jean Luc,Ed").exit_code == 0
    assert run("-f", path, "seat", "remove", "Cy").exit_code == 0
    assert _complete(run, f"scorepad -f {path} seat remove ") == ["Ann", "Bob", "'Jean Luc'", "Ed"]
    assert _complete(run, f"scorepad -f {path} hand --picker ") == [
        "Ann",
        "Bob",
        "'Jean Luc'",
        "Ed",
    ]
    assert _complete(run, f"scorepad -f {path} hand --picker j") == ["'Jean Luc'"]


def test_log_lists_every_change_with_its_line_time_and_note(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    steps = [
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "70", "--note", "one"),
        ("hand", "--leaster", "--winner", "Cy"),
        ("amend", "1", "--points", "50"),
        ("undo",),
        ("void", "2", "--reason", "misdeal"),
        ("seat", "add", "Flo"),
    ]
    for step in steps:
        assert run("-f", path, *step).exit_code == 0, step
    rows = json.loads(run("-f", path, "log", "--format", "json").stdout)
    assert [r["Line"] for r in rows] == [4, 5, 6, 7, 8, 9]
    assert [r["Change"] for r in rows] == [
        "hand 1: Ann + Bob 70",
        "hand 2: leaster, won by Cy",
        "amend of hand 1: Ann + Bob 50",
        "undo of amend of hand 1: Ann + Bob 50",  # (the row that puts it back, at 70)
        "void of hand 2",
        "seats: Ann, Bob, Cy, Dee, Ed, Flo",
    ]
    assert [r["Note"] for r in rows][:5] == ["one", "", "one", "one", "misdeal"]
    assert all(r["Time"] for r in rows)


def test_set_changes_the_rules_from_the_next_hand_on(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    loss = ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "40")
    assert run("-f", path, *loss).exit_code == 0  # standard: a loss of 1 a defender
    out = run("-f", path, "set", "double_on_the_bump=true", "--note", "Ed's rules").stdout
    assert out.startswith("From hand 2 on: double_on_the_bump=true.")
    assert "with double_on_the_bump=true" in out
    assert run("-f", path, *loss).exit_code == 0  # now doubled on the bump
    totals = json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"]
    assert totals["Cy"] == 1 + 2
    status = json.loads(run("-f", path, "status", "--format", "json").stdout)
    assert "double_on_the_bump=true" in status["rules_in_force"]
    assert run("-f", path, "verify").stdout == ""
    log = json.loads(run("-f", path, "log", "--format", "json").stdout)
    assert log[1]["Change"] == "rules: double_on_the_bump=true" and log[1]["Note"] == "Ed's rules"
    # undo takes a change of the rules back, as any other change
    assert run("-f", path, "set", "base=2").exit_code == 0
    out = run("-f", path, "undo").stdout
    assert out.startswith("Undid the change of the rules (base=2).")
    status = json.loads(run("-f", path, "status", "--format", "json").stdout)
    assert "double_on_the_bump=true" in status["rules_in_force"]
    assert "base=2" not in status["rules_in_force"]
    assert run("-f", path, *loss).exit_code == 0
    totals = json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"]
    assert totals["Cy"] == 1 + 2 + 2  # doubled on the bump, at base 1
    assert run("-f", path, "verify").stdout == ""


def test_set_refuses_a_bad_change_and_changes_nothing(
    run: Run, fails: Fails, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    before = path.read_bytes()
    assert "unknown setting 'bsae'" in fails("-f", path, "set", "bsae=2")
    assert "is not valid" in fails("-f", path, "set", "base=two")
    assert "the family comes with the preset" in fails("-f", path, "set", "family=schafkopf")
    assert path.read_bytes() == before


def test_set_rewrites_an_older_file_in_the_current_format_first(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "friday.csv"
    path.write_bytes((ROOT / "tests" / "fixtures" / "v1" / "standard-friday.csv").read_bytes())
    before = json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"]
    assert run("-f", path, "set", "leaster_payout=2").exit_code == 0
    header = path.read_text().splitlines()[0].split(",")
    assert "format" in header and "rules_line" in header
    assert json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"] == before
    assert run("-f", path, "hand", "--leaster", "--winner", "Ann").exit_code == 0
    after = json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"]
    assert after["Ann"] == before["Ann"] + 2 * 4  # a leaster won at the new payout of 2
    assert run("-f", path, "verify").stdout == ""


def test_a_hand_has_the_same_keys_in_hand_amend_and_sheet(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    recorded = json.loads(
        run(
            "-f",
            path,
            "hand",
            "--picker",
            "Ann",
            "--partner",
            "Bob",
            "--points",
            "70",
            "--format",
            "json",
        ).stdout
    )
    amended = json.loads(run("-f", path, "amend", "1", "--points", "80", "--format", "json").stdout)
    sheet = json.loads(run("-f", path, "sheet", "--format", "json").stdout)["hands"][0]
    keys = set(sheet) - {"played", "marks"}
    assert keys <= set(recorded) and keys <= set(amended)
    assert {k: amended[k] for k in keys} == {k: sheet[k] for k in keys} | {"note": ""}
    assert recorded["winners"] == ["Ann", "Bob"] and recorded["stake"] == 1


def test_the_sheet_notes_a_seat_change_at_the_next_hand(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    hand = ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "70")
    assert run("-f", path, *hand).exit_code == 0
    assert run("-f", path, "seat", "add", "Flo", "--after", "Bob").exit_code == 0
    assert run("-f", path, *hand, "--note", "Flo's first").exit_code == 0
    assert run("-f", path, *hand).exit_code == 0
    notes = [
        h["note"] for h in json.loads(run("-f", path, "sheet", "--format", "json").stdout)["hands"]
    ]
    assert notes == ["", "Flo joins after Bob; Flo's first", ""]


def test_a_note_that_starts_with_a_dash_is_one_clear_error(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    before = path.read_bytes()
    for note in ("-5 for Cy", "-x", "--x"):  # taken as the note, never as an option
        result = run("-f", path, "hand", "--leaster", "--winner", "Cy", "--note", note)
        assert result.exit_code == 1
        assert result.stderr == (
            "Error: --note: a note cannot start with - (a spreadsheet would run it as a formula)\n"
        )
    assert path.read_bytes() == before


def test_rules_shows_the_rules_in_force_in_the_session(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert (
        run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed", "--rules", "pagat").exit_code == 0
    )
    assert run("-f", path, "set", "leaster_payout=3").exit_code == 0
    data = json.loads(run("-f", path, "rules", "--format", "json").stdout)
    assert data["preset"] == "pagat" and data["leaster_payout"] == 3
    text = run("rules", "-f", path).stdout
    assert text.startswith("Rules: pagat, with leaster_payout=3.")
    assert run("-f", tmp_path / "none.csv", "rules").stdout.startswith("Rules: standard.")
    # a sixth player, then the dealer sits out: five-handed hands again
    assert run("-f", path, "seat", "add", "Flo").exit_code == 0
    assert run("-f", path, "set", "sit_out=dealer").exit_code == 0
    status = json.loads(run("-f", path, "status", "--format", "json").stdout)
    assert status["sits_out"] == [status["dealer"]]


def test_a_refused_set_leaves_an_older_file_byte_for_byte(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "friday.csv"
    path.write_bytes((ROOT / "tests" / "fixtures" / "v1" / "standard-friday.csv").read_bytes())
    before = path.read_bytes()
    for change in ("deal.5.cards=7", "base=two", "settlement=race"):
        result = run("-f", path, "set", change)
        assert result.exit_code == 1 and result.stderr.startswith("Error: "), change
        assert result.stderr.count("\n") == 1
        assert path.read_bytes() == before, change
