"""Team ranking (docs/rules.md §9), worked by hand."""

from __future__ import annotations

import pytest

import app.engine.teams as teams_module
from app.engine.regulations import TeamRules
from app.engine.teams import rank_teams
from app.engine.types import UserError
from tests.doctests import run_doctests

# Final individual places of 16 ranked players (no → place); player 99 was disqualified (no place).
#   甲: 1, 8, 9, 14, 16 (5 members: the best 4 count) → 1+8+9+14 = 32, best 1
#   乙: 2, 5, 12, 13                                  → 2+5+12+13 = 32, best 2
#   丙: 3, 4, 6, 7                                    → 20, best 3
#   丁: 10, 11, 15 and 99 (disqualified)              → 3 ranked members: unranked
#   戊: only 3 registered members, 18, 19, 20           → unranked;  17 has no team
# Order: 丙 (20), 甲 (32, best 1) above 乙 (32, best 2).
PLACES = {no: no for no in range(1, 21)}
TEAM_OF: dict[int, str | None] = {
    1: "甲", 8: "甲", 9: "甲", 14: "甲", 16: "甲",
    2: "乙", 5: "乙", 12: "乙", 13: "乙",
    3: "丙", 4: "丙", 6: "丙", 7: "丙",
    10: "丁", 11: "丁", 15: "丁", 99: "丁",
    18: "戊", 19: "戊", 20: "戊",
    17: None,
}  # fmt: skip


def test_team_ranking_tie_broken_by_best_place() -> None:
    ranking = rank_teams(PLACES, TEAM_OF, TeamRules(counted_members=4, min_members=4))
    assert ranking.order == ("丙", "甲", "乙")
    assert [(t.rank, t.total, t.best_place, t.separated_by) for t in ranking.rows] == [
        (1, 20, 3, "total"),
        (2, 32, 1, "best_place"),
        (3, 32, 2, None),
    ]
    assert ranking.rows[1].members == ((1, 1), (8, 8), (9, 9), (14, 14))  # 16 not counted


def test_teams_with_three_ranked_members_are_unranked() -> None:
    ranking = rank_teams(PLACES, TEAM_OF, TeamRules())
    assert [(u.team, u.ranked_members) for u in ranking.unranked] == [("丁", 3), ("戊", 3)]
    assert ranking.unranked[0].reason_zh == "有名次的队员只有 3 名，不足 4 名，不计算团体成绩"


def test_all_members_counted_when_setting_says_five() -> None:
    # counted 5, min 4: 甲 = 1+8+9+14+16 = 48; 乙 and 丙 have only 4 members: 32 and 20.
    ranking = rank_teams(PLACES, TEAM_OF, TeamRules(counted_members=5, min_members=4))
    assert [(t.team, t.total) for t in ranking.rows] == [("丙", 20), ("乙", 32), ("甲", 48)]


def test_team_listed_without_players() -> None:
    ranking = rank_teams({1: 1}, {1: "甲"}, TeamRules(1, 1), teams=["空队"])
    assert ranking.order == ("甲",)
    assert [(u.team, u.ranked_members) for u in ranking.unranked] == [("空队", 0)]


def test_repeated_places_refused() -> None:
    with pytest.raises(UserError):
        rank_teams({1: 1, 2: 1}, {1: "甲", 2: "甲"}, TeamRules(1, 1))


def test_doctests() -> None:
    assert run_doctests(teams_module).failed == 0


# --------------------------------------------------------------------------- ranking by points (积分总和)
#
# One individual event of 32 ranked players in 8 teams of 4 (player no = final place), with the points
# each place scored. Two regulations rank its teams by points:
#   A: "团体成绩按各队成绩最好的三名队员个人积分之和计算，积分多者列前；积分相等，依次比较队员个人最高
#       积分、次高积分……；仍相等，比较最高个人名次。"
#   B: "团体成绩以四名队员个人积分之和计算，多者列前；如相等，则比较四名队员的名次之和，少者列前；再
#       相等，比较最高个人名次。"
POINTS_BY_PLACE = (16, 15, 15, 14, 14, 13, 13, 13, 12, 12, 12, 11, 11, 11, 10, 10)
POINTS_BY_PLACE += (10, 10, 9, 9, 9, 8, 8, 8, 7, 7, 6, 6, 5, 5, 4, 3)
POINTS = {place: pts for place, pts in enumerate(POINTS_BY_PLACE, start=1)}
EIGHT_TEAMS = {
    "甲": (1, 20, 21, 30),  # points 16 9 9 5 = 39; places 72
    "乙": (2, 9, 26, 31),  # 15 12 7 4 = 38; places 68
    "丙": (3, 4, 27, 32),  # 15 14 6 3 = 38; places 66
    "丁": (5, 6, 22, 29),  # 14 13 8 5 = 40; places 62
    "戊": (7, 8, 12, 28),  # 13 13 11 6 = 43; places 55
    "己": (10, 11, 13, 25),  # 12 12 11 7 = 42; places 59
    "庚": (14, 15, 16, 24),  # 11 10 10 8 = 39; places 69
    "辛": (17, 18, 19, 23),  # 10 10 9 8 = 37; places 77
}
MEMBERS = {no: team for team, nos in EIGHT_TEAMS.items() for no in nos}
PLACES32 = {no: no for no in range(1, 33)}


def test_regulation_b_points_of_four_then_sum_of_places() -> None:
    from app.engine.regulations import TeamMethod, TeamTie

    rules = TeamRules(4, 4, TeamMethod.POINTS, (TeamTie.PLACES_SUM, TeamTie.BEST_PLACE))
    ranking = rank_teams(PLACES32, MEMBERS, rules, points=POINTS)
    # 43, 42, 40; 庚 and 甲 on 39 (places 69 < 72); 丙 and 乙 on 38 (places 66 < 68); 37
    assert ranking.order == ("戊", "己", "丁", "庚", "甲", "丙", "乙", "辛")
    assert [r.total for r in ranking.rows] == [43, 42, 40, 39, 39, 38, 38, 37]
    assert [r.separated_by for r in ranking.rows] == [
        "total", "total", "total", "places_sum", "total", "places_sum", "total", None,
    ]  # fmt: skip
    assert ranking.rows[3].separated_by_zh == "名次之和"
    assert ranking.rows[0].member_points == (13, 13, 11, 6)
    # today's sum of places ranks the same event otherwise: 4 of the 8 places change
    by_places = rank_teams(PLACES32, MEMBERS, TeamRules(4, 4))
    assert by_places.order == ("戊", "己", "丁", "丙", "乙", "庚", "甲", "辛")
    assert sum(a != b for a, b in zip(by_places.order, ranking.order, strict=True)) == 4


def test_regulation_a_best_three_then_members_points() -> None:
    from app.engine.regulations import TeamMethod, TeamTie

    rules = TeamRules(3, 3, TeamMethod.POINTS, (TeamTie.MEMBER_POINTS, TeamTie.BEST_PLACE))
    ranking = rank_teams(PLACES32, MEMBERS, rules, points=POINTS)
    # best three: 戊 13+13+11 = 37; 丙 15+14+6, 丁 14+13+8, 己 12+12+11 all 35 → by the best player's
    # points 15 > 14 > 12; 甲 16+9+9 and 乙 15+12+7 on 34 → 16 > 15; 庚 11+10+10 = 31; 辛 10+10+9 = 29
    assert ranking.order == ("戊", "丙", "丁", "己", "甲", "乙", "庚", "辛")
    assert [r.total for r in ranking.rows] == [37, 35, 35, 35, 34, 34, 31, 29]
    assert [r.separated_by for r in ranking.rows] == [
        "total", "member_points", "member_points", "total", "member_points", "total", "total", None,
    ]  # fmt: skip
    assert ranking.rows[1].members == ((3, 3), (4, 4), (27, 27))  # 32 (3 points) is not counted
    assert ranking.rows[1].separated_by_zh == "队员积分依次比较"


def test_points_method_needs_points_and_keeps_min_members() -> None:
    from app.engine.regulations import TeamMethod

    rules = TeamRules(4, 4, TeamMethod.POINTS)
    with pytest.raises(UserError, match="需要个人积分"):
        rank_teams(PLACES32, MEMBERS, rules)
    short = dict(MEMBERS) | {30: None}  # 甲 keeps only three members
    ranking = rank_teams(PLACES32, short, rules, points=POINTS)
    assert [u.team for u in ranking.unranked] == ["甲"]


def test_team_method_in_the_regulation_file() -> None:
    import dataclasses

    from app.engine.regulations import (
        TeamMethod,
        TeamTie,
        preset,
        regulations_from_dict,
        regulations_to_dict,
    )

    reg = dataclasses.replace(
        preset("tianshui-2024"), team=TeamRules(3, 3, TeamMethod.POINTS, (TeamTie.MEMBER_POINTS,))
    )
    data = regulations_to_dict(reg)
    assert data["team"] == {
        "counted_members": 3,
        "min_members": 3,
        "method": "points",
        "ties": ["member_points"],
    }
    assert regulations_from_dict(data) == reg
    data["team"]["ties"] = ["best_points"]
    with pytest.raises(UserError, match=r"team\.ties\[0\] 的值“best_points”无效"):
        regulations_from_dict(data)
