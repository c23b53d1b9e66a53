"""The checkpoint: the checked state of a night after its last row, kept beside the session file.

A report of a file whose first N bytes were checked before need not check them again. After a
pass that found no problem, the ledger's state and the report's counts are written beside the
file (`.FILE.checkpoint`, JSON, written whole to a temp file and renamed) with:

- the byte offset it covers, the number of lines there and the SHA-256 of those bytes (the
  rows it was made from: any change to them, of the same length or not, is seen);
- the SHA-256 of its own content (everything else in it: a changed digit anywhere is seen);
- the scorepad version and the file's format and columns.

The next report confirms both digests (hashing the bytes costs a fraction of parsing them) and
feeds only the rows after them. What a report takes from it is the state after those rows: it is
trusted with nothing else, and with that only once both digests match. The sidecar is
untrusted input, as the session file is: it is opened only if it is a regular file (not a link,
a FIFO, a device or a folder), without blocking, read as JSON of a bounded size, and every
field is checked by its owner; anything that does not fit means a full pass. It is never
needed: removing it costs one full pass. `verify` never trusts it: it reads the whole file, says
where a sidecar does not hold what the pass computed, and writes a good one.
"""

import json
import os
import stat
from contextlib import suppress
from pathlib import Path
from typing import Any, NamedTuple

from .. import __version__
from ..errors import ScorepadError
from ..i18n import gettext as _
from ..text import is_digest
from . import files
from .journal import temp_beside
from .snapshot import Head, Snapshot

SCHEMA = 2  # the layout of the sidecar itself (2: with the digest of its own content)

MIN_SIZE = 32 << 10  # a smaller session (a night of about 120 hands) has no sidecar beside it

_MOST = 1 << 20  # the most a sidecar may hold (one holds a few KiB)

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class Checkpoint(NamedTuple):
    """A state of the night after the first `offset` bytes of a file, whose digest it holds."""

    offset: int  # the bytes it covers (a whole number of lines)
    lines: int  # the line ends in them
    state: dict[str, Any]  # what the ledger and the report kept (checked by their owners)
    digest: str  # the SHA-256 of those bytes, in hexadecimal


class Found(NamedTuple):
    """A sidecar read from beside a file (`read`), and what it says of the file."""

    checkpoint: Checkpoint | None  # it, if its digests match the file (else None)
    why: str  # why it does not match ("" when it does, or when there is no sidecar)
    hasher: Any  # the digest of the bytes it covers, to go on with (hashlib's object)


def sidecar(path: Path) -> Path:
    """Where the checkpoint of a session file lives: beside it, as `.FILE.checkpoint` (beside
    the path given: a link has its own)."""
    return path.with_name(f".{path.name}.checkpoint")


def new_digest() -> Any:
    # (imported here: hashlib's C module costs every command milliseconds to load, and
    # recording a hand needs none)
    import hashlib

    return hashlib.sha256()


def confirm(snapshot: Snapshot, offset: int, lines: int, digest: str) -> Any:
    """The digest (hashlib's object, to go on with) of the first `offset` bytes of the snapshot,
    if they end a line and have the SHA-256 `digest`; else None. (Their `lines` line ends are
    what they were when the digest was made, which the checkpoint's own digest vouches for.)"""
    if not 0 < offset <= snapshot.size or files.pread(snapshot.fd, 1, offset - 1) != b"\n":
        return None
    hasher = new_digest()
    for block in snapshot.blocks(0, offset):
        hasher.update(block)
    if hasher.hexdigest() != digest:
        return None
    return hasher


def read(snapshot: Snapshot, head: Head) -> Found:
    """The sidecar beside the file: its checkpoint when it is one of this version for this
    format and columns, its own digest holds, and it covers a whole number of lines of the
    snapshot whose digest it gives; else why not (empty where there is no sidecar, or one of
    another version of scorepad: nothing to say of it)."""
    data, why = _read(sidecar(head.path))
    if data is None:
        return Found(None, why, None)
    offset, lines, digest = data["offset"], data["lines"], data["digest"]
    if data["format"] != head.codec.version or data["header"] != list(head.codec.order):
        return Found(None, _("it was made for a file of other columns"), None)
    hasher = confirm(snapshot, offset, lines, digest)
    if hasher is None:
        return Found(None, _("the rows it was made from are not those of the file"), None)
    return Found(Checkpoint(offset, lines, data["state"], digest), "", hasher)


def _content_digest(data: dict[str, Any]) -> str:
    """The SHA-256 of a sidecar's content (every field but this digest), as its JSON text."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    hasher = new_digest()
    hasher.update(text.encode("utf-8"))
    return str(hasher.hexdigest())


def _open(path: Path) -> int | None:
    """The sidecar, open for reading, if it is a regular file (never a link, a FIFO, a device
    or a folder, and without waiting for a writer of a FIFO); else None."""
    try:
        if _NOFOLLOW == 0 and os.path.islink(path):  # (where the system has no O_NOFOLLOW)
            return None
        fd = os.open(path, os.O_RDONLY | files.BINARY | _NOFOLLOW | _NONBLOCK)
    except OSError:
        return None
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        regular = False
    if not regular:
        os.close(fd)
        return None
    return fd


def _read(path: Path) -> tuple[dict[str, Any] | None, str]:
    """The sidecar's JSON, if it is one of this version's, its own digest holds and its fields
    have their types; else why not ("" for none, or one of another version)."""
    fd = _open(path)
    if fd is None:
        return None, "" if not os.path.lexists(path) else _("it is not a regular file")
    try:
        raw = files.pread(fd, _MOST + 1, 0)
    except OSError:
        return None, _("it cannot be read")
    finally:
        os.close(fd)
    damaged = _("it is damaged (its content is not what its own digest says)")
    if len(raw) > _MOST:
        return None, damaged
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None, damaged
    if not isinstance(data, dict):
        return None, damaged
    if data.get("schema") != SCHEMA or data.get("scorepad") != __version__:
        return None, ""  # (another version's: read again, and written anew, without a word)
    own = data.pop("self", None)
    if not isinstance(own, str) or own != _content_digest(data):
        return None, damaged
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
            return None, damaged
    if not is_digest(data["digest"]) or data["lines"] < 3:
        return None, damaged
    return data, ""


def save(head: Head, offset: int, lines: int, digest: str, state: dict[str, Any]) -> bool:
    """Write the checkpoint beside the file: a temp file renamed over the old one; whether it
    was written. A folder that cannot take it is no error (the next report reads the whole
    file). It is not synced to the disk: a sidecar a crash cut short fails its own digest, and
    a lost one costs one whole pass (a season writes a hundred of them)."""
    path = sidecar(head.path)
    data: dict[str, Any] = {
        "schema": SCHEMA,
        "scorepad": __version__,
        "format": head.codec.version,
        "header": list(head.codec.order),
        "offset": offset,
        "lines": lines,
        "digest": digest,
        "state": state,
    }
    data["self"] = _content_digest(data)
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(raw) > _MOST:
        return False
    try:  # (named as a rewrite's temp files are, which the next writer tidies if left)
        fd, temp = temp_beside(head.path, follow=False)
    except ScorepadError:  # the folder takes no new file
        return False
    try:
        with os.fdopen(fd, "wb") as out:
            # (readable by whoever may read the session: a temp file is its owner's alone)
            files.fchmod(fd, os.stat(head.path).st_mode & 0o666)
            out.write(raw)
        os.replace(temp, path)
    except OSError:
        with suppress(OSError):
            os.unlink(temp)
        return False
    return True


def forget(path: Path) -> None:
    """Remove the checkpoint of a session file, if it has one."""
    with suppress(OSError):
        os.unlink(sidecar(path))
