"""The score sheet: a line per hand (`SheetRows`, as CSV or a table; `HandLines`, as JSON), the
changes of the rules in their place (`set_record`), and each player's running total for the
chart (`RunningSeries`)."""

import csv
import io
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import ScorepadError
from ..i18n import gettext as _
from ..ledger import HandView, rules_of_set_row, set_row_text
from ..render import signed as signed_points
from ..store.format import FORMULA_STARTS, Row
from .numbers import hand_record
from .words import change_text, played_text

_BATCH = 4096  # lines a pass's writer holds before it writes them


def _batched(write: Callable[[str], object]) -> tuple[list[str], Callable[[], None]]:
    """A list to add lines to and a function that writes them out with `write` (and empties
    it): a writer over a pass gives `write` a few thousand lines at a time."""
    batch: list[str] = []

    def flush() -> None:
        write("".join(batch))
        batch.clear()

    return batch, flush


_NOTE_GAP = "\ue001"  # stands for a hand's note in a line of JSON made for its kind
# Stands for a hand's card points in a line made for every hand that shares its score (no card
# points are negative: it shows nowhere else in a line).
_POINTS_GAP = -987_654_321


def _kind(view: HandView) -> tuple[int, bool, bool]:
    """What a hand's line is made once for: the score it shares with the hands alike to it but
    for their card points (the pass gives them one; a hand without a score, a doubler, is a
    kind of its own), whether it is void and whether it is amended."""
    entry = view.entry
    return id(entry.result if entry.result is not None else entry), view.void, view.amended


def _template(text: str, head: str, points: str, note: str | None = None) -> str | None:
    """`text`, made with hand number 0 (the last character of `head`, the text it begins with),
    and with `points` and `note` standing for a hand's own, as a %-template of them (`h`, `p`,
    `n`); None where they cannot be told from the rest."""
    if note is not None and text.count(note) != 1:
        return None
    shape = text.replace("%", "%%").replace(points, "%(p)d")
    head = head.replace("%", "%%")
    if not shape.startswith(head):
        return None
    shape = head[:-1] + "%(h)d" + shape[len(head) :]
    return shape if note is None else shape.replace(note.replace("%", "%%"), "%(n)s")


class HandLines:
    """Hands as lines of JSON (`hand_record`, as `json.dumps` writes it), for the sheet's JSON.

    Hands that share a score (the same hand, or hands alike but for their card points) differ
    only in their number, note and card points: their line is made once (`_kind`), as a
    template of those. An amended hand, or one with running totals, is made whole."""

    def __init__(self) -> None:
        # a kind's line as a template (None: made whole), and the score it holds alive
        self._kinds: dict[tuple[int, bool, bool], tuple[object, str | None]] = {}

    def line(self, view: HandView, totals: Mapping[str, int] | None = None) -> str:
        number, entry, _void, amended, note, _time = view
        if amended or totals is not None:
            return json.dumps(hand_record(view, totals), ensure_ascii=False)
        kind = _kind(view)
        found = self._kinds.get(kind)
        if found is None:
            found = self._kinds[kind] = (entry.result or entry, self._template(view))
        template = found[1]
        if template is None:
            return json.dumps(hand_record(view), ensure_ascii=False)
        # (most hands have no note: json.dumps for each took a tenth of the JSON sheet's time)
        noted = json.dumps(note, ensure_ascii=False) if note else '""'
        return template % {"h": number, "p": entry.row.points or 0, "n": noted}

    def json_writer(
        self,
        write: Callable[[str], object],
        running: Callable[[HandView], Mapping[str, int]] | None = None,
        after: bool = False,
    ) -> tuple[Callable[[HandView], None], Callable[[], None]]:
        """`line` for a pass, as `SheetRows.csv_writer` is `csv_line`'s: a function to call
        with each hand, which gives `write` its lines a few thousand at a time, each but the
        first after the comma that parts it from the one before (`after`: the first too, its
        lines follow others); one to call at the end. `running` gives the running totals after
        a hand, for lines that hold them."""
        batch, flush = _batched(write)
        add, line_of = batch.append, self.line
        comma = "," if after else ""

        def hand(view: HandView) -> None:
            nonlocal comma
            add(comma + line_of(view, None if running is None else running(view)) + "\n")
            comma = ","
            if len(batch) >= _BATCH:
                flush()

        return hand, flush

    @staticmethod
    def _template(view: HandView) -> str | None:
        """A kind's line, as a template of its number, card points and note."""
        entry = view.entry
        gap = entry.row.points is not None
        made = view._replace(
            number=0, note=_NOTE_GAP, entry=entry.with_points(_POINTS_GAP) if gap else entry
        )
        text = json.dumps(hand_record(made), ensure_ascii=False)
        template = _template(
            text, '{"hand": 0', str(_POINTS_GAP), json.dumps(_NOTE_GAP, ensure_ascii=False)
        )
        if template is None or (not gap and "%(p)d" in template):
            return None
        # (the line made from the template is the line made whole: checked once a kind)
        whole = json.dumps(hand_record(view), ensure_ascii=False)
        noted = json.dumps(view.note, ensure_ascii=False)
        if template % {"h": view.number, "p": entry.row.points or 0, "n": noted} != whole:
            return None
        return template


class SheetRows:
    """The score sheet's rows, one per hand in hand order, then the totals.

    Each cell of a player is their points in that hand (or, `running`, their total so far), or
    None where they were not at the table. The cells of hands of one kind (the same `Scored`)
    are worked out once.

    `signed`: the points as a text table shows them (+2, -1, 0), for the text sheet, which
    reads its lines of CSV back as its cells; and the widest cell of each column is kept up
    as the lines are made (`text_widths`), so that the text sheet reads them back once."""

    def __init__(self, players: Sequence[str], running: bool = False, signed: bool = False):
        self.players = tuple(players)
        self.running = running
        self.signed = signed
        self.totals = dict.fromkeys(players, 0)  # kept up with `running` only
        self._started: set[str] = set()
        self._blank = (None,) * len(self.players)
        # a kind's line as CSV but its number and note (`_kind`), the score it holds alive, and
        # (`signed`) the lowest and highest card points of the hands its lines were made for
        self._lines: dict[tuple[int, bool, bool], tuple[object, str | None, list[int]]] = {}
        self._buffer: Any = None  # (a StringIO and a CSV writer into it, made when first used)
        self._writer: Any = None
        # (`signed`) the widest cell of each column of the lines made whole and of the notes;
        # the last hand made from a template (hands come in order: its number is the widest);
        # and of each kind made from a template, the length of each cell but the card points
        # in it, and how many times they are in it
        self._widths = [0] * (len(self.players) + 4)
        self._number: int | None = None
        self._kind_widths: dict[tuple[int, bool, bool], tuple[list[int], int]] = {}

    def row(self, view: HandView) -> list[Any]:
        """The sheet row of a hand (hands come in order)."""
        entry = view.entry
        what = played_text(view)
        if view.void:
            what += _(" (void)")
        elif view.amended:
            what += _(" (amended)")
        cells: Sequence[int | str | None]
        if self.running:
            cells = self._running(view)
        elif view.void:
            cells = self._blank
        else:
            cells = tuple(entry.deltas.get(p) for p in self.players)
        if self.signed:
            cells = [None if c is None else signed_points(int(c)) for c in cells]
        return [view.number, entry.row.dealer or "", what, *cells, view.note]

    def csv_line(self, view: HandView) -> str:
        """The sheet row of a hand as a line of CSV. Hands that share a score (`_kind`) share
        the line but for their number, card points and note: it is made once."""
        if self.running:
            return self._measured(self.row(view)) + "\n"
        number, entry, _void, _amended, note, _time = view
        kind = _kind(view)
        points = entry.row.points or 0
        found = self._lines.get(kind)
        if found is None:
            made = (entry.result or entry, self._template(view), [points, points])
            found = self._lines[kind] = made
        if note:
            if note.startswith(FORMULA_STARTS):
                note = "'" + note
            if self.signed and len(note) > self._widths[-1]:
                self._widths[-1] = len(note)
            if any(c in note for c in ',"\r\n'):
                note = '"' + note.replace('"', '""') + '"'
        template = found[1]
        if template is None:
            return self._measured(self.row(view)[:-1]) + f",{note}\n"
        if self.signed:
            self._number = number
            met = found[2]
            if not met[0] <= points <= met[1]:
                met[:] = min(met[0], points), max(met[1], points)
        return template % {"h": number, "p": points} + f",{note}\n"

    def _measured(self, cells: Sequence[Any]) -> str:
        """Cells as a line of CSV (`_csv`), the widest of each column kept (`signed`)."""
        if self.signed:
            shown = ["" if c is None else str(c) for c in cells]
            self._widths[: len(shown)] = map(max, self._widths, map(len, shown))
        return self._csv(cells)

    def text_widths(self) -> list[int]:
        """(`signed`) The widest cell of each column of the lines made so far."""
        widths = list(self._widths)
        if self._number is not None:
            widths[0] = max(widths[0], len(str(self._number)))
        for kind, (lengths, gaps) in self._kind_widths.items():
            low, high = self._lines[kind][2]
            digits = max(len(str(low)), len(str(high)))
            widths[: len(lengths)] = map(max, widths, lengths)
            widths[2] = max(widths[2], lengths[2] + gaps * digits)  # (the card points played)
        return widths

    def _template(self, view: HandView) -> str | None:
        """A kind's line but its note, as a template of its number and card points (None:
        made whole each time)."""
        entry = view.entry
        gap = entry.row.points is not None
        made = view._replace(number=0, entry=entry.with_points(_POINTS_GAP) if gap else entry)
        cells = self.row(made)[:-1]
        template = _template(self._csv(cells), "0", str(_POINTS_GAP))
        if template is None or (not gap and "%(p)d" in template):
            return None
        whole = self._csv(self.row(view)[:-1])
        if template % {"h": view.number, "p": entry.row.points or 0} != whole:
            return None
        if self.signed:  # (each cell's length but the number's and the card points')
            shown = ["" if c is None else str(c) for c in cells]
            gaps = shown[2].count(str(_POINTS_GAP))
            lengths = [0, *map(len, shown[1:])]
            lengths[2] -= gaps * len(str(_POINTS_GAP))
            self._kind_widths[_kind(view)] = (lengths, gaps)
        return template

    def csv_writer(
        self, write: Callable[[str], object]
    ) -> tuple[Callable[[HandView], None], Callable[[str], None], Callable[[], None]]:
        """`csv_line` for a pass: a function to call with each hand, which gives `write` its
        lines a few thousand at a time; one to put another line in their order (a change of
        the rules); one to call at the end (it writes the rest)."""
        batch, flush = _batched(write)
        add, line_of = batch.append, self.csv_line

        def hand(view: HandView) -> None:
            add(line_of(view))
            if len(batch) >= _BATCH:
                flush()

        return hand, add, flush

    def _csv(self, cells: Sequence[Any]) -> str:
        """Cells as a line of CSV, without its line end."""
        if self._writer is None:
            self._buffer = io.StringIO()
            self._writer = csv.writer(self._buffer, lineterminator="")
        buffer = self._buffer
        buffer.seek(0)
        buffer.truncate()
        self._writer.writerow(cells)
        return str(buffer.getvalue())

    def _running(self, view: HandView) -> tuple[int | None, ...]:
        totals, started, deltas = self.totals, self._started, view.deltas
        cells = []
        for p in self.players:
            seated = p in deltas  # a player not at the table for this hand: blank
            if not view.void:
                totals[p] += deltas.get(p, 0)
            if seated:
                started.add(p)
            cells.append(totals[p] if seated or totals[p] or p in started else None)
        return tuple(cells)

    def set_row(self, row: Row) -> list[Any]:
        """The sheet row of a change of the rules, where it happened: what changed, and its
        note (no hand number, no points)."""
        note = set_row_text(row.note)[1]
        if note.startswith(FORMULA_STARTS):
            note = "'" + note
        return ["", "", change_text(row), *self._blank, note]

    def set_csv_line(self, row: Row) -> str:
        """The sheet row of a change of the rules as a line of CSV."""
        return self._measured(self.set_row(row)) + "\n"

    def total_row(self, totals: Mapping[str, int]) -> list[Any]:
        """The last row: each player's total for the night (the ledger's)."""
        return ["", "", _("Total"), *[totals.get(p, 0) for p in self.players], ""]

    def pot_row(self, pot: int) -> list[Any]:
        """The row after the totals of a night that shows its pot: what the pot holds."""
        return ["", "", _("In the pot: {pot}").format(pot=pot), *self._blank, ""]


def set_record(row: Row, from_hand: int) -> dict[str, Any]:
    """A change of the rules as data (the sheet's `changes`): the hand it applies from, what
    changed, the rules then in force and its note."""
    changes, note = set_row_text(row.note)
    try:
        rules: str | None = rules_of_set_row(row.note).summary()
    except ScorepadError:  # (a file that verifies holds rules here: for safety only)
        rules = None
    return {
        "from_hand": from_hand,
        "changes": changes,
        "rules": rules,
        "played": change_text(row),
        "note": note,
    }


class RunningSeries:
    """Each player's running total over the night (for `chart`), in bounded memory.

    A night of up to `EVERY` hands keeps every counted hand. A longer one is cut into runs of
    hands at `bounds` (hand numbers, ascending: where a column of the plot may begin), and
    keeps of each run, for each player, the first and last point and the lowest and highest,
    in their order: a line drawn through them spans what the line through every hand spans
    within the run, and the lowest and highest of the night are kept. Runs that never cross
    the edge of a column of the plot draw the same picture as every hand would."""

    EVERY = 20_000

    def __init__(self, players: Sequence[str], expected: int = 0, bounds: Sequence[int] = ()):
        self.players = tuple(players)
        self.hands = [0]  # (every hand kept: the hands of every player's points)
        self.series = {p: [0] for p in self.players}
        self._running = dict.fromkeys(self.players, 0)
        self.last = 0  # the last counted hand
        self.every = expected <= self.EVERY or not bounds
        self._bounds = list(bounds)
        self._next_at = 0  # the next bound to pass
        self._next = self._bounds[0] if self._bounds else 0  # (0: none left)
        self._x = {p: [0] for p in self.players}  # (runs kept: each player's own hands)
        # The run so far: its hands, and each one's points (added up when the run ends, in C:
        # `itertools.accumulate`, `min`, `max`, `list.index`).
        self._numbers: list[int] = []
        self._steps: list[Mapping[str, int]] = []

    def add(self, view: HandView) -> None:
        if view.void:
            return
        number = view.number
        self.last = number
        deltas = view.deltas
        if self.every:
            running = self._running
            self.hands.append(number)
            for p in self.players:
                running[p] += deltas.get(p, 0)
                self.series[p].append(running[p])
            return
        if self._next and number >= self._next:
            self._flush()
            bounds, at = self._bounds, self._next_at
            while at < len(bounds) and bounds[at] <= number:
                at += 1
            self._next_at, self._next = at, (bounds[at] if at < len(bounds) else 0)
        self._numbers.append(number)
        self._steps.append(deltas)

    def _flush(self) -> None:
        """Keep of the run, for each player, the first and last point and the (first) lowest
        and highest, in their order."""
        from itertools import accumulate

        numbers, steps = self._numbers, self._steps
        if not numbers:
            return
        for p in self.players:
            values = list(accumulate([d.get(p, 0) for d in steps], initial=self._running[p]))
            del values[0]  # (the total before the run)
            self._running[p] = values[-1]
            low, high = min(values), max(values)
            run = {
                (numbers[0], values[0]),
                (numbers[values.index(low)], low),
                (numbers[values.index(high)], high),
                (numbers[-1], values[-1]),
            }
            xs, ys = self._x[p], self.series[p]
            for hand, value in sorted(run):
                xs.append(hand)
                ys.append(value)
        numbers.clear()
        steps.clear()

    def points(self) -> dict[str, tuple[list[int], list[int]]]:
        """Each player's hands and running totals, as kept."""
        self._flush()
        if self.every:
            return {p: (self.hands, self.series[p]) for p in self.players}
        return {p: (self._x[p], self.series[p]) for p in self.players}
