"""A hand as the search sees it: every card open, who holds what, the trick so far.

The rules of play are replay's own (`scorepad.replay.tricks`): a card may be played when replay's
checks (following suit or trump, the called ace's rules) find nothing wrong with it, and a
trick is won as replay works it out (`trick_winner`). Each answer is kept (a player's cards,
the suit led and where the called suit stands decide it), so the checks run once a case.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, Game, Suit
from ..names import TOTAL_POINTS
from ..replay import HandFile
from ..replay.tricks import Call, Play, before_the_first_card, play_problems, trick_winner
from ..rules import Rules

__all__ = ["Position", "position_for"]

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
    side: tuple[bool, ...]  # by seat: on the declaring side
    cards: tuple[Card, ...]
    hands: list[int]
    leader: int
    trick: list[int]
    called_led: bool
    points: int  # the declaring side's card points so far (Sheepshead: the bury included)
    side_tricks: int
    other_tricks: int
    tricks_left: int
    bettel: bool = False  # the declaring side wins by taking no trick
    tout: bool = False  # the declaring side wins only by taking every trick
    other_points: int = 0
    bury: int = 0  # the card points the side has without a trick (Sheepshead's bury)

    def __post_init__(self) -> None:
        self.card_points = tuple(c.points for c in self.cards)
        self._suits = tuple(self.game.suit_of(c) for c in self.cards)
        self._powers = tuple(self.game.power(c) for c in self.cards)
        self._trumps = tuple(self.game.is_trump(c) for c in self.cards)
        called = self.call.suit
        self._special = tuple(
            c == self.call.card
            or c == self.call.unknown
            or (called is not None and self.game.suit_of(c) == called)
            for c in self.cards
        )
        # The cards by suit (trumps as one suit), highest first, each with a code of its suit,
        # its points and whether it is the called or the unknown card: two deals alike in
        # those (but for which cards of a suit are gone) play alike (`shape`).
        classes = sorted({(self._trumps[i], str(self._suits[i])) for i in range(len(self.cards))})
        self._by_rank = sorted(
            range(len(self.cards)),
            key=lambda i: (classes.index((self._trumps[i], str(self._suits[i]))), -self._powers[i]),
        )
        self._code = [
            classes.index((self._trumps[i], str(self._suits[i]))) << 12
            | self.card_points[i] << 2
            | (
                1
                if self.cards[i] == self.call.card
                else 2
                if self.cards[i] == self.call.unknown
                else 0
            )
            for i in range(len(self.cards))
        ]
        self._legal: dict[tuple[object, ...], tuple[int, ...]] = {}
        self._winners: dict[tuple[object, ...], int] = {}
        self.history: list[tuple[int, int, int, tuple[int, ...], int, int, int, int, bool]] = []

    # --- who plays what -------------------------------------------------------------------

    def power(self, number: int) -> int:
        """How high a card ranks (trumps above every other suit)."""
        return self._powers[number]

    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % len(self.players)

    def remaining_points(self) -> int:
        """The card points still in the players' hands and the trick."""
        return TOTAL_POINTS - self.points - self.other_points

    def first_of_called(self) -> bool:
        suit = self.call.suit
        return (
            suit is not None
            and not self.called_led
            and bool(self.trick)
            and self._suits[self.trick[0]] == suit
        )

    def legal(self) -> tuple[int, ...]:
        """The numbers of the cards the player to move may play, as replay checks a play."""
        seat = self.to_move()
        held = self.hands[seat]
        led = self._suits[self.trick[0]] if self.trick else None
        first = self.first_of_called() if self.trick else False
        key = (seat, held, led, first, self.called_led, self.tricks_left == 1, bool(self.trick))
        found = self._legal.get(key)
        if found is None:
            if len(self._legal) > KEPT:  # (a bound on the memory it takes)
                self._legal.clear()
            found = self._legal[key] = self._check(seat, held, led, first)
        return found

    def _check(self, seat: int, held: int, led: Suit | str | None, first: bool) -> tuple[int, ...]:
        numbers = [i for i in range(len(self.cards)) if held >> i & 1]
        cards = [self.cards[i] for i in numbers]
        player = self.players[seat]
        ok = []
        for number, card in zip(numbers, cards, strict=True):
            if led is None:  # a lead: the called suit is first led by this very card
                suit = self.call.suit
                first = suit is not None and not self.called_led and self._suits[number] == suit
            play = Play(
                len(self.history) // len(self.players) + 1,
                player,
                card,
                led is None,
                cards,
                first,
                self.called_led,
                self.tricks_left == 1,
            )
            problems = play_problems(play, led, self.game, self.call, self.picker, self.rules)
            if not problems:
                ok.append(number)
        return tuple(ok)

    def moves(self) -> list[int]:
        """The legal cards, one of each set of equivalent cards: cards of one suit (or trump)
        worth the same points with no card between them left in any hand or the trick play
        alike, so the search tries one of them. The called suit's cards, the called and the
        unknown card are each tried (their rules tell them apart)."""
        legal = self.legal()
        if len(legal) < 2:
            return list(legal)
        left = self._left_mask()
        for number in self.trick:  # (a card in the trick tells two cards apart too)
            left |= 1 << number
        chosen = []
        for number in legal:
            if self._special[number]:
                chosen.append(number)
                continue
            if not any(self._same(other, number, left) for other in chosen):
                chosen.append(number)
        return chosen

    def tries(self) -> list[int]:
        """`ordered(moves())`: the cards the search tries here, in order."""
        return self.ordered(self.moves())

    def ordered(self, moves: list[int]) -> list[int]:
        """The cards in the order the search tries them, likely good ones first (only the
        speed depends on it): a lead high; following, with the trick going to the own side,
        the richest card; else the cheapest card that takes the trick over, then the poorest."""
        if len(moves) < 2:
            return moves
        powers, points, trumps = self._powers, self.card_points, self._trumps
        if not self.trick:
            return sorted(moves, key=lambda n: -powers[n])
        best = self.trick[0]
        for number in self.trick[1:]:
            if (trumps[number] and not trumps[best]) or (
                self._suits[number] == self._suits[best] and powers[number] > powers[best]
            ):
                best = number
        winner = (self.leader + self.trick.index(best)) % len(self.players)
        if self.side[winner] == self.side[self.to_move()]:
            return sorted(moves, key=lambda n: (-points[n], powers[n]))

        def key(n: int) -> tuple[int, int, int]:
            if trumps[n] and not trumps[best]:
                return (0, powers[n], 0)
            if self._suits[n] == self._suits[best] and powers[n] > powers[best]:
                return (0, powers[n], 0)
            return (1, points[n], powers[n])

        return sorted(moves, key=key)

    def shape(self) -> str:
        """The cards left as the play sees them: suit by suit, highest first, who holds each
        and what it is worth; which cards of a suit they are does not count (only their
        order does), so deals that differ only in the cards gone share it. A character a card
        (a string is small to keep and quick to look up; its codes are under 2**15)."""
        owner: dict[int, int] = {}
        for seat, held in enumerate(self.hands):
            while held:
                low = held & -held
                owner[low.bit_length() - 1] = seat
                held ^= low
        code = self._code
        return "".join([chr(code[n] | owner[n] << 8) for n in self._by_rank if n in owner])

    def _left_mask(self) -> int:
        mask = 0
        for hand in self.hands:
            mask |= hand
        return mask

    def _same(self, a: int, b: int, left: int) -> bool:
        if self._special[a] or self._suits[a] != self._suits[b]:
            return False
        if self.card_points[a] != self.card_points[b]:
            return False
        low, high = sorted((self._powers[a], self._powers[b]))
        held = self.hands[self.to_move()]
        suit = self._suits[a]
        for i in range(len(self.cards)):
            if (
                left >> i & 1
                and self._suits[i] == suit
                and low < self._powers[i] < high
                and (not held >> i & 1 or self.card_points[i] != self.card_points[a])
            ):
                return False
        return True

    # --- playing --------------------------------------------------------------------------

    def play(self, number: int) -> None:
        """Play a card of the player to move (one of `legal()`); a full trick is closed."""
        seat = self.to_move()
        self.history.append(
            (
                number,
                seat,
                self.leader,
                tuple(self.trick),
                self.points,
                self.other_points,
                self.side_tricks,
                self.other_tricks,
                self.called_led,
            )
        )
        self.hands[seat] &= ~(1 << number)
        self.trick = [*self.trick, number]
        if len(self.trick) == len(self.players):
            self._close_trick()

    def _close_trick(self) -> None:
        first = self.first_of_called()
        key = (*self.trick, first)
        win = self._winners.get(key)
        if win is None:
            cards = [self.cards[i] for i in self.trick]
            if len(self._winners) > KEPT:
                self._winners.clear()
            win = self._winners[key] = trick_winner(self.game, self.call, cards, first)
        winner = (self.leader + win) % len(self.players)
        worth = sum(self.card_points[i] for i in self.trick)
        if self.side[winner]:
            self.points += worth
            self.side_tricks += 1
        else:
            self.other_points += worth
            self.other_tricks += 1
        self.called_led = self.called_led or first
        self.leader = winner
        self.trick = []
        self.tricks_left -= 1

    def undo(self) -> None:
        """Take back the last card played."""
        (
            number,
            seat,
            self.leader,
            trick,
            self.points,
            self.other_points,
            self.side_tricks,
            self.other_tricks,
            self.called_led,
        ) = self.history.pop()
        if not self.trick:
            self.tricks_left += 1
        self.trick = list(trick)
        self.hands[seat] |= 1 << number


def position_for(hand: HandFile, rules: Rules) -> Position:
    """The deal of a hand file before its first card (the blind taken and the bury made), as
    replay reads it. The caller has replayed the hand (replay raises on a deal it cannot
    read); a Ramsch has no declaring side and is not taken here."""
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
