"""The team formats of real regulations, ready-made: what ``xqarbiter demo --format team-…`` and
``simulate --format team-…`` build, and what the settings offer as a starting point.

>>> team_format_event("team-double-round-robin").cycles
2
"""

from __future__ import annotations

from app.engine.formats import ColourRule, GameKind, LadderStep, MatchFormat, PlacementRule, TimeControl
from app.engine.team_rules import (
    TeamEvent,
    TeamMatchRules,
    TeamSeeding,
    TeamSystem,
    TieRule,
)
from app.engine.types import UserError

#: name → (Chinese, English, teams by default)
TEAM_FORMATS: dict[str, tuple[str, str, int]] = {
    "team-swiss": ("团体积分编排（每场 4 台）", "team Swiss (4 boards)", 12),
    "team-round-robin": ("团体单循环（每场 4 台）", "team round robin (4 boards)", 6),
    "team-double-round-robin": (
        "团体双循环·联赛（主客场，每场 6 台）",
        "team league, home and away (6 boards)",
        6,
    ),
    "team-knockout": ("团体淘汰赛（平局第一台加赛）", "team knockout (ties decided on board 1)", 8),
    "team-all-play-all": ("全队轮赛制（两队各 5 人）", "all-play-all between two sides (5 a side)", 2),
}

_FINAL_TIE = MatchFormat(
    steps=(
        LadderStep(GameKind.RAPID, 1, TimeControl(10, 5), ColourRule.LOT),
        LadderStep(GameKind.BLITZ, 2, TimeControl(5, 3), ColourRule.SWAP),
        LadderStep(GameKind.DECIDING, 1, TimeControl(6, 5, black_minutes=4), ColourRule.HIGHER_SEED_CHOOSES),
    )
)


def team_format_event(name: str, rounds: int | None = None) -> TeamEvent:
    """The team event of a named format."""
    if name not in TEAM_FORMATS:
        raise UserError(
            f"没有名为“{name}”的团体赛制（可用：{'、'.join(TEAM_FORMATS)}）",
            f"no team format named {name!r} (available: {', '.join(TEAM_FORMATS)})",
        )
    if name == "team-swiss":
        return TeamEvent(TeamSystem.SWISS, rounds=rounds or 7, roster_min=4, roster_max=6)
    if name == "team-round-robin":
        return TeamEvent(TeamSystem.ROUND_ROBIN, roster_min=4, roster_max=6)
    if name == "team-double-round-robin":
        return TeamEvent(
            TeamSystem.ROUND_ROBIN,
            cycles=2,
            match=TeamMatchRules(boards=6),
            roster_min=6,
            roster_max=8,
            seeding=TeamSeeding.LAST_SEASON,
        )
    if name == "team-knockout":
        return TeamEvent(
            TeamSystem.KNOCKOUT,
            match=TeamMatchRules(tie=TieRule.BOARD_LADDER, tie_ladder=_FINAL_TIE),
            seeding=TeamSeeding.LAST_SEASON,
            placement=PlacementRule.STANDING,
        )
    return TeamEvent(TeamSystem.ALL_PLAY_ALL, match=TeamMatchRules(boards=5), roster_min=5, roster_max=6)
