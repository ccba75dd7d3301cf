"""A team competition from the command line: demo, team numbers, pairing, line-ups, results by board with
the match score read back, the round, standings, simulate — and bad input refused with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

from app.cli import main

G = "团体组"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_round_from_the_command_line(tmp_path: Path, capsys) -> None:
    f = str(tmp_path / "t.xqt")
    code, out, _ = run(capsys, "demo", f, "--format", "team-round-robin", "--team-count", "4")
    assert code == 0 and "4 个队" in out
    code, out, _ = run(capsys, "team-pair", f, "--group", G, "--json")
    data = json.loads(out)
    assert data["round"] == 1 and len(data["matches"]) == 2 and data["bye"] is None
    # the rulebook's table for 4: 1-4, 2-3 (team 1 at home)
    code, out, _ = run(capsys, "team-list", f, "--group", G, "--json")
    teams = {t["no"]: t for t in json.loads(out)}
    assert data["matches"][0] == {"home": teams[1]["name"], "away": teams[4]["name"]}
    # a line-up out of the registered order is refused, naming the boards
    code, _, err = run(
        capsys, "lineup", f, "--group", G, "--round", "1", "--team", "1", "102", "101", "103", "104"
    )
    assert code == 2 and "须按报名顺序排阵" in err
    code, out, _ = run(
        capsys, "lineup", f, "--group", G, "--round", "1", "--team", "1", "101", "102", "103", "105"
    )
    assert code == 0 and "4台 105" in out
    assert run(capsys, "team-seat", f, "--group", G, "--round", "1")[0] == 0
    code, out, _ = run(
        capsys, "team-results", f, "--group", G, "--round", "1", "--match", "1", "1-0", "=", "1-0", "="
    )
    # home Red on 1 (won) and 3 (won), boards 2 and 4 drawn: 6:2
    assert code == 0 and out.strip() == "第 1 场 局分 6:2，场分 2:0（主队胜）"
    code, out, _ = run(
        capsys, "team-result", f, "--group", G, "--round", "1", "--match", "2", "--board", "1", "0-1"
    )
    assert out.strip() == "第 2 场 局分 0:2（比赛进行中）"
    code, out, _ = run(capsys, "team-round", f, "--group", G, "--round", "1", "--json")
    view = json.loads(out)
    first = view["matches"][0]
    assert [b["home"] for b in first["boards"]] == [101, 102, 103, 105]
    assert [b["home_red"] for b in first["boards"]] == [True, False, True, False]
    assert first["score"]["match_points"] == [2, 0]
    code, _, err = run(capsys, "team-close", f, "--group", G, "--round", "1")
    assert code == 2 and "未结束" in err
    run(capsys, "team-results", f, "--group", G, "--round", "1", "--match", "2", "0-1", "=", "=", "=")
    assert run(capsys, "team-close", f, "--group", G, "--round", "1")[0] == 0
    code, out, _ = run(capsys, "team-standings", f, "--group", G, "--json")
    table = json.loads(out)
    assert [r["match_points"] for r in table["standings"]][:2] == [2, 2]
    assert table["hard_rule_breaks"] == []


def test_bad_input_is_refused_without_a_traceback(tmp_path: Path, capsys) -> None:
    f = str(tmp_path / "t.xqt")
    run(capsys, "demo", f, "--format", "team-swiss", "--team-count", "4")
    individual = str(tmp_path / "i.xqt")
    run(capsys, "demo", individual, "--players", "20")
    for argv, words in (
        (("team-pair", individual, "--group", "公开组"), "不是团体赛"),
        (("pair", f, "--group", G), "团体赛：请用团体编排"),
        (("team-pair", f, "--group", "公开组"), "没有名为“公开组”的组别"),
        (("team-result", f, "--group", G, "--round", "1", "--match", "1", "--board", "1", "1-0"), "尚未编排"),
        (("team-details", f, "--group", G, "--team", "无此队", "--captain", "张三"), "没有代表队"),
        (("simulate", "--format", "team-round-robin", "--rounds", "3"), "只有 team-swiss 可以"),
        (
            ("demo", str(tmp_path / "x.xqt"), "--format", "team-all-play-all", "--team-count", "3"),
            "队数应在 2–2",
        ),
    ):
        code, _, err = run(capsys, *argv)
        assert code == 2 and words in err, (argv, err)
    assert not (tmp_path / "x.xqt").exists()


def test_simulate_a_team_format_prints_no_hard_rule_break(capsys) -> None:
    code, out, _ = run(
        capsys, "simulate", "--format", "team-swiss", "--team-count", "5", "--rounds", "3", "--json"
    )
    report = json.loads(out)
    assert code == 0 and report["hard_rule_breaks"] == 0 and report["byes"] == 3
    assert len(report["final_ranking"]) == 5


def test_a_late_line_up_is_refused_unless_overridden(tmp_path: Path, capsys) -> None:
    import dataclasses
    from datetime import datetime, timedelta

    from app.engine.regulations import RoundTime
    from app.services import audit
    from app.services.tournaments import load_regulations, open_tournament, update_regulations

    f = str(tmp_path / "t.xqt")
    run(capsys, "demo", f, "--format", "team-round-robin", "--team-count", "4")
    run(capsys, "team-pair", f, "--group", G)
    db = open_tournament(f)
    try:
        reg = load_regulations(db)
        g = reg.groups[0]
        assert g.team_event is not None
        event = dataclasses.replace(
            g.team_event, match=dataclasses.replace(g.team_event.match, lineup_deadline=30)
        )
        soon = (datetime.now() + timedelta(hours=3)).replace(second=0, microsecond=0)
        passed = (datetime.now() - timedelta(hours=1)).replace(second=0, microsecond=0)
        # round 1 started an hour ago (its line-ups were due 90 minutes ago); round 2 starts in 3 hours
        schedule = (RoundTime(1, passed), RoundTime(2, soon))
        update_regulations(
            db,
            dataclasses.replace(reg, groups=(dataclasses.replace(g, team_event=event),), schedule=schedule),
        )
    finally:
        db.close()
    code, out, _ = run(capsys, "team-round", f, "--group", G, "--round", "1")
    assert "排阵截止" in out and ("已过 1 小时 30 分钟" in out or "已过 1 小时 31 分钟" in out)
    code, out, err = run(
        capsys, "lineup", f, "--group", G, "--round", "1", "--team", "1", "101", "102", "103", "104"
    )
    assert code == 2 and out == ""
    assert "赛前 30 分钟提交出场名单" in err and "30 min before the start" in err
    code, out, err = run(
        capsys,
        "lineup",
        f,
        "--group",
        G,
        "--round",
        "1",
        "--team",
        "1",
        "--override",
        "赛区通知延误",
        "101",
        "102",
        "103",
        "104",
    )
    assert code == 0 and "放行" in out and "1台 101" in out
    db = open_tournament(f, read_only=True)
    try:
        line = audit.audit_log(db, action="hand_in_lineup")[-1]
    finally:
        db.close()
    assert line.reason == "赛区通知延误" and '"override"' in line.after
    code, out, _ = run(capsys, "team-round", f, "--group", G, "--round", "1", "--json")
    assert json.loads(out)["lineup_deadline"] == (passed - timedelta(minutes=30)).isoformat(" ")


def test_a_team_demo_is_played_to_a_round_or_to_the_end(tmp_path: Path, capsys) -> None:
    """``--played-to`` plays a team format too (it was ignored: the event was left unpaired)."""
    half = str(tmp_path / "swiss.xqt")
    code, out, err = run(
        capsys, "demo", half, "--format", "team-swiss", "--team-count", "6", "--played-to", "2"
    )
    assert code == 0, err
    assert "已赛完第 2 轮" in out
    code, out, _ = run(capsys, "team-standings", half, "--group", G, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rounds"][0] == 2 and not data["final"]
    # six teams, two rounds of three matches: each match gives 2 场分 in all (win 2 + 0, draw 1 + 1)
    assert sum(row["match_points"] for row in data["standings"]) == 2 * 3 * 2
    whole = str(tmp_path / "rr.xqt")
    code, out, err = run(
        capsys, "demo", whole, "--format", "team-round-robin", "--team-count", "4", "--played-to", "end"
    )
    assert code == 0, err
    assert "全部赛完" in out
    code, out, _ = run(capsys, "team-standings", whole, "--group", G, "--json")
    data = json.loads(out)
    assert data["rounds"] == [3, 3] and data["final"]
    code, _, err = run(capsys, "demo", str(tmp_path / "x.xqt"), "--format", "team-swiss", "--played-to", "99")
    assert code == 2 and "--played-to" in err and "Traceback" not in err
    assert not (tmp_path / "x.xqt").exists()
