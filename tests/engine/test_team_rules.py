"""A team event in the regulation file: read, written, and every wrong key or value named on load."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from app.engine.regulations import (
    GroupFormat,
    preset,
    regulations_from_dict,
    regulations_from_toml,
    regulations_to_dict,
    regulations_to_toml,
)
from app.engine.team_rules import TeamEvent, TeamMatchRules, TeamSystem, TieRule
from app.engine.types import UserError


def regulation(event: TeamEvent) -> Any:
    return dataclasses.replace(
        preset("tianshui-2024"), groups=(GroupFormat("团体组", True, team_event=event),), prizes=()
    )


def test_round_trip_through_toml() -> None:
    reg = regulation(
        TeamEvent(TeamSystem.ROUND_ROBIN, cycles=2, match=TeamMatchRules(boards=6, tie=TieRule.EVERY_BOARD))
    )
    assert regulations_from_toml(regulations_to_toml(reg)) == reg
    assert reg.groups[0].describe_zh().startswith("团体双循环，每场 6 台")


def broken(path: tuple[str, ...], value: object) -> dict[str, Any]:
    data = regulations_to_dict(regulation(TeamEvent()))
    node = data["groups"][0]["team_event"]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("match", "boardz"), 4, "team_event.match.boardz 是未知的设置项"),
        (("match", "boards"), 7, "每场台数 boards 应在 2–6 之间"),
        (("match", "boards"), "4", "team_event.match.boards 应为整数"),
        (("system",), "league", "team_event.system 的值“league”无效"),
        (("match", "tie_board"), 5, "加赛台次 tie_board 应在 1–4 之间"),
        (("roster_max",), 3, "roster_min–roster_max 应在 2–10 之间且不倒置"),
        (("chain",), ["playoff", "game_points"], "“加赛”只能放在团体名次区分办法的最后"),
        (("chain",), ["game_points", "game_points"], "不能为空或重复"),
        (("match", "player_colour_limit"), 1, "player_colour_limit"),
        (("match", "tie_ladder", "steps"), [], "tie_ladder 须有 1–12 个阶段"),
    ],
)
def test_wrong_settings_are_named(path: tuple[str, ...], value: object, message: str) -> None:
    with pytest.raises(UserError, match=message):
        regulations_from_dict(broken(path, value))


def test_team_knockout_must_decide_every_match() -> None:
    with pytest.raises(UserError, match="团体淘汰赛每场须决出胜负"):
        regulations_from_dict(broken(("system",), "knockout"))
    data = broken(("system",), "knockout")
    data["groups"][0]["team_event"]["match"]["tie"] = "board_ladder"
    assert regulations_from_dict(data).groups[0].team_event.system is TeamSystem.KNOCKOUT  # type: ignore[union-attr]


def test_team_event_needs_teams() -> None:
    data = regulations_to_dict(regulation(TeamEvent()))
    data["groups"][0]["teams"] = False
    with pytest.raises(UserError, match="团体赛的组别须允许组队"):
        regulations_from_dict(data)


def test_roster_must_fill_the_boards() -> None:
    data = broken(("roster_max",), 3)
    data["groups"][0]["team_event"]["roster_min"] = 2
    with pytest.raises(UserError, match="每队最多报名 3 人，少于每场台数 4"):
        regulations_from_dict(data)
