"""NetSchafkopf's protocols: every game of a session as the program saved it.

A protocol is text (Latin-1 or Windows-1252 with CRLF as the program writes it; UTF-8 read too):

    Standard                                            <- the program's rule set
    gespielt von Gast am 16.05.20 mit Version 5.05, Update 10.07.07.

    Geber: PcRechts                                     <- one game a block
            Gast hat: EU S8 GZ E8 G7 SA HO HZ          <- the hands, from the dealer's left
         PcLinks hat: HU E9 EK GU EZ EO S7 E7
          PcOben hat: HA SO SU EA H8 S9 H9 GA
        PcRechts hat: H7 SK GK G9 G8 SZ GO HK
    PcLinks spielt Eichel-Wenz                          <- or "Es wurde Ramsch gespielt."
            Gast spielt aus: SA S7 SO SZ               <- the tricks, the leader's card first
    ...
    PcLinks gewinnt den Eichel-Wenz. Die Gegner haben 45 Augen
    Das Einzelspiel kostet 50 Punkte. 1 mal aufgedoppelt 100 Punkte.
    Spiel    Preis      PcLinks       PcOben     PcRechts         Gast    Stock
        1      100         +150          -50          -50          -50        0

Cards are a suit (E G H S) and a rank (7 8 9 Z U O K A); `DU` is a card not shown (a Schieber).
The result and the price are sentences wrapped over lines. "Du" and "dir" are the player who
saved it. The price says the protocol's tariff step by step (the game's price, schneider,
schwarz, each run, each knock ("aufgedoppelt"), each Stoss ("gespritzt"), a jungfrau, a tout
doubled), which becomes the record's settings. A Schieber (cards passed unseen) and a deal thrown
in are read as games scorepad cannot record (`RecordedGame.skipped`), with what the record paid.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field, replace

from ..cards import Card, Rank, Suit
from ..i18n import gettext as _
from ..text import unprintable, unprintable_problem
from . import Played, Record, RecordedGame, RecordError, Said, card, check_deal, lines, suit_named

_HEADER = re.compile(
    r"gespielt von (?P<owner>.+?) am (?P<d>[0-9]{2})\.(?P<m>[0-9]{2})\.(?P<y>[0-9]{2})\b"
)
_HAND = re.compile(r"(?P<name>.+?) hat: (?P<cards>.*)")
_TRICK = re.compile(r"(?P<name>.+?) spielt aus: (?P<cards>.*)")
_TABLE = re.compile(r"Spiel\s+Preis\s+(?P<names>.+?)\s+Stock")
_ROW = re.compile(r"(?P<number>\d+)\s+(?P<price>[+-]?\d+)\s+(?P<values>[+-]?\d+(?:\s+[+-]?\d+)*)")
_THROWN_IN = "Es wurde zusammengeworfen."
_RAMSCH = "Es wurde Ramsch gespielt."
_SCHIEBER = "Spielart: Schieber"

# The price, sentence by sentence: what each step is (its figure is the price after it).
_PRICE = (
    (
        "base",
        re.compile(
            r"(?:Das|Der|Die) (?P<what>Rufspiel|Einzelspiel|Ramsch) kostet (?P<to>\d+) Punkte?"
        ),
    ),
    ("schneider", re.compile(r"Mit Schneider (?P<to>\d+) Punkte?")),
    ("schwarz", re.compile(r"Mit Schwarz (?P<to>\d+) Punkte?")),
    ("runs", re.compile(r"(?:Mit|Ohne) (?P<n>\d+) Laufenden? (?P<to>\d+) Punkte?")),
    ("knocks", re.compile(r"(?P<n>\d+) mal aufgedoppelt (?P<to>\d+) Punkte?")),
    ("stoss", re.compile(r"(?P<n>\d+) mal gespritzt (?P<to>\d+) Punkte?")),
    ("jungfrau", re.compile(r"Mit (?P<n>\d+) mal Jungfrau (?P<to>\d+) Punkte?")),
    ("tout", re.compile(r"Doppelt f(?:ü|ue|\ufffd)r Tout (?P<to>\d+) Punkte?")),
)
_SOLO_GAMES = ("solo", "wenz", "geier", "farbwenz", "farbgeier")


@dataclass
class _Block:
    """One game's lines: (line number, text) of each line that is not blank."""

    rows: list[tuple[int, str]] = field(default_factory=list)
    at: int = 0

    def peek(self) -> tuple[int, str] | None:
        return self.rows[self.at] if self.at < len(self.rows) else None

    def take(self) -> tuple[int, str]:
        row = self.rows[self.at]
        self.at += 1
        return row


@dataclass
class _Protocol:
    """What reading the protocol has found so far."""

    owner: str = ""
    players: tuple[str, ...] = ()
    totals: dict[str, int] = field(default_factory=dict)
    tariff: dict[str, tuple[str, int]] = field(default_factory=dict)  # key: (value, line)

    def name(self, text: str, line: int, what: str) -> str:
        """A player the protocol names ("Du" and "dir": whoever saved it)."""
        name = self.owner if text in ("Du", "dir") else text
        if name not in self.players:
            raise RecordError(
                line,
                _("{what} {name}: not a player of this protocol ({players})").format(
                    what=what, name=text, players=", ".join(self.players)
                ),
            )
        return name

    def set(self, key: str, value: str, line: int) -> None:
        """One setting of the record's tariff, the same wherever the protocol states it."""
        if key in self.tariff and self.tariff[key][0] != value:
            first, first_line = self.tariff[key]
            raise RecordError(
                line,
                _(
                    "the price here says {key}={value}, the price on line {first_line} "
                    "{key}={first}: scorepad scores a night by one tariff"
                ).format(key=key, value=value, first_line=first_line, first=first),
            )
        self.tariff.setdefault(key, (value, line))


def read(text: str) -> Record:
    """Read a NetSchafkopf protocol; a RecordError names the line of anything wrong."""
    rows = lines(text)
    for number, row in enumerate(rows, 1):
        bad = unprintable(row)
        if bad is not None:
            raise RecordError(number, unprintable_problem(_("this line"), row, bad))
    protocol = _Protocol()
    filled = [(n, row.rstrip()) for n, row in enumerate(rows, 1) if row.strip()]
    header = next(
        (i for i, (_n, row) in enumerate(filled[:3]) if row.startswith("gespielt von")), None
    )
    if header is None:
        raise RecordError(
            1, _("no 'gespielt von ...' line at the top: not a NetSchafkopf protocol")
        )
    found = _HEADER.match(filled[header][1])
    if found is None:
        raise RecordError(
            filled[header][0],
            _("write 'gespielt von NAME am DD.MM.YY ...' (not {row!r})").format(
                row=filled[header][1]
            ),
        )
    protocol.owner = found["owner"]
    date = f"20{found['y']}-{found['m']}-{found['d']}"
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise RecordError(
            filled[header][0],
            _("no such day: {day} (the protocol's date, DD.MM.YY)").format(
                day=f"{found['d']}.{found['m']}.{found['y']}"
            ),
        ) from None
    blocks: list[_Block] = []
    for number, row in filled[header + 1 :]:
        if row.startswith("Geber:"):
            blocks.append(_Block())
        elif not blocks:
            raise RecordError(
                number,
                _("expected 'Geber: NAME', which starts a game (not {row!r})").format(row=row),
            )
        blocks[-1].rows.append((number, row))
    if not blocks:
        raise RecordError(len(rows), _("no game in this protocol (a game starts 'Geber: NAME')"))
    games = [_game(block, protocol) for block in blocks]
    settings = tuple(f"{key}={value}" for key, (value, _line) in sorted(protocol.tariff.items()))
    where = {key: line for key, (_value, line) in protocol.tariff.items()}
    return Record("netschafkopf", protocol.players, tuple(games), settings, date, where)


def _game(block: _Block, protocol: _Protocol) -> RecordedGame:
    """One game's block, from 'Geber:' to its row of the totals."""
    start, geber = block.take()
    kind = ""
    if (block.peek() or (0, ""))[1].startswith("Spielart:"):
        kind = block.take()[1].removeprefix("Spielart:").strip()
    dealt = _hands(block)
    table_at = next(
        (i for i in range(block.at, len(block.rows)) if _TABLE.match(block.rows[i][1].strip())),
        None,
    )
    if table_at is None:
        raise RecordError(
            block.rows[-1][0],
            _(
                "the game from line {start} ends without its row of the totals ('Spiel Preis ...')"
            ).format(start=start),
        )
    number, deltas, totals = _totals(block, table_at, protocol, dealt)
    for name, line, _cards in dealt:
        protocol.name(name, line, _("the hand of"))
    dealer = protocol.name(geber.removeprefix("Geber:").strip(), start, "Geber:")
    if dealt[-1][0] != dealer:
        raise RecordError(
            dealt[-1][1],
            _(
                "the hands are listed from the dealer's left, the dealer's last; {dealer} deals"
            ).format(dealer=dealer),
        )
    game = RecordedGame(number, start, "", dealer, {}, deltas=deltas, totals=totals)
    body = block.rows[block.at : table_at]
    said = body[0][1].strip() if body else ""
    thrown = said == _THROWN_IN
    paid = " ".join(row.strip() for _n, row in body[1:]) if thrown else ""
    how = (_("thrown in") + (f" ({paid})" if paid else "")) if thrown else _("played")
    if kind or any(cards is None for _p, _l, cards in dealt):
        what = (
            _("a Schieber, cards passed unseen")
            if kind in ("Schieber", "")
            else _("Spielart {kind}, which scorepad does not read").format(kind=kind)
        )
        return replace(game, said=said, skipped=f"{what}; {how}")
    hands = {p: c for p, _l, c in dealt if c is not None}
    check_deal([(p, line, c) for p, line, c in dealt if c is not None])
    if len(dealt[0][2] or ()) == 6:
        protocol.set("deal.4.cards", "6", start)
    if thrown:
        return replace(game, said=said, skipped=how)
    return _played(replace(game, hands=hands), body, protocol)


def _hands(block: _Block) -> list[tuple[str, int, tuple[Card, ...] | None]]:
    """The four 'NAME hat: ...' lines (None for a hand with cards not shown)."""
    dealt: list[tuple[str, int, tuple[Card, ...] | None]] = []
    for _seat in range(4):
        row = block.peek()
        found = _HAND.fullmatch(row[1].strip()) if row else None
        if row is None or found is None:
            where = row[0] if row else block.rows[-1][0]
            raise RecordError(
                where,
                _(
                    "expected a player's hand, 'NAME hat: EO HZ ...' (four of them, from the "
                    "dealer's left)"
                ),
            )
        block.take()
        codes = found["cards"].split()
        cards = None if "DU" in codes else tuple(card(c, row[0]) for c in codes)
        dealt.append((found["name"], row[0], cards))
    names = [name for name, _line, _cards in dealt]
    if len(set(names)) != 4:
        raise RecordError(
            dealt[0][1], _("a player's hand is given twice: {names}").format(names=", ".join(names))
        )
    return dealt


def _totals(
    block: _Block,
    at: int,
    protocol: _Protocol,
    dealt: list[tuple[str, int, tuple[Card, ...] | None]],
) -> tuple[int, dict[str, int], dict[str, int]]:
    """The game's row of the running totals: its number, each player's points and totals."""
    line, text = block.rows[at]
    found = _TABLE.match(text.strip())
    assert found is not None
    names = tuple(found["names"].split())
    if not protocol.players:
        hand_order = [name for name, _l, _c in dealt]
        if sorted(names) != sorted(hand_order) or not _rotation(hand_order, names):
            raise RecordError(
                line,
                _(
                    "the totals' columns ({names}) are not the players dealt in, in seat order"
                ).format(names=", ".join(names)),
            )
        protocol.players = names
        protocol.totals = dict.fromkeys(names, 0)
    elif names != protocol.players:
        raise RecordError(
            line,
            _("the totals' columns are {names}; the protocol began with {players}").format(
                names=", ".join(names), players=", ".join(protocol.players)
            ),
        )
    if at + 1 >= len(block.rows):
        raise RecordError(line, _("the row of the totals is missing under this line"))
    value_line, values_text = block.rows[at + 1]
    row = _ROW.fullmatch(values_text.strip())
    values = row["values"].split() if row else []
    if row is None or len(values) != len(names) + 1:
        raise RecordError(
            value_line,
            _(
                "expected the game's number, its price, each player's total and the Stock "
                "({count} numbers)"
            ).format(count=len(names) + 3),
        )
    if at + 2 < len(block.rows):
        extra_line, extra = block.rows[at + 2]
        raise RecordError(
            extra_line,
            _("expected 'Geber: NAME', which starts a game (not {row!r})").format(row=extra),
        )
    totals = {name: int(value) for name, value in zip(names, values, strict=False)}
    deltas = {name: totals[name] - protocol.totals[name] for name in names}
    protocol.totals = totals
    return int(row["number"]), deltas, totals


def _rotation(order: list[str], names: tuple[str, ...]) -> bool:
    """Whether `order` is `names` begun at another seat."""
    at = names.index(order[0])
    return list(names[at:] + names[:at]) == order


def _played(game: RecordedGame, body: list[tuple[int, str]], protocol: _Protocol) -> RecordedGame:
    """A game played: what was played, every trick, the result and the price."""
    if not body:
        raise RecordError(game.line, _("the game has no 'NAME spielt ...' line and no tricks"))
    line, said = body[0][0], body[0][1].strip()
    name, declarer, call = _declared(said, line, protocol)
    size = len(next(iter(game.hands.values())))
    tricks: list[Played] = []
    at = 1
    while at < len(body) and (found := _TRICK.fullmatch(body[at][1].strip())):
        trick_line = body[at][0]
        leader = protocol.name(found["name"], trick_line, _("a trick led by"))
        cards = tuple(card(c, trick_line) for c in found["cards"].split())
        if len(cards) != 4:
            raise RecordError(
                trick_line,
                _("a trick has 4 cards, one from each player; this one has {count}").format(
                    count=len(cards)
                ),
            )
        tricks.append(Played(trick_line, cards, leader))
        at += 1
    if len(tricks) != size:
        where = body[at][0] if at < len(body) else body[-1][0]
        raise RecordError(
            where,
            _(
                "{count} tricks; a deal of {size} cards each plays {size} tricks "
                "('NAME spielt aus: ...')"
            ).format(count=len(tricks), size=size),
        )
    rest = body[at:]
    if not rest:
        raise RecordError(
            body[-1][0], _("the game's result and price are missing after its last trick")
        )
    sentences = _sentences(rest)
    result = _result(sentences, protocol, declarer, rest[0][0])
    knocks, stoss, runs = _price(sentences, protocol, name)
    return replace(
        game,
        said=said,
        game=name,
        declarer=declarer,
        call=call,
        tricks=tuple(tricks),
        knocks=knocks,
        stoss=stoss,
        result=result,
        runs=None if name == "ramsch" else runs,
    )


def _declared(said: str, line: int, protocol: _Protocol) -> tuple[str, str | None, Card | None]:
    """What was played, as a hand file's `game:` says it; the declarer; the called ace."""
    if said == _RAMSCH:
        return "ramsch", None, None
    name, sep, what = said.partition(" spielt ")
    if not sep:
        raise RecordError(
            line,
            _("expected 'NAME spielt GAME' or '{ramsch}' (not {said!r})").format(
                ramsch=_RAMSCH, said=said
            ),
        )
    declarer = protocol.name(name.strip(), line, _("a game played by"))
    game = _game_named(what.strip())
    if game is None:
        raise RecordError(
            line,
            _(
                "a game scorepad does not read: {what!r} (it reads 'Mit der Eichel-Ass', "
                "'Herz-Solo', 'Wenz', 'Eichel-Wenz', 'Geier', 'Gras-Geier', each with ' Tout')"
            ).format(what=what.strip()),
        )
    name_of_game, call = game
    return name_of_game, declarer, call


def _game_named(what: str) -> tuple[str, Card | None] | None:
    """A game as NetSchafkopf names it ("Mit der Eichel-Ass", "Herz-Solo Tout", "Wenz", ...)."""
    called = re.fullmatch(r"Mit der (?P<suit>\S+?)-Ass?", what)
    if called:
        suit = suit_named(called["suit"])
        if suit is None or suit == Suit.HEARTS:
            return None
        return "partner", Card(Rank.ACE, suit)
    found = re.fullmatch(r"(?:(?P<suit>\S+?)-)?(?P<game>Solo|Wenz|Geier)(?P<tout> Tout)?", what)
    if found is None:
        return None
    suit = suit_named(found["suit"]) if found["suit"] else None
    if found["suit"] and suit is None:
        return None
    base = found["game"].lower()
    if base == "solo" and suit is None:
        return None
    name = base if suit is None or base == "solo" else f"farb{base}"
    name += "-tout" if found["tout"] else ""
    return (f"{name} {suit.value}" if suit is not None else name), None


def _sentences(rows: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The result and the price, wrapped over lines, as sentences, each with the line it
    starts on. (The result's last sentence ends without a full stop; the price starts a
    paragraph of its own.)"""
    out: list[tuple[int, str]] = []
    current, current_line = "", 0
    for line, text in rows:
        text = text.strip()
        if current and _PRICE[0][1].match(text):
            out.append((current_line, current))
            current = ""
        for piece in re.split(r"(?<=\.)\s+", text):
            if not current:
                current_line = line
            current = f"{current} {piece}" if current else piece
            if current.endswith("."):
                out.append((current_line, current[:-1]))
                current = ""
    if current:
        out.append((current_line, current))
    return out


def _result(
    sentences: list[tuple[int, str]], protocol: _Protocol, declarer: str | None, line: int
) -> Said:
    """What the protocol says came of the game: who won, the opponents' card points, the partner;
    a Ramsch's loser, their points and who took no trick."""
    names = "|".join(
        re.escape(n) for n in sorted((*protocol.players, "Du", "dir"), key=len, reverse=True)
    )
    outcome = re.compile(
        rf"(?P<who>{names}) (?P<verb>gewinnt|gewinnst|verliert|verlierst) "
        r"(?:das|den|die) (?P<what>.+)"
    )
    won: bool | None = None
    opponents = partner = loser = loser_points = None
    jungfrau: list[str] = []
    for at, text in sentences:
        if _price_step(text):
            break
        if found := outcome.fullmatch(text):
            who = protocol.name(found["who"], at, _("a result for"))
            if declarer is not None and who != declarer:
                raise RecordError(
                    at,
                    _("the result is {who}'s; {declarer} played the game").format(
                        who=who, declarer=declarer
                    ),
                )
            won = found["verb"].startswith("gewinn")
            if called := re.search(rf" mit (?P<partner>{names})$", found["what"]):
                partner = protocol.name(called["partner"], at, _("a partner"))
            loser = who if declarer is None else None
        elif points := re.fullmatch(r"Die Gegner haben (?P<n>\d+) Augen", text):
            opponents = int(points["n"])
        elif points := re.fullmatch(rf"(?P<who>{names}) ha(?:t|st) (?P<n>\d+) Augen", text):
            loser_points = int(points["n"])
        elif maiden := re.fullmatch(rf"(?P<who>{names}) (?:ist|bist) Jungfrau", text):
            jungfrau.append(protocol.name(maiden["who"], at, "Jungfrau:"))
        elif not text.startswith("Bei Augengleichheit verliert"):
            raise RecordError(
                at, _("a sentence scorepad does not read: {text!r}").format(text=text)
            )
    if won is None:
        raise RecordError(line, _("no result ('NAME gewinnt ...' or 'NAME verliert ...')"))
    return Said(line, won, opponents, partner, loser, loser_points, tuple(jungfrau))


def _price_step(text: str) -> tuple[str, re.Match[str]] | None:
    for key, pattern in _PRICE:
        found = pattern.fullmatch(text)
        if found:
            return key, found
    return None


def _price(
    sentences: list[tuple[int, str]], protocol: _Protocol, game: str
) -> tuple[int, int, int]:
    """The price, step by step: the knocks, the Stoss and the runs it counts; what each step
    adds is a setting of the record's tariff."""
    steps = [(line, _price_step(text), text) for line, text in sentences]
    priced = [(line, step) for line, step, _text in steps if step is not None]
    if not priced:
        raise RecordError(sentences[-1][0], _("no price ('Das Rufspiel kostet ...')"))
    first_line, first = priced[0]
    unread = [(line, text) for line, step, text in steps if step is None and line >= first_line]
    if first[0] != "base" or unread:
        where, text = unread[0] if unread else (first_line, first[1].group(0))
        raise RecordError(where, _("a price scorepad does not read: {text!r}").format(text=text))
    knocks = stoss = runs = 0
    before = 0
    for line, (key, found) in priced:
        to = int(found["to"])
        n = int(found["n"]) if "n" in found.groupdict() else 1
        if key == "base":
            for value_of in _VALUES[found["what"]]:
                protocol.set(f"game_values.{value_of}", str(to), line)
        elif key in ("schneider", "schwarz"):
            protocol.set(f"{key}_bonus", str(to - before), line)
        elif key == "runs":
            runs = n
            protocol.set("run_value", _divided(to - before, n, line), line)
        elif key == "tout":
            if to != 2 * before:
                raise RecordError(
                    line,
                    _("a tout doubles its price in scorepad: {to} is not 2 x {before}").format(
                        to=to, before=before
                    ),
                )
            protocol.set("tout_scoring", "double", line)
        else:
            factor = _factor(before, to, n, line)
            if key == "knocks":
                knocks = n
                protocol.set("knock_factor", str(factor), line)
            elif key == "stoss":
                stoss = n
                if factor != 2:
                    raise RecordError(
                        line,
                        _("each Stoss doubles the price in scorepad, not x{factor}").format(
                            factor=factor
                        ),
                    )
            elif factor == 2:  # (each jungfrau doubles what the loser pays everyone)
                protocol.set("jungfrau", "double-all", line)
            else:
                raise RecordError(
                    line,
                    _("a jungfrau doubles the price in scorepad, not x{factor}").format(
                        factor=factor
                    ),
                )
        before = to
    if game == "ramsch":
        protocol.set("all_pass", "ramsch", first_line)
    return knocks, stoss, runs


_VALUES = {"Rufspiel": ("partner",), "Einzelspiel": _SOLO_GAMES, "Ramsch": ("ramsch",)}
"""The games a price names: NetSchafkopf prices every game of one player alike."""


def _divided(amount: int, n: int, line: int) -> str:
    if n <= 0 or amount % n:
        raise RecordError(
            line, _("{n} runs add {amount}, not a whole amount each").format(n=n, amount=amount)
        )
    return str(amount // n)


def _factor(before: int, to: int, n: int, line: int) -> int:
    """The factor each of n doublings multiplies by (before x factor^n = to)."""
    for factor in range(2, 11):
        if before * factor**n == to:
            return factor
    raise RecordError(
        line,
        _("{n} doubling(s) take {before} to {to}: not a whole factor each").format(
            n=n, before=before, to=to
        ),
    )
