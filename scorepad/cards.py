"""Cards of the 32-card pack: notation, card points, trump orders and who wins a trick.

`Card.parse("QC")` and `str(card)` are each other's inverse. The notation is rank then suit:
ranks 7 8 9 10 J Q K A (T for ten), suits C S H D (or ♣ ♠ ♥ ♦). German names are read too, suit
first: Eichel, Gras (Blatt, Laub), Herz (Rot), Schellen for clubs, spades, hearts, diamonds;
Ober = Q, Unter = J, Ass (Sau) = A, König = K; written out (`Eichel-Ober`, `Herz Sau`) or short
(`EO`, `GU`, `HA`, `S10`).

A `Game` says which cards are trump and how cards rank: Sheepshead (always the same 14 trumps),
or one of the Schafkopf games (partner, solo in a suit, wenz, geier; touts rank as their game).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import CardError
from .games import BY_NAME as GAME_BY_NAME
from .games import PLAYED, Tops, TrumpSuit
from .i18n import N_
from .i18n import gettext as _
from .names import MAKE, TOTAL_POINTS  # noqa: F401 - one definition, shared with scoring


class Suit(enum.Enum):
    CLUBS = "C"
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"

    @property
    def german(self) -> str:
        return _GERMAN_SUIT_NAMES[self]


class Rank(enum.Enum):
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"


CARD_POINTS = {
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
    Rank.NINE: 0,
    Rank.EIGHT: 0,
    Rank.SEVEN: 0,
}

ACE_POINTS = CARD_POINTS[Rank.ACE]
"""The richest card: a blind of n cards holds at most n × 11 points."""

_UNICODE_SUITS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D", "♧": "C", "♤": "S", "♡": "H", "♢": "D"}
_RANK_ALIASES = {"T": "10"}
_GERMAN_SUITS = {
    "eichel": "C",
    "eicheln": "C",
    "gras": "S",
    "blatt": "S",
    "laub": "S",
    "grün": "S",
    "gruen": "S",
    "herz": "H",
    "rot": "H",
    "schellen": "D",
    "schelln": "D",
}
_GERMAN_SUIT_LETTERS = {"E": "C", "G": "S", "H": "H", "S": "D"}
_GERMAN_SUIT_NAMES = {
    Suit.CLUBS: "Eichel",
    Suit.SPADES: "Gras",
    Suit.HEARTS: "Herz",
    Suit.DIAMONDS: "Schellen",
}
_GERMAN_RANKS = {
    "ober": "Q",
    "o": "Q",
    "unter": "J",
    "u": "J",
    "ass": "A",
    "as": "A",
    "sau": "A",
    "daus": "A",
    "a": "A",
    "könig": "K",
    "koenig": "K",
    "k": "K",
    "zehn": "10",
    "z": "10",
    "10": "10",
    "neun": "9",
    "9": "9",
    "acht": "8",
    "8": "8",
    "sieben": "7",
    "7": "7",
}
_GERMAN_RANK_NAMES = {
    Rank.QUEEN: "Ober",
    Rank.JACK: "Unter",
    Rank.ACE: "Sau",
    Rank.KING: "König",
    Rank.TEN: "Zehn",
    Rank.NINE: "Neun",
    Rank.EIGHT: "Acht",
    Rank.SEVEN: "Sieben",
}
_HELP = N_(
    "write rank then suit, e.g. QC, 10D, A♥ (ranks 7 8 9 10 J Q K A, suits C S H D), or a "
    "German name such as Eichel-Ober or EO"
)


@dataclass(frozen=True, order=True)
class Card:
    """One card, e.g. the queen of clubs `Card(Rank.QUEEN, Suit.CLUBS)`, written `QC`."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card such as `QC`, `10D`, `TD`, `A♥`, `Eichel-Ober` or `EO`."""
        raw = text.strip()
        if not raw:
            raise CardError(_("an empty card: {help}").format(help=_(_HELP)))
        english = raw.upper()
        if len(english) >= 2:
            suit_text = _UNICODE_SUITS.get(english[-1], english[-1])
            rank_text = _RANK_ALIASES.get(english[:-1], english[:-1])
            try:
                return cls(Rank(rank_text), Suit(suit_text))
            except ValueError:
                pass
        german = cls._parse_german(raw)
        if german is None:
            raise CardError(_("unknown card {text!r}: {help}").format(text=text, help=_(_HELP)))
        return german

    @classmethod
    def _parse_german(cls, raw: str) -> Card | None:
        words = [w for w in re.split(r"[\s\-_]+", raw.strip().lower()) if w]
        if len(words) == 2 and words[0] in _GERMAN_SUITS and words[1] in _GERMAN_RANKS:
            return cls(Rank(_GERMAN_RANKS[words[1]]), Suit(_GERMAN_SUITS[words[0]]))
        short = re.fullmatch(r"([EGHS])(10|[OUAKZ987])", raw.strip().upper())
        if short:
            return cls(
                Rank(_GERMAN_RANKS[short.group(2).lower()]),
                Suit(_GERMAN_SUIT_LETTERS[short.group(1)]),
            )
        return None

    def __str__(self) -> str:
        return f"{self.rank.value}{self.suit.value}"

    @property
    def german(self) -> str:
        """The card's German name, e.g. `Eichel-Ober` for the queen of clubs."""
        return f"{self.suit.german}-{_GERMAN_RANK_NAMES[self.rank]}"

    @property
    def points(self) -> int:
        """The card points this card is worth."""
        return CARD_POINTS[self.rank]


def parse_cards(texts: Iterable[str], what: str = "cards") -> list[Card]:
    """Read several cards (one text may hold several, split by commas); refuse duplicates."""
    cards: list[Card] = []
    for text in texts:
        for word in text.split(","):
            if word.strip():
                cards.append(Card.parse(word))
    seen = set()
    for card in cards:
        if card in seen:
            raise CardError(
                _("{card} is given twice in the {what}; a pack has one of each card").format(
                    card=card, what=what
                )
            )
        seen.add(card)
    return cards


DECK = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
"""The 32-card pack."""

SHORT_DECK = tuple(c for c in DECK if c.rank not in (Rank.SEVEN, Rank.EIGHT))
"""The 24-card short pack (Schafkopf with six cards each)."""

PLAIN_ORDER = (
    Rank.ACE,
    Rank.TEN,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
)
"""How the cards of a suit rank, high to low, when they are not trump."""

BETTEL_ORDER = (
    Rank.ACE,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.TEN,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
)
"""A bettel has no trumps, and the ten ranks in its natural place, below the Unter."""

SUIT_ORDER = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
"""Queens (Obers) and jacks (Unters) rank in this order among themselves."""

TRUMP = "trump"
"""The effective suit of every trump: trumps form a suit of their own."""


@dataclass(frozen=True)
class Game:
    """Which cards are trump, and how every card ranks, in one kind of game."""

    name: str
    trumps: tuple[Card, ...]  # high to low
    plain: tuple[Rank, ...] = PLAIN_ORDER  # how the other cards rank within their suits

    @classmethod
    def sheepshead(cls) -> Game:
        """Sheepshead: queens, jacks, then diamonds A 10 K 9 8 7; always the same."""
        return cls(
            "sheepshead",
            (
                *[Card(Rank.QUEEN, s) for s in SUIT_ORDER],
                *[Card(Rank.JACK, s) for s in SUIT_ORDER],
                *[
                    Card(r, Suit.DIAMONDS)
                    for r in (Rank.ACE, Rank.TEN, Rank.KING, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
                ],
            ),
        )

    @classmethod
    def schafkopf(cls, game: str = "partner", trump: Suit | None = None) -> Game:
        """A Schafkopf game: partner, hochzeit and Ramsch (hearts trump), solo and sie (in
        `trump`), wenz and geier (unters, obers), farbwenz and farbgeier (unters or obers, then
        `trump`), bettel (no trumps, the ten below the Unter); a tout ranks as its game."""

        base = game.removesuffix("-tout")
        if base not in PLAYED:
            raise CardError(
                _("unknown game {game!r}: choose {played}").format(
                    game=game, played=", ".join(PLAYED)
                )
            )
        spec = GAME_BY_NAME[base]
        if trump is not None and spec.suit != TrumpSuit.NAMED:
            raise CardError(
                _(
                    "only a solo, sie, farbwenz or farbgeier names its trump suit, not a {game}"
                ).format(game=game)
            )
        if trump is None and spec.suit == TrumpSuit.NAMED:
            raise CardError(_("a {base} needs its trump suit (C, S, H or D)").format(base=base))
        obers = [Card(Rank.QUEEN, s) for s in SUIT_ORDER]
        unters = [Card(Rank.JACK, s) for s in SUIT_ORDER]
        if spec.tops == Tops.NONE:
            return cls(game, (), BETTEL_ORDER)
        tops = {Tops.OBERS: obers, Tops.UNTERS: unters, Tops.OBERS_UNTERS: obers + unters}
        if spec.suit == TrumpSuit.NONE:
            return cls(game, tuple(tops[spec.tops]))
        if spec.suit == TrumpSuit.HEARTS:
            trump = Suit.HEARTS
        assert trump is not None
        high = tops[spec.tops]
        suit = [Card(r, trump) for r in PLAIN_ORDER if Card(r, trump) not in high]
        return cls(game, (*high, *suit))

    def is_trump(self, card: Card) -> bool:
        return card in self.trumps

    def suit_of(self, card: Card) -> Suit | str:
        """The suit a card follows: TRUMP for every trump, else its printed suit."""
        return TRUMP if card in self.trumps else card.suit

    def power(self, card: Card) -> int:
        """How high a card ranks within its effective suit (higher wins)."""
        if card in self.trumps:
            return 100 - self.trumps.index(card)
        return len(self.plain) - self.plain.index(card.rank)

    def winner(self, cards: Sequence[Card]) -> int:
        """The index of the card that wins a trick played in this order."""
        if not cards:
            raise CardError(_("a trick needs at least one card"))
        led = self.suit_of(cards[0])
        trumps = [i for i, c in enumerate(cards) if c in self.trumps]
        contenders = trumps or [i for i, c in enumerate(cards) if self.suit_of(c) == led]
        return max(contenders, key=lambda i: self.power(cards[i]))

    def why(self, cards: Sequence[Card]) -> str:
        """Why the winning card wins, in words."""
        win = cards[self.winner(cards)]
        if self.is_trump(win):
            trumps = sum(1 for c in cards if self.is_trump(c))
            return _("the only trump") if trumps == 1 else _("the highest trump")
        led = cards[0].suit
        return _("the highest {suit}, the suit led, and no trump played").format(
            suit=_(_SUIT_WORDS[led])
        )


_SUIT_WORDS = {
    Suit.CLUBS: N_("club"),
    Suit.SPADES: N_("spade"),
    Suit.HEARTS: N_("heart"),
    Suit.DIAMONDS: N_("diamond"),
}


def suit_word(suit: Suit | str) -> str:
    """'club', 'trump', ... for messages."""
    return _("trump") if suit == TRUMP or not isinstance(suit, Suit) else _(_SUIT_WORDS[suit])


def parse_suit(text: str) -> Suit:
    """A suit as typed: C S H D, the symbols, English or German names."""
    raw = text.strip()
    names = {
        "c": "C",
        "clubs": "C",
        "club": "C",
        "s": "S",
        "spades": "S",
        "spade": "S",
        "h": "H",
        "hearts": "H",
        "heart": "H",
        "d": "D",
        "diamonds": "D",
        "diamond": "D",
        **_GERMAN_SUITS,
    }
    value = _UNICODE_SUITS.get(raw) or names.get(raw.lower())
    if value is None:
        raise CardError(
            _("unknown suit {text!r}: write C, S, H or D (or Eichel, Gras, Herz, Schellen)").format(
                text=text
            )
        )
    return Suit(value)


def card_name(card: Card, lang: str | None = None) -> str:
    """A card as people read it in `lang` (by default the language in force): its code in
    English (`QC`), its Bavarian name in German (`Eichel-Ober`, `Gras-Sau`, `Herz-Zehn`).
    What programs read (JSON, CSV, hand files) keeps the code: `str(card)`."""
    if lang is None:
        from .i18n import language

        lang = language()
    return card.german if lang == "de" else str(card)


def card_points(cards: Iterable[Card]) -> int:
    """The card points of some cards."""
    return sum(card.points for card in cards)


SHEEPSHEAD_TRUMPS = Game.sheepshead().trumps
"""The 14 Sheepshead trumps, highest first."""

assert card_points(DECK) == TOTAL_POINTS
