"""The prize list (public) and the payout sheet (internal, with the personal numbers) (docs/rules.md §10)."""

from __future__ import annotations

from app.db.session import Database
from app.engine.types import (
    UserError,
)
from app.reports import model
from app.services.exports.common import event_header, event_info
from app.services.registration import list_players
from app.services.rounds import rounds_of
from app.services.standings import (
    PrizesView,
    is_final,
    prize_list,
)


def prize_label(db: Database) -> str:
    """Refuse before any round; "暂列" until every group has played its last round in full."""
    info = event_info(db)
    played = {g.name: rounds_of(db, g.name) for g in info.groups if g.players}
    if not any(played.values()):
        raise UserError(
            "尚未编排任何轮次，还没有获奖名单", "no round has been paired yet: there are no prizes"
        )
    for name, summaries in played.items():
        if summaries and not is_final(db, name):
            return "（暂列，比赛尚未结束）"
    return ""


def prizes_final(db: Database) -> bool:
    """Whether the prize list is final: every group has played its last round in full, and the list
    names someone. Cheap while the event is running (the list is built only once it may be final)."""
    try:
        return prize_label(db) == "" and bool(prize_list_model(db).lines)
    except UserError:
        return False


def _table_name(view: PrizesView, table: str, group: str) -> str:
    """A prize table's name, marked 暂列 while its group's ranking is not final."""
    basis = view.basis.get(group)
    return table if basis is None or basis.final else f"{table}（暂列）"


def _prize_notes(view: PrizesView, group: str | None) -> tuple[str, ...]:
    """One line per group whose prizes are provisional: what they rest on."""
    return tuple(
        f"{name}：{basis.zh}。"
        for name, basis in view.basis.items()
        if not basis.final and (group is None or name == group)
    )


def prize_list_model(db: Database, group: str | None = None) -> model.PrizeList:
    """奖励名单 (public): place, name, unit, amount — no ID, no phone. The tables of a group whose
    ranking is not final are marked 暂列, with what they rest on."""
    info = event_info(db)
    label = prize_label(db)
    view = prize_list(db)
    lines = []
    for t in view.prizes.tables:
        if group and t.table.group != group:
            continue
        name = _table_name(view, t.table.name, t.table.group)
        for x in t.lines:
            if x.no is not None:
                key = (t.table.group, x.no)
                lines.append(
                    model.PrizeLine(
                        name, x.place, view.names[key], view.units[key], x.amount, x.item, t.table.group, x.no
                    )
                )
            elif x.team is not None:
                lines.append(model.PrizeLine(name, x.place, x.team, "", x.amount, x.item))
    if not lines:
        raise UserError("还没有可发放的奖项", "there are no prizes to list yet")
    return model.PrizeList(
        event_header(info, group or "", round_label=label), tuple(lines), _prize_notes(view, group)
    )


def payout_sheet(db: Database, group: str | None = None) -> model.PayoutSheet:
    """奖金发放签收表 (内部): the prize lines with the full ID number and phone of each winner."""
    info = event_info(db)
    label = prize_label(db)
    view = prize_list(db)
    people = {(p.group, p.no): p for p in list_players(db) if p.no is not None}
    lines = []
    for t in view.prizes.tables:
        if group and t.table.group != group:
            continue
        name = _table_name(view, t.table.name, t.table.group)
        for x in t.lines:
            if x.no is not None:
                p = people[(t.table.group, x.no)]
                lines.append(
                    model.PayoutLine(name, x.place, p.name, p.unit, x.amount, p.id_number, p.phone, x.item)
                )
            elif x.team is not None:
                lines.append(model.PayoutLine(name, x.place, x.team, "", x.amount, "", "", x.item))
    if not lines:
        raise UserError("还没有可发放的奖项", "there are no prizes to pay yet")
    return model.PayoutSheet(
        event_header(info, group or "", round_label=label),
        tuple(lines),
        withholding_percent=info.regulations.prize_rules.withholding_percent,
    )
