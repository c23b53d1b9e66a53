"""Game records other programs write, read into what scorepad knows: the deal, the game, every
trick, and what the record says came of it.

Three formats (`FORMATS`), each a module with `read(text) -> Record`:

- `netschafkopf`: a NetSchafkopf protocol ("Geber: ...", "X hat: ...", "X spielt ...",
  "X spielt aus: ...", the result, the price and the running totals of every game);
- `openschafkopf`: openschafkopf's game lines, one game a line ("Rufspiel mit der Gras-Sau von
  2: so h7 go eo ..."), which it also writes (`openschafkopf.line`);
- `sauspiel`: a sauspiel.de game page saved as HTML (its "Karten von:" and "Stich von" sections,
  as openschafkopf reads them).

`detect` tells which a text is; `decode` reads a file's bytes (UTF-8, else Latin-1 or
Windows-1252) and `lines` splits them (CRLF, CR or LF). Pure: no file is opened here. Every
problem is a `RecordError` carrying the record's line. `tally` replays every game as a hand
file (`handfile`) and holds the scores to the record's own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..cards import Card, Rank, Suit
from ..errors import ScorepadError
from ..i18n import N_
from ..i18n import gettext as _

FORMATS = {
    "netschafkopf": N_("NetSchafkopf protocol"),
    "openschafkopf": N_("openschafkopf game lines"),
    "sauspiel": N_("sauspiel.de game page"),
}
"""Every format scorepad reads, and what it is called."""


class RecordError(ScorepadError):
    """A record that cannot be read or does not add up; carries its line (0: the whole file)."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Played:
    """One trick as the record gives it: its cards in the order played, the leader's first."""

    line: int
    cards: tuple[Card, ...]
    leader: str | None = None  # who the record says led (None: it does not say)
    winner: str | None = None  # who the record says took it (None: it does not say)


@dataclass(frozen=True)
class Said:
    """What the record says came of a game, to hold the replay to."""

    line: int
    won: bool | None = None  # the declarer's side won
    opponents: int | None = None  # the card points of the declarer's opponents
    partner: str | None = None  # the called ace's holder
    loser: str | None = None  # a Ramsch's loser
    loser_points: int | None = None
    jungfrau: tuple[str, ...] = ()


@dataclass(frozen=True)
class RecordedGame:
    """One game of a record."""

    number: int  # the record's number for it
    line: int  # where it starts
    said: str  # how the record names what was played ("Gast spielt Mit der Schellen-Ass")
    dealer: str
    hands: Mapping[str, tuple[Card, ...]]  # each player's dealt cards
    game: str = ""  # as a hand file says it: "partner", "solo H", "farbwenz C", "ramsch", ...
    declarer: str | None = None
    call: Card | None = None  # the called ace of a partner game
    tricks: tuple[Played, ...] = ()
    knocks: int = 0
    knockers: tuple[str, ...] = ()  # who knocked, where the record says
    stoss: int = 0  # every Stoss given (Kontra, Re, ...), where the record does not say who
    crack: str | None = None  # who gave the first Stoss, where it says
    recrack: bool = False
    result: Said | None = None
    runs: int | None = None  # the runs the record's price counts (None: it does not say)
    deltas: Mapping[str, int] | None = None  # what the record says each player won
    totals: Mapping[str, int] | None = None  # the record's running totals after the game
    skipped: str = ""  # why scorepad cannot record it as a hand (empty: it can)


@dataclass(frozen=True)
class Record:
    """A whole record: the table, its games, and its own tariff as rules settings."""

    kind: str  # a key of FORMATS
    players: tuple[str, ...]  # in seat order (the first trick is led from the dealer's left)
    games: tuple[RecordedGame, ...]
    settings: tuple[str, ...] = ()  # the record's tariff, as `--set KEY=VALUE` takes it
    date: str | None = None  # YYYY-MM-DD
    lines: Mapping[str, int] = field(default_factory=dict)  # where each setting comes from

    @property
    def what(self) -> str:
        """What the format is called, in the language in force."""
        return _(FORMATS[self.kind])


def decode(data: bytes) -> str:
    """A record's text: UTF-8 (with or without its byte order mark), else Windows-1252 (which
    NetSchafkopf writes; Latin-1 for the bytes it leaves undefined)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def lines(text: str) -> list[str]:
    """The lines of a text, whatever ends them (CRLF, CR or LF); line 1 is `lines(...)[0]`."""
    return re.split(r"\r\n|\r|\n", text)


_SUITS = {"e": Suit.CLUBS, "g": Suit.SPADES, "h": Suit.HEARTS, "s": Suit.DIAMONDS}
_RANKS = {
    "7": Rank.SEVEN,
    "8": Rank.EIGHT,
    "9": Rank.NINE,
    "z": Rank.TEN,
    "x": Rank.TEN,
    "u": Rank.JACK,
    "o": Rank.QUEEN,
    "k": Rank.KING,
    "a": Rank.ACE,
}
_SUIT_LETTERS = {suit: letter for letter, suit in _SUITS.items()}
_RANK_LETTERS = {rank: letter for letter, rank in _RANKS.items() if letter != "x"}
SUIT_WORDS = {
    Suit.CLUBS: "Eichel",
    Suit.SPADES: "Gras",
    Suit.HEARTS: "Herz",
    Suit.DIAMONDS: "Schelln",
}
"""The suits as openschafkopf writes them."""


def card(code: str, line: int) -> Card:
    """A card as the German records write it: suit E G H S, then 7 8 9 Z (or X) U O K A."""
    text = code.strip().lower()
    if len(text) == 2 and text[0] in _SUITS and text[1] in _RANKS:
        return Card(_RANKS[text[1]], _SUITS[text[0]])
    raise RecordError(
        line,
        _(
            "unknown card {code!r}: a record writes a suit (E, G, H, S) and then a rank "
            "(7, 8, 9, Z, U, O, K, A), e.g. EO or HZ"
        ).format(code=code),
    )


def code(card: Card) -> str:
    """A card as openschafkopf writes it: `eo`, `hz`."""
    return _SUIT_LETTERS[card.suit] + _RANK_LETTERS[card.rank]


def suit_named(text: str) -> Suit | None:
    """The suit a German word names (Eichel, Gras or Grün, Herz, Schellen), or None."""
    word = text.lower()
    for starts, suit in (
        (("eichel", "alt"), Suit.CLUBS),
        (("gras", "grün", "gruen", "gr\ufffdn", "laub", "blatt", "blau"), Suit.SPADES),
        (("herz", "rot"), Suit.HEARTS),
        (("schell", "pump", "hundsgfickt"), Suit.DIAMONDS),
    ):
        if word.startswith(starts):
            return suit
    return None


def detect(text: str) -> str | None:
    """Which format a record's text is in (a key of FORMATS), or None."""
    head = text[:4096]
    if re.search(r"<!doctype html|<html", head, re.I):
        return "sauspiel" if "Karten von:" in text else None
    rows = [row.strip() for row in lines(text)]
    if any(row.startswith("gespielt von ") for row in rows[:5]) and any(
        row.startswith("Geber:") for row in rows
    ):
        return "netschafkopf"
    filled = [row for row in rows if row]
    if any(_GAME_LINE.fullmatch(row) for row in filled):  # (its other lines: errors by line)
        return "openschafkopf"
    return None


_GAME_LINE = re.compile(r"[^:]+:(?:\s+\S\S){6,}\s*")
"""A line like a game line (the rules, a colon, two-letter cards): its reader says what is
wrong with it, and with the file's other lines, by line."""


def unrecognised() -> str:
    """What to say of a file in none of the formats."""
    return _(
        "not a game record scorepad reads; it reads {formats}: a NetSchafkopf protocol "
        "(text with 'gespielt von ...' and 'Geber: ...'), openschafkopf game lines ('Rufspiel "
        "mit der Gras-Sau von 2: so h7 go ...', one game a line) and a sauspiel.de game page "
        "saved as HTML (with its 'Karten von:' and 'Stich von' sections)"
    ).format(formats=", ".join(_(name) for name in FORMATS.values()))


def check_deal(dealt: list[tuple[str, int, tuple[Card, ...]]]) -> None:
    """A deal as a record gives it, (player, line, cards) each: as many cards each, 8 (the
    long pack) or 6 (the short), every card once."""
    from ..cards import DECK, SHORT_DECK

    sizes = {len(cards) for _player, _line, cards in dealt}
    first_player, _first_line, first_cards = dealt[0]
    for player, line, cards in dealt:
        if len(cards) != len(first_cards) or len(cards) not in (6, 8):
            raise RecordError(
                line,
                _(
                    "{player} is dealt {count} cards ({first} {first_count}): a deal gives "
                    "each player 8 cards, or 6 with the short pack"
                ).format(
                    player=player,
                    count=len(cards),
                    first=first_player,
                    first_count=len(first_cards),
                ),
            )
    pack = DECK if sizes == {8} else SHORT_DECK
    seen: dict[Card, tuple[str, int]] = {}
    for player, line, cards in dealt:
        for one in cards:
            if one in seen:
                other, other_line = seen[one]
                raise RecordError(
                    line,
                    _(
                        "{card} is dealt twice: to {other} (line {other_line}) and to {player}"
                    ).format(
                        card=code(one).upper(), other=other, other_line=other_line, player=player
                    ),
                )
            if one not in pack:
                raise RecordError(
                    line,
                    _("{card} is not in the {size}-card pack that deals {each} cards each").format(
                        card=code(one).upper(), size=len(pack), each=len(first_cards)
                    ),
                )
            seen[one] = (player, line)


def read(kind: str, text: str) -> Record:
    """Read a record in a format `detect` found (a key of FORMATS)."""
    from . import netschafkopf, openschafkopf, sauspiel

    readers = {
        "netschafkopf": netschafkopf.read,
        "openschafkopf": openschafkopf.read,
        "sauspiel": sauspiel.read,
    }
    return readers[kind](text)
