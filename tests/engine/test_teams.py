"""Team ranking (docs/rules.md §9), worked by hand."""

from __future__ import annotations

import doctest

import pytest

import app.engine.teams as teams_module
from app.engine.regulations import TeamRules
from app.engine.teams import rank_teams
from app.engine.types import UserError

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
    assert doctest.testmod(teams_module).failed == 0
