"""The rules table: every setting a table can choose, the bundled presets, and overrides.

A table is read from TOML (a bundled preset, or a user's file that may start from a preset), then
`--set KEY=VALUE` overrides are laid over it. Internally every setting has a dotted key
(`double_on_the_bump`, `deal.5.partners`, `game_values.solo`), which makes overlaying, validating
and printing one simple pass over a flat mapping.
"""

import functools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from itertools import pairwise
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from .errors import RulesError, worded
from .games import BASE_GAMES, CORE_GAMES, RUNS_MIN_GAMES, VALUED
from .i18n import gettext as _
from .i18n import language
from .names import FAMILIES, PRESETS, Family

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
            return _("a whole number {low} to {high:,}").format(low=self.low, high=self.highest)
        if self.kind == "amount":
            return _("none, or an amount above zero of at most {high:,}, e.g. 0.25").format(
                high=MAX_AMOUNT
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
            if not 1 <= len(value) <= 5 or value.startswith(("=", "+", "-", "@")):
                raise self._bad(value)
            value = _checked_text(self.key, value)
        else:
            value = _checked_text(self.key, value)
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


def _checked_text(key: str, text: str) -> str:
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


_SCALARS = (
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
        "money per game point for settle, season and the board (none: 1 for settle, none on the board)",
        default="",
    ),
    Setting(
        "currency", "symbol", "the currency amounts are shown in (a symbol or code)", default="$"
    ),
)
_DEAL_FIELDS = (
    Setting("cards", "int", "cards dealt to each player (the tricks in a hand)", low=1, high=16),
    Setting("blind", "int", "cards in the blind", low=0, high=8),
    Setting("partners", "int", "most partners the picker can have", low=0, high=3),
    Setting("call", "choice", "how the partner is found", CALLS),
)
SETTINGS = (*_SCALARS, *_DEAL_FIELDS)
"""Every setting declared once (those of a deal, `deal.N.KEY`, by their KEY)."""
_SCALAR_BY_KEY = {s.key: s for s in _SCALARS}
# Settings a table stores only when they differ from their default (which a table without
# them takes): a session that does not use them stays readable by a scorepad that does not
# know them (one that reads its format).
_STORED_WHEN_SET = frozenset(
    (
        "pot_ante",
        "pot_split",
        "pot_max",
        "bock_after",
        "bock_hands",
        "bock_factor",
        "bock_stacking",
        "rate",
        "currency",
    )
)
_DEAL_BY_FIELD = {s.key: s for s in _DEAL_FIELDS}
_SCHAFKOPF_REQUIRED = ("schneider_bonus", "schwarz_bonus")


def _setting_for(key: str, known_keys: Iterable[str] = ()) -> Setting:
    """The setting a dotted key names; unknown keys are an error that lists the valid ones."""
    if key in _SCALAR_BY_KEY:
        return _SCALAR_BY_KEY[key]
    parts = key.split(".")
    if len(parts) == 3 and parts[0] == "deal" and parts[2] in _DEAL_BY_FIELD:
        if not re.fullmatch(r"[2-8]", parts[1]):
            raise RulesError(
                _("{key}: a deal is for 2 to 8 players, e.g. deal.5.{parts}").format(
                    key=key, parts=parts[2]
                )
            )
        base = _DEAL_BY_FIELD[parts[2]]
        return Setting(key, base.kind, base.help, base.choices, base.low, base.high)
    if len(parts) == 2 and parts[0] == "game_values" and parts[1] in VALUED:
        return Setting(
            key,
            "int",
            _("Schafkopf: base value of a {game} game").format(game=parts[1]),
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

    valid = sorted(set(_SCALAR_BY_KEY) | set(known_keys))
    close = difflib.get_close_matches(key, valid, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise RulesError(
        _(
            "unknown setting {key!r}{hint}; valid settings: {valid}, "
            "deal.N.cards|blind|partners|call, game_values.GAME, runs_min.GAME, "
            "runs_max.GAME"
        ).format(key=key, hint=hint, valid=", ".join(valid))
    )


_NO_VALUES: Mapping[str, int] = MappingProxyType({})  # (immutable: every table can share it)


class Deal(NamedTuple):
    """How one head count is dealt: cards each, the blind, and the picker's partners."""

    cards: int
    blind: int
    partners: int
    call: str


class Rules(NamedTuple):
    """A validated rules table. Build one with `load_rules`.

    Its fields are the settings (`_SCALARS`, in the order of `Setting`s there is no need to
    keep: `_build` names each), with no defaults of their own: a setting's default and its
    value in a table of the other family are the `Setting`'s (a test holds the two together)."""

    name: str
    description: str
    family: str
    settlement: str
    target: int
    base: int
    schneider_win: int
    schneider_loss: int
    double_on_the_bump: bool
    bump_factor: int
    bump_on_forced: bool
    all_pass: str
    leaster_payout: int
    pot_ante: int
    pot_split: str
    pot_max: int
    must_take_trick: bool
    leaster_tie: str
    doubler_stacking: str
    max_doubled_hands: int
    max_multiplier: int
    cracks: bool
    crack_by: str
    crack_factor: int
    recrack_factor: int
    seats: int
    sit_out: str
    deals: Mapping[int, Deal]
    # Sheepshead only (Schafkopf has its tariff instead):
    level_multipliers: tuple[int, int, int]
    level3_by: str
    partner_free_on_no_trick: bool
    blitz: bool
    sixty_sixty: str
    leaster_blind: str
    # Every family:
    partner_split: str
    leaster_scoring: str
    leaster_places: tuple[int, ...]
    keep_called_suit: bool
    bump_on_no_trick: bool
    last_hand_doubled: bool
    points_check: str
    # Schafkopf only:
    schneider_bonus: int
    schwarz_bonus: int
    run_value: int
    tout_scoring: str
    jungfrau: str
    durchmarsch_value: str
    knock_factor: int
    max_stoss: int
    # Every family: Bock rounds
    bock_after: tuple[str, ...]
    bock_hands: int
    bock_factor: int
    bock_stacking: str
    # Every family: the money
    rate: str  # money per game point, as decimal text ("": not set)
    currency: str
    game_values: Mapping[str, int] = _NO_VALUES
    runs_min: Mapping[str, int] = _NO_VALUES
    runs_max: Mapping[str, int] = _NO_VALUES
    preset: str = DEFAULT_PRESET  # the bundled preset this table was laid over
    source: str = DEFAULT_PRESET  # where it was read from: a preset's name or a file's path
    overrides: tuple[str, ...] = ()

    @property
    def zero_sum(self) -> bool:
        """Whether every hand must sum to zero."""
        return self.settlement == "zero-sum"

    @property
    def is_schafkopf(self) -> bool:
        return self.family == Family.SCHAFKOPF

    def summary(self) -> str:
        """The rules in force in a few words: 'pagat, with base=2', in the language in force
        (a session file keeps it in English: see `stored_summary_words`)."""
        return summary_words(self.name, self.source, self.preset, ", ".join(self.overrides))

    def deal_for(self, players: int) -> Deal | None:
        """The deal for this many active players, or None when these rules have none."""
        return self.deals.get(players)

    def deal(self, players: int) -> Deal:
        """The deal for this many active players (a RulesError when these rules have none)."""
        found = self.deals.get(players)
        if found is None:
            counts = ", ".join(str(n) for n in sorted(self.deals))
            raise RulesError(
                _("{name} rules deal for {counts} players, not {players}").format(
                    name=self.name, counts=counts, players=players
                )
            )
        return found

    def flat(self) -> dict[str, Any]:
        """Every setting of this table by dotted key, in display order."""
        out: dict[str, Any] = {}
        for setting in _SCALARS:
            if setting.family in (None, self.family):
                out[setting.key] = getattr(self, setting.key)
        for players in sorted(self.deals):
            deal = self.deals[players]
            for name in _DEAL_BY_FIELD:
                out[f"deal.{players}.{name}"] = getattr(deal, name)
        for game, value in self.game_values.items():
            out[f"game_values.{game}"] = value
        for game, value in self.runs_min.items():
            out[f"runs_min.{game}"] = value
        for game, value in self.runs_max.items():
            out[f"runs_max.{game}"] = value
        return out

    def to_dict(self, stored: bool = False) -> dict[str, Any]:
        """The table as nested data, ready for TOML or JSON (and `rules_from_dict`).

        It names the preset it was laid over, so a file written from it loads as a rules file
        to the very same table. `stored`: as a session or a tournament keeps it, without the
        settings it stores only when they are set (`_STORED_WHEN_SET`), which a scorepad that
        does not know them could not read.
        """
        nested: dict[str, Any] = {"preset": self.preset}
        for key, value in self.flat().items():
            if stored and key in _STORED_WHEN_SET and value == _SCALAR_BY_KEY[key].default:
                continue
            node = nested
            *path, last = key.split(".")
            for part in path:
                node = node.setdefault(part, {})
            node[last] = list(value) if isinstance(value, tuple) else value
        return nested


def format_value(value: Any) -> str:
    """A setting's value as a user would type it after `--set KEY=`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)) and not value:
        return "none"  # (leaster_places: no places)
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def _flatten(data: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and dotted.count(".") >= 2:
            raise RulesError(
                _("{dotted}: tables nest at most three deep (deal.5.cards)").format(
                    dotted=dotted[:60]
                )
            )
        if isinstance(value, Mapping):
            yield from _flatten(value, dotted + ".")
        else:
            yield dotted, value


def _checked_flat(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Flatten a TOML table and check every key and value, naming `where` in errors."""
    flat: dict[str, Any] = {}
    for key, value in _flatten(data):
        try:
            flat[key] = _setting_for(key).check(value)
        except RulesError as exc:
            raise RulesError(f"{where}: {exc}") from None
    return flat


def _build(flat: Mapping[str, Any], preset: str, source: str, overrides: tuple[str, ...]) -> Rules:
    """Make a `Rules` from a complete flat table, checking that its settings fit together."""
    family = flat.get("family", "sheepshead")
    defaults = {
        s.key: s.default for s in _SCALARS if s.default is not None and s.family in (None, family)
    }
    if family == "schafkopf":
        # (a Schafkopf table stored before the setting did not keep the called suit)
        defaults["keep_called_suit"] = False
        defaults.update({f"runs_max.{g}": 0 for g in BASE_GAMES})
    flat = {**defaults, **flat}
    required = [s.key for s in _SCALARS if s.family in (None, family)]
    if family == "schafkopf":
        required += [f"game_values.{g}" for g in CORE_GAMES]
        required += [f"runs_min.{g}" for g in BASE_GAMES]
    missing = [key for key in required if key not in flat]
    if missing:
        raise RulesError(
            _("{source}: missing settings: {missing}").format(
                source=source, missing=", ".join(missing)
            )
        )
    stray = [k for k in flat if _setting_for(k).family not in (None, family)]
    if stray:
        raise RulesError(
            _("{source}: {stray}: not a setting of {family} rules").format(
                source=source, stray=", ".join(stray), family=family
            )
        )

    deals: dict[int, Deal] = {}
    head_counts = sorted({int(k.split(".")[1]) for k in flat if k.startswith("deal.")})
    for players in head_counts:
        fields = {}
        for name in _DEAL_BY_FIELD:
            key = f"deal.{players}.{name}"
            if key not in flat:
                raise RulesError(
                    _(
                        "{source}: deal.{players} needs cards, blind, partners and call (missing "
                        "{key})"
                    ).format(source=source, players=players, key=key)
                )
            fields[name] = flat[key]
        deal = Deal(**fields)
        deck = players * deal.cards + deal.blind
        if deck not in DECK_SIZES:
            raise RulesError(
                _(
                    "{source}: deal.{players}: {players} players x {cards} cards + {blind} "
                    "in the blind is {deck} cards, not a 32- or 24-card pack"
                ).format(
                    source=source, players=players, cards=deal.cards, blind=deal.blind, deck=deck
                )
            )
        if deal.partners > players - 2:
            raise RulesError(
                _(
                    "{source}: deal.{players}.partners: at most {players2} partners leave "
                    "anyone to defend"
                ).format(source=source, players=players, players2=players - 2)
            )
        if (deal.partners == 0) != (deal.call == "none"):
            raise RulesError(
                _(
                    "{source}: deal.{players}: call = {call!r} does not fit partners = {partners}"
                ).format(source=source, players=players, call=deal.call, partners=deal.partners)
            )
        deals[players] = deal
    if not deals:
        raise RulesError(
            _("{source}: no deal table: add [deal.5] (cards, blind, partners, call)").format(
                source=source
            )
        )
    if family == "schafkopf" and any(d.blind for d in deals.values()):
        raise RulesError(_("{source}: Schafkopf deals have no blind").format(source=source))
    if flat["all_pass"] == "ramsch" and "game_values.ramsch" not in flat:
        raise RulesError(
            _(
                "{source}: all_pass = ramsch needs a Schafkopf table with "
                'game_values.ramsch (e.g. preset = "bavarian")'
            ).format(source=source)
        )

    if flat["all_pass"] == "pot" and flat["settlement"] != "zero-sum":
        raise RulesError(
            _(
                "{source}: all_pass = pot needs settlement = zero-sum (a race has no pot to "
                "pay into)"
            ).format(source=source)
        )

    places = tuple(flat["leaster_places"])
    if places and flat["leaster_scoring"] != "fewest-wins":
        raise RulesError(
            _(
                "{source}: leaster_places pays the fewest card points, so it needs "
                "leaster_scoring = fewest-wins (or leaster_places=none)"
            ).format(source=source)
        )
    if places and not any(leaster_places_divide(places, n) for n in deals):
        counts = ", ".join(str(n) for n in deals)
        raise RulesError(
            _(
                "{source}: leaster_places = {format_value}: the {sum} they pay does not "
                "divide into equal shares among the other players at any table these "
                "rules deal for ({counts} players)"
            ).format(
                source=source, format_value=format_value(places), sum=sum(places), counts=counts
            )
        )

    values = {s.key: flat[s.key] if s.family in (None, family) else s.elsewhere for s in _SCALARS}
    return Rules(
        **values,
        deals=MappingProxyType(deals),
        game_values=MappingProxyType(
            {g: flat[f"game_values.{g}"] for g in VALUED if f"game_values.{g}" in flat}
        ),
        runs_min=MappingProxyType(
            {g: flat[f"runs_min.{g}"] for g in RUNS_MIN_GAMES if f"runs_min.{g}" in flat}
        ),
        runs_max=MappingProxyType(
            {g: flat[f"runs_max.{g}"] for g in BASE_GAMES if f"runs_max.{g}" in flat}
        ),
        preset=preset,
        source=source,
        overrides=overrides,
    )


def leaster_places_divide(places: Sequence[int], players: int) -> bool:
    """Whether the players a leaster of `players` does not place can pay `places` (leaster_places)
    in equal shares: at least one of them, each paying a whole number."""
    payers = players - len(places)
    return payers >= 1 and sum(places) % payers == 0


def _preset_flat(name: str) -> dict[str, Any]:
    import tomllib  # only when a preset is read, not when a session replays its own table

    # (beside this module in the package: importlib.resources would cost more to import than
    # reading the file takes)
    text = (Path(__file__).parent / "presets" / f"{name}.toml").read_text("utf-8")
    return _checked_flat(tomllib.loads(text), f"preset {name}")


def preset_value(preset: str, key: str) -> Any:
    """A setting's value as a bundled preset writes it (None where it leaves it out, or for a
    preset there is no longer)."""
    if preset not in PRESETS:
        return None
    return _checked_value(key, _preset_flat(preset).get(key))


def setting_default(key: str) -> Any:
    """A setting's default: the value a table that leaves it out holds."""
    return _setting_for(key).default


def _unknown_preset(spec: str) -> RulesError:
    import difflib

    close = difflib.get_close_matches(spec, PRESETS, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return RulesError(
        _(
            "unknown rules {spec!r}{hint}; presets: {presets}, or the path of a TOML rules file"
        ).format(spec=spec, hint=hint, presets=", ".join(PRESETS))
    )


def _file_flat(path: Path) -> tuple[dict[str, Any], str]:
    """Read a user's rules file: its flat table laid over the preset it names, and that name."""
    import tomllib

    try:
        if not path.is_file():
            raise RulesError(
                _("{path}: not a rules file (a TOML file is needed)").format(path=path)
            )
        with open(path, "rb") as handle:
            raw = handle.read(MAX_RULES_FILE + 1)
        if len(raw) > MAX_RULES_FILE:
            raise RulesError(
                _("{path}: a rules file has at most {max_rules_file} KiB").format(
                    path=path, max_rules_file=MAX_RULES_FILE // 1024
                )
            )
        data = tomllib.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise RulesError(
            _("{path}: cannot read rules file: {value}").format(
                path=path, value=exc.strerror or exc
            )
        ) from None
    except UnicodeDecodeError:
        raise RulesError(_("{path}: not a UTF-8 text file").format(path=path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(_("{path}: not valid TOML: {exc}").format(path=path, exc=exc)) from None
    except (RecursionError, ValueError) as exc:  # nested too deep, or a number too long
        raise RulesError(
            _("{path}: not a rules table scorepad can read ({exc})").format(path=path, exc=exc)
        ) from None
    preset = data.pop("preset", DEFAULT_PRESET)
    if preset not in PRESETS:
        raise RulesError(
            _("{path}: preset: {unknown_preset}").format(
                path=path, unknown_preset=_unknown_preset(str(preset))
            )
        )
    flat = _preset_flat(preset)
    own = _checked_flat(data, str(path))
    if "name" not in own:
        try:
            own["name"] = _checked_text("name", path.stem)
        except RulesError:
            own["name"] = "rules file"  # a file name that cannot stand in a cell is not used
    if own.get("family", flat["family"]) != flat["family"]:
        raise RulesError(
            _(
                '{path}: family: start from a {own} preset (preset = "schafkopf") to '
                "change the family"
            ).format(path=path, own=own["family"])
        )
    flat.update(own)
    return flat, preset


def parse_override(text: str) -> tuple[str, Any]:
    """Read one `KEY=VALUE` override into a dotted key and a checked value."""
    key, sep, value = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise RulesError(
            _("⟨set⟩ {text!r}: write KEY=VALUE, e.g. ⟨set⟩ double_on_the_bump=true").format(
                text=text
            )
        )
    try:
        return key, _setting_for(key).parse(value)
    except RulesError as exc:
        raise RulesError(_("⟨set⟩ {text}: {exc}").format(text=text, exc=exc)) from None


def summary_words(name: str, source: str, preset: str, overrides: str) -> str:
    """A table's summary (`Rules.summary`) from its parts, in the language in force: its name,
    where it was read from unless that is its name, and the overrides laid over it."""
    text = name
    if source != name:
        text = _("{name} ({source}, from {preset})").format(name=name, source=source, preset=preset)
    if overrides:
        text = _("{rules}, with {overrides}").format(rules=text, overrides=overrides)
    return text


@functools.cache  # (compiled when first needed)
def _stored_summary() -> re.Pattern[str]:
    return re.compile(r"(?P<name>.*?) \((?P<source>.*), from (?P<preset>[^(),]*)\)")


def stored_summary_words(note: str) -> str:
    """The summary a session file keeps (`Rules.summary` as it was written, in English: the
    file is never translated) in the language in force. It is read back into its parts, not
    made again from the stored settings, for only it keeps the overrides as they were typed
    and the file the rules were read from."""
    if language() == "en":
        return note
    head, _with, overrides = note.partition(", with ")
    found = _stored_summary().fullmatch(head)
    if found is None:
        return summary_words(head, head, "", overrides)
    return summary_words(found["name"], found["source"], found["preset"], overrides)


def load_rules(spec: str | None = None, overrides: Sequence[str] = ()) -> Rules:
    """Load a preset by name or a rules file by path, then apply `KEY=VALUE` overrides."""
    spec = spec or DEFAULT_PRESET
    if spec in PRESETS:
        flat, preset = _preset_flat(spec), spec
    else:
        path = Path(spec)
        if not path.is_file() and not spec.endswith(".toml") and "/" not in spec:
            raise _unknown_preset(spec)
        flat, preset = _file_flat(path)
    return _overridden(flat, preset, spec, overrides, (), dict(flat))


def changed(rules: Rules, overrides: Sequence[str]) -> Rules:
    """The table with some settings changed (`scorepad set KEY=VALUE`): the same family, every
    setting checked as `--set` checks it, the changes added to its overrides."""
    if not overrides:
        raise RulesError(_("give at least one KEY=VALUE, e.g. base=2"))
    flat = {k: (list(v) if isinstance(v, tuple) else v) for k, v in rules.flat().items()}
    # (what a setting set back is compared with: the preset the table was read from; a
    # table read from a file names every override, for the file may be gone)
    base = _preset_flat(rules.source) if rules.source == rules.preset else None
    new = _overridden(flat, rules.preset, rules.source, overrides, rules.overrides, base)
    if new.settlement != rules.settlement:
        raise RulesError(
            _(
                "settlement: a night keeps its settlement (a race cannot become zero-sum "
                "half way); start a new session for that"
            )
        )
    return new


def _overridden(
    flat: dict[str, Any],
    preset: str,
    source: str,
    overrides: Sequence[str],
    already: tuple[str, ...],
    base: Mapping[str, Any] | None,
) -> Rules:
    """The table with `overrides` laid over `flat`; its summary's overrides are those `already`
    made and these, each named once, and none that leaves a setting at its value in `base`
    (the table as read, before any override: None, name every one)."""
    applied = list(already)
    for text in overrides:
        key, value = parse_override(text)
        if _setting_for(key).family not in (None, flat["family"]):
            raise RulesError(
                _("⟨set⟩ {text}: {key} is not a setting of {flat} rules").format(
                    text=text, key=key, flat=flat["family"]
                )
            )
        if key == "family" and value != flat["family"]:
            raise RulesError(
                _(
                    "⟨set⟩ {text}: the family comes with the preset; use ⟨rules⟩ schafkopf "
                    "or a Sheepshead preset"
                ).format(text=text)
            )
        flat[key] = value
        applied = [a for a in applied if a.partition("=")[0] != key]
        if base is None or _checked_value(key, base.get(key, _setting_for(key).default)) != value:
            applied.append(f"{key}={format_value(value)}")
    return _build(flat, preset, source, tuple(applied))


def _checked_value(key: str, value: Any) -> Any:
    """A value as its setting keeps it (a list read from TOML as its tuple), or None."""
    if value is None:
        return None
    try:
        return _setting_for(key).check(value)
    except RulesError:  # pragma: no cover - (a preset's value is valid)
        return None


def rules_from_dict(data: Mapping[str, Any], source: str) -> Rules:
    """Rebuild a table from `Rules.to_dict()` output (e.g. as stored in a session file).

    The data must be complete: nothing is taken from the preset it names, so a table stored
    this way scores the same even after the bundled presets change.
    """
    data = dict(data)
    preset = data.pop("preset", DEFAULT_PRESET)
    if preset not in PRESETS:
        raise RulesError(
            _("{source}: preset: {unknown_preset}").format(
                source=source, unknown_preset=_unknown_preset(str(preset))
            )
        )
    return _build(_checked_flat(data, source), preset, source, ())


def values_of(key: str) -> tuple[str, ...]:
    """The values a setting takes, where they are few (a choice, true or false); else ()."""
    try:
        setting = _setting_for(key)
    except RulesError:
        return ()
    if setting.kind == "bool":
        return ("true", "false")
    return setting.choices if setting.kind in ("choice", "choices") else ()


def describe(rules: Rules) -> Iterator[tuple[str, str, str]]:
    """(setting, value, meaning) for every setting in force but the name and description (the
    meaning worded by the interface in force: it may name an input); a choice's meaning ends
    with its choices."""
    for key, value in rules.flat().items():
        if key not in ("name", "description"):
            setting = _setting_for(key)
            meaning = worded(_(setting.help))
            if setting.kind in ("choice", "choices"):
                meaning = _("{meaning} (choices: {choices})").format(
                    meaning=meaning, choices=", ".join(setting.choices)
                )
            yield key, format_value(value) or "none", meaning
