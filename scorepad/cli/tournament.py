"""`scorepad tournament`: a tournament director's desk. Thin commands over `tournament_store`
(the folder) and `tournament` (the draw, the standings and the payout)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..i18n import decimal_text, german, ngettext
from ..i18n import gettext as _
from ._common import (
    CONTEXT_SETTINGS,
    WholeHelpGroup,
    WholeRange,
    allow_host_option,
    complete_rules,
    host_option,
    max_listeners_option,
    page_language_option,
    placings_option,
    port_option,
    split_names,
    table_format_option,
    use_color,
    waiting,
)

_DIR = click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))


@click.group(cls=WholeHelpGroup, context_settings=CONTEXT_SETTINGS)
def tournament() -> None:
    """Run a tournament: draw the tables of each round, then standings and payout over them.

    A tournament is a folder: DIR/tournament.toml (the settings, the rules, the players, the
    rounds drawn) and one ordinary session file a table and round, DIR/round-N/table-K.csv,
    where each table records its hands with `scorepad -f DIR/round-N/table-K.csv hand ...` (or
    `play`, or the board).

    Example:

    \b
        scorepad tournament new kirchweih --name "Kirchweih 2026" --rules preis \\
            --players-file entries.txt --rounds 3 --hands 16 --entry 10 --currency €
        scorepad tournament draw kirchweih
        scorepad tournament status kirchweih
        scorepad tournament standings kirchweih
        scorepad tournament payout kirchweih
        scorepad tournament serve kirchweih --host 0.0.0.0
    """


def _players_file(ctx: click.Context, param: click.Parameter, value: Path | None) -> Any:
    if value is None:
        return None
    from ..tournament_store import read_players

    return read_players(value)


@tournament.command("new", context_settings=CONTEXT_SETTINGS)
@_DIR
@click.option("--name", required=True, metavar="TEXT", help="The tournament's name.")
@click.option(
    "--rules",
    "rules_spec",
    required=True,
    metavar="PRESET|FILE",
    shell_complete=complete_rules,
    help="The rules every table plays: a preset (preis, sheepshead-tournament, ...) or a TOML "
    "rules file.",
)
@click.option(
    "--players",
    callback=split_names,
    metavar="A,B,C,...",
    help="Everyone entered. A name with a comma goes in double quotes.",
)
@click.option(
    "--players-file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    callback=_players_file,
    metavar="FILE",
    help="Everyone entered, one name a line (blank lines and lines starting with # are skipped).",
)
@click.option("--rounds", required=True, type=WholeRange(1, 50), help="The rounds to play.")
@click.option("--hands", required=True, type=WholeRange(1, 1000), help="The hands of a round.")
@click.option(
    "--table-size",
    type=WholeRange(2, 8),
    help="Players a table seats. Default: the rules' seats (5 at Sheepshead, 4 at Schafkopf).",
)
@click.option(
    "--seed",
    type=WholeRange(0, 10**18),
    help="Seeds the draws (recorded; the same seed draws the same tables). Default: random.",
)
@click.option("--entry", metavar="MONEY", help="The entry fee, e.g. 10 or 12.50.")
@click.option(
    "--currency", default="$", show_default=True, metavar="C", help="The currency symbol."
)
@click.option(
    "--payout",
    default="30,15,10,10,10",
    show_default=True,
    metavar="PCT,...",
    help="Each place's percent of the pool.",
)
@click.option(
    "--round-prize",
    default="0",
    show_default=True,
    metavar="PCT",
    help="The percent of the pool to each round's high score.",
)
@click.option(
    "--tie-breaks",
    default="solos,best-round,name",
    show_default=True,
    metavar="LIST",
    help="What breaks a tie on points, in order: solos (solos, wenz, geier and picker-alone "
    "hands won), best-round, last-round, name (orders, but tied players share the place).",
)
@placings_option(
    "Count league placings: each round, each table's players ranked by their points there "
    "and given ranking points by place (as season --placings gives them); the standings go "
    "by the ranking points, the game points beside them, then the tie-breaks."
)
def new(
    folder: Path,
    name: str,
    rules_spec: str,
    players: tuple[str, ...] | None,
    players_file: list[str] | None,
    rounds: int,
    hands: int,
    table_size: int | None,
    seed: int | None,
    entry: str | None,
    currency: str,
    payout: str,
    round_prize: str,
    tie_breaks: str,
    placings_spec: str | None,
) -> None:
    """Start a tournament in DIR (a new or empty folder): DIR/tournament.toml.

    It holds the settings, the whole rules table, the players and, as rounds are drawn, their
    tables. The pool is the entries x the fee, less any house_share (a percent) set in the
    file.

    Examples:

    \b
        scorepad tournament new kirchweih --name "Kirchweih 2026" --rules preis \\
            --players-file entries.txt --rounds 3 --hands 16 --entry 10 --currency €
        scorepad tournament new fall --name "Fall Classic" --rules sheepshead-tournament \\
            --players Ann,Bob,Cy,Dee,Ed,Flo,Gus,Hal,Ida,Jo --rounds 3 --hands 20 \\
            --entry 20 --payout 30,15,10,10,10 --round-prize 5
    """
    from ..rules import load_rules
    from ..tournament import (
        DEFAULT_PAYOUT,
        check_placings,
        parse_money,
        parse_percent,
        parse_percents,
        parse_tie_breaks,
    )
    from ..tournament_store import check_currency, create

    if (players is None) == (players_file is None):
        raise click.UsageError(_("give the players with --players or --players-file (one of them)"))
    entered = list(players if players is not None else players_file or [])
    size = table_size or load_rules(rules_spec).seats
    t = create(
        folder,
        name,
        rules_spec,
        entered,
        rounds,
        hands,
        size,
        seed,
        entry=None if entry is None else parse_money(entry),
        currency=check_currency(currency),
        payout=parse_percents(payout) if payout else DEFAULT_PAYOUT,
        round_prize=parse_percent(round_prize, "⟨round_prize⟩"),
        tie_breaks=parse_tie_breaks(tie_breaks),
        placings=check_placings(placings_spec or ""),
    )
    click.echo(
        ngettext(
            "Started {folder}: {name}; {len_players} players, {rounds} rounds of "
            "{hands} hand at tables of {table_size} ({name2} rules); seed {seed}.",
            "Started {folder}: {name}; {len_players} players, {rounds} rounds of "
            "{hands} hands at tables of {table_size} ({name2} rules); seed {seed}.",
            t.hands,
        ).format(
            folder=folder / "tournament.toml",
            name=t.name,
            len_players=len(t.players),
            rounds=t.rounds,
            hands=t.hands,
            table_size=t.table_size,
            name2=t.rules.name,
            seed=t.seed,
        )
    )
    click.echo(_("Next: scorepad tournament draw {folder}").format(folder=folder))


@tournament.command("draw", context_settings=CONTEXT_SETTINGS)
@_DIR
@click.option("--sheets", is_flag=True, help="Also write a printable score sheet a table (.txt).")
@table_format_option()
def draw(folder: Path, sheets: bool, fmt: str) -> None:
    """Seat the next round: one session file a table, and the seating.

    Tables are of the table size; where the count does not divide, of one more where the dealer
    sits out, or one fewer where the rules deal that many. The seats are drawn from the recorded
    seed (the same every time), keeping of many draws the one where the fewest players meet
    again. A round is drawn once the round before is done at every table.

    Example:

    \b
        scorepad tournament draw kirchweih --sheets
    """
    from ..render import render, to_json
    from ..tournament_store import draw as seat
    from ..tournament_store import table_path

    t, number, tables, repeated = seat(folder, sheets, waiting())
    rows = []
    for k, table in enumerate(tables, 1):
        for seat_number, player in enumerate(table, 1):
            rows.append((number, k, seat_number, player, str(table_path(folder, number, k))))
    if fmt == "json":
        click.echo(
            to_json(
                {
                    "round": number,
                    "seed": t.seed,
                    "repeats": repeated,
                    "tables": [
                        {
                            "table": k,
                            "file": str(table_path(folder, number, k)),
                            "players": list(table),
                            "first_dealer": table[-1],
                        }
                        for k, table in enumerate(tables, 1)
                    ],
                }
            )
        )
        return
    if fmt == "csv":
        click.echo(render(("round", "table", "seat", "player", "file"), rows, fmt))
        return
    click.echo(
        ngettext(
            "Round {number} of {rounds}: {len_tables} tables ({repeated} "
            "pairing repeated; seed {seed}).",
            "Round {number} of {rounds}: {len_tables} tables ({repeated} "
            "pairings repeated; seed {seed}).",
            repeated,
        ).format(
            number=number,
            rounds=t.rounds,
            len_tables=len(tables),
            repeated=repeated,
            seed=t.seed,
        )
    )
    click.echo(
        render(
            ("Table", "Players (seat order)", "First dealer", "File"),
            [
                (k, ", ".join(table), table[-1], str(table_path(folder, number, k)))
                for k, table in enumerate(tables, 1)
            ],
            fmt,
            ("right", "left", "left", "left"),
        )
    )
    if sheets:
        click.echo(
            _("Score sheets: {folder}/table-K.txt").format(folder=folder / f"round-{number}")
        )


@tournament.command("status", context_settings=CONTEXT_SETTINGS)
@_DIR
@table_format_option()
def status(folder: Path, fmt: str) -> None:
    """Each table's hands recorded out of the round's, and which tables are done.

    Example:

    \b
        scorepad tournament status kirchweih
    """
    from ..render import render, to_json
    from ..tournament_store import load, progress, table_record, tidy
    from ..tournament_store import status as table_status

    t = load(folder)
    tidy(folder)  # (what a killed draw left, if no draw is under way)
    tables = table_status(folder, t)
    if fmt == "json":
        click.echo(
            to_json(
                {
                    "tournament": t.name,
                    "rounds": t.rounds,
                    "rounds_drawn": len(t.drawn),
                    "players": len(t.playing(t.next_round)) if t.next_round <= t.rounds else 0,
                    "tables": [table_record(s) for s in tables],
                }
            )
        )
        return
    rows = [
        (
            s.round,
            s.table,
            ", ".join(s.players),
            f"{s.hands}/{s.of}",
            _("done")
            if s.done
            else (_("problem: {problem}").format(problem=s.problem) if s.problem else _("playing")),
        )
        for s in tables
    ]
    if fmt == "csv":
        click.echo(render(("round", "table", "players", "hands", "state"), rows, fmt))
        return
    click.echo(f"{t.name}: {progress(t, tables, folder)}")
    if rows:
        click.echo(
            render(
                ("Round", "Table", "Players", "Hands", "State"),
                rows,
                fmt,
                ("right", "right", "left", "right", "left"),
            )
        )


@tournament.command("standings", context_settings=CONTEXT_SETTINGS)
@_DIR
@click.option("--round", "only", type=WholeRange(1, 50), help="One round's standings only.")
@table_format_option()
def standings(folder: Path, only: int | None, fmt: str) -> None:
    """Every player's total over the rounds, ranked, each table verified.

    A table whose file does not verify (a hand-edited file, say) is named and the standings
    refuse. Ties on points go by the tie-breaks; players level after every one share the place
    (shown as 3=).

    Examples:

    \b
        scorepad tournament standings kirchweih
        scorepad tournament standings kirchweih --round 2 --format csv
    """
    from ..render import Points, render, to_json
    from ..tournament import TournamentError, standings_record
    from ..tournament import standings as ranked
    from ..tournament_store import load, progress, read_tables, results_of

    t = load(folder)
    if only is not None and only > len(t.drawn):
        raise TournamentError(
            _("⟨round⟩ {only}: {len_drawn} rounds are drawn").format(
                only=only, len_drawn=len(t.drawn)
            )
        )
    reads = list(read_tables(folder, t))  # (each table read once: its result and its status)
    lines = ranked(t, list(results_of(reads)), only)
    if fmt == "json":
        click.echo(to_json(standings_record(t, lines, only)))
        return
    numbers = [only] if only is not None else list(range(1, len(t.drawn) + 1))
    placed = bool(t.placings)
    headers = ["#", "Player", *["Ranking"] * placed, "Total", *(f"R{n}" for n in numbers), "Solos"]
    rows = [
        [
            f"{s.place}=" if s.tied and fmt != "csv" else s.place,
            s.player,
            *([_ranking_cell(s.ranking)] if s.ranking is not None else []),
            Points(s.total),
            *(None if s.rounds[n] is None else Points(s.rounds[n] or 0) for n in numbers),
            s.solos,
        ]
        for s in lines
    ]
    click.echo(
        render(
            headers, rows, fmt, ("right", "left", *["right"] * (len(headers) - 2)), use_color(fmt)
        )
    )
    if fmt == "csv":
        return
    click.echo()
    # (two lines: a progress that ends with a command has no full stop to end it)
    click.echo(f"{t.name}: {progress(t, [read.status for read in reads], folder)}")
    click.echo(_("Tie-breaks: {value}.").format(value=", ".join(t.tie_breaks) or _("none")))
    if t.placings:
        click.echo(
            _("Ranked by placings: ranking points by place at each table ({points}).").format(
                points=_("by head count") if t.placings == "default" else t.placings
            )
        )


def _ranking_cell(value: Any) -> Any:
    """Ranking points in the standings: signed, whole or to two places."""
    from ..placings import ranking_text

    shown = ranking_text(value)
    if shown == shown.to_integral_value():
        return decimal_text(f"{int(shown):+d}" if shown else "0")
    return decimal_text(f"{shown:+.2f}")


@tournament.command("payout", context_settings=CONTEXT_SETTINGS)
@_DIR
@table_format_option()
def payout(folder: Path, fmt: str) -> None:
    """The prize money: the pool, each place's share and each round's high score prize.

    The pool is the entries x the fee, less any house share. Tied players share the prizes of
    the places they hold, in cents; what does not divide, and the percents given to no place,
    are the remainder, named. Until every round is done the payout is provisional.

    Example:

    \b
        scorepad tournament payout kirchweih --format json
    """
    from ..render import Money, render, to_json
    from ..tournament import payout as pay
    from ..tournament import payout_record
    from ..tournament import standings as ranked
    from ..tournament_store import load, results, round_scores
    from ..tournament_store import status as table_status

    t = load(folder)
    found = list(results(folder, t))
    paid = pay(t, ranked(t, found), round_scores(t, found))
    tables = table_status(folder, t)
    final = len(t.drawn) == t.rounds and all(s.done for s in tables)
    if fmt == "json":
        click.echo(to_json(payout_record(t, paid, final)))
        return
    c = t.currency
    rows = [
        (
            _award_text(a.what),
            ", ".join(a.players),
            percent_figure(a.percent),
            Money(a.amount, c),
            Money(a.each, c),
        )
        for a in paid.awards
    ]
    table = render(
        ("Award", "Players", "Share", "Prize", "Each"),
        rows,
        fmt,
        ("left", "left", "right", "right", "right"),
    )
    if fmt == "csv":
        click.echo(table)
        return
    click.echo(
        _("{name}: {entries} entries x {money} = {money2}").format(
            name=t.name,
            entries=paid.entries,
            money=Money(paid.entry, c),
            money2=Money(paid.gross, c),
        )
        + (
            _(", less the house's {normalize:f}% ({money})").format(
                normalize=t.house_share.normalize(), money=Money(paid.house, c)
            )
            if paid.house
            else ""
        )
        + _(": a pool of {money}.").format(money=Money(paid.pool, c))
        + ("" if final else _(" Provisional: the tournament is not over."))
    )
    click.echo(table)
    click.echo()
    parts = []
    if paid.unallotted:
        parts.append(
            _("{money} given to no place or round").format(money=Money(paid.unallotted, c))
        )
    if paid.undivided:
        parts.append(
            _("{money} that does not divide among tied players").format(
                money=Money(paid.undivided, c)
            )
        )
    remainder = Money(paid.remainder, c)
    if parts:
        click.echo(
            _("Remainder: {money} ({parts}).").format(money=remainder, parts="; ".join(parts))
        )
    else:
        click.echo(_("Remainder: {money}.").format(money=remainder))


def _award_text(what: str) -> str:
    """An award as the payout's table names it: `place 1`, `places 2-3`, `round 2 high score`
    (`what` is the award's name in the JSON: `1`, `2-3`, `round 2`)."""
    if what.startswith("round"):
        return _("round {round} high score").format(round=what.removeprefix("round").strip())
    if "-" in what:
        return _("places {places}").format(places=what)
    return _("place {place}").format(place=what)


def percent_figure(percent: Any) -> str:
    """A percent as given (`12.5`: never rounded) with its sign, as the language writes it
    (`12,5 %` in German)."""
    text = decimal_text(f"{percent.normalize():f}")
    return f"{text} %" if german() else f"{text}%"


@tournament.command("serve", context_settings=CONTEXT_SETTINGS)
@_DIR
@host_option
@port_option
@allow_host_option
@max_listeners_option
@page_language_option
def serve(
    folder: Path,
    host: str,
    port: int,
    allow_hosts: tuple[str, ...],
    max_listeners: int,
    language: str | None,
) -> None:
    """The hall's board: the standings across every table, live, and each table's progress.

    Serves one read-only page for the hall's TV and every phone: the standings (as `tournament
    standings` ranks them; while a table's file does not verify they refuse, and the page names
    the table and its problem) and the current round's tables, each with its hands recorded out
    of the round's and whether it is done. It updates by itself within a second of any change to
    a table's file or to tournament.toml. The tables record as ever, with `scorepad -f
    DIR/round-N/table-K.csv hand ...` (or `play`, or `scorepad serve --allow-entry` on that
    file); `/api/state` is the page's state as JSON.

    It listens on this machine only unless --host says otherwise, and answers only to this
    machine's own names and addresses; --allow-host adds a name. Slow or idle clients are cut
    off, as by `scorepad serve`. Needs the extra: pip install 'scorepad[serve]'. Stop it with
    Ctrl-C.

    Examples:

    \b
        scorepad tournament serve kirchweih --host 0.0.0.0
        scorepad tournament serve kirchweih --port 8080 --allow-host halle.lan
        scorepad tournament serve kirchweih --lang de
    """
    from ..tournament_store import load
    from .serve import check_host_names, listen, need_the_extra, run_board

    need_the_extra("tournament serve")
    from ..web.hall import HallBoard

    check_host_names(allow_hosts)
    t = load(folder)  # a missing or broken tournament.toml is an error here, not on the page
    where = listen(host, port, allow_hosts)
    board = HallBoard(folder, hosts=where.hosts)
    board.language = language
    board.max_listeners = max_listeners
    click.echo(
        _("Serving {name} ({folder}) at {url} (Ctrl-C stops).").format(
            name=t.name, folder=folder, url=where.url
        )
    )
    run_board(board, where, where.url)


@tournament.group("players", cls=WholeHelpGroup, context_settings=CONTEXT_SETTINGS)
def players() -> None:
    """Late entries and dropouts, between rounds.

    Example:

    \b
        scorepad tournament players add kirchweih Xaver
        scorepad tournament players remove kirchweih Sepp
    """


@players.command("add", context_settings=CONTEXT_SETTINGS)
@_DIR
@click.argument("name")
def players_add(folder: Path, name: str) -> None:
    """A late entry: drawn from the next round on (and one more entry in the pool).

    Example:

    \b
        scorepad tournament players add kirchweih Xaver
    """
    from ..tournament_store import enter

    t, name = enter(folder, name, waiting())
    click.echo(
        _("{name} is entered from round {next_round} ({len_players} entries).").format(
            name=name, next_round=t.next_round, len_players=len(t.players)
        )
    )


@players.command("remove", context_settings=CONTEXT_SETTINGS)
@_DIR
@click.argument("name")
def players_remove(folder: Path, name: str) -> None:
    """A dropout: not drawn from the next round on; the points of the rounds played stay.

    One who was never drawn leaves the list, and the pool, altogether.

    Example:

    \b
        scorepad tournament players remove kirchweih Sepp
    """
    from ..tournament_store import withdraw

    t, found = withdraw(folder, name, waiting())
    entry = t.player(found)
    if entry is None:
        click.echo(
            _("{found} is no longer entered ({len_players} entries).").format(
                found=found, len_players=len(t.players)
            )
        )
    else:
        click.echo(
            _("{found} leaves after round {left}, keeping the points played.").format(
                found=found, left=entry.left
            )
        )
