"""The checkpoint beside a session file: a report starts from it only when it fits the file, and
what it prints is what a pass over the whole file prints, after every kind of change."""

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _types import Night
from conftest import FIVE

import scorepad.session
from scorepad import __version__
from scorepad.ledger import STATE, WIRING, saved
from scorepad.ledger.night import Night as NightState
from scorepad.rules import load_rules
from scorepad.store import checkpoint
from scorepad.store.scan import find_corrections

REPORTS = (
    ("standings",),
    ("standings", "--format", "json"),
    ("settle",),
    ("stats", "--format", "json"),
    ("status",),
    ("verify", "-v"),
    ("verify", "--fast", "-v"),
)


@pytest.fixture
def starts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Checkpoints on files of any size; the byte each pass began at, one a pass."""
    monkeypatch.setattr(checkpoint, "MIN_SIZE", 0)
    began: list[int] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        began.append(args[3] if len(args) > 3 else kwargs.get("start", 0))
        return find_corrections(*args, **kwargs)

    monkeypatch.setattr("scorepad.reading.find_corrections", spy)
    yield began


def _outputs(night: Night) -> list[tuple[int, str]]:
    out = []
    for args in REPORTS:
        result = night(*args)
        out.append((result.exit_code, result.stdout + result.stderr))
    return out


def _fresh(night: Night) -> list[tuple[int, str]]:
    """The reports as a pass over the whole file gives them (the sidecar moved aside, then
    put back)."""
    side = checkpoint.sidecar(night.path)
    kept = side.read_bytes() if side.exists() else None
    side.unlink(missing_ok=True)
    try:
        monkey = pytest.MonkeyPatch()
        monkey.setattr(checkpoint, "MIN_SIZE", 1 << 62)  # (and leave none)
        try:
            return _outputs(night)
        finally:
            monkey.undo()
    finally:
        side.unlink(missing_ok=True)
        if kept is not None:
            side.write_bytes(kept)


def _start(night: Night, *hands: str) -> None:
    assert night("new", "--players", FIVE).exit_code == 0
    for hand in hands or HANDS:
        result = night("hand", *hand.split())
        assert result.exit_code == 0, result.output


HANDS = (
    "--picker Ann --partner Bob --points 64 --tricks 4",
    "--picker Cy --alone --points 95 --tricks 5",
    "--leaster --winner Dee",
    "--picker Ed --partner Ann --points 60 --crack Cy",
    "--picker Bob --partner Dee --points 31 --tricks 2",
)


def _checkpointed(night: Night, starts: list[int]) -> None:
    assert night("standings").exit_code == 0
    assert checkpoint.sidecar(night.path).exists()
    starts.clear()


CHANGES: dict[str, list[tuple[str, ...]]] = {
    "a hand": [("hand", "--picker", "Dee", "--partner", "Cy", "--points", "70", "--tricks", "4")],
    "two hands": [
        ("hand", "--picker", "Dee", "--partner", "Cy", "--points", "70", "--tricks", "4"),
        ("hand", "--leaster", "--winner", "Ann"),
    ],
    "an amendment of an old hand": [("amend", "1", "--points", "58")],
    "a void of an old hand": [("void", "2", "--reason", "misdeal")],
    "an undo": [("undo",)],
    "an undo then a redo": [("undo",), ("redo",)],
    "a change of the rules": [
        ("set", "double_on_the_bump=true"),
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "40", "--tricks", "3"),
    ],
    "a seat added": [
        ("seat", "add", "Flo"),
        ("hand", "--picker", "Flo", "--partner", "Bob", "--points", "80", "--tricks", "4"),
    ],
    "a seat removed": [
        ("seat", "remove", "Ed"),
        ("hand", "--picker", "Ann", "--alone", "--points", "80", "--tricks", "3"),
    ],
    "a penalty": [("penalty", "Cy", "--points", "2")],
    "a Bock round": [
        ("bock", "--rounds", "1"),
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "64", "--tricks", "4"),
    ],
    "a Bock round taken back": [("bock", "--rounds", "2"), ("undo",)],
    "a tariff fixed after play": [("set", "double_on_the_bump=true", "--from", "2")],
    "a hand the table scores itself": [("hand", "--scores", "Ann=2,Bob=-2,Cy=1,Dee=0,Ed=-1")],
    "a hand the table scores itself, amended": [
        ("hand", "--scores", "Ann=2,Bob=-2,Cy=1,Dee=0,Ed=-1"),
        ("amend", "6", "--scores", "Ann=-2,Bob=2,Cy=-1,Dee=0,Ed=1"),
    ],
    "a tariff fixed after play, undone": [("set", "base=2", "--from", "1"), ("undo",)],
    "a tariff fixed after play, then a hand": [
        ("set", "base=3", "--from", "3"),
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "64", "--tricks", "4"),
    ],
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_every_report_after_a_change_is_as_a_whole_pass_gives_it(
    night: Night, starts: list[int], change: str
) -> None:
    _start(night)
    _checkpointed(night, starts)
    for args in CHANGES[change]:
        result = night(*args)
        assert result.exit_code == 0, result.output
    assert _outputs(night) == _fresh(night)


def test_new_hands_are_read_from_the_checkpoint_on(night: Night, starts: list[int]) -> None:
    _start(night)
    _checkpointed(night, starts)
    size = night.path.stat().st_size
    assert night("hand", "--picker", "Ann", "--partner", "Bob", "--points", "64").exit_code == 0
    assert night("standings").exit_code == 0
    assert starts == [size]  # only the new hand was read
    starts.clear()
    assert night("settle").exit_code == 0  # the checkpoint now covers that hand too
    assert starts == [night.path.stat().st_size]
    starts.clear()
    assert night("verify").exit_code == 0  # verify reads everything
    assert starts == [0]


def test_a_correction_of_a_hand_before_the_checkpoint_reads_the_whole_file(
    night: Night, starts: list[int]
) -> None:
    _start(night)
    _checkpointed(night, starts)
    size = night.path.stat().st_size
    assert night("amend", "2", "--points", "90").exit_code == 0
    starts.clear()
    assert night("standings").exit_code == 0
    assert starts == [size, 0]  # tried from the checkpoint, then from the start


def test_a_hand_edited_row_before_the_checkpoint_is_refused_as_without_one(
    night: Night, starts: list[int]
) -> None:
    _start(night)
    _checkpointed(night, starts)
    lines = night.path.read_bytes().decode("utf-8").split("\r\n")
    cells = lines[4].split(",")  # hand 2: Cy alone, +8 for Cy
    at = cells.index("8")
    cells[at] = "9"
    lines[4] = ",".join(cells)
    night.path.write_bytes("\r\n".join(lines).encode("utf-8"))
    outputs = _outputs(night)
    # (verify says why the checkpoint beside the file was not used: it reads every row anyway)
    note = (
        f"{checkpoint.sidecar(night.path)}: the rows it was made from are not those of the "
        "file; verify read every row\n"
    )
    verify = REPORTS.index(("verify", "-v"))
    assert note in outputs[verify][1]
    outputs[verify] = (outputs[verify][0], outputs[verify][1].replace(note, ""))
    assert outputs == _fresh(night)
    assert outputs[0][0] != 0 and "run `scorepad verify`" in outputs[0][1]
    assert starts[0] == 0


def test_a_file_cut_back_before_the_checkpoint_is_read_whole(
    night: Night, starts: list[int]
) -> None:
    _start(night)
    before = night.path.read_bytes()
    assert night("hand", "--leaster", "--winner", "Ann").exit_code == 0
    _checkpointed(night, starts)
    night.path.write_bytes(before)  # (the last hand gone, as a restored backup would)
    assert _outputs(night) == _fresh(night)
    assert starts[0] == 0


def _sidecar(night: Night) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(checkpoint.sidecar(night.path).read_text(encoding="utf-8"))
    return data


def _forge(night: Night, data: dict[str, Any], reseal: bool = True) -> None:
    """Write a sidecar as a forger who knows its layout would: its own digest made to fit (so
    what is checked is the rest); without `reseal`, as an editor would leave it."""
    if reseal:
        data = {k: v for k, v in data.items() if k != "self"}
        data["self"] = checkpoint._content_digest(data)
    checkpoint.sidecar(night.path).write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(
    "damage",
    [
        "truncated",
        "not json",
        "another version",
        "another format",
        "another digest",
        "totals changed",
        "a state field missing",
        "a state field more",
        "a count of the wrong type",
        "lines off by one",
        "offset past the end",
    ],
)
def test_a_sidecar_that_does_not_fit_means_a_whole_pass(
    night: Night, starts: list[int], damage: str
) -> None:
    _start(night)
    _checkpointed(night, starts)
    assert night("hand", "--leaster", "--winner", "Ann").exit_code == 0
    side = checkpoint.sidecar(night.path)
    data = _sidecar(night)
    state = data["state"]["night"]
    if damage == "truncated":
        side.write_bytes(side.read_bytes()[:100])
    elif damage == "not json":
        side.write_bytes(b"\x00\xff garbage")
    else:
        if damage == "another version":
            data["scorepad"] = __version__ + ".1"
        elif damage == "another format":
            data["format"] += 1
        elif damage == "another digest":
            data["digest"] = "0" * 64
        elif damage == "totals changed":
            state["totals"][0][1] += 5
            state["totals"][1][1] -= 5
        elif damage == "a state field missing":
            del state["hands"]
        elif damage == "a state field more":
            state["pot"] = 3
        elif damage == "a count of the wrong type":
            state["hands"] = "5"
        elif damage == "lines off by one":  # (as an editor would: its own digest then fails;
            # the count of lines is what the rows it covers hold, which their digest vouches for)
            data["lines"] += 1
        elif damage == "offset past the end":
            data["offset"] = night.path.stat().st_size + 10
        _forge(night, data, reseal=damage != "lines off by one")
    outputs = _outputs(night)
    assert outputs == _fresh(night)
    assert 0 in starts[:2]  # the first report read the whole file


def test_the_sidecar_of_another_night_is_not_taken(night: Night, starts: list[int]) -> None:
    _start(night)
    _checkpointed(night, starts)
    other = night.path.with_name("other.csv")
    other.write_bytes(night.path.read_bytes())
    night("hand", "--leaster", "--winner", "Ann")
    checkpoint.sidecar(night.path).replace(checkpoint.sidecar(other))
    assert night("standings").exit_code == 0
    assert night.path.stat().st_size not in starts  # (its own is made anew)
    assert starts[0] == 0


def test_a_folder_that_takes_no_sidecar_is_no_error(
    night: Night, starts: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    _start(night)

    opened = os.open

    def refuse(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path).endswith(".tmp"):  # (a temp file beside the session: the folder says no)
            raise OSError(13, "Permission denied")
        return opened(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    result = night("standings")
    assert result.exit_code == 0 and "Ann" in result.stdout
    assert not checkpoint.sidecar(night.path).exists()


@pytest.mark.skipif(not hasattr(os, "fchmod"), reason="a file's mode is not kept here")
@pytest.mark.parametrize("mode", [0o644, 0o640, 0o600, 0o664])
def test_the_sidecar_is_readable_by_whoever_may_read_the_session(
    night: Night, starts: list[int], mode: int
) -> None:
    _start(night)
    night.path.chmod(mode)
    assert night("standings").exit_code == 0
    assert checkpoint.sidecar(night.path).stat().st_mode & 0o777 == mode


def test_a_small_file_has_no_sidecar(night: Night) -> None:
    _start(night)
    assert night("standings").exit_code == 0
    assert not checkpoint.sidecar(night.path).exists()


def test_the_checkpoint_carries_every_attribute_of_the_nights_state() -> None:
    """`Night` gains an attribute (the state of a new rule, say): it is the night's state, to be
    saved (`saved.STATE`), or named as not (`saved.WIRING`). Fails until it is one or other."""
    rules = load_rules("standard")
    night = NightState(rules, ("Ann", "Bob", "Cy", "Dee", "Ed"), "Ed")
    assert set(vars(night)) == set(STATE) | set(WIRING)
    assert not set(STATE) & set(WIRING)
    data = saved(night)
    assert data is not None and set(data) == set(STATE)


def test_the_state_saved_and_restored_is_the_same(night: Night, starts: list[int]) -> None:
    _start(night)
    night("set", "double_on_the_bump=true")
    night("hand", "--picker", "Ann", "--partner", "Bob", "--points", "40", "--tricks", "3")
    night("void", "1")
    _checkpointed(night, starts)
    first = _sidecar(night)
    size = night.path.stat().st_size
    starts.clear()
    with scorepad.session.Session(night.path).reading() as reading:
        from scorepad.reports import PlayerCounts

        counts = PlayerCounts(reading.head.players)
        ledger = reading.night(counts=counts)
    assert starts == [size]  # (begun at the checkpoint, with nothing after it)
    assert saved(ledger) == first["state"]["night"]
    assert counts.saved() == first["state"]["counts"]


def test_a_torn_line_after_the_checkpoint_is_reported_as_without_one(
    night: Night, starts: list[int]
) -> None:
    _start(night)
    _checkpointed(night, starts)
    with open(night.path, "ab") as file:
        file.write(b"6,picker,,1,-1")  # (a write cut short)
    outputs = _outputs(night)
    assert outputs == _fresh(night)
    assert outputs[0][0] != 0 and "scorepad repair" in outputs[0][1]


def test_a_bock_round_owed_at_the_checkpoint_goes_on_after_it(
    night: Night, starts: list[int]
) -> None:
    _start(night)
    assert night("bock", "--rounds", "2").exit_code == 0
    assert night("hand", "--leaster", "--winner", "Ann").exit_code == 0
    _checkpointed(night, starts)
    assert _sidecar(night)["state"]["night"]["bock"]  # (Bock hands owed there)
    size = night.path.stat().st_size
    for hand in HANDS[:3]:
        assert night("hand", *hand.split()).exit_code == 0
    assert night("undo").exit_code == 0  # (an undo reads the whole file itself)
    starts.clear()
    outputs = _outputs(night)
    assert starts[0] == size  # (begun at the checkpoint)
    assert outputs == _fresh(night)


def test_the_pot_held_at_the_checkpoint_is_played_for_after_it(
    night: Night, starts: list[int]
) -> None:
    _start(night)
    assert night("set", "all_pass=pot").exit_code == 0
    assert night("hand", "--pot").exit_code == 0
    assert night("hand", "--picker", "Ann", "--partner", "Bob", "--points", "40").exit_code == 0
    assert night("hand", "--pot").exit_code == 0
    _checkpointed(night, starts)
    state = _sidecar(night)["state"]["night"]
    assert state["pot"] == 15 and state["pot_rows"] == [6, 8] and state["pot_hands"] == [7]
    size = night.path.stat().st_size
    for hand in HANDS[:2]:  # (the first plays for the pot: a win takes it)
        assert night("hand", *hand.split()).exit_code == 0
    starts.clear()
    outputs = _outputs(night)
    assert starts[0] == size  # (begun at the checkpoint)
    assert outputs == _fresh(night)


# -- a checkpoint that cannot lie (issue 38) ------------------------------------------------------

WHOLE_FILE = (("standings",), ("stats", "--format", "json"), ("settle",), ("status",))


def _reports(night: Night) -> list[tuple[int, str]]:
    return [(r.exit_code, r.stdout + r.stderr) for r in (night(*a) for a in WHOLE_FILE)]


def _a_long_night(night: Night) -> None:
    _start(night)
    for k in range(6):
        hand = ("hand", "--picker", FIVE.split(",")[k % 5], "--alone", "--points", 70 + k)
        assert night(*hand).exit_code == 0


def test_one_changed_digit_anywhere_in_the_sidecar_gives_the_whole_passs_numbers(
    night: Night, starts: list[int]
) -> None:
    """Every digit of the sidecar changed in turn (its counts, its state, its digests, its
    offset): no report takes it up, each prints what a pass over the whole file prints, and the
    next checkpoint is a good one again."""
    _a_long_night(night)
    _checkpointed(night, starts)
    side = checkpoint.sidecar(night.path)
    good = side.read_bytes()
    digits = [at for at, byte in enumerate(good) if chr(byte).isdigit()]
    assert len(digits) > 100
    whole = None
    for at in digits[:: max(1, len(digits) // 60)]:
        other = b"1" if good[at : at + 1] != b"1" else b"2"
        side.write_bytes(good[:at] + other + good[at + 1 :])
        starts.clear()
        outputs = _reports(night)
        if whole is None:
            whole = _fresh_reports(night)
        assert outputs == whole, (at, good[max(0, at - 30) : at + 30])
        assert starts[0] == 0, at  # (the first report read every row)
        assert side.read_bytes() == good  # (and left a good checkpoint again)


def _fresh_reports(night: Night) -> list[tuple[int, str]]:
    side = checkpoint.sidecar(night.path)
    kept = side.read_bytes()
    side.unlink()
    try:
        return _reports(night)
    finally:
        side.write_bytes(kept)


def test_verify_says_where_a_sidecar_made_to_fit_holds_another_state_and_writes_a_good_one(
    night: Night, starts: list[int]
) -> None:
    """A sidecar forged whole (its own digest made to fit) with another count: verify never
    takes it up, says so, and writes a good one, after which the reports are right again."""
    _a_long_night(night)
    _checkpointed(night, starts)
    whole = _fresh_reports(night)
    data = _sidecar(night)
    ann = data["state"]["counts"]["Ann"]
    ann["picks"] += 1
    _forge(night, data)
    result = night("verify")
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr == (
        f"{checkpoint.sidecar(night.path)}: it held another state of the night than the rows "
        "it covers give; verify read every row, and wrote it anew\n"
    )
    assert _reports(night) == whole
    assert night("verify").stderr == ""  # (the one written is good)


@pytest.mark.parametrize("kind", ["fifo", "folder", "link"])
def test_a_sidecar_that_is_no_regular_file_is_never_opened(
    night: Night, starts: list[int], kind: str, tmp_path: Path
) -> None:
    """A FIFO, a folder or a link where the sidecar would be: no report hangs or takes it up,
    and each prints what a pass over the whole file prints."""
    if kind == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    _a_long_night(night)
    whole = _reports(night)
    side = checkpoint.sidecar(night.path)
    side.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(side)
    elif kind == "folder":
        side.mkdir()
    else:  # (a link to a good sidecar of a copy of the file: still not opened)
        copy = tmp_path / "copy.csv"
        copy.write_bytes(night.path.read_bytes())
        assert night("-f", copy, "standings").exit_code == 0
        side.symlink_to(checkpoint.sidecar(copy))
    command = [sys.executable, "-m", "scorepad", "-f", str(night.path)]
    for args in WHOLE_FILE:  # (in a process of its own: a report that hung would time out)
        done = subprocess.run(
            [*command, *args], capture_output=True, text=True, timeout=60, env=_ENGLISH
        )
        assert (done.returncode, done.stdout + done.stderr) == whole[WHOLE_FILE.index(args)]
    verify = subprocess.run(
        [*command, "verify"], capture_output=True, text=True, timeout=60, env=_ENGLISH
    )
    assert verify.returncode == 0 and verify.stdout == ""


_ENGLISH = {**os.environ, "LANG": "C", "LC_ALL": "C", "LANGUAGE": "", "SCOREPAD_LANG": "en"}
