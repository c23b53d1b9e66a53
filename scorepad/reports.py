"""Report arithmetic: pure functions and small accumulators over the hands of a night.

No I/O and no click: the commands feed these from the one checking pass (`Session.night`,
which calls `on_hand` with every hand's final version) and render what they return.
"""

import csv
import io
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import ScorepadError
from .games import BY_NAME as GAME_BY_NAME
from .games import WonBy
from .i18n import game_word, joined, ngettext
from .i18n import gettext as _
from .ledger import Counts, HandView, Ledger, Scored, kind_of, rules_of_set_row, set_row_text
from .ledger.bock import owed as bock_count
from .rules import stored_summary_words
from .scoring import Bock, Outcome, Score, same_name, seat
from .store.format import FORMULA_STARTS, Row, RowKind

if TYPE_CHECKING:
    from pathlib import Path

    from .session import Head

# the games won on tricks alone (a bettel): their card points count for nothing
_WON_ON_TRICKS = frozenset(g.name for g in GAME_BY_NAME.values() if g.won_by == WonBy.NO_TRICK)


class PlayerStats:
    """One player's night in numbers (what `standings` and `stats` show). A plain class, not a
    dataclass, for the start-up cost of every command (see `ledger.Scored`)."""

    __slots__ = (
        "counted_picks",
        "leasters_won",
        "no_trick_against",
        "no_trick_for",
        "partner",
        "picker_points",
        "picker_wins",
        "picks",
        "played",
        "results",
        "schneider_against",
        "schneider_for",
        "solos_won",
    )

    def __init__(self) -> None:
        self.played = 0
        self.picks = 0
        self.picker_wins = 0
        self.picker_points = 0  # card points taken when picking, summed (over `counted_picks`)
        self.counted_picks = 0  # picks whose card points count: not a bettel (won by no trick)
        self.partner = 0
        self.schneider_for = 0
        self.schneider_against = 0
        self.no_trick_for = 0
        self.no_trick_against = 0
        self.leasters_won = 0
        # picks won alone (no partner: a solo, a wenz, a geier, a tout; a pick alone): a
        # tournament's first tie-break
        self.solos_won = 0
        self.results: Counter[int] = Counter()  # points of a hand -> how many hands

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerStats):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    def __repr__(self) -> str:
        numbers = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"PlayerStats({numbers})"

    @property
    def best(self) -> int | None:
        return max((v for v, n in self.results.items() if n > 0), default=None)

    @property
    def worst(self) -> int | None:
        return min((v for v, n in self.results.items() if n > 0), default=None)


class PlayerCounts(Counts):
    """Hands counted by kind, for every player's numbers (`finish` folds them in)."""

    def __init__(self, players: Sequence[str]):
        super().__init__()
        self.stats = {p: PlayerStats() for p in players}

    def fold(self) -> None:
        """Add the hands counted so far into every player's numbers."""
        stats = self.stats
        for entry, times in self.items():
            _count(stats, entry, times, times * entry.card)
        self.clear()

    def finish(self) -> dict[str, PlayerStats]:
        """Every player's numbers, every hand counted."""
        self.fold()
        return self.stats

    def saved(self) -> Any:
        self.fold()
        return {
            p: {
                name: (
                    [[v, n] for v, n in sorted(st.results.items()) if n]
                    if name == "results"
                    else getattr(st, name)
                )
                for name in PlayerStats.__slots__
            }
            for p, st in self.stats.items()
        }

    def restore(self, data: Any) -> bool:
        if not isinstance(data, dict) or set(data) != set(self.stats):
            return False
        made = {}
        for player, numbers in data.items():
            if not isinstance(numbers, dict) or set(numbers) != set(PlayerStats.__slots__):
                return False
            stats = PlayerStats()
            for name, value in numbers.items():
                if name == "results":
                    if not isinstance(value, list) or not all(
                        isinstance(pair, list)
                        and len(pair) == 2
                        and all(_whole(n) for n in pair)
                        and pair[1] > 0
                        for pair in value
                    ):
                        return False
                    stats.results = Counter(dict(value))
                elif _whole(value) and value >= 0:
                    setattr(stats, name, value)
                else:
                    return False
            made[player] = stats
        self.stats = made
        return True


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(players: Mapping[str, PlayerStats], entry: Scored, times: int, card_points: int) -> None:
    """Count a kind of scored hand `times` times into every player's numbers (`card_points`:
    the card points of those hands, added up). (The reports fold every kind of the night
    through it, some of them again and again: what a hand is is asked once, not a player.)"""
    row, result = entry.row, entry.result
    assert result is not None
    outcome, out = result.outcome, row.out
    if outcome in (Outcome.PENALTY, Outcome.POT):
        return  # a penalty, a hand passed into the pot: not played (its points are in the totals)
    if outcome in (Outcome.LEASTER, Outcome.SCHWANZER, Outcome.RAMSCH):
        winners = result.winners if outcome is Outcome.LEASTER else ()
        for player, points in entry.deltas.items():
            if player not in out:
                stats = players[player]
                stats.played += times
                stats.results[points] += times
                if player in winners:
                    stats.leasters_won += times
        return
    picker, partners = row.picker, row.partners
    won = outcome is Outcome.WIN
    wins = times * won
    counted = row.game not in _WON_ON_TRICKS and entry.card_points is not None
    schneider, no_trick = result.schneider, result.no_trick
    for player, points in entry.deltas.items():
        if player in out:
            continue
        stats = players[player]
        stats.played += times
        stats.results[points] += times
        if player == picker:
            stats.picks += times
            stats.picker_wins += wins
            if not partners:
                stats.solos_won += wins
            if counted:
                stats.counted_picks += times
                stats.picker_points += card_points
            winning = won
        elif player in partners:
            stats.partner += times
            winning = won
        else:
            winning = not won
        if schneider:
            if winning:
                stats.schneider_for += times
            else:
                stats.schneider_against += times
        if no_trick:
            if winning:
                stats.no_trick_for += times
            else:
                stats.no_trick_against += times


def stats_records(
    totals: Mapping[str, int], stats: Mapping[str, PlayerStats]
) -> list[dict[str, Any]]:
    """One record per player who sat down: counts, rates and best and worst hands."""
    records = []
    for player, total in totals.items():
        st = stats[player]
        records.append(
            {
                "player": player,
                "total": total,
                "hands": st.played,
                "picks": st.picks,
                "pick_rate": round(st.picks / st.played, 3) if st.played else None,
                "picker_wins": st.picker_wins,
                "picker_win_rate": round(st.picker_wins / st.picks, 3) if st.picks else None,
                "average_picker_points": round(st.picker_points / st.counted_picks, 1)
                if st.counted_picks
                else None,
                "partner": st.partner,
                "schneider_for": st.schneider_for,
                "schneider_against": st.schneider_against,
                "no_trick_for": st.no_trick_for,
                "no_trick_against": st.no_trick_against,
                "leasters_won": st.leasters_won,
                "best": st.best,
                "worst": st.worst,
            }
        )
    return records


def marks(row: Row, result: Score | None) -> list[str]:
    """What a paper sheet notes beside a hand: runs (Laufende), a forced pick, cracks,
    doublings, blitzes, and a schneider or no-trick (schwarz in Schafkopf)."""
    schafkopf = (
        result is not None
        and result.level is None
        and result.outcome in (Outcome.WIN, Outcome.LOSS)
    )
    found = []
    runs = result.runs if result is not None else 0  # (Laufende that count in the value)
    if runs:
        found.append(ngettext("1 run", "{count} runs", runs).format(count=runs))
    if row.forced:
        found.append(_("forced"))
    if row.crack:
        crack = _("Stoss by {player}") if schafkopf else _("cracked by {player}")
        found.append(crack.format(player=row.crack))
    if row.recrack:
        found.append(_("Gegenstoss") if schafkopf else _("re-cracked"))
    if row.doubled:
        found.append(
            _("doubled")
            if row.doubled == 1
            else _("doubled {count} times").format(count=row.doubled)
        )
    if row.blitz:
        found.append(ngettext("blitz", "{count} blitzes", row.blitz).format(count=row.blitz))
    if row.knocks:
        found.append(
            _("knocked") if row.knocks == 1 else _("knocked {count} times").format(count=row.knocks)
        )
    if row.stoss:
        found.append(_("Stoss") if row.stoss == 1 else _("Stoss x{count}").format(count=row.stoss))
    if row.jungfrau:
        found.append(_("jungfrau {players}").format(players=", ".join(row.jungfrau)))
    if result is not None and result.schneider:
        found.append(_("schneider"))
    if result is not None and result.no_trick:
        found.append(_("schwarz") if schafkopf else _("no-trick"))
    if result is not None and result.doubles_next:
        found.append(_("60-60: next hand doubled"))
    if result is not None and result.outcome in (Outcome.WIN, Outcome.LOSS) and result.pot:
        found.append(_pot_words(result))
    if row.last:
        found.append(_("last hand"))
    bock = Bock.parse(row.bock) if row.bock else None
    if bock is not None:
        found.append(bock.words())
    if result is not None and result.bock_next:
        found.append(_("Bock round follows"))
    return found


def _pot_words(result: Score) -> str:
    """What a hand played for the pot did with it, in a few words."""
    if result.pot < 0:
        return _("took the pot ({pot})").format(pot=-result.pot)
    return _("paid {pot} into the pot").format(pot=result.pot)


def change_text(row: Row) -> str:
    """A row of the file as a change of the ledger, in a few words (for `log`)."""
    kind = row.kind
    if kind is RowKind.SEAT:
        return _("seats: {players}").format(players=", ".join(row.seated))
    if kind is RowKind.SET:
        return _("rules: {changes}").format(changes=set_row_text(row.note)[0])
    if kind is RowKind.BOCK:
        rounds = row.bock_rounds or 1
        what = ngettext("1 Bock round", "{count} Bock rounds", rounds).format(count=rounds)
        if row.undoes is not None:
            return _("bock: {what} taken back").format(what=what)
        return _("bock: {what}").format(what=what)
    if kind is RowKind.VOID:
        return _("void of hand {hand}").format(hand=row.ref)
    if kind is RowKind.RESTORE:
        return _("restore of hand {hand}").format(hand=row.ref)
    if kind is RowKind.DOUBLER:
        return _("hand {hand}: doubler").format(hand=row.hand)
    if kind is RowKind.POT:
        return _("hand {hand}: passed into the pot").format(hand=row.hand)
    if kind is RowKind.PENALTY:
        return _("hand {hand}: {what}").format(hand=row.hand, what=_penalty_text(row))
    if row.game == "ramsch":
        what = (
            _("Ramsch, durchmarsch by {player}").format(player=row.durchmarsch)
            if row.durchmarsch
            else _("Ramsch, lost by {player}").format(player=row.losers[0])
            if row.losers
            else _("Ramsch")
        )
    elif row.schwanzer_points is not None or row.losers:
        what = (
            _("schwanzer, lost by {players}").format(players=joined(row.losers))
            if row.losers
            else _("schwanzer")
        )
    elif row.picker is None:
        what = (
            _("leaster, won by {player}").format(player=row.winner) if row.winner else _("leaster")
        )
    else:
        side = row.picker + "".join(f" + {p}" for p in row.partners)
        game = f" {game_word(row.game)}" if row.game and row.game != "partner" else ""
        alone = _(" alone") if row.alone else ""
        what = f"{side}{alone}{game} {row.points}"
    if kind is RowKind.AMEND:
        return _("amend of hand {hand}: {what}").format(hand=row.ref, what=what)
    return _("hand {hand}: {what}").format(hand=row.hand, what=what)


def _penalty_text(row: Row) -> str:
    if row.paid_to:
        text = _("penalty: {offender} pays {penalty} to {to}")
    else:
        text = _("penalty: {offender} pays {penalty} to each")
    return text.format(offender=row.offender, penalty=row.penalty, to=row.paid_to)


def played_text(view: HandView) -> str:
    """A few words for the sheet's Played column: who picked with whom, the points, and what a
    paper sheet would note beside them (`marks`)."""
    row = view.row
    if row.kind is RowKind.DOUBLER:
        return _("doubler")
    if row.kind is RowKind.PENALTY:
        return _penalty_text(row)
    result = view.entry.result
    if row.kind is RowKind.POT and result is not None:
        return _("everyone passed: {pot} into the pot").format(pot=result.pot)
    if result is not None and result.outcome is Outcome.RAMSCH:
        text = (
            _("Ramsch: durchmarsch by {player}").format(player=result.winners[0])
            if result.winners
            else _("Ramsch: {player} lost").format(player=result.losers[0])
        )
    elif result is not None and result.outcome is Outcome.SCHWANZER:
        losers = joined(result.losers)
        text = (
            _("schwanzer: {players} lost").format(players=losers)
            if losers
            else _("schwanzer: everyone tied")
        )
    elif row.picker is None and result is not None and result.losers:  # (most-loses)
        text = _("leaster: {players} lost").format(players=joined(result.losers))
    elif row.picker is None:
        winners = [p for p, v in view.deltas.items() if v > 0]
        text = (
            _("leaster: {players}").format(players=joined(winners))
            if winners
            else _("leaster: no winner")
        )
    else:
        side = row.picker
        if row.partners:
            side += " + " + " + ".join(row.partners)
        elif row.alone:
            side += _(" alone")
        if row.game and row.game != "partner":
            side += f" {game_word(row.game)}"
        if row.game in _WON_ON_TRICKS:
            text = ngettext("{side}, 1 trick", "{side}, {count} tricks", row.tricks or 0).format(
                side=side, count=row.tricks
            )
        else:
            text = f"{side} {view.card_points}"
    noted = marks(row, view.entry.result)
    return f"{text}, {', '.join(noted)}" if noted else text


def summary_text(row: Row, result: Score | None = None) -> str:  # noqa: C901  (a sentence a kind)
    """One line saying what a recorded hand was (after `hand`, `amend`, `play`), beside
    `played_text`, the few words of a sheet's line."""

    label = (
        _("Hand {hand}").format(hand=row.hand)
        if row.hand
        else _("Hand {hand}, amended").format(hand=row.ref)
    )
    if row.kind == "doubler":
        return _("{label}: everyone passed; a doubler (the next hand is doubled).").format(
            label=label
        )
    if result is None:
        return f"{label}."
    # (a level says schneider and no-trick itself)
    noted = "".join(
        f"; {m}"
        for m in marks(row, result)
        if result.level is None or m not in (_("schneider"), _("no-trick"))
    )
    stake = result.stake
    if result.outcome is Outcome.PENALTY:
        if row.paid_to:
            text = _("{label}: a penalty: {offender} pays {penalty} to {to}.")
        else:
            text = _("{label}: a penalty: {offender} pays {penalty} to each other seated player.")
        return text.format(label=label, offender=row.offender, penalty=row.penalty, to=row.paid_to)
    if result.outcome is Outcome.POT:
        return _(
            "{label}: everyone passed; each player pays {stake} into the pot "
            "({pot} in all){marks}; the pot holds {held}."
        ).format(label=label, stake=stake, pot=result.pot, marks=noted, held=row.pot)
    if result.outcome is Outcome.LEASTER and result.losers:  # (leaster_scoring = most-loses)
        return _("{label}: a leaster, lost by {players} (payout {stake}){marks}.").format(
            label=label, players=joined(result.losers), stake=stake, marks=noted
        )
    if result.outcome is Outcome.LEASTER:
        won = joined(result.winners) or _("nobody")
        return _("{label}: a leaster, won by {players} (payout {stake}){marks}.").format(
            label=label, players=won, stake=stake, marks=noted
        )
    if result.outcome is Outcome.RAMSCH:
        if result.winners:
            text = _("{label}: a Ramsch; durchmarsch by {player} (stake {stake}){marks}.")
            who = result.winners[0]
        else:
            text = _("{label}: a Ramsch, lost by {player} (stake {stake}){marks}.")
            who = result.losers[0]
        return text.format(label=label, player=who, stake=stake, marks=noted)
    if result.outcome is Outcome.SCHWANZER:
        lost = joined(result.losers) or _("nobody (everyone tied)")
        return _("{label}: a schwanzer, lost by {players} (stake {stake}){marks}.").format(
            label=label, players=lost, stake=stake, marks=noted
        )
    if result.outcome is Outcome.TIE:
        return _(
            "{label}: {picker}'s side took 60: a 60-60 tie, not scored; the next hand "
            "is doubled{marks}."
        ).format(label=label, picker=row.picker, marks=noted)
    partners = ", ".join(row.partners)
    held = _("; the pot holds {pot}").format(pot=row.pot) if result.pot or row.pot else ""
    schafkopf = result.level is None  # Schafkopf has game values, not levels
    outcome = _("a win") if result.outcome is Outcome.WIN else _("a loss")
    if schafkopf and row.game in (None, "partner"):
        side = _("{picker} played a partner game with {partners}")
    elif schafkopf and row.game == "bettel":
        took = ngettext("1 trick", "{count} tricks", row.tricks or 0).format(count=row.tricks)
        if not row.tricks:
            took = _("no trick")
        return _(
            "{label}: {picker} played a bettel and took {tricks}: {outcome}, stake "
            "{stake}{marks}{held}."
        ).format(
            label=label,
            picker=row.picker,
            tricks=took,
            outcome=outcome,
            stake=stake,
            marks=noted,
            held=held,
        )
    elif schafkopf and row.game == "hochzeit":
        side = _("{picker} played a hochzeit with {partners}")
    elif schafkopf:
        side = _("{picker} played a {game}")
    elif len(row.partners) > 1:
        side = _("{picker} picked, partners {partners}")
    elif row.partners:
        side = _("{picker} picked, partner {partners}")
    elif row.alone:
        side = _("{picker} picked alone")
    else:
        side = _("{picker} picked")
    side = side.format(picker=row.picker, partners=partners, game=game_word(row.game))
    level = ""
    if result.level:
        level = _(", level {level}").format(level=result.level)
        if result.schneider or result.no_trick:
            level = {
                2: _(", level {level} (schneider)"),
                3: _(", level {level} (no-trick)"),
            }.get(result.level, level).format(level=result.level)
    why = f" ({', '.join(result.doublings)})" if result.doublings else ""
    return _(
        "{label}: {side}, {points} points: {outcome}{level}, stake {stake}{why}{marks}{held}."
    ).format(
        label=label,
        side=side,
        points=row.points,
        outcome=outcome,
        level=level,
        stake=stake,
        why=why,
        marks=noted,
        held=held,
    )


def bock_record(cell: str) -> dict[str, int] | None:
    """A Bock hand's place and factor as data (`hand`, `of`: its place in the round, 0 where
    only the factor is known; `factor`), or None for a hand that is none."""
    bock = Bock.parse(cell) if cell else None
    if bock is None:
        return None
    return {"hand": bock.place, "of": bock.of, "factor": bock.factor}


def hand_record(view: HandView, totals: Mapping[str, int] | None = None) -> dict[str, Any]:
    """A hand as data, with the same keys in every report: its number and kind, who dealt,
    picked and partnered, the points and tricks, the winners, its note, whether it is void or
    amended, the stake and each player's points (and, given, the running totals after it)."""
    row, result = view.row, view.entry.result
    winners = list(result.winners_of_hand) if result is not None else []
    record: dict[str, Any] = {
        "hand": view.number,
        "kind": str(row.kind),
        "dealer": row.dealer,
        "picker": row.picker,
        "partners": list(row.partners),
        "alone": row.alone,
        "game": row.game,
        "points": view.card_points,
        "tricks": row.tricks,
        "winner": winners[0] if len(winners) == 1 and row.kind is RowKind.LEASTER else None,
        "winners": winners,
        "losers": list(result.losers) if result is not None else [],
        "offender": row.offender,
        "penalty": row.penalty,
        "paid_to": row.paid_to,
        "last": row.last,
        "marks": marks(row, result),
        "bock": bock_record(row.bock),
        "played": played_text(view),
        "note": view.note,
        "void": view.void,
        "amended": view.amended,
        "stake": result.stake if result is not None else None,
        "deltas": dict(view.deltas),
    }
    if result is not None and result.pot:  # (a hand that paid into the pot or took it)
        record["into_pot"] = result.pot
    if totals is not None:
        record["totals"] = dict(totals)
    return record


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


class HandLines:
    """Hands as lines of JSON (`hand_record`, as `json.dumps` writes it), for the sheet's JSON.

    Hands of one kind (the same `Scored`: the checking pass gives hands alike one) differ only
    in their number and note: the rest of their line is made once for the kind (and once for
    a voided hand of it). An amended hand, or one with running totals, is made whole."""

    def __init__(self) -> None:
        # a kind's line (voided or not) around its note, but its number
        self._kinds: dict[tuple[Scored, bool], tuple[str, str] | None] = {}

    def line(self, view: HandView, totals: Mapping[str, int] | None = None) -> str:
        number, entry, void, amended, note, _time = view
        if amended or totals is not None:
            return json.dumps(hand_record(view, totals), ensure_ascii=False)
        key = (entry, void)
        if key not in self._kinds:
            self._kinds[key] = self._parts(view)
        parts = self._kinds[key]
        if parts is None:
            return json.dumps(hand_record(view), ensure_ascii=False)
        before, after = parts
        noted = json.dumps(note, ensure_ascii=False)
        return f'{{"hand": {number}{before}{noted}{after}'

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
    def _parts(view: HandView) -> tuple[str, str] | None:
        """A kind's line but its number, cut around its note (None: it cannot be cut so)."""
        text = json.dumps(hand_record(view._replace(number=0, note=_NOTE_GAP)), ensure_ascii=False)
        start, gap = '{"hand": 0', json.dumps(_NOTE_GAP, ensure_ascii=False)
        if not text.startswith(start) or text.count(gap) != 1:
            return None
        before, _gap, after = text[len(start) :].partition(gap)
        return before, after


class SheetRows:
    """The score sheet's rows, one per hand in hand order, then the totals.

    Each cell of a player is their points in that hand (or, `running`, their total so far), or
    None where they were not at the table. The cells of hands of one kind (the same `Scored`)
    are worked out once."""

    def __init__(self, players: Sequence[str], running: bool = False):
        self.players = tuple(players)
        self.running = running
        self.totals = dict.fromkeys(players, 0)  # kept up with `running` only
        self._started: set[str] = set()
        self._blank = (None,) * len(self.players)
        # a kind's line as CSV but its number and note (by the kind, void and amended)
        self._lines: dict[tuple[Scored, bool, bool], str] = {}
        self._buffer: Any = None  # (a StringIO and a CSV writer into it, made when first used)
        self._writer: Any = None

    def row(self, view: HandView) -> list[Any]:
        """The sheet row of a hand (hands come in order)."""
        entry = view.entry
        what = played_text(view)
        if view.void:
            what += _(" (void)")
        elif view.amended:
            what += _(" (amended)")
        if self.running:
            cells = self._running(view)
        elif view.void:
            cells = self._blank
        else:
            cells = tuple(entry.deltas.get(p) for p in self.players)
        return [view.number, entry.row.dealer or "", what, *cells, view.note]

    def csv_line(self, view: HandView) -> str:
        """The sheet row of a hand as a line of CSV."""
        if self.running:
            return self._csv(self.row(view)) + "\n"
        number, entry, void, amended, note, _time = view
        key = (entry, void, amended)
        middle = self._lines.get(key)
        if middle is None:
            middle = self._lines[key] = self._csv(self.row(view)[1:-1])
        if note:
            if note.startswith(FORMULA_STARTS):
                note = "'" + note
            if any(c in note for c in ',"\r\n'):
                note = '"' + note.replace('"', '""') + '"'
        return f"{number},{middle},{note}\n"

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
        return self._csv(self.set_row(row)) + "\n"

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
        # The run so far: its hands, and each one's points in the players' order (added up
        # when the run ends, in C: `itertools.accumulate`, `min`, `max`, `list.index`).
        self._numbers: list[int] = []
        self._steps: list[tuple[int, ...]] = []
        self._zeros = (0,) * len(self.players)

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
        self._steps.append(tuple(map(deltas.get, self.players, self._zeros)))

    def _flush(self) -> None:
        """Keep of the run, for each player, the first and last point and the (first) lowest
        and highest, in their order."""
        from itertools import accumulate

        numbers, steps = self._numbers, self._steps
        if not numbers:
            return
        for p, column in zip(self.players, zip(*steps)):
            values = list(accumulate(column, initial=self._running[p]))
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


def season(
    nights: Iterable[tuple[str, Mapping[str, int]]],
) -> tuple[list[str], list[dict[str, Any]]]:
    """A league table: the nights' names and one record per player (names match case-blind,
    spelled as first seen), best total first."""
    named: dict[str, str] = {}
    merged: list[tuple[str, dict[str, int]]] = []
    for name, totals in nights:
        night = {}
        for player, total in totals.items():
            night[named.setdefault(same_name(player), player)] = total
        merged.append((name, night))
    players = sorted(named.values(), key=lambda p: (-sum(n.get(p, 0) for _, n in merged), p))
    records = []
    for player in players:
        played = [n[player] for _, n in merged if player in n]
        total = sum(played)
        records.append(
            {
                "player": player,
                "nights": {name: n.get(player) for name, n in merged},
                "total": total,
                "played": len(played),
                "average": round(total / len(played), 2) if played else None,
            }
        )
    return [name for name, _ in merged], records


def standings_record(
    file: str, rules_name: str, ledger: Ledger, stats: Mapping[str, PlayerStats]
) -> dict[str, Any]:
    """The standings as data (`standings --format json`, and the live board's state): each
    player's total, hands played, picks and picker wins, best total first."""
    order = sorted(ledger.totals, key=lambda p: -ledger.totals[p])
    return {
        "file": file,
        "rules": rules_name,
        "hands": ledger.hands,
        "totals": dict(ledger.totals),
        "players": [
            {
                "name": p,
                "total": ledger.totals[p],
                "played": stats[p].played,
                "picks": stats[p].picks,
                "picker_wins": stats[p].picker_wins,
            }
            for p in order
        ],
        "race_winners": list(ledger.race_winners),
        **pot_record(ledger),
    }


def plays_pot(ledger: Ledger) -> bool:
    """Whether a night shows its pot: its rules play it (all_pass = pot), or it holds some, or
    a hand was passed into it (a night that never had one shows none, as before the pot)."""
    return ledger.rules.all_pass == "pot" or bool(ledger.pot or ledger.pot_rows)


def pot_record(ledger: Ledger) -> dict[str, int]:
    """`{"pot": N}`, what the pot holds, for a night that shows it (`plays_pot`); else `{}`."""
    return {"pot": ledger.pot} if plays_pot(ledger) else {}


def rules_words(head: "Head", ledger: Ledger) -> str:
    """The rules of a night as a report names them: 'standard rules', or, once `scorepad set`
    changed them, also the rules in force at the end and the hand they apply from."""
    words = _("{name} rules").format(name=head.rules.name)
    if ledger.rules_line is None:
        return words
    if ledger.rules_changes > 1:
        words = _("{name} rules, changed {count} times").format(
            name=head.rules.name, count=ledger.rules_changes
        )
    return _("{rules}; from hand {hand} on: {summary}").format(
        rules=words, hand=ledger.rules_from, summary=ledger.rules.summary()
    )


def rules_in_force(head: "Head", ledger: Ledger) -> str:
    """The rules in force in a session, in a few words (with what `scorepad set` changed)."""
    if ledger.rules_line:
        return ledger.rules.summary()
    return stored_summary_words(head.start.note) if head.start.note else head.rules.name


def recorded_record(path: "Path", row: Row, result: Score | None, state: Ledger) -> dict[str, Any]:
    """A row just recorded, as data (`hand --format json`, and the live board's entry)."""

    amended = row.kind is RowKind.AMEND
    seated = tuple(row.deltas)
    points = {p: result.deltas.get(p, 0) for p in seated} if result else dict.fromkeys(seated, 0)
    kind = (
        RowKind.DOUBLER if result is None else row.kind if row.kind is RowKind.POT else kind_of(row)
    )
    number = row.ref if amended else row.hand
    assert number is not None
    view = HandView(
        number, Scored(row.inputs_only(kind), points, result, seated), False, amended, row.note
    )
    data = {"file": str(path), **hand_record(view)}
    if amended:
        data["change"] = dict(row.deltas)  # what the amendment adds to the totals
    data.update(
        totals=dict(state.totals),
        next_dealer=state.next_dealer,
        pending=len(state.pending),
        race_winners=list(state.race_winners),
        score=result.to_dict() if result else None,
    )
    if plays_pot(state) or (result is not None and result.pot):  # (and a hand that took it)
        data["pot"] = state.pot
    return data


def bock_owed(ledger: Ledger) -> int:
    """How many Bock hands the night owes (the next hands, in turn)."""
    return bock_count(ledger.bock)


class NextHand(NamedTuple):
    """Who deals the next hand, who leads it, who sits it out, and how often it is doubled."""

    hand: int
    dealer: str
    leads: str
    sits_out: tuple[str, ...]
    doubled: int  # doublings pending on it (x 2 ** doubled)
    bock: str = ""  # its Bock, as a `bock` cell holds it ("": it is none)
    pot: int = 0  # what the pot holds (all_pass = pot): the next hand with a picker plays for it

    def text(self, next_: bool = True) -> str:
        """`Next: hand 2, Ann deals, Bob leads.` (with who sits out, any doubling, a Bock, the
        pot); without `next_`, `Hand 2, Ann deals, Bob leads.`"""
        said = (
            _("Next: hand {hand}, {dealer} deals, {leads} leads")
            if next_
            else _("Hand {hand}, {dealer} deals, {leads} leads")
        )
        words = said.format(hand=self.hand, dealer=self.dealer, leads=self.leads)
        if self.sits_out:
            words += _(", {players} sits out").format(players=", ".join(self.sits_out))
        if self.doubled:
            words += _("; it is doubled (x{factor})").format(factor=2**self.doubled)
        bock = Bock.parse(self.bock) if self.bock else None
        if bock is not None:
            words += f"; {bock.words()}"
        if self.pot:
            words += _("; the pot holds {pot}").format(pot=self.pot)
        return words + "."


def next_hand(ledger: Ledger) -> NextHand:
    """The next hand of the night as its state leaves it (the one place it is worked out)."""

    seating = seat(ledger.rules, ledger.seated, ledger.next_dealer)
    return NextHand(
        ledger.last_hand + 1,
        ledger.next_dealer,
        seating.order[0],
        seating.sitting_out,
        ledger.doubled_next(),
        ledger.bock_next(),
        ledger.pot,
    )
