"""`scorepad repair`: mend what a crash or an editor leaves, keeping every complete hand."""

from __future__ import annotations

import csv
import os
from bisect import bisect_left
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from ..i18n import decimal_text, ngettext
from ..i18n import gettext as _
from .base import ENCODING, SessionError, encode
from .format import (
    HAND_KINDS,
    Cell,
    Codec,
    decimal_whole,
    whole,
)
from .journal import commit, target_of, temp_beside
from .snapshot import Snapshot


def _keep_copy(snapshot: Snapshot, backup: Path) -> None:
    """Copy the snapshot to `backup` (written whole beside it, then renamed into place)."""
    fd, temp = temp_beside(backup, "cannot repair", follow=False)
    try:
        with os.fdopen(fd, "wb") as out:
            snapshot.copy_to(out.fileno())
        os.replace(temp, backup)
    except OSError:
        with suppress(OSError):
            os.unlink(temp)
        raise


class _Discard:
    """Where a repair that cannot be made writes: nowhere (it only finds what it would mend)."""

    def write(self, data: bytes) -> None:
        pass

    def seek(self, offset: int) -> None:
        pass

    def truncate(self) -> None:
        pass


ROOM = 64 * 1024  # more room a repair wants than the two copies (the folder's own blocks)


def size_text(size: int) -> str:
    """A size as people read it: 12 KiB, 3.4 MiB, 1.2 GiB."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            shown = f"{size / scale:.1f}" if size < 10 * scale else f"{size // scale}"
            return f"{decimal_text(shown)} {unit}"
    return ngettext("{size} byte", "{size} bytes", size).format(size=size)


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
            return _(
                "cannot repair: it needs {needed} free beside the file (a new copy of it and "
                "{name}.bak), and {free} are free; nothing was changed (make room, or copy the "
                "file where there is room and repair it there)"
            ).format(needed=size_text(needed), name=path.name, free=size_text(free))
    return None


def repair_file(
    snapshot: Snapshot, codec: Codec | None, tell: Callable[[str], None] | None = None
) -> list[str]:
    """Mend the file (see `Session.repair`); `tell` is told, before anything is changed, of
    each line that cannot be read as CSV and is to be moved into FILE.rejected."""
    path = snapshot.path
    room = _room_problem(snapshot)
    if room is not None:
        done, _unused = _mend(snapshot, codec, _Discard())
        if not done:
            return []  # (nothing to mend: no room needed)
        raise SessionError(path, room)
    fd, temp = temp_beside(path, "cannot repair")
    try:
        with os.fdopen(fd, "wb") as out:
            done, rejected = _mend(snapshot, codec, out)
            out.flush()
            os.fsync(out.fileno())
        if not done:
            os.unlink(temp)
            return []
        if tell is not None:
            for plan in (p for _raw, _line, p in rejected if p):
                tell(plan)
        _keep_copy(snapshot, path.with_name(path.name + ".bak"))
        if rejected:  # (kept only once the new file and the copy are written)
            _reject(path, [raw for raw, _line, _plan in rejected])
        commit(path, snapshot.fd, temp)
    except (OSError, SessionError) as exc:
        with suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, SessionError):
            raise
        raise SessionError(
            path,
            _("cannot repair: {strerror}; the file is as it was").format(strerror=exc.strerror),
        ) from None
    done.append(_("the file as it was is kept as {name}.bak").format(name=path.name))
    return done


_LINE_COLUMNS = ("rules_line", "undoes", "redoes")  # the cells that hold the line of a row
_Seen = tuple[str, str, str, bool]  # a row's kind, hand and ref cells, and if it is an undo


class _Mending:
    """What a repair mends on the rows it writes: decimals, and (once blank lines above were
    removed) the lines that `rules_line`, `undoes` and `redoes` name.

    A row written before a blank line appeared above it names rows by their lines without
    it, and one written after (scorepad appends below a blank line between rows) by their
    lines with it: each cell is read as whichever names the row it must. `rules_line` names
    the last `set` row (at or above it); an undo or a redo the change it takes back or makes
    again: no undo, of its kind for a seat or set row, else a row about the same hand. Which rows an
    undo or redo may name across a removed blank line is learnt in a first pass (`wanted`);
    the second looks at those rows, and refuses a cell that names none, or two."""

    def __init__(self, path: Path, codec: Codec | None, seen: set[int] | None = None):
        self.path = path
        self.numbers = codec.places(Cell.INT) | set(codec.player_at) if codec else set()
        self.at = codec.index if codec else {}
        self.lines_at = (
            {name: codec.index[name] for name in _LINE_COLUMNS if name in codec.columns}
            if codec
            else {}
        )
        self.width = codec.width if codec else 0
        self.removed: list[int] = []  # the lines removed so far (in file order)
        self.unreadable: list[int] = []  # those of them that cannot be read as CSV
        self.decimals: list[int] = []  # the lines whose decimals were written as whole numbers
        self.renumbered: list[int] = []  # the lines whose line cells were renumbered
        self.last_set = (0, 0)  # the last set row's line, as the file is and as it will be
        self.look_at = seen  # the lines whose rows an undo or redo may name (second pass)
        self.seen: dict[int, _Seen] = {}  # those rows
        self.wanted: set[int] = set()  # (first pass) the lines the second must look at

    def new_line(self, line: int) -> int:
        return line - bisect_left(self.removed, line)

    def record(self, raw: bytes, line: int) -> bytes:
        """A record (a line, or the lines of a cell holding line breaks) as it is written."""
        renumber = bool(self.removed and self.lines_at)
        if not renumber and not (self.numbers and b".0" in raw):
            return raw
        try:
            text = raw.decode(ENCODING)
            record = text[:-2] if text.endswith("\r\n") else text[:-1]
            cells = next(csv.reader([record], strict=True))
        except (UnicodeDecodeError, csv.Error, StopIteration):
            return raw
        if len(cells) != self.width:
            return raw
        decimal = False
        whole = decimal_whole()  # (longer is no number a hand holds: left as it is)
        for at in self.numbers:
            found = whole.fullmatch(cells[at])
            if found and "." in cells[at]:
                cells[at] = str(int(found.group(1)))
                decimal = True
        moved = renumber and self._renumber(cells, line)
        if decimal:
            self.decimals.append(line)
        if moved:
            self.renumbered.append(line)
        return encode([cells]) if decimal or moved else raw

    def _renumber(self, cells: list[str], line: int) -> bool:
        """Renumber the lines a row names for the blank lines removed above it."""
        at = self.at
        undo = "undoes" in at and bool(cells[at["undoes"]])
        seen = (cells[at["kind"]], cells[at["hand"]], cells[at["ref"]], undo)
        if seen[0] == "set":
            self.last_set = (line, self.new_line(line))
        if self.look_at is not None and line in self.look_at:
            self.seen[line] = seen
        moved = False
        for name, place in self.lines_at.items():
            target = whole(cells[place]) if cells[place] else None
            if target is None:
                continue
            if name == "rules_line":
                new = self.last_set[1] if target in self.last_set else target
            else:
                new = self._step_target(name, target, seen, line)
            if new != target:
                cells[place] = str(new)
                moved = True
        return moved

    def _step_target(self, name: str, target: int, row: _Seen, line: int) -> int:
        """The line an undo's or a redo's cell names, once the blank lines are removed."""
        # (as the file is: the row on that line now; as the file was: the row whose line
        # that will be)
        now = None if target in self.removed else target
        was = next(
            (old for old in range(target, target + len(self.removed) + 1)
             if old not in self.removed and self.new_line(old) == target),
            None,
        )  # fmt: skip
        if was is not None and was >= line:  # (a row names a row above it)
            was = None
        if now is None or was is None or now == was:
            return self.new_line(now) if now is not None else target
        if self.look_at is None:
            self.wanted.update((now, was))
            return target
        fits = [old for old in (now, was) if _names(row, self.seen.get(old))]
        if len(fits) != 1:
            raise SessionError(
                self.path,
                _(
                    "cannot repair: the {name} cell of line {line} names line {target}, and "
                    "with the blank lines above it removed, which row it means cannot be "
                    "told ({value} of lines {was} and {now} as the file is); nothing was "
                    "changed (remove the blank lines and set that cell by hand)"
                ).format(
                    name=name,
                    line=line,
                    target=target,
                    value="both" if fits else "neither",
                    was=was,
                    now=now,
                ),
                line,
            )
        return self.new_line(fits[0])


def _names(row: _Seen, target: _Seen | None) -> bool:
    """Whether an undo or redo row can name this row (never an undo: an undo takes back the
    last change not taken back, a redo makes again what an undo took back)."""
    if target is None or target[3]:
        return False
    kind, _unused, ref, _unused2 = row
    if kind in ("set", "seat"):
        return target[0] == kind
    return ref != "" and (target[2] == ref or (target[1] == ref and target[0] in _HANDS))


_HANDS = frozenset(kind.value for kind in HAND_KINDS)


def _mend(snapshot: Snapshot, codec: Codec | None, out: Any) -> tuple[list[str], Any]:
    """Write the snapshot mended to `out`, a block at a time; returns what was mended (a line
    each) and the torn last line with its number (None when the last line is whole), which
    the caller keeps in FILE.rejected.

    Blank lines go wherever they are (below the head: one there makes the head unreadable,
    and a file whose head cannot be read keeps those between rows). A blank line removed
    moves the rows below it up, so the cells that name a row by its line (`rules_line`,
    `undoes`, `redoes`) are renumbered; a cell that names a blank line refuses the repair. A
    record is a line, or the lines of a quoted cell holding line breaks (a blank line inside
    one is part of the cell, and kept)."""
    first = _Mending(snapshot.path, codec)
    found = _pass(snapshot, first, out)
    if not first.wanted:
        return found
    # An undo or redo names a row across a removed blank line: again, looking at that row.
    out.seek(0)
    out.truncate()
    return _pass(snapshot, _Mending(snapshot.path, codec, first.wanted), out)


def _pass(snapshot: Snapshot, mending: _Mending, out: Any) -> tuple[list[str], Any]:
    """One pass of `_mend`."""
    path = snapshot.path
    columns_known = bool(mending.width)
    done: list[str] = []
    blank_run: list[tuple[int, bytes]] = []
    pending: list[bytes] = []  # the lines of a record whose quoted cell is not closed yet
    pending_line = 0
    quotes = 0
    rejected: list[tuple[bytes, int, str]] = []  # (the line, its number, what is said first)

    def reject(record: bytes, at: int, why: str) -> None:
        """Move a record that cannot be read as CSV out of the file, into FILE.rejected (never
        lost); the rows below move up, as for a blank line."""
        mending.removed.append(at)
        mending.unreadable.append(at)
        rejected.append((record, at, _moving(path, at, why)))
        done.append(
            _("moved line {line}, which cannot be read as CSV, to {name}.rejected").format(
                line=at, name=path.name
            )
        )

    for line, raw in enumerate(snapshot.binary(), 1):
        if not raw.endswith(b"\n"):  # the torn last line
            if pending:
                out.write(b"".join(pending))
                pending = []
            rejected.append((raw, line, ""))
            done.append(
                _("moved the incomplete line {line} ({size} bytes) to {name}.rejected").format(
                    line=line, size=len(raw), name=path.name
                )
            )
            continue
        if not pending and not raw.strip():
            blank_run.append((line, raw))
            continue
        if blank_run:  # blank lines before more rows
            if not columns_known:  # (no columns to renumber: kept)
                out.write(b"".join(blank for _, blank in blank_run))
            else:
                mending.removed += [at for at, _ in blank_run]
            blank_run = []
        if not pending:
            pending_line = line
        pending.append(raw)
        quotes += raw.count(b'"')
        if quotes % 2:  # (inside a quoted cell: the record goes on on the next line)
            continue
        record = b"".join(pending)
        pending, quotes = [], 0
        why = _unreadable(record) if columns_known and pending_line > 3 else None
        if why is not None:
            reject(record, pending_line, why)
        else:
            out.write(mending.record(record, pending_line))
    if pending:  # (a quoted cell never closed: it runs to the end of the file)
        record = b"".join(pending)
        why = _unreadable(record) if columns_known and pending_line > 3 else None
        if why is not None:
            reject(record, pending_line, why)
        else:
            out.write(record)
    removed = [at for at in mending.removed if at not in mending.unreadable]
    if removed:
        done.append(
            ngettext(
                "removed {count} blank line between rows ({lines})",
                "removed {count} blank lines between rows ({lines})",
                len(removed),
            ).format(count=len(removed), lines=_lines_text(removed))
        )
        if mending.renumbered:
            renumbered = mending.renumbered
            done.append(
                ngettext(
                    "renumbered the lines that rules_line, undoes and redoes name (the rows "
                    "below a blank line moved up) on {count} line ({lines})",
                    "renumbered the lines that rules_line, undoes and redoes name (the rows "
                    "below a blank line moved up) on {count} lines ({lines})",
                    len(renumbered),
                ).format(count=len(renumbered), lines=_lines_text(renumbered))
            )
    if blank_run:
        done.append(
            ngettext(
                "removed {count} blank line at the end",
                "removed {count} blank lines at the end",
                len(blank_run),
            ).format(count=len(blank_run))
        )
    if mending.decimals:
        mended = mending.decimals
        done.append(
            ngettext(
                "wrote whole numbers written as decimals (like 2.0) as whole numbers on "
                "{count} line ({lines})",
                "wrote whole numbers written as decimals (like 2.0) as whole numbers on "
                "{count} lines ({lines})",
                len(mended),
            ).format(count=len(mended), lines=_lines_text(mended, named=False))
        )
    return done, rejected


def _unreadable(record: bytes) -> str | None:
    """Why a record (a line, or the lines of a quoted cell) cannot be read as CSV, as verify
    reads it; None when it can."""
    try:
        text = record.decode(ENCODING)
    except UnicodeDecodeError:
        return None  # (not UTF-8: verify says so, and a person mends it)
    try:
        list(csv.reader([text[:-2] if text.endswith("\r\n") else text[:-1]], strict=True))
    except csv.Error as exc:
        return str(exc)
    return None


def _moving(path: Path, line: int, why: str) -> str:
    """What a repair says before it moves an unreadable line out of the file."""
    return _(
        "{path}:{line}: cannot be read as CSV ({why}); moving it into {name}.rejected (kept "
        "there as it was, not lost)"
    ).format(path=path, line=line, why=why, name=path.name)


def _lines_text(lines: list[int], named: bool = True) -> str:
    """`line 4`, `lines 4, 7`, `lines 4, 7, 9, 12, 15 and 2 more` (`named`: one line as a
    line, else as `lines 4`)."""
    if named and len(lines) == 1:
        return _("line {line}").format(line=lines[0])
    shown = ", ".join(str(n) for n in lines[:5])
    if len(lines) > 5:
        return _("lines {shown} and {more} more").format(shown=shown, more=len(lines) - 5)
    return _("lines {shown}").format(shown=shown)


def _reject(path: Path, lines: list[bytes]) -> None:
    """Keep the lines moved out of the file (a torn last line, lines that cannot be read as
    CSV) at the end of FILE.rejected, appended and fsynced, once (a repair that failed after
    keeping them and is run again does not keep them twice)."""
    rejected = path.with_name(path.name + ".rejected")
    chunk = b"".join(raw if raw.endswith(b"\n") else raw + b"\n" for raw in lines)
    with suppress(OSError):
        size = rejected.stat().st_size
        if size >= len(chunk):
            with open(rejected, "rb") as kept:
                kept.seek(size - len(chunk))
                if kept.read() == chunk:
                    return
    try:
        with open(rejected, "ab") as out:
            out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
    except OSError as exc:
        raise SessionError(
            rejected, _("cannot write: {strerror}").format(strerror=exc.strerror)
        ) from None
