"""Sheepshead house rules: schwanzer, the 60-60 hand, equal shares, no bump on a no-trick loss, a
leaster's blind set aside, penalties, the last hand doubled, and seven or eight at the table.

Every expected figure is worked out by hand in the comment beside it."""

import csv
import json
import random
import shutil
from pathlib import Path

import pytest
from _types import CheckJson, Fails, Night, Run
from click.testing import Result
from hypothesis import given
from hypothesis import strategies as st

from scorepad.errors import HandError
from scorepad.replay import parse_hand_file, replay
from scorepad.rules import load_rules
from scorepad.scoring import Penalty, PickerHand, SchwanzerHand, score, score_penalty
from scorepad.simulate import random_hand
from scorepad.store.format import CREATED_VERSION

ROOT = Path(__file__).parent.parent
FIVE = "Ann,Bob,Cy,Dee,Ed"
P5 = ("Ann", "Bob", "Cy", "Dee", "Ed")

BIG_TABLE = """\
preset = "standard"
name = "big-table"
seats = 8
[deal.7]
cards = 4
blind = 4
partners = 1
call = "jack-of-diamonds"
[deal.8]
cards = 4
blind = 0
partners = 1
call = "jack-of-diamonds"
"""


def totals(sp: Night) -> dict[str, int]:
    result = sp("standings", "--format", "json")
    assert result.exit_code == 0, result.stderr
    got: dict[str, int] = json.loads(result.stdout)["totals"]
    return got


def ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result


def deltas(check_json: CheckJson, *args: object) -> dict[str, int]:
    got: dict[str, int] = check_json(*args)["deltas"]
    return got


# --- schwanzer ----------------------------------------------------------------------------------

SCHWANZER = ("--set", "all_pass=schwanzer", "--players", FIVE, "--schwanzer")


def test_schwanzer_one_loser_pays_base_to_each_other_player(check_json: CheckJson) -> None:
    # Ann has the most (9): she pays 1 to each of four: -4; each other +1.
    got = deltas(check_json, *SCHWANZER, "--schwanzer-points", "Ann=9,Bob=3,Cy=2,Dee=4,Ed=1")
    assert got == {"Ann": -4, "Bob": 1, "Cy": 1, "Dee": 1, "Ed": 1}
    assert deltas(check_json, *SCHWANZER, "--loser", "Ann") == got


def test_schwanzer_a_tie_makes_every_tied_player_a_loser(check_json: CheckJson) -> None:
    # Ann and Bob tie: each pays 1 to each of three (-3); each of three gets 1 from two (+2).
    expected = {"Ann": -3, "Bob": -3, "Cy": 2, "Dee": 2, "Ed": 2}
    points = "Ann=8,Bob=8,Cy=2,Dee=4,Ed=1"
    assert deltas(check_json, *SCHWANZER, "--schwanzer-points", points) == expected
    assert deltas(check_json, *SCHWANZER, "--loser", "Ann", "--loser", "bob") == expected
    assert check_json(*SCHWANZER, "--schwanzer-points", points, "--loser", "Ann", "--loser", "Bob")[
        "losers"
    ] == ["Ann", "Bob"]


def test_schwanzer_when_everyone_ties_nobody_pays(check_json: CheckJson) -> None:
    got = deltas(check_json, *SCHWANZER, "--schwanzer-points", "Ann=4,Bob=4,Cy=4,Dee=4,Ed=4")
    assert got == dict.fromkeys(P5, 0)


def test_schwanzer_with_base_2_and_a_race() -> None:
    rules = load_rules("standard", ["all_pass=schwanzer", "base=2"])
    got = score(rules, SchwanzerHand(P5, losers=("Cy",)))
    assert dict(got.deltas) == {"Ann": 2, "Bob": 2, "Cy": -8, "Dee": 2, "Ed": 2}  # 4 x 2
    race = load_rules("first-night", ["all_pass=schwanzer"])
    moved = score(race, SchwanzerHand(P5, losers=("Cy",)))
    assert dict(moved.deltas) == {"Ann": 0, "Bob": 0, "Cy": -1, "Dee": 0, "Ed": 0}


@pytest.mark.parametrize(
    "args, message",
    [
        (("--schwanzer-points", "Ann=9,Bob=3,Cy=2,Dee=4"), "missing Ed"),
        (("--schwanzer-points", "Ann=19,Bob=3,Cy=2,Dee=4,Ed=1"), "Ann=19 is outside 0 to 18"),
        (("--schwanzer-points", "Ann=18,Bob=3,Cy=2,Dee=4,Ed=1"), "add up to 28"),
        (("--schwanzer-points", "Ann=9,Bob=3,Cy=2,Dee=4,Ed=1", "--loser", "Bob"), "Ann's"),
        (("--loser", "Ann", "--loser", "Ann"), "--loser Ann is given twice"),
        (("--loser", "Zed"), "unknown player"),
        ((), "needs --schwanzer-points"),
    ],
)
def test_impossible_schwanzers_are_refused(
    fails: Fails, args: tuple[str, ...], message: str
) -> None:
    assert message in fails("check", *SCHWANZER, *args)


def test_schwanzer_needs_the_rule_and_its_own_options(fails: Fails) -> None:
    line = fails("check", "--players", FIVE, "--schwanzer", "--loser", "Ann")
    assert "all_pass = leaster" in line and "--set all_pass=schwanzer" in line
    assert "does not belong with --schwanzer" in fails(
        "check", *SCHWANZER, "--loser", "Ann", "--winner", "Bob", code=2
    )
    assert "belongs to a schwanzer" in fails(
        "check", "--players", FIVE, "--picker", "Ann", "--alone", "--points", "70",
        "--loser", "Bob", code=2,
    )  # fmt: skip


@given(st.lists(st.integers(0, 5), min_size=5, max_size=5))
def test_schwanzer_is_zero_sum_and_the_most_lose(points: list[int]) -> None:
    rules = load_rules("standard", ["all_pass=schwanzer"])
    got = score(rules, SchwanzerHand(P5, schwanzer_points=dict(zip(P5, points))))
    assert sum(got.deltas.values()) == 0
    most = [p for p, n in zip(P5, points) if n == max(points)]
    if len(most) < 5:
        assert set(got.losers) == set(most)
        assert all(got.deltas[p] == -(5 - len(most)) for p in most)
    else:
        assert not any(got.deltas.values())


# --- the 60-60 hand -----------------------------------------------------------------------------

SIXTY = ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "60")


def test_sixty_sixty_is_a_loss_by_default(check_json: CheckJson) -> None:
    got = check_json(*SIXTY)
    assert got["outcome"] == "loss" and not got["doubles_next"]
    assert got["deltas"] == {"Ann": -2, "Bob": -1, "Cy": 1, "Dee": 1, "Ed": 1}


def test_sixty_sixty_loss_double_next_in_a_session(night: Night) -> None:
    ok(night("new", "--players", FIVE, "--set", "sixty_sixty=loss-double-next"))
    hand = json.loads(ok(night("hand", *SIXTY[2:], "--format", "json")).stdout)
    assert hand["deltas"] == {"Ann": -2, "Bob": -1, "Cy": 1, "Dee": 1, "Ed": 1}  # a loss
    assert hand["pending"] == 1 and "60-60: next hand doubled" in hand["marks"]
    status = json.loads(ok(night("status", "--format", "json")).stdout)
    assert status["doublers_pending"] == 1 and status["next_hand_doubled"] == 1
    assert "the next hand is doubled (x2)" in ok(night("status")).stdout
    # The next hand is doubled: stake 1 x 2; Cy + Dee win 70: Cy +4, Dee +2, the rest -2.
    ok(night("hand", "--picker", "Cy", "--partner", "Dee", "--points", "70"))
    assert totals(night) == {"Ann": -4, "Bob": -3, "Cy": 5, "Dee": 3, "Ed": -1}
    assert night("verify").stdout == ""


def test_sixty_sixty_doubler_scores_nothing_and_doubles_the_next(night: Night) -> None:
    ok(night("new", "--players", FIVE, "--set", "sixty_sixty=doubler"))
    out = ok(night("hand", *SIXTY[2:])).stdout
    assert "a 60-60 tie, not scored; the next hand is doubled" in out
    assert totals(night) == dict.fromkeys(P5, 0)
    ok(night("hand", "--picker", "Cy", "--partner", "Dee", "--points", "70"))
    assert totals(night) == {"Ann": -2, "Bob": -2, "Cy": 4, "Dee": 2, "Ed": -2}
    assert night("verify").stdout == ""


def test_voiding_a_sixty_sixty_takes_its_doubling_back(night: Night) -> None:
    ok(night("new", "--players", FIVE, "--set", "sixty_sixty=loss-double-next"))
    ok(night("hand", *SIXTY[2:]))
    ok(night("void", "1"))
    assert json.loads(night("status", "--format", "json").stdout)["doublers_pending"] == 0
    ok(night("undo"))  # restores hand 1, and its doubling
    assert json.loads(night("status", "--format", "json").stdout)["doublers_pending"] == 1
    assert night("verify").stdout == ""


def test_an_amendment_cannot_change_whether_a_hand_doubles_the_next(
    night: Night, fails: Fails
) -> None:
    ok(night("new", "--players", FIVE, "--set", "sixty_sixty=loss-double-next"))
    ok(night("hand", *SIXTY[2:]))
    ok(night("hand", "--picker", "Cy", "--partner", "Dee", "--points", "70"))
    before = night.path.read_bytes()
    line = fails("-f", night.path, "amend", "1", "--points", "58")
    assert "doubled the next hand" in line and "void it and record it again" in line
    line = fails("-f", night.path, "amend", "2", "--points", "60")
    assert "did not double the next hand" in line
    assert night.path.read_bytes() == before
    ok(night("amend", "1", "--partner", "Cy"))  # the same 60-60, another partner: fine


# --- equal shares -------------------------------------------------------------------------------


def test_equal_shares_six_players_ann_picks_with_bob_70(check_json: CheckJson) -> None:
    got = deltas(
        check_json, "--rules", "pagat", "--set", "partner_split=equal",
        "--players", "Ann,Bob,Cy,Dee,Ed,Flo", "--picker", "Ann", "--partner", "Bob",
        "--points", "70",
    )  # fmt: skip
    # Four defenders pay 1 each = 4, shared equally: Ann +2, Bob +2.
    assert got == {"Ann": 2, "Bob": 2, "Cy": -1, "Dee": -1, "Ed": -1, "Flo": -1}


def test_equal_shares_the_picker_takes_the_remainder(check_json: CheckJson, tmp_path: Path) -> None:
    rules = tmp_path / "big.toml"
    rules.write_text(BIG_TABLE.replace("seats = 8", 'seats = 8\npartner_split = "equal"'))
    got = deltas(
        check_json, "--rules", rules, "--players", "A,B,C,D,E,F,G", "--picker", "A",
        "--partner", "B", "--points", "50",
    )  # fmt: skip
    # A loss at stake 1: five defenders receive 1 each = 5; 5 / 2 = 2 each, A pays the 1 more.
    assert got == {"A": -3, "B": -2, "C": 1, "D": 1, "E": 1, "F": 1, "G": 1}


@given(st.integers(0, 120), st.sampled_from(["picker-rest", "equal"]))
def test_every_split_sums_to_zero(points: int, split: str) -> None:
    # (every count of card points: whether two tricks' cards can hold them is not the question)
    rules = load_rules("pagat", [f"partner_split={split}", "points_check=range"])
    players = ("Ann", "Bob", "Cy", "Dee", "Ed", "Flo")
    hand = PickerHand(players, "Ann", points, partners=("Bob",), tricks=2)
    got = score(rules, hand)
    assert sum(got.deltas.values()) == 0
    assert abs(got.deltas["Ann"]) >= abs(got.deltas["Bob"])


# --- no bump on a no-trick loss -----------------------------------------------------------------


def test_no_trick_loss_without_the_bump(check_json: CheckJson) -> None:
    args = ("--rules", "pagat", "--set", "partner_free_on_no_trick=true", "--players", FIVE)
    hand = ("--picker", "Ann", "--partner", "Bob", "--points", "0", "--tricks", "0")
    # Level 3 (3 x base 1), not doubled: three defenders receive 3 each; Ann pays all 9.
    got = deltas(check_json, *args, "--set", "bump_on_no_trick=false", *hand)
    assert got == {"Ann": -9, "Bob": 0, "Cy": 3, "Dee": 3, "Ed": 3}
    # With the bump (the default) the same hand is doubled: 6 each, Ann -18.
    assert deltas(check_json, *args, *hand) == {"Ann": -18, "Bob": 0, "Cy": 6, "Dee": 6, "Ed": 6}
    # A loss with a trick is still bumped: 20 points, 1 trick, schneider 2 x 2 = 4.
    bumped = deltas(
        check_json, *args, "--set", "bump_on_no_trick=false",
        "--picker", "Ann", "--partner", "Bob", "--points", "20", "--tricks", "1",
    )  # fmt: skip
    assert bumped == {"Ann": -8, "Bob": -4, "Cy": 4, "Dee": 4, "Ed": 4}


# --- a leaster's blind set aside ----------------------------------------------------------------

LEASTER = ("--players", FIVE, "--leaster")


def test_leaster_points_add_up_to_120_less_the_blind(check_json: CheckJson, fails: Fails) -> None:
    aside = ("--set", "leaster_blind=set-aside", *LEASTER)
    got = check_json(*aside, "--leaster-points", "Ann=10,Bob=20,Cy=30,Dee=40,Ed=5",
                     "--blind-points", "15")  # fmt: skip
    assert got["winners"] == ["Ed"] and got["deltas"]["Ed"] == 4
    assert "add up to 120, not 105" in fails(
        "check", *aside, "--leaster-points", "Ann=10,Bob=20,Cy=30,Dee=40,Ed=20",
        "--blind-points", "15",
    )  # fmt: skip
    assert "give the blind's card points too" in fails(
        "check", *aside, "--leaster-points", "Ann=10,Bob=20,Cy=30,Dee=40,Ed=20"
    )
    assert "holds 0 to 22 card points" in fails(
        "check", *aside, "--winner", "Ann", "--blind-points", "23"
    )
    assert "go to the winner of the last trick" in fails(
        "check", *LEASTER, "--winner", "Ann", "--blind-points", "3"
    )


def test_a_set_aside_leaster_in_a_session_is_amended_and_verified(night: Night) -> None:
    ok(night("new", "--players", FIVE, "--set", "leaster_blind=set-aside"))
    ok(night("hand", "--leaster", "--leaster-points", "Ann=10,Bob=20,Cy=30,Dee=40,Ed=5",
             "--blind-points", "15"))  # fmt: skip
    assert totals(night)["Ed"] == 4
    ok(night("amend", "1", "--leaster-points", "Ann=5,Bob=20,Cy=30,Dee=40,Ed=10"))
    assert totals(night) == {"Ann": 4, "Bob": -1, "Cy": -1, "Dee": -1, "Ed": -1}
    assert night("verify").stdout == ""


# --- penalties ----------------------------------------------------------------------------------


def test_a_penalty_pays_each_other_seated_player(night: Night) -> None:
    ok(night("new", "--players", FIVE, "--set", "all_pass=doubler"))
    ok(night("hand", "--doubler"))
    before = json.loads(night("status", "--format", "json").stdout)
    out = ok(night("penalty", "ed", "--points", "2", "--note", "reneged")).stdout
    assert out.startswith("Hand 2: a penalty: Ed pays 2 to each other seated player.")
    # Ed pays 2 to each of four: -8.
    assert totals(night) == {"Ann": 2, "Bob": 2, "Cy": 2, "Dee": 2, "Ed": -8}
    after = json.loads(night("status", "--format", "json").stdout)
    # It takes a number, but moves neither the deal nor the doubling pending.
    assert after["next_hand"] == 3 and after["dealer"] == before["dealer"]
    assert after["doublers_pending"] == 1
    sheet = ok(night("sheet", "--format", "json")).stdout
    row = json.loads(sheet)["hands"][1]
    assert row["kind"] == "penalty" and row["played"] == "penalty: Ed pays 2 to each"
    assert row["offender"] == "Ed" and row["penalty"] == 2 and row["winner"] is None
    stats = json.loads(night("stats", "--format", "json").stdout)
    stats = {r["player"]: r for r in stats["players"]}
    assert stats["Ed"]["hands"] == 0 and stats["Ed"]["total"] == -8  # not a hand played
    assert night("verify").stdout == ""


def test_a_penalty_to_one_player_voided_and_undone(night: Night, fails: Fails) -> None:
    ok(night("new", "--players", FIVE))
    ok(night("penalty", "Cy", "--points", "3", "--to", "Ann"))
    assert totals(night) == {"Ann": 3, "Bob": 0, "Cy": -3, "Dee": 0, "Ed": 0}
    line = fails("-f", night.path, "amend", "1", "--points", "2")
    assert "hand 1 is a penalty: void it" in line
    ok(night("void", "1"))
    assert totals(night) == dict.fromkeys(P5, 0)
    ok(night("undo"))  # the void undone: the penalty counts again
    assert totals(night)["Cy"] == -3
    # undo again steps back past the void to the penalty itself: voided (a row of its own)
    assert ok(night("undo")).stdout.startswith("Undid hand 1.")
    assert totals(night) == dict.fromkeys(P5, 0)
    assert ok(night("redo")).stdout.startswith("Redid hand 1.")
    assert totals(night)["Cy"] == -3
    ok(night("void", "1"))
    before = night.path.read_bytes()
    assert "Cy is the one who pays" in fails("-f", night.path, "penalty", "Cy", "--points",
                                               "1", "--to", "cy")  # fmt: skip
    assert "unknown player" in fails("-f", night.path, "penalty", "Zed", "--points", "1")
    assert night.path.read_bytes() == before
    assert night("verify").stdout == ""


def test_a_penalty_in_a_race_moves_the_offender_down(night: Night) -> None:
    ok(night("new", "--players", FIVE, "--rules", "first-night"))
    ok(night("hand", "--picker", "Ann", "--partner", "Bob", "--points", "70"))
    ok(night("penalty", "Ann", "--points", "1"))
    assert totals(night) == {"Ann": 0, "Bob": 1, "Cy": 0, "Dee": 0, "Ed": 0}


def test_verify_finds_a_penalty_changed_by_hand(night: Night, run: Run) -> None:
    ok(night("new", "--players", FIVE))
    ok(night("penalty", "Ed", "--points", "1"))
    rows = list(csv.reader(night.path.open(newline="")))
    header = rows[0]
    rows[-1][header.index("Ann")] = "2"  # Ann now gets 2, and the row no longer sums to 0
    with night.path.open("w", newline="") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)
    result = night("verify")
    assert result.exit_code == 1 and "does not sum to zero" in result.stdout
    assert night("standings").exit_code == 1


@pytest.mark.parametrize(
    ("column", "cell"),
    [("points", "70"), ("partners", '["Bob"]'), ("alone", "yes"), ("knocks", "1")],
)
def test_a_penalty_row_with_a_hand_input_is_refused_by_verify(
    night: Night, column: str, cell: str
) -> None:
    """Every input of a dealt hand (hands.INPUTS), not a list of some of them."""
    ok(night("new", "--players", FIVE))
    ok(night("penalty", "Ed", "--points", "1"))
    rows = list(csv.reader(night.path.open(newline="")))
    rows[-1][rows[0].index(column)] = cell
    with night.path.open("w", newline="") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)
    result = night("verify")
    assert result.exit_code == 1 and f"a penalty row has no {column}" in result.stdout


def test_score_penalty_is_zero_sum() -> None:
    rules = load_rules()
    got = score_penalty(rules, Penalty(P5, "Ed", 5))
    assert dict(got.deltas) == {"Ann": 5, "Bob": 5, "Cy": 5, "Dee": 5, "Ed": -20}
    with pytest.raises(HandError):
        score_penalty(rules, Penalty(P5, "Ed", 0))


# --- the last hand doubled ----------------------------------------------------------------------


def test_the_last_hand_is_doubled_only_when_the_table_says_so(night: Night, fails: Fails) -> None:
    ok(night("new", "--players", FIVE))
    before = night.path.read_bytes()
    line = fails("-f", night.path, "hand", "--picker", "Ann", "--alone", "--points", "70", "--last")
    assert "last_hand_doubled = false" in line
    assert night.path.read_bytes() == before
    ok(night("set", "last_hand_doubled=true"))
    out = ok(night("hand", "--picker", "Ann", "--alone", "--points", "70", "--last")).stdout
    # Stake 1 x 2 (the last hand): four defenders pay 2; Ann +8.
    assert totals(night) == {"Ann": 8, "Bob": -2, "Cy": -2, "Dee": -2, "Ed": -2}
    assert "That was the night's last hand" in out
    assert "hand 1 was the night's last" in night("status").stdout
    assert json.loads(night("status", "--format", "json").stdout)["last_hand_played"] == 1
    assert "last hand" in json.loads(night("sheet", "--format", "json").stdout)["hands"][0]["marks"]
    # the night is over: another hand is refused (a penalty is not), until the mark comes off
    before = night.path.read_bytes()
    line = fails("-f", night.path, "hand", "--picker", "Bob", "--alone", "--points", "70")
    assert "hand 1 was marked the night's last" in line and "amend 1 --no-last" in line
    assert night.path.read_bytes() == before
    ok(night("amend", "1", "--no-last"))
    assert totals(night)["Ann"] == 4
    ok(night("hand", "--picker", "Bob", "--alone", "--points", "70"))
    assert night("verify").stdout == ""


def test_a_last_leaster_and_schwanzer_are_doubled(check_json: CheckJson) -> None:
    got = check_json("--set", "last_hand_doubled=true", *LEASTER, "--winner", "Ann", "--last")
    assert got["deltas"]["Ann"] == 8  # payout 1 x 2 from four
    got = check_json("--set", "last_hand_doubled=true", *SCHWANZER, "--loser", "Ann", "--last")
    assert got["deltas"]["Ann"] == -8


# --- seven and eight at the table ---------------------------------------------------------------


@pytest.fixture
def big(tmp_path: Path) -> Path:
    path = tmp_path / "big.toml"
    path.write_text(BIG_TABLE)
    return path


def test_seven_and_eight_handed_hands_score(check_json: CheckJson, big: Path) -> None:
    # Seven: A + B win 70 at stake 1; five defenders pay 1: B +1, A the rest +4.
    got = deltas(check_json, "--rules", big, "--players", "A,B,C,D,E,F,G",
                 "--picker", "A", "--partner", "B", "--points", "70")  # fmt: skip
    assert got == {"A": 4, "B": 1, "C": -1, "D": -1, "E": -1, "F": -1, "G": -1}
    # Eight, no blind: A + B lose with no trick (level 3): six defenders get 3; B -3, A -15.
    got = deltas(check_json, "--rules", big, "--players", "A,B,C,D,E,F,G,H",
                 "--picker", "A", "--partner", "B", "--points", "0", "--tricks", "0")  # fmt: skip
    assert got["A"] == -15 and got["B"] == -3 and got["H"] == 3


def test_a_bad_seven_handed_deal_is_refused(fails: Fails, tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[deal.7]\ncards = 4\nblind = 3\npartners = 1\ncall = "jack-of-diamonds"\n')
    assert "31 cards, not a 32- or 24-card pack" in fails("rules", path)


def test_a_night_of_eight_with_seven_dealt_in(night: Night, big: Path, tmp_path: Path) -> None:
    rules = tmp_path / "seven.toml"
    rules.write_text(BIG_TABLE.replace("seats = 8", 'seats = 7\nsit_out = "dealer"'))
    ok(night("new", "--rules", rules, "--players", "A,B,C,D,E,F,G,H"))
    out = ok(night("hand", "--picker", "A", "--partner", "B", "--points", "80", "--crack", "C",
                   "--format", "json")).stdout  # fmt: skip
    hand = json.loads(out)
    # H deals and sits out; A + B win 80 at stake 1, cracked x2: five defenders pay 2.
    assert hand["deltas"]["H"] == 0 and hand["deltas"]["A"] == 8 and hand["deltas"]["C"] == -2
    ok(night("hand", "--leaster", "--winner", "C"))
    assert json.loads(night("status", "--format", "json").stdout)["sits_out"] == ["B"]
    assert night("verify").stdout == ""


@pytest.mark.parametrize("count", [7, 8])
def test_replay_deals_and_plays_seven_and_eight(
    count: int, big: Path, run: Run, tmp_path: Path
) -> None:
    rules = load_rules(str(big))
    players = [chr(ord("A") + i) for i in range(count)]
    for seed in range(25):
        text = random_hand(random.Random(seed), rules, players)
        hand = replay(parse_hand_file(text.replace("rules: big-table", f"rules: {big}")), rules)
        assert hand.ok, hand.problems
        assert hand.score is not None
        assert sum(hand.score.deltas.values()) == 0
    path = tmp_path / "hand.txt"
    path.write_text(text.replace("rules: big-table", f"rules: {big}"))
    result = run("replay", path)
    assert result.exit_code == 0, result.stderr


# --- in a session: format 4, and play ------------------------------------------------------------


def test_a_format_3_file_is_rewritten_when_a_hand_needs_format_4(night: Night) -> None:
    shutil.copy(ROOT / "tests" / "fixtures" / "v3" / "standard-friday.csv", night.path)
    before = totals(night)
    ok(night("hand", "--picker", "Ann", "--partner", "Bob", "--points", "70"))  # a plain hand
    header, rules_row = list(csv.reader(night.path.open(newline="")))[:2]
    assert rules_row[header.index("format")] == "3"  # still format 3
    ok(night("penalty", "Ed", "--points", "1"))  # a penalty needs format 4
    header, rules_row = list(csv.reader(night.path.open(newline="")))[:2]
    assert rules_row[header.index("format")] == str(CREATED_VERSION) and "offender" in header
    after = totals(night)
    assert after["Ed"] == before["Ed"] - 1 - 4 + 1 - 1  # lost to Ann + Bob (-1), penalty (-4)
    assert night("verify").stdout == ""


def test_play_records_a_schwanzer_a_penalty_and_the_last_hand(night: Night) -> None:
    ok(night("new", "--players", FIVE, "--set", "all_pass=schwanzer",
             "--set", "last_hand_doubled=true"))  # fmt: skip
    answers = [
        "schwanzer", "Ann,Bob", "", "",  # Ann and Bob tie for the most; not the last; record
        "penalty Ed 2",  # Ed pays 2 to each
        "Cy", "alone", "80", "", "", "y", "",  # Cy alone 80, the last hand; record
    ]  # fmt: skip
    result = night("play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.stderr
    assert "Hand 1: a schwanzer, lost by Ann and Bob (stake 1)." in result.stdout
    assert "Hand 2: a penalty: Ed pays 2 to each other seated player." in result.stdout
    assert "That was the night's last hand." in result.stdout
    # Ann: -3 +2 -2 = -3; Bob: -3 +2 -2 = -3; Cy: +2 +2 +8 = +12; Dee: +2 +2 -2; Ed: +2 -8 -2.
    assert totals(night) == {"Ann": -3, "Bob": -3, "Cy": 12, "Dee": 2, "Ed": -8}
    assert night("verify").stdout == ""


def test_older_rules_tables_take_todays_rule_for_the_new_settings(run: Run) -> None:
    rules = json.loads(run("rules", "pagat", "--format", "json").stdout)
    assert rules["sixty_sixty"] == "loss" and rules["partner_split"] == "picker-rest"
    assert rules["bump_on_no_trick"] is True and rules["last_hand_doubled"] is False
    assert rules["leaster_blind"] == "last-trick"
    text = run("rules", "pagat").stdout
    for key in ("sixty_sixty", "partner_split", "bump_on_no_trick", "leaster_blind"):
        assert key in text


def test_play_after_the_night_s_last_hand_says_so(night: Night, fails: Fails) -> None:
    ok(night("new", "--players", FIVE, "--set", "last_hand_doubled=true"))
    ok(night("hand", "--picker", "Ann", "--alone", "--points", "70", "--last"))
    assert "marked the night's last" in fails("-f", night.path, "play")
