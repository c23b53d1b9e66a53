"""The Bock rounds a night owes: which of the next hands are Bock hands, and at what factor.

Pure values: a queue is a tuple of runs, each `(factor, first, last, of)`: the hands `first` to
`last` of a Bock round of `of` hands, each multiplied by `factor`. The next hand is the first
run's `first`. In a session file's `bock_queue` cell a queue is written `2-5/5x2,1-5/5x4` (the
runs, in turn); an empty cell owes nothing.

A round earned while one is under way follows the rounds owed (`bock_stacking = queue`) or
starts at once, the hands both cover multiplied again (`multiply`: a Doppelbock, x4), each hand
keeping the place of the round that started first.
"""

from __future__ import annotations

import functools
import re

from ..rules import MAX_BOCK, Rules
from ..scoring import MAX_BOCK_PLACES, Bock

Run = tuple[int, int, int, int]  # (factor, first, last, of)
Queue = tuple[Run, ...]
EMPTY: Queue = ()
MAX_ROUNDS = 20  # the most rounds `scorepad bock --rounds` starts at once
MAX_OWED = MAX_BOCK_PLACES  # the most Bock hands a night owes at once (more earned are dropped)


@functools.cache  # (compiled when first needed: recording a hand seldom reads a queue)
def _run() -> re.Pattern[str]:
    return re.compile(r"([0-9]{1,4})-([0-9]{1,4})/([0-9]{1,4})x([0-9]{1,4})")


def text(queue: Queue) -> str:
    """The queue as its `bock_queue` cell holds it."""
    return ",".join(f"{first}-{last}/{of}x{factor}" for factor, first, last, of in queue)


def parse(cell: str) -> Queue | None:
    """The queue a `bock_queue` cell holds (None: it holds no queue scorepad writes)."""
    if not cell:
        return EMPTY
    runs = []
    for part in cell.split(","):
        found = _run().fullmatch(part)
        if found is None:
            return None
        first, last, of, factor = (int(n) for n in found.groups())
        if not (1 <= first <= last <= of and 2 <= factor <= MAX_BOCK):
            return None
        runs.append((factor, first, last, of))
    queue = tuple(runs)
    return queue if text(queue) == cell and owed(queue) <= MAX_OWED else None


def owed(queue: Queue) -> int:
    """How many Bock hands the queue owes."""
    return sum(last - first + 1 for _, first, last, _ in queue)


def head(queue: Queue) -> Bock | None:
    """The next hand's Bock (None: it is no Bock hand)."""
    if not queue:
        return None
    factor, first, _unused, of = queue[0]
    return Bock(factor, first, of)


def rest(queue: Queue) -> Queue:
    """The queue once the next hand is played."""
    if not queue:
        return queue
    factor, first, last, of = queue[0]
    if first == last:
        return queue[1:]
    return ((factor, first + 1, last, of), *queue[1:])


def round_length(rules: Rules, seated: int) -> int:
    """The hands of a Bock round: `bock_hands`, or one for each seated player."""
    return rules.bock_hands or seated


def added(queue: Queue, rules: Rules, seated: int, rounds: int = 1) -> Queue:
    """The queue with `rounds` Bock rounds more, one after another, as `bock_stacking` adds
    them."""
    of = round_length(rules, seated)
    factor = rules.bock_factor
    if rules.bock_stacking == "queue" or not queue:
        new = [(factor, 1, of, of)] * rounds
        room = MAX_OWED - owed(queue)
        return _trimmed((*queue, *new), owed(queue) + min(room, of * rounds))
    hands = _hands(queue)
    coming = [(factor, place, of) for _ in range(rounds) for place in range(1, of + 1)]
    for at, (more, place, length) in enumerate(coming):
        if at < len(hands):
            old, old_place, old_of = hands[at]
            hands[at] = (min(old * more, MAX_BOCK), old_place, old_of)
        else:
            hands.append((more, place, length))
    return _runs(hands[:MAX_OWED])


def _trimmed(queue: Queue, most: int) -> Queue:
    if owed(queue) <= most:
        return queue
    return _runs(_hands(queue)[:most])


def _hands(queue: Queue) -> list[tuple[int, int, int]]:
    """The queue hand by hand: (factor, place, of)."""
    return [
        (factor, place, of) for factor, first, last, of in queue for place in range(first, last + 1)
    ]


def _runs(hands: list[tuple[int, int, int]]) -> Queue:
    """Hands (factor, place, of) as the runs that hold them."""
    runs: list[Run] = []
    for factor, place, of in hands:
        if runs:
            f, first, last, o = runs[-1]
            if f == factor and o == of and last + 1 == place:
                runs[-1] = (f, first, place, o)
                continue
        runs.append((factor, place, place, of))
    return tuple(runs)
