"""The night's state as data, field by field, for the checkpoint beside a session file.

`STATE` declares every attribute of `Night` that a pass builds up row by row: how it is written
as JSON and how it is read back, checked (the checkpoint is untrusted input, as the file is).
`saved` writes them, `restore` reads them into a new night. `WIRING` names the attributes that
are not the night's state (what the pass was given, or what the file gives again).
`tests/test_checkpoint.py` fails when `Night` gains an attribute in neither, so new state cannot
be left out of the checkpoint.
"""

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ..rules import Rules
from ..store.format import Row
from . import bock as bocks
from .night import Night


class _Bad(ValueError):
    """A field of a saved state that is not what `saved` writes."""


def _whole(value: Any, least: int = 0, most: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise _Bad
    if most is not None and value > most:
        raise _Bad
    return value


def _maybe_whole(least: int) -> Callable[[Any, Sequence[str], int], int | None]:
    return lambda value, players, last: None if value is None else _whole(value, least)


def _names(value: Any, players: Sequence[str]) -> list[str]:
    if not isinstance(value, list) or len(set(value)) != len(value):
        raise _Bad
    if not all(isinstance(p, str) and p in players for p in value):
        raise _Bad
    return value


def _hands(value: Any, last: int, least: int = 1) -> list[int]:
    if not isinstance(value, list):
        raise _Bad
    return [_whole(h, least, last) for h in value]


def _totals(value: Any, players: Sequence[str], last: int) -> dict[str, int]:
    if not isinstance(value, list) or not all(isinstance(p, list) and len(p) == 2 for p in value):
        raise _Bad
    names = _names([p for p, _v in value], players)
    return dict(zip(names, (_whole(v, -(1 << 62)) for _p, v in value)))


def _notes(value: Any, players: Sequence[str], last: int) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise _Bad
    return value


def _queue(value: Any, players: Sequence[str], last: int) -> bocks.Queue:
    found = bocks.parse(value) if isinstance(value, str) else None
    if found is None:
        raise _Bad
    return found


def _bock_changes(
    value: Any, players: Sequence[str], last: int
) -> list[tuple[int, bocks.Queue, int]]:
    if not isinstance(value, list) or len(value) > 1000:
        raise _Bad
    changes = []
    for change in value:
        if not isinstance(change, list) or len(change) != 3:
            raise _Bad
        key, queue, hand = change
        changes.append((_whole(key, -(1 << 62)), _queue(queue, players, last), _whole(hand)))
    return changes


def _seats(value: Any, players: Sequence[str]) -> list[str]:
    if len(_names(value, players)) < 2:
        raise _Bad
    return list(value)


def _dealer(value: Any, players: Sequence[str], last: int) -> str:
    if not isinstance(value, str) or value not in players:
        raise _Bad
    return value


class _Field(NamedTuple):
    """How a field of the night's state is written (from the night) and read back (checked,
    given the players of the file and the last hand of the state; `_Bad` when it is not)."""

    write: Callable[[Night], Any]
    read: Callable[[Any, Sequence[str], int], Any]


# The night's state, each field saved and restored by name. (`last_hand` is read first: the
# hand numbers of the others are checked against it.)
STATE: dict[str, _Field] = {
    "last_hand": _Field(lambda n: n.last_hand, lambda v, p, last: _whole(v)),
    "order": _Field(lambda n: list(n.order), lambda v, p, last: _seats(v, p)),
    "next_dealer": _Field(lambda n: n.next_dealer, _dealer),
    "totals": _Field(lambda n: [[p, v] for p, v in n.totals.items()], _totals),  # (their order)
    "pending": _Field(lambda n: list(n.pending), lambda v, p, last: _hands(v, last, 0)),
    "hands": _Field(lambda n: n.hands, lambda v, p, last: _whole(v, 0, last)),
    "voided": _Field(lambda n: sorted(n.voided), lambda v, p, last: set(_hands(v, last))),
    "penalties": _Field(lambda n: sorted(n.penalties), lambda v, p, last: set(_hands(v, last))),
    "night_over": _Field(lambda n: n.night_over, _maybe_whole(1)),
    "seat_changes": _Field(lambda n: n.seat_changes, lambda v, p, last: _whole(v)),
    "_seat_notes": _Field(lambda n: list(n._seat_notes), _notes),
    "rules_line": _Field(lambda n: n.rules_line, _maybe_whole(4)),
    "rules_from": _Field(lambda n: n.rules_from, lambda v, p, last: _whole(v)),
    "rules_changes": _Field(lambda n: n.rules_changes, lambda v, p, last: _whole(v)),
    "race_winners": _Field(lambda n: list(n.race_winners), lambda v, p, last: tuple(_names(v, p))),
    "corrected": _Field(
        lambda n: n.corrected + sum(f.corrections for f in n.corrections.values()),
        lambda v, p, last: _whole(v),
    ),
    "bock": _Field(lambda n: bocks.text(n.bock), _queue),
    "_bock_changes": _Field(
        lambda n: [[key, bocks.text(q), hand] for key, q, hand in n._bock_changes],
        _bock_changes,
    ),
    "pot": _Field(lambda n: n.pot, lambda v, p, last: _whole(v)),
    "pot_rows": _Field(lambda n: sorted(n.pot_rows), lambda v, p, last: set(_hands(v, last))),
    "pot_hands": _Field(lambda n: sorted(n.pot_hands), lambda v, p, last: set(_hands(v, last))),
}

# Not the night's state: what the night was made with (the file's head, the corrections below,
# the report's callbacks), made again for each pass; `rules` is the rules of the `set` row at
# `rules_line` (read from the file again); `kept` is empty at a checkpoint (every correction
# applied), and `refs` follows from `corrections` (the rows after it).
WIRING = (
    "rules",
    "players",
    "codec",
    "on_set",
    "corrections",
    "refs",
    "kept",
    "on_hand",
    "counts",
)


def saved(night: Night) -> dict[str, Any] | None:
    """The state as JSON data; None while a hand is kept for a correction still to come."""
    if night.kept:
        return None
    return {name: field.write(night) for name, field in STATE.items()}


def restore(night: Night, data: Any, last: Row, rules_at: Callable[[int | None], Rules]) -> bool:
    """Put saved state into a night made for the same file (nothing applied to it yet), under
    the rules of the `set` row on the line it names (`rules_at`, which may raise). False,
    having changed nothing, when the data is not a state of this night: a field missing or of
    the wrong kind, a name not in the file, or a state other than the one the last row covered
    (`last`) records."""
    if not isinstance(data, dict) or set(data) != set(STATE):
        return False
    state: dict[str, Any] = {}
    try:
        last_hand = _whole(data["last_hand"])
        for name, field in STATE.items():
            state[name] = field.read(data[name], night.players, last_hand)
    except _Bad:
        return False
    if not set(state["order"]) <= set(state["totals"]):
        return False
    # What the last row covered records of the state after it must be this state.
    if (
        last.next_dealer != state["next_dealer"]
        or tuple(last.seated) != tuple(state["order"])
        or last.pending != len(state["pending"])
        or last.totals != state["totals"]  # (the row holds them in seat order, the pass as met)
        or last.rules_line != state["rules_line"]
        or last.bock_queue != data["bock"]
        or last.pot != state["pot"]
        or (last.hand is not None and last.hand > last_hand)
    ):
        return False
    night.rules = rules_at(state["rules_line"])
    for name, value in state.items():
        setattr(night, name, value)
    night._changed(rules=True)  # (what was remembered is for the state before)
    return True
