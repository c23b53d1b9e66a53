"""Quick passes over a snapshot's raw bytes: what the correction rows do to each hand (`Fate`,
found before the checking pass), a row read at a byte, the lines counted."""

import csv
import functools
import re
from array import array
from bisect import bisect_left
from collections.abc import ItemsView, Iterator, Mapping, ValuesView
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
    correction, not the rows).

    (It was one int with the three packed in its bits: 36 bytes less a corrected hand, 0.7 MB
    on a million hands of which 2% are corrected, and its fields read 2.5 times slower.)"""

    rows: int = 0  # how many rows correct the hand
    amended_at: int = -1  # where the last amendment's row begins (-1: none)
    voided_at: int = -1  # where the last void or restore row begins (-1: none)

    def corrected(self, amended_at: int = -1, voided_at: int = -1) -> "Fate":
        """The fate after one more correction (at a place, if given)."""
        return Fate(
            self.rows + 1,
            self.amended_at if amended_at < 0 else amended_at,
            self.voided_at if voided_at < 0 else voided_at,
        )


class Fates(Mapping[int, Fate]):
    """The `Fate` of each hand that rows below it correct, by hand number, held compactly: four
    arrays of numbers in hand order (32 bytes a corrected hand, where a dict of `Fate`s takes
    about 150: a million hands of which 2% are corrected hold 0.6 MB, not 3), each `Fate` made
    when asked for. Not changed once made."""

    __slots__ = ("_amended", "_refs", "_rows", "_voided")

    def __init__(self, refs: "array[int]", kinds: "array[int]", places: "array[int]") -> None:
        """From each correction row in file order: the hand it corrects, whether it amends
        (1) or voids or restores (0) it, and where its row begins (-1: not known)."""
        # (the hands in order, each once; then each row counted in file order, so the last
        # amendment's place and the last void's stay: no list of every row's index to sort)
        ordered = array("q", sorted(refs))
        self._refs = array(
            "q", (ref for at, ref in enumerate(ordered) if not at or ordered[at - 1] != ref)
        )
        del ordered
        size = len(self._refs)
        self._rows = array("q", bytes(8 * size))
        self._amended, self._voided = array("q", [-1]) * size, array("q", [-1]) * size
        hands = self._refs
        for ref, kind, place in zip(refs, kinds, places):
            at = bisect_left(hands, ref)
            self._rows[at] += 1
            if place >= 0:
                (self._amended if kind else self._voided)[at] = place

    def _at(self, ref: object) -> int:
        """Where a hand's fate is held (-1: none is)."""
        refs = self._refs
        if not isinstance(ref, int):
            return -1
        at = bisect_left(refs, ref)
        return at if at < len(refs) and refs[at] == ref else -1

    def __getitem__(self, ref: int) -> Fate:
        at = self._at(ref)
        if at < 0:
            raise KeyError(ref)
        return Fate(self._rows[at], self._amended[at], self._voided[at])

    def __contains__(self, ref: object) -> bool:
        return self._at(ref) >= 0

    def __iter__(self) -> Iterator[int]:
        return iter(self._refs)

    def __len__(self) -> int:
        return len(self._refs)

    def items(self) -> ItemsView[int, Fate]:
        return _FateItems(self)

    def values(self) -> ValuesView[Fate]:
        return _FateValues(self)

    def pairs(self) -> Iterator[tuple[int, Fate]]:
        """Each hand and its fate, in hand order (what `items` gives, without a look-up each)."""
        for ref, rows, amended, voided in zip(self._refs, self._rows, self._amended, self._voided):
            yield ref, Fate(rows, amended, voided)

    def rows(self) -> Iterator[tuple[int, int]]:
        """Each hand and how many rows correct it."""
        return zip(self._refs, self._rows)


class _FateItems(ItemsView[int, Fate]):
    _mapping: Fates

    def __iter__(self) -> Iterator[tuple[int, Fate]]:
        return self._mapping.pairs()


class _FateValues(ValuesView[Fate]):
    _mapping: Fates

    def __iter__(self) -> Iterator[Fate]:
        return (fate for _ref, fate in self._mapping.pairs())


_LARGE_PASS = 16 << 20  # the bytes to read from which a pass asks for its buffers given back


def find_corrections(
    snapshot: Snapshot, head: Head, details: bool = True, start: int = 0, digest: Any = None
) -> tuple[Fates, int, int]:
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
    if snapshot.size - start > _LARGE_PASS:
        files.release_large_buffers()  # (the pass to come reads it too: memory stays flat)
    codec = head.codec
    at_kind = codec.index["kind"]
    refs, kinds, places = array("q"), array("b"), array("q")  # (each correction row's: `Fates`)
    needles = [kind.value.encode() for kind in CORRECTIONS]
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
                kind, ref = correction
                refs.append(ref)
                kinds.append(kind == RowKind.AMEND)
                places.append(offset + start if details else -1)
        ends += data.count(b"\n", 0, cut)
        rest = data[cut:]
        offset += cut
        if len(rest) > MAX_LINE:
            offset += len(rest)
            rest, skipping = b"", True
            longest = max(longest, MAX_LINE + 1)
    return Fates(refs, kinds, places), ends, max(longest, len(rest))


@functools.cache  # (compiled when first needed: a file read in two parts)
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


def _correction(codec: Codec, raw: bytes, at_kind: int) -> tuple[str, int] | None:
    """The kind of a correction row and the hand it corrects (None: the line is not one)."""
    try:
        cells = next(csv.reader([raw.decode(ENCODING).rstrip("\r")], strict=True))
    except (UnicodeDecodeError, csv.Error, StopIteration):
        return None
    if len(cells) != codec.width or cells[at_kind] not in CORRECTIONS:
        return None
    ref = cells[codec.index["ref"]]
    # (a number of more than 18 digits names no hand: the pass says so when it reaches the row)
    if not (ref.isascii() and ref.isdigit() and len(ref) <= 18):
        return None
    return cells[at_kind], int(ref)


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
