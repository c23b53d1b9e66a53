"""After the night: settle up, statistics, a chart, and a league table over many nights."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import ScorepadError
from ..i18n import decimal_text, ngettext, percent_text
from ..i18n import gettext as _
from ._common import (
    CONTEXT_SETTINGS,
    WholeRange,
    night_stats,
    open_session,
    placings_option,
    race_line,
    session_file_option,
    session_files,
    table_format_option,
    use_color,
)
from ._money import TableMoney, currency_option, rate_option, season_money, table_money

if TYPE_CHECKING:
    from ..ledger import Ledger
    from ..pot import PotPayout
    from ..rating import NightMatches, PlayerRating
    from ..render import Points


@click.command(context_settings=CONTEXT_SETTINGS)
@rate_option("Money per game point, e.g. 0.25. Default: the table's rate, else 1.")
@currency_option(
    "Currency symbol to show amounts with (up to 5 characters). Default: the table's "
    "currency, else $."
)
@table_format_option()
@session_file_option
@click.pass_obj
def settle(path: Path, rate: str | None, currency: str | None, fmt: str) -> None:
    """Settle the night: each player's points and money, then who pays whom.

    The payments clear every balance with the fewest payments possible (exactly, for up to 12
    players with a balance), to the cent. The rate and the currency are the table's (its
    `rate` and `currency` settings: the bavarian preset settles at 0.01 EUR a point) unless
    --rate and --currency are given; settle says which it used. A race night has no money: it
    shows the result.

    Examples:

    \b
        scorepad settle --rate 0.25
        scorepad -f sample_sessions/standard-friday.csv settle --rate 0.10 --format json
    """
    from ..render import Money, Points, render, to_json
    from ..reports import rules_words
    from ..settlement import (
        check_rate_pays,
        fewest_payments,
        money_balances,
        parse_rate,
        rate_text,
    )

    if rate is not None:  # (a rate mistyped is refused before the file is read)
        parse_rate(rate)
    # (with the players' numbers, though it shows none: the pass that counts them leaves the
    # checkpoint the next report starts from)
    head, state, _stats = night_stats(open_session(path))
    order = sorted(state.totals, key=lambda p: (-state.totals[p], p))
    if not state.rules.zero_sum:
        race = race_line(state) or (
            _("Nobody has reached {target} yet: the race goes on.").format(
                target=state.rules.target
            )
        )
        if fmt == "json":
            click.echo(
                to_json(
                    {
                        "file": str(path),
                        "race": True,
                        "target": state.rules.target,
                        "winners": list(state.race_winners),
                        "totals": dict(state.totals),
                    }
                )
            )
            return
        click.echo(
            render(
                ("Player", "Points"),
                [(p, Points(state.totals[p])) for p in order],
                fmt,
                ("left", "right"),
                use_color(fmt),
            )
        )
        if fmt != "csv":
            click.echo()
            click.echo(
                _("A race to {target} settles no money. {race}").format(
                    target=state.rules.target, race=race
                )
            )
        return
    points, payout = _settled_points(state)
    order = sorted(points, key=lambda p: (payout is not None and p == payout.party, -points[p], p))
    money = table_money(state.rules, rate, currency)
    per_point, currency = money.rate, money.currency
    check_rate_pays(points, per_point)
    balances = money_balances(points, per_point)
    payments = fewest_payments(balances)
    if fmt == "json":
        click.echo(
            to_json(
                {
                    "file": str(path),
                    "rate": str(per_point),
                    "currency": currency,
                    "rate_from": money.rate_from,
                    "currency_from": money.currency_from,
                    "points": points,
                    "balances": {p: f"{balances[p]:.2f}" for p in points},
                    "payments": [pay.to_dict() for pay in payments],
                    **({"pot": payout._asdict()} if payout is not None else {}),
                }
            )
        )
        return
    color = use_color(fmt)
    people = render(
        ("Player", "Points", "Money"),
        [(p, Points(points[p]), Money(balances[p], currency)) for p in order],
        fmt,
        ("left", "right", "right"),
        color,
    )
    plan = render(
        ("From", "To", "Amount"),
        [(pay.payer, pay.payee, Money(pay.amount, currency)) for pay in payments],
        fmt,
        ("left", "left", "right"),
    )
    if fmt == "csv":
        click.echo(people)
        click.echo()
        click.echo(plan)
        return
    click.echo(
        ngettext(
            "Settlement at {rate} a point ({count} hand, {rules}):",
            "Settlement at {rate} a point ({count} hands, {rules}):",
            state.hands,
        ).format(
            rate=rate_text(per_point, currency), count=state.hands, rules=rules_words(head, state)
        )
    )
    click.echo(money.words())
    if payout is not None:
        click.echo(_payout_text(payout))
    click.echo(people)
    click.echo()
    if payments:
        count = len(payments)
        click.echo(
            ngettext("{count} payment settles it:", "{count} payments settle it:", count).format(
                count=count
            )
        )
        click.echo(plan)
    else:
        click.echo(_("Everyone is even: nobody pays."))


def _settled_points(state: Ledger) -> tuple[dict[str, int], PotPayout | None]:
    """Each player's points at settlement, and what became of the pot (None: it is empty, or
    the night has none): what is left in it is paid out in equal shares (`pot.paid_out`)."""
    if not state.pot:
        return dict(state.totals), None
    from ..pot import paid_out

    return paid_out(state.totals, state.pot, state.seated)


def _payout_text(payout: PotPayout) -> str:
    """What settling does with the pot, in a sentence."""
    seated = len(payout.paid_to)
    words = (
        _(
            "The pot's {held} is paid out in equal shares to the {seated} players seated: "
            "+{each} each"
        ).format(held=payout.held, seated=seated, each=payout.each)
        if payout.each
        else _("The pot's {held} does not divide among the players seated").format(held=payout.held)
    )
    if payout.remainder:
        words += _(
            "; the {remainder} that does not divide stays in the pot (as {party} below)"
        ).format(remainder=payout.remainder, party=repr(payout.party))
    return words + "."


@click.command(context_settings=CONTEXT_SETTINGS)
@table_format_option()
@session_file_option
@click.pass_obj
def stats(path: Path, fmt: str) -> None:
    """Each player's night in numbers: picks, wins, schneiders, partners, best and worst hand.

    Schneiders and no-tricks count "for" a player on the side that made them and "against" a
    player on the side that suffered them. A voided hand counts for nothing; an amended hand
    counts as amended.

    Example:

    \b
        scorepad -f sample_sessions/standard-friday.csv stats
    """
    from ..render import Figure, Points, render, to_json
    from ..reports import rules_words, stats_records

    head, state, stats = night_stats(open_session(path))
    records = stats_records(state.totals, stats)
    if fmt == "json":
        click.echo(to_json({"file": str(path), "hands": state.hands, "players": records}))
        return

    def percent(value: float | None) -> str | None:
        return None if value is None else percent_text(value)

    def points(value: int | None) -> Points | None:
        return None if value is None else Points(value)

    rows: list[Sequence[Any]] = [
        (
            r["player"],
            r["hands"],
            r["picks"],
            percent(r["pick_rate"]),
            percent(r["picker_win_rate"]),
            None if r["average_picker_points"] is None else Figure(r["average_picker_points"]),
            r["partner"],
            f"{r['schneider_for']}/{r['schneider_against']}",
            f"{r['no_trick_for']}/{r['no_trick_against']}",
            r["leasters_won"],
            points(r["best"]),
            points(r["worst"]),
        )
        for r in records
    ]
    headers: tuple[str, ...] = (
        "Player",
        "Hands",
        "Picks",
        "Pick rate",
        "Wins",
        "Avg points",
        "Partner",
        "Schneider +/-",
        "No-trick +/-",
        "Leasters",
        "Best",
        "Worst",
    )
    if fmt == "csv":
        rows = [
            [
                r[h]
                for h in (
                    "player",
                    "hands",
                    "picks",
                    "pick_rate",
                    "picker_win_rate",
                    "average_picker_points",
                    "partner",
                    "schneider_for",
                    "schneider_against",
                    "no_trick_for",
                    "no_trick_against",
                    "leasters_won",
                    "best",
                    "worst",
                )
            ]
            for r in records
        ]
        headers = (
            "Player",
            "Hands",
            "Picks",
            "Pick rate",
            "Picker win rate",
            "Average picker points",
            "Partner",
            "Schneider for",
            "Schneider against",
            "No-trick for",
            "No-trick against",
            "Leasters won",
            "Best",
            "Worst",
        )
    click.echo(
        render(headers, rows, fmt, ("left", *["right"] * (len(headers) - 1)), use_color(fmt))
    )
    if fmt not in ("csv",):
        click.echo()
        click.echo(
            ngettext(
                "{count} hand ({rules}). Wins: the picker's wins out of picks; Avg points: card "
                "points taken when picking.",
                "{count} hands ({rules}). Wins: the picker's wins out of picks; Avg points: card "
                "points taken when picking.",
                state.hands,
            ).format(count=state.hands, rules=rules_words(head, state))
        )
        _calls_table(records, fmt)


def _calls_table(records: Sequence[dict[str, Any]], fmt: str) -> None:
    """Under `stats`: each player's calls (the picker's `called`) by what was called, and how
    often the side won with each; nothing where no call was recorded."""
    from ..render import render
    from ..scoring.called import called_name

    rows = [
        (r["player"], called_name(call), made["made"], made["won"])
        for r in records
        for call, made in r["calls"].items()
    ]
    if rows:
        click.echo()
        headers = ("Player", "Called", "Calls", "Side won")
        click.echo(render(headers, rows, fmt, ("left", "left", "right", "right"), use_color(fmt)))


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument(
    "sources",
    nargs=-1,
    required=True,
    metavar="FILE_OR_FOLDER...",
    type=click.Path(exists=True, path_type=Path),
)
@click.option(
    "--skip-bad",
    is_flag=True,
    help="Leave out a night that fails verification (named on stderr) instead of failing.",
)
@click.option(
    "--rating",
    "with_rating",
    is_flag=True,
    help="Add each player's OpenSkill rating (mu - 3 sigma) over the nights' hands, as "
    "`scorepad rating` gives it.",
)
@click.option(
    "--min-hands",
    type=WholeRange(0, 1_000_000),
    default=10,
    show_default=True,
    help="With --rating: a player with fewer hands is shown no rating.",
)
@placings_option(
    "Rank each night's players and give ranking points by place (ties share the points "
    "of the places they cover); the table is ordered by them, game points beside. Default "
    "points by head count: 4 players 2,1,-1,-2; 5 players 2,1,0,-1,-2; 6 players "
    "3,2,1,-1,-2,-3; or the table's own, best place first (3,1,0,-1,-4)."
)
@rate_option(
    "Add who pays whom over all the nights, at this much a game point. Default: each "
    "night's table's rate (with none, no settlement)."
)
@currency_option(
    "Currency symbol to show amounts with (up to 5 characters). Default: the tables' "
    "currency, else $."
)
@table_format_option()
def season(
    sources: tuple[Path, ...],
    skip_bad: bool,
    with_rating: bool,
    min_hands: int,
    placings_spec: str | None,
    rate: str | None,
    currency: str | None,
    fmt: str,
) -> None:
    """A league table over many nights: each night a column, then totals and averages.

    Give session files, or folders of them (*.csv), or a folder of a folder per night. Each
    night is named by its file, or, when files share a name, by their paths from the folder
    they share (a folder per night of `scorepad.csv` files: by the folders); a file given twice
    is refused. Nights played under different zero-sum rules add up the same way; a race night
    (first-night) has no game points to add, so it is refused beside zero-sum nights. Every
    night is checked as it is read; one that fails stops the table unless --skip-bad, which
    names it and leaves it out.

    With --rate, or when every night's table sets a `rate`, it adds who pays whom over all the
    nights, with the fewest payments (as settle does for one night): each night's balances at
    its rate, to the cent, added up by player.

    Examples:

    \b
        scorepad season sample_sessions/ --rate 0.05
        scorepad season fall-league/*.csv --skip-bad --format csv > league.csv
        scorepad season sample_sessions/league/ --rating
        scorepad season sample_sessions/league/ --placings 3,1,0,-1,-4
    """
    from ..ledger import Memo
    from ..render import Points, render, to_json
    from ..reports import season as league
    from ..session import SessionError

    if rate is not None:  # (a rate mistyped is refused before the files are read)
        from ..settlement import parse_rate

        parse_rate(rate)
    files = session_files(sources)
    memo = Memo()  # (a league's nights repeat one another's hands: each scored once)
    if with_rating:  # (each night's matches, from the pass that checks it: each read once)
        from ..rating import Kinds, night_and_matches

        kinds = Kinds()
        matches: list[NightMatches] = []
    names = night_names(files)
    nights = []
    monies: list[tuple[str, dict[str, int], TableMoney]] = []  # each night's, to settle
    settlements: dict[str, str] = {}
    families: dict[str, list[str]] = {}  # family -> the nights played in it
    for file in files:
        try:
            # (as the reports read a night: from its checkpoint, leaving one; only its totals
            # and rules are kept, so each night's pass is let go before the next; with the
            # ratings, every hand of it, its matches kept small)
            if with_rating:
                matched, state = night_and_matches(open_session(file), kinds, memo)
            else:
                _head, state, _stats = night_stats(open_session(file), memo)
        except SessionError as exc:
            if not skip_bad:
                raise SessionError(
                    exc.path,
                    _("{message} (leave it out with --skip-bad)").format(message=exc.message),
                    exc.line,
                ) from None
            click.echo(_("scorepad: skipped {problem}").format(problem=exc), err=True)
            continue
        settlements.setdefault(state.rules.settlement, str(file))
        if len(settlements) > 1:
            race = settlements.get("race")
            raise ScorepadError(
                _(
                    "{file}: a race night (its points are steps in a race, not game points) "
                    "cannot be added up with zero-sum nights; give the race nights a season of "
                    "their own"
                ).format(file=race)
            )
        nights.append((names[file], dict(state.totals)))
        if state.rules.zero_sum:
            monies.append(
                (names[file], _settled_points(state)[0], table_money(state.rules, rate, currency))
            )
        families.setdefault(state.rules.family, []).append(names[file])
        if with_rating:
            matches.append(matched)
        del state
    if not nights:
        raise ScorepadError(_("every night failed verification: no table to show"))
    if len(families) > 1:  # (said on stderr: the table itself stays what a program reads)
        click.echo(_("Warning: {problem}").format(problem=_mixed_families(families)), err=True)
    columns, records = league(nights, _placing_points(placings_spec))
    ratings = _ratings(matches) if with_rating else {}
    money = season_money(monies, records)
    if fmt == "json":
        if with_rating:
            from ..rating import rating_record

            for r in records:
                found = ratings.get(r["player"])
                r["rating"] = (
                    None
                    if found is None
                    else {**rating_record(found), "ranked": found.hands >= min_hands}
                )
        _placings_as_numbers(records)
        settled = {} if money is None else {"settlement": money.record()}
        click.echo(to_json({"nights": columns, "players": records, **settled}))
        return
    placed = placings_spec is not None
    headers = ["Player", *columns, *["Ranking"] * placed, "Total", "Nights", "Average"]
    headers += ["Rating"] * with_rating
    rows = [
        [
            r["player"],
            *(
                [None if v is None else _ranking_cell(v) for v in r["placings"].values()]
                if placed
                else [None if v is None else Points(v) for v in r["nights"].values()]
            ),
            *([_ranking_cell(r["ranking"])] if placed else []),
            Points(r["total"]),
            r["played"],
            decimal_text(f"{r['average']:+.2f}" if r["average"] else "0.00"),
        ]
        + [_rating_cell(ratings.get(r["player"]), min_hands)] * with_rating
        for r in records
    ]
    click.echo(
        render(headers, rows, fmt, ("left", *["right"] * (len(headers) - 1)), use_color(fmt))
    )
    apart = [r for r in ratings.values() if r.hands < min_hands]
    if with_rating and fmt != "csv":
        click.echo()
        if apart:
            listed = ", ".join(f"{r.player} ({r.hands})" for r in apart)
            click.echo(
                ngettext(
                    "Under {count} hand, no rating: {players}.",
                    "Under {count} hands, no rating: {players}.",
                    min_hands,
                ).format(count=min_hands, players=listed)
            )
        click.echo(_("Rating: OpenSkill Plackett-Luce over every hand, mu - 3 sigma."))
    if money is not None:
        click.echo()
        money.show(fmt)


def _placing_points(spec: str | None) -> tuple[int, ...] | bool:
    """`--placings` as `reports.season` takes it: False (none), True (the default points by
    head count) or the table's own."""
    if spec is None:
        return False
    from ..placings import parse_placings

    return True if spec == "default" else parse_placings(spec)


def _placings_as_numbers(records: list[dict[str, Any]]) -> None:
    """Each record's ranking points as JSON numbers (whole, or to two places)."""
    for r in records:
        if "placings" in r:
            r["placings"] = {k: _number(v) for k, v in r["placings"].items()}
            r["ranking"] = _number(r["ranking"])


def _number(value: Any) -> Any:
    """Ranking points for JSON: a whole number, or a number to two places."""
    if value is None:
        return None
    return int(value) if value == value.to_integral_value() else float(value)


def _ranking_cell(value: Any) -> Any:
    """Ranking points in a table: signed, whole or to two places."""
    if value == value.to_integral_value():
        return decimal_text(f"{int(value):+d}" if value else "0")
    return decimal_text(f"{value:+.2f}")


def _mixed_families(families: dict[str, list[str]]) -> str:
    """What a season over Sheepshead and Schafkopf nights adds up, in words."""
    said = {"sheepshead": _("Sheepshead game points"), "schafkopf": _("Schafkopf points")}
    parts = [
        f"{said.get(family, family)} ({', '.join(nights)})" for family, nights in families.items()
    ]
    return _(
        "this season adds {parts}: not the same unit (a Bavarian tariff counts "
        "cents); give each game a season of its own to compare like with like"
    ).format(parts=_(" to ").join(parts))


def _ratings(nights: Sequence[NightMatches]) -> dict[str, PlayerRating]:
    """Each player's rating over the nights' matches (by the name the season shows)."""
    from ..rating import rate_nights

    return {r.player: r for r in rate_nights(nights)}


def _rating_cell(found: PlayerRating | None, least: int) -> str | None:
    return None if found is None or found.hands < least else decimal_text(f"{found.rating:.2f}")


def night_names(files: list[Path]) -> dict[Path, str]:
    """Each night's name: its file's name without .csv, or, where two files share that name
    (a folder per night), its path from the folder all the files share."""
    stems = [f.stem for f in files]
    if len(set(stems)) == len(stems):
        return dict(zip(files, stems))
    resolved = [f.resolve() for f in files]
    common = Path(os.path.commonpath([str(r.parent) for r in resolved]))
    paths = [r.relative_to(common).with_suffix("") for r in resolved]
    if len(set(stems)) == 1 and all(str(p.parent) != "." for p in paths):
        paths = [p.parent for p in paths]  # a folder per night: the folder names it
    return {f: str(p) for f, p in zip(files, paths)}


@click.command(context_settings=CONTEXT_SETTINGS)
@click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Write the chart as an image instead: .png, .svg, .pdf, .jpg, .webp, .gif, .bmp or "
    ".tiff (all but .svg need the plot extra: pip install 'scorepad[plot]').",
)
@click.option(
    "--width",
    type=WholeRange(20, 400),
    metavar="COLUMNS",
    help="Width of the terminal chart. Default: the terminal's.",
)
@click.option(
    "--height",
    type=WholeRange(8, 200),
    metavar="LINES",
    help="Height of the terminal chart. Default: 20.",
)
@session_file_option
@click.pass_obj
def chart(path: Path, output: Path | None, width: int | None, height: int | None) -> None:
    """Draw each player's running total over the night, in the terminal or as an image.

    Examples:

    \b
        scorepad chart
        scorepad -f sample_sessions/standard-friday.csv chart --output friday.png
    """
    from ..picture import SUFFIXES, MissingPillow, whole_ticks, write_chart
    from ..reports import RunningSeries, rules_words
    from ..session import SessionError

    if output and output.suffix.lower() not in SUFFIXES:
        raise click.BadParameter(
            _("the image must be one of these types: {types}").format(types=", ".join(SUFFIXES)),
            param_hint="--output",
        )
    import shutil

    columns = width or shutil.get_terminal_size((100, 24)).columns
    color = use_color("text")
    with open_session(path).reading() as reading:
        head = reading.head
        # (the last hand's number, from the end of the file: how much of the night to keep;
        # an end that cannot be read is for the pass to report)
        try:
            expected = reading.state().last_hand
        except SessionError:
            expected = 0
        if output or expected <= RunningSeries.EVERY:
            bounds = [expected * k // _IMAGE_RUNS for k in range(1, _IMAGE_RUNS)]
        else:
            bounds = plot_columns({columns}, expected, 2 if color else 1)
        running = RunningSeries(head.players, expected, bounds)
        state = reading.night(running.add)
    players = list(state.totals)
    kept = running.points()
    series = {p: kept[p] for p in players}
    title = _("Running totals: {file} ({rules})").format(
        file=path.name, rules=rules_words(head, state)
    )
    if output:
        try:
            write_chart(output, title, series)
        except MissingPillow:
            raise ScorepadError(
                _("--output needs Pillow, which is not installed: pip install 'scorepad[plot]'")
            ) from None
        click.echo(_("Wrote {file}.").format(file=output))
        return
    import plotext as plt

    plt.clf()
    plt.limitsize(False, False)  # (else plotext draws no wider than the terminal)
    plt.plotsize(columns, height or 20)
    plt.theme("clear")
    marks = "ox+*#@%&=~"  # without colour, each player gets a mark of their own
    colors = ("blue", "red", "green", "orange", "magenta", "cyan", "gray", "violet")
    legend = []
    for number, player in enumerate(players):
        mark, hue = marks[number % len(marks)], colors[number % len(colors)]
        hands, values = series[player]
        plt.plot(hands, values, marker="braille" if color else mark, color=hue)
        legend.append(plt.colorize(f"━━ {player}", hue) if color else f"{mark}{mark} {player}")
    last = running.last
    plt.xticks(sorted({round(last * i / 5) for i in range(6)}))  # whole hands on the axis
    low = min(min(values) for _, values in series.values()) if series else 0
    high = max(max(values) for _, values in series.values()) if series else 0
    # (plotext's own ticks read 26.0, 15.5; the plot has the height but the title, the frame
    # and the hand axis: 5 lines)
    plt.yticks(whole_ticks(low, high, (height or 20) - 5))
    plt.title(fitted(title, columns - 4))  # (plotext leaves out a title wider than the chart)
    plt.xlabel(_("hand"))
    text = plt.build()
    if not color:
        text = plt.uncolorize(text)
    click.echo(text.rstrip("\n"))
    # The legend below the chart, where it covers no hand and shows at any height.
    click.echo("   " + "   ".join(legend))


def fitted(text: str, width: int) -> str:
    """`text` in at most `width` characters: shortened with "…" where it is longer."""
    return text if len(text) <= width else text[: max(0, width - 1)].rstrip() + "…"


# The runs of hands an image of a long night keeps (see RunningSeries): more than the columns
# of pixels its plot has (about 800 in a picture 1000 wide; twice that in a PDF).
_IMAGE_RUNS = 2_048


def plot_columns(widths: set[int], last: int, factor: int) -> list[int]:
    """Where a column of the terminal chart may begin, in hand numbers (hands 0 to `last`),
    for a chart of one of `widths`:
    plotext maps a hand to column floor(0.5 + (bins - 1) * hand / last) of a canvas of `bins`
    columns (`factor` to a character: 2 for braille), the chart's width but its frame and the
    labels of its points axis, which are as wide as their numbers (1 to 12 characters: known
    only once the night is read). Runs of hands cut at every one of these cross no column's
    edge, whatever the labels turn out to be."""
    import math

    bounds: set[int] = set()
    for width, label in ((w, label) for w in widths for label in range(1, 13)):
        bins = (width - 2 - label) * factor
        if bins < 2 or last < 1:
            continue

        def column(hand: int, bins: int = bins) -> int:
            return math.floor(round(0.5 + (bins - 1) * hand / last, 8))

        for k in range(1, bins):
            hand = max(0, math.ceil((k - 0.5) * last / (bins - 1)) - 2)
            while column(hand) < k:
                hand += 1
            bounds.add(hand)
    return sorted(bounds)
