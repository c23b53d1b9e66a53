"""Reading a rules table: a bundled preset or a user's TOML file that may start from one, then
`--set KEY=VALUE` overrides laid over it. Every setting has a dotted key, which makes overlaying,
validating and printing one simple pass over a flat mapping."""

import functools
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import RulesError, worded
from ..games import BASE_GAMES, CORE_GAMES, RUNS_MIN_GAMES, VALUED
from ..i18n import gettext as _
from ..names import PRESETS
from .settings import (
    DEAL_BY_FIELD,
    DECK_SIZES,
    DEFAULT_PRESET,
    MAX_RULES_FILE,
    SCALARS,
    checked_text,
    format_value,
    setting_for,
)
from .table import Deal, Rules


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
            flat[key] = setting_for(key).check(value)
        except RulesError as exc:
            raise RulesError(f"{where}: {exc}") from None
    return flat


def _build(flat: Mapping[str, Any], preset: str, source: str, overrides: tuple[str, ...]) -> Rules:
    """Make a `Rules` from a complete flat table, checking that its settings fit together."""
    family = flat.get("family", "sheepshead")
    defaults = {
        s.key: s.default for s in SCALARS if s.default is not None and s.family in (None, family)
    }
    if family == "schafkopf":
        # (a Schafkopf table stored before the setting did not keep the called suit)
        defaults["keep_called_suit"] = False
        defaults.update({f"runs_max.{g}": 0 for g in BASE_GAMES})
    flat = {**defaults, **flat}
    required = [s.key for s in SCALARS if s.family in (None, family)]
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
    stray = [k for k in flat if setting_for(k).family not in (None, family)]
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
        for name in DEAL_BY_FIELD:
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

    values = {s.key: flat[s.key] if s.family in (None, family) else s.elsewhere for s in SCALARS}
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
    """A bundled preset's settings (a copy of them: the caller may change it)."""
    return dict(_read_preset(name))


@functools.cache
def _read_preset(name: str) -> dict[str, Any]:
    """A bundled preset's settings, read once a process (a season reads a night's table and
    money from its preset a night)."""
    import tomllib  # only when a preset is read, not when a session replays its own table

    # (beside this module in the package: importlib.resources would cost more to import than
    # reading the file takes)
    text = (Path(__file__).parent.parent / "presets" / f"{name}.toml").read_text("utf-8")
    return _checked_flat(tomllib.loads(text), f"preset {name}")


def preset_value(preset: str, key: str) -> Any:
    """A setting's value as a bundled preset writes it (None where it leaves it out, or for a
    preset there is no longer)."""
    if preset not in PRESETS:
        return None
    return _checked_value(key, _preset_flat(preset).get(key))


def setting_default(key: str) -> Any:
    """A setting's default: the value a table that leaves it out holds."""
    return setting_for(key).default


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
            own["name"] = checked_text("name", path.stem)
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
        return key, setting_for(key).parse(value)
    except RulesError as exc:
        raise RulesError(_("⟨set⟩ {text}: {exc}").format(text=text, exc=exc)) from None


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
        if setting_for(key).family not in (None, flat["family"]):
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
        if base is None or _checked_value(key, base.get(key, setting_for(key).default)) != value:
            applied.append(f"{key}={format_value(value)}")
    return _build(flat, preset, source, tuple(applied))


def _checked_value(key: str, value: Any) -> Any:
    """A value as its setting keeps it (a list read from TOML as its tuple), or None."""
    if value is None:
        return None
    try:
        return setting_for(key).check(value)
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


def describe(rules: Rules) -> Iterator[tuple[str, str, str]]:
    """(setting, value, meaning) for every setting in force but the name and description (the
    meaning worded by the interface in force: it may name an input); a choice's meaning ends
    with its choices."""
    for key, value in rules.flat().items():
        if key not in ("name", "description"):
            setting = setting_for(key)
            meaning = worded(_(setting.help))
            if setting.kind in ("choice", "choices"):
                meaning = _("{meaning} (choices: {choices})").format(
                    meaning=meaning, choices=", ".join(setting.choices)
                )
            yield key, format_value(value) or "none", meaning
