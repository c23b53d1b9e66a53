"""The rules table: every setting a table can choose (`settings`), the validated table itself
(`table`), and reading one from a bundled preset or a user's file with overrides laid over it
(`loading`). Everything a caller needs is here."""

from .loading import (
    changed,
    describe,
    leaster_places_divide,
    load_rules,
    parse_override,
    preset_value,
    rules_from_dict,
    setting_default,
)
from .settings import (
    BOCK_EVENTS,
    CALLS,
    DECK_SIZES,
    DEFAULT_PRESET,
    MAX_AMOUNT,
    MAX_BOCK,
    MAX_BOCK_HANDS,
    MAX_DOUBLED,
    MAX_FACTOR,
    MAX_PLACES,
    MAX_RULES_FILE,
    MAX_TEXT,
    SETTINGS,
    Setting,
    format_value,
    values_of,
)
from .table import Deal, Rules, stored_summary_words, summary_words

__all__ = [
    "BOCK_EVENTS",
    "CALLS",
    "DECK_SIZES",
    "DEFAULT_PRESET",
    "MAX_AMOUNT",
    "MAX_BOCK",
    "MAX_BOCK_HANDS",
    "MAX_DOUBLED",
    "MAX_FACTOR",
    "MAX_PLACES",
    "MAX_RULES_FILE",
    "MAX_TEXT",
    "SETTINGS",
    "Deal",
    "Rules",
    "Setting",
    "changed",
    "describe",
    "format_value",
    "leaster_places_divide",
    "load_rules",
    "parse_override",
    "preset_value",
    "rules_from_dict",
    "setting_default",
    "stored_summary_words",
    "summary_words",
    "values_of",
]
