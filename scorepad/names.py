"""The fixed sets of names scorepad knows, each defined once (StrEnums: the text is what files,
options and JSON carry; the games are a table of their own, `games`). Imports nothing heavy, so
the command line can build its options and `--help` from it without loading the rules."""

from __future__ import annotations

from enum import StrEnum


class Family(StrEnum):
    """The game a rules table is for."""

    SHEEPSHEAD = "sheepshead"
    SCHAFKOPF = "schafkopf"


class Role(StrEnum):
    """A player's part in one hand."""

    PICKER = "picker"
    DECLARER = "declarer"  # Schafkopf's picker
    PARTNER = "partner"
    DEFENDER = "defender"
    OPPONENT = "opponent"  # Schafkopf's defender
    LEASTER = "leaster"
    LEASTER_WINNER = "leaster winner"
    LEASTER_LOSER = "leaster loser"  # leaster_scoring = most-loses
    RAMSCH = "ramsch"
    RAMSCH_LOSER = "ramsch loser"
    DURCHMARSCH = "durchmarsch"
    SCHWANZER = "schwanzer"
    SCHWANZER_LOSER = "schwanzer loser"
    OFFENDER = "pays a penalty"
    PAID = "is paid the penalty"
    SITS_OUT = "sits out"
    PASSED = "passed"  # everyone passed, into the pot (all_pass = pot)
    SCORED = "scored by the table"  # a hand the table scores itself (`--scores`)


PRESETS = (
    "standard",
    "pagat",
    "first-night",
    "schafkopf",
    "bavarian",
    "preis",
    "sheepshead-tournament",
)
"""The bundled rules presets (scorepad/presets/NAME.toml)."""
FAMILIES = tuple(f.value for f in Family)

# The pack's card points: here, not in cards, so that scoring a hand (which needs them) does
# not import the card tables: recording a hand starts faster.
TOTAL_POINTS = 120
"""The card points in the pack."""
MAKE = 61
"""What the picker's (declarer's) side needs to win."""
ACE_POINTS = 11
"""The richest card (cards.CARD_POINTS): a blind of n cards holds at most n x 11."""
