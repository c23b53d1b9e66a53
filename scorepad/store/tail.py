"""The end of a session file: its last rows, read without the rows above them."""

from __future__ import annotations

import csv
from collections.abc import Iterator

from ..i18n import gettext as _
from . import files
from .base import ENCODING, MAX_LINE, TORN, VERIFY_HINT, SessionError, hinted
from .format import (
    LedgerError,
    Row,
)
from .scan import line_at, line_count
from .snapshot import TOO_LONG, Head, Snapshot

_TAIL_CHUNK = 64 * 1024


def tail(snapshot: Snapshot, head: Head) -> tuple[Row, int]:
    """The last row (or the session row) and the last hand number, reading only the tail."""
    if snapshot.torn():
        raise SessionError(head.path, TORN, line_count(snapshot) + 1)
    last = None
    for row in _rows_back(snapshot, head):
        last = last or row
        if row.hand is not None:
            return last, row.hand
    return last or head.start, 0


def row_at_line(snapshot: Snapshot, head: Head, line: int) -> Row:
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
    raw = line_at(snapshot, start)
    try:
        cells = next(csv.reader([raw.decode(ENCODING).rstrip("\r")], strict=True))
        return head.codec.decode(cells, line)
    except (UnicodeDecodeError, csv.Error, StopIteration, LedgerError) as exc:
        raise SessionError(head.path, hinted(f"cannot read this line: {exc}"), line) from None


def _tail_row(snapshot: Snapshot, head: Head, raw: bytes, from_end: int) -> Row:
    def fail(message: str) -> SessionError:
        line = line_count(snapshot) - from_end + 1
        return SessionError(head.path, hinted(message), line)

    try:
        text = raw.decode(ENCODING).rstrip("\r")
    except UnicodeDecodeError:
        raise fail(_("not UTF-8 text")) from None
    try:
        cells = next(csv.reader([text], strict=True), [])
    except csv.Error as exc:
        raise fail(
            _(
                "cannot read this line as CSV: {exc}; `scorepad repair` moves it into a "
                ".rejected file beside it"
            ).format(exc=exc)
        ) from None
    try:
        return head.codec.decode(cells, 0)
    except LedgerError as exc:
        raise fail(exc.message) from None


def rows_back(snapshot: Snapshot, head: Head) -> Iterator[Row]:
    """The rows below the head from the last one up, each with its line: read a chunk at a
    time from the end, so a walk back through the last few changes reads only them."""
    total = line_count(snapshot)  # (the file ends with a line end: `tail` says so)
    for from_end, row in enumerate(_rows_back(snapshot, head)):
        yield row._replace(line=total - from_end)


def _rows_back(snapshot: Snapshot, head: Head) -> Iterator[Row]:
    """The rows below the head from the last one up (`line` not set: counting the lines above
    would read the whole file)."""
    pos, buffer, from_end = snapshot.size, b"", 0  # `buffer`: the bytes from `pos` not given
    while True:
        start = max(0, pos - _TAIL_CHUNK)
        buffer = files.pread(snapshot.fd, pos - start, start) + buffer
        pos = start
        pieces = buffer.split(b"\n")[:-1]
        if start > 0:  # the first piece may be the end of a line that began before the chunk
            buffer = pieces[0] + b"\n"
            pieces = pieces[1:]
            if len(buffer) > MAX_LINE:
                line = line_count(snapshot) - from_end - len(pieces)
                raise SessionError(head.path, f"{TOO_LONG}; {VERIFY_HINT}", line)
        else:
            pieces = pieces[3:]  # (the head: `read_head` read its three lines)
        for raw in reversed(pieces):
            from_end += 1
            yield _tail_row(snapshot, head, raw, from_end)
        if start == 0:
            return
