"""Bock rounds (issue 22, item 2): `bock_after`, `bock_hands`, `bock_factor`, `bock_stacking`,
`scorepad bock` and `check --bock N`, with hand-computed figures.

The figures: Sheepshead standard rules stake base 1 x level multiplier (1, 2, 3); Bavarian
Schafkopf values a partner game 10, a solo or wenz 50, schneider and schwarz 10 each, a Ramsch
10 (see `scorepad rules bavarian`)."""

import csv
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from _types import Fails, Night, Run
from click.testing import CliRunner, Result
from conftest import memo_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.cli import cli

FOUR = "Anni,Bertl,Christl,Dori"
FIVE = "Ann,Bob,Cy,Dee,Ed"


def _status(night: Night) -> Any:
    result = night("status", "--format", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def _ok(night: Night, *args: object, input: str | None = None) -> str:
    result = night(*args, input=input)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def _rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text("utf-8"))))


def _verifies(night: Night) -> None:
    result = night("verify")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


# --- scoring: check --bock N ---------------------------------------------------------------


def test_check_bock_multiplies_with_a_crack_and_a_doubler(run: Run) -> None:
    # base 1 x level 1 x 2 (crack) x 2 (doubler) x 2 (Bock) = 8: each defender +8, the partner
    # -8, the picker the rest, (3 - 1) x 8 = 16.
    result = run(
        "check", "--set", "all_pass=doubler", "--players", FIVE, "--picker", "Ann",
        "--partner", "Bob", "--points", 50, "--tricks", 3, "--crack", "Cy", "--doubled",
        "--bock", 2, "--format", "json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["stake"] == 8
    assert data["deltas"] == {"Ann": -16, "Bob": -8, "Cy": 8, "Dee": 8, "Ed": 8}
    assert (
        "Stake: base 1 x level multiplier 1 x 2 (crack by Cy) x 2 (doubled hand after a "
        "doubler) x 2 (Bock) = 8." in data["explanation"]
    )


def test_check_doppelbock_multiplies_with_knocks_and_stoss(run: Run) -> None:
    # solo 50 x 2 (Stoss) x 2 (knock) x 4 (Doppelbock) = 800 from each opponent
    result = run(
        "check", "--rules", "bavarian", "--players", FOUR, "--picker", "Anni", "--game",
        "solo", "--points", 70, "--knocks", 1, "--stoss", 1, "--bock", 4,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "Stake: 50 x 2 (Stoss) x 2 (knock) x 4 (Bock) = 800." in result.stdout
    assert "Anni      declarer     +2400" in result.stdout


def test_check_bock_with_the_last_hand(run: Run) -> None:
    # partner game 10 x 2 (last hand) x 2 (Bock) = 40
    result = run(
        "check", "--rules", "bavarian", "--set", "last_hand_doubled=true", "--players", FOUR,
        "--picker", "Anni", "--partner", "Bertl", "--points", 70, "--last", "--bock", 2,
        "--format", "json",
    )  # fmt: skip
    assert json.loads(result.stdout)["stake"] == 40


def test_check_bock_is_two_or_more(fails: Fails) -> None:
    line = fails("check", "--players", FIVE, "--picker", "Ann", "--points", 70, "--bock", 1, code=2)
    assert "--bock" in line


def test_check_says_the_bock_round_a_hand_brings(run: Run) -> None:
    result = run(
        "check", "--rules", "bavarian", "--set", "bock_after=schwarz", "--players", FOUR,
        "--picker", "Anni", "--game", "solo", "--points", 120, "--tricks", 8, "--format", "json",
    )  # fmt: skip
    data = json.loads(result.stdout)
    assert data["bock_next"] == ["schwarz"]
    assert data["explanation"][-1] == "Bock: a schwarz; a Bock round follows (bock_after)."


# --- the events ------------------------------------------------------------------------------


EVENTS = [
    # (event, rules, players, the hand that is the event, a hand that is not)
    ("sixty-sixty", "standard", FIVE, ["--picker", "Ann", "--partner", "Bob", "--points", 60],
     ["--picker", "Ann", "--partner", "Bob", "--points", 59]),
    ("schwarz", "bavarian", FOUR, ["--picker", "Anni", "--game", "solo", "--points", 120,
     "--tricks", 8], ["--picker", "Anni", "--game", "solo", "--points", 110, "--tricks", 7]),
    ("re", "bavarian", FOUR, ["--picker", "Anni", "--partner", "Bertl", "--points", 70,
     "--stoss", 2], ["--picker", "Anni", "--partner", "Bertl", "--points", 70, "--stoss", 1]),
    ("re", "standard", FIVE, ["--picker", "Bob", "--partner", "Cy", "--points", 70, "--crack",
     "Dee", "--recrack"], ["--picker", "Bob", "--partner", "Cy", "--points", 70, "--crack", "Dee"]),
    ("tout-lost", "bavarian", FOUR, ["--picker", "Anni", "--game", "wenz-tout", "--points", 90,
     "--tricks", 6], ["--picker", "Anni", "--game", "wenz-tout", "--points", 120, "--tricks", 8]),
    ("jungfrau", "bavarian", FOUR, ["--ramsch", "--loser", "Anni", "--jungfrau", "Dori"],
     ["--ramsch", "--loser", "Anni"]),
    ("durchmarsch", "bavarian", FOUR, ["--ramsch", "--durchmarsch", "Anni"],
     ["--ramsch", "--loser", "Anni"]),
]  # fmt: skip


@pytest.mark.parametrize(("event", "rules", "players", "hand", "other"), EVENTS)
def test_each_event_brings_a_bock_round(
    night: Night, event: str, rules: str, players: str, hand: list[object], other: list[object]
) -> None:
    seated = len(players.split(","))
    _ok(night, "new", "--players", players, "--rules", rules, "--set", f"bock_after={event}")
    out = _ok(night, "hand", *other)
    assert "Bock" not in out
    assert _status(night)["bock_owed"] == 0
    out = _ok(night, "hand", *hand)
    assert "Bock round follows" in out.splitlines()[0]
    assert f"; bock 1 of {seated}, x2." in out.splitlines()[-1]
    status = _status(night)
    assert status["bock"] == {"hand": 1, "of": seated, "factor": 2}
    assert status["bock_owed"] == seated
    _verifies(night)


@pytest.mark.parametrize(("event", "rules", "players", "hand", "other"), EVENTS)
def test_an_event_not_named_brings_nothing(
    night: Night, event: str, rules: str, players: str, hand: list[object], other: list[object]
) -> None:
    others = ",".join(e for e in ("sixty-sixty", "schwarz", "re", "tout-lost") if e != event)
    _ok(night, "new", "--players", players, "--rules", rules, "--set", f"bock_after={others}")
    out = _ok(night, "hand", *hand)
    assert "Bock" not in out and "bock" not in out
    assert _status(night)["bock_owed"] == 0


# --- a Bock night, hand by hand ------------------------------------------------------------


def _schwarz(night: Night, picker: str = "Anni") -> str:
    return _ok(night, "hand", "--picker", picker, "--game", "solo", "--points", 120, "--tricks", 8)


def _partner(night: Night, points: int = 70) -> str:
    return _ok(night, "hand", "--picker", "Bertl", "--partner", "Dori", "--points", points)


def test_a_bock_round_doubles_one_hand_for_each_seated_player(night: Night) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian", "--set", "bock_after=schwarz")
    # solo 50 + schneider 10 + schwarz 10 = 70 from each opponent
    assert "+210" in _schwarz(night)
    # a partner game, 10 x 2 (Bock) = 20
    for place in range(1, 5):
        out = _partner(night)
        assert out.splitlines()[0] == (
            f"Hand {place + 1}: Bertl played a partner game with Dori, 70 points: a win, stake "
            f"20 (x2 Bock); bock {place} of 4, x2."
        )
    assert "stake 10." in _partner(night)  # the round is over
    _verifies(night)
    sheet = json.loads(_ok(night, "sheet", "--format", "json"))
    bocks = [h["bock"] for h in sheet["hands"]]
    assert bocks == [None, *({"hand": n, "of": 4, "factor": 2} for n in range(1, 5)), None]
    text = _ok(night, "sheet")
    assert "Bertl + Dori 70, bock 3 of 4, x2" in text


def test_bock_hands_sets_the_round_and_bock_factor_the_factor(night: Night) -> None:
    _ok(
        night, "new", "--players", FOUR, "--rules", "bavarian", "--set", "bock_after=schwarz",
        "--set", "bock_hands=2", "--set", "bock_factor=3",
    )  # fmt: skip
    _schwarz(night)
    assert "stake 30 (x3 Bock); bock 1 of 2, x3." in _partner(night)
    assert "stake 30 (x3 Bock); bock 2 of 2, x3." in _partner(night)
    assert "stake 10." in _partner(night)


def test_a_round_earned_in_one_queues(night: Night) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian", "--set", "bock_after=schwarz")
    _schwarz(night)
    # hand 2, bock 1 of 4, is a schwarz too: (50 + 10 + 10) x 2 = 140 from each opponent
    out = _schwarz(night, "Bertl")
    assert "stake 140 (x2 Bock); schneider; schwarz; bock 1 of 4, x2; Bock round follows." in out
    assert _status(night)["bock_owed"] == 7
    assert _rows(night.path)[-1]["bock_queue"] == "2-4/4x2,1-4/4x2"
    for place in (2, 3, 4, 1, 2, 3, 4):
        assert f"stake 20 (x2 Bock); bock {place} of 4, x2." in _partner(night)
    assert "stake 10." in _partner(night)
    _verifies(night)


def test_a_round_earned_in_one_multiplies(night: Night) -> None:
    _ok(
        night, "new", "--players", FOUR, "--rules", "bavarian", "--set", "bock_after=schwarz",
        "--set", "bock_stacking=multiply",
    )  # fmt: skip
    _schwarz(night)
    _schwarz(night, "Bertl")
    # the new round starts at once: hands 3 to 5 are in both (x4), hand 6 in the new one only
    assert _rows(night.path)[-1]["bock_queue"] == "2-4/4x4,4-4/4x2"
    for place in (2, 3, 4):
        assert f"stake 40 (x4 Bock); bock {place} of 4, x4." in _partner(night)
    assert "stake 20 (x2 Bock); bock 4 of 4, x2." in _partner(night)
    assert "stake 10." in _partner(night)
    _verifies(night)


def test_a_bock_hand_with_a_crack_and_a_doubler_in_a_session(night: Night) -> None:
    _ok(
        night, "new", "--players", FIVE, "--set", "all_pass=doubler", "--set",
        "bock_after=sixty-sixty",
    )  # fmt: skip
    # 60-60 is a loss at level 1: the picker pays 2 x 1, the partner 1
    _ok(night, "hand", "--picker", "Ann", "--partner", "Bob", "--points", 60)
    # a doubler is no Bock hand: the round waits for the next hand played
    _ok(night, "hand", "--doubler")
    assert _status(night)["bock"] == {"hand": 1, "of": 5, "factor": 2}
    out = _ok(
        night, "hand", "--picker", "Cy", "--partner", "Dee", "--points", 50, "--tricks", 3,
        "--crack", "Ed", "--explain",
    )  # fmt: skip
    # base 1 x level 1 x 2 (crack) x 2 (doubler) x 2 (Bock) = 8
    assert (
        "Stake: base 1 x level multiplier 1 x 2 (crack by Ed) x 2 (doubled hand after a "
        "doubler) x 2 (Bock) = 8." in out
    )
    assert "Hand 3: Cy picked, partner Dee, 50 points: a loss, level 1, stake 8" in out
    assert "bock 1 of 5, x2." in out.splitlines()[0]
    _verifies(night)


# --- scorepad bock ---------------------------------------------------------------------------


def test_bock_starts_rounds_and_undo_takes_them_back(night: Night) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian")
    out = _ok(night, "bock", "--rounds", 2, "--note", "Anni's birthday")
    assert out == (
        "Bock: 2 Bock rounds started; 8 Bock hands owed.\n"
        "Next: hand 1, Dori deals, Anni leads; bock 1 of 4, x2.\n"
    )
    row = _rows(night.path)[-1]
    assert (row["kind"], row["bock_rounds"], row["note"]) == ("bock", "2", "Anni's birthday")
    assert row["bock_queue"] == "1-4/4x2,1-4/4x2"
    assert "bock: 2 Bock rounds" in _ok(night, "log")
    assert _ok(night, "undo").startswith("Undid the Bock 2 rounds of line 4.")
    assert _status(night)["bock_owed"] == 0
    assert _ok(night, "redo").startswith("Redid the Bock 2 rounds of line 4.")
    assert _status(night)["bock_owed"] == 8
    _verifies(night)
    data = json.loads(_ok(night, "bock", "--format", "json"))
    assert data["bock_owed"] == 12 and data["bock"] == {"hand": 1, "of": 4, "factor": 2}


def test_bock_under_multiply_starts_at_once(night: Night) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian", "--set", "bock_stacking=multiply")
    _ok(night, "bock")
    _partner(night)
    _ok(night, "bock")
    assert _rows(night.path)[-1]["bock_queue"] == "2-4/4x4,4-4/4x2"


def test_a_bock_round_played_in_cannot_be_undone_before_its_hands(night: Night) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian")
    _ok(night, "bock")
    _partner(night)
    assert _ok(night, "undo").startswith("Undid hand 1.")
    assert _ok(night, "undo").startswith("Undid the Bock round of line 4.")
    assert _status(night)["bock_owed"] == 0


def test_hand_refuses_a_bock_of_its_own(night: Night, fails: Fails) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian")
    line = fails("-f", night.path, "hand", "--picker", "Anni", "--game", "solo", "--points", 70,
                 "--bock", 2)  # fmt: skip
    assert line == (
        "Error: --bock: a session works out its Bock hands by itself; to start a Bock round, "
        "`scorepad bock`"
    )


def test_bock_refuses_more_rounds_than_it_starts(night: Night, fails: Fails) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian")
    before = night.path.read_bytes()
    assert "--rounds" in fails("-f", night.path, "bock", "--rounds", 21, code=2)
    assert night.path.read_bytes() == before


def test_play_starts_a_bock_round(night: Night) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian")
    out = _ok(night, "play", input="bock 2\n\n")
    assert "Bock: 2 Bock rounds started; 8 Bock hands owed." in out
    assert "Hand 1, Dori deals, Anni leads; bock 1 of 4, x2." in out
    assert _status(night)["bock_owed"] == 8


def test_the_board_says_the_next_hand_is_a_bock_hand(night: Night) -> None:
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from starlette.testclient import TestClient

    from scorepad.web.app import Board, create_app

    _ok(night, "new", "--players", FOUR, "--rules", "bavarian")
    _ok(night, "bock")
    _partner(night)
    board = Board(night.path, allow_entry=False, token="t", poll=0.05)
    with TestClient(create_app(board), base_url="http://localhost") as client:
        state = client.get("/api/state").json()
    assert state["next"]["bock"] == {"hand": 2, "of": 4, "factor": 2}
    assert state["next"]["bock_owed"] == 3
    assert state["recent"][0]["bock"] == {"hand": 1, "of": 4, "factor": 2}
    assert state["recent"][0]["played"] == "Bertl + Dori 70, bock 1 of 4, x2"


# --- corrections -----------------------------------------------------------------------------


def test_a_bock_hand_is_voided_only_from_the_last(night: Night, fails: Fails) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian")
    _ok(night, "bock")
    _partner(night)
    _partner(night)
    before = night.path.read_bytes()
    line = fails("-f", night.path, "void", 1)
    assert line == (
        "Error: hand 1 is a Bock hand: voided, it would change which later hands are Bock "
        "hands; void hand 2 first (from the last: `scorepad undo`)"
    )
    assert night.path.read_bytes() == before
    _ok(night, "void", 2)
    assert _status(night)["bock"] == {"hand": 2, "of": 4, "factor": 2}
    _ok(night, "void", 1)
    assert _status(night)["bock"] == {"hand": 1, "of": 4, "factor": 2}
    # the undo of a void counts the hand again, as it was played
    _ok(night, "undo")
    assert _status(night)["bock"] == {"hand": 2, "of": 4, "factor": 2}
    _verifies(night)


def test_a_hand_that_brought_a_round_is_voided_only_from_the_last(
    night: Night, fails: Fails
) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian", "--set", "bock_after=schwarz")
    _schwarz(night)
    _partner(night)
    line = fails("-f", night.path, "void", 1)
    assert line.startswith("Error: hand 1 brought a Bock round: voided, it would change")
    _ok(night, "undo")
    _ok(night, "void", 1)
    assert _status(night)["bock_owed"] == 0
    _verifies(night)


def test_an_amendment_keeps_the_bock_and_may_not_change_a_round_played(
    night: Night, fails: Fails
) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian", "--set", "bock_after=schwarz")
    _ok(night, "bock")
    _partner(night)
    _partner(night)
    # hand 1's points: it stays a Bock hand, 10 x 2 = 20 (a loss now)
    out = _ok(night, "amend", 1, "--points", 50)
    assert "stake 20 (x2 Bock); bock 1 of 4, x2." in out
    # made a schwarz, hand 1 would bring a round that hand 2 was played without
    line = fails("-f", night.path, "amend", 1, "--points", 120, "--tricks", 8)
    assert line.startswith("Error: hand 1: amended so, it would bring a Bock round")
    # the last hand may
    out = _ok(night, "amend", 2, "--points", 120, "--tricks", 8)
    assert "Bock round follows" in out
    assert _status(night)["bock_owed"] == 2 + 4
    _ok(night, "undo")
    assert _status(night)["bock_owed"] == 2
    _verifies(night)


# --- the file --------------------------------------------------------------------------------


def _format(path: Path) -> str:
    return _rows(path)[0]["format"]


def test_a_night_without_bock_stays_in_its_format(night: Night) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian", "--set", "bock_after=schwarz")
    _partner(night)
    assert _format(night.path) == "5" and "bock_queue" not in _rows(night.path)[0]
    _schwarz(night)  # the first row that needs the Bock's columns brings format 8
    assert _format(night.path) == "8"
    assert _rows(night.path)[-1]["bock_queue"] == "1-4/4x2"
    _verifies(night)


def test_bock_brings_format_8(night: Night) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian")
    _ok(night, "bock")
    assert _format(night.path) == "8"
    _verifies(night)


def test_an_older_scorepad_says_which_format_a_bock_night_needs(
    night: Night, fails: Fails, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian")
    _ok(night, "bock")
    import scorepad.store.snapshot as snapshot

    monkeypatch.setattr(snapshot, "FORMAT_VERSION", 7)
    line = fails("-f", night.path, "status")
    assert "this session file is in format 8, written by a newer scorepad" in line
    assert "reads formats 1 to 7" in line


def _edit(path: Path, line: int, column: str, value: str) -> None:
    rows = list(csv.reader(io.StringIO(path.read_text("utf-8"))))
    rows[line - 1][rows[0].index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), "utf-8")


def test_a_hand_edited_bock_is_reported_at_its_line(night: Night) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian")
    _ok(night, "bock")
    _partner(night)
    _partner(night)
    path = night.path
    good = path.read_bytes()
    _edit(path, 6, "bock", "3/4x2")
    result = night("verify")
    assert result.exit_code == 1
    assert f"{path}:6: bock: recorded 3/4x2, but the Bock rounds before it give 2/4x2" in (
        result.stdout
    )
    path.write_bytes(good)
    _edit(path, 6, "bock_queue", "4-4/4x9")
    result = night("verify")
    assert result.exit_code == 1
    assert (
        f"{path}:6: bock_queue: recorded 4-4/4x9, but the rows above give 3-4/4x2" in result.stdout
    )
    assert "Traceback" not in result.stdout + result.stderr
    path.write_bytes(good)
    _edit(path, 5, "bock", "nonsense")
    result = night("verify")
    assert result.exit_code == 1 and f"{path}:5: " in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


# --- a hypothesis night: the pot's partner, Bock, verifies after every operation -------------

OPERATIONS = st.one_of(
    st.tuples(st.just("schwarz"), st.sampled_from(FOUR.split(","))),
    st.tuples(st.just("partner"), st.sampled_from([0, 30, 60, 61, 90, 120])),
    st.tuples(st.just("stoss"), st.integers(0, 2)),
    st.tuples(st.just("ramsch"), st.booleans(), st.booleans()),
    st.tuples(st.just("tout"), st.booleans()),
    st.tuples(st.just("bock"), st.integers(1, 2)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("void"), st.integers(1, 8)),
    st.tuples(st.just("amend"), st.integers(1, 8), st.sampled_from([40, 60, 70, 120])),
)


def _invoke(path: Path, *args: object) -> Result:
    return CliRunner().invoke(cli, ["-f", str(path), *map(str, args)], prog_name="scorepad")


def _args(op: tuple[Any, ...]) -> list[object]:
    kind = op[0]
    if kind == "schwarz":
        return ["hand", "--picker", op[1], "--game", "solo", "--points", 120, "--tricks", 8]
    if kind == "partner":
        tricks = 0 if op[1] == 0 else 8 if op[1] == 120 else 4
        return ["hand", "--picker", "Anni", "--partner", "Christl", "--points", op[1],
                "--tricks", tricks]  # fmt: skip
    if kind == "stoss":
        return ["hand", "--picker", "Bertl", "--partner", "Dori", "--points", 70, "--stoss", op[1]]
    if kind == "ramsch":
        args: list[object] = ["hand", "--ramsch"]
        if op[2]:
            return [*args, "--durchmarsch", "Christl"]
        return [*args, "--loser", "Anni", *(["--jungfrau", "Dori"] if op[1] else [])]
    if kind == "tout":
        points = ["--points", 120, "--tricks", 8] if op[1] else ["--points", 90, "--tricks", 6]
        return ["hand", "--picker", "Dori", "--game", "wenz-tout", *points]
    if kind == "bock":
        return ["bock", "--rounds", op[1]]
    if kind == "undo":
        return ["undo"]
    if kind == "void":
        return ["void", op[1]]
    return ["amend", op[1], "--points", op[2]]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["queue", "multiply"]),
    st.sampled_from([0, 2]),
    st.lists(OPERATIONS, min_size=4, max_size=14),
)
def test_any_bock_night_verifies_and_its_passes_agree(
    stacking: str, hands: int, operations: list[tuple[Any, ...]]
) -> None:
    from scorepad.reports import PlayerCounts
    from scorepad.session import Session

    players = FOUR.split(",")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        new = _invoke(
            path, "new", "--players", FOUR, "--rules", "bavarian", "--set",
            "bock_after=sixty-sixty,schwarz,re,tout-lost,jungfrau,durchmarsch", "--set",
            f"bock_stacking={stacking}", "--set", f"bock_hands={hands}",
        )  # fmt: skip
        assert new.exit_code == 0, new.output
        for op in operations:
            before = path.read_bytes()
            result = _invoke(path, *_args(op))
            assert result.exception is None or isinstance(result.exception, SystemExit), op
            if result.exit_code:
                assert result.stderr.startswith("Error: ") and "Traceback" not in result.stderr
                assert path.read_bytes() == before  # a refused command writes nothing
            verify = _invoke(path, "verify")
            assert verify.exit_code == 0 and verify.stdout == "", (op, verify.stdout)
        # the fast path agrees with decoding and re-scoring every row
        results = []
        for fast in (True, False):
            counts = PlayerCounts(players)
            ledger, problems = Session(path).check(counts=counts, memo=memo_of(fast))
            results.append((ledger.totals, ledger.hands, ledger.bock, problems, counts.finish()))
        assert results[0] == results[1]
        assert results[0][3] == []
        # the state the last row records is the state the pass ends in (what `hand` resumes)
        assert Session(path).state().bock == results[0][2]
        assert sum(results[0][0].values()) == 0


# --- the rules, and the queue as a value -----------------------------------------------------


def test_rules_list_and_explain_the_bock_settings(run: Run) -> None:
    out = run("rules", "bavarian").stdout
    for key in ("bock_after", "bock_hands", "bock_factor", "bock_stacking"):
        assert f"\n{key} " in out
    assert "(choices: sixty-sixty, schwarz, re, tout-lost, jungfrau, durchmarsch)" in out
    data = json.loads(run("rules", "bavarian", "--set", "bock_after=re,schwarz", "--format",
                          "json").stdout)  # fmt: skip
    assert data["bock_after"] == ["schwarz", "re"]  # (in the setting's order)


def test_a_bad_bock_setting_is_one_line(fails: Fails) -> None:
    line = fails("rules", "bavarian", "--set", "bock_after=schwartz")
    assert line.startswith("Error: ") and "bock_after: 'schwartz' is not valid" in line
    assert "bock_factor" in fails("rules", "--set", "bock_factor=1")


def test_set_brings_bock_rounds_from_the_next_hand_on(night: Night) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian")
    _schwarz(night)
    assert _status(night).get("bock_owed", 0) == 0
    _ok(night, "set", "bock_after=schwarz")
    _schwarz(night)
    assert _status(night)["bock_owed"] == 4
    _verifies(night)


def test_the_cli_bock_bound_is_the_rules() -> None:
    from scorepad.rules import MAX_BOCK

    assert MAX_BOCK == 4096  # (cli/_common.py's --bock takes 2 to 4096 without importing rules)


RUNS = st.lists(
    # (factor, first, last, of): hands first to last of a round of `of`
    st.tuples(st.integers(2, 16), st.integers(1, 6), st.integers(0, 5), st.integers(0, 3)).map(
        lambda t: (t[0], t[1], t[1] + t[2], t[1] + t[2] + t[3])
    ),
    max_size=4,
)


@settings(max_examples=200, deadline=None)
@given(RUNS, st.sampled_from(["queue", "multiply"]), st.integers(2, 6), st.integers(1, 3))
def test_a_queue_reads_back_and_owes_what_was_added(
    runs: list[tuple[int, int, int, int]], stacking: str, seated: int, rounds: int
) -> None:
    from scorepad.ledger import bock
    from scorepad.rules import load_rules

    queue = tuple(runs)
    assert bock.parse(bock.text(queue)) == queue
    rules = load_rules("bavarian", [f"bock_stacking={stacking}"])
    more = bock.added(queue, rules, seated, rounds)
    expected = (
        bock.owed(queue) + seated * rounds
        if stacking == "queue"
        else max(bock.owed(queue), seated * rounds)
    )
    assert bock.owed(more) == expected
    assert bock.parse(bock.text(more)) is not None
    # the next hand is the first run's; playing it owes one fewer
    if more:
        assert bock.owed(bock.rest(more)) == bock.owed(more) - 1
        assert bock.head(more) is not None


def test_a_replayed_ramsch_with_a_jungfrau_brings_a_bock_round(night: Night) -> None:
    hand_file = Path(__file__).parent.parent / "sample_sessions/hands/bavarian-ramsch.txt"
    _ok(night, "new", "--players", "Anni,Bertl,Sepp,Vroni", "--rules", "bavarian", "--set",
        "bock_after=jungfrau")  # fmt: skip
    out = _ok(night, "replay", "--record", hand_file)
    assert "jungfrau Vroni; Bock round follows." in out
    assert _status(night)["bock"] == {"hand": 1, "of": 4, "factor": 2}
    _verifies(night)


def test_a_leaster_and_a_schwanzer_are_bock_hands_too(run: Run) -> None:
    # a leaster's payout 1 x 2 (Bock): the winner +2 from each of four
    leaster = run("check", "--players", FIVE, "--leaster", "--winner", "Cy", "--bock", 2,
                  "--format", "json")  # fmt: skip
    assert json.loads(leaster.stdout)["deltas"] == {"Ann": -2, "Bob": -2, "Cy": 8, "Dee": -2,
                                                    "Ed": -2}  # fmt: skip
    # a schwanzer's base 1 x 4 (Doppelbock): the loser pays 4 to each of four
    schwanzer = run("check", "--set", "all_pass=schwanzer", "--players", FIVE, "--schwanzer",
                    "--loser", "Ann", "--bock", 4, "--format", "json")  # fmt: skip
    assert json.loads(schwanzer.stdout)["deltas"]["Ann"] == -16


def test_the_rounds_of_a_bock_row_are_not_taken_back_once_played_in(night: Night) -> None:
    from scorepad.errors import HandError
    from scorepad.session import Session

    _ok(night, "new", "--players", FOUR, "--rules", "bavarian")
    _ok(night, "bock")  # line 4
    _partner(night)
    ledger = Session(night.path).night()
    with pytest.raises(HandError) as refused:
        ledger.bock_row(1, 6, "undo", undoes=4)
    assert str(refused.value) == (
        "the Bock rounds of line 4 cannot be taken back: hand 1 was played in them: void it first"
    )


def test_one_bock_hand_owed_is_one(night: Night) -> None:
    _ok(night, "new", "--players", FOUR, "--rules", "bavarian", "--set", "bock_hands=1")
    assert _ok(night, "bock").splitlines()[0] == "Bock: 1 Bock round started; 1 Bock hand owed."


def test_a_bock_hand_plays_for_the_pot_and_a_pot_row_waits_out_the_round(night: Night) -> None:
    """Hand-computed (standard, base 1, five players): hand 1 passes into the pot (5); the
    table's Bock round makes hand 2 a Bock hand: a win at level 1 is stake 1 x2 = 2 (each
    defender -2, partner +2, picker +4), and the side takes the pot as the hand pays it (2 to 1:
    picker 3 and the rest, 1, so 4; partner 1). A hand passed into the pot in the round is no
    Bock hand: the next hand is still the round's second."""
    _ok(night, "new", "--players", "Ann,Bob,Cy,Dee,Ed", "--set", "all_pass=pot")
    _ok(night, "hand", "--pot")
    _ok(night, "bock")
    out = _ok(night, "hand", "--picker", "Bob", "--partner", "Cy", "--points", 70)
    assert "stake 2 (x2 Bock); took the pot (5); bock 1 of 5, x2; the pot holds 0." in out
    sheet = json.loads(_ok(night, "sheet", "--format", "json"))
    assert sheet["hands"][1]["deltas"] == {"Ann": -2, "Bob": 8, "Cy": 3, "Dee": -2, "Ed": -2}
    assert "bock 2 of 5, x2; the pot holds 5." in _ok(night, "hand", "--pot")
    out = _ok(night, "hand", "--picker", "Dee", "--partner", "Ed", "--points", 40)
    assert "stake 2 (x2 Bock); paid 5 into the pot; bock 2 of 5, x2; the pot holds 10." in out
    assert night("verify").exit_code == 0
