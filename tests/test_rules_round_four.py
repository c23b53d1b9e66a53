"""Issue 43, the rules of round four: the loner's price (alone_multiplier, alone_no_trick), the
Jungfrau as programs score it (the bavarian preset's default for new sessions) and runs in the
Farb- games on their own; each worked example of the issue with its figures."""

import csv
import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from _types import CheckJson, Night, Run
from conftest import FIVE, FOUR
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_session_properties import OPERATIONS, PLAYERS, POT_AND_BOCK_OPERATIONS, invoke
from test_session_properties import _play_and_check as play_and_check

ROOT = Path(__file__).resolve().parent.parent

PAGAT_LONER = (
    "--rules",
    "pagat",
    "--set",
    "alone_multiplier=2",
    "--set",
    "alone_no_trick=schneider",
    "--set",
    "schneider_loss=29",
    "--players",
    FIVE,
    "--picker",
    "Ann",
    "--alone",
)


@pytest.mark.parametrize(
    "hand, picker, each",
    [
        (("--points", 70), 8, -2),
        (("--points", 45), -16, 4),
        (("--points", 11, "--tricks", 0), -32, 8),
    ],
)
def test_the_loners_price_five_handed(
    check_json: CheckJson, hand: tuple[object, ...], picker: int, each: int
) -> None:
    got = check_json(*PAGAT_LONER, *hand)["deltas"]
    assert got == {"Ann": picker, "Bob": each, "Cy": each, "Dee": each, "Ed": each}


def test_alone_no_trick_default_keeps_the_no_trick_level(check_json: CheckJson) -> None:
    # alone_multiplier 2 alone: 11 points, no trick, level 3 x 2 x bump 2 = 12 each.
    out = check_json(*PAGAT_LONER[:4], *PAGAT_LONER[6:], "--points", 11, "--tricks", 0)
    assert out["deltas"] == {"Ann": -48, "Bob": 12, "Cy": 12, "Dee": 12, "Ed": 12}
    assert out["level"] == 3


def test_the_loners_price_leaves_a_partner_hand_alone(check_json: CheckJson) -> None:
    got = check_json(*PAGAT_LONER[:-3], "--picker", "Ann", "--partner", "Bob", "--points", 70)
    assert got["deltas"] == {"Ann": 2, "Bob": 1, "Cy": -1, "Dee": -1, "Ed": -1}


def test_the_loners_price_is_explained(run: Run) -> None:
    out = run("check", *PAGAT_LONER, "--points", 11, "--tricks", 0).stdout
    assert (
        "Stake: base 1 x level multiplier 2 x 2 (alone (alone_multiplier)) "
        "x 2 (double on the bump) = 8." in out
    )
    assert "(alone_no_trick = schneider)" in out


def test_the_loners_price_is_a_sheepshead_setting(run: Run) -> None:
    result = run("check", "--rules", "schafkopf", "--set", "alone_multiplier=2", "--players",
                 FOUR, "--picker", "Ann", "--game", "solo", "--points", 70)  # fmt: skip
    assert result.exit_code == 1
    assert "alone_multiplier" in result.stderr and "not a setting of schafkopf" in result.stderr


def test_the_loners_price_is_listed_by_rules(run: Run) -> None:
    out = run("rules", "pagat").stdout
    assert re.search(r"^alone_multiplier +1 +an alone picker settles", out, re.M)
    assert re.search(r"^alone_no_trick +no-trick +", out, re.M)


# --- 7. the Jungfrau as programs score it --------------------------------------------------------


def test_bavarian_jungfrau_doubles_the_whole_ramsch(check_json: CheckJson) -> None:
    # Ramsch 20 x 2 (a Jungfrau) = 40 from Ann to each other player.
    out = check_json("--rules", "bavarian", "--players", FOUR, "--ramsch", "--ramsch-points",
                     "Ann=50,Bob=40,Cy=30,Dee=0", "--jungfrau", "Dee")  # fmt: skip
    assert out["deltas"] == {"Ann": -120, "Bob": 40, "Cy": 40, "Dee": 40}


def test_a_bavarian_session_made_before_keeps_double_own(run: Run, tmp_path: Path) -> None:
    # A session file keeps the rules it was made under: one stored with jungfrau = double-own
    # (as every bavarian session before this change) scores a Jungfrau that way still.
    session = tmp_path / "night.csv"
    made = run("-f", session, "new", "--rules", "bavarian", "--players", FOUR)
    assert made.exit_code == 0, made.stderr
    text = session.read_text("utf-8")
    assert '""jungfrau"":""double-all""' in text
    session.write_text(text.replace('""jungfrau"":""double-all""', '""jungfrau"":""double-own""'))
    hand = run("-f", session, "hand", "--ramsch", "--ramsch-points", "Ann=50,Bob=40,Cy=30,Dee=0",
               "--jungfrau", "Dee")  # fmt: skip
    assert hand.exit_code == 0, hand.stderr
    assert run("-f", session, "verify").exit_code == 0
    rules = run("-f", session, "rules").stdout
    assert re.search(r"^jungfrau +double-own +", rules, re.M)
    totals = run("-f", session, "standings", "--format", "json").stdout
    assert '"Ann"' in totals and "-80" in totals


# --- 9. runs in the Farb- games on their own -----------------------------------------------------


@pytest.mark.parametrize(
    "game, key", [("farbwenz", "runs_min.farbwenz"), ("farbgeier", "runs_min.farbgeier")]
)
def test_runs_min_of_the_farb_games(check_json: CheckJson, game: str, key: str) -> None:
    hand = ("--players", FOUR, "--picker", "Ann", "--game", game, "--points", 75, "--runs", 2)
    # As a wenz (runs from 2): 50 + 2 x 10 = 70 from each; with runs_min 3 of its own: 50.
    assert check_json("--rules", "bavarian", *hand)["deltas"]["Bob"] == -70
    own = check_json("--rules", "bavarian", "--set", f"{key}=3", *hand)
    assert own["deltas"]["Bob"] == -50


def test_runs_min_of_a_farb_game_set_mid_night(night: Night) -> None:
    # Set after a hand, it counts from the next hand on; the hand before keeps its runs, an
    # amend of a later hand is scored under it, a plain wenz keeps counting from 2; verify agrees.
    four = "Anni,Bertl,Sepp,Vroni"
    farbwenz = ("--picker", "Anni", "--game", "farbwenz", "--points", 75, "--runs", 2)
    assert night("new", "--rules", "bavarian", "--players", four).exit_code == 0
    assert night("hand", *farbwenz).exit_code == 0  # 50 + 2 x 10 = 70 from each
    assert night("set", "runs_min.farbwenz=3").exit_code == 0
    assert night("hand", *farbwenz).exit_code == 0  # the runs count nothing: 50
    assert totals(night) == {"Anni": 360, "Bertl": -120, "Sepp": -120, "Vroni": -120}
    assert night("amend", "2", "--runs", 3).exit_code == 0  # 50 + 3 x 10 = 80
    assert totals(night)["Anni"] == 210 + 240
    wenz = ("--picker", "Sepp", "--game", "wenz", "--points", 75, "--runs", 2)
    assert night("hand", *wenz).exit_code == 0  # still from 2: 70 from each
    assert totals(night)["Sepp"] == -70 - 80 + 210
    assert night("verify").stdout == ""
    listed = night("rules").stdout
    assert re.search(r"^runs_min\.farbwenz +3 +", listed, re.M)
    assert not re.search(r"^runs_min\.farbgeier", listed, re.M)


BEFORE = Path(__file__).parent / "fixtures" / "before-43" / "bavarian-evening.csv"


def test_the_bavarian_sample_written_before_reads_unchanged(run: Run) -> None:
    # The sample as scorepad wrote it before the preset's default changed: it keeps
    # jungfrau = double-own, verifies, and its Ramsch hands with a Jungfrau score as then.
    assert '""jungfrau"":""double-own""' in BEFORE.read_text("utf-8")
    result = run("-f", BEFORE, "verify", "-v")
    assert result.exit_code == 0 and "all consistent" in result.stdout
    assert re.search(r"^jungfrau +double-own +", run("-f", BEFORE, "rules").stdout, re.M)
    standings = run("-f", BEFORE, "standings", "--format", "json").stdout
    totals = json.loads(standings)["totals"]
    assert totals == {"Anni": -130, "Bertl": 650, "Sepp": -690, "Vroni": 170}


# --- 2. the Smith rule ---------------------------------------------------------------------------

SMITH = ("--set", "smith_rule=true", "--players", FIVE, "--picker", "Ann", "--partner", "Bob")


def test_the_smith_rule_on_a_win(check_json: CheckJson) -> None:
    # Five-handed, 70 points: picker 0, partner +3 (the picker's 2 and his own 1), -1 each.
    got = check_json(*SMITH, "--points", 70, "--smith")["deltas"]
    assert got == {"Ann": 0, "Bob": 3, "Cy": -1, "Dee": -1, "Ed": -1}


def test_the_smith_rule_on_a_loss(check_json: CheckJson) -> None:
    # 40 points, a loss at stake 1: the picker pays his 2 and the partner's 1; partner 0.
    got = check_json(*SMITH, "--points", 40, "--smith")["deltas"]
    assert got == {"Ann": -3, "Bob": 0, "Cy": 1, "Dee": 1, "Ed": 1}
    # schneider (2) under pagat, doubled on the bump (4): the picker pays 3 x 4 = 12
    got = check_json("--rules", "pagat", *SMITH, "--points", 20, "--tricks", 1, "--smith")["deltas"]
    assert got == {"Ann": -12, "Bob": 0, "Cy": 4, "Dee": 4, "Ed": 4}


def test_without_smith_the_hand_is_as_before(check_json: CheckJson) -> None:
    got = check_json(*SMITH, "--points", 70)["deltas"]
    assert got == {"Ann": 2, "Bob": 1, "Cy": -1, "Dee": -1, "Ed": -1}


def test_the_smith_rule_is_explained(run: Run) -> None:
    out = run("check", *SMITH, "--points", 70, "--smith").stdout
    assert (
        "Smith rule (the picker took no trick himself): partner Bob takes the picker's share "
        "as well: Ann 0, Bob +3.\nThe hand sums to 0.\n"
    ) in out


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ("--set", "smith_rule=true", "--players", FIVE, "--picker", "Ann", "--alone"),
            "Error: --smith: the Smith rule moves the picker's share to a partner; name one "
            "partner\n",
        ),
        (
            ("--players", FIVE, "--picker", "Ann", "--partner", "Bob"),
            "Error: --smith: standard rules do not play the Smith rule (smith_rule = false)\n",
        ),
    ],
)
def test_the_smith_rule_refused(run: Run, args: tuple[str, ...], message: str) -> None:
    result = run("check", *args, "--points", 70, "--smith")
    assert result.exit_code == 1 and result.stdout == "" and result.stderr == message


# --- 3. a schwanzer tie by the highest trump -----------------------------------------------------

SCHWANZER = ("--set", "all_pass=schwanzer", "--set", "schwanzer_tie=highest-trump",
             "--players", FIVE, "--schwanzer",
             "--schwanzer-points", "Ann=8,Bob=8,Cy=0,Dee=0,Ed=0")  # fmt: skip


def test_a_schwanzer_tie_by_the_highest_trump(check_json: CheckJson) -> None:
    # Counts 8-8-0-0-0, the second holds the highest trump: -4 for him, +1 for each other.
    out = check_json(*SCHWANZER, "--highest-trump", "Bob")
    assert out["deltas"] == {"Ann": 1, "Bob": -4, "Cy": 1, "Dee": 1, "Ed": 1}
    assert out["losers"] == ["Bob"]


def test_a_schwanzer_tie_by_default_every_tied_player_loses(check_json: CheckJson) -> None:
    got = check_json(*SCHWANZER[:2], *SCHWANZER[4:])["deltas"]
    assert got == {"Ann": -3, "Bob": -3, "Cy": 2, "Dee": 2, "Ed": 2}


def test_a_schwanzer_tie_by_trump_asks_for_it(run: Run) -> None:
    result = run("check", *SCHWANZER)
    assert result.exit_code == 1 and result.stderr == (
        "Error: Ann, Bob tie for the most: name the one holding the highest trump with "
        "--highest-trump NAME (schwanzer_tie = highest-trump)\n"
    )
    result = run("check", *SCHWANZER, "--highest-trump", "Cy")
    assert result.stderr == "Error: --highest-trump Cy: Cy is not among the tied, Ann, Bob\n"
    result = run("check", *SCHWANZER[:2], *SCHWANZER[4:], "--highest-trump", "Bob")
    assert result.stderr == (
        "Error: --highest-trump: these rules settle no tie by it (schwanzer_tie = every-tied)\n"
    )


# --- 8. a Ramsch tie by the highest trump --------------------------------------------------------

RAMSCH = ("--rules", "bavarian", "--set", "ramsch_tie=highest-trump", "--players", FOUR,
          "--ramsch", "--ramsch-points", "Ann=50,Bob=50,Cy=20,Dee=0")  # fmt: skip


def test_a_ramsch_tie_by_the_highest_trump(check_json: CheckJson) -> None:
    # Ann and Bob 50 each, Bob holds the highest trump: he pays 20 x 2 (Dee a Jungfrau) to each.
    got = check_json(*RAMSCH, "--highest-trump", "Bob", "--jungfrau", "Dee")["deltas"]
    assert got == {"Ann": 40, "Bob": -120, "Cy": 40, "Dee": 40}
    got = check_json(*RAMSCH, "--highest-trump", "Ann")["deltas"]
    assert got == {"Ann": -60, "Bob": 20, "Cy": 20, "Dee": 20}


def test_a_ramsch_tie_by_trump_asks_for_it(run: Run) -> None:
    result = run("check", *RAMSCH)
    assert result.exit_code == 1 and result.stderr == (
        "Error: Ann, Bob tie for the most: name the one holding the highest trump with "
        "--highest-trump NAME (ramsch_tie = highest-trump)\n"
    )
    result = run("check", *RAMSCH, "--highest-trump", "Ann", "--loser", "Bob")
    assert result.stderr == "Error: --loser Bob: --highest-trump names Ann as the loser\n"


# --- the new inputs in a session: the file's format, verify, amend, undo -------------------------


def test_a_night_with_smith_and_ties_verifies_amends_and_undoes(night: Night) -> None:
    made = night("new", "--players", FIVE, "--set", "smith_rule=true", "--set",
                 "all_pass=schwanzer", "--set", "schwanzer_tie=highest-trump")  # fmt: skip
    assert made.exit_code == 0, made.stderr
    header = next(csv.reader(night.path.open(newline="")))
    assert "smith" not in header  # (a new session is written in the oldest format it needs)
    assert (
        night("hand", "--picker", "Ann", "--partner", "Bob", "--points", 70, "--smith").exit_code
        == 0
    )
    assert night("hand", *SCHWANZER[6:], "--highest-trump", "Bob").exit_code == 0
    header, rules_row = list(csv.reader(night.path.open(newline="")))[:2]
    assert "smith" in header and "highest_trump" in header
    assert rules_row[header.index("format")] == "10"
    assert totals(night) == {"Ann": 1, "Bob": -1, "Cy": 0, "Dee": 0, "Ed": 0}
    assert night("amend", "1", "--no-smith").exit_code == 0
    assert totals(night) == {"Ann": 3, "Bob": -3, "Cy": 0, "Dee": 0, "Ed": 0}
    assert night("undo").exit_code == 0
    assert totals(night) == {"Ann": 1, "Bob": -1, "Cy": 0, "Dee": 0, "Ed": 0}
    assert night("amend", "2", "--highest-trump", "Ann").exit_code == 0
    assert totals(night) == {"Ann": -4, "Bob": 4, "Cy": 0, "Dee": 0, "Ed": 0}
    assert night("verify").stdout == ""
    sheet = json.loads(night("sheet", "--format", "json").stdout)["hands"]
    assert sheet[0]["marks"] == ["Smith rule"]
    assert sheet[1]["marks"] == ["tie: highest trump Ann"] and sheet[1]["losers"] == ["Ann"]


def totals(night: Night) -> dict[str, int]:
    found: dict[str, int] = json.loads(night("standings", "--format", "json").stdout)["totals"]
    return found


@pytest.mark.parametrize("name", ["pot-night", "standard-friday"])
def test_files_of_earlier_formats_keep_loading_and_take_a_smith_hand(
    run: Run, tmp_path: Path, name: str
) -> None:
    # A format 8 (and a format 5) file reads and verifies as it is; a Smith hand, which needs
    # format 10's column, rewrites it in format 10 first, its earlier rows and totals unchanged.
    path = tmp_path / f"{name}.csv"
    shutil.copy(ROOT / "sample_sessions" / f"{name}.csv", path)
    before = json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"]
    assert run("-f", path, "verify").stdout == ""
    assert run("-f", path, "set", "smith_rule=true").exit_code == 0
    seated = json.loads(run("-f", path, "status", "--format", "json").stdout)
    players = seated.get("seated") or seated["players"]
    hand = run("-f", path, "hand", "--picker", players[0], "--partner", players[1],
               "--points", 70, "--smith")  # fmt: skip
    assert hand.exit_code == 0, hand.stderr
    header, rules_row = list(csv.reader(path.open(newline="", encoding="utf-8")))[:2]
    assert rules_row[header.index("format")] == "10" and "smith" in header
    assert run("-f", path, "verify").stdout == ""
    after = json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"]
    moved = {p: after[p] - before[p] for p in before}
    assert moved[players[0]] == 0 and moved[players[1]] > 0  # (the pot-night: with the pot)


# --- a night mixing the new kinds (hypothesis) ---------------------------------------------------

_PAIR = st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=2, unique=True)
_POINTS = st.integers(23, 119)  # (no tricks needed to tell the level)
_SMITH_HANDS = st.tuples(_PAIR, _POINTS, st.booleans())
ROUND_FOUR_OPERATIONS = st.one_of(
    _SMITH_HANDS.map(
        lambda t: (
            ("args", "hand", "--picker", t[0][0], "--partner", t[0][1], "--points", t[1])
            + (("--smith",) if t[2] else ())
        )
    ),
    _SMITH_HANDS.map(
        lambda t: (
            ("args", "hand", "--picker", t[0][0], "--partner", t[0][1], "--points", t[1])
            + (("--smith",) if t[2] else ())
        )
    ),
    st.tuples(st.sampled_from(PLAYERS), _POINTS).map(
        lambda t: ("args", "hand", "--picker", t[0], "--alone", "--points", t[1])
    ),
    st.sampled_from(PLAYERS).map(
        lambda p: ("args", "hand", "--picker", p, "--alone", "--points", 0, "--tricks", 0)
    ),
    _PAIR.map(
        lambda two: (
            "args",
            "hand",
            "--schwanzer",
            "--schwanzer-points",
            f"{two[0]}=8,{two[1]}=8," + ",".join(f"{p}=1" for p in PLAYERS if p not in two),
            "--highest-trump",
            two[1],
        )
    ),
    st.tuples(st.integers(1, 3), st.booleans()).map(
        lambda t: ("args", "amend", t[0], "--smith" if t[1] else "--no-smith")
    ),
    st.tuples(st.integers(1, 3), st.sampled_from(PLAYERS)).map(
        lambda t: ("args", "amend", t[0], "--highest-trump", t[1])
    ),
    st.sampled_from(
        [
            "alone_multiplier=2",
            "alone_multiplier=1",
            "alone_no_trick=schneider",
            "alone_no_trick=no-trick",
            "smith_rule=false",
            "smith_rule=true",
        ]
    ).map(lambda setting: ("args", "set", setting)),
    st.tuples(
        st.sampled_from(
            [
                "alone_multiplier=2",
                "alone_multiplier=1",
                "smith_rule=false",
                "smith_rule=true",
                "alone_no_trick=schneider",
            ]
        ),
        st.integers(1, 5),
    ).map(lambda t: ("args", "set", t[0], "--from", t[1])),
    st.lists(st.integers(-6, 6), min_size=4, max_size=4).map(  # (a hand the table scores)
        lambda v: (
            "args",
            "hand",
            "--scores",
            ",".join(f"{p}={n}" for p, n in zip(PLAYERS, [*v, -sum(v)], strict=True)),
        )
    ),
    st.just(("args", "undo")),
    st.just(("args", "redo")),
    st.integers(1, 4).map(lambda n: ("args", "void", n)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["standard", "pagat"]), st.lists(ROUND_FOUR_OPERATIONS, min_size=6, max_size=14)
)
def test_any_night_of_round_four_rules_verifies(
    preset: str, operations: list[tuple[Any, ...]]
) -> None:
    # Smith hands, loners priced, schwanzer ties by the highest trump, hands the table scores
    # itself, amended, undone, redone and the settings changed between them (from the next
    # hand, or from an earlier one with `set --from`, undone and redone too): after every
    # operation the file verifies (a refused one writes nothing); at the end the hands sum to
    # zero and the passes agree (the fast and the full pass; the checkpoint: test_checkpoint).
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        settings_ = ("smith_rule=true", "alone_multiplier=2", "all_pass=schwanzer",
                     "schwanzer_tie=highest-trump")  # fmt: skip
        args = ["new", "--players", ",".join(PLAYERS), "--rules", preset]
        for setting in settings_:
            args += ["--set", setting]
        assert invoke(path, *args).exit_code == 0
        play_and_check(path, operations)


# --- 6. league placings -------------------------------------------------------------------------


def test_placings_by_head_count_and_ties_share_their_places() -> None:
    from fractions import Fraction

    from scorepad.placings import placings

    four = placings("n", {"A": 5, "B": 5, "C": 0, "D": -10}, None)
    assert four == {"A": Fraction(3, 2), "B": Fraction(3, 2), "C": -1, "D": -2}
    five = placings("n", {"A": 9, "B": 1, "C": 1, "D": 1, "E": -12}, None)
    assert five == {"A": 2, "B": 0, "C": 0, "D": 0, "E": -2}  # (1 + 0 - 1) / 3 each
    six = placings("n", {"A": 6, "B": 5, "C": 4, "D": -3, "E": -5, "F": -7}, None)
    assert list(six.values()) == [3, 2, 1, -1, -2, -3]
    own = placings("n", {"A": 3, "B": 3, "C": 3, "D": -4, "E": -5}, (3, 1, 0, -1, -4))
    assert own["A"] == Fraction(4, 3) and own["E"] == -4


def test_season_placings_rank_each_night(run: Run) -> None:
    league = ROOT / "sample_sessions" / "league"
    nights = sorted(league.glob("2026-10-0*.csv"))
    out = run("season", *nights, "--placings", "3,1,0,-1,-4", "--format", "json")
    assert out.exit_code == 0, out.stderr
    players = json.loads(out.stdout)["players"]
    # Night 1: Ann 15, Bob 10, Dee -5, Cy -7, Ed -13; night 2: Cy 14, Flo 9, Bob -3, Ed -4,
    # Ann -16. Ordered by ranking points, then game points (Flo 9 before Bob 7 at 1 each).
    assert [(p["player"], p["ranking"], p["total"]) for p in players] == [
        ("Cy", 2, 7), ("Flo", 1, 9), ("Bob", 1, 7), ("Dee", 0, -5), ("Ann", -1, -1),
        ("Ed", -5, -17),
    ]  # fmt: skip
    assert players[0]["placings"] == {"2026-10-02": -1, "2026-10-09": 3}
    refused = run("season", league, "--placings", "3,1,0,-1,-4")
    assert refused.exit_code == 1 and refused.stderr == (
        "Error: 2026-10-16: 6 players, but the ranking points give 5 places; give --placings "
        "with one value for each place\n"
    )
    bad = run("season", league, "--placings", "3,x")
    assert bad.exit_code == 1 and "whole numbers separated by commas" in bad.stderr


@settings(max_examples=200, deadline=None)
@given(
    totals=st.lists(st.integers(-40, 40), min_size=3, max_size=8),
    own=st.booleans(),
    data=st.data(),
)
def test_placings_keep_the_nights_points_and_its_order(
    totals: list[int], own: bool, data: st.DataObject
) -> None:
    from fractions import Fraction

    from scorepad.placings import DEFAULT_PLACINGS, placings

    night = {f"P{i}": t for i, t in enumerate(totals)}
    points = (
        tuple(sorted(data.draw(st.lists(st.integers(-9, 9), min_size=len(totals),
                                        max_size=len(totals))), reverse=True))
        if own
        else None
    )  # fmt: skip
    table = points if points is not None else DEFAULT_PLACINGS[len(totals)]
    found = placings("n", night, points)
    # Every place's points are given out, shared or not; the default points are zero-sum.
    assert sum(found.values(), Fraction(0)) == sum(table)
    if points is None:
        assert sum(found.values()) == 0
    for a in night:
        for b in night:
            if night[a] == night[b]:
                assert found[a] == found[b]  # (a tie shares)
            elif night[a] > night[b]:
                assert found[a] >= found[b]  # (a better total never ranks lower)


# --- 5. a tariff fixed after play (set --from) ---------------------------------------------------


def _night_of_five(night: Night) -> None:
    assert night("new", "--players", FIVE).exit_code == 0
    for hand in (("--picker", "Ann", "--partner", "Bob", "--points", 70),
                 ("--picker", "Cy", "--alone", "--points", 40),
                 ("--picker", "Dee", "--partner", "Ann", "--points", 95)):  # fmt: skip
        assert night("hand", *hand).exit_code == 0


def test_set_from_scores_the_hands_again_and_shows_the_totals(night: Night) -> None:
    _night_of_five(night)
    result = night("set", "double_on_the_bump=true", "base=2", "--from", 2)
    assert result.exit_code == 0, result.stderr
    # Hand 2 (Cy alone, 40: lost) is now 4 x 2 (base) x 2 (bump) = 16 from Cy, 4 to each other;
    # hand 3 (Dee + Ann, 95: won schneider) is 2 x 2 a defender: Dee +8, Ann +4.
    assert result.stdout == (
        "From hand 2 on: double_on_the_bump=true, base=2; hands 2 to 3 scored again.\n"
        "Player      Before    After    Change\n"
        "--------  --------  -------  --------\n"
        "Ann             +5      +10        +5\n"
        "Bob              0       +1        +1\n"
        "Cy              -7      -21       -14\n"
        "Dee             +4      +11        +7\n"
        "Ed              -2       -1        +1\n"
        "Rules: standard, with double_on_the_bump=true, base=2.\n"
        "Next: hand 4, Cy deals, Dee leads.\n"
    )
    assert night("verify").stdout == ""
    sheet = json.loads(night("sheet", "--format", "json").stdout)
    assert [h["deltas"]["Cy"] for h in sheet["hands"]] == [-1, -16, -4]
    assert sheet["changes"][0]["from_hand"] == 2
    assert sheet["changes"][0]["played"] == "rules from hand 2 on: double_on_the_bump=true, base=2"
    # one change: undo takes it back whole (the rules as before, from hand 2), redo makes it again
    assert night("undo").exit_code == 0
    assert totals(night) == {"Ann": 5, "Bob": 0, "Cy": -7, "Dee": 4, "Ed": -2}
    assert re.search(r"^double_on_the_bump +false", night("rules").stdout, re.M)
    assert night("redo").exit_code == 0
    assert totals(night) == {"Ann": 10, "Bob": 1, "Cy": -21, "Dee": 11, "Ed": -1}
    # the next hand is played under them; an amendment of a hand it scored again too
    assert night("hand", "--picker", "Ed", "--partner", "Bob", "--points", 70).exit_code == 0
    assert totals(night)["Ed"] == -1 + 2 * 2
    assert night("amend", 2, "--points", 30).exit_code == 0  # (lost schneider: 2 x 4 x 2 x 2)
    assert totals(night)["Cy"] == -21 + 16 - 32 - 2
    assert night("verify").stdout == ""
    assert night("verify", "--fast").stdout == ""


def test_set_from_is_the_night_as_if_set_before_the_hand(run: Run, tmp_path: Path) -> None:
    # The hands from N scored again under a setting are the hands played under it from N on.
    hands = [("--picker", "Ann", "--alone", "--points", 70),
             ("--picker", "Bob", "--partner", "Cy", "--points", 50),
             ("--picker", "Cy", "--alone", "--points", 0, "--tricks", 0),
             ("--picker", "Dee", "--partner", "Ed", "--points", 100)]  # fmt: skip
    later, before = tmp_path / "later.csv", tmp_path / "before.csv"
    for path in (later, before):
        assert run("-f", path, "new", "--players", FIVE, "--rules", "pagat").exit_code == 0
    for number, hand in enumerate(hands, 1):
        if number == 2:
            assert (
                run("-f", before, "set", "alone_multiplier=2", "schneider_loss=29").exit_code == 0
            )
        assert run("-f", later, "hand", *hand).exit_code == 0
        assert run("-f", before, "hand", *hand).exit_code == 0
    assert (
        run("-f", later, "set", "alone_multiplier=2", "schneider_loss=29", "--from", 2).exit_code
        == 0
    )
    sheets = [json.loads(run("-f", p, "sheet", "--format", "json").stdout) for p in (later, before)]
    assert [h["deltas"] for h in sheets[0]["hands"]] == [h["deltas"] for h in sheets[1]["hands"]]
    assert sheets[0]["totals"] == sheets[1]["totals"]
    assert run("-f", later, "verify").stdout == ""


def test_set_from_refused_when_a_hand_no_longer_fits(night: Night) -> None:
    assert night("new", "--players", FIVE).exit_code == 0
    assert night("hand", "--picker", "Ann", "--partner", "Bob", "--points", 70).exit_code == 0
    cracked = ("--picker", "Cy", "--alone", "--points", 40, "--crack", "Dee")
    assert night("hand", *cracked).exit_code == 0
    before = night.path.read_bytes()
    refused = night("set", "cracks=false", "--from", 1)
    assert refused.exit_code == 1 and refused.stdout == ""
    assert refused.stderr == (
        "Error: hand 2: this hand cannot be scored: --crack: standard rules have no crack "
        "(cracks = false)\n"
    )
    assert night.path.read_bytes() == before  # (nothing written)
    for args, message in (
        ((3,), "Error: --from 3: hands run from 1 to 2\n"),
        ((0,), "Error: Invalid value for '--from': 0 is not in the range x>=1; see "
               "'scorepad set --help'\n"),
    ):  # fmt: skip
        out = night("set", "base=2", "--from", *args)
        assert out.exit_code != 0 and out.stderr == message
        assert night.path.read_bytes() == before


def test_set_from_refused_when_it_would_change_the_night_around_a_hand(night: Night) -> None:
    made = night("new", "--players", FIVE, "--set", "sixty_sixty=doubler")
    assert made.exit_code == 0
    assert night("hand", "--picker", "Ann", "--partner", "Bob", "--points", 60).exit_code == 0
    assert night("hand", "--picker", "Cy", "--partner", "Dee", "--points", 80).exit_code == 0
    for args, message in (
        (("sixty_sixty=loss", "--from", 1),
         "hand 1 doubled the next hand (a 60-60 under sixty_sixty); under these rules it "
         "would not"),
        (("base=3", "--from", 2),
         "--from 2: the rules in force apply from hand 3 on (hands before it were played under "
         "others): give --from 3 or later, or take back that change first"),
    ):  # fmt: skip
        if args[0] == "base=3":
            assert night("set", "base=2").exit_code == 0
        before = night.path.read_bytes()
        out = night("set", *args)
        assert out.exit_code == 1 and out.stderr == f"Error: {message}\n"
        assert night.path.read_bytes() == before
    # from the hand the rules in force apply from, it is made (hand 3 is still to come: none)
    assert night("set", "base=3", "--from", 3).stderr == "Error: --from 3: hands run from 1 to 2\n"
    assert night("set", "base=3", "--from", 1, "--note", "x").exit_code == 1


def test_set_from_on_an_earlier_format_rewrites_it_first(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "friday.csv"
    shutil.copy(Path(__file__).parent / "fixtures" / "v1" / "standard-friday.csv", path)
    before = json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"]
    done = run("-f", path, "set", "double_on_the_bump=true", "--from", 20)
    assert done.exit_code == 0, done.stderr
    assert "hands 20 to 40 scored again" in done.stdout
    assert run("-f", path, "verify").stdout == ""
    assert run("-f", path, "undo").exit_code == 0
    assert json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"] == before


_SET_FROM = st.tuples(
    st.sampled_from(["base=2", "base=1", "double_on_the_bump=true", "double_on_the_bump=false",
                     "pot_ante=2", "pot_max=12", "sixty_sixty=loss", "leaster_payout=2"]),
    st.integers(1, 4),
).map(lambda t: ("args", "set", t[0], "--from", t[1]))  # fmt: skip


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["pot", "doubler"]),
    st.lists(st.one_of(POT_AND_BOCK_OPERATIONS, OPERATIONS, _SET_FROM), min_size=6, max_size=16),
)
def test_any_night_with_set_from_verifies(all_pass: str, operations: list[tuple[Any, ...]]) -> None:
    # `set --from` among the pot, Bock rounds, doublers, 60-60s, amendments, voids and undos:
    # after every operation the file verifies (a refused one writes nothing); at the end the
    # passes agree and the file's columns add up to the standings.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        args = ["new", "--players", ",".join(PLAYERS), "--set", f"all_pass={all_pass}"]
        args += ["--set", "bock_after=sixty-sixty,schwarz", "--set", "sixty_sixty=doubler"]
        assert invoke(path, *args).exit_code == 0
        play_and_check(path, operations)


def test_a_tournament_that_counts_placings(run: Run, tmp_path: Path) -> None:
    # Each round, each table's players are ranked by their points there and given ranking
    # points by place (five at a table: 2, 1, 0, -1, -2; ties share); the standings go by the
    # ranking points, then the game points; JSON has them; tournament.toml keeps the setting.
    cup = tmp_path / "cup"
    made = run("tournament", "new", cup, "--name", "Cup", "--rules", "standard", "--players",
               "A1,A2,A3,A4,A5,B1,B2,B3,B4,B5", "--rounds", 2, "--hands", 2, "--seed", 7,
               "--placings")  # fmt: skip
    assert made.exit_code == 0, made.stderr
    assert 'placings = "default"' in (cup / "tournament.toml").read_text("utf-8")
    assert run("tournament", "draw", cup).exit_code == 0
    one, two = cup / "round-1" / "table-1.csv", cup / "round-1" / "table-2.csv"
    for table, hand in (
        (one, ("--picker", "B3", "--partner", "A4", "--points", 70)),
        (one, ("--picker", "B2", "--alone", "--points", 40)),
        (two, ("--picker", "A3", "--partner", "A5", "--points", 95)),
        (two, ("--picker", "B1", "--partner", "A2", "--points", 61)),
    ):
        assert run("-f", table, "hand", *hand).exit_code == 0
    found = json.loads(run("tournament", "standings", cup, "--format", "json").stdout)
    lines = [(s["place"], s["player"], s["ranking"], s["total"]) for s in found["standings"]]
    # table 1: B3 +3, A4 +2, A1 0, B5 0, B2 -5 (A1 and B5 share 0 and -1); table 2: A3 +3,
    # A5 +1, B1 0, A2 -1, B4 -3
    assert lines == [
        (1, "A3", 2, 3), (1, "B3", 2, 3), (3, "A4", 1, 2), (4, "A5", 1, 1), (5, "B1", 0, 0),
        (6, "A1", -0.5, 0), (6, "B5", -0.5, 0), (8, "A2", -1, -1), (9, "B4", -2, -3),
        (10, "B2", -2, -5),
    ]  # fmt: skip
    assert found["placings"] == "default"
    text = run("tournament", "standings", cup).stdout
    assert text.splitlines()[0].split() == ["#", "Player", "Ranking", "Total", "R1", "Solos"]
    assert " 6=  A1            -0.50        0     0        0" in text
    assert text.rstrip().endswith(
        "Ranked by placings: ranking points by place at each table (by head count)."
    )
    own = run("tournament", "new", tmp_path / "own", "--name", "Own", "--rules", "standard",
              "--players", "A,B,C,D,E", "--rounds", 1, "--hands", 1,
              "--placings", "3,x")  # fmt: skip
    assert own.exit_code == 1 and "whole numbers separated by commas" in own.stderr
    assert not (tmp_path / "own").exists()


@pytest.mark.parametrize("name", ["pot-night", "standard-friday"])
def test_set_from_in_a_file_of_an_earlier_format_rewrites_it_in_format_ten_first(
    run: Run, tmp_path: Path, name: str
) -> None:
    # the points a `set --from` row moves are a column of format 10: a file of an earlier
    # format is rewritten in format 10 before the row is written (an older scorepad would
    # read the row as a plain change of the rules)
    path = tmp_path / f"{name}.csv"
    shutil.copy(ROOT / "sample_sessions" / f"{name}.csv", path)
    header, rules_row = list(csv.reader(path.open(newline="", encoding="utf-8")))[:2]
    assert int(rules_row[header.index("format")]) < 10
    done = run("-f", path, "set", "base=2", "--from", 1)
    assert done.exit_code == 0, done.stderr
    header, rules_row = list(csv.reader(path.open(newline="", encoding="utf-8")))[:2]
    assert rules_row[header.index("format")] == "10"
    assert run("-f", path, "verify").stdout == ""
