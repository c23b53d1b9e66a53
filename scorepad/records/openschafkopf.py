"""openschafkopf's game lines: one game a line, the rules and then every card in the order played.

    Rufspiel mit der Gras-Sau von 2: so h7 go eo ho hz hk eu gu h9 su g8 g9 ga ...
    Schelln-Wenz von 2: ea ek e7 ez gz g7 ga go eu e9 so s9 gu h7 sa hu su h8 ...
    Ramsch: ...

The players are 0 to 3 in seat order from the dealer's left: 0 leads the first trick, 3 deals;
"von N" names the declarer. The cards (a suit e g h s, then 7 8 9 z u o k a; `x` is read as a
ten too) are the tricks one after the other, each from its leader (the winner of the trick
before): 32 cards, or 24 with the short pack. The rules are read as openschafkopf reads them, by
the words they hold: a Rufspiel ("Rufspiel", "Sauspiel", "mit der", "auf die") with its suit
(Eichel or "Alte", Gras or "Blaue", Schelln or "Hundsgfickte"), a Solo ("Solo", "sticht"), a
Wenz, a Geier (with a suit: a Farbwenz, a Farbgeier), each a Tout with "Tout"; a Bettel; a
Ramsch. `line` writes a hand file's game as such a line, as openschafkopf writes it.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..cards import Card, Game, Rank, Suit, card_points, parse_suit
from ..errors import CardError
from ..i18n import gettext as _
from ..replay import HandFile
from ..text import unprintable, unprintable_problem
from . import SUIT_WORDS, Played, Record, RecordedGame, RecordError, Said, card, code, lines

PLAYERS = ("0", "1", "2", "3")
"""The players of a game line: their seats from the dealer's left (3 deals)."""

_KINDS = (
    ("partner", ("rufspiel", "sauspiel", "mit der", "auf die")),
    ("solo", ("solo", "sticht")),
    ("wenz", ("wenz",)),
    ("geier", ("geier",)),
    ("bettel", ("bettel",)),
    ("ramsch", ("ramsch",)),
)
_SUIT_WORDS = (
    (Suit.CLUBS, ("eichel", "alt")),
    (Suit.SPADES, ("gras", "grün", "gruen", "laub", "blatt", "blau")),
    (Suit.HEARTS, ("herz", "rot")),
    (Suit.DIAMONDS, ("schell", "pump", "hundsgfickte")),
)


def described(text: str, line: int) -> tuple[str, Card | None, str | None]:
    """A game as openschafkopf (and sauspiel.de) describe it ("Rufspiel mit der Gras-Sau von
    2", "Eichel-Wenz von Anna"): a hand file's game, the called ace, and who played it (as
    written after "von"; None: nobody, a Ramsch)."""
    rules, sep, who = text.rpartition(" von ")
    if not sep:
        rules, who = text, ""
    words = rules.strip().lower()
    kinds = [kind for kind, keys in _KINDS if any(key in words for key in keys)]
    suits = [suit for suit, keys in _SUIT_WORDS if any(key in words for key in keys)]
    if len(kinds) != 1 or len(suits) > 1:
        raise RecordError(
            line,
            _(
                "a game scorepad does not read: {text!r} (it reads a Rufspiel, Solo, Wenz, "
                "Geier, Farbwenz, Farbgeier, each as a Tout too, a Bettel and a Ramsch, as "
                "'Rufspiel mit der Gras-Sau von 2' or 'Herz-Solo-Tout von 0')"
            ).format(text=text.strip()),
        )
    kind, suit = kinds[0], suits[0] if suits else None
    tout = "tout" in words
    if (kind == "ramsch") != (not who.strip()):
        raise RecordError(
            line,
            _("{text!r}: say who played it, 'von N', except in a Ramsch").format(text=text.strip()),
        )
    if kind == "partner":
        if suit is None or suit == Suit.HEARTS or tout:
            raise RecordError(
                line,
                _("{text!r}: a Rufspiel calls the ace of Eichel, Gras or Schelln").format(
                    text=text.strip()
                ),
            )
        return "partner", Card(Rank.ACE, suit), who.strip()
    if kind in ("bettel", "ramsch"):
        if suit is not None or tout or "stich" in words:
            raise RecordError(
                line,
                _("{text!r}: scorepad plays a plain Bettel and a plain Ramsch").format(
                    text=text.strip()
                ),
            )
        return kind, None, who.strip() or None
    if kind == "solo" and suit is None:
        raise RecordError(
            line, _("{text!r}: a Solo names its trump suit").format(text=text.strip())
        )
    name = kind if suit is None or kind == "solo" else f"farb{kind}"
    name += "-tout" if tout else ""
    return (f"{name} {suit.value}" if suit is not None else name), None, who.strip()


def read(text: str) -> Record:
    """Read openschafkopf game lines; a RecordError names the line of anything wrong."""
    games: list[RecordedGame] = []
    sizes: dict[int, int] = {}
    for number, row in enumerate(lines(text), 1):
        if not row.strip():
            continue
        bad = unprintable(row)
        if bad is not None:
            raise RecordError(number, unprintable_problem(_("this line"), row, bad))
        game = _game(row, number, len(games) + 1)
        games.append(game)
        sizes.setdefault(len(game.tricks), number)
    if not games:
        raise RecordError(1, _("no game line ('Rufspiel mit der Gras-Sau von 2: so h7 ...')"))
    if len(sizes) > 1:
        raise RecordError(
            max(sizes.values()),
            _("these lines play the long and the short pack: a night plays one"),
        )
    settings = ("deal.4.cards=6",) if 6 in sizes else ()
    return Record("openschafkopf", PLAYERS, tuple(games), settings)


def _game(row: str, line: int, number: int) -> RecordedGame:
    rules, sep, rest = row.partition(":")
    if not sep or ":" in rest:
        raise RecordError(
            line,
            _("write the rules, a colon and the cards in the order played (not {row!r})").format(
                row=row.strip()[:60]
            ),
        )
    name, call, who = described(rules, line)
    declarer = None
    if who is not None:
        if who not in PLAYERS:
            raise RecordError(
                line,
                _("von {who}: the players of a game line are 0, 1, 2 and 3").format(who=who),
            )
        declarer = who
    cards = tuple(card(word, line) for word in rest.split())
    if len(cards) not in (24, 32):
        raise RecordError(
            line,
            _(
                "{count} cards: a game line has all 32 cards in the order played (24 with the "
                "short pack)"
            ).format(count=len(cards)),
        )
    seen: set[Card] = set()
    for one in cards:
        if one in seen:
            raise RecordError(line, _("{card} is played twice").format(card=code(one).upper()))
        seen.add(one)
    if len(cards) == 24 and any(c.rank in (Rank.SEVEN, Rank.EIGHT) for c in cards):
        raise RecordError(line, _("a 7 or an 8 in a game of the 24-card short pack"))
    words = name.split()
    try:
        play = Game.schafkopf(words[0], parse_suit(words[1]) if len(words) > 1 else None)
    except CardError as exc:
        raise RecordError(line, str(exc)) from None
    hands: dict[str, list[Card]] = {p: [] for p in PLAYERS}
    tricks: list[Played] = []
    points = dict.fromkeys(PLAYERS, 0)
    leader = 0
    for at in range(0, len(cards), 4):
        trick = cards[at : at + 4]
        order = [PLAYERS[(leader + i) % 4] for i in range(4)]
        for player, one in zip(order, trick, strict=True):
            hands[player].append(one)
        tricks.append(Played(line, trick))
        leader = int(order[play.winner(trick)])
        points[PLAYERS[leader]] += card_points(trick)
    dealt = {p: tuple(c) for p, c in hands.items()}
    loser = ramsch_loser(play, dealt, points) if name == "ramsch" else None
    return RecordedGame(
        number,
        line,
        row.strip(),
        PLAYERS[-1],
        dealt,
        game=name,
        declarer=declarer,
        call=call,
        tricks=tuple(tricks),
        result=Said(line, loser=loser) if loser else None,
    )


def ramsch_loser(
    play: Game, hands: Mapping[str, tuple[Card, ...]], points: Mapping[str, int]
) -> str | None:
    """Who loses a Ramsch that players tie for the most card points, as openschafkopf scores
    one: whoever held the highest trump (None: no tie)."""
    most = max(points.values())
    tied = [p for p in points if points[p] == most]
    if len(tied) == 1:
        return None
    rank = {card: at for at, card in enumerate(play.trumps)}
    return min(tied, key=lambda p: min((rank[c] for c in hands[p] if c in rank), default=99))


def line(hand: HandFile) -> str:
    """A hand file's game as an openschafkopf game line (a RecordError for a game it has no
    line for: a Hochzeit, a Sie, a Sheepshead hand, a deal not of four)."""
    players, dealer = hand.players, hand.dealer
    if len(players) != 4 or dealer is None or hand.blind:
        raise RecordError(0, _("an openschafkopf game line is a Schafkopf game of four"))
    seats = [players[(players.index(dealer) + 1 + i) % 4] for i in range(4)]
    words = (hand.game or "partner").split()
    name, suit = words[0].lower(), parse_suit(words[1]) if len(words) > 1 else None
    base, tout = name.removesuffix("-tout"), "-Tout" if name.endswith("-tout") else ""
    if base == "partner":
        called = Card.parse(hand.call.split()[0])
        rules = f"Rufspiel mit der {SUIT_WORDS[called.suit]}-Sau"
    elif base in ("solo", "wenz", "geier", "farbwenz", "farbgeier"):
        game = base.removeprefix("farb").capitalize()
        rules = f"{SUIT_WORDS[suit]}-{game}{tout}" if suit is not None else f"{game}{tout}"
    elif base == "bettel":
        rules = "Bettel normal"
    elif base == "ramsch":
        rules = "Ramsch"
    else:
        raise RecordError(0, _("a {game} has no openschafkopf game line").format(game=base))
    if hand.picker is not None:
        rules += f" von {seats.index(hand.picker)}"
    return rules + ": " + " ".join(code(c) for _line, cards in hand.tricks for c in cards)
