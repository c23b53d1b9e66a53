"""What each kind of row must hold: the points a row should have, re-scored from its inputs and
the night so far (`Expected._expected`), or why it cannot be (a `LedgerError` naming the row's
line). The pass (`check.Checker`) compares each row with it and applies it."""

from __future__ import annotations

from ..errors import ScorepadError
from ..hands import INPUTS as HAND_INPUTS
from ..hands import PENALTY, Type, given
from ..i18n import gettext as _
from ..pot import ante_score, played_for_pot, plays_for_pot, put_in
from ..rules import Rules
from ..scoring import Penalty, Score, score, score_penalty
from ..store.format import HAND_KINDS, INPUTS, LedgerError, Row, RowKind
from ..store.scan import set_row_hands
from ..text import is_digest  # (`replay.digest`)
from .bock import MAX_ROUNDS
from .entries import Scored, Version, check_throw_in, lean, shown, throws_in
from .night import Night
from .owed import events
from .records import hand_of, kind_of

# The kinds of hand row the memo holds (a hand dealt and scored: not a doubler, a penalty or a
# hand passed into the pot, which are checked as they are); a digest is on one of them only
MEMO_KINDS = frozenset((RowKind.PICKER, RowKind.LEASTER, RowKind.SCHWANZER, RowKind.RAMSCH))

# the hands a `set --from` row leaves as they are: their points follow from no rules it changes
NOT_RESCORED = frozenset((RowKind.DOUBLER, RowKind.POT, RowKind.PENALTY))

# the inputs a penalty row may not hold: those of the hands dealt
_NOT_A_PENALTYS = tuple(
    i.name for i in HAND_INPUTS if PENALTY not in i.kinds and i.type != Type.KIND and i.since
)
# the inputs a hand passed into the pot may not hold: all but its dealer and who sat out
_NOT_A_POTS = tuple(
    i.name
    for i in HAND_INPUTS
    if i.name not in ("dealer", "out") and i.type != Type.KIND and i.since
)


class Expected(Night):
    """The night, and what each kind of row must hold against it."""

    _last_scored: Scored | None  # the hand row `_expected_hand` scored last (a pass's)
    _bock_rows: dict[int, int]  # the `bock` rows read: line to rounds
    _rescored: tuple[tuple[int, Version], ...] = ()  # (`set --from`: made, then applied)

    def _expected(
        self, row: Row, known: Scored | None = None
    ) -> tuple[dict[str, int], Score | None]:
        """The points the row should hold (re-scored, or as `known`, the hand its inputs
        record as the memo holds it) and its score, or a LedgerError."""
        line = row.line
        kind = row.kind
        if kind in (RowKind.RULES, RowKind.SESSION):
            raise LedgerError(
                line, _("a {kind} row belongs at the top of the file").format(kind=kind)
            )
        if row.undoes is not None or row.redoes is not None:
            _check_step(row)
        if row.digest and (kind not in MEMO_KINDS or not is_digest(row.digest)):
            raise LedgerError(
                line,
                _(
                    "digest: {digest!r} is not what `replay --record` keeps (the digest of a "
                    "hand file, 64 hexadecimal digits, on a hand's row)"
                ).format(digest=row.digest[:60]),
            )
        if kind is RowKind.SEAT:
            if row.hand is not None or row.ref is not None or row.deltas:
                raise LedgerError(line, _("a seat row has no hand number, ref or points"))
            self._check_seats(row.seated, line)
            return {}, None
        if kind is RowKind.SET:
            hands = set_row_hands(row.note)
            if row.hand is not None or row.ref is not None or (row.deltas and hands is None):
                raise LedgerError(line, _("a set row has no hand number, ref or points"))
            rules = self._rules_of(row)
            if hands is None:
                return {}, None
            deltas, self._rescored = self.rescored(rules, hands, line)
            return deltas, None
        if kind is RowKind.PENALTY:
            return self._expected_penalty(row)
        if kind is RowKind.BOCK:
            return self._expected_bock(row)
        if kind is RowKind.POT:
            return self._expected_pot(row)
        if kind in HAND_KINDS:
            return self._expected_hand(row, known)
        return self._expected_correction(row, known)

    def _expected_bock(self, row: Row) -> tuple[dict[str, int], Score | None]:
        """A `bock` row: the table starts Bock rounds (or takes back a `bock` row's)."""
        line = row.line
        if row.hand is not None or row.ref is not None or row.deltas:
            raise LedgerError(line, _("a bock row has no hand number, ref or points"))
        if row.bock_rounds is None or not 1 <= row.bock_rounds <= MAX_ROUNDS:
            raise LedgerError(
                line,
                _("bock_rounds: a bock row starts 1 to {max_rounds} Bock rounds").format(
                    max_rounds=MAX_ROUNDS
                ),
            )
        stray = given(row._asdict(), INPUTS)
        if stray:
            raise LedgerError(line, _("{stray}: a bock row has no {stray}").format(stray=stray[0]))
        if row.undoes is not None and row.line:
            undone = self._bock_rows.get(row.undoes)
            if undone is None:
                raise LedgerError(
                    line, _("undoes: line {undoes} is no bock row above").format(undoes=row.undoes)
                )
        why = self.bock_refusal(row)
        if why is not None:
            raise LedgerError(line, why)
        self._bock_rows[row.line] = row.bock_rounds
        return {}, None

    def _check_number(self, row: Row) -> None:
        """A hand or penalty row takes the next number."""
        if row.hand != self.last_hand + 1:
            raise LedgerError(
                row.line,
                _("hand number {hand} is out of order: {last_hand} comes next").format(
                    hand=row.hand, last_hand=self.last_hand + 1
                ),
            )

    def _expected_penalty(self, row: Row) -> tuple[dict[str, int], Score | None]:
        line = row.line
        self._check_number(row)
        if row.ref is not None:
            raise LedgerError(line, _("a penalty row has no ref"))
        if set(row.deltas) != set(self.seated):
            raise LedgerError(line, _("every player at the table needs a number of points"))
        stray = given(row._asdict(), _NOT_A_PENALTYS)
        if stray:
            raise LedgerError(
                line, _("{stray}: a penalty row has no {stray}").format(stray=stray[0])
            )
        if row.offender is None or row.penalty is None:
            raise LedgerError(line, _("a penalty row needs its offender and penalty"))
        try:
            result = score_penalty(
                self.rules, Penalty(self.seated, row.offender, row.penalty, row.paid_to)
            )
        except ScorepadError as exc:
            raise LedgerError(line, _("this penalty cannot be: {exc}").format(exc=exc)) from None
        seated = self.seated
        self._last_scored = Scored(
            row.inputs_only(RowKind.PENALTY), dict(result.deltas), lean(result), seated
        )
        return dict(result.deltas), result

    def _check_dealt(self, row: Row, no_ref: str) -> None:
        """What every dealt row (a hand, a hand passed into the pot) holds: the next number, no
        ref (`no_ref` says so), a dealer, and a number of points for each player seated."""
        line = row.line
        self._check_number(row)
        if row.ref is not None:
            raise LedgerError(line, no_ref)
        if row.dealer is None:
            raise LedgerError(line, _("dealer: missing"))
        if set(row.deltas) != set(self.seated):
            raise LedgerError(line, _("every player at the table needs a number of points"))

    def _expected_pot(self, row: Row) -> tuple[dict[str, int], Score | None]:
        """A hand everyone passed into the pot: each player dealt in pays the ante."""
        line = row.line
        if "pot" not in self.codec.columns:
            self._check_number(row)
            raise LedgerError(line, _("a pot row in a file without the pot column (format 8)"))
        self._check_dealt(row, _("a pot row has no ref"))
        stray = given(row._asdict(), _NOT_A_POTS)
        if stray:
            raise LedgerError(line, _("{stray}: a pot row has no {stray}").format(stray=stray[0]))
        if self.rules.all_pass != "pot":
            raise LedgerError(
                line,
                _("a pot row under rules with all_pass = {all_pass}").format(
                    all_pass=self.rules.all_pass
                ),
            )
        try:
            result = ante_score(self.rules, self.seated, row.dealer, row.out)
        except ScorepadError as exc:
            raise LedgerError(
                line, _("this hand cannot be passed into the pot: {error}").format(error=exc)
            ) from None
        if set(result.sitting_out) != set(row.out):
            raise LedgerError(
                line,
                _("out: recorded {recorded}, but the rules seat out {seated}").format(
                    recorded=shown(row.out), seated=shown(result.sitting_out)
                ),
            )
        seated = self.seated
        deltas = {p: result.deltas.get(p, 0) for p in seated}
        self._last_scored = Scored(row.inputs_only(RowKind.POT), deltas, lean(result), seated)
        return dict(deltas), result

    def rescored(
        self, rules: Rules, hands: tuple[int, int], line: int
    ) -> tuple[dict[str, int], tuple[tuple[int, Version], ...]]:
        """What a `set --from` row does: hands `hands` (first and last: the last must be the
        last hand dealt) scored again under `rules`, from the inputs of each one's version in
        force; the change in points, and each hand's new version. A LedgerError naming the
        hand that cannot be scored so, or whose new score would change the night around it (a
        doubling or Bock round it brings, the pot a later hand played for)."""
        start, through = hands
        if through != self.last_hand:
            raise LedgerError(
                line,
                _("through: hand {through} is not the last hand dealt ({last})").format(
                    through=through, last=self.last_hand
                ),
            )
        change = dict.fromkeys(self.totals, 0)
        versions: list[tuple[int, Version]] = []
        before, self.rules = self.rules, rules  # (scored, and played for the pot, under them)
        try:
            for number in range(start, through + 1):
                version = self.kept.get(number)
                if version is None:
                    raise LedgerError(
                        line,
                        _(
                            "from: hand {hand} cannot be checked (it was not read as a hand "
                            "this change refers to)"
                        ).format(hand=number),
                    )
                if number in self.voided or version.row.kind in NOT_RESCORED:
                    continue
                found = self._score_row(version.row, self._seats_of(version))
                if isinstance(found, str):
                    raise LedgerError(line, _("hand {hand}: {problem}").format(
                        hand=number, problem=found))  # fmt: skip
                entry = self._for_pot(found, version.pot)
                doubles = throws_in(version)
                if doubles != (entry.result is not None and entry.result.doubles_next):
                    raise LedgerError(
                        line,
                        (
                            _(
                                "hand {hand} doubled the next hand (a 60-60 under "
                                "sixty_sixty); under these rules it would not"
                            )
                            if doubles
                            else _(
                                "hand {hand} did not double the next hand; under these rules "
                                "it would (a 60-60 under sixty_sixty)"
                            )
                        ).format(hand=number),
                    )
                if events(version.result) != events(entry.result):
                    raise LedgerError(
                        line,
                        _(
                            "hand {hand}: under these rules it would change the Bock rounds "
                            "owed after it"
                        ).format(hand=number),
                    )
                self._check_pot_change(number, put_in(entry.result) - put_in(version.result), line)
                for player, value in entry.deltas.items():
                    change[player] += value - version.deltas.get(player, 0)
                new = Version(
                    version.row, dict(entry.deltas), version.consumed, entry.result, version,
                    version.pot,
                )  # fmt: skip
                versions.append((number, new))
        finally:
            self.rules = before
        return {p: v for p, v in change.items() if v or p in self.seated}, tuple(versions)

    def take_rescored(self) -> tuple[tuple[int, Version], ...]:
        """The new versions of the hands the `set --from` row being applied scores again."""
        found, self._rescored = self._rescored, ()
        return found

    def _for_pot(self, entry: Scored, pot: int) -> Scored:
        """Hand `entry` as played for a pot holding `pot`, if it plays for it (a hand with a
        picker, won or lost: `pot.plays_for_pot`); else `entry` itself."""
        result = entry.result
        if result is None or not plays_for_pot(pot, result):
            return entry
        row = entry.row
        assert row.picker is not None
        played = lean(played_for_pot(self.rules, result, row.picker, row.partners, pot))
        assert played is not None
        seated = entry.seated
        deltas = {p: played.deltas.get(p, 0) for p in seated}
        return Scored(row, deltas, played, seated)

    def _expected_hand(
        self, row: Row, known: Scored | None = None
    ) -> tuple[dict[str, int], Score | None]:
        line = row.line
        self._check_dealt(row, _("a hand row has no ref"))
        if row.kind is not RowKind.DOUBLER and kind_of(row) is not row.kind:
            raise LedgerError(
                line,
                _("kind: a {kind} row, but its inputs are those of a {kind_of}").format(
                    kind=row.kind, kind_of=kind_of(row)
                ),
            )
        if row.kind is RowKind.DOUBLER:
            if self.rules.all_pass != "doubler":
                raise LedgerError(
                    line,
                    _("a doubler under rules with all_pass = {all_pass}").format(
                        all_pass=self.rules.all_pass
                    ),
                )
            if row.bock:
                raise LedgerError(line, _("bock: a doubler is no Bock hand (the next hand is)"))
            return dict.fromkeys(self.seated, 0), None
        if row.doubled != self.doubled_next():
            raise LedgerError(
                line,
                _(
                    "doubled: recorded {doubled}, but the doublers before it give {doubled_next}"
                ).format(doubled=row.doubled, doubled_next=self.doubled_next()),
            )
        if row.bock != self.bock_next():
            raise LedgerError(
                line,
                _("bock: recorded {shown}, but the Bock rounds before it give {shown2}").format(
                    shown=shown(row.bock or "none"), shown2=shown(self.bock_next() or "none")
                ),
            )
        entry = known if known is not None else self._rescore(row, self.seated)
        entry = self._last_scored = self._for_pot(entry, self.pot)
        return dict(entry.deltas), entry.result

    def _expected_correction(
        self, row: Row, known: Scored | None = None
    ) -> tuple[dict[str, int], Score | None]:
        """(`known`: the score of the hand an amendment records, as the memo holds it under
        the rules and seats in force)"""
        line = row.line
        if row.hand is not None:
            raise LedgerError(line, _("a {kind} row has no hand number").format(kind=row.kind))
        if row.ref is None or not 1 <= row.ref <= self.last_hand:
            raise LedgerError(
                line, _("ref: {ref} is not a hand recorded above").format(ref=row.ref)
            )
        if row.kind is RowKind.RESTORE:
            if row.ref not in self.voided:
                raise LedgerError(
                    line,
                    _("ref: hand {ref} is not void: there is nothing to restore").format(
                        ref=row.ref
                    ),
                )
        elif row.ref in self.voided:
            raise LedgerError(line, _("ref: hand {ref} is already void").format(ref=row.ref))
        version = self.kept.get(row.ref)
        if version is None:
            raise LedgerError(
                line,
                _(
                    "ref: hand {ref} cannot be checked (it was not read as a hand this "
                    "correction refers to)"
                ).format(ref=row.ref),
            )
        if row.kind is not RowKind.AMEND:
            why = self.bock_refusal(row)
            if why is not None:
                raise LedgerError(line, why)
        put = put_in(version.result)  # (what it put into the pot)
        if row.kind is RowKind.VOID:
            self._check_pot_change(row.ref, -put, line)
            return {p: -v for p, v in version.deltas.items()}, None
        if row.kind is RowKind.RESTORE:
            self._check_pot_change(row.ref, put, line)
            return dict(version.deltas), None
        if version.row.kind is RowKind.DOUBLER:
            raise LedgerError(
                line, _("hand {ref} is a doubler: there is nothing to amend").format(ref=row.ref)
            )
        if version.row.kind is RowKind.POT:
            raise LedgerError(
                line,
                _("hand {ref} was passed into the pot: there is nothing to amend").format(
                    ref=row.ref
                ),
            )
        if version.row.kind is RowKind.PENALTY or kind_of(row) is RowKind.PENALTY:
            raise LedgerError(
                line, _("hand {ref}: a penalty is voided, not amended").format(ref=row.ref)
            )
        if row.doubled != version.row.doubled:
            raise LedgerError(
                line,
                _("doubled: an amendment keeps the doubling of hand {ref} ({doubled})").format(
                    ref=row.ref, doubled=version.row.doubled
                ),
            )
        if row.bock != version.row.bock:
            raise LedgerError(
                line,
                _("bock: an amendment keeps the Bock of hand {ref} ({value})").format(
                    ref=row.ref, value=version.row.bock or "none"
                ),
            )
        seats = self._seats_of(version)
        entry = known if known is not None and seats == self.seated else self._rescore(row, seats)
        entry = self._for_pot(entry, version.pot)
        check_throw_in(version, entry.result, row.ref, line)
        why = self.bock_refusal(row, entry.result)
        if why is not None:
            raise LedgerError(line, why)
        self._check_pot_change(row.ref, put_in(entry.result) - put, line)
        return (
            {p: entry.deltas.get(p, 0) - version.deltas.get(p, 0) for p in version.deltas},
            entry.result,
        )

    def _check_pot_change(self, ref: int, change: int, line: int) -> None:
        """A correction of hand `ref` may not change the pot a later hand played for."""
        problem = self.pot_change_problem(ref, change)
        if problem is not None:
            raise LedgerError(line, _("hand {ref}: {problem}").format(ref=ref, problem=problem))

    def _rescore(self, row: Row, seated: tuple[str, ...]) -> Scored:
        """Score the hand a row records (a LedgerError that says why it cannot be)."""
        found = self._score_row(row, seated)
        if isinstance(found, str):
            raise LedgerError(row.line, found)
        return found

    def _score_row(self, row: Row, seated: tuple[str, ...]) -> Scored | str:
        """The score of a row's hand, or the message saying why it has none."""
        try:
            result = score(self.rules, hand_of(row, seated))
        except ScorepadError as exc:
            return f"this hand cannot be scored: {exc}"
        if set(result.sitting_out) != set(row.out):
            return _("out: recorded {recorded}, but the rules seat out {seated}").format(
                recorded=shown(row.out), seated=shown(result.sitting_out)
            )
        inputs = row.inputs_only(kind_of(row))
        return Scored(inputs, {p: result.deltas.get(p, 0) for p in seated}, lean(result), seated)


def _check_step(row: Row) -> None:
    """An undo or redo row names one change above it (and is a change that can take it back
    or make it again: not a new hand)."""
    name, target = ("undoes", row.undoes) if row.redoes is None else ("redoes", row.redoes)
    if row.undoes is not None and row.redoes is not None:
        raise LedgerError(row.line, _("undoes and redoes: a row is an undo or a redo, not both"))
    if row.kind in HAND_KINDS:
        raise LedgerError(
            row.line,
            _("{name}: a {kind} row is no {name2}").format(
                name=name, kind=row.kind, name2=name[:4]
            ),
        )
    assert target is not None
    if row.line and not 3 < target < row.line:
        raise LedgerError(
            row.line,
            _("{name}: line {target} is not a change above this row").format(
                name=name, target=target
            ),
        )
