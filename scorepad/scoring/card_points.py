"""What the picker's side's card points and tricks can be: in range, held by its cards (the
sums that some cards of a pack can add up to), and the class of points a score sees."""

import functools
from collections.abc import Mapping

from ..errors import HandError
from ..games import BY_NAME as GAME_BY_NAME
from ..games import WonBy
from ..i18n import gettext as _
from ..names import ACE_POINTS, MAKE, TOTAL_POINTS
from ..rules import Deal, Rules
from .records import Hand, PickerHand
from .seating import Seating, seat
from .words import plural


def tricks_needed(rules: Rules, hand: Hand) -> str | None:
    """Why a hand recorded now needs its tricks counted, or None.

    Where the top level is about tricks (`level3_by = "tricks"`, and Schafkopf's schwarz), 120
    card points may or may not be every trick, and points the bury alone could hold (0 at
    least) may or may not mean no trick: the points leave the score open, so scorepad asks
    rather than assume each side took a trick. (A hand recorded before keeps that assumption.)
    """
    if not isinstance(hand, PickerHand) or hand.tricks is not None:
        return None
    if rules.level3_by != "tricks":
        return None
    declared = GAME_BY_NAME.get(hand.game or "partner")
    if declared is not None and declared.won_by != WonBy.POINTS:
        return None  # (scoring asks for the tricks these are won or lost on)
    if not 0 <= hand.points <= TOTAL_POINTS:
        return None  # scoring says what is wrong with these
    deal = seat(rules, hand.players, hand.dealer, hand.out).deal
    top = "schwarz" if rules.is_schafkopf else "no-trick"
    if hand.points == TOTAL_POINTS:
        why = _("all {total_points} points may be every trick ({top}) or not").format(
            total_points=TOTAL_POINTS, top=top
        )
    elif hand.points <= deal.blind * ACE_POINTS:
        held = "the bury alone could hold them" if hand.points else "a trick may hold none"
        why = _("{points} points may mean no trick ({top}) or not: {held}").format(
            points=hand.points, top=top, held=held
        )
    else:
        return None
    return _("⟨points⟩ {points} needs ⟨tricks⟩: {why}; give ⟨tricks⟩ N").format(
        points=hand.points, why=why
    )


def check_points_and_tricks(hand: PickerHand, deal: Deal, words: Mapping[str, str]) -> None:
    """The picker's side's card points and tricks are in range and agree with each other
    (every trick is every point; no trick is the bury's points at most)."""
    p, t, total_tricks = hand.points, hand.tricks, deal.cards
    if not 0 <= p <= TOTAL_POINTS:
        raise HandError(
            _("⟨points⟩ {p}: card points run from 0 to {total_points}").format(
                p=p, total_points=TOTAL_POINTS
            )
        )
    if t is None:
        return
    if not 0 <= t <= total_tricks:
        raise HandError(
            _("⟨tricks⟩ {t}: this hand has {total_tricks} tricks (0 to {total_tricks})").format(
                t=t, total_tricks=total_tricks
            )
        )
    if t == total_tricks and p != TOTAL_POINTS:
        raise HandError(
            _(
                "⟨tricks⟩ {t} is every trick, so the {words} has all {total_points} card "
                "points, not {p}"
            ).format(t=t, words=_(words["side"]), total_points=TOTAL_POINTS, p=p)
        )
    bury_most = deal.blind * ACE_POINTS
    if t == 0 and p > bury_most:
        held = (
            _("only the bury's points, at most {bury_most}").format(bury_most=bury_most)
            if deal.blind
            else "no card points (there is no blind)"
        )
        raise HandError(
            _("⟨tricks⟩ 0 with ⟨points⟩ {p}: without a trick the {words} has {held}").format(
                p=p, words=_(words["side"]), held=held
            )
        )


# The cards that count, each four times in a pack (an ace, ten, king, queen or Ober, jack or
# Unter): 120 card points; the other cards of a pack (sevens, eights, nines) count nothing.
_COUNTING = (ACE_POINTS, 10, 4, 3, 2)


@functools.cache
def _counting_sums() -> tuple[int, ...]:
    """For each number of counting cards taken (0 to 20), the card points they can hold
    together, as the bits of an int (bit s set: s card points): taking one more card of
    `value` shifts the sums of one card fewer. Once a process: every pack has these 20."""
    held = [1] + [0] * (4 * len(_COUNTING))
    for count, value in enumerate((v for v in _COUNTING for copy in range(4)), 1):
        for taken in range(count, 0, -1):
            held[taken] |= held[taken - 1] << value
    return tuple(held)


def _sums_of(deck: int, cards: int) -> int:
    """The card points `cards` cards of a pack of `deck` can hold, as bits (`_counting_sums`):
    some of them counting cards, the rest cards that count nothing."""
    counting = _counting_sums()
    blank = deck - (len(counting) - 1)
    if not 0 <= cards <= deck:
        return 0
    sums = 0
    for taken in range(max(0, cards - blank), min(cards, len(counting) - 1) + 1):
        sums |= counting[taken]
    return sums


@functools.cache
def possible_points(deck: int, cards: int) -> frozenset[int]:
    """The card points that `cards` cards of a pack of `deck` (32 or 24) can hold together."""
    sums = _sums_of(deck, cards)
    return frozenset(s for s in range(sums.bit_length()) if sums >> s & 1)


def _cards_held(tricks: int | None, deal: Deal, players: int) -> tuple[int, ...]:
    """How many cards the picker's side may have taken: its tricks' and the bury (each side at
    least one trick when its tricks are not given)."""
    counts = (tricks,) if tricks is not None else range(1, deal.cards)
    return tuple(t * players + deal.blind for t in counts)


def check_cards_hold(hand: PickerHand, seating: Seating) -> None:
    """The picker's side's card points are what its cards can hold: its tricks' and the bury's
    cards hold at least some points and at most some, and no cards add up to some (1, 119)."""
    deal, players, p = seating.deal, seating.size, hand.points
    deck = players * deal.cards + deal.blind
    counts = _cards_held(hand.tricks, deal, players)
    if any(p in possible_points(deck, k) for k in counts):
        return
    if hand.tricks is None:
        raise HandError(
            _("⟨points⟩ {p}: no cards add up to {plural}").format(
                p=p, plural=plural(p, "card point")
            )
        )
    (k,) = counts
    t = hand.tricks
    held = _("{plural} of {players} cards").format(plural=plural(t, "trick"), players=players) + (
        _(" and the bury ({blind})").format(blind=deal.blind) if deal.blind else ""
    )
    sums = possible_points(deck, k)
    if p < min(sums):
        why = _("{held} are {k} cards, which hold at least {min_sums} card points").format(
            held=held, k=k, min_sums=min(sums)
        )
    elif p > max(sums):
        why = _("{held} are {k} cards, which hold at most {max_sums} card points").format(
            held=held, k=k, max_sums=max(sums)
        )
    else:
        why = _("no {k} cards of the pack add up to {plural}").format(
            k=k, plural=plural(p, "card point")
        )
    raise HandError(_("⟨points⟩ {p} with ⟨tricks⟩ {t}: {why}").format(p=p, t=t, why=why))


def possible_in(rules: Rules, points: int, tricks: int | None = None) -> tuple[bool, ...]:
    """For each deal of these rules, whether the picker's side's cards can hold `points` when
    it took `tricks` (None: not given; then any count but none or all) (a part of
    `points_class`)."""
    deals = tuple(sorted(rules.deals.items()))
    return tuple(points >= 0 and held >> points & 1 == 1 for held in _held_by_deal(deals, tricks))


@functools.cache
def _held_by_deal(deals: tuple[tuple[int, Deal], ...], tricks: int | None) -> tuple[int, ...]:
    """For each deal, in the order of `possible_in`, the card points the picker's side's cards
    can hold when it took `tricks`, as bits (`_sums_of`; once per set of deals and tricks:
    each class of a night's hands asks)."""
    found = []
    for players, deal in deals:
        deck = players * deal.cards + deal.blind
        held = 0
        if tricks is None or 0 <= tricks <= deal.cards:
            for k in _cards_held(tricks, deal, players):
                held |= _sums_of(deck, k)
        found.append(held)
    return tuple(found)


def points_class(rules: Rules, points: int, tricks: int | None = None) -> tuple[int | bool, ...]:
    """What the score of a picker hand whose side took `tricks` (None: not given) sees of its
    card points (0 to 120).

    Two hands that differ only in their card points, with points of one class, score alike: the
    same outcome, level, stake and points for every player (only the explanation's figures
    differ), or are refused alike. Every threshold `score` compares the points with is here:
    the make, the schneider lines, all or none, the 60-60 tie, what the bury alone can hold
    (a side without a trick), and what the side's cards can hold. The ledger uses it to score a
    night's hands once per class; a property test holds `score` to it.
    """
    deals = sorted(rules.deals.items())
    return (
        points >= MAKE,
        points >= rules.schneider_win,
        points <= rules.schneider_loss,
        points == TOTAL_POINTS,
        points == 0,
        points == TOTAL_POINTS // 2,
        *((points > deal.blind * ACE_POINTS for _n, deal in deals) if tricks == 0 else ()),
        *(possible_in(rules, points, tricks) if rules.points_check == "cards" else ()),
    )
