"""The night's state, and how each kind of row changes it (`Night._apply`: one method a kind).

What a row does is applied here alone, on every path: when the ledger checks a file (`Checker`)
and when it makes a new row (`NewRows`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Self

from ..errors import ScorepadError
from ..i18n import gettext as _
from ..pot import plays_for_pot, put_in
from ..rules import Rules
from ..scoring import Outcome, Score, seat
from ..store.format import HAND_KINDS, Codec, LedgerError, Row, RowKind
from ..store.scan import Fate, set_row_hands
from . import bock as bocks
from .entries import Counts, HandView, Scored, Version, shown, throws_in
from .owed import BockOwed, events
from .records import rules_of_set_row


class Night(BockOwed):
    """The state of a night, row by row: totals, dealer, doublers pending, corrections.

    `corrections` maps each hand number that later rows correct to its `Fate` (found before the
    pass): such hands are kept (`kept`) until their last correction. `counts`, if given, counts
    the hands that are not void by their final version; `on_hand`, if given, is told each (see
    `Checker`).
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        first_dealer: str,
        seated: Sequence[str] | None = None,
        codec: Codec | None = None,
        corrections: Mapping[int, Fate] | None = None,
        on_hand: Callable[[HandView], None] | None = None,
        counts: Counts | None = None,
    ):
        self.rules = rules
        self.players = tuple(players)  # everyone in the file's header
        self.codec = codec or Codec.new(self.players)
        self.order = list(seated or players)  # the seats in force, in seat order
        self.next_dealer = first_dealer
        self.totals = dict.fromkeys(self.order, 0)  # everyone who has sat down tonight
        self.pending: list[int] = []  # the doubler hands whose doubling is still to come
        self.last_hand = 0
        self.hands = 0  # picker and leaster hands that count (not voided)
        self.voided: set[int] = set()
        self.penalties: set[int] = set()  # the numbers that are penalties, not deals
        # `resume`: the hand the last row records, when it was marked the night's last
        self.night_over: int | None = None
        self.seat_changes = 0
        self._seat_notes: list[str] = []  # seat changes the next hand shown is to mention
        self.rules_line: int | None = None  # the `set` row in force (None: the head's rules)
        self.rules_from = 0  # the first hand under the rules in force, once they changed
        self.rules_changes = 0  # the `set` rows read (undos of one among them)
        # told of each change of the rules as the pass reaches it, with the hand it applies from
        self.on_set: Callable[[Row, int], None] | None = None
        self.corrections = corrections if corrections is not None else {}  # (read only)
        # The hands that rows below still correct, with how many: each is kept (`kept`) from
        # the row that records it till its last correction.
        self.refs: dict[int, int] = {ref: fate.rows for ref, fate in self.corrections.items()}
        self.kept: dict[int, Version] = {}
        self.race_winners: tuple[str, ...] = ()
        self.corrected = 0  # the correction rows above a checkpoint the pass began at
        self.on_hand = on_hand
        self.counts = counts  # if given: how often each scored hand stands in its final version
        self.bock: bocks.Queue = bocks.EMPTY  # the Bock hands the next hands are, in turn
        # each change of the Bock owed, newest last: (hand number, or minus the line of a
        # `bock` row; the queue before it; the last hand dealt then)
        self._bock_changes: list[tuple[int, bocks.Queue, int]] = []
        # The pot (all_pass = pot): what it holds, the hands passed into it and the hands that
        # played for it (not void), each by number (a pass over the file finds them; `resume`
        # knows only what the pot holds).
        self.pot = 0
        self.pot_rows: set[int] = set()
        self.pot_hands: set[int] = set()

    @classmethod
    def resume(
        cls,
        rules: Rules,
        players: Sequence[str],
        last: Row,
        last_hand: int,
        codec: Codec | None = None,
        rules_line: int | None = None,
    ) -> Self:
        """Pick the night up from the state its last row records (no history needed), under
        the rules of the `set` row at `rules_line` (None: the rules row's)."""
        ledger = cls(
            rules,
            players,
            last.next_dealer or players[-1],
            seated=last.seated or players,
            codec=codec,
        )
        ledger.pending = [0] * last.pending
        ledger.totals = {
            p: last.totals.get(p, 0)
            for p in ledger.players
            if p in last.totals or p in ledger.order
        }
        ledger.last_hand = last_hand
        ledger.rules_line = rules_line
        ledger.bock = bocks.parse(last.bock_queue) or bocks.EMPTY
        ledger.pot = last.pot
        if last.last and last.kind in HAND_KINDS:
            ledger.night_over = last.hand
        elif last.last and last.kind is RowKind.AMEND and last.ref == last_hand:
            ledger.night_over = last.ref
        ledger._check_race()
        ledger._changed(rules=False)
        return ledger

    @property
    def seated(self) -> tuple[str, ...]:
        """The seats in force, as a tuple."""
        return tuple(self.order)

    def doubled_next(self) -> int:
        """How many doublings the next scored hand carries, from the doublers pending."""
        if not self.pending:
            return 0
        return len(self.pending) if self.rules.doubler_stacking == "multiply" else 1

    def left_of(self, dealer: str) -> str:
        """Who deals after `dealer`: the next seated player (in the header's order if the
        dealer has left since)."""
        seated = self.order
        if dealer in seated:
            return seated[(seated.index(dealer) + 1) % len(seated)]
        return self.following(dealer, self.players)

    def following(self, player: str, order: Sequence[str]) -> str:
        """`player` if seated, else the first seated player after them in `order`."""
        if player in self.order:
            return player
        start = list(order).index(player) if player in order else -1
        for step in range(1, len(order) + 1):
            candidate = order[(start + step) % len(order)]
            if candidate in self.order:
                return candidate
        return self.order[0]

    def last_effective(self) -> int:
        """The last hand dealt that is not void (0 when there is none; penalties are not
        dealt)."""
        hand = self.last_hand
        while hand in self.voided or hand in self.penalties:
            hand -= 1
        return hand

    # -- how each kind of row changes the night --------------------------------------------

    def _changed(self, rules: bool) -> None:
        """The seats in force changed, or (`rules`) the rules, or the state was taken from a
        row: what a part of the ledger remembers for them goes (see `Checker`)."""

    def _add(self, deltas: Mapping[str, int]) -> None:
        totals = self.totals
        for player, value in deltas.items():
            totals[player] += value

    def _check_race(self) -> None:
        if self.rules.settlement != "race":
            return
        reached = tuple(p for p in self.totals if self.totals[p] >= self.rules.target)
        # The first to reach the target wins; a correction that undoes it reopens the race.
        if not any(p in reached for p in self.race_winners):
            self.race_winners = reached

    def _consume(self) -> list[int]:
        if self.rules.doubler_stacking == "multiply":
            taken, self.pending = self.pending, []
            return taken
        return [self.pending.pop(0)] if self.pending else []

    def _state(self, row: Row) -> Row:
        return row._replace(
            rules_line=self.rules_line,
            next_dealer=self.next_dealer,
            seated=self.seated,
            pending=len(self.pending),
            totals=dict(self.totals),
            bock_queue=bocks.text(self.bock),
            pot=self.pot,
        )

    def _apply(
        self, row: Row, result: Score | None = None, deltas: Mapping[str, int] | None = None
    ) -> None:
        """Apply a row (`_state` then gives it the state after).

        `result` is the hand's score (for a hand row or an amendment); `deltas` the points to
        apply when they differ from the row's (a row being checked)."""
        if deltas is None:
            deltas = row.deltas
        apply = _APPLY.get(row.kind)
        if apply is not None:
            apply(self, row, result, deltas)
        self._check_race()

    def _apply_penalty(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """A penalty: numbered like a hand, it moves no deal."""
        assert row.hand is not None
        self.last_hand = row.hand
        self.penalties.add(row.hand)
        self._add(deltas)
        self._keep(row.hand, row, deltas, [], result)

    def _played(
        self, number: int, deltas: Mapping[str, int], next_dealer: str, counted: bool = True
    ) -> None:
        """What every hand dealt does to the night: its points, the next dealer, and one more
        hand played (not a doubler or a hand passed into the pot: `counted`). A hand whose
        score the memo holds does nothing more (`check.Checker._remember`)."""
        self.last_hand = number
        totals = self.totals
        for player, value in deltas.items():
            totals[player] += value
        self.hands += counted
        self.next_dealer = next_dealer

    def _apply_hand(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """A hand (a doubler too), as `row` records it (its inputs, at least: the whole row
        where a later row corrects the hand, `_keep`), is dealt: its points, the next dealer,
        one more hand played (not a doubler or a hand passed into the pot); it takes the
        doublings pending, or puts one in the queue; it moves the pot and the Bock owed."""
        number = row.hand
        assert number is not None and row.dealer is not None
        kind = row.kind
        counted = kind is not RowKind.DOUBLER and kind is not RowKind.POT
        consumed: list[int] = []
        if self.pending and counted and (result is None or result.outcome is not Outcome.TIE):
            consumed = self._consume()
        if kind is RowKind.DOUBLER or (result is not None and result.doubles_next):
            self._throw_in(number)
        self._played(number, deltas, self.left_of(row.dealer), counted)
        pot = self.pot  # (what the hand played for, if it did)
        if result is not None and (pot or result.pot or kind is RowKind.POT):
            self._pot_moved(number, kind, result)
        self._keep(number, row, deltas, consumed, result, pot)
        if counted and (row.bock or (result is not None and result.bock_next)):
            self._bock_played(number, bool(row.bock), result)

    def _keep(
        self,
        number: int,
        row: Row,
        deltas: Mapping[str, int],
        consumed: list[int],
        result: Score | None,
        pot: int = 0,
    ) -> None:
        """Remember hand `number` as dealt, if a later row corrects it (till the last does);
        `pot`: what the pot held before it."""
        if number in self.refs:
            self.kept[number] = Version(row, dict(deltas), consumed, result, pot=pot)

    def _apply_void(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """A voided hand: its points back, its doublings as before it, the deal back."""
        assert row.ref is not None
        version = self.kept[row.ref]
        was_last = row.ref == self.last_effective()
        self._add(deltas)
        if version.row.kind not in (RowKind.DOUBLER, RowKind.PENALTY, RowKind.POT):
            self.hands -= 1
        self.voided.add(row.ref)
        self._pot_corrected(row.ref, version, None)
        if throws_in(version):  # the doubling it put in the queue goes, if still there
            self.pending = [h for h in self.pending if h != row.ref]
        self.pending = version.consumed + self.pending
        self._bock_taken_back(row.ref)
        if was_last and version.row.kind is not RowKind.PENALTY:
            assert version.row.dealer is not None
            self.next_dealer = self.following(version.row.dealer, self.players)
        self._forget(row.ref)

    def _apply_set(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """A change of the rules, from the next hand on; or (`set --from`) from an earlier
        hand, every hand since scored again (`take_rescored`: their new versions)."""
        self.rules = self._rules_of(row)
        self.rules_line = row.line
        hands = set_row_hands(row.note)
        self.rules_from = self.last_hand + 1 if hands is None else hands[0]
        if hands is not None:
            self._add(deltas)
            rescored = dict(self.take_rescored())
            for number in range(hands[0], hands[1] + 1):
                new = rescored.get(number)
                if new is not None:
                    assert new.before is not None
                    self.kept[number] = new
                    self._pot_corrected(number, new.before, new)
                self._forget(number)
        self.rules_changes += 1
        self._changed(rules=True)
        if self.on_set is not None:
            self.on_set(row, self.rules_from)

    def _apply_seat(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """Someone joins or leaves the table."""
        self.seat_changes += 1
        if row.note:
            self._seat_notes.append(row.note)
        old = self.seated
        self.order = list(row.seated)
        for player in self.order:
            self.totals.setdefault(player, 0)
        self.next_dealer = self.following(self.next_dealer, old + self.seated)
        self._changed(rules=False)

    def _apply_amend(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """New inputs for a hand: the change in points."""
        assert row.ref is not None
        version = self.kept[row.ref]
        self._add(deltas)
        new = {p: version.deltas.get(p, 0) + deltas.get(p, 0) for p in version.deltas}
        if events(version.result) != events(result):  # (`bock_refusal` allowed it)
            self._bock_taken_back(row.ref)
            self._bock_played(row.ref, bool(version.row.bock), result)
        self.kept[row.ref] = Version(row, new, version.consumed, result, version, version.pot)
        self._pot_corrected(row.ref, version, self.kept[row.ref])
        self._forget(row.ref)

    def _apply_restore(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """A voided hand counts again (the undo of a void)."""
        assert row.ref is not None
        version = self.kept[row.ref]
        self._add(deltas)
        self.voided.discard(row.ref)
        self._pot_corrected(row.ref, None, version)
        if version.row.kind not in (RowKind.DOUBLER, RowKind.PENALTY, RowKind.POT):
            self.hands += 1
        for taken in version.consumed:  # it takes back the doublings it had
            if taken in self.pending:
                self.pending.remove(taken)
        if throws_in(version):
            self._throw_in(row.ref)
        if version.row.kind is not RowKind.DOUBLER and (version.row.bock or events(version.result)):
            self._bock_played(row.ref, bool(version.row.bock), version.result)
        if row.ref == self.last_effective() and version.row.kind is not RowKind.PENALTY:
            assert version.row.dealer is not None
            self.next_dealer = self.left_of(version.row.dealer)
        self._forget(row.ref)

    # -- the pot (all_pass = pot) ------------------------------------------------------------

    def _pot_moved(self, number: int, kind: RowKind, result: Score | None) -> None:
        """What hand `number` puts into the pot (`Score.pot`: the antes of a hand passed into
        it, what a lost hand pays in; negative, what a won one takes out)."""
        if result is None:
            return
        if kind is RowKind.POT:
            self.pot_rows.add(number)
        elif plays_for_pot(self.pot, result):
            self.pot_hands.add(number)
        self.pot += result.pot

    def _pot_corrected(self, ref: int, was: Version | None, now: Version | None) -> None:
        """Hand `ref`'s version `was` (None: void) became `now` (None: voided): what it put
        into the pot changes with it, and whether it played for the pot."""
        self.pot += put_in(now.result if now else None) - put_in(was.result if was else None)
        self.pot_hands.discard(ref)
        if now is not None and now.result is not None and plays_for_pot(now.pot, now.result):
            self.pot_hands.add(ref)

    def pot_change_problem(self, ref: int, change: int) -> str | None:
        """Why a correction of hand `ref` that changes what it put into the pot by `change`
        cannot be made: a later hand played for the pot it changes (those hands would have
        played for another), which are to be voided first, the last first. None: it can."""
        later = sorted(h for h in self.pot_hands if h > ref)
        if not change or not later:
            return None
        if len(later) == 1:
            return _(
                "this changes what it put into the pot ({change}), and so the pot that hand "
                "{hand} played for: void hand {hand} first (scorepad void {hand})"
            ).format(change=f"{change:+d}", hand=later[0])
        listed = ", ".join(map(str, later[:-1])) + _(" and ") + str(later[-1])
        order = _(", then ").join(f"scorepad void {h}" for h in reversed(later))
        return _(
            "this changes what it put into the pot ({change}), and so the pot that hands "
            "{hands} played for: void them first, the last first ({order})"
        ).format(change=f"{change:+d}", hands=listed, order=order)

    def _throw_in(self, number: int) -> None:
        """Hand `number` doubles a later hand (a doubler, or a 60-60 under sixty_sixty)."""
        cap = self.rules.doubler_stacking == "cap"
        if not cap or len(self.pending) < self.rules.max_doubled_hands:
            self.pending.append(number)

    def _forget(self, ref: int) -> None:
        """One fewer correction to come for hand `ref`; forget it after the last."""
        if ref in self.refs:
            self.refs[ref] -= 1
            if self.refs[ref] <= 0 and ref in self.corrections:
                del self.refs[ref]
                version = self.kept.pop(ref, None)
                # (a hand that rows below correct is counted as the last of them leaves it)
                if (
                    self.counts is not None
                    and version is not None
                    and version.result is not None
                    and ref not in self.voided
                ):
                    seated = self._seats_of(version)
                    self.counts.add(Scored(version.row, version.deltas, version.result, seated))

    # -- what the night allows ------------------------------------------------------------

    def take_rescored(self) -> tuple[tuple[int, Version], ...]:
        """The new versions of the hands a `set --from` row scores again (made as the row is
        checked or made: `rows.Expected.rescored`)."""
        return ()

    def _rules_of(self, row: Row) -> Rules:
        """The rules a `set` row puts in force (a LedgerError when they cannot be)."""
        try:
            rules = rules_of_set_row(row.note)
            seat(rules, self.seated, None)
        except ScorepadError as exc:
            raise LedgerError(
                row.line, _("this change of the rules cannot be: {exc}").format(exc=exc)
            ) from None
        if rules.family != self.rules.family:
            raise LedgerError(row.line, _("a change of the rules keeps the family of the game"))
        return rules

    def _seats_of(self, version: Version) -> tuple[str, ...]:
        """The players who were seated for a recorded hand, in seat order."""
        return tuple(p for p in self.players if p in version.deltas)

    def _check_seats(self, seated: Sequence[str], line: int) -> None:
        if len(set(seated)) != len(seated) or not all(p in self.players for p in seated):
            raise LedgerError(
                line, _("seated: {shown} is not a list of players").format(shown=shown(seated))
            )
        try:
            seat(self.rules, seated, None)
        except ScorepadError as exc:
            raise LedgerError(line, f"seated: {exc}") from None


# How each kind of row changes the night (`Night._apply`): one method a kind.
_APPLY: dict[RowKind, Callable[[Night, Row, Score | None, Mapping[str, int]], None]] = {
    RowKind.PENALTY: Night._apply_penalty,
    **dict.fromkeys(HAND_KINDS - {RowKind.PENALTY}, Night._apply_hand),
    RowKind.VOID: Night._apply_void,
    RowKind.SET: Night._apply_set,
    RowKind.SEAT: Night._apply_seat,
    RowKind.AMEND: Night._apply_amend,
    RowKind.RESTORE: Night._apply_restore,
    RowKind.BOCK: Night._apply_bock,
}
