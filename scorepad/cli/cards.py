"""Commands without a session file: check a hand, show the rules, count, trick, replay."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .. import i18n
from ..errors import ScorepadError
from ..i18n import gettext as _
from ..i18n import ngettext
from ._common import (
    CONTEXT_SETTINGS,
    GameChoice,
    WholeRange,
    build_hand,
    complete_rules,
    complete_setting,
    hand_options,
    next_line,
    open_session,
    rules_options,
    rules_sentence,
    score_table,
    session_file_option,
    split_names,
    table_format_option,
)

if TYPE_CHECKING:
    from ..cards import Game
    from ..replay import HandFile, HandReplay
    from ..rules import Rules
    from ..scoring import Hand, Score


@click.command(context_settings=CONTEXT_SETTINGS)
@rules_options
@click.option(
    "--players",
    required=True,
    callback=split_names,
    metavar="A,B,C,...",
    help="Everyone at the table, in seat order (which is the picking order after the dealer).",
)
@hand_options()
@click.option(
    "--pot",
    "pot",
    type=WholeRange(min=1, max=1_000_000_000),
    metavar="N",
    help="The hand plays for a pot holding N (all_pass = pot): a win takes it, a loss pays "
    "into it.",
)
@click.option(
    "--explain",
    is_flag=True,
    help="Explain the score step by step: check always does (as `hand --explain` does).",
)
@table_format_option()
def check(
    rules_spec: str | None,
    overrides: tuple[str, ...],
    players: tuple[str, ...],
    fmt: str,
    explain: bool,
    pot: int | None,
    **params: Any,
) -> None:
    """Score one hand without a session file: each player's points, explained step by step.

    Use it to settle a disputed hand at the table. --points are the card points of the picker's
    side, bury included; --tricks the tricks that side took. The rules are a preset or a TOML
    file (--rules), with any setting changed for this call (--set).

    Examples:

    \b
        scorepad check --players Ann,Bob,Cy,Dee,Ed --picker Ann --partner Bob --points 64 --tricks 4
        scorepad check --rules pagat --players Ann,Bob,Cy,Dee,Ed --picker Ann --partner Bob \\
            --points 25 --crack Cy
        scorepad check --players Ann,Bob,Cy,Dee,Ed --leaster --leaster-points \\
            Ann=10,Bob=20,Cy=30,Dee=40,Ed=20 --leaster-tricks Ann=1,Bob=1,Cy=1,Dee=2,Ed=1
        scorepad check --rules schafkopf --players Ann,Bob,Cy,Dee --picker Ann --game solo \\
            --points 95 --tricks 7 --runs 3
        scorepad check --rules bavarian --players Ann,Bob,Cy,Dee --picker Ann --game wenz-tout \\
            --points 120 --tricks 8 --runs 2 --knocks 1
        scorepad check --rules bavarian --players Ann,Bob,Cy,Dee --ramsch \\
            --ramsch-points Ann=50,Bob=40,Cy=30,Dee=0 --jungfrau Dee
        scorepad check --set all_pass=schwanzer --players Ann,Bob,Cy,Dee,Ed --schwanzer \\
            --loser Ann
        scorepad check --set all_pass=pot --players Ann,Bob,Cy,Dee,Ed --picker Ann \\
            --partner Bob --points 64 --pot 10
    """
    from ..errors import HandError
    from ..rules import load_rules
    from ..scoring import PickerHand, score, tricks_needed
    from ..scoring.called import spelled

    rules = load_rules(rules_spec, overrides)
    hand = build_hand(players, params)
    if isinstance(hand, PickerHand):
        hand = spelled(rules, hand)  # (the called suit as the table writes it)
    why = tricks_needed(rules, hand)
    if why:
        raise HandError(why)
    result = score(rules, hand, explain=fmt != "csv")  # (a CSV table says no more)
    if pot is not None:
        result = _played_for_pot(rules, hand, result, pot)
    if fmt == "json":
        from ..render import to_json

        click.echo(
            to_json({"rules": rules.name, "overrides": list(rules.overrides), **result.to_dict()})
        )
        return
    click.echo(score_table(result, fmt=fmt))
    if fmt == "csv":
        return
    click.echo()
    click.echo(rules_sentence(rules))
    for line in result.explanation:
        click.echo(line)


def _played_for_pot(rules: Rules, hand: Hand, result: Score, pot: int) -> Score:
    """`check --pot N`: the hand as played for a pot holding N."""
    from ..errors import HandError
    from ..pot import played_for_pot, plays_for_pot
    from ..scoring import PickerHand, find_player

    if rules.all_pass != "pot":
        raise HandError(
            _(
                "--pot: {rules} rules have all_pass = {all_pass}; the pot needs "
                "all_pass = pot (--set all_pass=pot)"
            ).format(rules=rules.name, all_pass=rules.all_pass)
        )
    if not isinstance(hand, PickerHand) or not plays_for_pot(pot, result):
        return result  # (a 60-60 thrown in: the pot waits for the next hand)
    picker = find_player(hand.picker, hand.players, "--picker")
    partners = [find_player(p, hand.players, "--partner") for p in hand.partners]
    return played_for_pot(rules, result, picker, partners, pot)


@click.command("rules", context_settings=CONTEXT_SETTINGS)
@click.argument("spec", required=False, metavar="[NAME|PATH]", shell_complete=complete_rules)
@click.option(
    "--set",
    "overrides",
    multiple=True,
    metavar="KEY=VALUE",
    shell_complete=complete_setting,
    help="Override one setting (repeatable).",
)
@table_format_option("toml")
@session_file_option
@click.pass_context
def rules_command(
    ctx: click.Context, spec: str | None, overrides: tuple[str, ...], fmt: str
) -> None:
    """Show a rules table: every setting in force and what it means.

    NAME is a preset (standard, pagat, first-night, schafkopf, bavarian) and PATH a TOML file
    of your table's own rules, which may start from a preset (preset = "pagat") and change some
    settings. Without either: the rules in force in the session file (-f, or scorepad.csv here),
    with any change `scorepad set` made, else the standard preset. --format toml writes a
    complete rules file to start your own from.

    Examples:

    \b
        scorepad rules pagat
        scorepad rules standard --set all_pass=doubler --format toml > our-table.toml
        scorepad check --rules our-table.toml --players Ann,Bob,Cy,Dee,Ed --leaster --winner Cy
    """
    from ..rules import changed, describe, load_rules

    path = ctx.obj if isinstance(ctx.obj, Path) else None
    if spec is None and path is not None and path.exists():
        rules = open_session(path).state().rules  # the rules in force in the session
        if overrides:
            rules = changed(rules, overrides)
    else:
        rules = load_rules(spec, overrides)
    if fmt == "toml":
        import tomli_w

        click.echo(tomli_w.dumps(rules.to_dict()), nl=False)
        return
    if fmt == "json":
        from ..render import to_json

        click.echo(to_json(rules.to_dict()))
        return
    from ..render import render

    table = render(("Setting", "Value", "Meaning"), describe(rules), fmt)
    if fmt != "csv":
        click.echo(f"{rules_sentence(rules)} {_(rules.description)}.")
        click.echo()
    click.echo(table)


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("cards", nargs=-1, required=True, metavar="CARD...")
@table_format_option()
def count(cards: tuple[str, ...], fmt: str) -> None:
    """Count the card points of some cards (a trick, a bury, a side's pile).

    Cards are rank then suit: 7 8 9 10 J Q K A (T for ten) and C S H D (or ♣ ♠ ♥ ♦), e.g. QC
    10D; German names work too (Eichel-Ober, Herz-Sau, or short: EO, HA, S10).

    Example:

    \b
        scorepad count 10C AC 7D KC 9H
    """
    from ..cards import card_name, card_points, parse_cards
    from ..render import render, to_json

    hand = parse_cards(cards)
    total = card_points(hand)
    if fmt == "json":
        click.echo(
            to_json(
                {"points": total, "cards": [{"card": str(c), "points": c.points} for c in hand]}
            )
        )
        return
    rows = [(card_name(c), c.points) for c in hand]
    if fmt == "csv":
        click.echo(render(("Card", "Points"), rows, fmt))
        return
    click.echo(render(("Card", _augen(fmt)), [*rows, (_sum_word(), total)], fmt, ("left", "right")))


def _game_for(rules: Rules, game: str | None, trump: str | None) -> Game:
    """The trump order a trick is played in, by the rules' family and the game declared."""
    from ..cards import Game, parse_suit

    if not rules.is_schafkopf:
        for option, given in (("--game", game), ("--trump", trump)):
            if given:
                raise ScorepadError(
                    _(
                        "{option} belongs to Schafkopf; {name} rules are Sheepshead, where trump "
                        "never changes"
                    ).format(option=option, name=rules.name)
                )
        return Game.sheepshead()
    return Game.schafkopf(game or "partner", parse_suit(trump) if trump else None)


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument("cards", nargs=-1, required=True, metavar="CARD...")
@click.option(
    "--rules",
    "rules_spec",
    metavar="NAME|PATH",
    shell_complete=complete_rules,
    help="Rules preset or file (its family decides the trumps). Default: standard.",
)
@click.option("--game", type=GameChoice(), help="Schafkopf: the game being played.")
@click.option("--trump", metavar="SUIT", help="Schafkopf solo: the trump suit (C, S, H, D).")
@click.option(
    "--players",
    callback=split_names,
    metavar="A,B,...",
    help="Who played the cards, in the same order, to say who won.",
)
@table_format_option()
def trick(
    cards: tuple[str, ...],
    rules_spec: str | None,
    game: str | None,
    trump: str | None,
    players: tuple[str, ...] | None,
    fmt: str,
) -> None:
    """Say which card wins a trick, and why, and what the trick is worth.

    Give the cards in the order they were played. With --players (in the same order) it says
    who won.

    Examples:

    \b
        scorepad trick 10C AC 7D KC 9H
        scorepad trick --players Ann,Bob,Cy,Dee,Ed 10C AC 7D KC 9H
        scorepad trick --rules schafkopf --game wenz EO HU HA H10
    """
    from ..cards import card_name, card_points, parse_cards
    from ..render import render, to_json
    from ..rules import load_rules

    rules = load_rules(rules_spec)
    order = _game_for(rules, game, trump)
    played = parse_cards(cards, "trick")
    if players is not None and len(players) != len(played):
        raise ScorepadError(
            _("--players names {len_players} players for {len_played} cards").format(
                len_players=len(players), len_played=len(played)
            )
        )
    win = order.winner(played)
    points = card_points(played)
    why = order.why(played)
    winner = players[win] if players else None
    if fmt == "json":
        data = {
            "card": str(played[win]),
            "points": points,
            "why": why,
            "cards": [str(c) for c in played],
        }
        if winner:
            data["winner"] = winner
        click.echo(to_json(data))
        return
    rows = [
        (
            (players[i] if players else i + 1),
            card_name(c),
            _("trump") if order.is_trump(c) else "",
            c.points,
            _("wins") if i == win else "",
        )
        for i, c in enumerate(played)
    ]
    headers = ("Player" if players else "#", "Card", "Trump", _augen(fmt), "Winner")
    click.echo(render(headers, rows, fmt, ("left", "left", "left", "right", "left")))
    if fmt == "csv":
        return
    # (in English a Schafkopf card is named in German too; in German, by its name alone)
    english = i18n.language() != "de"
    german = f" ({played[win].german})" if rules.is_schafkopf and english else ""
    click.echo()
    if winner:
        text = _(
            "{player}'s {played}{german} wins: {why}. The trick is worth {points} card points."
        )
    else:
        text = _("{played}{german} wins: {why}. The trick is worth {points} card points.")
    click.echo(
        text.format(
            player=winner, played=card_name(played[win]), german=german, why=why, points=points
        )
    )


@click.command("replay", context_settings=CONTEXT_SETTINGS)
@click.argument(
    "hand_files",
    nargs=-1,
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="HAND_FILE...",
)
@click.option(
    "--record",
    is_flag=True,
    help="Append the hand to the session (-f) when nothing was found wrong.",
)
@click.option("--note", default="", metavar="TEXT", help="With --record: a note for the hand.")
@click.option(
    "--analyze",
    "analyze",
    is_flag=True,
    help="Then analyse every card with every card open, as `scorepad analyze` does.",
)
@table_format_option()
@session_file_option
@click.pass_obj
def replay_command(
    path: Path,
    hand_files: tuple[Path, ...],
    record: bool,
    note: str,
    analyze: bool,
    fmt: str,
) -> None:
    """Replay a whole hand from its cards: check the deal and every play, and score it.

    Each HAND_FILE is replayed in turn (several: each under its name; in JSON, a list). It is
    plain text (see the README): the players and the dealer, each player's cards,
    the blind, the picker, the bury, the call, and each trick's cards in the order played. It
    reports every renege (with the card that should have followed) and every breach of the
    called-ace rules, works out each trick, the picker's side's card points and tricks, and the
    score. It exits 1 when something was found wrong. --record appends the hand to the session,
    only when nothing was, the hand file's dealer deals next in the session, and the session
    has not recorded the same hand file already (the row keeps its digest). --analyze then
    finds, with every card open, who gave the outcome away (see `scorepad analyze`; in JSON,
    the key "analysis").

    Examples:

    \b
        scorepad replay sample_sessions/hands/friday-disputed.txt
        scorepad -f friday.csv replay hand.txt --record
    """
    from ..render import to_json

    several = len(hand_files) > 1
    # every file read and replayed first: a file that cannot be read stops the command before
    # anything is printed or recorded; JSON is printed whole at the end
    replayed = [_replayed(hand_file) for hand_file in hand_files]
    wrong, objects = False, []
    for number, (hand_file, parsed, rules, outcome) in enumerate(replayed):
        if several and fmt != "json":
            click.echo(f"{'' if number == 0 else chr(10)}==> {hand_file} <==")
        problems, data = _replay_one(path, hand_file, parsed, rules, outcome, record, note, fmt)
        if analyze:
            from .analyze import after_replay

            analysis = after_replay(hand_file, parsed, rules, fmt, data.get("recorded"))
            if fmt == "json":
                data["analysis"] = analysis
            elif analysis:
                click.echo()
                for line in analysis:
                    click.echo(line)
        objects.append(data)
        wrong |= problems
    if fmt == "json":
        if several:
            click.echo("[\n" + "\n,\n".join(map(to_json, objects)) + "\n]")
        else:
            click.echo(to_json(objects[0]))
    if wrong:
        sys.exit(1)


def read_hand_file(hand_file: Path) -> tuple[HandFile, Rules]:
    """A hand file read and its rules loaded; a problem as `FILE:LINE: message`."""
    from ..replay import HandFileError, parse_hand_file, rules_for
    from ..store.files import read_regular

    try:
        data = read_regular(hand_file)  # (None: a FIFO, a device: never waited on)
        if data is None:
            raise ScorepadError(_("{hand_file}: not a regular file").format(hand_file=hand_file))
        text = data.decode("utf-8-sig")
    except FileNotFoundError:
        raise ScorepadError(
            _("{hand_file}: no such hand file").format(hand_file=hand_file)
        ) from None
    except UnicodeDecodeError:
        raise ScorepadError(_("{hand_file}: not UTF-8 text").format(hand_file=hand_file)) from None
    except OSError as exc:
        raise ScorepadError(
            _("{hand_file}: cannot read: {strerror}").format(
                hand_file=hand_file, strerror=exc.strerror
            )
        ) from None
    try:
        parsed = parse_hand_file(text)
        return parsed, rules_for(parsed)
    except HandFileError as exc:
        raise ScorepadError(f"{hand_file}:{exc.line}: {exc.message}") from None


def _replayed(hand_file: Path) -> tuple[Path, HandFile, Rules, HandReplay]:
    """A hand file read and replayed; a problem as `FILE:LINE: message`."""
    from ..replay import HandFileError, replay

    parsed, rules = read_hand_file(hand_file)
    try:
        return hand_file, parsed, rules, replay(parsed, rules)
    except HandFileError as exc:
        raise ScorepadError(f"{hand_file}:{exc.line}: {exc.message}") from None


def _replay_one(
    path: Path,
    hand_file: Path,
    parsed: HandFile,
    rules: Rules,
    outcome: HandReplay,
    record: bool,
    note: str,
    fmt: str,
) -> tuple[bool, dict[str, Any]]:
    """Record a replayed hand if asked and show it (as text; JSON: its object, printed by the
    caller, "recorded" the hand's number or None): whether something was found wrong."""
    from ..render import render
    from ..replay import digest

    recorded = None
    if record:
        if outcome.problems:
            raise ScorepadError(
                _(
                    "not recorded: {len_problems} thing(s) found wrong (run without --record "
                    "to see them)"
                ).format(len_problems=len(outcome.problems))
            )

        recorded = open_session(path).record_replayed(outcome.hand(), digest(parsed), note)
    if fmt == "json":
        data: dict[str, Any] = {
            "rules": rules.name,
            "players": list(outcome.players),
            "dealer": outcome.dealer,
            "picker": outcome.picker,
            "partners": list(outcome.partners),
            "call": outcome.call_text,
            "bury": [str(c) for c in outcome.bury],
            "tricks": [
                {
                    "number": t.number,
                    "leader": t.leader,
                    "cards": [{"player": p, "card": str(c)} for p, c in t.plays],
                    "winner": t.winner,
                    "card": str(t.card),
                    "why": t.why,
                    "points": t.points,
                }
                for t in outcome.tricks
            ],
            "points": outcome.points,
            "player_points": dict(outcome.player_points) if outcome.player_points else None,
            "side_tricks": outcome.side_tricks,
            "runs": outcome.runs,
            "problems": [
                {"trick": p.trick, "player": p.player, "message": p.message}
                for p in outcome.problems
            ],
            "score": outcome.score.to_dict() if outcome.score else None,
            "recorded": recorded[0].hand if recorded else None,
        }
        return bool(outcome.problems), data
    else:
        _echo_replay(outcome, fmt, render)
        if recorded:
            click.echo()
            click.echo(_("Recorded into {path}:").format(path=path))
            row, result, state = recorded
            from ..reports import summary_text

            click.echo(summary_text(row, result))
            click.echo(next_line(state))
    return bool(outcome.problems), {"recorded": recorded[0].hand if recorded else None}


def _augen(fmt: str) -> str:
    """The header of a column of card points: in a German text table "Augen", as a Bavarian
    table counts them; "Points" otherwise (and in what programs read)."""
    if fmt in ("csv", "json", "tsv", "toml") or not i18n.german():
        return "Points"
    return _("Card points")


def _sum_word() -> str:
    """The last line of a count: "Total" (in German "Summe": its "Stand" is a standing)."""
    return _("Sum") if i18n.german() else _("Total")


def _echo_replay(outcome: HandReplay, fmt: str, render: Callable[..., str]) -> None:
    from ..cards import card_name

    words = _("declarer") if outcome.rules.is_schafkopf else _("picker")
    bury = " ".join(map(card_name, outcome.bury))
    head = _("{name} rules, {len_players} players; {dealer} deals.").format(
        name=outcome.rules.name, len_players=len(outcome.players), dealer=outcome.dealer
    )
    if outcome.picker is None:
        head += _(" Everyone passed: a Ramsch, everyone alone")
    else:
        head += (
            _(" {player} picks") if not outcome.rules.is_schafkopf else _(" {player} declares")
        ).format(player=outcome.picker)
        if bury:
            head += _(", buries {bury} ({sum} points)").format(
                bury=bury, sum=sum(c.points for c in outcome.bury)
            )
        head += _(" and {call}").format(call=outcome.call_text)
    if outcome.partners:
        head += ngettext(
            ": {players} is the partner", ": {players} are the partners", len(outcome.partners)
        ).format(players=", ".join(outcome.partners))
    click.echo(head + ".")
    rows = [
        (
            t.number,
            t.leader,
            " ".join(f"{p} {card_name(c)}" for p, c in t.plays),
            t.winner,
            f"{card_name(t.card)} ({t.why})",
            t.points,
        )
        for t in outcome.tricks
    ]
    click.echo(
        render(
            ("Trick", "Led by", "Cards played", "Won by", "With", _augen(fmt)),
            rows,
            fmt,
            ("right", "left", "left", "left", "left", "right"),
        )
    )
    if fmt == "csv":
        return
    click.echo()
    runs = _("; runs: {runs}").format(runs=outcome.runs) if outcome.runs is not None else ""
    if outcome.picker is None:
        taken = {p: sum(1 for t in outcome.tricks if t.winner == p) for p in outcome.players}
        points = outcome.player_points or {}
        click.echo(
            _("Card points (tricks): {players}.").format(
                players=", ".join(f"{p} {points.get(p, 0)} ({taken[p]})" for p in outcome.players)
            )
        )
    else:
        side = ", ".join((outcome.picker, *outcome.partners))
        click.echo(
            _(
                "The {words}'s side ({side}) took {points} card points{value} and "
                "{side_tricks} of {len_tricks} tricks{runs}."
            ).format(
                words=words,
                side=side,
                points=outcome.points,
                value=_(" with the bury") if outcome.bury else "",
                side_tricks=outcome.side_tricks,
                len_tricks=len(outcome.tricks),
                runs=runs,
            )
        )
    if outcome.score is not None:
        click.echo(score_table(outcome.score, fmt=fmt))
    click.echo()
    if outcome.problems:
        click.echo(_("Found wrong ({len_problems}):").format(len_problems=len(outcome.problems)))
        for problem in outcome.problems:
            click.echo(f"- {problem}")
    else:
        click.echo(_("Nothing found wrong: every card was played by the rules."))
