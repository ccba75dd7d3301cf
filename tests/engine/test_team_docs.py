"""The regulation examples of docs/teams.md are real regulation files."""

from __future__ import annotations

import re
from pathlib import Path

from app.engine.regulations import TeamMethod, TeamTie, regulations_from_toml
from app.engine.team_rules import TeamSystem

DOC = Path(__file__).resolve().parents[2] / "docs" / "teams.md"
HEAD = 'event_name = "示例赛"\nstart_date = "2025-05-01"\nend_date = "2025-05-03"\n'


def blocks() -> list[str]:
    return re.findall(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_team_event_example_loads() -> None:
    reg = regulations_from_toml(HEAD + blocks()[0])
    event = reg.groups[0].team_event
    assert event is not None and event.system is TeamSystem.ROUND_ROBIN and event.cycles == 2
    assert event.match.boards == 6 and event.match.match_points.forfeit_loss == -1


def test_the_team_ranking_example_loads() -> None:
    reg = regulations_from_toml(HEAD + blocks()[1] + '\n[[groups]]\nname = "公开组"\n')
    assert reg.team.method is TeamMethod.POINTS and reg.team.counted_members == 3
    assert reg.team.ties == (TeamTie.MEMBER_POINTS, TeamTie.BEST_PLACE)
