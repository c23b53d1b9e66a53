"""Every game of a record replayed as its hand file and scored by the rules given, held to what
the record says: the leader of every trick, who won, the card points, the partner, a Ramsch's
loser, and the record's running totals after every game.

A game scorepad cannot record as a hand (`RecordedGame.skipped`) keeps the record's own points in
the running totals, and is listed; `table_scored` is where such a game becomes a hand the table
scored itself once scorepad has one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..cards import Game, parse_suit
from ..errors import ScorepadError
from ..games import RUNS_MIN_GAMES, runs_min
from ..games import game as game_spec
from ..i18n import gettext as _
from ..replay import HandFileError, HandReplay, digest, parse_hand_file, replay
from ..rules import Rules, load_rules
from ..scoring import Hand, Outcome
from . import Record, RecordedGame, RecordError
from .handfile import hand_file


@dataclass(frozen=True)
class Tallied:
    """One game of a record, as scorepad scores it (or the reason it cannot)."""

    game: RecordedGame
    text: str = ""  # its hand file (empty: skipped)
    digest: str = ""
    outcome: HandReplay | None = None
    deltas: Mapping[str, int] | None = None  # scorepad's points (skipped: the record's)

    @property
    def hand(self) -> Hand | None:
        """The hand to record in a night (None: a game scorepad cannot record)."""
        if self.outcome is not None:
            return self.outcome.hand()
        return table_scored(self.game)


def table_scored(game: RecordedGame) -> Hand | None:
    """A game scorepad cannot replay, as a hand the table scored itself (the record's points):
    None until scorepad has such a hand; the game is then listed as skipped."""
    del game
    return None


def rules_of(record: Record, rules: str | None, settings: Sequence[str]) -> Rules:
    """The rules a record is scored by: a Schafkopf preset or file (bavarian unless given),
    the record's own tariff, then the settings given."""
    table = load_rules(rules or "bavarian", [*record.settings, *settings])
    if not table.is_schafkopf:
        raise RecordError(
            0,
            _(
                "{name} rules are Sheepshead; a {what} is Schafkopf: give a Schafkopf preset "
                "(bavarian, schafkopf, preis) or rules file"
            ).format(name=table.name, what=record.what),
        )
    return table


def tally(
    record: Record, rules: Rules, spec: str, settings: Sequence[str], source: str
) -> list[Tallied]:
    """Replay and score every game of a record (its hand files say `rules: SPEC` and the
    settings); a RecordError at the first thing the record and scorepad disagree on."""
    done: list[Tallied] = []
    running = dict.fromkeys(record.players, 0)
    for game in record.games:
        if game.skipped:
            tallied = Tallied(game, deltas=game.deltas)
        else:
            tallied = _replayed(record, game, rules, [*record.settings, *settings], spec, source)
        for player, points in (tallied.deltas or {}).items():
            running[player] += points
        if game.totals is not None:
            _check_totals(record, game, tallied, running)
        done.append(tallied)
    return done


def _replayed(
    record: Record,
    game: RecordedGame,
    rules: Rules,
    settings: Sequence[str],
    spec: str,
    source: str,
) -> Tallied:
    _check_leaders(record, game)
    text, where = hand_file(record, game, spec, settings, source)
    try:
        parsed = parse_hand_file(text)
        outcome = replay(parsed, rules)
    except HandFileError as exc:
        raise RecordError(where.get(exc.line, game.line), exc.message) from None
    if outcome.problems:
        problem = outcome.problems[0]
        line = game.tricks[problem.trick - 1].line if problem.trick else game.line
        raise RecordError(line, str(problem))
    assert outcome.score is not None
    _check_result(game, outcome)
    return Tallied(game, text, digest(parsed), outcome, outcome.score.deltas)


def _check_leaders(record: Record, game: RecordedGame) -> None:
    """Each trick is led by whoever took the one before (the first from the dealer's left),
    where the record says who led."""
    words = game.game.split()
    try:
        play = Game.schafkopf(words[0], parse_suit(words[1]) if len(words) > 1 else None)
    except ScorepadError as exc:
        raise RecordError(game.line, str(exc)) from None
    players = record.players
    leader = players[(players.index(game.dealer) + 1) % len(players)]
    before = None
    for number, trick in enumerate(game.tricks, 1):
        if len(trick.cards) != len(players):
            raise RecordError(
                trick.line,
                _(
                    "trick {number} has {count} cards; each of the {players} players plays one"
                ).format(number=number, count=len(trick.cards), players=len(players)),
            )
        if trick.leader is not None and trick.leader != leader:
            raise RecordError(
                trick.line,
                _("trick {number} is led by {said} here, but {leader} {why}").format(
                    number=number,
                    said=trick.leader,
                    leader=leader,
                    why=(
                        _("took trick {before}").format(before=before)
                        if before
                        else _("sits at the dealer's left and leads the first")
                    ),
                ),
            )
        order = players[players.index(leader) :] + players[: players.index(leader)]
        leader = order[play.winner(trick.cards)]
        if trick.winner is not None and trick.winner != leader:
            raise RecordError(
                trick.line,
                _("trick {number} is {said}'s here, but {leader}'s card wins it").format(
                    number=number, said=trick.winner, leader=leader
                ),
            )
        before = number


def _check_result(game: RecordedGame, outcome: HandReplay) -> None:
    """What the record says came of the game is what the cards give."""
    said, result = game.result, outcome.score
    if said is None or result is None:
        return
    found: list[str] = []
    if outcome.picker is None:  # a Ramsch
        loser = result.losers[0] if result.losers else None
        if said.loser is not None and loser is not None and said.loser != loser:
            found.append(_("the record has {said} lose the Ramsch, the cards {loser}"))
        points = (outcome.player_points or {}).get(said.loser or "")
        if said.loser_points is not None and points is not None and points != said.loser_points:
            found.append(_("the record gives {said} {said_points} card points, the cards {points}"))
        jungfrau = tuple(
            p for p in outcome.players if not any(t.winner == p for t in outcome.tricks)
        )
        if said.jungfrau and sorted(said.jungfrau) != sorted(jungfrau):
            found.append(_("the record's jungfrau: {said_jungfrau}; the cards': {jungfrau}"))
        values = {
            "said": said.loser,
            "loser": loser,
            "said_points": said.loser_points,
            "points": points,
            "said_jungfrau": ", ".join(said.jungfrau),
            "jungfrau": ", ".join(jungfrau) or "-",
        }
    else:
        won = result.outcome == Outcome.WIN
        if said.won is not None and said.won != won:
            found.append(
                _("the record says the declarer's side {said_won}, the cards say it {won}")
            )
        if said.opponents is not None and said.opponents != 120 - outcome.points:
            found.append(
                _("the record gives the opponents {said_points} card points, the cards {points}")
            )
        if said.partner is not None and (said.partner,) != outcome.partners:
            found.append(_("the record's partner is {said}, the cards' {partner}"))
        values = {
            "said_won": _("won") if said.won else _("lost"),
            "won": _("won") if won else _("lost"),
            "said_points": said.opponents,
            "points": 120 - outcome.points,
            "said": said.partner,
            "partner": ", ".join(outcome.partners) or "-",
        }
    if found:
        raise RecordError(said.line, "; ".join(message.format(**values) for message in found))


def _check_totals(
    record: Record, game: RecordedGame, tallied: Tallied, running: Mapping[str, int]
) -> None:
    """The running totals after a game are the record's (every game scorepad records scored by
    the rules given; a game it cannot, by the record's own points)."""
    assert game.totals is not None
    if all(running[p] == game.totals[p] for p in record.players):
        return
    ours = tallied.deltas or {}
    theirs = game.deltas or {}
    raise RecordError(
        game.line,
        _(
            "after game {number} the totals differ from the record's by {differ}: the rules "
            "given score the game {ours}, the record {theirs} (give the record's rules with "
            "⟨rules⟩ and ⟨set⟩)"
        ).format(
            number=game.number,
            differ=", ".join(
                f"{p} {running[p] - game.totals[p]:+d}"
                for p in record.players
                if running[p] != game.totals[p]
            ),
            ours=", ".join(f"{p} {ours.get(p, 0):+d}" for p in record.players),
            theirs=", ".join(f"{p} {theirs.get(p, 0):+d}" for p in record.players),
        ),
    )


def runs_settings(record: Record, rules: Rules) -> list[str]:
    """The fewest runs that count in each game where the record's prices show the rules'
    do not: where a price counts runs, at most as many; where the cards hold runs the price
    does not count, more. (NetSchafkopf's rule sets differ: a Wenz's count from 2 or from 3,
    a Farbwenz's likewise.)"""
    counted: dict[str, list[tuple[int, RecordedGame]]] = {}
    uncounted: dict[str, list[tuple[int, RecordedGame]]] = {}
    for game in record.games:
        if game.skipped or game.runs is None or game.game == "ramsch":
            continue
        held = _runs_held(game)
        key = game_spec(game.game.split()[0]).base
        if game.runs:
            if game.runs != held:
                raise RecordError(
                    game.line,
                    _("the price counts {said} runs; the cards give {held}").format(
                        said=game.runs, held=held
                    ),
                )
            counted.setdefault(key, []).append((held, game))
        else:
            uncounted.setdefault(key, []).append((held, game))
    found = []
    for key in RUNS_MIN_GAMES:
        fewest = min(counted.get(key, []), key=lambda pair: pair[0], default=None)
        most = max(uncounted.get(key, []), key=lambda pair: pair[0], default=None)
        if fewest is not None and most is not None and most[0] >= fewest[0]:
            raise RecordError(
                most[1].line,
                _(
                    "game {number} does not count its {runs} runs, but game {other} (line "
                    "{line}) counts {counted}: a {game}'s runs count from one number on"
                ).format(
                    number=most[1].number,
                    runs=most[0],
                    other=fewest[1].number,
                    line=fewest[1].line,
                    counted=fewest[0],
                    game=key,
                ),
            )
        now = runs_min(rules.runs_min, key)
        if fewest is not None and now > fewest[0]:
            found.append(f"runs_min.{key}={fewest[0]}")
        elif most is not None and now <= most[0]:
            found.append(f"runs_min.{key}={most[0] + 1}")
    return found


def _runs_held(game: RecordedGame) -> int:
    """A game's runs as the cards give them: the top trumps one side holds, from the top."""
    words = game.game.split()
    play = Game.schafkopf(words[0], parse_suit(words[1]) if len(words) > 1 else None)
    owner = {c: p for p, cards in game.hands.items() for c in cards}
    side = {game.declarer, owner.get(game.call) if game.call else None} - {None}
    top = [owner[c] in side for c in play.trumps if c in owner]
    return next((i for i, held in enumerate(top) if held != top[0]), len(top))
