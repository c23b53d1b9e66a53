"""A session of an older format rewritten in the current one (atomically)."""

from __future__ import annotations

import csv
import os
from contextlib import suppress
from pathlib import Path

from ..i18n import gettext as _
from .base import ENCODING, NEWLINE, SessionError
from .format import (
    BY_NAME,
    CREATED_VERSION,
    Codec,
    LedgerError,
    header,
)
from .journal import commit, temp_beside
from .snapshot import Head, Snapshot


def upgrade(path: Path, locked_fd: int, head: Head, version: int = CREATED_VERSION) -> None:
    """Rewrite a session of an older format in a newer one (`version`: at least the format a
    new session is written in): every row decoded by the columns it has and written with the
    columns of that format, atomically (see `commit`)."""
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
    fd, temp = temp_beside(path, "cannot rewrite")
    try:
        with (
            os.fdopen(fd, "w", encoding=ENCODING, newline="") as out,
            Snapshot(path, fd=locked_fd) as snapshot,
        ):
            writer = csv.writer(out, lineterminator=NEWLINE)
            writer.writerow(new.order)
            reader = csv.reader(snapshot.text(), strict=True)
            next(reader)
            for cells in reader:
                writer.writerow(new.encode(head.codec.decode(cells, reader.line_num)))
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
