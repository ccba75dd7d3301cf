"""The format commands: demo and simulate of a whole format, a group's stages, drawing a round robin
before its first round, and players who play unranked (计成绩不计名次)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.engine.format_presets import FORMATS
from app.services.format_demo import GROUP
from app.services.round_robin_docs import round_robin_schedule
from app.services.standings import final_places
from app.services.tournaments import open_tournament


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_each_format_prints_what_an_arbiter_checks(capsys: pytest.CaptureFixture[str]) -> None:
    for fmt, players in (("round-robin", 5), ("double-elimination", 6), ("groups-then-knockout", 8)):
        code, out, err = run(capsys, "simulate", "--format", fmt, "--players", str(players), "--json")
        assert code == 0, err
        report = json.loads(out)
        assert report["format"] == fmt and report["players"] == players
        assert report["hard_rule_breaks"] == 0
        assert [r["place"] for r in report["final_ranking"]] == list(range(1, players + 1))
        assert {"byes", "colours", "stages"} <= set(report)
    assert set(FORMATS) == {
        "swiss",
        "swiss-knockout",
        "round-robin",
        "double-round-robin",
        "groups-then-knockout",
        "knockout",
        "double-elimination",
    }


def test_simulate_refuses_rounds_for_a_format_whose_rounds_follow_from_the_players(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "simulate", "--format", "round-robin", "--players", "6", "--rounds", "3")
    assert code == 2 and out == ""
    assert "--rounds" in err and "swiss" in err
    code, _, err = run(capsys, "simulate", "--format", "round-robin", "--players", "30")
    assert code == 2 and "24" in err  # a round robin takes at most 24


def test_demo_of_a_format_then_its_stages_and_the_round_robin_drawn_ahead(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "gk.xqt"
    code, out, err = run(capsys, "demo", str(path), "--format", "groups-then-knockout", "--players", "12")
    assert code == 0, err
    code, out, _ = run(capsys, "stages", str(path), "--json")
    assert code == 0
    stages = json.loads(out)
    assert [(s["kind"], s["first_round"], s["last_round"], s["begun"]) for s in stages] == [
        ("round_robin", 1, 5, False),  # two pools of six: five rounds
        ("knockout", 6, 7, False),  # the top two of each pool: semi-finals, then the final
    ]
    code, out, err = run(capsys, "print", str(path), "order-of-play", "-o", str(tmp_path / "o.pdf"))
    assert code == 2 and "抽签号" in err  # not drawn yet: named, nothing written
    assert not (tmp_path / "o.pdf").exists()
    code, out, err = run(capsys, "draw-round-robin", str(path), "--seed", "7")
    assert code == 0, err
    assert "种子 7" in out and "A组" in out and "B组" in out
    with open_tournament(path, read_only=True) as db:
        printed = round_robin_schedule(db, GROUP, lambda n, label: _header(label))
    for pool, line in zip(printed.pools, [x for x in out.splitlines() if "组：" in x], strict=True):
        assert [f"{n}：{who.split('号')[0]}号" for n, who in pool.numbers] == line.split("：", 1)[1].split(
            "，"
        )
    code, _, err = run(capsys, "print", str(path), "order-of-play", "-o", str(tmp_path / "o.pdf"))
    assert code == 0, err and (tmp_path / "o.pdf").stat().st_size > 0
    code, out, _ = run(capsys, "stages", str(path))
    assert "小组循环：第 1—5 轮，12 人，已开始" in out
    code, _, err = run(capsys, "draw-round-robin", str(path))
    assert code == 2 and err  # drawn once: not again


def _header(label: str) -> object:
    from app.reports.model import EventHeader

    return EventHeader("t", GROUP, round_label=label)


def test_unranked_player_plays_but_takes_no_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rr.xqt"
    assert run(capsys, "demo", str(path), "--format", "round-robin", "--players", "5")[0] == 0
    code, _, err = run(capsys, "unranked", str(path), "--player", "3")
    assert code == 2 and "--reason" in err  # the reason is required
    code, out, err = run(capsys, "unranked", str(path), "--player", "3", "--reason", "特邀棋手")
    assert code == 0, err and "计成绩不计名次" in out
    from app.services.simulation import play_group_to_end

    with open_tournament(path) as db:
        play_group_to_end(db, GROUP, seed=3)
        places = final_places(db, GROUP)
    assert 3 not in places and sorted(places.values()) == [1, 2, 3, 4]
    code, out, _ = run(capsys, "audit", str(path))
    assert "set_unranked" in out and "特邀棋手" in out  # logged with the reason


def test_import_names_the_group_condition_and_override_accepts_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import dataclasses
    from datetime import date

    from app.engine.eligibility import Eligibility
    from app.engine.formats import legacy_stages
    from app.engine.regulations import GroupFormat, preset
    from app.services.audit import audit_log
    from app.services.tournaments import create_tournament
    from tests.services.test_excel_import import good_row, workbook

    base = preset("tianshui-2024")
    juniors = GroupFormat("少儿组", False, legacy_stages(7, 7, 0), Eligibility(born_from=date(2007, 1, 1)))
    reg = dataclasses.replace(
        base,
        groups=(base.groups[0], juniors),
        prizes=tuple(t for t in base.prizes if t.group == base.groups[0].name),
    )
    path = tmp_path / "t.xqt"
    create_tournament(path, regulations=reg).close()
    form = workbook(tmp_path / "form.xlsx", [good_row(1, group="少儿组", team="")])  # born in 1985
    code, _, err = run(capsys, "import-players", str(path), str(form))
    assert code == 2 and "不符合少儿组的参赛资格" in err and "--override 理由" in err
    code, out, err = run(capsys, "import-players", str(path), str(form), "--override", "组委会特批")
    assert code == 0, err and "已导入 1 名棋手" in out
    with open_tournament(path, read_only=True) as db:
        logged = [a for a in audit_log(db) if a.action == "eligibility_override"]
    assert [a.reason for a in logged] == ["组委会特批"]


def test_demo_of_a_format_played_to_a_round_or_to_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.services.rounds import rounds_of
    from app.services.standings import is_final

    half = tmp_path / "rr.xqt"
    code, out, err = run(
        capsys, "demo", str(half), "--format", "round-robin", "--players", "6", "--played-to", "3"
    )
    assert code == 0, err
    assert "已赛完第 3 轮" in out
    with open_tournament(half) as db:
        assert [r.number for r in rounds_of(db, GROUP) if r.closed] == [1, 2, 3]
        assert not is_final(db, GROUP)
    whole = tmp_path / "de.xqt"
    code, out, err = run(
        capsys, "demo", str(whole), "--format", "double-elimination", "--players", "6", "--played-to", "end"
    )
    assert code == 0, err
    assert "全部赛完" in out
    with open_tournament(whole) as db:
        assert is_final(db, GROUP)
        assert sorted(final_places(db, GROUP).values())[:3] == [1, 2, 3]


def test_demo_of_a_format_refuses_absent_and_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ko.xqt"
    code, _, err = run(capsys, "demo", str(path), "--format", "knockout", "--absent", "2")
    assert code == 2 and "--absent" in err and "Traceback" not in err
    assert not path.exists()


def test_a_rating_list_rank_set_on_the_command_line_is_checked_against_the_group(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import dataclasses

    from app.engine.eligibility import Eligibility
    from app.engine.formats import legacy_stages
    from app.engine.regulations import GroupFormat, preset
    from app.services.audit import audit_log
    from app.services.tournaments import create_tournament
    from tests.services.test_excel_import import good_row, workbook

    base = preset("tianshui-2024")
    elite = GroupFormat("精英组", False, legacy_stages(7, 7, 0), Eligibility(max_rank=32))
    reg = dataclasses.replace(base, groups=(elite,), prizes=())
    path = tmp_path / "t.xqt"
    create_tournament(path, regulations=reg).close()
    header = ["姓名", "身份证号", "手机号", "组别", "代表队", "性别", "等级分", "缴费", "等级分排名"]
    form = workbook(tmp_path / "form.xlsx", [[*good_row(1, group="精英组", team="")[1:], 5]], header=header)
    code, out, err = run(capsys, "import-players", str(path), str(form), "--override-deadline", "报名表迟交")
    assert code == 0, err
    name = good_row(1)[1]
    code, out, err = run(capsys, "players", str(path))
    assert code == 0 and "排名第5名" in out
    code, _, err = run(capsys, "rating-rank", str(path), "--player", name, "--rank", "40")
    assert code == 2 and "等级分排名须在前 32 名以内（排名第 40 名）" in err
    code, out, err = run(capsys, "rating-rank", str(path), "--player", "无此人", "--rank", "3")
    assert code == 2 and "没有序号或姓名为“无此人”的棋手" in err
    code, out, err = run(
        capsys, "rating-rank", str(path), "--player", name, "--rank", "40", "--override", "排名表更新前报名"
    )
    assert code == 0, err
    assert "等级分排名第 40 名" in out
    code, out, _ = run(capsys, "players", str(path), "--json")
    assert [p["rating_rank"] for p in json.loads(out)] == [40]
    with open_tournament(path, read_only=True) as db:
        logged = [a.reason for a in audit_log(db) if a.action == "eligibility_override"]
    assert logged == ["排名表更新前报名"]
