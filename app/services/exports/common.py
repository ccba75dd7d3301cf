"""What every document shares: the page header, the group asked for, the latest paired round."""

from __future__ import annotations

from datetime import date

from app.db.session import Database, kept
from app.engine.privacy import mask_personal
from app.engine.types import (
    UserError,
)
from app.reports import model
from app.services.rounds import rounds_of
from app.services.tournaments import TournamentInfo, group_row, tournament_info


def event_dates(start: date, end: date) -> str:
    """``2024年7月26日—28日`` (the month and year are not repeated)."""
    first = f"{start.year}年{start.month}月{start.day}日"
    if start == end:
        return first
    if (start.year, start.month) == (end.year, end.month):
        return f"{first}—{end.day}日"
    if start.year == end.year:
        return f"{first}—{end.month}月{end.day}日"
    return f"{first}—{end.year}年{end.month}月{end.day}日"


def event_header(
    info: TournamentInfo, group: str = "", number: int | None = None, round_label: str = ""
) -> model.EventHeader:
    reg = info.regulations
    return model.EventHeader(  # a number that reached a stored name is masked (docs/rules.md §11)
        event_name=mask_personal(info.name),
        group=mask_personal(group),
        round=number,
        venue=mask_personal(reg.venue),
        dates=event_dates(reg.start_date, reg.end_date),
        time_control=reg.swiss_time_control.label,
        round_label=round_label,
    )


_INFO = "exports.tournament_info"


def event_info(db: Database) -> TournamentInfo:
    """The event's name, regulation and groups (:func:`tournament_info`), read once inside
    :meth:`Database.one_reading` — every sheet of a workbook, every round of a results book asks —
    and afresh outside it. Nothing can be written inside the block, so the value cannot go stale."""
    with db.session() as s:
        memo = kept(s)
    if memo is None:
        return tournament_info(db)
    found = memo.get(_INFO)
    if found is None:
        found = memo[_INFO] = tournament_info(db)
    assert isinstance(found, TournamentInfo)
    return found


def group_names(db: Database) -> list[str]:
    return [g.name for g in event_info(db).groups]


def resolve_group(db: Database, group: str | None) -> str:
    """The group asked for, or the only group; with several groups one must be named."""
    names = group_names(db)
    if group:
        if group not in names:
            raise UserError(
                f"没有名为“{group}”的组别（现有：{'、'.join(names)}）",
                f"no group named {group!r} (groups: {', '.join(names)})",
            )
        return group
    if len(names) == 1:
        return names[0]
    raise UserError(
        f"本赛事有多个组别，请用 --group 指定：{'、'.join(names)}",
        f"the tournament has several groups; name one with --group: {', '.join(names)}",
    )


def latest_round(db: Database, group: str) -> int:
    """The group's latest paired round."""
    paired = [r.number for r in rounds_of(db, group)]
    if not paired:
        raise UserError(f"{group}尚未编排任何轮次", f"{group} has no paired round yet")
    return max(paired)


def require_round(db: Database, group: str, number: int) -> None:
    from sqlalchemy import select

    from app.db.models import Round

    with db.session() as s:  # the round's existence only (not every round's counts of games)
        g = group_row(s, group)
        found = s.scalar(select(Round.id).where(Round.group_id == g.id, Round.number == number))
    if found is None:
        raise UserError(f"{group}第 {number} 轮尚未编排", f"{group} round {number} has not been paired")


def unit_or_team(unit: str, team: str | None = None) -> str:
    return unit or (team or "")
