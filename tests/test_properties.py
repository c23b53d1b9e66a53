"""Invariants over generated hands and generated command lines (hypothesis)."""

import string
from collections.abc import Sequence

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.cli import cli
from scorepad.rules import Rules, load_rules
from scorepad.scoring import LeasterHand, PickerHand, possible_points, score, seat

ZERO_SUM = ("standard", "pagat", "schafkopf")
OVERRIDES = {
    "standard": [
        "double_on_the_bump=true",
        "level_multipliers=1,2,4",
        "max_multiplier=4",
        "partner_free_on_no_trick=true",
        "blitz=true",
        "sit_out=dealer",
        "base=3",
    ],
    "pagat": ["bump_factor=3", "crack_factor=3", "sit_out=dealer", "leaster_payout=2"],
    "schafkopf": ["max_multiplier=2", "double_on_the_bump=true", "schneider_bonus=2"],
}


@st.composite
def picker_hands(draw: st.DrawFn, presets: Sequence[str] = ZERO_SUM) -> tuple[Rules, PickerHand]:
    preset = draw(st.sampled_from(presets))
    overrides = draw(st.lists(st.sampled_from(OVERRIDES.get(preset, [""])), unique=True))
    rules = load_rules(preset, [o for o in overrides if o])
    people = draw(st.sampled_from(sorted(rules.deals)))
    if rules.sit_out == "dealer" and draw(st.booleans()):
        people += 1
    players = tuple(f"P{i}" for i in range(people))
    dealer = draw(st.sampled_from(players))
    seating = seat(rules, players, dealer)
    if seating.size not in rules.deals:
        people -= 1
        players, dealer = players[:-1], draw(st.sampled_from(players[:-1]))
        seating = seat(rules, players, dealer)
    deal = seating.deal
    picker = draw(st.sampled_from(seating.order))
    others = [p for p in seating.order if p != picker]
    game = None
    if rules.is_schafkopf:
        game = draw(st.sampled_from(sorted(rules.game_values)))
        partners = [draw(st.sampled_from(others))] if game == "partner" else []
    else:
        partners = draw(st.lists(st.sampled_from(others), unique=True, max_size=deal.partners))
    alone = not partners and not rules.is_schafkopf
    tricks = draw(st.one_of(st.none(), st.integers(0, deal.cards)))
    if game and game.endswith("tout") and tricks is None:
        tricks = draw(st.integers(0, deal.cards))
    # card points the side's cards can hold (points_check = "cards"): its tricks' and the bury
    deck = seating.size * deal.cards + deal.blind
    counts = [tricks] if tricks is not None else range(1, deal.cards)
    held = set().union(*(possible_points(deck, k * seating.size + deal.blind) for k in counts))
    points = draw(st.sampled_from(sorted(held)))
    side = {picker, *partners}
    after = seating.order[seating.order.index(picker) + 1 :]
    can_crack = (
        [p for p in (after if rules.crack_by == "after-picker" else seating.order) if p not in side]
        if rules.cracks
        else []
    )
    crack = draw(st.one_of(st.none(), st.sampled_from(can_crack))) if can_crack else None
    hand = PickerHand(
        players,
        picker,
        points,
        dealer=dealer,
        partners=tuple(partners),
        alone=alone,
        tricks=tricks,
        crack=crack,
        recrack=bool(crack) and draw(st.booleans()),
        doubled=draw(st.integers(0, 2)),
        game=game,
        runs=draw(st.integers(0, 4)) if rules.is_schafkopf else None,
        blitz=draw(st.integers(0, 2)) if rules.blitz else 0,
    )
    return rules, hand


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(picker_hands())
def test_every_valid_picker_hand_under_zero_sum_rules_sums_to_zero(
    case: tuple[Rules, PickerHand],
) -> None:
    rules, hand = case
    result = score(rules, hand)
    assert sum(result.deltas.values()) == 0
    picker_sign = result.deltas[hand.picker]
    assert (picker_sign > 0) == (result.outcome == "win")
    assert picker_sign != 0 and result.stake > 0
    for partner in hand.partners:
        assert result.deltas[partner] in (0, picker_sign // abs(picker_sign) * result.stake)


@settings(max_examples=200)
@given(picker_hands(presets=("first-night",)))
def test_race_hands_move_only_the_pickers_side_by_level_times_doublings(
    case: tuple[Rules, PickerHand],
) -> None:
    rules, hand = case
    result = score(rules, hand)
    side = {hand.picker, *hand.partners}
    assert all(v == 0 for p, v in result.deltas.items() if p not in side)
    assert abs(result.deltas[hand.picker]) == result.level * 2**hand.doubled


@st.composite
def leasters(draw: st.DrawFn) -> tuple[Rules, LeasterHand]:
    preset = draw(st.sampled_from(("standard", "pagat")))
    tie = draw(st.sampled_from(("none", "share")))
    rules = load_rules(preset, [f"leaster_tie={tie}"])
    people = draw(st.sampled_from(sorted(rules.deals)))
    players = tuple(f"P{i}" for i in range(people))
    cards = rules.deals[people].cards
    # Split the tricks, then the 120 points among players who took a trick.
    cuts = sorted(draw(st.lists(st.integers(0, cards), min_size=people - 1, max_size=people - 1)))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, cards])]
    takers = [i for i, t in enumerate(tricks) if t]
    shares = sorted(
        draw(st.lists(st.integers(0, 120), min_size=len(takers) - 1, max_size=len(takers) - 1))
    )
    amounts = [b - a for a, b in zip([0, *shares], [*shares, 120])]
    points = [0] * people
    for i, amount in zip(takers, amounts):
        points[i] = amount
    return rules, LeasterHand(
        players,
        leaster_points=dict(zip(players, points)),
        leaster_tricks=dict(zip(players, tricks)),
        doubled=draw(st.integers(0, 2)),
    )


@settings(max_examples=300)
@given(leasters())
def test_every_leaster_sums_to_zero_and_pays_the_fewest(case: tuple[Rules, LeasterHand]) -> None:
    rules, hand = case
    assert hand.leaster_tricks is not None and hand.leaster_points is not None  # (as drawn)
    result = score(rules, hand)
    assert sum(result.deltas.values()) == 0
    for winner in result.winners:
        assert hand.leaster_tricks[winner] > 0
        assert hand.leaster_points[winner] == min(
            hand.leaster_points[p] for p in hand.players if hand.leaster_tricks[p] > 0
        )


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(picker_hands(presets=("standard", "pagat", "schafkopf", "first-night")), leasters())
)
def test_a_score_explained_is_the_same_score_with_its_reasons(
    case: tuple[Rules, PickerHand | LeasterHand],
) -> None:
    # score() words its explanation only when asked (a pass over a file never is): asked or
    # not, every figure, role and doubling is the same.
    rules, hand = case
    plain = score(rules, hand)
    explained = score(rules, hand, explain=True)
    assert plain.explanation == ()
    assert len(explained.explanation) >= 2 and all(explained.explanation)
    assert explained._replace(explanation=()) == plain


# --- no argument list produces a traceback -------------------------------------------------------

NAMES = st.sampled_from(["Ann", "Bob", "Cy", "Dee", "Ed", "Flo", "ann", "Zed", "", "Zoë", "A,B"])
NUMBERS = st.one_of(st.integers(-3, 125).map(str), st.sampled_from(["x", "", "1.5", "1e3"]))
TEXT = st.text(alphabet=string.printable + "äöü♣♦", max_size=12)
VALUES = {
    "--players": st.sampled_from(
        [
            "Ann,Bob,Cy,Dee,Ed",
            "Ann,Bob,Cy,Dee",
            "Ann,Bob,Cy",
            "Ann,Bob,Cy,Dee,Ed,Flo",
            "Ann,Ann",
            "Ann,,Bob",
            "Ann",
            "",
        ]
    ),
    "--picker": NAMES,
    "--partner": NAMES,
    "--crack": NAMES,
    "--winner": NAMES,
    "--dealer": NAMES,
    "--points": NUMBERS,
    "--tricks": NUMBERS,
    "--runs": NUMBERS,
    "--game": st.sampled_from(["partner", "solo", "wenz-tout", "geier", "ramsch"]),
    "--rules": st.sampled_from(
        [
            "standard",
            "pagat",
            "first-night",
            "schafkopf",
            "nope",
            "/nonexistent.toml",
            "/dev/null",
            "/etc/passwd",
        ]
    ),
    "--set": st.sampled_from(
        [
            "all_pass=doubler",
            "all_pass=forced",
            "sit_out=dealer",
            "double_on_the_bump=true",
            "deal.5.partners=2",
            "base=",
            "=",
            "A=B=C",
            "deal.4.cards=6",
            "leaster_tie=share",
            "must_take_trick=false",
            "blitz=true",
            "max_multiplier=2",
            "deal.6.cards=9",
            "level_multipliers=0,1,2",
            "family=x",
        ]
    ),
    "--leaster-points": st.sampled_from(
        [
            "Ann=60,Bob=60",
            "Ann=10,Bob=20,Cy=30,Dee=40,Ed=20",
            "Ann=0,Bob=20,Cy=30,Dee=40,Ed=30",
            "Ann=x",
            "=,",
            "Ann=120,Bob=0,Cy=0",
        ]
    ),
    "--leaster-tricks": st.sampled_from(["Ann=1,Bob=1,Cy=1,Dee=2,Ed=1", "Ann=6", "Ann=-1"]),
    "--format": st.sampled_from(["json", "text", "toml", "xml"]),
}
FLAGS = st.sampled_from(
    [
        "--alone",
        "--recrack",
        "--doubled",
        "--forced",
        "--leaster",
        "--alone",
        "--recrack",
        "--doubled",
        "--forced",
        "--leaster",
        "--blitz",
        "-h",
        "--version",
        "--",
        "-x",
    ]
)
OPTION = st.sampled_from(sorted(VALUES)).flatmap(
    lambda option: VALUES[option].map(lambda value: [option, value])
)
FLAG = FLAGS.map(lambda flag: [flag])
WORD = TEXT.map(lambda text: [text])


@st.composite
def argument_lists(draw: st.DrawFn) -> list[str]:
    command = list(
        draw(
            st.sampled_from(
                [
                    ["check", "--players"],
                    ["check", "--players"],
                    ["check"],
                    ["rules"],
                    [],
                    ["nope"],
                    [
                        "check",
                        "--players",
                        "Ann,Bob,Cy,Dee,Ed",
                        "--picker",
                        "Ann",
                        "--points",
                        "70",
                    ],
                    ["check", "--players", "Ann,Bob,Cy,Dee", "--picker", "Bob", "--points", "40"],
                    ["check", "--leaster", "--players", "Ann,Bob,Cy,Dee,Ed"],
                ]
            )
        )
    )
    if command[-1:] == ["--players"]:
        command.append(draw(VALUES["--players"]))
    pairs = draw(st.lists(st.one_of(OPTION, OPTION, OPTION, OPTION, FLAG, FLAG, WORD), max_size=10))
    return command + [word for pair in pairs for word in pair]


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(argument_lists())
def test_no_argument_list_produces_a_traceback(args: list[str]) -> None:
    result = CliRunner().invoke(cli, args, prog_name="scorepad")
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{args!r} raised {result.exception!r}"
    )
    assert result.exit_code in (0, 1, 2)
    if result.exit_code:
        assert result.stdout == ""
        assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, (
            args,
            result.stderr,
        )


def _scored(rules: Rules, hand: PickerHand) -> tuple[object, ...]:
    """What a score means for the ledger (its explanation aside), or the refusal's text."""
    from scorepad.errors import ScorepadError

    try:
        result = score(rules, hand)
    except ScorepadError as exc:
        return "refused", type(exc).__name__
    return (
        result.outcome,
        result.stake,
        dict(result.deltas),
        result.level,
        result.winners,
        result.schneider,
        result.no_trick,
        result.sitting_out,
    )


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(picker_hands(presets=("standard", "pagat", "schafkopf", "first-night")), st.data())
def test_points_of_one_class_score_alike(
    case: tuple[Rules, PickerHand], data: st.DataObject
) -> None:
    # The ledger scores a hand once per class of card points (scoring.points_class): any two
    # point values of one class must give the same outcome, stake and points for everyone.

    from scorepad.scoring import points_class

    rules, hand = case
    other = data.draw(st.integers(0, 120))
    mine = points_class(rules, hand.points, hand.tricks)
    if points_class(rules, other, hand.tricks) == mine:
        assert _scored(rules, hand._replace(points=other)) == _scored(rules, hand)
    near = [p for p in range(121) if points_class(rules, p, hand.tricks) == mine]
    assert hand.points in near
    assert _scored(rules, hand._replace(points=data.draw(st.sampled_from(near)))) == _scored(
        rules, hand
    )


@given(
    st.lists(
        st.tuples(st.booleans(), st.integers(-1, (1 << 48) - 2)),
        max_size=40,
    )
)
def test_a_fate_counts_corrections_and_keeps_the_last_place_of_each_kind(
    corrections: list[tuple[bool, int]],
) -> None:
    """A hand's fate (ledger.Fate): how many rows correct it, and where its last amendment and
    its last void or restore begin (-1: none, or not asked for)."""
    from scorepad.ledger import Fate

    fate = Fate()
    amended = voided = -1
    for is_amendment, place in corrections:
        if is_amendment:
            fate = fate.corrected(amended_at=place)
            amended = place if place >= 0 else amended
        else:
            fate = fate.corrected(voided_at=place)
            voided = place if place >= 0 else voided
    assert fate == (len(corrections), amended, voided, -1, 0)  # (no `set --from` row here)


@pytest.mark.parametrize("deck", [24, 32])
def test_possible_points_are_the_sums_of_the_packs_cards(deck: int) -> None:
    """Every sum of a few cards of the pack, found by trying every choice of them, and of all
    but a few (120 less a few's sums): what `possible_points` says they can hold, no more."""
    from itertools import combinations

    pack = [v for v in (11, 10, 4, 3, 2) for _ in range(4)] + [0] * (deck - 20)
    for k in range(5):
        sums = {sum(c) for c in combinations(pack, k)}
        assert possible_points(deck, k) == sums
        assert possible_points(deck, deck - k) == {120 - s for s in sums}
    assert possible_points(deck, deck + 1) == frozenset()
    assert possible_points(deck, -1) == frozenset()
