"""A round robin's documents as every output shows them: the square crosstable (循环赛成绩表) in place
of the Swiss one, and the order of play (对局秩序表) fixed before its first round."""

from __future__ import annotations

from app.db.session import Database
from app.engine.formats import StageKind
from app.reports import model
from app.services.exports.common import event_header, event_info
from app.services.exports.standings import crosstable, plays_round_robin
from app.services.rounds import group_state


def crosstable_of(
    db: Database, group: str, after_round: int | None = None
) -> model.Crosstable | model.RoundRobinTable:
    """个人成绩总表; for a group playing a round robin, its square table (循环赛成绩表)."""
    if plays_round_robin(db, group, after_round):
        from app.services.round_robin_docs import round_robin_table

        info = event_info(db)
        return round_robin_table(db, group, lambda n, label: event_header(info, group, n, label), after_round)
    return crosstable(db, group, after_round)


def has_order_of_play(db: Database, group: str) -> bool:
    """Whether the group has a round robin drawn (its 对局秩序表 exists)."""
    return any(b.kind is StageKind.ROUND_ROBIN for b in group_state(db, group).begun)


def order_of_play(db: Database, group: str) -> model.RoundRobinSchedule:
    """对局秩序表 of the group's round robin (refused, named, before it is drawn); of a team round robin,
    its matches."""
    from app.services.round_robin_docs import round_robin_schedule
    from app.services.team_events import is_team_group

    if is_team_group(db, group):
        from app.services.team_exports import team_order_of_play

        return team_order_of_play(db, group)

    info = event_info(db)
    return round_robin_schedule(db, group, lambda n, label: event_header(info, group, n, label))
