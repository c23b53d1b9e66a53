"""The night's state as data, field by field, for the checkpoint beside a session file.

`STATE` names every attribute of `Night` that a pass builds up row by row, and `saved` writes
each as JSON; `restore` reads them back into a new night, checking each (the checkpoint is
untrusted input, as the file is). `WIRING` names the attributes that are not the night's state
(what the pass was given, or what the file gives again). `tests/test_checkpoint.py` fails when
`Night` gains an attribute in neither, so new state cannot be left out of the checkpoint.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..rules import Rules
from ..store.format import Row
from . import bock as bocks
from .night import Night

# The night's state, each saved and restored by name.
STATE = (
    "order",
    "next_dealer",
    "totals",
    "pending",
    "last_hand",
    "hands",
    "voided",
    "penalties",
    "night_over",
    "seat_changes",
    "_seat_notes",
    "rules_line",
    "rules_from",
    "rules_changes",
    "race_winners",
    "corrected",
    "bock",
    "_bock_changes",
    "pot",
    "pot_rows",
    "pot_hands",
)

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
    return {
        "order": list(night.order),
        "next_dealer": night.next_dealer,
        "totals": [[p, v] for p, v in night.totals.items()],  # (in their order)
        "pending": list(night.pending),
        "last_hand": night.last_hand,
        "hands": night.hands,
        "voided": sorted(night.voided),
        "penalties": sorted(night.penalties),
        "night_over": night.night_over,
        "seat_changes": night.seat_changes,
        "_seat_notes": list(night._seat_notes),
        "rules_line": night.rules_line,
        "rules_from": night.rules_from,
        "rules_changes": night.rules_changes,
        "race_winners": list(night.race_winners),
        "corrected": night.corrected + sum(f.rows for f in night.corrections.values()),
        "bock": bocks.text(night.bock),
        "_bock_changes": [[key, bocks.text(q), hand] for key, q, hand in night._bock_changes],
        "pot": night.pot,
        "pot_rows": sorted(night.pot_rows),
        "pot_hands": sorted(night.pot_hands),
    }


def _count(value: Any, least: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _names(value: Any, players: Sequence[str]) -> bool:
    return (
        isinstance(value, list)
        and all(isinstance(p, str) and p in players for p in value)
        and len(set(value)) == len(value)
    )


def restore(night: Night, data: Any, last: Row, rules_at: Callable[[int | None], Rules]) -> bool:
    """Put saved state into a night made for the same file (nothing applied to it yet), under
    the rules of the `set` row on the line it names (`rules_at`, which may raise). False,
    having changed nothing, when the data is not a state of this night: a field missing or of
    the wrong kind, a name not in the file, or a state other than the one the last row covered
    (`last`) records."""
    if not isinstance(data, dict) or set(data) != set(STATE):
        return False
    players = night.players
    last_hand = data["last_hand"]
    totals = data["totals"]
    if not (
        _names(data["order"], players)
        and len(data["order"]) >= 2
        and isinstance(data["next_dealer"], str)
        and data["next_dealer"] in players
        and isinstance(totals, list)
        and all(
            isinstance(pair, list)
            and len(pair) == 2
            and isinstance(pair[0], str)
            and isinstance(pair[1], int)
            and not isinstance(pair[1], bool)
            for pair in totals
        )
        and _names([p for p, _ in totals], players)
        and _count(last_hand)
        and all(_count(h) and h <= last_hand for h in data["pending"])
        and isinstance(data["pending"], list)
        and _count(data["hands"])
        and data["hands"] <= last_hand
        and all(
            isinstance(data[name], list)
            and all(_count(h, 1) and h <= last_hand for h in data[name])
            for name in ("voided", "penalties", "pot_rows", "pot_hands")
        )
        and _count(data["pot"])
        and (data["night_over"] is None or _count(data["night_over"], 1))
        and _count(data["seat_changes"])
        and isinstance(data["_seat_notes"], list)
        and all(isinstance(n, str) for n in data["_seat_notes"])
        and (data["rules_line"] is None or _count(data["rules_line"], 4))
        and _count(data["rules_from"])
        and _count(data["rules_changes"])
        and _names(data["race_winners"], players)
        and _count(data["corrected"])
    ):
        return False
    bock = bocks.parse(data["bock"]) if isinstance(data["bock"], str) else None
    changes = data["_bock_changes"]
    if bock is None or not isinstance(changes, list) or len(changes) > 1000:
        return False
    bock_changes = []
    for change in changes:
        if not (
            isinstance(change, list)
            and len(change) == 3
            and isinstance(change[0], int)
            and not isinstance(change[0], bool)
            and isinstance(change[1], str)
            and _count(change[2])
        ):
            return False
        before = bocks.parse(change[1])
        if before is None:
            return False
        bock_changes.append((change[0], before, change[2]))
    totals_now = dict(totals)
    if not set(data["order"]) <= set(totals_now):
        return False
    # What the last row covered records of the state after it must be this state.
    if (
        last.next_dealer != data["next_dealer"]
        or tuple(last.seated) != tuple(data["order"])
        or last.pending != len(data["pending"])
        or last.totals != totals_now  # (the row holds them in seat order, the pass as met)
        or last.rules_line != data["rules_line"]
        or last.bock_queue != data["bock"]
        or last.pot != data["pot"]
        or (last.hand is not None and last.hand > last_hand)
    ):
        return False
    rules = rules_at(data["rules_line"])
    night.rules = rules
    night.order = list(data["order"])
    night.next_dealer = data["next_dealer"]
    night.totals = totals_now
    night.pending = list(data["pending"])
    night.last_hand = last_hand
    night.hands = data["hands"]
    night.voided = set(data["voided"])
    night.penalties = set(data["penalties"])
    night.night_over = data["night_over"]
    night.seat_changes = data["seat_changes"]
    night._seat_notes = list(data["_seat_notes"])
    night.rules_line = data["rules_line"]
    night.rules_from = data["rules_from"]
    night.rules_changes = data["rules_changes"]
    night.race_winners = tuple(data["race_winners"])
    night.corrected = data["corrected"]
    night.bock = bock
    night._bock_changes = bock_changes
    night.pot = data["pot"]
    night.pot_rows = set(data["pot_rows"])
    night.pot_hands = set(data["pot_hands"])
    night._changed(rules=True)  # (what was remembered is for the state before)
    return True
