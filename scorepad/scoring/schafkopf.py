"""Schafkopf's game values: the game declared, runs, schneider and schwarz, a tout's, a
sie's and a bettel's value; and the options that belong to Schafkopf alone."""

from ..errors import HandError
from ..games import BY_NAME as GAME_BY_NAME
from ..games import GAMES, Tops, TrumpSuit, WonBy, runs_min
from ..i18n import game_word
from ..i18n import gettext as _
from ..names import MAKE
from ..rules import Deal, Rules
from .records import PickerHand
from .seating import Seating
from .words import plural


def check_family_options(rules: Rules, hand: PickerHand) -> None:
    """The options of Schafkopf alone (game, runs, knocks, Stoss) are not given with
    Sheepshead rules; blitzes only where the rules play them."""
    if not rules.is_schafkopf:
        for option, given in (("⟨game⟩", hand.game), ("⟨runs⟩", hand.runs)):
            if given is not None:
                raise HandError(
                    _(
                        "{option} belongs to Schafkopf; {name} rules are Sheepshead (use ⟨rules⟩ "
                        "schafkopf)"
                    ).format(option=option, name=rules.name)
                )
        for option, count in (("⟨knocks⟩", hand.knocks), ("⟨stoss⟩", hand.stoss)):
            if count:
                raise HandError(
                    _(
                        "{option} belongs to Schafkopf; {name} rules are Sheepshead (a crack is "
                        "⟨crack⟩ NAME)"
                    ).format(option=option, name=rules.name)
                )
    if hand.blitz:
        if not rules.blitz:
            raise HandError(
                _("⟨blitz⟩: {name} rules play no blitz (blitz = false)").format(name=rules.name)
            )
        if not 0 <= hand.blitz <= 2:
            raise HandError(
                _("⟨blitz⟩ {blitz}: at most 2 blitzes (black queens, red queens)").format(
                    blitz=hand.blitz
                )
            )


def stoss_factors(rules: Rules, hand: PickerHand) -> list[tuple[str, int]]:
    """Schafkopf's Stoss calls (`stoss`), each x2, up to max_stoss."""
    if not hand.stoss:
        return []
    if hand.crack is not None or hand.recrack:
        raise HandError(_("⟨stoss⟩ N counts every Stoss; give it or ⟨crack⟩/⟨recrack⟩, not both"))
    if not rules.cracks:
        raise HandError(
            _("⟨stoss⟩: {name} rules have no Stoss (cracks = false)").format(name=rules.name)
        )
    if not 0 <= hand.stoss <= rules.max_stoss:
        raise HandError(
            _("⟨stoss⟩ {stoss}: at most {max_stoss} (max_stoss)").format(
                stoss=hand.stoss, max_stoss=rules.max_stoss
            )
        )
    return [("Stoss", 2)] * hand.stoss


def declared(rules: Rules, hand: PickerHand) -> PickerHand:
    """A Schafkopf hand's game checked against the table (valued, with or without a partner as
    the game is played); a game without a partner is the declarer's alone."""
    if hand.alone:
        raise HandError(
            _("⟨alone⟩: in Schafkopf a lone game is a solo, wenz or geier; give ⟨game⟩")
        )
    game = hand.game or "partner"
    if game not in GAMES:
        raise HandError(
            _("⟨game⟩ {game}: choose one of {games}").format(game=game, games=", ".join(GAMES))
        )
    valued = GAME_BY_NAME[game].value
    if valued not in rules.game_values:
        raise HandError(
            _(
                "⟨game⟩ {game}: {name} rules give a {shown} no value (set "
                "game_values.{valued}, or use ⟨rules⟩ bavarian)"
            ).format(game=game, shown=game_word(game), name=rules.name, valued=valued)
        )
    if not GAME_BY_NAME[game].partner:
        if hand.partners:
            raise HandError(
                _("⟨partners⟩: a {game} is one against three and has no partner").format(
                    game=game_word(game)
                )
            )
        return hand._replace(alone=True)
    if not hand.partners:
        raise HandError(
            _("a {value} needs the ⟨partners⟩: ").format(
                value="partner game" if game == "partner" else game
            )
            + (
                "whoever took the offered trump"
                if game == "hochzeit"
                else "whoever held the called ace (or give ⟨game⟩ solo, wenz, geier, ...)"
            )
        )
    return hand


def runs_that_count(rules: Rules, hand: PickerHand) -> int:
    """The runs given with a Schafkopf hand when its game counts them (0 when too few)."""
    counts_as = GAME_BY_NAME[hand.game or "partner"].runs_as if rules.is_schafkopf else None
    if counts_as is None or not hand.runs:
        return 0
    return hand.runs if hand.runs >= runs_min(rules.runs_min, hand.game) else 0


def check_bettel(hand: PickerHand, deal: Deal) -> None:
    """A bettel's tricks are given and possible; it counts no runs."""
    if hand.tricks is None:
        raise HandError(_("⟨tricks⟩ is needed for a bettel: the declarer wins by taking none"))
    if not 0 <= hand.tricks <= deal.cards:
        raise HandError(
            _("⟨tricks⟩ {tricks}: this hand has {cards} tricks").format(
                tricks=hand.tricks, cards=deal.cards
            )
        )
    if hand.runs:
        raise HandError(_("⟨runs⟩: a bettel has no trumps, so no runs"))


def _max_runs(game: str, seating: Seating) -> int:
    """How many trumps a game has in this deal (the most runs it can count): its tops (the
    four Obers or Unters, or both), then the rest of its trump suit."""
    spec = GAME_BY_NAME[game]
    deck = seating.size * seating.deal.cards + seating.deal.blind
    tops = 8 if spec.tops == Tops.OBERS_UNTERS else 4
    if spec.suit == TrumpSuit.NONE:
        return tops
    return tops + deck // 4 - tops // 4  # (the suit, less its cards among the tops)


def _counted_runs(rules: Rules, game: str, seating: Seating, runs: int) -> int | None:
    """The runs a game counts: None when they are fewer than runs_min (they count nothing),
    else as many as runs_max allows."""
    most = _max_runs(game, seating)
    if not 0 <= runs <= most:
        raise HandError(
            _("⟨runs⟩ {runs}: a {game} has {most} trumps, so 0 to {most} runs").format(
                runs=runs, game=game_word(game), most=most
            )
        )
    counts_as = GAME_BY_NAME[game].runs_as
    assert counts_as is not None
    if runs < runs_min(rules.runs_min, game):
        return None
    cap = rules.runs_max.get(counts_as, 0)
    return min(runs, cap) if cap else runs


def schafkopf_value(
    rules: Rules, hand: PickerHand, seating: Seating
) -> tuple[bool, int, bool, bool]:
    """Win or loss, the game value (base + schneider + schwarz + runs, or a tout's, a sie's or
    a bettel's), and whether schneider and schwarz were scored (`schafkopf_lines` says why)."""
    game = hand.game or "partner"
    spec = GAME_BY_NAME[game]
    p, t, total_tricks = hand.points, hand.tricks, seating.deal.cards
    if spec.won_by == WonBy.NO_TRICK:
        assert t is not None
        return t == 0, rules.game_values[spec.value], False, False
    if spec.is_tout:
        if t is None:
            raise HandError(
                _("⟨tricks⟩ is needed for a {game}: it is won only by taking every trick").format(
                    game=game_word(game)
                )
            )
        won = t == total_tricks
    else:
        won = p >= MAKE
    runs_value = (_counted_runs(rules, game, seating, hand.runs or 0) or 0) * rules.run_value
    if spec.value_times != 1:  # (a sie: twice a solo-tout)
        return won, spec.value_times * _tout_value(rules, spec.value, runs_value), False, False
    if spec.is_tout:
        return won, _tout_value(rules, game, runs_value), False, False
    schneider = (won and p >= rules.schneider_win) or (not won and p <= rules.schneider_loss)
    schwarz = t is not None and ((won and t == total_tricks) or (not won and t == 0))
    value = rules.game_values[game] + runs_value
    value += rules.schneider_bonus if schneider else 0
    value += rules.schwarz_bonus if schwarz else 0
    return won, value, schneider, schwarz


def _tout_value(rules: Rules, game: str, runs_value: int) -> int:
    """A tout's value: game_values.GAME-tout + runs, or under tout_scoring = double (game +
    runs) x 2 (no schneider or schwarz either way)."""
    if rules.tout_scoring == "double":
        return 2 * (rules.game_values[game.removesuffix("-tout")] + runs_value)
    return rules.game_values[game] + runs_value


def schafkopf_lines(
    rules: Rules,
    hand: PickerHand,
    seating: Seating,
    won: bool,
    value: int,
    marks: tuple[bool, bool],
) -> list[str]:
    """The working of a Schafkopf game's value, line by line: `schafkopf_value`'s win or loss,
    value, and whether schneider and schwarz were scored (`marks`)."""
    game = hand.game or "partner"
    spec = GAME_BY_NAME[game]
    p, t, total_tricks = hand.points, hand.tricks, seating.deal.cards
    if spec.won_by == WonBy.NO_TRICK:
        assert t is not None
        return [
            _("The declarer took {plural}: a bettel is {value}.").format(
                plural=plural(t, "trick"),
                value=_("won: no trick") if won else _("lost: it is won only by taking no trick"),
            ),
            _("Game value: {game} {value} (no schneider, schwarz or runs).").format(
                game=game_word(game), value=value
            ),
        ]
    took = _("{p} card points").format(p=p) + (
        _(" and {t} of {total_tricks} tricks").format(t=t, total_tricks=total_tricks)
        if t is not None
        else ""
    )
    if spec.is_tout:
        lines = [
            _("The declarer took {took}: a {game} is {value}.").format(
                took=took,
                game=game_word(game),
                value=_("won: every trick") if won else _("lost: it needs every trick"),
            )
        ]
    else:
        verdict = (
            _("{p} >= {make}, a win").format(p=p, make=MAKE)
            if won
            else (
                _("a 60-60 tie is a loss")
                if p == 60
                else _("{p} < {make}, a loss").format(p=p, make=MAKE)
            )
        )
        lines = [
            _("The declarer's side took {took}: {verdict}.").format(took=took, verdict=verdict)
        ]
    runs_text = _runs_words(rules, game, seating, hand.runs or 0, lines)
    if spec.value_times != 1:
        lines.append(
            _(
                "Game value: a {game} is twice a {value}: {value_times} x ({tout_text}) = {value2}."
            ).format(
                game=game_word(game),
                value=game_word(spec.value),
                value_times=spec.value_times,
                tout_text=_tout_text(rules, spec.value, runs_text),
                value2=value,
            )
        )
    elif spec.is_tout:
        lines.append(
            _("Game value: {text} = {value}.").format(
                text=_tout_text(rules, game, runs_text), value=value
            )
        )
    else:
        lines.append(
            _("Game value: {parts} = {value}.").format(
                parts=" + ".join(_value_parts(rules, game, marks, runs_text)),
                value=value,
            )
        )
    return lines


def _runs_words(rules: Rules, game: str, seating: Seating, runs: int, lines: list[str]) -> str:
    """The runs as the game value's working names them ("" when they count nothing), with a
    line where they count nothing or are capped."""
    counted = _counted_runs(rules, game, seating, runs)
    counts_as = GAME_BY_NAME[game].runs_as
    assert counts_as is not None
    if counted is None:
        if runs:
            lines.append(
                _("{plural} count nothing: a {counts_as} game needs at least {least}.").format(
                    plural=plural(runs, "run"),
                    counts_as=own
                    if (own := GAME_BY_NAME[game].base) in rules.runs_min
                    else counts_as,
                    least=runs_min(rules.runs_min, game),
                )
            )
        return ""
    if counted < runs:
        lines.append(
            _("Runs are capped at {cap} (runs_max.{counts_as}).").format(
                cap=counted, counts_as=counts_as
            )
        )
    if rules.run_value == 1:
        return f"runs {counted}"
    return _("runs {counted} x {run_value}").format(counted=counted, run_value=rules.run_value)


def _value_parts(rules: Rules, game: str, marks: tuple[bool, bool], runs_text: str) -> list[str]:
    """What a game's value adds up (the game, schneider, schwarz, runs), each as it is worded."""
    schneider, schwarz = marks
    parts = [f"{game_word(game)} {rules.game_values[game]}"]
    if schneider:
        parts.append(_("schneider {bonus}").format(bonus=rules.schneider_bonus))
    if schwarz:
        parts.append(_("schwarz {bonus}").format(bonus=rules.schwarz_bonus))
    if runs_text:
        parts.append(runs_text)
    return parts


def _tout_text(rules: Rules, game: str, runs_text: str) -> str:
    """A tout's value worded (`_tout_value`)."""
    runs = f" + {runs_text}" if runs_text else ""
    if rules.tout_scoring == "double":
        base = game.removesuffix("-tout")
        shown = f"{game_word(base)} {rules.game_values[base]}{runs}"
        return _("({shown}) x 2 (tout_scoring = double)").format(shown=shown)
    return f"{game_word(game)} {rules.game_values[game]}{runs}"
