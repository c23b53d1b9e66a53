"""The lock and the rewrites on each platform: POSIX's flock, and the protocol of mandatory locks
that Windows needs (scorepad/files.py), run here on POSIX with `files.WINDOWS_LOCKS` set.

The whole suite also runs under that protocol, without the POSIX-only modules:
`SCOREPAD_LOCKS=windows pytest` (see tests/conftest.py and .ci/run)."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from _types import Run

from scorepad import session
from scorepad.scoring import PickerHand
from scorepad.session import Session
from scorepad.store import base, files, journal
from scorepad.store.lock import locked
from scorepad.store.snapshot import Snapshot

PLAYERS = "Ann,Bob,Cy,Dee,Ed"


@pytest.fixture(params=["posix", "windows"])
def protocol(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs under both protocols (in this process)."""
    param: str = request.param
    monkeypatch.setattr(files, "WINDOWS_LOCKS", param == "windows")
    return param


@pytest.fixture
def night(run: Run, tmp_path: Path, protocol: str) -> Path:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", PLAYERS).exit_code == 0
    for args in (
        ["--picker", "Ann", "--partner", "Bob", "--points", "70"],
        ["--leaster", "--winner", "Cy"],
        ["--picker", "Dee", "--alone", "--points", "95"],
    ):
        assert run("-f", path, "hand", *args).exit_code == 0
    return path


def _can_lock(path: Path) -> bool:
    """Whether another open file (as another process has) could take the lock now."""
    fd = os.open(path, os.O_RDONLY)
    try:
        taken = files.try_lock(fd, False)
        if taken:
            files.unlock(fd)
        return taken
    finally:
        os.close(fd)


def test_a_reader_holds_the_lock_while_it_reads_only_under_windows_locks(
    night: Path, protocol: str
) -> None:
    with Snapshot(night):
        assert _can_lock(night) == (protocol == "posix")  # POSIX: it noted the size, let go
    assert _can_lock(night)


def test_a_writer_reads_through_the_descriptor_it_locked(
    night: Path, protocol: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a mandatory lock no other handle may read the file: a change opens it once."""
    opened: list[str] = []
    real_open = os.open

    def counting_open(path: str | os.PathLike[str], *args: Any, **kwargs: Any) -> int:
        if str(path) == str(night):
            opened.append(str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", counting_open)
    Session(night).record(
        PickerHand(players=tuple(PLAYERS.split(",")), picker="Ed", partners=("Ann",), points=61)
    )
    assert len(opened) == 1


@pytest.mark.parametrize(
    "change",
    [
        ("seat", "add", "Flo"),  # a new column: the file is rewritten
        ("repair",),
    ],
)
def test_a_rewrite_keeps_the_file_itself_under_windows_locks(
    run: Run, night: Path, protocol: str, change: tuple[str, ...]
) -> None:
    if change == ("repair",):
        with open(night, "ab") as f:
            f.write(b"\r\n\r\n")  # blank lines at the end: repair rewrites the file
    inode = os.stat(night).st_ino
    result = run("-f", night, *change)
    assert result.exit_code == 0, result.stderr
    assert (os.stat(night).st_ino == inode) == (protocol == "windows")  # in place, or renamed
    assert run("-f", night, "verify").exit_code == 0
    assert not list(night.parent.glob(".night.csv.*"))  # no journal, no temp file left


def test_a_rewrite_cut_short_is_finished_by_the_next_command(
    run: Run, night: Path, protocol: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = json.loads(run("-f", night, "standings", "--format", "json").stdout)
    calls = {"n": 0}
    real_write_all = base.write_all

    def dies_midway(fd: int, data: bytes) -> None:
        calls["n"] += 1
        real_write_all(fd, data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journal, "BLOCK", 512)  # several blocks to copy
    monkeypatch.setattr(files, "WINDOWS_LOCKS", True)
    monkeypatch.setattr(journal, "write_all", dies_midway)
    result = run("-f", night, "seat", "add", "Flo")
    assert result.exit_code == 1
    assert "the next scorepad command finishes it (from .night.csv." in result.stderr
    assert len(_journals(night)) == 1  # the file itself is half copied
    monkeypatch.setattr(journal, "write_all", real_write_all)
    monkeypatch.setattr(files, "WINDOWS_LOCKS", protocol == "windows")
    # A report (a reader) finds the journal, has a writer finish the copy, then reads.
    after = run("-f", night, "standings", "--format", "json")
    assert after.exit_code == 0, after.stderr
    assert json.loads(after.stdout)["totals"] == {**before["totals"], "Flo": 0}
    assert not _journals(night)
    assert run("-f", night, "verify").exit_code == 0
    assert "Flo joins" in run("-f", night, "log").stdout


FIXTURES = Path(__file__).parent / "fixtures"


def _linked(run: Run, tmp_path: Path, older: str = "") -> tuple[Path, Path]:
    """A session file in one folder and a symbolic link to it (of another name) in another:
    (the link, the file). `older`: the file is that fixture's night, of an older format."""
    (tmp_path / "real").mkdir()
    (tmp_path / "links").mkdir()
    target = tmp_path / "real" / "friday.csv"
    if older:
        target.write_bytes((FIXTURES / older / "standard-friday.csv").read_bytes())
    else:
        assert run("-f", target, "new", "--players", PLAYERS).exit_code == 0
        for _ in range(3):
            assert run("-f", target, "hand", "--leaster", "--winner", "Cy").exit_code == 0
    link = tmp_path / "links" / "tonight.csv"
    link.symlink_to(os.path.relpath(target, link.parent))
    return link, target


def _hands(run: Run, path: Path) -> int:
    return len(json.loads(run("-f", path, "sheet", "--format", "json").stdout)["hands"])


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="symbolic links")
@pytest.mark.parametrize(
    "change",
    [
        ("seat", "add", "Flo"),  # a new player's column
        ("penalty", "Ed", "--points", "1"),  # a row format 3 cannot hold: the format upgrade
        ("set", "double_on_the_bump=true"),  # format 1 has no rules_line: the upgrade too
        ("repair",),  # blank lines at the end
    ],
)
def test_a_rewrite_through_a_symbolic_link_replaces_its_target_and_keeps_the_link(
    run: Run, tmp_path: Path, protocol: str, change: tuple[str, ...]
) -> None:
    older = {"penalty": "v3", "set": "v1"}.get(change[0], "")
    link, target = _linked(run, tmp_path, older)
    hands = _hands(run, target)
    if change == ("repair",):
        with open(target, "ab") as f:
            f.write(b"\r\n\r\n")
    result = run("-f", link, *change)
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert target.is_file() and not target.is_symlink()
    if change[0] in ("penalty", "set"):  # rewritten in the current format
        assert b"offender" in target.read_bytes().split(b"\r\n")[0]
        hands += change[0] == "penalty"
    if change[0] == "seat":
        assert b"Flo" in target.read_bytes().split(b"\r\n")[0]
    assert _hands(run, target) == hands
    # A hand recorded afterwards, through the link, lands in the file itself.
    result = run("-f", link, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "70")
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and _hands(run, target) == hands + 1
    assert run("-f", target, "verify").stdout == ""
    # Nothing was left beside the file or beside the link (no temp file, no journal); the
    # copy `repair` keeps is named after the session as given.
    assert [p.name for p in target.parent.iterdir()] == ["friday.csv"]
    left = sorted(p.name for p in link.parent.iterdir())
    assert left == ["tonight.csv"] + (["tonight.csv.bak"] if change == ("repair",) else [])


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="symbolic links")
def test_the_journal_of_a_rewrite_through_a_link_is_beside_the_file_itself(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under the Windows protocol a rewrite cut short through a link is finished by a command
    given the file itself (or any other link to it): the journal is the file's, not the link's."""
    link, target = _linked(run, tmp_path)

    def crash(
        path: Path, fd: int, journal: Path
    ) -> None:  # (the machine stops once the journal has its name)
        raise base.SessionError(path, "the machine stopped")

    monkeypatch.setattr(files, "WINDOWS_LOCKS", True)
    monkeypatch.setattr(journal, "finish_rewrite", crash)
    assert run("-f", link, "seat", "add", "Flo").exit_code == 1
    monkeypatch.undo()
    assert len(_journals(target)) == 1 and not _journals(link)
    assert run("-f", target, "status").exit_code == 0  # finishes the copy, then reads
    assert not _journals(target) and link.is_symlink()
    assert b"Flo" in target.read_bytes().split(b"\r\n")[0]
    assert run("-f", link, "verify").stdout == ""


def _journals(path: Path) -> list[Path]:
    return list(path.parent.glob(f".{path.name}.*.journal"))


def _interrupted_rewrite(run: Run, night: Path, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """Seat a newcomer (a rewrite) under the Windows protocol, stopped right after the journal
    took its name, before the copy began; returns the file as the rewrite would leave it."""
    expected_dir = night.parent / "expected"
    expected_dir.mkdir()
    expected = expected_dir / night.name
    expected.write_bytes(night.read_bytes())
    assert run("-f", expected, "seat", "add", "Flo").exit_code == 0

    def crash(
        path: Path, fd: int, journal: Path
    ) -> None:  # (the machine stops once the journal has its name)
        assert journal.exists()
        raise base.SessionError(path, "the machine stopped")

    monkeypatch.setattr(files, "WINDOWS_LOCKS", True)
    monkeypatch.setattr(journal, "finish_rewrite", crash)
    assert run("-f", night, "seat", "add", "Flo").exit_code == 1
    monkeypatch.undo()
    return expected.read_bytes()


def test_a_rewrite_stopped_before_its_copy_began_is_finished(
    run: Run, night: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = night.read_bytes()
    expected = _interrupted_rewrite(run, night, monkeypatch)
    assert night.read_bytes() == before and len(_journals(night)) == 1
    assert run("-f", night, "status").exit_code == 0
    assert not _journals(night)
    lines, want = night.read_bytes().split(b"\r\n"), expected.split(b"\r\n")
    assert lines[0] == want[0] and len(lines) == len(want)  # (the rows differ in their times)
    assert run("-f", night, "verify").exit_code == 0


def test_a_journal_of_another_version_of_the_file_is_not_applied(
    run: Run, night: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = night.read_bytes().split(b"\r\n")
    _interrupted_rewrite(run, night, monkeypatch)
    (journal,) = _journals(night)
    rewritten = journal.read_bytes()
    # Before any scorepad runs again, an older copy (two hands fewer) is put back by hand: the
    # journal rewrites another version of the file, and copying it in would lose this one.
    night.write_bytes(b"\r\n".join([*rows[:-3], b""]))
    before = night.read_bytes()
    for command in (["hand", "--leaster", "--winner", "Cy"], ["status"]):
        result = run("-f", night, *command)
        assert result.exit_code == 1, result.stdout
        assert f"{journal.name} is an unfinished rewrite of another version" in result.stderr
    assert night.read_bytes() == before and journal.read_bytes() == rewritten


HOLD_AND_ASK = textwrap.dedent("""\
    import fcntl, os, sys
    fd = os.open(sys.argv[1], os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        print("free")
    except BlockingIOError:
        print("held")
""")


@pytest.mark.skipif(os.name == "nt", reason="flock is POSIX's")
def test_the_lock_scorepad_holds_is_the_flock_other_programs_see(night: Path) -> None:
    """Compatible both ways on POSIX: a plain `flock` holder makes scorepad wait (tested in
    test_hardening), and scorepad's lock is an `flock` that another process sees."""

    def ask() -> str:
        env = {k: v for k, v in os.environ.items() if k != "SCOREPAD_LOCKS"}
        return subprocess.run(
            [sys.executable, "-c", HOLD_AND_ASK, str(night)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout.strip()

    assert ask() == "free"
    with locked(night):
        assert ask() == "held"
    assert ask() == "free"


def test_scorepad_itself_never_imports_a_platform_module() -> None:
    """Only scorepad/files.py names the platform's lock (fcntl on POSIX, portalocker else)."""
    package = Path(session.__file__).parent
    for source in package.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        if source.name != "files.py":
            assert "fcntl" not in text and "msvcrt" not in text and "portalocker" not in text, (
                source
            )
