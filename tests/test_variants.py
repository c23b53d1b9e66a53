"""The variants other score keepers play (issue 22, items 3-5): how a Ramsch durchmarsch is paid,
a Ramsch without the Jungfrau rule or with each Jungfrau doubling again, a leaster in which the
most card points loses or two places are paid, and equal shares in a three-handed Schafkopf
partner game (docs/rules.md §3 and §6a).

Every expected figure is worked out by hand in the comment beside it."""

import json
from pathlib import Path

import pytest
from _types import CheckJson, Fails, Night, Run
from hypothesis import given
from hypothesis import strategies as st

from scorepad.errors import HandError, RulesError
from scorepad.rules import load_rules, rules_from_dict
from scorepad.scoring import LeasterHand, score

ROOT = Path(__file__).parent.parent
FOUR = "Anni,Bertl,Sepp,Vroni"
RAMSCH = ("--rules", "bavarian", "--players", FOUR, "--ramsch")
FIVE = "Ann,Bob,Cy,Dee,Ed"
LEASTER = ("--players", FIVE, "--leaster")
# Ann 10, Bob 20, Cy 30, Dee 45, Ed 15 (120); everyone took a trick
POINTS = ("--leaster-points", "Ann=10,Bob=20,Cy=30,Dee=45,Ed=15")
TRICKS = ("--leaster-tricks", "Ann=1,Bob=1,Cy=1,Dee=2,Ed=1")


def deltas(check_json: CheckJson, *args: object) -> dict[str, int]:
    got: dict[str, int] = check_json(*args)["deltas"]
    return got


# --- Ramsch: durchmarsch_value ------------------------------------------------------------------


def test_a_durchmarsch_paid_as_a_solo(check_json: CheckJson) -> None:
    # durchmarsch_value = solo: the solo's 50, no schneider or schwarz: 50 from each, +150.
    got = check_json(*RAMSCH, "--set", "durchmarsch_value=solo", "--durchmarsch", "Sepp")
    assert got["deltas"] == {"Anni": -50, "Bertl": -50, "Sepp": 150, "Vroni": -50}
    assert got["stake"] == 50
    # today's rule, the default: a solo won schwarz, 50 + 10 + 10 = 70 from each
    got = check_json(*RAMSCH, "--durchmarsch", "Sepp")
    assert got["deltas"] == {"Anni": -70, "Bertl": -70, "Sepp": 210, "Vroni": -70}


def test_a_durchmarsch_paid_the_ramschs_price(check_json: CheckJson) -> None:
    # durchmarsch_value = ramsch: the Ramsch's 20 from each player, as won: +60.
    ramsch = (*RAMSCH, "--set", "durchmarsch_value=ramsch", "--durchmarsch", "Vroni")
    assert deltas(check_json, *ramsch) == {"Anni": -20, "Bertl": -20, "Sepp": -20, "Vroni": 60}
    # with a knock: 20 x 2 = 40 from each, +120
    assert deltas(check_json, *ramsch, "--knocks", "1") == {
        "Anni": -40,
        "Bertl": -40,
        "Sepp": -40,
        "Vroni": 120,
    }


# --- Ramsch: jungfrau = off, double-each --------------------------------------------------------

ONE_JUNGFRAU = ("--ramsch-points", "Anni=50,Bertl=40,Sepp=30,Vroni=0", "--jungfrau", "Vroni")
# Anni and Bertl 60 each (Anni named the loser); Sepp and Vroni took no trick
TWO_JUNGFRAUEN = (
    "--ramsch-points", "Anni=60,Bertl=60,Sepp=0,Vroni=0", "--loser", "Anni",
    "--jungfrau", "Sepp", "--jungfrau", "Vroni",
)  # fmt: skip


def test_jungfrau_off_pays_a_trickless_player_no_extra(check_json: CheckJson) -> None:
    # Anni loses with 50 and pays 20 to each of three, Vroni too: -60.
    got = check_json(*RAMSCH, "--set", "jungfrau=off", *ONE_JUNGFRAU)
    assert got["deltas"] == {"Anni": -60, "Bertl": 20, "Sepp": 20, "Vroni": 20}
    assert any("jungfrau = off" in line for line in got["explanation"])


def test_jungfrau_double_each_doubles_once_for_every_trickless_player(
    check_json: CheckJson,
) -> None:
    rule = ("--set", "jungfrau=double-each")
    # One jungfrau: 20 doubled once = 40 to Vroni, 20 to the others: -80 (as double-own).
    got = deltas(check_json, *RAMSCH, *rule, *ONE_JUNGFRAU)
    assert got == {"Anni": -80, "Bertl": 20, "Sepp": 20, "Vroni": 40}
    # Two: each of Sepp and Vroni is paid 20 x 2 x 2 = 80, Bertl 20: Anni -180.
    got = deltas(check_json, *RAMSCH, *rule, *TWO_JUNGFRAUEN)
    assert got == {"Anni": -180, "Bertl": 20, "Sepp": 80, "Vroni": 80}
    # With a knock the price is 40: Bertl 40, Sepp and Vroni 160 each: -360.
    got = deltas(check_json, *RAMSCH, *rule, *TWO_JUNGFRAUEN, "--knocks", "1")
    assert got == {"Anni": -360, "Bertl": 40, "Sepp": 160, "Vroni": 160}


def test_the_jungfrau_rules_differ_with_two_trickless_players(check_json: CheckJson) -> None:
    # double-own: Sepp and Vroni 40 each, Bertl 20: -100; double-all: 20 x 2 x 2 = 80 to
    # each of three: -240; off: 20 each: -60.
    expected = {"double-own": -100, "double-all": -240, "off": -60, "double-each": -180}
    for rule, anni in expected.items():
        got = deltas(check_json, *RAMSCH, "--set", f"jungfrau={rule}", *TWO_JUNGFRAUEN)
        assert got["Anni"] == anni, rule
        assert sum(got.values()) == 0


# --- leaster: leaster_scoring = most-loses ------------------------------------------------------

MOST = ("--set", "leaster_scoring=most-loses")


def test_most_loses_the_most_card_points_pays_each_other_player(check_json: CheckJson) -> None:
    # Dee took the most (45): she pays 1 to each of four, -4.
    got = check_json(*LEASTER, *MOST, *POINTS, *TRICKS)
    assert got["deltas"] == {"Ann": 1, "Bob": 1, "Cy": 1, "Dee": -4, "Ed": 1}
    assert got["losers"] == ["Dee"] and got["roles"]["Dee"] == "leaster loser"
    # leaster_payout = 2: Dee pays 2 to each of four, -8
    got = check_json(*LEASTER, *MOST, "--set", "leaster_payout=2", *POINTS)
    assert got["deltas"] == {"Ann": 2, "Bob": 2, "Cy": 2, "Dee": -8, "Ed": 2}
    # fewest-wins (the default) on the same points: Ann (10) receives 1 from each, +4
    got = check_json(*LEASTER, *POINTS, *TRICKS)
    assert got["deltas"] == {"Ann": 4, "Bob": -1, "Cy": -1, "Dee": -1, "Ed": -1}


TIED_MOST = ("--leaster-points", "Ann=10,Bob=20,Cy=40,Dee=40,Ed=10")


def test_most_loses_a_tie_follows_leaster_tie(check_json: CheckJson, fails: Fails) -> None:
    # share: Cy and Dee (40 each) each pay 1 to each of Ann, Bob, Ed: -3 each; the three +2.
    got = deltas(check_json, *LEASTER, *MOST, "--set", "leaster_tie=share", *TIED_MOST)
    assert got == {"Ann": 2, "Bob": 2, "Cy": -3, "Dee": -3, "Ed": 2}
    # none: nobody pays
    got = deltas(check_json, *LEASTER, *MOST, "--set", "leaster_tie=none", *TIED_MOST)
    assert got == {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0, "Ed": 0}
    # name: a loser cannot be named; the table says how it settles ties
    line = fails("check", *LEASTER, *MOST, *TIED_MOST)
    assert "Cy and Dee tie for the most with 40" in line and "leaster_tie = none or share" in line


def test_most_loses_needs_everyones_points(fails: Fails) -> None:
    assert "most card points loses" in fails("check", *LEASTER, *MOST, "--winner", "Ann")
    assert "needs everyone's --leaster-points" in fails("check", *LEASTER, *MOST)


# --- leaster: leaster_places --------------------------------------------------------------------

PLACES = ("--set", "leaster_places=2,1")


def test_two_places_paid_by_the_other_three(check_json: CheckJson) -> None:
    # Ann (10) receives 2 in all, Ed (15) 1; Bob, Cy and Dee pay the 3 in equal shares: -1 each.
    got = check_json(*LEASTER, *PLACES, *POINTS, *TRICKS)
    assert got["deltas"] == {"Ann": 2, "Bob": -1, "Cy": -1, "Dee": -1, "Ed": 1}
    assert got["winners"] == ["Ann", "Ed"]
    # the night's last hand, doubled: 6 in all, 2 each: Ann +4, Ed +2
    got = deltas(check_json, *LEASTER, *PLACES, "--set", "last_hand_doubled=true", "--last",
                 *POINTS, *TRICKS)  # fmt: skip
    assert got == {"Ann": 4, "Bob": -2, "Cy": -2, "Dee": -2, "Ed": 2}


def test_places_three_handed(check_json: CheckJson) -> None:
    # A (10) +2, B (40) +1; C (70) pays both: -3.
    got = deltas(check_json, "--players", "A,B,C", "--leaster", *PLACES,
                 "--leaster-points", "A=10,B=40,C=70")  # fmt: skip
    assert got == {"A": 2, "B": 1, "C": -3}


def test_places_that_do_not_divide_are_refused(fails: Fails) -> None:
    # four-handed: the two not placed would pay 3, which does not divide
    line = fails("check", "--players", "Ann,Bob,Cy,Dee", "--leaster", *PLACES,
                 "--leaster-points", "Ann=10,Bob=20,Cy=30,Dee=60")  # fmt: skip
    assert "in a 4-handed leaster the 2 players not placed would pay 3 in all" in line
    assert "does not divide into equal shares" in line
    # a table that deals only four-handed hands: refused as a table
    line = fails("rules", "schafkopf", "--set", "all_pass=leaster", "--set", "leaster_places=2")
    assert "does not divide into equal shares" in line and "(4 players)" in line


def test_a_player_without_a_trick_is_not_placed(check_json: CheckJson) -> None:
    # must_take_trick: Ann took no trick; Bob (10) +2, Cy (20) +1; Ann, Dee, Ed pay 1 each.
    got = deltas(check_json, *LEASTER, *PLACES,
                 "--leaster-points", "Ann=0,Bob=10,Cy=20,Dee=40,Ed=50",
                 "--leaster-tricks", "Ann=0,Bob=1,Cy=1,Dee=2,Ed=2")  # fmt: skip
    assert got == {"Ann": -1, "Bob": 2, "Cy": 1, "Dee": -1, "Ed": -1}


TIED_FEWEST = ("--leaster-points", "Ann=10,Bob=10,Cy=30,Dee=55,Ed=15", *TRICKS)


def test_places_a_tie_follows_leaster_tie(check_json: CheckJson, fails: Fails) -> None:
    # name: refused until the winner is named; Bob named: Bob +2, Ann +1.
    line = fails("check", *LEASTER, *PLACES, *TIED_FEWEST)
    assert "Ann and Bob tie with 10" in line and "name the winner with --winner" in line
    got = deltas(check_json, *LEASTER, *PLACES, *TIED_FEWEST, "--winner", "Bob")
    assert got == {"Ann": 1, "Bob": 2, "Cy": -1, "Dee": -1, "Ed": -1}
    # none: nobody is paid
    got = deltas(check_json, *LEASTER, *PLACES, "--set", "leaster_tie=none", *TIED_FEWEST)
    assert set(got.values()) == {0}
    # share: 2 + 1 = 3 between two does not divide: refused, saying so
    line = fails("check", *LEASTER, *PLACES, "--set", "leaster_tie=share", *TIED_FEWEST)
    assert "does not divide among 2" in line
    # share, places 3,1 at six: Ann and Bob share 4, 2 each; the other four pay 1 each.
    got = deltas(check_json, "--players", "Ann,Bob,Cy,Dee,Ed,Flo", "--leaster",
                 "--set", "leaster_places=3,1", "--set", "leaster_tie=share",
                 "--leaster-points", "Ann=10,Bob=10,Cy=20,Dee=30,Ed=25,Flo=25")  # fmt: skip
    assert got == {"Ann": 2, "Bob": 2, "Cy": -1, "Dee": -1, "Ed": -1, "Flo": -1}


def test_places_need_everyones_points_beyond_the_first(check_json: CheckJson, fails: Fails) -> None:
    line = fails("check", *LEASTER, *PLACES, "--winner", "Ann")
    assert "give everyone's --leaster-points" in line
    # one place of 4: the winner named; the four others pay 1 each
    got = deltas(check_json, *LEASTER, "--set", "leaster_places=4", "--winner", "Cy")
    assert got == {"Ann": -1, "Bob": -1, "Cy": 4, "Dee": -1, "Ed": -1}


@pytest.mark.parametrize(
    "overrides, message",
    [
        (["leaster_places=1,2"], "each no more than the one before"),
        (["leaster_places=0"], "whole numbers of at least 1"),
        (["leaster_places=2,1", "leaster_scoring=most-loses"], "needs leaster_scoring"),
    ],
)
def test_bad_places_are_refused(overrides: list[str], message: str) -> None:
    with pytest.raises(RulesError) as info:
        load_rules("standard", overrides)
    assert message in str(info.value)


@given(
    st.lists(st.integers(1, 60), min_size=4, max_size=4),
    st.sampled_from(["none", "share"]),
    st.sampled_from(["leaster_scoring=most-loses", "leaster_places=2,1", "leaster_places=3,1"]),
)
def test_every_variant_leaster_sums_to_zero(shares: list[int], tie: str, rule: str) -> None:
    players = ("Ann", "Bob", "Cy", "Dee", "Ed")
    if sum(shares) >= 120:
        return
    points = dict(zip(players, [120 - sum(shares), *shares]))
    rules = load_rules("standard", [rule, f"leaster_tie={tie}"])
    try:
        got = score(rules, LeasterHand(players, leaster_points=points))
    except HandError as exc:
        assert "does not divide" in str(exc)
        return
    assert sum(got.deltas.values()) == 0


# --- partner_split in Schafkopf -----------------------------------------------------------------

# the bavarian table with a three-handed deal of the short pack: 8 cards each, a called ace
THREE = (
    "--rules", "bavarian", "--players", "Anni,Bertl,Sepp",
    "--set", "deal.3.cards=8", "--set", "deal.3.blind=0", "--set", "deal.3.partners=1",
    "--set", "deal.3.call=ace",
)  # fmt: skip
GAME = ("--picker", "Anni", "--partner", "Bertl")


def test_three_handed_schafkopf_partner_game_shared_equally(check_json: CheckJson) -> None:
    # Won with 70: a partner game of 10; Sepp pays 10, shared: Anni +5, Bertl +5.
    got = deltas(check_json, *THREE, "--set", "partner_split=equal", *GAME, "--points", "70")
    assert got == {"Anni": 5, "Bertl": 5, "Sepp": -10}
    # picker-rest (the default): Bertl one share, 10; Anni the rest, (1 - 1) x 10 = 0.
    assert deltas(check_json, *THREE, *GAME, "--points", "70") == {
        "Anni": 0,
        "Bertl": 10,
        "Sepp": -10,
    }
    # Lost schneider with 25: 10 + 10 = 20 to Sepp, paid 10 by each of Anni and Bertl.
    got = deltas(check_json, *THREE, "--set", "partner_split=equal", *GAME, "--points", "25")
    assert got == {"Anni": -10, "Bertl": -10, "Sepp": 20}


def test_four_handed_schafkopf_is_the_same_either_way(check_json: CheckJson) -> None:
    # 2 v 2: the two opponents pay 10 each = 20, shared: 10 each, as picker-rest pays.
    hand = ("--rules", "bavarian", "--players", FOUR, *GAME, "--points", "70")
    expected = {"Anni": 10, "Bertl": 10, "Sepp": -10, "Vroni": -10}
    assert deltas(check_json, *hand) == expected
    assert deltas(check_json, *hand, "--set", "partner_split=equal") == expected


# --- listed, stored, and tables written before them --------------------------------------------


def test_the_rules_command_lists_and_explains_them(run: Run) -> None:
    shown = run("rules", "bavarian").stdout
    for key in ("durchmarsch_value", "partner_split", "leaster_scoring", "leaster_places"):
        assert any(line.startswith(key) for line in shown.splitlines()), key
    line = next(l for l in shown.splitlines() if l.startswith("durchmarsch_value"))
    assert line.split()[1] == "solo-schwarz" and "solo won schwarz" in line
    line = next(l for l in run("rules", "standard").stdout.splitlines() if "leaster_places" in l)
    assert line.split()[1] == "none"
    assert "durchmarsch_value" not in run("rules", "standard").stdout


def test_tables_written_before_the_settings_keep_todays_rules() -> None:
    for preset, new in (
        ("bavarian", ("durchmarsch_value", "partner_split", "leaster_scoring", "leaster_places")),
        ("standard", ("leaster_scoring", "leaster_places")),
    ):
        old = load_rules(preset).to_dict()
        for key in new:
            del old[key]
        rules = rules_from_dict(old, "an older session")
        assert rules.partner_split == "picker-rest" and rules.leaster_scoring == "fewest-wins"
        assert rules.leaster_places == () and rules.durchmarsch_value == "solo-schwarz"
        assert rules == load_rules(preset)._replace(source="an older session")


# the samples as scorepad wrote them before these settings, byte for byte
V5 = ROOT / "tests" / "fixtures" / "v5"


@pytest.mark.parametrize("name", ["bavarian-evening", "house-rules", "standard-friday"])
def test_sessions_written_before_them_read_unchanged(run: Run, name: str) -> None:
    old, new = V5 / f"{name}.csv", ROOT / "sample_sessions" / f"{name}.csv"
    if name == "bavarian-evening":  # (the sample as written before jungfrau = double-all)
        new = ROOT / "tests" / "fixtures" / "before-43" / f"{name}.csv"
    stored = old.read_text("utf-8").splitlines()[1]  # the rules row
    assert "leaster_scoring" not in stored and "leaster_places" not in stored
    assert "durchmarsch_value" not in stored
    if name == "bavarian-evening":
        assert "partner_split" not in stored  # (not a Schafkopf setting then)
    result = run("-f", old, "verify", "-v")
    assert result.exit_code == 0 and "all consistent" in result.stdout
    # every report of it is what the same night written today gives
    for report in ("sheet", "standings"):
        shown = [
            json.loads(run("-f", path, report, "--format", "json").stdout) for path in (old, new)
        ]
        for data in shown:
            del data["file"]  # (the path, which differs)
        assert shown[0] == shown[1], report


def test_a_night_with_the_variants_verifies(night: Night) -> None:
    night("new", "--players", FIVE, "--set", "leaster_scoring=most-loses")
    night("hand", "--leaster", *POINTS)  # Dee -4, the others +1
    night("set", "leaster_scoring=fewest-wins", "leaster_places=2,1")
    night("hand", "--leaster", *POINTS, *TRICKS)  # Ann +2, Ed +1, the others -1
    assert night("verify").stdout == ""
    totals = json.loads(night("standings", "--format", "json").stdout)["totals"]
    assert totals == {"Ann": 3, "Bob": 0, "Cy": 0, "Dee": -5, "Ed": 2}
    sheet = night("sheet").stdout
    assert "leaster: Dee lost" in sheet and "leaster: Ann and Ed" in sheet
