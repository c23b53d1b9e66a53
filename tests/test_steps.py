"""`undo N` and `redo N` are one change: all N steps or none, under one lock, whatever kills the
process in the middle (issue 44)."""

import csv
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from _types import Run

PLAYERS = "Ann,Bob,Cy,Dee,Ed"

# Runs the command line with every call that writes, syncs or renames counted, and the process
# killed outright (SIGKILL: no cleanup of any kind) just before call number `kill_at`; with
# `kill_at` 0, prints how many such calls the command makes.
KILLER = textwrap.dedent("""\
    import os, signal, sys
    kill_at, args = int(sys.argv[1]), sys.argv[2:]
    calls = 0
    def counted(real):
        def call(*a, **k):
            global calls
            calls += 1
            if calls == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*a, **k)
        return call
    for name in ("write", "fsync", "replace", "rename", "link", "unlink"):
        setattr(os, name, counted(getattr(os, name)))
    from scorepad import session
    session.now = lambda: "2026-12-04T20:00:00+00:00"  # (every run writes the same rows)
    from scorepad.cli import cli
    try:
        cli.main(args, prog_name="scorepad")
    except SystemExit:
        pass
    if not kill_at:
        print(calls, file=sys.stderr)
""")


def _night(run: Run, path: Path, hands: int = 5) -> None:
    assert run("-f", path, "new", "--players", PLAYERS).exit_code == 0
    for k in range(hands):
        hand = ("hand", "--picker", PLAYERS.split(",")[k % 5], "--alone", "--points", 70 + k)
        assert run("-f", path, *hand).exit_code == 0


def _steps_in(path: Path, column: str) -> int:
    with open(path, newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    return sum(1 for row in rows if row.get(column))


def _scorepad(kill_at: int, *args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", KILLER, str(kill_at), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("steps", [2, 3, 4, 5])
@pytest.mark.parametrize("back", [True, False], ids=["undo", "redo"])
def test_a_kill_anywhere_in_n_steps_leaves_none_of_them_or_all(
    run: Run, tmp_path: Path, back: bool, steps: int
) -> None:
    """Killed at each of its writes, syncs and renames in turn (10 to 15 a command: over 100 kills
    in all over the eight cases)."""
    path = tmp_path / "night.csv"
    _night(run, path)
    if not back:
        assert run("-f", path, "undo", steps).exit_code == 0
    column = "undoes" if back else "redoes"
    command = ("-f", path, "undo" if back else "redo", steps)
    before = path.read_bytes()
    steps_before = _steps_in(path, column)
    done = _scorepad(0, *command)  # (how many writes, syncs and renames it makes, on a copy)
    assert done.returncode == 0, done.stderr
    calls = int(done.stderr.strip().splitlines()[-1])
    after = path.read_bytes()
    assert _steps_in(path, column) == steps_before + steps
    kills = 0
    for kill_at in range(1, calls + 1):
        path.write_bytes(before)
        died = _scorepad(kill_at, *command)
        kills += died.returncode == -signal.SIGKILL
        now = path.read_bytes()
        # (none of the steps, or all of them; or a journal of all of them that the next scorepad
        # copies in: the file may then hold a part of the copy)
        journal = [
            p
            for p in tmp_path.iterdir()
            if p.name.startswith(".night.csv.") and p.suffix == ".journal"
        ]
        assert now in (before, after) or journal, kill_at
        verify = run("-f", path, "verify")
        assert verify.exit_code == 0 and verify.stdout == "", (kill_at, verify.stdout)
        # the next scorepad goes on as if nothing had happened
        again = run("-f", path, "hand", "--leaster", "--winner", "Ann")
        assert again.exit_code == 0, (kill_at, again.stderr)
        taken = _steps_in(path, column) - steps_before
        assert taken == (steps if now == after or journal else 0), kill_at
    assert kills >= calls - 1 >= 8  # (each kill point was reached)
    # (the last `hand` tidied what every kill left: temp files, journals, and those of the copy
    # that `undo N` makes its steps on, `..night.csv.XXXX.tmp.*`)
    leftovers = [p.name for p in tmp_path.iterdir() if "night.csv." in p.name]
    assert not [n for n in leftovers if n.endswith((".tmp", ".journal"))], leftovers


def test_three_steps_when_two_can_be_taken_change_nothing(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    _night(run, path, hands=2)
    before = path.read_bytes()
    result = run("-f", path, "undo", "3")
    assert result.exit_code == 1
    assert "there are 2 changes to undo, not 3: nothing was changed" in result.stderr
    assert path.read_bytes() == before
