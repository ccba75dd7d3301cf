"""The schema revisions: which the program knows, which a file records — without SQLAlchemy or Alembic.

Opening a file checks its revision on every command; importing Alembic for that would cost ~0.1 s and
SQLAlchemy ~0.2 s, so the migration scripts are read as text and the file with :mod:`sqlite3`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from app.db.chain import MIGRATIONS, _revision_chain, head_revision, known_revisions  # noqa: F401
from app.db.integrity import CorruptFileError, DatabaseError, FileBusyError, is_busy
from app.files import DiskFullError, is_disk_full

#: how long reading the revision waits while another program holds the file's lock (sqlite3's own
#: default, named so that a test may shorten it); then the file is called busy
READ_BUSY_SECONDS = 5.0


def file_revision(path: Path) -> str | None:
    """The schema revision recorded in a file, or None for an empty / new file."""
    try:
        con = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True, timeout=READ_BUSY_SECONDS)
    except sqlite3.Error as exc:  # pragma: no cover - the OS refused the file
        raise DatabaseError(f"无法打开文件 {path}：{exc}", f"cannot open {path}: {exc}") from None
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "alembic_version" not in tables:
            if tables:
                raise DatabaseError(
                    f"{path.name} 不是象棋赛事文件（缺少版本信息）",
                    f"{path.name} is not a tournament file (no schema version)",
                )
            return None
        rows = con.execute("SELECT version_num FROM alembic_version").fetchall()
        if len(rows) > 1:
            versions = "、".join(str(r[0]) for r in rows)
            raise CorruptFileError(
                path,
                f"数据库版本记录有 {len(rows)} 行（{versions}），文件被其他程序改动过 (several schema versions)",
            )
        return None if not rows else str(rows[0][0])
    except sqlite3.DatabaseError as exc:
        if is_disk_full(exc, path):
            raise DiskFullError(path) from None
        if is_busy(exc):  # another program writes it (an older file, in rollback-journal mode): not damage
            raise FileBusyError(path) from None
        raise CorruptFileError(
            path, f"已损坏或不是赛事文件：{exc} (damaged or not a tournament file: {exc})"
        ) from None
    except UnicodeDecodeError:  # the schema's own text is damaged
        raise CorruptFileError(path, "数据库结构中的文字已损坏 (the schema text does not decode)") from None
    finally:
        con.close()


def check_version(path: Path) -> str | None:
    """Refuse a file written by a newer program (the version guard)."""
    revision = file_revision(path)
    if revision is not None and revision not in known_revisions():
        raise DatabaseError(
            f"{path.name} 由更新版本的程序创建（数据库版本 {revision}），请升级本程序后再打开",
            f"{path.name} was written by a newer version of the program (schema {revision}); "
            "upgrade the program to open it",
        )
    return revision


__all__ = ["MIGRATIONS", "check_version", "file_revision", "head_revision", "known_revisions"]
