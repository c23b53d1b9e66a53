"""Cards of the 32-card pack: notation, card points and the Sheepshead trump order.

`Card.parse("QC")` and `str(card)` are each other's inverse. The card-level tools (count, trick,
replay) build on this module; scoring a hand only needs the point constants.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import CardError

TOTAL_POINTS = 120
"""The card points in the whole pack."""

MAKE = 61
"""The card points the picker's (declarer's) side needs to win."""


class Suit(enum.Enum):
    CLUBS = "C"
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"


class Rank(enum.Enum):
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"


CARD_POINTS = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2,
               Rank.NINE: 0, Rank.EIGHT: 0, Rank.SEVEN: 0}

ACE_POINTS = CARD_POINTS[Rank.ACE]
"""The richest card: a blind of n cards holds at most n × 11 points."""

_UNICODE_SUITS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D", "♧": "C", "♤": "S", "♡": "H", "♢": "D"}
_RANK_ALIASES = {"T": "10"}


@dataclass(frozen=True, order=True)
class Card:
    """One card, e.g. the queen of clubs `Card(Rank.QUEEN, Suit.CLUBS)`, written `QC`."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card such as `QC`, `10D`, `TD` or `A♥`."""
        raw = text.strip().upper()
        if len(raw) < 2:
            raise CardError(f"cannot read card {text!r}: write rank then suit, e.g. QC or 10D")
        suit_text = _UNICODE_SUITS.get(raw[-1], raw[-1])
        rank_text = _RANK_ALIASES.get(raw[:-1], raw[:-1])
        try:
            return cls(Rank(rank_text), Suit(suit_text))
        except ValueError:
            raise CardError(
                f"cannot read card {text!r}: ranks are 7 8 9 10 J Q K A, suits C S H D"
            ) from None

    def __str__(self) -> str:
        return f"{self.rank.value}{self.suit.value}"

    @property
    def points(self) -> int:
        """The card points this card is worth."""
        return CARD_POINTS[self.rank]


DECK = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
"""The 32-card pack."""

SHEEPSHEAD_TRUMPS = tuple(
    [Card(Rank.QUEEN, s) for s in Suit]
    + [Card(Rank.JACK, s) for s in Suit]
    + [Card(r, Suit.DIAMONDS) for r in (Rank.ACE, Rank.TEN, Rank.KING, Rank.NINE, Rank.EIGHT,
                                         Rank.SEVEN)]
)
"""The 14 Sheepshead trumps, highest first."""

assert sum(card.points for card in DECK) == TOTAL_POINTS
