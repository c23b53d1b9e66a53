"""The session file: the one module that opens it.

Reading (with line numbers, validating as it goes), appending (one write, flushed and fsynced,
under an exclusive lock), atomic rewriting (a temp file in the same folder, fsynced, renamed over
the session) and repairing a torn last line. Recording a hand reads only the file's head (rules
and players) and its tail (the last rows), so its cost does not grow with the night.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .errors import ScorepadError
from .ledger import (HEAD, TAIL, LedgerError, Problem, Replay, Row, Tally, check_name,
                     format_row, header, parse_row)
from .rules import Rules, rules_from_dict

ENCODING = "utf-8"
NEWLINE = "\r\n"  # RFC 4180
FIRST_ROW_LINE = 4  # the header, the rules row and the session row come first
_TAIL_CHUNK = 64 * 1024
TORN = ("the last line is incomplete (the machine may have stopped mid-write); run "
        "`scorepad repair`")


class SessionError(ScorepadError):
    """A problem with a session file, at a line where one is known."""

    def __init__(self, path: Path | str, message: str, line: int | None = None):
        self.path, self.line, self.message = str(path), line, message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Head:
    """What the top of a session file says: the players (seat order), rules and first dealer."""

    path: Path
    players: tuple[str, ...]
    rules: Rules
    first_dealer: str
    start: Row  # the session row: the state before the first hand


def now() -> str:
    """The time a row is written, as ISO 8601 with the local offset."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


def _encode(rows: Sequence[Sequence[str]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator=NEWLINE)
    writer.writerows(rows)
    return buffer.getvalue().encode(ENCODING)


def _decode_line(raw: bytes, path: Path, line: int) -> list[str]:
    try:
        text = raw.decode(ENCODING)
    except UnicodeDecodeError:
        raise SessionError(path, "not UTF-8 text", line) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        rows = list(csv.reader([text.rstrip("\r\n")], strict=True))
    except csv.Error as exc:
        raise SessionError(path, f"cannot read this line as CSV: {exc}", line) from None
    return rows[0] if rows else []


# --- creating -----------------------------------------------------------------------------------


def create(path: Path, players: Sequence[str], rules: Rules, first_dealer: str,
           time: str | None = None) -> Head:
    """Write a new session file; refuses to touch a file that exists."""
    players = tuple(check_name(p) for p in players)
    time = time or now()
    rules_row = Row("rules", note=json.dumps(rules.to_dict(), ensure_ascii=False,
                                             separators=(",", ":")), time=time)
    start = Row("session", dealer=first_dealer, next_dealer=first_dealer, seated=players,
                pending=0,
                totals={p: 0 for p in players}, note=rules.summary(), time=time)
    data = _encode([header(players), format_row(players, rules_row),
                    format_row(players, start)])
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise SessionError(path, "already exists; scorepad never overwrites a session "
                                 "(choose another --file)") from None
    except OSError as exc:
        raise SessionError(path, f"cannot create: {exc.strerror}") from None
    try:
        _write_all(fd, data)
        os.fsync(fd)
    except OSError as exc:
        os.close(fd)
        os.unlink(path)
        raise SessionError(path, f"cannot write: {exc.strerror}") from None
    os.close(fd)
    _fsync_dir(path)
    return Head(path, players, rules, first_dealer, start)


# --- reading ------------------------------------------------------------------------------------


def _file_error(path: Path, exc: OSError, doing: str) -> SessionError:
    """Say in a line why the session file cannot be opened."""
    if isinstance(exc, FileNotFoundError):
        return SessionError(path, "no such session file; start one with `scorepad new "
                                  "--players A,B,C,D,E` (or give -f FILE)")
    if isinstance(exc, IsADirectoryError):
        return SessionError(path, "is a folder, not a session file")
    return SessionError(path, f"cannot {doing}: {exc.strerror}")


def _open_for_reading(path: Path):
    try:
        return open(path, "rb")
    except OSError as exc:
        raise _file_error(path, exc, "read") from None


def _head_line(handle, path: Path, number: int) -> bytes:
    raw = handle.readline()
    if not raw:
        if number == 1:
            raise SessionError(path, "the file is empty, not a scorepad session", 1)
        raise SessionError(path, "the file ends before its rules and session rows", number)
    if not raw.endswith(b"\n"):
        raise SessionError(path, "the line is incomplete; run `scorepad repair`", number)
    return raw


def read_head(path: Path) -> Head:
    """Read and check the header, rules row and session row."""
    with _open_for_reading(path) as handle:
        cells = _decode_line(_head_line(handle, path, 1), path, 1)
        if (len(cells) < len(HEAD) + len(TAIL) + 1 or tuple(cells[:len(HEAD)]) != HEAD
                or tuple(cells[-len(TAIL):]) != TAIL):
            raise SessionError(path, "not a scorepad session: the header must be "
                                     f"{','.join(HEAD)},<players>,{','.join(TAIL)}", 1)
        raw = [_head_line(handle, path, 2), _head_line(handle, path, 3)]
    players = tuple(cells[len(HEAD):-len(TAIL)])
    seen = set()
    for name in players:
        try:
            check_name(name)
        except ScorepadError as exc:
            raise SessionError(path, f"header: {exc}", 1) from None
        if name != name.strip() or name.casefold() in seen:
            raise SessionError(path, f"header: player {name!r} is listed twice or has spaces "
                                     f"around it", 1)
        seen.add(name.casefold())
    try:
        rules_row = parse_row(players, _decode_line(raw[0], path, 2), 2)
        start = parse_row(players, _decode_line(raw[1], path, 3), 3)
    except LedgerError as exc:
        raise SessionError(path, exc.message, exc.line) from None
    if rules_row.kind != "rules":
        raise SessionError(path, "the second line must be the rules row", 2)
    try:
        data = json.loads(rules_row.note)
        if not isinstance(data, dict):
            raise ValueError
    except ValueError:
        raise SessionError(path, "the rules row's note is not a JSON rules table", 2) from None
    try:
        rules = rules_from_dict(data, "rules")
    except ScorepadError as exc:
        raise SessionError(path, str(exc), 2) from None
    if start.kind != "session" or start.dealer is None or start.next_dealer is None:
        raise SessionError(path, "the third line must be the session row, naming the first "
                                 "dealer", 3)
    return Head(path, players, rules, start.dealer, start)


def read_tail(head: Head) -> tuple[Row, int]:
    """The last row (or the session row) and the last hand number, reading only the tail."""
    path = head.path
    with _open_for_reading(path) as handle:
        torn = _torn_line(handle)
        if torn is not None:
            raise SessionError(path, TORN, torn)
        size = handle.seek(0, os.SEEK_END)
        chunk = _TAIL_CHUNK
        while True:
            start = max(0, size - chunk)
            handle.seek(start)
            data = handle.read(size - start)
            lines = data.split(b"\n")[:-1]  # the file ends with a newline
            if start > 0:
                lines = lines[1:]  # the first piece may be part of a line
            last, last_hand = _scan_back(head, lines, start == 0)
            if last is not None and last_hand is not None:
                return last, last_hand
            if start == 0:
                raise SessionError(path, "no session row found", 3)
            chunk *= 4


def _scan_back(head: Head, lines: list[bytes], whole: bool) -> tuple[Row | None, int | None]:
    """Walk lines from the end: the last row, and the number of the last hand row."""
    last = None
    body = lines[3:] if whole else lines
    for index in range(len(body) - 1, -1, -1):
        row = _parse_tail_line(head, body[index])
        if last is None:
            last = row
        if row.hand is not None:
            return last, row.hand
    if whole:
        return last or head.start, 0
    return last, None


def _parse_tail_line(head: Head, raw: bytes) -> Row:
    try:
        cells = _decode_line(raw, head.path, 0)
        return parse_row(head.players, cells, 0)
    except (LedgerError, SessionError) as exc:
        line = _line_of(head.path, raw)
        raise SessionError(head.path, f"{getattr(exc, 'message', exc)}; run `scorepad verify`",
                           line) from None


def _line_of(path: Path, raw: bytes) -> int | None:
    """The line number of the last line equal to `raw` (only on the way to an error)."""
    found = None
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, 1):
            if line.rstrip(b"\n") == raw:
                found = number
    return found


def scan_refs(path: Path, kinds: tuple[str, ...] = ("void", "amend")) -> Counter:
    """How often corrections refer to each hand: a quick pass over the raw bytes, a block at a
    time (memory stays flat), that looks for the kind in the second cell and parses no row."""
    needles = [b"," + kind.encode() + b"," for kind in kinds]
    refs: Counter = Counter()
    with _open_for_reading(path) as handle:
        rest = b""
        while True:
            block = handle.read(1 << 20)
            data = rest + block
            cut = len(data) if not block else data.rfind(b"\n") + 1
            for needle in needles:
                at = data.find(needle, 0, cut)
                while at >= 0:
                    start = data.rfind(b"\n", 0, at) + 1
                    hand = data[start:at].lstrip(b"\xef\xbb\xbf")
                    if not hand or hand.isdigit():  # the kind is the second cell of its line
                        end = data.find(b",", at + len(needle), cut)
                        ref = data[at + len(needle):end]
                        if ref.isdigit():
                            refs[int(ref)] += 1
                    at = data.find(needle, at + 1, cut)
            if not block:
                return refs
            rest = data[cut:]


def rows(head: Head) -> Iterator[Row | Problem]:
    """Every row below the head, parsed, or a Problem for a row that cannot be read."""
    with _open_for_reading(head.path) as handle:
        torn = _torn_line(handle)
        handle.seek(0)
        text = io.TextIOWrapper(handle, encoding="utf-8-sig", newline="")
        reader = csv.reader(text, strict=True)
        while True:
            line = reader.line_num + 1  # where the next record starts
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                yield Problem(line, f"cannot read this line as CSV: {exc}")
                if reader.line_num < line:
                    return
                continue
            except UnicodeDecodeError:
                yield Problem(line, "not UTF-8 text")
                return
            if torn is not None and reader.line_num >= torn:
                yield Problem(torn, TORN)
                return
            if line < FIRST_ROW_LINE:
                continue
            try:
                yield parse_row(head.players, cells, line)
            except LedgerError as exc:
                yield Problem(exc.line, exc.message)


def _torn_line(handle) -> int | None:
    """The line number of a torn last line, if the file has one."""
    handle.seek(0, os.SEEK_END)
    size = handle.tell()
    if size == 0:
        return None
    handle.seek(-1, os.SEEK_END)
    if handle.read(1) == b"\n":
        return None
    handle.seek(0)
    return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b"")) + 1


# --- checking the whole file --------------------------------------------------------------------


def replay(head: Head, keep: set[int] | None = None, stop_at_first: bool = False,
           counting: bool = True) -> tuple[Replay, list[Problem]]:
    """Replay every row, checking each; returns the final state and every problem found.
    `counting=False` skips the players' statistics (for `verify`, which reports no numbers)."""
    refs = scan_refs(head.path) if keep is None else keep
    state = Replay(head.rules, head.players, head.first_dealer, keep=refs,
                   seated=head.start.seated or head.players, counting=counting)
    problems: list[Problem] = []
    for item in rows(head):
        found = [item] if isinstance(item, Problem) else state.feed(item)
        if found:
            problems += found
            if stop_at_first:
                break
            if isinstance(item, Row):
                state.resync(item)
    return state, problems


def tally(head: Head) -> Tally:
    """Add up the night fast for the standings, checking as it goes (see `Tally`); the first
    problem is an error that says to run verify."""
    state = Tally(head.rules, head.players, head.start.seated or head.players,
                  refs=scan_refs(head.path))

    def fail(line: int, message: str) -> SessionError:
        return SessionError(head.path, f"{message} (run `scorepad verify` to see every "
                                       f"problem)", line)

    with _open_for_reading(head.path) as handle:
        torn = _torn_line(handle)
        handle.seek(0)
        reader = csv.reader(io.TextIOWrapper(handle, encoding="utf-8-sig", newline=""),
                            strict=True)
        line = 0
        try:
            for _ in range(FIRST_ROW_LINE - 1):  # the head, read and checked already
                next(reader, None)
            feed = state.feed
            for cells in reader:
                line = reader.line_num
                if torn is not None and line >= torn:
                    raise fail(torn, TORN)
                problem = feed(cells, line)
                if problem:
                    raise fail(line, problem)
        except csv.Error as exc:
            raise fail(reader.line_num, f"cannot read this line as CSV: {exc}") from None
        except UnicodeDecodeError:
            raise fail(reader.line_num + 1, "not UTF-8 text") from None
        except LedgerError as exc:
            raise fail(line, exc.message) from None
    last = state.finish()
    if last:
        raise fail(*last)
    return state


def checked_replay(head: Head, keep: set[int] | None = None) -> Replay:
    """Replay the file for a report; the first problem is an error that says to run verify."""
    state, problems = replay(head, keep, stop_at_first=True)
    if problems:
        problem = problems[0]
        raise SessionError(head.path, f"{problem.message} (run `scorepad verify` to see every "
                                      f"problem)", problem.line)
    return state


# --- writing ------------------------------------------------------------------------------------


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path.parent if str(path.parent) else ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextmanager
def locked(path: Path) -> Iterator[int]:
    """Hold an exclusive lock on the session file; yields a descriptor open for appending.

    The lock is taken on the file itself. A rewrite renames a new file over the path, so after
    taking the lock we check the path still names the file we locked, and retry if not.
    """
    import fcntl

    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            raise _file_error(path, exc, "open for writing") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                same = os.fstat(fd).st_ino == os.stat(path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    try:
        yield fd
    finally:
        os.close(fd)  # closing releases the lock


def append(path: Path, fd: int, players: Sequence[str], new_rows: Sequence[Row]) -> None:
    """Append rows with one write, then fsync; on failure the file is cut back as it was."""
    data = _encode([format_row(players, row) for row in new_rows])
    size = os.fstat(fd).st_size
    try:
        _write_all(fd, data)
        os.fsync(fd)
    except OSError as exc:
        try:
            os.ftruncate(fd, size)
            os.fsync(fd)
        except OSError:
            pass
        raise SessionError(path, f"cannot write: {exc.strerror}; the file is as it was") \
            from None


def rewrite(path: Path, data: bytes) -> None:
    """Replace the file's contents atomically: a temp file in the same folder, then a rename."""
    import tempfile

    folder = path.parent if str(path.parent) else Path(".")
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        _write_all(fd, data)
        os.fsync(fd)
        os.fchmod(fd, os.stat(path).st_mode & 0o777)
        os.close(fd)
        os.replace(temp, path)
    except OSError as exc:
        try:
            os.close(fd)
        except OSError:
            pass
        if os.path.exists(temp):
            os.unlink(temp)
        raise SessionError(path, f"cannot rewrite: {exc.strerror}; the file is as it was") \
            from None
    _fsync_dir(path)


def add_column(path: Path, head: Head, players: Sequence[str], new_rows: Sequence[Row]) -> None:
    """Rewrite the session with a column for a new player, then the rows that seat them.

    `players` is the new header's list of players: the old one with one name inserted; that
    column is empty in every row so far. One atomic rewrite (temp file, fsync, rename) that
    streams the old file, so it needs no more memory for a longer night. The caller holds the
    lock.
    """
    (name,) = [p for p in players if p not in head.players]
    at = len(HEAD) + list(players).index(name)
    import tempfile

    folder = path.parent if str(path.parent) else Path(".")
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding=ENCODING, newline="") as out, \
                open(path, encoding="utf-8-sig", newline="") as source:
            writer = csv.writer(out, lineterminator=NEWLINE)
            for number, cells in enumerate(csv.reader(source, strict=True)):
                cells.insert(at, name if number == 0 else "")
                writer.writerow(cells)
            writer.writerows(format_row(players, row) for row in new_rows)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, os.stat(path).st_mode & 0o777)
        os.replace(temp, path)
    except (OSError, csv.Error) as exc:
        if os.path.exists(temp):
            os.unlink(temp)
        raise SessionError(path, f"cannot rewrite: {getattr(exc, 'strerror', None) or exc}; "
                                 f"the file is as it was") from None
    _fsync_dir(path)


def repair(path: Path) -> tuple[int, int]:
    """Move a torn last line into FILE.rejected; returns (its line number, its size in bytes).

    Every complete line stays. Returns (0, 0) when there is nothing to repair.
    """
    with locked(path):
        with _open_for_reading(path) as handle:
            data = handle.read()
        if not data or data.endswith(b"\n"):
            return 0, 0
        cut = data.rfind(b"\n") + 1
        torn = data[cut:]
        line = data.count(b"\n", 0, cut) + 1
        rejected = path.with_name(path.name + ".rejected")
        try:
            with open(rejected, "ab") as out:
                out.write(torn + b"\n")
                out.flush()
                os.fsync(out.fileno())
        except OSError as exc:
            raise SessionError(rejected, f"cannot write: {exc.strerror}") from None
        rewrite(path, data[:cut])
        return line, len(torn)
