"""`scorepad play` as a table uses it (issue 23, item 6): Ctrl-C in a real terminal, cancel at
the confirmation, names as people type them, Tab completion, the rules of a new session, and
amend, void and undo without leaving play."""

import importlib.util
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from _types import Run

FIVE = "Ann,Bob,Cy,Dee,Ed"


def _totals(run: Run, path: Path) -> Any:
    return json.loads(run("-f", path, "standings", "--format", "json").stdout)["totals"]


def _new(run: Run, path: Path, players: str = FIVE, *more: str) -> None:
    result = run("-f", path, "new", "--players", players, *more)
    assert result.exit_code == 0, result.stderr


# --- in a real terminal (a pseudo-terminal: Ctrl-C, readline) ------------------------------------


class Terminal:
    """`scorepad ARGS` on a pseudo-terminal of its own, as at the keyboard."""

    def __init__(self, *args: str):
        import pty
        import termios

        master, slave = pty.openpty()

        def controlling() -> None:  # (so that Ctrl-C on the terminal is SIGINT to scorepad)
            import fcntl

            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            # As a shell starts a command: SIGINT not ignored nor blocked (an ignored signal
            # outlives exec, and a test run in the same process before may have left it so).
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, set())

        env = {**os.environ, "TERM": "xterm", "NO_COLOR": "1", "COLUMNS": "200"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scorepad", *args],
            stdin=slave, stdout=slave, stderr=slave, preexec_fn=controlling, env=env,
        )  # fmt: skip
        os.close(slave)
        self.master = master
        self.seen = ""

    def expect(self, text: str, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} not seen in {self.seen[-2000:]!r}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # (the other end closed)
                    chunk = b""
                assert chunk, f"{text!r} not seen before the end: {self.seen[-2000:]!r}"
                self.seen += chunk.decode("utf-8", "replace")

    def reading_keys(self, timeout: float = 120) -> None:
        """Wait until scorepad waits for a key at its prompt: the terminal read a key at a time
        (readline has taken it over from the line discipline, which would take a tab as text)
        and, where /proc tells, the process asleep in its poll for input (a Ctrl-C that came
        while readline was still getting there would be lost until a later signal). Events,
        however long a busy machine takes to reach them."""
        import termios

        wchan = Path(f"/proc/{self.process.pid}/wchan")
        deadline = time.monotonic() + timeout
        while termios.tcgetattr(self.master)[3] & termios.ICANON or (
            wchan.exists() and not any(w in wchan.read_text() for w in ("poll", "select"))
        ):
            assert time.monotonic() < deadline, "scorepad never waited for a key"
            assert self.process.poll() is None, "scorepad ended"
            time.sleep(0.01)

    def send(self, text: str) -> None:
        os.write(self.master, text.encode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        os.close(self.master)


needs_a_terminal = pytest.mark.skipif(
    sys.platform == "win32" or os.environ.get("SCOREPAD_LOCKS") == "windows",
    reason="pseudo-terminals are POSIX (the run as on Windows makes fcntl unavailable)",
)


@needs_a_terminal
def test_ctrl_c_says_the_hand_was_not_recorded_and_exits_130(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    _new(run, path)
    before = path.read_bytes()
    term = Terminal("-f", str(path), "play")
    try:
        term.expect("Enter to stop): ")
        term.send("Ann\r")
        term.expect("alone): ")
        if importlib.util.find_spec("readline"):
            term.reading_keys()  # (at the prompt, as a person is: readline reading it)
        term.send("\x03")  # Ctrl-C
        term.expect("not recorded")
        code = term.process.wait(timeout=120)
    finally:
        term.close()
    assert code == 130
    assert "Stopped: the hand being entered was not recorded." in term.seen
    assert "Standings:" not in term.seen
    assert path.read_bytes() == before


@needs_a_terminal
def test_tab_completes_a_name_ignoring_accents(run: Run, tmp_path: Path) -> None:
    pytest.importorskip("readline")
    path = tmp_path / "night.csv"
    _new(run, path, "Jürgen,Ann,Bob,Cy,Dee")
    term = Terminal("-f", str(path), "play")
    try:
        term.expect("Enter to stop): ")
        term.reading_keys()
        term.send("ju\t")
        term.expect("Jürgen")
        term.send("\r")
        term.expect("Partner?")
        term.send("Cy\r\r70\r4\r\r\r")  # Cy, no call noted, 70 points, 4 tricks, no crack, record
        term.expect("Hand 1: Jürgen picked")
        term.send("\r")  # an empty answer ends
        code = term.process.wait(timeout=120)
    finally:
        term.close()
    assert code == 0
    assert _totals(run, path)["Jürgen"] == 2


# --- in process ----------------------------------------------------------------------------------


@pytest.mark.parametrize("answer", ["n", "no", "cancel", "CANCEL"])
def test_no_or_cancel_at_the_confirmation_records_nothing(
    run: Run, tmp_path: Path, answer: str
) -> None:
    path = tmp_path / "night.csv"
    _new(run, path)
    before = path.read_bytes()
    result = run("-f", path, "play", input=f"Ann\nBob\n\n70\n4\n\n{answer}\n\n")
    assert result.exit_code == 0, result.stderr
    assert "Not recorded." in result.stdout
    assert path.read_bytes() == before


def test_names_match_without_case_or_accents_by_prefix_or_seat(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    _new(run, path, "Jürgen,Ann,Bob,Cy,Dee")
    answers = [
        "jurgen", "A", "", "70", "4", "", "",  # Jürgen + Ann (a unique prefix), recorded
        "3", "5", "", "64", "4", "", "",  # seat 3 (Bob) + seat 5 (Dee)
        "",
    ]  # fmt: skip
    result = run("-f", path, "play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.stderr
    assert "Hand 1: Jürgen picked, partner Ann, 70 points" in result.stdout
    assert "Hand 2: Bob picked, partner Dee, 64 points" in result.stdout
    assert "Who picked? (1 Jürgen, 2 Ann, 3 Bob, 4 Cy, 5 Dee, leaster; ?" in result.stdout
    assert result.stderr == ""


def test_a_name_that_starts_two_or_a_seat_not_asked_for_is_asked_again(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    _new(run, path, "Jürgen,Jan,Bob,Cy,Dee")
    answers = ["J", "9", "Jan", "2", "Bob", "", "70", "4", "", "", ""]
    result = run("-f", path, "play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.stderr
    errors = result.stderr.splitlines()
    assert errors[0] == "  J: the start of Jürgen and Jan; give more"
    assert errors[1] == "  seat 9: the seats run from 1 to 5"
    assert errors[2] == "  seat 2 is Jan; name one of Jürgen, Bob, Cy, Dee"  # (Jan picked)
    assert "Hand 1: Jan picked, partner Bob, 70 points" in result.stdout


def test_a_new_session_from_play_asks_the_rules(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "verein.csv"
    answers = ["", "nope", "bavarian", "Ann,Bob,Cy,Dee", ""]
    result = run("-f", path, "play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.stderr
    assert "Rules? (standard, pagat, first-night, schafkopf, bavarian" in result.stdout
    assert "unknown rules 'nope'" in result.stderr
    assert "rules: bavarian" in result.stdout
    status = run("-f", path, "status").stdout
    assert "Rules:     bavarian" in status and "Players:   Ann, Bob, Cy, Dee" in status


def test_amend_void_and_undo_inside_play(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    _new(run, path)
    run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "64")
    answers = [
        "amend 1 --points 58 --note 'recounted'",  # a loss now
        "amend 1 --pointz 3",  # a mistake: explained, nothing changes
        "amend x",
        "void 9",
        "void 1 wrong table",
        "undo",  # the void
        "",
    ]
    result = run("-f", path, "play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.stderr
    out, errors = result.stdout, result.stderr.splitlines()
    assert "Hand 1, amended: Ann picked, partner Bob, 58 points: a loss" in out
    assert "Hand 1 is void (wrong table): its points are reversed." in out
    assert "Undid the void of hand 1." in out
    assert "No such option '--pointz'" in errors[0] and errors[0].startswith("  amend 1: ")
    assert errors[1] == "  x: not a hand's number; e.g. 3"
    assert "9" in errors[2] and len(errors) == 3
    assert _totals(run, path) == {"Ann": -2, "Bob": -1, "Cy": 1, "Dee": 1, "Ed": 1}
    sheet = json.loads(run("-f", path, "sheet", "--format", "json").stdout)["hands"]
    assert sheet[0]["note"] == "recounted" and not sheet[0]["void"]
    assert run("-f", path, "verify").stdout == ""
