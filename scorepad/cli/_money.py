"""The money a command settles in (`settle`, `season`): `--rate` and `--currency` where given,
else the table's `rate` and `currency`, and where each came from."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from ..i18n import gettext as _

if TYPE_CHECKING:
    from ..rules import Rules


class TableMoney:
    """The money a command settles in: its rate (a Decimal a game point) and currency, and
    where each came from (`option`, `table`, `preset` or `default`: what JSON says)."""

    __slots__ = ("currency", "currency_from", "preset", "rate", "rate_from")

    def __init__(
        self, rate: Decimal, currency: str, rate_from: str, currency_from: str, preset: str
    ) -> None:
        self.rate = rate
        self.currency = currency
        self.rate_from = rate_from
        self.currency_from = currency_from
        self.preset = preset  # (the preset the table was laid over)

    def words(self) -> str:
        """Where the rate and the currency came from, in a sentence."""
        names = {
            "option": _("the command line"),
            "table": _("the table's rules"),
            "preset": _("the {preset} preset").format(preset=self.preset),
            "default": _("scorepad's default (the table sets none)"),
        }
        if self.rate_from == self.currency_from:
            return _("Rate and currency from {source}.").format(source=names[self.rate_from])
        return _("Rate from {rate_source}; currency from {currency_source}.").format(
            rate_source=names[self.rate_from], currency_source=names[self.currency_from]
        )


def table_money(rules: Rules, rate: str | None, currency: str | None) -> TableMoney:
    """The money to settle in: `--rate` and `--currency` where given, else the table's `rate`
    and `currency` (a setting at its preset's value is said to come from the preset), else a
    rate of 1 in $."""
    from ..rules import preset_value, setting_default
    from ..settlement import parse_rate

    def source(key: str, value: str, given: str | None) -> str:
        if given is not None:
            return "option"
        if value == preset_value(rules.preset, key):
            return "preset"
        return "default" if value == setting_default(key) else "table"

    rate_from = source("rate", rules.rate, rate)
    currency_from = source("currency", rules.currency, currency)
    per_point = parse_rate(rate) if rate is not None else Decimal(rules.rate or "1")
    return TableMoney(
        per_point,
        currency if currency is not None else rules.currency,
        rate_from,
        currency_from,
        rules.preset,
    )
