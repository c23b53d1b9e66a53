"""A hand with a picker (in Schafkopf, a declarer): who is on which side, the value (a
Sheepshead level, or a Schafkopf game's value), the doublings, and each player's points."""

from collections.abc import Mapping
from types import MappingProxyType

from ..errors import HandError
from ..games import BY_NAME as GAME_BY_NAME
from ..i18n import N_, ngettext
from ..i18n import gettext as _
from ..names import MAKE, TOTAL_POINTS, Role
from ..rules import Rules
from .called import called_name, check_called
from .card_points import check_cards_hold, check_points_and_tricks
from .doubling import (
    bock_factors,
    doubler_factors,
    doubling_text,
    doubling_words,
    knock_factors,
    last_hand_factors,
    multiplied,
)
from .records import PickerHand
from .result import Outcome, Score
from .schafkopf import (
    check_bettel,
    check_family_options,
    declared,
    runs_that_count,
    schafkopf_lines,
    schafkopf_value,
    stoss_factors,
)
from .seating import Seating, active, in_seat_order, seat
from .words import explanation, listed, plural

_SHEEPSHEAD_WORDS = {
    "picker": Role.PICKER,
    "Picker": N_("Picker"),
    "defender": Role.DEFENDER,
    "Partner": N_("Partner"),
    "side": N_("picker's side"),
}


_SCHAFKOPF_WORDS = {
    "picker": Role.DECLARER,
    "Picker": N_("Declarer"),
    "defender": Role.OPPONENT,
    "Partner": N_("Partner"),
    "side": N_("declarer's side"),
}


def score_picker(rules: Rules, hand: PickerHand, explain: bool) -> Score:
    """A hand with a picker (a declarer), in either family: who is on which side, the value
    (`_sheepshead_level` or `schafkopf_value`), the doublings, and each player's points; and,
    where `explain` asks for it, why (`_picker_lines`)."""
    words = _SCHAFKOPF_WORDS if rules.is_schafkopf else _SHEEPSHEAD_WORDS
    check_family_options(rules, hand)
    seating = seat(rules, hand.players, hand.dealer, hand.out)
    if rules.is_schafkopf:
        hand = declared(rules, hand)
    picker, partners = _side(rules, seating, hand)
    check_called(rules, hand, seating)
    if rules.is_schafkopf and GAME_BY_NAME[hand.game or "partner"].runs_as is None:
        check_bettel(hand, seating.deal)
    else:
        check_points_and_tricks(hand, seating.deal, words)
        if rules.points_check == "cards":
            check_cards_hold(hand, seating)
    level: int | None = None
    if rules.is_schafkopf:
        won, value, schneider, no_trick_scored = schafkopf_value(rules, hand, seating)
    else:
        won, level = _sheepshead_level(rules, hand.points, hand.tricks, seating.deal.cards)
        if level == 3 and not won and _alone_priced(rules, seating, partners, "schneider"):
            level = 2  # (alone_no_trick = schneider)
        value = rules.base * rules.level_multipliers[level - 1]
        schneider, no_trick_scored = level == 2, level == 3
    no_trick = not won and no_trick_scored
    partner_free = not won and bool(partners) and rules.partner_free_on_no_trick and level == 3
    tie = (
        not rules.is_schafkopf and hand.points == TOTAL_POINTS // 2 and rules.sixty_sixty != "loss"
    )
    if tie and rules.sixty_sixty == "doubler":
        return _sixty_sixty_thrown_in(rules, seating, hand, picker, partners, words, explain)
    factors = _common_factors(rules, seating, hand, picker, partners, won, no_trick, words)
    if _alone_priced(rules, seating, partners) and rules.alone_multiplier > 1:
        factors.insert(0, (N_("alone (alone_multiplier)"), rules.alone_multiplier))
    stake = value * multiplied(rules, factors)
    deltas = _settle(rules, seating, picker, partners, won, stake, partner_free)
    if hand.smith:
        _smith(rules, picker, partners, won, deltas)
    result = Score(
        Outcome.WIN if won else Outcome.LOSS,
        stake,
        MappingProxyType(in_seat_order(seating, deltas)),
        MappingProxyType(_picker_roles(seating, picker, partners, words)),
        (),
        rules.zero_sum,
        level,
        schneider=schneider,
        no_trick=no_trick_scored,
        sitting_out=seating.sitting_out,
        doubles_next=tie,
        doublings=doubling_words(rules, factors),
        runs=runs_that_count(rules, hand),
    )
    if not explain:
        return result
    lines = _picker_lines(
        rules, hand, seating, picker, partners, words, result, factors, value, partner_free
    )
    return result._replace(explanation=explanation(lines))


def _smith(
    rules: Rules, picker: str, partners: tuple[str, ...], won: bool, deltas: dict[str, int]
) -> None:
    """The Smith rule (hand ⟨smith⟩: the picker took no trick himself): on a win the partner
    takes the picker's share as well, on a loss the picker pays the partner's as well."""
    if not rules.smith_rule:
        raise HandError(
            _("⟨smith⟩: {name} rules do not play the Smith rule (smith_rule = false)").format(
                name=rules.name
            )
        )
    if len(partners) != 1:
        raise HandError(
            _("⟨smith⟩: the Smith rule moves the picker's share to a partner; name one partner")
        )
    (partner,) = partners
    if won:
        deltas[partner] += deltas[picker]
        deltas[picker] = 0
    else:
        deltas[picker] += deltas[partner]
        deltas[partner] = 0


def _alone_priced(
    rules: Rules, seating: Seating, partners: tuple[str, ...], no_trick: str = ""
) -> bool:
    """Whether the picker plays alone where the deal has partners (a loner, whom
    alone_multiplier and alone_no_trick price); with `no_trick`, also whether alone_no_trick
    is it."""
    if partners or not seating.deal.partners or rules.is_schafkopf:
        return False
    return not no_trick or rules.alone_no_trick == no_trick


def _picker_lines(
    rules: Rules,
    hand: PickerHand,
    seating: Seating,
    picker: str,
    partners: tuple[str, ...],
    words: Mapping[str, str],
    result: Score,
    factors: list[tuple[str, int]],
    value: int,
    partner_free: bool,
) -> list[str]:
    """Why a picker hand scored as it did: who played, the value, the stake and who pays."""
    won = result.outcome is Outcome.WIN
    stake = result.stake
    lines = _who_lines(rules, seating, picker, partners, words)
    if hand.called is not None:
        lines.append(_("Called: {card}.").format(card=called_name(hand.called)))
    if rules.is_schafkopf:
        marks = (result.schneider, result.no_trick)
        lines += schafkopf_lines(rules, hand, seating, won, value, marks)
        formula = str(value)
    else:
        assert result.level is not None
        cards = seating.deal.cards
        level = _sheepshead_level(rules, hand.points, hand.tricks, cards)[1]
        lines += _sheepshead_lines(rules, hand.points, hand.tricks, cards, level)
        if level != result.level:  # (alone_no_trick = schneider)
            lines.append(
                _(
                    "The picker went alone: a loss without a trick is scored at the schneider "
                    "level, level 2 (alone_no_trick = schneider)."
                )
            )
        formula = _("base {base} x level multiplier {value}").format(
            base=rules.base, value=value // rules.base
        )
    formula += doubling_text(rules, factors)
    lines.append(
        _("Stake: {formula} = {stake}.").format(formula=formula, stake=stake)
        if formula != str(stake)
        else _("Stake: {stake}.").format(stake=stake)
    )
    lines += _bump_notes(rules, hand, won, not won and result.no_trick, words)
    if result.doubles_next:
        lines.append(_("60-60: the next hand is doubled, as after a doubler (sixty_sixty)."))
    lines += _settle_lines(rules, seating, picker, partners, result, partner_free, words)
    if hand.smith:
        partner, deltas = partners[0], result.deltas
        smith = (
            _(
                "Smith rule (the picker took no trick himself): partner {partner} takes the "
                "picker's share as well: {picker} {first}, {partner} {second}."
            )
            if won
            else _(
                "Smith rule (the picker took no trick himself): the picker pays partner "
                "{partner}'s share as well: {picker} {first}, {partner} {second}."
            )
        )
        lines.insert(
            len(lines) - 1,
            smith.format(
                partner=partner,
                picker=picker,
                first=f"{deltas[picker]:+d}" if deltas[picker] else "0",
                second=f"{deltas[partner]:+d}" if deltas[partner] else "0",
            ),
        )
    return lines


def _who_lines(
    rules: Rules,
    seating: Seating,
    picker: str,
    partners: tuple[str, ...],
    words: Mapping[str, str],
) -> list[str]:
    """Who is on which side, the deal, and who sits out."""
    defenders = [x for x in seating.order if x != picker and x not in partners]
    who = f"{_(words['Picker'])} {picker}"
    if partners:
        who += ngettext(", partner {names}", ", partners {names}", len(partners)).format(
            names=listed(partners)
        )
    elif not rules.is_schafkopf:
        who += _(" alone")
    deal = seating.deal
    lines = [
        _(
            "{who}; {words}s {names} ({size}-handed: {cards} cards each, {blind} in the blind)."
        ).format(
            who=who,
            words=_(words["defender"]),
            names=listed(defenders),
            size=seating.size,
            cards=deal.cards,
            blind=deal.blind,
        )
    ]
    if seating.sitting_out:
        lines.append(
            _("Sitting out: {names} (0 points).").format(names=listed(seating.sitting_out))
        )
    return lines


def _side(rules: Rules, seating: Seating, hand: PickerHand) -> tuple[str, tuple[str, ...]]:
    """The picker and partners, checked against the table and the deal."""
    picker = active(seating, hand.picker, "⟨picker⟩")
    partners: list[str] = []
    for name in hand.partners:
        partner = active(seating, name, "⟨partners⟩")
        if partner == picker:
            raise HandError(
                _("⟨partners⟩ {partner}: {partner} is the picker").format(partner=partner)
            )
        if partner in partners:
            raise HandError(_("⟨partners⟩ {partner} is given twice").format(partner=partner))
        partners.append(partner)
    allowed = seating.deal.partners
    if partners and hand.alone:
        raise HandError(
            _("⟨alone⟩ with ⟨partners⟩ {partners}: a picker who goes alone has no partner").format(
                partners=partners[0]
            )
        )
    if len(partners) > allowed:
        raise HandError(
            _(
                "{plural} named: a {size}-handed hand under {name} rules has at most {allowed}"
            ).format(
                plural=plural(len(partners), "partner"),
                size=seating.size,
                name=rules.name,
                allowed=allowed,
            )
        )
    if allowed and not partners and not hand.alone:
        raise HandError(
            _(
                "name the ⟨partners⟩, or say ⟨alone⟩ ({size}-handed {name} finds the "
                "partner by {call_words})"
            ).format(
                size=seating.size, name=rules.name, call_words=_(_CALL_WORDS[seating.deal.call])
            )
        )
    return picker, tuple(partners)


_CALL_WORDS = {
    "ace": N_("a called ace"),
    "jack-of-diamonds": N_("the jack of diamonds"),
    "none": "-",
}


def _crack_factors(
    rules: Rules,
    seating: Seating,
    hand: PickerHand,
    picker: str,
    partners: tuple[str, ...],
    words: Mapping[str, str],
) -> list[tuple[str, int]]:
    """A crack and a re-crack (Stoss and Gegenstoss), checked against the table and the
    rules."""
    crack = N_("Stoss") if rules.is_schafkopf else N_("crack")
    recrack = N_("Gegenstoss") if rules.is_schafkopf else N_("re-crack")
    if hand.crack is None:
        if hand.recrack:
            raise HandError(
                _("⟨recrack⟩: a {recrack} answers a {crack}; give ⟨crack⟩ NAME too").format(
                    recrack=_(recrack), crack=_(crack)
                )
            )
        return []
    if not rules.cracks:
        raise HandError(
            _("⟨crack⟩: {name} rules have no {crack} (cracks = false)").format(
                name=rules.name, crack=_(crack)
            )
        )
    cracker = active(seating, hand.crack, "⟨crack⟩")
    if cracker == picker or cracker in partners:
        raise HandError(
            _("⟨crack⟩ {cracker}: {cracker} is on the {words}; only a {words2} may {crack}").format(
                cracker=cracker, words=_(words["side"]), words2=_(words["defender"]), crack=_(crack)
            )
        )
    if rules.crack_by == "after-picker" and (
        seating.order.index(cracker) < seating.order.index(picker)
    ):
        raise HandError(
            _(
                "⟨crack⟩ {cracker}: {cracker} had the chance to pick before {picker} "
                "did; only a defender seated after the picker may crack"
            ).format(cracker=cracker, picker=picker)
        )
    factors = [
        (_("{crack} by {cracker}").format(crack=_(crack), cracker=cracker), rules.crack_factor)
    ]
    if hand.recrack:
        factors.append((recrack, rules.recrack_factor))
    return factors


def _common_factors(
    rules: Rules,
    seating: Seating,
    hand: PickerHand,
    picker: str,
    partners: tuple[str, ...],
    won: bool,
    no_trick: bool,
    words: Mapping[str, str],
) -> list[tuple[str, int]]:
    """Every doubling of a picker hand, in the order the Stake line names them, each
    checked."""
    factors = []
    if hand.forced:
        if rules.all_pass != "forced":
            raise HandError(
                _(
                    "⟨forced⟩: {name} rules have all_pass = {all_pass}; a forced pick needs "
                    "all_pass = forced"
                ).format(name=rules.name, all_pass=rules.all_pass)
            )
        if picker != seating.dealer:
            raise HandError(
                _("⟨forced⟩: a forced pick is the dealer's ({dealer}), not {picker}'s").format(
                    dealer=seating.dealer, picker=picker
                )
            )
    waived = (hand.forced and not rules.bump_on_forced) or (no_trick and not rules.bump_on_no_trick)
    if not won and rules.double_on_the_bump and not waived:
        factors.append((N_("double on the bump"), rules.bump_factor))
    factors += _crack_factors(rules, seating, hand, picker, partners, words)
    factors += stoss_factors(rules, hand)
    factors += knock_factors(rules, seating, hand.knocks)
    factors += doubler_factors(hand)
    factors += [("blitz", 2)] * hand.blitz
    factors += last_hand_factors(rules, hand) + bock_factors(hand)
    return factors


def _sheepshead_level(rules: Rules, p: int, t: int | None, total_tricks: int) -> tuple[bool, int]:
    """Win or loss, and the level (`_sheepshead_lines` says why)."""
    won = p >= MAKE
    if rules.level3_by == "tricks":
        top = t == total_tricks if won else t == 0
    else:
        top = p == TOTAL_POINTS if won else p == 0
    if top:
        return won, 3
    if (won and p >= rules.schneider_win) or (not won and p <= rules.schneider_loss):
        return won, 2
    return won, 1


def _sheepshead_lines(
    rules: Rules, p: int, t: int | None, total_tricks: int, level: int
) -> list[str]:
    """Why a Sheepshead hand was won or lost, and at its level (`_sheepshead_level`)."""
    won = p >= MAKE
    took = _("{p} card points").format(p=p) + (
        _(" and {t} of {total_tricks} tricks").format(t=t, total_tricks=total_tricks)
        if t is not None
        else ""
    )
    if won:
        lines = [
            _("The picker's side took {took}: {p} >= {make}, a win.").format(
                took=took, p=p, make=MAKE
            )
        ]
    elif p == TOTAL_POINTS // 2:
        lines = [_("The picker's side took {took}: a 60-60 tie is a loss.").format(took=took)]
    else:
        lines = [
            _("The picker's side took {took}: {p} < {make}, a loss.").format(
                took=took, p=p, make=MAKE
            )
        ]
    if t is None and rules.level3_by == "tricks":
        lines.append(_("No ⟨tricks⟩ given: each side is taken to have won a trick."))
    if level == 3 and rules.level3_by == "tricks":
        top_why = "took every trick (no-trick)" if won else "took no trick (no-trick)"
        lines.append(_("Level 3: the picker's side {top_why}.").format(top_why=top_why))
    elif level == 3:
        top_why = _("took {value} card points").format(value="all 120" if won else "no")
        lines.append(_("Level 3: the picker's side {top_why}.").format(top_why=top_why))
    elif level == 2 and won:
        why = _(
            "Level 2 (schneider): {p} >= {schneider_win}, the defenders held {total_points}."
        ).format(p=p, schneider_win=rules.schneider_win, total_points=TOTAL_POINTS - p)
        if p == TOTAL_POINTS and rules.level3_by == "tricks":
            why += " Not no-trick: the defenders took a trick, even if it held no points."
        lines.append(why)
    elif level == 2:
        lines.append(
            _("Level 2 (schneider): {p} <= {schneider_loss}.").format(
                p=p, schneider_loss=rules.schneider_loss
            )
        )
    elif won:
        lines.append(
            _("Level 1: {p} is under the schneider line of {schneider_win}.").format(
                p=p, schneider_win=rules.schneider_win
            )
        )
    else:
        lines.append(
            _("Level 1: {p} is over the schneider line of {schneider_loss}.").format(
                p=p, schneider_loss=rules.schneider_loss
            )
        )
    return lines


def _bump_notes(
    rules: Rules, hand: PickerHand, won: bool, no_trick: bool, words: Mapping[str, str]
) -> list[str]:
    """Why double on the bump did not apply to this hand, where it is played."""
    if not rules.double_on_the_bump:
        return []
    notes = []
    if won:
        notes.append(_("Double on the bump does not apply: it doubles losses only."))
    if hand.forced and not won and not rules.bump_on_forced:
        notes.append(_("Double on the bump is waived for a forced pick (bump_on_forced = false)."))
    elif no_trick and not rules.bump_on_no_trick:
        notes.append(
            _(
                "Double on the bump is waived: the {words} took no trick "
                "(bump_on_no_trick = false)."
            ).format(words=_(words["side"]))
        )
    return notes


def _picker_roles(
    seating: Seating, picker: str, partners: tuple[str, ...], words: Mapping[str, str]
) -> dict[str, str]:
    """Everyone's part in a picker hand: picker (declarer), partner, defender (opponent),
    or sitting out."""
    roles: dict[str, str] = {}
    for player in seating.players:
        if player in seating.sitting_out:
            roles[player] = Role.SITS_OUT
        elif player == picker:
            roles[player] = words["picker"]
        elif player in partners:
            roles[player] = Role.PARTNER
        else:
            roles[player] = words["defender"]
    return roles


def _sixty_sixty_thrown_in(
    rules: Rules,
    seating: Seating,
    hand: PickerHand,
    picker: str,
    partners: tuple[str, ...],
    words: Mapping[str, str],
    explain: bool,
) -> Score:
    """A 60-60 hand under sixty_sixty = doubler: not scored, and the next hand is doubled."""
    _crack_factors(rules, seating, hand, picker, partners, words)  # (checked all the same)
    last_hand_factors(rules, hand)
    bock_factors(hand)
    lines = []
    if explain:
        # who played and the points taken, without the level's line (the hand has no level)
        lines = _who_lines(rules, seating, picker, partners, words)
        if hand.called is not None:
            lines.append(_("Called: {card}.").format(card=called_name(hand.called)))
        lines += _sheepshead_lines(rules, hand.points, hand.tricks, seating.deal.cards, 1)[:-1]
        lines = [line.replace("a 60-60 tie is a loss", "a 60-60 tie") for line in lines]
        lines.append(
            _(
                "60-60: the hand is not scored, and the next hand is doubled, as after a "
                "doubler (sixty_sixty = doubler)."
            )
        )
    return Score(
        Outcome.TIE,
        0,
        MappingProxyType(dict.fromkeys(seating.order, 0)),
        MappingProxyType(_picker_roles(seating, picker, partners, words)),
        explanation(lines),
        rules.zero_sum,
        None,
        sitting_out=seating.sitting_out,
        doubles_next=True,
    )


def _settle(
    rules: Rules,
    seating: Seating,
    picker: str,
    partners: tuple[str, ...],
    won: bool,
    stake: int,
    partner_free: bool,
) -> dict[str, int]:
    """Each active player's game points for a picker hand (`_settle_lines` says why)."""
    sign = 1 if won else -1
    paying_partners = () if partner_free else partners
    deltas = dict.fromkeys(seating.order, 0)
    if not rules.zero_sum:  # (a race: the picker's side moves)
        for p in (picker, *paying_partners):
            deltas[p] = sign * stake
        return deltas
    defenders = [p for p in seating.order if p != picker and p not in partners]
    for d in defenders:
        deltas[d] = -sign * stake
    if paying_partners and rules.partner_split == "equal":
        each, left = divmod(len(defenders) * stake, 1 + len(paying_partners))
        for p in paying_partners:
            deltas[p] = sign * each
        deltas[picker] = sign * (each + left)
    else:
        for p in paying_partners:
            deltas[p] = sign * stake
        deltas[picker] = sign * (len(defenders) - len(paying_partners)) * stake
    return deltas


def _settle_lines(
    rules: Rules,
    seating: Seating,
    picker: str,
    partners: tuple[str, ...],
    result: Score,
    partner_free: bool,
    side: Mapping[str, str],
) -> list[str]:
    """Who pays whom in a picker hand, and what (`_settle`)."""
    won, stake = result.outcome is Outcome.WIN, result.stake
    paying_partners = () if partner_free else partners
    if not rules.zero_sum:
        return [
            _(
                "Race to {target}: {names} move {way} {stake}; {side}s do not move (race "
                "ledgers are not zero-sum)."
            ).format(
                target=rules.target,
                names=listed((picker, *paying_partners)),
                way="up" if won else "down",
                stake=stake,
                side=_(side["defender"]),
            )
        ]
    defenders = [p for p in seating.order if p != picker and p not in partners]
    pay, get = (_("pays"), _("receives")) if won else (_("receives"), _("pays"))
    lines = [
        _("Each {side} {pay} {stake}: {names}.").format(
            side=_(side["defender"]), pay=pay, stake=stake, names=listed(defenders)
        )
    ]
    if partners and partner_free:
        lines.append(
            _(
                "{side} {names} pays nothing: the {side2} pays every share "
                "(partner_free_on_no_trick)."
            ).format(side=_(side["Partner"]), names=listed(partners), side2=_(side["picker"]))
        )
    if paying_partners and rules.partner_split == "equal":
        pot = len(defenders) * stake
        each, left = divmod(pot, 1 + len(paying_partners))
        lines.append(
            _(
                "The {side} shares {len_defenders} x {stake} = {pot} equally "
                "(partner_split = equal): {names} {get} {each}; {lower} {picker} {get} "
                "{each2}"
            ).format(
                side=_(side["side"]),
                len_defenders=len(defenders),
                stake=stake,
                pot=pot,
                names=listed(paying_partners),
                get=get,
                each=each,
                lower=_(side["Picker"]).lower(),
                picker=picker,
                each2=each + left,
            )
            + (_(" (the {left} that does not divide).").format(left=left) if left else ".")
        )
    else:
        if paying_partners:
            lines.append(f"{_(side['Partner'])} {listed(partners)} {get} {stake}.")
        share = len(defenders) - len(paying_partners)
        rest = (
            _("the rest, ({plural} - {plural2}) x {stake}").format(
                plural=plural(len(defenders), side["defender"]),
                plural2=plural(len(paying_partners), "partner"),
                stake=stake,
            )
            if paying_partners
            else f"{len(defenders)} x {stake}"
        )
        lines.append(f"{_(side['Picker'])} {picker} {get} {rest} = {share * stake}.")
    lines.append(_("The hand sums to {sum}.").format(sum=sum(result.deltas.values())))
    return lines
