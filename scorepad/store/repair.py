"""`scorepad repair`: mend what a crash or an editor leaves, keeping every complete hand."""

from __future__ import annotations

import csv
import os
import re
from contextlib import suppress
from pathlib import Path
from typing import Any

from .base import ENCODING, SessionError, encode
from .format import (
    Cell,
    Codec,
)
from .journal import commit, target_of, temp_beside
from .snapshot import Snapshot

_WHOLE = re.compile(r"(-?[0-9]{1,12})\.0*")  # (longer is no number a hand holds: left as it is)


def _keep_copy(snapshot: Snapshot, backup: Path) -> None:
    """Copy the snapshot to `backup` (written whole beside it, then renamed into place)."""
    fd, temp = temp_beside(backup, "cannot repair", follow=False)
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


ROOM = 64 * 1024  # more room a repair wants than the two copies (the folder's own blocks)


def size_text(size: int) -> str:
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
    for folder in (target_of(path).parent, path.parent):  # (the new copy; FILE.bak)
        folder = folder if str(folder) else Path(".")
        try:
            device = os.stat(folder).st_dev
        except OSError:
            return None  # (a folder that cannot be looked at: the repair itself says why)
        needs.setdefault(device, [folder, ROOM])[1] += size
    for folder, needed in needs.values():
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            continue
        if free < needed:
            return (
                f"cannot repair: it needs {size_text(needed)} free beside the file (a new "
                f"copy of it and {path.name}.bak), and {size_text(free)} are free; nothing "
                f"was changed (make room, or copy the file where there is room and repair "
                f"it there)"
            )
    return None


def repair_file(snapshot: Snapshot, codec: Codec | None) -> list[str]:
    path = snapshot.path
    room = _room_problem(snapshot)
    if room is not None:
        done, _ = _mend(snapshot, codec, _Discard())
        if not done:
            return []  # (nothing to mend: no room needed)
        raise SessionError(path, room)
    fd, temp = temp_beside(path, "cannot repair")
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
        commit(path, snapshot.fd, temp)
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
    return encode([cells])


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
