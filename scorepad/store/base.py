"""What every part of the store shares: the file's encoding, line end and limits, the error
that names the file and line, and the calls that write whole and fsync."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from ..errors import ScorepadError, worded
from ..i18n import gettext as _
from . import files

ENCODING = "utf-8"
NEWLINE = "\r\n"  # RFC 4180
BLOCK = 1 << 20  # (no larger than MAX_LINE: `corrections` relies on it)
MAX_HEAD = 1 << 20  # the most the header, rules row and session row may hold together
MAX_LINE = 1 << 20  # the longest line below the head read (a row scorepad writes is < 1 KiB)
TORN = "the last line is incomplete (the machine may have stopped mid-write); run `scorepad repair`"
VERIFY_HINT = "run `scorepad verify` to see every problem"

REPAIR = "`scorepad repair`"  # named by every problem that `scorepad repair` mends


def hinted(message: str) -> str:
    """A problem as a command that stops at it says it: what mends it, if `scorepad repair`
    does (the problem names it), else how to see every problem."""
    return message if REPAIR in message else f"{message}; {VERIFY_HINT}"


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


def encode(rows: Sequence[Sequence[str]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator=NEWLINE)
    writer.writerows(rows)
    return buffer.getvalue().encode(ENCODING)


def file_error(path: Path, exc: OSError, doing: str) -> SessionError:
    """Say in a line why the session file cannot be opened."""
    if isinstance(exc, FileNotFoundError):
        return SessionError(
            path,
            _(
                "no such session file; start one with `scorepad new ⟨players⟩ A,B,C,D,E` "
                "(or give -f FILE)"
            ),
        )
    if isinstance(exc, IsADirectoryError):
        return SessionError(path, _("is a folder, not a session file"))
    return SessionError(
        path, _("cannot {doing}: {strerror}").format(doing=doing, strerror=exc.strerror)
    )


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def blocks(fd: int, start: int, end: int) -> Iterator[bytes]:
    """The bytes of an open file from `start` up to `end`, a block at a time."""
    while start < end:
        data = files.pread(fd, min(BLOCK, end - start), start)
        if not data:
            return
        start += len(data)
        yield data


def fsync_dir(path: Path) -> None:
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
