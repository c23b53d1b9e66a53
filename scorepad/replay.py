"""Replaying a whole hand from its cards: the deal, the bury, the call and every trick.

A hand file is plain text, one `key: value` per line (`#` starts a comment):

    rules: standard                  # a preset or a rules file (default: standard)
    players: Ann, Bob, Cy, Dee, Ed   # seat order; the first trick is led from the dealer's left
    dealer: Ed
    Ann: QC QS JD AH KH 7C           # each player's dealt cards ("hand NAME: ..." also works)
    ...
    blind: 10D 9S
    picker: Ann
    bury: 7C 9S
    call: AC                         # AC, AS or AH; "AS unknown 7C"; "10H"; "alone"; "JD"
    game: solo H                     # Schafkopf: partner (the default), solo SUIT, wenz, geier,
                                     #   or a tout (solo-tout SUIT, wenz-tout, geier-tout)
    crack: Dee                       # optional: a crack (Stoss), and "recrack: yes"
    trick: QC 7D KD 9D 8D            # the cards in the order played, the leader's first

`parse_hand_file` reads it (errors carry the line), `replay` checks the deal and every play and
works the hand out. Pure: the command line reads the file and prints.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from .cards import (DECK, SHORT_DECK, Card, Game, Rank, Suit, card_points, parse_suit,
                    suit_word)
from .errors import CardError, ScorepadError
from .rules import Rules
from .scoring import PickerHand, Score, find_player, score

KEYS = ("rules", "players", "dealer", "blind", "picker", "bury", "call", "game", "crack",
        "recrack", "trick", "hand")
FAIL_SUITS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS)


class HandFileError(ScorepadError):
    """A hand file that cannot be read; carries the line."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line, self.message = line, message


@dataclass
class HandFile:
    """What a hand file says, as written (names and cards checked, nothing else yet)."""

    rules: str | None = None
    players: list[str] = field(default_factory=list)
    dealer: str | None = None
    hands: dict[str, list[Card]] = field(default_factory=dict)
    blind: list[Card] = field(default_factory=list)
    picker: str | None = None
    bury: list[Card] = field(default_factory=list)
    call: str = ""
    game: str = ""
    crack: str | None = None
    recrack: bool = False
    tricks: list[tuple[int, list[Card]]] = field(default_factory=list)  # (line, cards)
    lines: dict[str, int] = field(default_factory=dict)  # where each key was given


def _cards(text: str, line: int) -> list[Card]:
    try:
        return [Card.parse(word) for word in re.split(r"[,\s]+", text.strip()) if word]
    except CardError as exc:
        raise HandFileError(line, str(exc)) from None


def parse_hand_file(text: str) -> HandFile:
    """Read a hand file's text; every problem names its line."""
    hand = HandFile()
    pending: list[tuple[int, str, str]] = []  # card lines keyed by a name, read after players
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not sep:
            raise HandFileError(number, f"write 'key: value', e.g. 'trick: QC 7D KD 9D 8D' "
                                        f"(not {line!r})")
        lowered = key.lower()
        if lowered == "trick":
            hand.tricks.append((number, _cards(value, number)))
            continue
        if lowered.startswith("hand "):
            pending.append((number, key[5:].strip(), value))
            continue
        if lowered not in KEYS:
            pending.append((number, key, value))
            continue
        if lowered in hand.lines:
            raise HandFileError(number, f"{lowered} is given twice (first on line "
                                        f"{hand.lines[lowered]})")
        hand.lines[lowered] = number
        if lowered == "players":
            hand.players = [n.strip() for n in next(csv.reader([value], skipinitialspace=True))
                            if n.strip()]
            if len(set(p.casefold() for p in hand.players)) != len(hand.players):
                raise HandFileError(number, "players: a name is listed twice")
        elif lowered in ("blind", "bury"):
            setattr(hand, lowered, _cards(value, number))
        elif lowered == "recrack":
            if value.lower() not in ("yes", "no", "true", "false", ""):
                raise HandFileError(number, "recrack: write yes or no")
            hand.recrack = value.lower() in ("yes", "true")
        else:
            setattr(hand, lowered, value)
    if not hand.players:
        raise HandFileError(1, "no 'players:' line: list the players in seat order")
    for number, name, value in pending:
        try:
            player = find_player(name, hand.players, "")
        except ScorepadError:
            raise HandFileError(number, f"{name!r} is neither a key ({', '.join(KEYS[:-1])}) "
                                        f"nor a player") from None
        if player in hand.hands:
            raise HandFileError(number, f"{player}'s cards are given twice")
        hand.hands[player] = _cards(value, number)
        hand.lines[f"hand {player}"] = number
    for key in ("dealer", "picker", "crack"):
        value = getattr(hand, key)
        if value:
            try:
                setattr(hand, key, find_player(value, hand.players, f"{key}:"))
            except ScorepadError as exc:
                raise HandFileError(hand.lines[key], str(exc).strip()) from None
    return hand


# --- replaying ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trick:
    """One trick as played: who led, the cards in order, who won it and what it held."""

    number: int
    leader: str
    plays: tuple[tuple[str, Card], ...]
    winner: str
    card: Card
    why: str
    points: int


@dataclass(frozen=True)
class Problem:
    """Something played against the rules (a renege, a called-ace rule), with its trick."""

    trick: int | None
    player: str | None
    message: str

    def __str__(self) -> str:
        where = f"trick {self.trick}: " if self.trick else ""
        return f"{where}{self.message}"


@dataclass(frozen=True)
class Replay:
    """A whole hand worked out from its cards."""

    rules: Rules
    players: tuple[str, ...]
    dealer: str
    picker: str
    partners: tuple[str, ...]
    game: Game
    call_text: str
    bury: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    problems: tuple[Problem, ...]
    points: int  # the picker's side, bury included
    side_tricks: int
    runs: int | None
    crack: str | None
    recrack: bool
    score: Score | None

    @property
    def ok(self) -> bool:
        return not self.problems

    def hand(self) -> PickerHand:
        """The hand as `scorepad hand` would record it."""
        return _picker_hand(self)


def _deck_for(rules: Rules, players: int) -> tuple[Card, ...]:
    deal = rules.deal_for(players)
    size = players * deal.cards + deal.blind
    return DECK if size == len(DECK) else SHORT_DECK


def _check_deal(hand: HandFile, rules: Rules) -> None:
    """The deal itself: the right cards, the right number each, the bury from the picker."""
    players = hand.players
    deal = rules.deal_for(len(players))
    if deal is None:
        counts = ", ".join(str(n) for n in sorted(rules.deals))
        raise HandFileError(hand.lines.get("players", 1),
                            f"{len(players)} players: {rules.name} rules deal for {counts}")
    for player in players:
        if player not in hand.hands:
            raise HandFileError(hand.lines.get("players", 1), f"no cards for {player}: add a "
                                                              f"line '{player}: ...'")
        if len(hand.hands[player]) != deal.cards:
            raise HandFileError(hand.lines[f"hand {player}"],
                                f"{player} has {len(hand.hands[player])} cards; a "
                                f"{len(players)}-handed deal gives {deal.cards} each")
    if len(hand.blind) != deal.blind:
        raise HandFileError(hand.lines.get("blind", hand.lines.get("players", 1)),
                            f"the blind has {len(hand.blind)} cards; this deal has "
                            f"{deal.blind}")
    dealt = [c for p in players for c in hand.hands[p]] + hand.blind
    deck = _deck_for(rules, len(players))
    seen: dict[Card, str] = {}
    for player in [*players, "the blind"]:
        cards = hand.blind if player == "the blind" else hand.hands[player]
        for card in cards:
            if card in seen:
                line = hand.lines.get("blind") if player == "the blind" else \
                    hand.lines[f"hand {player}"]
                raise HandFileError(line, f"{card} is dealt twice ({seen[card]} and {player})")
            if card not in deck:
                raise HandFileError(hand.lines.get(f"hand {player}", 1),
                                    f"{card} is not in the {len(deck)}-card pack")
            seen[card] = player
    missing = [str(c) for c in deck if c not in seen]
    if missing or len(dealt) != len(deck):
        raise HandFileError(hand.lines.get("players", 1),
                            f"the deal misses {', '.join(missing)}")
    if hand.dealer is None:
        raise HandFileError(1, "no 'dealer:' line")
    if hand.picker is None:
        raise HandFileError(1, "no 'picker:' line (replay checks hands that someone picked)")


def _call(hand: HandFile, rules: Rules, holding: Mapping[str, list[Card]],
          problems: list[Problem]) -> tuple[tuple[str, ...], Card | None, Card | None, str]:
    """The partners, the called card, the unknown card and the call in words."""
    picker, players = hand.picker, hand.players
    deal = rules.deal_for(len(players))
    line = hand.lines.get("call", 1)
    words = hand.call.replace(",", " ").split()
    if rules.is_schafkopf:
        game = (hand.game or "partner").split()[0].lower()
        if game != "partner":
            if words:
                raise HandFileError(line, f"a {game} has no call: it is one against three")
            return (), None, None, f"plays a {hand.game}"
    if not words or words[0].lower() == "alone":
        if deal.partners and not words:
            raise HandFileError(line, "no 'call:' line: give the called card, or 'alone'")
        return (), None, None, "goes alone"
    try:
        called = Card.parse(words[0])
    except CardError as exc:
        raise HandFileError(line, f"call: {exc}") from None
    if deal.partners == 0:
        raise HandFileError(line, f"a {len(players)}-handed picker plays alone: write "
                                  f"'call: alone'")
    holder = next(p for p in players if called in hand.hands[p] or
                  (p == picker and called in hand.blind))
    if called.rank == Rank.JACK:  # the jack of diamonds (or a jack called up) names the partner
        partners = () if holder == picker else (holder,)
        if deal.partners == 2:  # Pagat's six-handed game: the picker's right is a partner too
            right = players[(players.index(picker) - 1) % len(players)]
            partners = tuple(dict.fromkeys((*partners, right)))
        said = f"the {called} names the partner"
        return tuple(p for p in partners if p != picker), None, None, said
    unknown = None
    if len(words) == 3 and words[1].lower() == "unknown":
        try:
            unknown = Card.parse(words[2])
        except CardError as exc:
            raise HandFileError(line, f"call: {exc}") from None
    elif len(words) != 1:
        raise HandFileError(line, "call: write a card (AC), 'AS unknown 7C', or 'alone'")
    game = Game.schafkopf("partner") if rules.is_schafkopf else Game.sheepshead()
    if game.is_trump(called) or called.suit not in (
            tuple(s for s in Suit if s != Suit.HEARTS) if rules.is_schafkopf else FAIL_SUITS):
        problems.append(Problem(None, picker, f"{called} cannot be called: call the ace of a "
                                              f"suit that is not trump"))
    own = holding[picker]
    if called in own:
        problems.append(Problem(None, picker, f"{picker} called {called}, which {picker} holds"))
    if called.rank == Rank.TEN:
        aces = [Card(Rank.ACE, s) for s in FAIL_SUITS]
        if not all(a in own for a in aces):
            problems.append(Problem(None, picker, f"{picker} may call a 10 only holding all "
                                                  f"three fail aces"))
    elif called.rank != Rank.ACE:
        problems.append(Problem(None, picker, f"{called} cannot be called: call an ace (a 10 "
                                              f"only when holding all three fail aces)"))
    if unknown is not None:
        if unknown not in own:
            problems.append(Problem(None, picker, f"the unknown card {unknown} is not in "
                                                  f"{picker}'s hand after the bury"))
    elif not any(game.suit_of(c) == called.suit for c in own):
        problems.append(Problem(None, picker, f"{picker} called {called} without keeping a "
                                              f"{suit_word(called.suit)} (after the bury)"))
    said = f"calls {called}" + (f" (unknown card {unknown})" if unknown else "")
    return ((holder,) if holder != picker else ()), called, unknown, said


def _game(hand: HandFile, rules: Rules) -> Game:
    if not rules.is_schafkopf:
        if hand.game:
            raise HandFileError(hand.lines["game"], "game: only Schafkopf hands declare a game")
        return Game.sheepshead()
    words = (hand.game or "partner").split()
    name = words[0].lower()
    try:
        return Game.schafkopf(name, parse_suit(words[1]) if len(words) > 1 else None)
    except CardError as exc:
        raise HandFileError(hand.lines.get("game", 1), f"game: {exc}") from None


def replay(hand: HandFile, rules: Rules) -> Replay:
    """Check the deal and every play, and work the hand out; problems are collected, not
    raised (a deal that cannot be replayed at all raises HandFileError)."""
    _check_deal(hand, rules)
    players, picker = hand.players, hand.picker
    game = _game(hand, rules)
    problems: list[Problem] = []
    holding = {p: list(hand.hands[p]) for p in players}
    # the bury
    if len(hand.bury) != len(hand.blind):
        raise HandFileError(hand.lines.get("bury", hand.lines.get("picker", 1)),
                            f"the bury has {len(hand.bury)} cards; the picker buries as many as "
                            f"the blind holds ({len(hand.blind)})")
    holding[picker] += hand.blind
    for card in hand.bury:
        if card not in holding[picker]:
            raise HandFileError(hand.lines.get("bury", 1),
                                f"{picker} buried {card}, which was not in {picker}'s hand or "
                                f"the blind")
        holding[picker].remove(card)
    partners, called, unknown, said = _call(hand, rules, holding, problems)
    called_suit = called.suit if called is not None and called.rank != Rank.JACK else None
    # the play
    start = players.index(hand.dealer) + 1
    leader = players[start % len(players)]
    tricks: list[Trick] = []
    suit_led_yet = False
    deal = rules.deal_for(len(players))
    if len(hand.tricks) != deal.cards:
        line = hand.tricks[-1][0] if hand.tricks else 1
        raise HandFileError(line, f"{len(hand.tricks)} tricks; a {len(players)}-handed hand has "
                                  f"{deal.cards}")
    for number, (line, cards) in enumerate(hand.tricks, 1):
        if len(cards) != len(players):
            raise HandFileError(line, f"trick {number} has {len(cards)} cards; every player plays "
                                      f"one ({len(players)})")
        order = players[players.index(leader):] + players[:players.index(leader)]
        plays = list(zip(order, cards))
        for player, card in plays:
            if card not in holding[player]:
                owner = next((p for p in players if card in holding[p]), None)
                where = f" ({owner} holds it)" if owner else " (it was played or buried before)"
                raise HandFileError(line, f"trick {number}: {player} plays {card}, which "
                                          f"{player} does not hold{where}; the cards go in the "
                                          f"order played, the leader's first")
        first_of_called = (called_suit is not None and not suit_led_yet
                           and game.suit_of(cards[0]) == called_suit)
        led = game.suit_of(cards[0])
        for index, (player, card) in enumerate(plays):
            hand_now = holding[player]
            if index > 0:
                following = [c for c in hand_now if game.suit_of(c) == led]
                is_unknown = (player == picker and card == unknown and first_of_called)
                if following and game.suit_of(card) != led and not is_unknown:
                    problems.append(Problem(number, player, (
                        f"{player} reneged: played {card} on a {suit_word(led)} lead while "
                        f"holding {', '.join(map(str, following))}")))
            problems += _called_rules(number, player, card, index, plays, hand_now, game,
                                      called, unknown, picker, first_of_called, suit_led_yet,
                                      len(hand.tricks), rules)
            hand_now.remove(card)
        if first_of_called:
            suit_led_yet = True
        contenders = list(range(len(cards)))
        if first_of_called and unknown in cards:  # it follows the called suit but cannot win
            contenders.remove(cards.index(unknown))
        win = contenders[game.winner([cards[i] for i in contenders])]
        winner = order[win]
        tricks.append(Trick(number, leader, tuple(plays), winner, cards[win],
                            game.why(cards), card_points(cards)))
        leader = winner
    side = {picker, *partners}
    bury_points = card_points(hand.bury)
    points = bury_points + sum(t.points for t in tricks if t.winner in side)
    side_tricks = sum(1 for t in tricks if t.winner in side)
    runs = _runs(hand, game, side) if rules.is_schafkopf else None
    outcome = Replay(rules, tuple(players), hand.dealer, picker, tuple(partners), game, said,
                     tuple(hand.bury), tuple(tricks), tuple(problems), points, side_tricks,
                     runs, hand.crack, hand.recrack, None)
    try:
        result = score(rules, outcome.hand())
    except ScorepadError as exc:
        problems.append(Problem(None, None, f"the hand cannot be scored: {exc}"))
        result = None
    return replace(outcome, problems=tuple(problems), score=result)


def _called_rules(number, player, card, index, plays, hand_now, game, called, unknown, picker,
                  first_of_called, suit_led_yet, total_tricks, rules) -> list[Problem]:
    """The called-ace rules for one play: the partner keeps the called card until its suit is
    first led and plays it then; the picker keeps a card of the called suit until then."""
    if called is None or called.rank == Rank.JACK:
        return []
    problems = []
    suit = called.suit
    last_trick = number == total_tricks
    holder_has_called = called in hand_now
    if holder_has_called and player != picker:
        if first_of_called and card != called:
            run_away = (index == 0 and rules.is_schafkopf
                        and sum(1 for c in hand_now if game.suit_of(c) == suit) >= 4)
            if not run_away:
                problems.append(Problem(number, player, (
                    f"{player} held the called {called} and played {card}: the called card "
                    f"must be played when its suit is first led")))
        elif not first_of_called and not suit_led_yet and card == called and not last_trick:
            problems.append(Problem(number, player, (
                f"{player} played the called {called} before its suit was led")))
    if player == picker and not suit_led_yet and not first_of_called and not last_trick:
        keeps = [c for c in hand_now if game.suit_of(c) == suit and c != card]
        if unknown is not None:
            if card == unknown:
                problems.append(Problem(number, player, (
                    f"{player} played the unknown card {unknown} before "
                    f"{suit_word(suit)}s were led")))
        elif game.suit_of(card) == suit and not keeps:
            problems.append(Problem(number, player, (
                f"{player} played {card}, the last {suit_word(suit)}, before the called suit "
                f"was led: the picker must keep one")))
    if (player == picker and first_of_called and called.rank == Rank.TEN
            and Card(Rank.ACE, suit) in hand_now and card != Card(Rank.ACE, suit)):
        problems.append(Problem(number, player, (
            f"{player} called the {called} and must play the ace of {suit_word(suit)}s when "
            f"{suit_word(suit)}s are first led, not {card}")))
    if player == picker and first_of_called and unknown is not None and card != unknown:
        problems.append(Problem(number, player, (
            f"{player} must play the unknown card {unknown} when {suit_word(suit)}s are first "
            f"led, not {card}")))
    return problems


def _runs(hand: HandFile, game: Game, side: set[str]) -> int:
    """Schafkopf runs: the top trumps held by one side without a break, from the top."""
    owner = {c: p for p, cards in hand.hands.items() for c in cards}
    top = ["side" if owner.get(c) in side else "others" for c in game.trumps]
    count = 0
    for holder in top:
        if holder != top[0]:
            break
        count += 1
    return count


def _picker_hand(outcome: Replay) -> PickerHand:
    rules = outcome.rules
    game = outcome.game.name if rules.is_schafkopf else None
    alone = not outcome.partners and not rules.is_schafkopf
    return PickerHand(outcome.players, outcome.picker, outcome.points, outcome.dealer,
                      outcome.partners, alone, outcome.side_tricks, outcome.crack,
                      outcome.recrack, game=game, runs=outcome.runs)
