"""The one table of a hand's inputs (`scorepad.hands`): what comes from it agrees with it, and
errors name an input, each interface in its own words."""

import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from _types import Run

from scorepad import hands
from scorepad.errors import HandError, field, worded
from scorepad.hands import BY_NAME, INPUTS, KINDS, OPTIONS, Type, amend_changes, build_hand
from scorepad.scoring import RECORDS, LeasterHand, PickerHand
from scorepad.store import format as schema

FIVE = ("Ann", "Bob", "Cy", "Dee", "Ed")


@pytest.mark.parametrize("kind", KINDS)
def test_each_hand_record_holds_exactly_the_inputs_of_its_kind(kind: str) -> None:
    assert set(RECORDS) == set(KINDS)
    fields = set(RECORDS[kind]._fields) - {"players"}
    of_kind = {i.name for i in INPUTS if kind in i.kinds and i.type is not Type.KIND}
    assert fields == of_kind


def test_the_session_files_input_columns_are_the_tables() -> None:
    columns = {c.name: c for c in schema.COLUMNS if c.part is schema.Part.INPUT}
    assert set(columns) == {i.name for i in INPUTS if i.since}
    for name, column in columns.items():
        assert column.since == BY_NAME[name].since, name
    # a row has a field for each input, under the same name
    assert set(columns) <= set(schema.Row._fields)


def _hand_records() -> ModuleType:
    """scripts/hand_records.py, which writes the records' and `Row`'s fields from the table."""
    scripts = str(Path(__file__).parent.parent / "scripts")
    sys.path.insert(0, scripts)
    try:
        import hand_records  # type: ignore[import-not-found]
    finally:
        sys.path.remove(scripts)
    module: ModuleType = hand_records
    return module


def test_the_records_and_rows_inputs_are_as_the_table_writes_them() -> None:
    assert _hand_records().stale() == [], "run python scripts/hand_records.py"


def test_a_new_input_is_written_into_the_records_of_its_kinds_and_into_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script = _hand_records()
    misdeal = hands.Input("misdeal", Type.FLAG, frozenset(("picker", "leaster")), "A misdeal.")
    named = hands.Input("caller", Type.NAME, frozenset(("picker",)), "Who called.", since=9)
    monkeypatch.setattr(script, "INPUTS", (*INPUTS, misdeal, named))
    made: dict[str, Any] = {}
    exec(compile(script.records(), "records.py", "exec"), made)
    assert made["PickerHand"]._fields[-2:] == ("misdeal", "caller")
    assert made["LeasterHand"]._fields[-1] == "misdeal"
    assert "misdeal" not in made["SchwanzerHand"]._fields + made["RamschHand"]._fields
    # the players, then what a picker hand cannot be made without, as the table says
    assert made["PickerHand"]._fields[:3] == ("players", "picker", "points")
    assert made["PickerHand"](FIVE, "Ann", 70).caller is None
    assert made["LeasterHand"](FIVE).misdeal is False
    row = script.row(script.ROW_FILE.read_text(encoding="utf-8"))
    fields = row[row.index(script.ROW_START) : row.index(script.ROW_END)]
    assert fields.endswith("    misdeal: bool = False\n    caller: str | None = None\n")


def test_the_boards_fields_are_the_tables() -> None:
    from scorepad.web.records import FIELDS

    assert set(FIELDS) == {i.name for i in OPTIONS} | {"out", "doubler", "pot", "note"}


def test_a_hand_is_built_from_inputs_by_name() -> None:
    hand = build_hand(FIVE, {"picker": "Ann", "partners": ["Bob"], "points": 70})
    assert hand == PickerHand(FIVE, "Ann", 70, partners=("Bob",))
    leaster = build_hand(FIVE, {"leaster": True, "leaster_points": {"Ann": 10}}, out=["Ed"])
    assert leaster == LeasterHand(FIVE, leaster_points={"Ann": 10}, out=("Ed",))
    bettel = build_hand(FIVE, {"picker": "Ann", "game": "bettel"})
    assert isinstance(bettel, PickerHand)
    assert bettel.points == 0


@pytest.mark.parametrize(
    "values, says, names",
    [
        ({"leaster": True, "ramsch": True}, "⟨leaster⟩ and ⟨ramsch⟩: everyone passed",
         "leaster"),
        ({"leaster": True, "jungfrau": ["Ann"]}, "⟨jungfrau⟩ belongs to a Ramsch; add ⟨ramsch⟩",
         "jungfrau"),
        ({"picker": "Ann", "points": 70, "losers": ["Bob"]},
         "⟨losers⟩ belongs to a schwanzer or a Ramsch; add ⟨schwanzer⟩", "losers"),
        ({"picker": "Ann", "points": 70, "winner": "Bob"},
         "⟨winner⟩ belongs to a leaster; add ⟨leaster⟩", "winner"),
        ({"schwanzer": True, "knocks": 1}, "⟨knocks⟩ does not belong with ⟨schwanzer⟩", "knocks"),
        ({"ramsch": True, "picker": "Ann"}, "⟨picker⟩ does not belong with ⟨ramsch⟩", "picker"),
        ({"points": 70}, "Missing option '⟨picker⟩' (or give ⟨leaster⟩)", "picker"),
    ],
)  # fmt: skip
def test_inputs_that_do_not_go_together_are_named(
    values: dict[str, object], says: str, names: str
) -> None:
    with pytest.raises(HandError) as caught:
        build_hand(FIVE, values)
    assert caught.value.raw.startswith(says)
    assert caught.value.field == names


def test_an_amendment_clears_the_inputs_of_the_other_kinds() -> None:
    changes = amend_changes({"leaster": True, "winner": "Cy"})
    assert changes["winner"] == "Cy"
    assert changes["picker"] is None and changes["partners"] == () and changes["blitz"] == 0
    assert changes["ramsch_points"] is None and "dealer" not in changes and "last" not in changes
    assert amend_changes({"points": 58}) == {"points": 58}  # the kind unchanged: nothing cleared
    assert amend_changes({"partners": ("Dee",)}) == {"partners": ("Dee",), "alone": False}
    assert amend_changes({"ramsch": True, "losers": ("Ann",)})["game"] == "ramsch"
    with pytest.raises(HandError) as caught:
        amend_changes({"picker": "Ann", "winner": "Bob"})
    assert caught.value.raw == "⟨winner⟩ does not belong with ⟨picker⟩"


def test_a_message_is_worded_by_each_interface() -> None:
    text = f"{field('partners')} Zed: unknown player"
    assert worded(text, lambda name: "--partner") == "--partner Zed: unknown player"
    assert worded(text, str) == "partners Zed: unknown player"
    from scorepad.cli._common import option_word

    assert [option_word(n) for n in ("partners", "losers", "paid_to", "leaster_points", "set")] == [
        "--partner", "--loser", "--to", "--leaster-points", "--set"]  # fmt: skip
    assert all(option_word(i.name) == f"--{i.option}" for i in INPUTS)


def test_the_same_mistake_names_the_option_on_the_command_line_and_the_key_on_the_board(
    run: Run, tmp_path: Path
) -> None:
    from starlette.testclient import TestClient

    from scorepad.web.app import Board, create_app

    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", ",".join(FIVE)).exit_code == 0
    cli = run("-f", path, "hand", "--picker", "Ann", "--partner", "Zed", "--points", "70")
    assert cli.exit_code == 1 and "Error: --partner Zed: unknown player" in cli.stderr
    board = Board(path, allow_entry=True, token="a-token-123")
    with TestClient(create_app(board), base_url="http://localhost") as client:
        reply = client.post(
            "/api/hands",
            json={"picker": "Ann", "partners": ["Zed"], "points": 70},
            headers={"authorization": "Bearer a-token-123"},
        )
    assert reply.status_code == 422
    assert json.loads(reply.text)["error"].startswith("partners Zed: unknown player")
    assert "--" not in reply.json()["error"]


def test_no_module_below_the_interfaces_spells_an_option() -> None:
    """Messages and explanations name inputs (`errors.field`); only cli/ spells them as options.
    (Docstrings may say what a command line does; no text a user is shown may.)"""
    import ast
    import re
    from pathlib import Path

    package = Path(hands.__file__).parent
    below = [p for p in package.glob("*.py") if p.stem != "__main__"]
    option = re.compile(r"(?<![\w-])--[a-z]")
    spelled = []
    for path in below:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {  # (and the strings that document a name, after it)
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
                and option.search(node.value)
            ):
                spelled.append(f"{path.name}:{node.lineno}: {node.value[:60]!r}")
    assert spelled == []
