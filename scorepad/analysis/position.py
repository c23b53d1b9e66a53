"""A hand as the search sees it: every card open, who holds what, the trick so far.

The rules of play are replay's own (`scorepad.replay.tricks`): a card may be played when replay's
checks (following suit or trump, the called ace's rules) find nothing wrong with it, and a
trick is won as replay works it out (`trick_winner`). Each answer is kept (a player's cards,
the suit led and where the called suit stands decide it), so the checks run once a case.

The search plays millions of cards, so a position is plain numbers: the cards are numbered,
a player's cards are a bit mask of those numbers, and what does not change in play (each
card's suit, rank, points and holder) is worked out once, in tables indexed by the number.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, Game
from ..names import TOTAL_POINTS
from ..replay import HandFile
from ..replay.tricks import (
    Call,
    Play,
    before_the_first_card,
    play_problems,
    trick_winner,
)
from ..rules import Rules

__all__ = ["Position", "position_for", "ramsch_view"]

KEPT = 100_000
"""The most answers each of a position's stores keeps (cards allowed, trick winners)."""


@dataclass
class Position:
    """A deal in play with every hand open. Cards are numbered (`cards[i]`); a player's cards
    are a bit mask of those numbers. Mutable: `play` and `undo` move it along a line of play."""

    rules: Rules
    game: Game
    call: Call
    players: tuple[str, ...]
    picker: str
    side: tuple[bool, ...]  # by seat: on the declaring side (the maximizing side of the search)
    cards: tuple[Card, ...]
    hands: list[int]
    leader: int
    trick: list[int]
    called_led: bool
    points: int  # the counted seats' card points so far (Sheepshead: the bury included)
    side_tricks: int
    other_tricks: int
    tricks_left: int
    bettel: bool = False  # the declaring side wins by taking no trick
    tout: bool = False  # the declaring side wins only by taking every trick
    other_points: int = 0
    bury: int = 0  # the card points the side has without a trick (Sheepshead's bury)
    # by seat: whose tricks count as `points` and `side_tricks` (empty: `side`'s). A Ramsch
    # seen from player X's seat: X is the side, the other three are counted (`ramsch_view`)
    counted: tuple[bool, ...] = ()

    def __post_init__(self) -> None:
        if not self.counted:
            self.counted = self.side
        cards, game = self.cards, self.game
        count = len(cards)
        self.seats = len(self.players)
        self.card_points = tuple(c.points for c in cards)
        self.owner = tuple(
            next(seat for seat, held in enumerate(self.hands) if held >> i & 1)
            for i in range(count)
        )
        self.left = 0  # every card still in a hand
        for held in self.hands:
            self.left |= held
        # a suit (trumps are one) as a small number: the suits in a fixed order
        suits = [game.suit_of(c) for c in cards]
        trumps = [game.is_trump(c) for c in cards]
        classes = sorted({(trumps[i], str(suits[i])) for i in range(count)})
        self.suit = tuple(classes.index((trumps[i], str(suits[i]))) for i in range(count))
        self.rank = tuple(game.power(c) for c in cards)
        self.trump = tuple(trumps)
        called = self.call.suit
        self.called_suit = next(
            (self.suit[i] for i in range(count) if not trumps[i] and suits[i] == called), -1
        )
        self.special = tuple(
            c == self.call.card or c == self.call.unknown or self.suit[i] == self.called_suit
            for i, c in enumerate(cards)
        )
        # The cards by suit, highest first, each a character: its suit, points, whether it is
        # the called or the unknown card, and its holder. Two positions alike in those (but
        # for which cards of a suit are gone) play alike (`shape`).
        self.by_rank = tuple(sorted(range(count), key=lambda i: (self.suit[i], -self.rank[i])))
        self.chars = tuple(
            chr(
                self.suit[i] << 12
                | self.card_points[i] << 5
                | self.owner[i] << 2
                | (1 if c == self.call.card else 2 if c == self.call.unknown else 0)
            )
            for i, c in enumerate(cards)
        )
        # between[a][b]: the cards of a's suit ranking strictly between a and b
        self.between = [
            [
                sum(
                    1 << k
                    for k in range(count)
                    if self.suit[k] == self.suit[a]
                    and min(self.rank[a], self.rank[b])
                    < self.rank[k]
                    < max(self.rank[a], self.rank[b])
                )
                if self.suit[a] == self.suit[b]
                else -1
                for b in range(count)
            ]
            for a in range(count)
        ]
        self.worth = {  # the cards worth each number of points
            p: sum(1 << i for i in range(count) if self.card_points[i] == p)
            for p in set(self.card_points)
        }
        # the trumps, highest first, and the unknown card's number (-1: none)
        self.high_trumps = tuple(
            sorted((i for i in range(count) if trumps[i]), key=lambda i: -self.rank[i])
        )
        self.unknown = next((i for i, c in enumerate(cards) if c == self.call.unknown), -1)
        self.suit_mask = [
            sum(1 << i for i in range(count) if self.suit[i] == k) for k in range(len(classes))
        ]
        # The seats whose cards replay's called-card rules can bar (the picker, the called
        # card's holder, while it is held); the others follow suit and nothing else.
        self._bound = (
            set()
            if self.call.card is None
            else {self.players.index(self.picker)}
            | {
                seat
                for seat, held in enumerate(self.hands)
                if any(held >> i & 1 and c == self.call.card for i, c in enumerate(cards))
            }
        )
        self._numbers: dict[int, tuple[int, ...]] = {}
        self._legal: dict[int, tuple[int, ...]] = {}
        self.history: list[int] = []  # the cards played, in order
        self._closed: list[tuple[int, list[int], int, int, int, int, bool]] = []

    # --- who plays what -------------------------------------------------------------------

    def power(self, number: int) -> int:
        """How high a card ranks (trumps above every other suit)."""
        return self.rank[number]

    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.seats

    def remaining_points(self) -> int:
        """The card points still in the players' hands and the trick."""
        return TOTAL_POINTS - self.points - self.other_points

    def first_of_called(self) -> bool:
        """Whether the trick is the called suit's first lead."""
        return bool(self.trick) and self._leads_called(self.trick[0])

    def _leads_called(self, number: int) -> bool:
        """Whether a trick led with card `number` is the called suit's first lead."""
        return not self.called_led and self.suit[number] == self.called_suit

    def legal(self) -> tuple[int, ...]:
        """The numbers of the cards the player to move may play, as replay checks a play."""
        trick = self.trick
        seat = (self.leader + len(trick)) % self.seats
        held = self.hands[seat]
        if seat not in self._bound:  # follow suit (or trump), else any card
            if trick:
                following = held & self.suit_mask[self.suit[trick[0]]]
                if following:
                    held = following
            found = self._numbers.get(held)
            if found is None:
                found = self._numbers[held] = tuple(
                    i for i in range(len(self.cards)) if held >> i & 1
                )
            return found
        # the picker and the called card's holder: replay's checks, answers kept
        led = self.suit[trick[0]] + 1 if trick else 0
        key = (
            held << 16
            | led << 8
            | seat << 3
            | (led and not self.called_led and led - 1 == self.called_suit) << 2
            | self.called_led << 1
            | (self.tricks_left == 1)
        )
        found = self._legal.get(key)
        if found is None:
            if len(self._legal) > KEPT:  # (a bound on the memory it takes)
                self._legal.clear()
            found = self._legal[key] = self._check(seat, held)
        return found

    def _check(self, seat: int, held: int) -> tuple[int, ...]:
        numbers = [i for i in range(len(self.cards)) if held >> i & 1]
        cards = [self.cards[i] for i in numbers]
        led = self.game.suit_of(self.cards[self.trick[0]]) if self.trick else None
        first = self.first_of_called()
        ok = []
        for number, card in zip(numbers, cards, strict=True):
            if led is None:  # a lead: the called suit is first led by this very card
                first = self._leads_called(number)
            play = Play(
                len(self.history) // self.seats + 1,
                self.players[seat],
                card,
                led is None,
                cards,
                first,
                self.called_led,
                self.tricks_left == 1,
            )
            if not play_problems(play, led, self.game, self.call, self.picker, self.rules):
                ok.append(number)
        return tuple(ok)

    def moves(self) -> list[int]:
        """The legal cards, one of each set of equivalent cards (`alike`): the search tries
        one of them."""
        legal = self.legal()
        if len(legal) < 2:
            return list(legal)
        special, points, between, worth = self.special, self.card_points, self.between, self.worth
        seen = self._seen()
        held = self.hands[(self.leader + len(self.trick)) % self.seats]
        chosen: list[int] = []
        for number in legal:  # (`_alike`, written out: the search's busiest loop)
            if not special[number]:
                row, value = between[number], points[number]
                apart = seen & ~(held & worth[value])
                if any(
                    row[other] != -1
                    and points[other] == value
                    and not special[other]
                    and not row[other] & apart
                    for other in chosen
                ):
                    continue
            chosen.append(number)
        return chosen

    def alike(self, a: int, b: int) -> bool:
        """Whether two cards of the player to move play alike: cards of one suit (or trump)
        worth the same points with no card between them left in any hand or the trick (but
        the player's own cards worth as much). The called suit's cards, the called and the
        unknown card are each apart (their rules tell them apart)."""
        return self._alike(a, b, self._seen())

    def _seen(self) -> int:
        """The cards that tell two cards apart: those left and in the trick."""
        seen = self.left
        for number in self.trick:
            seen |= 1 << number
        return seen

    def _alike(self, a: int, b: int, seen: int) -> bool:
        between = self.between[a][b]
        if between == -1 or self.special[a] or self.special[b]:
            return False
        worth = self.card_points[a]
        if worth != self.card_points[b]:
            return False
        held = self.hands[(self.leader + len(self.trick)) % self.seats]
        return not between & seen & ~(held & self.worth[worth])

    def sure(self) -> tuple[bool | None, int]:
        """At a trick's start: who holds the highest trumps left (True: the counted seats,
        False: the others, None: no trumps are left, or the highest is the unknown card, which
        may not win), those of them in a row one side's, and their card points. That side is
        sure of those points and of a trick: a trick with one of them in it goes to the
        highest trump in it, one of them."""
        left, owner, counted = self.left, self.owner, self.counted
        whose: bool | None = None
        worth = 0
        for number in self.high_trumps:
            if left >> number & 1:
                if number == self.unknown:
                    break
                if whose is None:
                    whose = counted[owner[number]]
                elif counted[owner[number]] != whose:
                    break
                worth += self.card_points[number]
        return whose, worth

    def tries(self) -> list[int]:
        """`ordered(moves())`: the cards the search tries here, in order."""
        return self.ordered(self.moves())

    def ordered(self, moves: list[int]) -> list[int]:
        """The cards in the order the search tries them, likely good ones first (only the
        speed depends on it): a lead high; following, with the trick going to the own side,
        the richest card; else the cheapest card that takes the trick over, then the poorest.
        (Own side: where the points help the mover; in a Ramsch, the others' for the player.)"""
        if len(moves) < 2:
            return moves
        rank, suit, trump = self.rank, self.suit, self.trump
        trick = self.trick
        if not trick:  # (in a Ramsch, where nobody wants the points, low)
            mover = self.leader
            return sorted(
                moves, key=rank.__getitem__, reverse=self.counted[mover] == self.side[mover]
            )
        best = trick[0]
        for number in trick[1:]:
            if (trump[number] and not trump[best]) or (
                suit[number] == suit[best] and rank[number] > rank[best]
            ):
                best = number
        count = self.seats
        winner = (self.leader + trick.index(best)) % count
        points = self.card_points
        # (the trick's points go the mover's way: to the counted seats for the side, else away)
        if self.counted[winner] == self.side[(self.leader + len(trick)) % count]:
            return sorted(moves, key=lambda n: rank[n] - 1000 * points[n])
        over = [
            n
            for n in moves
            if (trump[n] and not trump[best]) or (suit[n] == suit[best] and rank[n] > rank[best])
        ]
        under = [n for n in moves if n not in over]
        over.sort(key=rank.__getitem__)
        under.sort(key=lambda n: 1000 * points[n] + rank[n])
        return over + under

    def shape(self) -> str:
        """The cards left as the play sees them: suit by suit, highest first, who holds each
        and what it is worth; which cards of a suit they are does not count (only their
        order does), so deals that differ only in the cards gone share it. A character a card
        (a string is small to keep and quick to look up)."""
        left, chars = self.left, self.chars
        return "".join([chars[n] for n in self.by_rank if left >> n & 1])

    # --- playing --------------------------------------------------------------------------

    def play(self, number: int) -> None:
        """Play a card of the player to move (one of `legal()`); a full trick is closed."""
        bit = 1 << number
        self.hands[self.owner[number]] ^= bit
        self.left ^= bit
        self.history.append(number)
        trick = self.trick
        trick.append(number)
        if len(trick) == self.seats:
            self._close_trick()

    def _close_trick(self) -> None:
        trick = self.trick  # (kept as it is: `undo` takes it back)
        first = self._leads_called(trick[0])
        self._closed.append(
            (
                self.leader,
                trick,
                self.points,
                self.other_points,
                self.side_tricks,
                self.other_tricks,
                self.called_led,
            )
        )
        winner = (self.leader + self._winner(trick, first)) % self.seats
        worth = sum(map(self.card_points.__getitem__, trick))
        if self.counted[winner]:
            self.points += worth
            self.side_tricks += 1
        else:
            self.other_points += worth
            self.other_tricks += 1
        self.called_led = self.called_led or first
        self.leader = winner
        self.trick = []
        self.tricks_left -= 1

    def _winner(self, trick: list[int], first: bool) -> int:
        """Where in `trick` its winner played (`first`: the called suit's first lead)."""
        if first and self.call.unknown is not None:  # (the unknown card cannot win)
            return trick_winner(self.game, self.call, [self.cards[i] for i in trick], first)
        rank, suit, trumps = self.rank, self.suit, self.trump
        best = trick[0]  # the highest trump, else the highest card of the suit led
        for number in trick:
            if trumps[number]:
                if not trumps[best] or rank[number] > rank[best]:
                    best = number
            elif not trumps[best] and suit[number] == suit[best] and rank[number] > rank[best]:
                best = number
        return trick.index(best)

    def last_trick(self) -> tuple[bool, int]:
        """The last trick, its cards forced, worked out without playing it: whether the
        counted seats take it, and its card points."""
        count, leader, hands = self.seats, self.leader, self.hands
        trick = [hands[(leader + seat) % count].bit_length() - 1 for seat in range(count)]
        first = self._leads_called(trick[0])
        winner = (leader + self._winner(trick, first)) % count
        return self.counted[winner], sum(map(self.card_points.__getitem__, trick))

    def undo(self) -> None:
        """Take back the last card played."""
        number = self.history.pop()
        if not self.trick:
            (
                self.leader,
                self.trick,
                self.points,
                self.other_points,
                self.side_tricks,
                self.other_tricks,
                self.called_led,
            ) = self._closed.pop()
            self.tricks_left += 1
        self.trick.pop()
        bit = 1 << number
        self.hands[self.owner[number]] |= bit
        self.left |= bit


def position_for(hand: HandFile, rules: Rules) -> Position:
    """The deal of a hand file before its first card (the blind taken and the bury made), as
    replay reads it. The caller has replayed the hand (replay raises on a deal it cannot
    read); a Ramsch has no declaring side and is taken by `ramsch_view`."""
    assert hand.picker is not None and hand.dealer is not None
    game, call, holding = before_the_first_card(hand, rules)
    players = tuple(hand.players)
    side_names = {hand.picker, *call.partners}
    cards = tuple(c for p in players for c in holding[p])
    numbers = {c: i for i, c in enumerate(cards)}
    hands = [sum(1 << numbers[c] for c in holding[p]) for p in players]
    leader = (players.index(hand.dealer) + 1) % len(players)
    name = game.name if rules.is_schafkopf else ""
    bury = sum(c.points for c in hand.bury)
    position = Position(
        rules,
        game,
        call,
        players,
        hand.picker,
        tuple(p in side_names for p in players),
        cards,
        hands,
        leader,
        [],
        False,
        bury,
        0,
        0,
        len(holding[players[0]]),
        bettel=name.startswith("bettel"),
        tout=name.endswith("-tout"),
        bury=bury,
    )
    return position


def ramsch_view(hand: HandFile, rules: Rules, player: str) -> Position:
    """A Ramsch before its first card, seen from `player`'s seat: he is the side the search
    plays for, against the other three together, whose tricks are counted (so the search's
    most points are the most he can make sure the others take; its every trick his Jungfrau,
    its no trick his Durchmarsch)."""
    assert hand.dealer is not None
    game, call, holding = before_the_first_card(hand, rules)
    players = tuple(hand.players)
    cards = tuple(c for p in players for c in holding[p])
    numbers = {c: i for i, c in enumerate(cards)}
    hands = [sum(1 << numbers[c] for c in holding[p]) for p in players]
    leader = (players.index(hand.dealer) + 1) % len(players)
    return Position(
        rules,
        game,
        call,
        players,
        player,
        tuple(p == player for p in players),
        cards,
        hands,
        leader,
        [],
        False,
        0,
        0,
        0,
        len(holding[players[0]]),
        counted=tuple(p != player for p in players),
    )
