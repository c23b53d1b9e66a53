"""The checkpoint: the checked state of a night after its last row, kept beside the session file.

A report of a file whose first N bytes were checked before need not check them again. After a
pass that found no problem, the ledger's state is written beside the file
(`.FILE.checkpoint`, JSON, written whole to a temp file, fsynced and renamed), with the byte
offset it covers, the number of lines there, the SHA-256 of those bytes, and the scorepad
version and format that made it. The next report confirms the digest (hashing the bytes costs
a fraction of parsing them) and feeds only the rows after them.

The sidecar is untrusted input, as the session file is: it is read only as JSON of a bounded
size, every field is checked, and anything that does not fit (another version or format, a
digest or line count that does not match, a damaged or missing sidecar) means a full pass. It
is never needed: removing it costs one full pass.
"""

import json
import os
from contextlib import suppress
from pathlib import Path
from typing import Any, NamedTuple

from .. import __version__
from ..errors import ScorepadError
from ..text import is_digest
from . import files
from .base import BLOCK, fsync_dir, write_all
from .journal import temp_beside
from .snapshot import Head, Snapshot

SCHEMA = 1  # the layout of the sidecar itself

MIN_SIZE = 1 << 20  # a smaller session is read whole each time: no sidecar beside it

_MOST = 1 << 20  # the most a sidecar may hold (one holds a few KiB)


class Checkpoint(NamedTuple):
    """A sidecar whose digest matched the file: the state after its first `offset` bytes."""

    offset: int  # the bytes it covers (a whole number of lines)
    lines: int  # the line ends in them
    state: dict[str, Any]  # what the ledger and the report kept (checked by their owners)
    digest: Any  # the SHA-256 of those bytes, to go on with (hashlib's object)


def sidecar(path: Path) -> Path:
    """Where the checkpoint of a session file lives: beside it, as `.FILE.checkpoint` (beside
    the path given: a link has its own)."""
    return path.with_name(f".{path.name}.checkpoint")


def new_digest() -> Any:
    # (imported here: hashlib's C module costs every command 5 ms to load, and a small file
    # has no checkpoint)
    import hashlib

    return hashlib.sha256()


def load(snapshot: Snapshot, head: Head) -> Checkpoint | None:
    """The checkpoint of the file, if there is one that fits it: made by this version for this
    format, covering a whole number of lines of the snapshot whose digest it gives. None for
    anything else (the caller then reads the whole file)."""
    data = _read(sidecar(head.path))
    if data is None:
        return None
    offset, lines, digest = data["offset"], data["lines"], data["digest"]
    if (
        data["format"] != head.codec.version
        or data["header"] != list(head.codec.order)
        or not 0 < offset <= snapshot.size
        or files.pread(snapshot.fd, 1, offset - 1) != b"\n"
    ):
        return None
    hasher, ends, at = new_digest(), 0, 0
    while at < offset:
        block = files.pread(snapshot.fd, min(BLOCK, offset - at), at)
        if not block:
            return None
        hasher.update(block)
        ends += block.count(b"\n")
        at += len(block)
    if ends != lines or hasher.hexdigest() != digest:
        return None
    return Checkpoint(offset, lines, data["state"], hasher)


def _read(path: Path) -> dict[str, Any] | None:
    """The sidecar's JSON, if it is one of this version's and its fields have their types."""
    try:
        with open(path, "rb") as file:
            raw = file.read(_MOST + 1)
    except OSError:
        return None
    if len(raw) > _MOST:
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    if data.get("schema") != SCHEMA or data.get("scorepad") != __version__:
        return None
    wanted = {
        "offset": int,
        "lines": int,
        "format": int,
        "digest": str,
        "header": list,
        "state": dict,
    }
    for key, kind in wanted.items():
        value = data.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            return None
    if not is_digest(data["digest"]) or data["lines"] < 3:
        return None
    return data


def save(head: Head, offset: int, lines: int, digest: str, state: dict[str, Any]) -> None:
    """Write the checkpoint beside the file: a temp file, fsynced, renamed over the old one.
    A folder that cannot take it is no error (the next report reads the whole file)."""
    path = sidecar(head.path)
    data = {
        "schema": SCHEMA,
        "scorepad": __version__,
        "format": head.codec.version,
        "header": list(head.codec.order),
        "offset": offset,
        "lines": lines,
        "digest": digest,
        "state": state,
    }
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(raw) > _MOST:
        return
    try:  # (named as a rewrite's temp files are, which the next writer tidies if left)
        fd, temp = temp_beside(head.path, follow=False)
    except ScorepadError:  # the folder takes no new file
        return
    try:  # (readable by whoever may read the session: a temp file is its owner's alone)
        files.fchmod(fd, os.stat(head.path).st_mode & 0o666)
        write_all(fd, raw)
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(temp, path)
    except OSError:
        with suppress(OSError):
            os.unlink(temp)
        return
    finally:
        if fd >= 0:
            with suppress(OSError):
                os.close(fd)
    fsync_dir(path)


def forget(path: Path) -> None:
    """Remove the checkpoint of a session file, if it has one."""
    with suppress(OSError):
        os.unlink(sidecar(path))
