"""Who may play in a group: registration and import refuse an entrant outside the group's conditions with
the rule named; the chief arbiter may accept one with a reason, which is stored and logged."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from app.db.models import Player
from app.db.session import Database
from app.engine.eligibility import Eligibility, Sex, broken_rules
from app.engine.formats import legacy_stages
from app.engine.registration import PlayerEntry
from app.engine.regulations import GroupFormat, preset, regulations_from_dict, regulations_to_dict
from app.engine.types import Gender, UserError
from app.services.audit import audit_log
from app.services.excel_import import ImportRefused, import_players
from app.services.registration import add_player, edit_player, list_players, player_entry
from app.services.tournaments import create_tournament
from tests.idnumbers import make_id
from tests.services.test_excel_import import good_row, workbook

BEFORE = datetime(2024, 7, 20, 10, 0)
JUNIORS = "少儿组"
U17 = Eligibility(born_from=date(2007, 1, 1), born_to=date(2010, 12, 31))


@pytest.fixture
def db(tmp_path: Path) -> Database:
    base = preset("tianshui-2024")
    reg = dataclasses.replace(
        base,
        groups=(base.groups[0], GroupFormat(JUNIORS, False, legacy_stages(7, 7, 0), U17)),
        prizes=tuple(t for t in base.prizes if t.group == base.groups[0].name),
    )
    return create_tournament(tmp_path / "t.xqt", regulations=reg)


def _entry(birth: date, serial: int = 1, **changes: object) -> PlayerEntry:
    base = PlayerEntry(
        name=f"棋手{chr(0x4E00 + serial)}",
        id_number=make_id(birth, serial=serial),
        phone="13912345678",
        group=JUNIORS,
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def test_every_condition_is_checked_and_named() -> None:
    rules = Eligibility(
        born_from=date(2007, 1, 1),
        min_age=10,
        max_age=16,
        age_on=date(2024, 7, 26),
        sex=Sex.FEMALE,
        min_rating=1500,
        max_rating=2000,
        regions=("6205", "秦州区"),
        units=("天水一中",),
    )
    ok = broken_rules(
        rules,
        birth=date(2010, 3, 1),
        gender=Gender.FEMALE,
        rating=1600,
        unit="天水一中",
        region="麦积区",
        id_number="620502201003010021",
    )
    assert ok == ()
    bad = broken_rules(
        rules, birth=date(2006, 3, 1), gender=Gender.MALE, rating=2100, unit="兰州", id_number="110105"
    )
    texts = [zh for zh, _ in bad]
    assert texts == [
        "出生日期须在 2007-01-01 或之后（生于 2006-03-01）",
        "2024-07-26 不得超过 16 周岁（18 周岁）",
        "本组限女子（男）",
        "等级分须不高于 2000（2100）",
        "本组限地区 6205、秦州区（地区未填）",
        "本组限单位 天水一中（兰州）",
    ]
    assert [zh for zh, _ in broken_rules(rules, birth=date(2015, 1, 1), rating=None)][0:2] == [
        "2024-07-26 须年满 10 周岁（9 周岁）",
        "本组限女子（性别未填）",
    ]
    assert Eligibility().open and not rules.open


def test_the_group_conditions_are_regulation_settings() -> None:
    base = preset("tianshui-2024")
    reg = dataclasses.replace(
        base, groups=(dataclasses.replace(base.groups[0], eligibility=U17), base.groups[1])
    )
    data = regulations_to_dict(reg)
    assert data["groups"][0]["eligibility"] == {
        "born_from": "2007-01-01",
        "born_to": "2010-12-31",
        "min_age": 0,
        "max_age": 0,
        "sex": "any",
        "min_rating": 0,
        "max_rating": 0,
        "min_rank": 0,
        "max_rank": 0,
        "regions": [],
        "units": [],
    }
    assert regulations_from_dict(data) == reg
    assert "eligibility" not in data["groups"][1]  # an open group writes no conditions
    data["groups"][0]["eligibility"]["born_to"] = "2006-12-31"
    with pytest.raises(UserError, match="起点晚于终点"):
        regulations_from_dict(data)


def test_registration_refuses_an_adult_in_the_juniors_with_the_rule_named(db: Database) -> None:
    with pytest.raises(UserError) as info:
        add_player(db, _entry(date(1990, 5, 5)), now=BEFORE)
    assert (
        "不符合少儿组的参赛资格：出生日期须在 2007-01-01 至 2010-12-31 之间（生于 1990-05-05）"
        in info.value.zh
    )
    assert "裁判长可注明理由后破例接受" in info.value.zh
    with db.session() as s:
        assert s.scalars(select(Player)).all() == []
    add_player(db, _entry(date(2009, 5, 5), serial=2), now=BEFORE)  # a junior is welcome


def test_the_arbiter_accepts_one_outside_with_a_reason_logged(db: Database) -> None:
    pid = add_player(db, _entry(date(2006, 12, 30)), now=BEFORE, override_reason="组委会批准：出生于年底")
    with db.session() as s:
        assert s.get(Player, pid).eligibility_override == "组委会批准：出生于年底"  # type: ignore[union-attr]
    entry = next(line for line in audit_log(db) if line.action == "eligibility_override")
    assert entry.reason == "组委会批准：出生于年底" and "2006-12-30" in entry.after
    # an edit keeps the acceptance (the player is not refused again for the same reason)
    [view] = list_players(db)
    edit_player(db, pid, dataclasses.replace(player_entry(view), notes="备注"), now=BEFORE)


def test_an_import_of_adults_into_the_juniors_is_refused_naming_the_rule(
    db: Database, tmp_path: Path
) -> None:
    rows = [good_row(i, group=JUNIORS, team="") for i in range(1, 11)]  # ten adults born in 1985
    path = workbook(tmp_path / "form.xlsx", rows)
    with pytest.raises(ImportRefused) as info:
        import_players(db, path, now=BEFORE)
    problems = [p.message_zh for row in info.value.preview.rows for p in row.problems]
    assert len(problems) == 10 and all("不符合少儿组的参赛资格" in p and "1985-06-01" in p for p in problems)
    with db.session() as s:
        assert s.scalars(select(Player)).all() == []


def test_a_snapshot_carries_the_override_and_an_unranked_player(db: Database, tmp_path: Path) -> None:
    from app.services.ranking_flags import set_unranked
    from app.services.registration import draw_numbers
    from app.services.snapshot import export_snapshot, import_snapshot

    pid = add_player(db, _entry(date(2006, 12, 30)), now=BEFORE, override_reason="组委会批准")
    add_player(db, _entry(date(2009, 5, 5), serial=2), now=BEFORE)
    draw_numbers(db, JUNIORS, seed=1)
    no = next(p.no for p in list_players(db, JUNIORS) if p.id == pid)
    assert no is not None
    set_unranked(db, JUNIORS, no, reason="特邀")
    data = export_snapshot(db)
    [mine] = [p for p in data["players"] if p["no"] == no and p["group"] == JUNIORS]
    assert (mine["ranked"], mine["eligibility_override"]) == (False, "组委会批准")
    other = next(p for p in data["players"] if p["group"] == JUNIORS and p["no"] != no)
    assert "ranked" not in other and "eligibility_override" not in other  # defaults are not written
    copy = import_snapshot(data, tmp_path / "copy.xqt")
    [back] = [p for p in list_players(copy, JUNIORS) if p.no == no]
    assert not back.ranked
    assert export_snapshot(copy)["players"] == data["players"]
    copy.close()


# --------------------------------------------------------------------------- rating-list rank (等级分排名)

TOP32 = Eligibility(max_rank=32)  # 限排名前32名
NOT_TOP100 = Eligibility(min_rank=101)  # 全国等级分排名前100名不得参加


@pytest.mark.parametrize(
    ("rules", "rank", "broken"),
    [
        (TOP32, 1, []),
        (TOP32, 32, []),
        (TOP32, 33, ["等级分排名须在前 32 名以内（排名第 33 名）"]),
        (TOP32, None, ["等级分排名须在前 32 名以内（无排名）"]),  # 仅限前N名: the unranked are not in it
        (NOT_TOP100, 1, ["等级分排名前 100 名不得参加（排名第 1 名）"]),
        (NOT_TOP100, 100, ["等级分排名前 100 名不得参加（排名第 100 名）"]),
        (NOT_TOP100, 101, []),
        (NOT_TOP100, None, []),  # "not the top 100": the unranked are not in the top 100
        (Eligibility(min_rank=33, max_rank=100), 32, ["等级分排名前 32 名不得参加（排名第 32 名）"]),
        (Eligibility(min_rank=33, max_rank=100), 33, []),
        (Eligibility(min_rank=33, max_rank=100), 100, []),
        (Eligibility(min_rank=33, max_rank=100), None, ["等级分排名须在前 100 名以内（无排名）"]),
    ],
)
def test_a_rating_list_rank_bounds_a_group(rules: Eligibility, rank: int | None, broken: list[str]) -> None:
    assert [zh for zh, _ in broken_rules(rules, rating_rank=rank)] == broken


def test_rank_conditions_are_described_and_checked_in_the_regulation() -> None:
    assert Eligibility(min_rank=33, max_rank=100).describe_zh(date(2024, 7, 26)) == (
        "限等级分排名前 100 名；等级分排名前 32 名不得参加"
    )
    base = preset("tianshui-2024")
    reg = dataclasses.replace(
        base, groups=(dataclasses.replace(base.groups[0], eligibility=TOP32), base.groups[1])
    )
    data = regulations_to_dict(reg)
    assert (data["groups"][0]["eligibility"]["min_rank"], data["groups"][0]["eligibility"]["max_rank"]) == (
        0,
        32,
    )
    assert regulations_from_dict(data) == reg
    data["groups"][0]["eligibility"]["min_rank"] = 40
    with pytest.raises(UserError, match="无人可参加"):
        regulations_from_dict(data)
    data["groups"][0]["eligibility"].update(min_rank=0, max_rank=-1)
    with pytest.raises(UserError, match="max_rank"):
        regulations_from_dict(data)


@pytest.fixture
def elite(tmp_path: Path) -> Database:
    """公开组 open; 精英组 only for the first 32 of the rating list."""
    base = preset("tianshui-2024")
    reg = dataclasses.replace(
        base,
        groups=(base.groups[0], GroupFormat("精英组", False, legacy_stages(7, 7, 0), TOP32)),
        prizes=tuple(t for t in base.prizes if t.group == base.groups[0].name),
    )
    return create_tournament(tmp_path / "elite.xqt", regulations=reg)


def test_registration_by_rank_refuses_the_unranked_and_accepts_an_override(elite: Database) -> None:
    entry = dataclasses.replace(_entry(date(1990, 1, 1)), group="精英组")
    with pytest.raises(UserError) as info:
        add_player(elite, entry, now=BEFORE)
    assert "不符合精英组的参赛资格：等级分排名须在前 32 名以内（无排名）" in info.value.zh
    with pytest.raises(UserError, match="排名第 40 名"):
        add_player(elite, dataclasses.replace(entry, rating_rank=40), now=BEFORE)
    with pytest.raises(UserError, match="等级分排名 0 不在"):
        add_player(elite, dataclasses.replace(entry, rating_rank=0), now=BEFORE)
    pid = add_player(elite, dataclasses.replace(entry, rating_rank=12), now=BEFORE)
    [view] = list_players(elite)
    assert (view.id, view.rating_rank) == (pid, 12)
    late = dataclasses.replace(_entry(date(1991, 1, 1), serial=2), group="精英组", rating_rank=45)
    add_player(elite, late, now=BEFORE, override_reason="上届冠军特邀")
    logged = next(line for line in audit_log(elite) if line.action == "eligibility_override")
    assert logged.reason == "上届冠军特邀" and "排名第 45 名" in logged.after


def test_an_import_reads_the_rank_column_and_names_a_bad_rank_cell(elite: Database, tmp_path: Path) -> None:
    header = ["序号", "姓名", "身份证号", "手机号", "组别", "代表队", "性别", "等级分", "缴费", "等级分排名"]
    rows = [
        [*good_row(1, group="精英组", team=""), 3],
        [*good_row(2, group="精英组", team=""), "第7名"],
        [*good_row(3, group="精英组", team=""), "前十"],
        [*good_row(4, group="精英组", team=""), 50],
        [*good_row(5, group="公开组", team=""), ""],
    ]
    path = workbook(tmp_path / "form.xlsx", rows, header=header)
    with pytest.raises(ImportRefused) as info:
        import_players(elite, path, now=BEFORE)
    problems = {
        row.row: [f"{p.column}|{p.header}|{p.message_zh}" for p in row.problems]
        for row in info.value.preview.rows
        if row.problems
    }
    assert sorted(problems) == [6, 7]  # data from row 4 (a title row, a blank row, the header)
    assert problems[6] == ["J|等级分排名|等级分排名“前十”不是名次（应填整数，如 12 或 第12名）"]
    assert "等级分排名须在前 32 名以内（排名第 50 名）" in problems[7][0]
    with elite.session() as s:
        assert s.scalars(select(Player)).all() == []
    fixed = workbook(tmp_path / "fixed.xlsx", [rows[0], rows[1], rows[4]], header=header)
    import_players(elite, fixed, now=BEFORE)
    assert sorted((p.group, p.rating_rank) for p in list_players(elite)) == [
        ("公开组", None),
        ("精英组", 3),
        ("精英组", 7),
    ]


def test_a_snapshot_carries_the_rank(elite: Database, tmp_path: Path) -> None:
    from app.services.snapshot import export_snapshot, import_snapshot

    add_player(
        elite, dataclasses.replace(_entry(date(1990, 1, 1)), group="精英组", rating_rank=9), now=BEFORE
    )
    data = export_snapshot(elite)
    assert [p["rating_rank"] for p in data["players"]] == [9]
    copy = import_snapshot(data, tmp_path / "copy.xqt")
    assert [p.rating_rank for p in list_players(copy)] == [9]
    assert export_snapshot(copy)["players"] == data["players"]
    copy.close()
