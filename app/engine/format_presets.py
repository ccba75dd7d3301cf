"""The formats of real regulations, ready-made: what ``xqarbiter demo --format`` and ``simulate --format``
build, and what the settings offer as a starting point.

>>> [s.kind.value for s in format_stages("groups-then-knockout", 24)]
['round_robin', 'knockout']
>>> format_stages("groups-then-knockout", 24)[0].pools
4
"""

from __future__ import annotations

import math

from app.engine.formats import (
    MAX_ROUND_ROBIN,
    ColourRule,
    DecidingDraw,
    Elimination,
    Entrants,
    GameKind,
    LadderStep,
    MatchFormat,
    MatchScope,
    PlacementRule,
    PoolDraw,
    Seeding,
    Stage,
    StageKind,
    TimeControl,
    legacy_stages,
)
from app.engine.types import UserError

FORMATS: dict[str, tuple[str, str]] = {
    "swiss": ("积分编排（瑞士制）", "Swiss"),
    "swiss-knockout": ("积分编排后前 8 名淘汰赛（其余继续积分编排）", "Swiss, then a top-8 knockout"),
    "round-robin": ("单循环", "single round robin"),
    "double-round-robin": ("双循环", "double round robin"),
    "groups-then-knockout": (
        "分组循环后各组前 2 名淘汰赛",
        "round-robin pools, then a knockout of the top 2",
    ),
    "knockout": ("单败淘汰", "single elimination"),
    "double-elimination": ("双败淘汰", "double elimination"),
}

#: players a demo of each format has unless told otherwise
DEFAULT_PLAYERS = {
    "swiss": 40,
    "swiss-knockout": 40,
    "round-robin": 10,
    "double-round-robin": 8,
    "groups-then-knockout": 24,
    "knockout": 20,
    "double-elimination": 12,
}

#: a Swiss's rounds unless told otherwise (the only format whose length is not fixed by its players)
DEFAULT_SWISS_ROUNDS = 7

FINAL_LADDER = MatchFormat(
    MatchScope.FINAL,
    (
        LadderStep(GameKind.SLOW, 2, TimeControl(60, 30), ColourRule.LOT),  # 分先两局
        LadderStep(GameKind.RAPID, 2, TimeControl(15, 10)),  # 换先快棋两局
        LadderStep(GameKind.BLITZ, 2, TimeControl(5, 3)),  # 超快棋两局
        LadderStep(GameKind.DECIDING, 1, TimeControl(6, 5, black_minutes=4), ColourRule.HIGHER_SEED_CHOOSES),
    ),
    DecidingDraw.REPEAT,  # a final is decided on the board
)
WINNERS_LADDER = MatchFormat(
    MatchScope.WINNERS,
    (
        LadderStep(GameKind.SLOW, 2, TimeControl(30, 10), ColourRule.LOT),
        LadderStep(GameKind.DECIDING, 1, TimeControl(5, 3), ColourRule.HIGHER_SEED_CHOOSES),
    ),
)
LOSERS_LADDER = MatchFormat(
    MatchScope.LOSERS,
    (
        LadderStep(GameKind.RAPID, 1, TimeControl(15, 10), ColourRule.LOT_LOSER_CHOOSES),
        LadderStep(GameKind.DECIDING, 1, TimeControl(3, 0), ColourRule.HIGHER_SEED_CHOOSES),
    ),
)
GRAND_FINAL_LADDER = MatchFormat(
    MatchScope.GRAND_FINAL,
    (
        LadderStep(GameKind.SLOW, 2, TimeControl(30, 10), ColourRule.LOT),
        LadderStep(GameKind.DECIDING, 1, TimeControl(6, 5, black_minutes=4), ColourRule.HIGHER_SEED_CHOOSES),
    ),
    DecidingDraw.REPEAT,
)


def format_stages(name: str, players: int, rounds: int | None = None) -> tuple[Stage, ...]:
    """The stages of a named format for ``players`` players (``rounds``: a Swiss's rounds)."""
    if name not in FORMATS:
        raise UserError(
            f"没有名为“{name}”的赛制（可用：{'、'.join(FORMATS)}）",
            f"no format named {name!r} (available: {', '.join(FORMATS)})",
        )
    if name == "swiss":
        return (Stage(StageKind.SWISS, rounds=rounds or DEFAULT_SWISS_ROUNDS),)
    if name == "swiss-knockout":
        return legacy_stages(11, 8, 8)
    if name in ("round-robin", "double-round-robin"):
        if players > MAX_ROUND_ROBIN:
            raise UserError(
                f"循环赛每组最多 {MAX_ROUND_ROBIN} 人（现为 {players}）",
                f"a round robin takes at most {MAX_ROUND_ROBIN} players, not {players}",
            )
        return (Stage(StageKind.ROUND_ROBIN, cycles=2 if name.startswith("double") else 1),)
    if name == "groups-then-knockout":
        pools = max(2, math.ceil(players / 6))
        return (
            Stage(
                StageKind.ROUND_ROBIN,
                name="小组循环",
                pools=pools,
                pool_draw=PoolDraw.SNAKE,
                seeding=Seeding.RATING,
            ),
            Stage(
                StageKind.KNOCKOUT,
                name="淘汰赛",
                entrants=Entrants.POOL_TOP,
                count=2,
                places=PlacementRule.STANDING,
                matches=(FINAL_LADDER,),
            ),
        )
    if name == "knockout":
        return (
            Stage(
                StageKind.KNOCKOUT,
                seeding=Seeding.RATING,
                places=PlacementRule.STANDING,
                qualifier=True,
                matches=(FINAL_LADDER,),
            ),
        )
    return (
        Stage(
            StageKind.KNOCKOUT,
            seeding=Seeding.RATING,
            elimination=Elimination.DOUBLE,
            matches=(WINNERS_LADDER, LOSERS_LADDER, GRAND_FINAL_LADDER),
        ),
    )
