"""`scorepad import`: other programs' game records into hand files and a night."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from textwrap import wrap
from typing import TYPE_CHECKING, Any

import click

from ..i18n import gettext as _
from ..i18n import ngettext
from ._common import CONTEXT_SETTINGS, complete_rules, complete_setting, format_option

if TYPE_CHECKING:
    from ..importing import Imported, Source
    from ..records import Record
    from ..records.tally import Tallied


@click.command("import", context_settings=CONTEXT_SETTINGS)
@click.argument(
    "files",
    nargs=-1,
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE...",
)
@click.option(
    "--to",
    "to",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Write each game as a hand file into DIR (made if need be; never over a file).",
)
@click.option(
    "--session",
    "session",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Record the games as the hands of a new night in FILE (never over a file).",
)
@click.option(
    "--rules",
    "rules_spec",
    metavar="NAME|PATH",
    shell_complete=complete_rules,
    help="The rules the games are scored by: a Schafkopf preset or a TOML rules file. "
    "Default: bavarian, with the record's own tariff.",
)
@click.option(
    "--set",
    "overrides",
    multiple=True,
    metavar="KEY=VALUE",
    shell_complete=complete_setting,
    help="Change one setting of those rules, after the record's own (repeatable).",
)
@format_option("text", "json")
def import_command(
    files: tuple[Path, ...],
    to: Path | None,
    session: Path | None,
    rules_spec: str | None,
    overrides: tuple[str, ...],
    fmt: str,
) -> None:
    """Read games played elsewhere into hand files and a night.

    Each FILE may be a NetSchafkopf protocol, openschafkopf's game lines or a sauspiel.de game
    page saved as HTML; import tells which by what it holds.

    Every game is replayed from its cards (every card dealt once, every trick following suit,
    each led by whoever took the one before) and scored by the rules: bavarian unless --rules
    says otherwise, with the tariff the record states (a NetSchafkopf protocol's prices: the
    game's price, schneider, schwarz, runs, knocks, Stoss, jungfrau), then any --set. Where the
    record keeps running totals, they must equal the night's after every game: else import says
    at which game and by how much, and writes nothing. A game scorepad cannot record as a hand
    (a deal thrown in, a Schieber with cards passed unseen) is listed, with the record's points,
    and a night records it as a hand the table scored (`hand --scores`).

    --to DIR writes each game as a hand file (`scorepad replay` takes it), named by the
    record's date and the game's number; --session FILE records the games as the hands of a new
    night, the players seated as the record seats them. Without either, import only checks.

    Examples:

    \b
        scorepad import "Schafkopfprotokoll vom 16.05.20.txt"
        scorepad import sample_sessions/records/netschafkopf-abend.txt --to hands \\
            --session abend.csv
        scorepad import games.txt --rules schafkopf --set game_values.partner=2 --format json
    """
    from ..importing import load, named, write

    several = len(files) > 1

    def progress(number: int, path: Path, record: Record) -> None:
        if several:
            click.echo(
                _("scorepad: [{number}/{count}] {path}: {what}, {games}").format(
                    number=number,
                    count=len(files),
                    path=path,
                    what=record.what,
                    games=_games(len(record.games)),
                ),
                err=True,
            )

    imported = load(files, rules_spec, overrides, session is not None, progress)
    if to is not None:
        imported = named(imported, to)
    if to is not None or session is not None:
        imported = write(imported, session)
    if fmt == "json":
        from ..render import to_json

        click.echo(to_json(_data(imported)))
        return
    _echo(imported)


def _games(count: int) -> str:
    return ngettext("{count} game", "{count} games", count).format(count=count)


def _played(tallied: Tallied) -> str:
    """What was played, as the table shows it."""
    from ..replay import game_text

    game = tallied.game
    if game.skipped:
        return _("not replayed: {why}").format(why=re.split(r"[,;(:]", game.skipped)[0].strip())
    if game.declarer is None:
        return game_text(game.game).capitalize()
    what = game_text(game.game)
    if game.call is not None:
        what += f" ({game.call})"
    return f"{game.declarer}: {what}"


def _echo(imported: Imported) -> None:
    from ..render import Points, render

    for number, source in enumerate(imported.sources):
        if number:
            click.echo()
        record = source.record
        date = f", {record.date}" if record.date else ""
        click.echo(f"{source.path}: {record.what}, {_games(len(record.games))}{date}.")
        files = imported.to is not None
        headers = ["#", _("Dealer"), _("Played"), *record.players]
        if files:
            headers.append(_("Hand file"))
        rows: list[list[Any]] = []
        for tallied, hand_file in zip(
            source.games, source.hand_files or [None] * len(source.games), strict=True
        ):
            points = tallied.deltas or {}
            row = [
                tallied.game.number,
                tallied.game.dealer,
                _played(tallied),
                *(Points(points.get(p, 0)) for p in record.players),
            ]
            if files:
                row.append(hand_file.name if hand_file is not None else "")
            rows.append(row)
        totals = _totals(source)
        rows.append(["", "", _("Total"), *(Points(totals[p]) for p in record.players)])
        if files:
            rows[-1].append("")
        align = ["right", "left", "left", *["right"] * len(record.players)]
        click.echo(render(headers, rows, "text", [*align, "left"] if files else align))
        click.echo(_said_of(source))
    _echo_skipped(imported)
    _echo_written(imported)


def _totals(source: Source) -> dict[str, int]:
    totals = dict.fromkeys(source.record.players, 0)
    for tallied in source.games:
        for player, points in (tallied.deltas or {}).items():
            totals[player] += points
    return totals


def _said_of(source: Source) -> str:
    """What the rules were and what the totals were held to."""
    rules = _("Scored by {name} rules").format(name=source.rules.name)
    if source.settings:
        rules += _(" with {settings}").format(settings=" ".join(source.settings))
    checked = sum(1 for t in source.games if t.game.totals is not None)
    if checked:
        said = _("Every running total equals the record's, after each of its {games}.").format(
            games=_games(checked)
        )
    else:
        said = _("The record keeps no running totals to hold them to.")
    return "\n".join([*wrap(f"{rules}.", 100), said])


def _echo_skipped(imported: Imported) -> None:
    if not imported.skipped:
        return
    click.echo()
    heading = ngettext(
        "Not replayed ({count}): a game scorepad cannot replay as a hand (no hand file); the "
        "totals above count its points as the record has them, and a night records it as a "
        "hand the table scored (--scores):",
        "Not replayed ({count}): games scorepad cannot replay as hands (no hand files); the "
        "totals above count their points as the record has them, and a night records them as "
        "hands the table scored (--scores):",
        len(imported.skipped),
    ).format(count=len(imported.skipped))
    click.echo("\n".join(wrap(heading, 100)))
    for source, tallied in imported.skipped:
        game = tallied.game
        points = ", ".join(f"{p} {n:+d}" for p, n in (game.deltas or {}).items())
        item = _("- {path}:{line}: game {number}: {why}: {points}").format(
            path=source.path, line=game.line, number=game.number, why=game.skipped, points=points
        )
        click.echo("\n".join(wrap(item, 100, subsequent_indent="  ")))


def _echo_written(imported: Imported) -> None:
    click.echo()
    hand_files = [p for s in imported.sources for p in s.hand_files if p is not None]
    if imported.to is not None:
        click.echo(
            ngettext(
                "Wrote {count} hand file into {to}.",
                "Wrote {count} hand files into {to}.",
                len(hand_files),
            ).format(count=len(hand_files), to=imported.to)
        )
    if imported.session is not None:
        click.echo(
            ngettext(
                "Wrote the night {session}: {count} hand.",
                "Wrote the night {session}: {count} hands.",
                imported.recorded,
            ).format(session=imported.session, count=imported.recorded)
            + (_(" Its totals leave out the games not recorded.") if imported.left_out else "")
        )
    if imported.to is None and imported.session is None:
        click.echo(_("Nothing written: --to DIR writes the hand files, --session FILE a night."))


def _data(imported: Imported) -> dict[str, Any]:
    """What was imported, as JSON carries it."""
    return {
        "rules": imported.spec,
        "files": [_source_data(s) for s in imported.sources],
        "to": str(imported.to) if imported.to is not None else None,
        "hand_files": sum(1 for s in imported.sources for p in s.hand_files if p is not None),
        "session": str(imported.session) if imported.session is not None else None,
        "recorded": imported.recorded,
        "skipped": [
            {
                "file": str(source.path),
                "number": t.game.number,
                "line": t.game.line,
                "why": t.game.skipped,
                "points": dict(t.game.deltas or {}),
            }
            for source, t in imported.skipped
        ],
    }


def _source_data(source: Source) -> dict[str, Any]:
    record = source.record
    hand_files: Sequence[Path | None] = source.hand_files or [None] * len(source.games)
    return {
        "file": str(source.path),
        "format": record.kind,
        "players": list(record.players),
        "date": record.date,
        "rules": source.rules.name,
        "settings": list(source.settings),
        "games": [
            {
                "number": t.game.number,
                "line": t.game.line,
                "dealer": t.game.dealer,
                "declarer": t.game.declarer,
                "game": t.game.game or None,
                "call": str(t.game.call) if t.game.call is not None else None,
                "knocks": t.game.knocks,
                "stoss": t.game.stoss + (1 if t.game.crack else 0) + (1 if t.game.recrack else 0),
                "points": dict(t.deltas or {}),
                "totals": dict(t.game.totals) if t.game.totals is not None else None,
                "hand_file": str(path) if path is not None else None,
                "skipped": t.game.skipped or None,
            }
            for t, path in zip(source.games, hand_files, strict=True)
        ],
    }
