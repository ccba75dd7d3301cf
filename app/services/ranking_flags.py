"""计成绩不计名次: a player who plays and scores but takes no place and no prize (a guest, a player
outside the event's conditions admitted to play). Set and cleared by the chief arbiter, logged."""

from __future__ import annotations

from sqlalchemy import select

from app.db.models import Player
from app.db.session import Database
from app.engine.types import UserError
from app.services import audit
from app.services.tournaments import group_row


def set_unranked(
    db: Database, group: str, no: int, unranked: bool = True, *, reason: str, who: str = audit.DEFAULT_ARBITER
) -> None:
    """Make player ``no`` of ``group`` play unranked (计成绩不计名次), or ranked again; a reason is needed."""
    reason = audit.clean_reason(reason)
    if not reason.strip():
        raise UserError("须注明理由", "a reason is needed")
    with db.session() as s:
        g = group_row(s, group)
        player = s.scalars(select(Player).where(Player.group_id == g.id, Player.no == no)).one_or_none()
        if player is None:
            raise UserError(f"{group}没有 {no} 号棋手", f"{group} has no player {no}")
        if player.ranked is not unranked:
            raise UserError(
                f"{no} 号{player.name}已是{'计成绩不计名次' if unranked else '计名次'}",
                f"player {no} is {'unranked' if unranked else 'ranked'} already",
            )
        player.ranked = not unranked
        audit.record(
            s,
            "set_unranked",
            entity=f"{group} {no}号 {player.name}",
            before="ranked" if unranked else "unranked",
            after="unranked" if unranked else "ranked",
            reason=reason,
            who=who,
        )
