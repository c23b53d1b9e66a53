"""The session file's format: one schema of its columns and row kinds, and the row codec.

Pure: no I/O (`session.py` owns the file). A session file is a CSV score sheet:

    hand,kind,ref,<one column per player>,dealer,out,picker,...,pending,totals,format
    ,rules,,...                       the rules table in force, as JSON in the `note` cell
    ,session,,...                     who deals first; the starting state
    1,picker,,2,1,-1,-1,-1,Ed,...     one row per hand: its inputs and each player's points
    2,doubler,,0,0,0,0,0,Ann,...
    ,void,1,-2,-1,1,1,1,...           a correction: hand 1 voided (its points reversed)
    ,amend,2,...                      a correction: new inputs for hand 2 (the change in points)

Every column is described once, in `COLUMNS`; the codec that reads and writes rows is made from
that list and the file's own header, so the order of the columns and the quoting of the cells do
not matter to the reader. The file states its format version in the `format` cell of its rules
row; a file without a `format` column is version 1 (as every scorepad before formats wrote).
A hand's input columns come from the table of inputs (`hands.INPUTS`, with the format version that
brought each); so do `Row`'s fields for them, written by scripts/hand_records.py.
"""

import functools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple

from ..errors import HandError, ScorepadError
from ..hands import BY_NAME as HAND_INPUTS
from ..hands import INPUTS as INPUT_TABLE
from ..hands import Type
from ..i18n import gettext as _
from ..i18n import ngettext
from ..text import unprintable, unprintable_problem

FORMAT_VERSION = 10
"""The newest format this scorepad reads and writes."""
SET_FROM_SINCE = 10
"""The format that brought `set --from` rows (a set row that scores earlier hands again)."""
CREATED_VERSION = 5
"""The format a new session is written in: a later one's columns come (the file rewritten in
it) when a row needs them (`Codec.needs`), so a scorepad that reads only formats up to this one
reads every file that records nothing newer."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NOTHING: Mapping[str, int] = MappingProxyType({})  # an empty mapping every row can share
MAX_NAME = 40
BLANK_LINE = "a blank line; run `scorepad repair` to remove it"
"""The problem of a blank line below the head (which `scorepad repair` removes)."""


@functools.cache  # (compiled when first needed: a cell that is no whole number)
def decimal_whole() -> re.Pattern[str]:
    """A whole number written as a decimal, as a spreadsheet or pandas saves one (`2.0`),
    which `scorepad repair` writes as a whole number (longer is no number a hand holds)."""
    return re.compile(r"(-?[0-9]{1,12})\.0*")


class RowKind(StrEnum):
    """What a row of a session file records. The text is the `kind` cell."""

    RULES = "rules"
    SESSION = "session"
    SEAT = "seat"
    PICKER = "picker"
    LEASTER = "leaster"
    DOUBLER = "doubler"
    VOID = "void"
    AMEND = "amend"
    RESTORE = "restore"  # a voided hand counts again (`undo` of a void)
    SET = "set"  # the rules change from the next hand on (`scorepad set`)
    SCHWANZER = "schwanzer"  # everyone passed under all_pass = schwanzer
    PENALTY = "penalty"  # a player pays a penalty (`scorepad penalty`): numbered, not dealt
    RAMSCH = "ramsch"  # everyone passed under all_pass = ramsch (Schafkopf)
    BOCK = "bock"  # the table starts Bock rounds (`scorepad bock`)
    POT = "pot"  # everyone passed under all_pass = pot: each player paid into the pot
    MANUAL = "manual"  # a hand the table scores itself (`hand --scores`)


KIND_SINCE = {
    RowKind.RESTORE: 3,
    RowKind.SET: 3,
    RowKind.SCHWANZER: 4,
    RowKind.PENALTY: 4,
    RowKind.RAMSCH: 5,
    RowKind.BOCK: 8,
    RowKind.POT: 8,
    RowKind.MANUAL: 10,
}
"""The format version that brought a kind of row (the others are in every version)."""
HAND_KINDS = frozenset(
    (
        RowKind.PICKER,
        RowKind.LEASTER,
        RowKind.SCHWANZER,
        RowKind.RAMSCH,
        RowKind.DOUBLER,
        RowKind.PENALTY,
        RowKind.POT,
        RowKind.MANUAL,
    )
)
"""The rows that take the next hand number."""
SCORED_KINDS = frozenset(
    (
        RowKind.PICKER,
        RowKind.LEASTER,
        RowKind.SCHWANZER,
        RowKind.RAMSCH,
        RowKind.MANUAL,
        RowKind.AMEND,
    )
)
CORRECTIONS = (RowKind.VOID, RowKind.AMEND, RowKind.RESTORE)


class Cell(StrEnum):
    """How a column's cells are written."""

    INT = "int"  # a whole number
    NAME = "name"  # one player's name
    NAMES = "names"  # a JSON list of names
    FLAG = "flag"  # "yes" or empty
    COUNTS = "counts"  # a JSON object of name to whole number
    TEXT = "text"  # anything printable
    KIND = "kind"  # a RowKind


class Part(StrEnum):
    """What a column is for."""

    ID = "id"  # the row's identity: hand number, kind, ref
    INPUT = "input"  # an input of the hand (what `amend` may change)
    META = "meta"  # note and time
    STATE = "state"  # the state of the night after the row


class Column(NamedTuple):
    """One column of a session file."""

    name: str
    cell: Cell
    part: Part
    since: int = 1  # the format version that brought it


_CELLS = {
    Type.NAME: Cell.NAME, Type.NAMES: Cell.NAMES, Type.FLAG: Cell.FLAG, Type.INT: Cell.INT,
    Type.COUNT: Cell.INT, Type.COUNTS: Cell.COUNTS, Type.GAME: Cell.TEXT, Type.BOCK: Cell.TEXT,
    Type.CALL: Cell.TEXT,
}  # fmt: skip
_NOT_INPUTS = {
    c.name: c
    for c in (
        Column("hand", Cell.INT, Part.ID),
        Column("kind", Cell.KIND, Part.ID),
        Column("ref", Cell.INT, Part.ID),
        Column("note", Cell.TEXT, Part.META),
        Column("time", Cell.TEXT, Part.META),
        Column("next_dealer", Cell.NAME, Part.STATE),
        Column("seated", Cell.NAMES, Part.STATE),
        Column("pending", Cell.INT, Part.STATE),
        Column("totals", Cell.COUNTS, Part.STATE),
        Column("format", Cell.INT, Part.META, since=2),
        # the line of the `set` row whose rules are in force (empty: the rules row's)
        Column("rules_line", Cell.INT, Part.STATE, since=3),
        # an `undo` row: the line of the change it takes back; a `redo` row: the line of the
        # change it makes again
        Column("undoes", Cell.INT, Part.META, since=6),
        Column("redoes", Cell.INT, Part.META, since=6),
        # a hand recorded by `replay --record`: the digest of its hand file (`replay.digest`)
        Column("digest", Cell.TEXT, Part.META, since=7),
        # a `bock` row: the Bock rounds the table starts
        Column("bock_rounds", Cell.INT, Part.META, since=8),
        # the Bock hands the next hands are, in turn (`ledger.bock`: `1-5/5x2,...`)
        Column("bock_queue", Cell.TEXT, Part.STATE, since=8),
        # what the pot holds after the row (all_pass = pot; empty: nothing)
        Column("pot", Cell.INT, Part.STATE, since=8),
    )
}
# The order of the columns in formats 1 to 5, as files were written (the players' columns stand
# after `ref`); then format 6's, 7's and 8's, and the inputs a later format brings, in the order
# of `hands.INPUTS`.
_ORDER_OF_FORMATS_1_TO_5 = (
    "hand", "kind", "ref", "dealer", "out", "picker", "partners", "alone", "points", "tricks",
    "crack", "recrack", "doubled", "forced", "game", "runs", "blitz", "winner", "leaster_points",
    "leaster_tricks", "note", "time", "next_dealer", "seated", "pending", "totals", "format",
    "rules_line", "last", "blind_points", "schwanzer_points", "losers", "offender", "penalty",
    "paid_to", "knocks", "stoss", "ramsch_points", "jungfrau", "durchmarsch",
)  # fmt: skip


def _column(name: str) -> Column:
    if name in _NOT_INPUTS:
        return _NOT_INPUTS[name]
    given = HAND_INPUTS[name]
    return Column(name, _CELLS[given.type], Part.INPUT, given.since)


COLUMNS = tuple(
    _column(name)
    for name in (
        *_ORDER_OF_FORMATS_1_TO_5,
        "undoes",
        "redoes",
        "digest",
        "pot",
        *(i.name for i in INPUT_TABLE if 5 < i.since <= 8),
        "bock_rounds",
        "bock_queue",
        # (the columns of a later format stand after every earlier one's)
        *(i.name for i in INPUT_TABLE if i.since > 8),
    )
)
"""Every column of a session file: the inputs of `hands.INPUTS` that have a column, and the
row's identity, note, time and state."""
BY_NAME = {c.name: c for c in COLUMNS}
ID_COLUMNS = tuple(c.name for c in COLUMNS if c.part is Part.ID)
INPUTS = tuple(c.name for c in COLUMNS if c.part is Part.INPUT)
"""The inputs of a hand, in column order: what `amend` may change and what scoring reads."""
# Cells a row leaves empty unless it is of these kinds.
_ONLY_WHEN_SCORED = ("doubled", "blitz")


def columns_of(version: int) -> tuple[str, ...]:
    """The schema's columns in a file of this format version, in the order scorepad writes."""
    return tuple(c.name for c in COLUMNS if c.since <= version)


def header(players: Sequence[str], version: int = FORMAT_VERSION) -> list[str]:
    """The header row of a new session file for these players (in seat order)."""
    names = columns_of(version)
    return [*names[: len(ID_COLUMNS)], *players, *names[len(ID_COLUMNS) :]]


class LedgerError(ScorepadError):
    """A row of a session file is not valid; carries its line number."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line

    @property
    def message(self) -> str:
        return str(self)


class Problem(NamedTuple):
    """One thing wrong in a session file, at a line."""

    line: int
    message: str
    edited: bool = False  # the row's cells disagree with what scorepad wrote (changed by hand)


# --- names and notes ----------------------------------------------------------------------------


def check_name(name: str, version: int = FORMAT_VERSION) -> str:
    """A player's name as it may stand in a session file of format `version` (in Unicode's
    composed form, NFC), or a HandError saying why not."""
    name = name.strip()
    if not name.isascii():
        import unicodedata

        name = unicodedata.normalize("NFC", name)
    if not name:
        raise HandError(_("a player's name is empty"))
    if any(not c.isprintable() for c in name):
        raise HandError(
            _("player {name!r}: a name cannot hold line breaks or control characters").format(
                name=name
            )
        )
    if name.startswith(FORMULA_STARTS):
        raise HandError(
            _(
                "player {name!r}: a name cannot start with {name2} (a spreadsheet would "
                "run it as a formula)"
            ).format(name=name, name2=name[0])
        )
    if len(name) > MAX_NAME:
        raise HandError(
            _("player {name}...: a name has at most {max_name} characters").format(
                name=name[:20], max_name=MAX_NAME
            )
        )
    if name in BY_NAME and BY_NAME[name].since <= version:
        raise HandError(
            _(
                "player {name!r}: that is the name of a column of the session file; add "
                "a letter (e.g. {title} or {name}2)"
            ).format(name=name, title=name.title())
        )
    return name


def check_new_name(name: str) -> str:
    """A name for a player who sits down now: as `check_name`, and without a comma, which no
    list of names on a command line or in a report could tell from two names. (A file written
    before this rule keeps its names.)"""
    name = check_name(name)
    if "," in name:
        raise HandError(
            _(
                "player {name!r}: a name cannot hold a comma (it could not be told from "
                "two names in a list); write it without, e.g. {replace!r}"
            ).format(name=name, replace=name.replace(",", ""))
        )
    return name


def check_note(note: str) -> str:
    """A hand's note as it may stand in a session file."""
    if any(not c.isprintable() for c in note):
        raise HandError(_("⟨note⟩: a note cannot hold line breaks or control characters"))
    if note.startswith(FORMULA_STARTS):
        raise HandError(
            _(
                "⟨note⟩: a note cannot start with {note} (a spreadsheet would run it as a formula)"
            ).format(note=note[0])
        )
    return note


# --- rows ---------------------------------------------------------------------------------------


class Row(NamedTuple):
    """One row of a session file, decoded. `deltas` holds the player cells that are filled."""

    kind: RowKind
    line: int = 0
    hand: int | None = None
    ref: int | None = None
    deltas: Mapping[str, int] = NOTHING
    # The hand's inputs, written from hands.INPUTS by scripts/hand_records.py (not by hand):
    dealer: str | None = None
    picker: str | None = None
    partners: tuple[str, ...] = ()
    called: str | None = None
    alone: bool = False
    smith: bool = False
    points: int | None = None
    tricks: int | None = None
    crack: str | None = None
    recrack: bool = False
    forced: bool = False
    blitz: int = 0
    game: str | None = None
    runs: int | None = None
    winner: str | None = None
    leaster_points: Mapping[str, int] | None = None
    leaster_tricks: Mapping[str, int] | None = None
    blind_points: int | None = None
    schwanzer_points: Mapping[str, int] | None = None
    losers: tuple[str, ...] = ()
    highest_trump: str | None = None
    ramsch_points: Mapping[str, int] | None = None
    jungfrau: tuple[str, ...] = ()
    durchmarsch: str | None = None
    knocks: int = 0
    stoss: int = 0
    scores: Mapping[str, int] | None = None
    last: bool = False
    out: tuple[str, ...] = ()
    doubled: int = 0
    bock: str = ""
    offender: str | None = None
    penalty: int | None = None
    paid_to: str | None = None
    # (the end of the hand's inputs)
    note: str = ""
    time: str = ""
    next_dealer: str | None = None
    seated: tuple[str, ...] = ()  # the seats in force after this row, in seat order
    pending: int = 0
    totals: Mapping[str, int] = NOTHING
    format: int | None = None  # on the rules row: the file's format version
    rules_line: int | None = None  # the `set` row in force after this row (None: line 2)
    undoes: int | None = None  # the line of the change an `undo` row takes back
    redoes: int | None = None  # the line of the change a `redo` row makes again
    digest: str = ""  # a hand `replay --record` recorded: its hand file's digest
    bock_rounds: int | None = None  # a `bock` row: the rounds it starts
    bock_queue: str = ""  # the Bock hands the next hands are (`ledger.bock`)
    pot: int = 0  # what the pot holds after this row (all_pass = pot)

    def hand_inputs(self) -> dict[str, Any]:
        """The inputs that describe the hand itself (what `amend` may change)."""
        return {name: getattr(self, name) for name in INPUTS}

    def inputs_only(self, kind: RowKind) -> "Row":
        """This row's hand inputs as a row of `kind`, without number, points, note or state
        (what is remembered of a hand: lean, and shared by every hand alike)."""
        return Row(kind, **self.hand_inputs())


_HEAD = frozenset((RowKind.RULES, RowKind.SESSION))  # rows whose note scorepad writes itself
_INT, _NAME, _NAMES, _FLAG, _COUNTS = Cell.INT, Cell.NAME, Cell.NAMES, Cell.FLAG, Cell.COUNTS
_ROW_KINDS = {kind.value: kind for kind in RowKind}  # (as `RowKind(text)`, without its call)
_ROW_FIELDS = frozenset(Row._fields)
_DEFAULTS = Row._field_defaults
_EMPTY_WHEN_ZERO = ("knocks", "stoss", "pot")  # (format 5's counts, the pot: an empty cell is 0)
# the state a row holds only in a format that has its column (the pot, once it holds anything)
_STATE_NEEDED = ("pot", "bock_queue")
# the columns a row fills that a format after the first brought (its state is the file's own,
# but for `_STATE_NEEDED`)
_WRITTEN_SINCE_2 = tuple(
    c
    for c in COLUMNS
    if c.since > 1 and (c.part in (Part.INPUT, Part.META) or c.name in _STATE_NEEDED)
)
assert set(BY_NAME) - set(ID_COLUMNS) <= _ROW_FIELDS  # every column is a field of Row


def _cell(value: Any) -> str:
    if value is None or value is False or value == () or value == {}:
        return ""
    if value is True:
        return "yes"
    if isinstance(value, (tuple, list)):
        return json.dumps(list(value), ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, Mapping):
        return json.dumps(dict(value), ensure_ascii=False, separators=(",", ":"))
    return str(value)


def _json(text: str, kind: type, what: str, line: int) -> Any:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, kind):
        raise LedgerError(
            line, _("{what}: {text!r} is not valid").format(what=what, text=text[:60])
        )
    return value


def whole(text: str) -> int | None:
    """A whole number as scorepad reads one wherever it is typed or kept (an option, a cell):
    the ASCII digits 0-9 with an optional sign, nothing else (`int` would take `7_0`, spaces
    and other scripts' digits, `٧٠`); None for any other text, or more digits than Python
    turns into a number (4,300)."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not (digits.isascii() and digits.isdigit()):
        return None
    try:
        return int(text)
    except ValueError:  # (past Python's limit of digits)
        return None


def _int(text: str, what: str, line: int) -> int:
    number = whole(text)
    if number is None:
        found = decimal_whole().fullmatch(text)
        if found and "." in text:
            raise LedgerError(
                line,
                _(
                    "{what}: {text!r} is not a whole number; run `scorepad repair` to write "
                    "it as {group}"
                ).format(what=what, text=text[:60], group=int(found.group(1))),
            )
        raise LedgerError(
            line, _("{what}: {text!r} is not a whole number").format(what=what, text=text[:60])
        )
    return number


class Codec:
    """Reads and writes the rows of one session file, by the columns its header names.

    Made from the header (`Codec.from_header`); `index` maps each column (and each player) to its
    place in a row, so the rest of scorepad never counts columns.
    """

    def __init__(self, players: Sequence[str], order: Sequence[str], version: int):
        self.players = tuple(players)
        self.order = tuple(order)  # the header's cells, in file order
        self.version = version
        self.index = {name: at for at, name in enumerate(self.order)}
        self.player_at = tuple(self.index[p] for p in self.players)
        self.width = len(self.order)
        self.canonical = {p: p for p in self.players}  # names read, as the header has them
        # The schema's columns this file has (a player may be named like a newer column).
        self.columns = frozenset(n for n in self.order if n in BY_NAME and n not in self.canonical)
        # what decode reads: (column, place, kind of cell) for each column the file has
        self._plan = tuple(
            (c.name, self.index[c.name], c.cell)
            for c in COLUMNS
            if c.name in self.columns and c.cell is not Cell.KIND
        )
        self._plan_stateless = tuple(p for p in self._plan if BY_NAME[p[0]].part is not Part.STATE)

    @classmethod
    def new(cls, players: Sequence[str], version: int = CREATED_VERSION) -> "Codec":
        """The codec of a new file: the schema's columns in scorepad's order."""
        return cls(players, header(players, version), version)

    @classmethod
    def from_header(cls, cells: Sequence[str]) -> "Codec":
        """The codec of a file whose header row is `cells`.

        The players are the header's cells that are not columns of the schema. A header with a
        `format` column leaves `version` at 0: the file states it in its rules row, which the
        caller reads with this codec and then sets `version` (refusing a newer one).
        """
        seen: set[str] = set()
        players = []
        for name in cells:
            if name in seen:
                raise LedgerError(1, _("header: {name!r} is listed twice").format(name=name))
            seen.add(name)
            if name not in BY_NAME:
                players.append(name)
        missing = [c for c in columns_of(1) if c not in seen]
        if "hand" in missing or "kind" in missing:  # (a CSV of another program, most likely)
            raise LedgerError(
                1,
                _(
                    "not a scorepad session: its header has no hand and kind columns (a "
                    "session file starts hand,kind,ref,...)"
                ),
            )
        if missing:
            listed = ", ".join(missing[:5])
            if len(missing) > 5:
                listed += f" and {len(missing) - 5} more"
            raise LedgerError(
                1,
                ngettext(
                    "not a scorepad session: the header has no {listed} column",
                    "not a scorepad session: the header has no {listed} columns",
                    len(missing),
                ).format(listed=listed),
            )
        return cls(players, cells, 1 if "format" not in seen else 0)

    def of_version(self, version: int) -> "Codec":
        """This codec once the file's format version is known (`from_header` cannot know it):
        a header cell named like a column that came after that version is a player's name
        (a format-3 file's `last` is a player called last, not format 4's column)."""
        newer = {c for c in self.order if c in BY_NAME and BY_NAME[c].since > version}
        if not newer:
            self.version = version
            return self
        players = [c for c in self.order if c not in BY_NAME or c in newer]
        return Codec(players, self.order, version)

    def holds(self, row: Row) -> bool:
        """Whether a row can be written in this file as it is: its kind and every cell it fills
        are of this file's format (else the file is first rewritten in one that holds it)."""
        if KIND_SINCE.get(row.kind, 1) > self.version:
            return False
        if row.kind is RowKind.SET and row.deltas and self.version < SET_FROM_SINCE:
            return False
        return all(
            c.name in self.columns or getattr(row, c.name) == _DEFAULTS[c.name]
            for c in _WRITTEN_SINCE_2
        )

    @staticmethod
    def needs(row: Row) -> int:
        """The oldest format that holds a row (its kind and every cell it fills)."""
        need = KIND_SINCE.get(row.kind, 1)
        if row.kind is RowKind.SET and row.deltas:  # (`set --from`: points a set row moves)
            need = SET_FROM_SINCE
        for c in _WRITTEN_SINCE_2:
            if c.since > need and getattr(row, c.name) != _DEFAULTS[c.name]:
                need = c.since
        return need

    def digests(self, lines: Iterator[list[str]]) -> dict[str, int]:
        """The hands these rows (each row's cells, from line 4 on) recorded from a hand file
        and still count, by the file's digest: a pass over the raw cells of the rows that
        have one, and of the corrections that void or restore a hand."""
        if "digest" not in self.columns:
            return {}
        at = self.index
        width, k_digest, k_kind, k_hand, k_ref = (
            self.width, at["digest"], at["kind"], at["hand"], at["ref"]
        )  # fmt: skip
        found: dict[str, int] = {}
        voided: set[int] = set()
        for cells in lines:
            if len(cells) != width:
                continue
            kind = cells[k_kind]
            if cells[k_digest]:
                number = whole(cells[k_hand])
                if number is not None:
                    found[cells[k_digest]] = number
            elif kind in ("void", "restore"):
                ref = whole(cells[k_ref])
                if ref is not None:
                    (voided.add if kind == "void" else voided.discard)(ref)
        return {digest: hand for digest, hand in found.items() if hand not in voided}

    def places(self, cell: Cell) -> set[int]:
        """Where the columns of a kind of cell are, in this file's rows."""
        return {at for _, at, kind in self._plan if kind is cell}

    # -- writing --

    def encode(self, row: Row) -> list[str]:
        """The cells of a row, in the file's column order."""
        cells = [""] * self.width
        index = self.index
        for player, points in row.deltas.items():
            cells[index[player]] = str(points)
        scored = row.kind in SCORED_KINDS
        for name, at in index.items():
            column = BY_NAME.get(name)
            if column is None or name not in self.columns:
                continue
            if name == "kind":
                cells[at] = str(row.kind)
                continue
            value: Any = getattr(row, name)
            if (name in _ONLY_WHEN_SCORED and not scored) or (
                column.part is Part.STATE and row.kind is RowKind.RULES
            ):
                value = None
            elif name == "format" and row.kind is RowKind.RULES:
                value = self.version
            elif name in _EMPTY_WHEN_ZERO and not value:
                value = None
            cells[at] = _cell(value)
        return cells

    # -- reading --

    def decode(self, cells: Sequence[str], line: int, state: bool = True) -> Row:
        """Read the cells of one row; raises LedgerError naming the column. `state=False`
        leaves out the state columns (the caller checks those cells as text)."""
        if len(cells) != self.width:
            if len(cells) < 2 and not "".join(cells).strip():
                raise LedgerError(line, BLANK_LINE)
            raise LedgerError(
                line,
                _("{len_cells} cells where the header has {width}").format(
                    len_cells=len(cells), width=self.width
                ),
            )
        index, players = self.index, self.players
        kind_text = cells[index["kind"]]
        kind = _ROW_KINDS.get(kind_text)
        if kind is None:
            raise LedgerError(
                line,
                _("kind: {kind_text!r} is not one of {rowkind}").format(
                    kind_text=kind_text[:60], rowkind=", ".join(RowKind)
                ),
            )
        values: dict[str, Any] = {"kind": kind, "line": line}
        deltas = {}
        for player, at in zip(players, self.player_at):
            text = cells[at]
            if not text:
                continue
            # (`whole`, inline for the common cell: a row has a cell a player)
            digits = text[1:] if text[0] in "+-" else text
            if digits.isdigit() and digits.isascii() and len(digits) < 13:
                deltas[player] = int(text)
            elif not text.isspace():
                deltas[player] = _int(text, f"{player}'s points", line)
        values["deltas"] = deltas
        canonical = self.canonical
        for name, at, cell in self._plan if state else self._plan_stateless:
            text = cells[at]
            if not text:
                continue
            if cell is _INT:
                # (`whole`, inline for the common cell, as for a player's points above)
                digits = text[1:] if text[0] in "+-" else text
                if digits.isdigit() and digits.isascii() and len(digits) < 13:
                    values[name] = int(text)
                else:
                    values[name] = _int(text, name, line)
            elif cell is _NAMES:
                values[name] = _names(_json(text, list, name, line), canonical, name, line)
            elif cell is _NAME:
                found = canonical.get(text)
                if found is None:
                    raise LedgerError(
                        line, _("{name}: unknown player {text!r}").format(name=name, text=text[:60])
                    )
                values[name] = found
            elif cell is _FLAG:
                if text != "yes":
                    raise LedgerError(
                        line,
                        _("{name}: {text!r} is not 'yes' or empty").format(
                            name=name, text=text[:60]
                        ),
                    )
                values[name] = True
            elif cell is _COUNTS:
                values[name] = _counts(_json(text, dict, name, line), canonical, name, line)
            else:
                values[name] = _text(name, text, line, kind)
        return Row(**values)


def _text(name: str, text: str, line: int, kind: RowKind) -> str:
    """A cell of text as a row may hold it: printable, and no formula (but the note scorepad
    writes in a file's first rows)."""
    bad = unprintable(text)
    if bad is not None:
        raise LedgerError(line, unprintable_problem(name, text, bad))
    if text.startswith(FORMULA_STARTS) and not (name == "note" and kind in _HEAD):
        raise LedgerError(
            line,
            _(
                "{name}: {text!r} would run as a formula in a spreadsheet; take away "
                "its leading {text2!r}"
            ).format(name=name, text=text[:40], text2=text[0]),
        )
    return text


def _names(
    value: list[object], players: Mapping[str, str], what: str, line: int
) -> tuple[str, ...]:
    out = []
    for name in value:
        if not isinstance(name, str):
            raise LedgerError(line, _("{what}: names must be text").format(what=what))
        if name not in players:
            raise LedgerError(
                line, _("{what}: unknown player {name!r}").format(what=what, name=name[:60])
            )
        out.append(players[name])
    return tuple(out)


def _counts(
    value: dict[str, object], players: Mapping[str, str], what: str, line: int
) -> dict[str, int]:
    out = {}
    for name, number in value.items():
        if name not in players:
            raise LedgerError(
                line, _("{what}: unknown player {name!r}").format(what=what, name=name[:60])
            )
        if isinstance(number, bool) or not isinstance(number, int):
            raise LedgerError(
                line, _("{what}: {name}'s value is not a whole number").format(what=what, name=name)
            )
        out[players[name]] = number
    return out
