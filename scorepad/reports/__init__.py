"""Reports: pure functions and small accumulators over the hands of a night.

No I/O and no click: the commands feed these from the one checking pass (`Reading.night`,
which calls `on_hand` with every hand's final version) and render what they return. `numbers`:
each player's numbers, the records of a hand and the standings; `sheet`: the score sheet and
the running totals; `words`: a hand, a change and the rules in words.
"""

from .numbers import (
    NextHand,
    PlayerCounts,
    PlayerStats,
    bock_owed,
    bock_record,
    hand_record,
    next_hand,
    plays_pot,
    pot_record,
    recorded_record,
    season,
    standings_record,
    stats_records,
)
from .sheet import HandLines, RunningSeries, SheetRows, set_record
from .words import (
    change_text,
    marks,
    pass_summary,
    played_text,
    rules_in_force,
    rules_words,
    summary_text,
)

__all__ = [
    "HandLines",
    "NextHand",
    "PlayerCounts",
    "PlayerStats",
    "RunningSeries",
    "SheetRows",
    "bock_owed",
    "bock_record",
    "change_text",
    "hand_record",
    "marks",
    "next_hand",
    "pass_summary",
    "played_text",
    "plays_pot",
    "pot_record",
    "recorded_record",
    "rules_in_force",
    "rules_words",
    "season",
    "set_record",
    "standings_record",
    "stats_records",
    "summary_text",
]
