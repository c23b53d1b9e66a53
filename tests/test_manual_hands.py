"""A hand the table scores itself (issue 43 item 4): `hand --scores NAME=N,...` records game
points as given, a row kind of its own (`manual`), checked by `verify` (its sum), undoable and
amendable, marked in the sheet, JSON and `stats` (played, not a pick)."""

import csv
import json
import tempfile
from pathlib import Path
from typing import Any

from _types import CheckJson, Night, Run
from conftest import FIVE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_session_properties import OPERATIONS, PLAYERS, invoke
from test_session_properties import _play_and_check as play_and_check

SCORES = "Ann=4,Bob=-1,Cy=-1,Dee=-1,Ed=-1"


def totals(night: Night) -> dict[str, int]:
    found: dict[str, int] = json.loads(night("standings", "--format", "json").stdout)["totals"]
    return found


def test_check_takes_the_tables_own_scores(check_json: CheckJson) -> None:
    found = check_json("--players", FIVE, "--scores", SCORES)
    assert found["outcome"] == "manual" and found["stake"] == 0
    assert found["deltas"] == {"Ann": 4, "Bob": -1, "Cy": -1, "Dee": -1, "Ed": -1}
    assert set(found["roles"].values()) == {"scored by the table"}
    assert found["explanation"] == [
        "Scored by the table: Ann +4, Bob -1, Cy -1, Dee -1, Ed -1.",
        "The hand sums to 0.",
    ]


def test_a_manual_hand_in_a_session(night: Night) -> None:
    assert night("new", "--players", FIVE).exit_code == 0
    assert night("hand", "--picker", "Ann", "--partner", "Bob", "--points", 70).exit_code == 0
    made = night("hand", "--scores", "ann=4,bob=-1,CY=-1,Dee=-1,Ed=-1")
    assert made.exit_code == 0, made.stderr
    assert made.stdout.startswith(
        "Hand 2: scored by the table: Ann +4, Bob -1, Cy -1, Dee -1, Ed -1.\n"
    )
    assert totals(night) == {"Ann": 6, "Bob": 0, "Cy": -2, "Dee": -2, "Ed": -2}
    # a row kind of its own, in format 10 (the file rewritten in it), its scores in `scores`
    rows = list(csv.reader(night.path.open(newline="", encoding="utf-8")))
    header = rows[0]
    assert rows[1][header.index("format")] == "10"
    assert rows[-1][header.index("kind")] == "manual"
    assert json.loads(rows[-1][header.index("scores")]) == {
        "Ann": 4, "Bob": -1, "Cy": -1, "Dee": -1, "Ed": -1
    }  # fmt: skip
    assert night("verify").stdout == ""
    sheet = json.loads(night("sheet", "--format", "json").stdout)["hands"]
    assert sheet[1]["kind"] == "manual" and sheet[1]["played"] == "scored by the table"
    assert sheet[1]["picker"] is None and sheet[1]["deltas"]["Ann"] == 4
    assert "scored by the table" in night("sheet").stdout
    numbers = json.loads(night("stats", "--format", "json").stdout)["players"]
    stats = {p["player"]: p for p in numbers}
    assert stats["Ann"]["hands"] == 2 and stats["Ann"]["picks"] == 1  # (played, not a pick)
    assert stats["Bob"]["picks"] == 0
    # amended, undone, voided: verify agrees each time
    assert night("amend", 2, "--scores", "Ann=-4,Bob=1,Cy=1,Dee=1,Ed=1").exit_code == 0
    assert totals(night)["Ann"] == 2 - 4
    assert night("verify").stdout == ""
    assert night("undo").exit_code == 0
    assert totals(night)["Ann"] == 6
    assert night("undo").exit_code == 0  # (the hand itself)
    assert totals(night)["Ann"] == 2
    assert night("verify").stdout == ""
    assert "scored by the table" in night("log").stdout


def test_a_manual_hand_refused(night: Night) -> None:
    assert night("new", "--players", FIVE).exit_code == 0
    before = night.path.read_bytes()
    for scores, message in (
        ("Ann=4,Bob=-1", "--scores: name every player dealt in once; missing: Cy, Dee, Ed"),
        ("Ann=4,Bob=-1,Cy=-1,Dee=-1,Ed=-2",
         "--scores: the game points add up to -1; under standard rules they add up to 0"),
        ("Ann=4,ann=-1,Cy=-1,Dee=-1,Ed=-1", "--scores: Ann is named twice"),
        ("Ann=4,Bob=-1,Cy=-1,Dee=-1,Flo=-1",
         "--scores Flo: unknown player; players: Ann, Bob, Cy, Dee, Ed"),
        ("Ann=x", "Invalid value for '--scores': 'Ann=x': write NAME=N, e.g. Ann=10,Bob=25"),
    ):  # fmt: skip
        out = night("hand", "--scores", scores)
        assert out.exit_code != 0 and out.stdout == ""
        assert out.stderr.splitlines()[0].startswith(f"Error: {message}"), out.stderr
        assert night.path.read_bytes() == before  # (nothing written)
    out = night("hand", "--scores", SCORES, "--picker", "Ann")
    assert out.stderr.startswith("Error: --picker does not belong with --scores")
    out = night("hand", "--scores", SCORES, "--leaster")
    assert out.stderr.startswith(
        "Error: --leaster and --scores: a hand the table scores itself is of no other kind"
    )
    assert night.path.read_bytes() == before


def test_a_race_takes_scores_that_do_not_sum_to_zero(check_json: CheckJson) -> None:
    found = check_json("--rules", "first-night", "--players", FIVE, "--scores",
                       "Ann=2,Bob=1,Cy=0,Dee=0,Ed=0")  # fmt: skip
    assert sum(found["deltas"].values()) == 3


def test_a_hand_edited_manual_row_is_found_by_verify(night: Night, run: Run) -> None:
    assert night("new", "--players", FIVE).exit_code == 0
    assert night("hand", "--scores", SCORES).exit_code == 0
    text = night.path.read_text("utf-8").splitlines()
    assert text[-1].startswith("1,manual,,4,")
    text[-1] = text[-1].replace("1,manual,,4,", "1,manual,,5,", 1)
    night.path.write_text("\n".join(text) + "\n", "utf-8")
    found = night("verify")
    assert found.exit_code == 1
    assert found.stdout.splitlines()[0] == (
        f"{night.path}:4: the hand does not sum to zero (+1); points differ from the "
        "re-scoring: Ann recorded 5, the rules give 4"
    )


# --- a night mixing manual hands with every other kind (hypothesis) ------------------------------


def _scores(values: list[int]) -> str:
    """Zero-sum scores for the five players: the last pays what the others take."""
    return ",".join(f"{p}={v}" for p, v in zip(PLAYERS, [*values, -sum(values)], strict=True))


MANUAL_OPERATIONS = st.one_of(
    OPERATIONS,
    st.lists(st.integers(-9, 9), min_size=4, max_size=4).map(
        lambda v: ("args", "hand", "--scores", _scores(v))
    ),
    st.tuples(st.integers(1, 8), st.lists(st.integers(-9, 9), min_size=4, max_size=4)).map(
        lambda t: ("args", "amend", t[0], "--scores", _scores(t[1]))
    ),
    st.sampled_from(["base=2", "double_on_the_bump=true"]).flatmap(
        lambda s: st.integers(1, 4).map(lambda n: ("args", "set", s, "--from", n))
    ),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(MANUAL_OPERATIONS, min_size=6, max_size=16))
def test_any_night_with_manual_hands_verifies(operations: list[tuple[Any, ...]]) -> None:
    # Manual hands among picker hands, leasters, doublers, amendments, voids, undos and set
    # --from: after every operation the file verifies (a refused one writes nothing); at the
    # end the hands sum to zero, the passes agree and the file's columns add up.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        assert invoke(path, "new", "--players", ",".join(PLAYERS)).exit_code == 0
        play_and_check(path, operations)


def test_play_takes_the_tables_own_scores(night: Night) -> None:
    # At "Who picked?": `scores NAME=N,...` records a hand the table scores itself at once; a
    # wrong one is explained and nothing is recorded.
    assert night("new", "--players", FIVE).exit_code == 0
    answers = "scores Ann=4,Bob=-1,Cy=-1,Dee=-1,Ed=-1\nscores Ann=1\nscores x\n\n"
    played = night("play", input=answers)
    assert played.exit_code == 0, played.output
    assert "Hand 1: scored by the table: Ann +4, Bob -1, Cy -1, Dee -1, Ed -1." in played.stdout
    assert "--scores: name every player dealt in once; missing: Bob, Cy, Dee, Ed" in (played.stderr)
    assert "write: scores NAME=N,NAME=N,... (e.g. scores Ann=2,Bob=-2)" in played.stderr
    assert totals(night) == {"Ann": 4, "Bob": -1, "Cy": -1, "Dee": -1, "Ed": -1}
    assert night("verify").stdout == ""
