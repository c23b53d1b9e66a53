"""The session file: the one module that opens it, and the API every command goes through.

`Session(path)` reads and changes one session file:

- reading: `head()` (players, rules, format), `state()` (the night as its last row records it:
  only the head and the tail are read), `check()` (the one checking pass over every row, which
  `verify` prints and every report runs first), `night()` (the same, refusing on any problem);
- changing, each under an exclusive lock on the file: `record`, `record_doubler`, `void`,
  `undo`, `amend`, `seat_add`, `seat_remove`, `repair`; `preview` scores a hand as `record`
  would, without writing.

A reader sees one snapshot of the file: it opens it once, notes its size under a shared lock
(so never in the middle of an append) and reads no further; a rewrite renames a new file over
the path, so the file it has open never changes under it. An append is one write, flushed and
fsynced; a rewrite is a temp file in the same folder, fsynced and renamed over the session.
(Windows needs another protocol for its mandatory locks, in which a reader holds the lock and a
rewrite is copied in place from a journal: see `files` and `_commit`.)
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import IO, Any, NamedTuple

from . import files
from .errors import HandError, ScorepadError, worded
from .ledger import Counts, Fate, HandView, Ledger, rules_of_set_row, set_row_text
from .rules import Rules, rules_from_dict
from .schema import (
    BY_NAME,
    CORRECTIONS,
    FORMAT_VERSION,
    HAND_KINDS,
    Cell,
    Codec,
    LedgerError,
    Problem,
    Row,
    RowKind,
    check_name,
    check_new_name,
    header,
)
from .scoring import Hand, Penalty, Score, find_player, same_name

ENCODING = "utf-8"
NEWLINE = "\r\n"  # RFC 4180
_BLOCK = 1 << 20  # (no larger than MAX_LINE: `_corrections` relies on it)
MAX_HEAD = 1 << 20  # the most the header, rules row and session row may hold together
_TAIL_CHUNK = 64 * 1024
MAX_LINE = 1 << 20  # the longest line below the head read (a row scorepad writes is < 1 KiB)
TORN = "the last line is incomplete (the machine may have stopped mid-write); run `scorepad repair`"
VERIFY_HINT = "run `scorepad verify` to see every problem"


class SessionError(ScorepadError):
    """A problem with a session file, at a line where one is known."""

    def __init__(self, path: Path | str, message: str, line: int | None = None):
        self.path, self.line, self._message = str(path), line, message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")

    @property
    def message(self) -> str:
        """The message without the file and line."""
        return worded(self._message)


class Head(NamedTuple):
    """What the top of a session file says: the players (seat order), rules and first dealer."""

    path: Path
    players: tuple[str, ...]
    rules: Rules
    first_dealer: str
    start: Row  # the session row: the state before the first hand
    codec: Codec  # reads and writes its rows (and knows its format version)


def now() -> str:
    """The time a row is written, as ISO 8601 with the local offset."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


def _encode(rows: Sequence[Sequence[str]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator=NEWLINE)
    writer.writerows(rows)
    return buffer.getvalue().encode(ENCODING)


def _file_error(path: Path, exc: OSError, doing: str) -> SessionError:
    """Say in a line why the session file cannot be opened."""
    if isinstance(exc, FileNotFoundError):
        return SessionError(
            path,
            "no such session file; start one with `scorepad new "
            "⟨players⟩ A,B,C,D,E` (or give -f FILE)",
        )
    if isinstance(exc, IsADirectoryError):
        return SessionError(path, "is a folder, not a session file")
    return SessionError(path, f"cannot {doing}: {exc.strerror}")


DEFAULT_WAIT = 30.0
"""How long a command waits for the lock another scorepad holds, in seconds (`--wait`)."""
_QUIET_WAIT = 0.5  # a wait shorter than this is not worth a word


class Waiting(NamedTuple):
    """How a command waits for the session's lock: at most `seconds`, and `say` (if given) is
    told once when the wait is longer than a moment."""

    seconds: float = DEFAULT_WAIT
    say: Callable[[str], None] | None = None


WAIT = Waiting()
"""The default: wait up to DEFAULT_WAIT seconds, without a word."""


def _flock(fd: int, shared: bool, path: Path, waiting: Waiting) -> None:
    """Take the lock on the session file, waiting for another scorepad at most as long as
    `waiting` says; a SessionError when that is not enough."""
    import time

    start = time.monotonic()
    said = False
    while not files.try_lock(fd, shared):
        waited = time.monotonic() - start
        if waited >= waiting.seconds:
            raise SessionError(
                path,
                f"locked by another scorepad for {waited:.0f} s; gave up (wait longer with "
                f"⟨wait⟩ SECONDS, or see whether a scorepad is still running)",
            )
        if not said and waited >= min(_QUIET_WAIT, waiting.seconds) and waiting.say:
            waiting.say(
                f"scorepad: {path} is locked by another scorepad; waiting (up to "
                f"{waiting.seconds:g} s)..."
            )
            said = True
        time.sleep(0.05)


# --- reading one snapshot -----------------------------------------------------------------------


class LineTooLong(Exception):
    """A line of a session file is longer than MAX_LINE (it is not read whole)."""


_TOO_LONG = f"this line is longer than {MAX_LINE // 1024} KiB: not a row scorepad wrote"


class _Bounded(io.RawIOBase):
    """The first `size` bytes of an open file, read with pread (the snapshot)."""

    def __init__(self, fd: int, size: int):
        self.fd, self.size, self.pos = fd, size, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        want = min(len(buffer), self.size - self.pos)
        if want <= 0:
            return 0
        got = files.pread_into(self.fd, memoryview(buffer)[:want], self.pos)
        self.pos += got
        return got


def _bounded_lines(text: IO[str]) -> Iterator[str]:
    while True:
        line = text.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE:
            raise LineTooLong
        yield line


class Snapshot:
    """One consistent view of a session file: opened once, read up to the size it had when
    no writer was in the middle of an append.

    A reader opens the file and notes its size under the lock (on POSIX it lets the lock go at
    once and reads on: a rewrite renames a new file over the path, so the file it has open does
    not change; under the Windows protocol it holds the lock until it closes). A writer reads
    through the descriptor it holds locked (`fd`), which the snapshot does not close."""

    def __init__(self, path: Path, waiting: Waiting = WAIT, fd: int | None = None):
        self.path = path
        self._own = fd is None
        self._held = False  # this snapshot holds the lock (the Windows protocol)
        if fd is not None:
            self.fd = fd
            self.size = os.fstat(fd).st_size
            return
        if os.path.exists(path) and not os.path.isdir(path) and not os.path.isfile(path):
            raise SessionError(path, "is not a regular file")
        while True:
            try:
                self.fd = os.open(path, os.O_RDONLY | files.BINARY)
            except OSError as exc:
                raise _file_error(path, exc, "read") from None
            try:
                _flock(self.fd, True, path, waiting)
                unfinished = _journal(_beside(path)) is not None
                if not unfinished:
                    self.size = os.fstat(self.fd).st_size
                    if files.WINDOWS_LOCKS:
                        self._held = True
                    else:
                        files.unlock(self.fd)
                    return
            except BaseException:
                os.close(self.fd)
                raise
            os.close(self.fd)  # a rewrite was cut short: a writer finishes it, then read again
            with locked(path, waiting):
                pass

    def close(self) -> None:
        if not self._own:
            return
        if self._held:
            with suppress(OSError):
                files.unlock(self.fd)
        os.close(self.fd)

    def __enter__(self) -> Snapshot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def text(self) -> IO[str]:
        """The snapshot as text, from the start (a BOM is skipped)."""
        raw = io.BufferedReader(_Bounded(self.fd, self.size), _BLOCK)
        return io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")

    def lines(self) -> Iterator[str]:
        """The snapshot's lines, each read in bounded memory: a line longer than MAX_LINE raises
        LineTooLong (for the CSV reader, which would otherwise hold it whole)."""
        self._text = self.text()
        return _bounded_lines(self._text)

    def lines_on(self, bounded: bool) -> Iterable[str]:
        """The lines after those `lines()` gave: each checked against MAX_LINE as it is read,
        or, when a pass over the bytes found no line that long (`bounded` false), the text
        stream itself (iterated by the CSV reader in C, much faster)."""
        return _bounded_lines(self._text) if bounded else self._text

    def torn(self) -> bool:
        """Whether the last line lacks its line end (a write that did not finish)."""
        return self.size > 0 and files.pread(self.fd, 1, self.size - 1) != b"\n"

    def blocks(self) -> Iterator[bytes]:
        pos = 0
        while pos < self.size:
            data = files.pread(self.fd, min(_BLOCK, self.size - pos), pos)
            if not data:
                return
            pos += len(data)
            yield data

    def read_head(self) -> tuple[Head, csv.Reader]:  # type: ignore[name-defined]
        """Read and check the header, rules row and session row; returns the head and the CSV
        reader, positioned at the first row below them."""
        path = self.path
        if self.size == 0:
            raise SessionError(path, "the file is empty, not a scorepad session", 1)
        # The head's three lines are short (the rules row is the longest, a few KiB): a file
        # whose first lines are not is refused before they are read into memory.
        start = files.pread(self.fd, MAX_HEAD + 1, 0)
        if start.count(b"\n") < 3 and len(start) > MAX_HEAD:
            raise SessionError(
                path,
                f"the first lines are longer than {MAX_HEAD // 1024} KiB: not a scorepad session",
                1,
            )
        reader = csv.reader(self.lines(), strict=True)
        records: list[list[str]] = []
        codec = None
        for number in (1, 2, 3):
            try:
                cells = next(reader)
            except StopIteration:
                raise SessionError(
                    path, "the file ends before its rules and session rows", number
                ) from None
            except csv.Error as exc:
                if self.torn() and self.head_line_ends() < number:  # (torn inside quotes)
                    raise SessionError(
                        path, "the line is incomplete; run `scorepad repair`", number
                    ) from None
                raise SessionError(path, f"cannot read this line as CSV: {exc}", number) from None
            except UnicodeDecodeError:
                raise SessionError(path, "not UTF-8 text", number) from None
            if reader.line_num != number:
                raise SessionError(path, "a cell holds a line break", number)
            records.append(cells)
            if number == 1:
                try:
                    codec = Codec.from_header(cells)
                except LedgerError as exc:
                    raise SessionError(path, exc.message, 1) from None
        if self.torn():
            ends = self.head_line_ends()
            if ends < 3:
                raise SessionError(path, "the line is incomplete; run `scorepad repair`", ends + 1)
        assert codec is not None
        return _head(path, codec, *records[1:]), reader

    def head_line_ends(self) -> int:
        """How many of the first three lines end (3 when the head is whole)."""
        ends = 0
        for block in self.blocks():
            ends += block.count(b"\n")
            if ends >= 3:
                return 3
        return ends


def _version(path: Path, codec: Codec, rules_cells: Sequence[str]) -> int:
    """The format version a file's rules row states (a file without the column is version 1)."""
    if codec.version:
        return codec.version
    at = codec.index["format"]
    text = rules_cells[at] if len(rules_cells) == codec.width else ""
    if not (text.isascii() and text.isdigit()):
        raise SessionError(path, f"format: {text[:20]!r} is not a format version", 2)
    number = int(text)
    if number > FORMAT_VERSION:
        raise SessionError(
            path,
            f"this session file is in format {number}, written by a newer "
            f"scorepad; this one reads formats 1 to {FORMAT_VERSION}: "
            f"upgrade scorepad (pip install -U scorepad)",
            2,
        )
    if number < 2:
        raise SessionError(path, f"format: {number} is not a format version", 2)
    return number


def _head(path: Path, codec: Codec, rules_cells: list[str], start_cells: list[str]) -> Head:
    codec = codec.of_version(_version(path, codec, rules_cells))
    players = codec.players
    if not players:
        raise SessionError(path, "not a scorepad session: the header names no players", 1)
    seen = set()
    for name in players:
        try:
            check_name(name, codec.version)
        except ScorepadError as exc:
            raise SessionError(path, f"header: {exc}", 1) from None
        if name != name.strip() or same_name(name) in seen:
            raise SessionError(
                path, f"header: player {name!r} is listed twice or has spaces around it", 1
            )
        seen.add(same_name(name))
    try:
        rules_row = codec.decode(rules_cells, 2)
        start = codec.decode(start_cells, 3)
    except LedgerError as exc:
        raise SessionError(path, exc.message, exc.line) from None
    if rules_row.kind is not RowKind.RULES:
        raise SessionError(path, "the second line must be the rules row", 2)
    try:
        data = json.loads(rules_row.note)
        if not isinstance(data, dict):
            raise ValueError
    except (ValueError, RecursionError):
        raise SessionError(path, "the rules row's note is not a JSON rules table", 2) from None
    try:
        rules = rules_from_dict(data, "rules")
        rules = rules._replace(source=rules.name)  # (what it was read from is this file)
    except ScorepadError as exc:
        raise SessionError(path, str(exc), 2) from None
    if start.kind is not RowKind.SESSION or start.dealer is None or start.next_dealer is None:
        raise SessionError(
            path, "the third line must be the session row, naming the first dealer", 3
        )
    return Head(path, players, rules, start.dealer, start, codec)


def _corrections(
    snapshot: Snapshot, head: Head, details: bool = True
) -> tuple[dict[int, int], int, int]:
    """What the correction rows do to each hand they refer to, the number of line ends, and
    the length of the longest line (in bytes; past MAX_LINE it is only known to be longer): a
    quick pass over the raw bytes that parses only the lines that may be corrections.
    Without `details`, only how many correct each hand (all that checking needs).

    Where the hand number is the first column (as scorepad writes it), a correction is a line
    that begins with a comma (it has no hand number), so only those lines are looked at; a
    block with a line that begins with a quote (a resaved file), or another column order, is
    searched for the kinds' names instead.
    """
    codec = head.codec
    at_kind = codec.index["kind"]
    found: dict[int, int] = {}  # (each a `Fate`)
    needles = [kind.value.encode() for kind in CORRECTIONS]
    hand_first = codec.index["hand"] == 0
    ends = 0
    rest = b""
    skipping = False  # within a line longer than MAX_LINE (no correction: the pass reports it)
    longest = 0  # (a line that ends within a block is no longer than the block: see _BLOCK)
    offset = 0  # where `data` begins in the file
    for block in snapshot.blocks():
        data = rest + block
        first = data.find(b"\n")
        longest = max(longest, (first if first >= 0 else len(data)) + 1)
        if skipping:
            if first < 0:
                offset += len(data)
                rest = b""
                continue
            data, skipping = data[first + 1 :], False
            offset += first + 1
            ends += 1
        cut = data.rfind(b"\n") + 1
        starts = _comma_lines(data, cut) if hand_first else None
        if starts is None:
            hits = sorted(at for needle in needles for at in _finds(data, needle, cut))
            starts = sorted({data.rfind(b"\n", 0, at) + 1 for at in hits})
        for start in starts:
            end = data.find(b"\n", start)
            if end < 0 or end >= cut:
                continue  # (the line goes on into the next block: it is read with it)
            correction = _correction(codec, data[start:end], at_kind)
            if correction is not None:
                kind, ref = correction
                at = offset + start if details else -1
                if kind == RowKind.AMEND:
                    found[ref] = Fate.corrected(found.get(ref, Fate.NONE), amended_at=at)
                else:
                    found[ref] = Fate.corrected(found.get(ref, Fate.NONE), voided_at=at)
        ends += data.count(b"\n", 0, cut)
        rest = data[cut:]
        offset += cut
        if len(rest) > MAX_LINE:
            offset += len(rest)
            rest, skipping = b"", True
            longest = max(longest, MAX_LINE + 1)
    return found, ends, max(longest, len(rest))


_LINE_START = re.compile(rb'\n[,"]')  # a line (not the first) that begins with a comma or quote


def _comma_lines(data: bytes, cut: int) -> list[int] | None:
    """Where the lines of `data[:cut]` that begin with a comma begin; None if a line begins
    with a quote (its first cell may be empty too). One pass of `re` over the bytes: faster
    than `bytes.find` for these two bytes."""
    first = data[:1]
    if first == b'"':
        return None
    starts = [0] if first == b"," else []
    for match in _LINE_START.finditer(data, 0, cut):
        if data[match.end() - 1] == 0x22:  # '"'
            return None
        starts.append(match.end() - 1)
    return starts


def _finds(data: bytes, needle: bytes, cut: int) -> Iterator[int]:
    at = data.find(needle, 0, cut)
    while at >= 0:
        yield at
        at = data.find(needle, at + 1, cut)


def _correction(codec: Codec, raw: bytes, at_kind: int) -> tuple[str, int] | None:
    """The kind of a correction row and the hand it corrects (None: the line is not one)."""
    try:
        cells = next(csv.reader([raw.decode(ENCODING).rstrip("\r")], strict=True))
    except (UnicodeDecodeError, csv.Error, StopIteration):
        return None
    if len(cells) != codec.width or cells[at_kind] not in CORRECTIONS:
        return None
    ref = cells[codec.index["ref"]]
    return (cells[at_kind], int(ref)) if ref.isascii() and ref.isdigit() else None


def _line_at(snapshot: Snapshot, offset: int) -> bytes:
    """The line that begins at a byte of the snapshot, without its line end (at most
    MAX_LINE bytes of it: read a little at a time, as a row is short)."""
    end = min(snapshot.size, offset + MAX_LINE)
    size = 4096
    while True:
        raw = files.pread(snapshot.fd, min(size, end - offset), offset)
        cut = raw.find(b"\n")
        if cut >= 0:
            return raw[:cut]
        if offset + len(raw) >= end:
            return raw
        size *= 16


def _cells_at(snapshot: Snapshot, offset: int) -> list[str] | None:
    """The cells of the row that begins at a byte of the snapshot (see `Fate`), or None."""
    try:
        return next(
            csv.reader([_line_at(snapshot, offset).decode(ENCODING).rstrip("\r")], strict=True)
        )
    except (UnicodeDecodeError, csv.Error, StopIteration):
        return None


def _tail(snapshot: Snapshot, head: Head) -> tuple[Row, int]:
    """The last row (or the session row) and the last hand number, reading only the tail."""
    path, size = head.path, snapshot.size
    if snapshot.torn():
        raise SessionError(path, TORN, _line_count(snapshot) + 1)
    chunk = _TAIL_CHUNK
    while True:
        start = max(0, size - chunk)
        data = files.pread(snapshot.fd, size - start, start)
        lines = data.split(b"\n")[:-1]  # the file ends with a newline
        if start > 0:
            lines = lines[1:]  # the first piece may be part of a line
        last, last_hand = _scan_back(snapshot, head, lines, start == 0)
        if last is not None and last_hand is not None:
            return last, last_hand
        if start == 0:
            raise SessionError(path, "no session row found", 3)
        if not lines and chunk > MAX_LINE:  # not one whole line in the end of the file
            raise SessionError(path, f"{_TOO_LONG}; {VERIFY_HINT}", _line_count(snapshot))
        chunk *= 4


def _last_rows(snapshot: Snapshot, head: Head) -> tuple[Row, Row]:
    """The last row and the one before it (the session row standing for rows not there)."""
    chunk = _TAIL_CHUNK
    while True:
        start = max(0, snapshot.size - chunk)
        lines = files.pread(snapshot.fd, snapshot.size - start, start).split(b"\n")[:-1]
        body = lines[3:] if start == 0 else lines[1:]
        if len(body) < 2 and start > 0 and chunk > 2 * MAX_LINE:
            raise SessionError(
                snapshot.path, f"{_TOO_LONG}; {VERIFY_HINT}", _line_count(snapshot) - len(body)
            )
        if len(body) >= 2 or start == 0:
            rows = [
                _tail_row(snapshot, head, raw, len(body) - at)
                for at, raw in enumerate(body[-2:], len(body) - min(2, len(body)))
            ]
            rows = [head.start] * (2 - len(rows)) + rows
            return rows[0], rows[1]
        chunk *= 4


def _resume(snapshot: Snapshot, head: Head, last: Row, last_hand: int) -> Ledger:
    """The night as its last row records it, under the rules in force then."""
    rules = _rules_in_force(snapshot, head, last.rules_line)
    return Ledger.resume(rules, head.players, last, last_hand, head.codec, last.rules_line)


def _rules_in_force(snapshot: Snapshot, head: Head, line: int | None) -> Rules:
    """The rules the `set` row at `line` put in force (the head's without one)."""
    if not line:
        return head.rules
    row = _row_at_line(snapshot, head, line)
    if row.kind is not RowKind.SET:
        raise SessionError(
            head.path, f"rules_line: line {line} is not a change of the rules; {VERIFY_HINT}", line
        )
    try:
        return rules_of_set_row(row.note)
    except ScorepadError as exc:
        raise SessionError(head.path, f"{exc}; {VERIFY_HINT}", line) from None


def _row_at_line(snapshot: Snapshot, head: Head, line: int) -> Row:
    """The row on a line of the file (a scan for its start: a rare thing to need)."""
    seen, start = 1, 0
    for_offset = 0
    for block in snapshot.blocks():
        at = 0
        while seen < line:
            found = block.find(b"\n", at)
            if found < 0:
                break
            seen += 1
            at = found + 1
            start = for_offset + at
        for_offset += len(block)
        if seen >= line:
            break
    raw = _line_at(snapshot, start)
    try:
        cells = next(csv.reader([raw.decode(ENCODING).rstrip("\r")], strict=True))
        return head.codec.decode(cells, line)
    except (UnicodeDecodeError, csv.Error, StopIteration, LedgerError) as exc:
        raise SessionError(
            head.path, f"cannot read this line: {exc}; {VERIFY_HINT}", line
        ) from None


def _upgrade(path: Path, locked_fd: int, head: Head) -> None:
    """Rewrite a session of an older format in the current one: every row decoded by the
    columns it has and written with the columns of now, atomically (see `_commit`)."""
    named = [p for p in head.players if p in BY_NAME]
    if named:
        raise SessionError(
            path,
            f"this change needs the file in format {FORMAT_VERSION}, which has a column named "
            f"{named[0]!r}, the name of a player here: the file is as it was (what it records "
            f"is read as before; a change that needs the newer format cannot be made in it)",
        )
    new = Codec(head.codec.players, header(head.codec.players), FORMAT_VERSION)
    fd, temp = _temp_beside(path, "cannot rewrite")
    try:
        with (
            os.fdopen(fd, "w", encoding=ENCODING, newline="") as out,
            Snapshot(path, fd=locked_fd) as snapshot,
        ):
            writer = csv.writer(out, lineterminator=NEWLINE)
            writer.writerow(new.order)
            reader = csv.reader(snapshot.text(), strict=True)
            next(reader)
            for cells in reader:
                writer.writerow(new.encode(head.codec.decode(cells, reader.line_num)))
            out.flush()
            os.fsync(out.fileno())
        _commit(path, locked_fd, temp)
    except (OSError, csv.Error, LedgerError) as exc:
        with suppress(OSError):
            os.unlink(temp)
        raise SessionError(
            path, f"cannot rewrite: {getattr(exc, 'strerror', None) or exc}; the file is as it was"
        ) from None


_JOURNAL = ".journal"


def _target(path: Path) -> Path:
    """The file a session path names: the path itself, or, when it is a symbolic link, the
    file the link leads to. A rewrite replaces that file (in its own folder) and keeps the
    link, and what a rewrite leaves beside the session (temp files, a journal) is beside it."""
    if not os.path.islink(path):  # (one lstat: the common case costs no more)
        return path
    return Path(os.path.realpath(path))


def _beside(path: Path) -> list[str]:
    """What scorepad may have left beside the session (`.FILE.*`: temp files of a rewrite,
    the journal of one), in one look at the folder (the link's target's, for a link)."""
    path = _target(path)
    prefix = f".{path.name}."
    try:
        with os.scandir(path.parent if str(path.parent) else ".") as entries:
            return [e.path for e in entries if e.name.startswith(prefix)]
    except OSError:
        return []


def _journal(found: Sequence[str]) -> Path | None:
    """The journal of an unfinished rewrite among what `_beside` found (see `_commit`)."""
    return next((Path(f) for f in found if f.endswith(_JOURNAL)), None)


def _digest(fd: int) -> str:
    """Who a journal belongs to: the start of the SHA-256 of the file it rewrites."""
    import hashlib

    digest = hashlib.sha256()
    size, at = os.fstat(fd).st_size, 0
    while at < size:
        block = files.pread(fd, min(_BLOCK, size - at), at)
        if not block:
            break
        digest.update(block)
        at += len(block)
    return digest.hexdigest()[:16]


def _commit(path: Path, locked_fd: int, temp: str) -> None:
    """Put a finished (fsynced) temp file in the session's place; the caller holds the lock on
    `locked_fd`. On POSIX a rename over the session (a reader keeps the file it has open).
    Under the Windows protocol the temp file becomes the journal, named after the file it
    rewrites (`.FILE.DIGEST.journal`), and is copied into the session in place (see
    `_finish_rewrite`). An OSError before the session is touched leaves it as it was (the
    caller removes the temp file). A session path that is a symbolic link keeps it: the
    rename (or the journal) is the link's target's, in its folder (see `_target`)."""
    target = _target(path)
    if not files.WINDOWS_LOCKS:
        os.chmod(temp, os.stat(target).st_mode & 0o777)
        os.replace(temp, target)
        _fsync_dir(target)
        return
    journal = target.with_name(f".{target.name}.{_digest(locked_fd)}{_JOURNAL}")
    os.replace(temp, journal)
    _fsync_dir(target)
    _finish_rewrite(path, locked_fd, journal)


def _finish_rewrite(path: Path, locked_fd: int, journal: Path) -> None:
    """Copy the journal of a rewrite into the session in place, then remove it. The journal
    is whole (it was fsynced before it took its name), so a copy cut short by a crash is done
    again by the next scorepad to take the lock: when the session is still the file the
    journal rewrites (its digest), or a part of the journal's copy (a prefix of it). Any other
    file is not touched: the journal is not its own (a copy put back by hand, say)."""
    digest = journal.name[len(_target(path).name) + 2 : -len(_JOURNAL)]
    try:
        if digest != _digest(locked_fd) and not _is_prefix(locked_fd, journal):
            raise SessionError(
                path,
                f"{journal.name} is an unfinished rewrite of another version of this file, "
                f"not of this one: nothing was changed; remove or rename {journal.name} (it "
                f"is a whole session file, in the newer version) and run the command again",
            )
        with open(journal, "rb") as source:
            os.ftruncate(locked_fd, 0)  # (the descriptor appends: the copy starts at byte 0)
            while block := source.read(_BLOCK):
                _write_all(locked_fd, block)
            os.fsync(locked_fd)
        os.unlink(journal)
    except OSError as exc:
        raise SessionError(
            path,
            f"cannot finish rewriting the file: {exc.strerror}; the next scorepad command "
            f"finishes it (from {journal.name})",
        ) from None
    _fsync_dir(journal)


def _is_prefix(fd: int, journal: Path) -> bool:
    """Whether the open file holds the start of the journal (a copy that was cut short)."""
    size, at = os.fstat(fd).st_size, 0
    if size > journal.stat().st_size:
        return False
    with open(journal, "rb") as source:
        while at < size:
            block = files.pread(fd, min(_BLOCK, size - at), at)
            if not block or source.read(len(block)) != block:
                return False
            at += len(block)
    return True


def _line_count(snapshot: Snapshot) -> int:
    return sum(block.count(b"\n") for block in snapshot.blocks())


def _scan_back(
    snapshot: Snapshot, head: Head, lines: list[bytes], whole: bool
) -> tuple[Row | None, int | None]:
    """Walk lines from the end: the last row, and the number of the last hand row."""
    last = None
    body = lines[3:] if whole else lines
    for index in range(len(body) - 1, -1, -1):
        row = _tail_row(snapshot, head, body[index], len(body) - index)
        if last is None:
            last = row
        if row.hand is not None:
            return last, row.hand
    if whole:
        return last or head.start, 0
    return last, None


def _tail_row(snapshot: Snapshot, head: Head, raw: bytes, from_end: int) -> Row:
    def fail(message: str) -> SessionError:
        line = _line_count(snapshot) - from_end + 1
        return SessionError(head.path, f"{message}; {VERIFY_HINT}", line)

    try:
        text = raw.decode(ENCODING).rstrip("\r")
    except UnicodeDecodeError:
        raise fail("not UTF-8 text") from None
    try:
        cells = next(csv.reader([text], strict=True), [])
    except csv.Error as exc:
        raise fail(f"cannot read this line as CSV: {exc}") from None
    try:
        return head.codec.decode(cells, 0)
    except LedgerError as exc:
        raise fail(exc.message) from None


def check_pass(
    snapshot: Snapshot,
    reader: Any,
    ledger: Ledger,
    line_ends: int,
    stop_at_first: bool = False,
    above: int = 0,
) -> list[Problem]:
    """Feed every row the reader gives to the ledger (`above` lines of the file come before
    its first); returns every problem found."""
    torn_at = line_ends + 1 if snapshot.torn() else None
    problems: list[Problem] = []
    done = above + reader.line_num  # the last line read
    while True:
        try:
            for cells in reader:
                line = done + 1  # where this record started
                done = above + reader.line_num
                if done != line:
                    if torn_at is not None and done >= torn_at:  # a torn line, not a break
                        problems.append(Problem(torn_at, TORN))
                        return problems
                    found = [Problem(line, "a cell holds a line break")]
                elif torn_at is not None and line == torn_at:
                    problems.append(Problem(torn_at, TORN))
                    return problems
                else:
                    found = ledger.feed(cells, line)
                if found:
                    problems += found
                    if stop_at_first:
                        return problems
            return problems
        except csv.Error as exc:
            line = done + 1
            if line == torn_at:  # (torn inside a quoted cell: the reader found no end to it)
                problems.append(Problem(line, TORN))
                return problems
            problems.append(Problem(line, f"cannot read this line as CSV: {exc}"))
            if above + reader.line_num < line or stop_at_first:
                return problems
            done = above + reader.line_num
        except UnicodeDecodeError:
            problems.append(Problem(done + 1, "not UTF-8 text"))
            return problems
        except LineTooLong:
            problems.append(Problem(done + 1, _TOO_LONG))
            return problems


# --- creating -----------------------------------------------------------------------------------


def create(
    path: Path, players: Sequence[str], rules: Rules, first_dealer: str, time: str | None = None
) -> Head:
    """Write a new session file; refuses to touch a file that exists."""
    players = tuple(check_new_name(p) for p in players)
    codec = Codec.new(players)
    time = time or now()
    rules_row = Row(
        RowKind.RULES,
        note=json.dumps(rules.to_dict(), ensure_ascii=False, separators=(",", ":")),
        time=time,
    )
    start = Row(
        RowKind.SESSION,
        dealer=first_dealer,
        next_dealer=first_dealer,
        seated=players,
        pending=0,
        totals=dict.fromkeys(players, 0),
        note=rules.summary(),
        time=time,
    )
    data = _encode([codec.order, codec.encode(rules_row), codec.encode(start)])
    exists = SessionError(
        path, "already exists; scorepad never overwrites a session (choose another ⟨file⟩)"
    )
    if os.path.lexists(path):
        raise exists
    # Written whole to a temp file beside it, then linked into place, which fails if the path
    # exists meanwhile: a crash leaves no half-made session, only a temp file the next writer
    # removes.
    fd, temp = _temp_beside(path, "cannot create")
    try:
        _write_all(fd, data)
        os.fsync(fd)
        files.fchmod(fd, 0o644)
        os.close(fd)
        fd = -1
        files.create_exclusive(temp, path)
    except FileExistsError:
        raise exists from None
    except OSError as exc:
        raise SessionError(path, f"cannot create: {exc.strerror}") from None
    finally:
        if fd >= 0:
            os.close(fd)
        with suppress(OSError):
            os.unlink(temp)
    _fsync_dir(path)
    return Head(path, players, rules, first_dealer, start, codec)


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
def locked(path: Path, waiting: Waiting = WAIT) -> Iterator[int]:
    """Hold an exclusive lock on the session file; yields a descriptor open for reading and
    appending (a writer reads the file through it).

    The lock is taken on the file itself. A rewrite renames a new file over the path, so after
    taking the lock we check the path still names the file we locked, and retry if not. A
    rewrite cut short (under the Windows protocol) is finished first, and temp files a killed
    rewrite left are removed.
    """
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND | files.BINARY)
        except OSError as exc:
            raise _file_error(path, exc, "open for writing") from None
        try:
            _flock(fd, False, path, waiting)
            try:
                same = os.fstat(fd).st_ino == os.stat(path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                _tidy(path, fd)
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    try:
        yield fd
    finally:
        with suppress(OSError):
            files.unlock(fd)
        os.close(fd)


def _tidy(path: Path, locked_fd: int) -> None:
    """Just after taking the lock: finish a rewrite that was cut short (see `_commit`) and
    remove the temp files a killed rewrite or `new` left (none can be under way now)."""
    found = _beside(path)
    journal = _journal(found)
    if journal is not None:
        _finish_rewrite(path, locked_fd, journal)
    for leftover in found:
        if leftover.endswith(".tmp"):  # (as `_temp_beside` names them)
            with suppress(OSError):
                os.unlink(leftover)


def append(path: Path, fd: int, codec: Codec, new_rows: Sequence[Row]) -> None:
    """Append rows with one write, then fsync; on failure the file is cut back as it was."""
    data = _encode([codec.encode(row) for row in new_rows])
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
        raise SessionError(path, f"cannot write: {exc.strerror}; the file is as it was") from None


def _temp_beside(path: Path, doing: str = "cannot rewrite", follow: bool = True) -> tuple[int, str]:
    """A new temp file beside `path` (with `follow`, beside a link's target, where a rewrite
    renames it)."""
    import tempfile

    if follow:
        path = _target(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        return tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise SessionError(path, f"{doing}: {exc.strerror}; the file is as it was") from None


def add_column(
    path: Path, locked_fd: int, head: Head, codec: Codec, new_rows: Sequence[Row]
) -> None:
    """Rewrite the session with a column for a new player, then the rows that seat them.

    `codec` is the new file's: the old one with one player inserted; that column is empty in
    every row so far. One atomic rewrite (see `_commit`) that streams the old file, so it needs
    no more memory for a longer night. The caller holds the lock on `locked_fd`.
    """
    (name,) = [p for p in codec.players if p not in head.players]
    at = codec.index[name]
    fd, temp = _temp_beside(path)
    try:
        with (
            os.fdopen(fd, "w", encoding=ENCODING, newline="") as out,
            Snapshot(path, fd=locked_fd) as snapshot,
        ):
            writer = csv.writer(out, lineterminator=NEWLINE)
            for number, cells in enumerate(csv.reader(snapshot.text(), strict=True)):
                cells.insert(at, name if number == 0 else "")
                writer.writerow(cells)
            writer.writerows(codec.encode(row) for row in new_rows)
            out.flush()
            os.fsync(out.fileno())
        _commit(path, locked_fd, temp)
    except (OSError, csv.Error) as exc:
        with suppress(OSError):
            os.unlink(temp)
        raise SessionError(
            path, f"cannot rewrite: {getattr(exc, 'strerror', None) or exc}; the file is as it was"
        ) from None


# --- the session API ----------------------------------------------------------------------------


class _Upgrade(Exception):
    """A change needs a newer format than the file's (raised before anything is written)."""


class _Resumed(NamedTuple):
    fd: int  # open for appending, holding the lock
    head: Head
    ledger: Ledger
    last: Row
    last_hand: int


class Reading:
    """One snapshot of a session file being read: its head, then one pass over its rows."""

    def __init__(self, path: Path, snapshot: Snapshot):
        self.path = path
        self._snapshot = snapshot
        self.head, self._reader = snapshot.read_head()

    def state(self) -> Ledger:
        """The night as its last row records it (reads only the end of the file, and the row
        of the last change of the rules, if there was one)."""
        head = self.head
        last, last_hand = _tail(self._snapshot, head)
        return _resume(self._snapshot, head, last, last_hand)

    def check(
        self,
        on_hand: Callable[[HandView], None] | None = None,
        stop_at_first: bool = False,
        keep: Sequence[int] = (),
        fast: bool = True,
        counts: Counts | None = None,
    ) -> tuple[Ledger, list[Problem]]:
        """The one pass: apply and check every row; returns the final state and every problem.

        `on_hand` is called with every hand's final version as the pass reaches it; `keep`
        names hands to remember to the end (a correction is about to be made); `counts` counts
        the hands by their final versions (see `Ledger`); `fast=False` decodes and re-scores
        every row (the tests compare the two)."""
        head, snapshot = self.head, self._snapshot
        details = on_hand is not None or counts is not None
        corrections, line_ends, longest = _corrections(snapshot, head, details)
        ledger = Ledger(
            head.rules,
            head.players,
            head.first_dealer,
            seated=head.start.seated or head.players,
            codec=head.codec,
            corrections=corrections,
            on_hand=on_hand,
            fast=fast,
            counts=counts,
            cells_at=lambda offset: _cells_at(snapshot, offset),
        )
        for ref in keep:
            ledger.keep(ref)
        # The rows below the head, from where its reader stopped (line 3).
        reader = csv.reader(snapshot.lines_on(bounded=longest > MAX_LINE), strict=True)
        return ledger, check_pass(snapshot, reader, ledger, line_ends, stop_at_first, 3)

    def rows(self) -> Iterator[Row]:
        """Every row below the head, decoded, with its line (a second pass, after `night`)."""
        reader = csv.reader(self._snapshot.lines(), strict=True)
        for _ in range(3):
            next(reader, None)
        for cells in reader:
            yield self.head.codec.decode(cells, reader.line_num)

    def night(
        self,
        on_hand: Callable[[HandView], None] | None = None,
        keep: Sequence[int] = (),
        counts: Counts | None = None,
    ) -> Ledger:
        """The checked night for a report; the first problem is an error that says to run
        verify (or repair, for a torn last line)."""
        ledger, problems = self.check(on_hand, stop_at_first=True, keep=keep, counts=counts)
        if problems:
            problem = problems[0]
            if problem.message == TORN:
                raise SessionError(self.path, TORN, problem.line)
            raise SessionError(self.path, f"{problem.message} ({VERIFY_HINT})", problem.line)
        return ledger


class Session:
    """One session file: read it, check it, and change it (every change under its lock)."""

    def __init__(self, path: Path | str, waiting: Waiting = WAIT):
        self.path = Path(path)
        self.waiting = waiting  # how long to wait for another scorepad's lock
        self._fd: int | None = None  # open and locked while this process changes the file

    def _snapshot(self) -> Snapshot:
        if self._fd is not None:  # (a writer reads through the descriptor it holds locked)
            return Snapshot(self.path, fd=self._fd)
        return Snapshot(self.path, self.waiting)

    @classmethod
    def create(
        cls, path: Path | str, players: Sequence[str], rules: Rules, first_dealer: str
    ) -> Session:
        """Start a new session file (never overwrites one)."""
        create(Path(path), players, rules, first_dealer)
        return cls(path)

    # -- reading --

    def head(self) -> Head:
        """The players, rules and first dealer (reads only the top of the file)."""
        with self._snapshot() as snapshot:
            return snapshot.read_head()[0]

    def state(self) -> Ledger:
        """The night as its last row records it (reads only the top and the end)."""
        with self.reading() as reading:
            return reading.state()

    @contextmanager
    def reading(self) -> Iterator[Reading]:
        """One snapshot of the file, for a command that needs its head before the pass (the
        head and the rows then come from the same version of the file)."""
        with self._snapshot() as snapshot:
            yield Reading(self.path, snapshot)

    def check(
        self,
        on_hand: Callable[[HandView], None] | None = None,
        stop_at_first: bool = False,
        keep: Sequence[int] = (),
        fast: bool = True,
        counts: Counts | None = None,
    ) -> tuple[Ledger, list[Problem]]:
        """The one pass: apply and check every row; returns the final state and every problem
        (see `Reading.check`)."""
        with self.reading() as reading:
            return reading.check(on_hand, stop_at_first, keep, fast, counts)

    def night(
        self,
        on_hand: Callable[[HandView], None] | None = None,
        keep: Sequence[int] = (),
        counts: Counts | None = None,
    ) -> Ledger:
        """The checked night for a report (see `Reading.night`)."""
        with self.reading() as reading:
            return reading.night(on_hand, keep, counts)

    def rows_since(self, offset: int, most: int) -> tuple[list[Row], int]:
        """The rows appended since byte `offset`, and where the file ends now. None when the
        offset is not past the header or past the end (a new or rewritten file), or when more
        than `most` bytes came since (a caller then shows the state instead). A SessionError
        when the file or the new rows cannot be read."""
        with self._snapshot() as snapshot:
            end = snapshot.size
            first = files.pread(snapshot.fd, MAX_HEAD, 0).find(b"\n") + 1
            if not 0 < first <= offset <= end or end - offset > most:
                return [], end
            head, _ = snapshot.read_head()
            data = files.pread(snapshot.fd, end - offset, offset)
        try:
            lines = data.decode(ENCODING).splitlines()
            return [head.codec.decode(c, 0) for c in csv.reader(lines, strict=True) if c], end
        except (UnicodeDecodeError, csv.Error, LedgerError) as exc:
            raise SessionError(self.path, f"cannot read the new rows: {exc}") from None

    def preview(self, hand: Hand) -> Score:
        """Score a hand as `record` would now, without writing anything."""
        from .scoring import score

        ledger = self.state()
        return score(ledger.rules, ledger.prepare(hand))

    # -- changing --

    @contextmanager
    def _locked(self) -> Iterator[int]:
        """Hold the exclusive lock; reads meanwhile take no shared lock of their own."""
        with locked(self.path, self.waiting) as fd:
            self._fd = fd
            try:
                yield fd
            finally:
                self._fd = None

    @contextmanager
    def _resumed(self) -> Iterator[_Resumed]:
        """Under the lock: the night as its last row records it, to add a row to."""
        with self._locked() as fd, self._snapshot() as snapshot:
            head, _ = snapshot.read_head()
            last, last_hand = _tail(snapshot, head)
            ledger = _resume(snapshot, head, last, last_hand)
            yield _Resumed(fd, head, ledger, last, last_hand)

    def _append(self, fd: int, codec: Codec, rows: Sequence[Row]) -> None:
        """Append rows; a row that needs a newer format than the file's raises `_Upgrade`
        (the caller's change is then made again once the file is rewritten in it)."""
        if not all(codec.holds(row) for row in rows):
            raise _Upgrade
        append(self.path, fd, codec, rows)

    def _upgraded(self) -> None:
        """Rewrite the file in the current format (only a file that verifies: a problem is an
        error that says to run verify). A file that has every column of the current format
        already cannot hold the row either: that is an error, not a loop."""
        with self._locked() as fd:
            head = self.head()
            current = Codec.new(head.players)
            if head.codec.version >= FORMAT_VERSION and set(current.order) <= set(head.codec.order):
                raise SessionError(self.path, "this file cannot hold the new row", 1)
            self.night()
            _upgrade(self.path, fd, head)

    def record(self, hand: Hand, note: str = "") -> tuple[Row, Score, Ledger]:
        """Score a hand and append it; returns its row, its score and the night after it."""
        try:
            with self._resumed() as night:
                row, result = night.ledger.record(hand, note, now())
                self._append(night.fd, night.head.codec, [row])
        except _Upgrade:
            self._upgraded()
            return self.record(hand, note)
        return row, result, night.ledger

    def penalty(self, penalty: Penalty, note: str = "") -> tuple[Row, Score, Ledger]:
        """Append a penalty: a row of its own, numbered like a hand, that moves no deal."""
        try:
            with self._resumed() as night:
                row, result = night.ledger.penalty_row(penalty, note, now())
                self._append(night.fd, night.head.codec, [row])
        except _Upgrade:
            self._upgraded()
            return self.penalty(penalty, note)
        return row, result, night.ledger

    def record_doubler(self, dealer: str | None = None, note: str = "") -> tuple[Row, Ledger]:
        """Append a thrown-in hand (all_pass = doubler)."""
        with self._resumed() as night:
            row = night.ledger.record_doubler(dealer, note, now())
            append(self.path, night.fd, night.head.codec, [row])
        return row, night.ledger

    def _correct(
        self, ref: int, make: Callable[[Ledger, int], tuple[Row, Score | None]]
    ) -> tuple[Row, Score | None, Ledger]:
        """Under the lock: check the whole file, then append the correction `make` makes."""
        try:
            with self._locked() as fd:
                return self._correct_held(fd, ref, make)
        except _Upgrade:
            self._upgraded()
            return self._correct(ref, make)

    def _correct_held(
        self, fd: int, ref: int, make: Callable[[Ledger, int], tuple[Row, Score | None]]
    ) -> tuple[Row, Score | None, Ledger]:
        """`_correct`, the lock held already."""
        ledger = self.night(keep=[ref])
        row, result = make(ledger, ref)
        self._append(fd, ledger.codec, [row])
        return row, result, ledger

    def void(self, ref: int, reason: str = "") -> tuple[Row, Ledger]:
        """Void hand `ref`: its points are reversed by a new row."""
        row, _, ledger = self._correct(ref, lambda led, r: (led.void_row(r, reason, now()), None))
        return row, ledger

    def undo(self, reason: str = "") -> tuple[str, Row, Score | None, Ledger]:
        """Reverse the last change of the ledger, whatever it was, with a row of its own: a hand
        (or doubler) is voided, a void restored, an amendment taken back, a seat change
        reversed. Returns what was undone (in words), the new row, its score if it has one,
        and the night after it."""
        with self._locked() as fd:
            head = self.head()
            if "rules_line" in head.codec.columns:
                return self._undo_held(fd, reason or "undo")
            with self._snapshot() as snapshot:
                last = _last_rows(snapshot, head)[1]
            if last.kind is not RowKind.VOID:
                return self._undo_held(fd, reason or "undo")
            # Undoing a void writes a `restore` row, which a file of an older format does not
            # know: the file is rewritten in the current format first.
            self.night()
            _upgrade(self.path, fd, head)
        return self.undo(reason)  # the file is a new one now: lock it afresh

    def _undo_held(self, fd: int, note: str) -> tuple[str, Row, Score | None, Ledger]:
        with self._snapshot() as snapshot:
            head, _ = snapshot.read_head()
            if snapshot.torn():
                raise SessionError(self.path, TORN, _line_count(snapshot) + 1)
            before, last = _last_rows(snapshot, head)
            last_row, last_hand = _tail(snapshot, head)
            ledger = _resume(snapshot, head, last_row, last_hand)
            if last.kind is RowKind.SET:
                previous = _rules_in_force(snapshot, head, before.rules_line)
                line = _line_count(snapshot) + 1
        kind = last.kind
        if kind is RowKind.SESSION:
            raise HandError("there is nothing to undo: no change recorded yet")
        if kind is RowKind.SEAT:
            seats = before.seated or head.start.seated or head.players
            row = ledger.seat_row(seats, f"{note}: the seats as before", now())
            append(self.path, fd, head.codec, [row])
            return f"the seat change ({last.note})", row, None, ledger
        if kind is RowKind.SET:
            changes, _ = set_row_text(last.note)
            row = ledger.set_row(previous, [f"undo of {changes}"], line, note, now())
            append(self.path, fd, head.codec, [row])
            return f"the change of the rules ({changes})", row, None, ledger
        ref = last.hand if kind in HAND_KINDS else last.ref
        assert ref is not None
        make: Callable[[Ledger, int], tuple[Row, Score | None]]
        if kind in HAND_KINDS or kind is RowKind.RESTORE:
            what = f"hand {ref}" if kind in HAND_KINDS else f"the restoring of hand {ref}"

            def make(led: Ledger, r: int) -> tuple[Row, Score | None]:
                return led.void_row(r, note, now()), None
        elif kind is RowKind.VOID:
            what = f"the void of hand {ref}"

            def make(led: Ledger, r: int) -> tuple[Row, Score | None]:
                return led.restore_row(r, note, now()), None
        else:
            what = f"the amendment of hand {ref}"

            def make(led: Ledger, r: int) -> tuple[Row, Score | None]:
                return led.unamend_row(r, "", now())

        return (what, *self._correct_held(fd, ref, make))

    def amend(
        self, ref: int, changes: Mapping[str, Any], note: str = ""
    ) -> tuple[Row, Score | None, Ledger]:
        """Replace some inputs of hand `ref` and re-score it."""
        return self._correct(ref, lambda led, r: led.amend_row(r, changes, note, now()))

    def seat_add(self, name: str, after: str | None = None) -> tuple[str, str, Ledger]:
        """Seat a player who joins (a newcomer gets a column); returns their name as written,
        where they sit, and the night after."""
        with self._resumed() as night:
            fd, head, ledger = night.fd, night.head, night.ledger
            name = check_new_name(name)
            player = next((p for p in head.players if same_name(p) == same_name(name)), name)
            if player in ledger.seated:
                raise ScorepadError(f"{player} is already seated")
            order = list(ledger.seated)
            after = find_player(after, order, "⟨after⟩") if after else None
            order.insert(order.index(after) + 1 if after else len(order), player)
            codec = head.codec
            if player not in head.players:  # a newcomer: a new column, next to where they sit
                players = list(head.players)
                players.insert(players.index(after) + 1 if after else len(players), player)
                cells = list(codec.order)
                at = codec.index[after] + 1 if after else codec.player_at[-1] + 1
                cells.insert(at, player)
                codec = Codec(players, cells, codec.version)
                ledger = Ledger.resume(
                    ledger.rules, players, night.last, night.last_hand, codec, night.last.rules_line
                )
            place = f" after {after}" if after else ""
            row = ledger.seat_row(order, f"{player} joins{place}", now())
            if codec is head.codec:
                append(self.path, fd, codec, [row])
            else:
                add_column(self.path, fd, head, codec, [row])
        return player, place, ledger

    def set_rules(self, overrides: Sequence[str], note: str = "") -> tuple[Row, Ledger]:
        """Change some rules from the next hand on: a row of its own holding the whole table
        then in force. A file of an older format is first rewritten in the current one (it
        needs the column that says which rules are in force)."""
        from .rules import changed

        with self._locked() as fd:
            head = self.head()
            if "rules_line" in head.codec.columns:
                with self._snapshot() as snapshot:
                    last, last_hand = _tail(snapshot, head)
                    ledger = _resume(snapshot, head, last, last_hand)
                    line = _line_count(snapshot) + 1
                rules = changed(ledger.rules, overrides)
                row = ledger.set_row(rules, list(overrides), line, note, now())
                append(self.path, fd, head.codec, [row])
                return row, ledger
            # A change that would be refused is refused before any rewrite: tried on the night
            # as it stands (the row it makes is thrown away).
            trial = self.state()
            trial.set_row(changed(trial.rules, overrides), list(overrides), 0, note)
            self.night()  # only a file that verifies is rewritten
            _upgrade(self.path, fd, head)
        return self.set_rules(overrides, note)  # the file is a new one now: lock it afresh

    def seat_remove(self, name: str) -> tuple[str, Ledger]:
        """A player leaves: they keep their total and are no longer dealt in."""
        with self._resumed() as night:
            ledger = night.ledger
            player = find_player(name, ledger.seated, "seat remove")
            order = [p for p in ledger.seated if p != player]
            row = ledger.seat_row(order, f"{player} leaves", now())
            append(self.path, night.fd, night.head.codec, [row])
        return player, ledger

    def repair(self) -> list[str]:
        """Mend what a crash or an editor leaves, keeping every complete hand: a torn last line
        (moved into FILE.rejected), blank lines at the end, and whole numbers written as `2.0`
        (as a spreadsheet or pandas saves them). Returns what it did, a line each (nothing when
        there was nothing to mend; running it again does nothing). The file is read a block at
        a time and rewritten atomically, the original kept as FILE.bak: about twice its size,
        which is looked for first (without it, an error that says what it needs, and nothing
        written)."""
        path = self.path
        with self._locked(), self._snapshot() as snapshot:
            if snapshot.size > 0:
                try:
                    codec: Codec | None = snapshot.read_head()[0].codec
                except SessionError:
                    codec = None  # a head that cannot be read: mend what needs no columns
                return _repair(snapshot, codec)
        # A `new` that never finished: there is nothing in it. (Removed once it is closed:
        # Windows removes no open file.)
        try:
            os.unlink(path)
        except OSError as exc:
            raise SessionError(path, f"cannot remove the empty file: {exc.strerror}") from None
        return ["removed the empty file (start the session with `scorepad new`)"]


_WHOLE = re.compile(r"(-?[0-9]{1,12})\.0*")  # (longer is no number a hand holds: left as it is)


def _keep_copy(snapshot: Snapshot, backup: Path) -> None:
    """Copy the snapshot to `backup` (written whole beside it, then renamed into place)."""
    fd, temp = _temp_beside(backup, "cannot repair", follow=False)
    try:
        with os.fdopen(fd, "wb") as out:
            for block in snapshot.blocks():
                out.write(block)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, backup)
    except OSError:
        with suppress(OSError):
            os.unlink(temp)
        raise


class _Discard:
    """Where a repair that cannot be made writes: nowhere (it only finds what it would mend)."""

    def write(self, data: bytes) -> None:
        pass


_ROOM = 64 * 1024  # more room a repair wants than the two copies (the folder's own blocks)


def _size_text(size: int) -> str:
    """A size as people read it: 12 KiB, 3.4 MiB, 1.2 GiB."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}" if size < 10 * scale else f"{size // scale} {unit}"
    return f"{size} bytes"


def _room_problem(snapshot: Snapshot) -> str | None:
    """Why a repair of this file cannot be made for want of free space (None when it can):
    it writes a new copy of the file beside it (beside a link's target) and keeps the file as
    it was as FILE.bak, so it needs about twice the file's size."""
    import shutil

    path, size = snapshot.path, snapshot.size
    needs: dict[int, list[Any]] = {}  # device: [folder, bytes needed there]
    for folder in (_target(path).parent, path.parent):  # (the new copy; FILE.bak)
        folder = folder if str(folder) else Path(".")
        try:
            device = os.stat(folder).st_dev
        except OSError:
            return None  # (a folder that cannot be looked at: the repair itself says why)
        needs.setdefault(device, [folder, _ROOM])[1] += size
    for folder, needed in needs.values():
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            continue
        if free < needed:
            return (
                f"cannot repair: it needs {_size_text(needed)} free beside the file (a new "
                f"copy of it and {path.name}.bak), and {_size_text(free)} are free; nothing "
                f"was changed (make room, or copy the file where there is room and repair "
                f"it there)"
            )
    return None


def _repair(snapshot: Snapshot, codec: Codec | None) -> list[str]:
    path = snapshot.path
    room = _room_problem(snapshot)
    if room is not None:
        done, _ = _mend(snapshot, codec, _Discard())
        if not done:
            return []  # (nothing to mend: no room needed)
        raise SessionError(path, room)
    fd, temp = _temp_beside(path, "cannot repair")
    try:
        with os.fdopen(fd, "wb") as out:
            done, torn = _mend(snapshot, codec, out)
            out.flush()
            os.fsync(out.fileno())
        if not done:
            os.unlink(temp)
            return []
        _keep_copy(snapshot, path.with_name(path.name + ".bak"))
        if torn is not None:  # (kept only once the new file and the copy are written)
            _reject(path, *torn)
        _commit(path, snapshot.fd, temp)
    except (OSError, SessionError) as exc:
        with suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, SessionError):
            raise
        raise SessionError(path, f"cannot repair: {exc.strerror}; the file is as it was") from None
    done.append(f"the file as it was is kept as {path.name}.bak")
    return done


def _mend(snapshot: Snapshot, codec: Codec | None, out: Any) -> tuple[list[str], Any]:
    """Write the snapshot mended to `out`, a block at a time; returns what was mended (a line
    each) and the torn last line with its number (None when the last line is whole), which
    the caller keeps in FILE.rejected."""
    path = snapshot.path
    numbers = codec.places(Cell.INT) | set(codec.player_at) if codec else set()
    width = codec.width if codec else 0
    done: list[str] = []
    mended: list[int] = []
    blank_run: list[bytes] = []
    torn = None
    line = 0
    rest = b""
    for block in [*snapshot.blocks(), b""]:
        data = rest + block
        if block:
            cut = data.rfind(b"\n") + 1
            lines = [piece + b"\n" for piece in data[:cut].split(b"\n")[:-1]]
            rest = data[cut:]
        else:
            lines, rest = ([data] if data else []), b""
        for raw in lines:
            line += 1
            if not raw.endswith(b"\n"):  # the torn last line
                torn = (raw, line)
                done.append(
                    f"moved the incomplete line {line} ({len(raw)} bytes) to {path.name}.rejected"
                )
                continue
            if not raw.strip():
                blank_run.append(raw)
                continue
            if blank_run:  # blank lines before more rows: not at the end, kept
                out.write(b"".join(blank_run))
                blank_run = []
            out.write(_mend_line(raw, numbers, width, line, mended))
    if blank_run:
        done.append(
            f"removed {len(blank_run)} blank line{'s' if len(blank_run) > 1 else ''} at the end"
        )
    if mended:
        done.append(
            f"wrote whole numbers written as decimals (like 2.0) as whole numbers "
            f"on {len(mended)} line{'s' if len(mended) > 1 else ''} "
            f"({_lines_text(mended)})"
        )
    return done, torn


def _mend_line(raw: bytes, numbers: set[int], width: int, line: int, mended: list[int]) -> bytes:
    """The line with whole numbers written as decimals put right (other lines as they are)."""
    if not numbers or b".0" not in raw:
        return raw
    try:
        cells = next(csv.reader([raw.decode(ENCODING).rstrip("\r\n")], strict=True))
    except (UnicodeDecodeError, csv.Error, StopIteration):
        return raw
    if len(cells) != width:
        return raw
    changed = False
    for at in numbers:
        found = _WHOLE.fullmatch(cells[at])
        if found and "." in cells[at]:
            cells[at] = str(int(found.group(1)))
            changed = True
    if not changed:
        return raw
    mended.append(line)
    return _encode([cells])


def _lines_text(lines: list[int]) -> str:
    shown = ", ".join(str(n) for n in lines[:5])
    return f"lines {shown}" + (f" and {len(lines) - 5} more" if len(lines) > 5 else "")


def _reject(path: Path, raw: bytes, line: int) -> None:
    """Keep a torn line in FILE.rejected, once (a repair that failed after keeping it and is
    run again does not keep it twice)."""
    rejected = path.with_name(path.name + ".rejected")
    with suppress(OSError):
        size = rejected.stat().st_size
        if size > len(raw):
            with open(rejected, "rb") as kept:
                kept.seek(size - len(raw) - 1)
                if kept.read() == raw + b"\n":
                    return
    try:
        with open(rejected, "ab") as out:
            out.write(raw + b"\n")
            out.flush()
            os.fsync(out.fileno())
    except OSError as exc:
        raise SessionError(rejected, f"cannot write: {exc.strerror}") from None
