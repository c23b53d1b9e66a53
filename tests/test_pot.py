"""The pot (Sheepshead pots; the Bavarian Stock): `all_pass = pot`, `hand --pot`, the next hand
with a picker playing for the whole pot, `pot_split`, `pot_max`, the pot in every report and in
`settle`, corrections that would change what a later hand played for, and format 8.

Every expected figure is worked out by hand in the comment beside it."""

import csv
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from _types import CheckJson, Fails, Night, Run
from click.testing import Result
from conftest import memo_of

from scorepad import pot as pot_module
from scorepad.pot import paid_out, played_for_pot, pot_shares
from scorepad.rules import load_rules
from scorepad.scoring import PickerHand, score
from scorepad.session import Session
from scorepad.store import snapshot
from scorepad.store.format import CREATED_VERSION, FORMAT_VERSION

FIVE = "Ann,Bob,Cy,Dee,Ed"
POT = ("--set", "all_pass=pot")


def ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result


def state(night: Night) -> dict[str, Any]:
    got: dict[str, Any] = json.loads(ok(night("status", "--format", "json")).stdout)
    return got


def hand_json(night: Night, *args: object) -> dict[str, Any]:
    got: dict[str, Any] = json.loads(ok(night("hand", *args, "--format", "json")).stdout)
    return got


def file_version(path: Path) -> int:
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    return int(rows[1][rows[0].index("format")])


# --- a night with a cap and a doubled loss ------------------------------------------------------


def test_a_night_of_the_pot_with_a_cap_and_a_doubled_loss(night: Night) -> None:
    ok(night("new", "--players", FIVE, *POT, "--set", "pot_max=15"))
    # 1: everyone passes (Ed deals): each pays the base, 1, into the pot: 5.
    first = hand_json(night, "--pot")
    assert first["deltas"] == dict.fromkeys(FIVE.split(","), -1)
    assert first["pot"] == 5 and first["into_pot"] == 5 and first["kind"] == "pot"
    # 2 (Ann deals): Bob and Cy take 40 and Dee cracked: a loss at stake 2 (Bob -4, Cy -2, each
    # defender +2); they pay as much as the pot holds, 5 (it doubles, to 10), shared as the hand
    # pays them, 4:2: Cy 5 x 2/6 = 1 (whole points), Bob the rest, 4. The crack doubles the
    # stake, not the pot.
    second = hand_json(
        night, "--picker", "Bob", "--partner", "Cy", "--points", 40, "--crack", "Dee"
    )
    assert second["deltas"] == {"Ann": 2, "Bob": -8, "Cy": -3, "Dee": 2, "Ed": 2}
    assert second["pot"] == 10 and second["into_pot"] == 5
    # 3 (Bob deals): Cy alone takes 50: a loss at stake 1 (Cy -4, each +1); the pot holds 10
    # and its cap is 15: Cy pays only 5, up to the cap.
    third = hand_json(night, "--picker", "Cy", "--alone", "--points", 50)
    assert third["deltas"] == {"Ann": 1, "Bob": 1, "Cy": -9, "Dee": 1, "Ed": 1}
    assert third["pot"] == 15
    # 4 (Cy deals): everyone passes: the antes go in past the cap (it caps what a loss pays).
    assert hand_json(night, "--pot")["pot"] == 20
    # 5 (Dee deals): Dee and Ed take 20: schneidered, stake 2 (Dee -4, Ed -2, each +2); the pot
    # is past its cap: they pay nothing into it.
    fifth = hand_json(night, "--picker", "Dee", "--partner", "Ed", "--points", 20, "--tricks", 1)
    assert fifth["deltas"] == {"Ann": 2, "Bob": 2, "Cy": 2, "Dee": -4, "Ed": -2}
    assert fifth["pot"] == 20 and "into_pot" not in fifth
    # 6 (Ed deals): Ann and Cy take 95: schneider, stake 2 (Ann +4, Cy +2, each -2), and the
    # whole pot, 20: Cy 20 x 2/6 = 6 (whole points), Ann the rest, 14.
    sixth = hand_json(night, "--picker", "Ann", "--partner", "Cy", "--points", 95)
    assert sixth["deltas"] == {"Ann": 18, "Bob": -2, "Cy": 8, "Dee": -2, "Ed": -2}
    assert sixth["pot"] == 0 and sixth["into_pot"] == -20
    # Totals: Ann -1+2+1-1+2+18 = 21; Bob -1-8+1-1+2-2 = -9; Cy -1-3-9-1+2+8 = -4;
    # Dee -1+2+1-1-4-2 = -5; Ed -1+2+1-1-2-2 = -3 (they sum to 0: the pot is empty).
    totals = {"Ann": 21, "Bob": -9, "Cy": -4, "Dee": -5, "Ed": -3}
    assert state(night)["totals"] == totals and state(night)["pot"] == 0
    assert ok(night("verify")).stdout == ""
    # the pot cell of each row, as the file keeps it (empty: nothing in the pot)
    rows = list(csv.DictReader(night.path.read_text(encoding="utf-8").splitlines()))
    assert [r["pot"] for r in rows[2:]] == ["5", "10", "15", "20", "20", ""]
    assert file_version(night.path) == 8


def test_the_explanation_says_what_the_pot_did(night: Night) -> None:
    ok(night("new", "--players", FIVE, *POT))
    ok(night("hand", "--pot"))
    ok(night("hand", "--pot"))
    shown = ok(night("hand", "--picker", "Bob", "--partner", "Cy", "--points", 70, "--explain"))
    # a win at stake 1 (Bob +2, Cy +1) and the pot of 10: Cy 10 x 1/3 = 3, Bob the rest, 7
    assert "The pot holds 10: the picker's side takes it." in shown.stdout
    assert "in whole points, the rest to the picker: Bob +7, Cy +3." in shown.stdout
    assert "With the pot the hand sums to +10; the pot holds 0 after it." in shown.stdout
    assert "took the pot (10); the pot holds 0." in shown.stdout.splitlines()[0]


# --- pot_split ------------------------------------------------------------------------------------

PICKER_WIN = ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", 70)


@pytest.mark.parametrize(
    ("pot", "split", "ann", "bob"),
    [
        # five-handed, a win at stake 1: Ann +2, Bob +1, each defender -1
        (9, "as-hand", 2 + 6, 1 + 3),  # 9 x 2/3 = 6, 9 x 1/3 = 3: it divides
        (10, "as-hand", 2 + 7, 1 + 3),  # Bob 10 x 1/3 = 3 (whole points), Ann the rest, 7
        (5, "as-hand", 2 + 4, 1 + 1),  # Bob 5 x 1/3 = 1, Ann 4
        (5, "equal", 2 + 3, 1 + 2),  # Bob 5 / 2 = 2, Ann the rest, 3
        (10, "equal", 2 + 5, 1 + 5),
    ],
)
def test_the_picker_and_partner_share_the_pot_as_pot_split_says(
    check_json: CheckJson, pot: int, split: str, ann: int, bob: int
) -> None:
    got = check_json(*POT, "--set", f"pot_split={split}", *PICKER_WIN, "--pot", pot)
    assert got["deltas"] == {"Ann": ann, "Bob": bob, "Cy": -1, "Dee": -1, "Ed": -1}
    assert got["into_pot"] == -pot


def test_a_lost_hand_shares_what_it_pays_in_as_the_hand_pays_them(check_json: CheckJson) -> None:
    # Ann and Bob take 40: a loss (Ann -2, Bob -1); the pot of 7 doubles: Bob pays 7 x 1/3 = 2
    # (whole points), Ann the rest, 5.
    got = check_json(
        *POT, "--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", 40, "--pot", 7
    )
    assert got["deltas"] == {"Ann": -7, "Bob": -3, "Cy": 1, "Dee": 1, "Ed": 1}
    assert got["into_pot"] == 7


def test_a_picker_alone_takes_the_whole_pot(check_json: CheckJson) -> None:
    # alone at five, a win at stake 1: Ann +4, each -1; and the pot of 10, all hers
    got = check_json(
        *POT, "--players", FIVE, "--picker", "Ann", "--alone", "--points", 70, "--pot", 10
    )
    assert got["deltas"] == {"Ann": 14, "Bob": -1, "Cy": -1, "Dee": -1, "Ed": -1}


SCHAFKOPF = ("--rules", "schafkopf", *POT, "--players", "Ann,Bob,Cy,Dee")


@pytest.mark.parametrize(
    ("pot", "ann", "bob"),
    [
        (6, 1 + 3, 1 + 3),  # a partner game won: +1 each; the Stock in halves: 3 each
        (7, 1 + 4, 1 + 3),  # 7 / 2: Bob 3 (whole points), the declarer the rest, 4
    ],
)
def test_a_schafkopf_partner_game_shares_the_stock_in_halves(
    check_json: CheckJson, pot: int, ann: int, bob: int
) -> None:
    got = check_json(
        *SCHAFKOPF, "--picker", "Ann", "--partner", "Bob", "--points", 70, "--pot", pot
    )
    assert got["deltas"] == {"Ann": ann, "Bob": bob, "Cy": -1, "Dee": -1}


def test_a_solo_takes_or_pays_the_stock_whole(check_json: CheckJson) -> None:
    # a solo won at 70: the declarer +3 x 5 = +15, each -5; and the Stock of 8, his alone
    won = check_json(*SCHAFKOPF, "--picker", "Ann", "--game", "solo", "--points", 70, "--pot", 8)
    assert won["deltas"] == {"Ann": 23, "Bob": -5, "Cy": -5, "Dee": -5}
    # lost at 50: -15 and as much as the Stock holds, 8, into it
    lost = check_json(*SCHAFKOPF, "--picker", "Ann", "--game", "solo", "--points", 50, "--pot", 8)
    assert lost["deltas"] == {"Ann": -23, "Bob": 5, "Cy": 5, "Dee": 5}
    assert lost["into_pot"] == 8


def test_pot_shares_whole_points_with_the_rest_to_the_picker() -> None:
    rules = load_rules("standard", ["all_pass=pot"])
    hand = {"Ann": 2, "Bob": 1, "Cy": -1, "Dee": -1, "Ed": -1}
    assert pot_shares(rules, hand, ("Ann", "Bob"), 10) == {"Ann": 7, "Bob": 3}
    assert pot_shares(rules, hand, ("Ann", "Bob"), 1) == {"Ann": 1, "Bob": 0}
    equal = rules._replace(pot_split="equal")
    assert pot_shares(equal, hand, ("Ann", "Bob"), 11) == {"Ann": 6, "Bob": 5}
    # six-handed with two partners (pagat): the picker +1, each partner +1: thirds
    six = {"Ann": 1, "Bob": 1, "Cy": 1, "Dee": -1, "Ed": -1, "Flo": -1}
    assert pot_shares(rules, six, ("Ann", "Bob", "Cy"), 10) == {"Ann": 4, "Bob": 3, "Cy": 3}
    # partner_free_on_no_trick: the partner pays nothing of the hand, and nothing of the pot
    free = {"Ann": -6, "Bob": 0, "Cy": 2, "Dee": 2, "Ed": 2}
    assert pot_shares(rules, free, ("Ann", "Bob"), 9) == {"Ann": 9, "Bob": 0}


def test_a_tie_thrown_in_does_not_play_for_the_pot() -> None:
    rules = load_rules("standard", ["all_pass=pot", "sixty_sixty=doubler"])
    result = score(rules, PickerHand(tuple(FIVE.split(",")), "Ann", 60, partners=("Bob",)))
    assert not pot_module.plays_for_pot(10, result)
    won = score(rules, PickerHand(tuple(FIVE.split(",")), "Ann", 61, partners=("Bob",)))
    assert played_for_pot(rules, won, "Ann", ("Bob",), 10).pot == -10


def test_the_pot_is_explained_where_the_hand_is() -> None:
    rules = load_rules("standard", ["all_pass=pot"])
    hand = PickerHand(tuple(FIVE.split(",")), "Ann", 70, partners=("Bob",))
    plain = played_for_pot(rules, score(rules, hand), "Ann", ("Bob",), 10)
    explained = played_for_pot(rules, score(rules, hand, explain=True), "Ann", ("Bob",), 10)
    assert plain.explanation == ()
    # the hand's own lines, then the pot's: it holds 10, the side takes it, shared 2:1 (7 and 3
    # of 10 rounded to the picker), and the players are +10 together (the pot -10)
    own = score(rules, hand, explain=True).explanation
    assert explained.explanation[: len(own)] == own
    assert explained.explanation[len(own) :] == (
        "The pot holds 10: the picker's side takes it.",
        "The side shares the 10 as the hand pays them (pot_split = as-hand), in whole points, "
        "the rest to the picker: Ann +7, Bob +3.",
        "With the pot the hand sums to +10; the pot holds 0 after it.",
    )
    assert explained._replace(explanation=()) == plain


# --- what leaves the pot alone ------------------------------------------------------------------


def test_leasters_schwanzer_doublers_and_penalties_leave_the_pot_alone(night: Night) -> None:
    ok(night("new", "--players", FIVE, *POT))
    ok(night("hand", "--pot"))  # 5 in the pot; each -1
    ok(night("penalty", "Ed", "--points", 1))  # Ed -4, each other +1
    assert state(night)["pot"] == 5
    ok(night("set", "all_pass=leaster"))
    leaster = hand_json(night, "--leaster", "--winner", "Cy")  # Cy +4, each -1
    assert leaster["pot"] == 5 and "into_pot" not in leaster
    ok(night("set", "all_pass=schwanzer"))
    assert hand_json(night, "--schwanzer", "--loser", "Dee")["pot"] == 5  # Dee -4, each +1
    ok(night("set", "all_pass=doubler"))
    assert hand_json(night, "--doubler")["pot"] == 5
    # the next hand with a picker plays for it, doubled by the doubler: stake 2 (Ann +4, Bob +2,
    # each -2), and the pot, 5: Bob 1, Ann 4
    won = hand_json(night, "--picker", "Ann", "--partner", "Bob", "--points", 70)
    assert won["deltas"] == {"Ann": 8, "Bob": 3, "Cy": -2, "Dee": -2, "Ed": -2}
    assert won["marks"] == ["doubled", "took the pot (5)"] and won["pot"] == 0
    assert ok(night("verify")).stdout == ""


def test_a_ramsch_leaves_the_stock_alone(night: Night) -> None:
    ok(night("new", "--rules", "bavarian", "--players", "Ann,Bob,Cy,Dee", *POT))
    ok(night("hand", "--pot"))  # the Stock: 40 (the base, 10, from each)
    ok(night("set", "all_pass=ramsch"))
    ramsch = hand_json(night, "--ramsch", "--loser", "Ann")
    assert ramsch["pot"] == 40 and "into_pot" not in ramsch
    # a partner game won by Bob and Cy takes the Stock in halves: 20 each more than the hand
    won = hand_json(night, "--picker", "Bob", "--partner", "Cy", "--points", 70, "--tricks", 4)
    assert won["pot"] == 0 and won["into_pot"] == -40
    assert won["deltas"]["Bob"] == won["score"]["deltas"]["Bob"] == -won["deltas"]["Ann"] + 20
    assert won["deltas"]["Bob"] - won["deltas"]["Ann"] == won["deltas"]["Cy"] - won["deltas"]["Dee"]
    assert ok(night("verify")).stdout == ""


def test_a_player_sitting_out_pays_no_ante(night: Night) -> None:
    ok(night("new", "--players", "Ann,Bob,Cy,Dee,Ed,Flo", *POT, "--set", "sit_out=dealer"))
    passed = hand_json(night, "--pot")  # Flo deals and sits out: five antes
    assert passed["deltas"] == {"Ann": -1, "Bob": -1, "Cy": -1, "Dee": -1, "Ed": -1, "Flo": 0}
    assert passed["pot"] == 5
    assert ok(night("verify")).stdout == ""


def test_pot_ante_sets_what_each_player_pays(night: Night) -> None:
    ok(night("new", "--players", FIVE, *POT, "--set", "pot_ante=3", "--set", "base=2"))
    assert hand_json(night, "--pot")["pot"] == 15
    ok(night("set", "pot_ante=0"))  # 0: the base
    assert hand_json(night, "--pot")["pot"] == 25


# --- the pot in every report ----------------------------------------------------------------------


def test_every_report_shows_the_pot(night: Night) -> None:
    ok(night("new", "--players", FIVE, *POT))
    ok(night("hand", "--pot"))
    assert "Next: hand 2, Ann deals, Bob leads; the pot holds 5." in ok(night("status")).stdout or (
        "Pot:       5 (the next hand with a picker plays for it)" in ok(night("status")).stdout
    )
    assert "Pot:       5 (the next hand with a picker plays for it)" in ok(night("status")).stdout
    assert "Pot: 5 (the next hand with a picker plays for it)." in ok(night("standings")).stdout
    assert json.loads(ok(night("standings", "--format", "json")).stdout)["pot"] == 5
    sheet = ok(night("sheet")).stdout
    assert "everyone passed: 5 into the pot" in sheet and "In the pot: 5" in sheet
    assert json.loads(ok(night("sheet", "--format", "json")).stdout)["pot"] == 5
    assert ",,In the pot: 5,,,,,," in ok(night("sheet", "--format", "csv")).stdout
    assert "hand 1: passed into the pot" in ok(night("log")).stdout
    verbose = ok(night("verify", "-v")).stdout
    assert "1 row of hands, 0 hands counted (1 into the pot)" in verbose
    assert "the pot holds 5: all consistent" in verbose


def test_a_night_without_the_pot_shows_none(night: Night) -> None:
    ok(night("new", "--players", FIVE))
    ok(night("hand", "--picker", "Ann", "--partner", "Bob", "--points", 70))
    assert "pot" not in json.loads(ok(night("status", "--format", "json")).stdout)
    assert "pot" not in json.loads(ok(night("standings", "--format", "json")).stdout)
    assert "Pot" not in ok(night("status")).stdout
    assert file_version(night.path) == CREATED_VERSION == 5
    assert "pot_ante" not in night.path.read_text(encoding="utf-8")  # (a default is not stored)


def test_settle_pays_what_is_left_in_equal_shares(night: Night) -> None:
    ok(night("new", "--players", FIVE, *POT))
    ok(night("hand", "--pot"))
    ok(night("hand", "--pot"))  # 10 in the pot; each -2
    settled = json.loads(ok(night("settle", "--format", "json")).stdout)
    # 10 in equal shares to the five seated: +2 each, and everyone is even
    assert settled["points"] == dict.fromkeys(FIVE.split(","), 0)
    assert settled["pot"] == {
        "held": 10,
        "each": 2,
        "paid_to": FIVE.split(","),
        "remainder": 0,
        "party": "the pot",
    }
    assert (
        "The pot's 10 is paid out in equal shares to the 5 players seated: +2 each."
        in ok(night("settle")).stdout
    )


def test_settle_names_a_remainder_that_does_not_divide(night: Night) -> None:
    ok(night("new", "--players", FIVE, *POT))
    ok(night("hand", "--pot"))  # 5 in the pot; each -1
    ok(night("seat", "remove", "Ed"))
    settled = json.loads(ok(night("settle", "--format", "json")).stdout)
    # 5 among the four seated: 1 each, and 1 that does not divide stays in the pot: Ed (who
    # left) pays it
    assert settled["points"] == {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0, "Ed": -1, "the pot": 1}
    assert settled["payments"] == [{"from": "Ed", "to": "the pot", "amount": "1.00"}]
    text = ok(night("settle")).stdout
    assert "+1 each; the 1 that does not divide stays in the pot (as 'the pot' below)." in text


def test_paid_out_names_the_remainder_apart_from_a_player_called_the_pot() -> None:
    points, payout = paid_out({"the pot": 0, "Bob": -7}, 7, ("the pot", "Bob"))
    assert points == {"the pot": 3, "Bob": -4, "(the pot)": 1}
    assert payout.each == 3 and payout.remainder == 1 and payout.party == "(the pot)"


# --- corrections that would change what a later hand played for ---------------------------------


@pytest.fixture
def pot_night(night: Night) -> Night:
    ok(night("new", "--players", FIVE, *POT))
    ok(night("hand", "--pot"))  # 1: 5 in
    ok(night("hand", "--picker", "Bob", "--partner", "Cy", "--points", 40))  # 2: pays 5 in: 10
    ok(night("hand", "--picker", "Cy", "--partner", "Dee", "--points", 70))  # 3: takes the 10
    return night


def test_a_correction_that_changes_a_later_hands_pot_is_refused(
    pot_night: Night, fails: Fails
) -> None:
    before = pot_night.path.read_bytes()
    assert fails("-f", pot_night.path, "void", 1) == (
        "Error: hand 1: this changes what it put into the pot (-5), and so the pot that hands "
        "2 and 3 played for: void them first, the last first (scorepad void 3, then scorepad "
        "void 2)"
    )
    assert fails("-f", pot_night.path, "amend", 2, "--points", 70) == (
        "Error: hand 2: this changes what it put into the pot (-10), and so the pot that hand "
        "3 played for: void hand 3 first (scorepad void 3)"
    )
    assert fails("-f", pot_night.path, "amend", 1, "--points", 70) == (
        "Error: hand 1 was passed into the pot: there is nothing to amend (void it with "
        "`scorepad void 1` and record the hand)"
    )
    assert pot_night.path.read_bytes() == before


def test_a_correction_that_leaves_the_pot_as_it_was_is_made(pot_night: Night) -> None:
    # hand 2 still lost without schneider: it paid in the same 5
    amended = json.loads(ok(pot_night("amend", 2, "--points", 35, "--format", "json")).stdout)
    assert amended["change"] == dict.fromkeys(FIVE.split(","), 0)
    # the last hand that played for the pot can change: schneider, stake 2 (Cy +4, Dee +2, each
    # -2), the same pot of 10 (Dee 3, Cy 7). Totals: hand 1 -1 each; hand 2 Bob -2-4 = -6,
    # Cy -1-1 = -2, each +1; so Ann -1+1-2 = -2, Bob -1-6-2 = -9, Cy -1-2+11 = 8,
    # Dee -1+1+5 = 5, Ed -1+1-2 = -2.
    ok(pot_night("amend", 3, "--points", 95))
    assert state(pot_night)["totals"] == {"Ann": -2, "Bob": -9, "Cy": 8, "Dee": 5, "Ed": -2}
    assert ok(pot_night("verify")).stdout == ""


def test_voiding_the_last_first_gives_the_pot_back(pot_night: Night) -> None:
    ok(pot_night("void", 3))
    assert state(pot_night)["pot"] == 10
    ok(pot_night("void", 2))
    assert state(pot_night)["pot"] == 5
    ok(pot_night("undo"))  # the void of hand 2 taken back: hand 2 counts again
    assert state(pot_night)["pot"] == 10
    ok(pot_night("void", 2))
    ok(pot_night("void", 1))
    assert state(pot_night)["pot"] == 0
    assert state(pot_night)["totals"] == dict.fromkeys(FIVE.split(","), 0)
    assert ok(pot_night("verify")).stdout == ""


def test_undo_of_a_hand_that_played_for_the_pot_puts_it_back(pot_night: Night) -> None:
    assert "Undid hand 3." in ok(pot_night("undo")).stdout
    assert state(pot_night)["pot"] == 10
    ok(pot_night("redo"))
    assert state(pot_night)["pot"] == 0
    assert ok(pot_night("verify")).stdout == ""


def test_verify_refuses_a_void_written_by_hand_that_changes_a_later_pot(pot_night: Night) -> None:
    before = pot_night.path.read_bytes()
    # the row `void 3` would write, but for hand 1
    ok(pot_night("void", 3))
    rows = list(csv.reader(pot_night.path.read_text(encoding="utf-8").splitlines()))
    cells = rows[-1]
    cells[rows[0].index("ref")] = "1"
    with pot_night.path.open("wb") as out:
        out.write(before)
    with pot_night.path.open("a", encoding="utf-8", newline="") as out:
        csv.writer(out, lineterminator="\r\n").writerow(cells)
    result = pot_night("verify")
    assert result.exit_code == 1
    assert "hand 1: this changes what it put into the pot (-5)" in result.stdout


# --- the pot cell -------------------------------------------------------------------------------


def test_verify_finds_a_pot_cell_changed_by_hand(night: Night) -> None:
    ok(night("new", "--players", FIVE, *POT))
    ok(night("hand", "--pot"))
    lines = night.path.read_bytes().split(b"\r\n")
    at = lines[0].split(b",").index(b"pot")  # (the header's cells have no commas in them)
    cells = lines[3].rsplit(b",", len(lines[0].split(b",")) - at - 1)  # (the end has no quotes)
    assert cells[0].endswith(b",5")
    cells[0] = cells[0][:-1] + b"7"
    lines[3] = b",".join(cells)
    night.path.write_bytes(b"\r\n".join(lines))
    result = night("verify")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].endswith(
        ":4: pot: recorded 7, but the rows above give 5 (the players' recorded totals, -5, and "
        "the pot, 7, sum to +2, not 0)"
    )


def test_a_pot_row_needs_all_pass_pot(night: Night, fails: Fails, run: Run) -> None:
    ok(night("new", "--players", FIVE))
    assert fails("-f", night.path, "hand", "--pot") == (
        "Error: --pot: standard rules have all_pass = leaster; the pot needs all_pass = pot: "
        "scorepad set all_pass=pot (from the next hand on)"
    )
    assert file_version(night.path) == 5  # (refused before the file is rewritten)
    bad = run("-f", night.path, "hand", "--pot", "--picker", "Ann")
    assert bad.exit_code == 2 and "--picker does not belong with --pot" in bad.stderr
    both = run("-f", night.path, "hand", "--pot", "--doubler")
    assert both.exit_code == 2 and "--doubler and --pot" in both.stderr


def test_a_race_has_no_pot(fails: Fails) -> None:
    assert "all_pass = pot needs settlement = zero-sum" in fails(
        "check", "--rules", "first-night", *POT, "--players", FIVE, "--picker", "Ann",
        "--points", 70,
    )  # fmt: skip


def test_check_pot_needs_the_pot_rules(fails: Fails, check_json: CheckJson) -> None:
    assert fails("check", *PICKER_WIN, "--pot", 5) == (
        "Error: --pot: standard rules have all_pass = leaster; the pot needs all_pass = pot "
        "(--set all_pass=pot)"
    )
    # a 60-60 thrown in (sixty_sixty = doubler) plays for no pot: it waits for the next hand
    thrown = ("--set", "sixty_sixty=doubler", "--picker", "Ann", "--partner", "Bob")
    got = check_json(*POT, "--players", FIVE, *thrown, "--points", 60, "--pot", 5)
    assert got["deltas"] == dict.fromkeys(FIVE.split(","), 0) and "into_pot" not in got


# --- the format -----------------------------------------------------------------------------------


def test_the_first_pot_row_brings_format_8_and_an_older_scorepad_says_so(
    night: Night, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert FORMAT_VERSION >= 8
    ok(night("new", "--players", FIVE, *POT))
    ok(night("hand", "--picker", "Ann", "--partner", "Bob", "--points", 70))
    assert file_version(night.path) == 5  # a night that has not passed yet stays in format 5
    ok(night("hand", "--pot"))
    assert file_version(night.path) == 8
    assert ok(night("verify")).stdout == ""
    # a scorepad that reads up to format 7 (its header's `pot` a player's name to it) refuses
    # the file, saying the format it needs
    monkeypatch.setattr(snapshot, "FORMAT_VERSION", 7)
    result = night("standings")
    assert result.exit_code == 1
    assert "this session file is in format 8, written by a newer scorepad; this one reads " in (
        result.stderr
    )
    assert "formats 1 to 7" in result.stderr


def test_the_fast_and_full_passes_agree_on_a_pot_night(pot_night: Night) -> None:
    ok(pot_night("hand", "--pot"))
    ok(pot_night("hand", "--picker", "Ann", "--partner", "Bob", "--points", 40))
    ok(pot_night("amend", 5, "--points", 30))
    fast, slow = (Session(pot_night.path).check(memo=memo_of(f)) for f in (True, False))
    assert fast[1] == slow[1] == []
    assert (fast[0].totals, fast[0].pot, fast[0].pot_hands) == (
        slow[0].totals,
        slow[0].pot,
        slow[0].pot_hands,
    )
    assert fast[0].pot == 10 and fast[0].pot_hands == {2, 3, 5}
    assert sum(fast[0].totals.values()) + fast[0].pot == 0


# --- play and the board -------------------------------------------------------------------------


def test_play_records_a_hand_passed_into_the_pot(night: Night) -> None:
    ok(night("new", "--players", FIVE, *POT))
    result = ok(night("play", input="pot\n\nAnn\nBob\n\n70\n\n\n\n\n"))
    assert "Who picked? (1 Ann, 2 Bob, 3 Cy, 4 Dee, 5 Ed, pot;" in result.stdout
    assert "Hand 1: everyone passed; each player pays 1 into the pot (5 in all)" in result.stdout
    assert "Hand 2, Ann deals, Bob leads; the pot holds 5." in result.stdout
    assert "took the pot (5); the pot holds 0." in result.stdout
    assert state(night)["totals"] == {"Ann": 5, "Bob": 1, "Cy": -2, "Dee": -2, "Ed": -2}


def test_the_board_records_a_hand_passed_into_the_pot(night: Night) -> None:
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from starlette.testclient import TestClient

    from scorepad.web.app import Board, create_app
    from scorepad.web.follow import MoneyRate

    ok(night("new", "--players", FIVE, *POT))
    board = Board(night.path, allow_entry=True, token="t", poll=0.05, money=MoneyRate(Decimal(1)))
    auth = {"authorization": "Bearer t"}
    with TestClient(create_app(board), base_url="http://localhost") as client:
        assert client.get("/api/state").json()["entry"]["kinds"] == ["hand", "pot", "manual"]
        reply = client.post("/api/hands", json={"pot": True}, headers=auth)
        assert reply.status_code == 201, reply.text
        assert (
            reply.json()["pot"] == 5 and reply.json()["played"] == "everyone passed: 5 into the pot"
        )
        bad = client.post("/api/hands", json={"pot": True, "picker": "Ann"}, headers=auth)
        assert bad.status_code == 422 and "picker does not belong with pot" in bad.json()["error"]
        board_state = client.get("/api/state").json()
        assert board_state["pot"] == 5
        assert board_state["money"]["pot"]["each"] == 1
        assert board_state["money"]["payments"] == []
