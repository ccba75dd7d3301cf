"""Regulations as files: a tournament's regulation — the TOML behind the presets — written to a
file and read back, into this event or into a new one, so that next year's event starts from this one.

The file is the regulation's TOML (every setting of :class:`~app.engine.regulations.Regulations`, the
same text ``regulations_to_toml`` gives for a preset) and, when the event has any, a ``[paperwork]``
table: officials, organiser, seal line and the certificate template. A file without ``[paperwork]``
leaves the event's paperwork as it is.

A file is read whole and checked before anything changes: size (at most 1 MB), encoding (UTF-8, with
or without a byte-order mark), TOML syntax, every setting by name. A bad file gives one message naming
the file and what is wrong, and changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import tomli_w

from app.db.session import Database
from app.engine.paperwork import Paperwork, paperwork_from_dict
from app.engine.regulations import (
    Regulations,
    parse_toml,
    preset,
    refuse_unused_stage_chains,
    regulations_from_dict,
    regulations_to_dict,
)
from app.engine.types import UserError
from app.files import check_output_path, read_limited, write_atomic
from app.services import audit
from app.services.paperwork import stored_paperwork, write_paperwork
from app.services.tournaments import (
    NewEvent,
    create_event,
    create_tournament,
    discard_on_failure,
    load_regulations,
    update_regulations,
)

MAX_BYTES = 1_000_000
SUFFIX = ".toml"
PAPERWORK = "paperwork"


def _file_text(reg: Regulations, paperwork: dict[str, Any] | None, source: str) -> str:
    data = regulations_to_dict(reg)
    if paperwork is not None:
        data[PAPERWORK] = paperwork
    head = (
        "# 象棋赛事编排系统 规程文件 (Xiangqi Arbiter regulation file)\n"
        f"# {source}，{datetime.now():%Y-%m-%d %H:%M} 导出。可修改后用于新赛事：xqarbiter new 新赛事.xqt --regulation 本文件\n\n"
    )
    return head + tomli_w.dumps(data)


def regulation_file_text(db: Database) -> str:
    """This event's regulation (and paperwork, if any) as the text of a regulation file."""
    with db.session() as s:
        paperwork = stored_paperwork(s)
    reg = load_regulations(db)
    return _file_text(reg, paperwork, f"赛事“{reg.event_name}”")


def preset_file_text(name: str) -> str:
    """A built-in preset as a regulation file, to edit for another event."""
    return _file_text(preset(name), None, f"预设规程 {name}")


def parse_regulation_file(text: str, where: str = "规程文件") -> tuple[Regulations, Paperwork | None]:
    """The regulation and the paperwork (None when the file has no ``[paperwork]``) of a file's text."""
    data = parse_toml(text, f"{where} ", where)
    raw = data.pop(PAPERWORK, None)
    paperwork = None if raw is None else paperwork_from_dict(raw)
    reg = regulations_from_dict(data)
    refuse_unused_stage_chains(reg)
    return reg, paperwork


def read_regulation_file(path: Path | str) -> tuple[Regulations, Paperwork | None]:
    """Read and check a regulation file; every error names the file."""
    path = Path(path)
    name = path.name
    raw = read_limited(path, MAX_BYTES, what_zh="规程文件", what_en="regulation file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(
            f"{name} 不是 UTF-8 编码的文本（规程文件须为 UTF-8）",
            f"{name} is not UTF-8 text (a regulation file must be UTF-8)",
        ) from None
    try:
        return parse_regulation_file(text, name)
    except UserError as exc:
        if name in exc.zh:
            raise
        raise UserError(f"{name}：{exc.zh}", f"{name}: {exc.en}") from None


def write_regulation_file(db: Database, path: Path | str) -> Path:
    """Export this event's regulation to ``path`` (written whole or not at all)."""
    check_output_path(path)
    return write_atomic(path, regulation_file_text(db))


def import_regulation_file(
    db: Database, path: Path | str, *, reason: str = "", who: str = audit.DEFAULT_ARBITER
) -> None:
    """Replace this event's regulation (and paperwork, if the file has it) by the file's.

    Checked whole first; a change the event refuses (a setting of a round already paired) changes
    nothing, and the refusal names it. Logged as an update of the regulation with the file's name.
    """
    reg, paperwork = read_regulation_file(path)
    why = reason or f"导入规程文件 {Path(path).name}"
    update_regulations(db, reg, reason=why, who=who)
    if paperwork is not None:
        with db.session() as s:
            write_paperwork(s, paperwork, reason=why, who=who)


def create_from_regulation_file(
    path: Path | str,
    regulation: Path | str,
    event: NewEvent | None = None,
    *,
    who: str = audit.DEFAULT_ARBITER,
) -> Database:
    """A new tournament file whose settings (and paperwork) come from a regulation file.

    ``event`` gives the new event's own name, dates, venue, deadline and groups (the new-event dialog,
    ``xqarbiter new --regulation FILE --name … --start …``), as a preset would take them; without it
    the file's own are kept.
    """
    reg, paperwork = read_regulation_file(regulation)
    if event is None:
        db = create_tournament(path, preset_name="", regulations=reg, who=who)
    else:
        db = create_event(path, reg, event, who=who)
    with discard_on_failure(db):
        if paperwork is not None:
            with db.session() as s:
                write_paperwork(s, paperwork, reason=f"规程文件 {Path(regulation).name}", who=who)
    return db
