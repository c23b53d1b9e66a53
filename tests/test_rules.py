"""The rules table: presets, a user's own file, --set overrides and the `rules` command."""

import json
import textwrap
import tomllib
from pathlib import Path

import pytest
from _types import Fails, Run

from scorepad.errors import RulesError
from scorepad.names import PRESETS
from scorepad.rules import changed, load_rules, rules_from_dict


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads_and_round_trips(name: str) -> None:
    rules = load_rules(name)
    assert rules.name == name
    assert rules_from_dict(rules.to_dict(), name) == rules


def test_presets_differ_as_rules_md_section_4_says() -> None:
    standard, pagat, first, sk = (load_rules(n) for n in PRESETS[:4])
    assert (standard.double_on_the_bump, pagat.double_on_the_bump) == (False, True)
    assert standard.deals[6].partners == 1 and pagat.deals[6].partners == 2
    assert first.settlement == "race" and first.target == 5 and first.level3_by == "points"
    assert (first.schneider_win, first.schneider_loss) == (91, 29)
    assert first.cracks is False and first.all_pass == "redeal" and 6 not in first.deals
    assert (first.deals[4].cards, first.deals[4].blind) == (8, 0)
    assert (standard.deals[4].cards, standard.deals[4].blind) == (7, 4)
    assert sk.family == "schafkopf" and list(sk.deals) == [4] and sk.all_pass == "redeal"
    assert sk.game_values["solo"] == 5 and sk.game_values["wenz-tout"] == 10


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("double_on_the_bump=true", "double_on_the_bump", True),
        ("all_pass=doubler", "all_pass", "doubler"),
        ("base=2", "base", 2),
        ("level_multipliers=1,2,4", "level_multipliers", (1, 2, 4)),
        ("level_multipliers=[1, 2, 4]", "level_multipliers", (1, 2, 4)),
    ],
)
def test_set_values_are_typed(text: str, key: str, value: object) -> None:
    rules = load_rules("standard", [text])
    assert getattr(rules, key) == value
    assert rules.overrides == (
        f"{key}={text.split('=')[1].strip('[]').replace(' ', '')}".replace("=off", "=false"),
    )


def test_a_setting_at_the_presets_value_is_no_house_rule() -> None:
    """Issue 40, item 4: only what differs from the preset is named in the summary."""
    rules = load_rules("standard", ["double_on_the_bump=off", "all_pass=leaster", "base=2"])
    assert not rules.double_on_the_bump and rules.all_pass == "leaster"
    assert rules.overrides == ("base=2",)
    assert rules.summary() == "standard, with base=2"
    assert load_rules("standard", ["all_pass=leaster"]).summary() == "standard"


def test_a_setting_set_back_to_the_presets_value_leaves_the_summary() -> None:
    """`scorepad set` back to the preset's value takes the override out of the summary."""
    rules = changed(load_rules("standard", ["all_pass=doubler"]), ["base=3"])
    assert rules.summary() == "standard, with all_pass=doubler, base=3"
    back = changed(rules, ["all_pass=leaster"])
    assert back.all_pass == "leaster" and back.summary() == "standard, with base=3"
    assert changed(back, ["base=1"]).summary() == "standard"


def test_set_a_deal_field() -> None:
    assert load_rules("pagat", ["deal.6.partners=1"]).deals[6].partners == 1


def test_short_deck_schafkopf() -> None:
    rules = load_rules("schafkopf", ["deal.4.cards=6"])
    assert rules.deals[4].cards == 6


@pytest.mark.parametrize(
    "override, message",
    [
        ("base=two", "base: 'two' is not valid; use a whole number 1 to 1,000,000"),
        ("base=0", "use a whole number 1 to 1,000,000"),
        ("cracks=maybe", "use true or false"),
        ("schneider_win=50", "a whole number 61 to 120"),
        ("level_multipliers=1,2", "three whole numbers"),
        ("nonsense", "write KEY=VALUE"),
        ("deal.9.cards=3", "a deal is for 2 to 8 players"),
        ("deal.5.cards=7", "is 37 cards, not a 32- or 24-card pack"),
        ("deal.5.partners=0", "does not fit partners = 0"),
        ("deal.7.cards=4", "deal.7 needs cards, blind, partners and call"),
        ("family=schafkopf", "the family comes with the preset"),
        ("double_on_bump=true", "did you mean 'double_on_the_bump'?"),
    ],
)
def test_bad_overrides_are_refused(override: str, message: str) -> None:
    with pytest.raises(RulesError, match=None) as info:
        load_rules("standard", [override])
    assert message in str(info.value)


def test_users_file_starts_from_a_preset(tmp_path: Path) -> None:
    path = tmp_path / "friday.toml"
    path.write_text(
        textwrap.dedent("""\
        preset = "pagat"
        leaster_payout = 2
        [deal.5]
        call = "jack-of-diamonds"
    """)
    )
    rules = load_rules(str(path))
    assert rules.name == "friday" and rules.double_on_the_bump is True
    assert rules.leaster_payout == 2 and rules.deals[5].call == "jack-of-diamonds"
    assert rules.deals[5].cards == 6  # the rest of the deal comes from the preset


def test_users_file_defaults_to_standard(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('name = "House"\nall_pass = "doubler"\n')
    rules = load_rules(str(path), ["doubler_stacking=multiply"])
    assert rules.name == "House" and rules.all_pass == "doubler"
    assert rules.double_on_the_bump is False and rules.doubler_stacking == "multiply"


@pytest.mark.parametrize(
    "content, message",
    [
        ("base = \n", "not valid TOML"),
        ('preset = "pagot"\n', "did you mean 'pagat'?"),
        ("leaster_payot = 2\n", "unknown setting 'leaster_payot'"),
        ('base = "one"\n', "base: 'one' is not valid"),
        ("[deal.5]\nblind = 3\n", "not a 32- or 24-card pack"),
        ('family = "schafkopf"\n', "start from a schafkopf preset"),
    ],
)
def test_bad_rules_files_name_the_file(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(content)
    with pytest.raises(RulesError) as info:
        load_rules(str(path))
    assert str(path) in str(info.value) and message in str(info.value)


def test_rules_file_that_is_not_text(tmp_path: Path) -> None:
    path = tmp_path / "bin.toml"
    path.write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(RulesError, match="not a UTF-8 text file"):
        load_rules(str(path))


# --- the `rules` command ------------------------------------------------------------------------


def test_rules_command_shows_every_setting_with_its_meaning(run: Run) -> None:
    result = run("rules", "pagat")
    assert result.exit_code == 0
    assert result.stdout.startswith("Rules: pagat. Sheepshead as Pagat scores it")
    line = next(l for l in result.stdout.splitlines() if l.startswith("double_on_the_bump"))
    assert line.split()[1] == "true" and "loss by the picker's side pays double" in line
    assert "deal.6.partners" in result.stdout


def test_rules_command_defaults_to_standard_and_shows_overrides(run: Run) -> None:
    result = run("rules", "--set", "all_pass=doubler")
    assert result.stdout.startswith("Rules: standard, with all_pass=doubler.")


@pytest.mark.parametrize("name", PRESETS)
def test_rules_toml_output_loads_back_as_the_same_table(
    run: Run, tmp_path: Path, name: str
) -> None:
    result = run("rules", name, "--set", "base=3", "--format", "toml")
    assert result.exit_code == 0
    path = tmp_path / "mine.toml"
    path.write_text(result.stdout)
    assert tomllib.loads(result.stdout)["base"] == 3
    reloaded = load_rules(str(path))
    original = load_rules(name, ["base=3"])
    assert reloaded.flat() == original.flat()


def test_rules_json_output(run: Run) -> None:
    data = json.loads(run("rules", "schafkopf", "--format", "json").stdout)
    assert data["family"] == "schafkopf" and data["deal"]["4"]["cards"] == 8
    assert data["game_values"]["solo-tout"] == 10


def test_rules_command_unknown_preset_lists_presets(fails: Fails) -> None:
    line = fails("rules", "sheepshead")
    assert "presets: standard, pagat, first-night, schafkopf" in line


def test_rules_from_a_file_via_check(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "bump.toml"
    path.write_text("double_on_the_bump = true\n")
    result = run(
        "check",
        "--rules",
        str(path),
        "--players",
        "A,B,C",
        "--picker",
        "A",
        "--points",
        40,
        "--format",
        "json",
    )
    assert json.loads(result.stdout)["deltas"] == {"A": -4, "B": 2, "C": 2}


def test_each_setting_is_declared_once_and_rules_holds_each() -> None:
    import ast
    import inspect

    from scorepad.rules import Rules
    from scorepad.rules import settings as module
    from scorepad.scoring import points_class

    settings = {s.key: s for s in module.SCALARS}
    fields = set(Rules._fields) - {
        "deals", "game_values", "runs_min", "runs_max", "preset", "source", "overrides"
    }  # fmt: skip
    assert fields == set(settings)
    assert not any(k in Rules._field_defaults for k in settings)  # defaults: the Setting's
    for setting in settings.values():
        if setting.family is not None:  # the value a table of the other family holds
            assert setting.elsewhere is not None, setting.key
    for preset in ("standard", "schafkopf"):  # a setting of the other family holds `elsewhere`
        table = load_rules(preset)
        for setting in settings.values():
            if setting.family not in (None, table.family):
                assert getattr(table, setting.key) == setting.elsewhere, setting.key
    # the settings points_class compares card points with are those that say so
    read = {
        node.attr
        for node in ast.walk(ast.parse(inspect.getsource(points_class)))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        and node.value.id == "rules"
    }  # fmt: skip
    # (and the deals, which are no setting of their own: a file's deal is fixed by its seats)
    assert read - {"deals"} == {k for k, s in settings.items() if s.moves_points_class}
