"""The making of new rows: a hand, a doubler, a penalty, a correction, a change of the seats or
the rules, each checked against the night and applied (`Night._apply`) as it is made, so what
is written is what the check reads back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import HandError, ScorepadError
from ..i18n import gettext as _
from ..i18n import joined
from ..pot import ante_score, played_for_pot, plays_for_pot, put_in
from ..rules import MAX_DOUBLED, Rules
from ..scoring import (
    Hand,
    Penalty,
    PickerHand,
    Score,
    find_player,
    score,
    score_penalty,
    seat,
    tricks_needed,
)
from ..scoring.called import spelled
from ..store.format import LedgerError, Row, RowKind, check_note
from . import bock as bocks
from .bock import MAX_OWED, MAX_ROUNDS
from .entries import check_throw_in
from .night import Night
from .records import canonical, hand_of, row_for_hand, set_row_note


class NewRows(Night):
    """The rows of what happens next at the table, made from the night's state."""

    def record(self, hand: Hand, note: str = "", time: str = "") -> tuple[Row, Score]:
        """Score a new hand at the next number and return its row (with state) and score."""
        self._check_race_open()
        self.check_night_open()
        hand = self.prepare(hand)
        result = self.score_hand(hand)
        row = row_for_hand(hand, result, self.seated)._replace(
            hand=self.last_hand + 1,
            note=check_note(note),
            time=time,
        )
        self._apply(row, result)
        return self._state(row), result

    def score_hand(self, hand: Hand, pot: int | None = None) -> Score:
        """Score a hand prepared for this session (`prepare`) as the next: a hand with a picker
        plays for the pot, if there is one (all_pass = pot; `pot`: what it held before an
        amended hand)."""
        pot = self.pot if pot is None else pot
        result = score(self.rules, hand, explain=True)
        if isinstance(hand, PickerHand) and plays_for_pot(pot, result):
            return played_for_pot(self.rules, result, hand.picker, hand.partners, pot)
        return result

    def _spelled(self, hand: Hand, seated: tuple[str, ...]) -> Hand:
        """The hand with its names as the session spells them, and a called suit as the table
        writes it."""
        hand = canonical(hand, seated)
        return spelled(self.rules, hand) if isinstance(hand, PickerHand) else hand

    def prepare(self, hand: Hand) -> Hand:
        """The hand as this session scores it: its names as the session spells them, the
        dealer whoever is next unless given, and the doublings pending."""
        hand = self._spelled(hand._replace(players=self.seated), self.seated)
        if hand.dealer is None:
            hand = hand._replace(dealer=self.next_dealer)
        if hand.doubled:
            raise HandError(
                _(
                    "⟨doubled⟩: a session doubles the hands after a recorded doubler by "
                    "itself; record the doubler with `scorepad hand ⟨doubler⟩`"
                )
            )
        if hand.bock:
            raise HandError(
                _(
                    "⟨bock⟩: a session works out its Bock hands by itself; to start a Bock "
                    "round, `scorepad bock`"
                )
            )
        why = tricks_needed(self.rules, hand)
        if why:
            raise HandError(why)
        return hand._replace(doubled=self.doubled_next(), bock=self.bock_next())

    def record_doubler(self, dealer: str | None = None, note: str = "", time: str = "") -> Row:
        """The row of a thrown-in hand under all_pass = doubler."""
        if self.rules.all_pass != "doubler":
            raise HandError(
                _(
                    "⟨doubler⟩: {name} rules have all_pass = {all_pass}; a doubler needs "
                    "all_pass = doubler: scorepad set all_pass=doubler (from the next hand "
                    "on)"
                ).format(name=self.rules.name, all_pass=self.rules.all_pass)
            )
        self._check_race_open()
        self.check_night_open()
        if self.rules.doubler_stacking == "multiply" and self.doubled_next() >= MAX_DOUBLED:
            raise HandError(
                _(
                    "⟨doubler⟩: {doubled_next} doublers are pending, and a hand is doubled "
                    "by {max_doubled} at most (doubler_stacking = multiply): score a hand "
                    "first"
                ).format(doubled_next=self.doubled_next(), max_doubled=MAX_DOUBLED)
            )
        dealer = find_player(dealer, self.seated, "⟨dealer⟩") if dealer else self.next_dealer
        row = Row(
            RowKind.DOUBLER,
            hand=self.last_hand + 1,
            dealer=dealer,
            deltas=dict.fromkeys(self.seated, 0),
            note=check_note(note),
            time=time,
        )
        self._apply(row)
        return self._state(row)

    def record_pot(
        self, dealer: str | None = None, out: Sequence[str] = (), note: str = "", time: str = ""
    ) -> tuple[Row, Score]:
        """The row of a hand everyone passed under all_pass = pot: each player dealt in pays the
        ante into the pot, and the deal moves on."""
        if self.rules.all_pass != "pot":
            raise HandError(
                _(
                    "⟨pot⟩: {name} rules have all_pass = {all_pass}; the pot needs "
                    "all_pass = pot: scorepad set all_pass=pot (from the next hand on)"
                ).format(name=self.rules.name, all_pass=self.rules.all_pass)
            )
        self._check_race_open()
        self.check_night_open()
        seated = self.seated
        dealer = find_player(dealer, seated, "⟨dealer⟩") if dealer else self.next_dealer
        out = tuple(find_player(p, seated, "⟨out⟩") for p in out)
        result = ante_score(self.rules, seated, dealer, out)
        row = Row(
            RowKind.POT,
            hand=self.last_hand + 1,
            dealer=dealer,
            out=tuple(p for p in seated if p in result.sitting_out),
            deltas={p: result.deltas.get(p, 0) for p in seated},
            note=check_note(note),
            time=time,
        )
        self._apply(row, result)
        return self._state(row), result

    def void_row(self, ref: int, reason: str = "", time: str = "") -> Row:
        """The row that voids hand `ref` (which must be remembered: a hand corrections name)."""
        self._check_ref(ref)
        version = self.kept[ref]
        self._refuse_pot_change(ref, -put_in(version.result))
        row = Row(
            RowKind.VOID,
            ref=ref,
            deltas={p: -v for p, v in version.deltas.items()},
            note=check_note(reason),
            time=time,
        )
        self._refuse_bock(row)
        self._apply(row)
        return self._state(row)

    def restore_row(self, ref: int, note: str = "", time: str = "") -> Row:
        """The row that makes voided hand `ref` count again (`undo` of its void)."""
        if ref not in self.voided:
            raise HandError(
                _("hand {ref} is not void: there is nothing to restore").format(ref=ref)
            )
        version = self.kept[ref]
        self._refuse_pot_change(ref, put_in(version.result))
        row = Row(
            RowKind.RESTORE, ref=ref, deltas=dict(version.deltas), note=check_note(note), time=time
        )
        self._refuse_bock(row)
        self._apply(row)
        return self._state(row)

    def amend_row(
        self, ref: int, changes: Mapping[str, Any], note: str = "", time: str = ""
    ) -> tuple[Row, Score]:
        """The row that replaces some inputs of hand `ref` and re-scores it."""
        self._check_ref(ref)
        version = self.kept[ref]
        refused = {
            RowKind.DOUBLER: _(
                "hand {ref} is a doubler: there is nothing to amend (void it with "
                "`scorepad void {ref}` and record the hand)"
            ),
            RowKind.PENALTY: _(
                "hand {ref} is a penalty: void it with `scorepad void {ref}` and record "
                "the penalty again"
            ),
            RowKind.POT: _(
                "hand {ref} was passed into the pot: there is nothing to amend (void it "
                "with `scorepad void {ref}` and record the hand)"
            ),
        }.get(version.row.kind)
        if refused is not None:
            raise HandError(refused.format(ref=ref))
        if changes.get("bock", version.row.bock) != version.row.bock:
            raise HandError(
                _(
                    "⟨bock⟩: an amendment keeps the Bock of hand {ref} ({value}): a session "
                    "works it out by itself"
                ).format(ref=ref, value=version.row.bock or "none")
            )
        inputs = {**version.row.hand_inputs(), **changes}
        if inputs.get("picker") is not None and inputs.get("game") == "ramsch":
            inputs["game"] = None  # (a Ramsch amended into a game: a partner game unless given)
        seated = self._seats_of(version)
        hand = self._spelled(hand_of(Row(RowKind.AMEND, **inputs), seated), seated)
        why = tricks_needed(self.rules, hand._replace(dealer=hand.dealer or version.row.dealer))
        if why:
            raise HandError(why)
        result = self.score_hand(hand, version.pot)
        try:
            check_throw_in(version, result, ref, 0)
        except LedgerError as exc:
            raise HandError(exc.message) from None
        self._refuse_pot_change(ref, result.pot - put_in(version.result))
        new = row_for_hand(hand, result, seated)
        if new.hand_inputs() == version.row.hand_inputs():
            raise HandError(
                _("hand {ref} already has these inputs: there is nothing to amend").format(ref=ref)
            )
        row = new._replace(
            kind=RowKind.AMEND,
            ref=ref,
            deltas={p: new.deltas.get(p, 0) - version.deltas.get(p, 0) for p in seated},
            note=check_note(note) if note else version.row.note,  # the note carries over
            time=time,
        )
        self._refuse_bock(row, result)
        self._apply(row, result)
        return self._state(row), result

    def penalty_row(self, penalty: Penalty, note: str = "", time: str = "") -> tuple[Row, Score]:
        """The row of a penalty: it takes the next number, moves no deal and no doubling."""
        self._check_race_open()
        result = score_penalty(self.rules, penalty._replace(players=self.seated))
        offender = find_player(penalty.offender, self.seated, "penalty")
        to = find_player(penalty.to, self.seated, "⟨paid_to⟩") if penalty.to else None
        row = Row(
            RowKind.PENALTY,
            hand=self.last_hand + 1,
            deltas=dict(result.deltas),
            offender=offender,
            penalty=penalty.points,
            paid_to=to,
            note=check_note(note),
            time=time,
        )
        self._apply(row, result)
        return self._state(row), result

    def seat_row(self, seated: Sequence[str], note: str, time: str = "") -> Row:
        """The row that changes the seats in force (someone joined or left)."""
        try:
            self._check_seats(seated, 0)
        except LedgerError as exc:
            raise HandError(exc.message.removeprefix("seated: ")) from None
        row = Row(RowKind.SEAT, seated=tuple(seated), note=note, time=time)
        self._apply(row)
        return self._state(row)

    def set_row(
        self, rules: Rules, changes: Sequence[str], line: int, note: str = "", time: str = ""
    ) -> Row:
        """The row that puts `rules` in force from the next hand on (`scorepad set`, and its
        undo); `line` is the line the row will stand on in the file."""
        self.check_set(rules)
        row = Row(
            RowKind.SET, line=line, note=set_row_note(rules, changes, check_note(note)), time=time
        )
        self._apply(row)
        return self._state(row)

    def check_set(self, rules: Rules) -> None:
        """A HandError when `rules` cannot be put in force now."""
        if rules.family != self.rules.family:
            raise HandError(_("a change of the rules keeps the family of the game"))
        try:
            seat(rules, self.seated, self.next_dealer)
        except ScorepadError as exc:
            raise HandError(
                _("with these rules the table cannot be dealt: {exc}").format(exc=exc)
            ) from None
        self._check_race_open()

    def bock_row(
        self,
        rounds: int,
        line: int,
        note: str = "",
        time: str = "",
        undoes: int | None = None,
    ) -> Row:
        """The row of Bock rounds the table starts (`scorepad bock`), from the next hand on
        (after those owed, under bock_stacking = queue); with `undoes`, the row that takes back
        the `bock` row on that line. `line` is the line the row will stand on in the file."""
        if not 1 <= rounds <= MAX_ROUNDS:
            raise HandError(
                _("⟨rounds⟩ {rounds}: start 1 to {max_rounds} Bock rounds at once").format(
                    rounds=rounds, max_rounds=MAX_ROUNDS
                )
            )
        if undoes is None:
            self._check_race_open()
            self.check_night_open()
            room = MAX_OWED - bocks.owed(self.bock)
            if room < bocks.round_length(self.rules, len(self.order)) * rounds:
                raise HandError(
                    _(
                        "⟨rounds⟩ {rounds}: {owed} Bock hands are owed already, and a night owes "
                        "{max_owed} at most: play some first"
                    ).format(rounds=rounds, owed=bocks.owed(self.bock), max_owed=MAX_OWED)
                )
        row = Row(
            RowKind.BOCK,
            line=line,
            bock_rounds=rounds,
            note=check_note(note),
            time=time,
            undoes=undoes,
        )
        self._refuse_bock(row)
        self._apply(row)
        return self._state(row)

    def _refuse_bock(self, row: Row, result: Score | None = None) -> None:
        """A HandError when the change would change which later hands were Bock hands."""
        why = self.bock_refusal(row, result)
        if why is not None:
            raise HandError(why)

    def keep(self, ref: int) -> None:
        """Remember hand `ref` when the pass reaches it (a correction is about to be made)."""
        self.refs[ref] = self.refs.get(ref, 0) + 1

    def _refuse_pot_change(self, ref: int, change: int) -> None:
        """A correction of hand `ref` may not change the pot a later hand played for."""
        problem = self.pot_change_problem(ref, change)
        if problem is not None:
            raise HandError(_("hand {ref}: {problem}").format(ref=ref, problem=problem))

    def _check_race_open(self) -> None:
        if self.race_winners:
            raise HandError(
                _(
                    "the race is over: {race_winners} reached {target}; start a new session "
                    "for another night"
                ).format(race_winners=joined(self.race_winners), target=self.rules.target)
            )

    def check_night_open(self) -> None:
        """A HandError when the night's last hand (⟨last⟩) was played."""
        if self.night_over:
            raise HandError(
                _(
                    "hand {night_over} was marked the night's last (⟨last⟩); to play on, "
                    "take the mark off: scorepad amend {night_over} ⟨no_last⟩"
                ).format(night_over=self.night_over)
            )

    def _check_ref(self, ref: int) -> None:
        if not 1 <= ref <= self.last_hand:
            raise HandError(
                _("there is no hand {ref}: hands run from 1 to {last}").format(
                    ref=ref, last=self.last_hand
                )
                if self.last_hand
                else _("there is no hand {ref}: no hand recorded").format(ref=ref)
            )
        if ref in self.voided:
            raise HandError(_("hand {ref} is already void").format(ref=ref))
