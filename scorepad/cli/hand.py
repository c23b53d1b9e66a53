"""Recording a hand: the command a table runs most, so it is a module of its own (a command's
module builds all its commands' options as it is imported)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..i18n import gettext as _
from ._common import (
    CONTEXT_SETTINGS,
    build_hand,
    complete_player,
    echo_recorded,
    hand_options,
    open_session,
    session_file_option,
    table_format_option,
)


@click.command(context_settings=CONTEXT_SETTINGS)
@hand_options()
@click.option(
    "--doubler",
    is_flag=True,
    help="Everyone passed and the table plays doublers: the next hand is doubled.",
)
@click.option(
    "--pot",
    is_flag=True,
    help="Everyone passed and the table plays the pot (all_pass = pot): each player pays "
    "pot_ante into it, and the next hand with a picker plays for the whole pot.",
)
@click.option(
    "--out",
    multiple=True,
    metavar="NAME",
    shell_complete=complete_player,
    help="Sit this player out for this hand (repeatable).",
)
@click.option("--note", default="", metavar="TEXT", help="A note kept with the hand.")
@click.option("--explain", is_flag=True, help="Also print how the hand was scored.")
@table_format_option()
@session_file_option
@click.pass_obj
def hand(
    path: Path,
    /,
    doubler: bool,
    pot: bool,
    out: tuple[str, ...],
    note: str,
    explain: bool,
    fmt: str,
    **params: Any,
) -> None:
    """Record a hand as it ends: score it, append it to the session, show the totals.

    The options are those of `check` (without --players, --rules and --set, which come from the
    session). The dealer is whoever is next unless --dealer says otherwise, and doublers pending
    from earlier hands are applied by themselves.

    Examples:

    \b
        scorepad hand --picker Ann --partner Bob --points 64 --tricks 4
        scorepad hand --picker Cy --alone --points 95 --crack Ed --note "Cy's big one"
        scorepad hand --leaster --winner Dee
        scorepad hand --doubler
        scorepad hand --pot
        scorepad hand --schwanzer --loser Ann
        scorepad hand --picker Bob --partner Cy --points 70 --last
    """

    if doubler or pot:
        from ..errors import HandError
        from ..hands import check_doubler

        if doubler and pot:
            raise click.UsageError(
                _("--doubler and --pot: everyone passed once, and the table plays one")
            )
        try:
            check_doubler(params, "pot" if pot else "doubler")
        except HandError as exc:
            raise click.UsageError(str(exc)) from None
    session = open_session(path)
    if doubler:
        row, state = session.record_doubler(params["dealer"], note)
        result = None
    elif pot:
        row, result, state = session.record_pot(params["dealer"], out, note)
    else:
        row, result, state = session.record(build_hand((), params, out), note)
    echo_recorded(path, row, result, state, fmt, explain)
