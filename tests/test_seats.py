"""Seats that change during a night: joining late, leaving early, coming back."""

import json
from pathlib import Path
from typing import Any, Protocol, cast

import pytest
from _types import Run
from click.testing import Result


class Sp(Protocol):
    """The `sp` fixture: `sp(*args)` runs `scorepad -f FILE ...`; `sp.path` is FILE."""

    path: Path

    def __call__(self, *args: object) -> Result: ...


@pytest.fixture
def sp(run: Run, tmp_path: Path) -> Sp:
    path = tmp_path / "night.csv"

    def run_here(*args: object) -> Result:
        return run("-f", path, *args)

    invoke = cast(Sp, run_here)  # a function with an attribute: mypy types it by the protocol
    invoke.path = path
    assert invoke("new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    assert invoke("hand", "--picker", "Ann", "--partner", "Bob", "--points", 64).exit_code == 0
    return invoke


def status(sp: Sp) -> Any:
    return json.loads(sp("status", "--format", "json").stdout)


def test_a_newcomer_gets_a_column_and_is_dealt_in(sp: Sp) -> None:
    out = sp("seat", "add", "Flo", "--after", "Bob")
    assert out.exit_code == 0, out.stderr
    assert out.stdout.startswith(
        "Flo joins the table after Bob. Seats: Ann, Bob, Flo, Cy, Dee, Ed."
    )
    header = sp.path.read_text().splitlines()[0]
    assert header.startswith("hand,kind,ref,Ann,Bob,Flo,Cy,Dee,Ed,")
    hand = json.loads(
        sp("hand", "--picker", "Flo", "--partner", "Bob", "--points", 70, "--format", "json").stdout
    )
    assert len(hand["deltas"]) == 6 and hand["deltas"]["Flo"] == 3  # six-handed now
    assert sp("verify").stdout == ""
    sheet = sp("sheet").stdout.splitlines()
    assert sheet[2].split()[:7] == ["1", "Ed", "Ann", "+", "Bob", "64", "+2"]
    assert sheet[2].split()[7] == "+1" and len(sheet[2].split()) == 11  # Flo blank in hand 1


def test_someone_who_leaves_keeps_their_total_and_is_not_dealt_in(sp: Sp) -> None:
    assert sp("seat", "remove", "ann").stdout.startswith("Ann leaves the table with +2.")
    assert status(sp)["players"] == ["Bob", "Cy", "Dee", "Ed"]
    assert "Ann sits out" not in sp("status").stdout
    error = sp("hand", "--picker", "Ann", "--alone", "--points", 70)
    assert error.exit_code == 1 and "unknown player" in error.stderr
    hand = json.loads(
        sp("hand", "--picker", "Bob", "--alone", "--points", 70, "--format", "json").stdout
    )
    assert "Ann" not in hand["deltas"] and hand["deltas"]["Bob"] == 3  # four-handed alone
    standings = json.loads(sp("standings", "--format", "json").stdout)
    assert standings["totals"]["Ann"] == 2
    settle = json.loads(sp("settle", "--format", "json").stdout)
    assert settle["balances"]["Ann"] == "2.00"
    assert sp("verify").stdout == ""


def test_the_deal_follows_the_seats_in_force(sp: Sp) -> None:
    assert status(sp)["dealer"] == "Ann"
    sp("seat", "remove", "Ann")  # the next dealer leaves: the deal moves on to Bob
    assert status(sp)["dealer"] == "Bob"
    sp("hand", "--leaster", "--winner", "Cy")
    assert status(sp)["dealer"] == "Cy"
    sp("seat", "add", "Ann", "--after", "Cy")  # she comes back, to Cy's left
    assert status(sp)["players"] == ["Bob", "Cy", "Ann", "Dee", "Ed"]
    sp("hand", "--leaster", "--winner", "Cy")
    assert status(sp)["dealer"] == "Ann"
    assert sp("verify").stdout == ""


def test_sitting_out_follows_the_seats(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "six.csv"
    run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed", "--set", "sit_out=dealer")
    assert json.loads(run("-f", path, "status", "--format", "json").stdout)["sits_out"] == []
    run("-f", path, "seat", "add", "Flo")
    data = json.loads(run("-f", path, "status", "--format", "json").stdout)
    assert data["sits_out"] == ["Ed"]  # six at a five-seat table: the dealer sits out


def test_out_naming_another_while_the_dealer_would_sit_out_says_who_deals_and_sits_out(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "six.csv"
    run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed,Flo", "--set", "sit_out=dealer")
    plain = run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "70")
    assert plain.stdout.startswith("Hand 1: Ann picked, partner Bob, 70 points: a win, level 1, "
                                   "stake 1.\n")  # fmt: skip
    out = run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "70",
              "--out", "Cy")  # fmt: skip
    assert out.exit_code == 0, out.stderr
    assert out.stdout.splitlines()[0] == (
        "Hand 2: Ann picked, partner Bob, 70 points: a win, level 1, stake 1; "
        "Ann deals and plays, Cy sits out."
    )
    # the dealer (Bob deals hand 3) named with --out sits out as the rules say: nothing to add
    both = run("-f", path, "hand", "--picker", "Cy", "--partner", "Dee", "--points", "70",
               "--out", "Bob")  # fmt: skip
    assert both.exit_code == 0, both.stderr
    assert both.stdout.splitlines()[0].endswith("stake 1.")


@pytest.mark.parametrize(
    "args, message",
    [
        (("seat", "add", "Bob"), "Bob is already seated"),
        (("seat", "add", "Flo", "--after", "Zed"), "unknown player"),
        (("seat", "add", "+Flo"), "cannot start with +"),
        (("seat", "remove", "Zed"), "unknown player"),
    ],
)
def test_seat_refusals_leave_the_file_unchanged(
    sp: Sp, args: tuple[str, ...], message: str
) -> None:
    before = sp.path.read_bytes()
    result = sp(*args)
    assert result.exit_code == 1 and message in result.stderr
    assert sp.path.read_bytes() == before


def test_a_table_too_small_to_deal_is_refused(sp: Sp) -> None:
    sp("seat", "remove", "Ann")
    sp("seat", "remove", "Bob")
    before = sp.path.read_bytes()
    result = sp("seat", "remove", "Cy")
    assert result.exit_code == 1 and "deal for 3, 4, 5, 6 players" in result.stderr
    assert sp.path.read_bytes() == before


def test_corrections_of_hands_before_a_seat_change(sp: Sp) -> None:
    sp("seat", "add", "Flo")
    assert sp("amend", "1", "--points", "58").exit_code == 0
    standings = json.loads(sp("standings", "--format", "json").stdout)
    assert standings["totals"] == {"Ann": -2, "Bob": -1, "Cy": 1, "Dee": 1, "Ed": 1, "Flo": 0}
    assert sp("void", "1").exit_code == 0
    assert sp("verify").stdout == ""


def test_a_sixth_player_warns_that_the_deal_changes_unless_the_dealer_sits_out(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    result = run("-f", path, "seat", "add", "Flo")
    assert result.exit_code == 0
    assert result.stderr.startswith(
        "Warning: the deal changes: 6-handed hands, 5 cards each, "
        "the partner found by the jack of diamonds."
    )
    assert "To have the dealer sit out instead: scorepad set sit_out=dealer" in result.stderr
    other = tmp_path / "other.csv"
    assert (
        run(
            "-f", other, "new", "--players", "Ann,Bob,Cy,Dee,Ed", "--set", "sit_out=dealer"
        ).exit_code
        == 0
    )
    assert run("-f", other, "seat", "add", "Flo").stderr == ""  # still five-handed hands
