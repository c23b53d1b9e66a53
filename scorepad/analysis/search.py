"""What the declaring side can force with every card open: threshold searches.

`reaches(position, goal)` answers one yes-or-no question: can the declaring side (the picker
or declarer and partners) make sure of the goal (at least T card points, and perhaps a trick,
every trick or none), whatever the others play? It is an AND-OR search over the cards left
(the declaring side needs one good card, against every card of the others), with

- a table of the answers, at the start of each trick, keyed by the cards each player has left,
  who leads, whether the called suit was led and the points the side still needs (so the
  answers for different lines of points share it: a yes for needing n is a yes for less, a no
  for more);
- cut-offs: the goal already made, or out of reach with all the points left, or made or out
  of reach with the points of the highest trumps left that are one side's in a row (sure to
  go to that side); the last trick, its cards forced, worked out without a search;
- equivalent cards searched as one (`Position.moves`).

The outcome of a position is found by a few such questions at the scoring lines (make,
schneider, schwarz); the exact points by halving the range of points.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..names import MAKE
from .position import Position

__all__ = [
    "LEVELS",
    "Goal",
    "Searcher",
]

LEVELS = ("loss-schwarz", "loss-schneider", "loss", "win", "win-schneider", "win-schwarz")
"""The outcomes for the declaring side, worst first (a Bettel or a Tout: loss or win)."""
LOSS, WIN = 2, 3

TABLE_SIZE = 400_000
"""The most answers the tables keep in all. Past it, those nearest the end of the deal (the
quickest to find again) are let go until half of them are left."""
ANY, ONE, ALL, NONE = 0, 1, 2, 3  # what the side's tricks must be: any, one at least, all, none


@dataclass(frozen=True)
class Goal:
    """At least `points` card points for the declaring side, and its tricks as `tricks` says."""

    points: int
    tricks: int = ANY


class Searcher:
    """The searches over one deal, sharing their tables. `tick` is called now and then (a
    progress indication; it may raise to stop the search, leaving the position part way
    along a line: it is thrown away then)."""

    def __init__(self, position: Position, tick: Callable[[], None] | None = None):
        self.position = position
        # by the tricks a goal asks for, and by the tricks left: the answers at a trick's start
        self.tables: dict[int, list[dict[str, list[int]]]] = {}
        self.kept = 0
        tricks = position.tricks_left + len(position.history) // len(position.players)
        # by the tricks left: the card that settled a question last time at a trick's start,
        # tried first next time
        self.best: list[dict[str, int]] = [{} for _ in range(tricks + 1)]
        self.tick = tick
        self.nodes = 0
        self.bound = 0  # what the last question proved (see `reaches`)

    # --- the lines scoring uses -----------------------------------------------------------

    def goal(self, level: int) -> Goal:
        """The goal of reaching at least `level` (an index into LEVELS)."""
        position = self.position
        rules = position.rules
        if position.bettel or position.tout:
            assert level in (LOSS, WIN)
            if level == LOSS:
                return Goal(0)
            return Goal(0, NONE if position.bettel else ALL)
        # more points than the bury holds are a trick taken: no need to ask for one (and the
        # question shares its table with the others that ask for points alone)
        least = rules.schneider_loss + 1
        return (
            Goal(0),
            Goal(0, ONE),
            Goal(least, ONE if least <= position.bury else ANY),
            Goal(MAKE),
            Goal(rules.schneider_win),
            Goal(0, ALL),
        )[level]

    def outcome(self, guess: int = WIN, bound: int = 0) -> int:
        """The best outcome (an index into LEVELS) the declaring side can force from here.
        The search starts at `guess`; `bound` says what is known of the answer: -1 at most
        `guess` (after a declarer's card), +1 at least `guess` (after a defender's)."""
        if self.position.bettel or self.position.tout:
            if (bound < 0 and guess == LOSS) or (bound > 0 and guess == WIN):
                return guess
            return WIN if self.reaches(self.goal(WIN)) else LOSS
        if bound > 0 or guess == 0 or self.reaches(self.goal(guess)):
            level = guess
            if bound < 0:
                return level
            while level < len(LEVELS) - 1 and self.reaches(self.goal(level + 1)):
                level += 1
            return level
        level = guess - 1
        while level > 0 and not self.reaches(self.goal(level)):
            level -= 1
        return level

    def best_points(self, least: int | None = None, most: int | None = None) -> int:
        """The most card points the declaring side can make sure of (the others, then, can
        make sure of the rest). Known bounds narrow the range: `least` the side is sure of
        (asked first whether it is all), `most` it cannot pass (asked first whether it is
        reached). Each question's bound narrows the range past its own line."""
        position = self.position
        low, high = position.points, position.points + position.remaining_points()
        if most is not None and low < min(most, high):
            high = min(most, high)
            if self.reaches(Goal(high)):
                return high
            high = min(high, self.bound) - 1
        if least is not None and max(least, low) < high:
            low = max(least, low)
            if not self.reaches(Goal(low + 1)):
                return low
            low = max(low + 1, self.bound)
        while low < high:  # low is reachable; find the most that is
            middle = (low + high + 1) // 2
            if self.reaches(Goal(middle)):
                low = max(middle, self.bound)
            else:
                high = min(middle, self.bound) - 1
        return low

    # --- the search -----------------------------------------------------------------------

    def reaches(self, goal: Goal) -> bool:
        """Can the declaring side make sure of `goal` from the position as it stands? After
        it, `bound` holds what the search proved on the way, in the side's card points at the
        end: a yes, the side can make sure of at least `bound`; a no, the others can hold it
        under `bound` (0: the tricks the goal asks for are out of reach)."""
        tables = self.tables.get(goal.tricks)
        if tables is None:
            tables = self.tables[goal.tricks] = [{} for _ in self.best]
        return self._search(goal.points, goal.tricks, tables)

    def _search(self, target: int, tricks: int, tables: list[dict[str, list[int]]]) -> bool:
        position = self.position
        key = None
        points = position.points
        if not position.trick:
            settled = self._settled(target, tricks)
            if settled is not None:
                return settled
            table = tables[position.tricks_left]
            key = position.shape() + chr(position.leader << 2 | position.called_led << 1)
            if tricks == ONE and position.side_tricks:
                key += "1"
            known = table.get(key)
            need = target - points if target > points else 0
            if known is not None:
                if need <= known[0]:
                    self.bound = points + known[0]
                    return True
                if need >= known[1]:
                    self.bound = points + known[1]
                    return False
            self.nodes += 1
            if self.tick is not None and not self.nodes & 0x3FFF:
                self.tick()
        ours = position.side[(position.leader + len(position.trick)) % position.seats]
        answer = not ours
        # a yes of the side's: the least any of the others' cards leaves it (or the first good
        # card's); a no: the most any of the side's cards could reach (or the first bad one's)
        bound = 1 << 20 if not ours else 0
        # (in the last three tricks, the few cards cost less to try than to sort and sift)
        tries = position.tries() if position.tricks_left > 3 else list(position.legal())
        if key is not None:
            best = self.best[position.tricks_left]
            first = best.get(key)
            if first is not None and tries[0] != first and first in tries:
                tries.remove(first)
                tries.insert(0, first)
        play, undo, search = position.play, position.undo, self._search
        for number in tries:
            # (no try/finally: a search stopped part way, Ctrl-C perhaps in the middle of a
            # play, leaves the position to be thrown away, not taken back)
            play(number)
            found = search(target, tricks, tables)
            undo()
            if found == ours:
                answer = ours
                bound = self.bound
                if key is not None:
                    best[key] = number
                break
            if ours:
                if self.bound > bound:
                    bound = self.bound
            elif self.bound < bound:
                bound = self.bound
        self.bound = bound
        if key is not None:
            self._keep(table, key, answer, bound - points)
        return answer

    def _settled(self, target: int, tricks: int) -> bool | None:
        """The answer at the start of a trick where no search is needed (the goal made or out
        of reach, the last trick's cards forced), else None."""
        position = self.position
        points = position.points
        if (tricks == ALL and position.other_tricks) or (tricks == NONE and position.side_tricks):
            self.bound = 0
            return False
        made = points >= target
        counts = tricks != ONE or position.side_tricks > 0
        if made and counts and tricks <= ONE:
            self.bound = points
            return True
        left = position.tricks_left
        if left == 0:
            if made and counts:
                self.bound = points
                return True
            self.bound = points + 1 if counts else 0
            return False
        most = points + position.remaining_points()
        if most < target:
            self.bound = most + 1
            return False
        if left > 1:
            whose, sure = position.sure()
            if whose:  # (the side's: a trick and `sure` points)
                if tricks == NONE:
                    self.bound = 0
                    return False
                if points + sure >= target and tricks <= ONE:
                    self.bound = points + sure
                    return True
            elif whose is not None:  # (the others')
                if tricks == ALL:
                    self.bound = 0
                    return False
                if most - sure < target:
                    self.bound = most - sure + 1
                    return False
        if left == 1:  # every card is forced: the last trick decides
            taken, worth = position.last_trick()
            if taken:
                points += worth
                if tricks == NONE:
                    self.bound = 0
                    return False
                counts = True
            elif tricks == ALL:
                self.bound = 0
                return False
            if points >= target and counts:
                self.bound = points
                return True
            self.bound = points + 1 if counts else 0
            return False
        return None

    def _keep(self, table: dict[str, list[int]], key: str, answer: bool, more: int) -> None:
        """Keep what a search proved: a yes, `more` points are sure; a no, out of reach."""
        known = table.get(key)
        if known is None:
            known = table[key] = [-1, 1 << 20]
            self.kept += 1
            if self.kept > TABLE_SIZE:
                self._make_room()
        if answer:
            if more > known[0]:
                known[0] = more
        elif more < known[1]:
            known[1] = more

    def _make_room(self) -> None:
        """Let go of answers, those nearest the end of the deal first, until half are left
        (a bound on the memory the tables take)."""
        for left, best in enumerate(self.best):
            for tables in self.tables.values():
                self.kept -= len(tables[left])
                tables[left].clear()
            best.clear()
            if self.kept <= TABLE_SIZE // 2:
                break
