"""Settling a night in money: balances to the cent and the fewest payments that clear them.

Pure functions over Decimals and whole cents; no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation, localcontext

from .errors import ScorepadError
from .i18n import amount_typed, decimal_text, rate_money
from .i18n import gettext as _

EXACT_LIMIT = 12
"""Up to this many players with a balance, the plan is provably the fewest payments."""

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Payment:
    """One payment of the settlement: `payer` gives `amount` (a Decimal) to `payee`."""

    payer: str
    payee: str
    amount: Decimal

    def to_dict(self) -> dict[str, str]:
        return {"from": self.payer, "to": self.payee, "amount": f"{self.amount:.2f}"}


def _amount_text(text: str) -> bool:
    """Whether text is an amount as scorepad reads one: the ASCII digits 0-9, at most one `.`,
    an optional sign (`Decimal` would take `0_25`, `1e3`, `Infinity` and other scripts'
    digits)."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    whole, _unused, cents = digits.partition(".")
    return (
        bool(whole or cents)
        and digits.isascii()
        and (not whole or whole.isdigit())
        and (not cents or cents.isdigit())
    )


def parse_rate(text: str) -> Decimal:
    """A per-point rate as typed (`0.25`, `1`, `.10`; in German also `0,25`): a positive
    Decimal."""
    typed = amount_typed(text)
    if len(text) > 40 or not _amount_text(typed.strip()):
        raise ScorepadError(
            _("⟨rate⟩ {text}: not an amount; write e.g. {example}").format(
                text=text[:40], example=decimal_text("0.25")
            )
        )
    try:
        rate = Decimal(typed.strip())
    except InvalidOperation:  # pragma: no cover - (the text is an amount)
        raise ScorepadError(
            _("⟨rate⟩ {text}: not an amount; write e.g. {example}").format(
                text=text, example=decimal_text("0.25")
            )
        ) from None
    if not rate.is_finite() or rate <= 0:
        raise ScorepadError(
            _("⟨rate⟩ {text}: the rate must be an amount above zero").format(text=text)
        )
    if rate > Decimal("1000000"):
        raise ScorepadError(
            _("⟨rate⟩ {text}: that is more than a million a point").format(text=text)
        )
    return rate


def rate_text(rate: Decimal, currency: str = "$") -> str:
    """A per-point rate as the user gave it: $0.25, $1.00, $0.001 (never rounded to the cent)."""
    shown = f"{rate:.2f}" if rate == rate.quantize(CENT) else f"{rate.normalize():f}"
    return rate_money(shown, currency)


def check_rate_pays(points: Mapping[str, int], rate: Decimal) -> None:
    """Refuse a rate at which every balance rounds to nothing (a ScorepadError saying so)."""
    largest = max((abs(v) for v in points.values()), default=0)
    if largest and largest * rate < CENT / 2:
        raise ScorepadError(
            _(
                "⟨rate⟩ {rate}: at that rate every balance rounds to nothing "
                "(the largest, {largest} points, is {amount}); give a larger "
                "rate, e.g. ⟨rate⟩ {example}"
            ).format(
                rate=rate_text(rate, "").strip(),
                largest=largest,
                amount=decimal_text(f"{largest * rate.normalize():f}"),
                example=decimal_text("0.01"),
            )
        )


def money_balances(points: Mapping[str, int], rate: Decimal) -> dict[str, Decimal]:
    """Each player's balance in money, to the cent.

    Game points times the rate, rounded to the cent; where rounding leaves the table a cent or
    two off zero, the cents go to the players whose amounts were rounded the most, so the
    balances still sum to exactly what the points sum to times the rate. Exact for amounts of
    any size (the arithmetic carries as many digits as they need).
    """
    digits = len(str(max((abs(v) for v in points.values()), default=0))) * 2 + 40
    with localcontext() as context:
        context.prec = max(context.prec, digits)
        return _balances(points, rate)


def _balances(points: Mapping[str, int], rate: Decimal) -> dict[str, Decimal]:
    exact = {p: Decimal(v) * rate for p, v in points.items()}
    rounded = {p: v.quantize(CENT, rounding=ROUND_HALF_EVEN) for p, v in exact.items()}
    target = sum(exact.values(), Decimal(0)).quantize(CENT, rounding=ROUND_HALF_EVEN)
    off = int((target - sum(rounded.values(), Decimal(0))) / CENT)
    if off:
        # A cent up for those rounded down the most (or down for those rounded up the most).
        sign = 1 if off > 0 else -1
        order = sorted(exact, key=lambda p: (-sign * (exact[p] - rounded[p]), p))
        for player in order[: abs(off)]:
            rounded[player] += sign * CENT
    return {p: v + 0 for p, v in rounded.items()}  # + 0 turns -0.00 into 0.00


def season_balances(
    nights: Iterable[tuple[Mapping[str, int], Decimal]], name: Callable[[str], str]
) -> dict[str, Decimal]:
    """Each player's balance over many nights: each night's game points at its rate, to the
    cent (`money_balances`, as that night settles), added up under the name `name` gives the
    player (a season matches names case-blind). The balances sum to zero as each night's do."""
    total: dict[str, Decimal] = {}
    for points, rate in nights:
        for player, amount in money_balances(points, rate).items():
            key = name(player)
            total[key] = total.get(key, Decimal(0)) + amount
    return total


def fewest_payments(balances: Mapping[str, Decimal]) -> list[Payment]:
    """Payments that clear every balance (positive: is owed), as few as possible.

    Exact up to `EXACT_LIMIT` players with a balance: the fewest is the number of such players
    minus the most groups whose balances sum to zero, found over all subsets; each group then
    settles in one payment fewer than its size. Beyond that, a greedy plan that first pairs
    equal and opposite balances.
    """
    cents = {p: int((v / CENT).to_integral_value()) for p, v in balances.items()}
    if sum(cents.values()) != 0:
        raise ScorepadError(_("the balances do not sum to zero, so no payments can clear them"))
    people = sorted((p for p, c in cents.items() if c), key=lambda p: (cents[p], p))
    if len(people) <= EXACT_LIMIT:
        groups = _zero_sum_groups([cents[p] for p in people])
        plan = [
            pay for group in groups for pay in _greedy({people[i]: cents[people[i]] for i in group})
        ]
    else:
        plan = _greedy({p: cents[p] for p in people})
    return [Payment(a, b, Decimal(c) * CENT) for a, b, c in plan]


def _zero_sum_groups(values: list[int]) -> list[list[int]]:
    """Split indexes into the most groups that each sum to zero (dynamic programming on
    subsets: best[mask] is the most zero-sum groups a chain of subsets ending at mask holds)."""
    n = len(values)
    full = (1 << n) - 1
    total = [0] * (full + 1)
    best = [0] * (full + 1)
    came = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
        choice, value = 0, -1
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > value:
                value, choice = best[mask ^ bit], mask ^ bit
        best[mask] = value + (1 if total[mask] == 0 else 0)
        came[mask] = choice
    groups, mask, top = [], full, full
    while mask:
        mask = came[mask]
        if total[mask] == 0:
            groups.append([i for i in range(n) if (top ^ mask) >> i & 1])
            top = mask
    return [g for g in groups if g]


def _greedy(cents: dict[str, int]) -> list[tuple[str, str, int]]:
    """Largest debtor pays largest creditor, after settling exact opposite pairs directly."""
    owed = {p: c for p, c in cents.items() if c}
    plan = []
    for debtor in sorted((p for p in owed if owed[p] < 0), key=lambda p: (owed[p], p)):
        match = next((p for p in sorted(owed) if owed[p] == -owed[debtor] and owed[p] > 0), None)
        if match:
            plan.append((debtor, match, owed[match]))
            owed[debtor] = owed[match] = 0
    while True:
        debtors = sorted((p for p in owed if owed[p] < 0), key=lambda p: (owed[p], p))
        creditors = sorted((p for p in owed if owed[p] > 0), key=lambda p: (-owed[p], p))
        if not debtors:
            return plan
        debtor, creditor = debtors[0], creditors[0]
        amount = min(-owed[debtor], owed[creditor])
        plan.append((debtor, creditor, amount))
        owed[debtor] += amount
        owed[creditor] -= amount
