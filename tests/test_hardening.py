"""Breaking the ledger on purpose: crashes, load, hostile files and a failing disk.

Every test here is bounded in time: a few seconds each on two cores.
"""

import errno
import json
import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from _types import Fails, Run

PLAYERS = "Ann,Bob,Cy,Dee,Ed"
# Processes that write at once wait for the session's lock as long as a busy machine makes them
# (--wait's default, 30 s, can run out while seven others and a loaded machine hold it).
PATIENT = {**os.environ, "SCOREPAD_WAIT": "300"}

# A writer that records leasters one after another through the real command line, in-process,
# and says "ok N" (flushed) only after `scorepad hand` has returned for hand N.
WRITER = textwrap.dedent("""\
    import contextlib, io, json, sys
    from scorepad.cli import cli
    path, count = sys.argv[1], int(sys.argv[2])
    winners = ["Ann", "Bob", "Cy", "Dee", "Ed"]
    for number in range(count):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            cli.main(["-f", path, "hand", "--leaster", "--winner", winners[number % 5],
                      "--format", "json"], standalone_mode=False)
        print("ok", json.loads(out.getvalue())["hand"], flush=True)
""")


def new_session(run: Run, path: Path) -> None:
    assert run("-f", path, "new", "--players", PLAYERS).exit_code == 0


def hand_numbers(path: Path) -> list[int]:
    import csv

    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))[3:]
    return [int(r[0]) for r in rows if r and r[0].isdigit()]


def kill_a_writer(run: Run, path: Path, reported: int) -> set[int]:
    """Start a WRITER on the session, SIGKILL it once it has reported `reported` hands (it is
    then on its way through the next: the kill lands wherever it is), and mend a torn last
    line; the hands it reported recorded. (It waits for the writer's lines, never for a time:
    on a busy machine a writer may take seconds to record its first hand.)"""
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), "10000"],
        env=PATIENT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None
    lines: list[str] = []
    while len(lines) < reported:
        line = writer.stdout.readline()
        assert line, writer.communicate(timeout=30)[1]  # (it ended without writing them)
        lines.append(line)
    writer.send_signal(signal.SIGKILL)
    out, _ = writer.communicate(timeout=30)
    if run("-f", path, "verify").exit_code:
        assert run("-f", path, "repair").exit_code == 0  # a torn last line, moved aside
    # only whole lines count: the kill may cut the last one short
    text = "".join(lines) + out
    return {int(m[1]) for m in re.finditer(r"^ok (\d+)\n", text, re.MULTILINE)}


def test_sigkill_while_recording_loses_no_hand_that_was_reported(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    new_session(run, path)
    rng = random.Random(7)
    confirmed: set[int] = set()
    for _ in range(6):
        reported = kill_a_writer(run, path, rng.randint(1, 8))
        assert reported, "the writer was killed before it reported a hand"
        confirmed |= reported
        result = run("-f", path, "verify")
        assert result.exit_code == 0 and result.stdout == "", result.stdout
        numbers = hand_numbers(path)
        assert confirmed <= set(numbers)
        assert numbers == list(range(1, len(numbers) + 1))


# A writer of 25 leasters that says "ready" once it has started, and starts recording once the
# file GO is there (so that eight of them record at once however slowly each starts).
LOADER = textwrap.dedent("""\
    import contextlib, io, os, sys, time
    from scorepad.cli import cli
    path, name, go = sys.argv[1], sys.argv[2], sys.argv[3]
    print("ready", flush=True)
    while not os.path.exists(go):
        time.sleep(0.005)
    for _ in range(25):
        with contextlib.redirect_stdout(io.StringIO()):
            cli.main(["-f", path, "hand", "--leaster", "--winner", name], standalone_mode=False)
""")


def start_loaders(path: Path, go: Path, names: list[str]) -> list[subprocess.Popen[bytes]]:
    """A LOADER for each name, each started and waiting for GO (not yet made)."""
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", LOADER, str(path), name, str(go)],
            env=PATIENT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name in names
    ]
    for worker in workers:
        assert worker.stdout is not None
        assert worker.stdout.readline() == b"ready\n", worker.communicate(timeout=120)[1]
    return workers


def test_eight_processes_record_two_hundred_hands_at_once(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    new_session(run, path)
    names = ["Ann", "Bob", "Cy", "Dee", "Ed", "Ann", "Bob", "Cy"]
    go = tmp_path / "go"
    workers = start_loaders(path, go, names)
    go.touch()
    for worker in workers:
        _, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err.decode()
    assert sorted(hand_numbers(path)) == list(range(1, 201))
    assert run("-f", path, "verify").stdout == ""
    standings = json.loads(run("-f", path, "standings", "--format", "json").stdout)
    assert standings["hands"] == 200 and sum(standings["totals"].values()) == 0


# A writer that records, amends, voids and seats, step after step, through the real command line;
# and readers that run the whole-file reports against it meanwhile. The writer takes its first
# step, then waits for the file GO (made once every reader has read once) and takes the rest,
# then makes the file DONE; each reader reads until DONE is there. Nothing waits for a time:
# on a busy machine it all takes longer, and tests the same.
CHURN = textwrap.dedent("""\
    import contextlib, io, os, sys, time
    from scorepad.cli import cli
    path, go, done, steps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    def run(*args):
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                cli.main(["-f", path, *args], standalone_mode=False)
            except Exception as exc:  # a refusal is fine (e.g. Flo already seated): go on
                if type(exc).__name__ not in ("HandError", "ScorepadError"):
                    raise
    for step in range(1, steps + 1):
        run("hand", "--leaster", "--winner", ["Ann", "Bob", "Cy"][step % 3])
        run("hand", "--picker", "Ann", "--partner", "Bob", "--points", str(40 + step % 60))
        if step % 2:
            run("amend", str(max(1, 2 * step - 1)), "--winner", "Bob")
        if step % 3 == 0:
            run("undo")
        if step % 5 == 0:
            run("void", str(max(1, step)))
        if step % 7 == 0:
            run("seat", "add", "Flo")
        if step % 7 == 3:
            run("seat", "remove", "Flo")
        while step == 1 and not os.path.exists(go):  # (the readers are reading)
            time.sleep(0.01)
    open(done, "w").close()
    print(steps)
""")

READER = textwrap.dedent("""\
    import contextlib, io, os, sys
    from scorepad.cli import cli
    path, done = sys.argv[1], sys.argv[2]
    runs = failures = 0
    commands = (["standings"], ["verify"], ["sheet", "--format", "csv"], ["settle"], ["stats"])
    while not runs or not os.path.exists(done):
        command = commands[runs % len(commands)]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                cli.main(["-f", path, *command], standalone_mode=True)
            except SystemExit as exc:
                if exc.code:
                    failures += 1
                    print("FAILED", command, out.getvalue(), err.getvalue(), file=sys.stderr)
        runs += 1
        if runs == 1:
            print("ready", flush=True)
    print(runs, failures)
""")


def test_readers_see_no_false_alarm_beside_a_busy_writer(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    go, done = tmp_path / "go", tmp_path / "done"
    new_session(run, path)
    writer = subprocess.Popen(
        [sys.executable, "-c", CHURN, str(path), str(go), str(done), "14"],
        env=PATIENT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    readers = [
        subprocess.Popen(
            [sys.executable, "-c", READER, str(path), str(done)],
            env=PATIENT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for reader in readers:  # each has read once: the writer takes its other 13 steps now
        assert reader.stdout is not None
        assert reader.stdout.readline() == "ready\n", reader.communicate(timeout=120)[1]
    go.touch()
    steps, err = writer.communicate(timeout=300)
    assert writer.returncode == 0, err
    assert int(steps) == 14
    total = 0
    for reader in readers:
        out, err = reader.communicate(timeout=300)
        assert reader.returncode == 0, err
        runs, failures = map(int, out.split())
        assert failures == 0, err
        total += runs
    assert total >= 2  # (each read at least once, and on for as long as the writer wrote)
    text = path.read_text()
    assert ",amend," in text and ",void," in text and ",seat," in text
    assert run("-f", path, "verify").stdout == ""


# --- a failing disk -----------------------------------------------------------------------------


@pytest.fixture
def night(run: Run, tmp_path: Path) -> Path:
    path = tmp_path / "night.csv"
    new_session(run, path)
    run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", 70)
    return path


def test_a_full_disk_during_an_append_leaves_the_file_as_it_was(
    run: Run, night: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = night.read_bytes()
    real_write = os.write

    def full(fd: int, data: bytes) -> None:
        real_write(fd, bytes(data)[:20])  # some of the line lands, then the disk is full
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("os.write", full)
    result = run("-f", night, "hand", "--leaster", "--winner", "Cy")
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {night}: cannot write: No space left on device; the file is as it was\n"
    )
    assert night.read_bytes() == before


def test_a_read_only_session_file_is_a_clear_error(
    run: Run, night: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = night.read_bytes()
    real_open = os.open

    def read_only(path: str | os.PathLike[str], flags: int, *args: int) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr("os.open", read_only)
    for args in (
        ["hand", "--leaster", "--winner", "Cy"],
        ["undo"],
        ["void", "1"],
        ["seat", "add", "Flo"],
        ["repair"],
    ):
        result = run("-f", night, *args)
        assert result.exit_code == 1, args
        assert result.stderr == (f"Error: {night}: cannot open for writing: Permission denied\n"), (
            args
        )
    assert night.read_bytes() == before


def test_a_full_disk_while_creating_leaves_no_file(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(fd: int, data: bytes) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("os.write", full)
    path = tmp_path / "new.csv"
    result = run("-f", path, "new", "--players", PLAYERS)
    assert result.exit_code == 1 and "No space left on device" in result.stderr
    assert not path.exists()


def test_a_failing_rewrite_leaves_the_file_and_no_temp_file(
    run: Run, night: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = night.read_bytes()

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr("os.replace", broken)
    result = run("-f", night, "seat", "add", "Flo")  # a newcomer's column means a rewrite
    assert result.exit_code == 1 and "the file is as it was" in result.stderr
    assert night.read_bytes() == before
    assert [p.name for p in night.parent.iterdir()] == [night.name]


def test_a_huge_file_of_garbage_is_refused_quickly(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "garbage.csv"
    rng = random.Random(3)
    with open(path, "wb") as out:
        for _ in range(40):
            out.write(rng.randbytes(100_000))
        out.write(b"x" * 300_000 + b"\n")  # a line longer than any CSV field allows
    before = path.read_bytes()
    for args in (
        ["verify"],
        ["standings"],
        ["hand", "--leaster", "--winner", "Ann"],
        ["status"],
        ["repair"],
        ["sheet"],
    ):
        started = time.process_time()  # (the work it does, not how busy the machine is)
        result = run("-f", path, *args)
        assert result.exit_code in (1, 2) or args == ["repair"], args
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert time.process_time() - started < 10
        if args != ["repair"]:
            assert path.read_bytes() == before


# --- a lock held by another scorepad --------------------------------------------------------

HOLDER = textwrap.dedent("""\
    import fcntl, os, sys, time
    fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND)
    fcntl.flock(fd, fcntl.LOCK_EX)
    print("holding", flush=True)
    time.sleep(float(sys.argv[2]))
""")


def _hold_lock(path: Path, seconds: float) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "holding"
    return holder


def _scorepad(*args: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scorepad", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def test_a_held_lock_is_waited_for_out_loud_then_given_up(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    new_session(run, path)
    before = path.read_bytes()
    holder = _hold_lock(path, 30)
    try:
        started = time.monotonic()
        result = _scorepad("-f", path, "--wait", "1.5", "hand", "--leaster", "--winner", "Ann")
        waited = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait()
    assert result.returncode == 1 and waited >= 1.5
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"scorepad: {path} is locked by another scorepad; waiting")
    assert re.match(
        rf"Error: {re.escape(str(path))}: locked by another scorepad for \d+ s; gave "
        rf"up \(wait longer with --wait SECONDS",
        lines[-1],
    )
    assert path.read_bytes() == before


def test_a_lock_that_is_let_go_in_time_is_waited_for(run: Run, tmp_path: Path) -> None:
    """The lock is let go only once the waiting scorepad has said it waits (a fixed time
    would race a slow start on a loaded machine)."""
    path = tmp_path / "night.csv"
    new_session(run, path)
    holder = _hold_lock(path, 60)
    try:
        # SCOREPAD_WAIT is the default of --wait
        waiting = subprocess.Popen(
            [sys.executable, "-m", "scorepad", "-f", str(path), "hand", "--leaster", "--winner",
             "Ann"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "SCOREPAD_WAIT": "20"},
        )  # fmt: skip
        assert waiting.stderr is not None
        said = waiting.stderr.readline()
        holder.kill()  # the lock goes with the process
        holder.wait()
        out, rest = waiting.communicate(timeout=60)
        reader = _scorepad("-f", path, "standings", "--format", "json")
    finally:
        holder.kill()
        holder.wait()
    assert waiting.returncode == 0, said + rest
    assert "is locked by another scorepad; waiting (up to 20 s)" in said
    assert "Hand 1" in out
    assert json.loads(reader.stdout)["hands"] == 1


def test_a_reader_gives_up_on_a_held_lock_too(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    new_session(run, path)
    holder = _hold_lock(path, 30)
    try:
        result = _scorepad("-f", path, "--wait", "0.3", "standings")
    finally:
        holder.kill()
        holder.wait()
    assert result.returncode == 1 and "locked by another scorepad" in result.stderr


# --- names in two Unicode forms, and what a crash leaves --------------------------------------


def test_names_are_kept_composed_and_match_in_either_form(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    decomposed, composed = "Zoe\u0308", "Zo\u00eb"
    assert run("-f", path, "new", "--players", f"{decomposed},Bob,Cy,Dee,Ed").exit_code == 0
    assert composed in path.read_text(encoding="utf-8").splitlines()[0].split(",")
    assert (
        run(
            "-f",
            path,
            "hand",
            "--picker",
            composed,
            "--partner",
            "bob",
            "--points",
            70,
        ).exit_code
        == 0
    )
    assert (
        run("-f", path, "hand", "--picker", decomposed.upper(), "--alone", "--points", 95).exit_code
        == 0
    )
    totals = json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"]
    assert totals[composed] == 2 + 8
    other = tmp_path / "two.csv"
    result = run("-f", other, "new", "--players", f"{decomposed},{composed.upper()},Cy,Dee,Ed")
    assert result.exit_code == 1 and "is listed twice" in result.stderr and not other.exists()


def test_a_failed_new_leaves_neither_a_session_nor_a_temp_file(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr("os.link", broken)
    result = run("-f", tmp_path / "night.csv", "new", "--players", PLAYERS)
    assert result.exit_code == 1 and "cannot create" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_next_writer_removes_what_a_killed_rewrite_left(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    new_session(run, path)
    leftover = tmp_path / ".night.csv.k1ll3d.tmp"
    leftover.write_text("half a rewrite")
    other = tmp_path / ".other.csv.k1ll3d.tmp"  # another session's: not ours to touch
    other.write_text("someone else's")
    assert run("-f", path, "hand", "--leaster", "--winner", "Ann").exit_code == 0
    assert not leftover.exists() and other.exists()


# --- hostile rules and options ---------------------------------------------------------------


@pytest.mark.parametrize(
    "toml, says",
    [
        ("base = 1000000000000000000000000000000\n", "base:"),
        ("crack_factor = " + "9" * 4400 + "\n", "not a rules table scorepad can read"),
        (
            "a = " + "{ b = " * 1000 + "1" + " }" * 1000 + "\n",
            "not a rules table scorepad can read",
        ),
        ('name = "=HYPERLINK(\\"http://x\\")"\n', "a spreadsheet would run it as a formula"),
        ('name = "two\\nlines"\n', "cannot hold line breaks"),
        ('description = "' + "x" * 131073 + '"\n', "at most 200 characters"),
        ("[deal.5.more]\ncards = 6\n", "nest at most three deep"),
    ],
)
def test_a_hostile_rules_file_is_one_clear_error(
    run: Run, tmp_path: Path, toml: str, says: str
) -> None:
    rules = tmp_path / "table.toml"
    rules.write_text(toml)
    path = tmp_path / "night.csv"
    result = run("-f", path, "new", "--players", PLAYERS, "--rules", rules)
    assert result.exit_code == 1 and says in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and not path.exists()


def test_a_rules_file_whose_name_is_a_formula_gives_the_table_no_such_name(
    run: Run, tmp_path: Path
) -> None:
    rules = tmp_path / "=1+1.toml"
    rules.write_text("base = 2\n")
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", PLAYERS, "--rules", rules).exit_code == 0
    cells = [c for line in path.read_text().splitlines() for c in line.split(",")]
    assert not any(c.startswith("=") for c in cells)


def test_rules_from_a_device_or_a_folder_are_refused(fails: Fails, tmp_path: Path) -> None:
    assert "not a rules file" in fails("rules", "/dev/zero")
    assert "not a rules file" in fails("rules", str(tmp_path) + "/")


@pytest.mark.parametrize("override", ["base=" + "9" * 4400, "base=10000000000", "crack_factor=17"])
def test_huge_numbers_are_refused_where_they_enter(fails: Fails, override: str) -> None:
    error = fails(
        "check",
        "--set",
        override,
        "--players",
        PLAYERS,
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        "70",
    )
    assert "is not valid" in error


def test_a_line_break_in_a_list_of_names_is_a_usage_error(fails: Fails) -> None:
    error = fails(
        "check", "--players", "Ann\r\nBob,Cy,Dee,Ed", "--picker", "Ann", "--points", "70", code=2
    )
    assert "cannot hold a line break" in error


def test_huge_stakes_settle_exactly(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    assert (
        run(
            "-f",
            path,
            "new",
            "--players",
            PLAYERS,
            "--set",
            "base=1000000",
            "--set",
            "level_multipliers=1000000,1000000,1000000",
            "--set",
            "all_pass=doubler",
        ).exit_code
        == 0
    )
    for _ in range(40):
        assert run("-f", path, "hand", "--doubler").exit_code == 0
    assert (
        run(
            "-f",
            path,
            "hand",
            "--picker",
            "Ann",
            "--partner",
            "Bob",
            "--points",
            70,
            "--crack",
            "Cy",
        ).exit_code
        == 0
    )
    result = run("-f", path, "settle", "--rate", "0.25", "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["balances"]["Ann"].endswith(".00")


# --- repair mends what editors and crashes leave ---------------------------------------------


def _friday(tmp_path: Path) -> Path:
    path = tmp_path / "friday.csv"
    path.write_bytes(
        (Path(__file__).parent.parent / "sample_sessions" / "standard-friday.csv").read_bytes()
    )
    return path


def test_repair_removes_blank_lines_at_the_end(run: Run, tmp_path: Path) -> None:
    path = _friday(tmp_path)
    good = path.read_bytes()
    path.write_bytes(good + b"\r\n\r\n")  # an editor's habit
    assert run("-f", path, "verify").exit_code == 1
    out = run("-f", path, "repair").stdout
    assert "removed 2 blank lines at the end" in out and "kept as friday.csv.bak" in out
    assert path.read_bytes() == good
    assert (tmp_path / "friday.csv.bak").read_bytes() == good + b"\r\n\r\n"
    assert run("-f", path, "verify").stdout == ""
    assert "nothing to repair" in run("-f", path, "repair").stdout  # idempotent


def test_repair_writes_whole_numbers_a_spreadsheet_saved_as_decimals(
    run: Run, tmp_path: Path
) -> None:
    import csv

    path = _friday(tmp_path)
    good = path.read_bytes()
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    numbers = [header.index(n) for n in ("hand", "points", "tricks", "Ann", "Bob")]
    for row in rows[3:]:
        for at in numbers:
            if row[at].lstrip("-").isdigit():
                row[at] += ".0"  # as pandas writes a column of numbers with a gap
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)
    assert run("-f", path, "standings").exit_code == 1
    out = run("-f", path, "repair").stdout
    assert "wrote whole numbers written as decimals (like 2.0) as whole numbers on" in out
    assert path.read_bytes() == good
    assert run("-f", path, "verify").stdout == ""
    assert "nothing to repair" in run("-f", path, "repair").stdout


def test_repair_says_what_it_did_in_german(run: Run, tmp_path: Path) -> None:
    path = _friday(tmp_path)
    lines = path.read_bytes().split(b"\r\n")
    path.write_bytes(b"\r\n".join([*lines[:6], b"", *lines[6:-1]]) + b"\r\n\r\nAnn,")
    out = run("--lang", "de", "-f", path, "repair").stdout
    assert "die unvollständige Zeile 48 (4 Bytes) nach friday.csv.rejected verschoben" in out
    assert "1 Leerzeile zwischen den Zeilen entfernt (Zeile 7)" in out
    assert "1 Leerzeile am Ende entfernt" in out
    assert "die Datei, wie sie war, bleibt als friday.csv.bak erhalten" in out
    assert "removed" not in out and "line" not in out.replace("rules_line", "")
    english = run("-f", path, "repair").stdout
    assert english == f"{path}: nothing to repair.\n"


def test_repair_removes_the_empty_file_a_killed_new_left(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    path.write_bytes(b"")
    assert "the file is empty" in run("-f", path, "standings").stderr
    assert "removed the empty file" in run("-f", path, "repair").stdout
    assert not path.exists()
    assert run("-f", path, "new", "--players", PLAYERS).exit_code == 0
    german = tmp_path / "abend.csv"
    german.write_bytes(b"")
    out = run("--lang", "de", "-f", german, "repair").stdout
    assert "die leere Datei entfernt (eine Sitzung beginnt mit `scorepad new`)" in out, out


def _torn_night(run: Run, tmp_path: Path) -> tuple[Path, bytes]:
    """A night whose last line was cut short mid-write, with a blank line before it for good
    measure; returns the file and the night as it was before the torn line."""
    path = tmp_path / "night.csv"
    new_session(run, path)
    for _ in range(3):
        result = run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", 70)
        assert result.exit_code == 0, result.stderr
    good = path.read_bytes()
    with open(path, "ab") as out:
        out.write(b'4,picker,,2,1,-1,-1,-1,Cy,,Ann,"[""Bo')  # torn inside a quoted cell
    return path, good


def _free(monkeypatch: pytest.MonkeyPatch, free: int) -> list[str]:
    """Make shutil.disk_usage say `free` bytes are free; returns the folders it was asked of."""
    import shutil

    asked: list[str] = []

    def disk_usage(folder: str | os.PathLike[str]) -> shutil._ntuple_diskusage:
        asked.append(str(folder))
        return shutil._ntuple_diskusage(1 << 40, (1 << 40) - free, free)

    monkeypatch.setattr(shutil, "disk_usage", disk_usage)
    return asked


def test_repair_without_room_for_two_copies_says_what_it_needs_and_writes_nothing(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorepad.store import repair

    path, _ = _torn_night(run, tmp_path)
    before, names = path.read_bytes(), sorted(p.name for p in tmp_path.iterdir())
    needed = 2 * len(before) + repair.ROOM
    asked = _free(monkeypatch, needed - 1)
    result = run("-f", path, "repair")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        f"Error: {path}: cannot repair: it needs {repair.size_text(needed)} free beside the "
        f"file (a new copy of it and night.csv.bak), and {repair.size_text(needed - 1)} are "
        f"free; nothing was changed (make room, or copy the file where there is room and "
        f"repair it there)\n"
    )
    assert asked == [str(tmp_path)]
    assert path.read_bytes() == before  # and nothing beside it: no .bak, .rejected, temp file
    assert sorted(p.name for p in tmp_path.iterdir()) == names
    _free(monkeypatch, needed)  # just enough
    assert run("-f", path, "repair").exit_code == 0
    assert (tmp_path / "night.csv.rejected").exists() and run("-f", path, "verify").stdout == ""


def test_a_repair_the_disk_fills_under_leaves_no_rejected_line_or_temp_file(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The room was there when it looked, and is gone when the copy is kept: the torn line is
    kept in FILE.rejected only once the new file and the copy are written."""
    from scorepad.store import repair

    path, _ = _torn_night(run, tmp_path)
    before = path.read_bytes()

    def full(snapshot: object, backup: Path) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(repair, "_keep_copy", full)
    result = run("-f", path, "repair")
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {path}: cannot repair: {os.strerror(errno.ENOSPC)}; the file is as it was\n"
    )
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["night.csv"]


def test_repair_with_nothing_to_mend_needs_no_room(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, good = _torn_night(run, tmp_path)
    path.write_bytes(good)
    _free(monkeypatch, 0)
    result = run("-f", path, "repair")
    assert result.exit_code == 0 and result.stdout == f"{path}: nothing to repair.\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["night.csv"]


def test_the_room_a_repair_needs_is_the_sizes_people_read(run: Run) -> None:
    from scorepad.store.repair import size_text

    assert [size_text(n) for n in (512, 2048, 1536 * 1024, 50 << 20, 3 << 30)] == [
        "512 bytes",
        "2.0 KiB",
        "1.5 MiB",
        "50 MiB",
        "3.0 GiB",
    ]
    from scorepad import i18n

    with i18n.speaking("de"):
        assert [size_text(n) for n in (1, 512, 1536 * 1024)] == ["1 Byte", "512 Bytes", "1,5 MiB"]


def test_a_line_torn_anywhere_in_it_quoted_or_not_is_one_for_repair(
    run: Run, tmp_path: Path
) -> None:
    path, good = _torn_night(run, tmp_path)
    last = good.rstrip(b"\r\n").rsplit(b"\n", 1)[1] + b"\r\n"  # a whole row, quoted cells too
    head = good[: -len(last)]
    assert b'"' in last
    for cut in range(1, len(last) - 1):  # (torn after every byte before its line end)
        path.write_bytes(head + last[:cut])
        verify = run("-f", path, "verify")
        assert verify.stdout == (
            f"{path}:6: the last line is incomplete (the machine may have stopped mid-write); "
            f"run `scorepad repair`\n"
        ), (cut, last[:cut])
        assert "run `scorepad repair`" in run("-f", path, "standings").stderr, cut
    assert run("-f", path, "repair").exit_code == 0
    assert path.read_bytes() == head and run("-f", path, "verify").stdout == ""


def test_a_head_torn_inside_its_quoted_rules_is_one_for_repair(run: Run, tmp_path: Path) -> None:
    path, good = _torn_night(run, tmp_path)
    path.write_bytes(good[: good.index(b"preset")])  # the rules row, cut inside its JSON
    verify = run("-f", path, "verify")
    assert verify.stdout == f"{path}:2: the line is incomplete; run `scorepad repair`\n"


# --- without the POSIX-only modules (as on Windows) -----------------------------------------

WITHOUT_POSIX = textwrap.dedent("""\
    import os, sys
    os.environ["SCOREPAD_LOCKS"] = "windows"  # the protocol of mandatory locks, as on Windows
    import portalocker  # (which on Windows locks with msvcrt; here it has taken its flock)
    sys.modules["fcntl"] = None  # import fcntl fails, as on Windows
    for name in ("pread", "fchmod"):
        if hasattr(os, name):
            delattr(os, name)
    import contextlib, io
    from scorepad.cli import cli
    path = sys.argv[1]
    for args in (["new", "--players", "Ann,Bob,Cy,Dee,Ed"],
                 ["hand", "--picker", "Ann", "--partner", "Bob", "--points", "70"],
                 ["hand", "--leaster", "--winner", "Cy"],
                 ["amend", "1", "--points", "50"], ["undo"], ["seat", "add", "Flo"],
                 ["status"], ["standings"], ["sheet", "--format", "csv"], ["verify", "-v"],
                 ["settle", "--rate", "0.25"], ["repair"]):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            cli.main(["-f", path, *args], standalone_mode=False)
        print(args[0], "ok", out.getvalue().splitlines()[-1] if out.getvalue() else "")
""")


def test_every_command_runs_without_the_posix_only_modules(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_POSIX, str(tmp_path / "night.csv")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 12 and all(" ok" in line for line in lines)
    assert lines[9].endswith("2 hands, 2 corrections, 1 seat change: all consistent.")


def test_json_nested_deep_in_a_cell_is_a_problem_not_a_crash(run: Run, tmp_path: Path) -> None:
    import csv

    path = _friday(tmp_path)
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    rows[5][rows[0].index("partners")] = "[" * 1500 + "]" * 1500
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)
    before = path.read_bytes()
    verify = run("-f", path, "verify")
    assert verify.exit_code == 1 and verify.stdout.startswith(f"{path}:6: partners:")
    for command in ("standings", "status", "sheet"):
        result = run("-f", path, command)
        assert result.exit_code in (0, 1) and "Traceback" not in result.stderr
    assert path.read_bytes() == before


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/full", "/dev/null"])
def test_a_session_that_is_a_device_is_refused(fails: Fails, device: str) -> None:
    for command in ("standings", "verify", "status"):
        assert "is not a regular file" in fails("-f", device, command)


def test_a_failed_repair_keeps_the_torn_line_once(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "night.csv"
    new_session(run, path)
    with open(path, "ab") as out:
        out.write(b"1,picker,,2,")
    real = os.replace

    def broken(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr("os.replace", broken)
    assert run("-f", path, "repair").exit_code == 1
    monkeypatch.setattr("os.replace", real)
    assert run("-f", path, "repair").exit_code == 0
    assert (tmp_path / "night.csv.rejected").read_bytes() == b"1,picker,,2,\n"


def test_a_huge_first_line_is_refused_before_it_is_read(fails: Fails, tmp_path: Path) -> None:
    path = tmp_path / "huge.csv"
    with open(path, "wb") as f:
        f.write(b"hand,kind," + b"x" * (3 << 20))  # 3 MiB and no line end
    assert "the first lines are longer than 1024 KiB" in fails("-f", path, "standings")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="measures with Linux's /proc")
@pytest.mark.parametrize("where", ["middle", "end", "torn"])
def test_a_huge_line_below_the_head_is_refused_in_bounded_memory(
    run: Run, tmp_path: Path, where: str
) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    assert (
        run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "70").exit_code
        == 0
    )
    huge = b"2,picker,," + b"x" * (60 << 20)  # 60 MiB on one line
    with open(path, "ab") as f:
        f.write(huge + (b"" if where == "torn" else b"\r\n"))
        if where == "middle":
            f.write(b"3,picker,,1,1,1,1,1\r\n")
    before = path.stat().st_size
    code = textwrap.dedent(
        f"""
        import sys
        from scorepad.cli import cli
        for args in (['verify'], ['standings'], ['status'], ['undo'], ['void', '1'],
                     ['hand', '--picker', 'Ann', '--alone', '--points', '70'], ['log']):
            try:
                cli.main(['-f', {str(path)!r}, *args], prog_name='scorepad')
            except SystemExit as exc:
                print("EXIT", args[0], exc.code, file=sys.stderr)
        # (VmHWM: this process's own peak; ru_maxrss would count the parent's, across exec)
        with open("/proc/self/status") as status:
            hwm = next(line for line in status if line.startswith("VmHWM:"))
        print("PEAK", int(hwm.split()[1]) // 1024, file=sys.stderr)
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    lines = result.stderr.splitlines()
    outcomes = [line for line in lines if line.startswith("EXIT ")]
    peak = next(line.split()[1] for line in lines if line.startswith("PEAK "))
    assert len(outcomes) == 7 and all(line.endswith(" 1") for line in outcomes), result.stderr
    expected = "the last line is incomplete" if where == "torn" else "longer than 1024 KiB"
    assert expected in result.stdout + result.stderr
    assert int(peak) < 60, f"peak memory {peak} MiB: the 60 MiB line was read whole"
    assert path.stat().st_size == before  # nothing written


# --- digits that are not decimal digits ("²" passes str.isdigit, and int() refuses it) -------


def test_a_superscript_in_a_correction_refs_cell_is_a_problem_not_a_crash(
    run: Run, tmp_path: Path
) -> None:
    path = _friday(tmp_path)
    lines = path.read_bytes().split(b"\r\n")
    void_at = next(i for i, line in enumerate(lines) if b",void," in line)
    lines[void_at] = re.sub(rb",void,\d+,", ",void,²,".encode(), lines[void_at], count=1)
    path.write_bytes(b"\r\n".join(lines))
    before = path.read_bytes()
    verify = run("-f", path, "verify")
    assert verify.exit_code == 1
    assert f"{path}:{void_at + 1}: ref: '²' is not a whole number" in verify.stdout
    for command in ("standings", "sheet", "stats", "settle"):
        result = run("-f", path, command)
        assert result.exit_code == 1 and f":{void_at + 1}: ref:" in result.stderr, command
    assert path.read_bytes() == before


def test_a_superscript_format_number_is_a_problem_not_a_crash(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    new_session(run, path)
    import csv

    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    rows[1][rows[0].index("format")] = "²"
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)
    result = run("-f", path, "standings")
    assert result.exit_code == 1 and "format: '²' is not a format version" in result.stderr


@pytest.mark.parametrize("value", ["Ann=²", "Ann=" + "9" * 5000])
def test_a_number_of_points_no_int_can_hold_is_refused(fails: Fails, value: str) -> None:
    message = fails("check", "--players", PLAYERS, "--leaster", "--leaster-points", value, code=2)
    assert "--leaster-points" in message


def test_repair_leaves_a_number_too_long_to_be_a_hands_and_says_what_is_wrong(
    run: Run, tmp_path: Path
) -> None:
    import csv

    path = tmp_path / "night.csv"
    new_session(run, path)
    assert (
        run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "70").exit_code
        == 0
    )
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    rows[-1][rows[0].index("points")] = "9" * 5000 + ".0"  # past int()'s 4300 digits
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)
    before = path.read_bytes()
    result = run("-f", path, "repair")
    assert result.exit_code == 0 and "nothing to repair" in result.stdout
    assert path.read_bytes() == before
    verify = run("-f", path, "verify")
    assert verify.exit_code == 1 and f"{path}:4: points:" in verify.stdout


@pytest.mark.parametrize("wait", ["nan", "NaN", "-nan"])
def test_a_wait_that_is_not_a_number_is_refused_not_an_endless_wait(
    fails: Fails, tmp_path: Path, wait: str
) -> None:
    """NaN passes every range check (each comparison is false): it would wait forever."""
    message = fails("-f", tmp_path / "night.csv", "--wait", wait, "status", code=2)
    assert "--wait" in message and "not a number of seconds" in message


@pytest.mark.parametrize(
    "symbol, says",
    [
        ("=1+1", "cannot start with ="),
        ("a\nb", "up to 5 printable characters"),
        ("€" * 500, "up to 5 printable characters"),
        # (a digit reads as part of the amount: "1" at 0.25 showed "10.25")
        ("1", "not blank and holds no digit"),
        ("EUR1", "not blank and holds no digit"),
        ("", "not blank and holds no digit"),
    ],
)
def test_a_currency_symbol_is_short_printable_and_no_formula(
    fails: Fails, tmp_path: Path, symbol: str, says: str
) -> None:
    path = tmp_path / "night.csv"
    message = fails("-f", path, "settle", "--rate", "1", "--currency", symbol, code=2)
    assert "--currency" in message and says in message


def test_a_correction_naming_a_hand_past_any_number_is_one_clear_line(
    run: Run, tmp_path: Path
) -> None:
    """A hand-edited void row whose ref has more digits than any hand number (the scan keeps
    refs in 64-bit arrays): `verify` names the line and the ref, as for any hand not recorded
    above, without a traceback."""
    import csv

    friday = Path(__file__).parent.parent / "sample_sessions" / "standard-friday.csv"
    rows = list(csv.reader(friday.open(newline="", encoding="utf-8")))
    kind, ref = rows[0].index("kind"), rows[0].index("ref")
    at = next(n for n, row in enumerate(rows) if len(row) > kind and row[kind] == "void")
    rows[at][ref] = "1" * 24
    path = tmp_path / "night.csv"
    with path.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out, lineterminator="\n").writerows(rows)
    result = run("-f", path, "verify")
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"{path}:{at + 1}: ref: {'1' * 24} is not a hand recorded above"
    ]


@pytest.mark.parametrize("command", [("void", "1"), ("undo",), ("redo",)])
def test_a_reason_that_is_no_note_is_named_as_the_reason(
    fails: Fails, tmp_path: Path, command: tuple[str, ...]
) -> None:
    # (it is kept as the row's note, and was refused as "--note", an option these lack)
    path = tmp_path / "night.csv"
    message = fails("-f", path, *command, "--reason", "=x", code=2)
    assert "'--reason'" in message and "a note cannot start with =" in message
    assert "--note" not in message and not path.exists()


@pytest.mark.parametrize(
    "change",
    [
        ("hand", "--picker", "Bob", "--partner", "Cy", "--points", "70", "--tricks", "3"),
        ("penalty", "Bob", "--points", "1"),
        ("seat", "remove", "Ann"),
        ("seat", "add", "Flo"),
        ("set", "base=2"),
    ],
    ids=lambda change: " ".join(change[:2]),
)
def test_a_change_made_from_the_last_row_refuses_totals_that_are_not_zero_sum(
    fails: Fails, tmp_path: Path, change: tuple[str, ...]
) -> None:
    # a change reads the night from its last row alone; a hand-edited total there was carried
    # on into every later row, the standings showing totals that do not add up
    path = tmp_path / "friday.csv"
    text = (Path(__file__).parent.parent / "sample_sessions" / "standard-friday.csv").read_text()
    lines = text.splitlines(keepends=True)
    assert '""Ann"":-10' in lines[-1]
    lines[-1] = lines[-1].replace('""Ann"":-10', '""Ann"":-99')
    path.write_text("".join(lines))
    before = path.read_bytes()
    message = fails("-f", path, *change)
    assert message.startswith(
        f"Error: {path}:{len(lines)}: totals: with the pot they do not add up to zero (-89)"
    )
    assert path.read_bytes() == before
