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

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from .ledger import HandView
from .scoring import Outcome, same_name
from .session import Session

MIN_HANDS = 10
"""Players with fewer hands are listed apart (their ratings say little yet)."""
MODEL = "OpenSkill Plackett-Luce"
_ALONE = (Outcome.LEASTER, Outcome.SCHWANZER, Outcome.RAMSCH)


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
    if view.void or result is None or result.outcome in (Outcome.PENALTY, Outcome.TIE, Outcome.POT):
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


def read_matches(path: Path) -> list[Match]:
    """Every hand of a session file that is a match, the file checked as every report checks
    it (a file that does not verify is an error naming it)."""
    found: list[tuple[int, tuple[tuple[str, ...], ...], tuple[int, ...]]] = []

    def on_hand(view: HandView) -> None:
        match = teams_of(view)
        if match is not None:
            found.append((view.number, *match))

    source = str(path.resolve())
    with Session(path).reading() as reading:
        reading.night(on_hand=on_hand)
        times: dict[int, float] = {}
        for row in reading.rows():  # (the time a hand was first recorded: its own row's)
            if row.hand is not None and row.hand not in times:
                times[row.hand] = _timestamp(row.time)
    return [Match(times.get(n, 0.0), source, n, teams, ranks) for n, teams, ranks in found]


def rate(matches: Iterable[Match]) -> list[PlayerRating]:
    """Every player's rating after the matches, played in the order of their time; the best
    rating first (then by name)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {}
    names: dict[str, str] = {}  # a name's key -> the name as first seen
    hands: dict[str, int] = {}
    for match in sorted(matches, key=lambda m: (m.when, m.source, m.hand)):
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
