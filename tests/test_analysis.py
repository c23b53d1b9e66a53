"""The open-card analysis, proved against a plain exhaustive minimax (no pruning, no table, no
equivalent cards) on random endgames of every kind of game, and its invariants."""

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.analysis import LEVELS, analyse
from scorepad.analysis.deals import KINDS, random_hand, random_line, random_position, random_ramsch
from scorepad.analysis.position import Position, position_for, ramsch_view
from scorepad.analysis.ramsch import RAMSCH_OUTCOMES, ramsch_value
from scorepad.analysis.search import ALL, NONE, Goal, Searcher
from scorepad.names import MAKE, TOTAL_POINTS
from scorepad.replay import HandFile, replay, rules_for
from scorepad.replay.tricks import Play, play_problems
from scorepad.rules import Rules

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def final_level(position: Position) -> int:
    """The outcome of a finished deal, from scoring's lines (written out here on its own)."""
    rules = position.rules
    p = position.points
    if position.bettel:
        return 3 if position.side_tricks == 0 else 2
    if position.tout:
        return 3 if position.other_tricks == 0 else 2
    if position.other_tricks == 0:
        return 5
    if p >= rules.schneider_win:
        return 4
    if p >= MAKE:
        return 3
    if position.side_tricks == 0:
        return 0
    if p <= rules.schneider_loss:
        return 1
    return 2


def minimax(position: Position) -> tuple[int, int]:
    """(outcome, card points) the declaring side can force: every legal card tried."""
    if position.tricks_left == 0:
        return final_level(position), position.points
    ours = position.side[position.to_move()]
    pick = max if ours else min
    levels, points = [], []
    for number in position.legal():
        position.play(number)
        level, taken = minimax(position)
        position.undo()
        levels.append(level)
        points.append(taken)
    return pick(levels), pick(points)


def check_against_minimax(kind: str, seed: int, tricks: int, extra: int) -> None:
    position = random_position(random.Random(seed), kind, tricks, extra % int(KINDS[kind][1]))
    level, points = minimax(position)
    history = list(position.history)
    searcher = Searcher(position)
    assert searcher.outcome() == level
    assert searcher.best_points() == points
    assert position.history == history  # the search leaves the position as it found it


# 50 endgames a kind in the default run (500 in all), 500 a kind in the slow run (5,000)
@pytest.mark.parametrize("kind", sorted(KINDS))
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, tricks=st.sampled_from([2, 3]), extra=st.integers(0, 4))
def test_the_search_agrees_with_plain_minimax(
    kind: str, seed: int, tricks: int, extra: int
) -> None:
    check_against_minimax(kind, seed, tricks, extra)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(KINDS))
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, tricks=st.sampled_from([2, 3]), extra=st.integers(0, 4))
def test_thousands_of_endgames_agree_with_plain_minimax(
    kind: str, seed: int, tricks: int, extra: int
) -> None:
    check_against_minimax(kind, seed, tricks, extra)


@pytest.mark.parametrize("kind", sorted(KINDS))
@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_a_card_moves_the_outcome_only_against_its_own_side(kind: str, seed: int) -> None:
    # the outcome before a card is the best of the outcomes after each card its player may
    # play, for that player's side: never better for the side after its own card, never
    # worse for the declarers after a defender's
    position = random_position(random.Random(seed), kind, 3, seed % int(KINDS[kind][1]))
    before = Searcher(position).outcome()
    ours = position.side[position.to_move()]
    after = []
    for number in position.legal():
        position.play(number)
        after.append(Searcher(position).outcome())
        position.undo()
    assert all(a <= before for a in after) if ours else all(a >= before for a in after)
    assert before == (max(after) if ours else min(after))


def perfect_hand(kind: str, seed: int) -> tuple[HandFile, Rules, int]:
    """A random deal played out with every card one that keeps the outcome."""
    rng = random.Random(seed)
    hand = random_hand(rng, kind)
    rules = rules_for(hand)
    position = position_for(hand, rules)
    played = []
    searcher = Searcher(position)  # (its tables hold for every position of the deal)
    while position.tricks_left:
        level = searcher.outcome()
        keeping = []
        for number in position.legal():
            position.play(number)
            if searcher.outcome() == level:
                keeping.append(number)
            position.undo()
        number = rng.choice(keeping)
        played.append(position.cards[number])
        position.play(number)
    size = len(position.players)
    hand.tricks = [(0, played[i : i + size]) for i in range(0, len(played), size)]
    return hand, rules, level


def check_perfect_deal(kind: str, seed: int) -> None:
    hand, rules, level = perfect_hand(kind, seed)
    assert replay(hand, rules).ok or all(p.player is None for p in replay(hand, rules).problems)
    found = analyse(hand, rules)
    assert found.mistakes == ()
    assert found.start is not None
    assert found.start.outcome == LEVELS[level] == found.cards[-1].after.outcome
    # the outcome is the hand's: the start's value is what the last card leaves
    assert all(v.before.outcome == found.start.outcome for v in found.cards)


# A whole deal played perfectly takes from a tenth of a second to half a minute (the perfect
# play tries every legal card); the default run takes a few deals that are quick, the slow run
# four a game that hypothesis draws alike every run (derandomized: a Bettel drawn at random once
# took 9 minutes, and CI's time must not swing with the draw).
@pytest.mark.parametrize(
    ("kind", "seed"),
    [("sauspiel", 0), ("sheepshead-5", 0), ("sheepshead-5", 1), ("bettel", 1), ("solo", 0)],
)
def test_a_deal_played_perfectly_has_no_mistake(kind: str, seed: int) -> None:
    check_perfect_deal(kind, seed)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sauspiel", "sheepshead-5", "bettel", "solo", "wenz", "geier"])
@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=SEEDS)
def test_random_deals_played_perfectly_have_no_mistake(kind: str, seed: int) -> None:
    check_perfect_deal(kind, seed)


@pytest.mark.parametrize("kind", ["sauspiel", "wenz", "sheepshead-5", "sheepshead-3"])
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_points_asked_from_the_card_before_are_the_points_asked_afresh(
    kind: str, seed: int
) -> None:
    # analyse asks after a card whether the points before it still hold (the side's card can
    # only lower them, the others' only raise them); the answer is the plain search's
    position = random_position(random.Random(seed), kind, 3, seed % int(KINDS[kind][1]))
    searcher = Searcher(position)
    before = searcher.best_points()
    ours = position.side[position.to_move()]
    for number in position.legal():
        position.play(number)
        hinted = searcher.best_points(most=before) if ours else searcher.best_points(least=before)
        assert hinted == Searcher(position).best_points() == minimax(position)[1]
        position.undo()


@pytest.mark.parametrize("kind", sorted(KINDS))
@settings(max_examples=30, deadline=None)
@given(seed=SEEDS)
def test_the_position_plays_by_replays_rules(kind: str, seed: int) -> None:
    # the position's own shortcuts (following suit by masks, the trick's winner by rank) allow
    # the cards replay's checks allow, and a deal played through it ends as replay scores it
    rng = random.Random(seed)
    hand = random_hand(rng, kind)
    rules = rules_for(hand)
    position = position_for(hand, rules)
    played = []
    while position.tricks_left:
        seat = position.to_move()
        held = [i for i in range(len(position.cards)) if position.hands[seat] >> i & 1]
        allowed = []
        for number in held:
            led = (
                position.game.suit_of(position.cards[position.trick[0]]) if position.trick else None
            )
            first = (
                position.first_of_called()
                if position.trick
                else not position.called_led and position.suit[number] == position.called_suit
            )
            play = Play(
                1,
                position.players[seat],
                position.cards[number],
                not position.trick,
                [position.cards[i] for i in held],
                first,
                position.called_led,
                position.tricks_left == 1,
            )
            if not play_problems(play, led, position.game, position.call, position.picker, rules):
                allowed.append(number)
        assert list(position.legal()) == allowed
        number = rng.choice(allowed)
        played.append(position.cards[number])
        position.play(number)
    size = len(position.players)
    hand.tricks = [(0, played[i : i + size]) for i in range(0, len(played), size)]
    replayed = replay(hand, rules)
    # (a game the preset gives no value is a problem of scoring, not of play)
    assert all(p.player is None and p.trick is None for p in replayed.problems)
    assert (replayed.points, replayed.side_tricks) == (position.points, position.side_tricks)


@pytest.mark.parametrize("kind", ["sauspiel", "wenz", "sheepshead-5"])
def test_answers_let_go_when_the_tables_are_full_leave_the_answers_right(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with room for two answers, the tables are trimmed again and again (those nearest the end
    # of the deal first) and the answers are still plain minimax's
    from scorepad.analysis import search

    monkeypatch.setattr(search, "TABLE_SIZE", 2)
    trims = []
    make_room = search.Searcher._make_room

    def counted(self: Searcher) -> None:
        trims.append(1)
        make_room(self)

    monkeypatch.setattr(search.Searcher, "_make_room", counted)
    for seed in range(30):
        position = random_position(random.Random(seed), kind, 3, seed % int(KINDS[kind][1]))
        level, points = minimax(position)
        searcher = Searcher(position)
        assert searcher.outcome() == level
        assert searcher.best_points() == points
        assert searcher.kept <= 2
    assert trims


# --- a Ramsch: each player for themself -------------------------------------------------


def ramsch_minimax(position: Position, seat: int) -> tuple[int, bool, bool]:
    """From `seat`'s view of a Ramsch (`ramsch_view`), every legal card tried: the fewest card
    points the player can make sure of taking, and whether he can make sure of a Jungfrau (no
    trick) and of a Durchmarsch (every trick). The others play against him."""
    if position.tricks_left == 0:  # (his tricks are the ones not counted)
        return position.other_points, position.other_tricks == 0, position.side_tricks == 0
    results = []
    for number in position.legal():
        position.play(number)
        results.append(ramsch_minimax(position, seat))
        position.undo()
    if position.to_move() == seat:
        return (
            min(r[0] for r in results),
            any(r[1] for r in results),
            any(r[2] for r in results),
        )
    return max(r[0] for r in results), all(r[1] for r in results), all(r[2] for r in results)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, tricks=st.sampled_from([2, 3]), extra=st.integers(0, 3), seat=st.integers(0, 3))
def test_a_ramsch_seat_agrees_with_plain_minimax(
    seed: int, tricks: int, extra: int, seat: int
) -> None:
    rng = random.Random(seed)
    hand = random_ramsch(rng)
    position = ramsch_view(hand, rules_for(hand), hand.players[seat])
    random_line(rng, position, (8 - tricks) * 4 + extra)
    fewest, jungfrau, durchmarsch = ramsch_minimax(position, seat)
    history = list(position.history)
    searcher = Searcher(position)
    assert TOTAL_POINTS - searcher.best_points() == fewest
    assert searcher.reaches(Goal(0, ALL)) == jungfrau
    assert searcher.reaches(Goal(0, NONE)) == durchmarsch
    assert position.history == history


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, tricks=st.sampled_from([2, 3]), seat=st.integers(0, 3))
def test_a_ramsch_seat_value_moves_only_against_its_player(
    seed: int, tricks: int, seat: int
) -> None:
    # another's card can only keep or better a player's value; his own only keep or worsen it,
    # and one of his keeps it
    rng = random.Random(seed)
    hand = random_ramsch(rng)
    position = ramsch_view(hand, rules_for(hand), hand.players[seat])
    random_line(rng, position, (8 - tricks) * 4 + seed % 4)
    before = ramsch_value(Searcher(position))
    own = position.to_move() == seat
    after = []
    for number in position.legal():
        position.play(number)
        after.append(ramsch_value(Searcher(position)))
        position.undo()
    ranks = [RAMSCH_OUTCOMES.index(v.outcome) * 1000 + (v.points or 0) for v in after]
    best = RAMSCH_OUTCOMES.index(before.outcome) * 1000 + (before.points or 0)
    if own:
        assert min(ranks) == best
    else:
        assert max(ranks) <= best


def test_a_ramsch_played_perfectly_from_every_seat_has_no_mistake() -> None:
    # the sample Ramsch's deal (its searches are quick), each card one that keeps its player's
    # value from his seat (the first such, by the order of the cards)
    from scorepad.replay import parse_hand_file

    text = (Path(__file__).parent.parent / "sample_sessions/hands/ramsch-mistake.txt").read_text()
    hand = parse_hand_file("\n".join(x for x in text.splitlines() if not x.startswith("trick:")))
    rules = rules_for(hand)
    views = [Searcher(ramsch_view(hand, rules, p)) for p in hand.players]
    played = []
    while views[0].position.tricks_left:
        searcher = views[views[0].position.to_move()]
        position = searcher.position
        before = ramsch_value(searcher)
        for number in position.legal():
            position.play(number)
            kept = ramsch_value(searcher) == before
            position.undo()
            if kept:
                break
        else:
            raise AssertionError("no card keeps the value")
        played.append(position.cards[number])
        for view in views:
            view.position.play(number)
    hand.tricks = [(0, played[i : i + 4]) for i in range(0, len(played), 4)]
    found = analyse(hand, rules)
    assert found.mistakes == ()
    assert found.ramsch is not None and found.ramsch["Anni"].outcome == "durchmarsch"
