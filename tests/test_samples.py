"""The bundled sample sessions: real nights that verify, and the README that quotes them."""

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _types import Run

ROOT = Path(__file__).parent.parent
SAMPLES = sorted((ROOT / "sample_sessions").glob("**/*.csv"))


def test_there_are_samples_for_every_kind_of_night() -> None:
    names = {p.name for p in SAMPLES}
    assert names >= {
        "standard-friday.csv",
        "pagat-bump-and-cracks.csv",
        "six-dealer-sits-out.csv",
        "three-handed.csv",
        "first-night-race.csv",
        "schafkopf-evening.csv",
    }


@pytest.mark.parametrize("path", SAMPLES, ids=[str(p.relative_to(ROOT)) for p in SAMPLES])
def test_every_sample_verifies(run: Run, path: Path) -> None:
    result = run("-f", path, "verify")
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == ""


def _standings(run: Run, name: str) -> Any:
    return json.loads(
        run("-f", ROOT / "sample_sessions" / name, "standings", "--format", "json").stdout
    )


def test_standard_friday_is_a_forty_hand_night_with_everything(run: Run) -> None:
    path = ROOT / "sample_sessions" / "standard-friday.csv"
    text = path.read_text()
    assert _standings(run, "standard-friday.csv")["hands"] >= 38
    assert ",leaster," in text and ",yes," in text  # leasters and a picker alone
    assert ",120,6," in text and ",60,3," in text  # every trick, and a 60-60 loss
    assert ",amend," in text and ",void," in text


def test_first_night_race_ends_with_a_winner(run: Run) -> None:
    data = _standings(run, "first-night-race.csv")
    assert data["race_winners"] and max(data["totals"].values()) == 5


def test_six_handed_sample_sits_the_dealer_out(run: Run) -> None:
    sheet = json.loads(
        run(
            "-f", ROOT / "sample_sessions" / "six-dealer-sits-out.csv", "sheet", "--format", "json"
        ).stdout
    )
    for hand in sheet["hands"]:
        assert hand["deltas"][hand["dealer"]] == 0 and len(hand["deltas"]) == 6


def test_samples_are_what_the_script_writes(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_samples.py"), str(tmp_path)],
        check=True,
        cwd=ROOT,
    )
    for path in SAMPLES:
        made = tmp_path / path.relative_to(ROOT / "sample_sessions")
        assert made.read_bytes() == path.read_bytes(), path.name


def test_readme_starts_with_the_two_commands_and_quotes_real_output(run: Run) -> None:
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    assert blocks[0].startswith("python3 -m venv .venv && .venv/bin/pip install -q . && ")
    assert blocks[1] == (
        "python3 -m venv .venv && .venv/bin/pip install -q '.[test]' && "
        ".venv/bin/python -m pytest -q -n auto"
    )
    ci = (ROOT / ".ci" / "run").read_text()
    assert blocks[1] in ci
    main_args = blocks[0].split(".venv/bin/scorepad ", 1)[1].split()
    quoted = readme.split("$ scorepad " + " ".join(main_args) + "\n", 1)[1].split("```")[0]
    assert run(*main_args).stdout == quoted
