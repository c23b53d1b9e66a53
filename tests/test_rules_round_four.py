"""Issue 43, the rules of round four: the loner's price (alone_multiplier, alone_no_trick), the
Jungfrau as programs score it (the bavarian preset's default for new sessions) and runs in the
Farb- games on their own; each worked example of the issue with its figures."""

import json
import re
from pathlib import Path

import pytest
from _types import CheckJson, Run
from conftest import FIVE, FOUR

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


# --- 7. the Jungfrau as programs score it -------------------------------------------------------


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


# --- 9. runs in the Farb- games on their own ---------------------------------------------------


@pytest.mark.parametrize(
    "game, key", [("farbwenz", "runs_min.farbwenz"), ("farbgeier", "runs_min.farbgeier")]
)
def test_runs_min_of_the_farb_games(check_json: CheckJson, game: str, key: str) -> None:
    hand = ("--players", FOUR, "--picker", "Ann", "--game", game, "--points", 75, "--runs", 2)
    # As a wenz (runs from 2): 50 + 2 x 10 = 70 from each; with runs_min 3 of its own: 50.
    assert check_json("--rules", "bavarian", *hand)["deltas"]["Bob"] == -70
    own = check_json("--rules", "bavarian", "--set", f"{key}=3", *hand)
    assert own["deltas"]["Bob"] == -50


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
