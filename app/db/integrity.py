"""Integrity of a tournament file, and where its backups live.

Backups of ``D/赛事.xqt`` are kept in the folder ``D/赛事.backups/`` as
``赛事-YYYYmmdd-HHMMSS-<reason>.xqt`` (the layout is owned here so that the refusal of a corrupt file
can name the newest good backup; making and restoring backups is ``app.services.backups``).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from app.engine.types import UserError

BACKUP_SUFFIX = ".xqt"


class DatabaseError(UserError):
    """The file cannot be opened as a tournament (corrupt, not ours, or newer than the program)."""


class CorruptFileError(DatabaseError):
    """The file fails SQLite's integrity check; it is never opened for writing."""

    def __init__(self, path: Path, problem: str, good_backup: Path | None = None) -> None:
        self.path = path
        self.problem = problem
        self.good_backup = good_backup
        if good_backup is not None:
            offer_zh = f"最新的完好备份是 {good_backup.name}（在 {good_backup.parent} 中），可从它恢复"
            offer_en = f"the newest good backup is {good_backup.name} (in {good_backup.parent}); restore it"
        else:
            offer_zh, offer_en = "没有找到完好的备份", "no good backup was found"
        super().__init__(
            f"{path.name} 已损坏，不能打开（{problem}）。{offer_zh}",
            f"{path.name} is corrupt and cannot be opened ({problem}); {offer_en}",
        )


def integrity_problems(path: Path, *, quick: bool = False, writable: bool = False) -> list[str]:
    """SQLite's ``integrity_check`` (or the faster ``quick_check``): an empty list means sound.

    A file that SQLite cannot read at all gives one problem naming the error. ``writable`` opens the
    file read-write, so that a write-ahead log left by a crash is recovered before the check.
    """
    pragma = "quick_check" if quick else "integrity_check"
    mode = "rw" if writable else "ro"
    try:
        con = sqlite3.connect(f"file:{path.resolve()}?mode={mode}", uri=True)
    except sqlite3.Error as exc:
        return [str(exc)]
    try:
        rows = [str(r[0]) for r in con.execute(f"PRAGMA {pragma}")]
    except sqlite3.DatabaseError as exc:
        return [str(exc)]
    finally:
        con.close()
    return [] if rows == ["ok"] else rows


@dataclass(frozen=True, slots=True)
class BackupFile:
    """One backup copy: where it is, when it was made and why (``paired-公开组-r3``, ``closed-…``)."""

    path: Path
    made_at: datetime
    reason: str

    @property
    def name(self) -> str:
        return self.path.name


def backups_folder(path: Path) -> Path:
    """``D/赛事.xqt`` → ``D/赛事.backups``."""
    return path.with_name(path.stem + ".backups")


def _name_pattern(stem: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(stem)}-(\d{{8}}-\d{{6}})-(.+)\{BACKUP_SUFFIX}$")


def backup_files(path: Path) -> list[BackupFile]:
    """The backups of ``path``, oldest first."""
    folder = backups_folder(path)
    if not folder.is_dir():
        return []
    pattern = _name_pattern(path.stem)
    found = []
    for f in folder.iterdir():
        m = pattern.match(f.name)
        if m is None or not f.is_file():
            continue
        try:
            made = datetime.strptime(m.group(1), "%Y%m%d-%H%M%S")
        except ValueError:
            continue
        found.append((made, f.stat().st_mtime_ns, BackupFile(f, made, m.group(2))))
    found.sort(key=lambda item: (item[0], item[1], item[2].name))
    return [item[2] for item in found]


def backup_is_good(backup: Path, known: set[str]) -> bool:
    """Sound (``quick_check``) and written by this program or an older one."""
    if integrity_problems(backup, quick=True):
        return False
    try:
        con = sqlite3.connect(f"file:{backup.resolve()}?mode=ro", uri=True)
        try:
            row = con.execute("SELECT version_num FROM alembic_version").fetchone()
        finally:
            con.close()
    except sqlite3.Error:
        return False
    return row is not None and str(row[0]) in known


def newest_good_backup(path: Path, known: set[str]) -> Path | None:
    for b in reversed(backup_files(path)):
        if backup_is_good(b.path, known):
            return b.path
    return None
