"""New session files and new rows: `create`, `append` (one write, fsynced), and the atomic
rewrites: `add_column` (a new player's column) and `upgrade` (a newer format)."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import suppress
from pathlib import Path

from ..i18n import english
from ..i18n import gettext as _
from ..rules import Rules
from . import files
from .base import ENCODING, NEWLINE, SessionError, encode, fsync_dir, write_all
from .format import (
    BY_NAME,
    CREATED_VERSION,
    Codec,
    LedgerError,
    Row,
    RowKind,
    check_new_name,
    header,
)
from .journal import commit, temp_beside
from .snapshot import Head, Snapshot


def create(path: Path, players: Sequence[str], rules: Rules, first_dealer: str, time: str) -> Head:
    """Write a new session file; refuses to touch a file that exists."""
    players = tuple(check_new_name(p) for p in players)
    codec = Codec.new(players)
    with english():  # (what the file keeps is never translated)
        stored_summary = rules.summary()
    rules_row = Row(
        RowKind.RULES,
        note=json.dumps(rules.to_dict(stored=True), ensure_ascii=False, separators=(",", ":")),
        time=time,
    )
    start = Row(
        RowKind.SESSION,
        dealer=first_dealer,
        next_dealer=first_dealer,
        seated=players,
        totals=dict.fromkeys(players, 0),
        note=stored_summary,
        time=time,
    )
    data = encode([codec.order, codec.encode(rules_row), codec.encode(start)])
    exists = SessionError(
        path, _("already exists; scorepad never overwrites a session (choose another ⟨file⟩)")
    )
    if os.path.lexists(path):
        if os.path.isfile(path) and os.path.getsize(path) == 0:
            raise SessionError(
                path,
                _(
                    "is empty (a `scorepad new` that never finished?): `scorepad repair` "
                    "removes it; then run `scorepad new` again"
                ),
            )
        raise exists
    # Written whole to a temp file beside it, then linked into place, which fails if the path
    # exists meanwhile: a crash leaves no half-made session, only a temp file the next writer
    # removes.
    fd, temp = temp_beside(path, "cannot create")
    try:
        write_all(fd, data)
        os.fsync(fd)
        files.fchmod(fd, 0o644)
        os.close(fd)
        fd = -1
        files.create_exclusive(temp, path)
    except FileExistsError:
        raise exists from None
    except OSError as exc:
        raise SessionError(
            path, _("cannot create: {strerror}").format(strerror=exc.strerror)
        ) from None
    finally:
        if fd >= 0:
            os.close(fd)
        with suppress(OSError):
            os.unlink(temp)
    fsync_dir(path)
    return Head(path, players, rules, first_dealer, start, codec)


def append(path: Path, fd: int, codec: Codec, new_rows: Sequence[Row]) -> None:
    """Append rows with one write, then fsync; on failure the file is cut back as it was."""
    data = encode([codec.encode(row) for row in new_rows])
    size = os.fstat(fd).st_size
    try:
        write_all(fd, data)
        os.fsync(fd)
    except OSError as exc:
        try:
            os.ftruncate(fd, size)
            os.fsync(fd)
        except OSError:
            pass
        raise SessionError(
            path, _("cannot write: {strerror}; the file is as it was").format(strerror=exc.strerror)
        ) from None


def add_column(
    path: Path, locked_fd: int, head: Head, codec: Codec, new_rows: Sequence[Row]
) -> None:
    """Rewrite the session with a column for a new player, then the rows that seat them.

    `codec` is the new file's: the old one with one player inserted; that column is empty in
    every row so far. The caller holds the lock on `locked_fd`.
    """
    (name,) = [p for p in codec.players if p not in head.players]
    at = codec.index[name]

    def rows(reader: Iterator[list[str]]) -> Iterator[list[str]]:
        for number, cells in enumerate(reader):
            cells.insert(at, name if number == 0 else "")
            yield cells
        yield from (codec.encode(row) for row in new_rows)

    _rewrite(path, locked_fd, rows)


def upgrade(path: Path, locked_fd: int, head: Head, version: int = CREATED_VERSION) -> None:
    """Rewrite a session of an older format in a newer one (`version`: at least the format a
    new session is written in): every row decoded by the columns it has and written with the
    columns of that format. The caller holds the lock on `locked_fd`."""
    version = max(version, CREATED_VERSION)
    named = [p for p in head.players if p in BY_NAME and BY_NAME[p].since <= version]
    if named:
        raise SessionError(
            path,
            _(
                "this change needs the file in format {version}, which has a column "
                "named {named!r}, the name of a player here: the file is as it was (what "
                "it records is read as before; a change that needs the newer format "
                "cannot be made in it)"
            ).format(version=version, named=named[0]),
        )
    new = Codec(head.codec.players, header(head.codec.players, version), version)

    def rows(reader: Iterator[list[str]]) -> Iterator[list[str]]:
        yield list(new.order)
        next(reader)
        for line, cells in enumerate(reader, 2):
            yield new.encode(head.codec.decode(cells, line))

    _rewrite(path, locked_fd, rows)


def _rewrite(
    path: Path, locked_fd: int, rows: Callable[[Iterator[list[str]]], Iterable[list[str]]]
) -> None:
    """Rewrite the session as `rows` makes its rows from the old ones: one atomic rewrite (see
    `commit`) that streams the old file, so it needs no more memory for a longer night."""
    fd, temp = temp_beside(path)
    try:
        with (
            os.fdopen(fd, "w", encoding=ENCODING, newline="") as out,
            Snapshot(path, fd=locked_fd) as snapshot,
        ):
            csv.writer(out, lineterminator=NEWLINE).writerows(
                rows(csv.reader(snapshot.text(), strict=True))
            )
            out.flush()
            os.fsync(out.fileno())
        commit(path, locked_fd, temp)
    except (OSError, csv.Error, LedgerError) as exc:
        with suppress(OSError):
            os.unlink(temp)
        raise SessionError(
            path,
            _("cannot rewrite: {value}; the file is as it was").format(
                value=getattr(exc, "strerror", None) or exc
            ),
        ) from None
