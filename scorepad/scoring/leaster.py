"""A leaster: everyone passed and plays alone. How it is decided and paid is the table's:

- by default the fewest card points wins, and each other player pays the winner
  leaster_payout;
- under leaster_places the fewest card points takes the first place's amount, the next fewest
  the second's, ..., and the players not placed pay them in equal shares;
- under leaster_scoring = most-loses the most card points pays each other player
  leaster_payout.

One routine (`score_leaster`) scores all three: the players are ranked by their card points
(fewest first, or most first), and a tie where it decides who is paid follows leaster_tie
(name: an error asking for the winner; none: nobody is paid; share: the tied players share).
"""

from collections.abc import Mapping, Sequence

from ..errors import HandError
from ..i18n import N_, joined
from ..i18n import gettext as _
from ..names import ACE_POINTS, TOTAL_POINTS, Role
from ..rules import Rules, format_value
from .alone import alone_roles, alone_score, losers_pay, per_player
from .doubling import (
    bock_factors,
    doubler_factors,
    doubling_text,
    last_hand_factors,
    multiplied,
)
from .records import LeasterHand
from .result import Outcome, Score
from .seating import Seating, active, seat
from .words import listed, plural


def score_leaster(rules: Rules, hand: LeasterHand, explain: bool) -> Score:
    """A leaster, as the table's settings decide and pay it (see the module); why, line by
    line, where `explain` asks for it."""
    if rules.all_pass != "leaster":
        raise HandError(
            _(
                "⟨leaster⟩: {name} rules have all_pass = {all_pass}; play leasters with "
                "⟨set⟩ all_pass=leaster (in a session: scorepad set all_pass=leaster)"
            ).format(name=rules.name, all_pass=rules.all_pass)
        )
    seating = seat(rules, hand.players, hand.dealer, hand.out)
    most_loses = rules.leaster_scoring == "most-loses"
    _check_given(hand, most_loses)
    points, tricks = _leaster_counts(rules, seating, hand)
    winner = active(seating, hand.winner, "⟨winner⟩") if hand.winner else None
    if winner and rules.must_take_trick and tricks is not None and tricks[winner] == 0:
        raise HandError(
            _(
                "⟨winner⟩ {winner}: {winner} took no trick, and these rules say a "
                "leaster winner must take one (must_take_trick)"
            ).format(winner=winner)
        )
    lines = _intro(seating, most_loses) if explain else None
    ranked = _ranked(rules, seating, points, tricks, winner, most_loses, lines)
    if rules.leaster_places:
        return _paid_to_places(rules, seating, hand, ranked, points, winner, lines)
    return _paid_by_each(rules, seating, hand, ranked, points, winner, most_loses, lines)


def _intro(seating: Seating, most_loses: bool) -> list[str]:
    """The first lines of a leaster's explanation: how it is won, the deal, who sits out."""
    lines = [
        (
            _(
                "Leaster: everyone plays alone; the most card points loses "
                "(leaster_scoring = most-loses; {size}-handed, {cards} tricks)."
            )
            if most_loses
            else _(
                "Leaster: everyone plays alone; fewest card points wins ({size}-handed, "
                "{cards} tricks)."
            )
        ).format(size=seating.size, cards=seating.deal.cards)
    ]
    if seating.sitting_out:
        lines.append(
            _("Sitting out: {names} (0 points).").format(names=listed(seating.sitting_out))
        )
    return lines


def _check_given(hand: LeasterHand, most_loses: bool) -> None:
    """What decides the leaster is given: the winner or everyone's card points (under
    most-loses, the card points, and no winner)."""
    if not most_loses:
        if not hand.winner and hand.leaster_points is None:
            raise HandError(_("a leaster needs ⟨winner⟩ NAME or ⟨leaster_points⟩ A=N,B=N,..."))
        return
    if hand.winner:
        raise HandError(
            _(
                "⟨winner⟩ {winner}: under leaster_scoring = most-loses the most card "
                "points loses; give everyone's ⟨leaster_points⟩ instead"
            ).format(winner=hand.winner)
        )
    if hand.leaster_points is None:
        raise HandError(
            _(
                "a leaster under leaster_scoring = most-loses needs everyone's "
                "⟨leaster_points⟩ A=N,B=N,... (the most loses)"
            )
        )


def _ranked(
    rules: Rules,
    seating: Seating,
    points: Mapping[str, int] | None,
    tricks: Mapping[str, int] | None,
    winner: str | None,
    most_loses: bool,
    lines: list[str] | None,
) -> list[list[str]]:
    """The players who may take a place, in groups of equal card points: the fewest first (the
    most first under most-loses), each group in seat order. Without card points, the winner
    named alone. A named winner must be among the first. (`lines`: the explanation so far, or
    None where none is asked for.)"""
    if points is None:
        assert winner is not None
        if lines is not None:
            lines.append(_("{winner} won the leaster (named with ⟨winner⟩).").format(winner=winner))
        return [[winner]]
    # (under most-loses everyone is ranked: must_take_trick is about winning)
    eligible = (
        list(seating.order)
        if most_loses
        else _leaster_eligible(rules, seating, points, tricks, winner, lines)
    )
    if lines is not None:
        lines += _points_lines(seating, points)
    groups: list[list[str]] = []
    for player in sorted(eligible, key=lambda p: -points[p] if most_loses else points[p]):
        if groups and points[groups[-1][0]] == points[player]:
            groups[-1].append(player)
        else:
            groups.append([player])
    if winner is not None and winner not in groups[0]:
        raise HandError(
            _(
                "⟨winner⟩ {winner}: {winner} took {points} points, but {names} took fewer ({low})"
            ).format(
                winner=winner,
                points=points[winner],
                names=listed(groups[0]),
                low=points[groups[0][0]],
            )
        )
    return groups


def _points_lines(seating: Seating, points: Mapping[str, int]) -> list[str]:
    """Everyone's card points, and those of a blind set aside."""
    lines = [
        _("Card points: {value}.").format(
            value=", ".join(f"{p} {points[p]}" for p in seating.order)
        )
    ]
    if sum(points.values()) < TOTAL_POINTS:
        lines.append(
            _(
                "The blind's {total_points} card points count for nobody (leaster_blind "
                "= set-aside)."
            ).format(total_points=TOTAL_POINTS - sum(points.values()))
        )
    return lines


# What a tie for the place that pays says, by leaster_tie (under most-loses, and not).
_TIES = {
    True: {
        "name": N_(
            "{both} tie for the most with {high}: a leaster's loser cannot be named, "
            "so a table that plays leaster_scoring = most-loses settles a tie with "
            "leaster_tie = none or share (leaster_tie = name)"
        ),
        "none": N_("{both} tie for the most with {high}: nobody pays (leaster_tie = none)."),
        "share": N_(
            "{both} tie for the most with {high}: each pays every player outside the "
            "tie (leaster_tie = share)."
        ),
    },
    False: {
        "name": N_(
            "{both} tie for fewest with {low}: name the winner with ⟨winner⟩ (leaster_tie = name)"
        ),
        "none": N_("{both} tie for fewest with {low}: nobody is paid (leaster_tie = none)."),
        "share": N_(
            "{both} tie for fewest with {low}: each collects from every player "
            "outside the tie (leaster_tie = share)."
        ),
    },
}


def _paid_by_each(
    rules: Rules,
    seating: Seating,
    hand: LeasterHand,
    ranked: list[list[str]],
    points: Mapping[str, int] | None,
    winner: str | None,
    most_loses: bool,
    lines: list[str] | None,
) -> Score:
    """A leaster whose first place is paid by each other player (the fewest card points), or
    pays each other player (under most-loses, the most)."""
    first = tuple(ranked[0])
    value = points[first[0]] if points is not None else 0
    said = ""  # (what the explanation says of the first place, its fields filled below)
    if points is None:
        marked = first
    elif winner is not None:
        marked = (winner,)
        said = _("{winner} won the leaster with {points} card points") + (
            " (named with ⟨winner⟩)." if len(first) > 1 else "."
        )
    elif most_loses and len(first) == seating.size:
        marked = ()
        said = _("Everyone took {high}: nobody pays.")
    elif len(first) == 1:
        marked = first
        if most_loses:
            said = _("{tied} took the most, {high}, and loses.")
        else:
            said = _("{tied} took the fewest, {low}, and wins.")
    elif rules.leaster_tie == "name":
        raise HandError(
            _(_TIES[most_loses]["name"]).format(both=joined(first), high=value, low=value)
        )
    else:
        marked = first if rules.leaster_tie == "share" else ()
        said = _(_TIES[most_loses][rules.leaster_tie])
    factors = doubler_factors(hand) + last_hand_factors(rules, hand) + bock_factors(hand)
    stake = rules.leaster_payout * multiplied(rules, factors)
    if lines is not None:
        if said:
            fields = {"tied": first[0], "both": joined(first), "high": value, "low": value}
            lines.append(said.format(winner=winner, points=value, **fields))
        lines.append(
            _("Payout: {leaster_payout}{factor_text} = {stake}.").format(
                leaster_payout=rules.leaster_payout,
                factor_text=doubling_text(rules, factors),
                stake=stake,
            )
            if factors
            else _("Payout: {stake}.").format(stake=stake)
        )
    if most_loses:
        deltas = _losers_pay_each(rules, seating, marked, stake, lines)
        roles = alone_roles(seating, marked, Role.LEASTER_LOSER, Role.LEASTER)
        return alone_score(
            Outcome.LEASTER, rules, seating, stake, deltas, roles, lines, losers=marked
        )
    deltas = _settle_leaster(rules, seating, marked, stake, lines)
    roles = alone_roles(seating, marked, Role.LEASTER_WINNER, Role.LEASTER)
    return alone_score(Outcome.LEASTER, rules, seating, stake, deltas, roles, lines, marked)


def _losers_pay_each(
    rules: Rules,
    seating: Seating,
    losers: Sequence[str],
    stake: int,
    lines: list[str] | None,
) -> dict[str, int]:
    """Each active player's points when the losers pay `stake` to each other player."""
    deltas, others = losers_pay(rules, seating.order, losers, stake, lines)
    if lines is not None and losers and rules.zero_sum:
        lines.append(
            _("{names} {value} {stake} to each of {names2} = {stake2}.").format(
                names=listed(losers),
                value="pays" if len(losers) == 1 else "each pay",
                stake=stake,
                names2=listed(others),
                stake2=stake * len(others),
            )
        )
        lines.append(_("The hand sums to {sum}.").format(sum=sum(deltas.values())))
    return deltas


_ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th")


def _paid_to_places(
    rules: Rules,
    seating: Seating,
    hand: LeasterHand,
    ranked: list[list[str]],
    points: Mapping[str, int] | None,
    winner: str | None,
    lines: list[str] | None,
) -> Score:
    """A leaster under leaster_places: the fewest card points receives the first amount in all,
    the next fewest the second, ...; the players not placed pay them in equal shares."""
    places = rules.leaster_places
    shown = format_value(places)
    if points is None and len(places) > 1:
        raise HandError(
            _(
                "leaster_places = {shown} pays {len_places} places: give everyone's "
                "⟨leaster_points⟩ (⟨winner⟩ names only the first)"
            ).format(shown=shown, len_places=len(places))
        )
    if points is not None and winner is not None:  # (placed first; the rest among themselves)
        if lines is not None:
            lines.append(_("{winner} is placed first (named with ⟨winner⟩).").format(winner=winner))
        rest = [p for p in ranked[0] if p != winner]
        ranked = [[winner], *([rest] if rest else []), *ranked[1:]]
    paid = _places_paid(rules, ranked, points, lines)
    placed = tuple(p for p in paid if paid[p])
    if lines is not None and placed:
        lines.append(
            _("Places (leaster_places = {shown}): ").format(shown=shown)
            + ", ".join(
                f"{p} receives {paid[p]}" + (" in all" if i == 0 else "")
                for i, p in enumerate(placed)
            )
            + "."
        )
    # (the doublings are checked only where someone is paid, as they always were)
    product = _places_doubled(rules, hand, sum(paid.values()), lines) if placed else 1
    deltas, share = _settle_places(rules, seating, paid, placed, product, lines)
    roles = alone_roles(seating, placed, Role.LEASTER_WINNER, Role.LEASTER)
    return alone_score(Outcome.LEASTER, rules, seating, share, deltas, roles, lines, placed)


def _places_doubled(rules: Rules, hand: LeasterHand, amount: int, lines: list[str] | None) -> int:
    """The leaster's doublings multiplied, with what the places are paid times them."""
    factors = doubler_factors(hand) + last_hand_factors(rules, hand) + bock_factors(hand)
    product = multiplied(rules, factors)
    if lines is not None:
        lines.append(
            f"Paid to the places: {amount}{doubling_text(rules, factors)} = {amount * product}."
            if factors
            else f"Paid to the places: {amount}."
        )
    return product


def _places_paid(
    rules: Rules,
    ranked: list[list[str]],
    points: Mapping[str, int] | None,
    lines: list[str] | None,
) -> dict[str, int]:
    """What each placed player receives in all (before doublings), group by group; a tie that
    leaves a place unsettled follows leaster_tie (none: nobody is paid; share: the tied players
    share what their places pay, where it divides)."""
    places = rules.leaster_places
    paid: dict[str, int] = {}
    at = 0
    for group in ranked:
        if at >= len(places):
            break
        span = [*places[at : at + len(group)], *[0] * max(0, at + len(group) - len(places))]
        if len(set(span)) == 1:
            for p in group:
                paid[p] = span[0]
            at += len(group)
            continue
        assert points is not None
        where = (
            f"{_ORDINALS[at]} place"
            if len(group) == 1
            else "places "
            + ", ".join(_ORDINALS[i] for i in range(at, at + len(group)) if i < len(_ORDINALS))
        )
        tie = _("{both} tie with {points} for {where}").format(
            both=joined(group), points=points[group[0]], where=where
        )
        if rules.leaster_tie == "name":
            hint = (
                "name the winner with ⟨winner⟩"
                if at == 0 and len(set(span[1:])) <= 1
                else "a table that plays leaster_places settles it with leaster_tie = none or share"
            )
            raise HandError(
                _("{tie}, which pay {format_value}: {hint} (leaster_tie = name)").format(
                    tie=tie, format_value=format_value(span), hint=hint
                )
            )
        if rules.leaster_tie == "none":
            if lines is not None:
                lines.append(_("{tie}: nobody is paid (leaster_tie = none).").format(tie=tie))
            return {}
        if sum(span) % len(group):
            raise HandError(
                _(
                    "{tie}, which pay {sum} in all: that does not divide among {len_group} "
                    "(leaster_tie = share)"
                ).format(tie=tie, sum=sum(span), len_group=len(group))
            )
        if lines is not None:
            lines.append(
                _(
                    "{tie}: they share the {sum} those places pay, {sum2} each (leaster_tie "
                    "= share)."
                ).format(tie=tie, sum=sum(span), sum2=sum(span) // len(group))
            )
        for p in group:
            paid[p] = sum(span) // len(group)
        at += len(group)
    return paid


def _settle_places(
    rules: Rules,
    seating: Seating,
    paid: Mapping[str, int],
    placed: tuple[str, ...],
    product: int,
    lines: list[str] | None,
) -> tuple[dict[str, int], int]:
    """Each active player's points under leaster_places, and each payer's share: the placed
    players receive their amounts (doubled), the others pay them in equal shares."""
    deltas = dict.fromkeys(seating.order, 0)
    if not placed:
        return deltas, 0
    for p in placed:
        deltas[p] = paid[p] * product
    if not rules.zero_sum:
        if lines is None:
            return deltas, 0
        lines.append(
            _("Race to {target}: ").format(target=rules.target)
            + ", ".join(
                _("{p} moves up {paid}").format(p=p, paid=paid[p] * product) for p in placed
            )
            + "; nobody else moves."
        )
        return deltas, 0
    shown = format_value(rules.leaster_places)
    payers = [p for p in seating.order if p not in placed]
    total = sum(paid.values()) * product
    if not payers or total % len(payers):
        raise HandError(
            _(
                "leaster_places = {shown}: in a {size}-handed leaster the {plural} not "
                "placed would pay {total} in all, which does not divide into equal "
                "shares (leaster_places needs a head count where it does)"
            ).format(
                shown=shown,
                size=seating.size,
                plural=plural(len(payers), "player"),
                total=total,
            )
        )
    share = total // len(payers)
    for p in payers:
        deltas[p] = -share
    if lines is None:
        return deltas, share
    lines.append(
        _(
            "{names} pay the {total} in equal shares: {share} each (leaster_places = {shown})."
        ).format(names=listed(payers), total=total, share=share, shown=shown)
    )
    lines.append(_("The hand sums to {sum}.").format(sum=sum(deltas.values())))
    return deltas, share


def _leaster_blind(rules: Rules, seating: Seating, hand: LeasterHand) -> int:
    """The card points the players took between them: 120, or 120 less a blind set aside."""
    blind = hand.blind_points
    if rules.leaster_blind != "set-aside":
        if blind is not None:
            raise HandError(
                _(
                    "⟨blind_points⟩: under leaster_blind = {leaster_blind} the blind's "
                    "points go to the winner of the last trick (count them in "
                    "⟨leaster_points⟩)"
                ).format(leaster_blind=rules.leaster_blind)
            )
        return TOTAL_POINTS
    most = seating.deal.blind * ACE_POINTS
    if blind is None:
        if hand.leaster_points is not None:
            raise HandError(
                _(
                    "⟨leaster_points⟩ with leaster_blind = set-aside: give the blind's card "
                    "points too, ⟨blind_points⟩ N (the players' points add up to 120 less "
                    "them)"
                )
            )
        return TOTAL_POINTS
    if not seating.deal.blind:
        raise HandError(
            _("⟨blind_points⟩: a {size}-handed deal has no blind").format(size=seating.size)
        )
    if not 0 <= blind <= most:
        raise HandError(
            _("⟨blind_points⟩ {blind}: a blind of {plural} holds 0 to {most} card points").format(
                blind=blind, plural=plural(seating.deal.blind, "card"), most=most
            )
        )
    return TOTAL_POINTS - blind


def _leaster_counts(
    rules: Rules, seating: Seating, hand: LeasterHand
) -> tuple[dict[str, int] | None, dict[str, int] | None]:
    """Each player's card points and tricks, where given, checked against each other."""
    taken = _leaster_blind(rules, seating, hand)
    points = (
        per_player(seating, hand.leaster_points, "⟨leaster_points⟩", 0, taken, taken)
        if hand.leaster_points is not None
        else None
    )
    tricks = (
        per_player(
            seating,
            hand.leaster_tricks,
            "⟨leaster_tricks⟩",
            0,
            seating.deal.cards,
            seating.deal.cards,
        )
        if hand.leaster_tricks is not None
        else None
    )
    if points and tricks:
        for player in seating.order:
            if tricks[player] == 0 and points[player] > 0:
                raise HandError(
                    _(
                        "⟨leaster_points⟩ {player}={points}: {player} took no trick, so took no "
                        "card points"
                    ).format(player=player, points=points[player])
                )
    return points, tricks


def _leaster_eligible(
    rules: Rules,
    seating: Seating,
    points: Mapping[str, int],
    tricks: Mapping[str, int] | None,
    winner: str | None,
    lines: list[str] | None,
) -> list[str]:
    """The players who may win a leaster: under must_take_trick, those who took a trick."""
    eligible = list(seating.order)
    if rules.must_take_trick:
        if tricks is not None:
            shut_out = [p for p in eligible if tricks[p] == 0]
            eligible = [p for p in eligible if tricks[p] > 0]
            if lines is not None and shut_out:
                lines.append(
                    _("{names} took no trick and cannot win (must_take_trick).").format(
                        names=listed(shut_out)
                    )
                )
        else:
            # Without tricks, a player with points surely took a trick; one with none may have
            # taken a trick of 7s, 8s and 9s, so only a named winner settles it.
            unsure = [p for p in eligible if points[p] == 0 and p != winner]
            if unsure and not winner:
                raise HandError(
                    _(
                        "{names} took 0 points; give ⟨leaster_tricks⟩ (or ⟨winner⟩), since a "
                        "leaster winner must have taken a trick"
                    ).format(names=listed(unsure))
                )
            eligible = [p for p in eligible if points[p] > 0 or p == winner]
    if not eligible:
        raise HandError(_("nobody in this leaster took a trick, so nobody can win it"))
    return eligible


def _settle_leaster(
    rules: Rules,
    seating: Seating,
    winners: tuple[str, ...],
    stake: int,
    lines: list[str] | None,
) -> dict[str, int]:
    """Each active player's points for a leaster, and the lines that explain them."""
    deltas = dict.fromkeys(seating.order, 0)
    others = [p for p in seating.order if p not in winners]
    if not winners:
        return deltas
    if not rules.zero_sum:
        for w in winners:
            deltas[w] = stake
        if lines is None:
            return deltas
        lines.append(
            _("Race to {target}: {names} move up {stake}; nobody else moves.").format(
                target=rules.target, names=listed(winners), stake=stake
            )
        )
        return deltas
    for w in winners:
        deltas[w] = stake * len(others)
    for o in others:
        deltas[o] = -stake * len(winners)
    if lines is None:
        return deltas
    if len(winners) == 1:
        lines.append(
            _("{winners} receives {stake} from each of {names} = {stake2}.").format(
                winners=winners[0], stake=stake, names=listed(others), stake2=stake * len(others)
            )
        )
    else:
        lines.append(
            _("Each of {names} receives {stake} from each of {names2}.").format(
                names=listed(winners), stake=stake, names2=listed(others)
            )
        )
    lines.append(_("The hand sums to {sum}.").format(sum=sum(deltas.values())))
    return deltas
