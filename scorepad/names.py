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
    # Bavarian games (format 5): a table plays them once it gives them a value
    HOCHZEIT = "hochzeit"
    BETTEL = "bettel"
    FARBWENZ = "farbwenz"
    FARBGEIER = "farbgeier"
    FARBWENZ_TOUT = "farbwenz-tout"
    FARBGEIER_TOUT = "farbgeier-tout"
    SIE = "sie"

    @property
    def base(self) -> GameType:
        """The game without its tout."""
        return GameType(self.value.removesuffix("-tout"))

    @property
    def is_tout(self) -> bool:
        return self.value.endswith("-tout")

    @property
    def runs_as(self) -> str:
        """The game whose runs_min and runs_max count this game's runs."""
        base = self.base.value
        return {"hochzeit": "partner", "farbwenz": "wenz", "farbgeier": "geier", "sie": "solo"}.get(
            base, base
        )


class Role(StrEnum):
    """A player's part in one hand."""

    PICKER = "picker"
    DECLARER = "declarer"  # Schafkopf's picker
    PARTNER = "partner"
    DEFENDER = "defender"
    OPPONENT = "opponent"  # Schafkopf's defender
    LEASTER = "leaster"
    LEASTER_WINNER = "leaster winner"
    RAMSCH = "ramsch"
    RAMSCH_LOSER = "ramsch loser"
    DURCHMARSCH = "durchmarsch"
    SCHWANZER = "schwanzer"
    SCHWANZER_LOSER = "schwanzer loser"
    OFFENDER = "pays a penalty"
    PAID = "paid a penalty"
    SITS_OUT = "sits out"


PRESETS = ("standard", "pagat", "first-night", "schafkopf", "bavarian")
"""The bundled rules presets (scorepad/presets/NAME.toml)."""
GAMES = tuple(g.value for g in GameType)
CORE_GAMES = GAMES[:7]
"""The games every Schafkopf table has a value for (the others are the table's to add)."""
BASE_GAMES = ("partner", "solo", "wenz", "geier")
"""The games that count runs (runs_min.GAME, runs_max.GAME); the others count as one of them."""
VALUED = (*GAMES, "ramsch")
"""What `game_values.KEY` may name: every game, and Ramsch (all_pass = ramsch)."""
FAMILIES = tuple(f.value for f in Family)
