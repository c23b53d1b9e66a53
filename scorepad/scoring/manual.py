"""A hand the table scores itself (`hand --scores`): each player's game points as given, for a
hand the rules table cannot express. No doubling applies: the table counts it in."""

from ..errors import HandError
from ..i18n import gettext as _
from ..names import Role
from ..rules import MAX_AMOUNT, Rules
from .records import ManualHand
from .result import Outcome, Score
from .seating import find_player, seat
from .words import explanation


def score_manual(rules: Rules, hand: ManualHand, explain: bool = False) -> Score:
    """The game points the table gave: each player dealt in named once, whole numbers, adding
    up to 0 under a zero-sum settlement. A HandError says what does not fit."""
    seating = seat(rules, hand.players, hand.dealer, hand.out)
    given = hand.scores or {}
    if not given:
        raise HandError(_("⟨scores⟩: give each player's game points"))
    found: dict[str, int] = {}
    for name, points in given.items():
        player = find_player(name, seating.players, "⟨scores⟩")
        if player in found:
            raise HandError(_("⟨scores⟩: {player} is named twice").format(player=player))
        if player in seating.sitting_out:
            raise HandError(
                _("⟨scores⟩ {player}: {player} sits out this hand").format(player=player)
            )
        if abs(points) > MAX_AMOUNT:
            raise HandError(
                _("⟨scores⟩ {player}={points}: at most {most:,} either way").format(
                    player=player, points=points, most=MAX_AMOUNT
                )
            )
        found[player] = points
    missing = [p for p in seating.order if p not in found]
    if missing:
        raise HandError(
            _("⟨scores⟩: name every player dealt in once; missing: {players}").format(
                players=", ".join(missing)
            )
        )
    total = sum(found.values())
    if rules.zero_sum and total:
        raise HandError(
            _(
                "⟨scores⟩: the game points add up to {total:+d}; under {name} rules they add "
                "up to 0"
            ).format(total=total, name=rules.name)
        )
    deltas = {p: found[p] for p in hand.players if p in found}
    roles = {p: Role.SITS_OUT if p in seating.sitting_out else Role.SCORED for p in hand.players}
    lines: list[str] = []
    if explain:
        shown = ", ".join(f"{p} {v:+d}" if v else f"{p} 0" for p, v in deltas.items())
        lines = [
            _("Scored by the table: {shown}.").format(shown=shown),
            _("The hand sums to {sum}.").format(sum=total),
        ]
    return Score(
        Outcome.MANUAL,
        0,
        deltas,
        roles,
        explanation(lines) if explain else (),
        rules.zero_sum,
        sitting_out=seating.sitting_out,
    )
