"""An analysis in words (text) and as data (JSON), in the language in force: cards by their
German names in German (Herz-Zehn, `cards.card_name`), as written (10H) in English."""

from __future__ import annotations

from ..cards import Card, card_name
from ..i18n import catalog
from ..i18n import gettext as _
from ..names import MAKE
from . import CardVerdict, HandAnalysis, Value

__all__ = ["A_OUTCOME", "THE_OUTCOME", "as_data", "as_lines"]

A_OUTCOME = {
    "win": "a win",
    "win-schneider": "a win with schneider",
    "win-schwarz": "a win with schwarz",
    "loss": "a loss",
    "loss-schneider": "a loss with schneider",
    "loss-schwarz": "a loss with schwarz",
}
THE_OUTCOME = {
    "win": "the win",
    "win-schneider": "the win with schneider",
    "win-schwarz": "the win with schwarz",
    "loss": "the loss",
    "loss-schneider": "the loss with schneider",
    "loss-schwarz": "the loss with schwarz",
}
"""The outcomes in words: messages of the context `outcome` (scripts/messages.py declares
them), apart from the `a win` of a report, which German says otherwise."""


def _outcome(words: str) -> str:
    return catalog().pgettext("outcome", words)


def _either(cards: tuple[Card, ...]) -> str:
    names = [card_name(c) for c in cards]
    if len(names) < 2:
        return "".join(names)
    return _("{some} or {last}").format(some=", ".join(names[:-1]), last=names[-1])


def _side(found: HandAnalysis, schafkopf: bool) -> str:
    return _("the declarer's side") if schafkopf else _("the picker's side")


def _value(value: Value, found: HandAnalysis, schneider_win: int, schneider_loss: int) -> str:
    """`a win: 61 or more` (the line, or the exact points when known)."""
    noun = _outcome(A_OUTCOME[value.outcome])
    if found.bettel_or_tout or value.outcome.endswith("schwarz"):
        return noun
    least = {
        "win": MAKE,
        "win-schneider": schneider_win,
        "loss": schneider_loss + 1,
        "loss-schneider": 0,
    }[value.outcome]
    if value.points is not None:
        least = value.points
    if value.outcome == "loss-schneider" and value.points is None:
        return _("{noun}: {most} or less").format(noun=noun, most=schneider_loss)
    return _("{noun}: {least} or more").format(noun=noun, least=least)


def as_lines(
    found: HandAnalysis, schafkopf: bool, schneider_win: int, schneider_loss: int, every: bool
) -> list[str]:
    """The analysis as text: the deal's value, the mistakes (every card with `every`), and
    how often each player erred."""
    if found.ramsch is not None:
        return _ramsch_lines(found, found.ramsch, every)
    assert found.start is not None
    side = _side(found, schafkopf)
    lines = [
        _("With every card open, {side} could force {value}.").format(
            side=side, value=_value(found.start, found, schneider_win, schneider_loss)
        )
    ]
    for verdict in found.cards:
        if verdict.mistake or every:
            lines.append(_card_line(verdict, side))
    if not found.mistakes:
        lines.append(_("No card changed what {side} could force.").format(side=side))
    lines.append(_counts(found))
    return lines


def _counts(found: HandAnalysis) -> str:
    """`Mistakes: Anni 0, Bertl 1, ...`: how often each player erred."""
    counts: dict[str, int] = {}
    for verdict in found.cards:
        counts.setdefault(verdict.player, 0)
        counts[verdict.player] += verdict.mistake
    return _("Mistakes: {counts}.").format(
        counts=", ".join(f"{player} {count}" for player, count in counts.items())
    )


def _a_ramsch(value: Value) -> str:
    """A player's value in a Ramsch: `a Jungfrau`, `a Durchmarsch`, `24 card points or fewer`."""
    if value.outcome == "durchmarsch":
        return _("a Durchmarsch")
    if value.outcome == "jungfrau":
        return _("a Jungfrau")
    return _("{points} card points or fewer").format(points=value.points)


def _the_ramsch(value: Value) -> str:
    """`the Jungfrau`, `the Durchmarsch`, `24 card points or fewer`."""
    if value.outcome == "durchmarsch":
        return _("the Durchmarsch")
    if value.outcome == "jungfrau":
        return _("the Jungfrau")
    return _("{points} card points or fewer").format(points=value.points)


def _ramsch_lines(found: HandAnalysis, start: dict[str, Value], every: bool) -> list[str]:
    """A Ramsch as text: each player's value from the start, the mistakes (every card with
    `every`), and how often each player erred."""
    values = []
    for index, (player, value) in enumerate(start.items()):
        if index:
            values.append(_("{player} of {value}").format(player=player, value=_a_ramsch(value)))
        else:
            values.append(
                _("{player} could make sure of {value}").format(
                    player=player, value=_a_ramsch(value)
                )
            )
    lines = [
        _("A Ramsch, each player for themself, with every card open against the other three:"),
        "; ".join(values) + ".",
    ]
    for verdict in found.cards:
        if verdict.mistake or every:
            lines.append(_ramsch_card_line(verdict))
    if not found.mistakes:
        lines.append(_("No card changed what its player could make sure of."))
    lines.append(_counts(found))
    return lines


def _ramsch_card_line(verdict: CardVerdict) -> str:
    where = _("Trick {trick}: {player}'s {card}").format(
        trick=verdict.trick, player=verdict.player, card=card_name(verdict.card)
    )
    before, after = verdict.before, verdict.after
    if not verdict.mistake:
        return _("{where} kept {outcome}{points}").format(
            where=where, outcome=_the_ramsch(after), points=""
        )
    if before.outcome == "points":
        return _(
            "{where} let {player} take {after} where {least} could be made sure of; "
            "{better} kept {least}"
        ).format(
            where=where,
            player=verdict.player,
            after=_a_ramsch(after),
            least=before.points,
            better=_either(verdict.better),
        )
    return _("{where} lost {lost} (now {after}); {better} kept {lost}").format(
        where=where,
        lost=_the_ramsch(before),
        after=_a_ramsch(after),
        better=_either(verdict.better),
    )


def _card_line(verdict: CardVerdict, side: str) -> str:
    where = _("Trick {trick}: {player}'s {card}").format(
        trick=verdict.trick, player=verdict.player, card=card_name(verdict.card)
    )
    before, after = verdict.before.outcome, verdict.after.outcome
    points = ""
    if verdict.after.points is not None:
        points = _(" ({points} card points)").format(points=verdict.after.points)
    if not verdict.mistake:
        return _("{where} kept {outcome}{points}").format(
            where=where, outcome=_outcome(THE_OUTCOME[after]), points=points
        )
    return _(
        "{where} turned {before} into {after}{points} for {side}; {better} kept {kept}"
    ).format(
        where=where,
        before=_outcome(A_OUTCOME[before]),
        after=_outcome(A_OUTCOME[after]),
        points=points,
        side=side,
        better=_either(verdict.better),
        kept=_outcome(THE_OUTCOME[before]),
    )


def as_data(found: HandAnalysis, file: str) -> dict[str, object]:
    """The analysis as the JSON output's keys name it (a Ramsch: its `game`, no declarers,
    and each player's value by name as `start`)."""
    head: dict[str, object] = {"file": file}
    if found.ramsch is not None:
        head["game"] = "ramsch"
        start: object = {player: value.as_dict() for player, value in found.ramsch.items()}
    else:
        assert found.start is not None
        start = found.start.as_dict()
    return {
        **head,
        "declarers": list(found.declarers),
        "start": start,
        "cards": [
            {
                "trick": v.trick,
                "player": v.player,
                "card": str(v.card),
                "before": v.before.as_dict(),
                "after": v.after.as_dict(),
                "mistake": v.mistake,
                "better": [str(c) for c in v.better],
            }
            for v in found.cards
        ],
        "mistakes": [
            {"trick": v.trick, "player": v.player, "card": str(v.card)} for v in found.mistakes
        ],
    }
