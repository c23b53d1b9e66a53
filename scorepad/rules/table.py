"""A validated rules table (`Rules`) and how one head count is dealt (`Deal`)."""

import functools
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from ..errors import RulesError
from ..i18n import gettext as _
from ..i18n import language
from ..names import Family
from .settings import (
    DEAL_BY_FIELD,
    DEFAULT_PRESET,
    SCALAR_BY_KEY,
    SCALARS,
    STORED_WHEN_SET,
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

    Its fields are the settings (`SCALARS`, in the order of `Setting`s there is no need to
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
    alone_multiplier: int
    alone_no_trick: str
    smith_rule: bool
    # Every family:
    schwanzer_tie: str
    # Schafkopf only:
    ramsch_tie: str
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
        for setting in SCALARS:
            if setting.family in (None, self.family):
                out[setting.key] = getattr(self, setting.key)
        for players in sorted(self.deals):
            deal = self.deals[players]
            for name in DEAL_BY_FIELD:
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
        settings it stores only when they are set (`STORED_WHEN_SET`), which a scorepad that
        does not know them could not read.
        """
        nested: dict[str, Any] = {"preset": self.preset}
        for key, value in self.flat().items():
            if stored and key in STORED_WHEN_SET and value == SCALAR_BY_KEY[key].default:
                continue
            node = nested
            *path, last = key.split(".")
            for part in path:
                node = node.setdefault(part, {})
            node[last] = list(value) if isinstance(value, tuple) else value
        return nested


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
