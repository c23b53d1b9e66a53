"""Schafkopf as Bavarians play it: the bavarian preset (10/50 ct), run values, touts doubled,
sie, bettel, farbwenz and farbgeier, hochzeit, Ramsch, knocks and Stoss; and replay of each.

Every expected figure is worked out by hand in the comment beside it (amounts in cents)."""

import csv
import json
import random
import shutil
from pathlib import Path

import pytest
from _types import CheckJson, Fails, Night, Run
from hypothesis import given
from hypothesis import strategies as st

from scorepad.errors import HandError
from scorepad.games import GAMES
from scorepad.replay import parse_hand_file, replay
from scorepad.rules import load_rules
from scorepad.scoring import PickerHand, RamschHand, score
from scorepad.simulate import random_hand

ROOT = Path(__file__).parent.parent
HANDS = ROOT / "sample_sessions" / "hands"
FOUR = "Anni,Bertl,Sepp,Vroni"
BAV = ("--rules", "bavarian", "--players", FOUR)


def deltas(check_json: CheckJson, *args: object) -> dict[str, int]:
    got: dict[str, int] = check_json(*BAV, *args)["deltas"]
    return got


def each(amount: int, declarer: str = "Anni") -> dict[str, int]:
    """A solo game paying `amount` from each of three opponents."""
    return {p: (3 * amount if p == declarer else -amount) for p in FOUR.split(",")}


# --- tariffs ------------------------------------------------------------------------------------


def test_the_partner_game_with_runs_at_10_each(check_json: CheckJson) -> None:
    # 10 for the game + 3 runs x 10 = 40 from each opponent; 2 v 2.
    got = deltas(check_json, "--picker", "Anni", "--partner", "Bertl", "--points", "70",
                 "--runs", "3")  # fmt: skip
    assert got == {"Anni": 40, "Bertl": 40, "Sepp": -40, "Vroni": -40}


def test_runs_below_the_minimum_count_nothing_and_a_cap_stops_them(check_json: CheckJson) -> None:
    # A wenz needs 2 runs: 1 counts nothing, 50 each.
    assert deltas(check_json, "--picker", "Anni", "--game", "wenz", "--points", "70",
                  "--runs", "1") == each(50)  # fmt: skip
    # runs_max.solo = 3: 5 runs count 3: 50 + 30 = 80.
    got = check_json(*BAV, "--set", "runs_max.solo=3", "--picker", "Anni", "--game", "solo",
                     "--points", "70", "--runs", "5")  # fmt: skip
    assert got["deltas"] == each(80)
    assert "Runs are capped at 3 (runs_max.solo)." in got["explanation"]


def test_a_solo_schneider_and_schwarz_as_the_verein_prices_them(check_json: CheckJson) -> None:
    # 50 + schneider 10 = 60; won schwarz: 50 + 10 + 10 = 70 from each.
    assert deltas(check_json, "--picker", "Anni", "--game", "solo", "--points", "95") == each(60)
    assert deltas(check_json, "--picker", "Anni", "--game", "solo", "--points", "120",
                  "--tricks", "8") == each(70)  # fmt: skip
    # A lost solo pays 50 to each.
    assert deltas(check_json, "--picker", "Anni", "--game", "solo", "--points", "50") == each(-50)


def test_a_tout_doubled_with_its_runs(check_json: CheckJson) -> None:
    # (50 + 2 runs x 10) x 2 = 140 from each opponent (the figure).
    got = deltas(check_json, "--picker", "Anni", "--game", "wenz-tout", "--points", "120",
                 "--tricks", "8", "--runs", "2")  # fmt: skip
    assert got == each(140)
    # lost: 7 tricks, 140 to each
    got = deltas(check_json, "--picker", "Anni", "--game", "wenz-tout", "--points", "110",
                 "--tricks", "7", "--runs", "2")  # fmt: skip
    assert got == each(-140)


def test_tout_scoring_fixed_is_todays_schafkopf(check_json: CheckJson) -> None:
    # The schafkopf preset: solo-tout 10 + 3 runs = 13 from each.
    got = check_json("--rules", "schafkopf", "--players", FOUR, "--picker", "Anni", "--game",
                     "solo-tout", "--points", "120", "--tricks", "8", "--runs", "3")  # fmt: skip
    assert got["deltas"] == each(13)


def test_a_sie_is_twice_a_tout(check_json: CheckJson) -> None:
    # bavarian: a solo-tout with 8 runs is (50 + 80) x 2 = 260; a sie twice that, 520.
    got = deltas(check_json, "--picker", "Anni", "--game", "sie", "--points", "120",
                 "--tricks", "8", "--runs", "8")  # fmt: skip
    assert got == each(520)
    # schafkopf (fixed touts): 2 x (10 + 8) = 36 -- once the table gives the sie a value
    got = check_json("--rules", "schafkopf", "--players", FOUR, "--picker", "Anni", "--game",
                     "sie", "--points", "120", "--tricks", "8", "--runs", "8")  # fmt: skip
    assert got["deltas"] == each(36)


def test_a_bettel_is_won_by_taking_no_trick(check_json: CheckJson, fails: Fails) -> None:
    assert deltas(check_json, "--picker", "Anni", "--game", "bettel", "--tricks", "0") == each(30)
    assert deltas(check_json, "--picker", "Anni", "--game", "bettel", "--tricks", "1") == each(-30)
    assert "--tricks is needed for a bettel" in fails(
        "check", *BAV, "--picker", "Anni", "--game", "bettel", "--points", "0"
    )
    assert "a bettel has no trumps" in fails(
        "check", *BAV, "--picker", "Anni", "--game", "bettel", "--tricks", "0", "--runs", "3"
    )


def test_farbwenz_and_farbgeier(check_json: CheckJson) -> None:
    # 50 + 3 runs x 10 = 80 (a farbwenz counts runs as a wenz: from 2).
    got = deltas(check_json, "--picker", "Anni", "--game", "farbwenz", "--points", "70",
                 "--runs", "3")  # fmt: skip
    assert got == each(80)
    # a farbgeier-tout, no runs: 50 x 2 = 100
    got = deltas(check_json, "--picker", "Anni", "--game", "farbgeier-tout", "--points", "120",
                 "--tricks", "8")  # fmt: skip
    assert got == each(100)


def test_a_hochzeit_is_a_partner_game(check_json: CheckJson, fails: Fails) -> None:
    got = deltas(check_json, "--picker", "Anni", "--partner", "Sepp", "--game", "hochzeit",
                 "--points", "95")  # fmt: skip
    # 10 + schneider 10 = 20 each, 2 v 2.
    assert got == {"Anni": 20, "Bertl": -20, "Sepp": 20, "Vroni": -20}
    assert "took the offered trump" in fails(
        "check", *BAV, "--picker", "Anni", "--game", "hochzeit", "--points", "95"
    )


def test_a_game_the_table_gives_no_value_is_refused(fails: Fails) -> None:
    line = fails("check", "--rules", "schafkopf", "--players", FOUR, "--picker", "Anni",
                 "--game", "bettel", "--tricks", "0")  # fmt: skip
    assert "give a bettel no value (set game_values.bettel" in line


# --- knocks and Stoss ---------------------------------------------------------------------------


def test_the_knock_factor_is_a_setting(check_json: CheckJson) -> None:
    # knock_factor = 3: a solo of 50 with two knocks is 50 x 3 x 3 = 450 from each.
    got = check_json(*BAV, "--set", "knock_factor=3", "--picker", "Anni", "--game", "solo",
                     "--points", "70", "--knocks", "2")  # fmt: skip
    assert got["deltas"] == each(450)


def test_knocks_and_stoss_double(check_json: CheckJson, fails: Fails) -> None:
    # partner game 10, two knocks and one Stoss: 10 x 2 x 2 x 2 = 80 each.
    got = deltas(check_json, "--picker", "Anni", "--partner", "Bertl", "--points", "70",
                 "--knocks", "2", "--stoss", "1")  # fmt: skip
    assert got == {"Anni": 80, "Bertl": 80, "Sepp": -80, "Vroni": -80}
    # max_stoss is 4 here: 4 Stoss are 16 x; a fifth is refused
    assert deltas(check_json, "--picker", "Anni", "--game", "solo", "--points", "70",
                  "--stoss", "4") == each(800)  # fmt: skip
    hand = ("--picker", "Anni", "--game", "solo", "--points", "70")
    assert "at most 4 (max_stoss)" in fails("check", *BAV, *hand, "--stoss", "5")
    assert "not both" in fails("check", *BAV, *hand, "--stoss", "1", "--crack", "Bertl")
    assert "each of 4 players knocks once at most" in fails("check", *BAV, *hand, "--knocks", "5")
    assert "belongs to Schafkopf" in fails(
        "check", "--players", "Ann,Bob,Cy,Dee,Ed", "--picker", "Ann", "--partner", "Bob",
        "--points", "70", "--knocks", "1",
    )  # fmt: skip


# --- Ramsch -------------------------------------------------------------------------------------

RAMSCH = (*BAV, "--ramsch")


def test_ramsch_the_most_points_loses_and_a_jungfrau_doubles_it(check_json: CheckJson) -> None:
    # Anni took the most (50): a jungfrau (Vroni) doubles the whole Ramsch (jungfrau =
    # double-all, the preset's default since issue 43): she pays 40 to each.
    got = check_json(*RAMSCH, "--ramsch-points", "Anni=50,Bertl=40,Sepp=30,Vroni=0",
                     "--jungfrau", "Vroni")  # fmt: skip
    assert got["deltas"] == {"Anni": -120, "Bertl": 40, "Sepp": 40, "Vroni": 40}
    # under double-own, as bavarian sessions made before keep it: 20, 20 and 40 to Vroni
    got = check_json(*RAMSCH, "--set", "jungfrau=double-own", "--ramsch-points",
                     "Anni=50,Bertl=40,Sepp=30,Vroni=0", "--jungfrau", "Vroni")  # fmt: skip
    assert got["deltas"] == {"Anni": -80, "Bertl": 20, "Sepp": 20, "Vroni": 40}
    assert got["losers"] == ["Anni"]
    # without a jungfrau: 20 to each, -60
    got = deltas(check_json, "--ramsch", "--loser", "Anni")
    assert got == {"Anni": -60, "Bertl": 20, "Sepp": 20, "Vroni": 20}


def test_ramsch_double_all_doubles_the_whole_hand(check_json: CheckJson) -> None:
    # jungfrau = double-all, one jungfrau: 20 x 2 = 40 to each of three: -120.
    got = check_json(*RAMSCH, "--set", "jungfrau=double-all", "--ramsch-points",
                     "Anni=50,Bertl=40,Sepp=30,Vroni=0", "--jungfrau", "Vroni")  # fmt: skip
    assert got["deltas"] == {"Anni": -120, "Bertl": 40, "Sepp": 40, "Vroni": 40}


def test_a_durchmarsch_is_a_solo_won_schwarz(check_json: CheckJson) -> None:
    # 50 + schneider 10 + schwarz 10 = 70 from each; with a knock, 140.
    assert deltas(check_json, "--ramsch", "--durchmarsch", "Sepp") == each(70, "Sepp")
    assert deltas(check_json, "--ramsch", "--durchmarsch", "Sepp", "--knocks", "1") == each(
        140, "Sepp"
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (("--ramsch-points", "Anni=50,Bertl=50,Sepp=20,Vroni=0"), "tie for the most with 50"),
        (
            ("--ramsch-points", "Anni=50,Bertl=50,Sepp=20,Vroni=0", "--loser", "Sepp"),
            "Sepp took 20, but Anni, Bertl took more",
        ),
        (("--ramsch-points", "Anni=50,Bertl=40,Sepp=20,Vroni=0"), "add up to 110, not 120"),
        (
            ("--ramsch-points", "Anni=50,Bertl=40,Sepp=30,Vroni=0", "--jungfrau", "Sepp"),
            "Sepp took 30 card points, so a trick",
        ),
        (("--loser", "Anni", "--loser", "Bertl"), "a Ramsch has one loser"),
        (("--durchmarsch", "Anni", "--loser", "Bertl"), "took every trick; give no"),
        ((), "a Ramsch needs --ramsch-points"),
        (
            ("--jungfrau", "Bertl", "--jungfrau", "Sepp", "--jungfrau", "Vroni", "--loser", "Anni"),
            "(a --durchmarsch)",
        ),
    ],
)
def test_impossible_ramsch_hands_are_refused(
    fails: Fails, args: tuple[str, ...], message: str
) -> None:
    assert message in fails("check", *RAMSCH, *args)


def test_a_tie_is_settled_by_naming_the_loser(check_json: CheckJson) -> None:
    got = deltas(check_json, "--ramsch", "--ramsch-points", "Anni=50,Bertl=50,Sepp=20,Vroni=0",
                 "--loser", "Bertl")  # fmt: skip
    assert got == {"Anni": 20, "Bertl": -60, "Sepp": 20, "Vroni": 20}


def test_ramsch_needs_the_rule(fails: Fails) -> None:
    line = fails("check", "--rules", "schafkopf", "--players", FOUR, "--ramsch", "--loser", "Anni")
    assert "all_pass = ramsch" in line
    line = fails("rules", "schafkopf", "--set", "all_pass=ramsch")
    assert "needs a Schafkopf table with game_values.ramsch" in line


# --- the preset ---------------------------------------------------------------------------------


def test_the_bavarian_preset_is_the_vereins_tariff(run: Run) -> None:
    rules = load_rules("bavarian")
    values = rules.game_values
    assert (values["partner"], values["hochzeit"], values["bettel"], values["ramsch"]) == (
        10,
        10,
        30,
        20,
    )
    assert all(values[g] == 50 for g in ("solo", "wenz", "geier", "farbwenz", "farbgeier"))
    assert (rules.schneider_bonus, rules.schwarz_bonus, rules.run_value) == (10, 10, 10)
    assert (rules.runs_min["partner"], rules.runs_min["wenz"]) == (3, 2)
    assert rules.tout_scoring == "double" and rules.all_pass == "ramsch"
    assert rules.jungfrau == "double-all" and rules.max_stoss == 4 and rules.knock_factor == 2
    assert rules.keep_called_suit is False and load_rules("pagat").keep_called_suit is True
    shown = run("rules", "bavarian").stdout
    assert "game_values.partner=20" in shown  # how to switch to 10/20/50


def test_the_schafkopf_preset_still_scores_as_seed_004(check_json: CheckJson) -> None:
    # partner game won 70, 3 runs: 1 + 3 = 4; a solo won schwarz: 5 + 1 + 1 = 7.
    sk = ("--rules", "schafkopf", "--players", FOUR)
    got = check_json(*sk, "--picker", "Anni", "--partner", "Bertl", "--points", "70", "--runs",
                     "3")  # fmt: skip
    assert got["deltas"]["Sepp"] == -4
    got = check_json(*sk, "--picker", "Anni", "--game", "solo", "--points", "120", "--tricks", "8")
    assert got["deltas"] == each(7)


# --- a session ----------------------------------------------------------------------------------


def totals(sp: Night) -> dict[str, int]:
    got: dict[str, int] = json.loads(sp("standings", "--format", "json").stdout)["totals"]
    return got


def test_a_bavarian_night_records_amends_and_verifies(night: Night) -> None:
    assert night("new", "--rules", "bavarian", "--players", FOUR).exit_code == 0
    for args in (
        ("--ramsch", "--ramsch-points", "Anni=50,Bertl=40,Sepp=30,Vroni=0", "--jungfrau", "Vroni"),
        ("--picker", "Bertl", "--game", "bettel", "--tricks", "0", "--knocks", "1"),
        ("--picker", "Sepp", "--partner", "Vroni", "--game", "hochzeit", "--points", "70"),
        (
            "--picker",
            "Vroni",
            "--game",
            "wenz-tout",
            "--points",
            "120",
            "--tricks",
            "8",
            "--runs",
            "2",
        ),
    ):
        result = night("hand", *args)
        assert result.exit_code == 0, (args, result.stderr)
    # Ramsch with a jungfrau (double-all): Anni -120, 40 to each; bettel knocked: 60 each,
    # Bertl +180; hochzeit: 10 each (Sepp, Vroni +10); wenz-tout: 140 each, Vroni +420.
    assert totals(night) == {
        "Anni": -120 - 60 - 10 - 140,
        "Bertl": 40 + 180 - 10 - 140,
        "Sepp": 40 - 60 + 10 - 140,
        "Vroni": 40 - 60 + 10 + 420,
    }
    sheet = json.loads(night("sheet", "--format", "json").stdout)["hands"]
    assert sheet[0]["played"] == "Ramsch: Anni lost, jungfrau Vroni"
    assert sheet[1]["played"] == "Bertl bettel, 0 tricks, knocked"
    assert night("amend", "1", "--jungfrau", "Vroni", "--ramsch-points",
                 "Anni=30,Bertl=40,Sepp=50,Vroni=0").exit_code == 0  # fmt: skip
    assert totals(night)["Sepp"] == 40 - 60 + 10 - 140 - 160  # now Sepp lost the Ramsch: -120
    assert night("undo").exit_code == 0
    assert night("verify").stdout == ""


def test_an_older_schafkopf_file_takes_a_ramsch_after_a_change_of_rules(night: Night) -> None:
    shutil.copy(ROOT / "tests" / "fixtures" / "v3" / "schafkopf-evening.csv", night.path)
    before = totals(night)
    result = night("set", "game_values.ramsch=2", "all_pass=ramsch")
    assert result.exit_code == 0, result.stderr
    result = night("hand", "--ramsch", "--loser", "Anni")
    assert result.exit_code == 0, result.stderr
    header, rules_row = list(csv.reader(night.path.open(newline="")))[:2]
    assert rules_row[header.index("format")] == "5" and "ramsch_points" in header
    after = totals(night)
    assert after["Anni"] == before["Anni"] - 6 and after["Bertl"] == before["Bertl"] + 2
    assert night("verify").stdout == ""


def test_play_records_a_ramsch_and_a_bettel(night: Night) -> None:
    assert night("new", "--rules", "bavarian", "--players", FOUR).exit_code == 0
    answers = [
        "ramsch", "Anni", "1", "Vroni", "",  # Anni lost, one knock, Vroni a jungfrau; record
        "Bertl", "bettel", "0", "0", "",  # Bertl's bettel, no trick, no knock; record
        "",
    ]  # fmt: skip
    result = night("play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.stderr
    # Ramsch knocked, a jungfrau doubling it: 80 each: Anni -240; bettel 30 each: Bertl +90.
    assert totals(night) == {"Anni": -270, "Bertl": 170, "Sepp": 50, "Vroni": 50}


def test_play_counts_the_stoss_calls(night: Night) -> None:
    assert night("new", "--rules", "bavarian", "--players", FOUR).exit_code == 0
    # Sepp's solo won with 70, three Stoss calls, no runs, no knock: 50 x 2 x 2 x 2 = 400 each
    answers = ["Sepp", "solo", "70", "", "3", "", "", "", ""]
    result = night("play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.stderr
    assert "Stoss calls (Kontra, Re, ...)? (0 to 4)" in result.stdout
    assert totals(night)["Sepp"] == 3 * 400


def test_the_bavarian_sample_evening_has_every_kind_of_hand(run: Run) -> None:
    path = ROOT / "sample_sessions" / "bavarian-evening.csv"
    assert run("-f", path, "verify").stdout == ""
    hands = json.loads(run("-f", path, "sheet", "--format", "json").stdout)["hands"]
    kinds = {h["kind"] for h in hands} | {h["game"] for h in hands}
    assert {"ramsch", "bettel", "wenz-tout", "hochzeit", "farbwenz"} <= kinds
    assert any("knocked" in h["marks"] for h in hands)
    assert any(m.startswith("jungfrau") for h in hands for m in h["marks"])


# --- replay -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, expected",
    [
        ("bavarian-bettel.txt", {"Anni": 90, "Bertl": -30, "Sepp": -30, "Vroni": -30}),
        ("bavarian-farbwenz.txt", {"Anni": 150, "Bertl": -50, "Sepp": -50, "Vroni": -50}),
        ("bavarian-farbgeier.txt", {"Anni": -90, "Bertl": -90, "Sepp": -90, "Vroni": 270}),
        ("bavarian-hochzeit.txt", {"Anni": 10, "Bertl": 10, "Sepp": -10, "Vroni": -10}),
        ("bavarian-ramsch.txt", {"Anni": 40, "Bertl": -120, "Sepp": 40, "Vroni": 40}),
        ("bavarian-sie.txt", {"Anni": 1560, "Bertl": -520, "Sepp": -520, "Vroni": -520}),
    ],
)
def test_every_bavarian_sample_hand_replays(run: Run, name: str, expected: dict[str, int]) -> None:
    result = run("replay", HANDS / name, "--format", "json")
    assert result.exit_code == 0, result.stdout
    data = json.loads(result.stdout)
    assert data["problems"] == [] and data["score"]["deltas"] == expected


def test_the_sample_hands_are_what_the_script_writes(tmp_path: Path) -> None:
    import subprocess
    import sys

    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_hands.py"), str(tmp_path)],
        check=True,
        cwd=ROOT,
    )
    for made in tmp_path.glob("*.txt"):
        assert made.read_text() == (HANDS / made.name).read_text(), made.name


def test_a_bettel_ranks_the_ten_below_the_unter() -> None:
    from scorepad.cards import Card, Game

    bettel = Game.schafkopf("bettel")
    trick = [Card.parse(c) for c in ("10C", "JC", "9C", "QH")]
    assert bettel.winner(trick) == 1  # the Unter beats the ten; the Ober of hearts is no trump


def test_a_sie_without_every_ober_and_unter_is_found_wrong() -> None:
    rules = load_rules("bavarian")
    text = (HANDS / "bavarian-sie.txt").read_text().replace("picker: Anni", "picker: Bertl")
    outcome = replay(parse_hand_file(text), rules)  # the same play, but Bertl's sie
    assert any("a sie is all four obers and all four unters" in str(p) for p in outcome.problems)


@pytest.mark.parametrize("game", ["hochzeit", "bettel", "farbwenz", "farbgeier-tout", "ramsch"])
def test_random_legal_hands_of_every_game_replay_clean(game: str) -> None:
    rules = load_rules("bavarian")
    for seed in range(30):
        text = random_hand(random.Random(seed), rules, FOUR.split(","), game=game)
        outcome = replay(parse_hand_file(text), rules)
        tie = "tie for the most" in " ".join(map(str, outcome.problems))
        assert outcome.ok or tie, outcome.problems
        if outcome.score is not None:
            assert sum(outcome.score.deltas.values()) == 0


def test_short_deck_runs_count_only_the_cards_dealt() -> None:
    # Six cards each (24): the heart 8 and 7 are not dealt, and must not count as a run.
    rules = load_rules("schafkopf", ["deal.4.cards=6"])
    for seed in range(150):
        text = random_hand(random.Random(seed), rules, FOUR.split(","))
        outcome = replay(parse_hand_file(text), rules)
        assert outcome.ok, outcome.problems
        assert outcome.runs is None or outcome.runs <= 12


def test_keep_called_suit_is_a_setting() -> None:
    sk = load_rules("schafkopf")
    assert sk.keep_called_suit is False
    assert load_rules("schafkopf", ["keep_called_suit=true"]).keep_called_suit is True


# --- properties ---------------------------------------------------------------------------------

PLAYERS = tuple(FOUR.split(","))


@given(
    st.sampled_from(GAMES),
    st.integers(0, 120),
    st.one_of(st.none(), st.integers(0, 8)),
    st.integers(0, 14),
    st.integers(0, 4),
    st.integers(0, 4),
    st.sampled_from(["fixed", "double"]),
)
def test_every_bavarian_game_is_zero_sum_or_refused(
    game: str, points: int, tricks: int | None, runs: int, knocks: int, stoss: int, touts: str
) -> None:
    rules = load_rules("bavarian", [f"tout_scoring={touts}"])
    partners = ("Bertl",) if game in ("partner", "hochzeit") else ()
    hand = PickerHand(
        PLAYERS, "Anni", points, partners=partners, tricks=tricks, game=game, runs=runs,
        knocks=knocks, stoss=stoss,
    )  # fmt: skip
    try:
        result = score(rules, hand)
    except HandError:
        return
    assert sum(result.deltas.values()) == 0
    assert result.stake == abs(result.deltas["Sepp"])  # an opponent pays or gets the stake
    assert result.stake % (2 ** (knocks + stoss)) == 0  # every knock and Stoss doubled it


@given(
    st.lists(st.integers(0, 120), min_size=3, max_size=3),
    st.sets(st.sampled_from(PLAYERS[1:]), max_size=2),
    st.sampled_from(["double-own", "double-all"]),
    st.integers(0, 4),
)
def test_every_ramsch_is_zero_sum_and_the_most_loses(
    shares: list[int], jungfrau: set[str], rule: str, knocks: int
) -> None:
    rules = load_rules("bavarian", [f"jungfrau={rule}"])
    points = dict(zip(PLAYERS, [120 - min(sum(shares), 120), *shares]))
    if sum(points.values()) != 120:
        return
    for player in jungfrau:
        points["Anni"] += points[player]
        points[player] = 0
    high = max(points.values())
    tied = [p for p in PLAYERS if points[p] == high]
    hand = RamschHand(PLAYERS, ramsch_points=points, losers=(tied[0],),
                      jungfrau=tuple(sorted(jungfrau)), knocks=knocks)  # fmt: skip
    try:
        result = score(rules, hand)
    except HandError:
        assert tied[0] in jungfrau or len(jungfrau) >= 3
        return
    assert sum(result.deltas.values()) == 0
    assert result.losers == (tied[0],) and result.deltas[tied[0]] < 0
    assert all(result.deltas[p] > 0 for p in PLAYERS if p != tied[0])
