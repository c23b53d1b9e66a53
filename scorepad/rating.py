"""Ratings that see past the cards: each player's skill over any number of nights, by OpenSkill.

Each hand is a match (OpenSkill's Plackett-Luce model, the `openskill` package): the picker's
side against the defenders, ranked by who won; in a leaster, a schwanzer or a Ramsch every
player is on their own, ranked by the hand's points (equal points, equal rank). A doubler, a
60-60 that is not scored, a void hand and a penalty are no match. The hands of every file are
put in the order of the time each was recorded (then the file's path, then the hand's number),
so the same files give the same ratings whatever their order on the command line. A player's
rating is the conservative one, mu - 3 sigma; players under a minimum of hands are listed apart.

openskill is imported only when ratings are worked out (`rate`), not by the other commands.
"""

import heapq
from array import array
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from .ledger import HandView, Ledger, Memo
from .scoring import Outcome, same_name
from .session import Session

MIN_HANDS = 10
"""Players with fewer hands are listed apart (their ratings say little yet)."""
MODEL = "OpenSkill Plackett-Luce"
_ALONE = (Outcome.LEASTER, Outcome.SCHWANZER, Outcome.RAMSCH)
# (a hand the table scored itself has no sides to rate)
_NO_MATCH = (Outcome.PENALTY, Outcome.TIE, Outcome.POT, Outcome.MANUAL)


class Match(NamedTuple):
    """One hand as a match: its place in time, its teams and their ranks (1 is first)."""

    when: float  # the time the hand was recorded, as a POSIX timestamp (0: unknown)
    source: str  # the file's resolved path (orders hands recorded in the same second)
    hand: int
    teams: tuple[tuple[str, ...], ...]
    ranks: tuple[int, ...]


class PlayerRating(NamedTuple):
    """A player's rating after every match."""

    player: str
    rating: float  # mu - 3 sigma
    mu: float
    sigma: float
    hands: int


def teams_of(view: HandView) -> tuple[tuple[tuple[str, ...], ...], tuple[int, ...]] | None:
    """A hand's teams and ranks, or None for a hand that is no match."""
    result = view.entry.result
    if view.void or result is None or result.outcome in _NO_MATCH:
        return None
    deltas = result.deltas  # the players dealt in, in seat order
    if result.outcome in _ALONE:
        if len(set(deltas.values())) < 2:
            return None  # (everyone alike: nobody paid)
        order = sorted(set(deltas.values()), reverse=True)
        teams = tuple((p,) for p in deltas)
        return teams, tuple(order.index(deltas[p]) + 1 for p in deltas)
    row = view.row
    side = {row.picker, *row.partners}
    picker_side = tuple(p for p in deltas if p in side)
    defenders = tuple(p for p in deltas if p not in side)
    if not picker_side or not defenders:
        return None
    won = result.outcome is Outcome.WIN
    return (picker_side, defenders), ((1, 2) if won else (2, 1))


def _timestamp(text: str) -> float:
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        return 0.0


Teams = tuple[tuple[str, ...], ...]


class NightMatches:
    """The matches of one session file, kept small: a night of a million hands holds a million
    of them until every file is read (ratings go in the order of time, over all the files), so
    each is three numbers in arrays (its time, its hand, its teams and ranks, each pair of these
    kept once for every file: `Kinds`), not a record of its own."""

    def __init__(self, source: str, kinds: "Kinds"):
        self.source = source  # the file's resolved path
        self._kinds = kinds
        self.times = array("d")
        self.hands = array("q")
        self.kinds = array("q")

    def add(self, when: float, hand: int, teams: Teams, ranks: tuple[int, ...]) -> None:
        self.times.append(when)
        self.hands.append(hand)
        self.kinds.append(self._kinds.number(teams, ranks))

    def __len__(self) -> int:
        return len(self.hands)

    def in_order(self) -> Iterator[Match]:
        """The night's matches in the order of their time, then their hand."""
        times, hands, kinds = self.times, self.hands, self.kinds
        places: Iterable[int] = range(len(hands))
        # (the pass gives them in the order of their hands, and those are nearly always in the
        # order of time: sorted only when a clock was set back)
        if any(times[i] > times[i + 1] for i in range(len(times) - 1)):
            places = sorted(places, key=lambda i: (times[i], hands[i]))
        source, kind = self.source, self._kinds.kinds
        for i in places:
            teams, ranks = kind[kinds[i]]
            yield Match(times[i], source, hands[i], teams, ranks)


class Kinds:
    """Each pair of teams and ranks a match has had, kept once, by number."""

    def __init__(self) -> None:
        self.kinds: list[tuple[Teams, tuple[int, ...]]] = []
        self._numbers: dict[tuple[Teams, tuple[int, ...]], int] = {}

    def number(self, teams: Teams, ranks: tuple[int, ...]) -> int:
        key = (teams, ranks)
        found = self._numbers.get(key)
        if found is None:
            found = self._numbers[key] = len(self.kinds)
            self.kinds.append(key)
        return found


def read_night(path: Path, kinds: Kinds | None = None, memo: Memo | None = None) -> NightMatches:
    """Every hand of a session file that is a match (with the time its own row was written),
    the file checked as every report checks it, in its one pass (a file that does not verify
    is an error naming it). `memo`: what is remembered of the kinds of hand, for the next
    file."""
    return night_and_matches(Session(path), kinds, memo)[0]


def night_and_matches(
    session: Session, kinds: Kinds | None = None, memo: Memo | None = None
) -> tuple[NightMatches, Ledger]:
    """`read_night`, from a session opened as the caller likes, with the night it checked (its
    totals and rules: a season adds them up from the same pass)."""
    path = session.path
    found = NightMatches(str(path.resolve()), kinds or Kinds())
    stamps: dict[str, float] = {}  # (a time's text, read once: hands share their minute)
    add = found.add

    def on_hand(view: HandView) -> None:
        match = teams_of(view)
        if match is not None:
            when = stamps.get(view.time)
            if when is None:
                if len(stamps) > 4096:
                    stamps.clear()
                when = stamps[view.time] = _timestamp(view.time)
            add(when, view.number, *match)

    with session.reading() as reading:
        night = reading.night(on_hand=on_hand, memo=memo)
    return found, night


def read_matches(path: Path) -> list[Match]:
    """Every hand of a session file that is a match, the file checked as every report checks
    it (a file that does not verify is an error naming it)."""
    return list(read_night(path).in_order())


def ratings_over(paths: Iterable[Path]) -> list[PlayerRating]:
    """Every player's rating over the hands of the files, each file read in one pass (what is
    remembered of its kinds of hand kept for the next), its matches kept small."""
    kinds, memo = Kinds(), Memo()
    return rate_nights([read_night(path, kinds, memo) for path in paths])


def rate_nights(nights: Iterable[NightMatches]) -> list[PlayerRating]:
    """Every player's rating over the nights' matches, merged in the order of their time."""
    return rate_in_order(heapq.merge(*(night.in_order() for night in nights)))


def rate(matches: Iterable[Match]) -> list[PlayerRating]:
    """Every player's rating after the matches, played in the order of their time; the best
    rating first (then by name)."""
    return rate_in_order(sorted(matches, key=lambda m: (m.when, m.source, m.hand)))


def rate_in_order(matches: Iterable[Match]) -> list[PlayerRating]:
    """Every player's rating after the matches, played in the order given (`rate`'s: of
    their time, then file, then hand); the best rating first (then by name)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {}
    names: dict[str, str] = {}  # a name's key -> the name as first seen
    hands: dict[str, int] = {}
    for match in matches:
        keys = [[same_name(p) for p in team] for team in match.teams]
        for team, team_keys in zip(match.teams, keys):
            for player, key in zip(team, team_keys):
                if key not in ratings:
                    names[key] = player
                    ratings[key] = model.rating(name=key)
                    hands[key] = 0
                hands[key] += 1
        new = model.rate([[ratings[k] for k in team] for team in keys], ranks=list(match.ranks))
        for team_keys, team_ratings in zip(keys, new):
            for key, rating in zip(team_keys, team_ratings):
                ratings[key] = rating
    out = [PlayerRating(names[k], r.ordinal(), r.mu, r.sigma, hands[k]) for k, r in ratings.items()]
    return sorted(out, key=lambda r: (-r.rating, same_name(r.player), r.player))


def split(
    ratings: Sequence[PlayerRating], least: int
) -> tuple[list[PlayerRating], list[PlayerRating]]:
    """The players with at least `least` hands, and the others (listed apart)."""
    return [r for r in ratings if r.hands >= least], [r for r in ratings if r.hands < least]


def rating_record(rating: PlayerRating) -> dict[str, object]:
    """A player's rating as data (rounded to 6 places: the same on every machine)."""
    return {
        "player": rating.player,
        "rating": round(rating.rating, 6),
        "mu": round(rating.mu, 6),
        "sigma": round(rating.sigma, 6),
        "hands": rating.hands,
    }
