"""One exception family for everything a user can get wrong, and how its messages name things.

The command line turns any `ScorepadError` into a one-line `Error: …` and a non-zero exit; any
other exception is a bug and keeps its traceback.

A message names an input or a setting by `field(NAME)` (the text `⟨NAME⟩`), never by the way
one interface spells it: each interface words it its own way (`--partner` on the command line,
`partners` in the live board's JSON, a translation its own words). `str()` of an error, and
`worded()`, use the wording in force: the interface sets it (`wording`), and without one a field
is its name.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar


@functools.cache  # (compiled when first needed: most commands word no field)
def _field() -> re.Pattern[str]:
    return re.compile(r"⟨([a-z][a-z_]*)⟩")


_WORDING: ContextVar[Callable[[str], str] | None] = ContextVar("scorepad_wording", default=None)
_DEFAULT: list[Callable[[str], str] | None] = [None]  # the process's wording (set_wording)
_WORDED: dict[tuple[Callable[[str], str] | None, str], str] = {}  # (wording, text): worded
_WORDED_MAX = 4096


def field(name: str) -> str:
    """How a message names the input or setting `name` (see the module's docstring)."""
    return f"⟨{name}⟩"


def worded(text: str, wording: Callable[[str], str] | None = None) -> str:
    """`text` with each field named as `wording` (else the wording in force) says.

    A wording is a function of the name alone, so a text is worded once a wording: a score's
    explanation words the same lines hand after hand (a new kind of hand in a long pass)."""
    if "⟨" not in text:
        return text
    spell = wording or _WORDING.get() or _DEFAULT[0]
    key = (spell, text)
    done = _WORDED.get(key)
    if done is None:
        if spell is None:
            done = _field().sub(lambda m: m[1], text)
        else:
            done = _field().sub(lambda m: spell(m[1]), text)
        if len(_WORDED) >= _WORDED_MAX:  # (bounded: texts hold numbers, wordings may be made anew)
            _WORDED.clear()
        _WORDED[key] = done
    return done


def fields(text: str) -> list[str]:
    """The inputs and settings `text` names, in order."""
    return _field().findall(text)


def set_wording(wording: Callable[[str], str] | None) -> None:
    """Word fields this way in this process from now on (an interface calls it as it starts)."""
    _DEFAULT[0] = wording


@contextmanager
def wording(spell: Callable[[str], str]) -> Iterator[None]:
    """Word fields as `spell` says within the block, in this context (a board's request)."""
    token = _WORDING.set(spell)
    try:
        yield
    finally:
        _WORDING.reset(token)


class ScorepadError(ValueError):
    """Something the user typed or wrote in a file is not acceptable."""

    @property
    def raw(self) -> str:
        """The message with its fields unworded (`⟨NAME⟩`)."""
        return str(self.args[0]) if self.args else ""

    @property
    def field(self) -> str | None:
        """The first input or setting the message names (None: it names none)."""
        found = fields(self.raw)
        return found[0] if found else None

    def __str__(self) -> str:
        return worded(self.raw)


class RulesError(ScorepadError):
    """A rules table, preset name or `--set` override is not valid."""


class HandError(ScorepadError):
    """A hand's inputs are impossible or break the table's rules."""


class CardError(ScorepadError):
    """A card could not be read."""
