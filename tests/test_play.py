"""Guided entry: `scorepad play` asks for each hand, checks every answer, records on yes."""

import json
from pathlib import Path
from typing import Any, cast

import pytest
from _types import Night, Run
from click.testing import Result


@pytest.fixture
def table(run: Run, tmp_path: Path) -> Night:
    path = tmp_path / "night.csv"

    def invoke(*args: object, input: str | None = None) -> Result:
        return run("-f", path, *args, input=input)

    sp = cast(Night, invoke)  # a function with an attribute: mypy types it by the protocol
    sp.path = path
    return sp


def totals(sp: Night) -> Any:
    return json.loads(sp("standings", "--format", "json").stdout)["totals"]


def test_a_hand_a_leaster_and_a_clean_end(table: Night) -> None:
    table("new", "--players", "Ann,Bob,Cy,Dee,Ed")
    answers = [
        "ann",
        "Bob",
        "",  # the called suit, not noted
        "64",
        "4",
        "",
        "",  # Ann + Bob, 64, 4 tricks, no crack, record
        "leaster",
        "Cy",
        "y",  # a leaster won by Cy
        "",
    ]  # an empty answer ends
    result = table("play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.stderr
    assert "Hand 1: Ann picked, partner Bob, 64 points: a win, level 1, stake 1." in result.stdout
    assert "Hand 2: a leaster, won by Cy (payout 1)." in result.stdout
    assert result.stdout.rstrip().endswith("Ed             -2")  # the standings at the end
    assert totals(table) == {"Ann": 1, "Bob": 0, "Cy": 3, "Dee": -2, "Ed": -2}
    assert table("verify").stdout == ""


def test_wrong_answers_are_asked_again(table: Night) -> None:
    table("new", "--players", "Ann,Bob,Cy,Dee,Ed")
    answers = [
        "Zed",
        "Ann",
        "Ann",
        "Bob",
        "",
        "121",
        "sixty",
        "70",
        "9",
        "",
        "Ann",
        "Ed",
        "maybe",
        "y",
        "y",
    ]
    result = table("play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0
    errors = result.stderr.splitlines()
    assert errors[0] == "  Zed: unknown player (did you mean Ed?); players: Ann, Bob, Cy, Dee, Ed"
    assert "Ann: unknown player" in errors[1]  # the picker is no partner of hers
    assert errors[2:5] == ["  give a whole number from 0 to 120"] * 2 + [
        "  give a whole number from 0 to 6"
    ]
    assert "Ann: unknown player" in errors[5]  # Ann may not crack her own pick
    assert errors[6] == "  answer y or n"
    assert totals(table)["Ann"] == 2 * 4  # cracked and re-cracked: a stake of 4


def test_saying_no_records_nothing(table: Night) -> None:
    table("new", "--players", "Ann,Bob,Cy,Dee,Ed")
    before = table.path.read_bytes()
    result = table("play", input="Ann\nBob\n\n70\n\n\nn\n\n")
    assert "Not recorded." in result.stdout
    assert table.path.read_bytes() == before


def test_ctrl_d_mid_hand_records_nothing(table: Night) -> None:
    table("new", "--players", "Ann,Bob,Cy,Dee,Ed")
    before = table.path.read_bytes()
    result = table("play", input="Ann\nBob\n")  # the input ends half way through a hand
    assert result.exit_code == 0 and "Standings:" in result.stdout
    assert table.path.read_bytes() == before


def test_an_impossible_hand_is_taken_again(table: Night) -> None:
    table("new", "--players", "Ann,Bob,Cy,Dee,Ed")
    answers = [
        "Ann",
        "Bob",
        "",
        "100",
        "6",
        "",  # every trick but not 120: impossible
        "Ann",
        "Bob",
        "",
        "120",
        "6",
        "",
        "y",
        "",
    ]
    result = table("play", input="\n".join(answers) + "\n")
    assert "Let's take that hand again." in result.stderr
    assert totals(table)["Ann"] == 6


def test_doublers_and_schafkopf_games(table: Night, run: Run, tmp_path: Path) -> None:
    table("new", "--players", "Ann,Bob,Cy,Dee,Ed", "--set", "all_pass=doubler")
    table("play", input="doubler\n\nAnn\nalone\n70\n\n\n\n\n")
    assert totals(table)["Ann"] == 8  # alone x4, doubled
    sk = tmp_path / "sk.csv"
    run("-f", sk, "new", "--players", "Ann,Bob,Cy,Dee", "--rules", "schafkopf")
    result = run("-f", sk, "play", input="Bob\nsolo\n95\n7\n\n3\n\n\n")
    assert result.exit_code == 0, result.stderr
    data = json.loads(run("-f", sk, "standings", "--format", "json").stdout)
    assert data["totals"]["Bob"] == 3 * (5 + 1 + 3)


def test_play_on_a_missing_file_is_one_clear_error(table: Night) -> None:
    result = table("play", input="")
    assert result.exit_code == 1 and "no such session file" in result.stderr


def test_play_asks_for_the_tricks_when_the_points_leave_the_level_open(table: Night) -> None:
    table("new", "--players", "Ann,Bob,Cy,Dee,Ed")
    # 120 points: Enter is not an answer to the tricks; 6 is (every trick: no-trick, level 3)
    answers = ["Ann", "Bob", "", "120", "", "6", "", "", ""]
    result = table("play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.stderr
    assert "120 points could be every trick or not" in result.stdout
    assert "give a whole number from 0 to 6" in result.stderr
    assert "a win, level 3 (no-trick), stake 3" in result.stdout


def test_play_takes_notes_undo_seat_changes_and_help(table: Night) -> None:
    table("new", "--players", "Ann,Bob,Cy,Dee,Ed")
    answers = [
        "?",  # the help
        "Ann",
        "Bob",
        "",
        "70",
        "4",
        "",
        "Ann's big one",  # recorded with a note
        "undo",  # reverses it
        "join Flo",  # a sixth player sits down
        "leave Flo",  # and leaves again
        "",
    ]
    result = table("play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "rules in force: standard." in out and "undo [REASON]  " in out  # the help was shown
    assert "Hand 1: Ann picked, partner Bob, 70 points" in out
    assert "Undid hand 1." in out
    assert "Flo joins the table. Seats: Ann, Bob, Cy, Dee, Ed, Flo." in out
    assert "Flo leaves the table. Seats: Ann, Bob, Cy, Dee, Ed." in out
    sheet = json.loads(table("sheet", "--format", "json").stdout)["hands"]
    assert sheet[0]["note"] == "Ann's big one; void: undo during play" and sheet[0]["void"]
    assert table("verify").stdout == ""


def test_play_offers_to_start_a_session(table: Night) -> None:
    result = table("play", input="\n\nAnn,Bob,Cy,Dee,Ed\nAnn\nBob\n\n70\n4\n\n\n\n")
    assert result.exit_code == 0, result.stderr
    assert f"There is no session at {table.path}" in result.stdout
    assert "Started " in result.stdout and totals(table)["Ann"] == 2


def test_ctrl_c_says_the_hand_being_entered_was_not_recorded(
    table: Night, monkeypatch: pytest.MonkeyPatch
) -> None:
    import click

    table("new", "--players", "Ann,Bob,Cy,Dee,Ed")
    before = table.path.read_bytes()
    answers = iter(["Ann", "Bob"])

    def prompt(*args: object, **kwargs: object) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(click, "prompt", prompt)
    result = table("play")
    assert result.exit_code == 130
    assert "Stopped: the hand being entered was not recorded." in result.stderr
    assert table.path.read_bytes() == before


def test_a_name_mistyped_in_lower_case_gets_a_did_you_mean(run: Run, tmp_path: Path) -> None:
    from scorepad.cli._asking import find_name
    from scorepad.errors import ScorepadError

    with pytest.raises(ScorepadError) as caught:
        find_name("anm", ["Ann", "Bob", "Cy"])
    assert str(caught.value) == "anm: unknown player (did you mean Ann?); players: Ann, Bob, Cy"
    with pytest.raises(ScorepadError) as caught:
        find_name("qqq", ["Ann", "Bob", "Cy"])
    assert "did you mean" not in str(caught.value)


def test_play_asks_for_picker_and_partner_in_seat_order(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "n.csv"
    run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed")
    run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "70")
    # hand 2: Ann deals, Bob leads; the questions still run Ann, Bob, Cy, Dee, Ed
    out = run("-f", path, "play", input="Cy\nDee\n\n").stdout
    assert "Who picked? (1 Ann, 2 Bob, 3 Cy, 4 Dee, 5 Ed, leaster;" in out
    assert "Partner? (Ann, Bob, Dee, Ed, alone)" in out
