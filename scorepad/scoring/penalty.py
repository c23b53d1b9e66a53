"""A penalty (a misplay, a renege, a look at the blind): not a hand, a payment."""

from types import MappingProxyType
from typing import NamedTuple

from ..errors import HandError
from ..i18n import decimal_text
from ..i18n import gettext as _
from ..names import Role
from ..rules import MAX_AMOUNT, Rules
from .result import Outcome, Score
from .seating import find_player
from .words import explanation, listed


class Penalty(NamedTuple):
    """A penalty (a misplay, a renege, a look at the blind): not a hand, a payment."""

    players: tuple[str, ...]  # everyone seated
    offender: str
    points: int  # paid to each other seated player (or to `to` alone)
    to: str | None = None


def score_penalty(rules: Rules, penalty: Penalty) -> Score:
    """What a penalty moves: the offender pays `points` to each other seated player (or to one
    player); a race moves the offender down instead."""
    offender = find_player(penalty.offender, penalty.players, "penalty")
    to = find_player(penalty.to, penalty.players, "⟨paid_to⟩") if penalty.to else None
    if to == offender:
        raise HandError(_("⟨paid_to⟩ {to}: {to} is the one who pays").format(to=to))
    if not 1 <= penalty.points <= MAX_AMOUNT:
        raise HandError(
            _("⟨points⟩ {points}: a penalty is 1 to {max_amount} points").format(
                points=penalty.points, max_amount=decimal_text(f"{MAX_AMOUNT:,}")
            )
        )
    n = penalty.points
    paid = [to] if to else [p for p in penalty.players if p != offender]
    deltas = dict.fromkeys(penalty.players, 0)
    if rules.zero_sum:
        for p in paid:
            deltas[p] = n
        deltas[offender] = -n * len(paid)
        lines = [
            _("Penalty: {offender} pays {n} to ").format(offender=offender, n=n)
            + (to if to else _("each other seated player ({names})").format(names=listed(paid)))
            + f" = {n * len(paid)}.",
            _("The penalty sums to {sum}.").format(sum=sum(deltas.values())),
        ]
    else:
        deltas[offender] = -n
        lines = [
            _("Penalty: race to {target}: {offender} moves down {n}.").format(
                target=rules.target, offender=offender, n=n
            )
        ]
    roles = {p: Role.OFFENDER if p == offender else Role.PAID if p in paid else "" for p in deltas}
    return Score(
        Outcome.PENALTY,
        n,
        MappingProxyType(deltas),
        MappingProxyType(roles),
        explanation(lines),
        rules.zero_sum,
        None,
        losers=(offender,),
    )
