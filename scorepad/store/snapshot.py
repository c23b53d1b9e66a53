"""One consistent view of a session file (`Snapshot`), and its head read and checked (`Head`)."""

import csv
import io
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import suppress
from pathlib import Path
from typing import IO, Any, NamedTuple

from ..errors import ScorepadError
from ..i18n import gettext as _
from ..rules import Rules, rules_from_dict
from ..scoring import same_name
from . import files
from .base import BLOCK, MAX_HEAD, MAX_LINE, SessionError, blocks, file_error, write_all
from .format import (
    FORMAT_VERSION,
    Codec,
    LedgerError,
    Row,
    RowKind,
    check_name,
)
from .journal import beside, journal_in
from .lock import WAIT, Waiting, flock, locked


class Head(NamedTuple):
    """What the top of a session file says: the players (seat order), rules and first dealer."""

    path: Path
    players: tuple[str, ...]
    rules: Rules
    first_dealer: str
    start: Row  # the session row: the state before the first hand
    codec: Codec  # reads and writes its rows (and knows its format version)


class LineTooLong(Exception):
    """A line of a session file is longer than MAX_LINE (it is not read whole)."""


TOO_LONG = f"this line is longer than {MAX_LINE // 1024} KiB: not a row scorepad wrote"


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


def bounded_lines(text: IO[str]) -> Iterator[str]:
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
            raise SessionError(path, _("is not a regular file"))
        while True:
            try:
                self.fd = os.open(path, os.O_RDONLY | files.BINARY)
            except OSError as exc:
                raise file_error(path, exc, "read") from None
            try:
                flock(self.fd, True, path, waiting)
                unfinished = journal_in(beside(path)) is not None
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

    def __enter__(self) -> "Snapshot":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def text(self, offset: int = 0, end: int | None = None) -> IO[str]:
        """The snapshot as text from byte `offset` (the start of a line; at 0 a BOM is
        skipped), up to byte `end`, if given (the start of a line)."""
        raw = _Bounded(self.fd, self.size if end is None else end)
        raw.pos = offset
        encoding = "utf-8-sig" if offset == 0 else "utf-8"
        text = io.TextIOWrapper(io.BufferedReader(raw, BLOCK), encoding=encoding, newline="")
        # (a block at a time: it reads 8 KiB otherwise, a call of `_Bounded.readinto` each)
        text._CHUNK_SIZE = BLOCK  # type: ignore[attr-defined]
        return text

    def binary(self) -> io.BufferedReader:
        """The snapshot's bytes, from the start (iterated: a line at a time, with its end)."""
        return io.BufferedReader(_Bounded(self.fd, self.size), BLOCK)

    def lines(self) -> Iterator[str]:
        """The snapshot's lines, each read in bounded memory: a line longer than MAX_LINE raises
        LineTooLong (for the CSV reader, which would otherwise hold it whole)."""
        return bounded_lines(self.text())

    def lines_from(self, offset: int, bounded: bool, end: int | None = None) -> Iterable[str]:
        """The lines from byte `offset` on (see `text`): each checked against MAX_LINE as it is
        read, or, when a pass over the bytes found no line that long (`bounded` false), the
        text stream itself (iterated by the CSV reader in C, much faster)."""
        text = self.text(offset, end)
        return bounded_lines(text) if bounded else text

    def torn(self) -> bool:
        """Whether the last line lacks its line end (a write that did not finish)."""
        return self.size > 0 and files.pread(self.fd, 1, self.size - 1) != b"\n"

    def blocks(self, start: int = 0, end: int | None = None) -> Iterator[bytes]:
        """The snapshot's bytes from `start` on (up to `end`, if given), a block at a time."""
        return blocks(self.fd, start, self.size if end is None else end)

    def copy_to(self, fd: int) -> None:
        """Write the snapshot's bytes to an open file, and fsync it."""
        for block in self.blocks():
            write_all(fd, block)
        os.fsync(fd)

    def read_head(self) -> "tuple[Head, csv.Reader]":  # type: ignore[name-defined]
        """Read and check the header, rules row and session row; returns the head and the CSV
        reader, positioned at the first row below them."""
        path = self.path
        if self.size == 0:
            raise SessionError(path, _("the file is empty, not a scorepad session"), 1)
        # The head's three lines are short (the rules row is the longest, a few KiB): a file
        # whose first lines are not is refused before they are read into memory.
        start = files.pread(self.fd, MAX_HEAD + 1, 0)
        if start.count(b"\n") < 3 and len(start) > MAX_HEAD:
            raise SessionError(
                path,
                _("the first lines are longer than {max_head} KiB: not a scorepad session").format(
                    max_head=MAX_HEAD // 1024
                ),
                1,
            )
        ends = min(3, start.count(b"\n"))  # (of the head's lines: `start` holds them, or all)
        reader = csv.reader(self.lines(), strict=True)
        records: list[list[str]] = []
        codec = None
        for number in (1, 2, 3):
            try:
                cells = next(reader)
            except StopIteration:
                raise SessionError(
                    path, _("the file ends before its rules and session rows"), number
                ) from None
            except csv.Error as exc:
                if self.torn() and ends < number:  # (torn inside quotes)
                    raise SessionError(
                        path, _("the line is incomplete; run `scorepad repair`"), number
                    ) from None
                raise SessionError(
                    path,
                    _(
                        "cannot read this line as CSV: {exc}; `scorepad repair` moves it into a "
                        ".rejected file beside it"
                    ).format(exc=exc),
                    number,
                ) from None
            except UnicodeDecodeError:
                raise SessionError(path, _("not UTF-8 text"), number) from None
            if reader.line_num != number:
                raise SessionError(path, _("a cell holds a line break"), number)
            records.append(cells)
            if number == 1:
                try:
                    codec = Codec.from_header(cells)
                except LedgerError as exc:
                    raise SessionError(path, exc.message, 1) from None
        if self.torn() and ends < 3:
            raise SessionError(path, _("the line is incomplete; run `scorepad repair`"), ends + 1)
        assert codec is not None
        return _head(path, codec, *records[1:]), reader


def _version(path: Path, codec: Codec, rules_cells: Sequence[str]) -> int:
    """The format version a file's rules row states (a file without the column is version 1)."""
    if codec.version:
        return codec.version
    at = codec.index["format"]
    text = rules_cells[at] if len(rules_cells) == codec.width else ""
    if not (text.isascii() and text.isdigit()):
        raise SessionError(
            path, _("format: {text!r} is not a format version").format(text=text[:20]), 2
        )
    number = int(text)
    if number > FORMAT_VERSION:
        raise SessionError(
            path,
            _(
                "this session file is in format {number}, written by a newer scorepad; "
                "this one reads formats 1 to {format_version}: upgrade scorepad (pip "
                "install -U scorepad)"
            ).format(number=number, format_version=FORMAT_VERSION),
            2,
        )
    if number < 2:
        raise SessionError(
            path, _("format: {number} is not a format version").format(number=number), 2
        )
    return number


def _head(path: Path, codec: Codec, rules_cells: list[str], start_cells: list[str]) -> Head:
    codec = codec.of_version(_version(path, codec, rules_cells))
    players = codec.players
    if not players:
        raise SessionError(path, _("not a scorepad session: the header names no players"), 1)
    seen = set()
    for name in players:
        try:
            check_name(name, codec.version)
        except ScorepadError as exc:
            raise SessionError(path, f"header: {exc}", 1) from None
        if name != name.strip() or same_name(name) in seen:
            raise SessionError(
                path,
                _("header: player {name!r} is listed twice or has spaces around it").format(
                    name=name
                ),
                1,
            )
        seen.add(same_name(name))
    try:
        rules_row = codec.decode(rules_cells, 2)
        start = codec.decode(start_cells, 3)
    except LedgerError as exc:
        raise SessionError(path, exc.message, exc.line) from None
    if rules_row.kind is not RowKind.RULES:
        raise SessionError(path, _("the second line must be the rules row"), 2)
    try:
        data = json.loads(rules_row.note)
        if not isinstance(data, dict):
            raise ValueError
    except (ValueError, RecursionError):
        raise SessionError(path, _("the rules row's note is not a JSON rules table"), 2) from None
    try:
        rules = rules_from_dict(data, "rules")
        rules = rules._replace(source=rules.name)  # (what it was read from is this file)
    except ScorepadError as exc:
        raise SessionError(path, str(exc), 2) from None
    if start.kind is not RowKind.SESSION or start.dealer is None or start.next_dealer is None:
        raise SessionError(
            path, _("the third line must be the session row, naming the first dealer"), 3
        )
    return Head(path, players, rules, start.dealer, start, codec)
