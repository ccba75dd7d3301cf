"""A team ranking by points (积分总和) in an individual event, through the services and the documents."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from app.db.session import Database
from app.engine.regulations import TeamMethod, TeamRules, TeamTie, preset, regulations_to_dict
from app.services import exports
from app.services.snapshot import import_snapshot
from app.services.standings import team_standings
from tests.factories import player, snapshot, swiss_round


def make(tmp_path: Path, rules: TeamRules, name: str) -> Database:
    # 甲: 1, 6; 乙: 4, 5; 丙: 2, 3. Round 1: 1 beat 2, 3 beat 4, 5 beat 6; round 2: 1 drew 5, 2 drew 3,
    # 4 beat 6. Points: 1 = 3, 3 = 3, 5 = 3, 4 = 2, 2 = 1, 6 = 0.
    teams = {1: "甲", 6: "甲", 4: "乙", 5: "乙", 2: "丙", 3: "丙"}
    players = [player(no, f"棋手{no}", team=team) for no, team in sorted(teams.items())]
    rounds = [
        swiss_round(1, [(1, 2, "red_win"), (3, 4, "red_win"), (5, 6, "red_win")]),
        swiss_round(2, [(1, 5, "draw"), (2, 3, "draw"), (4, 6, "red_win")]),
    ]
    data = snapshot(players, rounds)
    data["tournament"]["settings"] = regulations_to_dict(
        dataclasses.replace(preset("tianshui-2024"), team=rules)
    )
    return import_snapshot(data, tmp_path / name)


def test_points_and_places_rank_the_teams_their_own_way(tmp_path: Path) -> None:
    by_points = TeamRules(2, 2, TeamMethod.POINTS, (TeamTie.MEMBER_POINTS, TeamTie.BEST_PLACE))
    view = team_standings(make(tmp_path, by_points, "points.xqt"), "公开组")
    # 乙 = 2 + 3 = 5, 丙 = 1 + 3 = 4, 甲 = 3 + 0 = 3
    assert view.by_points
    assert [(r.team, r.total, r.member_points) for r in view.ranking.rows] == [
        ("乙", 5, (3, 2)),
        ("丙", 4, (3, 1)),
        ("甲", 3, (3, 0)),
    ]
    by_places = team_standings(make(tmp_path, TeamRules(2, 2), "places.xqt"), "公开组")
    assert not by_places.by_points
    assert by_places.ranking.order != view.ranking.order  # 甲 has player 1, first of the event
    doc = exports.team_standings_model(make(tmp_path, by_points, "doc.xqt"), "公开组")
    assert doc.by_points and doc.total_label == "积分和"
    assert (
        doc.rule
        == "团体成绩按 2 名队员个人积分之和，多者列前；相同则比较队员积分依次比较，再比较最高个人名次。"
    )
    assert doc.members_text(doc.rows[0]).endswith("分）")
