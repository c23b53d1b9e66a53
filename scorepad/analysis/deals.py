"""Random deals of each kind of game, as hand files would give them (for the tests and the
bench): the cards shuffled, a picker, a bury, a call that the rules allow, and optionally
the tricks played at random by the rules."""

from __future__ import annotations

import random

from ..cards import DECK, SHORT_DECK, Card, Game, parse_suit
from ..replay import HandFile
from ..rules import Rules, load_rules
from .position import Position, position_for, ramsch_view

__all__ = [
    "KINDS",
    "played_at_random",
    "random_hand",
    "random_line",
    "random_position",
    "random_ramsch",
]

KINDS = {
    # name: (rules, players, game, call: "ace" a callable ace, "unknown" an ace with the
    # unknown card, "jd", "alone" or none)
    "sauspiel": ("schafkopf", 4, "partner", "ace"),
    "solo": ("schafkopf", 4, "solo H", ""),
    "wenz": ("schafkopf", 4, "wenz", ""),
    "geier": ("schafkopf", 4, "geier", ""),
    "farbwenz": ("schafkopf", 4, "farbwenz C", ""),
    "bettel": ("schafkopf", 4, "bettel", ""),
    "tout": ("schafkopf", 4, "solo-tout S", ""),
    "sheepshead-5": ("standard", 5, "", "ace"),
    "sheepshead-5-jd": ("standard", 5, "", "jd"),
    "sheepshead-5-unknown": ("standard", 5, "", "unknown"),
    "sheepshead-3": ("standard", 3, "", "alone"),
}
"""The kinds of game the tests and the bench deal."""

_RULES: dict[str, Rules] = {}


def random_hand(rng: random.Random, kind: str) -> HandFile:
    """A random deal of `kind` (KINDS) up to the first card."""
    spec, count, game, calling = KINDS[kind]
    rules = _RULES.get(spec) or _RULES.setdefault(spec, load_rules(spec))
    deal = rules.deal(count)
    deck = list(DECK if count * deal.cards + deal.blind == len(DECK) else SHORT_DECK)
    rng.shuffle(deck)
    players = [f"P{i + 1}" for i in range(count)]
    hand = HandFile(rules=spec, players=players, dealer=players[-1], game=game)
    for i, player in enumerate(players):
        hand.hands[player] = deck[i * deal.cards : (i + 1) * deal.cards]
    hand.blind = deck[count * deal.cards :]
    picker = rng.choice(players)
    hand.picker = picker
    held = hand.hands[picker] + hand.blind
    plain = [c for c in held if not _trumps(rules, game).is_trump(c)]
    rest = [c for c in held if c not in plain]
    bury = (sorted(plain, key=lambda c: -c.points) + rest)[: len(hand.blind)]
    hand.bury = bury
    own = [c for c in held if c not in bury]
    hand.call = _call_for(rules, calling, own, rng)
    if calling == "ace" and not hand.call:  # no ace to call: a solo instead
        hand.game = "solo H"
    return hand


def _trumps(rules: Rules, game: str) -> Game:
    if not rules.is_schafkopf:
        return Game.sheepshead()
    name, *suit = (game or "partner").split()
    return Game.schafkopf(name, parse_suit(suit[0]) if suit else None)


def _call_for(rules: Rules, calling: str, own: list[Card], rng: random.Random) -> str:
    if calling == "alone":
        return "alone"
    if calling == "jd":
        return "JD"
    game = _trumps(rules, "partner")
    if calling == "unknown":  # the ace of a suit the picker has no card of; any card aside
        lacking = [
            s for s in "CSH" if not any(c.suit.value == s and not game.is_trump(c) for c in own)
        ]
        return f"A{rng.choice(lacking)} unknown {rng.choice(own)}" if lacking else "alone"
    if calling != "ace":
        return ""
    options = [
        s
        for s in ("CSD" if rules.is_schafkopf else "CSH")
        if all(str(c) != f"A{s}" for c in own)
        and any(c.suit.value == s and not game.is_trump(c) for c in own)
    ]
    return f"A{rng.choice(options)}" if options else "alone" if not rules.is_schafkopf else ""


def random_line(rng: random.Random, position: Position, cards: int) -> None:
    """Play `cards` cards at random by the rules."""
    for _ in range(cards):
        position.play(rng.choice(position.legal()))


def random_position(rng: random.Random, kind: str, tricks_left: int, extra: int) -> Position:
    """A random endgame: a deal of `kind` played at random down to `tricks_left` tricks and
    `extra` cards of the next trick."""
    hand = random_hand(rng, kind)
    rules = _RULES[KINDS[kind][0]]
    position = position_for(hand, rules)
    per_trick = len(position.players)
    random_line(rng, position, (position.tricks_left - tricks_left) * per_trick + extra)
    return position


def played_at_random(rng: random.Random, kind: str) -> HandFile:
    """A random deal of `kind` with every trick played at random by the rules (replay finds
    nothing wrong with it)."""
    hand = random_hand(rng, kind)
    position = position_for(hand, _RULES[KINDS[kind][0]])
    size = len(position.players)
    played = []
    while position.tricks_left:
        number = rng.choice(position.legal())
        played.append(position.cards[number])
        position.play(number)
    hand.tricks = [(0, played[i : i + size]) for i in range(0, len(played), size)]
    return hand


def random_ramsch(rng: random.Random, played: bool = False) -> HandFile:
    """A random Ramsch deal (Bavarian rules, four players), its tricks played at random by the
    rules with `played`."""
    rules = _RULES.get("bavarian") or _RULES.setdefault("bavarian", load_rules("bavarian"))
    deck = list(DECK)
    rng.shuffle(deck)
    players = ["P1", "P2", "P3", "P4"]
    hand = HandFile(rules="bavarian", players=players, dealer="P4", game="ramsch")
    for i, player in enumerate(players):
        hand.hands[player] = deck[i * 8 : (i + 1) * 8]
    if played:
        position = ramsch_view(hand, rules, players[0])
        cards = []
        while position.tricks_left:
            number = rng.choice(position.legal())
            cards.append(position.cards[number])
            position.play(number)
        hand.tricks = [(0, cards[i : i + 4]) for i in range(0, len(cards), 4)]
    return hand
