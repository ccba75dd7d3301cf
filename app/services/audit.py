"""The audit log: every change, who made it, when, before → after, and why."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import AuditEntry
from app.db.session import Database
from app.engine.text import REASON_MAX, clean_text, spreadsheet_safe
from app.engine.types import UserError
from app.services.pairing_plan import audit_text

DEFAULT_ARBITER = "裁判长"
#: The reason of every line an undo writes, and the mark of every line a redo writes.
UNDO_MARK = "撤销 (undo)"
REDO_MARK = "重做 (redo)"

_replaying: ContextVar[str] = ContextVar("audit_replaying", default="")


@contextmanager
def replaying(mark: str) -> Iterator[None]:
    """Every line written inside (in this thread) is marked ``mark`` — :data:`UNDO_MARK` or
    :data:`REDO_MARK` — at the head of its reason, so the log tells an undo or a redo from the
    arbiter's own action. A reason already marked is left as it is."""
    token = _replaying.set(mark)
    try:
        yield
    finally:
        _replaying.reset(token)


_text = audit_text  # one formatting for every audit line (the pairing fast path writes its own rows)


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
    """Add one audit line to the action's session (committed with the action, or not at all).

    The reason is the arbiter's own text: it is checked like every text shown in public lists (no
    control or bidi characters, at most :data:`REASON_MAX` characters) — a refusal undoes the action.
    """
    reason = clean_text(reason, "理由", "the reason", REASON_MAX, multiline=True)
    mark = _replaying.get()
    if mark and not reason.startswith(mark):
        reason = f"{mark}：{reason}" if reason else mark
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


def clean_reason(text: str, *, required: bool = False) -> str:
    """An arbiter's reason as it is stored beside the action (absence, avoidance …) and in the log:
    checked and normalised like every text (:func:`app.engine.text.clean_text`)."""
    if required and not (isinstance(text, str) and text.strip()):
        raise UserError("请填写理由", "a reason is required")
    return clean_text(text, "理由", "the reason", REASON_MAX, multiline=True)


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
        e = AuditEntry  # the columns only, no ORM objects: tens of thousands of lines at 5,000 players
        query = select(e.at, e.who, e.action, e.entity, e.before, e.after, e.reason).order_by(e.id)
        if action is not None:
            query = query.where(AuditEntry.action == action)
        return [AuditLine(*row) for row in s.execute(query)]


AUDIT_COLUMNS = ("at", "who", "action", "entity", "before", "after", "reason")
AUDIT_HEADERS_ZH = ("时间", "操作人", "操作", "对象", "修改前", "修改后", "理由")


def audit_rows(db: Database) -> list[dict[str, str]]:
    """The audit log as plain rows (time as ``YYYY-mm-ddTHH:MM:SS``), oldest first."""
    return [
        {
            "at": line.at.isoformat(timespec="seconds"),
            "who": line.who,
            "action": line.action,
            "entity": line.entity,
            "before": line.before,
            "after": line.after,
            "reason": line.reason,
        }
        for line in audit_log(db)
    ]


def export_audit_json(db: Database) -> str:
    return json.dumps(audit_rows(db), ensure_ascii=False, indent=1)


def export_audit_csv(db: Database) -> str:
    """CSV with a Chinese header row, UTF-8 with BOM so that Excel shows the Chinese text.

    A cell that a spreadsheet would read as a formula (``=HYPERLINK(…)``, ``+…``, ``-…``, ``@…``) is
    written with a leading ``'``: opened in Excel or WPS it shows as text and runs nothing."""
    import csv
    import io

    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(AUDIT_HEADERS_ZH)
    for row in audit_rows(db):
        writer.writerow([spreadsheet_safe(row[c]) for c in AUDIT_COLUMNS])
    return out.getvalue()
