"""Quick passes over a snapshot's raw bytes: what the correction rows do to each hand (`Fate`,
found before the checking pass), a row read at a byte, the lines counted."""

import csv
import functools
import json
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from . import files
from .base import ENCODING, MAX_LINE
from .format import (
    CORRECTIONS,
    Codec,
    RowKind,
)
from .snapshot import Head, Snapshot


class Fate(NamedTuple):
    """What the rows below a hand do to it (found before the pass): how many correct it, and
    where (at which byte of the file) its last amendment and its last void or restore begin,
    read again only when the pass reaches the hand (so a long night holds a few bytes a
    correction, not the rows)."""

    rows: int = 0  # how many rows correct the hand
    amended_at: int = -1  # where the last amendment's row begins (-1: none)
    voided_at: int = -1  # where the last void or restore row begins (-1: none)
    rescored_at: int = -1  # where the last `set --from` row that scores it again begins
    rescores: int = 0  # how many of `rows` are `set --from` rows (changes of the rules)

    def corrected(
        self,
        amended_at: int = -1,
        voided_at: int = -1,
        rescored_at: int = -1,
        rescore: bool = False,
    ) -> "Fate":
        """The fate after one more correction (at a place, if given; `rescore`: a `set --from`
        row)."""
        return Fate(
            self.rows + 1,
            self.amended_at if amended_at < 0 else amended_at,
            self.voided_at if voided_at < 0 else voided_at,
            self.rescored_at if rescored_at < 0 else rescored_at,
            self.rescores + rescore,
        )

    @property
    def corrections(self) -> int:
        """The rows that correct the hand alone (a `set --from` row is a change of the rules)."""
        return self.rows - self.rescores


def find_corrections(
    snapshot: Snapshot, head: Head, details: bool = True, start: int = 0, digest: Any = None
) -> tuple[dict[int, Fate], int, int]:
    """What the correction rows do to each hand they refer to, the number of line ends, and
    the length of the longest line (in bytes; past MAX_LINE it is only known to be longer): a
    quick pass over the raw bytes that parses only the lines that may be corrections.
    Without `details`, only how many correct each hand (all that checking needs).

    Where the hand number is the first column (as scorepad writes it), a correction is a line
    that begins with a comma (it has no hand number), so only those lines are looked at; a
    block with a line that begins with a quote (a resaved file), or another column order, is
    searched for the kinds' names instead.

    From byte `start` on (the start of a line), if given: the line ends counted are those
    after it. `digest`, if given (a hashlib object), is fed every byte read.
    """
    codec = head.codec
    at_kind = codec.index["kind"]
    fates: dict[int, Fate] = {}
    needles = [kind.value.encode() for kind in (*CORRECTIONS, RowKind.SET)]
    hand_first = codec.index["hand"] == 0
    ends = 0
    rest = b""
    skipping = False  # within a line longer than MAX_LINE (no correction: the pass reports it)
    longest = 0  # (a line that ends within a block is no longer than the block: see BLOCK)
    offset = start  # where `data` begins in the file
    for block in snapshot.blocks(start):
        if digest is not None:
            digest.update(block)
        data = rest + block
        first = data.find(b"\n")
        longest = max(longest, (first if first >= 0 else len(data)) + 1)
        if skipping:
            if first < 0:
                offset += len(data)
                rest = b""
                continue
            data, skipping = data[first + 1 :], False
            offset += first + 1
            ends += 1
        cut = data.rfind(b"\n") + 1
        starts = _comma_lines(data, cut) if hand_first else None
        if starts is None:
            hits = sorted(at for needle in needles for at in _finds(data, needle, cut))
            starts = sorted({data.rfind(b"\n", 0, at) + 1 for at in hits})
        for start in starts:
            end = data.find(b"\n", start)
            if end < 0 or end >= cut:
                continue  # (the line goes on into the next block: it is read with it)
            correction = _correction(codec, data[start:end], at_kind)
            if correction is not None:
                kind, first, last = correction
                place = offset + start if details else -1
                for ref in range(first, last + 1):
                    fate = fates.get(ref, _NO_FATE)
                    if kind == RowKind.AMEND:
                        fates[ref] = fate.corrected(amended_at=place)
                    elif kind == RowKind.SET:
                        fates[ref] = fate.corrected(rescored_at=place, rescore=True)
                    else:
                        fates[ref] = fate.corrected(voided_at=place)
        ends += data.count(b"\n", 0, cut)
        rest = data[cut:]
        offset += cut
        if len(rest) > MAX_LINE:
            offset += len(rest)
            rest, skipping = b"", True
            longest = max(longest, MAX_LINE + 1)
    return fates, ends, max(longest, len(rest))


_NO_FATE = Fate()
MAX_RESCORED = 1_000_000  # the most hands a `set --from` row scores again


@functools.cache  # (compiled when first needed)
def _line_start() -> re.Pattern[bytes]:
    """A line (not the first) that begins with a comma or quote."""
    return re.compile(rb'\n[,"]')


def _comma_lines(data: bytes, cut: int) -> list[int] | None:
    """Where the lines of `data[:cut]` that begin with a comma begin; None if a line begins
    with a quote (its first cell may be empty too). One pass of `re` over the bytes: faster
    than `bytes.find` for these two bytes."""
    first = data[:1]
    if first == b'"':
        return None
    starts = [0] if first == b"," else []
    for match in _line_start().finditer(data, 0, cut):
        if data[match.end() - 1] == 0x22:  # '"'
            return None
        starts.append(match.end() - 1)
    return starts


def _finds(data: bytes, needle: bytes, cut: int) -> Iterator[int]:
    at = data.find(needle, 0, cut)
    while at >= 0:
        yield at
        at = data.find(needle, at + 1, cut)


def _correction(codec: Codec, raw: bytes, at_kind: int) -> tuple[str, int, int] | None:
    """The kind of a correction row and the hands it corrects, first and last (None: the line
    is not one). A `set --from` row corrects every hand it scores again."""
    try:
        cells = next(csv.reader([raw.decode(ENCODING).rstrip("\r")], strict=True))
    except (UnicodeDecodeError, csv.Error, StopIteration):
        return None
    if len(cells) != codec.width:
        return None
    kind = cells[at_kind]
    if kind == RowKind.SET:
        hands = set_row_hands(cells[codec.index["note"]])
        # (more hands than a night holds: the pass says what is wrong when it reaches the row)
        if hands is None or hands[1] - hands[0] > MAX_RESCORED:
            return None
        return kind, *hands
    if kind not in CORRECTIONS:
        return None
    ref = cells[codec.index["ref"]]
    # (a number of more than 18 digits names no hand: the pass says so when it reaches the row)
    if not (ref.isascii() and ref.isdigit() and len(ref) <= 18):
        return None
    return kind, int(ref), int(ref)


def set_row_hands(note: str) -> tuple[int, int] | None:
    """The hands a `set --from` row scores again, first and last (None: a plain `set` row, or
    one whose note does not say them as whole numbers in order)."""
    if '"from":' not in note:  # (a plain set row: not parsed again)
        return None
    try:
        data = json.loads(note)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    start, through = data.get("from"), data.get("through")
    if type(start) is not int or type(through) is not int or not 1 <= start <= through:
        return None
    return start, through


def line_at(snapshot: Snapshot, offset: int) -> bytes:
    """The line that begins at a byte of the snapshot, without its line end (at most
    MAX_LINE bytes of it: read a little at a time, as a row is short)."""
    end = min(snapshot.size, offset + MAX_LINE)
    size = 4096
    while True:
        raw = files.pread(snapshot.fd, min(size, end - offset), offset)
        cut = raw.find(b"\n")
        if cut >= 0:
            return raw[:cut]
        if offset + len(raw) >= end:
            return raw
        size *= 16


def cells_at(snapshot: Snapshot, offset: int) -> list[str] | None:
    """The cells of the row that begins at a byte of the snapshot (see `Fate`), or None."""
    try:
        return next(
            csv.reader([line_at(snapshot, offset).decode(ENCODING).rstrip("\r")], strict=True)
        )
    except (UnicodeDecodeError, csv.Error, StopIteration):
        return None


def line_count(snapshot: Snapshot, end: int | None = None) -> int:
    """The line ends in the snapshot (before byte `end`, if given)."""
    return sum(block.count(b"\n") for block in snapshot.blocks(0, end))
