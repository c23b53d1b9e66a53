"""A hand's inputs, each declared once, and the two things done with them: building a hand from
inputs as a table gives them, and working out what an amendment changes.

`INPUTS` is the one table. Each `Input` has its name (the same as its column in the session
file, its key in JSON and its field in the hand records of `scoring` and in `store.format.Row`),
its type, the format version that brought its column, the kinds of hand it belongs to, whether
a picker hand can be made without it, and the word and help of its option. The session
file's columns (`store.format`), the options of `check`, `hand` and `amend` (`cli`), the live
board's entry fields (`serve`), which inputs go together and what an amendment clears all come
from it; the fields of the hand records (`scoring.records`) and of `Row` are written from it by
scripts/hand_records.py (`tests/test_hands.py` fails while they are stale).

Pure: no I/O, no click. Errors name the input (`errors.field`), and each interface words it its
own way: `--partner` on the command line, `partners` in the board's JSON.
"""

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import HandError, field
from .games import BY_NAME as GAMES_BY_NAME
from .games import WonBy
from .i18n import gettext as _

if TYPE_CHECKING:
    from .scoring import Hand


class Type:
    """What an input holds (and so how a table writes it down). (Text constants, not an enum:
    an enum class costs every command a fraction of a millisecond to make as it starts.)"""

    NAME = "name"  # one player
    NAMES = "names"  # players, in the order given
    FLAG = "flag"  # yes or no
    INT = "int"  # a whole number
    COUNT = "count"  # a whole number that is 0 unless given (knocks, Stoss, blitzes)
    COUNTS = "counts"  # a whole number for each of some players
    GAME = "game"  # a Schafkopf game (games.GAMES)
    CALL = "call"  # what the picker called: a suit, as `scoring.called` reads it
    KIND = "kind"  # says which kind of hand it is (the inputs of `--leaster` and its like)
    BOCK = "bock"  # a Bock hand's place and factor, `2/5x2` (`scoring.Bock`)


PICKER, LEASTER, SCHWANZER, RAMSCH, PENALTY = "picker", "leaster", "schwanzer", "ramsch", "penalty"
MANUAL = "manual"  # a hand the table scores itself (`--scores`)
KINDS = (PICKER, LEASTER, SCHWANZER, RAMSCH, MANUAL)
"""The kinds of hand that are dealt and scored (their text is the row's `kind` cell)."""
EVERY = frozenset(KINDS)


class Input(NamedTuple):
    """One input of a hand."""

    name: str
    type: str  # a Type
    kinds: frozenset[str]  # the kinds of hand it belongs to
    help: str  # for the command line's option ("" for an input that has none)
    since: int = 1  # the format version whose column holds it (0: no column of its own)
    word: str = ""  # the option's word, where it is not the name's (--partner for partners)
    metavar: str = ""
    amend_help: str = ""  # the help under `amend`, where it differs
    required: bool = False  # a picker hand cannot be made without it (`build_hand` asks)

    @property
    def option(self) -> str:
        """The option's word: `partner` for partners, `leaster-points` for leaster_points."""
        return self.word or self.name.replace("_", "-")

    @property
    def empty(self) -> Any:
        """What the input holds when nobody gave it."""
        return {
            Type.NAMES: (),
            Type.FLAG: False,
            Type.COUNT: 0,
            Type.KIND: False,
            Type.BOCK: "",
        }.get(self.type)

    def given(self, value: Any) -> bool:
        """Whether `value` says something (not left out, a flag not set, a count not 0)."""
        if isinstance(value, (tuple, list)):  # (names: none given is not given)
            return bool(value)
        return not (
            value is None
            or value is False
            or (value == 0 and self.type == Type.COUNT)
            or (value == "" and self.type == Type.BOCK)
        )


def _k(*kinds: str) -> frozenset[str]:
    return frozenset(kinds)


# In the order the command line lists the options (the session file's columns keep the order
# of the format that brought them: see store.format.COLUMNS).
INPUTS = (
    Input(
        "dealer",
        Type.NAME,
        EVERY,
        "Who dealt. Default: the last player listed (a session: whoever is next).",
        metavar="NAME",
        amend_help="Who dealt. Default: as recorded.",
    ),
    Input(
        "picker",
        Type.NAME,
        _k(PICKER),
        "Who picked (in Schafkopf: the declarer).",
        metavar="NAME",
        required=True,
    ),
    Input(
        "partners",
        Type.NAMES,
        _k(PICKER),
        "The picker's partner (repeatable).",
        word="partner",
        metavar="NAME",
    ),
    Input(
        "called",
        Type.CALL,
        _k(PICKER),
        "What the picker called: the ace's suit (clubs, spades, hearts), ten-SUIT for a called "
        "ten, unknown for an unknown-card call; Schafkopf: the called Sau (eichel, gras, "
        "schellen; or acorns, leaves, bells).",
        since=9,
        metavar="SUIT",
        amend_help="What the picker called (as for hand); none: nothing noted.",
    ),
    Input("alone", Type.FLAG, _k(PICKER), "The picker went alone."),
    Input(
        "smith", Type.FLAG, _k(PICKER), "The picker took no trick himself (smith_rule).", since=10
    ),
    Input(
        "points",
        Type.INT,
        _k(PICKER),
        "Card points of the picker's side, bury included (0-120).",
        metavar="N",
        required=True,
    ),
    Input(
        "tricks",
        Type.INT,
        _k(PICKER),
        "Tricks the picker's side took. Without it, each side is taken to have won a trick.",
        metavar="N",
    ),
    Input(
        "crack",
        Type.NAME,
        _k(PICKER),
        "A defender cracked (Stoss in Schafkopf): x2.",
        metavar="NAME",
    ),
    Input("recrack", Type.FLAG, _k(PICKER), "The picker's side re-cracked (Gegenstoss): x2 more."),
    Input("forced", Type.FLAG, _k(PICKER), "The dealer was forced to pick (all_pass = forced)."),
    Input(
        "blitz",
        Type.COUNT,
        _k(PICKER),
        "Blitzes shown, 0 to 2 (where the rules play blitz): black queens, red queens.",
        metavar="N",
    ),
    Input("game", Type.GAME, _k(PICKER), "Schafkopf: the game declared. Default: partner."),
    Input(
        "runs",
        Type.INT,
        _k(PICKER),
        "Schafkopf: runs (consecutive top trumps held by one side).",
        metavar="N",
    ),
    Input("leaster", Type.KIND, _k(LEASTER), "Nobody picked: a leaster.", since=0),
    Input("winner", Type.NAME, _k(LEASTER), "Leaster: who won.", metavar="NAME"),
    Input(
        "leaster_points",
        Type.COUNTS,
        _k(LEASTER),
        "Leaster: each player's card points (adding up to 120); scorepad finds the winner.",
        metavar="A=N,B=N,...",
    ),
    Input(
        "leaster_tricks",
        Type.COUNTS,
        _k(LEASTER),
        "Leaster: each player's tricks.",
        metavar="A=N,B=N,...",
    ),
    Input(
        "blind_points",
        Type.INT,
        _k(LEASTER),
        "Leaster with leaster_blind = set-aside: the card points of the blind, which count for "
        "nobody (⟨leaster_points⟩ then add up to 120 less them).",
        since=4,
        metavar="N",
    ),
    Input(
        "schwanzer",
        Type.KIND,
        _k(SCHWANZER),
        "Nobody picked and the table plays schwanzer (all_pass = schwanzer).",
        since=0,
    ),
    Input(
        "schwanzer_points",
        Type.COUNTS,
        _k(SCHWANZER),
        "Schwanzer: each player's schwanzer points as dealt (queen 3, jack 2, other trump 1); "
        "the most loses.",
        since=4,
        metavar="A=N,B=N,...",
    ),
    Input(
        "losers",
        Type.NAMES,
        _k(SCHWANZER, RAMSCH),
        "Schwanzer: who had the most schwanzer points (repeatable, for a tie). Ramsch: who took "
        "the most card points (settles a tie).",
        since=4,
        word="loser",
        metavar="NAME",
    ),
    Input(
        "highest_trump",
        Type.NAME,
        _k(SCHWANZER, RAMSCH),
        "Schwanzer or Ramsch: of the players tied, who holds the highest trump (schwanzer_tie, "
        "ramsch_tie = highest-trump).",
        since=10,
        metavar="NAME",
    ),
    Input(
        "ramsch",
        Type.KIND,
        _k(RAMSCH),
        "Nobody played and the table plays Ramsch (all_pass = ramsch).",
        since=0,
    ),
    Input(
        "ramsch_points",
        Type.COUNTS,
        _k(RAMSCH),
        "Ramsch: each player's card points (adding up to 120); the most loses.",
        since=5,
        metavar="A=N,B=N,...",
    ),
    Input(
        "jungfrau",
        Type.NAMES,
        _k(RAMSCH),
        "Ramsch: a player who took no trick (repeatable).",
        since=5,
        metavar="NAME",
    ),
    Input(
        "durchmarsch",
        Type.NAME,
        _k(RAMSCH),
        "Ramsch: one player took every trick (paid as durchmarsch_value says).",
        since=5,
        metavar="NAME",
    ),
    Input(
        "knocks",
        Type.COUNT,
        _k(PICKER, RAMSCH),
        "Schafkopf: knocks (Klopfen, Legen) before the game, x knock_factor each.",
        since=5,
        metavar="N",
    ),
    Input(
        "stoss",
        Type.COUNT,
        _k(PICKER),
        "Schafkopf: Stoss calls (Kontra, Re, ...), x2 each, up to max_stoss.",
        since=5,
        metavar="N",
    ),
    Input(
        "scores",
        Type.COUNTS,
        _k(MANUAL),
        "A hand the table scores itself: each seated player's game points, as whole numbers "
        "(adding up to 0 under a zero-sum settlement).",
        since=10,
        metavar="A=N,B=N,...",
    ),
    Input(
        "last",
        Type.FLAG,
        EVERY,
        "The night's last hand, doubled (last_hand_doubled = true).",
        since=4,
    ),
    # Inputs each command offers in its own words (or works out itself).
    Input("out", Type.NAMES, EVERY, "", metavar="NAME"),
    Input("doubled", Type.COUNT, EVERY, ""),
    Input("bock", Type.BOCK, EVERY, "", since=8),
    # A penalty's (`scorepad penalty` has options of its own).
    Input("offender", Type.NAME, _k(PENALTY), "", since=4),
    Input("penalty", Type.INT, _k(PENALTY), "", since=4),
    Input("paid_to", Type.NAME, _k(PENALTY), "", since=4, word="to"),
)
BY_NAME: Mapping[str, Input] = {i.name: i for i in INPUTS}
OPTIONS = tuple(i for i in INPUTS if i.help)
"""The inputs that `check`, `hand` and `amend` take as options, in the order they list them."""
SELECTORS = tuple(i for i in INPUTS if i.type == Type.KIND)
"""The inputs that say a hand is not a picker's (`--leaster`, `--schwanzer`, `--ramsch`)."""


def only(kind: str) -> tuple[str, ...]:
    """The inputs of `kind` of hand and of no other (a picker's: picker, partners, ...; not
    the dealer, which every hand has, nor knocks, which a Ramsch has too)."""
    return tuple(i.name for i in OPTIONS if i.kinds == {kind} and i.type != Type.KIND)


def given(values: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The inputs among `names` that `values` gives (flags set, counts above 0)."""
    return [n for n in names if BY_NAME[n].given(values.get(n))]


def kind_given(values: Mapping[str, Any]) -> str | None:
    """The kind of hand the selectors in `values` name (None: none of them); two name a
    HandError."""
    kinds = [s.name for s in SELECTORS if values.get(s.name)]
    if values.get("scores") is not None:  # (`--scores` alone says the table scored it)
        kinds.append(MANUAL)
    if len(kinds) > 1 and MANUAL in kinds:
        raise HandError(
            _("{kinds} and {scores}: a hand the table scores itself is of no other kind").format(
                kinds=field(kinds[0]), scores=field("scores")
            )
        )
    if len(kinds) > 1:
        raise HandError(
            _("{kinds} and {kinds2}: everyone passed once, and the table plays one").format(
                kinds=field(kinds[0]), kinds2=field(kinds[1])
            )
        )
    return kinds[0] if kinds else None


# The kinds in the order a hand's inputs are checked against them: an input that belongs only to
# kinds earlier in this order than the hand's is named with the kind to add, any other that does
# not belong is named as not belonging. (So `--jungfrau` with a leaster says to add --ramsch.)
_CHAIN = ((MANUAL, ""), (RAMSCH, "belongs to a Ramsch"),
          (SCHWANZER, "belongs to a schwanzer or a Ramsch"), (LEASTER, "belongs to a leaster"),
          (PICKER, ""))  # fmt: skip


def _check_belongs(values: Mapping[str, Any], kind: str) -> None:
    """A HandError for the first input given that does not belong with `kind` of hand."""
    before: set[str] = set()
    for other, belongs in _CHAIN:
        if other == kind:
            break
        before.add(other)
        hints = [i.name for i in OPTIONS if other in i.kinds and i.kinds <= before]
        stray = given(values, [n for n in hints if kind not in BY_NAME[n].kinds])
        if stray:
            raise HandError(
                _("{stray} {belongs}; add {other}").format(
                    stray=field(stray[0]), belongs=belongs, other=field(other)
                )
            )
    foreign = [i.name for i in OPTIONS if kind not in i.kinds and i.type != Type.KIND]
    stray = given(values, foreign)
    if stray:
        named = field("scores" if kind == MANUAL else kind)  # (`--scores` says it: no selector)
        raise HandError(
            _("{stray} does not belong with {kind}").format(stray=field(stray[0]), kind=named)
        )


def check_doubler(values: Mapping[str, Any], kind: str = "doubler") -> None:
    """A thrown-in hand (all_pass = doubler, or `kind` pot: passed into the pot) has no inputs
    but its dealer: a HandError names the first other input given."""
    stray = given(values, [i.name for i in OPTIONS if i.name != "dealer"])
    if stray:
        raise HandError(
            _("{stray} does not belong with {value}").format(
                stray=field(stray[0]), value=field(kind)
            )
        )


def build_hand(
    players: Sequence[str], values: Mapping[str, Any], out: Sequence[str] = ()
) -> "Hand":
    """The hand that the inputs `values` describe (keyed by input name; what is missing is not
    given): a `PickerHand`, or the `LeasterHand`, `SchwanzerHand` or `RamschHand` its selector
    names. A HandError names the first input that does not fit."""
    from .scoring import RECORDS

    kind = kind_given(values) or PICKER
    _check_belongs(values, kind)
    if kind == PICKER:
        declared = GAMES_BY_NAME.get(values.get("game") or "partner")
        if values.get("points") is None and declared and declared.won_by == WonBy.NO_TRICK:
            values = {**values, "points": 0}  # (a bettel is won or lost on tricks alone)
        for needed in (i.name for i in INPUTS if i.required and PICKER in i.kinds):
            if values.get(needed) is None:
                raise HandError(
                    _("Missing option '{needed}' (or give {leaster})").format(
                        needed=field(needed), leaster=field(LEASTER)
                    )
                )
    record = RECORDS[kind]
    inputs: dict[str, Any] = {"players": tuple(players)}
    for name in record._fields[1:]:
        value = out if name == "out" else values.get(name)
        if value is None:
            value = BY_NAME[name].empty
        inputs[name] = tuple(value) if BY_NAME[name].type == Type.NAMES else value
    return record(**inputs)


def amend_changes(values: Mapping[str, Any], out: Sequence[str] = ()) -> dict[str, Any]:
    """The recorded inputs that an amendment's given inputs replace: those given, and, when a
    kind of hand is named (a picker, or a selector), the inputs of the other kinds cleared.
    `values` holds the amendment's inputs keyed by name (None: not given; a flag False is its
    `--no-` form), and `no_crack` says nobody cracked."""
    changes: dict[str, Any] = {}
    for i in OPTIONS:
        value = values.get(i.name)
        if i.type == Type.KIND or value is None:
            continue
        if i.type != Type.NAMES:
            changes[i.name] = value
        elif value:
            changes[i.name] = tuple(value)
    if values.get("partners"):
        changes["alone"] = False
    if values.get("alone"):
        changes["partners"] = ()
        changes.setdefault("called", None)  # (a picker alone called nothing)
    if values.get("no_crack"):
        changes.update(crack=None, recrack=False)
    if out:
        changes["out"] = tuple(out)
    kind = kind_given(values)
    if kind is None and values.get("picker") is not None:
        kind = PICKER
    if kind is None:
        return changes
    stray = given(values, [n for k in KINDS if k != kind for n in only(k)])
    if stray:
        named = field("scores" if kind == MANUAL else kind)
        raise HandError(
            _("{stray} does not belong with {kind}").format(stray=field(stray[0]), kind=named)
        )
    for i in OPTIONS:  # the inputs of the hand's other kinds go
        if i.kinds != EVERY and kind not in i.kinds and i.type != Type.KIND:
            changes.setdefault(i.name, i.empty)
    if kind == RAMSCH:
        changes["game"] = "ramsch"
    return changes
