"""Every setting a rules table can choose: its key, kind, default, bounds and meaning (`SETTINGS`),
and how a dotted key (`double_on_the_bump`, `deal.5.partners`, `game_values.solo`) finds its
setting. The table itself is `table.Rules`; reading one is `loading`."""

import re
from collections.abc import Iterable
from decimal import Decimal
from itertools import pairwise
from typing import Any, NamedTuple

from ..errors import RulesError
from ..games import BASE_GAMES, RUNS_MIN_GAMES, VALUED
from ..i18n import N_, decimal_text
from ..i18n import gettext as _
from ..names import FAMILIES

DEFAULT_PRESET = "standard"
MAX_AMOUNT = 1_000_000  # the most any amount (a stake, a value, a target) may be
MAX_FACTOR = 16  # the most one doubling may multiply by
MAX_DOUBLED = 30  # the most doublers one hand is doubled by (x 2**30: past a billion)
MAX_PLACES = 7  # the most places a leaster pays (eight players leave one to pay them)
MAX_TEXT = 200  # the longest name or description of a rules table
MAX_RULES_FILE = 1 << 20  # the largest rules file read, in bytes
CALLS = ("none", "ace", "jack-of-diamonds")
BOCK_EVENTS = ("sixty-sixty", "schwarz", "re", "tout-lost", "jungfrau", "durchmarsch")
"""The events `bock_after` may name (after one, a Bock round follows)."""
MAX_BOCK_HANDS = 64  # the most hands a Bock round has (bock_hands)
MAX_BOCK = 4096  # the most a Bock hand is multiplied by (overlapping rounds, multiplied)
DECK_SIZES = (32, 24)
_BOOL_WORDS = {
    "true": True,
    "yes": True,
    "on": True,
    "1": True,
    "false": False,
    "no": False,
    "off": False,
    "0": False,
}


class Setting(NamedTuple):
    """One setting of the rules table: its key, the kind of value it takes, and what it means."""

    key: str
    kind: str  # "bool", "int", "choice", "choices", "text", "levels", "places", "amount"
    # or "symbol"
    help: str
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int | None = None
    family: str | None = None  # None: every family
    # The value of a setting a table written before it existed leaves out (today's rule then);
    # None: every table states it.
    default: Any = None
    # A setting of one family: the value a table of the other family holds (the rule as if
    # the setting were not there), so that scoring can read every setting of every table.
    elsewhere: Any = None
    # Whether scoring compares card points with it: a hand's points are then remembered by
    # their class under it (`scoring.points_class`, which reads exactly these settings).
    moves_points_class: bool = False

    def describe_valid(self) -> str:
        """Say which values are valid, for error messages."""
        if self.kind == "bool":
            return _("true or false")
        if self.kind == "choice":
            return _("one of {choices}").format(choices=", ".join(self.choices))
        if self.kind == "choices":
            return _("none, or some of {choices} (comma-separated)").format(
                choices=", ".join(self.choices)
            )
        if self.kind == "levels":
            return _("three whole numbers of at least 1, e.g. 1,2,3")
        if self.kind == "places":
            return _(
                "none, or up to {most} whole numbers of at least 1, each no more than "
                "the one before, e.g. 2,1"
            ).format(most=MAX_PLACES)
        if self.kind == "int":
            return _("a whole number {low} to {high}").format(
                low=self.low, high=decimal_text(f"{self.highest:,}")
            )
        if self.kind == "amount":
            return _("none, or an amount above zero of at most {high}, e.g. 0.25").format(
                high=decimal_text(f"{MAX_AMOUNT:,}")
            )
        if self.kind == "symbol":
            return _("a symbol of up to 5 printable characters, e.g. $, €, EUR")
        return _("any text")

    def parse(self, text: str) -> Any:
        """Turn the text of a `--set` value into a value of this setting's kind, checked."""
        raw = text.strip()
        if self.kind == "bool":
            value: Any = _BOOL_WORDS.get(raw.lower())
            if value is None:
                raise self._bad(text)
        elif self.kind == "int":
            if not re.fullmatch(r"[+-]?[0-9]{1,9}", raw):  # (not \d: any script's digits)
                raise self._bad(text)
            value = int(raw)
        elif self.kind == "choices":
            parts = [p.strip("'\" ") for p in re.split(r"[,\s]+", raw.strip("[]() ")) if p]
            value = [] if [p.lower() for p in parts] in ([], ["none"]) else parts
        elif self.kind in ("levels", "places"):
            parts = [p for p in re.split(r"[,/\s]+", raw.strip("[]() ")) if p]
            if self.kind == "places" and [p.lower() for p in parts] == ["none"]:
                parts = []
            if not all(re.fullmatch(r"[0-9]{1,9}", p) for p in parts):
                raise self._bad(text)
            value = [int(p) for p in parts]
        else:
            value = raw
        return self.check(value)

    def check(self, value: Any) -> Any:
        """Check a value (from TOML or parsed from text) and return it in canonical form."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise self._bad(value)
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise self._bad(value)
            if not self.low <= value <= self.highest:
                raise self._bad(value)
        elif self.kind == "choice":
            if value not in self.choices:
                raise self._bad(value)
        elif self.kind == "choices":
            if not isinstance(value, (list, tuple)) or not all(
                isinstance(v, str) and v in self.choices for v in value
            ):
                raise self._bad(value)
            # (each once, in the order of the choices: one table, one spelling)
            value = tuple(c for c in self.choices if c in value)
        elif self.kind == "levels":
            if (
                not isinstance(value, (list, tuple))
                or len(value) != 3
                or not all(
                    isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_AMOUNT
                    for v in value
                )
            ):
                raise self._bad(value)
            value = tuple(value)
        elif self.kind == "places":
            if (
                not isinstance(value, (list, tuple))
                or len(value) > MAX_PLACES
                or not all(
                    isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_AMOUNT
                    for v in value
                )
                or any(later > before for before, later in pairwise(value))
            ):
                raise self._bad(value)
            value = tuple(value)
        elif self.kind == "amount":
            value = self._amount(value)
        elif not isinstance(value, str):
            raise self._bad(value)
        elif self.kind == "symbol":
            if (
                not 1 <= len(value) <= 5
                or value.startswith(("=", "+", "-", "@"))
                or any(c.isdigit() for c in value)
            ):
                raise self._bad(value)
            value = checked_text(self.key, value)
        else:
            value = checked_text(self.key, value)
        return value

    def _amount(self, value: Any) -> str:
        """An amount (`rate`) in canonical form: its decimal text (`0.01`), or "" for none. It
        is kept as text, never as a float: the money is worked out in Decimals from it."""
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise self._bad(value)
        text = (repr(value) if isinstance(value, float) else str(value)).strip()
        if text.lower() in ("", "none"):
            return ""
        if not re.fullmatch(r"[0-9]{0,7}(\.[0-9]{1,6})?", text) or text in ("", "."):
            raise self._bad(value)
        amount = Decimal(text)
        if not 0 < amount <= MAX_AMOUNT:
            raise self._bad(value)
        return str(amount)

    @property
    def highest(self) -> int:
        """The largest whole number this setting takes (every amount has a bound)."""
        return MAX_AMOUNT if self.high is None else self.high

    def _bad(self, value: Any) -> RulesError:
        shown = value if isinstance(value, str) else format_value(value)
        if len(shown) > 40:
            shown = shown[:40] + "..."
        return RulesError(
            _("{key}: {shown!r} is not valid; use {describe_valid}").format(
                key=self.key, shown=shown, describe_valid=self.describe_valid()
            )
        )


def checked_text(key: str, text: str) -> str:
    """A name or description as it may be written into a session file and shown in a table."""
    if any(not c.isprintable() for c in text):
        raise RulesError(
            _("{key}: the text cannot hold line breaks or control characters").format(key=key)
        )
    if text.startswith(("=", "+", "-", "@")):
        raise RulesError(
            _(
                "{key}: {text!r} cannot start with {text2} (a spreadsheet would run it "
                "as a formula)"
            ).format(key=key, text=text[:40], text2=text[0])
        )
    if len(text) > MAX_TEXT:
        raise RulesError(
            _("{key}: at most {max_text} characters ({len_text} given)").format(
                key=key, max_text=MAX_TEXT, len_text=len(text)
            )
        )
    return text


SCALARS = (
    Setting("name", "text", "the name of this rules table"),
    Setting("description", "text", "what this table plays, in a line"),
    Setting("family", "choice", "the game: Sheepshead or its German parent Schafkopf", FAMILIES),
    Setting(
        "settlement",
        "choice",
        "zero-sum: every hand sums to 0; race: picker's side moves, first to target wins",
        ("zero-sum", "race"),
    ),
    Setting("target", "int", "race settlement: the total that wins the night", low=1),
    Setting("base", "int", "the stake of one level, in game points", low=1),
    Setting(
        "level_multipliers",
        "levels",
        "stake multipliers for a plain result, schneider, and no-trick",
        family="sheepshead",
        elsewhere=(1, 2, 3),
    ),
    Setting(
        "schneider_win",
        "int",
        "a win with at least these card points is schneider",
        low=61,
        high=120,
        moves_points_class=True,
    ),
    Setting(
        "schneider_loss",
        "int",
        "a loss with at most these card points is schneider",
        low=0,
        high=60,
        moves_points_class=True,
    ),
    Setting(
        "level3_by",
        "choice",
        "the top level: tricks (every trick / no trick) or points (120 / 0)",
        ("tricks", "points"),
        family="sheepshead",
        elsewhere="tricks",
    ),
    Setting("double_on_the_bump", "bool", "a loss by the picker's side pays double"),
    Setting(
        "bump_factor", "int", "double on the bump multiplies a loss by this", low=1, high=MAX_FACTOR
    ),
    Setting("bump_on_forced", "bool", "double on the bump applies to a forced pick too"),
    Setting(
        "all_pass",
        "choice",
        "what happens when everyone passes",
        ("leaster", "doubler", "forced", "redeal", "schwanzer", "ramsch", "pot"),
    ),
    Setting(
        "leaster_payout", "int", "a leaster winner receives this from each other player", low=1
    ),
    Setting("must_take_trick", "bool", "a leaster winner must have taken a trick"),
    Setting(
        "leaster_tie",
        "choice",
        "a tie for fewest in a leaster: name the winner, nobody paid, or share",
        ("name", "none", "share"),
    ),
    Setting(
        "doubler_stacking",
        "choice",
        "doublers in a row: queue (each doubles one later hand), multiply, or cap",
        ("queue", "multiply", "cap"),
    ),
    Setting(
        "max_doubled_hands",
        "int",
        "doubler_stacking = cap: most doubled hands pending",
        low=1,
        high=64,
    ),
    Setting(
        "pot_ante",
        "int",
        "all_pass = pot: what each player pays into the pot when everyone passes (0: the base)",
        default=0,
    ),
    Setting(
        "pot_split",
        "choice",
        "how the picker's side shares the pot: as the hand pays them (as-hand), or equally",
        ("as-hand", "equal"),
        default="as-hand",
    ),
    Setting(
        "pot_max",
        "int",
        "the most the pot holds after a lost hand pays into it (0: no cap)",
        default=0,
    ),
    Setting("max_multiplier", "int", "cap on the product of all doublings (0: no cap)"),
    Setting("cracks", "bool", "cracking (Stoss in Schafkopf) and re-cracking are allowed"),
    Setting(
        "crack_by",
        "choice",
        "who may crack: a defender seated after the picker, or any defender",
        ("after-picker", "defender"),
    ),
    Setting("crack_factor", "int", "a crack multiplies the stake by this", low=1, high=MAX_FACTOR),
    Setting(
        "recrack_factor",
        "int",
        "a re-crack multiplies the stake by this again",
        low=1,
        high=MAX_FACTOR,
    ),
    Setting(
        "partner_free_on_no_trick",
        "bool",
        "a loss without a trick: the picker pays it all, the partner nothing",
        family="sheepshead",
        elsewhere=False,
    ),
    Setting(
        "blitz",
        "bool",
        "showing both black (or both red) queens doubles the hand, x2 each",
        family="sheepshead",
        elsewhere=False,
    ),
    Setting(
        "seats",
        "int",
        "the players in a hand; with more at the table, sit_out decides",
        low=2,
        high=8,
    ),
    Setting(
        "sit_out",
        "choice",
        "who sits out when more people than seats are at the table",
        ("none", "dealer"),
    ),
    Setting(
        "bump_on_no_trick",
        "bool",
        "double on the bump applies to a loss without a trick too",
        default=True,
    ),
    Setting(
        "alone_multiplier",
        "int",
        "an alone picker settles the stake times this with each defender",
        low=1,
        high=MAX_FACTOR,
        family="sheepshead",
        default=1,
        elsewhere=1,
    ),
    Setting(
        "alone_no_trick",
        "choice",
        "an alone picker's side without a trick: the no-trick level, or the schneider level",
        ("no-trick", "schneider"),
        family="sheepshead",
        default="no-trick",
        elsewhere="no-trick",
    ),
    Setting(
        "smith_rule",
        "bool",
        "a picker who took no trick himself (hand ⟨smith⟩): his share goes to the partner on a "
        "win, and he pays the partner's on a loss",
        family="sheepshead",
        default=False,
        elsewhere=False,
    ),
    Setting(
        "schwanzer_tie",
        "choice",
        "a schwanzer tie: every tied player loses, or the one holding the highest trump",
        ("every-tied", "highest-trump"),
        default="every-tied",
    ),
    Setting(
        "ramsch_tie",
        "choice",
        "a Ramsch tie for the most: the loser named, or the one holding the highest trump",
        ("named", "highest-trump"),
        family="schafkopf",
        default="named",
        elsewhere="named",
    ),
    Setting(
        "sixty_sixty",
        "choice",
        "a 60-60 hand: a loss; a loss, next hand doubled; or not scored, next doubled",
        ("loss", "loss-double-next", "doubler"),
        family="sheepshead",
        default="loss",
        elsewhere="loss",
    ),
    Setting(
        "partner_split",
        "choice",
        "the picker's side: partners one share, the picker the rest; or equal shares",
        ("picker-rest", "equal"),
        default="picker-rest",
    ),
    Setting(
        "leaster_blind",
        "choice",
        "a leaster's blind: to the winner of the last trick, or set aside (to nobody)",
        ("last-trick", "set-aside"),
        family="sheepshead",
        default="last-trick",
        elsewhere="last-trick",
    ),
    Setting(
        "leaster_scoring",
        "choice",
        "a leaster: fewest card points wins, or the most pays each other player",
        ("fewest-wins", "most-loses"),
        default="fewest-wins",
    ),
    Setting(
        "leaster_places",
        "places",
        "places paid in a leaster, fewest first (e.g. 2,1); the others pay them equally",
        default=(),
    ),
    Setting(
        "last_hand_doubled",
        "bool",
        "the night's last hand (hand ⟨last⟩) is doubled",
        default=False,
    ),
    Setting(
        "points_check",
        "choice",
        "card points: what the cards of the tricks can hold (cards), or 0 to 120 (range)",
        ("cards", "range"),
        default="range",
        moves_points_class=True,
    ),
    Setting(
        "keep_called_suit",
        "bool",
        "replay: the caller keeps a card of the called suit until that suit is led",
        default=True,  # (Schafkopf tables stored without it: false; see _build)
    ),
    Setting(
        "schneider_bonus",
        "int",
        "Schafkopf: value added for schneider",
        family="schafkopf",
        elsewhere=0,
    ),
    Setting(
        "schwarz_bonus",
        "int",
        "Schafkopf: value added for schwarz",
        family="schafkopf",
        elsewhere=0,
    ),
    Setting(
        "run_value",
        "int",
        "Schafkopf: what each run counts",
        low=1,
        family="schafkopf",
        default=1,
        elsewhere=1,
    ),
    Setting(
        "tout_scoring",
        "choice",
        "Schafkopf: a tout is worth GAME-tout + runs (fixed), or (game + runs) x 2",
        ("fixed", "double"),
        family="schafkopf",
        default="fixed",
        elsewhere="fixed",
    ),
    Setting(
        "jungfrau",
        "choice",
        "Ramsch jungfrau: paid twice, doubles the hand, no extra, or paid x2 per jungfrau",
        ("double-own", "double-all", "off", "double-each"),
        family="schafkopf",
        default="double-own",
        elsewhere="double-own",
    ),
    Setting(
        "durchmarsch_value",
        "choice",
        "Ramsch durchmarsch: a solo won schwarz, a plain solo, or the Ramsch's price",
        ("solo-schwarz", "solo", "ramsch"),
        family="schafkopf",
        default="solo-schwarz",
        elsewhere="solo-schwarz",
    ),
    Setting(
        "knock_factor",
        "int",
        "Schafkopf: each knock (Klopfen, Legen) multiplies the stake by this",
        low=1,
        high=MAX_FACTOR,
        family="schafkopf",
        default=2,
        elsewhere=2,
    ),
    Setting(
        "bock_after",
        "choices",
        "the events after which a Bock round follows",
        BOCK_EVENTS,
        default=(),
    ),
    Setting(
        "bock_hands",
        "int",
        "the hands of a Bock round (0: one round, a hand for each seated player)",
        low=0,
        high=MAX_BOCK_HANDS,
        default=0,
    ),
    Setting(
        "bock_factor",
        "int",
        "a Bock hand multiplies the stake by this",
        low=2,
        high=MAX_FACTOR,
        default=2,
    ),
    Setting(
        "bock_stacking",
        "choice",
        "a Bock round earned in one: it follows (queue), or starts at once, overlaps x2 again",
        ("queue", "multiply"),
        default="queue",
    ),
    Setting(
        "max_stoss",
        "int",
        "Schafkopf: the most Stoss (Kontra, Re, ...) calls in a hand, x2 each",
        low=0,
        high=8,
        family="schafkopf",
        default=2,
        elsewhere=2,
    ),
    Setting(
        "rate",
        "amount",
        "money per game point for settle, season and the board (none: 1 for settle, none on "
        "the board)",
        default="",
    ),
    Setting(
        "currency", "symbol", "the currency amounts are shown in (a symbol or code)", default="$"
    ),
)
DEAL_FIELDS = (
    Setting("cards", "int", "cards dealt to each player (the tricks in a hand)", low=1, high=16),
    Setting("blind", "int", "cards in the blind", low=0, high=8),
    Setting("partners", "int", "most partners the picker can have", low=0, high=3),
    Setting("call", "choice", "how the partner is found", CALLS),
)
SETTINGS = (*SCALARS, *DEAL_FIELDS)
"""Every setting declared once (those of a deal, `deal.N.KEY`, by their KEY)."""
SCALAR_BY_KEY = {s.key: s for s in SCALARS}
# Settings a table stores only when they differ from their default (which a table without
# them takes): a session that does not use them stays readable by a scorepad that does not
# know them (one that reads its format).
# (a message of its own for each game: German names the game in its own case, "Grundwert des
# Rufspiels", "der Hochzeit")
BASE_VALUE_HELP = {
    "partner": N_("Schafkopf: base value of a partner game"),
    "solo": N_("Schafkopf: base value of a solo game"),
    "wenz": N_("Schafkopf: base value of a wenz game"),
    "geier": N_("Schafkopf: base value of a geier game"),
    "solo-tout": N_("Schafkopf: base value of a solo-tout game"),
    "wenz-tout": N_("Schafkopf: base value of a wenz-tout game"),
    "geier-tout": N_("Schafkopf: base value of a geier-tout game"),
    "hochzeit": N_("Schafkopf: base value of a hochzeit game"),
    "bettel": N_("Schafkopf: base value of a bettel game"),
    "farbwenz": N_("Schafkopf: base value of a farbwenz game"),
    "farbgeier": N_("Schafkopf: base value of a farbgeier game"),
    "farbwenz-tout": N_("Schafkopf: base value of a farbwenz-tout game"),
    "farbgeier-tout": N_("Schafkopf: base value of a farbgeier-tout game"),
    "sie": N_("Schafkopf: base value of a sie game"),
    "ramsch": N_("Schafkopf: base value of a ramsch game"),
}

STORED_WHEN_SET = frozenset(
    (
        "pot_ante",
        "pot_split",
        "pot_max",
        "bock_after",
        "bock_hands",
        "bock_factor",
        "bock_stacking",
        "alone_multiplier",
        "alone_no_trick",
        "smith_rule",
        "schwanzer_tie",
        "ramsch_tie",
        "rate",
        "currency",
    )
)
DEAL_BY_FIELD = {s.key: s for s in DEAL_FIELDS}
_SCHAFKOPF_REQUIRED = ("schneider_bonus", "schwarz_bonus")


def setting_for(key: str, known_keys: Iterable[str] = ()) -> Setting:
    """The setting a dotted key names; unknown keys are an error that lists the valid ones."""
    if key in SCALAR_BY_KEY:
        return SCALAR_BY_KEY[key]
    parts = key.split(".")
    if len(parts) == 3 and parts[0] == "deal" and parts[2] in DEAL_BY_FIELD:
        if not re.fullmatch(r"[2-8]", parts[1]):
            raise RulesError(
                _("{key}: a deal is for 2 to 8 players, e.g. deal.5.{parts}").format(
                    key=key, parts=parts[2]
                )
            )
        base = DEAL_BY_FIELD[parts[2]]
        return Setting(key, base.kind, base.help, base.choices, base.low, base.high)
    if len(parts) == 2 and parts[0] == "game_values" and parts[1] in VALUED:
        return Setting(
            key,
            "int",
            _(BASE_VALUE_HELP[parts[1]]),
            low=1,
            family="schafkopf",
        )
    if len(parts) == 2 and parts[0] == "runs_min" and parts[1] in RUNS_MIN_GAMES:
        return Setting(
            key,
            "int",
            _("Schafkopf: fewest runs that count in a {game} game").format(game=parts[1]),
            low=1,
            family="schafkopf",
        )
    if len(parts) == 2 and parts[0] == "runs_max" and parts[1] in BASE_GAMES:
        return Setting(
            key,
            "int",
            _("Schafkopf: most runs that count in a {game} game (0: no cap)").format(game=parts[1]),
            low=0,
            high=16,
            family="schafkopf",
        )
    import difflib

    valid = sorted(set(SCALAR_BY_KEY) | set(known_keys))
    close = difflib.get_close_matches(key, valid, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise RulesError(
        _(
            "unknown setting {key!r}{hint}; valid settings: {valid}, "
            "deal.N.cards|blind|partners|call, game_values.GAME, runs_min.GAME, "
            "runs_max.GAME"
        ).format(key=key, hint=hint, valid=", ".join(valid))
    )


def format_value(value: Any) -> str:
    """A setting's value as a user would type it after `--set KEY=`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)) and not value:
        return "none"  # (leaster_places: no places)
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def values_of(key: str) -> tuple[str, ...]:
    """The values a setting takes, where they are few (a choice, true or false); else ()."""
    try:
        setting = setting_for(key)
    except RulesError:
        return ()
    if setting.kind == "bool":
        return ("true", "false")
    return setting.choices if setting.kind in ("choice", "choices") else ()
