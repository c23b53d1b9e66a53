"""Scoring one hand: who won, at what level and stake, each player's game points, and why.

`score(rules, hand)` takes a validated `Rules` and a `PickerHand` or `LeasterHand` and returns a
`Score`, or raises `HandError` naming what is wrong. It does no I/O and keeps no state: the session
ledger and the card-level tools call it the same way `scorepad check` does.
"""

import functools
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import NamedTuple

from .errors import HandError, worded
from .games import BY_NAME as GAME_BY_NAME
from .games import GAMES, Tops, TrumpSuit, WonBy, runs_min
from .i18n import N_, game_word, joined, ngettext
from .i18n import gettext as _
from .names import ACE_POINTS, MAKE, TOTAL_POINTS, Role
from .rules import MAX_AMOUNT, MAX_BOCK, MAX_BOCK_HANDS, MAX_DOUBLED, Deal, Rules, format_value

# --- inputs -------------------------------------------------------------------------------------


class PickerHand(NamedTuple):
    """A hand with a picker (in Schafkopf, a declarer): the inputs a table writes down."""

    players: tuple[str, ...]  # everyone at the table, in seat order
    picker: str
    points: int  # card points of the picker's side, bury included
    dealer: str | None = None  # default: the last of `players`
    partners: tuple[str, ...] = ()
    alone: bool = False
    tricks: int | None = None  # tricks of the picker's side; None: each side took one
    crack: str | None = None  # who cracked (Stoss)
    recrack: bool = False  # re-crack (Gegenstoss) by the picker's side
    doubled: int = 0  # how many doublers double this hand
    forced: bool = False
    game: str | None = None  # Schafkopf game; None: partner game (Schafkopf) / not given
    runs: int | None = None  # Schafkopf runs ("Laufende")
    blitz: int = 0  # blitzes shown (0-2), where the rules play blitz
    out: tuple[str, ...] = ()  # players sitting out this hand besides the rules' sit_out
    last: bool = False  # the night's last hand (last_hand_doubled)
    knocks: int = 0  # Schafkopf: knocks (Klopfen, Legen) before the game, each x knock_factor
    stoss: int = 0  # Schafkopf: Stoss calls (Kontra, Re, ...), each x2, up to max_stoss
    bock: str = ""  # a Bock hand's place and factor ("2/5x2": hand 2 of a round of 5, x2)


class LeasterHand(NamedTuple):
    """A leaster: everyone passed and plays alone; fewest card points wins."""

    players: tuple[str, ...]
    dealer: str | None = None
    winner: str | None = None
    leaster_points: Mapping[str, int] | None = None
    leaster_tricks: Mapping[str, int] | None = None
    doubled: int = 0
    out: tuple[str, ...] = ()
    blind_points: int | None = None  # leaster_blind = set-aside: the card points of the blind
    last: bool = False
    bock: str = ""


class SchwanzerHand(NamedTuple):
    """Everyone passed under all_pass = schwanzer: whoever was dealt the most schwanzer points
    (a queen 3, a jack 2, any other trump 1) loses."""

    players: tuple[str, ...]
    dealer: str | None = None
    schwanzer_points: Mapping[str, int] | None = None  # each active player's, as dealt
    losers: tuple[str, ...] = ()  # named instead (or to settle which of the points it was)
    doubled: int = 0
    out: tuple[str, ...] = ()
    last: bool = False
    bock: str = ""


class RamschHand(NamedTuple):
    """Everyone passed under all_pass = ramsch (Schafkopf): everyone plays alone and the most
    card points loses."""

    players: tuple[str, ...]
    dealer: str | None = None
    ramsch_points: Mapping[str, int] | None = None  # each active player's (120 in all)
    losers: tuple[str, ...] = ()  # the loser, named (or settling a tie for the most)
    jungfrau: tuple[str, ...] = ()  # players who took no trick
    durchmarsch: str | None = None  # one player took every trick
    doubled: int = 0
    out: tuple[str, ...] = ()
    last: bool = False
    knocks: int = 0
    bock: str = ""


class Penalty(NamedTuple):
    """A penalty (a misplay, a renege, a look at the blind): not a hand, a payment."""

    players: tuple[str, ...]  # everyone seated
    offender: str
    points: int  # paid to each other seated player (or to `to` alone)
    to: str | None = None


Hand = PickerHand | LeasterHand | SchwanzerHand | RamschHand


# --- outputs ------------------------------------------------------------------------------------


class Outcome(StrEnum):
    """How a hand ended for the picker's side (or that it was a leaster)."""

    WIN = "win"
    LOSS = "loss"
    LEASTER = "leaster"
    TIE = "tie"  # a 60-60 hand that is not scored (sixty_sixty = doubler)
    SCHWANZER = "schwanzer"
    RAMSCH = "ramsch"
    PENALTY = "penalty"
    POT = "pot"  # everyone passed, and each player paid into the pot (all_pass = pot)


class Score(NamedTuple):
    """The result of one hand: each active player's game points and the reasons, line by line."""

    outcome: Outcome
    stake: int  # the amount each defender pays or receives (leaster: the payout)
    deltas: Mapping[str, int]  # every active player, in seat order
    roles: Mapping[str, str]  # everyone at the table, in seat order
    explanation: tuple[str, ...]
    zero_sum: bool
    level: int | None = None
    winners: tuple[str, ...] = ()  # leaster winners
    schneider: bool = False  # the losing side was schneidered (level 2, or Schafkopf's bonus)
    no_trick: bool = False  # the losing side took no trick (level 3, or schwarz)
    sitting_out: tuple[str, ...] = ()  # at the table but not dealt in
    doubles_next: bool = False  # the next hand is doubled, as after a doubler (sixty_sixty)
    # the events of `bock_after` this hand is (a Bock round follows it), in the setting's order
    bock_next: tuple[str, ...] = ()
    losers: tuple[str, ...] = ()  # a schwanzer's losers
    # why the stake is more than the hand's value: each doubling ("x2 double on the bump"), and
    # a cap (the explanation's Stake line says the same with its figures)
    doublings: tuple[str, ...] = ()
    runs: int = 0  # the runs (Laufende) that count in a Schafkopf game's value, as given
    # what the hand put into the pot (all_pass = pot): the antes when everyone passed, what a
    # lost hand paid in; negative: what a won hand took out of it (see `pot`)
    pot: int = 0

    @property
    def winners_of_hand(self) -> tuple[str, ...]:
        """Who won the hand: a leaster's winners, else the players it paid."""
        if self.outcome is Outcome.LEASTER:
            return self.winners
        return tuple(p for p, v in self.deltas.items() if v > 0)

    def to_dict(self) -> dict[str, object]:
        """The score as plain data (for JSON)."""
        return {
            "outcome": self.outcome,
            "level": self.level,
            "stake": self.stake,
            "zero_sum": self.zero_sum,
            "deltas": dict(self.deltas),
            "roles": dict(self.roles),
            "winners": list(self.winners_of_hand),
            "schneider": self.schneider,
            "no_trick": self.no_trick,
            "doubles_next": self.doubles_next,
            "bock_next": list(self.bock_next),
            "losers": list(self.losers),
            "explanation": list(self.explanation),
            **({"into_pot": self.pot} if self.pot else {}),
        }


class Seating(NamedTuple):
    """Who plays a hand: the active players in picking order and who sits out."""

    players: tuple[str, ...]  # everyone at the table, in seat order
    dealer: str
    order: tuple[str, ...]  # active players, dealer's left first
    sitting_out: tuple[str, ...]
    deal: Deal

    @property
    def size(self) -> int:
        return len(self.order)


def _worded(lines: list[str]) -> tuple[str, ...]:
    """An explanation as the interface in force words the inputs it names (`errors.worded`)."""
    return tuple(worded(line) for line in lines)


# --- seating and names --------------------------------------------------------------------------


def same_name(name: str) -> str:
    """What two spellings of one name have in common: its NFC form, case folded."""
    if not name.isascii():
        import unicodedata

        name = unicodedata.normalize("NFC", name)
    return name.casefold()


def find_player(name: str, among: Sequence[str], option: str) -> str:
    """The player `name` refers to (case and Unicode form do not matter: a composed "Zoë" typed
    at the keyboard is the decomposed one in a file); unknown names suggest the closest."""
    if name in among:  # (as written: the common case, and the cheapest)
        return name
    wanted = same_name(name.strip())
    for player in among:
        if same_name(player) == wanted:
            return player
    import difflib  # only on the way to an error

    close = difflib.get_close_matches(name, list(among), n=1, cutoff=0.5)
    hint = _(" (did you mean {close}?)").format(close=close[0]) if close else ""
    raise HandError(
        _("{option} {name}: unknown player{hint}; players: {among}").format(
            option=option, name=name, hint=hint, among=", ".join(among)
        )
    )


def seat(
    rules: Rules, players: Sequence[str], dealer: str | None = None, out: Iterable[str] = ()
) -> Seating:
    """Work out who plays this hand and in which order, by the rules' deal table and sit_out."""
    players = tuple(players)
    if len(players) < 2:
        raise HandError(
            _(
                "⟨players⟩: name everyone at the table, in seat order, e.g. ⟨players⟩ "
                "Ann,Bob,Cy,Dee,Ed"
            )
        )
    seen: dict[str, str] = {}
    for name in players:
        if not name.strip():
            raise HandError(_("⟨players⟩: a player's name is empty"))
        key = same_name(name)
        if key in seen:
            raise HandError(_("⟨players⟩: {name} is listed twice").format(name=name))
        seen[key] = name
    dealer = find_player(dealer, players, "⟨dealer⟩") if dealer else players[-1]
    start = players.index(dealer) + 1
    rotation = players[start:] + players[:start]  # the dealer's left first, the dealer last
    sitting = {find_player(name, players, "⟨out⟩") for name in out}
    if rules.sit_out == "dealer" and len(players) - len(sitting) > rules.seats:
        sitting.add(dealer)
    order = tuple(p for p in rotation if p not in sitting)
    deal = rules.deal_for(len(order))
    if deal is None:
        counts = ", ".join(str(n) for n in sorted(rules.deals))
        why = _(" ({len_sitting} sitting out)").format(len_sitting=len(sitting)) if sitting else ""
        raise HandError(
            _(
                "{len_order} players in the hand{why}: {name} rules deal for {counts} players"
            ).format(len_order=len(order), why=why, name=rules.name, counts=counts)
        )
    return Seating(players, dealer, order, tuple(p for p in players if p in sitting), deal)


def _active(seating: Seating, name: str, option: str) -> str:
    player = find_player(name, seating.players, option)
    if player in seating.sitting_out:
        raise HandError(
            _("{option} {player}: {player} sits out this hand").format(option=option, player=player)
        )
    return player


def _in_seat_order(seating: Seating, values: Mapping[str, int]) -> dict[str, int]:
    return {p: values[p] for p in seating.players if p in values}


_PLURALS = {
    "card point": (N_("{n} card point"), N_("{n} card points")),
    "card": (N_("{n} card"), N_("{n} cards")),
    "partner": (N_("{n} partner"), N_("{n} partners")),
    "player": (N_("{n} player"), N_("{n} players")),
    "run": (N_("{n} run"), N_("{n} runs")),
    "trick": (N_("{n} trick"), N_("{n} tricks")),
    "defender": (N_("{n} defender"), N_("{n} defenders")),
    "opponent": (N_("{n} opponent"), N_("{n} opponents")),
}


def _plural(n: int, word: str) -> str:
    forms = _PLURALS.get(word)
    if forms is None:
        return f"{n} {word}" if n == 1 else f"{n} {word}s"
    return ngettext(forms[0], forms[1], n).format(n=n)


def _names(names: Sequence[str]) -> str:
    return ", ".join(names) if names else _("nobody")


# --- doublings and settlement (shared by every kind of hand) ------------------------------------


def _doublings(rules: Rules, factors: list[tuple[str, int]]) -> tuple[int, str]:
    """Multiply the doublings that apply, capped by max_multiplier; return it and its text."""
    product = 1
    for _label, factor in factors:
        product *= factor
    text = "".join(f" x {factor} ({_(label)})" for label, factor in factors)
    if rules.max_multiplier and product > rules.max_multiplier:
        text += _(", capped at x {max_multiplier} (max_multiplier)").format(
            max_multiplier=rules.max_multiplier
        )
        product = rules.max_multiplier
    return product, text


def _doubling_words(rules: Rules, factors: list[tuple[str, int]]) -> tuple[str, ...]:
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


def _doubler_factors(hand: Hand) -> list[tuple[str, int]]:
    if hand.doubled < 0:
        raise HandError(_("⟨doubled⟩: a hand cannot be doubled a negative number of times"))
    if hand.doubled > MAX_DOUBLED:
        raise HandError(
            _(
                "⟨doubled⟩: a hand is doubled by {max_doubled} doublers at most ({doubled} given)"
            ).format(max_doubled=MAX_DOUBLED, doubled=hand.doubled)
        )
    return [(N_("doubled hand after a doubler"), 2)] * hand.doubled


def _settle(
    rules: Rules,
    seating: Seating,
    picker: str,
    partners: tuple[str, ...],
    won: bool,
    stake: int,
    partner_free: bool,
    side: Mapping[str, str],
) -> tuple[dict[str, int], list[str]]:
    """Each active player's game points for a picker hand, and the lines that explain them."""
    sign = 1 if won else -1
    defenders = [p for p in seating.order if p != picker and p not in partners]
    deltas = dict.fromkeys(seating.order, 0)
    lines = []
    if rules.zero_sum:
        pay, get = (_("pays"), _("receives")) if won else (_("receives"), _("pays"))
        for d in defenders:
            deltas[d] = -sign * stake
        lines.append(
            _("Each {side} {pay} {stake}: {names}.").format(
                side=_(side["defender"]), pay=pay, stake=stake, names=_names(defenders)
            )
        )
        paying_partners = () if partner_free else partners
        if partners and partner_free:
            lines.append(
                _(
                    "{side} {names} pays nothing: the {side2} pays every share "
                    "(partner_free_on_no_trick)."
                ).format(side=_(side["Partner"]), names=_names(partners), side2=_(side["picker"]))
            )
        if paying_partners and rules.partner_split == "equal":
            pot = len(defenders) * stake
            each, left = divmod(pot, 1 + len(paying_partners))
            for p in paying_partners:
                deltas[p] = sign * each
            deltas[picker] = sign * (each + left)
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
                    names=_names(paying_partners),
                    get=get,
                    each=each,
                    lower=_(side["Picker"]).lower(),
                    picker=picker,
                    each2=each + left,
                )
                + (_(" (the {left} that does not divide).").format(left=left) if left else ".")
            )
        else:
            for p in paying_partners:
                deltas[p] = sign * stake
            if paying_partners:
                lines.append(f"{_(side['Partner'])} {_names(partners)} {get} {stake}.")
            share = len(defenders) - len(paying_partners)
            deltas[picker] = sign * share * stake
            rest = (
                _("the rest, ({plural} - {plural2}) x {stake}").format(
                    plural=_plural(len(defenders), side["defender"]),
                    plural2=_plural(len(paying_partners), "partner"),
                    stake=stake,
                )
                if paying_partners
                else f"{len(defenders)} x {stake}"
            )
            lines.append(f"{_(side['Picker'])} {picker} {get} {rest} = {share * stake}.")
        lines.append(_("The hand sums to {sum}.").format(sum=sum(deltas.values())))
    else:
        movers = [picker] + ([] if partner_free else list(partners))
        for p in movers:
            deltas[p] = sign * stake
        way = "up" if won else "down"
        lines.append(
            _(
                "Race to {target}: {names} move {way} {stake}; {side}s do not move (race "
                "ledgers are not zero-sum)."
            ).format(
                target=rules.target,
                names=_names(movers),
                way=way,
                stake=stake,
                side=_(side["defender"]),
            )
        )
    return deltas, lines


# --- picker hands -------------------------------------------------------------------------------

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


def _check_points_and_tricks(hand: PickerHand, deal: Deal, words: Mapping[str, str]) -> None:
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


def _check_cards_hold(hand: PickerHand, seating: Seating) -> None:
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
                p=p, plural=_plural(p, "card point")
            )
        )
    (k,) = counts
    t = hand.tricks
    held = _("{plural} of {players} cards").format(plural=_plural(t, "trick"), players=players) + (
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
            k=k, plural=_plural(p, "card point")
        )
    raise HandError(_("⟨points⟩ {p} with ⟨tricks⟩ {t}: {why}").format(p=p, t=t, why=why))


def possible_in(rules: Rules, points: int) -> tuple[bool, ...]:
    """For each deal of these rules and each count of the picker's side's tricks (or none
    given), whether its cards can hold `points` (a part of `points_class`)."""
    deals = tuple(sorted(rules.deals.items()))
    return tuple(points >= 0 and held >> points & 1 == 1 for held in _held_by_deal(deals))


@functools.cache
def _held_by_deal(deals: tuple[tuple[int, Deal], ...]) -> tuple[int, ...]:
    """For each deal and each count of the picker's side's tricks (or none given), in the order
    of `possible_in`, the card points its cards can hold, as bits (`_sums_of`; once per set of
    deals: each hand class of a night's rules asks)."""
    found = []
    for players, deal in deals:
        deck = players * deal.cards + deal.blind
        for tricks in (None, *range(deal.cards + 1)):
            held = 0
            for k in _cards_held(tricks, deal, players):
                held |= _sums_of(deck, k)
            found.append(held)
    return tuple(found)


def _losers_pay(
    rules: Rules, order: Sequence[str], losers: Sequence[str], stake: int, lines: list[str]
) -> tuple[dict[str, int], list[str]]:
    """Each loser pays `stake` to each other player (in a race the losers move down it, and a
    line says so); returns each player's points and the others."""
    deltas = dict.fromkeys(order, 0)
    others = [p for p in order if p not in losers]
    if losers and not rules.zero_sum:
        for p in losers:
            deltas[p] = -stake
        lines.append(
            _("Race to {target}: {names} move down {stake}; nobody else moves.").format(
                target=rules.target, names=_names(losers), stake=stake
            )
        )
    elif losers:
        for p in losers:
            deltas[p] = -stake * len(others)
        for p in others:
            deltas[p] = stake * len(losers)
    return deltas, others


def _side(rules: Rules, seating: Seating, hand: PickerHand) -> tuple[str, tuple[str, ...]]:
    """The picker and partners, checked against the table and the deal."""
    picker = _active(seating, hand.picker, "⟨picker⟩")
    partners: list[str] = []
    for name in hand.partners:
        partner = _active(seating, name, "⟨partners⟩")
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
                plural=_plural(len(partners), "partner"),
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
    cracker = _active(seating, hand.crack, "⟨crack⟩")
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


def _check_family_options(rules: Rules, hand: PickerHand) -> None:
    if not rules.is_schafkopf:
        for option, given in (("⟨game⟩", hand.game), ("⟨runs⟩", hand.runs)):
            if given is not None:
                raise HandError(
                    _(
                        "{option} belongs to Schafkopf; {name} rules are Sheepshead (use ⟨rules⟩ "
                        "schafkopf)"
                    ).format(option=option, name=rules.name)
                )
        for option, count in (("⟨knocks⟩", hand.knocks), ("⟨stoss⟩", hand.stoss)):
            if count:
                raise HandError(
                    _(
                        "{option} belongs to Schafkopf; {name} rules are Sheepshead (a crack is "
                        "⟨crack⟩ NAME)"
                    ).format(option=option, name=rules.name)
                )
    if hand.blitz:
        if not rules.blitz:
            raise HandError(
                _("⟨blitz⟩: {name} rules play no blitz (blitz = false)").format(name=rules.name)
            )
        if not 0 <= hand.blitz <= 2:
            raise HandError(
                _("⟨blitz⟩ {blitz}: at most 2 blitzes (black queens, red queens)").format(
                    blitz=hand.blitz
                )
            )


def _knock_factors(rules: Rules, seating: Seating, knocks: int) -> list[tuple[str, int]]:
    if not 0 <= knocks <= seating.size:
        raise HandError(
            _("⟨knocks⟩ {knocks}: each of {size} players knocks once at most").format(
                knocks=knocks, size=seating.size
            )
        )
    return [(N_("knock"), rules.knock_factor)] * knocks


def _stoss_factors(rules: Rules, hand: PickerHand) -> list[tuple[str, int]]:
    if not hand.stoss:
        return []
    if hand.crack is not None or hand.recrack:
        raise HandError(_("⟨stoss⟩ N counts every Stoss; give it or ⟨crack⟩/⟨recrack⟩, not both"))
    if not rules.cracks:
        raise HandError(
            _("⟨stoss⟩: {name} rules have no Stoss (cracks = false)").format(name=rules.name)
        )
    if not 0 <= hand.stoss <= rules.max_stoss:
        raise HandError(
            _("⟨stoss⟩ {stoss}: at most {max_stoss} (max_stoss)").format(
                stoss=hand.stoss, max_stoss=rules.max_stoss
            )
        )
    return [("Stoss", 2)] * hand.stoss


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
    factors += _stoss_factors(rules, hand)
    factors += _knock_factors(rules, seating, hand.knocks)
    factors += _doubler_factors(hand)
    factors += [("blitz", 2)] * hand.blitz
    factors += _last_hand_factors(rules, hand) + _bock_factors(hand)
    return factors


def _last_hand_factors(rules: Rules, hand: Hand) -> list[tuple[str, int]]:
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


def _bock_factors(hand: Hand) -> list[tuple[str, int]]:
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


def _with_bock(rules: Rules, hand: Hand, result: Score) -> Score:
    """The score, with the Bock round it brings (`bock_after`) said."""
    events = bock_events(rules, hand, result)
    if not events:
        return result
    what = " and ".join(_BOCK_WORDS[e] for e in events)
    line = f"Bock: {what}; a Bock round follows (bock_after)."
    return result._replace(bock_next=events, explanation=(*result.explanation, line))


def _score_picker(rules: Rules, hand: PickerHand) -> Score:
    """A hand with a picker (a declarer), in either family: who is on which side, the value
    (`_sheepshead_value` or `_schafkopf_value`), the doublings, and each player's points."""
    words = _SCHAFKOPF_WORDS if rules.is_schafkopf else _SHEEPSHEAD_WORDS
    _check_family_options(rules, hand)
    seating = seat(rules, hand.players, hand.dealer, hand.out)
    if rules.is_schafkopf:
        hand = _declared(rules, hand)
    picker, partners = _side(rules, seating, hand)
    if rules.is_schafkopf and GAME_BY_NAME[hand.game or "partner"].runs_as is None:
        _check_bettel(hand, seating.deal)
    else:
        _check_points_and_tricks(hand, seating.deal, words)
        if rules.points_check == "cards":
            _check_cards_hold(hand, seating)
    p = hand.points

    lines = []
    defenders = [x for x in seating.order if x != picker and x not in partners]
    who = f"{_(words['Picker'])} {picker}"
    if partners:
        who += ngettext(", partner {names}", ", partners {names}", len(partners)).format(
            names=_names(partners)
        )
    elif not rules.is_schafkopf:
        who += _(" alone")
    deal = seating.deal
    lines.append(
        _(
            "{who}; {words}s {names} ({size}-handed: {cards} cards each, {blind} in the blind)."
        ).format(
            who=who,
            words=_(words["defender"]),
            names=_names(defenders),
            size=seating.size,
            cards=deal.cards,
            blind=deal.blind,
        )
    )
    if seating.sitting_out:
        lines.append(
            _("Sitting out: {names} (0 points).").format(names=_names(seating.sitting_out))
        )

    won, value, level, value_lines, marks, formula = _value(rules, hand, seating)
    lines += value_lines
    no_trick = not won and marks[1]
    partner_free = not won and bool(partners) and rules.partner_free_on_no_trick and level == 3
    tie = not rules.is_schafkopf and p == TOTAL_POINTS // 2 and rules.sixty_sixty != "loss"
    if tie and rules.sixty_sixty == "doubler":
        return _sixty_sixty_thrown_in(rules, seating, hand, picker, partners, lines, words)

    factors = _common_factors(rules, seating, hand, picker, partners, won, no_trick, words)
    product, factor_text = _doublings(rules, factors)
    stake = value * product
    formula += factor_text
    lines.append(
        _("Stake: {formula} = {stake}.").format(formula=formula, stake=stake)
        if formula != str(stake)
        else _("Stake: {stake}.").format(stake=stake)
    )
    lines += _bump_notes(rules, hand, won, no_trick, words)
    if tie:
        lines.append(_("60-60: the next hand is doubled, as after a doubler (sixty_sixty)."))

    deltas, settle_lines = _settle(
        rules, seating, picker, partners, won, stake, partner_free, words
    )
    lines += settle_lines
    return Score(
        Outcome.WIN if won else Outcome.LOSS,
        stake,
        MappingProxyType(_in_seat_order(seating, deltas)),
        MappingProxyType(_picker_roles(seating, picker, partners, words)),
        _worded(lines),
        rules.zero_sum,
        level,
        schneider=marks[0],
        no_trick=marks[1],
        sitting_out=seating.sitting_out,
        doubles_next=tie,
        doublings=_doubling_words(rules, factors),
        runs=_runs_that_count(rules, hand),
    )


def _runs_that_count(rules: Rules, hand: PickerHand) -> int:
    """The runs given with a Schafkopf hand when its game counts them (0 when too few)."""
    counts_as = GAME_BY_NAME[hand.game or "partner"].runs_as if rules.is_schafkopf else None
    if counts_as is None or not hand.runs:
        return 0
    return hand.runs if hand.runs >= runs_min(rules.runs_min, hand.game) else 0


def _declared(rules: Rules, hand: PickerHand) -> PickerHand:
    """A Schafkopf hand's game checked against the table (valued, with or without a partner as
    the game is played); a game without a partner is the declarer's alone."""
    if hand.alone:
        raise HandError(
            _("⟨alone⟩: in Schafkopf a lone game is a solo, wenz or geier; give ⟨game⟩")
        )
    game = hand.game or "partner"
    if game not in GAMES:
        raise HandError(
            _("⟨game⟩ {game}: choose one of {games}").format(game=game, games=", ".join(GAMES))
        )
    valued = GAME_BY_NAME[game].value
    if valued not in rules.game_values:
        raise HandError(
            _(
                "⟨game⟩ {game}: {name} rules give a {shown} no value (set "
                "game_values.{valued}, or use ⟨rules⟩ bavarian)"
            ).format(game=game, shown=game_word(game), name=rules.name, valued=valued)
        )
    if not GAME_BY_NAME[game].partner:
        if hand.partners:
            raise HandError(
                _("⟨partners⟩: a {game} is one against three and has no partner").format(
                    game=game_word(game)
                )
            )
        return hand._replace(alone=True)
    if not hand.partners:
        raise HandError(
            _("a {value} needs the ⟨partners⟩: ").format(
                value="partner game" if game == "partner" else game
            )
            + (
                "whoever took the offered trump"
                if game == "hochzeit"
                else "whoever held the called ace (or give ⟨game⟩ solo, wenz, geier, ...)"
            )
        )
    return hand


def _value(
    rules: Rules, hand: PickerHand, seating: Seating
) -> tuple[bool, int, int | None, list[str], tuple[bool, bool], str]:
    """Won or lost, the value and level, its working, whether schneider and no-trick (schwarz)
    were scored, and the stake's formula so far: by the family's way of valuing a hand."""
    p, t = hand.points, hand.tricks
    if rules.is_schafkopf:
        won, value, level, lines, marks = _schafkopf_value(rules, hand, seating, p, t)
        return won, value, level, lines, marks, str(value)
    won, value, level3, lines = _sheepshead_value(rules, p, t, seating.deal.cards)
    formula = _("base {base} x level multiplier {value}").format(
        base=rules.base, value=value // rules.base
    )
    return won, value, level3, lines, (level3 == 2, level3 == 3), formula


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
    lines: list[str],
    words: Mapping[str, str],
) -> Score:
    """A 60-60 hand under sixty_sixty = doubler: not scored, and the next hand is doubled."""
    _crack_factors(rules, seating, hand, picker, partners, words)  # (checked all the same)
    _last_hand_factors(rules, hand)
    _bock_factors(hand)
    lines = [line.replace("a 60-60 tie is a loss", "a 60-60 tie") for line in lines[:-1]]
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
        _worded(lines),
        rules.zero_sum,
        None,
        sitting_out=seating.sitting_out,
        doubles_next=True,
    )


def points_class(rules: Rules, points: int) -> tuple[int | bool, ...]:
    """What a picker hand's score sees of its card points (0 to 120).

    Two hands that differ only in their card points, with points of one class, score alike: the
    same outcome, level, stake and points for every player (only the explanation's figures
    differ). Every threshold `score` compares the points with is here: the make, the schneider
    lines, all or none, the 60-60 tie, and how many blind cards could hold them. The ledger uses
    it to score a night's hands once per class; a property test holds `score` to it.
    """
    return (
        points >= MAKE,
        points >= rules.schneider_win,
        points <= rules.schneider_loss,
        points == TOTAL_POINTS,
        points == 0,
        points == TOTAL_POINTS // 2,
        -(-points // ACE_POINTS),
        *(possible_in(rules, points) if rules.points_check == "cards" else ()),
    )


def _sheepshead_value(
    rules: Rules, p: int, t: int | None, total_tricks: int
) -> tuple[bool, int, int, list[str]]:
    """Win or loss, the stake before doublings, the level, and their explanation."""
    won = p >= MAKE
    lines = []
    took = _("{p} card points").format(p=p) + (
        _(" and {t} of {total_tricks} tricks").format(t=t, total_tricks=total_tricks)
        if t is not None
        else ""
    )
    if won:
        lines.append(
            _("The picker's side took {took}: {p} >= {make}, a win.").format(
                took=took, p=p, make=MAKE
            )
        )
    elif p == TOTAL_POINTS // 2:
        lines.append(_("The picker's side took {took}: a 60-60 tie is a loss.").format(took=took))
    else:
        lines.append(
            _("The picker's side took {took}: {p} < {make}, a loss.").format(
                took=took, p=p, make=MAKE
            )
        )
    if t is None and rules.level3_by == "tricks":
        lines.append(_("No ⟨tricks⟩ given: each side is taken to have won a trick."))

    if rules.level3_by == "tricks":
        top = t == total_tricks if won else t == 0
        top_why = "took every trick (no-trick)" if won else "took no trick (no-trick)"
    else:
        top = p == TOTAL_POINTS if won else p == 0
        top_why = _("took {value} card points").format(value="all 120" if won else "no")
    if top:
        level, why = 3, _("Level 3: the picker's side {top_why}.").format(top_why=top_why)
    elif won and p >= rules.schneider_win:
        level, why = (
            2,
            (
                _(
                    "Level 2 (schneider): {p} >= {schneider_win}, the defenders held "
                    "{total_points}."
                ).format(p=p, schneider_win=rules.schneider_win, total_points=TOTAL_POINTS - p)
            ),
        )
        if p == TOTAL_POINTS and rules.level3_by == "tricks":
            why += " Not no-trick: the defenders took a trick, even if it held no points."
    elif not won and p <= rules.schneider_loss:
        level, why = (
            2,
            _("Level 2 (schneider): {p} <= {schneider_loss}.").format(
                p=p, schneider_loss=rules.schneider_loss
            ),
        )
    elif won:
        level, why = (
            1,
            _("Level 1: {p} is under the schneider line of {schneider_win}.").format(
                p=p, schneider_win=rules.schneider_win
            ),
        )
    else:
        level, why = (
            1,
            _("Level 1: {p} is over the schneider line of {schneider_loss}.").format(
                p=p, schneider_loss=rules.schneider_loss
            ),
        )
    lines.append(why)
    return won, rules.base * rules.level_multipliers[level - 1], level, lines


def _check_bettel(hand: PickerHand, deal: Deal) -> None:
    if hand.tricks is None:
        raise HandError(_("⟨tricks⟩ is needed for a bettel: the declarer wins by taking none"))
    if not 0 <= hand.tricks <= deal.cards:
        raise HandError(
            _("⟨tricks⟩ {tricks}: this hand has {cards} tricks").format(
                tricks=hand.tricks, cards=deal.cards
            )
        )
    if hand.runs:
        raise HandError(_("⟨runs⟩: a bettel has no trumps, so no runs"))


def _max_runs(game: str, seating: Seating) -> int:
    """How many trumps a game has in this deal (the most runs it can count): its tops (the
    four Obers or Unters, or both), then the rest of its trump suit."""
    spec = GAME_BY_NAME[game]
    deck = seating.size * seating.deal.cards + seating.deal.blind
    tops = 8 if spec.tops == Tops.OBERS_UNTERS else 4
    if spec.suit == TrumpSuit.NONE:
        return tops
    return tops + deck // 4 - tops // 4  # (the suit, less its cards among the tops)


def _counted_runs(
    rules: Rules, game: str, seating: Seating, runs: int, lines: list[str]
) -> tuple[int, str]:
    """The value of a game's runs (runs x run_value), from runs_min, capped at runs_max."""
    most = _max_runs(game, seating)
    if not 0 <= runs <= most:
        raise HandError(
            _("⟨runs⟩ {runs}: a {game} has {most} trumps, so 0 to {most} runs").format(
                runs=runs, game=game_word(game), most=most
            )
        )
    counts_as = GAME_BY_NAME[game].runs_as
    assert counts_as is not None
    least = runs_min(rules.runs_min, game)
    if runs < least:
        if runs:
            own = GAME_BY_NAME[game].base
            lines.append(
                _("{plural} count nothing: a {counts_as} game needs at least {least}.").format(
                    plural=_plural(runs, "run"),
                    counts_as=own if own in rules.runs_min else counts_as,
                    least=least,
                )
            )
        return 0, ""
    cap = rules.runs_max.get(counts_as, 0)
    counted = min(runs, cap) if cap else runs
    if counted < runs:
        lines.append(
            _("Runs are capped at {cap} (runs_max.{counts_as}).").format(
                cap=cap, counts_as=counts_as
            )
        )
    value = counted * rules.run_value
    text = (
        f"runs {counted}"
        if rules.run_value == 1
        else _("runs {counted} x {run_value}").format(counted=counted, run_value=rules.run_value)
    )
    return value, text


def _schafkopf_value(
    rules: Rules, hand: PickerHand, seating: Seating, p: int, t: int | None
) -> tuple[bool, int, int | None, list[str], tuple[bool, bool]]:
    """Win or loss, the game value (base + schneider + schwarz + runs, or a tout's, a sie's or
    a bettel's) explained, and whether schneider and schwarz were scored."""
    game = hand.game or "partner"
    spec = GAME_BY_NAME[game]
    total_tricks = seating.deal.cards
    tout = spec.is_tout
    lines = []
    took = _("{p} card points").format(p=p) + (
        _(" and {t} of {total_tricks} tricks").format(t=t, total_tricks=total_tricks)
        if t is not None
        else ""
    )
    if spec.won_by == WonBy.NO_TRICK:
        assert t is not None
        won = t == 0
        lines.append(
            _("The declarer took {plural}: a bettel is {value}.").format(
                plural=_plural(t, "trick"),
                value=_("won: no trick") if won else _("lost: it is won only by taking no trick"),
            )
        )
        value = rules.game_values[spec.value]
        lines.append(
            _("Game value: {game} {value} (no schneider, schwarz or runs).").format(
                game=game_word(game), value=value
            )
        )
        return won, value, None, lines, (False, False)
    if tout:
        if t is None:
            raise HandError(
                _("⟨tricks⟩ is needed for a {game}: it is won only by taking every trick").format(
                    game=game_word(game)
                )
            )
        won = t == total_tricks
        lines.append(
            _("The declarer took {took}: a {game} is {value}.").format(
                took=took,
                game=game_word(game),
                value=_("won: every trick") if won else _("lost: it needs every trick"),
            )
        )
    else:
        won = p >= MAKE
        verdict = (
            _("{p} >= {make}, a win").format(p=p, make=MAKE)
            if won
            else (
                _("a 60-60 tie is a loss")
                if p == 60
                else _("{p} < {make}, a loss").format(p=p, make=MAKE)
            )
        )
        lines.append(
            _("The declarer's side took {took}: {verdict}.").format(took=took, verdict=verdict)
        )
    runs_value, runs_text = _counted_runs(rules, game, seating, hand.runs or 0, lines)
    schneider = schwarz = False
    if spec.value_times != 1:  # (a sie: twice a solo-tout)
        tout_value, tout_text = _tout_value(rules, spec.value, runs_value, runs_text)
        value = spec.value_times * tout_value
        lines.append(
            _(
                "Game value: a {game} is twice a {value}: {value_times} x ({tout_text}) = {value2}."
            ).format(
                game=game_word(game),
                value=spec.value,
                value_times=spec.value_times,
                tout_text=tout_text,
                value2=value,
            )
        )
        return won, value, None, lines, (False, False)
    if tout:
        value, text = _tout_value(rules, game, runs_value, runs_text)
        lines.append(_("Game value: {text} = {value}.").format(text=text, value=value))
        return won, value, None, lines, (False, False)
    value = rules.game_values[game]
    parts = [f"{game_word(game)} {value}"]
    if (won and p >= rules.schneider_win) or (not won and p <= rules.schneider_loss):
        schneider = True
        value += rules.schneider_bonus
        parts.append(_("schneider {bonus}").format(bonus=rules.schneider_bonus))
    if t is not None and ((won and t == total_tricks) or (not won and t == 0)):
        schwarz = True
        value += rules.schwarz_bonus
        parts.append(_("schwarz {bonus}").format(bonus=rules.schwarz_bonus))
    if runs_text:
        value += runs_value
        parts.append(runs_text)
    lines.append(_("Game value: {parts} = {value}.").format(parts=" + ".join(parts), value=value))
    return won, value, None, lines, (schneider, schwarz)


def _tout_value(rules: Rules, game: str, runs_value: int, runs_text: str) -> tuple[int, str]:
    """A tout's value and its working: game_values.GAME-tout + runs, or under tout_scoring =
    double (game + runs) x 2 (no schneider or schwarz either way)."""
    if rules.tout_scoring == "double":
        base = game.removesuffix("-tout")
        inner = rules.game_values[base] + runs_value
        shown = f"{game_word(base)} {rules.game_values[base]}" + (
            f" + {runs_text}" if runs_text else ""
        )
        return 2 * inner, _("({shown}) x 2 (tout_scoring = double)").format(shown=shown)
    value = rules.game_values[game] + runs_value
    return value, f"{game_word(game)} {rules.game_values[game]}" + (
        f" + {runs_text}" if runs_text else ""
    )


# --- hands everyone plays alone: leaster, schwanzer, Ramsch -----------------------------------


def _roles(
    seating: Seating, marked: Iterable[str], marked_role: str, other_role: str
) -> dict[str, str]:
    """Everyone's part when everyone plays alone: `marked_role` for the winners (or losers)."""
    marked = set(marked)
    return {
        p: (
            Role.SITS_OUT
            if p in seating.sitting_out
            else marked_role
            if p in marked
            else other_role
        )
        for p in seating.players
    }


def _alone_score(
    outcome: Outcome,
    rules: Rules,
    seating: Seating,
    stake: int,
    deltas: Mapping[str, int],
    roles: Mapping[str, str],
    lines: list[str],
    winners: Sequence[str] = (),
    losers: Sequence[str] = (),
) -> Score:
    return Score(
        outcome,
        stake,
        MappingProxyType(_in_seat_order(seating, deltas)),
        MappingProxyType(dict(roles)),
        _worded(lines),
        rules.zero_sum,
        None,
        tuple(winners),
        sitting_out=seating.sitting_out,
        losers=tuple(losers),
    )


# --- leasters -----------------------------------------------------------------------------------


def _per_player(
    seating: Seating,
    given: Mapping[str, int],
    option: str,
    low: int,
    high: int,
    total: int | None,
) -> dict[str, int]:
    """One value for every player in the hand, each from `low` to `high`, adding up to `total`
    (None: any sum)."""
    values: dict[str, int] = {}
    for name, value in given.items():
        player = _active(seating, name, option)
        if player in values:
            raise HandError(
                _("{option}: {player} is given twice").format(option=option, player=player)
            )
        if not low <= value <= high:
            raise HandError(
                _("{option}: {player}={value} is outside {low} to {high}").format(
                    option=option, player=player, value=value, low=low, high=high
                )
            )
        values[player] = value
    missing = [p for p in seating.order if p not in values]
    if missing:
        raise HandError(
            _("{option}: give every player in the hand; missing {names}").format(
                option=option, names=_names(missing)
            )
        )
    if total is not None and sum(values.values()) != total:
        raise HandError(
            _("{option}: the values add up to {sum}, not {total}").format(
                option=option, sum=sum(values.values()), total=total
            )
        )
    return values


def _score_leaster(rules: Rules, hand: LeasterHand) -> Score:
    if rules.all_pass != "leaster":
        raise HandError(
            _(
                "⟨leaster⟩: {name} rules have all_pass = {all_pass}; play leasters with "
                "⟨set⟩ all_pass=leaster (in a session: scorepad set all_pass=leaster)"
            ).format(name=rules.name, all_pass=rules.all_pass)
        )
    seating = seat(rules, hand.players, hand.dealer, hand.out)
    if rules.leaster_scoring == "most-loses":
        return _score_leaster_most_loses(rules, seating, hand)
    if not hand.winner and hand.leaster_points is None:
        raise HandError(_("a leaster needs ⟨winner⟩ NAME or ⟨leaster_points⟩ A=N,B=N,..."))
    points, tricks = _leaster_counts(rules, seating, hand)
    winner = _active(seating, hand.winner, "⟨winner⟩") if hand.winner else None
    lines = [
        _(
            "Leaster: everyone plays alone; fewest card points wins ({size}-handed, "
            "{cards} tricks)."
        ).format(size=seating.size, cards=seating.deal.cards)
    ]
    if seating.sitting_out:
        lines.append(
            _("Sitting out: {names} (0 points).").format(names=_names(seating.sitting_out))
        )
    if winner and rules.must_take_trick and tricks is not None and tricks[winner] == 0:
        raise HandError(
            _(
                "⟨winner⟩ {winner}: {winner} took no trick, and these rules say a "
                "leaster winner must take one (must_take_trick)"
            ).format(winner=winner)
        )
    if rules.leaster_places:
        return _score_leaster_places(rules, seating, hand, points, tricks, winner, lines)
    if points is None:
        assert winner is not None
        winners: tuple[str, ...] = (winner,)
        lines.append(_("{winner} won the leaster (named with ⟨winner⟩).").format(winner=winner))
    else:
        winners = _leaster_winners(rules, seating, points, tricks, winner, lines)
    factors = _doubler_factors(hand) + _last_hand_factors(rules, hand) + _bock_factors(hand)
    product, factor_text = _doublings(rules, factors)
    stake = rules.leaster_payout * product
    lines.append(
        _("Payout: {leaster_payout}{factor_text} = {stake}.").format(
            leaster_payout=rules.leaster_payout, factor_text=factor_text, stake=stake
        )
        if factors
        else _("Payout: {stake}.").format(stake=stake)
    )
    deltas = _settle_leaster(rules, seating, winners, stake, lines)
    roles = _roles(seating, winners, Role.LEASTER_WINNER, Role.LEASTER)
    return _alone_score(Outcome.LEASTER, rules, seating, stake, deltas, roles, lines, winners)


def _leaster_factors(
    rules: Rules, hand: LeasterHand, amount: int, lines: list[str], label: str = "Payout"
) -> int:
    """The leaster's doublings multiplied (`amount` times them explained, as `label`)."""
    factors = _doubler_factors(hand) + _last_hand_factors(rules, hand) + _bock_factors(hand)
    product, factor_text = _doublings(rules, factors)
    lines.append(
        f"{label}: {amount}{factor_text} = {amount * product}."
        if factors
        else f"{label}: {amount}."
    )
    return product


def _score_leaster_most_loses(rules: Rules, seating: Seating, hand: LeasterHand) -> Score:
    """A leaster under leaster_scoring = most-loses: the most card points pays leaster_payout
    to each other player; a tie by leaster_tie (none: nobody pays; share: each tied player pays
    each player outside the tie)."""
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
    points, _tricks = _leaster_counts(rules, seating, hand)
    assert points is not None
    lines = [
        _(
            "Leaster: everyone plays alone; the most card points loses "
            "(leaster_scoring = most-loses; {size}-handed, {cards} tricks)."
        ).format(size=seating.size, cards=seating.deal.cards)
    ]
    if seating.sitting_out:
        lines.append(
            _("Sitting out: {names} (0 points).").format(names=_names(seating.sitting_out))
        )
    lines.append(
        _("Card points: {value}.").format(
            value=", ".join(f"{p} {points[p]}" for p in seating.order)
        )
    )
    if sum(points.values()) < TOTAL_POINTS:
        lines.append(
            _(
                "The blind's {total_points} card points count for nobody (leaster_blind "
                "= set-aside)."
            ).format(total_points=TOTAL_POINTS - sum(points.values()))
        )
    high = max(points.values())
    tied = tuple(p for p in seating.order if points[p] == high)
    both = joined(tied)
    if len(tied) == seating.size:
        lines.append(_("Everyone took {high}: nobody pays.").format(high=high))
        losers: tuple[str, ...] = ()
    elif len(tied) == 1:
        lines.append(_("{tied} took the most, {high}, and loses.").format(tied=tied[0], high=high))
        losers = tied
    elif rules.leaster_tie == "name":
        raise HandError(
            _(
                "{both} tie for the most with {high}: a leaster's loser cannot be named, "
                "so a table that plays leaster_scoring = most-loses settles a tie with "
                "leaster_tie = none or share (leaster_tie = name)"
            ).format(both=both, high=high)
        )
    elif rules.leaster_tie == "none":
        lines.append(
            _("{both} tie for the most with {high}: nobody pays (leaster_tie = none).").format(
                both=both, high=high
            )
        )
        losers = ()
    else:
        lines.append(
            _(
                "{both} tie for the most with {high}: each pays every player outside the "
                "tie (leaster_tie = share)."
            ).format(both=both, high=high)
        )
        losers = tied
    product = _leaster_factors(rules, hand, rules.leaster_payout, lines)
    stake = rules.leaster_payout * product
    deltas, others = _losers_pay(rules, seating.order, losers, stake, lines)
    if losers and rules.zero_sum:
        lines.append(
            _("{names} {value} {stake} to each of {names2} = {stake2}.").format(
                names=_names(losers),
                value="pays" if len(losers) == 1 else "each pay",
                stake=stake,
                names2=_names(others),
                stake2=stake * len(others),
            )
        )
        lines.append(_("The hand sums to {sum}.").format(sum=sum(deltas.values())))
    roles = _roles(seating, losers, Role.LEASTER_LOSER, Role.LEASTER)
    return _alone_score(Outcome.LEASTER, rules, seating, stake, deltas, roles, lines, losers=losers)


_ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th")


def _score_leaster_places(
    rules: Rules,
    seating: Seating,
    hand: LeasterHand,
    points: Mapping[str, int] | None,
    tricks: Mapping[str, int] | None,
    winner: str | None,
    lines: list[str],
) -> Score:
    """A leaster under leaster_places: the fewest card points receives the first amount in all,
    the next fewest the second, ...; the players not placed pay them in equal shares. A tie
    that leaves a place unsettled follows leaster_tie (none: nobody is paid; share: the tied
    players share what their places pay, where it divides)."""
    places = rules.leaster_places
    shown = format_value(places)
    if points is None:
        if len(places) > 1:
            raise HandError(
                _(
                    "leaster_places = {shown} pays {len_places} places: give everyone's "
                    "⟨leaster_points⟩ (⟨winner⟩ names only the first)"
                ).format(shown=shown, len_places=len(places))
            )
        assert winner is not None
        ranked: list[list[str]] = [[winner]]
        lines.append(_("{winner} won the leaster (named with ⟨winner⟩).").format(winner=winner))
    else:
        ranked = _leaster_ranks(rules, seating, points, tricks, winner, lines)
    paid: dict[str, int] = {}
    at = 0
    for group in ranked:
        if at >= len(places):
            break
        span = [*places[at : at + len(group)], *[0] * max(0, at + len(group) - len(places))]
        where = (
            f"{_ORDINALS[at]} place"
            if len(group) == 1
            else "places "
            + ", ".join(_ORDINALS[i] for i in range(at, at + len(group)) if i < len(_ORDINALS))
        )
        if len(set(span)) == 1:
            for p in group:
                paid[p] = span[0]
        else:
            assert points is not None
            both = joined(group)
            tie = _("{both} tie with {points} for {where}").format(
                both=both, points=points[group[0]], where=where
            )
            if rules.leaster_tie == "name":
                hint = (
                    "name the winner with ⟨winner⟩"
                    if at == 0 and len(set(span[1:])) <= 1
                    else "a table that plays leaster_places settles it with leaster_tie = none "
                    "or share"
                )
                raise HandError(
                    _("{tie}, which pay {format_value}: {hint} (leaster_tie = name)").format(
                        tie=tie, format_value=format_value(span), hint=hint
                    )
                )
            if rules.leaster_tie == "none":
                lines.append(_("{tie}: nobody is paid (leaster_tie = none).").format(tie=tie))
                paid = {}
                break
            if sum(span) % len(group):
                raise HandError(
                    _(
                        "{tie}, which pay {sum} in all: that does not divide among {len_group} "
                        "(leaster_tie = share)"
                    ).format(tie=tie, sum=sum(span), len_group=len(group))
                )
            lines.append(
                _(
                    "{tie}: they share the {sum} those places pay, {sum2} each (leaster_tie "
                    "= share)."
                ).format(tie=tie, sum=sum(span), sum2=sum(span) // len(group))
            )
            for p in group:
                paid[p] = sum(span) // len(group)
        at += len(group)
    placed = tuple(p for p in paid if paid[p])
    if placed:
        lines.append(
            _("Places (leaster_places = {shown}): ").format(shown=shown)
            + ", ".join(
                f"{p} receives {paid[p]}" + (" in all" if i == 0 else "")
                for i, p in enumerate(placed)
            )
            + "."
        )
    product = (
        _leaster_factors(rules, hand, sum(paid.values()), lines, "Paid to the places")
        if placed
        else 1
    )
    payers = [p for p in seating.order if p not in placed]
    total = sum(paid.values()) * product
    deltas = dict.fromkeys(seating.order, 0)
    share = 0
    if placed and not rules.zero_sum:
        for p in placed:
            deltas[p] = paid[p] * product
        lines.append(
            _("Race to {target}: ").format(target=rules.target)
            + ", ".join(
                _("{p} moves up {paid}").format(p=p, paid=paid[p] * product) for p in placed
            )
            + "; nobody else moves."
        )
    elif placed:
        if not payers or total % len(payers):
            raise HandError(
                _(
                    "leaster_places = {shown}: in a {size}-handed leaster the {plural} not "
                    "placed would pay {total} in all, which does not divide into equal "
                    "shares (leaster_places needs a head count where it does)"
                ).format(
                    shown=shown,
                    size=seating.size,
                    plural=_plural(len(payers), "player"),
                    total=total,
                )
            )
        share = total // len(payers)
        for p in placed:
            deltas[p] = paid[p] * product
        for p in payers:
            deltas[p] = -share
        lines.append(
            _(
                "{names} pay the {total} in equal shares: {share} each (leaster_places = {shown})."
            ).format(names=_names(payers), total=total, share=share, shown=shown)
        )
        lines.append(_("The hand sums to {sum}.").format(sum=sum(deltas.values())))
    roles = _roles(seating, placed, Role.LEASTER_WINNER, Role.LEASTER)
    return _alone_score(Outcome.LEASTER, rules, seating, share, deltas, roles, lines, placed)


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
                blind=blind, plural=_plural(seating.deal.blind, "card"), most=most
            )
        )
    return TOTAL_POINTS - blind


def _leaster_counts(
    rules: Rules, seating: Seating, hand: LeasterHand
) -> tuple[dict[str, int] | None, dict[str, int] | None]:
    """Each player's card points and tricks, where given, checked against each other."""
    taken = _leaster_blind(rules, seating, hand)
    points = (
        _per_player(seating, hand.leaster_points, "⟨leaster_points⟩", 0, taken, taken)
        if hand.leaster_points is not None
        else None
    )
    tricks = (
        _per_player(
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


def _leaster_winners(
    rules: Rules,
    seating: Seating,
    points: Mapping[str, int],
    tricks: Mapping[str, int] | None,
    winner: str | None,
    lines: list[str],
) -> tuple[str, ...]:
    """Who won a leaster from everyone's card points: fewest wins; a tie by `leaster_tie`."""
    eligible = _leaster_eligible(rules, seating, points, tricks, winner, lines)
    low = min(points[p] for p in eligible)
    tied = tuple(p for p in eligible if points[p] == low)
    _leaster_points_lines(seating, points, lines)
    if winner is not None:
        if winner not in tied:
            raise HandError(
                _(
                    "⟨winner⟩ {winner}: {winner} took {points} points, but {names} took "
                    "fewer ({low})"
                ).format(winner=winner, points=points[winner], names=_names(tied), low=low)
            )
        lines.append(
            _("{winner} won the leaster with {points} card points").format(
                winner=winner, points=points[winner]
            )
            + (" (named with ⟨winner⟩)." if len(tied) > 1 else ".")
        )
        return (winner,)
    if len(tied) == 1:
        lines.append(_("{tied} took the fewest, {low}, and wins.").format(tied=tied[0], low=low))
        return tied
    both = joined(tied)
    if rules.leaster_tie == "name":
        raise HandError(
            _(
                "{both} tie for fewest with {low}: name the winner with ⟨winner⟩ "
                "(leaster_tie = name)"
            ).format(both=both, low=low)
        )
    if rules.leaster_tie == "none":
        lines.append(
            _("{both} tie for fewest with {low}: nobody is paid (leaster_tie = none).").format(
                both=both, low=low
            )
        )
        return ()
    lines.append(
        _(
            "{both} tie for fewest with {low}: each collects from every player "
            "outside the tie (leaster_tie = share)."
        ).format(both=both, low=low)
    )
    return tied


def _leaster_ranks(
    rules: Rules,
    seating: Seating,
    points: Mapping[str, int],
    tricks: Mapping[str, int] | None,
    winner: str | None,
    lines: list[str],
) -> list[list[str]]:
    """The players who may be placed in a leaster (leaster_places), fewest card points first,
    in groups of equal points (a named winner first, a group of their own)."""
    eligible = _leaster_eligible(rules, seating, points, tricks, winner, lines)
    _leaster_points_lines(seating, points, lines)
    low = min(points[p] for p in eligible)
    groups: list[list[str]] = []
    if winner is not None:
        if points[winner] != low:
            tied = [p for p in eligible if points[p] == low]
            raise HandError(
                _(
                    "⟨winner⟩ {winner}: {winner} took {points} points, but {names} took "
                    "fewer ({low})"
                ).format(winner=winner, points=points[winner], names=_names(tied), low=low)
            )
        lines.append(_("{winner} is placed first (named with ⟨winner⟩).").format(winner=winner))
        groups.append([winner])
        eligible = [p for p in eligible if p != winner]
    first = len(groups)  # (the rest are grouped among themselves)
    for player in sorted(eligible, key=lambda p: points[p]):
        if len(groups) > first and points[groups[-1][0]] == points[player]:
            groups[-1].append(player)
        else:
            groups.append([player])
    return groups


def _leaster_points_lines(seating: Seating, points: Mapping[str, int], lines: list[str]) -> None:
    lines.append(
        _("Card points: {value}.").format(
            value=", ".join(f"{p} {points[p]}" for p in seating.order)
        )
    )
    if sum(points.values()) < TOTAL_POINTS:
        lines.append(
            _(
                "The blind's {total_points} card points count for nobody (leaster_blind "
                "= set-aside)."
            ).format(total_points=TOTAL_POINTS - sum(points.values()))
        )


def _leaster_eligible(
    rules: Rules,
    seating: Seating,
    points: Mapping[str, int],
    tricks: Mapping[str, int] | None,
    winner: str | None,
    lines: list[str],
) -> list[str]:
    """The players who may win a leaster: under must_take_trick, those who took a trick."""
    eligible = list(seating.order)
    if rules.must_take_trick:
        if tricks is not None:
            shut_out = [p for p in eligible if tricks[p] == 0]
            eligible = [p for p in eligible if tricks[p] > 0]
            if shut_out:
                lines.append(
                    _("{names} took no trick and cannot win (must_take_trick).").format(
                        names=_names(shut_out)
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
                    ).format(names=_names(unsure))
                )
            eligible = [p for p in eligible if points[p] > 0 or p == winner]
    if not eligible:
        raise HandError(_("nobody in this leaster took a trick, so nobody can win it"))
    return eligible


def _settle_leaster(
    rules: Rules, seating: Seating, winners: tuple[str, ...], stake: int, lines: list[str]
) -> dict[str, int]:
    """Each active player's points for a leaster, and the lines that explain them."""
    deltas = dict.fromkeys(seating.order, 0)
    others = [p for p in seating.order if p not in winners]
    if not winners:
        return deltas
    if not rules.zero_sum:
        for w in winners:
            deltas[w] = stake
        lines.append(
            _("Race to {target}: {names} move up {stake}; nobody else moves.").format(
                target=rules.target, names=_names(winners), stake=stake
            )
        )
        return deltas
    for w in winners:
        deltas[w] = stake * len(others)
    for o in others:
        deltas[o] = -stake * len(winners)
    if len(winners) == 1:
        lines.append(
            _("{winners} receives {stake} from each of {names} = {stake2}.").format(
                winners=winners[0], stake=stake, names=_names(others), stake2=stake * len(others)
            )
        )
    else:
        lines.append(
            _("Each of {names} receives {stake} from each of {names2}.").format(
                names=_names(winners), stake=stake, names2=_names(others)
            )
        )
    lines.append(_("The hand sums to {sum}.").format(sum=sum(deltas.values())))
    return deltas


# --- schwanzer ----------------------------------------------------------------------------------

SCHWANZER_POINTS = 4 * 3 + 4 * 2 + 6 * 1  # queens 3, jacks 2, the six other trumps 1


def _score_schwanzer(rules: Rules, hand: SchwanzerHand) -> Score:
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
        loser = _active(seating, name, "⟨losers⟩")
        if loser in named:
            raise HandError(_("⟨losers⟩ {loser} is given twice").format(loser=loser))
        named.append(loser)
    lines = [
        _(
            "Schwanzer: everyone passed; each counts the schwanzer points they were "
            "dealt (a queen 3, a jack 2, any other trump 1); the most loses "
            "({size}-handed)."
        ).format(size=seating.size)
    ]
    if seating.sitting_out:
        lines.append(
            _("Sitting out: {names} (0 points).").format(names=_names(seating.sitting_out))
        )
    if hand.schwanzer_points is not None:
        most = min(seating.deal.cards * 3, SCHWANZER_POINTS)  # a queen is 3 at most
        points = _per_player(seating, hand.schwanzer_points, "⟨schwanzer_points⟩", 0, most, None)
        if sum(points.values()) > SCHWANZER_POINTS:
            raise HandError(
                _(
                    "⟨schwanzer_points⟩: the values add up to {sum}, but the pack holds "
                    "{schwanzer_points} schwanzer points"
                ).format(sum=sum(points.values()), schwanzer_points=SCHWANZER_POINTS)
            )
        high = max(points.values())
        tied = tuple(p for p in seating.players if p in points and points[p] == high)
        lines.append(
            _("Schwanzer points: {value}.").format(
                value=", ".join(f"{p} {points[p]}" for p in seating.order)
            )
        )
        if named and set(named) != set(tied):
            raise HandError(
                _("⟨losers⟩ {named}: the most schwanzer points ({high}) were {names}'s").format(
                    named=", ".join(named), high=high, names=_names(tied)
                )
            )
        losers = tied
    else:
        losers = tuple(p for p in seating.players if p in named)
    if len(losers) == len(seating.order):
        lines.append(_("Everyone ties: nobody pays."))
        losers = ()
    elif len(losers) == 1:
        lines.append(_("{losers} has the most and loses.").format(losers=losers[0]))
    else:
        lines.append(_("{losers} tie for the most: each loses.").format(losers=joined(losers)))
    factors = _doubler_factors(hand) + _last_hand_factors(rules, hand) + _bock_factors(hand)
    product, factor_text = _doublings(rules, factors)
    stake = rules.base * product
    lines.append(
        _("Stake: base {base}{factor_text} = {stake}.").format(
            base=rules.base, factor_text=factor_text, stake=stake
        )
    )
    deltas, winners = _losers_pay(rules, seating.order, losers, stake, lines)
    if losers and rules.zero_sum:
        lines.append(
            _(
                "Each loser pays {stake} to each of {names}: {names2} {value} each, the "
                "others +{stake2} each."
            ).format(
                stake=stake,
                names=_names(winners),
                names2=_names(losers),
                value=-stake * len(winners),
                stake2=stake * len(losers),
            )
        )
        lines.append(_("The hand sums to {sum}.").format(sum=sum(deltas.values())))
    roles = _roles(seating, losers, Role.SCHWANZER_LOSER, Role.SCHWANZER)
    return _alone_score(
        Outcome.SCHWANZER, rules, seating, stake, deltas, roles, lines, losers=losers
    )


# --- Ramsch -------------------------------------------------------------------------------------


def _score_ramsch(rules: Rules, hand: RamschHand) -> Score:
    if rules.all_pass != "ramsch":
        raise HandError(
            _(
                "⟨ramsch⟩: {name} rules have all_pass = {all_pass}; Ramsch needs "
                "all_pass = ramsch (⟨rules⟩ bavarian plays it; in a session: scorepad "
                "set all_pass=ramsch)"
            ).format(name=rules.name, all_pass=rules.all_pass)
        )
    seating = seat(rules, hand.players, hand.dealer, hand.out)
    lines = [
        _(
            "Ramsch: everyone passed and plays alone; the most card points loses ({size}-handed)."
        ).format(size=seating.size)
    ]
    factors = (
        _doubler_factors(hand)
        + _knock_factors(rules, seating, hand.knocks)
        + _last_hand_factors(rules, hand)
        + _bock_factors(hand)
    )
    product, factor_text = _doublings(rules, factors)
    deltas = dict.fromkeys(seating.order, 0)
    roles: dict[str, str] = {}
    if hand.durchmarsch is not None:
        player = _active(seating, hand.durchmarsch, "⟨durchmarsch⟩")
        if hand.ramsch_points is not None or hand.losers or hand.jungfrau:
            raise HandError(
                _(
                    "⟨durchmarsch⟩ {player}: {player} took every trick; give no "
                    "⟨ramsch_points⟩, ⟨losers⟩ or ⟨jungfrau⟩ with it"
                ).format(player=player)
            )
        value, text = _durchmarsch_value(rules)
        stake = value * product
        lines.append(
            _("Durchmarsch: {player} took every trick, {text}.").format(player=player, text=text)
        )
        lines.append(
            _("Stake: {value}{factor_text} = {stake}.").format(
                value=value, factor_text=factor_text, stake=stake
            )
            if factor_text
            else _("Stake: {stake}.").format(stake=stake)
        )
        others = [p for p in seating.order if p != player]
        if rules.zero_sum:
            for p in others:
                deltas[p] = -stake
            deltas[player] = stake * len(others)
            lines.append(
                _("{player} receives {stake} from each of {names}.").format(
                    player=player, stake=stake, names=_names(others)
                )
            )
        else:
            deltas[player] = stake
            lines.append(
                _("Race to {target}: {player} moves up {stake}.").format(
                    target=rules.target, player=player, stake=stake
                )
            )
        if rules.zero_sum:
            lines.append(_("The hand sums to {sum}.").format(sum=sum(deltas.values())))
        roles = _roles(seating, (player,), Role.DURCHMARSCH, Role.RAMSCH)
        return _alone_score(Outcome.RAMSCH, rules, seating, stake, deltas, roles, lines, (player,))
    jungfrau: list[str] = []
    for name in hand.jungfrau:
        player = _active(seating, name, "⟨jungfrau⟩")
        if player in jungfrau:
            raise HandError(_("⟨jungfrau⟩ {player} is given twice").format(player=player))
        jungfrau.append(player)
    loser = _ramsch_loser(seating, hand, jungfrau, lines)
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
    stake = rules.game_values["ramsch"] * product
    text = _("Stake: ramsch {game_values}{factor_text}").format(
        game_values=rules.game_values["ramsch"], factor_text=factor_text
    )
    if jungfrau and rules.jungfrau == "double-all":
        stake *= 2 ** len(jungfrau)
        text += "".join(_(" x 2 (jungfrau {p})").format(p=p) for p in jungfrau)
    lines.append(
        f"{text} = {stake}."
        if stake != rules.game_values["ramsch"]
        else _("Stake: {stake}.").format(stake=stake)
    )
    others = [p for p in seating.order if p != loser]
    # what the loser pays a player without a trick, in stakes
    times = {"double-own": 2, "double-each": 2 ** len(jungfrau)}.get(rules.jungfrau, 1)
    pays = {p: stake * (times if p in jungfrau else 1) for p in others}
    if jungfrau:
        lines.append(
            _("Jungfrau (no trick): {names}; ").format(names=_names(jungfrau))
            + _(_JUNGFRAU_WORDS[rules.jungfrau])
        )
    if rules.zero_sum:
        for p, amount in pays.items():
            deltas[p] = amount
        deltas[loser] = -sum(pays.values())
        lines.append(
            f"{loser} pays "
            + ", ".join(f"{p} {amount}" for p, amount in pays.items())
            + f" = {sum(pays.values())}."
        )
    else:
        deltas[loser] = -stake
        lines.append(
            _("Race to {target}: {loser} moves down {stake}; nobody else moves.").format(
                target=rules.target, loser=loser, stake=stake
            )
        )
    if rules.zero_sum:
        lines.append(_("The hand sums to {sum}.").format(sum=sum(deltas.values())))
    roles = _roles(seating, (loser,), Role.RAMSCH_LOSER, Role.RAMSCH)
    return _alone_score(
        Outcome.RAMSCH, rules, seating, stake, deltas, roles, lines, losers=(loser,)
    )


_JUNGFRAU_WORDS = {
    "double-own": N_("the loser pays each of them twice (jungfrau = double-own)."),
    "double-all": N_("each doubles the hand (jungfrau = double-all)."),
    "off": N_("no extra for them: the loser pays everyone the same (jungfrau = off)."),
    "double-each": N_(
        "the loser pays each of them the stake doubled once for each player without a trick "
        "(jungfrau = double-each)."
    ),
}


def _durchmarsch_value(rules: Rules) -> tuple[int, str]:
    """What a durchmarsch is worth from each other player, by durchmarsch_value, and why."""
    solo = rules.game_values["solo"]
    if rules.durchmarsch_value == "solo":
        return solo, (
            _(
                "scored as a solo (durchmarsch_value = solo: no schneider, schwarz or runs): {solo}"
            ).format(solo=solo)
        )
    if rules.durchmarsch_value == "ramsch":
        ramsch = rules.game_values["ramsch"]
        return ramsch, (
            _(
                "paid the Ramsch's price by each player, as won (durchmarsch_value = "
                "ramsch): {ramsch}"
            ).format(ramsch=ramsch)
        )
    value = solo + rules.schneider_bonus + rules.schwarz_bonus
    return value, (
        _(
            "scored as a solo won schwarz: solo {solo} + schneider {schneider_bonus} "
            "+ schwarz {schwarz_bonus} = {value}"
        ).format(
            solo=solo,
            schneider_bonus=rules.schneider_bonus,
            schwarz_bonus=rules.schwarz_bonus,
            value=value,
        )
    )


def _ramsch_loser(seating: Seating, hand: RamschHand, jungfrau: list[str], lines: list[str]) -> str:
    """The Ramsch's loser: the most card points, a tie settled by --loser."""
    if len(hand.losers) > 1:
        raise HandError(_("⟨losers⟩: a Ramsch has one loser (a tie is settled by naming one)"))
    named = _active(seating, hand.losers[0], "⟨losers⟩") if hand.losers else None
    if hand.ramsch_points is None:
        if named is None:
            raise HandError(_("a Ramsch needs ⟨ramsch_points⟩ A=N,B=N,... or ⟨losers⟩ NAME"))
        lines.append(
            _("{named} took the most card points and loses (named with ⟨losers⟩).").format(
                named=named
            )
        )
        return named
    points = _per_player(
        seating, hand.ramsch_points, "⟨ramsch_points⟩", 0, TOTAL_POINTS, TOTAL_POINTS
    )
    for player in jungfrau:
        if points[player]:
            raise HandError(
                _("⟨jungfrau⟩ {player}: {player} took {points} card points, so a trick").format(
                    player=player, points=points[player]
                )
            )
    lines.append(
        _("Card points: {value}.").format(
            value=", ".join(f"{p} {points[p]}" for p in seating.order)
        )
    )
    high = max(points.values())
    tied = [p for p in seating.order if points[p] == high]
    if named is not None and named not in tied:
        raise HandError(
            _("⟨losers⟩ {named}: {named} took {points}, but {names} took more ({high})").format(
                named=named, points=points[named], names=_names(tied), high=high
            )
        )
    if len(tied) > 1 and named is None:
        raise HandError(
            _("{tied} tie for the most with {high}: name the loser with ⟨losers⟩ NAME").format(
                tied=joined(tied), high=high
            )
        )
    loser = named or tied[0]
    lines.append(
        _("{loser} took the most, {high}, and loses").format(loser=loser, high=high)
        + (" (named with ⟨losers⟩, settling the tie)." if len(tied) > 1 else ".")
    )
    return loser


# --- penalties ----------------------------------------------------------------------------------


def score_penalty(rules: Rules, penalty: Penalty) -> Score:
    """What a penalty moves: the offender pays `points` to each other seated player (or to one
    player); a race moves the offender down instead."""
    offender = find_player(penalty.offender, penalty.players, "penalty")
    to = find_player(penalty.to, penalty.players, "⟨paid_to⟩") if penalty.to else None
    if to == offender:
        raise HandError(_("⟨paid_to⟩ {to}: {to} is the one who pays").format(to=to))
    if not 1 <= penalty.points <= MAX_AMOUNT:
        raise HandError(
            _("⟨points⟩ {points}: a penalty is 1 to {max_amount:,} points").format(
                points=penalty.points, max_amount=MAX_AMOUNT
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
            + (to if to else _("each other seated player ({names})").format(names=_names(paid)))
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
        _worded(lines),
        rules.zero_sum,
        None,
        losers=(offender,),
    )


def score(rules: Rules, hand: Hand) -> Score:
    """Score one hand under `rules`; raise `HandError` when its inputs are impossible."""
    if isinstance(hand, LeasterHand):
        return _score_leaster(rules, hand)
    if isinstance(hand, SchwanzerHand):
        return _score_schwanzer(rules, hand)
    if isinstance(hand, RamschHand):
        return _with_bock(rules, hand, _score_ramsch(rules, hand))
    return _with_bock(rules, hand, _score_picker(rules, hand))
