"""The few file operations that differ between POSIX (Linux, macOS) and Windows.

`session` owns the session file; this module gives it the platform's lock and calls.

- POSIX: the lock is `fcntl.flock` on the session file itself, called directly: it is the call
  portalocker makes on POSIX, without portalocker's import (several milliseconds, paid by every
  command). Locks are advisory: a reader may go on reading a file a writer holds.
- Windows (or `SCOREPAD_LOCKS=windows`, which the tests use to run this protocol on POSIX):
  the lock is portalocker's (`msvcrt.locking` on the first 64 KiB of the session file). Such a
  lock is mandatory: another handle can neither read nor write that range, and Windows will not
  rename a file over one that is open. So under this protocol a reader holds the lock for as
  long as it reads, a writer reads through the handle it locked, and a rewrite is copied into
  the file in place, with a journal that the next scorepad finishes if the copy was cut short.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

WINDOWS_LOCKS = os.name == "nt" or os.environ.get("SCOREPAD_LOCKS") == "windows"
"""Locks are mandatory and files are not renamed over open ones (see the module's text)."""

BINARY = getattr(os, "O_BINARY", 0)  # (Windows: no newline translation on a descriptor)


def _fcntl() -> ModuleType | None:
    if WINDOWS_LOCKS:
        return None
    try:
        import fcntl
    except ImportError:  # pragma: no cover - (a system that is neither POSIX nor Windows)
        return None
    return fcntl


def try_lock(fd: int, shared: bool) -> bool:
    """Take the lock on an open session file if no other process holds it; whether it did.
    (Under the Windows protocol every lock is exclusive: msvcrt has no shared lock.)"""
    fcntl = _fcntl()
    if fcntl is not None:
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    import portalocker

    try:
        portalocker.lock(fd, portalocker.LockFlags.EXCLUSIVE | portalocker.LockFlags.NON_BLOCKING)
    except portalocker.AlreadyLocked:
        return False
    return True


def unlock(fd: int) -> None:
    fcntl = _fcntl()
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return
    import portalocker

    portalocker.unlock(fd)


def pread(fd: int, size: int, offset: int) -> bytes:
    """Read `size` bytes at `offset` (where the system has no pread, Windows, a seek and a
    read: the same for one thread)."""
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, size)


def pread_into(fd: int, buffer: Any, offset: int) -> int:
    """Read into `buffer` (a writable buffer) at `offset`; the number of bytes read. Where the
    system has preadv, straight into it; else through `pread` and a copy."""
    if hasattr(os, "preadv"):
        return os.preadv(fd, [buffer], offset)
    data = pread(fd, len(buffer), offset)
    buffer[: len(data)] = data
    return len(data)


def fchmod(fd: int, mode: int) -> None:
    if hasattr(os, "fchmod"):  # (not on Windows, where a file's mode is not kept anyway)
        os.fchmod(fd, mode)


def create_exclusive(temp: str, path: os.PathLike[str] | str) -> None:
    """Give a finished temp file the session's name, only if nothing has that name yet
    (FileExistsError otherwise): a hard link where the system has them (the temp file is then
    removed by the caller); on Windows a rename, which refuses an existing name there."""
    if os.name == "nt" or not hasattr(os, "link"):
        if os.path.lexists(path):  # (a rename on POSIX would replace it)
            raise FileExistsError(path)
        os.rename(temp, path)
    else:
        os.link(temp, path)


def read_regular(path: os.PathLike[str] | str) -> bytes | None:
    """A whole file's bytes, or None when it is not a regular file (a FIFO, a device, a
    directory): opened without blocking, so that a FIFO never hangs the reader. OSError as
    `open` raises it (no such file, no permission)."""
    import stat

    fd = os.open(path, os.O_RDONLY | BINARY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    finally:
        os.close(fd)
