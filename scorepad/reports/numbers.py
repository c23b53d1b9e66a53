"""The night in numbers and as data: each player's numbers (`PlayerStats`, counted by kind of
hand: `PlayerCounts`), the records of a hand, the standings, the next hand, a league's table."""

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from ..i18n import gettext as _
from ..ledger import Counts, HandView, Ledger, Scored, kind_of
from ..ledger.bock import owed as bock_count
from ..placings import placings, ranking_text
from ..scoring import Bock, Outcome, Score, same_name, seat
from ..scoring.called import ORDER
from ..store.format import Row, RowKind
from .words import WON_ON_TRICKS, marks, played_text

if TYPE_CHECKING:
    from pathlib import Path


class PlayerStats:
    """One player's night in numbers (what `standings` and `stats` show). A plain class, not a
    dataclass, for the start-up cost of every command (see `ledger.Scored`)."""

    __slots__ = (
        "calls",
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
        # what the player called as picker (`called`) -> [calls made, won by the side]
        self.calls: dict[str, list[int]] = {}

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
        """Add the hands counted so far into every player's numbers. Hands that share one score
        (alike but for their card points, as the pass gives them) are added in together."""
        # by their score (and call): a hand of them, how many, card points
        alike: dict[tuple[int, str | None], list[Any]] = {}
        for entry, times in self.items():
            key = (id(entry.result), entry.row.called)
            found = alike.get(key)
            if found is None:
                alike[key] = [entry, times, times * entry.card]
            else:
                found[1] += times
                found[2] += times * entry.card
        for entry, times, points in alike.values():
            _count(self.stats, entry, times, points)
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
                    else {c: list(made) for c, made in st.calls.items()}
                    if name == "calls"
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
                elif name == "calls":
                    if not _calls(value):
                        return False
                    stats.calls = {c: list(made) for c, made in value.items()}
                elif _whole(value) and value >= 0:
                    setattr(stats, name, value)
                else:
                    return False
            made[player] = stats
        self.stats = made
        return True


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _calls(value: Any) -> bool:
    """Whether a checkpoint's `calls` are as `saved` writes them: a call to [made, won]."""
    return isinstance(value, dict) and all(
        isinstance(call, str)
        and isinstance(made, list)
        and len(made) == 2
        and all(_whole(n) and n >= 0 for n in made)
        and made[1] <= made[0]
        for call, made in value.items()
    )


def _count(players: Mapping[str, PlayerStats], entry: Scored, times: int, card_points: int) -> None:
    """Count a kind of scored hand `times` times into every player's numbers (`card_points`:
    the card points of those hands, added up). (The reports fold every kind of the night
    through it, some of them again and again: what a hand is is asked once, not a player.)"""
    row, result = entry.row, entry.result
    assert result is not None
    outcome, out = result.outcome, row.out
    if outcome in (Outcome.PENALTY, Outcome.POT):
        return  # a penalty, a hand passed into the pot: not played (its points are in the totals)
    if outcome in (Outcome.LEASTER, Outcome.SCHWANZER, Outcome.RAMSCH, Outcome.MANUAL):
        # (everyone alone, or a hand the table scored itself: played, no pick)
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
    counted = row.game not in WON_ON_TRICKS and entry.card_points is not None
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
            if row.called:
                made = stats.calls.setdefault(row.called, [0, 0])
                made[0] += times
                made[1] += wins
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
                "calls": {
                    call: {"made": st.calls[call][0], "won": st.calls[call][1]}
                    for call in sorted(st.calls, key=_call_order)
                },
            }
        )
    return records


def _call_order(call: str) -> tuple[int, str]:
    return (ORDER.index(call) if call in ORDER else len(ORDER), call)


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
        "called": row.called,
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


def season(
    nights: Iterable[tuple[str, Mapping[str, int]]],
    placing_points: Sequence[int] | bool = False,
) -> tuple[list[str], list[dict[str, Any]]]:
    """A league table: the nights' names and one record per player (names match case-blind,
    spelled as first seen), best total first. With `placing_points` (True: the default
    ranking points by head count; a sequence: the table's own), each night's placings too
    (`placings`), and the table ordered by ranking points, then game points."""
    named: dict[str, str] = {}
    merged: list[tuple[str, dict[str, int]]] = []
    for name, totals in nights:
        night = {}
        for player, total in totals.items():
            night[named.setdefault(same_name(player), player)] = total
        merged.append((name, night))
    ranked: list[dict[str, Fraction]] = []
    if placing_points is not False:
        own = None if isinstance(placing_points, bool) else placing_points
        ranked = [placings(name, night, own) for name, night in merged]

    def ranking(p: str) -> Fraction:
        return sum((r.get(p, Fraction(0)) for r in ranked), Fraction(0))

    players = sorted(
        named.values(), key=lambda p: (-ranking(p), -sum(n.get(p, 0) for _, n in merged), p)
    )
    records = []
    for player in players:
        played = [n[player] for _, n in merged if player in n]
        total = sum(played)
        record: dict[str, Any] = {
            "player": player,
            "nights": {name: n.get(player) for name, n in merged},
            "total": total,
            "played": len(played),
            "average": round(total / len(played), 2) if played else None,
        }
        if ranked:
            record["placings"] = {
                name: None if player not in r else ranking_text(r[player])
                for (name, _n), r in zip(merged, ranked, strict=True)
            }
            record["ranking"] = ranking_text(ranking(player))
        records.append(record)
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
