"""A rewrite put in the session's place: on POSIX a temp file renamed over it; under the Windows
protocol a journal copied in place, which the next scorepad finishes if the copy was cut short
(see `files`). Also the temp files a rewrite makes and the tidying of what a killed one left."""

from __future__ import annotations

import os
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path

from ..i18n import gettext as _
from . import files
from .base import BLOCK, SessionError, blocks, fsync_dir, write_all

_JOURNAL = ".journal"


def target_of(path: Path) -> Path:
    """The file a session path names: the path itself, or, when it is a symbolic link, the
    file the link leads to. A rewrite replaces that file (in its own folder) and keeps the
    link, and what a rewrite leaves beside the session (temp files, a journal) is beside it."""
    if not os.path.islink(path):  # (one lstat: the common case costs no more)
        return path
    return Path(os.path.realpath(path))


def beside(path: Path) -> list[str]:
    """What scorepad may have left beside the session (`.FILE.*`: temp files of a rewrite,
    the journal of one), in one look at the folder (the link's target's, for a link)."""
    path = target_of(path)
    prefix = f".{path.name}."
    try:
        with os.scandir(path.parent if str(path.parent) else ".") as entries:
            return [e.path for e in entries if e.name.startswith(prefix)]
    except OSError:
        return []


def journal_in(found: Sequence[str]) -> Path | None:
    """The journal of an unfinished rewrite among what `beside` found (see `commit`)."""
    return next((Path(f) for f in found if f.endswith(_JOURNAL)), None)


def _digest(fd: int) -> str:
    """Who a journal belongs to: the start of the SHA-256 of the file it rewrites."""
    import hashlib

    digest = hashlib.sha256()
    for block in blocks(fd, 0, os.fstat(fd).st_size):
        digest.update(block)
    return digest.hexdigest()[:16]


def commit(path: Path, locked_fd: int, temp: str) -> None:
    """Put a finished (fsynced) temp file in the session's place; the caller holds the lock on
    `locked_fd`. On POSIX a rename over the session (a reader keeps the file it has open).
    Under the Windows protocol the temp file becomes the journal, named after the file it
    rewrites (`.FILE.DIGEST.journal`), and is copied into the session in place (see
    `finish_rewrite`). An OSError before the session is touched leaves it as it was (the
    caller removes the temp file). A session path that is a symbolic link keeps it: the
    rename (or the journal) is the link's target's, in its folder (see `target_of`)."""
    target = target_of(path)
    if not files.WINDOWS_LOCKS:
        os.chmod(temp, os.stat(target).st_mode & 0o777)
        os.replace(temp, target)
        fsync_dir(target)
        return
    journal = target.with_name(f".{target.name}.{_digest(locked_fd)}{_JOURNAL}")
    os.replace(temp, journal)
    fsync_dir(target)
    finish_rewrite(path, locked_fd, journal)


def finish_rewrite(path: Path, locked_fd: int, journal: Path) -> None:
    """Copy the journal of a rewrite into the session in place, then remove it. The journal
    is whole (it was fsynced before it took its name), so a copy cut short by a crash is done
    again by the next scorepad to take the lock: when the session is still the file the
    journal rewrites (its digest), or a part of the journal's copy (a prefix of it). Any other
    file is not touched: the journal is not its own (a copy put back by hand, say)."""
    digest = journal.name[len(target_of(path).name) + 2 : -len(_JOURNAL)]
    try:
        if digest != _digest(locked_fd) and not _is_prefix(locked_fd, journal):
            raise SessionError(
                path,
                _(
                    "{name} is an unfinished rewrite of another version of this file, not of "
                    "this one: nothing was changed; remove or rename {name} (it is a whole "
                    "session file, in the newer version) and run the command again"
                ).format(name=journal.name),
            )
        with open(journal, "rb") as source:
            os.ftruncate(locked_fd, 0)  # (the descriptor appends: the copy starts at byte 0)
            while block := source.read(BLOCK):
                write_all(locked_fd, block)
            os.fsync(locked_fd)
        os.unlink(journal)
    except OSError as exc:
        raise SessionError(
            path,
            _(
                "cannot finish rewriting the file: {strerror}; the next scorepad command "
                "finishes it (from {name})"
            ).format(strerror=exc.strerror, name=journal.name),
        ) from None
    fsync_dir(journal)


def _is_prefix(fd: int, journal: Path) -> bool:
    """Whether the open file holds the start of the journal (a copy that was cut short)."""
    size = os.fstat(fd).st_size
    if size > journal.stat().st_size:
        return False
    with open(journal, "rb") as source:
        return all(source.read(len(block)) == block for block in blocks(fd, 0, size))


def tidy(path: Path, locked_fd: int) -> None:
    """Just after taking the lock: finish a rewrite that was cut short (see `commit`) and
    remove the temp files a killed rewrite or `new` left (none can be under way now)."""
    found = beside(path)
    journal = journal_in(found)
    if journal is not None:
        finish_rewrite(path, locked_fd, journal)
    # (`undo N` makes its steps on a copy, `.FILE.XXXX.tmp`, rewritten as a session is: a kill
    # can leave the copy's own temp files and journal beside it, `..FILE.XXXX.tmp.*`)
    target = target_of(path)
    of_copies = beside(target.with_name(f".{target.name}"))
    for leftover in found + of_copies:
        if leftover.endswith(".tmp") or leftover in of_copies:  # (as `temp_beside` names them)
            with suppress(OSError):
                os.unlink(leftover)


def temp_beside(path: Path, doing: str = "cannot rewrite", follow: bool = True) -> tuple[int, str]:
    """A new temp file beside `path` (with `follow`, beside a link's target, where a rewrite
    renames it), opened as `tempfile.mkstemp` opens one (its module and those it imports
    cost a report that leaves a checkpoint 7 ms of its start)."""
    if follow:
        path = target_of(path)
    folder = path.parent if str(path.parent) else Path(".")
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL
    for name in ("O_NOFOLLOW", "O_BINARY", "O_NOINHERIT"):  # (where the platform has them)
        flags |= getattr(os, name, 0)
    why = ""
    for _try in range(100):  # (a name already taken: another)
        temp = os.path.abspath(folder / f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(temp, flags, 0o600), temp
        except OSError as exc:
            why = exc.strerror or str(exc)
            if not isinstance(exc, FileExistsError):
                break
    raise SessionError(
        path, _("{doing}: {strerror}; the file is as it was").format(doing=doing, strerror=why)
    )
