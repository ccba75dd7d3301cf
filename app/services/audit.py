"""The audit log: every change, who made it, when, before → after, and why."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import AuditEntry
from app.db.session import Database

DEFAULT_ARBITER = "裁判长"


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def record(
    session: Session,
    action: str,
    *,
    entity: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
    who: str = DEFAULT_ARBITER,
    at: datetime | None = None,
) -> None:
    """Add one audit line to the action's session (committed with the action, or not at all)."""
    session.add(
        AuditEntry(
            at=at or datetime.now().replace(microsecond=0),
            who=who,
            action=action,
            entity=entity,
            before=_text(before),
            after=_text(after),
            reason=reason,
        )
    )


@dataclass(frozen=True, slots=True)
class AuditLine:
    at: datetime
    who: str
    action: str
    entity: str
    before: str
    after: str
    reason: str


def audit_log(db: Database, *, action: str | None = None) -> list[AuditLine]:
    with db.session() as s:
        query = select(AuditEntry).order_by(AuditEntry.id)
        if action is not None:
            query = query.where(AuditEntry.action == action)
        return [
            AuditLine(e.at, e.who, e.action, e.entity, e.before, e.after, e.reason) for e in s.scalars(query)
        ]
