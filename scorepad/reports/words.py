"""The night in words: what a paper sheet notes beside a hand (`marks`), a hand in a few words
(`played_text`, the sheet's Played column) or a sentence (`summary_text`, after `hand`), a change
of the ledger (`change_text`, for `log`), and the rules in force."""

from typing import TYPE_CHECKING

from ..games import BY_NAME as GAME_BY_NAME
from ..games import WonBy
from ..i18n import N_, game_word, joined, ngettext
from ..i18n import gettext as _
from ..ledger import HandView, Ledger, set_row_hands, set_row_text
from ..rules import stored_summary_words
from ..scoring import Bock, Outcome, Score
from ..scoring.called import called_words
from ..store.format import Row, RowKind

if TYPE_CHECKING:
    from ..session import Head

WON_ON_TRICKS = frozenset(g.name for g in GAME_BY_NAME.values() if g.won_by == WonBy.NO_TRICK)


def marks(row: Row, result: Score | None) -> list[str]:
    """What a paper sheet notes beside a hand: the call, runs (Laufende), a forced pick, cracks,
    doublings, blitzes, and a schneider or no-trick (schwarz in Schafkopf)."""
    schafkopf = (
        result is not None
        and result.level is None
        and result.outcome in (Outcome.WIN, Outcome.LOSS)
    )
    found = [called_words(row.called)] if row.called else []
    runs = result.runs if result is not None else 0  # (Laufende that count in the value)
    if runs:
        found.append(ngettext("1 run", "{count} runs", runs).format(count=runs))
    if row.forced:
        found.append(_("forced"))
    if row.crack:
        crack = _("Stoss by {player}") if schafkopf else _("cracked by {player}")
        found.append(crack.format(player=row.crack))
    if row.recrack:
        found.append(_("Gegenstoss") if schafkopf else _("re-cracked"))
    if row.doubled:
        found.append(
            _("doubled")
            if row.doubled == 1
            else _("doubled {count} times").format(count=row.doubled)
        )
    if row.blitz:
        found.append(ngettext("blitz", "{count} blitzes", row.blitz).format(count=row.blitz))
    if row.knocks:
        found.append(
            _("knocked") if row.knocks == 1 else _("knocked {count} times").format(count=row.knocks)
        )
    if row.stoss:
        found.append(_("Stoss") if row.stoss == 1 else _("Stoss x{count}").format(count=row.stoss))
    if row.jungfrau:
        found.append(_("jungfrau {players}").format(players=", ".join(row.jungfrau)))
    if row.smith:
        found.append(_("Smith rule"))
    if row.highest_trump:
        found.append(_("tie: highest trump {player}").format(player=row.highest_trump))
    if result is not None and result.schneider:
        found.append(_("schneider"))
    if result is not None and result.no_trick:
        found.append(_("schwarz") if schafkopf else _("no-trick"))
    if result is not None and result.doubles_next:
        found.append(_("60-60: next hand doubled"))
    if result is not None and result.outcome in (Outcome.WIN, Outcome.LOSS) and result.pot:
        found.append(_pot_words(result))
    if row.last:
        found.append(_("last hand"))
    bock = Bock.parse(row.bock) if row.bock else None
    if bock is not None:
        found.append(bock.words())
    if result is not None and result.bock_next:
        found.append(_("Bock round follows"))
    return found


def _dealt_in(row: Row, result: Score) -> str:
    """Where `--out` named someone else while the dealer plays: who deals and who sits out
    (a table whose dealer sits out would otherwise not see the dealer dealt in)."""
    if not row.out or not row.dealer or row.dealer in result.sitting_out:
        return ""
    return "; " + _("{dealer} deals and plays, {out} sits out").format(
        dealer=row.dealer, out=", ".join(result.sitting_out or row.out)
    )


def _pot_words(result: Score) -> str:
    """What a hand played for the pot did with it, in a few words."""
    if result.pot < 0:
        return _("took the pot ({pot})").format(pot=-result.pot)
    return _("paid {pot} into the pot").format(pot=result.pot)


def change_text(row: Row) -> str:
    """A row of the file as a change of the ledger, in a few words (for `log`)."""
    kind = row.kind
    if kind is RowKind.SEAT:
        return _("seats: {players}").format(players=", ".join(row.seated))
    if kind is RowKind.SET:
        changes = set_row_text(row.note)[0]
        hands = set_row_hands(row.note)
        if hands is not None:
            return _("rules from hand {hand} on: {changes}").format(hand=hands[0], changes=changes)
        return _("rules: {changes}").format(changes=changes)
    if kind is RowKind.BOCK:
        rounds = row.bock_rounds or 1
        what = ngettext("1 Bock round", "{count} Bock rounds", rounds).format(count=rounds)
        if row.undoes is not None:
            return _("bock: {what} taken back").format(what=what)
        return _("bock: {what}").format(what=what)
    if kind is RowKind.VOID:
        return _("void of hand {hand}").format(hand=row.ref)
    if kind is RowKind.RESTORE:
        return _("restore of hand {hand}").format(hand=row.ref)
    if kind is RowKind.DOUBLER:
        return _("hand {hand}: doubler").format(hand=row.hand)
    if kind is RowKind.POT:
        return _("hand {hand}: passed into the pot").format(hand=row.hand)
    if kind is RowKind.PENALTY:
        return _("hand {hand}: {what}").format(hand=row.hand, what=_penalty_text(row))
    if row.scores is not None:
        what = _manual_text(row)
    elif row.game == "ramsch":
        what = (
            _("Ramsch, durchmarsch by {player}").format(player=row.durchmarsch)
            if row.durchmarsch
            else _("Ramsch, lost by {player}").format(player=row.losers[0])
            if row.losers
            else _("Ramsch")
        )
    elif row.schwanzer_points is not None or row.losers:
        what = (
            _("schwanzer, lost by {players}").format(players=joined(row.losers))
            if row.losers
            else _("schwanzer")
        )
    elif row.picker is None:
        what = (
            _("leaster, won by {player}").format(player=row.winner) if row.winner else _("leaster")
        )
    else:
        side = row.picker + "".join(f" + {p}" for p in row.partners)
        game = f" {game_word(row.game)}" if row.game and row.game != "partner" else ""
        alone = _(" alone") if row.alone else ""
        what = f"{side}{alone}{game} {row.points}"
    if kind is RowKind.AMEND:
        return _("amend of hand {hand}: {what}").format(hand=row.ref, what=what)
    return _("hand {hand}: {what}").format(hand=row.hand, what=what)


def _penalty_text(row: Row) -> str:
    if row.paid_to:
        text = _("penalty: {offender} pays {penalty} to {to}")
    else:
        text = _("penalty: {offender} pays {penalty} to each")
    return text.format(offender=row.offender, penalty=row.penalty, to=row.paid_to)


def _manual_text(row: Row) -> str:
    """A hand the table scored itself, in a few words."""
    return _("scored by the table: {scores}").format(
        scores=", ".join(f"{p} {v:+d}" if v else f"{p} 0" for p, v in (row.scores or {}).items())
    )


def played_text(view: HandView) -> str:
    """A few words for the sheet's Played column: who picked with whom, the points, and what a
    paper sheet would note beside them (`marks`)."""
    row = view.row
    if row.kind is RowKind.DOUBLER:
        return _("doubler")
    if row.kind is RowKind.PENALTY:
        return _penalty_text(row)
    result = view.entry.result
    if row.kind is RowKind.POT and result is not None:
        return _("everyone passed: {pot} into the pot").format(pot=result.pot)
    if row.scores is not None:
        text = _("scored by the table")
    elif result is not None and result.outcome is Outcome.RAMSCH:
        text = (
            _("Ramsch: durchmarsch by {player}").format(player=result.winners[0])
            if result.winners
            else _("Ramsch: {player} lost").format(player=result.losers[0])
        )
    elif result is not None and result.outcome is Outcome.SCHWANZER:
        losers = joined(result.losers)
        text = (
            _("schwanzer: {players} lost").format(players=losers)
            if losers
            else _("schwanzer: everyone tied")
        )
    elif row.picker is None and result is not None and result.losers:  # (most-loses)
        text = _("leaster: {players} lost").format(players=joined(result.losers))
    elif row.picker is None:
        winners = [p for p, v in view.deltas.items() if v > 0]
        text = (
            _("leaster: {players}").format(players=joined(winners))
            if winners
            else _("leaster: no winner")
        )
    else:
        side = row.picker
        if row.partners:
            side += " + " + " + ".join(row.partners)
        elif row.alone:
            side += _(" alone")
        if row.game and row.game != "partner":
            side += f" {game_word(row.game)}"
        if row.game in WON_ON_TRICKS:
            text = ngettext("{side}, 1 trick", "{side}, {count} tricks", row.tricks or 0).format(
                side=side, count=row.tricks
            )
        else:
            text = f"{side} {view.card_points}"
    noted = marks(row, view.entry.result)
    return f"{text}, {', '.join(noted)}" if noted else text


def summary_text(row: Row, result: Score | None = None) -> str:  # noqa: C901  (a sentence a kind)
    """One line saying what a recorded hand was (after `hand`, `amend`, `play`), beside
    `played_text`, the few words of a sheet's line."""

    label = (
        _("Hand {hand}").format(hand=row.hand)
        if row.hand
        else _("Hand {hand}, amended").format(hand=row.ref)
    )
    if row.kind == "doubler":
        return _("{label}: everyone passed; a doubler (the next hand is doubled).").format(
            label=label
        )
    if result is None:
        return f"{label}."
    # (a level says schneider and no-trick itself)
    noted = "".join(
        f"; {m}"
        for m in marks(row, result)
        if result.level is None or m not in (_("schneider"), _("no-trick"))
    ) + _dealt_in(row, result)
    stake = result.stake
    if result.outcome is Outcome.PENALTY:
        if row.paid_to:
            text = _("{label}: a penalty: {offender} pays {penalty} to {to}.")
        else:
            text = _("{label}: a penalty: {offender} pays {penalty} to each other seated player.")
        return text.format(label=label, offender=row.offender, penalty=row.penalty, to=row.paid_to)
    if result.outcome is Outcome.MANUAL:
        return _("{label}: {what}{marks}.").format(label=label, what=_manual_text(row), marks=noted)
    if result.outcome is Outcome.POT:
        return _(
            "{label}: everyone passed; each player pays {stake} into the pot "
            "({pot} in all){marks}; the pot holds {held}."
        ).format(label=label, stake=stake, pot=result.pot, marks=noted, held=row.pot)
    if result.outcome is Outcome.LEASTER and result.losers:  # (leaster_scoring = most-loses)
        return _("{label}: a leaster, lost by {players} (payout {stake}){marks}.").format(
            label=label, players=joined(result.losers), stake=stake, marks=noted
        )
    if result.outcome is Outcome.LEASTER:
        won = joined(result.winners) or _("nobody")
        return _("{label}: a leaster, won by {players} (payout {stake}){marks}.").format(
            label=label, players=won, stake=stake, marks=noted
        )
    if result.outcome is Outcome.RAMSCH:
        if result.winners:
            text = _("{label}: a Ramsch; durchmarsch by {player} (stake {stake}){marks}.")
            who = result.winners[0]
        else:
            text = _("{label}: a Ramsch, lost by {player} (stake {stake}){marks}.")
            who = result.losers[0]
        return text.format(label=label, player=who, stake=stake, marks=noted)
    if result.outcome is Outcome.SCHWANZER:
        lost = joined(result.losers) or _("nobody (everyone tied)")
        return _("{label}: a schwanzer, lost by {players} (stake {stake}){marks}.").format(
            label=label, players=lost, stake=stake, marks=noted
        )
    if result.outcome is Outcome.TIE:
        return _(
            "{label}: {picker}'s side took 60: a 60-60 tie, not scored; the next hand "
            "is doubled{marks}."
        ).format(label=label, picker=row.picker, marks=noted)
    partners = ", ".join(row.partners)
    held = _("; the pot holds {pot}").format(pot=row.pot) if result.pot or row.pot else ""
    schafkopf = result.level is None  # Schafkopf has game values, not levels
    outcome = _("a win") if result.outcome is Outcome.WIN else _("a loss")
    if schafkopf and row.game in (None, "partner"):
        side = _("{picker} played a partner game with {partners}")
    elif schafkopf and row.game == "bettel":
        took = ngettext("1 trick", "{count} tricks", row.tricks or 0).format(count=row.tricks)
        if not row.tricks:
            took = _("no trick")
        return _(
            "{label}: {picker} played a bettel and took {tricks}: {outcome}, stake "
            "{stake}{marks}{held}."
        ).format(
            label=label,
            picker=row.picker,
            tricks=took,
            outcome=outcome,
            stake=stake,
            marks=noted,
            held=held,
        )
    elif schafkopf and row.game == "hochzeit":
        side = _("{picker} played a hochzeit with {partners}")
    elif schafkopf:
        side = _("{picker} played a {game}")
    elif len(row.partners) > 1:
        side = _("{picker} picked, partners {partners}")
    elif row.partners:
        side = _("{picker} picked, partner {partners}")
    elif row.alone:
        side = _("{picker} picked alone")
    else:
        side = _("{picker} picked")
    side = side.format(picker=row.picker, partners=partners, game=game_word(row.game))
    level = ""
    if result.level:
        level = _(", level {level}").format(level=result.level)
        if result.schneider or result.no_trick:
            level = {
                2: _(", level {level} (schneider)"),
                3: _(", level {level} (no-trick)"),
            }.get(result.level, level).format(level=result.level)
    why = f" ({', '.join(result.doublings)})" if result.doublings else ""
    return _(
        "{label}: {side}, {points} points: {outcome}{level}, stake {stake}{why}{marks}{held}."
    ).format(
        label=label,
        side=side,
        points=row.points,
        outcome=outcome,
        level=level,
        stake=stake,
        why=why,
        marks=noted,
        held=held,
    )


def rules_words(head: "Head", ledger: Ledger) -> str:
    """The rules of a night as a report names them: 'standard rules', or, once `scorepad set`
    changed them, also the rules in force at the end and the hand they apply from."""
    words = _("{name} rules").format(name=head.rules.name)
    if ledger.rules_line is None:
        return words
    if ledger.rules_changes > 1:
        words = _("{name} rules, changed {count} times").format(
            name=head.rules.name, count=ledger.rules_changes
        )
    return _("{rules}; from hand {hand} on: {summary}").format(
        rules=words, hand=ledger.rules_from, summary=ledger.rules.summary()
    )


def rules_in_force(head: "Head", ledger: Ledger) -> str:
    """The rules in force in a session, in a few words (with what `scorepad set` changed)."""
    if ledger.rules_line:
        return ledger.rules.summary()
    return stored_summary_words(head.start.note) if head.start.note else head.rules.name


def pass_summary(night: Ledger) -> str:
    """What a pass went through, in words: '29 hands, 2 corrections, 1 seat change'; where
    not every numbered row is a hand that counts (as `standings` counts them), '40 rows of
    hands, 39 hands counted (1 void), ...'."""

    def count(n: int, one: str, many: str) -> str:
        return ngettext(one, many, n).format(count=n)

    corrections = night.corrected + sum(f.corrections for f in night.corrections.values())
    numbered = count(night.last_hand, N_("{count} hand"), N_("{count} hands"))
    if night.hands != night.last_hand:
        void = len(night.voided)
        penalties = len(night.penalties - night.voided)
        pots = len(night.pot_rows - night.voided)
        doublers = night.last_hand - night.hands - void - penalties - pots
        why = [_("{count} void").format(count=void)] if void else []
        if doublers:
            why.append(count(doublers, N_("{count} doubler"), N_("{count} doublers")))
        if pots:
            why.append(_("{count} into the pot").format(count=pots))
        if penalties:
            why.append(count(penalties, N_("{count} penalty"), N_("{count} penalties")))
        numbered = ngettext(
            "{rows} row of hands, {hands} counted ({why})",
            "{rows} rows of hands, {hands} counted ({why})",
            night.last_hand,
        ).format(
            rows=night.last_hand,
            hands=count(night.hands, N_("{count} hand"), N_("{count} hands")),
            why=", ".join(why),
        )
    parts = [numbered, count(corrections, N_("{count} correction"), N_("{count} corrections"))]
    if night.seat_changes:
        parts.append(
            count(night.seat_changes, N_("{count} seat change"), N_("{count} seat changes"))
        )
    if night.pot or night.pot_rows:
        parts.append(_("the pot holds {pot}").format(pot=night.pot))
    return ", ".join(parts)
