"""The hand records: the inputs of each kind of hand, as a table writes them down (and a
penalty's)."""

from collections.abc import Mapping
from typing import NamedTuple


class PickerHand(NamedTuple):
    """A hand with a picker (in Schafkopf, a declarer): the inputs a table writes down."""

    players: tuple[str, ...]  # everyone at the table, in seat order
    picker: str
    points: int  # card points of the picker's side, bury included
    dealer: str | None = None  # default: the last of `players`
    partners: tuple[str, ...] = ()
    alone: bool = False
    tricks: int | None = None  # tricks of the picker's side; None: each side took one
    crack: str | None = None  # who cracked (Stoss)
    recrack: bool = False  # re-crack (Gegenstoss) by the picker's side
    doubled: int = 0  # how many doublers double this hand
    forced: bool = False
    game: str | None = None  # Schafkopf game; None: partner game (Schafkopf) / not given
    runs: int | None = None  # Schafkopf runs ("Laufende")
    blitz: int = 0  # blitzes shown (0-2), where the rules play blitz
    out: tuple[str, ...] = ()  # players sitting out this hand besides the rules' sit_out
    last: bool = False  # the night's last hand (last_hand_doubled)
    knocks: int = 0  # Schafkopf: knocks (Klopfen, Legen) before the game, each x knock_factor
    stoss: int = 0  # Schafkopf: Stoss calls (Kontra, Re, ...), each x2, up to max_stoss
    bock: str = ""  # a Bock hand's place and factor ("2/5x2": hand 2 of a round of 5, x2)


class LeasterHand(NamedTuple):
    """A leaster: everyone passed and plays alone; fewest card points wins."""

    players: tuple[str, ...]
    dealer: str | None = None
    winner: str | None = None
    leaster_points: Mapping[str, int] | None = None
    leaster_tricks: Mapping[str, int] | None = None
    doubled: int = 0
    out: tuple[str, ...] = ()
    blind_points: int | None = None  # leaster_blind = set-aside: the card points of the blind
    last: bool = False
    bock: str = ""


class SchwanzerHand(NamedTuple):
    """Everyone passed under all_pass = schwanzer: whoever was dealt the most schwanzer points
    (a queen 3, a jack 2, any other trump 1) loses."""

    players: tuple[str, ...]
    dealer: str | None = None
    schwanzer_points: Mapping[str, int] | None = None  # each active player's, as dealt
    losers: tuple[str, ...] = ()  # named instead (or to settle which of the points it was)
    doubled: int = 0
    out: tuple[str, ...] = ()
    last: bool = False
    bock: str = ""


class RamschHand(NamedTuple):
    """Everyone passed under all_pass = ramsch (Schafkopf): everyone plays alone and the most
    card points loses."""

    players: tuple[str, ...]
    dealer: str | None = None
    ramsch_points: Mapping[str, int] | None = None  # each active player's (120 in all)
    losers: tuple[str, ...] = ()  # the loser, named (or settling a tie for the most)
    jungfrau: tuple[str, ...] = ()  # players who took no trick
    durchmarsch: str | None = None  # one player took every trick
    doubled: int = 0
    out: tuple[str, ...] = ()
    last: bool = False
    knocks: int = 0
    bock: str = ""


class Penalty(NamedTuple):
    """A penalty (a misplay, a renege, a look at the blind): not a hand, a payment."""

    players: tuple[str, ...]  # everyone seated
    offender: str
    points: int  # paid to each other seated player (or to `to` alone)
    to: str | None = None


Hand = PickerHand | LeasterHand | SchwanzerHand | RamschHand
