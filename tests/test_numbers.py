"""Numbers are written in the ASCII digits 0-9 (a sign, and a `.` in an amount) wherever they
enter: an option, a `NAME=N` list, a `--set`, a `play` answer, a cell of the session file.
Python's `int`, `float` and `Decimal` also take `7_0`, `0_25` and other scripts' digits (`٧٠`):
each is refused here with a clear error, and nothing is written. Doublings are bounded."""

import csv
from pathlib import Path

import pytest
from _types import CheckJson, Run
from conftest import FIVE

from scorepad.rules import MAX_DOUBLED

ANN_BOB = ("--players", FIVE, "--picker", "Ann", "--partner", "Bob")
SPELLINGS = [
    ("underscore", "7_0"),
    ("Arabic-Indic", "٧٠"),
    ("Extended Arabic-Indic", "۷۰"),
    ("Devanagari", "७०"),
    ("fullwidth", "７０"),
    ("superscript", "⁷⁰"),
    ("inner space", "7 0"),
    ("exponent", "7e1"),
    ("decimal point", "70.0"),
]
IDS = [s[0] for s in SPELLINGS]
# What an option says of such a number: scorepad's words for what Python reads as one, and
# click's own for the rest (a superscript, a space, an exponent, a point in a whole number).
NOT_A_NUMBER = (
    "is not a whole number (the digits 0-9 and a sign, nothing else)",
    "is not a number (the digits 0-9, a point and a sign, nothing else)",
    "is not a valid integer",
    "is not a valid float",
)


@pytest.fixture
def session(run: Run, tmp_path: Path) -> Path:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", FIVE).exit_code == 0
    for _ in range(3):
        result = run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "70")
        assert result.exit_code == 0, result.stderr
    return path


def _refused(run: Run, path: Path, *args: str, code: int = 2) -> str:
    """Run a command that must be refused; the file is as it was. Returns stderr."""
    before = path.read_bytes()
    result = run("-f", path, *args)
    assert result.exit_code == code, (args, result.stdout, result.stderr)
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: ")
    assert path.read_bytes() == before
    return line


@pytest.mark.parametrize(("what", "text"), SPELLINGS, ids=IDS)
@pytest.mark.parametrize(
    "args",
    [
        ("check", *ANN_BOB, "--points", "{}"),
        ("check", *ANN_BOB, "--points", "70", "--tricks", "{}"),
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "{}"),
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "70", "--tricks", "{}"),
        ("amend", "1", "--points", "{}"),
        ("amend", "{}", "--points", "80"),
        ("void", "{}"),
        ("penalty", "Ed", "--points", "{}"),
        ("chart", "--width", "{}"),
        ("--wait", "{}", "status"),
    ],
    ids=lambda a: " ".join(a[:1] + a[-2:-1]),
)
def test_a_whole_number_in_an_option_is_ascii_digits_only(
    run: Run, session: Path, args: tuple[str, ...], what: str, text: str
) -> None:
    args = tuple(a.replace("{}", text) for a in args)
    if args[0] == "--wait" and what == "decimal point":  # (seconds may have a fraction)
        assert run("-f", session, *args).exit_code == 0
        return
    line = _refused(run, session, *args)
    assert any(says in line for says in NOT_A_NUMBER), line
    if what in ("underscore", "Arabic-Indic", "fullwidth"):  # (numbers to Python's int)
        assert f"{text!r} is not a" in line and "the digits 0-9" in line, line


@pytest.mark.parametrize(("what", "text"), SPELLINGS[:6], ids=IDS[:6])
@pytest.mark.parametrize("option", ["--blitz", "--runs", "--knocks", "--stoss", "--blind-points"])
def test_every_hand_option_takes_ascii_digits_only(
    run: Run, session: Path, option: str, what: str, text: str
) -> None:
    line = _refused(run, session, "check", *ANN_BOB, "--points", "70", option, text)
    assert f"Invalid value for '{option}'" in line
    assert any(says in line for says in NOT_A_NUMBER), line


@pytest.mark.parametrize(("what", "text"), SPELLINGS[:6], ids=IDS[:6])
def test_a_name_n_list_takes_ascii_digits_only(
    run: Run, session: Path, what: str, text: str
) -> None:
    line = _refused(
        run, session, "check", "--players", FIVE, "--leaster",
        "--leaster-points", f"Ann={text},Bob=20,Cy=20,Dee=20,Ed={text}",
    )  # fmt: skip
    assert "write NAME=N" in line


@pytest.mark.parametrize(("what", "text"), SPELLINGS[:6], ids=IDS[:6])
def test_a_setting_takes_ascii_digits_only(run: Run, session: Path, what: str, text: str) -> None:
    for setting in (f"base={text}", f"level_multipliers=1,{text},3"):
        line = _refused(run, session, "check", "--set", setting, *ANN_BOB, "--points", "70", code=1)
        assert "is not valid" in line


@pytest.mark.parametrize(
    "rate", ["0_25", "٠.٢٥", "0.2_5", "1e-2", "Infinity", "NaN", "0x10", "0.25.1", ".", "١"]
)
def test_a_rate_is_ascii_digits_and_one_point(run: Run, session: Path, rate: str) -> None:
    line = _refused(run, session, "settle", "--rate", rate, code=1)
    assert line == f"Error: --rate {rate}: not an amount; write e.g. 0.25"


@pytest.mark.parametrize(("rate", "shown"), [("0.25", "$0.25"), (".5", "$0.50"), ("2", "$2")])
def test_a_rate_as_people_write_it_still_settles(
    run: Run, session: Path, rate: str, shown: str
) -> None:
    result = run("-f", session, "settle", "--rate", rate)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"Settlement at {shown}")


def test_a_number_with_spaces_around_it_or_a_sign_is_still_a_number(
    run: Run, session: Path
) -> None:
    for points in (" 70", "70 ", "+70"):
        result = run("check", *ANN_BOB, "--points", points)
        assert result.exit_code == 0 and "Ann       picker          +2" in result.stdout


def test_play_asks_again_for_points_not_in_ascii_digits(run: Run, session: Path) -> None:
    answers = ["Ann", "Bob", "", "7_0", "٧٠", "70", "", "", "y", ""]
    result = run("-f", session, "play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.stderr
    assert (result.stdout + result.stderr).count("give a whole number from 0 to 120") == 2
    assert "Hand 4: Ann picked, partner Bob, 70 points" in result.stdout


# --- cells of the session file -------------------------------------------------------------------


def _cells(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def _edit(path: Path, line: int, column: str, text: str) -> None:
    rows = _cells(path)
    rows[line - 1][rows[0].index(column)] = text
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)


_SCRIPTS = {
    "Arabic-Indic": "٠١٢٣٤٥٦٧٨٩",
    "Devanagari": "०१२३४५६७८९",
    "fullwidth": "０１２３４５６７８９",
    "superscript": "⁰¹²³⁴⁵⁶⁷⁸⁹",
}


def _spelled(number: str, how: str) -> str:
    """A whole number as `how` writes it (each a spelling that Python's `int` takes but
    the superscript, the space and the point)."""
    if how in _SCRIPTS:
        return number.translate(str.maketrans("0123456789", _SCRIPTS[how]))
    digits = number if len(number) > 1 else "0" + number
    return {
        "underscore": f"{digits[0]}_{digits[1:]}",
        "inner space": f"{digits[0]} {digits[1:]}",
        "decimal point": f"{number}.0",
    }[how]


CELL_SPELLINGS = ["underscore", *_SCRIPTS, "inner space", "decimal point"]


@pytest.mark.parametrize("how", CELL_SPELLINGS)
@pytest.mark.parametrize(
    ("line", "column", "what"),
    [
        (5, "points", "points"),  # an input of hand 2 (the first hand of its kind)
        (9, "points", "points"),  # hand 6 repeats hand 1's inputs (the fast path)
        (5, "Ann", "Ann's points"),  # a player's points
        (5, "hand", "hand"),  # the hand number
        (5, "pending", "pending"),  # a state cell
        (5, "doubled", "doubled"),
    ],
    ids=["points", "points-of-a-repeated-hand", "player", "hand", "pending", "doubled"],
)
def test_a_number_in_a_cell_is_ascii_digits_only(
    run: Run, tmp_path: Path, line: int, column: str, what: str, how: str
) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", FIVE).exit_code == 0
    for _ in range(6):
        result = run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "70")
        assert result.exit_code == 0, result.stderr
    _edit(path, line, column, _spelled(_cells(path)[line - 1][_cells(path)[0].index(column)], how))
    verify = run("-f", path, "verify")
    assert verify.exit_code == 1
    first = verify.stdout.splitlines()[0]
    assert first.startswith(f"{path}:{line}: {what}: ") and "is not a whole number" in first
    for command in ("standings", "sheet"):
        result = run("-f", path, command)
        assert result.exit_code == 1 and result.stdout == ""


@pytest.mark.parametrize("text", ["٥", "5_0", "５"])
def test_the_format_version_is_ascii_digits_only(run: Run, session: Path, text: str) -> None:
    _edit(session, 2, "format", text)
    result = run("-f", session, "verify")
    assert result.exit_code == 1
    assert result.stdout == f"{session}:2: format: {text!r} is not a format version\n"


def test_a_correction_naming_its_hand_in_other_digits_is_reported(run: Run, session: Path) -> None:
    assert run("-f", session, "void", "2").exit_code == 0
    _edit(session, 7, "ref", "٢")
    result = run("-f", session, "verify")
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{session}:7: ref: '٢' is not a whole number")


# --- doublings ----------------------------------------------------------------------------------


def test_a_hand_is_doubled_by_thirty_doublers_at_most(run: Run, check_json: CheckJson) -> None:
    assert MAX_DOUBLED == 30
    most = check_json(*ANN_BOB, "--points", "70", *["--doubled"] * MAX_DOUBLED)
    assert most["deltas"]["Ann"] == 2 * 2**MAX_DOUBLED
    for times in (MAX_DOUBLED + 1, 14_300):
        result = run("check", *ANN_BOB, "--points", "70", *["--doubled"] * times)
        assert result.exit_code == 1 and result.stdout == ""
        assert result.stderr == (
            f"Error: --doubled: a hand is doubled by 30 doublers at most ({times} given)\n"
        )


def test_a_doubled_cell_past_any_bound_is_reported_not_a_traceback(run: Run, session: Path) -> None:
    _edit(session, 5, "doubled", "14300")
    result = run("-f", session, "verify")
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{session}:5: doubled: recorded 14300")


def test_doublers_multiplying_stop_at_the_bound(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "doublers.csv"
    new = ("new", "--players", FIVE, "--set", "all_pass=doubler")
    assert run("-f", path, *new, "--set", "doubler_stacking=multiply").exit_code == 0
    for _ in range(MAX_DOUBLED):
        assert run("-f", path, "hand", "--doubler").exit_code == 0
    line = _refused(run, path, "hand", "--doubler", code=1)
    assert line == (
        "Error: --doubler: 30 doublers are pending, and a hand is doubled by 30 at most "
        "(doubler_stacking = multiply): score a hand first"
    )
    result = run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "70")
    assert result.exit_code == 0, result.stderr
    assert f"stake {2**MAX_DOUBLED}" in result.stdout.splitlines()[0]
    assert run("-f", path, "verify").stdout == ""
