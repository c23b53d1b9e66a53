"""The session's lock: exclusive for a writer, shared for a moment for a reader, waited for as
long as `Waiting` says."""

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import NamedTuple

from ..i18n import gettext as _
from . import files
from .base import SessionError, file_error
from .journal import tidy

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


def flock(fd: int, shared: bool, path: Path, waiting: Waiting) -> None:
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
                _(
                    "locked by another scorepad for {waited:.0f} s; gave up (wait longer "
                    "with ⟨wait⟩ SECONDS, or see whether a scorepad is still running)"
                ).format(waited=waited),
            )
        if not said and waited >= min(_QUIET_WAIT, waiting.seconds) and waiting.say:
            waiting.say(
                f"scorepad: {path} is locked by another scorepad; waiting (up to "
                f"{waiting.seconds:g} s)..."
            )
            said = True
        time.sleep(0.05)


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
            raise file_error(path, exc, "open for writing") from None
        try:
            flock(fd, False, path, waiting)
            try:
                same = os.fstat(fd).st_ino == os.stat(path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                tidy(path, fd)
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
