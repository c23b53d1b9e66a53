"""Wrong entry tokens throttled by the client's address, so that a token cannot be guessed.

An address may send FREE_TRIES wrong tokens in a row; after that it waits before its next try
is even looked at (429, with Retry-After): FIRST_WAIT seconds after the first wrong token past
them, twice as long after each one more, LONGEST_WAIT at most. The right token forgets its
wrong ones. Without it, a client on the table's network tried 785 tokens a second.
"""

import math
import time
from collections import OrderedDict
from collections.abc import Callable

FREE_TRIES = 5  # wrong tokens in a row an address may send before it waits
FIRST_WAIT = 1.0  # seconds the first wait lasts; each wrong token after it doubles it
LONGEST_WAIT = 3600.0  # seconds the longest wait lasts
ADDRESSES = 4096  # the addresses remembered (those that sent a wrong token last)


class Throttle:
    """Each address's wrong tokens in a row and until when it waits."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self._wrong: OrderedDict[str, tuple[int, float]] = OrderedDict()  # (count, until)

    def wait(self, address: str) -> int:
        """The whole seconds `address` still waits before a token of its is looked at (0:
        none)."""
        _count, until = self._wrong.get(address, (0, 0.0))
        return max(0, math.ceil(until - self.clock()))

    def wrong(self, address: str) -> int:
        """Count a wrong token from `address`; the whole seconds it now waits (0: none yet)."""
        count = self._wrong.pop(address, (0, 0.0))[0] + 1
        past = count - FREE_TRIES
        wait = 0.0 if past <= 0 else min(LONGEST_WAIT, FIRST_WAIT * 2.0 ** min(past - 1, 32))
        self._wrong[address] = (count, self.clock() + wait)
        while len(self._wrong) > ADDRESSES:
            self._wrong.popitem(last=False)
        return math.ceil(wait)

    def count(self, address: str) -> int:
        """The wrong tokens `address` sent in a row."""
        return self._wrong.get(address, (0, 0.0))[0]

    def right(self, address: str) -> None:
        """The right token from `address`: its wrong ones are forgotten."""
        self._wrong.pop(address, None)
