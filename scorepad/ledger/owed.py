"""The Bock rounds a night owes, as the rows change them (`BockOwed`, a part of `Night`): a hand
played takes the next Bock hand and adds the rounds it brings, a `bock` row starts rounds, and a
correction may take a change back only if no later hand was dealt under it (`bock_refusal`)."""

from __future__ import annotations

from collections.abc import Mapping

from ..i18n import gettext as _
from ..rules import Rules
from ..scoring import Bock, Score
from ..store.format import Row, RowKind
from . import bock as bocks
from .entries import Version

_BOCK_STACK = 256  # the Bock changes remembered, newest last (a correction of an older one waits)


class BockOwed:
    """The Bock owed (`bock`) and each change of it (`_bock_changes`), in a night."""

    rules: Rules
    order: list[str]
    last_hand: int
    kept: dict[int, Version]
    bock: bocks.Queue
    # each change of the Bock owed, newest last: (hand number, or minus the line of a `bock`
    # row; the queue before it; the last hand dealt then)
    _bock_changes: list[tuple[int, bocks.Queue, int]]

    def last_effective(self) -> int:
        """The last hand dealt that is not void (`Night.last_effective`)."""
        raise NotImplementedError

    def bock_next(self) -> str:
        """The next hand's Bock as its `bock` cell holds it ("": it is no Bock hand)."""
        found = bocks.head(self.bock)
        return "" if found is None else found.text()

    def _apply_bock(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """The table starts Bock rounds (`scorepad bock`), or takes the ones a `bock` row
        started back (its undo: `bock_refusal` allowed it)."""
        if row.undoes is not None:
            self._bock_taken_back(-row.undoes)
            return
        before = self.bock
        self.bock = bocks.added(before, self.rules, len(self.order), row.bock_rounds or 1)
        self._bock_changed(-row.line, before)

    def _bock_played(self, number: int, is_bock: bool, result: Score | None) -> None:
        """Hand `number` is played: it takes the next Bock hand if it is one, and the Bock
        rounds it brings (`bock_after`) are added."""
        before = self.bock
        if is_bock:
            self.bock = bocks.rest(self.bock)
        brought = events(result)
        if brought:
            self.bock = bocks.added(self.bock, self.rules, len(self.order), len(brought))
        if is_bock or brought:
            self._bock_changed(number, before)

    def _bock_changed(self, key: int, before: bocks.Queue) -> None:
        changes = self._bock_changes
        if len(changes) >= _BOCK_STACK:
            del changes[0]
        changes.append((key, before, self.last_hand))

    def _bock_taken_back(self, key: int) -> None:
        """The Bock change of hand `key` (or minus a `bock` row's line) is taken back: the
        Bock owed as before it (`bock_refusal` allowed it: it is the last change)."""
        changes = self._bock_changes
        if changes and changes[-1][0] == key:
            self.bock = changes.pop()[1]

    def bock_refusal(self, row: Row, result: Score | None = None) -> str | None:
        """Why a correction (or a `bock` row's undo) cannot be made without changing which
        later hands were Bock hands (None: it can). `result`: an amendment's new score."""
        changes = self._bock_changes
        top = changes[-1] if changes else None
        if row.kind is RowKind.BOCK:
            return None if row.undoes is None else self._undo_refusal(row.undoes, top)
        assert row.ref is not None
        version = self.kept[row.ref]
        if row.kind is RowKind.RESTORE:
            return self._restore_refusal(row.ref, version)
        # (a hand that was a Bock hand or brought a round changed the Bock owed: its change is
        # on the stack, unless so many came after it that it was let go, which refuses too)
        mine = bool(version.row.bock or events(version.result))
        if row.kind is RowKind.VOID and not mine:
            return None  # (it changed no Bock owed)
        if row.kind is RowKind.AMEND and events(version.result) == events(result):
            return None
        ref = row.ref
        # (not `mine`: an amendment that brings a Bock round, where the hand brought none)
        blocked = (top is None or top[0] != ref) if mine else (top is not None and top[2] >= ref)
        if not blocked and ref == self.last_effective():
            return None  # (it is the last change of the Bock owed, and the last hand dealt)
        first = self._first_to_undo(top, ref)
        if row.kind is RowKind.VOID:
            what = "is a Bock hand" if version.row.bock else "brought a Bock round"
            return _(
                "hand {ref} {what}: voided, it would change which later hands are Bock "
                "hands; {first}"
            ).format(ref=ref, what=what, first=first)
        bring = "bring a Bock round" if events(result) else "bring no Bock round"
        return _(
            "hand {ref}: amended so, it would {bring} and change which later hands "
            "are Bock hands; {first}"
        ).format(ref=ref, bring=bring, first=first)

    def _undo_refusal(self, undoes: int, top: tuple[int, bocks.Queue, int] | None) -> str | None:
        """Why the `bock` row on line `undoes` cannot be taken back (None: it can)."""
        if top is not None and top[0] == -undoes:
            return None
        since = (
            "none are owed"
            if top is None
            else _("hand {top} was played in them: void it first").format(top=top[0])
            if top[0] > 0
            else _("the Bock rounds of line {value} came after: undo them first").format(
                value=-top[0]
            )
        )
        return _("the Bock rounds of line {undoes} cannot be taken back: {since}").format(
            undoes=undoes, since=since
        )

    def _restore_refusal(self, ref: int, version: Version) -> str | None:
        """Why voided hand `ref` cannot count again as it was played (None: it can)."""
        if not (version.row.bock or events(version.result)):
            return None
        if ref < self.last_effective():
            return _(
                "hand {ref} was a Bock hand, or brought a Bock round: restored now, it "
                "would change which later hands were Bock hands; void hands {ref2} to "
                "{last_effective} first"
            ).format(ref=ref, ref2=ref + 1, last_effective=self.last_effective())
        if version.row.bock != self.bock_next():
            return _(
                "hand {ref} was played as {bock_words}, but the next hand now is "
                "{bock_words2}: it cannot count again as it was played"
            ).format(
                ref=ref,
                bock_words=_bock_words(version.row.bock),
                bock_words2=_bock_words(self.bock_next()),
            )
        return None

    def _first_to_undo(self, top: tuple[int, bocks.Queue, int] | None, ref: int) -> str:
        """What to take back first, so that hand `ref`'s change of the Bock owed can be made."""
        later = self.last_effective()
        if top is not None and top[0] < 0 and top[2] >= ref:
            return _("undo the Bock rounds started on line {value} first").format(value=-top[0])
        if later > ref:
            hands = (
                f"hand {later}"
                if ref + 1 == later
                else _("hands {ref} to {later}").format(ref=ref + 1, later=later)
            )
            return _("void {hands} first (from the last: `scorepad undo`)").format(hands=hands)
        return "take back the changes after it first (`scorepad undo`)"


def _bock_words(cell: str) -> str:
    found = Bock.parse(cell)
    return "no Bock hand" if found is None else found.words()


def events(result: Score | None) -> tuple[str, ...]:
    """The `bock_after` events a hand's score is (each brings a Bock round)."""
    return () if result is None else result.bock_next
