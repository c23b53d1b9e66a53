"""The doublings of a hand (doublers, the night's last hand, knocks, Bock), multiplied and
capped; the Bock hands and the events that start a Bock round."""

from typing import NamedTuple

from ..errors import HandError
from ..games import BY_NAME as GAME_BY_NAME
from ..i18n import N_
from ..i18n import gettext as _
from ..names import TOTAL_POINTS
from ..rules import MAX_BOCK, MAX_BOCK_HANDS, MAX_DOUBLED, Rules
from .records import Hand, PickerHand, RamschHand
from .result import Outcome, Score
from .seating import Seating


def multiplied(rules: Rules, factors: list[tuple[str, int]]) -> int:
    """The doublings that apply multiplied, capped by max_multiplier."""
    product = 1
    for _label, factor in factors:
        product *= factor
    if rules.max_multiplier and product > rules.max_multiplier:
        return rules.max_multiplier
    return product


def doubling_text(rules: Rules, factors: list[tuple[str, int]]) -> str:
    """The doublings as a stake's working shows them (` x 2 (crack by Bob)`), and a cap."""
    text = "".join(f" x {factor} ({_(label)})" for label, factor in factors)
    product = 1
    for _label, factor in factors:
        product *= factor
    if rules.max_multiplier and product > rules.max_multiplier:
        text += _(", capped at x {max_multiplier} (max_multiplier)").format(
            max_multiplier=rules.max_multiplier
        )
    return text


def doubling_words(rules: Rules, factors: list[tuple[str, int]]) -> tuple[str, ...]:
    """Each doubling that applies, in a few words ("x2 crack"), and a cap of them."""
    words = tuple(f"x{factor} {_(label)}" for label, factor in factors)
    product = 1
    for _label, factor in factors:
        product *= factor
    if rules.max_multiplier and product > rules.max_multiplier:
        words += (
            _("capped at x{max_multiplier} (max_multiplier)").format(
                max_multiplier=rules.max_multiplier
            ),
        )
    return words


def doubler_factors(hand: Hand) -> list[tuple[str, int]]:
    """The hand doubled once for each doubler before it (`doubled`, checked)."""
    if hand.doubled < 0:
        raise HandError(_("⟨doubled⟩: a hand cannot be doubled a negative number of times"))
    if hand.doubled > MAX_DOUBLED:
        raise HandError(
            _(
                "⟨doubled⟩: a hand is doubled by {max_doubled} doublers at most ({doubled} given)"
            ).format(max_doubled=MAX_DOUBLED, doubled=hand.doubled)
        )
    return [(N_("doubled hand after a doubler"), 2)] * hand.doubled


def last_hand_factors(rules: Rules, hand: Hand) -> list[tuple[str, int]]:
    """The night's last hand, doubled where the rules say so (`last_hand_doubled`)."""
    if not hand.last:
        return []
    if not rules.last_hand_doubled:
        raise HandError(
            _(
                "⟨last⟩: {name} rules do not double the night's last hand "
                "(last_hand_doubled = false)"
            ).format(name=rules.name)
        )
    return [(N_("the night's last hand"), 2)]


def knock_factors(rules: Rules, seating: Seating, knocks: int) -> list[tuple[str, int]]:
    """Schafkopf's knocks (Klopfen), each x knock_factor; one a player at most."""
    if not 0 <= knocks <= seating.size:
        raise HandError(
            _("⟨knocks⟩ {knocks}: each of {size} players knocks once at most").format(
                knocks=knocks, size=seating.size
            )
        )
    return [(N_("knock"), rules.knock_factor)] * knocks


class Bock(NamedTuple):
    """A Bock hand: its factor and, in a session, its place in the Bock round (`2/5x2`: hand 2
    of a round of 5, x2; `x2` when only the factor is given, as `check --bock 2` does)."""

    factor: int
    place: int = 0  # 0: not given
    of: int = 0

    @classmethod
    def parse(cls, text: str) -> "Bock | None":
        """The Bock of a hand's `bock` cell (None: not a Bock hand), or a HandError."""
        if not text:
            return None
        place, _sep, factor = text.rpartition("x")
        at, _sep2, of = place.partition("/")
        numbers = (factor, at, of) if place else (factor,)
        if not all(n.isascii() and n.isdigit() and len(n) <= 5 for n in numbers) or (
            place and "/" not in place
        ):
            raise HandError(
                _(
                    "⟨bock⟩: {text!r} is not a Bock hand (its place and factor, e.g. 2/5x2, "
                    "or its factor, e.g. x2)"
                ).format(text=text[:40])
            )
        bock = cls(int(factor), int(at), int(of)) if place else cls(int(factor))
        if not 2 <= bock.factor <= MAX_BOCK:
            raise HandError(
                _("⟨bock⟩ {factor}: a Bock hand is x2 to x{max_bock}").format(
                    factor=bock.factor, max_bock=MAX_BOCK
                )
            )
        if place and not 1 <= bock.place <= bock.of <= MAX_BOCK_PLACES:
            raise HandError(
                _("⟨bock⟩ {text!r}: no hand {place} of a round of {of}").format(
                    text=text[:40], place=bock.place, of=bock.of
                )
            )
        return bock

    def text(self) -> str:
        """As the `bock` cell holds it: `2/5x2`, or `x2`."""
        return f"{self.place}/{self.of}x{self.factor}" if self.place else f"x{self.factor}"

    def words(self) -> str:
        """`bock 2 of 5, x2` (or `bock x2`)."""
        if self.place:
            return _("bock {place} of {of}, x{factor}").format(
                place=self.place, of=self.of, factor=self.factor
            )
        return _("bock x{factor}").format(factor=self.factor)


MAX_BOCK_PLACES = 20 * MAX_BOCK_HANDS  # the longest run of Bock hands (20 rounds of the most)


def bock_factors(hand: Hand) -> list[tuple[str, int]]:
    """A Bock hand's factor (its `bock` cell, checked)."""
    bock = Bock.parse(hand.bock)
    return [] if bock is None else [("Bock", bock.factor)]


def bock_events(rules: Rules, hand: Hand, result: Score) -> tuple[str, ...]:
    """The events of `bock_after` that a scored hand is (after each, a Bock round follows)."""
    if not rules.bock_after:
        return ()
    found = set()
    if isinstance(hand, PickerHand):
        if hand.points == TOTAL_POINTS // 2:
            found.add("sixty-sixty")
        if result.no_trick:
            found.add("schwarz")
        if hand.stoss >= 2 or hand.recrack:
            found.add("re")
        game = GAME_BY_NAME.get(hand.game or "partner")
        if game is not None and game.is_tout and result.outcome is Outcome.LOSS:
            found.add("tout-lost")
    elif isinstance(hand, RamschHand):
        if hand.jungfrau:
            found.add("jungfrau")
        if hand.durchmarsch:
            found.add("durchmarsch")
    return tuple(e for e in rules.bock_after if e in found)


_BOCK_WORDS = {
    "sixty-sixty": "a 60-60",
    "schwarz": "a schwarz",
    "re": "a re",
    "tout-lost": "a tout lost",
    "jungfrau": "a jungfrau",
    "durchmarsch": "a durchmarsch",
}


def with_bock(rules: Rules, hand: Hand, result: Score, explain: bool) -> Score:
    """The score, with the Bock round it brings (`bock_after`), said where it is explained."""
    events = bock_events(rules, hand, result)
    if not events:
        return result
    if not explain:
        return result._replace(bock_next=events)
    what = " and ".join(_BOCK_WORDS[e] for e in events)
    line = f"Bock: {what}; a Bock round follows (bock_after)."
    return result._replace(bock_next=events, explanation=(*result.explanation, line))
