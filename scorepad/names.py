"""The fixed sets of names scorepad knows, each defined once (StrEnums: the text is what files,
options and JSON carry). Imports nothing heavy, so the command line can build its options and
`--help` from it without loading the rules."""

from __future__ import annotations

from enum import StrEnum


class Family(StrEnum):
    """The game a rules table is for."""

    SHEEPSHEAD = "sheepshead"
    SCHAFKOPF = "schafkopf"


class GameType(StrEnum):
    """A Schafkopf game a declarer may play."""

    PARTNER = "partner"
    SOLO = "solo"
    WENZ = "wenz"
    GEIER = "geier"
    SOLO_TOUT = "solo-tout"
    WENZ_TOUT = "wenz-tout"
    GEIER_TOUT = "geier-tout"

    @property
    def base(self) -> GameType:
        """The game without its tout."""
        return GameType(self.value.removesuffix("-tout"))

    @property
    def is_tout(self) -> bool:
        return self.value.endswith("-tout")


class Role(StrEnum):
    """A player's part in one hand."""

    PICKER = "picker"
    DECLARER = "declarer"  # Schafkopf's picker
    PARTNER = "partner"
    DEFENDER = "defender"
    OPPONENT = "opponent"  # Schafkopf's defender
    LEASTER = "leaster"
    LEASTER_WINNER = "leaster winner"
    SCHWANZER = "schwanzer"
    SCHWANZER_LOSER = "schwanzer loser"
    OFFENDER = "pays a penalty"
    PAID = "paid a penalty"
    SITS_OUT = "sits out"


PRESETS = ("standard", "pagat", "first-night", "schafkopf")
"""The bundled rules presets (scorepad/presets/NAME.toml)."""
GAMES = tuple(g.value for g in GameType)
BASE_GAMES = tuple(g.value for g in GameType if not g.is_tout)
FAMILIES = tuple(f.value for f in Family)
