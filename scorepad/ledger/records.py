"""What a ledger row holds, as the domain's objects: the hand a row records (and the row of a
scored hand), and the rules a `set` row puts in force."""

from __future__ import annotations

import json
import operator
from collections.abc import Sequence
from typing import Any

from ..errors import HandError, ScorepadError, field
from ..hands import BY_NAME as BY_INPUT
from ..hands import Type
from ..i18n import gettext as _
from ..rules import Rules, rules_from_dict
from ..scoring import (
    Hand,
    LeasterHand,
    ManualHand,
    PickerHand,
    RamschHand,
    SchwanzerHand,
    Score,
    find_player,
)
from ..store.format import Row, RowKind
from ..text import unprintable, unprintable_problem


def kind_of(row: Row) -> RowKind:
    """The kind of hand a row's inputs describe (a hand row's kind, or an amendment's hand)."""
    if row.offender is not None:
        return RowKind.PENALTY
    if row.scores is not None:
        return RowKind.MANUAL
    if row.picker is not None:
        return RowKind.PICKER
    if row.game == "ramsch":
        return RowKind.RAMSCH
    if row.schwanzer_points is not None or row.losers:
        return RowKind.SCHWANZER
    return RowKind.LEASTER


_RECORDS: dict[RowKind, type[Hand]] = {
    RowKind.PICKER: PickerHand,
    RowKind.LEASTER: LeasterHand,
    RowKind.SCHWANZER: SchwanzerHand,
    RowKind.RAMSCH: RamschHand,
    RowKind.MANUAL: ManualHand,
}


# each record's inputs (its fields but the players), read off a row or a hand at once
_INPUTS_OF = {kind: operator.attrgetter(*record._fields[1:]) for kind, record in _RECORDS.items()}


_KIND_OF_RECORD = {record: kind for kind, record in _RECORDS.items()}


def hand_of(row: Row, seated: Sequence[str]) -> Hand:
    """The scoring input that a picker, leaster, schwanzer or Ramsch row (or an amend) records:
    the row's cells of the inputs its kind of hand has (`hands.INPUTS`; the same names)."""
    kind = kind_of(row)
    if kind is RowKind.PENALTY:
        raise HandError(_("a penalty is not a hand"))
    if kind is RowKind.PICKER and row.points is None:
        raise HandError(_("points: missing"))
    return _RECORDS[kind](tuple(seated), *_INPUTS_OF[kind](row))


def row_for_hand(hand: Hand, result: Score, seated: Sequence[str]) -> Row:
    """A row recording a scored hand (number and state are filled in by the ledger)."""
    kind = _KIND_OF_RECORD[type(hand)]
    inputs = dict(zip(type(hand)._fields[1:], _INPUTS_OF[kind](hand)))
    for name, value in inputs.items():
        if BY_INPUT[name].type == Type.NAMES:
            inputs[name] = tuple(value)
    inputs["out"] = tuple(p for p in seated if p in result.sitting_out)
    if kind is RowKind.RAMSCH:
        inputs["game"] = "ramsch"
    return Row(kind, deltas={p: result.deltas.get(p, 0) for p in seated}, **inputs)


def canonical(hand: Hand, seated: Sequence[str]) -> Hand:
    """The hand with every name spelled as the session spells it (names match case-blind)."""
    changed: dict[str, Any] = {}
    fields = type(hand)._fields[1:]
    # (in the order the names were always checked: who sat out, the dealer, then the rest)
    for name in ("out", "dealer", *(f for f in fields if f not in ("out", "dealer"))):
        value = getattr(hand, name)
        if not value:
            continue
        kind = BY_INPUT[name].type
        ref = field(name)
        if kind == Type.NAME:
            changed[name] = find_player(value, seated, ref)
        elif kind == Type.NAMES:
            changed[name] = tuple(find_player(n, seated, ref) for n in value)
        elif kind == Type.COUNTS:
            counts: dict[str, int] = {}
            for key, count in value.items():
                player = find_player(key, seated, ref)
                if player in counts:  # (`Ann=4,ann=-1`: one player, given twice)
                    raise HandError(
                        _("{ref}: {player} is named twice").format(ref=ref, player=player)
                    )
                counts[player] = count
            changed[name] = counts
    return hand._replace(**changed)


def set_row_note(
    rules: Rules, changes: Sequence[str], note: str, hands: tuple[int, int] | None = None
) -> str:
    """What a `set` row's note holds: the whole table in force from then on (so the file alone
    re-scores every hand), the changes as typed, and the user's note; with `hands` (`set
    --from N`), the first and last hand it scores again (`from`, `through`)."""
    data: dict[str, Any] = {
        "changes": list(changes),
        "note": note,
        "rules": rules.to_dict(stored=True),
        "source": rules.source,
        "overrides": list(rules.overrides),
    }
    if hands is not None:
        data["from"], data["through"] = hands
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def rules_of_set_row(note: str) -> Rules:
    """The rules a `set` row's note holds (a ScorepadError when it holds none)."""
    try:
        data = json.loads(note)
    except (ValueError, RecursionError):
        raise ScorepadError(_("its note is not a JSON change of the rules")) from None
    if not isinstance(data, dict) or not isinstance(data.get("rules"), dict):
        raise ScorepadError(_("its note is not a JSON change of the rules"))
    for key in ("changes", "note", "source", "overrides"):  # (all shown: log, status)
        value = data.get(key)
        for text in value if isinstance(value, list) else [value]:
            bad = unprintable(text) if isinstance(text, str) else None
            if bad is not None:
                raise ScorepadError(unprintable_problem(key, str(text), bad))
    rules = rules_from_dict(data["rules"], "set")
    source, overrides = data.get("source"), data.get("overrides")
    if isinstance(source, str) and isinstance(overrides, list):  # for the summary only
        shown = tuple(str(o)[:80] for o in overrides[:50])
        rules = rules._replace(source=source[:200], overrides=shown)
    return rules


def set_row_text(note: str) -> tuple[str, str]:
    """A `set` row's changes and note, for people (the log)."""
    try:
        data = json.loads(note)
        return ", ".join(data.get("changes", [])), str(data.get("note", ""))
    except (ValueError, RecursionError, AttributeError, TypeError):
        return "", ""
