"""Undo and redo (`Session.undo`, `Session.redo`, `Session.steps`): which change a step takes
back or makes again, read back from the end of the file, and the row that does it.

Each `undo` row takes back the last change not taken back before it; each `redo` row makes again
the change the last `undo` took back, until a new change is made. A step is a row of its own
that names the change it takes back (`undoes`) or makes again (`redoes`).
"""

from collections.abc import Callable, Iterator
from typing import NamedTuple

from .i18n import gettext as _
from .i18n import ngettext
from .ledger import Ledger, rules_of_set_row, set_row_hands, set_row_text
from .rules import Rules
from .scoring import Score
from .store.format import HAND_KINDS, Row, RowKind
from .store.snapshot import Head, Snapshot
from .store.tail import row_at_line, rows_back


class Said(str):
    """What a change did, in words: in the language in force when it was done, and able to say
    it again in the one in force now (`again`), as the live board words an undo for each of its
    readers."""

    _say: Callable[[], str]

    def __new__(cls, say: Callable[[], str]) -> "Said":
        made = super().__new__(cls, say())
        made._say = say
        return made

    def again(self) -> str:
        """The words in the language in force now."""
        return self._say()


def said_again(text: str) -> str:
    """`text` in the language in force now, if it is words that can say it again (`Said`)."""
    return text.again() if isinstance(text, Said) else text


MakeRow = Callable[[Ledger, int], tuple[Row, Score | None]]


class Correction(NamedTuple):
    """A step that corrects a hand (voids or restores it, or takes back or makes again an
    amendment): what it does in words, the hand, and how its row is made from the night."""

    what: Said
    ref: int
    make: MakeRow


def to_take(snapshot: Snapshot, head: Head, back: bool) -> Row | None:
    """The change the next undo takes back (`back`) or the next redo makes again (None:
    none)."""
    if back:
        return next(undoable(snapshot, head), None)
    stack = redo_stack(snapshot, head)
    return row_at_line(snapshot, head, stack[-1]) if stack else None


def left(snapshot: Snapshot, head: Head, back: bool, most: int) -> int:
    """How many changes undo (`back`) or redo could take back or make again now, up to `most`."""
    if back:
        return sum(1 for _, _ in zip(range(most), undoable(snapshot, head)))
    return min(most, len(redo_stack(snapshot, head)))


def too_few(left: int, steps: int, back: bool) -> str:
    """Why `steps` steps cannot be taken when only `left` can."""
    if back:
        text = ngettext(
            "there is {left} change to undo, not {steps}: nothing was changed",
            "there are {left} changes to undo, not {steps}: nothing was changed",
            left,
        )
    else:
        text = ngettext(
            "there is {left} change to redo, not {steps}: nothing was changed",
            "there are {left} changes to redo, not {steps}: nothing was changed",
            left,
        )
    return text.format(left=left, steps=steps)


def nothing_to(back: bool) -> str:
    return (
        _("there is nothing to undo: no change recorded yet, or every one undone")
        if back
        else _("there is nothing to redo: no change was undone since the last one")
    )


def undoable(snapshot: Snapshot, head: Head) -> Iterator[Row]:
    """The changes not taken back yet, newest first. Each `undo` row takes back the last change
    not taken back before it, so walking up from the end, the changes that no `undo` row below
    them names are those."""
    undone: set[int] = set()
    for row in rows_back(snapshot, head):
        if row.undoes is not None:
            undone.add(row.undoes)
        elif row.line not in undone:
            yield row


def redo_stack(snapshot: Snapshot, head: Head) -> list[int]:
    """The lines of the changes `redo` can make again, the next last: the undos and redos since
    the last other change, in file order; each undo puts what it took back on a stack, each
    redo takes the top."""
    since: list[Row] = []
    for row in rows_back(snapshot, head):
        if row.undoes is None and row.redoes is None:
            break
        since.append(row)
    stack: list[int] = []
    for row in reversed(since):
        if row.undoes is not None:
            stack.append(row.undoes)
        elif stack:
            stack.pop()
    return stack


def rescored(change: Row, last_hand: int) -> range:
    """The hands the undo or redo of a `set --from` row scores again, which the pass is to keep
    (none for another change)."""
    hands = set_row_hands(change.note) if change.kind is RowKind.SET else None
    return range(hands[0], last_hand + 1) if hands else range(0)


def marked(row: Row, line: int, back: bool) -> Row:
    """A step's row, naming the change on `line` it takes back or makes again."""
    return row._replace(undoes=line) if back else row._replace(redoes=line)


def change_row(
    change: Row,
    ledger: Ledger,
    back: bool,
    reason: str,
    time: str,
    end: int,
    before: tuple[tuple[str, ...], Rules],
) -> tuple[Said, Row]:
    """The step that takes back or makes again a `bock`, seat or `set` row (`change`): what it
    does in words, and its row (to stand on line `end`). `before`: the seats and rules in force
    before the change."""
    word = "undo" if back else "redo"
    line = change.line
    if change.kind is RowKind.BOCK:
        rounds = change.bock_rounds or 1
        what = Said(
            lambda: ngettext(
                "the Bock round of line {line}", "the Bock {count} rounds of line {line}", rounds
            ).format(line=line, count=rounds)
        )
        row = ledger.bock_row(rounds, end, reason or word, time, undoes=line if back else None)
        return what, marked(row, line, back)
    if change.kind is RowKind.SEAT:
        seats = before[0] if back else change.seated
        text = "the seats as before" if back else change.note
        row = ledger.seat_row(seats, f"{reason or word}: {text}", time)
        said = Said(lambda: _("the seat change ({note})").format(note=change.note))
        return said, marked(row, line, back)
    changes, _unused = set_row_text(change.note)
    rules = before[1] if back else rules_of_set_row(change.note)
    hands = set_row_hands(change.note)
    if hands is None:
        row = ledger.set_row(rules, [f"{word} of {changes}"], end, reason, time)
    else:  # (`set --from`: the hands from the same one scored again, under the rules it names)
        row = ledger.set_from_row(
            rules, [f"{word} of {changes}"], hands[0], end, reason, time, step=True
        )
    said = Said(lambda: _("the change of the rules ({changes})").format(changes=changes))
    return said, marked(row, line, back)


def correction(change: Row, back: bool, reason: str, time: str) -> Correction:
    """The step that takes back or makes again a hand, a void, a restoring or an amendment."""
    kind, line = change.kind, change.line
    ref = change.hand if kind in HAND_KINDS else change.ref
    assert ref is not None
    note = reason or ("undo" if back else "redo")
    make: MakeRow
    if kind is RowKind.AMEND:
        what = Said(lambda: _("the amendment of hand {hand}").format(hand=ref))

        def make(led: Ledger, r: int) -> tuple[Row, Score | None]:
            if not back:
                return led.amend_row(r, change.hand_inputs(), reason, time)
            version = led.kept[r]  # the hand's versions, newest first: the one before it
            while version.before is not None and version.row.line >= line:
                version = version.before
            return led.amend_row(r, version.row.hand_inputs(), reason or version.row.note, time)
    else:
        what = Said(
            lambda: (
                _("hand {hand}")
                if kind in HAND_KINDS
                else _("the void of hand {hand}")
                if kind is RowKind.VOID
                else _("the restoring of hand {hand}")
            ).format(hand=ref)
        )
        voids = back != (kind is RowKind.VOID)  # (taking back a void restores the hand)

        def make(led: Ledger, r: int) -> tuple[Row, Score | None]:
            if voids:
                return led.void_row(r, note, time), None
            return led.restore_row(r, note, time), None

    def step(led: Ledger, r: int) -> tuple[Row, Score | None]:
        row, result = make(led, r)
        return marked(row, line, back), result

    return Correction(what, ref, step)
