"""Write the sample game records in sample_sessions/records/ (seeded: the same every time).

    python scripts/make_records.py [FOLDER]      (default: sample_sessions/records/)

- netschafkopf-abend.txt: a NetSchafkopf protocol of a night (Latin-1, CRLF, as NetSchafkopf
  saves one): Rufspiele, solos, wenz and geier (with a suit too), a tout, Ramsch with a
  jungfrau, knocks ("aufgedoppelt") and Kontra ("gespritzt"), and a Schieber thrown in;
- openschafkopf-games.txt: openschafkopf game lines, one game a line;
- sauspiel-spiel.html: a sauspiel.de game page as a browser saves it, with the sections
  openschafkopf reads (a Sauspiel with a knock and a Kontra).

Every game is dealt and played legally by `scorepad.simulate`. The protocol's results, prices
and running totals are worked out here, by NetSchafkopf's rules (tariff 10/50, schneider,
schwarz and each run 10, runs of a Wenz and a Geier from 2 and of any other game from 3, every
knock and Kontra x2, a tout and each jungfrau x2), and not by scorepad's scoring: importing the
protocol holds scorepad to them. The tests write protocols of their own with `protocol`.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from scorepad.cards import Card, Game, Rank, Suit, card_points, parse_suit
from scorepad.replay import parse_hand_file
from scorepad.rules import load_rules
from scorepad.simulate import random_hand

OUT = Path(__file__).resolve().parent.parent / "sample_sessions" / "records"
PLAYERS = ("Anni", "Bertl", "Sepp", "Vroni")

_SUIT = {Suit.CLUBS: "E", Suit.SPADES: "G", Suit.HEARTS: "H", Suit.DIAMONDS: "S"}
_RANK = {
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "Z",
    Rank.JACK: "U",
    Rank.QUEEN: "O",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_SUIT_NAME = {
    Suit.CLUBS: "Eichel",
    Suit.SPADES: "Grün",
    Suit.HEARTS: "Herz",
    Suit.DIAMONDS: "Schellen",
}
_RUNS_FROM = {"partner": 3, "solo": 3, "wenz": 2, "geier": 2, "farbwenz": 3, "farbgeier": 3}
_PRICE = {"partner": 10, "ramsch": 10}  # every other game: 50
_EXTRA = 10


def code(card: Card) -> str:
    """A card as NetSchafkopf writes it: EO, HZ."""
    return _SUIT[card.suit] + _RANK[card.rank]


@dataclass
class Played:
    """A game dealt and played legally, and who took each trick."""

    players: tuple[str, ...]
    dealer: str
    hands: dict[str, list[Card]]
    game: str  # as a hand file says it: partner, solo H, farbwenz C, ramsch, ...
    declarer: str | None
    call: Card | None
    tricks: list[tuple[str, list[Card]]] = field(default_factory=list)  # (leader, cards)
    winners: list[str] = field(default_factory=list)
    knocks: int = 0
    kontra: int = 0

    @property
    def order(self) -> Game:
        words = self.game.split()
        return Game.schafkopf(words[0], parse_suit(words[1]) if len(words) > 1 else None)

    @property
    def side(self) -> set[str]:
        """The declarer and the called ace's holder."""
        side = {self.declarer} if self.declarer else set()
        for player, cards in self.hands.items():
            if self.call in cards:
                side.add(player)
        return side


def play(rng: random.Random, players: tuple[str, ...], dealer: str, game: str) -> Played:
    """A game of `game` (partner, solo, wenz, geier, farbwenz, farbgeier, a tout, ramsch). A
    Ramsch in which one player takes every trick (a Durchmarsch, which wins: this script does
    not write NetSchafkopf's words for one) is dealt and played again."""
    played = _play(rng, players, dealer, game)
    while game == "ramsch" and len(set(played.winners)) == 1:
        played = _play(rng, players, dealer, game)
    return played


def _play(rng: random.Random, players: tuple[str, ...], dealer: str, game: str) -> Played:
    text = random_hand(rng, load_rules("bavarian"), players, dealer, game)
    hand = parse_hand_file(text)
    call = Card.parse(hand.call) if hand.call else None
    played = Played(players, dealer, hand.hands, hand.game, hand.picker, call)
    order = played.order
    leader = players[(players.index(dealer) + 1) % 4]
    for _line, cards in hand.tricks:
        seats = players[players.index(leader) :] + players[: players.index(leader)]
        played.tricks.append((leader, cards))
        leader = seats[order.winner(cards)]
        played.winners.append(leader)
    return played


def runs(played: Played) -> tuple[int, bool]:
    """How many top trumps one side holds from the top, and whether it is the declarer's."""
    owner = {c: p for p, cards in played.hands.items() for c in cards}
    held = [owner[c] in played.side for c in played.order.trumps if c in owner]
    count = next((i for i, h in enumerate(held) if h != held[0]), len(held))
    return count, held[0]


# --- NetSchafkopf: results, prices, totals ------------------------------------------------------


def _name(player: str, owner: str, you: str = "Du") -> str:
    return you if player == owner else player


def _what(played: Played) -> str:
    """The game as NetSchafkopf names it: Mit der Eichel-Ass, Herz-Solo, Eichel-Wenz Tout."""
    words = played.game.split()
    base = words[0].removesuffix("-tout")
    tout = " Tout" if words[0].endswith("-tout") else ""
    suit = _SUIT_NAME[parse_suit(words[1])] + "-" if len(words) > 1 else ""
    if base == "partner":
        assert played.call is not None
        return f"Mit der {_SUIT_NAME[played.call.suit]}-Ass"
    return (
        suit + {"solo": "Solo", "wenz": "Wenz", "geier": "Geier"}[base.removeprefix("farb")] + tout
    )


def outcome(played: Played, owner: str) -> tuple[str, list[str], dict[str, int]]:
    """The result's sentence, the price's steps, and each player's points."""
    if played.game == "ramsch":
        return _ramsch(played, owner)
    side = played.side
    taken = sum(card_points(c) for (_l, c), w in zip(played.tricks, played.winners) if w in side)
    tricks = sum(1 for w in played.winners if w in side)
    words = played.game.split()
    base = words[0].removesuffix("-tout")
    tout = words[0].endswith("-tout")
    won = tricks == len(played.tricks) if tout else taken >= 61
    declarer = played.declarer
    assert declarer is not None
    you = declarer == owner
    verb = ("gewinnst" if won else "verlierst") if you else ("gewinnt" if won else "verliert")
    article = "das" if base in ("partner", "solo") else "den"
    what = "Rufspiel: " + _what(played) if base == "partner" else _what(played)
    result = f"{_name(declarer, owner)} {verb} {article} {what}"
    if base == "partner":
        partner = next(p for p in side if p != declarer)
        result += f" mit {_name(partner, owner, 'dir')}."
    else:
        result += "."
    if not tout:
        result += f" Die Gegner haben {120 - taken} Augen"
    else:
        result = result[:-1]
    price = _PRICE.get(base, 50)
    kind = "Das Rufspiel" if base == "partner" else "Das Einzelspiel"
    steps = [f"{kind} kostet {price} Punkte."]
    losers_tricks = tricks if not won else len(played.tricks) - tricks
    # schneider: a win with 91 or more, a loss with 30 or fewer (as NetSchafkopf counts it)
    if not tout and (taken >= 91 if won else taken <= 30):
        price += _EXTRA
        steps.append(f"Mit Schneider {price} Punkte.")
        if losers_tricks == 0:
            price += _EXTRA
            steps.append(f"Mit Schwarz {price} Punkte.")
    count, ours = runs(played)
    if count >= _RUNS_FROM[base]:
        price += _EXTRA * count
        steps.append(
            f"{'Mit' if ours else 'Ohne'} {count} Laufende{'n' if ours else ''} {price} Punkte."
        )
    price = _doubled(played, price, steps)
    if tout:
        price *= 2
        steps.append(f"Doppelt für Tout {price} Punkte.")
    sign = 1 if won else -1
    if base == "partner":
        deltas = {p: sign * price if p in side else -sign * price for p in played.players}
    else:
        deltas = {p: 3 * sign * price if p == declarer else -sign * price for p in played.players}
    return result, steps, deltas


def _doubled(played: Played, price: int, steps: list[str]) -> int:
    if played.knocks:
        price *= 2**played.knocks
        steps.append(f"{played.knocks} mal aufgedoppelt {price} Punkte.")
    if played.kontra:
        price *= 2**played.kontra
        steps.append(f"{played.kontra} mal gespritzt {price} Punkte.")
    return price


def _ramsch(played: Played, owner: str) -> tuple[str, list[str], dict[str, int]]:
    points = dict.fromkeys(played.players, 0)
    for (_leader, cards), winner in zip(played.tricks, played.winners):
        points[winner] += card_points(cards)
    most = max(points.values())
    tied = [p for p in played.players if points[p] == most]
    loser = min(tied, key=lambda p: _highest_trump(played, p))  # (a tie: the higher Ober)
    you = loser == owner
    sentence = f"{_name(loser, owner)} {'verlierst' if you else 'verliert'} den Ramsch. "
    sentence += f"{_name(loser, owner)} {'hast' if you else 'hat'} {most} Augen"
    if len(tied) > 1:
        sentence += ". Bei Augengleichheit verliert, wer den höheren Ober hatte"
    maidens = [p for p in played.players if p not in played.winners]
    for maiden in maidens:
        sentence += f". {_name(maiden, owner)} {'bist' if maiden == owner else 'ist'} Jungfrau"
    price = _PRICE["ramsch"]
    steps = [f"Der Ramsch kostet {price} Punkte."]
    price = _doubled(played, price, steps)
    if maidens:
        price *= 2 ** len(maidens)
        steps.append(f"Mit {len(maidens)} mal Jungfrau {price} Punkte.")
    deltas = dict.fromkeys(played.players, price)
    deltas[loser] = -3 * price
    return sentence, steps, deltas


def _highest_trump(played: Played, player: str) -> int:
    """How high the highest trump a player was dealt ranks (0: the Eichel-Ober)."""
    trumps = played.order.trumps
    return min((trumps.index(c) for c in played.hands[player] if c in trumps), default=99)


def wrapped(text: str, width: int = 64) -> list[str]:
    """A paragraph as NetSchafkopf wraps it: each line but the last ends with a space."""
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + len(word) > width:
            lines.append(line)
            line = ""
        line += word + " "
    lines.append(line.rstrip())
    return lines


@dataclass
class ThrownIn:
    """A Schieber thrown in: the first and the last player pay the other two."""

    players: tuple[str, ...]
    dealer: str
    hands: dict[str, list[Card]]
    paid: int = 50


def protocol(owner: str, date: str, games: list[Played | ThrownIn], rules: str = "Standard") -> str:
    """A NetSchafkopf protocol (with CRLF; NetSchafkopf writes it in Latin-1)."""
    players = games[0].players
    day, month, year = date[8:10], date[5:7], date[2:4]
    out = [
        rules,
        f"gespielt von {owner} am {day}.{month}.{year} mit Version 5.05, Update 10.07.07.",
        " ",
    ]
    totals = dict.fromkeys(players, 0)
    for number, game in enumerate(games, 1):
        out.append(f"Geber: {game.dealer}")
        seats = [players[(players.index(game.dealer) + 1 + i) % 4] for i in range(4)]
        if isinstance(game, ThrownIn):
            out.append("Spielart: Schieber")
            for player in seats:
                cards = [code(c) for c in game.hands[player]]
                if player == game.dealer:
                    cards[-2:] = ["DU", "DU"]
                out.append(f"{player:>12} hat: {' '.join(cards)}")
            out.append("Es wurde zusammengeworfen.")
            out += wrapped(
                "Der Erste und der Letzte zahlen an die beiden anderen Spieler "
                f"{game.paid} Punkte, weil sie nicht gespielt haben."
            )
            deltas = {p: -game.paid if p in (seats[0], seats[-1]) else game.paid for p in players}
            price = game.paid
        else:
            for player in seats:
                out.append(f"{player:>12} hat: {' '.join(code(c) for c in game.hands[player])}")
            if game.game == "ramsch":
                out.append("Es wurde Ramsch gespielt.")
            else:
                out.append(f"{game.declarer} spielt {_what(game)}")
            for leader, cards in game.tricks:
                out.append(f"{leader:>12} spielt aus: {' '.join(code(c) for c in cards)}")
            result, steps, deltas = outcome(game, owner)
            out += wrapped(result)
            out += wrapped(" ".join(steps))
            price = min(abs(n) for n in deltas.values())  # (each opponent's; the loser's share)
        for player in players:
            totals[player] += deltas[player]
        out.append("Spiel    Preis" + "".join(f"{p:>13}" for p in players) + "    Stock")
        out.append(
            f"{number:>5}{price:>9}" + "".join(f"{totals[p]:>+13d}" for p in players) + f"{0:>9}"
        )
        out.append(" ")
    return "\r\n".join(out) + "\r\n"


# --- openschafkopf and sauspiel.de --------------------------------------------------------------

_OSK_SUIT = {
    Suit.CLUBS: "Eichel",
    Suit.SPADES: "Gras",
    Suit.HEARTS: "Herz",
    Suit.DIAMONDS: "Schelln",
}


def game_line(played: Played) -> str:
    """A game as openschafkopf writes it: its rules, "von N", and every card in play order."""
    seats = [played.players[(played.players.index(played.dealer) + 1 + i) % 4] for i in range(4)]
    words = played.game.split()
    base = words[0].removesuffix("-tout")
    tout = "-Tout" if words[0].endswith("-tout") else ""
    suit = _OSK_SUIT[parse_suit(words[1])] + "-" if len(words) > 1 else ""
    if base == "partner":
        assert played.call is not None
        rules = f"Rufspiel mit der {_OSK_SUIT[played.call.suit]}-Sau"
    elif base == "ramsch":
        rules = "Ramsch"
    else:
        rules = suit + base.removeprefix("farb").capitalize() + tout
    if played.declarer is not None:
        rules += f" von {seats.index(played.declarer)}"
    cards = " ".join(code(c).lower() for _leader, trick in played.tricks for c in trick)
    return f"{rules}: {cards}"


def _card_span(card: Card) -> str:
    name = code(card).replace("Z", "X")
    return f'<span class="card-image by g2 {name}" title="{name}">{name}</span>'


def sauspiel_page(played: Played, knockers: list[str], kontra: list[str]) -> str:
    """A sauspiel.de game page as a browser saves it, with the sections openschafkopf reads."""
    players = played.players

    def link(player: str) -> str:
        number = players.index(player) + 1
        return (
            f'<a class="profile-link" data-userid="{number}" data-username="{player}" '
            f'href="/profile/{player}">{player}</a>'
        )

    assert played.declarer is not None and played.call is not None
    call = {Suit.CLUBS: "die Alte", Suit.SPADES: "die Blaue", Suit.DIAMONDS: "die Hundsgfickte"}[
        played.call.suit
    ]
    out = [
        "<!DOCTYPE html>",
        '<html lang="de">',
        '<head><meta charset="utf-8"><title>Spiel #4711 - Sauspiel</title></head>',
        "<body>",
        '<div class="game-header">',
        '  <p class="title-supertext">Spiel #4711</p>',
        f"  <h1>Sauspiel auf {call} von {played.declarer}</h1>",
        "</div>",
        '<div class="game-participants">',
        *(
            f'  <div class="game-participant position-{i + 1}">{link(p)}</div>'
            for i, p in enumerate(players)
        ),
        "</div>",
        '<table class="key-figure-table"><tbody>',
        "  <tr><th>Tarif</th><td>P 10 / 50</td></tr>",
        "  <tr><th>Sonderregeln</th><td>"
        '<img class="rules__rule" alt="Geier" title="Geier"></td></tr>',
        f"  <tr><th>Klopfer</th><td>{', '.join(map(link, knockers)) or '-'}</td></tr>",
        f"  <tr><th>Kontra und Retour</th><td>{', '.join(map(link, kontra)) or '-'}</td></tr>",
        "</tbody></table>",
        '<div class="game-protocol">',
    ]
    for player in players:
        out += [
            '  <div class="game-protocol-item">',
            f'    <div class="game-protocol-label"><span>Karten von:</span> {link(player)}</div>',
            '    <div class="card-rows">'
            + "".join(_card_span(c) for c in played.hands[player])
            + "</div>",
            "  </div>",
        ]
    out += [
        '  <div class="game-protocol-item">',
        "    <h4>Spielermittlung</h4>",
        '    <div class="card-rows">',
    ]
    for player in players:
        said = "dad gern." if player == played.declarer else "sagt weiter."
        out.append(f'      <div class="card-row">{player}\n        {said}</div>')
    out += [
        f'      <div class="card-row">{played.declarer} hätt a Sauspiel</div>',
        "    </div>",
        "  </div>",
    ]
    for (leader, cards), winner in zip(played.tricks, played.winners):
        seats = players[players.index(leader) :] + players[: players.index(leader)]
        out += [
            '  <div class="game-protocol-item">',
            f'    <div class="game-protocol-label"><span>Stich von</span> {link(winner)}</div>',
            '    <div class="game-protocol-trick">',
            *(
                f'      <div class="game-protocol-trick-card">{link(p)}{_card_span(c)}</div>'
                for p, c in zip(seats, cards)
            ),
            "    </div>",
            "  </div>",
        ]
    out += ["</div>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


# --- the samples --------------------------------------------------------------------------------

_NIGHT = (
    # the game each deal plays, with (knocks, Kontra)
    "partner", "solo", "partner", "farbwenz", "ramsch", "partner", "geier", "partner",
    "wenz", "partner", "ramsch", "farbgeier", "partner", "solo", "schieber", "partner",
    "wenz-tout", "partner", "farbwenz", "partner", "ramsch", "solo", "partner", "geier",
)  # fmt: skip
_DOUBLED = {2: (1, 0), 5: (1, 0), 6: (0, 1), 9: (0, 1), 13: (2, 0), 18: (1, 1), 22: (0, 1)}


def night(rng: random.Random, games: tuple[str, ...] = _NIGHT) -> list[Played | ThrownIn]:
    """A night of games at the sample table, the deal moving to the left."""
    out: list[Played | ThrownIn] = []
    for number, game in enumerate(games):
        dealer = PLAYERS[(number + 3) % 4]
        if game == "schieber":
            dealt = play(rng, PLAYERS, dealer, "partner")
            out.append(ThrownIn(PLAYERS, dealer, dealt.hands))
            continue
        played = play(rng, PLAYERS, dealer, game)
        played.knocks, played.kontra = _DOUBLED.get(number, (0, 0))
        out.append(played)
    return out


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.mkdir(parents=True, exist_ok=True)
    text = protocol("Vroni", "2025-03-14", night(random.Random(2025)))
    (out / "netschafkopf-abend.txt").write_bytes(text.encode("latin-1"))
    rng = random.Random(7)
    lines = [
        game_line(play(rng, PLAYERS, PLAYERS[-1], game))
        for game in ("partner", "solo", "wenz", "farbgeier", "partner", "ramsch", "geier-tout")
    ]
    (out / "openschafkopf-games.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    played = play(random.Random(3), PLAYERS, PLAYERS[-1], "partner")
    defender = next(p for p in PLAYERS if p not in played.side)
    page = sauspiel_page(played, [PLAYERS[1]], [defender])
    (out / "sauspiel-spiel.html").write_text(page, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
