"""Open-card (double-dummy) analysis of a hand as played: what the declaring side could force
before and after every card, and the cards that gave an outcome away. No I/O: the command
line reads the hand file and prints (`scorepad analyze`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..cards import Card
from ..errors import ScorepadError
from ..i18n import gettext as _
from ..replay import HandFile, replay
from ..rules import Rules
from .position import position_for
from .search import LEVELS, Searcher

__all__ = [
    "LEVELS",
    "CardVerdict",
    "HandAnalysis",
    "Value",
    "analyse",
]


@dataclass(frozen=True)
class Value:
    """What the declaring side could force: an outcome (one of LEVELS), and its exact card
    points when asked for."""

    outcome: str
    points: int | None = None

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"outcome": self.outcome}
        if self.points is not None:
            data["points"] = self.points
        return data


@dataclass(frozen=True)
class CardVerdict:
    """One card as played: the outcome before and after it, and (a mistake) the cards that
    would have kept the outcome."""

    trick: int
    player: str
    card: Card
    before: Value
    after: Value
    mistake: bool
    better: tuple[Card, ...]


@dataclass(frozen=True)
class HandAnalysis:
    declarers: tuple[str, ...]
    picker: str
    start: Value | None  # None: a Ramsch (each player's start is in `ramsch`)
    cards: tuple[CardVerdict, ...]
    bettel_or_tout: bool
    ramsch: dict[str, Value] | None = None  # a Ramsch: each player's value from the start

    @property
    def mistakes(self) -> tuple[CardVerdict, ...]:
        return tuple(v for v in self.cards if v.mistake)


def analyse(
    hand: HandFile,
    rules: Rules,
    points: bool = False,
    tick: Callable[[int, int], None] | None = None,
) -> HandAnalysis:
    """Analyse every card of a hand file that replay reads and finds nothing wrong with.
    `tick(done, total)` is called as the cards are analysed (and now and then within one)."""
    replayed = replay(hand, rules)
    broken = [p for p in replayed.problems if p.player is not None or p.trick is not None]
    if broken:
        raise ScorepadError(
            _(
                "the hand breaks the rules ({problem}): analyze takes hands played by the rules"
            ).format(problem=broken[0])
        )
    if replayed.picker is None:  # a Ramsch: each player for themself
        from .ramsch import analyse_ramsch

        return analyse_ramsch(hand, rules, tick)
    position = position_for(hand, rules)
    total = sum(len(cards) for _line, cards in hand.tricks)
    done = [0]

    def inner() -> None:
        if tick is not None:
            tick(done[0], total)

    searcher = Searcher(position, inner)
    before = _value(searcher, points)
    start = before
    verdicts = []
    for number, (_line, cards) in enumerate(hand.tricks, 1):
        for card in cards:
            verdict, after = _card(searcher, number, card, before, points)
            verdicts.append(verdict)
            before = after
            done[0] += 1
            inner()
    return HandAnalysis(
        tuple(p for p, ours in zip(position.players, position.side, strict=True) if ours),
        position.picker,
        start,
        tuple(verdicts),
        position.bettel or position.tout,
    )


def _value(searcher: Searcher, points: bool, guess: Value | None = None, bound: int = 0) -> Value:
    """The value from here. `guess` is the value before the card just played, and `bound`
    says which way the card can have moved it: -1 down (a card of the declaring side's),
    +1 up (one of the others'); a card seldom moves it, so that is asked first."""
    level = searcher.outcome(LEVELS.index(guess.outcome if guess else "win"), bound)
    position = searcher.position
    if not points or position.bettel or position.tout:  # (tricks decide those, not points)
        return Value(LEVELS[level])
    was = guess.points if guess is not None else None
    exact = searcher.best_points(least=was if bound > 0 else None, most=was if bound < 0 else None)
    return Value(LEVELS[level], exact)


def _card(
    searcher: Searcher, trick: int, card: Card, before: Value, points: bool
) -> tuple[CardVerdict, Value]:
    position = searcher.position
    seat = position.to_move()
    number = position.cards.index(card)
    legal = position.legal()
    if number not in legal:  # (replay found nothing wrong: cannot happen)
        raise ScorepadError(
            _("trick {trick}: {card} cannot be played").format(trick=trick, card=card)
        )
    ours = position.side[seat]
    level = LEVELS.index(before.outcome)
    position.play(number)
    after = _value(searcher, points, before, -1 if ours else 1)
    position.undo()
    worse = LEVELS.index(after.outcome) < level if ours else LEVELS.index(after.outcome) > level
    better: list[Card] = []
    if worse:
        # one search a set of equivalent cards (a card alike to the one played loses as it did)
        kept: dict[int, bool] = {}
        for other in legal:
            if other == number:
                continue
            same = next((n for n in (number, *kept) if position.alike(n, other)), None)
            if same == number:
                continue
            if same is None:
                same = other
                kept[other] = _keeps(searcher, other, ours, level)
            if kept[same]:
                better.append(position.cards[other])
    position.play(number)
    verdict = CardVerdict(
        trick, position.players[seat], card, before, after, worse, tuple(sorted(better, key=str))
    )
    return verdict, after


def _keeps(searcher: Searcher, number: int, ours: bool, level: int) -> bool:
    """Whether playing card `number` keeps the outcome `level` for its player's side."""
    position = searcher.position
    position.play(number)
    if ours:
        keeps = searcher.reaches(searcher.goal(level))
    else:
        keeps = level == len(LEVELS) - 1 or not searcher.reaches(searcher.goal(level + 1))
    position.undo()
    return keeps
