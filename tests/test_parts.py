"""A large file read in two processes (scorepad/parts.py): what every report prints, and the
state and counts a pass leaves, are what one pass gives, wherever the file is cut; and a cut
whose second part began from another state, or that found a problem, is read in one pass."""

import csv
import io
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_session_properties import OPERATIONS as NIGHT_OPERATIONS
from test_session_properties import PLAYERS, invoke, operation_args

import scorepad.session
from scorepad import parts
from scorepad.cli import cli
from scorepad.ledger import STATE, saved
from scorepad.ledger.saved import ADDED, AFTER, FIRST, JOINED, SAME
from scorepad.reports import PlayerCounts, RunningSeries
from scorepad.session import Session
from scorepad.store.files import WINDOWS_LOCKS

ROOT = Path(__file__).parent.parent
SAMPLES = sorted((ROOT / "sample_sessions").rglob("*.csv"))
REPORTS = (
    ("standings",),
    ("standings", "--format", "json"),
    ("settle",),
    ("stats", "--format", "json"),
    ("verify", "-v"),
    ("sheet", "--format", "csv"),
    ("sheet", "--format", "json"),
    ("sheet",),
    ("chart", "--width", "100", "--height", "25"),
)


class InProcess:
    """`parts.Forked`, its work done here and now (the tests cut a file at every line), and
    what it made sent as the second process sends it (`parts.pack`)."""

    def __init__(self, work: Callable[[], Any]):
        sent = io.BytesIO()
        try:
            parts.pack(work(), sent)
            self.value: tuple[bool, Any] = (True, pickle.loads(sent.getvalue()))
        except Exception:
            self.value = (False, None)

    def result(self) -> tuple[bool, Any]:
        return self.value

    def cancel(self) -> None:
        pass


class Cuts:
    """Where a pass cuts the file (`at`: a byte, None: half way) and what became of each cut."""

    def __init__(self) -> None:
        self.at: int | None = None
        self.joined = 0  # the two parts joined
        self.alone = 0  # cut, but read on in one process


@pytest.fixture
def cuts(monkeypatch: pytest.MonkeyPatch) -> Iterator[Cuts]:
    """Every file is read in two parts, the second in this process (`InProcess`), cut at
    `cuts.at` (half way while None)."""
    found = Cuts()
    monkeypatch.setattr(parts, "TWO_PROCESSES_FROM", 0)
    monkeypatch.setattr(parts, "available", lambda: True)
    monkeypatch.setattr(parts, "Forked", InProcess)
    monkeypatch.setattr(
        scorepad.session, "_middle", lambda size: size // 2 if found.at is None else found.at
    )
    join = scorepad.session.Reading._join

    def counted(self: Any, *args: Any) -> bool:
        done = join(self, *args)
        if done:
            found.joined += 1
        else:
            found.alone += 1
        return done

    monkeypatch.setattr(scorepad.session.Reading, "_join", counted)
    yield found


def generated(path: Path, hands: int) -> None:
    """A night as the bench writes one (`bench/generate.py`: every kind of hand, corrections)."""
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "generate.py"), str(hands), str(path)],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def line_starts(path: Path) -> list[int]:
    """The byte each line after the head begins at, and the end."""
    data = path.read_bytes()
    starts, at = [], 0
    for line in data.splitlines(keepends=True):
        at += len(line)
        starts.append(at)
    return starts[2:]


def outputs(path: Path, reports: tuple[tuple[str, ...], ...] = REPORTS) -> list[tuple[int, str]]:
    found = []
    for args in reports:
        result = CliRunner().invoke(cli, ["-f", str(path), *args], prog_name="scorepad")
        found.append((result.exit_code, result.stdout + result.stderr))
    return found


def one_pass(path: Path, reports: tuple[tuple[str, ...], ...] = REPORTS) -> list[tuple[int, str]]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(parts.PROCESSES, "1")
        patch.setattr(parts, "available", lambda: False)
        return outputs(path, reports)


def state_of(path: Path, stop: bool) -> tuple[Any, ...]:
    """What a pass leaves: its state (as the checkpoint keeps it), counts and problems."""
    counts = PlayerCounts(Session(path).head().players) if stop else None
    with Session(path).reading() as reading:
        ledger, problems = reading.check(
            stop_at_first=stop, counts=counts, split=parts.Split(), resume=False
        )
    return (
        saved(ledger),
        None if counts is None else counts.finish(),
        problems,
        ledger.summary(),
        dict(ledger.totals),
    )


def test_every_field_of_the_state_joins_one_way() -> None:
    ways = (*AFTER, *ADDED, *JOINED, *FIRST, *SAME)
    assert sorted(ways) == sorted(STATE)


def test_the_bench_night_cut_anywhere_reads_as_one_pass(tmp_path: Path, cuts: Cuts) -> None:
    path = tmp_path / "night.csv"
    generated(path, 400)
    whole = one_pass(path)
    states = [state_of(path, stop) for stop in (True, False)]
    starts = line_starts(path)
    for at in starts[:: max(1, len(starts) // 12)]:
        cuts.at = at
        assert outputs(path) == whole, at
        assert [state_of(path, stop) for stop in (True, False)] == states, at
    # (the parts joined: a line whose row above is no plain hand, or that a correction below
    # reaches across, is no cut, and the next line is tried)
    assert cuts.joined >= 8 and cuts.alone == 0


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_every_sample_session_cut_at_every_line_reads_as_one_pass(
    sample: Path, tmp_path: Path, cuts: Cuts
) -> None:
    path = tmp_path / sample.name
    shutil.copy(sample, path)
    reports = (("standings", "--format", "json"), ("verify", "-v"), ("sheet", "--format", "json"))
    whole = one_pass(path, reports)
    states = [state_of(path, stop) for stop in (True, False)]
    for at in line_starts(path):
        cuts.at = at
        assert outputs(path, reports) == whole, at
        assert [state_of(path, stop) for stop in (True, False)] == states, at


@pytest.mark.parametrize("every", [50, 100_000])
def test_a_long_night_s_chart_cut_anywhere_draws_what_one_pass_draws(
    tmp_path: Path, cuts: Cuts, monkeypatch: pytest.MonkeyPatch, every: int
) -> None:
    """The chart keeps runs of hands of a long night (more than `RunningSeries.EVERY`): the run
    the cut falls in goes on into the second part's hands (here a night of 300 is long)."""
    monkeypatch.setattr(RunningSeries, "EVERY", every)
    path = tmp_path / "night.csv"
    generated(path, 300)
    drawn = tmp_path / "chart.svg"
    reports = (
        ("chart", "--width", "60", "--height", "20"),
        ("chart", "--width", "300", "--height", "20"),
        ("chart", "--output", str(drawn)),
    )

    def charts() -> list[Any]:
        return [*outputs(path, reports), drawn.read_bytes()]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parts, "available", lambda: False)
        whole = charts()
    for at in line_starts(path)[::3]:
        cuts.at = at
        assert charts() == whole, at
    assert cuts.joined > 20


def _cut_everywhere(path: Path, cuts: Cuts) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parts, "available", lambda: False)
        states = [state_of(path, stop) for stop in (True, False)]
    for at in line_starts(path):
        cuts.at = at
        assert [state_of(path, stop) for stop in (True, False)] == states, at


# (the generated nights' operations, and rows of every other kind a cut must join across)
OPERATIONS = st.one_of(
    NIGHT_OPERATIONS,
    st.tuples(st.just("pot")),
    st.tuples(st.just("penalty"), st.sampled_from(PLAYERS), st.integers(1, 3)),
    st.tuples(st.just("bock"), st.integers(1, 2)),
    st.tuples(st.just("set"), st.sampled_from(["pot_ante=2", "base=2", "cracks=false"])),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["pot", "doubler"]),
    st.sampled_from(["queue", "multiply"]),
    st.lists(OPERATIONS, min_size=2, max_size=16),
)
def test_any_night_cut_at_any_line_leaves_what_one_pass_leaves(
    all_pass: str, stacking: str, operations: list[tuple[Any, ...]]
) -> None:
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        path = Path(folder) / "night.csv"
        args = ["new", "--players", ",".join(PLAYERS), "--set", f"all_pass={all_pass}"]
        args += ["--set", f"doubler_stacking={stacking}", "--set", "bock_after=sixty-sixty"]
        assert invoke(path, *args).exit_code == 0
        for op in operations:
            invoke(path, *operation_args(op))
        found = Cuts()
        patch.setattr(parts, "TWO_PROCESSES_FROM", 0)
        patch.setattr(parts, "available", lambda: True)
        patch.setattr(parts, "Forked", InProcess)
        patch.setattr(scorepad.session, "_middle", lambda size: found.at or size // 2)
        _cut_everywhere(path, found)
        # (and a file with a problem: a hand's points changed by hand)
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        hands = [k for k, row in enumerate(rows) if row[0].isdigit()]
        if hands:
            row = rows[hands[len(hands) // 2]]
            row[3] = str(int(row[3] or 0) + 1)
            with open(path, "w", encoding="utf-8", newline="") as out:
                csv.writer(out, lineterminator="\n").writerows(rows)
            _cut_everywhere(path, found)


def broken_nights(folder: Path) -> Iterator[tuple[int, Path]]:
    """A bench night with a hand's points changed by hand, in its first part, then its second:
    the line of the change (0-based) and the file."""
    path = folder / "night.csv"
    generated(path, 200)
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    for k in (len(rows) // 4, 3 * len(rows) // 4):
        edited = [list(r) for r in rows]
        if not edited[k][0]:
            k += 1
        edited[k][3] = str(int(edited[k][3] or 0) + 5)  # (Ann's points, not what the hand scores)
        broken = folder / f"broken-{k}.csv"
        with open(broken, "w", encoding="utf-8", newline="") as out:
            csv.writer(out, lineterminator="\n").writerows(edited)
        yield k, broken


def test_a_problem_in_either_part_is_reported_as_one_pass_reports_it(
    tmp_path: Path, cuts: Cuts
) -> None:
    for k, broken in broken_nights(tmp_path):
        whole = one_pass(broken)
        assert whole[0][0] == 1 and f"broken-{k}.csv:{k + 1}:" in whole[0][1]
        cuts.at = None
        assert outputs(broken) == whole


@pytest.mark.skipif(WINDOWS_LOCKS, reason="Windows (and its protocol) reads in one process")
def test_a_large_file_is_read_by_two_processes_and_prints_what_one_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real thing: a second process (forked), its part sent back through a pipe."""
    path = tmp_path / "night.csv"
    generated(path, 3000)
    whole = one_pass(path)
    monkeypatch.setattr(parts, "TWO_PROCESSES_FROM", 0)
    monkeypatch.setattr(parts, "available", lambda: True)
    forks: list[int] = []
    forked = parts.Forked

    class Counted(forked):  # type: ignore[valid-type,misc]
        def __init__(self, work: Callable[[], Any]):
            super().__init__(work)
            forks.append(self.pid)

    monkeypatch.setattr(parts, "Forked", Counted)
    assert outputs(path) == whole
    assert len(forks) == len(REPORTS) and all(pid > 0 for pid in forks)
    sheet = json.loads(whole[REPORTS.index(("sheet", "--format", "json"))][1])
    assert len(sheet["hands"]) == 3000


def test_a_pass_over_a_large_file_asks_for_its_large_buffers_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pass over many bytes (`scan._LARGE_PASS`, made small here) has the allocator give back
    each large buffer as it is freed (`files.release_large_buffers`); a short one does not ask,
    and asking changes nothing a report prints."""
    from scorepad.store import files, scan

    path = tmp_path / "night.csv"
    generated(path, 300)
    whole = one_pass(path)
    asked: list[int] = []
    monkeypatch.setattr(files, "release_large_buffers", lambda: asked.append(1))
    assert outputs(path, REPORTS[:1]) == whole[:1] and not asked
    monkeypatch.setattr(scan, "_LARGE_PASS", path.stat().st_size // 2)
    assert outputs(path, REPORTS[:1]) == whole[:1] and asked
    monkeypatch.undo()
    files.release_large_buffers()  # (the real call, twice: the second does nothing)
    files.release_large_buffers()
    assert outputs(path) == whole


def test_a_night_with_more_kinds_than_are_remembered_prints_what_it_did(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast path remembers the kinds of hand seen most lately (`_KINDS_KEPT`) and lets the
    others go, folding their counts in (`Counts.let_go`) and freeing what the reports made of
    them: with room for a few kinds only, every report prints what it prints with room for all,
    in one process and in two."""
    from scorepad.ledger import check

    path = tmp_path / "night.csv"
    generated(path, 3000)
    whole = one_pass(path)
    let_go: list[object] = []
    let_go_before = PlayerCounts.let_go

    def counted(self: PlayerCounts, base: Any) -> None:
        let_go.append(base)
        let_go_before(self, base)

    monkeypatch.setattr(PlayerCounts, "let_go", counted)
    monkeypatch.setattr(check, "_KINDS_KEPT", 8)
    assert one_pass(path) == whole
    assert len(let_go) > 100  # (kinds were let go, and counted in as they went)
    monkeypatch.setattr(parts, "TWO_PROCESSES_FROM", 0)
    monkeypatch.setattr(parts, "available", lambda: True)
    assert outputs(path) == whole


def test_a_child_that_fails_leaves_the_pass_to_this_process(tmp_path: Path) -> None:
    def broken() -> Any:
        raise ValueError("no")

    if WINDOWS_LOCKS or not hasattr(os, "fork"):
        pytest.skip("no fork here")
    assert parts.Forked(broken).result() == (False, None)
    assert parts.Forked(lambda: {"a": [1, 2]}).result() == (True, {"a": [1, 2]})


def test_a_head_that_ends_a_line_with_a_lone_cr_is_read_in_one_pass(
    tmp_path: Path, cuts: Cuts
) -> None:
    """The first part is read from the head's end, found by its line feeds; the CSV reader
    also ends a line at a lone CR, so a head with one is read in one pass (as the whole file
    always was), not cut."""
    path = tmp_path / "night.csv"
    generated(path, 200)
    data = path.read_bytes()
    path.write_bytes(data.replace(b"\n", b"\r", 1))  # (the header's line end)
    whole = one_pass(path)
    assert outputs(path) == whole  # (what one pass says of it, read or refused)
    assert cuts.joined == 0


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the parent's end is told on Linux"
)
def test_the_second_process_ends_when_the_first_is_killed(tmp_path: Path) -> None:
    """A first process killed outright (no chance to stop its child) takes the second with it:
    no process is left checking its part for nobody."""
    told = tmp_path / "child"
    script = (
        "import os, signal, sys, time\n"
        "from scorepad import parts\n"
        "child = parts.Forked(lambda: time.sleep(30))\n"
        f"open({str(told)!r}, 'w').write(str(child.pid))\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    # (no pipe the child would hold open: the run ends with the first process)
    subprocess.run([sys.executable, "-c", script], stdout=subprocess.DEVNULL, timeout=20)
    child = int(told.read_text())
    state = "?"
    for _wait in range(50):
        status = Path(f"/proc/{child}/status")
        state = status.read_text().split("State:")[1].split()[0] if status.exists() else "gone"
        if state in ("Z", "X", "gone"):
            break
        time.sleep(0.1)
    assert state in ("Z", "X", "gone")


# --- the live board's start (`Reading.follow` from the start of a large file) -------------------


def _board(path: Path, night: Any = None) -> tuple[Any, ...]:
    """What the live board shows of the file (in English and German), and every state it keeps
    with what it shows there (the chart's series, the last hands); and the board's night."""
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from scorepad.reports import hand_record
    from scorepad.web.follow import BoardNight

    night = night or BoardNight()
    states = night.states(Session(path), "night.csv", None, ("en", "de"))
    kept = [
        (
            c.offset,
            c.lines,
            c.state["night"],
            c.state["counts"],
            c.state["extra"][0].finish(c.state["night"]["last_hand"]),
            [hand_record(view) for view in c.state["extra"][1]],
            c.state["sentinel"],
        )
        for c in night.kept
    ]
    return night, states, kept


def _go_on(path: Path) -> None:
    """A hand recorded, and an older hand voided (the board reads on from a state it kept)."""
    for args in (
        ["hand", "--leaster", "--winner", "Ann"],
        ["void", str(Session(path).state().last_hand - 40)],
    ):
        result = CliRunner().invoke(cli, ["-f", str(path), *args], prog_name="scorepad")
        assert result.exit_code == 0, result.output


def test_the_board_s_start_cut_anywhere_holds_what_one_pass_holds(
    tmp_path: Path, cuts: Cuts, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its states at the marks (near the end) below the cut are the second part's, joined to
    the first's: state, counts, the chart's series and the last hands, as one pass keeps them;
    and the board goes on from them alike."""
    follow = pytest.importorskip("scorepad.web.follow", reason="the serve extra is not installed")
    for module in (scorepad.session, follow):  # (marks near the end of a small night)
        monkeypatch.setattr(module, "FOLLOW_MARKS", (24576, 12288, 6144, 3072, 1536))
    path = tmp_path / "night.csv"
    generated(path, 400)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parts, "available", lambda: False)
        alone, *whole = _board(path)
    assert len(whole[1]) == 6, [k[0] for k in whole[1]]  # (five marks and the end)
    starts = line_starts(path)
    for at in starts[:: max(1, len(starts) // 12)]:
        cuts.at = at
        assert _board(path)[1:] == tuple(whole), at
    assert cuts.joined >= 8 and cuts.alone == 0
    cuts.at = None
    night, *started = _board(path)
    assert started == whole
    _go_on(path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parts, "available", lambda: False)
        after = _board(path, alone)[1:]
    assert _board(path, night)[1:] == after
    assert after[0] != whole[0]


@pytest.mark.skipif(WINDOWS_LOCKS, reason="Windows (and its protocol) reads in one process")
def test_the_board_s_start_on_a_large_file_forks_and_shows_what_one_pass_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real thing: the second part's hands (read-only mappings in them) sent back through
    the pipe."""
    path = tmp_path / "night.csv"
    generated(path, 3000)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parts, "available", lambda: False)
        whole = _board(path)[1:]
    monkeypatch.setattr(parts, "TWO_PROCESSES_FROM", 0)
    monkeypatch.setattr(parts, "available", lambda: True)
    forks: list[Any] = []
    forked = parts.Forked

    class Counted(forked):  # type: ignore[valid-type,misc]
        def result(self) -> tuple[bool, Any]:
            done: tuple[bool, Any] = super().result()
            forks.append(done[0])
            return done

    monkeypatch.setattr(parts, "Forked", Counted)
    assert _board(path)[1:] == whole
    assert forks == [True]


def test_the_board_refuses_a_file_with_a_problem_in_either_part_as_one_pass_does(
    tmp_path: Path, cuts: Cuts
) -> None:
    from scorepad.errors import ScorepadError

    for k, broken in broken_nights(tmp_path):
        refusals = []
        for two in (False, True):
            with pytest.MonkeyPatch.context() as patch:
                if not two:
                    patch.setattr(parts, "available", lambda: False)
                with pytest.raises(ScorepadError) as refused:
                    _board(broken)
                refusals.append(str(refused.value))
        assert refusals[0] == refusals[1] and f"broken-{k}.csv:{k + 1}:" in refusals[0]
    assert cuts.joined == 0
