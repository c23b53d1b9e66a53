"""A schwanzer: everyone passed, and whoever was dealt the most schwanzer points loses."""

from collections.abc import Mapping

from ..errors import HandError
from ..i18n import gettext as _
from ..i18n import joined
from ..names import Role
from ..rules import Rules
from .alone import alone_roles, alone_score, highest_trump_loses, losers_pay, per_player
from .doubling import (
    bock_factors,
    doubler_factors,
    doubling_text,
    last_hand_factors,
    multiplied,
)
from .records import SchwanzerHand
from .result import Outcome, Score
from .seating import Seating, active, seat
from .words import listed

SCHWANZER_POINTS = 4 * 3 + 4 * 2 + 6 * 1  # queens 3, jacks 2, the six other trumps 1


def score_schwanzer(rules: Rules, hand: SchwanzerHand, explain: bool) -> Score:
    """A schwanzer: the most schwanzer points as dealt (or the losers named) pays each other
    player the base; why, line by line, where `explain` asks for it."""
    if rules.all_pass != "schwanzer":
        raise HandError(
            _(
                "⟨schwanzer⟩: {name} rules have all_pass = {all_pass}; play schwanzer "
                "with ⟨set⟩ all_pass=schwanzer (in a session: scorepad set "
                "all_pass=schwanzer)"
            ).format(name=rules.name, all_pass=rules.all_pass)
        )
    seating = seat(rules, hand.players, hand.dealer, hand.out)
    if hand.schwanzer_points is None and not hand.losers:
        raise HandError(
            _("a schwanzer needs ⟨schwanzer_points⟩ A=N,B=N,... (every player) or ⟨losers⟩ NAME")
        )
    named: list[str] = []
    for name in hand.losers:
        loser = active(seating, name, "⟨losers⟩")
        if loser in named:
            raise HandError(_("⟨losers⟩ {loser} is given twice").format(loser=loser))
        named.append(loser)
    points = None
    if hand.schwanzer_points is not None:
        most = min(seating.deal.cards * 3, SCHWANZER_POINTS)  # a queen is 3 at most
        points = per_player(seating, hand.schwanzer_points, "⟨schwanzer_points⟩", 0, most, None)
        if sum(points.values()) > SCHWANZER_POINTS:
            raise HandError(
                _(
                    "⟨schwanzer_points⟩: the values add up to {sum}, but the pack holds "
                    "{schwanzer_points} schwanzer points"
                ).format(sum=sum(points.values()), schwanzer_points=SCHWANZER_POINTS)
            )
        high = max(points.values())
        losers = tuple(p for p in seating.players if p in points and points[p] == high)
        if named and set(named) != set(losers):
            raise HandError(
                _("⟨losers⟩ {named}: the most schwanzer points ({high}) were {names}'s").format(
                    named=", ".join(named), high=high, names=listed(losers)
                )
            )
    else:
        losers = tuple(p for p in seating.players if p in named)
    tied = losers
    losers = highest_trump_loses(rules.schwanzer_tie, "schwanzer_tie", seating, hand, losers)
    lines = _schwanzer_lines(seating, points, tied) if explain else None
    if lines is not None and losers != tied:
        lines[-1] = _(
            "{tied} tie for the most: {loser} holds the highest trump of them and loses alone "
            "(schwanzer_tie = highest-trump)."
        ).format(tied=joined(tied), loser=losers[0])
    if len(losers) == len(seating.order):  # (everyone ties: nobody pays)
        losers = ()
    factors = doubler_factors(hand) + last_hand_factors(rules, hand) + bock_factors(hand)
    stake = rules.base * multiplied(rules, factors)
    if lines is not None:
        lines.append(
            _("Stake: base {base}{factor_text} = {stake}.").format(
                base=rules.base, factor_text=doubling_text(rules, factors), stake=stake
            )
        )
    deltas, winners = losers_pay(rules, seating.order, losers, stake, lines)
    if lines is not None and losers and rules.zero_sum:
        lines.append(
            _(
                "Each loser pays {stake} to each of {names}: {names2} {value} each, the "
                "others +{stake2} each."
            ).format(
                stake=stake,
                names=listed(winners),
                names2=listed(losers),
                value=-stake * len(winners),
                stake2=stake * len(losers),
            )
        )
        lines.append(_("The hand sums to {sum}.").format(sum=sum(deltas.values())))
    roles = alone_roles(seating, losers, Role.SCHWANZER_LOSER, Role.SCHWANZER)
    return alone_score(
        Outcome.SCHWANZER, rules, seating, stake, deltas, roles, lines, losers=losers
    )


def _schwanzer_lines(
    seating: Seating, points: Mapping[str, int] | None, losers: tuple[str, ...]
) -> list[str]:
    """A schwanzer's explanation up to its stake: the rule, who sits out, everyone's schwanzer
    points (where given) and who loses."""
    lines = [
        _(
            "Schwanzer: everyone passed; each counts the schwanzer points they were "
            "dealt (a queen 3, a jack 2, any other trump 1); the most loses "
            "({size}-handed)."
        ).format(size=seating.size)
    ]
    if seating.sitting_out:
        lines.append(
            _("Sitting out: {names} (0 points).").format(names=listed(seating.sitting_out))
        )
    if points is not None:
        lines.append(
            _("Schwanzer points: {value}.").format(
                value=", ".join(f"{p} {points[p]}" for p in seating.order)
            )
        )
    if len(losers) == len(seating.order):
        lines.append(_("Everyone ties: nobody pays."))
    elif len(losers) == 1:
        lines.append(_("{losers} has the most and loses.").format(losers=losers[0]))
    else:
        lines.append(_("{losers} tie for the most: each loses.").format(losers=joined(losers)))
    return lines
