"""The session ledger: recording hands in a CSV session file that never loses one."""

import csv
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, cast

import pytest
from _types import CheckJson, Night, Run
from click.testing import Result
from conftest import FIVE

HAND = ("--picker", "Ann", "--partner", "Bob", "--points", 64, "--tricks", 4)


class Sp(Protocol):
    """The `session` fixture: `sp(*args, input=...)` runs `scorepad -f FILE ...`; `sp.path` is
    FILE; `sp.new(*args)` starts the five-handed session there (asserting it did)."""

    path: Path
    new: Callable[..., Result]

    def __call__(self, *args: object, input: str | None = None) -> Result: ...


@pytest.fixture
def session(run: Run, tmp_path: Path) -> Sp:
    """A new five-handed session; returns a function running `scorepad -f FILE ...`."""
    path = tmp_path / "night.csv"

    def invoke(*args: object, input: str | None = None) -> Result:
        return run("-f", path, *args, input=input)

    sp = cast(Sp, invoke)  # a function with attributes: mypy types it by the protocol
    sp.path = path
    sp.new = lambda *args: _ok(sp("new", "--players", FIVE, *args))
    return sp


def _ok(result: Result) -> Result:
    assert result.exit_code == 0, result.stderr
    return result


def _json(result: Result) -> Any:
    return json.loads(_ok(result).stdout)


def refused(sp: Sp, *args: object, code: int = 1) -> str:
    """Run a command that must fail and leave the session file byte-for-byte unchanged."""
    before = sp.path.read_bytes() if sp.path.exists() else None
    result = sp(*args)
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    assert (sp.path.read_bytes() if sp.path.exists() else None) == before
    return result.stderr


# --- the file -----------------------------------------------------------------------------------


def test_new_writes_a_self_contained_csv(session: Sp) -> None:
    result = session.new()
    assert "Next: hand 1, Ed deals, Ann leads." in result.stdout
    lines = session.path.read_text().splitlines()
    assert lines[0].startswith("hand,kind,ref,Ann,Bob,Cy,Dee,Ed,dealer,")
    assert lines[1].startswith(",rules,") and '""double_on_the_bump"":false' in lines[1]
    assert lines[2].startswith(",session,")
    assert session.path.read_bytes().count(b"\r\n") == 3  # RFC 4180 line ends


def test_new_refuses_to_overwrite(session: Sp) -> None:
    session.new()
    message = refused(session, "new", "--players", "X,Y,Z")
    assert "already exists" in message


@pytest.mark.parametrize(
    "players, message",
    [
        ("Ann,=SUM(A1),Cy", "cannot start with ="),
        ("Ann,+1,Cy", "cannot start with +"),
        ("Ann,-Bob,Cy", "cannot start with -"),
        ("Ann,@Bob,Cy", "cannot start with @"),
        ("Ann,Bob,ann", "listed twice"),
        ("A,B,C,D,E,F,G", "deal for 3, 4, 5, 6 players"),
    ],
)
def test_new_refuses_bad_tables_and_writes_nothing(session: Sp, players: str, message: str) -> None:
    assert message in refused(session, "new", "--players", players)
    assert not session.path.exists()


def test_file_option_environment_variable_and_default(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _ok(run("new", "--players", "A,B,C"))
    assert (tmp_path / "scorepad.csv").exists()
    monkeypatch.setenv("SCOREPAD_FILE", str(tmp_path / "env.csv"))
    _ok(run("new", "--players", "A,B,C"))
    assert (tmp_path / "env.csv").exists()
    _ok(run("-f", tmp_path / "flag.csv", "new", "--players", "A,B,C"))
    assert (tmp_path / "flag.csv").exists()


def test_missing_session_file_says_how_to_start(session: Sp) -> None:
    assert "start one with `scorepad new" in refused(session, "standings")


def test_rules_are_recorded_in_the_file(session: Sp, run: Run, tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text('preset = "pagat"\nleaster_payout = 3\n')
    _ok(session("new", "--players", FIVE, "--rules", rules, "--set", "base=2"))
    rules.unlink()  # the session no longer needs it
    out = _json(
        session("hand", "--picker", "Ann", "--partner", "Bob", "--points", 40, "--format", "json")
    )
    assert out["deltas"]["Ann"] == -8  # base 2 x double on the bump 2, picker pays two shares
    assert (
        _json(session("hand", "--leaster", "--winner", "Cy", "--format", "json"))["deltas"]["Cy"]
        == 12
    )


# --- recording hands ----------------------------------------------------------------------------


def test_hand_scores_exactly_as_check_does(session: Sp, check_json: CheckJson) -> None:
    session.new()
    recorded = _json(session("hand", *HAND, "--format", "json"))
    checked = check_json("--players", FIVE, *HAND)
    assert (
        recorded["deltas"]
        == checked["deltas"]
        == {"Ann": 2, "Bob": 1, "Cy": -1, "Dee": -1, "Ed": -1}
    )
    assert recorded["hand"] == 1 and recorded["totals"] == recorded["deltas"]


def test_hand_prints_points_and_standings(session: Sp) -> None:
    session.new()
    session("hand", *HAND)
    out = _ok(session("hand", "--picker", "Cy", "--alone", "--points", 95)).stdout
    assert out.splitlines()[0] == (
        "Hand 2: Cy picked alone, 95 points: a win, level 2 (schneider), stake 2."
    )
    ann = next(line for line in out.splitlines() if line.startswith("Ann"))
    assert ann.split() == ["Ann", "defender", "-2", "0"]
    assert out.rstrip().endswith("Next: hand 3, Bob deals, Cy leads.")
    crack = ("--crack", "Ann")
    out = _ok(
        session("hand", "--picker", "Ed", "--partner", "Dee", "--points", 20, "--tricks", 0, *crack)
    ).stdout
    assert out.splitlines()[0] == (
        "Hand 3: Ed picked, partner Dee, 20 points: a loss, level 3 (no-trick), stake 6 "
        "(x2 crack by Ann); cracked by Ann."
    )
    sheet = json.loads(session("sheet", "--format", "json").stdout)["hands"]
    assert [h["played"] for h in sheet] == [
        "Ann + Bob 64",
        "Cy alone 95, schneider",
        "Ed + Dee 20, cracked by Ann, no-trick",
    ]


def test_the_deal_passes_to_the_left(session: Sp) -> None:
    session.new("--dealer", "Cy")
    dealers = []
    for _ in range(6):
        out = _json(session("hand", "--leaster", "--winner", "Ann", "--format", "json"))
        dealers.append(out["next_dealer"])
    assert dealers == ["Dee", "Ed", "Ann", "Bob", "Cy", "Dee"]


def test_crack_eligibility_follows_the_sessions_dealer(session: Sp) -> None:
    session.new("--dealer", "Cy")  # Dee picks first, Cy last
    assert "had the chance to pick" in refused(
        session, "hand", "--picker", "Ed", "--partner", "Ann", "--points", 70, "--crack", "Dee"
    )
    _ok(session("hand", "--picker", "Ed", "--partner", "Ann", "--points", 70, "--crack", "Bob"))


def test_six_people_with_the_dealer_sitting_out(session: Sp, run: Run) -> None:
    _ok(session("new", "--players", FIVE + ",Flo", "--set", "sit_out=dealer"))
    status = _json(session("status", "--format", "json"))
    assert status["dealer"] == "Flo" and status["sits_out"] == ["Flo"]
    assert "Flo sits out this hand" in refused(
        session, "hand", "--picker", "Flo", "--partner", "Ann", "--points", 70
    )
    out = _json(session("hand", *HAND, "--format", "json"))
    assert out["deltas"]["Flo"] == 0 and sum(out["deltas"].values()) == 0
    assert out["score"]["roles"]["Flo"] == "sits out"
    assert _json(session("status", "--format", "json"))["sits_out"] == ["Ann"]


def test_out_sits_someone_out_for_one_hand(session: Sp) -> None:
    _ok(session("new", "--players", FIVE + ",Flo"))
    out = _json(session("hand", *HAND, "--out", "Dee", "--format", "json"))
    assert out["deltas"]["Dee"] == 0 and out["score"]["roles"]["Dee"] == "sits out"
    assert len([v for v in out["deltas"].values() if v]) == 5  # a five-handed hand
    assert _ok(session("verify")).stdout == ""


def test_doubler_queue_doubles_each_of_the_next_hands(session: Sp) -> None:
    session.new("--set", "all_pass=doubler")
    _ok(session("hand", "--doubler"))
    _ok(session("hand", "--doubler"))
    status = _json(session("status", "--format", "json"))
    assert status["doublers_pending"] == 2 and status["next_hand_doubled"] == 1
    assert "the next hand is doubled (x2)" in _ok(session("status")).stdout
    first = _json(session("hand", *HAND, "--format", "json"))
    second = _json(session("hand", *HAND, "--format", "json"))
    third = _json(session("hand", *HAND, "--format", "json"))
    assert [h["deltas"]["Ann"] for h in (first, second, third)] == [4, 4, 2]
    assert _ok(session("verify")).stdout == ""


def test_doubler_multiply_doubles_the_next_hand_twice(session: Sp) -> None:
    session.new("--set", "all_pass=doubler", "--set", "doubler_stacking=multiply")
    session("hand", "--doubler")
    session("hand", "--doubler")
    assert "x4" in _ok(session("status")).stdout
    out = _json(session("hand", *HAND, "--format", "json"))
    assert out["deltas"]["Ann"] == 8 and out["pending"] == 0


def test_doubler_cap(session: Sp) -> None:
    session.new(
        "--set", "all_pass=doubler", "--set", "doubler_stacking=cap", "--set", "max_doubled_hands=1"
    )
    session("hand", "--doubler")
    session("hand", "--doubler")
    assert _json(session("status", "--format", "json"))["doublers_pending"] == 1


def test_doubler_needs_doubler_rules_and_nothing_else(session: Sp) -> None:
    session.new()
    assert "all_pass = doubler" in refused(session, "hand", "--doubler")
    session.path.unlink()
    session.new("--set", "all_pass=doubler")
    assert "does not belong with --doubler" in refused(
        session, "hand", "--doubler", "--picker", "Ann", code=2
    )
    assert "record the doubler with `scorepad hand --doubler`" in refused(
        session, "hand", *HAND, "--doubled"
    )


def test_race_night_announces_the_winner_and_then_stops(session: Sp) -> None:
    _ok(session("new", "--players", FIVE, "--rules", "first-night"))
    for points in (95, 75):
        session("hand", "--picker", "Ann", "--partner", "Bob", "--points", points)
    out = _ok(session("hand", "--picker", "Ann", "--partner", "Cy", "--points", 120)).stdout
    assert "Ann reaches 5 and wins the night!" in out
    assert "the race is over: Ann reached 5" in refused(session, "hand", *HAND)
    standings = _json(session("standings", "--format", "json"))
    assert standings["race_winners"] == ["Ann"] and standings["totals"]["Ann"] == 6


def test_names_with_quotes_spaces_and_accents_round_trip(session: Sp) -> None:
    players = '"Smith John","Ann ""the Ace""",Zoë,Jean Luc,Ed'
    _ok(session("new", "--players", players))
    _ok(session("hand", "--picker", "Smith John", "--partner", 'Ann "the Ace"', "--points", 70))
    _ok(
        session(
            "hand",
            "--leaster",
            "--leaster-points",
            '"Smith John"=10,"Ann ""the Ace"""=20,Zoë=30,Jean Luc=40,Ed=20',
            "--leaster-tricks",
            '"Smith John"=1,"Ann ""the Ace"""=1,Zoë=1,Jean Luc=2,Ed=1',
        )
    )
    totals = _json(session("standings", "--format", "json"))["totals"]
    assert totals == {"Smith John": 6, 'Ann "the Ace"': 0, "Zoë": -2, "Jean Luc": -2, "Ed": -2}
    assert _ok(session("verify")).stdout == ""


def test_a_name_with_a_comma_is_refused_where_players_sit_down(session: Sp) -> None:
    error = refused(session, "new", "--players", '"Smith, John",Bob,Cy,Dee,Ed')
    assert "a name cannot hold a comma" in error and "'Smith John'" in error
    session.new()
    assert "a name cannot hold a comma" in refused(session, "seat", "add", "Doe, Jane")


def test_a_file_that_has_a_name_with_a_comma_keeps_loading(session: Sp) -> None:
    import csv

    _ok(session("new", "--players", "Smith John,Bob,Cy,Dee,Ed"))
    _ok(session("hand", "--picker", "Smith John", "--partner", "Bob", "--points", 70))
    with open(session.path, newline="", encoding="utf-8") as f:
        rows = [[c.replace("Smith John", "Smith, John") for c in r] for r in csv.reader(f)]
    with open(session.path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)
    assert _ok(session("verify")).stdout == ""
    assert _json(session("standings", "--format", "json"))["totals"]["Smith, John"] == 2


def test_a_file_saved_by_a_spreadsheet_still_loads(session: Sp) -> None:
    session.new()
    session("hand", *HAND)
    data = session.path.read_bytes()
    session.path.write_bytes(b"\xef\xbb\xbf" + data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    assert _ok(session("verify")).stdout == ""
    _ok(session("hand", "--leaster", "--winner", "Cy"))
    assert _json(session("standings", "--format", "json"))["totals"]["Cy"] == 3
    session.path.write_bytes(data.replace(b"\r\n", b"\n"))  # LF only
    assert _ok(session("verify")).stdout == ""


def test_recording_reads_only_the_head_and_the_tail(session: Sp) -> None:
    session.new()
    for _ in range(3):
        session("hand", *HAND)
    lines = session.path.read_bytes().split(b"\r\n")
    lines[3] = lines[3].replace(b"1,picker,,2,1,", b"1,picker,,9,1,")  # hand 1 tampered
    session.path.write_bytes(b"\r\n".join(lines))
    _ok(session("hand", *HAND))  # the tail is intact, so recording still works
    assert "night.csv:4: the hand does not sum to zero (+7)" in session("verify").stdout


# --- reports ------------------------------------------------------------------------------------


def test_status(session: Sp) -> None:
    session.new()
    session("hand", *HAND)
    out = _ok(session("status")).stdout
    assert "Next hand: 2" in out and "Dealer:    Ann" in out and "Leads:     Bob" in out
    assert "Leader:    Ann +2" in out and "Doublers:  none pending" in out


def test_standings_text_and_json(session: Sp) -> None:
    session.new()
    session("hand", *HAND)
    session("hand", "--picker", "Cy", "--alone", "--points", 40)
    text = _ok(session("standings")).stdout
    assert text.splitlines()[0].split() == [
        "#",
        "Player",
        "Total",
        "Hands",
        "Picks",
        "Picker",
        "wins",
    ]
    assert text.splitlines()[2].split() == ["1", "Ann", "+3", "2", "1", "1"]
    data = _json(session("standings", "--format", "json"))
    assert data["hands"] == 2
    assert data["totals"] == {"Ann": 3, "Bob": 2, "Cy": -5, "Dee": 0, "Ed": 0}


def test_sheet_and_running_sheet(session: Sp) -> None:
    session.new()
    session("hand", *HAND)
    session("hand", "--leaster", "--winner", "Dee")
    sheet = _ok(session("sheet")).stdout.splitlines()
    assert sheet[2].split() == ["1", "Ed", "Ann", "+", "Bob", "64", "+2", "+1", "-1", "-1", "-1"]
    assert sheet[-1].split() == ["Total", "+1", "0", "-2", "+3", "-2"]
    running = _ok(session("sheet", "--running")).stdout.splitlines()
    assert running[3].split()[-5:] == ["+1", "0", "-2", "+3", "-2"]
    as_csv = _ok(session("sheet", "--format", "csv")).stdout.splitlines()
    assert as_csv[0] == "Hand,Dealer,Played,Ann,Bob,Cy,Dee,Ed,Note"
    assert as_csv[-1] == ",,Total,1,0,-2,3,-2,"


# --- corrections --------------------------------------------------------------------------------


def _rows(path: Path) -> list[dict[str, str]]:
    """A session file's rows, by column, without format 6's columns and the format."""
    with path.open(newline="", encoding="utf-8") as f:
        return [
            {k: v for k, v in row.items() if k not in ("undoes", "redoes", "format")}
            for row in csv.DictReader(f)
        ]


def test_undo_voids_the_last_hand_and_gives_the_deal_back(session: Sp) -> None:
    session.new()
    assert "there is nothing to undo" in refused(session, "undo")
    session("hand", *HAND)
    session("hand", "--picker", "Cy", "--alone", "--points", 95)
    before = _rows(session.path)
    out = _ok(session("undo", "--reason", "recorded twice")).stdout
    assert out.startswith("Undid hand 2.\nHand 2 is void (recorded twice)")
    # nothing erased: every row as it was (the file now in format 6, with its two columns)
    after = _rows(session.path)
    assert after[: len(before)] == before and len(after) == len(before) + 1
    status = _json(session("status", "--format", "json"))
    assert status["dealer"] == "Ann" and status["next_hand"] == 3
    assert status["totals"] == {"Ann": 2, "Bob": 1, "Cy": -1, "Dee": -1, "Ed": -1}
    # undo again steps back once more: hand 1 is voided too (not hand 2 brought back)
    out = _ok(session("undo")).stdout
    assert out.startswith("Undid hand 1.")
    status = _json(session("status", "--format", "json"))
    assert status["dealer"] == "Ed" and status["next_hand"] == 3
    assert set(status["totals"].values()) == {0}
    assert "there is nothing to undo" in refused(session, "undo")
    # redo makes them again, newest undo first: hand 1, then hand 2 (the deal moves on)
    assert _ok(session("redo")).stdout.startswith("Redid hand 1.")
    assert _ok(session("redo", "--reason", "it stood")).stdout.startswith("Redid hand 2.")
    status = _json(session("status", "--format", "json"))
    assert status["dealer"] == "Bob" and status["totals"]["Cy"] == 7
    assert "there is nothing to redo" in refused(session, "redo")
    assert _ok(session("verify")).stdout == ""
    log = _ok(session("log", "--format", "csv")).stdout.splitlines()
    assert [line.split(",")[2:] for line in log[-4:]] == [
        ["undo of hand 2: Cy alone 95", "recorded twice"],
        ["undo of hand 1: Ann + Bob 64", "undo"],
        ["redo of hand 1: Ann + Bob 64", "redo"],
        ["redo of hand 2: Cy alone 95", "it stood"],
    ]


def test_undo_n_steps_back_through_every_kind_of_change_and_redo_makes_them_again(
    session: Sp,
) -> None:
    """A hand, an amendment, a void, a seat change and a change of the rules: `undo 5` takes
    all five back (newest first), `redo 5` makes them again, and the night is as it was."""
    session.new()
    session("hand", *HAND)
    session("hand", "--picker", "Cy", "--alone", "--points", 95)
    _ok(session("amend", "1", "--points", "58"))
    _ok(session("void", "2", "--reason", "misdeal"))
    _ok(session("seat", "add", "Flo"))
    _ok(session("set", "double_on_the_bump=false"))
    done = _json(session("standings", "--format", "json"))
    out = _ok(session("undo", "5")).stdout.splitlines()
    assert [line for line in out if line.startswith("Undid")] == [
        "Undid the change of the rules (double_on_the_bump=false).",
        "Undid the seat change (Flo joins).",
        "Undid the void of hand 2.",
        "Undid the amendment of hand 1.",
        "Undid hand 2.",
    ]
    one_hand = _json(session("standings", "--format", "json"))
    # (Flo sat down once: she keeps her column, with nothing in it)
    assert one_hand["totals"] == {"Ann": 2, "Bob": 1, "Cy": -1, "Dee": -1, "Ed": -1, "Flo": 0}
    assert _json(session("status", "--format", "json"))["players"] == FIVE.split(",")
    assert _ok(session("verify")).stdout == ""
    out = _ok(session("redo", "5")).stdout.splitlines()
    assert [line for line in out if line.startswith("Redid")] == [
        "Redid hand 2.",
        "Redid the amendment of hand 1.",
        "Redid the void of hand 2.",
        "Redid the seat change (Flo joins).",
        "Redid the change of the rules (double_on_the_bump=false).",
    ]
    again = _json(session("standings", "--format", "json"))
    assert again["totals"] == done["totals"] and again["hands"] == done["hands"]
    assert _json(session("status", "--format", "json"))["players"][-1] == "Flo"
    assert _ok(session("verify")).stdout == ""


def test_a_new_change_after_an_undo_leaves_nothing_to_redo(session: Sp) -> None:
    session.new()
    session("hand", *HAND)
    session("hand", "--picker", "Cy", "--alone", "--points", 95)
    _ok(session("undo"))
    session("hand", "--leaster", "--winner", "Dee")
    assert "there is nothing to redo" in refused(session, "redo")
    # and undo goes back past the undone hand: the leaster, then hand 1
    assert _ok(session("undo")).stdout.startswith("Undid hand 3.")
    assert _ok(session("undo")).stdout.startswith("Undid hand 1.")


def test_an_undo_of_an_undo_is_redone(session: Sp) -> None:
    """An undo of a redo, then a redo: the change is made again once more (a redo is a change
    `undo` takes back like any other)."""
    session.new()
    session("hand", *HAND)
    _ok(session("undo"))
    _ok(session("redo"))  # (a row that restores hand 1)
    assert _ok(session("undo")).stdout.startswith("Undid the restoring of hand 1.")
    assert _ok(session("redo")).stdout.startswith("Redid the restoring of hand 1.")
    assert _json(session("standings", "--format", "json"))["totals"]["Ann"] == 2
    assert _ok(session("verify")).stdout == ""


def test_undo_takes_back_an_amendment_and_a_seat_change(session: Sp) -> None:
    session.new()
    session("hand", *HAND, "--note", "first")
    _ok(session("amend", "1", "--points", "58"))
    out = _ok(session("undo")).stdout
    assert out.startswith(
        "Undid the amendment of hand 1.\nHand 1, amended: Ann picked, partner Bob, 64 points: a win"
    )
    assert _json(session("standings", "--format", "json"))["totals"]["Ann"] == 2
    _ok(session("seat", "add", "Flo", "--after", "Bob"))
    out = _ok(session("undo")).stdout
    assert out.startswith(
        "Undid the seat change (Flo joins after Bob).\nSeats: Ann, Bob, Cy, Dee, Ed."
    )
    assert _json(session("status", "--format", "json"))["players"] == [
        "Ann",
        "Bob",
        "Cy",
        "Dee",
        "Ed",
    ]
    sheet = _json(session("sheet", "--format", "json"))["hands"]
    assert sheet[0]["note"] == "first" and sheet[0]["amended"]
    assert _ok(session("verify")).stdout == ""


def test_undo_of_a_doubler_and_of_a_doubled_hand(session: Sp) -> None:
    session.new("--set", "all_pass=doubler")
    session("hand", "--doubler")
    session("hand", *HAND)  # doubled
    session("undo")  # the doubling is pending again
    assert _json(session("status", "--format", "json"))["doublers_pending"] == 1
    session("undo")  # the doubler itself
    assert _json(session("status", "--format", "json"))["doublers_pending"] == 0
    assert _json(session("hand", *HAND, "--format", "json"))["deltas"]["Ann"] == 2
    assert _ok(session("verify")).stdout == ""


def test_void_any_hand(session: Sp) -> None:
    session.new()
    session("hand", *HAND)
    session("hand", "--picker", "Cy", "--alone", "--points", 95)
    _ok(session("void", 1, "--reason", "misdeal"))
    status = _json(session("status", "--format", "json"))
    assert status["totals"]["Ann"] == -2 and status["dealer"] == "Bob"  # hand 2 still stands
    assert "already void" in refused(session, "void", 1)
    assert "there is no hand 9" in refused(session, "void", 9)
    sheet = _ok(session("sheet")).stdout
    assert "Ann + Bob 64 (void)" in sheet
    assert _json(session("standings", "--format", "json"))["hands"] == 1


def test_amend_rescores_a_hand(session: Sp) -> None:
    session.new()
    session("hand", *HAND)
    session("hand", "--leaster", "--winner", "Dee")
    out = _json(session("amend", 1, "--points", 58, "--format", "json"))
    assert out["score"]["deltas"] == {"Ann": -2, "Bob": -1, "Cy": 1, "Dee": 1, "Ed": 1}
    assert out["deltas"] == out["score"]["deltas"]  # the hand's points, as everywhere
    assert out["change"] == {"Ann": -4, "Bob": -2, "Cy": 2, "Dee": 2, "Ed": 2}
    assert out["hand"] == 1 and out["amended"] and out["points"] == 58
    _ok(session("amend", 1, "--partner", "Cy"))
    _ok(session("amend", 2, "--winner", "Ed"))
    totals = _json(session("standings", "--format", "json"))["totals"]
    assert totals == {"Ann": -3, "Bob": 0, "Cy": -2, "Dee": 0, "Ed": 5}
    assert "(amended)" in _ok(session("sheet")).stdout
    assert _ok(session("verify")).stdout == ""


def test_amend_can_turn_a_hand_into_a_leaster_and_back(session: Sp) -> None:
    session.new()
    session("hand", *HAND)
    _ok(session("amend", 1, "--leaster", "--winner", "Cy"))
    assert _json(session("standings", "--format", "json"))["totals"]["Cy"] == 4
    _ok(session("amend", 1, "--picker", "Bob", "--alone", "--points", 70))
    assert _json(session("standings", "--format", "json"))["totals"]["Bob"] == 4
    assert _ok(session("verify")).stdout == ""


def test_amend_refusals_leave_the_file_unchanged(session: Sp) -> None:
    session.new()
    session("hand", *HAND)
    assert "card points run from 0 to 120" in refused(session, "amend", 1, "--points", 130)
    assert "give at least one hand option" in refused(session, "amend", 1, code=2)
    assert "there is no hand 4" in refused(session, "amend", 4, "--points", 50)


# --- refusals never touch the file --------------------------------------------------------------


@pytest.mark.parametrize(
    "args, code",
    [
        (("--picker", "Ann", "--partner", "Bob", "--points", 130), 1),
        (("--picker", "Zed", "--partner", "Bob", "--points", 70), 1),
        (("--picker", "Ann", "--points", 70), 1),
        (("--picker", "Ann", "--partner", "Bob", "--points", 70, "--note", "=HYPERLINK()"), 1),
        (("--picker", "Ann", "--partner", "Bob", "--points", "x"), 2),
        (("--leaster", "--picker", "Ann"), 2),
        (("--picker", "Ann", "--partner", "Bob", "--points", 70, "--game", "solo"), 1),
        (("--picker", "Ann", "--partner", "Bob", "--points", 70, "--out", "Zed"), 1),
    ],
)
def test_a_refused_hand_leaves_the_file_byte_for_byte_unchanged(
    session: Sp, args: tuple[object, ...], code: int
) -> None:
    session.new()
    session("hand", *HAND)
    refused(session, "hand", *args, code=code)


# --- verify -------------------------------------------------------------------------------------


def _tamper(path: Path, line: int, old: str, new: str) -> None:
    lines = path.read_bytes().decode("utf-8").split("\r\n")
    assert old in lines[line - 1], lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    path.write_bytes("\r\n".join(lines).encode("utf-8"))


def _night(session: Sp) -> None:
    session.new()
    session("hand", *HAND)  # line 4
    session("hand", "--picker", "Cy", "--alone", "--points", 95)  # line 5
    session("hand", "--leaster", "--winner", "Dee")  # line 6


def test_verify_is_silent_on_a_good_file(session: Sp) -> None:
    _night(session)
    result = session("verify")
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == ""


@pytest.mark.parametrize(
    "line, old, new, message",
    [
        (
            4,
            "1,picker,,2,1,-1,-1,-1",
            "1,picker,,3,1,-1,-1,-1",
            "points differ from the re-scoring: Ann recorded 3, the rules give 2",
        ),
        (5, "2,picker,", "7,picker,", "hand number 7 is out of order: 2 comes next"),
        (4, ",Ann,", ",Zed,", "picker: unknown player 'Zed'"),
        (4, ",64,", ",sixty,", "points: 'sixty' is not a whole number"),
        (4, "-1,-1,-1,Ed", "-1,-1,0,Ed", "points differ"),
        (6, "3,leaster,", "3,lester,", "kind: 'lester' is not one of"),
        (5, ",95,", ",195,", "card points run from 0 to 120"),
    ],
)
def test_verify_reports_hand_edits_as_file_line_message(
    session: Sp, line: int, old: str, new: str, message: str
) -> None:
    _night(session)
    _tamper(session.path, line, old, new)
    result = session("verify")
    assert result.exit_code == 1
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"{session.path}:{line}: ") and message in first, result.stdout
    refusal = refused(session, "standings")
    assert f"{session.path}:{line}: " in refusal and "run `scorepad verify`" in refusal


def test_verify_reports_every_problem(session: Sp) -> None:
    _night(session)
    _tamper(session.path, 4, "1,picker,,2,1,", "1,picker,,5,1,")
    _tamper(session.path, 6, ",Dee,", ",Zed,")
    lines = session("verify").stdout.splitlines()
    assert any(l.startswith(f"{session.path}:4: the hand does not sum to zero (+3)") for l in lines)
    assert any(l.startswith(f"{session.path}:6: winner: unknown player") for l in lines)


def test_verify_reports_a_hand_that_does_not_sum_to_zero(session: Sp) -> None:
    _night(session)
    _tamper(session.path, 5, "2,picker,,-2,-2,8,", "2,picker,,-2,-2,9,")
    out = session("verify").stdout
    assert f"{session.path}:5: the hand does not sum to zero (+1); points differ" in out
    assert "Cy recorded 9, the rules give 8" in out


def test_verify_reports_running_totals_that_disagree(session: Sp) -> None:
    _night(session)
    _tamper(session.path, 6, '""Cy"":6', '""Cy"":7')
    out = session("verify").stdout
    assert out.startswith(f"{session.path}:6: totals: recorded") and "Cy +6" in out


def test_standings_catches_an_edit_that_still_sums_to_zero(session: Sp) -> None:
    _night(session)
    _tamper(session.path, 4, "1,picker,,2,1,-1,-1,-1", "1,picker,,1,2,-1,-1,-1")
    refusal = refused(session, "standings")
    assert f"{session.path}:4: points differ from the re-scoring" in refusal
    assert "run `scorepad verify`" in refusal
    assert session("verify").stdout.startswith(f"{session.path}:4: points differ")


def test_verify_reports_rules_changed_by_hand(session: Sp) -> None:
    _night(session)
    _tamper(session.path, 2, '""base"":1', '""base"":2')
    lines = session("verify").stdout.splitlines()
    assert lines[0].startswith(f"{session.path}:4: points differ")


@pytest.mark.parametrize(
    "content, line, message",
    [
        ("", 1, "the file is empty"),
        ("name,score\r\nAnn,3\r\n", 1, "not a scorepad session"),
    ],
)
def test_verify_rejects_files_that_are_not_sessions(
    session: Sp, content: str, line: int, message: str
) -> None:
    session.path.write_text(content)
    result = session("verify")
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{session.path}:{line}: ") and message in result.stdout


# --- never lose a hand --------------------------------------------------------------------------


def test_torn_last_line_is_reported_and_repaired(session: Sp) -> None:
    _night(session)
    good = session.path.read_bytes()
    with open(session.path, "ab") as out:
        out.write(b"4,picker,,2,1,-1,-1,")  # the machine died mid-append
    assert "run `scorepad repair`" in refused(session, "hand", *HAND)
    verify = session("verify")
    assert (
        verify.exit_code == 1 and f"{session.path}:7: the last line is incomplete" in verify.stdout
    )
    repaired = _ok(session("repair")).stdout
    assert "moved the incomplete line 7" in repaired
    assert session.path.read_bytes() == good
    assert Path(str(session.path) + ".rejected").read_bytes() == b"4,picker,,2,1,-1,-1,\n"
    assert _ok(session("verify")).stdout == ""
    assert "nothing to repair" in _ok(session("repair")).stdout


def test_two_processes_recording_at_once_both_land(session: Sp) -> None:
    session.new()
    env = {**os.environ, "SCOREPAD_FILE": str(session.path), "SCOREPAD_WAIT": "300"}
    code = textwrap.dedent("""\
        import os, sys, time
        from scorepad.cli import main
        print("ready", flush=True)
        while not os.path.exists(sys.argv[1]):  # (all four start together)
            time.sleep(0.005)
        main(["hand", "--leaster", "--winner", sys.argv[2]])
    """)
    go = session.path.parent / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(go), name],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name in ("Ann", "Bob", "Cy", "Dee")
    ]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
    go.touch()
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    rows = session.path.read_text().splitlines()[3:]
    assert sorted(int(row.split(",")[0]) for row in rows) == [1, 2, 3, 4]
    totals = _json(session("standings", "--format", "json"))["totals"]
    assert totals == {"Ann": 1, "Bob": 1, "Cy": 1, "Dee": 1, "Ed": -4}
    assert _ok(session("verify")).stdout == ""


def test_a_checked_night_is_freed_as_soon_as_it_is_let_go(session: Sp) -> None:
    """No reference cycle holds a night's ledger (and its caches) after its pass: `season`
    reads night after night, and the garbage collector's full pass comes seldom."""
    import gc
    import weakref

    from scorepad.session import Session

    session.new()
    for _ in range(3):
        session("hand", *HAND)
    gc.collect()
    gc.disable()
    try:
        ledger, problems = Session(session.path).check()
        assert problems == []
        gone = weakref.ref(ledger)
        del ledger
        assert gone() is None
    finally:
        gc.enable()


def test_undo_n_with_fewer_changes_changes_nothing(session: Sp) -> None:
    """`undo 3` with two changes to take back (or `redo 2` with one) refuses before it writes."""
    session.new()
    session("hand", *HAND)
    session("hand", *HAND)
    before = session.path.read_bytes()
    assert "there are 2 changes to undo, not 3: nothing was changed" in refused(
        session, "undo", "3"
    )
    assert session.path.read_bytes() == before
    _ok(session("undo"))
    after = session.path.read_bytes()
    assert "there is 1 change to redo, not 2: nothing was changed" in refused(session, "redo", "2")
    assert session.path.read_bytes() == after
    _ok(session("undo", "1"))
    assert _json(session("standings", "--format", "json"))["hands"] == 0


def test_redo_prints_the_hand_it_restored(night: Night) -> None:
    """`undo` names what it took back; `redo` of a hand names it and prints its line."""
    night("new", "--players", "Ann,Bob,Cy,Dee,Ed")
    night("hand", "--picker", "Ann", "--partner", "Bob", "--points", "64")
    assert night("undo").stdout.startswith(
        "Undid hand 1.\nHand 1 is void (undo): its points are reversed.\n"
    )
    out = night("redo").stdout
    assert out.startswith(
        "Redid hand 1.\nHand 1: Ann picked, partner Bob, 64 points: a win, level 1, stake 1.\n"
        "Player      Total\n"
    )
    assert out.endswith("Next: hand 2, Ann deals, Bob leads.\n")
    german = night("--lang", "de", "undo").stdout, night("--lang", "de", "redo").stdout
    assert "Spiel 1: Ann hat aufgenommen, Partner Bob, 64 Augen" in german[1]
