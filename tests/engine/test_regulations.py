"""Regulations as data: the Tianshui preset exactly, TOML and dict round trips, precise errors."""

import dataclasses
from typing import Any

import pytest

from app.engine.regulations import (
    PrizeKind,
    Tiebreak,
    legacy_group,
    preset,
    regulations_from_dict,
    regulations_from_toml,
    regulations_to_dict,
    regulations_to_toml,
)
from app.engine.types import Colour, GameResult, UserError


def test_tianshui_preset_matches_the_regulation() -> None:
    reg = preset("tianshui-2024")
    assert [g.name for g in reg.groups] == ["公开组", "天水本地组"]
    open_, local = reg.groups
    assert (open_.teams, local.teams) == (True, False)  # 本地组不设团体
    assert all((g.rounds, g.swiss_rounds, g.knockout_size) == (11, 8, 8) for g in reg.groups)
    assert reg.swiss_time_control.label == "20′+10″"
    assert (reg.knockout.slow.label, reg.knockout.rapid.label, reg.knockout.deciding.label) == (
        "20′+5″",
        "10′+3″",
        "5′+3″",
    )
    assert reg.registration.capacity == 160 and reg.registration.age_limit == 65
    assert reg.registration.fee_yuan == 100
    assert reg.registration.deadline.isoformat() == "2024-07-23T18:00:00"
    assert reg.tiebreaks.chain == (
        Tiebreak.OPPONENT_SCORE,
        Tiebreak.WINS,
        Tiebreak.VIOLATIONS,
        Tiebreak.BLACK_GAMES,
        Tiebreak.BLACK_WINS,
        Tiebreak.PREVIOUS_ROUNDS,
    )
    assert reg.record_duty.top_boards == 10 and reg.record_duty.draw_recorder is Colour.BLACK
    assert reg.record_duty.min_draw_moves == 25 and reg.discipline.late_minutes == 10
    assert reg.team.counted_members == 4 and reg.team.min_members == 4


def test_prize_tables_sum_to_the_regulation_totals() -> None:
    reg = preset("tianshui-2024")
    open_ind = reg.prize_tables("公开组", PrizeKind.INDIVIDUAL)[0]
    local_ind = reg.prize_tables("天水本地组", PrizeKind.INDIVIDUAL)[0]
    team = reg.prize_tables("公开组", PrizeKind.TEAM)[0]
    # 10000+5000+3000+2000+1000+800+600+600+500+500+400+400 = 24800; 6×300 + 6×200 = 3000
    assert (len(open_ind.amounts), open_ind.total) == (24, 27_800)
    assert open_ind.amounts[12:18] == (300,) * 6 and open_ind.amounts[18:] == (200,) * 6
    # 2000+1000+800+500 = 4300; 4×400 + 4×300 + 4×200 = 3600
    assert (len(local_ind.amounts), local_ind.total) == (16, 7_900)
    assert (len(team.amounts), team.total) == (8, 3_000)
    assert reg.prize_tables("天水本地组", PrizeKind.TEAM) == ()


def test_points_table_of_rules_section_4() -> None:
    points = preset("tianshui-2024").points
    assert points.for_result(GameResult.RED_WIN) == (2, 0)
    assert points.for_result(GameResult.DRAW) == (1, 1)
    assert points.for_result(GameResult.BLACK_WIN) == (0, 2)
    assert points.for_result(GameResult.RED_FORFEIT) == (0, 2)
    assert points.for_result(GameResult.BLACK_FORFEIT) == (2, 0)
    assert points.for_result(GameResult.DOUBLE_FORFEIT) == (0, 0)
    assert points.bye == 2
    three_one = dataclasses.replace(points, win=3, forfeit_win=3, bye=3, red_draw=1, black_draw=2)
    assert three_one.for_result(GameResult.DRAW) == (1, 2)
    assert three_one.for_result(GameResult.RED_WIN) == (3, 0)


def test_toml_and_dict_round_trips_are_exact() -> None:
    reg = preset("tianshui-2024")
    text = regulations_to_toml(reg)
    assert 'name = "公开组"' in text
    assert regulations_from_toml(text) == reg
    assert regulations_from_dict(regulations_to_dict(reg)) == reg
    changed = dataclasses.replace(reg, groups=(legacy_group("甲组", True, 7, 7, 0),), prizes=())
    assert regulations_from_toml(regulations_to_toml(changed)) == changed


def _legacy(data, **keys) -> None:
    group = data["groups"][0]
    group.pop("stages", None)
    group.update({"rounds": 11, "swiss_rounds": 8, "knockout_size": 8, **keys})


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["points"].update(win="two"), r"points\.win"),
        (lambda d: d["pairing"].update(team_avoidance="sometimes"), r"pairing\.team_avoidance.*sometimes"),
        (lambda d: d.update(colour="red"), r"regulations\.colour.*未知"),
        # the old format keys (files written before stages) are still read and checked as before
        (lambda d: _legacy(d, knockout_size=200), "淘汰赛人数"),
        (lambda d: _legacy(d, swiss_rounds=11), "分段前"),
        (lambda d: d["groups"][0].update(knockout_size=8), r"groups\[0\]\.knockout_size.*stages"),
        (lambda d: d["groups"][0]["stages"][0].update(cycles=2), r"stages\[0\]\.cycles.*循环赛"),
        (lambda d: d["groups"][0]["stages"][1].update(count=0), r"第2阶段（淘汰赛）.*count"),
        (lambda d: d["tiebreaks"].update(chain=["wins", "wins"]), "重复"),
        (lambda d: d["tiebreaks"].update(chain=["previous_rounds", "wins"]), "最后"),
        (lambda d: d["registration"].update(deadline="7月23日"), r"registration\.deadline"),
        (lambda d: d["prizes"][0].update(group="少年组"), "少年组"),
        (lambda d: d.update(groups=[]), "至少要有一个组别"),
        (lambda d: d["pairing"].update(late_entry_points="half"), r"pairing\.late_entry_points.*half"),
        (lambda d: d["prizes"][0].update(category="seniors"), "年龄界限"),
        (lambda d: d["prizes"][0].update(category="local"), "须给出地区"),
        (lambda d: d["prizes"][0].update(category="unit", units=[" "]), "须给出单位"),
        (lambda d: d["prizes"][2].update(category="women"), "团体奖励.*不能限定类别"),
        (lambda d: d["prizes"][0].update(amounts=[], items=[]), "没有任何名次"),
        (lambda d: d["prize_rules"].update(withholding_percent=120), "代扣税率"),
        (
            lambda d: d["pairing"].update(avoidances=[{"basis": "unit", "from_round": 3, "to_round": 2}]),
            "同单位回避的轮次范围无效",
        ),
        (lambda d: d["pairing"].update(avoidances=[{"basis": "club"}]), r"avoidances\[0\]\.basis.*club"),
    ],
)
def test_bad_settings_are_refused_with_the_setting_named(edit, message: str) -> None:
    data = regulations_to_dict(preset("tianshui-2024"))
    edit(data)
    with pytest.raises(UserError, match=message):
        regulations_from_dict(data)


def test_broken_toml_and_unknown_preset() -> None:
    with pytest.raises(UserError, match="TOML"):
        regulations_from_toml("event_name = ")
    with pytest.raises(UserError, match="tianshui-2024"):
        preset("beijing-1990")


def _later_names() -> dict[str, Any]:
    """The names a regulation's annotations use but import only when read (``regulations._LATER``)."""
    import importlib

    from app.engine.regulations import _LATER

    return {name: getattr(importlib.import_module(module), name) for name, module in _LATER.items()}


_LATER_NAMES = _later_names()


def _settings_types() -> set[type]:
    """Every settings record a regulation holds, found from its fields' types (team competitions' too)."""
    import typing

    from app.engine.regulations import Regulations

    found: set[type] = set()
    todo: list[Any] = [Regulations]
    while todo:
        tp = todo.pop()
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            if tp in found:
                continue
            found.add(tp)
            todo.extend(typing.get_type_hints(tp, localns=_LATER_NAMES).values())
        else:
            todo.extend(typing.get_args(tp))
    return found


def test_every_settings_type_is_a_record_whose_field_types_read_as_get_type_hints() -> None:
    """The reader resolves a field's type when first read (so an individual event's regulation does not
    import the team-competition rules): the same types ``typing.get_type_hints`` gives, and every
    settings type a record (the reader and the range checks walk records only)."""
    import typing

    from app.engine import records
    from app.engine.regulations import _field_type

    kinds = _settings_types()
    assert len(kinds) > 20
    for tp in kinds:
        assert records.is_record(tp), tp
        hints = typing.get_type_hints(tp, localns=_LATER_NAMES)
        for f in records.fields(tp):
            assert _field_type(tp, f.name) == hints[f.name], (tp, f.name)


def test_an_individual_events_regulation_is_read_without_the_team_rules() -> None:
    """Reading, checking and writing a regulation without a team competition, then pairing through the
    engine, imports neither the team-competition rules nor :mod:`dataclasses` (nor :mod:`inspect`)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from app.engine.regulations import preset, regulations_from_dict, regulations_to_dict\n"
        "import app.engine.pairing, app.services.fastpair, app.cli.rounds\n"
        "reg = regulations_from_dict(regulations_to_dict(preset('tianshui-2024')))\n"
        "reg.validate()\n"
        "assert reg.groups and all(g.team_event is None for g in reg.groups)\n"
        "print(sorted(m for m in ('app.engine.team_rules', 'dataclasses', 'inspect') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_a_team_events_regulation_reads_its_team_settings() -> None:
    """A team competition's settings are read (their type resolved when the field is read), checked (a
    negative setting refused, 场分 in their own range) and written back."""
    from app.engine.regulations import GroupFormat, preset, regulations_from_dict, regulations_to_dict
    from app.engine.team_presets import TEAM_FORMATS, team_format_event

    base = preset("tianshui-2024")
    for name in TEAM_FORMATS:
        group = GroupFormat("团体组", True, team_event=team_format_event(name))
        reg = dataclasses.replace(base, groups=(group,), prizes=())
        data = regulations_to_dict(reg)
        assert data["groups"][0]["team_event"]
        again = regulations_from_dict(data)
        assert again == reg and again.groups[0].team_event == reg.groups[0].team_event
        again.validate()
    data = regulations_to_dict(reg)
    data["groups"][0]["team_event"].setdefault("match", {}).setdefault("match_points", {})[
        "forfeit_loss"
    ] = -1
    regulations_from_dict(data).validate()  # 场分 may be negative: a team that does not appear may lose some
    data["groups"][0]["team_event"]["match"]["boards"] = -1
    with pytest.raises(UserError, match="boards"):
        regulations_from_dict(data).validate()


def test_the_readers_dataclasses_round_trip_too() -> None:
    """The regulations' reader and writer also carry the paperwork, whose settings are dataclasses (not
    records): written, read back, and a missing required value named."""
    from app.engine.paperwork import Official, Paperwork, paperwork_from_dict, paperwork_to_dict

    value = dataclasses.replace(
        Paperwork(), officials=(Official("裁判长", "王立"), Official("副裁判长", "李华"))
    )
    data = paperwork_to_dict(value)
    assert data["officials"][1] == {"role": "副裁判长", "name": "李华", "signs": True}
    assert paperwork_from_dict(data) == value
    del data["officials"][0]["role"]
    with pytest.raises(UserError, match="officials"):
        paperwork_from_dict(data)
