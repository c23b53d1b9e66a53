"""Deal and play a random hand by the rules, written as a hand file (for tests, samples and the
benchmarks): every card is played legally, so `replay` must find nothing wrong with it."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import DECK, SHORT_DECK, Card, Game, Rank, Suit
from .games import BY_NAME as GAME_BY_NAME
from .games import TrumpSuit
from .replay import FAIL_SUITS
from .rules import Rules


def random_hand(
    rng: random.Random,
    rules: Rules,
    players: Sequence[str],
    dealer: str | None = None,
    game: str | None = None,
) -> str:
    """The text of a hand file for one legally played random hand."""
    players = list(players)
    dealer = dealer or players[-1]
    deal = rules.deal(len(players))
    deck = list(DECK if len(players) * deal.cards + deal.blind == len(DECK) else SHORT_DECK)
    rng.shuffle(deck)
    hands = {p: deck[i * deal.cards : (i + 1) * deal.cards] for i, p in enumerate(players)}
    blind = deck[len(players) * deal.cards :]
    picker = rng.choice(players)
    lines = [
        f"# a random hand, played by the rules ({rules.name})",
        f"rules: {rules.name}",
        f"players: {', '.join(players)}",
        f"dealer: {dealer}",
    ]
    lines += [f"{p}: {' '.join(map(str, hands[p]))}" for p in players]
    if deal.blind:
        lines.append(f"blind: {' '.join(map(str, blind))}")
    if game != "ramsch":
        lines.append(f"picker: {picker}")
    holding = {p: list(hands[p]) for p in players}
    holding[picker] += blind
    called = None
    if rules.is_schafkopf:
        game = game or rng.choice(["partner", "partner", "solo", "wenz", "geier"])
        suited = GAME_BY_NAME[game].suit == TrumpSuit.NAMED
        trump = rng.choice(list(Suit)) if suited else None
        order = Game.schafkopf(game, trump)
        if game == "partner":
            called = _callable(holding[picker], order, [s for s in Suit if s != Suit.HEARTS], rng)
            if called is None:  # nothing to call: the declarer plays a wenz instead
                game, order = "wenz", Game.schafkopf("wenz")
        lines.append(f"game: {game}" + (f" {trump.value}" if trump else ""))
        if called:
            lines.append(f"call: {called}")
        elif game == "hochzeit":
            lines.append(f"call: {rng.choice([p for p in players if p != picker])}")
    else:
        order = Game.sheepshead()
        if deal.partners and deal.call == "jack-of-diamonds":
            lines.append("call: JD")
        elif deal.partners:
            called = _callable(holding[picker], order, list(FAIL_SUITS), rng)
            lines.append(f"call: {called}" if called else "call: alone")
        else:
            lines.append("call: alone")
    if deal.blind:
        keep = _keep(holding[picker], called, order)
        buryable = [c for c in holding[picker] if c != keep]
        bury = rng.sample(buryable, deal.blind)
        for card in bury:
            holding[picker].remove(card)
        lines.append(f"bury: {' '.join(map(str, bury))}")
    leader = players[(players.index(dealer) + 1) % len(players)]
    led_yet = False
    for number in range(1, deal.cards + 1):
        seat = players.index(leader)
        trick_order = players[seat:] + players[:seat]
        cards: list[Card] = []
        first_of_called = False
        for player in trick_order:
            choices = _legal(
                holding[player],
                cards,
                order,
                called,
                player == picker,
                led_yet,
                number == deal.cards,
            )
            card = rng.choice(choices)
            if (
                not cards
                and called is not None
                and not led_yet
                and order.suit_of(card) == called.suit
            ):
                first_of_called = True
            holding[player].remove(card)
            cards.append(card)
        if first_of_called:
            led_yet = True
        lines.append(f"trick: {' '.join(map(str, cards))}")
        leader = trick_order[order.winner(cards)]
    return "\n".join(lines) + "\n"


def _callable(cards: list[Card], order: Game, suits: list[Suit], rng: random.Random) -> Card | None:
    """An ace the picker may call: not held, of a suit the picker holds a plain card of."""
    options = [
        Card(Rank.ACE, s)
        for s in suits
        if Card(Rank.ACE, s) not in cards and any(order.suit_of(c) == s for c in cards)
    ]
    return rng.choice(options) if options else None


def _keep(cards: list[Card], called: Card | None, order: Game) -> Card | None:
    """The card of the called suit the picker must not bury (the first one held)."""
    if called is None or called.rank != Rank.ACE:
        return None
    return next((c for c in cards if order.suit_of(c) == called.suit), None)


def _legal(
    cards: list[Card],
    trick: list[Card],
    order: Game,
    called: Card | None,
    is_picker: bool,
    led_yet: bool,
    last: bool,
) -> list[Card]:
    """The cards a player may play now."""
    choices = list(cards)
    if trick:
        led = order.suit_of(trick[0])
        following = [c for c in cards if order.suit_of(c) == led]
        if following:
            choices = following
        first_of_called = called is not None and not led_yet and led == called.suit
    else:
        first_of_called = False
    if called is None or last:
        return choices
    if called in cards:  # the partner
        if first_of_called:
            return [called]  # the called card goes on the first lead of its suit
        if not trick:
            if not led_yet:  # the called suit is led with the called card or not at all
                choices = [c for c in choices if order.suit_of(c) != called.suit or c == called]
            return choices
        return [c for c in choices if c != called] or choices  # keep it until then
    if is_picker and not led_yet and not first_of_called:
        suit_cards = [c for c in cards if order.suit_of(c) == called.suit]
        if len(suit_cards) == 1 and trick:  # keep the last one until the suit is led
            keep = [c for c in choices if c != suit_cards[0]]
            choices = keep or choices
    return choices
