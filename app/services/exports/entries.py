"""The entry lists (public and internal) and the check-in sheet of a group (docs/rules.md §2)."""

from __future__ import annotations

from app.db.session import Database
from app.engine.types import (
    UserError,
)
from app.reports import model
from app.services import paperwork_docs
from app.services.exports.common import event_header, event_info, resolve_group
from app.services.registration import PlayerView, list_players

_GENDER_ZH = {"male": "男", "female": "女"}


def _entry_players(db: Database, group: str, order: str = "") -> list[PlayerView]:
    """The group's registered players in the list order asked (default: by team (players without a team
    last), then 序号 (players without one after)); refused for an empty group."""
    resolve_group(db, group)
    players = paperwork_docs.ordered(list_players(db, group), order)
    if not players:
        raise UserError(f"{group}还没有报名的棋手", f"{group} has no players yet")
    return players


def _order_label(order: str) -> str:
    return paperwork_docs.ORDER_LABELS[order] if order else ""


def entry_list(db: Database, group: str, order: str = "") -> model.EntryList:
    """参赛名单 (public) of a group, by team and 序号 (or by number, name or rating: ``order``)."""
    info = event_info(db)
    players = _entry_players(db, group, order)
    lines = tuple(
        model.EntryLine(p.no or 0, p.name, p.unit, _GENDER_ZH.get(p.gender, ""), p.team) for p in players
    )
    return model.EntryList(event_header(info, group), lines, _order_label(order))


def check_in_sheet(db: Database, group: str, order: str = "") -> model.CheckInSheet:
    """报到表 (内部): insurance, pledge, fee and check-in of every registered player, paid / owed totals."""
    info = event_info(db)
    players = _entry_players(db, group, order)
    fee = info.regulations.registration.fee_yuan
    return paperwork_docs.check_in_sheet(
        event_header(info, group), players, fee, order, paperwork_docs.signoff(db)
    )


def internal_entry_list(db: Database, group: str, order: str = "") -> model.InternalEntryList:
    """参赛名单 (内部): check-in, fee, insurance, the full ID number and the phone."""
    info = event_info(db)
    players = _entry_players(db, group, order)
    lines = tuple(
        model.InternalEntryLine(
            p.no or 0,
            p.name,
            p.unit,
            _GENDER_ZH.get(p.gender, ""),
            p.team,
            p.checked_in,
            p.fee_paid,
            p.insurance,
            p.id_number,
            p.phone,
        )
        for p in players
    )
    return model.InternalEntryList(event_header(info, group), lines, _order_label(order))
