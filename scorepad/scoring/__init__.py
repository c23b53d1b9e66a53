"""Scoring one hand: who won, at what level and stake, each player's game points, and why.

`score(rules, hand)` takes a validated `Rules` and a `PickerHand`, `LeasterHand`,
`SchwanzerHand` or `RamschHand` and returns a `Score`, or raises `HandError` naming what is
wrong. It does no I/O and keeps no state: the session ledger and the card-level tools call it
the same way `scorepad check` does.

The package, by concern:

    records      the hand records (written from hands.INPUTS by scripts/hand_records.py)
    result       Outcome and Score
    seating      who plays a hand, in which order; players found by name
    words        wording every explanation shares
    doubling     doublers, knocks, the night's last hand, Bock: multiplied and capped
    card_points  what the picker's side's card points and tricks can be; their class
    picker       a hand with a picker (a declarer): sides, value, doublings, settlement
    schafkopf    Schafkopf's game values and the options of Schafkopf alone
    alone        what the hands everyone plays alone share
    leaster      a leaster, under each of its settings
    schwanzer    a schwanzer
    ramsch       a Ramsch
    penalty      a penalty, and its record
    manual       a hand the table scores itself
"""

from ..rules import Rules
from .card_points import points_class, possible_in, possible_points, tricks_needed
from .doubling import MAX_BOCK_PLACES, Bock, bock_events, with_bock
from .leaster import score_leaster
from .manual import score_manual
from .penalty import Penalty, score_penalty
from .picker import score_picker
from .ramsch import score_ramsch
from .records import (
    RECORDS,
    Hand,
    LeasterHand,
    ManualHand,
    PickerHand,
    RamschHand,
    SchwanzerHand,
)
from .result import Outcome, Score
from .schwanzer import SCHWANZER_POINTS, score_schwanzer
from .seating import Seating, find_player, same_name, seat

__all__ = [
    "MAX_BOCK_PLACES",
    "RECORDS",
    "SCHWANZER_POINTS",
    "Bock",
    "Hand",
    "LeasterHand",
    "ManualHand",
    "Outcome",
    "Penalty",
    "PickerHand",
    "RamschHand",
    "SchwanzerHand",
    "Score",
    "Seating",
    "bock_events",
    "find_player",
    "points_class",
    "possible_in",
    "possible_points",
    "same_name",
    "score",
    "score_penalty",
    "seat",
    "tricks_needed",
]


def score(rules: Rules, hand: Hand, *, explain: bool = False) -> Score:
    """Score one hand under `rules`; raise `HandError` when its inputs are impossible.

    The score says why, line by line (`Score.explanation`), only when `explain` asks for it:
    what is shown to a user (`check`, `hand --explain`, a replay, JSON) asks; a pass over a
    night's file, which needs the points alone, does not, and words nothing."""
    if isinstance(hand, LeasterHand):
        return score_leaster(rules, hand, explain)
    if isinstance(hand, SchwanzerHand):
        return score_schwanzer(rules, hand, explain)
    if isinstance(hand, ManualHand):
        return score_manual(rules, hand, explain)
    if isinstance(hand, RamschHand):
        return with_bock(rules, hand, score_ramsch(rules, hand, explain), explain)
    return with_bock(rules, hand, score_picker(rules, hand, explain), explain)
