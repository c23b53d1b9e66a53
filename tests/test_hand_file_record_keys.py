"""What a game record knows besides the cards, in a hand file: `knocks:`, `stoss:` and `set:`
(the record's tariff); and the fewest runs a game of its own counts (`runs_min.farbwenz`)."""

import hashlib
import json
from pathlib import Path

import pytest
from _types import CheckJson, Fails, Run

from scorepad.replay import HandFileError, digest, parse_hand_file, replay, rules_for

ROOT = Path(__file__).resolve().parent.parent
HANDS = ROOT / "sample_sessions" / "hands"
SAUSPIEL = (HANDS / "schafkopf-sauspiel.txt").read_text(encoding="utf-8")  # a partner game
RAMSCH = (HANDS / "bavarian-ramsch.txt").read_text(encoding="utf-8")


def with_lines(text: str, *lines: str, rules: str = "bavarian") -> str:
    body = "\n".join(row for row in text.splitlines() if not row.startswith("rules:"))
    return f"rules: {rules}\n" + "\n".join(lines) + "\n" + body + "\n"


def scored(text: str) -> dict[str, int]:
    hand = parse_hand_file(text)
    outcome = replay(hand, rules_for(hand))
    assert outcome.problems == (), outcome.problems
    assert outcome.score is not None
    return dict(outcome.score.deltas)


def test_knocks_and_stoss_double_the_stake() -> None:
    plain = scored(with_lines(SAUSPIEL))
    knocked = scored(with_lines(SAUSPIEL, "knocks: 2"))
    both = scored(with_lines(SAUSPIEL, "knocks: 1", "stoss: 2"))
    assert knocked == {p: 4 * n for p, n in plain.items()}
    assert both == {p: 8 * n for p, n in plain.items()}


def test_knocks_may_name_who_knocked() -> None:
    named = parse_hand_file(with_lines(SAUSPIEL, "knocks: anni, Vroni"))
    assert named.knocks == 2 and named.knockers == ["Anni", "Vroni"]
    assert scored(with_lines(SAUSPIEL, "knocks: Anni, Vroni")) == scored(
        with_lines(SAUSPIEL, "knocks: 2")
    )


def test_a_knock_doubles_a_ramsch() -> None:
    plain = scored(RAMSCH)
    assert scored(with_lines(RAMSCH, "knocks: 1")) == {p: 2 * n for p, n in plain.items()}


def test_set_lines_are_the_rules_of_the_hand() -> None:
    plain = scored(with_lines(SAUSPIEL))
    dearer = scored(with_lines(SAUSPIEL, "set: game_values.partner=20", "set: run_value=20"))
    assert plain != dearer
    hand = parse_hand_file(with_lines(SAUSPIEL, "set: game_values.partner=20"))
    rules = rules_for(hand)
    assert rules.game_values["partner"] == 20 and rules.overrides == ("game_values.partner=20",)


@pytest.mark.parametrize(
    ("extra", "line", "message"),
    [
        (("knocks: Xaver",), 2, "knocks: Xaver: unknown player; players: Anni, Bertl"),
        (("knocks: Anni, anni",), 2, "knocks: Anni is named twice"),
        (("stoss: zwei",), 2, "stoss: write how many Stoss were given"),
        (("crack: Bertl", "stoss: 1"), 3, "stoss: counts every Stoss; give it or crack:"),
        (("set: game_values.partner=20", "set: nonsense"), 3, "'nonsense': write KEY=VALUE"),
        (("set: runs_min.bettel=2",), 2, "unknown setting 'runs_min.bettel'"),
    ],
)
def test_bad_record_keys_name_their_line(extra: tuple[str, ...], line: int, message: str) -> None:
    with pytest.raises(HandFileError) as caught:
        hand = parse_hand_file(with_lines(SAUSPIEL, *extra))
        rules_for(hand)
    assert caught.value.line == line
    assert message in caught.value.message, caught.value.message


def test_a_ramsch_has_no_stoss() -> None:
    hand = parse_hand_file(with_lines(RAMSCH, "stoss: 1"))
    with pytest.raises(HandFileError) as caught:
        replay(hand, rules_for(hand))
    assert (caught.value.line, caught.value.message) == (
        2,
        "stoss: nobody gives a Stoss in a Ramsch",
    )


def _digest_as_before(text: str) -> str:
    """The digest as replay made it before the record keys (what sessions keep)."""
    hand = parse_hand_file(text)
    said = {
        "rules": hand.rules,
        "players": hand.players,
        "dealer": hand.dealer,
        "hands": {p: [str(c) for c in hand.hands.get(p, [])] for p in hand.players},
        "blind": [str(c) for c in hand.blind],
        "picker": hand.picker,
        "bury": [str(c) for c in hand.bury],
        "call": hand.call.lower(),
        "game": hand.game.lower(),
        "crack": hand.crack,
        "recrack": hand.recrack,
        "loser": hand.loser,
        "tricks": [[str(c) for c in cards] for _, cards in hand.tricks],
    }
    data = json.dumps(said, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("path", sorted(HANDS.glob("*.txt")), ids=lambda p: p.name)
def test_a_hand_file_without_them_digests_as_before(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert digest(parse_hand_file(text)) == _digest_as_before(text)


def test_each_of_them_changes_the_digest() -> None:
    plain = digest(parse_hand_file(with_lines(SAUSPIEL)))
    others = {
        digest(parse_hand_file(with_lines(SAUSPIEL, *extra)))
        for extra in (("knocks: 1",), ("knocks: Anni",), ("stoss: 1",), ("set: base=2",))
    }
    assert plain not in others and len(others) == 4


def test_replay_takes_the_set_lines(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "hand.txt"
    path.write_text(with_lines(SAUSPIEL, "set: game_values.partner=20"), encoding="utf-8")
    result = run("replay", path, "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["score"]["stake"] == 20 + 4 * 10  # (four runs)


def test_replay_names_the_set_line_at_fault(fails: Fails, tmp_path: Path) -> None:
    path = tmp_path / "hand.txt"
    path.write_text(with_lines(SAUSPIEL, "set: base=2", "set: tout_scoring=sometimes"))
    error = fails("replay", path)
    assert error.startswith(f"Error: {path}:3: --set tout_scoring=sometimes: ")


# --- runs_min of a game of its own --------------------------------------------------------------

_FARBWENZ = (
    "--rules", "bavarian", "--players", "Ann,Bob,Cy,Dee", "--picker", "Ann", "--game",
    "farbwenz", "--points", "70", "--tricks", "5", "--runs", "2",
)  # fmt: skip


def test_a_farbwenz_counts_its_runs_as_a_wenz_unless_it_has_its_own(
    check_json: CheckJson,
) -> None:
    as_wenz = check_json(*_FARBWENZ)
    own = check_json(*_FARBWENZ, "--set", "runs_min.farbwenz=3")
    wenz_too = check_json(*_FARBWENZ, "--set", "runs_min.wenz=3")
    assert as_wenz["stake"] == 50 + 2 * 10
    assert own["stake"] == 50
    assert "2 runs count nothing: a farbwenz game needs at least 3." in own["explanation"]
    assert wenz_too["stake"] == 50
    assert "2 runs count nothing: a wenz game needs at least 3." in wenz_too["explanation"]
    plain_wenz = [a if a != "farbwenz" else "wenz" for a in _FARBWENZ]
    assert check_json(*plain_wenz, "--set", "runs_min.farbwenz=3")["stake"] == 50 + 2 * 10


def test_a_tout_counts_its_runs_as_its_game(check_json: CheckJson) -> None:
    tout = [a if a != "farbwenz" else "farbwenz-tout" for a in _FARBWENZ]
    tout = [*tout[:-5], "120", "--tricks", "8", "--runs", "2"]
    counted = check_json(*tout)["stake"]
    not_counted = check_json(*tout, "--set", "runs_min.farbwenz=3")["stake"]
    assert counted == (50 + 20) * 2 and not_counted == 50 * 2


def test_runs_min_is_for_a_game_that_counts_runs(fails: Fails) -> None:
    error = fails("check", *_FARBWENZ, "--set", "runs_min.bettel=2")
    assert error.startswith("Error: --set runs_min.bettel=2: unknown setting 'runs_min.bettel'")


def test_the_rules_list_a_games_own_runs_min(run: Run) -> None:
    shown = run("rules", "bavarian", "--set", "runs_min.farbgeier=3", "--format", "json")
    assert json.loads(shown.stdout)["runs_min"]["farbgeier"] == 3
    plain = json.loads(run("rules", "bavarian", "--format", "json").stdout)
    assert "farbgeier" not in plain["runs_min"]
