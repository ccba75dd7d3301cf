"""The event's paperwork: officials, organiser, seal line, certificate template.

Kept in the file's ``settings`` table under the key ``paperwork`` (JSON of
:func:`app.engine.paperwork.paperwork_to_dict`); a file without it has the defaults. Changes are
logged like every other.
"""

from __future__ import annotations

import json

from sqlalchemy.orm import Session

from app.db.models import Setting
from app.db.session import Database
from app.engine.paperwork import Paperwork, paperwork_from_dict, paperwork_to_dict
from app.engine.types import UserError
from app.services import audit

KEY = "paperwork"


def paperwork_of(s: Session) -> Paperwork:
    row = s.get(Setting, KEY)
    if row is None:
        return Paperwork()
    try:
        data = json.loads(row.value)
    except json.JSONDecodeError:
        raise UserError(
            "文件中的裁判人员与证书设置已损坏", "the stored paperwork settings are damaged"
        ) from None
    return paperwork_from_dict(data)


def stored_paperwork(s: Session) -> dict[str, object] | None:
    """The stored value as a plain dict (None when never set) — what the snapshot carries."""
    row = s.get(Setting, KEY)
    return None if row is None else paperwork_to_dict(paperwork_of(s))


def load_paperwork(db: Database) -> Paperwork:
    with db.session() as s:
        return paperwork_of(s)


def write_paperwork(
    s: Session, value: Paperwork, *, reason: str = "", who: str = audit.DEFAULT_ARBITER
) -> None:
    """Store ``value`` in the action's session (checked and normalised first), logged with before and after."""
    value = value.cleaned()
    before = stored_paperwork(s)
    after = paperwork_to_dict(value)
    if before == after:
        return
    row = s.get(Setting, KEY)
    text = json.dumps(after, ensure_ascii=False, sort_keys=True)
    if row is None:
        s.add(Setting(key=KEY, value=text))
    else:
        row.value = text
    audit.record(s, "update_paperwork", before=before, after=after, reason=reason, who=who)


def update_paperwork(
    db: Database, value: Paperwork, *, reason: str = "", who: str = audit.DEFAULT_ARBITER
) -> None:
    with db.session() as s:
        write_paperwork(s, value, reason=reason, who=who)
