"""The money a command settles in (`settle`, `season`): `--rate` and `--currency` where given,
else the table's `rate` and `currency`, and where each came from; a season's settlement."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import click

from ..i18n import gettext as _
from ..i18n import ngettext

if TYPE_CHECKING:
    from ..rules import Rules


def currency_option(help: str) -> Callable[..., Any]:
    """Add `--currency SYMBOL` (checked by `currency_symbol`; None when not given)."""
    return click.option(
        "--currency",
        metavar="SYMBOL",
        callback=lambda ctx, param, value: None if value is None else currency_symbol(value),
        help=help,
    )


def rate_option(help: str) -> Callable[..., Any]:
    """Add `--rate AMOUNT` (money per game point, read by the command; None when not given)."""
    return click.option("--rate", metavar="AMOUNT", help=help)


def currency_symbol(symbol: str) -> str:
    """A currency symbol as it may stand before every amount (`--currency` of `settle` and
    `serve`): short, on one line, and not the start of a spreadsheet formula (`--format tsv` is
    read by spreadsheets)."""
    from ..store.format import FORMULA_STARTS

    if len(symbol) > 5 or any(not c.isprintable() for c in symbol):
        raise click.BadParameter(_("a symbol of up to 5 printable characters, e.g. $, €, EUR"))
    if symbol.startswith(FORMULA_STARTS):
        raise click.BadParameter(
            _("{symbol}: a symbol cannot start with {start}").format(
                symbol=repr(symbol), start=symbol[0]
            )
        )
    if not symbol.strip() or any(c.isdigit() for c in symbol):  # ("1": is 10.25 1 and .25?)
        raise click.BadParameter(
            _("{symbol}: a symbol is not blank and holds no digit, e.g. $, €, EUR").format(
                symbol=repr(symbol)
            )
        )
    return symbol


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


class SeasonMoney:
    """A season's settlement: who pays whom over all the nights, and at what."""

    __slots__ = ("balances", "currency", "nights", "payments", "rates", "words")

    def __init__(self, monies: Sequence[tuple[str, dict[str, int], TableMoney]], named: Any):
        from ..settlement import fewest_payments, season_balances

        self.nights = len(monies)
        self.rates = {night: money.rate for night, _points, money in monies}
        self.currency = monies[0][2].currency
        self.balances = season_balances(
            ((points, money.rate) for _night, points, money in monies), named
        )
        self.payments = fewest_payments(self.balances)
        sources = {(m.rate_from, m.currency_from) for _night, _points, m in monies}
        presets = {m.preset for _night, _points, m in monies}
        # (one sentence says it for every night when each took its rate and currency from the
        # same place: a preset, only when it is the same preset)
        alike = len(sources) == 1 and ("preset" not in next(iter(sources)) or len(presets) == 1)
        self.words = (
            monies[0][2].words() if alike else _("Rate and currency from each night's table.")
        )

    def record(self) -> dict[str, Any]:
        """The settlement as data (`season --format json`: its `settlement`)."""
        return {
            "rates": {night: str(rate) for night, rate in self.rates.items()},
            "currency": self.currency,
            "balances": {p: f"{v:.2f}" for p, v in self.balances.items()},
            "payments": [pay.to_dict() for pay in self.payments],
        }

    def show(self, fmt: str) -> None:
        """Print the settlement: a sentence of the rate, then the payments."""
        from ..render import Money, render
        from ..settlement import rate_text

        plan = render(
            ("From", "To", "Amount"),
            [(pay.payer, pay.payee, Money(pay.amount, self.currency)) for pay in self.payments],
            fmt,
            ("left", "left", "right"),
        )
        if fmt == "csv":
            click.echo(plan)
            return
        rates = set(self.rates.values())
        rate = (
            rate_text(rates.pop(), self.currency)
            if len(rates) == 1
            else _("each night's rate ({currency})").format(currency=self.currency)
        )
        click.echo(
            ngettext(
                "Settlement over {count} night at {rate} a point:",
                "Settlement over {count} nights at {rate} a point:",
                self.nights,
            ).format(count=self.nights, rate=rate)
        )
        click.echo(self.words)
        if not self.payments:
            click.echo(_("Everyone is even: nobody pays."))
            return
        count = len(self.payments)
        click.echo(
            ngettext("{count} payment settles it:", "{count} payments settle it:", count).format(
                count=count
            )
        )
        click.echo(plan)


def season_money(
    monies: Sequence[tuple[str, dict[str, int], TableMoney]], records: Sequence[dict[str, Any]]
) -> SeasonMoney | None:
    """The season's settlement, or None: when no night's table sets a rate and --rate is not
    given, or (said on stderr) when only some do, or the tables' currencies differ."""
    from ..scoring import same_name

    unset = [night for night, _points, money in monies if money.rate_from == "default"]
    if not monies or len(unset) == len(monies):
        return None
    if unset:
        click.echo(
            _("Warning: no settlement: {nights} set no rate; give --rate").format(
                nights=", ".join(unset)
            ),
            err=True,
        )
        return None
    currencies = sorted({money.currency for _night, _points, money in monies})
    if len(currencies) > 1:
        click.echo(
            _(
                "Warning: no settlement: the nights' tables settle in {currencies}; give --currency"
            ).format(currencies=", ".join(currencies)),
            err=True,
        )
        return None
    named = {same_name(r["player"]): r["player"] for r in records}
    return SeasonMoney(monies, lambda player: named[same_name(player)])
