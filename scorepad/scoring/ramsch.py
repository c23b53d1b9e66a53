"""A Ramsch (Schafkopf): everyone passed and plays alone; the most card points loses."""

from collections.abc import Mapping

from ..errors import HandError
from ..i18n import N_, joined
from ..i18n import gettext as _
from ..names import TOTAL_POINTS, Role
from ..rules import Rules
from .alone import alone_roles, alone_score, highest_trump_loses, per_player
from .doubling import (
    bock_factors,
    doubler_factors,
    doubling_text,
    knock_factors,
    last_hand_factors,
    multiplied,
)
from .records import RamschHand
from .result import Outcome, Score
from .seating import Seating, active, seat
from .words import listed


def score_ramsch(rules: Rules, hand: RamschHand, explain: bool) -> Score:
    """A Ramsch: the most card points (or the loser named) pays each other player, more to a
    player without a trick as `jungfrau` says; or a durchmarsch, paid by everyone. Why, line
    by line, where `explain` asks for it."""
    if rules.all_pass != "ramsch":
        raise HandError(
            _(
                "⟨ramsch⟩: {name} rules have all_pass = {all_pass}; Ramsch needs "
                "all_pass = ramsch (⟨rules⟩ bavarian plays it; in a session: scorepad "
                "set all_pass=ramsch)"
            ).format(name=rules.name, all_pass=rules.all_pass)
        )
    seating = seat(rules, hand.players, hand.dealer, hand.out)
    lines = None
    if explain:
        lines = [
            _(
                "Ramsch: everyone passed and plays alone; the most card points loses "
                "({size}-handed)."
            ).format(size=seating.size)
        ]
    factors = (
        doubler_factors(hand)
        + knock_factors(rules, seating, hand.knocks)
        + last_hand_factors(rules, hand)
        + bock_factors(hand)
    )
    if hand.durchmarsch is not None:
        return _durchmarsch(rules, seating, hand, factors, lines)
    jungfrau: list[str] = []
    for name in hand.jungfrau:
        player = active(seating, name, "⟨jungfrau⟩")
        if player in jungfrau:
            raise HandError(_("⟨jungfrau⟩ {player} is given twice").format(player=player))
        jungfrau.append(player)
    loser = _ramsch_loser(rules, seating, hand, jungfrau, lines)
    if loser in jungfrau:
        raise HandError(
            _("⟨jungfrau⟩ {loser}: the loser took tricks (the most card points)").format(
                loser=loser
            )
        )
    if len(jungfrau) >= seating.size - 1:
        raise HandError(
            _(
                "⟨jungfrau⟩: if everyone but one took no trick, that one took every "
                "trick (a ⟨durchmarsch⟩)"
            )
        )
    stake = rules.game_values["ramsch"] * multiplied(rules, factors)
    if jungfrau and rules.jungfrau == "double-all":
        stake *= 2 ** len(jungfrau)
    # what the loser pays a player without a trick, in stakes
    times = {"double-own": 2, "double-each": 2 ** len(jungfrau)}.get(rules.jungfrau, 1)
    pays = {p: stake * (times if p in jungfrau else 1) for p in seating.order if p != loser}
    deltas = dict.fromkeys(seating.order, 0)
    if rules.zero_sum:
        deltas.update(pays)
        deltas[loser] = -sum(pays.values())
    else:
        deltas[loser] = -stake
    if lines is not None:
        lines += _loser_lines(rules, factors, stake, jungfrau, loser, pays, deltas)
    roles = alone_roles(seating, (loser,), Role.RAMSCH_LOSER, Role.RAMSCH)
    return alone_score(Outcome.RAMSCH, rules, seating, stake, deltas, roles, lines, losers=(loser,))


def _loser_lines(
    rules: Rules,
    factors: list[tuple[str, int]],
    stake: int,
    jungfrau: list[str],
    loser: str,
    pays: Mapping[str, int],
    deltas: Mapping[str, int],
) -> list[str]:
    """A Ramsch's stake, its players without a trick, and what the loser pays each."""
    text = _("Stake: ramsch {game_values}{factor_text}").format(
        game_values=rules.game_values["ramsch"], factor_text=doubling_text(rules, factors)
    )
    if jungfrau and rules.jungfrau == "double-all":
        text += "".join(_(" x 2 (jungfrau {p})").format(p=p) for p in jungfrau)
    lines = [
        f"{text} = {stake}."
        if stake != rules.game_values["ramsch"]
        else _("Stake: {stake}.").format(stake=stake)
    ]
    if jungfrau:
        lines.append(
            _("Jungfrau (no trick): {names}; ").format(names=listed(jungfrau))
            + _(_JUNGFRAU_WORDS[rules.jungfrau])
        )
    if not rules.zero_sum:
        lines.append(
            _("Race to {target}: {loser} moves down {stake}; nobody else moves.").format(
                target=rules.target, loser=loser, stake=stake
            )
        )
        return lines
    lines.append(
        f"{loser} pays "
        + ", ".join(f"{p} {amount}" for p, amount in pays.items())
        + f" = {sum(pays.values())}."
    )
    lines.append(_("The hand sums to {sum}.").format(sum=sum(deltas.values())))
    return lines


def _durchmarsch(
    rules: Rules,
    seating: Seating,
    hand: RamschHand,
    factors: list[tuple[str, int]],
    lines: list[str] | None,
) -> Score:
    """A Ramsch in which one player took every trick: everyone else pays it the value of a
    durchmarsch (durchmarsch_value)."""
    assert hand.durchmarsch is not None
    player = active(seating, hand.durchmarsch, "⟨durchmarsch⟩")
    if hand.ramsch_points is not None or hand.losers or hand.jungfrau:
        raise HandError(
            _(
                "⟨durchmarsch⟩ {player}: {player} took every trick; give no "
                "⟨ramsch_points⟩, ⟨losers⟩ or ⟨jungfrau⟩ with it"
            ).format(player=player)
        )
    value = _durchmarsch_value(rules)
    stake = value * multiplied(rules, factors)
    others = [p for p in seating.order if p != player]
    deltas = dict.fromkeys(seating.order, 0)
    if rules.zero_sum:
        for p in others:
            deltas[p] = -stake
        deltas[player] = stake * len(others)
    else:
        deltas[player] = stake
    if lines is not None:
        factor_text = doubling_text(rules, factors)
        lines.append(
            _("Durchmarsch: {player} took every trick, {text}.").format(
                player=player, text=_durchmarsch_words(rules, value)
            )
        )
        lines.append(
            _("Stake: {value}{factor_text} = {stake}.").format(
                value=value, factor_text=factor_text, stake=stake
            )
            if factor_text
            else _("Stake: {stake}.").format(stake=stake)
        )
        if rules.zero_sum:
            lines.append(
                _("{player} receives {stake} from each of {names}.").format(
                    player=player, stake=stake, names=listed(others)
                )
            )
            lines.append(_("The hand sums to {sum}.").format(sum=sum(deltas.values())))
        else:
            lines.append(
                _("Race to {target}: {player} moves up {stake}.").format(
                    target=rules.target, player=player, stake=stake
                )
            )
    roles = alone_roles(seating, (player,), Role.DURCHMARSCH, Role.RAMSCH)
    return alone_score(Outcome.RAMSCH, rules, seating, stake, deltas, roles, lines, (player,))


_JUNGFRAU_WORDS = {
    "double-own": N_("the loser pays each of them twice (jungfrau = double-own)."),
    "double-all": N_("each doubles the hand (jungfrau = double-all)."),
    "off": N_("no extra for them: the loser pays everyone the same (jungfrau = off)."),
    "double-each": N_(
        "the loser pays each of them the stake doubled once for each player without a trick "
        "(jungfrau = double-each)."
    ),
}


def _durchmarsch_value(rules: Rules) -> int:
    """What a durchmarsch is worth from each other player, by durchmarsch_value."""
    if rules.durchmarsch_value == "solo":
        return rules.game_values["solo"]
    if rules.durchmarsch_value == "ramsch":
        return rules.game_values["ramsch"]
    return rules.game_values["solo"] + rules.schneider_bonus + rules.schwarz_bonus


def _durchmarsch_words(rules: Rules, value: int) -> str:
    """Why a durchmarsch is worth `value` (`_durchmarsch_value`)."""
    solo = rules.game_values["solo"]
    if rules.durchmarsch_value == "solo":
        return _(
            "scored as a solo (durchmarsch_value = solo: no schneider, schwarz or runs): {solo}"
        ).format(solo=solo)
    if rules.durchmarsch_value == "ramsch":
        return _(
            "paid the Ramsch's price by each player, as won (durchmarsch_value = ramsch): {ramsch}"
        ).format(ramsch=value)
    return _(
        "scored as a solo won schwarz: solo {solo} + schneider {schneider_bonus} "
        "+ schwarz {schwarz_bonus} = {value}"
    ).format(
        solo=solo,
        schneider_bonus=rules.schneider_bonus,
        schwarz_bonus=rules.schwarz_bonus,
        value=value,
    )


def _ramsch_loser(
    rules: Rules,
    seating: Seating,
    hand: RamschHand,
    jungfrau: list[str],
    lines: list[str] | None,
) -> str:
    """The Ramsch's loser: the most card points, a tie settled by --loser (or, under ramsch_tie
    = highest-trump, by --highest-trump)."""
    if len(hand.losers) > 1:
        raise HandError(_("⟨losers⟩: a Ramsch has one loser (a tie is settled by naming one)"))
    named = active(seating, hand.losers[0], "⟨losers⟩") if hand.losers else None
    if hand.ramsch_points is None:
        if named is None:
            raise HandError(_("a Ramsch needs ⟨ramsch_points⟩ A=N,B=N,... or ⟨losers⟩ NAME"))
        highest_trump_loses(rules.ramsch_tie, "ramsch_tie", seating, hand, (named,))
        if lines is not None:
            lines.append(
                _("{named} took the most card points and loses (named with ⟨losers⟩).").format(
                    named=named
                )
            )
        return named
    points = per_player(
        seating, hand.ramsch_points, "⟨ramsch_points⟩", 0, TOTAL_POINTS, TOTAL_POINTS
    )
    for player in jungfrau:
        if points[player]:
            raise HandError(
                _("⟨jungfrau⟩ {player}: {player} took {points} card points, so a trick").format(
                    player=player, points=points[player]
                )
            )
    high = max(points.values())
    tied = [p for p in seating.order if points[p] == high]
    if named is not None and named not in tied:
        raise HandError(
            _("⟨losers⟩ {named}: {named} took {points}, but {names} took more ({high})").format(
                named=named, points=points[named], names=listed(tied), high=high
            )
        )
    by_trump = highest_trump_loses(rules.ramsch_tie, "ramsch_tie", seating, hand, tied)
    if len(by_trump) == 1 and len(tied) > 1:
        if named is not None and named != by_trump[0]:
            raise HandError(
                _("⟨losers⟩ {named}: ⟨highest_trump⟩ names {player} as the loser").format(
                    named=named, player=by_trump[0]
                )
            )
        named = by_trump[0]
    if len(tied) > 1 and named is None:
        raise HandError(
            _("{tied} tie for the most with {high}: name the loser with ⟨losers⟩ NAME").format(
                tied=joined(tied), high=high
            )
        )
    loser = named or tied[0]
    if lines is not None:
        lines.append(
            _("Card points: {value}.").format(
                value=", ".join(f"{p} {points[p]}" for p in seating.order)
            )
        )
        if len(tied) > 1 and hand.highest_trump is not None:
            lines.append(
                _(
                    "{tied} tie for the most, {high}: {loser} holds the highest trump of them "
                    "and loses (ramsch_tie = highest-trump)."
                ).format(tied=joined(tied), high=high, loser=loser)
            )
        else:
            lines.append(
                _("{loser} took the most, {high}, and loses").format(loser=loser, high=high)
                + (" (named with ⟨losers⟩, settling the tie)." if len(tied) > 1 else ".")
            )
    return loser
