"""The pot (Sheepshead pots; the Bavarian Stock): what a hand passed into it pays, and what the
next hand with a picker takes out of it or pays into it.

Under `all_pass = pot` a hand that everyone passes is thrown in and each player dealt in pays
`pot_ante` (0: the base) into the pot (`ante_score`). The next hand with a picker (a declarer)
plays for the whole pot (`played_for_pot`): a win takes it for the picker's side, a loss pays
into it as much as it holds (the pot doubles), up to `pot_max` when that is set (the pot then
holds at most the cap: a loss pays only what fills it to the cap). The side shares what it takes
or pays as `pot_split` says: `as-hand`, in proportion to what each member gets from the hand
itself (picker 2/3 and partner 1/3 in a five-handed hand; halves in a Schafkopf partner game;
the declarer alone in a solo), or `equal`; in whole game points, what does not divide to the
picker. Leasters, Ramsch, schwanzer, doublers and penalties leave the pot alone.

Pure: the pot itself is the ledger's state (`ledger.night`); a `Score` says what its hand put
into the pot (`Score.pot`: negative, what it took out), so the players' totals and the pot
always sum to zero.
"""

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

from .errors import worded
from .i18n import gettext as _
from .names import Role
from .rules import Rules
from .scoring import Outcome, Score, same_name, seat


def ante(rules: Rules) -> int:
    """What each player pays into the pot when everyone passes (pot_ante; 0: the base)."""
    return rules.pot_ante or rules.base


def ante_score(
    rules: Rules, players: Sequence[str], dealer: str | None, out: Sequence[str] = ()
) -> Score:
    """The score of a hand everyone passed under all_pass = pot: each player dealt in pays the
    ante into the pot (a player sitting out pays nothing)."""
    seating = seat(rules, players, dealer, out)
    each = ante(rules)
    paid = each * seating.size
    deltas = {p: -each for p in seating.players if p not in seating.sitting_out}
    roles = {p: Role.SITS_OUT if p in seating.sitting_out else Role.PASSED for p in seating.players}
    why = "pot_ante" if rules.pot_ante else _("the base: pot_ante = 0")
    lines = [
        _(
            "Everyone passed (all_pass = pot): each of the {size} players pays {each} into the "
            "pot ({why}) = {paid}."
        ).format(size=seating.size, each=each, why=why, paid=paid)
    ]
    if seating.sitting_out:
        lines.append(
            _("Sitting out: {players} (0 points).").format(players=", ".join(seating.sitting_out))
        )
    lines.append(
        (
            _("The pot takes the {paid}; the next hand with a declarer plays for the whole pot.")
            if rules.is_schafkopf
            else _("The pot takes the {paid}; the next hand with a picker plays for the whole pot.")
        ).format(paid=paid)
    )
    return Score(
        Outcome.POT,
        each,
        MappingProxyType(deltas),
        MappingProxyType(roles),
        tuple(worded(line) for line in lines),
        rules.zero_sum,
        sitting_out=seating.sitting_out,
        pot=paid,
    )


def put_in(result: Score | None) -> int:
    """What a hand of this result put into the pot (negative: took out; 0 for none)."""
    return 0 if result is None else result.pot


def plays_for_pot(pot: int, result: Score) -> bool:
    """Whether a hand of this result plays for a pot holding `pot`: a hand with a picker that
    was won or lost (a 60-60 thrown in is not; a leaster, a Ramsch, a schwanzer, a penalty
    neither)."""
    return pot > 0 and result.outcome in (Outcome.WIN, Outcome.LOSS)


def played_for_pot(
    rules: Rules, result: Score, picker: str, partners: Sequence[str], pot: int
) -> Score:
    """The score of a hand with a picker played for a pot holding `pot` (`plays_for_pot`): the
    hand's own points, and each member of the picker's side's share of the pot, won or paid in;
    `Score.pot` says what it put into the pot (negative: what it took). A score explained
    (`scoring.score(..., explain=True)`) is explained with the pot too."""
    won = result.outcome is Outcome.WIN
    # a win takes the whole pot; a loss pays as much into it, up to pot_max where it is set
    whole = won or not rules.pot_max
    amount = pot if whole else max(0, min(pot, rules.pot_max - pot))
    side = (picker, *(p for p in partners if p != picker))
    shares = pot_shares(rules, result.deltas, side, amount)
    sign = 1 if won else -1
    deltas = {p: v + sign * shares.get(p, 0) for p, v in result.deltas.items()}
    explanation = result.explanation
    if explanation:
        lines = _pot_lines(rules, result, deltas, side, shares, pot, amount)
        explanation += tuple(worded(line) for line in lines)
    return result._replace(
        deltas=MappingProxyType(deltas), explanation=explanation, pot=-sign * amount
    )


def _pot_lines(
    rules: Rules,
    result: Score,
    deltas: Mapping[str, int],
    side: Sequence[str],
    shares: Mapping[str, int],
    pot: int,
    amount: int,
) -> list[str]:
    """What the pot did with a hand played for it (`played_for_pot`), line by line."""
    won = result.outcome is Outcome.WIN
    side_words = _("the declarer's side") if rules.is_schafkopf else _("the picker's side")
    if won:
        what = _("{side} takes it").format(side=side_words)
    elif amount == pot:
        what = _("{side} pays as much into it (the pot doubles, to {doubled})").format(
            side=side_words, doubled=2 * pot
        )
    elif amount:
        what = _("{side} pays {amount} into it, up to the cap of {cap} (pot_max)").format(
            side=side_words, amount=amount, cap=rules.pot_max
        )
    else:
        what = _("it is at its cap of {cap} (pot_max): {side} pays nothing into it").format(
            cap=rules.pot_max, side=side_words
        )
    sign = 1 if won else -1
    lines = [_("The pot holds {pot}: {what}.").format(pot=pot, what=what)]
    if amount and len(side) > 1:
        how = (
            _("equally (pot_split = equal)")
            if rules.pot_split == "equal"
            else _("as the hand pays them (pot_split = as-hand)")
        )
        rest = ""
        if not _divides(rules, result.deltas, side, amount):
            rest = (
                _(", the rest to the declarer")
                if rules.is_schafkopf
                else _(", the rest to the picker")
            )
        each = ", ".join(f"{p} {_signed(sign * shares[p])}" for p in side)
        lines.append(
            _("The side shares the {amount} {how}, in whole points{rest}: {each}.").format(
                amount=amount, how=how, rest=rest, each=each
            )
        )
    elif amount:
        alone = (
            _("Declarer {player} alone: {points}.")
            if rules.is_schafkopf
            else _("Picker {player} alone: {points}.")
        )
        lines.append(alone.format(player=side[0], points=_signed(sign * amount)))
    after = pot - sign * amount
    lines.append(
        _("With the pot the hand sums to {sum}; the pot holds {after} after it.").format(
            sum=_signed(sum(deltas.values())), after=after
        )
    )
    return lines


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def pot_shares(
    rules: Rules, deltas: Mapping[str, int], side: Sequence[str], amount: int
) -> dict[str, int]:
    """How the picker's side (`side`, the picker first) shares `amount` of the pot: as the hand
    pays them (each member's points in the hand, `deltas`) or equally (pot_split), in whole
    points, what does not divide to the picker."""
    weights = _weights(rules, deltas, side)
    total = sum(weights.values())
    picker = side[0]
    if not total:
        return {picker: amount, **dict.fromkeys(side[1:], 0)}
    shares = {p: amount * weights[p] // total for p in side[1:]}
    return {picker: amount - sum(shares.values()), **shares}


def _weights(rules: Rules, deltas: Mapping[str, int], side: Sequence[str]) -> dict[str, int]:
    if rules.pot_split == "equal":
        return dict.fromkeys(side, 1)
    return {p: abs(deltas.get(p, 0)) for p in side}


def _divides(rules: Rules, deltas: Mapping[str, int], side: Sequence[str], amount: int) -> bool:
    weights = _weights(rules, deltas, side)
    total = sum(weights.values())
    return not total or all(amount * w % total == 0 for w in weights.values())


POT_PARTY = "the pot"
"""What the remainder of a pot that does not divide stands under among the balances at
settlement (as a player would: it is owed what the players leave in it)."""


class PotPayout(NamedTuple):
    """What becomes of the pot when the night is settled."""

    held: int  # what the pot held
    each: int  # paid to each player seated at the end
    paid_to: tuple[str, ...]
    remainder: int  # what does not divide: it stays in the pot
    party: str  # the name the remainder stands under among the balances (`POT_PARTY`)


def paid_out(
    totals: Mapping[str, int], pot: int, seated: Sequence[str]
) -> tuple[dict[str, int], PotPayout]:
    """Each player's points once what is left in the pot is paid out in equal shares to the
    players seated at the end, and what became of the pot: what does not divide stays in it,
    and stands among the points under `PotPayout.party` (so they still sum to zero)."""
    each, remainder = divmod(pot, len(seated)) if seated and pot > 0 else (0, pot)
    points = {p: v + (each if p in seated else 0) for p, v in totals.items()}
    party = POT_PARTY
    while any(same_name(p) == same_name(party) for p in points):  # (a player of that name)
        party = f"({party})"
    if remainder:
        points[party] = remainder
    return points, PotPayout(pot, each, tuple(seated) if each else (), remainder, party)
