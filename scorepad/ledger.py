"""The ledger of a night: what each row of a session file means, and replaying the rows.

Pure: no I/O (`session.py` owns the file). A session file is a CSV score sheet:

    hand,kind,ref,<one column per player, in seat order>,dealer,out,picker,...,pending,totals
    ,rules,,...                       the rules table in force, as JSON in the `note` cell
    ,session,,...                     who deals first; the starting state
    1,picker,,2,1,-1,-1,-1,Ed,...     one row per hand: its inputs and each player's points
    2,doubler,,0,0,0,0,0,Ann,...
    ,void,1,-2,-1,1,1,1,...           a correction: hand 1 voided (its points reversed)
    ,amend,2,...                      a correction: new inputs for hand 2 (the change in points)

Every row's player cells are what that row adds to the totals, so a spreadsheet's column sums are
the standings. Each row also carries the state after it (next dealer, doublers pending, running
totals), so recording a hand needs only the file's head and its last row; `Replay` recomputes that
state from the rows and reports every row that disagrees.
"""

from __future__ import annotations

import json
import operator
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import HandError, ScorepadError
from .rules import Rules
from .scoring import Hand, LeasterHand, PickerHand, Score, score, seat

HEAD = ("hand", "kind", "ref")
TAIL = ("dealer", "out", "picker", "partners", "alone", "points", "tricks", "crack", "recrack",
        "doubled", "forced", "game", "runs", "blitz", "winner", "leaster_points",
        "leaster_tricks", "note", "time", "next_dealer", "seated", "pending", "totals")
HAND_KINDS = ("picker", "leaster", "doubler")
CORRECTIONS = ("void", "amend")
KINDS = ("rules", "session", "seat", *HAND_KINDS, *CORRECTIONS)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
MAX_NAME = 40


class LedgerError(ScorepadError):
    """A row of a session file is not valid; carries its line number."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a session file, at a line."""

    line: int
    message: str


# --- names and notes ----------------------------------------------------------------------------


def check_name(name: str) -> str:
    """A player's name as it may stand in a session file, or a HandError saying why not."""
    name = name.strip()
    if not name:
        raise HandError("a player's name is empty")
    if any(not c.isprintable() for c in name):
        raise HandError(f"player {name!r}: a name cannot hold line breaks or control characters")
    if name.startswith(FORMULA_STARTS):
        raise HandError(f"player {name!r}: a name cannot start with {name[0]} (a spreadsheet "
                        f"would run it as a formula)")
    if len(name) > MAX_NAME:
        raise HandError(f"player {name[:20]}...: a name has at most {MAX_NAME} characters")
    return name


def check_note(note: str) -> str:
    """A hand's note as it may stand in a session file."""
    if any(not c.isprintable() for c in note):
        raise HandError("--note: a note cannot hold line breaks or control characters")
    if note.startswith(FORMULA_STARTS):
        raise HandError(f"--note: a note cannot start with {note[0]} (a spreadsheet would run it "
                        f"as a formula)")
    return note


# --- rows ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One row of a session file, parsed. `deltas` holds the player cells that are filled."""

    kind: str
    line: int = 0
    hand: int | None = None
    ref: int | None = None
    deltas: Mapping[str, int] = field(default_factory=dict)
    dealer: str | None = None
    out: tuple[str, ...] = ()
    picker: str | None = None
    partners: tuple[str, ...] = ()
    alone: bool = False
    points: int | None = None
    tricks: int | None = None
    crack: str | None = None
    recrack: bool = False
    doubled: int = 0
    forced: bool = False
    game: str | None = None
    runs: int | None = None
    blitz: int = 0
    winner: str | None = None
    leaster_points: Mapping[str, int] | None = None
    leaster_tricks: Mapping[str, int] | None = None
    note: str = ""
    time: str = ""
    next_dealer: str | None = None
    seated: tuple[str, ...] = ()  # the seats in force after this row, in seat order
    pending: int = 0
    totals: Mapping[str, int] = field(default_factory=dict)

    def hand_inputs(self) -> dict[str, Any]:
        """The inputs that describe the hand itself (what `amend` may change)."""
        return {name: getattr(self, name) for name in _INPUTS}


_SCORED = ("picker", "partners", "alone", "points", "tricks", "crack", "recrack", "doubled",
           "forced", "game", "runs", "blitz", "winner", "leaster_points", "leaster_tricks")
_SCORE_CACHE = 20_000  # remembered scores; a night has far fewer distinct hands


_scored_inputs = operator.attrgetter(*_SCORED)


def _frozen(value: Any) -> Any:
    return tuple(sorted(value.items())) if isinstance(value, Mapping) else value


_INPUTS = ("dealer", "out", "picker", "partners", "alone", "points", "tricks", "crack", "recrack",
           "doubled", "forced", "game", "runs", "blitz", "winner", "leaster_points",
           "leaster_tricks")


def header(players: Sequence[str]) -> list[str]:
    """The header row of a session file for these players (in seat order)."""
    return [*HEAD, *players, *TAIL]


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


def format_row(players: Sequence[str], row: Row) -> list[str]:
    """The cells of a row, in header order."""
    cells = [_cell(row.hand), row.kind, _cell(row.ref)]
    cells += [str(row.deltas[p]) if p in row.deltas else "" for p in players]
    scored = row.kind in ("picker", "leaster", "amend")
    for name in TAIL:
        value = getattr(row, name)
        if name in ("doubled", "blitz") and not scored:
            value = None
        elif name in ("next_dealer", "seated", "pending", "totals") and row.kind == "rules":
            value = None
        cells.append(_cell(value))
    return cells


def _int(text: str, what: str, line: int) -> int:
    try:
        return int(text)
    except ValueError:
        raise LedgerError(line, f"{what}: {text!r} is not a whole number") from None


def _json(text: str, kind: type, what: str, line: int) -> Any:
    try:
        value = json.loads(text)
    except ValueError:
        raise LedgerError(line, f"{what}: {text!r} is not valid") from None
    if not isinstance(value, kind):
        raise LedgerError(line, f"{what}: {text!r} is not valid")
    return value


def _names(value: Any, players: Sequence[str], what: str, line: int) -> tuple[str, ...]:
    if not all(isinstance(v, str) for v in value):
        raise LedgerError(line, f"{what}: names must be text")
    for name in value:
        _player(name, players, what, line)
    return tuple(value)


def _player(name: str, players: Sequence[str], what: str, line: int) -> str:
    if name not in players:
        raise LedgerError(line, f"{what}: unknown player {name!r}")
    return name


def _counts(value: Any, players: Sequence[str], what: str, line: int) -> dict[str, int]:
    out = {}
    for name, number in value.items():
        _player(name, players, what, line)
        if isinstance(number, bool) or not isinstance(number, int):
            raise LedgerError(line, f"{what}: {name}'s value is not a whole number")
        out[name] = number
    return out


_NAME_CELLS = ("dealer", "picker", "crack", "winner", "next_dealer")
_LIST_CELLS = ("out", "partners", "seated")
_FLAG_CELLS = ("alone", "recrack", "forced")
_NUMBER_CELLS = ("points", "tricks", "doubled", "runs", "blitz", "pending")
_COUNT_CELLS = ("leaster_points", "leaster_tricks", "totals")
_AT = {name: index for index, name in enumerate(TAIL)}
_LISTS: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {}  # the same few lists recur


def _name_list(text: str, players: tuple[str, ...], what: str, line: int) -> tuple[str, ...]:
    found = _LISTS.get((text, players))
    if found is None:
        found = _names(_json(text, list, what, line), players, what, line)
        if len(_LISTS) > 4096:
            _LISTS.clear()
        _LISTS[(text, players)] = found
    return found


def parse_row(players: Sequence[str], cells: Sequence[str], line: int) -> Row:
    """Read the cells of one row (after the header); raises LedgerError naming the column."""
    players = tuple(players)
    count = len(players)
    width = len(HEAD) + count + len(TAIL)
    if len(cells) != width:
        raise LedgerError(line, f"{len(cells)} cells where the header has {width}")
    hand_text, kind, ref_text = cells[0], cells[1], cells[2]
    if kind not in KINDS:
        raise LedgerError(line, f"kind: {kind!r} is not one of {', '.join(KINDS)}")
    values: dict[str, Any] = {"kind": kind, "line": line}
    if hand_text:
        values["hand"] = _int(hand_text, "hand", line)
    if ref_text:
        values["ref"] = _int(ref_text, "ref", line)
    deltas = {}
    for player, text in zip(players, cells[3:3 + count]):
        if text and not text.isspace():
            try:
                deltas[player] = int(text)
            except ValueError:
                raise LedgerError(line, f"{player}'s points: {text!r} is not a whole "
                                        f"number") from None
    values["deltas"] = deltas
    tail = cells[3 + count:]
    for name in _NAME_CELLS:
        text = tail[_AT[name]]
        if text:
            if text not in players:
                raise LedgerError(line, f"{name}: unknown player {text!r}")
            values[name] = text
    for name in _LIST_CELLS:
        text = tail[_AT[name]]
        if text:
            values[name] = _name_list(text, players, name, line)
    for name in _FLAG_CELLS:
        text = tail[_AT[name]]
        if text:
            if text != "yes":
                raise LedgerError(line, f"{name}: {text!r} is not 'yes' or empty")
            values[name] = True
    for name in _NUMBER_CELLS:
        text = tail[_AT[name]]
        if text:
            values[name] = _int(text, name, line)
    game = tail[_AT["game"]]
    if game:
        values["game"] = game
    for name in _COUNT_CELLS:
        text = tail[_AT[name]]
        if text:
            values[name] = _counts(_json(text, dict, name, line), players, name, line)
    values["note"], values["time"] = tail[_AT["note"]], tail[_AT["time"]]
    return Row(**values)


# --- from rows to hands and back ----------------------------------------------------------------


def hand_of(row: Row, seated: Sequence[str]) -> Hand:
    """The scoring input that a picker or leaster row (or an amend) records."""
    if row.picker is not None:
        return PickerHand(tuple(seated), row.picker, row.points if row.points is not None else -1,
                          row.dealer, row.partners, row.alone, row.tricks, row.crack,
                          row.recrack, row.doubled, row.forced, row.game, row.runs, row.blitz,
                          row.out)
    return LeasterHand(tuple(seated), row.dealer, row.winner, row.leaster_points,
                       row.leaster_tricks, row.doubled, row.out)


def row_for_hand(hand: Hand, result: Score, seated: Sequence[str]) -> Row:
    """A row recording a scored hand (number and state are filled in by `Replay.record`)."""
    sitting = tuple(p for p in seated if result.roles.get(p) == "sits out")
    deltas = {p: result.deltas.get(p, 0) for p in seated}
    if isinstance(hand, LeasterHand):
        return Row("leaster", dealer=hand.dealer, out=sitting, deltas=deltas, winner=hand.winner,
                   leaster_points=hand.points, leaster_tricks=hand.tricks, doubled=hand.doubled)
    return Row("picker", dealer=hand.dealer, out=sitting, deltas=deltas, picker=hand.picker,
               partners=tuple(hand.partners), alone=hand.alone, points=hand.points,
               tricks=hand.tricks, crack=hand.crack, recrack=hand.recrack, doubled=hand.doubled,
               forced=hand.forced, game=hand.game, runs=hand.runs, blitz=hand.blitz)


def canonical(rules: Rules, hand: Hand, seated: Sequence[str]) -> Hand:
    """The hand with every name spelled as the session spells it (names match case-blind)."""
    from .scoring import find_player

    def one(name: str | None, option: str) -> str | None:
        return find_player(name, seated, option) if name else name

    def counts(values: Mapping[str, int] | None, option: str) -> dict[str, int] | None:
        return None if values is None else {one(k, option): v for k, v in values.items()}

    if isinstance(hand, LeasterHand):
        return replace(hand, dealer=one(hand.dealer, "--dealer"),
                       winner=one(hand.winner, "--winner"),
                       points=counts(hand.points, "--leaster-points"),
                       tricks=counts(hand.tricks, "--leaster-tricks"),
                       out=tuple(one(n, "--out") for n in hand.out))
    return replace(hand, dealer=one(hand.dealer, "--dealer"), picker=one(hand.picker, "--picker"),
                   partners=tuple(one(n, "--partner") for n in hand.partners),
                   crack=one(hand.crack, "--crack"), out=tuple(one(n, "--out") for n in hand.out))


# --- replaying the rows -------------------------------------------------------------------------


@dataclass
class PlayerStats:
    """One player's night in numbers (what `standings` and `stats` show)."""

    total: int = 0
    played: int = 0
    picks: int = 0
    picker_wins: int = 0
    picker_points: int = 0  # card points taken when picking, summed
    partner: int = 0
    schneider_for: int = 0
    schneider_against: int = 0
    no_trick_for: int = 0
    no_trick_against: int = 0
    leasters_won: int = 0
    results: Counter = field(default_factory=Counter)  # points of a hand -> how many hands

    @property
    def best(self) -> int | None:
        return max((v for v, n in self.results.items() if n > 0), default=None)

    @property
    def worst(self) -> int | None:
        return min((v for v, n in self.results.items() if n > 0), default=None)


@dataclass
class _Version:
    """What the replay remembers of a hand that a later correction refers to."""

    row: Row
    deltas: dict[str, int]
    consumed: list[int]
    result: Score | None = None


class Replay:
    """The state of a night, row by row: totals, dealer, doublers pending and per-player stats.

    `feed` checks one row against the state so far and returns its problems; `record` makes the
    row for a new hand, `void_row` and `amend_row` the rows of corrections. Hands that later
    rows correct must be named in `keep` (their numbers), so memory stays proportional to the
    corrections, not to the length of the night.
    """

    def __init__(self, rules: Rules, players: Sequence[str], first_dealer: str,
                 keep: Iterable[int] = (), seated: Sequence[str] | None = None,
                 counting: bool = True):
        self.rules = rules
        self.players = tuple(players)  # everyone in the file's header
        self.order = list(seated or players)  # the seats in force, in seat order
        self.next_dealer = first_dealer
        self.totals = {p: 0 for p in self.order}  # everyone who has sat down tonight
        self.stats = {p: PlayerStats() for p in self.players}
        self.pending: list[int] = []  # the doubler hands whose doubling is still to come
        self.last_hand = 0
        self.hands = 0  # picker and leaster hands that count (not voided)
        self.voided: set[int] = set()
        self.keep = set(keep)
        self.kept: dict[int, _Version] = {}
        self.race_winners: tuple[str, ...] = ()
        self._scores: dict[tuple, tuple[dict[str, int], Score] | str] = {}
        self.counting = counting  # keep the players' statistics (`verify` needs none)

    @classmethod
    def resume(cls, rules: Rules, players: Sequence[str], last: Row, last_hand: int) -> Replay:
        """Pick the night up from the state its last row records (no history needed)."""
        replay = cls(rules, players, last.next_dealer or players[-1],
                     seated=last.seated or players)
        replay.pending = [0] * last.pending
        replay.totals = {p: last.totals.get(p, 0)
                         for p in replay.players if p in last.totals or p in replay.order}
        replay.last_hand = last_hand
        replay._check_race()
        return replay

    def resync(self, row: Row) -> None:
        """Take a row's recorded state as given (after reporting a problem with it), so one
        bad row is reported once and not again on every row below it."""
        if row.hand is not None:
            self.last_hand = max(self.last_hand, row.hand)
        if row.next_dealer is not None:
            self.next_dealer = row.next_dealer
        if row.seated and all(p in self.players for p in row.seated):
            self.order = list(row.seated)
        if row.totals:
            self.totals.update(row.totals)
            for player, total in row.totals.items():
                self.stats[player].total = total
        self.pending = self.pending[:row.pending] + [0] * max(0, row.pending - len(self.pending))

    # -- what the next hand looks like --

    @property
    def seated(self) -> tuple[str, ...]:
        return tuple(self.order)

    def doubled_next(self) -> int:
        """How many doublings the next scored hand carries, from the doublers pending."""
        if not self.pending:
            return 0
        return len(self.pending) if self.rules.doubler_stacking == "multiply" else 1

    def left_of(self, dealer: str) -> str:
        """Who deals after `dealer`: the next seated player (in the header's order if the
        dealer has left since)."""
        seated = self.seated
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
        hand = self.last_hand
        while hand in self.voided:
            hand -= 1
        return hand

    # -- applying rows --

    def _apply_stats(self, row: Row, deltas: Mapping[str, int], sign: int,
                     result: Score | None) -> None:
        """Count a hand into (sign 1) or out of (sign -1) every player's numbers."""
        if row.kind == "doubler" or result is None or not self.counting:
            return
        self.hands += sign
        side = {row.picker, *row.partners}
        won = result.outcome == "win"
        for player, points in deltas.items():
            if player in row.out:
                continue
            stats = self.stats[player]
            stats.played += sign
            stats.results[points] += sign
            if result.outcome == "leaster":
                stats.leasters_won += sign * (player in result.winners)
                continue
            if player == row.picker:
                stats.picks += sign
                stats.picker_wins += sign * won
                stats.picker_points += sign * (row.points or 0)
            elif player in side:
                stats.partner += sign
            winning = (player in side) == won
            if result.schneider:
                if winning:
                    stats.schneider_for += sign
                else:
                    stats.schneider_against += sign
            if result.no_trick:
                if winning:
                    stats.no_trick_for += sign
                else:
                    stats.no_trick_against += sign

    def _add(self, deltas: Mapping[str, int]) -> None:
        for player, value in deltas.items():
            self.totals[player] += value
            self.stats[player].total = self.totals[player]

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
        return replace(row, next_dealer=self.next_dealer, seated=self.seated,
                       pending=len(self.pending), totals=dict(self.totals))

    def _apply(self, row: Row, result: Score | None = None,
               deltas: Mapping[str, int] | None = None) -> None:
        """Apply a row (`_state` then gives it the state after).

        `result` is the hand's score (for a hand row or an amendment), for the statistics;
        `deltas` the points to apply when they differ from the row's (a row being checked)."""
        if deltas is None:
            deltas = row.deltas
        if row.kind in HAND_KINDS:
            self.last_hand = row.hand
            consumed = [] if row.kind == "doubler" else self._consume()
            if row.kind == "doubler":
                cap = self.rules.doubler_stacking == "cap"
                if not cap or len(self.pending) < self.rules.max_doubled_hands:
                    self.pending.append(row.hand)
            self._add(deltas)
            self._apply_stats(row, deltas, 1, result)
            self.next_dealer = self.left_of(row.dealer)
            if row.hand in self.keep:
                self.kept[row.hand] = _Version(row, dict(deltas), consumed, result)
        elif row.kind == "void":
            version = self.kept[row.ref]
            was_last = row.ref == self.last_effective()
            self._add(deltas)
            self._apply_stats(version.row, version.deltas, -1, version.result)
            self.voided.add(row.ref)
            if version.row.kind == "doubler":
                self.pending = [h for h in self.pending if h != row.ref]
            else:
                self.pending = version.consumed + self.pending
            if was_last:
                self.next_dealer = self.following(version.row.dealer, self.players)
        elif row.kind == "seat":
            old = self.seated
            self.order = list(row.seated)
            for player in self.order:
                self.totals.setdefault(player, 0)
            self.next_dealer = self.following(self.next_dealer, old + self.seated)
        elif row.kind == "amend":
            version = self.kept[row.ref]
            self._apply_stats(version.row, version.deltas, -1, version.result)
            self._add(deltas)
            new = {p: version.deltas.get(p, 0) + deltas.get(p, 0) for p in version.deltas}
            self._apply_stats(row, new, 1, result)
            self.kept[row.ref] = _Version(row, new, version.consumed, result)
        self._check_race()

    def feed(self, row: Row) -> list[Problem]:
        """Check a row read from the file against the state so far, then apply it."""
        try:
            deltas, result = self._expected(row)
        except LedgerError as exc:
            return [Problem(exc.line, exc.message)]
        problems = []
        if deltas != row.deltas:
            message = _differs("points", row.deltas, deltas)
            unbalanced = sum(row.deltas.values())
            if self.rules.zero_sum and unbalanced:
                message = f"the hand does not sum to zero ({unbalanced:+d}); {message}"
            problems.append(Problem(row.line, message))
        self._apply(row, result, deltas)
        state = {"next_dealer": self.next_dealer, "seated": tuple(self.order),
                 "pending": len(self.pending), "totals": self.totals}
        for name, value in state.items():
            if value != getattr(row, name):
                problems.append(Problem(row.line, f"{name}: recorded {_show(getattr(row, name))}"
                                                  f", but the rows above give {_show(value)}"))
        return problems

    def _expected(self, row: Row) -> tuple[dict[str, int], Score | None]:
        """The points the row should hold (re-scored) and its score, or a LedgerError."""
        line = row.line
        if row.kind in ("rules", "session"):
            raise LedgerError(line, f"a {row.kind} row belongs at the top of the file")
        if row.kind == "seat":
            if row.hand is not None or row.ref is not None or row.deltas:
                raise LedgerError(line, "a seat row has no hand number, ref or points")
            self._check_seats(row.seated, line)
            return {}, None
        if row.kind in HAND_KINDS:
            if row.hand != self.last_hand + 1:
                raise LedgerError(line, f"hand number {row.hand} is out of order: "
                                        f"{self.last_hand + 1} comes next")
            if row.ref is not None:
                raise LedgerError(line, "a hand row has no ref")
            if row.dealer is None:
                raise LedgerError(line, "dealer: missing")
            if set(row.deltas) != set(self.seated):
                raise LedgerError(line, "every player at the table needs a number of points")
            if row.kind == "doubler":
                if self.rules.all_pass != "doubler":
                    raise LedgerError(line, f"a doubler under rules with all_pass = "
                                            f"{self.rules.all_pass}")
                return {p: 0 for p in self.seated}, None
            if row.doubled != self.doubled_next():
                raise LedgerError(line, f"doubled: recorded {row.doubled}, but the doublers "
                                        f"before it give {self.doubled_next()}")
            return self._rescore(row)
        # corrections
        if row.hand is not None:
            raise LedgerError(line, f"a {row.kind} row has no hand number")
        if row.ref is None or not 1 <= row.ref <= self.last_hand:
            raise LedgerError(line, f"ref: {row.ref} is not a hand recorded above")
        if row.ref in self.voided:
            raise LedgerError(line, f"ref: hand {row.ref} is already void")
        version = self.kept.get(row.ref)
        if version is None:
            raise LedgerError(line, f"ref: hand {row.ref} was not kept for checking")
        if row.kind == "void":
            return {p: -v for p, v in version.deltas.items()}, None
        if version.row.kind == "doubler":
            raise LedgerError(line, f"hand {row.ref} is a doubler: there is nothing to amend")
        if row.doubled != version.row.doubled:
            raise LedgerError(line, f"doubled: an amendment keeps the doubling of hand "
                                    f"{row.ref} ({version.row.doubled})")
        new, result = self._rescore(row, self._seats_of(version))
        return {p: new.get(p, 0) - version.deltas.get(p, 0) for p in version.deltas}, result

    def _seats_of(self, version: _Version) -> tuple[str, ...]:
        """The players who were seated for a recorded hand, in seat order."""
        return tuple(p for p in self.players if p in version.deltas)

    def _check_seats(self, seated: Sequence[str], line: int) -> None:
        if len(set(seated)) != len(seated) or not all(p in self.players for p in seated):
            raise LedgerError(line, f"seated: {_show(seated)} is not a list of players")
        try:
            seat(self.rules, seated, None)
        except ScorepadError as exc:
            raise LedgerError(line, f"seated: {exc}") from None

    def _rescore(self, row: Row, seated: Sequence[str] | None = None
                 ) -> tuple[dict[str, int], Score]:
        """Score the hand a row records. Scoring is pure, and a night repeats the same few
        hands over and over, so results are remembered (a bounded number of them)."""
        seated = tuple(seated or self.seated)
        key = (seated, row.dealer, row.out, *_scored_inputs(row))
        try:
            found = self._scores.get(key)
        except TypeError:  # leaster points or tricks: mappings do not hash
            key = (seated, row.dealer, row.out, *map(_frozen, _scored_inputs(row)))
            found = self._scores.get(key)
        if found is None:
            found = self._score_row(row, seated)
            if len(self._scores) >= _SCORE_CACHE:
                self._scores.clear()
            self._scores[key] = found
        if isinstance(found, str):
            raise LedgerError(row.line, found)
        deltas, result = found
        return dict(deltas), result

    def _score_row(self, row: Row, seated: tuple[str, ...]
                   ) -> tuple[dict[str, int], Score] | str:
        """The points and score of a row's hand, or the message saying why it has none."""
        try:
            hand = hand_of(row, seated)
            result = score(self.rules, hand)
            seating = seat(self.rules, seated, row.dealer, row.out)
        except ScorepadError as exc:
            return f"this hand cannot be scored: {exc}"
        if set(seating.sitting_out) != set(row.out):
            return (f"out: recorded {_show(row.out)}, but the rules seat out "
                    f"{_show(seating.sitting_out)}")
        return {p: result.deltas.get(p, 0) for p in seated}, result

    # -- making new rows --

    def record(self, hand: Hand, note: str = "", time: str = "") -> tuple[Row, Score]:
        """Score a new hand at the next number and return its row (with state) and score."""
        self._check_race_open()
        hand = canonical(self.rules, replace(hand, players=self.seated), self.seated)
        if hand.dealer is None:
            hand = replace(hand, dealer=self.next_dealer)
        if hand.doubled:
            raise HandError("--doubled: a session doubles the hands after a recorded doubler by "
                            "itself; record the doubler with `scorepad hand --doubler`")
        hand = replace(hand, doubled=self.doubled_next())
        result = score(self.rules, hand)
        row = replace(row_for_hand(hand, result, self.seated), hand=self.last_hand + 1,
                      note=check_note(note), time=time)
        self._apply(row, result)
        return self._state(row), result

    def record_doubler(self, dealer: str | None = None, note: str = "",
                       time: str = "") -> Row:
        """The row of a thrown-in hand under all_pass = doubler."""
        if self.rules.all_pass != "doubler":
            raise HandError(f"--doubler: {self.rules.name} rules have all_pass = "
                            f"{self.rules.all_pass}; a doubler needs all_pass = doubler")
        self._check_race_open()
        from .scoring import find_player

        dealer = find_player(dealer, self.seated, "--dealer") if dealer else self.next_dealer
        row = Row("doubler", hand=self.last_hand + 1, dealer=dealer,
                  deltas={p: 0 for p in self.seated}, note=check_note(note), time=time)
        self._apply(row)
        return self._state(row)

    def void_row(self, ref: int, reason: str = "", time: str = "") -> Row:
        """The row that voids hand `ref` (which must be in `keep`)."""
        self._check_ref(ref)
        version = self.kept[ref]
        row = Row("void", ref=ref, deltas={p: -v for p, v in version.deltas.items()},
                  note=check_note(reason), time=time)
        self._apply(row)
        return self._state(row)

    def amend_row(self, ref: int, changes: Mapping[str, Any], note: str = "",
                  time: str = "") -> tuple[Row, Score]:
        """The row that replaces some inputs of hand `ref` and re-scores it."""
        self._check_ref(ref)
        version = self.kept[ref]
        if version.row.kind == "doubler":
            raise HandError(f"hand {ref} is a doubler: there is nothing to amend (void it with "
                            f"`scorepad void {ref}` and record the hand)")
        inputs = {**version.row.hand_inputs(), **changes}
        seated = self._seats_of(version)
        hand = canonical(self.rules, hand_of(Row("amend", **inputs), seated), seated)
        result = score(self.rules, hand)
        new = row_for_hand(hand, result, seated)
        row = replace(new, kind="amend", ref=ref,
                      deltas={p: new.deltas.get(p, 0) - version.deltas.get(p, 0)
                              for p in seated},
                      note=check_note(note), time=time)
        self._apply(row, result)
        return self._state(row), result

    def seat_row(self, seated: Sequence[str], note: str, time: str = "") -> Row:
        """The row that changes the seats in force (someone joined or left)."""
        try:
            self._check_seats(seated, 0)
        except LedgerError as exc:
            raise HandError(exc.message.removeprefix("seated: ")) from None
        row = Row("seat", seated=tuple(seated), note=note, time=time)
        self._apply(row)
        return self._state(row)

    def _check_race_open(self) -> None:
        if self.race_winners:
            raise HandError(f"the race is over: {' and '.join(self.race_winners)} reached "
                            f"{self.rules.target}; start a new session for another night")

    def _check_ref(self, ref: int) -> None:
        if not 1 <= ref <= self.last_hand:
            raise HandError(f"there is no hand {ref}: hands run from 1 to {self.last_hand}"
                            if self.last_hand else f"there is no hand {ref}: no hand recorded")
        if ref in self.voided:
            raise HandError(f"hand {ref} is already void")


class Tally:
    """The standings of a night added up fast, straight from the cells, checking as it goes.

    It checks everything the standings depend on: each row's shape and kind, hand numbers in
    order, known names, whole-number points, every hand summing to zero (under zero-sum rules),
    corrections that refer to recorded hands and reverse them exactly, and, at the end, that
    the running totals the file records agree with the points in its rows. Re-scoring every hand
    from its card points is `Replay`'s job (`verify`).

    `refs` counts how often later rows refer to each hand; a hand is remembered only until its
    last reference has gone by, so memory stays flat however long the night.
    """

    def __init__(self, rules: Rules, players: Sequence[str], seated: Sequence[str],
                 refs: Mapping[int, int] | None = None):
        self.rules = rules
        self.players = tuple(players)
        self.totals = {p: 0 for p in seated}
        self.stats = {p: PlayerStats() for p in self.players}
        self.hands = 0
        self.last_hand = 0
        self.voided: set[int] = set()
        self.refs = Counter(refs or {})
        self.kept: dict[int, tuple[dict[str, int], str | None, tuple[str, ...], bool]] = {}
        self.race_winners: tuple[str, ...] = ()
        self.last_totals: tuple[int, str] | None = None  # (line, cell) of the last row
        self._lists: dict[str, tuple[str, ...]] = {}  # name-list cells seen, already checked
        self._played: Counter = Counter()  # (players in the hand, sitting out) -> hands
        self._picks: Counter = Counter()
        self._wins: Counter = Counter()
        count = len(self.players)
        self._width = len(HEAD) + count + len(TAIL)
        self._tail = tail = len(HEAD) + count
        self._zero_sum = rules.zero_sum
        self._race = rules.settlement == "race"
        self._checked = tuple((tail + _AT[name], name, high) for name, high in
                              (("points", 120), ("tricks", 16), ("doubled", 64)))
        self._at_picker = tail + _AT["picker"]
        self._at_out = tail + _AT["out"]
        self._at_partners = tail + _AT["partners"]
        self._at_totals = tail + _AT["totals"]
        self._at_seated = tail + _AT["seated"]
        self.feed = self._feeder()
        """feed(cells, line): add one row; returns what is wrong with it, or None."""

    def _feeder(self):
        """The hot loop of `standings`, as a closure over locals (which Python reads faster
        than attributes): one call a row."""
        players, width, tail, zero_sum = self.players, self._width, self._tail, self._zero_sum
        at_points, at_tricks, at_doubled = (self._tail + _AT[n] for n in
                                            ("points", "tricks", "doubled"))
        at_partners, at_totals, at_picker = self._at_partners, self._at_totals, self._at_picker
        at_out = self._at_out
        lists, totals, refs, kept = self._lists, self.totals, self.refs, self.kept
        played, picks, wins = self._played, self._picks, self._wins
        row_kinds, hand_kinds = _ROW_KINDS, frozenset(HAND_KINDS)
        checked = ((at_points, "points", 120), (at_tricks, "tricks", 16),
                   (at_doubled, "doubled", 64))
        race = self._race

        def feed(cells: Sequence[str], line: int) -> str | None:
            if len(cells) != width:
                return f"{len(cells)} cells where the header has {width}"
            kind = cells[1]
            if kind not in row_kinds:
                return f"kind: {kind!r} is not one of {', '.join(sorted(row_kinds))}"
            deltas = {}
            balance = 0
            try:
                for player, text in zip(players, cells[3:tail]):
                    if text:
                        deltas[player] = value = int(text)
                        balance += value
            except ValueError:
                return f"points: {text!r} is not a whole number"
            if balance and zero_sum:
                return f"the hand does not sum to zero ({balance:+d})"
            for at, name, high in checked:
                text = cells[at]
                if text and not (text.isdigit() and int(text) <= high):
                    return f"{name}: {text!r} is not a whole number from 0 to {high}"
            partners = cells[at_partners]
            if partners and partners not in lists:
                lists[partners] = _name_list(partners, players, "partners", line)
            if cells[at_totals]:
                self.last_totals = (line, cells[at_totals])
            if kind not in hand_kinds:
                return self._correction(kind, cells, line, deltas)
            picker = cells[at_picker] or None
            if picker is not None and picker not in players:
                return f"picker: unknown player {picker!r}"
            out = cells[at_out]
            if out:
                found = lists.get(out)
                out = found if found is not None else lists.setdefault(
                    out, _name_list(out, players, "out", line))
            else:
                out = ()
            number = self.last_hand + 1
            if cells[0] != str(number):
                return f"hand number {cells[0]} is out of order: {number} comes next"
            self.last_hand = number
            for player, value in deltas.items():
                if player in totals:
                    totals[player] += value
                else:
                    totals[player] = value
            if race:
                self._check_race()
            if kind != "doubler":
                self.hands += 1
                played[(tuple(deltas), out)] += 1
                if picker is not None:
                    picks[picker] += 1
                    if deltas.get(picker, 0) > 0:
                        wins[picker] += 1
            if number in refs:
                kept[number] = (deltas, picker, out, kind != "doubler")
            return None

        return feed

    def _correction(self, kind: str, cells: Sequence[str], line: int,
                    deltas: dict[str, int]) -> str | None:
        """A seat row, a void or an amendment (rare rows: plain code)."""
        if kind == "seat":
            for player in _name_list(cells[self._at_seated] or "[]", self.players, "seated",
                                     line):
                self.totals.setdefault(player, 0)
            return None
        picker = cells[self._at_picker] or None
        if picker is not None and picker not in self.players:
            return f"picker: unknown player {picker!r}"
        out = cells[self._at_out]
        out = _name_list(out, self.players, "out", line) if out else ()
        ref = int(cells[2]) if cells[2].isdigit() else 0
        if not 1 <= ref <= self.last_hand or ref in self.voided or ref not in self.kept:
            return f"ref: {cells[2] or 'nothing'} is not a hand recorded above (or is void)"
        old, old_picker, old_out, counts = self.kept[ref]
        self.refs[ref] -= 1
        if not self.refs[ref]:
            del self.kept[ref]  # no later row refers to it
        if kind == "void":
            if deltas != {p: -v for p, v in old.items()}:
                return f"a void of hand {ref} must reverse its points exactly"
            self._add(deltas)
            if counts:
                self._count(old, old_picker, old_out, -1)
            self.voided.add(ref)
            return None
        new = {p: old.get(p, 0) + deltas.get(p, 0) for p in old}
        self._add(deltas)
        self._count(old, old_picker, old_out, -1)
        self._count(new, picker, out, 1)
        if ref in self.kept:
            self.kept[ref] = (new, picker, out, True)
        return None

    def _add(self, deltas: Mapping[str, int]) -> None:
        totals = self.totals
        for player, value in deltas.items():
            totals[player] = totals.get(player, 0) + value
        if self._race:
            self._check_race()

    def _check_race(self) -> None:
        reached = tuple(p for p in self.totals if self.totals[p] >= self.rules.target)
        if not any(p in reached for p in self.race_winners):
            self.race_winners = reached

    def _count(self, hand: Mapping[str, int], picker: str | None, out: tuple[str, ...],
               sign: int) -> None:
        """Count a hand into (sign 1) or out of (sign -1) the players' numbers."""
        self.hands += sign
        self._played[(tuple(hand), out)] += sign
        if picker is not None:
            self._picks[picker] += sign
            if hand.get(picker, 0) > 0:
                self._wins[picker] += sign

    def finish(self) -> tuple[int, str] | None:
        """Fill in the players' numbers, then the last check: the file's own running totals
        agree with its rows' points."""
        for (players, out), hands in self._played.items():
            for player in players:
                if player not in out:
                    self.stats[player].played += hands
        for player, stats in self.stats.items():
            stats.total = self.totals.get(player, 0)
            stats.picks = self._picks[player]
            stats.picker_wins = self._wins[player]
        if self.last_totals is None:
            return None
        line, cell = self.last_totals
        try:
            recorded = json.loads(cell)
        except ValueError:
            return line, f"totals: {cell!r} is not valid"
        if recorded != self.totals:
            return line, (f"the running totals recorded here ({_show(recorded)}) disagree "
                          f"with the points in the rows ({_show(self.totals)})")
        return None


_ROW_KINDS = frozenset((*HAND_KINDS, *CORRECTIONS, "seat"))


def _show(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {v:+d}" if isinstance(v, int) else f"{k} {v}"
                         for k, v in value.items()) or "nothing"
    if isinstance(value, (tuple, list, set)):
        return ", ".join(sorted(value)) or "nobody"
    return str(value)


def _differs(what: str, recorded: Mapping[str, int], expected: Mapping[str, int]) -> str:
    wrong = [p for p in {**expected, **recorded} if recorded.get(p) != expected.get(p)]
    shown = "; ".join(f"{p} recorded {recorded.get(p, 'nothing')}, the rules give "
                      f"{expected.get(p, 'nothing')}" for p in wrong)
    return f"{what} differ from the re-scoring: {shown}"
