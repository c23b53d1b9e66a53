"""A Ramsch with every card open: each player for themself, each card judged from its player's
seat against the other three together (the most that player can count on had the others
played as one against him).

A player's value, best first: a Durchmarsch (he can make sure of every trick), a Jungfrau (of
no trick), else the fewest card points he can make sure of taking; fewer are better. One
position and one searcher a player (`ramsch_view`: he is the side, the others' tricks are
counted), played in step.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import Card
from ..errors import ScorepadError
from ..i18n import gettext as _
from ..names import TOTAL_POINTS
from ..replay import HandFile
from ..rules import Rules
from . import CardVerdict, HandAnalysis, Value
from .position import ramsch_view
from .search import ALL, NONE, Goal, Searcher

__all__ = ["RAMSCH_OUTCOMES", "analyse_ramsch", "ramsch_value"]

RAMSCH_OUTCOMES = ("durchmarsch", "jungfrau", "points")
"""A player's value in a Ramsch, best first (`points`: the fewer, the better)."""


def _rank(value: Value) -> tuple[int, int]:
    """Smaller is better for the player."""
    return RAMSCH_OUTCOMES.index(value.outcome), value.points or 0


def analyse_ramsch(
    hand: HandFile, rules: Rules, tick: Callable[[int, int], None] | None = None
) -> HandAnalysis:
    """Every card of a replayed Ramsch, judged from its player's seat."""
    players = tuple(hand.players)
    total = sum(len(cards) for _line, cards in hand.tricks)
    done = [0]

    def inner() -> None:
        if tick is not None:
            tick(done[0], total)

    views = [Searcher(ramsch_view(hand, rules, p), inner) for p in players]
    latest = [ramsch_value(s) for s in views]  # each player's value when last worked out
    start = dict(zip(players, latest, strict=True))
    when = [0] * len(players)  # the cards played then
    verdicts = []
    for trick, (_line, cards) in enumerate(hand.tricks, 1):
        for card in cards:
            seat = views[0].position.to_move()
            searcher = views[seat]
            played = len(searcher.position.history)
            before = (
                latest[seat] if when[seat] == played else ramsch_value(searcher, latest[seat], 1)
            )
            verdict = _card(searcher, trick, card, before)
            number = searcher.position.cards.index(card)
            for view in views:
                view.position.play(number)
            latest[seat], when[seat] = verdict.after, played + 1
            verdicts.append(verdict)
            done[0] += 1
            inner()
    return HandAnalysis((), "", None, tuple(verdicts), False, ramsch=start)


def ramsch_value(searcher: Searcher, was: Value | None = None, bound: int = 0) -> Value:
    """The value of the searcher's player from here. `was` is his value before the card just
    played and `bound` which way that card can have moved it: +1 (another's card) only
    better, -1 (his own) only worse."""
    outcome = was.outcome if was is not None else ""
    if bound > 0 and outcome in ("durchmarsch", "jungfrau"):
        return was  # type: ignore[return-value]
    if not (bound < 0 and outcome != "durchmarsch") and searcher.reaches(Goal(0, NONE)):
        return Value("durchmarsch", TOTAL_POINTS)
    if not (bound < 0 and outcome != "jungfrau") and searcher.reaches(Goal(0, ALL)):
        return Value("jungfrau", 0)
    known = None
    if was is not None and outcome == "points" and was.points is not None:
        known = TOTAL_POINTS - was.points  # what the others were sure of
    most = searcher.best_points(
        least=known if bound > 0 else None, most=known if bound < 0 else None
    )
    return Value("points", TOTAL_POINTS - most)


def _card(searcher: Searcher, trick: int, card: Card, before: Value) -> CardVerdict:
    position = searcher.position
    seat = position.to_move()
    number = position.cards.index(card)
    legal = position.legal()
    if number not in legal:  # (replay found nothing wrong: cannot happen)
        raise ScorepadError(
            _("trick {trick}: {card} cannot be played").format(trick=trick, card=card)
        )
    position.play(number)
    after = ramsch_value(searcher, before, -1)
    position.undo()
    worse = _rank(after) > _rank(before)
    better: list[Card] = []
    if worse:
        goal = _goal(before)
        kept: dict[int, bool] = {}  # one search a set of alike cards
        for other in legal:
            if other == number:
                continue
            same = next((n for n in (number, *kept) if position.alike(n, other)), None)
            if same == number:
                continue
            if same is None:
                same = other
                position.play(other)
                kept[other] = searcher.reaches(goal)
                position.undo()
            if kept[same]:
                better.append(position.cards[other])
    return CardVerdict(
        trick, position.players[seat], card, before, after, worse, tuple(sorted(better, key=str))
    )


def _goal(value: Value) -> Goal:
    """The question a card must answer yes to keep `value`."""
    if value.outcome == "durchmarsch":
        return Goal(0, NONE)
    if value.outcome == "jungfrau":
        return Goal(0, ALL)
    return Goal(TOTAL_POINTS - (value.points or 0))
