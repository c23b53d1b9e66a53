"""What the hands everyone plays alone share (a leaster, a schwanzer, a Ramsch): everyone's
part, one value for each player, losers paying each other player, and the score."""

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ..errors import HandError
from ..i18n import gettext as _
from ..names import Role
from ..rules import Rules
from .result import Outcome, Score
from .seating import Seating, active, in_seat_order
from .words import explanation, listed


def alone_roles(
    seating: Seating, marked: Iterable[str], marked_role: str, other_role: str
) -> dict[str, str]:
    """Everyone's part when everyone plays alone: `marked_role` for the winners (or losers)."""
    marked = set(marked)
    return {
        p: (
            Role.SITS_OUT
            if p in seating.sitting_out
            else marked_role
            if p in marked
            else other_role
        )
        for p in seating.players
    }


def alone_score(
    outcome: Outcome,
    rules: Rules,
    seating: Seating,
    stake: int,
    deltas: Mapping[str, int],
    roles: Mapping[str, str],
    lines: list[str] | None,
    winners: Sequence[str] = (),
    losers: Sequence[str] = (),
) -> Score:
    """The score of a hand everyone plays alone, its winners or losers marked, and its
    explanation (`lines`; None: none was asked for)."""
    return Score(
        outcome,
        stake,
        MappingProxyType(in_seat_order(seating, deltas)),
        MappingProxyType(dict(roles)),
        explanation(lines) if lines is not None else (),
        rules.zero_sum,
        None,
        tuple(winners),
        sitting_out=seating.sitting_out,
        losers=tuple(losers),
    )


def losers_pay(
    rules: Rules,
    order: Sequence[str],
    losers: Sequence[str],
    stake: int,
    lines: list[str] | None,
) -> tuple[dict[str, int], list[str]]:
    """Each loser pays `stake` to each other player (in a race the losers move down it, and a
    line says so); returns each player's points and the others."""
    deltas = dict.fromkeys(order, 0)
    others = [p for p in order if p not in losers]
    if losers and not rules.zero_sum:
        for p in losers:
            deltas[p] = -stake
        if lines is not None:
            lines.append(
                _("Race to {target}: {names} move down {stake}; nobody else moves.").format(
                    target=rules.target, names=listed(losers), stake=stake
                )
            )
    elif losers:
        for p in losers:
            deltas[p] = -stake * len(others)
        for p in others:
            deltas[p] = stake * len(losers)
    return deltas, others


def per_player(
    seating: Seating,
    given: Mapping[str, int],
    option: str,
    low: int,
    high: int,
    total: int | None,
) -> dict[str, int]:
    """One value for every player in the hand, each from `low` to `high`, adding up to `total`
    (None: any sum)."""
    values: dict[str, int] = {}
    for name, value in given.items():
        player = active(seating, name, option)
        if player in values:
            raise HandError(
                _("{option}: {player} is given twice").format(option=option, player=player)
            )
        if not low <= value <= high:
            raise HandError(
                _("{option}: {player}={value} is outside {low} to {high}").format(
                    option=option, player=player, value=value, low=low, high=high
                )
            )
        values[player] = value
    missing = [p for p in seating.order if p not in values]
    if missing:
        raise HandError(
            _("{option}: give every player in the hand; missing {names}").format(
                option=option, names=listed(missing)
            )
        )
    if total is not None and sum(values.values()) != total:
        raise HandError(
            _("{option}: the values add up to {sum}, not {total}").format(
                option=option, sum=sum(values.values()), total=total
            )
        )
    return values


def highest_trump_loses(
    rule: str, key: str, seating: Seating, hand: Any, tied: Sequence[str]
) -> tuple[str, ...]:
    """The losers of a schwanzer or a Ramsch once a tie for the most is settled by the highest
    trump (`rule`, the setting `key`, is "highest-trump"): the tied player hand ⟨highest_trump⟩
    names, alone. Under any other rule, or without a tie, `tied` as it is (and ⟨highest_trump⟩
    is refused)."""
    named = hand.highest_trump
    if rule != "highest-trump":
        if named is not None:
            raise HandError(
                _("⟨highest_trump⟩: these rules settle no tie by it ({key} = {rule})").format(
                    key=key, rule=rule
                )
            )
        return tuple(tied)
    if named is None:
        if len(tied) > 1:
            raise HandError(
                _(
                    "{tied} tie for the most: name the one holding the highest trump with "
                    "⟨highest_trump⟩ NAME ({key} = highest-trump)"
                ).format(tied=", ".join(tied), key=key)
            )
        return tuple(tied)
    player = active(seating, named, "⟨highest_trump⟩")
    if len(tied) < 2:
        raise HandError(
            _("⟨highest_trump⟩ {player}: there is no tie for the most to settle").format(
                player=player
            )
        )
    if player not in tied:
        raise HandError(
            _("⟨highest_trump⟩ {player}: {player} is not among the tied, {tied}").format(
                player=player, tied=", ".join(tied)
            )
        )
    return (player,)
