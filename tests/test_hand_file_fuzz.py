"""Hostile hand files (issue 44, item 4): every header line of a hand file, empty, doubled or
unknown, is one clear `FILE:LINE: message`, and no mutated sample hand file makes `replay`
print a traceback."""

import random
import re
from pathlib import Path

import pytest
from _types import Fails, Run

HANDS = Path(__file__).parent.parent / "sample_sessions" / "hands"
SAMPLES = sorted(HANDS.glob("*.txt"))
HEADER_KEYS = (
    "rules", "players", "dealer", "blind", "picker", "bury", "call", "game", "crack", "recrack",
    "loser", "knocks", "stoss", "set", "trick",
)  # fmt: skip
LINE = re.compile(r"^Error: (?P<file>.+?):(?P<line>\d+): \S")


def _header_lines(text: str) -> list[tuple[int, str]]:
    """(line number, key) of each `key: value` line of a hand file whose key is a header key."""
    found = []
    for number, raw in enumerate(text.splitlines(), 1):
        key = raw.split("#", 1)[0].partition(":")[0].strip().lower()
        if ":" in raw and key in HEADER_KEYS:
            found.append((number, key))
    return found


def _one_clear_line(fails: Fails, path: Path) -> int:
    """The line number `replay PATH`'s one error line names (asserting it is one)."""
    line = fails("replay", path)
    match = LINE.match(line)
    assert match and match["file"] == str(path), line
    assert "Traceback" not in line
    return int(match["line"])


@pytest.mark.parametrize("sample", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_every_header_line_given_empty_is_one_error_naming_its_line(
    fails: Fails, tmp_path: Path, sample: Path
) -> None:
    text = sample.read_text(encoding="utf-8")
    lines = text.splitlines()
    for number, key in _header_lines(text):
        emptied = [*lines]
        emptied[number - 1] = f"{key}:"
        path = tmp_path / f"{sample.stem}-{number}.txt"
        path.write_text("\n".join(emptied) + "\n", encoding="utf-8")
        assert _one_clear_line(fails, path) == number, (key, number)


def test_an_empty_dealer_line_is_an_error_not_a_crash(fails: Fails, tmp_path: Path) -> None:
    path = tmp_path / "hand.txt"
    text = (HANDS / "friday-disputed.txt").read_text(encoding="utf-8")
    path.write_text(text.replace("dealer: South", "dealer:"), encoding="utf-8")
    line = fails("replay", path)
    assert line == f"Error: {path}:5: dealer: empty; give a value or leave the line out"


@pytest.mark.parametrize("sample", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_every_header_line_given_twice_names_the_second(
    fails: Fails, tmp_path: Path, sample: Path
) -> None:
    text = sample.read_text(encoding="utf-8")
    lines = text.splitlines()
    for number, key in _header_lines(text):
        if key in ("trick", "set"):  # (given once a trick or a setting)
            continue
        doubled = [*lines, lines[number - 1]]
        path = tmp_path / f"{sample.stem}-{number}.txt"
        path.write_text("\n".join(doubled) + "\n", encoding="utf-8")
        assert _one_clear_line(fails, path) == len(doubled), (key, number)


def test_an_unknown_key_is_one_error_naming_its_line(fails: Fails, tmp_path: Path) -> None:
    path = tmp_path / "hand.txt"
    lines = (HANDS / "friday-disputed.txt").read_text(encoding="utf-8").splitlines()
    lines.insert(5, "delaer: South")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert _one_clear_line(fails, path) == 6


def _mutated(rng: random.Random, lines: list[str]) -> list[str]:
    """The lines of a hand file with one to three lines mutated as a careless hand or a
    hostile one would: emptied, doubled, dropped, cut short, given another key, another value,
    a stray word or character."""
    lines = [*lines]
    keys = [*HEADER_KEYS, "hand", "West", "Anni", "foo", ""]
    words = (
        "", " ", "QC", "XX", "10", "South", "Sepp", "yes", "no", "0", "99", "-1", "solo",
        "wenz H", "alone", "AS unknown 7C", ",", ",,", '"', "#", "\ufeff", "standard",
        "schafkopf", "bavarian", "a=b", "base=0", "QC QC", "é", "\u00a0",
    )  # fmt: skip
    for _each in range(rng.randint(1, 3)):
        if not lines:
            break
        at = rng.randrange(len(lines))
        key, sep, value = lines[at].partition(":")
        choice = rng.randrange(9)
        if choice == 0:
            lines[at] = f"{key}:"
        elif choice == 1:
            lines.insert(rng.randrange(len(lines) + 1), lines[at])
        elif choice == 2:
            del lines[at]
        elif choice == 3:
            lines[at] = lines[at][: rng.randrange(len(lines[at]) + 1)]
        elif choice == 4:
            lines[at] = f"{rng.choice(keys)}:{value}"
        elif choice == 5:
            lines[at] = f"{key}: {rng.choice(words)}"
        elif choice == 6:
            lines[at] = f"{key}{sep}{value} {rng.choice(words)}"
        elif choice == 7:
            spread = value.split()
            rng.shuffle(spread)
            lines[at] = f"{key}{sep} {' '.join(spread)}"
        else:
            other = rng.randrange(len(lines))
            lines[at], lines[other] = lines[other], lines[at]
    return lines


def test_a_thousand_mutated_sample_hand_files_give_no_traceback(run: Run, tmp_path: Path) -> None:
    rng = random.Random(44)
    samples = [(p, p.read_text(encoding="utf-8").splitlines()) for p in SAMPLES]
    for number in range(1000):
        sample, lines = rng.choice(samples)
        path = tmp_path / f"{number}-{sample.name}"
        text = "\n".join(_mutated(rng, lines)) + "\n"
        path.write_text(text, encoding="utf-8")
        try:
            result = run("replay", path, *rng.choice([(), ("--format", "json")]))
        except Exception as exc:  # (run raises what the command did not handle)
            raise AssertionError(f"{sample.name}, run {number}:\n{text}") from exc
        assert result.exit_code in (0, 1), (result.exit_code, text, result.stderr)
        if result.exit_code == 1 and result.stderr.startswith("Error: "):
            lines_out = result.stderr.splitlines()
            assert len(lines_out) == 1, (text, result.stderr)
            assert LINE.match(lines_out[0]), (text, result.stderr)
