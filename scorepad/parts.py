"""A large file checked in two parts at once, one in a second process: the machinery.

A pass over a session file is sequential (each row is checked against the state the rows above
it leave), but every row records that state: the second half of a file can be checked from
the state its row above records, in a second process, while the first process checks the
first half. When the first half is done, the state it reached must be the one the second
process began from, or what it did is thrown away and the first process reads on by itself:
what a report prints is what one pass prints, either way. `session` decides when a file is
read so (`Reading.check`); this module forks, carries what the second process made back
through a pipe, and cleans up.

A report that shows each hand (the sheet, the chart) says how its second part is made and
joined to its first with a `Split`; a report that only counts needs none of its own.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import suppress
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:  # (the command line names `Split` as it starts: nothing heavy at import)
    from .ledger import HandView
    from .store.format import Row

PROCESSES = "SCOREPAD_PROCESSES"  # 1: every pass in one process (the tests compare the two)

TWO_PROCESSES_FROM = 16 << 20  # the bytes of rows below which a file is read in one process


def available() -> bool:
    """Whether this machine reads a large file in two processes: it can fork (not Windows, nor
    its protocol of mandatory locks, whose reader holds the lock), it has a second core for
    this process, and the environment does not say one."""
    from .store.files import WINDOWS_LOCKS

    if os.environ.get(PROCESSES, "").strip() == "1" or not hasattr(os, "fork") or WINDOWS_LOCKS:
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return cores > 1


class Split:
    """How a report's own part of a pass (what it does with each hand, `on_hand` and `on_set`)
    is done in two parts: `second` gives the callbacks for the second part, in the second
    process (the hands after `last_hand`); `made` is what they made (pickled back to the first
    process); `join` takes it in the first process, after its own part. This one (a report
    that only counts, or checks) has no callbacks of its own."""

    def second(
        self, last_hand: int
    ) -> tuple[Callable[[HandView], None] | None, Callable[[Row, int], None] | None]:
        return None, None

    def made(self) -> Any:
        return None

    def fits(self, made: Any) -> bool:
        """Whether what the second part made goes on from what the first made (if not, the
        first process reads on by itself)."""
        return True

    def join(self, made: Any) -> None:
        """Take in what the second part made (after every hand of the first part). Not called
        when the first process reads on by itself: what the second made is then unused."""

    def mark(self) -> Any:
        """In the second process, what its callbacks have made so far, in brief: the live
        board's pass keeps the state at a few marks (`Reading.follow`)."""
        return None

    def extra_at(self, mark: Any) -> Any:
        """After `join`: what the callbacks of one pass would have made up to a `mark` of the
        second part (the live board keeps it with the state there)."""
        return None


class Forked:
    """`work` running in a child process (forked): `result` waits for what it returned."""

    def __init__(self, work: Callable[[], Any]):
        reading, writing = os.pipe()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the child: do the work, send it back, and leave at once
            status = 1
            try:
                _end_with(parent)
                os.close(reading)
                made = work()
                with os.fdopen(writing, "wb") as out:
                    pack((True, made), out)
                status = 0
            except BaseException:
                pass
            finally:
                os._exit(status)  # (no atexit, no flush of the parent's buffers)
        os.close(writing)
        self.pid = pid
        self._reading: int | None = reading

    def result(self) -> tuple[bool, Any]:
        """(True, what `work` returned), or (False, None) when the child failed."""
        import pickle

        assert self._reading is not None
        with os.fdopen(self._reading, "rb") as pipe:
            self._reading = None
            try:  # (read as it comes: what the child sends may be tens of MB)
                done, value = pickle.load(pipe)
            except Exception:  # (the child failed, or stopped mid-write)
                done, value = False, None
            if done:
                done = not pipe.read(1)  # (all of it, and no more)
        _pid, status = os.waitpid(self.pid, 0)
        self.pid = 0
        if os.waitstatus_to_exitcode(status) != 0 or not done:
            return False, None
        return True, value

    def cancel(self) -> None:
        """Stop the child (if it still runs) and reap it."""
        import signal

        if self._reading is not None:
            os.close(self._reading)
            self._reading = None
        if self.pid:
            with suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = 0


def pack(value: Any, out: BinaryIO) -> None:
    """Write `value` as the second process sends it back (pickled, as it goes)."""
    import copyreg
    import pickle

    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, MappingProxyType: _proxy}
    pickler.dump(value)


def _proxy(mapping: MappingProxyType[Any, Any]) -> tuple[Any, tuple[dict[Any, Any]]]:
    """How a read-only mapping (a hand's, in what the live board keeps of it) crosses the pipe:
    as a dict, made read-only again (`read_only`)."""
    return read_only, (dict(mapping),)


def read_only(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only view of `mapping` (what `_proxy` sends, as it arrives)."""
    return MappingProxyType(mapping)


def _end_with(parent: int) -> None:
    """Have this (child) process ended when its parent ends, however it ends (Linux: a parent
    killed outright would otherwise leave it checking its part for nothing); elsewhere it ends
    when it finds the pipe closed, its part done."""
    import sys

    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # (PR_SET_PDEATHSIG)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # (the parent ended before that was said)
        os._exit(1)
