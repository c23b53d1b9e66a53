"""The Schafkopf games, each declared once: which cards are trump, whether a suit is named,
whether it is played with a partner, what it is won by, whose runs it counts and what its value
is called. The card tables (`cards.Game.schafkopf`), scoring, replay, simulate, `play` and the
rules (which games every table values) read this table; a game is a row of it, not a special
case. Imports nothing heavy: the command line builds `--game`'s choices from it.
"""

from collections.abc import Mapping
from typing import NamedTuple


class Tops:
    """The trumps above the suit (or instead of one). (Plain text constants, not an enum:
    making an enum class costs every command a fraction of a millisecond as it starts.)"""

    OBERS_UNTERS = "obers-unters"  # the four Obers, the four Unters, then the trump suit
    UNTERS = "unters"  # the Unters alone (a wenz), or then the named suit (a farbwenz)
    OBERS = "obers"  # the Obers alone (a geier), or then the named suit (a farbgeier)
    NONE = "none"  # no trumps at all, and the ten below the Unter (a bettel)


class TrumpSuit:
    """Which suit is trump besides the tops."""

    HEARTS = "hearts"  # always hearts (a partner game, a Hochzeit, Ramsch)
    NAMED = "named"  # the declarer names it (a solo, a farbwenz, ...)
    NONE = "none"  # none (a wenz, a geier, a bettel)


class WonBy:
    """What the declarer's side must take to win."""

    POINTS = "points"  # 61 card points
    EVERY_TRICK = "every-trick"  # a tout, a sie
    NO_TRICK = "no-trick"  # a bettel


class Game(NamedTuple):
    """One Schafkopf game."""

    name: str  # as `--game`, files and JSON write it
    tops: str  # a Tops
    suit: str  # a TrumpSuit
    partner: bool  # the declarer plays with a partner (the called ace's holder, the taker)
    won_by: str  # a WonBy
    runs_as: str | None  # the game whose runs_min and runs_max count its runs (None: no runs)
    value: str  # its key in game_values (a sie is valued as a solo-tout, doubled)
    value_times: int = 1
    core: bool = False  # every Schafkopf table gives it a value (the others are the table's)
    declared: bool = True  # (Ramsch is nobody's game)

    @property
    def base(self) -> str:
        """The game without its tout."""
        return self.name.removesuffix("-tout")

    @property
    def is_tout(self) -> bool:
        """A game announced to take every trick (a tout; a sie is one too)."""
        return self.won_by == WonBy.EVERY_TRICK


_OU, _U, _O = Tops.OBERS_UNTERS, Tops.UNTERS, Tops.OBERS
_HEARTS, _NAMED, _NO = TrumpSuit.HEARTS, TrumpSuit.NAMED, TrumpSuit.NONE
_POINTS, _EVERY = WonBy.POINTS, WonBy.EVERY_TRICK

TABLE = (
    Game("partner", _OU, _HEARTS, True, _POINTS, "partner", "partner", core=True),
    Game("solo", _OU, _NAMED, False, _POINTS, "solo", "solo", core=True),
    Game("wenz", _U, _NO, False, _POINTS, "wenz", "wenz", core=True),
    Game("geier", _O, _NO, False, _POINTS, "geier", "geier", core=True),
    Game("solo-tout", _OU, _NAMED, False, _EVERY, "solo", "solo-tout", core=True),
    Game("wenz-tout", _U, _NO, False, _EVERY, "wenz", "wenz-tout", core=True),
    Game("geier-tout", _O, _NO, False, _EVERY, "geier", "geier-tout", core=True),
    # Bavarian games (format 5): a table plays them once it gives them a value
    Game("hochzeit", _OU, _HEARTS, True, _POINTS, "partner", "hochzeit"),
    Game("bettel", Tops.NONE, _NO, False, WonBy.NO_TRICK, None, "bettel"),
    Game("farbwenz", _U, _NAMED, False, _POINTS, "wenz", "farbwenz"),
    Game("farbgeier", _O, _NAMED, False, _POINTS, "geier", "farbgeier"),
    Game("farbwenz-tout", _U, _NAMED, False, _EVERY, "wenz", "farbwenz-tout"),
    Game("farbgeier-tout", _O, _NAMED, False, _EVERY, "geier", "farbgeier-tout"),
    Game("sie", _OU, _NAMED, False, _EVERY, "solo", "solo-tout", value_times=2),
    # everyone passed (all_pass = ramsch): played with hearts trump, nobody's game
    Game("ramsch", _OU, _HEARTS, False, _POINTS, None, "ramsch", declared=False),
)
BY_NAME: Mapping[str, Game] = {g.name: g for g in TABLE}

GAMES = tuple(g.name for g in TABLE if g.declared)
"""The games a declarer may play (`--game`)."""
CORE_GAMES = tuple(g.name for g in TABLE if g.core)
"""The games every Schafkopf table has a value for (the others are the table's to add)."""
BASE_GAMES = tuple(dict.fromkeys(g.runs_as for g in TABLE if g.runs_as))
"""The games that count runs (runs_min.GAME, runs_max.GAME); the others count as one of them."""
RUNS_MIN_GAMES = BASE_GAMES + tuple(
    g.name for g in TABLE if g.runs_as and g.name == g.base and g.name not in BASE_GAMES
)
"""The games a table may give fewest runs of their own (runs_min.farbwenz = 3, as NetSchafkopf
and sauspiel.de count a Farbwenz's); a game without its own counts as its runs_as game."""


def runs_min(values: Mapping[str, int], name: str | None) -> int:
    """The fewest runs that count in a game (a tout as its game): its own runs_min, else that
    of the game it counts its runs as."""
    spec = game(name)
    own = spec.base
    counts_as = spec.runs_as or "partner"
    return values[own] if own in values else values[counts_as]


VALUED = tuple(g.name for g in TABLE)
"""What `game_values.KEY` may name: every game, and Ramsch (all_pass = ramsch)."""
PLAYED = tuple(g.name for g in TABLE if g.base == g.name)
"""The games as cards are played (a tout plays as its game): what a hand file may name."""


ALIASES: Mapping[str, str] = {"rufspiel": "partner", "sauspiel": "partner"}
"""The games' German names where they differ from the names written (`--game rufspiel`)."""


def game(name: str | None) -> Game:
    """The game `name` (None: the partner game); a KeyError for a name not in the table."""
    return BY_NAME[name or "partner"]
