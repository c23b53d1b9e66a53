"""The called suit, `called` (`--called SUIT`, issue 40 item 3): what the picker called, in
Sheepshead and Schafkopf, through every way a hand comes in and every report that shows it."""

import json
from pathlib import Path

import pytest
from _types import Fails, Run
from hypothesis import given
from hypothesis import strategies as st

from scorepad.errors import HandError
from scorepad.rules import load_rules
from scorepad.scoring import PickerHand, seat
from scorepad.scoring.called import SCHAFKOPF_CALLS, SHEEPSHEAD_CALLS, check_called, spelled

SAMPLES = Path(__file__).parent.parent / "sample_sessions"
FIVE = "Ann,Bob,Cy,Dee,Ed"
FOUR = "Anni,Bertl,Sepp,Vroni"
SHEEPSHEAD = ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "70")
SAUSPIEL = ("--rules", "bavarian", "--players", FOUR, "--picker", "Sepp", "--partner", "Vroni")


@pytest.mark.parametrize(
    ("given_as", "shown"),
    [
        ("clubs", "ace of clubs"),
        ("spades", "ace of spades"),
        ("hearts", "ace of hearts"),
        ("ten-clubs", "ten of clubs"),
        ("ten-hearts", "ten of hearts"),
        ("unknown", "unknown card"),
        ("Clubs", "ace of clubs"),  # (any case)
    ],
)
def test_check_takes_the_called_ace_in_sheepshead(run: Run, given_as: str, shown: str) -> None:
    result = run("check", *SHEEPSHEAD, "--called", given_as)
    assert result.exit_code == 0, result.stderr
    assert f"Called: {shown}.\n" in result.stdout


@pytest.mark.parametrize(
    ("given_as", "shown"),
    [
        ("eichel", "Eichel-Sau"),
        ("acorns", "Eichel-Sau"),
        ("gras", "Gras-Sau"),
        ("leaves", "Gras-Sau"),
        ("schellen", "Schellen-Sau"),
        ("bells", "Schellen-Sau"),
        ("clubs", "Eichel-Sau"),  # the English suit names too
        ("spades", "Gras-Sau"),
        ("diamonds", "Schellen-Sau"),
    ],
)
def test_check_takes_the_called_sau_in_schafkopf(run: Run, given_as: str, shown: str) -> None:
    result = run("check", *SAUSPIEL, "--points", "70", "--called", given_as)
    assert result.exit_code == 0, result.stderr
    assert f"Called: {shown}.\n" in result.stdout


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            (*SHEEPSHEAD, "--called", "diamonds"),
            "Error: --called diamonds: write the called ace's suit (clubs, spades, hearts), "
            "ten-SUIT for a called ten, or unknown for an unknown-card call",
        ),
        (
            (*SHEEPSHEAD, "--called", "eichel"),
            "Error: --called eichel: write the called ace's suit (clubs, spades, hearts), "
            "ten-SUIT for a called ten, or unknown for an unknown-card call",
        ),
        (
            ("--players", FIVE, "--picker", "Ann", "--alone", "--points", "70",
             "--called", "clubs"),
            "Error: --called clubs with --alone: a picker who goes alone calls no ace",
        ),
        (
            ("--players", "Ann,Bob,Cy,Dee,Ed,Flo", "--picker", "Ann", "--partner", "Bob",
             "--points", "70", "--called", "clubs"),
            "Error: --called clubs: a 6-handed hand under standard rules finds the partner by "
            "the jack of diamonds, not by a called ace",
        ),
        (
            ("--players", "Ann,Bob,Cy", "--picker", "Ann", "--points", "70", "--called", "clubs"),
            "Error: --called clubs: a 3-handed picker under standard rules plays alone and calls "
            "no ace",
        ),
        (
            (*SAUSPIEL, "--points", "70", "--called", "herz"),
            "Error: --called herz: hearts are trump in a Sauspiel, the Herz-Sau cannot be "
            "called; call eichel, gras or schellen",
        ),
        (
            (*SAUSPIEL, "--points", "70", "--called", "ten-clubs"),
            "Error: --called ten-clubs: a Sauspiel calls the Sau of eichel, gras or schellen "
            "(acorns, leaves, bells)",
        ),
        (
            ("--rules", "bavarian", "--players", FOUR, "--picker", "Sepp", "--game", "solo",
             "--points", "70", "--called", "gras"),
            "Error: --called gras: a solo calls no Sau (only a Sauspiel does)",
        ),
    ],
)  # fmt: skip
def test_a_call_the_hand_cannot_have_is_refused_in_one_line(
    fails: Fails, args: tuple[str, ...], error: str
) -> None:
    assert fails("check", *args) == error


def test_a_session_keeps_the_call_in_a_column_of_format_9(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", FIVE).exit_code == 0
    assert run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "64")
    assert _format(path) == 5  # a night without a call stays in the format it was written in
    result = run("-f", path, "hand", "--picker", "Cy", "--partner", "Dee", "--called", "TEN-Hearts",
                 "--points", "50")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(
        "Hand 2: Cy picked, partner Dee, 50 points: a loss, level 1, stake 1; called the ten of "
        "hearts.\n"
    )
    assert _format(path) == 9
    lines = path.read_text("utf-8").splitlines()
    assert lines[0].endswith(",called") and lines[-1].endswith(",ten-hearts")  # as written here
    sheet = run("-f", path, "sheet").stdout.splitlines()
    assert sheet[3].split() == ["2", "Ann", "Cy", "+", "Dee", "50,", "called", "the", "ten", "of",
                                "hearts", "+1", "+1", "-2", "-1", "+1"]  # fmt: skip
    hands = json.loads(run("-f", path, "sheet", "--format", "json").stdout)["hands"]
    assert [h["called"] for h in hands] == [None, "ten-hearts"]
    assert hands[1]["marks"] == ["called the ten of hearts"]
    amended = run("-f", path, "amend", "1", "--called", "spades")
    assert amended.exit_code == 0, amended.stderr
    hands = json.loads(run("-f", path, "sheet", "--format", "json").stdout)["hands"]
    assert hands[0]["called"] == "spades" and hands[0]["amended"]
    # `--called none` clears it; a picker amended to go alone called nothing
    assert run("-f", path, "amend", "1", "--called", "none").exit_code == 0
    assert run("-f", path, "amend", "2", "--alone").exit_code == 0
    hands = json.loads(run("-f", path, "sheet", "--format", "json").stdout)["hands"]
    assert [h["called"] for h in hands] == [None, None]
    assert run("-f", path, "verify").stdout == ""


def _format(path: Path) -> int:
    import csv

    rows = list(csv.DictReader(path.read_text("utf-8").splitlines()))
    return int(rows[0]["format"])


def test_schafkopf_writes_the_sau_as_eichel_gras_or_schellen(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "verein.csv"
    assert run("-f", path, "new", "--rules", "bavarian", "--players", FOUR).exit_code == 0
    result = run("-f", path, "hand", "--picker", "Sepp", "--partner", "Vroni", "--called",
                 "leaves", "--points", "70")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert path.read_text("utf-8").splitlines()[-1].endswith(",gras")
    german = run("--lang", "de", "-f", path, "sheet").stdout
    assert "Sepp + Vroni 70, ruft die Gras-Sau" in german
    hand = json.loads(run("--lang", "de", "-f", path, "sheet", "--format", "json").stdout)
    assert hand["hands"][0]["called"] == "gras"  # (what programs read stays as written)
    assert hand["hands"][0]["marks"] == ["called the Gras-Sau"]


@pytest.mark.parametrize(
    ("cell", "problem"),
    [
        ("diamonds", "this hand cannot be scored: --called diamonds: write the called ace's "
         "suit (clubs, spades, hearts), ten-SUIT for a called ten, or unknown for an "
         "unknown-card call"),
        ("CLUBS", "this hand cannot be scored: --called CLUBS: write the called ace's suit "
         "(clubs, spades, hearts), ten-SUIT for a called ten, or unknown for an unknown-card "
         "call"),
        ("=HYPERLINK()", "called: '=HYPERLINK()' would run as a formula in a spreadsheet; take "
         "away its leading '='"),
    ],
)  # fmt: skip
def test_a_call_edited_into_the_file_is_refused_at_its_line(
    run: Run, tmp_path: Path, cell: str, problem: str
) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", FIVE).exit_code == 0
    assert run("-f", path, "hand", *SHEEPSHEAD[2:], "--called", "clubs").exit_code == 0
    data = path.read_bytes()
    assert data.endswith(b",clubs\r\n")
    path.write_bytes(data[: -len(b"clubs\r\n")] + cell.encode() + b"\r\n")
    result = run("-f", path, "verify")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == f"{path}:4: {problem}"


def test_a_file_of_format_8_reads_as_before(run: Run, tmp_path: Path) -> None:
    older = tmp_path / "pot.csv"
    older.write_bytes((SAMPLES / "bavarian-evening.csv").read_bytes())
    assert run("-f", older, "verify").stdout == ""
    before = run("-f", older, "sheet", "--format", "json").stdout
    assert all(h["called"] is None for h in json.loads(before)["hands"])


@pytest.mark.parametrize(
    ("hand_file", "rules", "players", "called"),
    [  # (call: AC, the ace of clubs; call: AD, the Schellen-Sau)
        ("first-night-walkthrough.txt", "first-night", "West,North,East,Pat,South", "clubs"),
        ("schafkopf-sauspiel.txt", "schafkopf", "Anni,Bertl,Sepp,Vroni", "schellen"),
    ],
)
def test_replay_record_takes_the_call_from_the_hand_files_call_line(
    run: Run, tmp_path: Path, hand_file: str, rules: str, players: str, called: str
) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--rules", rules, "--players", players).exit_code == 0
    result = run("-f", path, "replay", SAMPLES / "hands" / hand_file, "--record")
    assert result.stderr == ""
    hands = json.loads(run("-f", path, "sheet", "--format", "json").stdout)["hands"]
    assert hands[-1]["called"] == called


def test_replay_of_an_unknown_card_call_records_unknown() -> None:
    from dataclasses import replace

    from scorepad.replay import parse_hand_file, replay
    from scorepad.replay.tricks import _after_the_bury

    hand = parse_hand_file((SAMPLES / "hands" / "friday-disputed.txt").read_text("utf-8"))
    rules = load_rules("standard")
    made = replay(hand, rules).hand()
    assert isinstance(made, PickerHand) and made.called == "clubs"  # call: AC
    # The same call made as an unknown-card call (a card the picker kept played in its place)
    assert hand.picker is not None
    kept = _after_the_bury(hand)[hand.picker][0]
    unknown = replay(replace(hand, call=f"AC unknown {kept}"), rules)
    made = unknown.hand()
    assert isinstance(made, PickerHand) and made.called == "unknown"


def test_stats_counts_each_players_calls_by_suit_and_the_sides_wins(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", FIVE).exit_code == 0
    for picker, partner, called, points in (
        ("Ann", "Bob", "clubs", "70"),  # won
        ("Ann", "Cy", "clubs", "40"),  # lost
        ("Ann", "Dee", "spades", "90"),  # won
        ("Bob", "Ed", "unknown", "61"),  # won
        ("Cy", "Ann", None, "80"),  # no call noted
    ):
        call = ("--called", called) if called else ()
        args = ("--picker", picker, "--partner", partner, *call, "--points", points)
        assert run("-f", path, "hand", *args).exit_code == 0
    shown = run("-f", path, "stats")
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout.split("\n\n")[-1] == (
        "Player    Called           Calls    Side won\n"
        "--------  -------------  -------  ----------\n"
        "Ann       ace of clubs         2           1\n"
        "Ann       ace of spades        1           1\n"
        "Bob       unknown card         1           1\n"
    )
    players = json.loads(run("-f", path, "stats", "--format", "json").stdout)["players"]
    calls = {p["player"]: p["calls"] for p in players}
    assert calls == {
        "Ann": {"clubs": {"made": 2, "won": 1}, "spades": {"made": 1, "won": 1}},
        "Bob": {"unknown": {"made": 1, "won": 1}},
        "Cy": {},
        "Dee": {},
        "Ed": {},
    }
    german = run("--lang", "de", "-f", path, "stats").stdout.split("\n\n")[-1]
    assert german.splitlines()[0].split() == ["Spieler", "Gerufen", "Rufe", "Gewonnen"]
    assert german.splitlines()[2].split() == ["Ann", "Eichel-Sau", "2", "1"]


def test_stats_shows_no_calls_where_none_were_noted(run: Run) -> None:
    shown = run("-f", SAMPLES / "standard-friday.csv", "stats").stdout
    assert "Called" not in shown


def test_play_asks_for_the_call_where_the_partner_is_called(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "verein.csv"
    assert run("-f", path, "new", "--rules", "bavarian", "--players", FOUR).exit_code == 0
    # Sepp plays a Sauspiel with Vroni, calling the Gras-Sau ("herz" is asked again)
    answers = ["Sepp", "", "Vroni", "herz", "leaves", "70", "", "0", "0", "0", "", ""]
    result = run("--lang", "de", "-f", path, "play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.stderr
    assert "Welche Sau gerufen? (eichel, gras, schellen; Enter, wenn nicht notiert)" in (
        result.stdout
    )
    assert "such eins aus: eichel, gras, schellen" in result.stderr
    hands = json.loads(run("-f", path, "sheet", "--format", "json").stdout)["hands"]
    assert [h["called"] for h in hands] == ["gras"]


def test_play_does_not_ask_where_nothing_is_called(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "four.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee").exit_code == 0
    result = run("-f", path, "play", input="Ann\n70\n\n\n\n\n")  # four-handed: alone
    assert result.exit_code == 0, result.stderr
    assert "Called" not in result.stdout and "Hand 1: Ann picked alone" in result.stdout


def test_the_board_offers_the_call_and_records_it(run: Run, tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from starlette.testclient import TestClient

    from scorepad.web.app import Board, create_app

    five, four = tmp_path / "five.csv", tmp_path / "four.csv"
    assert run("-f", five, "new", "--players", FIVE).exit_code == 0
    assert run("-f", four, "new", "--players", "Ann,Bob,Cy,Dee").exit_code == 0
    auth = {"authorization": "Bearer t0ken-for-the-table"}
    board = Board(five, allow_entry=True, token="t0ken-for-the-table", poll=0.05)
    with TestClient(create_app(board), base_url="http://localhost") as client:
        entry = client.get("/api/state").json()["entry"]
        assert "called" in entry["inputs"] and entry["calls"] == list(SHEEPSHEAD_CALLS)
        hand = {"picker": "Ann", "partners": ["Bob"], "points": 70}
        refused = client.post("/api/hands", json={**hand, "called": "eichel"}, headers=auth)
        assert refused.status_code == 422 and "called eichel" in refused.json()["error"]
        made = client.post("/api/hands", json={**hand, "called": "hearts"}, headers=auth)
        assert made.status_code == 201, made.text
        assert made.json()["called"] == "hearts"
        assert made.json()["played"] == "Ann + Bob 70, called the ace of hearts"
        recent = client.get("/api/state").json()["recent"]
        assert recent[0]["called"] == "hearts"
    with TestClient(create_app(Board(four)), base_url="http://localhost") as client:
        entry = client.get("/api/state").json()["entry"]
        assert "called" not in entry["inputs"] and entry["calls"] == []


_TEXT = st.one_of(
    st.sampled_from([*SHEEPSHEAD_CALLS, *SCHAFKOPF_CALLS, "acorns", "LEAVES", "Bells", "herz"]),
    st.text(max_size=12),
)


@given(_TEXT, st.booleans())
def test_a_call_is_refused_or_kept_as_one_of_the_tables_words(text: str, schafkopf: bool) -> None:
    rules = load_rules("bavarian" if schafkopf else "standard")
    players = ("A", "B", "C", "D") if schafkopf else ("A", "B", "C", "D", "E")
    hand = spelled(rules, PickerHand(players, "A", 70, partners=("B",), called=text))
    try:
        check_called(rules, hand, seat(rules, players, None))
    except HandError as exc:  # (named as the interface names the input: --called here)
        assert str(exc).startswith("--called ")
    else:  # (`none`: nothing noted)
        calls = SCHAFKOPF_CALLS if schafkopf else SHEEPSHEAD_CALLS
        assert hand.called in calls or (hand.called is None and text.strip().lower() == "none")
