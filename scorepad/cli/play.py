"""Guided entry: `scorepad play` asks for each hand in turn."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .. import i18n
from ..errors import ScorepadError
from ..games import BY_NAME as GAME_BY_NAME
from ..games import WonBy
from ..i18n import gettext as _
from ..i18n import ngettext
from ._asking import (
    Stop,
    ask,
    find_name,
    folded,
    one_of,
    record_or_note,
    some_of,
    use_readline,
    whole,
    yes,
)
from ._common import (
    CONTEXT_SETTINGS,
    echo_recorded,
    hand_options,
    open_session,
    race_line,
    rules_in_force,
    score_table,
    session_file_option,
    totals_table,
    use_color,
)

if TYPE_CHECKING:
    from ..ledger import Ledger
    from ..rules import Rules
    from ..scoring import Hand, PickerHand, Score, Seating
    from ..session import Session
    from ..store.format import Row


CHANGES = ("undo", "amend", "void", "join", "leave", "penalty", "bock", "scores")
"""The words that start a change at "Who picked?" (see `_asking.HELP`)."""

GERMAN_CHANGES = {
    "zurück": "undo",
    "rückgängig": "undo",
    "ändern": "amend",
    "berichtigen": "amend",
    "streichen": "void",
    "kommt": "join",
    "dazu": "join",
    "geht": "leave",
    "strafe": "penalty",
}
"""In German, the German words for the changes too (`bock` is Bock): each as its English word
(which keeps working). They are matched as names are (`zuruck`, `Ändern`), and `ae`, `oe`,
`ue` stand for `ä`, `ö`, `ü` as well (`zurueck`)."""

_GERMAN_WORDS = {
    **{folded(w.replace("ä", "ae").replace("ü", "ue")): c for w, c in GERMAN_CHANGES.items()},
    **{folded(w): c for w, c in GERMAN_CHANGES.items()},
}


def _speaks_german() -> bool:
    return i18n.language() == "de"


def change_words() -> tuple[str, ...]:
    """The words that start a change in the language in force (Tab completes them)."""
    return (*CHANGES, *GERMAN_CHANGES) if _speaks_german() else CHANGES


def _who(
    players: Sequence[str], extra: str | None, seats: Sequence[str] = ()
) -> Callable[[str], Any]:
    """The answer to "Who picked?": a player, leaster or doubler, a change (undo, amend N ...,
    void N, join NAME, leave NAME, penalty ...) as (word, the rest), or None to stop."""
    pick = one_of(players, (extra,) if extra else (), True, seats)

    def check(text: str) -> Any:
        word, _sep, rest = text.partition(" ")
        typed, rest = word.lower(), rest.strip()
        word = typed
        german = _GERMAN_WORDS.get(folded(typed)) if _speaks_german() else None
        if german and (rest or not any(folded(p) == folded(typed) for p in players)):
            word = german  # (a player so named is the player, when nothing follows)
        if word == "undo" or (word in CHANGES and rest):
            return (word, rest)
        if word == "bock" and not any(folded(p) == "bock" for p in players):
            return (word, rest)
        if word in ("amend", "void"):
            raise ScorepadError(
                _("write: {word} N (the hand's number), e.g. {word} 3").format(word=typed)
            )
        if extra == "pot" and typed == "stock" and _speaks_german():  # (the pot, in Bavarian)
            return "pot"
        return pick(text)

    return check


def _hand_number(text: str) -> tuple[int, str]:
    """`N REST`: a hand's number and what follows it."""
    number, _sep, rest = text.partition(" ")
    if not (number.isascii() and number.isdigit()) or len(number) > 9 or int(number) < 1:
        raise ScorepadError(_("{number}: not a hand's number; e.g. 3").format(number=number[:20]))
    return int(number), rest.strip()


def _amend_command() -> click.Command:
    """The options `amend N ...` takes in play: those of `scorepad amend` (one hand's inputs,
    their --no- forms, --out and --note), parsed by click as the command line parses them."""

    @click.command("amend", add_help_option=False)
    @hand_options(amend=True)
    @click.option("--out", multiple=True)
    @click.option("--note", default="")
    def amend(**params: Any) -> None:  # pragma: no cover - (only parsed, never run)
        pass

    return amend


def _amend(session: Session, text: str) -> None:
    """`amend N OPTIONS`: correct hand N as `scorepad amend N OPTIONS` would."""
    from ..hands import amend_changes

    number, rest = _hand_number(text)
    try:
        words = shlex.split(rest)
        params = _amend_command().make_context("amend", words).params
    except ValueError as exc:  # (shlex: a quote not closed)
        raise ScorepadError(_("amend {number}: {exc}").format(number=number, exc=exc)) from None
    except click.ClickException as exc:
        raise ScorepadError(
            _("amend {number}: {format_message}").format(
                number=number, format_message=exc.format_message()
            )
        ) from None
    note, out = params.pop("note"), params.pop("out")
    changes = amend_changes(params, out)
    if not changes:
        raise ScorepadError(
            _("amend {number}: give what changes, e.g. amend {number} --points 58").format(
                number=number
            )
        )
    row, result, state = session.amend(number, changes, note)
    echo_recorded(session.path, row, result, state, "text")


def _to() -> tuple[str, ...]:
    """The word before the one paid in `penalty NAME N to NAME` (in German `an` too)."""
    return ("to", "an") if _speaks_german() else ("to",)


def _change(session: Session, what: str, name: str) -> None:
    """Undo, amend or void a hand, seat a player or let one leave, and say what happened."""
    try:
        if what == "undo":
            undone, _unused, _unused2, state = session.undo(name or "undo during play")
            click.echo(_("Undid {undone}.").format(undone=undone))
            click.echo(totals_table(state))
        elif what == "amend":
            _amend(session, name)
        elif what == "void":
            number, reason = _hand_number(name)
            row, state = session.void(number, reason or "voided during play")
            click.echo(
                _("Hand {ref} is void ({note}): its points are reversed.").format(
                    ref=row.ref, note=row.note
                )
            )
            click.echo(totals_table(state))
        elif what == "penalty":
            from ..scoring import Penalty

            words = name.split()
            if (
                len(words) not in (2, 4)
                or not (words[1].isascii() and words[1].isdigit())
                or len(words[1]) > 9
                or (len(words) == 4 and words[2].lower() not in _to())
            ):
                raise ScorepadError(_("write: penalty NAME N, or penalty NAME N to NAME"))
            penalty = Penalty((), words[0], int(words[1]), words[3] if len(words) == 4 else None)
            row, result, state = session.penalty(penalty, "penalty during play")
            from ..reports import summary_text

            click.echo(summary_text(row, result))
            click.echo(totals_table(state))
        elif what == "scores":
            _scores(session, name)
        elif what == "bock":
            if name and not (name.isascii() and name.isdigit() and 1 <= int(name[:3]) <= 20):
                raise ScorepadError(_("write: bock, or bock N (1 to 20 rounds)"))
            rounds = int(name) if name else 1
            _row, state = session.bock(rounds, "Bock during play")
            from ..reports import bock_owed

            started = ngettext("1 Bock round", "{count} Bock rounds", rounds).format(count=rounds)
            owed = bock_owed(state)
            click.echo(
                ngettext(
                    "Bock: {started} started; {owed} Bock hand owed.",
                    "Bock: {started} started; {owed} Bock hands owed.",
                    owed,
                ).format(started=started, owed=owed)
            )
        elif what == "join":
            player, _place, state = session.seat_add(name)
            click.echo(
                _("{player} joins the table. Seats: {seated}.").format(
                    player=player, seated=", ".join(state.seated)
                )
            )
        else:
            seated = session.state().seated
            player, state = session.seat_remove(find_name(name, seated, seated))
            click.echo(
                _("{player} leaves the table. Seats: {seated}.").format(
                    player=player, seated=", ".join(state.seated)
                )
            )
    except ScorepadError as exc:
        click.echo(f"  {exc}", err=True)


def _scores(session: Session, text: str) -> None:
    """`scores NAME=N,...`: a hand the table scores itself, recorded as given."""
    from ..hands import build_hand
    from ..store.format import whole

    scores: dict[str, int] = {}
    for item in text.split(","):
        name, sep, number = item.strip().rpartition("=")
        if not sep or not name.strip() or whole(number.strip()) is None or len(number) > 9:
            raise ScorepadError(_("write: scores NAME=N,NAME=N,... (e.g. scores Ann=2,Bob=-2)"))
        scores[name.strip()] = int(number)
    hand = build_hand(session.state().seated, {"scores": scores})
    row, result, state = session.record(hand, "scored during play")
    from ..reports import summary_text

    click.echo(summary_text(row, result))
    click.echo(totals_table(state))


def _offer_new(session: Session) -> None:
    """No session file yet: offer to start one."""
    from ..rules import load_rules
    from ..scoring import seat
    from ..session import Session

    path = session.path
    if not ask(
        _("There is no session at {path}. Start one? [Y/n]").format(path=path),
        lambda t: yes(t or "y"),
    ):
        raise ScorepadError(
            _("{path}: no such session file; start one with `scorepad new`").format(path=path)
        )

    from ..names import PRESETS

    rules = ask(
        _("Rules? ({presets}, or a rules file; Enter for standard)").format(
            presets=", ".join(PRESETS)
        ),
        lambda text: load_rules(text or None),
        complete=PRESETS,
    )

    def players(text: str) -> tuple[str, ...]:
        from ..store.format import check_new_name

        names = tuple(check_new_name(n) for n in text.split(",") if n.strip())
        seat(rules, names)  # can this table be dealt at all?
        return names

    names = ask(_("Players, in seat order (A,B,C,...)?"), players)
    Session.create(path, names, rules, names[-1])
    click.echo(
        _("Started {path}: {names}; rules: {summary}.").format(
            path=path, names=", ".join(names), summary=rules.summary()
        )
    )


@click.command(context_settings=CONTEXT_SETTINGS)
@session_file_option
@click.pass_obj
def play(path: Path) -> None:
    """Record the night hand by hand, answering questions (the table's guided mode).

    For each hand it asks who picked (or leaster / doubler / pot), the partner, the points, the
    tricks and any doublings, offering the session's names (a name may be typed in any case,
    without its accents, by its first letters or by seat number; Tab completes it); shows the
    hand's points and asks before recording it (n, no or cancel records nothing; an answer other
    than yes or no is a note to record it with); then shows the totals. Every answer is checked
    as `hand` checks it, and a wrong one is asked again; nothing is recorded half way. At "Who
    picked?" `undo`, `amend N OPTIONS`, `void N`, `join NAME` and `leave NAME` change the
    ledger; `?` shows the help. With no session file it offers to start one, asking the rules
    and the players. An empty answer to "Who picked?" or Ctrl-D ends it; Ctrl-C stops at once,
    saying the hand being entered was not recorded (exit status 130).

    Example:

    \b
        scorepad -f friday.csv play
    """
    try:
        _play(path)
    except KeyboardInterrupt:
        click.echo(_("\nStopped: the hand being entered was not recorded."), err=True)
        raise SystemExit(130) from None


def _play(path: Path) -> None:
    from ..render import Points, render

    use_readline()
    session = open_session(path)
    if not path.exists():
        try:
            _offer_new(session)
        except Stop:
            raise ScorepadError(
                _(
                    "{path}: no such session file; start one with `scorepad new --players "
                    "A,B,C,D,E` (or give -f FILE)"
                ).format(path=path)
            ) from None
    with session.reading() as reading:  # a damaged file stops here, before any question
        head, state = reading.head, reading.state()
    state.check_night_open()  # (the night's last hand was played: nothing to ask)
    click.echo(
        _(
            "Recording into {path}; rules in force: {rules_in_force}. ? for help; an "
            "empty answer to 'Who picked?' or Ctrl-D ends."
        ).format(path=path, rules_in_force=rules_in_force(head, state))
    )
    while True:
        try:
            recorded = _play_one(session)
        except Stop:
            break
        if recorded is None:
            continue
        state = recorded[2]
        click.echo(totals_table(state))
        race = race_line(state)
        if race:
            click.echo(race)
            break
        if recorded[0].last:
            click.echo(_("That was the night's last hand."))
            break
    state = session.state()
    order = sorted(state.totals, key=lambda p: -state.totals[p])
    click.echo()
    click.echo(_("Standings:"))
    click.echo(
        render(
            ("Player", "Total"),
            [(p, Points(state.totals[p])) for p in order],
            colalign=("left", "right"),
            color=use_color("text"),
        )
    )


def _play_one(session: Session) -> tuple[Row, Score | None, Ledger] | None:
    """Ask for one hand and record it; returns what was recorded, or None to start over."""

    from ..scoring import LeasterHand, SchwanzerHand, seat

    state = session.state()
    rules = state.rules
    seating = seat(rules, state.seated, state.next_dealer)
    # (every question lists the players in seat order, as the seat numbers run)
    players = [p for p in state.seated if p in seating.order]
    click.echo()
    from ..reports import next_hand

    click.echo(next_hand(state).text(next_=False))
    extra = {
        "leaster": "leaster",
        "doubler": "doubler",
        "schwanzer": "schwanzer",
        "ramsch": "ramsch",
        "pot": "pot",
    }.get(rules.all_pass)
    seats = state.seated
    numbered = [f"{seats.index(p) + 1} {p}" for p in seats if p in players]
    shown = "Stock" if extra == "pot" and _speaks_german() else extra
    choices = ", ".join(numbered + ([shown] if shown else []))
    who = ask(
        _("Who picked? ({choices}; ? for more; Enter to stop)").format(choices=choices),
        _who(players, extra, seats),
        complete=[*players, *([shown] if shown else []), *change_words()],
    )
    if who is None:
        raise Stop
    if isinstance(who, tuple):  # undo, join or leave
        _change(session, *who)
        return None
    if who == "doubler":
        if not ask(
            _("Record a doubler (the next hand is doubled)? [Y/n]"), lambda t: yes(t or "y")
        ):
            return None
        row, state = session.record_doubler()
        from ..reports import summary_text

        click.echo(summary_text(row))
        return row, None, state
    if who == "pot":
        from ..pot import ante

        each = ante(rules)
        if not ask(
            _(
                "Everyone passed: record hand {hand} into the pot ({each} from each player)? [Y/n]"
            ).format(hand=state.last_hand + 1, each=each),
            lambda t: yes(t or "y"),
        ):
            return None
        row, result, state = session.record_pot()
        from ..reports import summary_text

        click.echo(summary_text(row, result))
        return row, result, state
    hand: Hand
    if who == "leaster":
        winner = ask(
            _("Who won the leaster? ({players})").format(players=", ".join(players)),
            one_of(players, seats=state.seated),
            complete=players,
        )
        hand = LeasterHand(state.seated, winner=winner)
    elif who == "schwanzer":
        losers = ask(
            _("Who had the most schwanzer points? ({players}; A,B for a tie)").format(
                players=", ".join(players)
            ),
            some_of(players, state.seated),
            complete=players,
        )
        hand = SchwanzerHand(state.seated, losers=losers)
    elif who == "ramsch":
        hand = _ask_ramsch(state, players)
    else:
        hand = _ask_picker_hand(state, seating, who)
    if rules.last_hand_doubled and ask(_("The night's last hand (doubled)? [y/N]"), yes):
        hand = hand._replace(last=True)
    try:
        preview = session.preview(hand)
    except ScorepadError as exc:
        click.echo(_("  {exc}. Let's take that hand again.").format(exc=exc), err=True)
        return None
    click.echo(score_table(preview))
    record, note = ask(
        _("Record hand {last_hand}? [Y/n, or a note to record it with]").format(
            last_hand=state.last_hand + 1
        ),
        record_or_note,
    )
    if not record:
        click.echo(_("Not recorded."))
        return None
    row, result, state = session.record(hand, note)
    from ..reports import summary_text

    click.echo(summary_text(row, result))
    return row, result, state


def _ask_ramsch(state: Ledger, players: list[str]) -> Hand:
    """A Ramsch: the loser (or a durchmarsch), who took no trick, and any knocks."""
    from ..scoring import RamschHand

    def loser_or_durchmarsch(text: str) -> tuple[str, str]:
        word, _unused, name = text.partition(" ")
        if word.lower() == "durchmarsch" and name.strip():
            return "durchmarsch", find_name(name, players, state.seated)
        return "loser", find_name(text, players, state.seated)

    what, name = ask(
        _(
            "Who took the most card points, the loser? ({players}; or 'durchmarsch "
            "NAME' if one took every trick)"
        ).format(players=", ".join(players)),
        loser_or_durchmarsch,
        complete=[*players, "durchmarsch"],
    )
    knocks = ask(_("Knocks? (0 for none)"), whole(0, len(players)), "0")
    if what == "durchmarsch":
        return RamschHand(state.seated, durchmarsch=name, knocks=knocks)
    others = [p for p in players if p != name]

    def nobody_or_some(text: str) -> tuple[str, ...]:
        return some_of(others, state.seated)(text) if text else ()

    jungfrau = ask(
        _("Who took no trick (jungfrau)? ({others}; A,B for more; Enter for nobody)").format(
            others=", ".join(others)
        ),
        nobody_or_some,
        complete=others,
    )
    return RamschHand(state.seated, losers=(name,), jungfrau=jungfrau, knocks=knocks)


def _ask_picker_hand(state: Ledger, seating: Seating, picker: str) -> PickerHand:
    from ..scoring import PickerHand, tricks_needed

    rules = state.rules
    others = [p for p in seating.players if p in seating.order and p != picker]  # seat order
    game: str | None = None
    partners: tuple[str, ...] = ()
    alone = False
    if rules.is_schafkopf:
        from ..games import GAMES

        playable = [g for g in rules.game_values if g in GAMES]
        if "solo-tout" in playable:
            playable.append("sie")
        games = sorted(playable, key=lambda g: (g != "partner", g))

        from ..games import ALIASES
        from ..i18n import game_word

        # (offered by the names the table says, German ones in German; the keys work too)
        shown = [game_word(g) for g in games]
        named = {
            **{w.lower(): g for w, g in ALIASES.items() if g in games},
            **{w.lower(): g for w, g in zip(shown, games, strict=True)},
            **{g: g for g in games},
        }

        def pick_game(text: str) -> str:
            if text.strip().lower() not in named:
                raise ScorepadError(_("choose one of {games}").format(games=", ".join(shown)))
            return named[text.strip().lower()]

        game = ask(
            _("Game? ({games})").format(games=", ".join(shown)), pick_game, game_word("partner")
        )
        if GAME_BY_NAME[game].partner:
            question = (
                _("Who held the called ace, the partner? ({others})")
                if game == "partner"
                else _("Who took the offered trump, the partner? ({others})")
            )
            partners = (
                ask(
                    question.format(others=", ".join(others)),
                    one_of(others, seats=state.seated),
                    complete=others,
                ),
            )
    elif seating.deal.partners:
        alone_word = _("alone")  # (allein, in German: either word is taken)

        def pick_partners(text: str) -> str | tuple[str, ...]:
            if text.lower() in ("alone", alone_word.lower()):
                return "alone"
            names = tuple(find_name(n, others, state.seated) for n in text.split(",") if n.strip())
            if not names:
                raise ScorepadError(_("name the partner, or say alone"))
            if len(names) > seating.deal.partners:
                raise ScorepadError(
                    _("at most {partners} partner(s)").format(partners=seating.deal.partners)
                )
            return names

        answer = ask(
            _("Partner? ({others}, alone)").format(others=", ".join(others)),
            pick_partners,
            complete=[*others, alone_word],
        )
        alone = answer == "alone"
        partners = () if isinstance(answer, str) else answer
    else:
        alone = True
    called = _ask_called(rules, seating, game, partners)
    tricks_in_hand = seating.deal.cards
    if game is not None and GAME_BY_NAME[game].won_by == WonBy.NO_TRICK:
        tricks = ask(
            _("Tricks the declarer took (0-{tricks_in_hand}; a bettel is won with none)?").format(
                tricks_in_hand=tricks_in_hand
            ),
            whole(0, tricks_in_hand),
        )
        knocks = ask(_("Knocks? (0 for none)"), whole(0, len(seating.order)), "0")
        return PickerHand(
            state.seated, picker, 0, tricks=tricks, game=game, knocks=knocks, called=called
        )
    points = ask(
        _("Card points of the declarer's side (0-120)?")  # (nothing is laid away)
        if rules.is_schafkopf and not seating.deal.blind
        else _("Card points of the picker's side, bury included (0-120)?"),
        whole(0, 120),
    )
    need = tricks_needed(
        rules,
        PickerHand(
            state.seated,
            picker,
            points,
            dealer=seating.dealer,
            partners=tuple(partners),
            alone=alone,
            game=game,
        ),
    )
    if need:  # the points leave the level open: the tricks are needed, not optional
        question = (
            _(
                "Tricks the picker's side took (0-{tricks_in_hand}; {points} points "
                "could be every trick or not)?"
            )
            if points
            else _(
                "Tricks the picker's side took (0-{tricks_in_hand}; {points} points "
                "could be no trick or not)?"
            )
        )
        tricks = ask(
            question.format(tricks_in_hand=tricks_in_hand, points=points),
            whole(0, tricks_in_hand),
        )
    else:
        tricks = ask(
            _("Tricks the picker's side took (0-{tricks_in_hand}; Enter if not counted)?").format(
                tricks_in_hand=tricks_in_hand
            ),
            whole(0, tricks_in_hand, blank=(None,)),
        )
    crack = recrack = None
    stoss = 0
    if rules.cracks and rules.is_schafkopf:  # Stoss, Re, Sup, ...: counted
        stoss = ask(
            _("Stoss calls (Kontra, Re, ...)? (0 to {max_stoss})").format(
                max_stoss=rules.max_stoss
            ),
            whole(0, rules.max_stoss),
            "0",
        )
    elif rules.cracks:
        side = {picker, *partners}
        after = seating.order[seating.order.index(picker) + 1 :]
        can = [
            p
            for p in (after if rules.crack_by == "after-picker" else seating.order)
            if p not in side
        ]
        if can:
            crack = ask(
                _("Cracked by? ({can}; Enter for nobody)").format(can=", ".join(can)),
                one_of(can, allow_blank=True, seats=state.seated),
                complete=can,
            )
            if crack:
                recrack = ask(_("Re-cracked? [y/N]"), yes)
    runs = ask(_("Runs? (0 for none)"), whole(0, 14), "0") if rules.is_schafkopf else None
    knocks = (
        ask(_("Knocks? (0 for none)"), whole(0, len(seating.order)), "0")
        if rules.is_schafkopf
        else 0
    )
    blitz = ask(_("Blitzes shown? (0-2)"), whole(0, 2), "0") if rules.blitz else 0
    forced = False
    if rules.all_pass == "forced" and picker == seating.dealer:
        forced = ask(_("Was the pick forced? [y/N]"), yes)
    return PickerHand(
        state.seated,
        picker,
        points,
        partners=tuple(partners),
        alone=alone,
        tricks=tricks,
        crack=crack,
        recrack=bool(recrack),
        forced=forced,
        game=game,
        runs=runs,
        blitz=blitz,
        knocks=knocks,
        stoss=stoss,
        called=called,
    )


def _ask_called(
    rules: Rules, seating: Seating, game: str | None, partners: tuple[str, ...]
) -> str | None:
    """What the picker called (optional: Enter if the table did not note it), where the
    partner was found by a called ace: a Sauspiel, or a Sheepshead deal that calls one."""
    from ..scoring import PickerHand
    from ..scoring.called import calls_of, spelled

    if rules.is_schafkopf:
        if game != "partner":
            return None
        question = _("Called Sau? (eichel, gras, schellen; Enter if not noted)")
    else:
        if seating.deal.call != "ace" or not partners:
            return None
        question = _("Called suit? (clubs, spades, hearts, ten-SUIT, unknown; Enter if not noted)")
    calls = calls_of(rules)

    def pick(text: str) -> str | None:
        if not text:
            return None
        called = spelled(rules, PickerHand((), "", 0, called=text)).called
        if called not in calls:
            raise ScorepadError(_("choose one of {calls}").format(calls=", ".join(calls)))
        return called

    answer: str | None = ask(question, pick, complete=list(calls))
    return answer
