"""Backups of a tournament file, made with SQLite's online backup API, and restoring one.

Layout (see ``app.db.integrity``): the backups of ``D/赛事.xqt`` are in ``D/赛事.backups/``, named
``赛事-YYYYmmdd-HHMMSS-<reason>.xqt``. Each backup is a complete, self-contained SQLite file (rollback
journal, no ``-wal`` beside it), checked with ``quick_check`` after it is written, so it can be copied
to a USB stick as it is. ``<reason>`` says why it was made: ``paired-公开组-r3`` / ``closed-公开组-r3``
(``backup_after``), ``before-restore``, ``manual``.

Pruning keeps the newest :data:`KEEP_RECENT` backups of every kind, plus the newest backup of each
``closed-…`` reason (one per closed round of each group: the state at the end of every round stays
available for the whole event, about 2 × 11 small files).
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from app.db.integrity import (
    BackupFile,
    CorruptFileError,
    DatabaseError,
    backup_files,
    backup_is_good,
    backups_folder,
    content_problems,
    integrity_problems,
    newest_good_backup,
)
from app.db.lock import LockHolder, TournamentLock, lock_in_use, lock_path, read_holder
from app.db.revisions import check_version, known_revisions
from app.engine.records import frozen
from app.engine.types import UserError
from app.files import DiskFullError, is_disk_full, refuse_live

if TYPE_CHECKING:  # backups are made with sqlite3: the pairing fast path does not load SQLAlchemy
    from app.db.session import Database

__all__ = [
    "KEEP_RECENT",
    "BackupError",
    "BackupFile",
    "FileCheck",
    "backup_after",
    "backups_folder",
    "check_file",
    "list_backups",
    "make_backup",
    "newest_backup",
    "prune_backups",
    "restore_backup",
]

KEEP_RECENT = 30
_FORBIDDEN = set('<>:"/\\|?*') | {chr(c) for c in range(32)}


class BackupError(UserError):
    """A backup could not be written or restored."""


def _reason_slug(reason: str) -> str:
    slug = "".join("_" if ch in _FORBIDDEN or ch.isspace() else ch for ch in reason.strip()).strip("._")
    return slug[:60] or "manual"


def _target(path: Path, reason: str, now: datetime) -> Path:
    folder = backups_folder(path)
    base = f"{path.stem}-{now:%Y%m%d-%H%M%S}-{_reason_slug(reason)}"
    candidate = folder / f"{base}.xqt"
    n = 2
    while candidate.exists():
        candidate = folder / f"{base}-{n}.xqt"
        n += 1
    return candidate


def make_backup(
    db_or_path: Database | Path | str, reason: str = "manual", *, now: datetime | None = None
) -> Path:
    """Copy the tournament file (consistently, even while it is open) into its backups folder."""
    path = Path(db_or_path) if isinstance(db_or_path, str | Path) else db_or_path.path
    if not path.exists():
        raise BackupError(f"找不到文件 {path}", f"file not found: {path}")
    folder = backups_folder(path)
    target = _target(path, reason, now or datetime.now())
    # the writer's pid in the name: an unfinished copy of a killed run is recognised and removed
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        _create_private(partial)
        src = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
                dst.commit()
            finally:
                dst.close()
        finally:
            src.close()
        problems = integrity_problems(partial, quick=True)
        if problems:
            raise BackupError(
                f"备份副本校验失败：{problems[0]}", f"the backup copy failed its check: {problems[0]}"
            )
        with open(partial, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as exc:
        _remove_copy(partial)
        if is_disk_full(exc, folder):
            raise BackupError(
                f"磁盘已满，无法写入备份 {target.name}；文件本身没有改动",
                f"disk full: cannot write the backup {target.name}; the file itself is unchanged",
            ) from None
        raise BackupError(
            f"无法写入备份 {target.name}：{exc}",
            f"cannot write the backup {target.name}: {exc}",
        ) from None
    except BaseException:
        _remove_copy(partial)
        raise
    return target


def _create_private(path: Path) -> None:
    """An empty file only its owner can read: SQLite keeps the mode of a file it is given."""
    fd = os.open(path, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600)
    os.close(fd)
    os.chmod(path, 0o600)  # O_CREAT does not change the mode of a file that was there


def _remove_copy(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)


def list_backups(path: Path | str) -> list[BackupFile]:
    """The backups of a tournament file, newest first."""
    return list(reversed(backup_files(Path(path))))


def newest_backup(path: Path | str, *, good_only: bool = True) -> Path | None:
    path = Path(path)
    if good_only:
        return newest_good_backup(path, known_revisions())
    found = backup_files(path)
    return found[-1].path if found else None


def prune_backups(path: Path | str, *, keep_recent: int = KEEP_RECENT) -> list[Path]:
    """Delete old backups (see the module docstring for what is kept); returns the deleted files."""
    found = list_backups(path)  # newest first
    keep = {b.path for b in found[:keep_recent]}
    closed_seen: set[str] = set()
    for b in found:
        if b.reason.startswith("closed") and b.reason not in closed_seen:
            closed_seen.add(b.reason)
            keep.add(b.path)
    deleted = []
    for b in found:
        if b.path not in keep:
            b.path.unlink(missing_ok=True)
            deleted.append(b.path)
    return deleted


def backup_after(db: Database, event: str) -> Path:
    """The automatic backup after a pairing (``paired-<group>-r<n>``) or a closed round
    (``closed-<group>-r<n>``), followed by pruning. Call it after the action has been committed: a
    :class:`BackupError` then means the action is saved but its backup is not (say so, don't undo)."""
    target = make_backup(db, event)
    prune_backups(db.path)
    return target


def automatic_backup(db: Database, event: str) -> str:
    """Back up after a pairing or a closed round; a failure is reported, never undoes the action.

    A scratch file that is thrown away when done (``db.keeps_backups`` False) is not backed up."""
    if not db.keeps_backups:
        return ""
    try:
        backup_after(db, event)
    except UserError as exc:
        return f"已保存，但自动备份失败：{exc}"
    return ""


def restore_backup(path: Path | str, backup: Path | str, *, take_over: bool = False) -> Path:
    """Put a backup in place of the tournament file; returns the backup of the state it replaced.

    The file must not be open for writing anywhere (the lock is taken for the duration). The backup
    must pass ``integrity_check`` and must not be newer than the program. The current state is backed
    up first (``before-restore``; a corrupt current file is kept byte for byte, with its ``-wal``).
    """
    path = Path(path)
    backup = Path(backup)
    if not backup.exists() and (backups_folder(path) / backup.name).exists():
        backup = backups_folder(path) / backup.name
    if not backup.is_file():
        raise BackupError(f"找不到备份 {backup}", f"backup not found: {backup}")
    problems = integrity_problems(backup)
    if problems:
        raise CorruptFileError(backup, "；".join(problems[:3]), newest_good_backup(path, known_revisions()))
    if not backup_is_good(backup, known_revisions()):
        raise DatabaseError(
            f"备份 {backup.name} 不是本程序可读的赛事文件（版本过新、缺少版本信息或内容损坏）",
            f"the backup {backup.name} is not a tournament file this program can read "
            "(too new, no version or damaged content)",
        )
    lock = TournamentLock.acquire(path, take_over=take_over)
    partial = path.with_name(path.name + ".restoring")
    try:
        _refuse_another_event(path, backup)
        corrupt = path.exists() and bool(integrity_problems(path, writable=True))
        saved = path if corrupt else _save_current(path)
        _create_private(partial)
        src = sqlite3.connect(f"file:{backup.resolve()}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode=DELETE")
                _log_restore(dst, backup.name, saved.name)
                dst.commit()
            finally:
                dst.close()
        finally:
            src.close()
        with open(partial, "rb+") as f:
            os.fsync(f.fileno())
        if corrupt:
            saved = _keep_corrupt(path)
        # a write-ahead log of the old file must never be replayed onto the restored one
        for suffix in ("-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        os.replace(partial, path)
    except (OSError, sqlite3.Error) as exc:
        _remove_copy(partial)
        if is_disk_full(exc, path):
            raise DiskFullError(path) from None
        raise BackupError(f"无法恢复 {path.name}：{exc}", f"cannot restore {path.name}: {exc}") from None
    except BaseException:
        _remove_copy(partial)
        raise
    finally:
        lock.release()
    return saved


def _log_restore(con: sqlite3.Connection, backup: str, saved: str) -> None:
    """The restored file's audit log says it was restored, from which backup, and where the state it
    replaced was kept (the backup's own log ends before the restore)."""
    from app.db.lite import stored_datetime
    from app.services.audit import DEFAULT_ARBITER

    con.execute(
        "INSERT INTO audit_log (at, who, action, entity, before, after, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            stored_datetime(datetime.now().replace(microsecond=0)),
            DEFAULT_ARBITER,
            "restore_backup",
            "赛事文件",
            saved,
            backup,
            "",
        ),
    )


def _tournament_fields(path: Path, columns: str) -> tuple[object, ...] | None:
    """Columns of the file's tournament row, read without the ORM; None when they cannot be read."""
    try:
        con = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
        try:
            row = con.execute(f"SELECT {columns} FROM tournament WHERE id = 1").fetchone()
        finally:
            con.close()
    except (sqlite3.Error, UnicodeDecodeError):
        return None
    return None if row is None else tuple(row)


def event_identity(path: Path) -> tuple[str, str] | None:
    """(created_at, preset) of the tournament a file holds: the same for every backup of one event,
    different for another event (the name may be edited). None when it cannot be read."""
    row = _tournament_fields(path, "created_at, preset")
    return None if row is None else (str(row[0]), str(row[1]))


def _event_name(path: Path) -> str:
    row = _tournament_fields(path, "name")
    return "?" if row is None else str(row[0])


def _refuse_another_event(path: Path, backup: Path) -> None:
    """A backup of another event is never put in place of this one (a corrupt current file, which
    cannot say which event it was, may be replaced by any good backup)."""
    if not path.exists():
        return
    mine, theirs = event_identity(path), event_identity(backup)
    if mine is None or theirs is None or mine == theirs:
        return
    raise BackupError(
        f"{backup.name} 是另一场赛事（“{_event_name(backup)}”，{theirs[0][:19]} 创建）的文件，"
        f"不是 {path.name}（“{_event_name(path)}”，{mine[0][:19]} 创建）的备份，不能用它恢复",
        f"{backup.name} belongs to another event ({_event_name(backup)!r}, created {theirs[0][:19]}), "
        f"not to {path.name} ({_event_name(path)!r}, created {mine[0][:19]}); it cannot be restored here",
    )


def _save_current(path: Path) -> Path:
    """The sound current state, backed up through SQLite before it is replaced."""
    if not path.exists():
        return path
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
    return make_backup(path, "before-restore")


def _keep_corrupt(path: Path) -> Path:
    """Keep a corrupt current file, with its log, in the backups folder as it is (owner-only).

    Kept as a second name of the same bytes (a hard link), not copied: linking opens nothing, and
    nothing of this program may open a tournament file other than through SQLite (an ``open()`` /
    ``close()`` pair in a process where SQLite has it open drops SQLite's locks: docs/file-safety.md).
    The file itself stays in place until the restored copy replaces it in one rename. Where the disk
    has no hard links (FAT, exFAT) the bytes are copied, unless this process has the file open."""
    target = _target(path, "before-restore-corrupt", datetime.now())
    target.parent.mkdir(mode=0o700, exist_ok=True)
    for suffix in ("", "-wal"):
        source = Path(str(path) + suffix)
        if not source.exists():
            continue
        kept = Path(str(target) + suffix)
        try:
            os.link(source, kept)
        except OSError as exc:
            if exc.errno not in _NO_HARD_LINKS:
                raise
            refuse_live(source, writing=False)
            shutil.copyfile(source, kept)
        os.chmod(kept, 0o600)
    return target


_NO_HARD_LINKS = frozenset(
    code
    for code in (
        errno.EPERM,
        errno.EXDEV,
        errno.EMLINK,
        errno.ENOSYS,
        getattr(errno, "ENOTSUP", None),
        getattr(errno, "EOPNOTSUPP", None),
    )
    if code is not None
)


@frozen
class FileCheck:
    """What ``xqarbiter check-file`` reports about a tournament file (nothing is changed)."""

    path: Path
    problems: tuple[str, ...]
    revision: str | None
    version_problem: str
    lock: LockHolder | None
    lock_alive: bool
    backups: int
    newest_good: Path | None

    @property
    def sound(self) -> bool:
        return not self.problems and not self.version_problem

    def lines(self) -> list[str]:
        out = [f"文件：{self.path}"]
        out.append("完整性：正常 (integrity ok)" if not self.problems else "完整性：损坏 (corrupt)")
        out += [f"  {p}" for p in self.problems[:10]]
        out.append(
            f"数据库版本：{self.revision or '无'}"
            + (f"（{self.version_problem}）" if self.version_problem else "")
        )
        if self.lock is None:
            out.append("锁：无 (not locked)")
        else:
            state = "使用中 (in use)" if self.lock_alive else "遗留 (stale)"
            out.append(f"锁：{state} — {self.lock.describe()}")
        out.append(
            f"备份：{self.backups} 份；最新的完好备份：{self.newest_good.name if self.newest_good else '无'}"
        )
        return out


def check_file(path: Path | str) -> FileCheck:
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"找不到文件 {path}", f"file not found: {path}")
    problems = tuple(integrity_problems(path))
    if not problems:  # what integrity_check cannot see: a damaged value inside a sound page
        problems = tuple(content_problems(path))
    revision: str | None = None
    version_problem = ""
    try:
        revision = check_version(path)
        if revision is None:
            version_problem = "不是赛事文件 (not a tournament file)"
    except DatabaseError as exc:
        version_problem = exc.zh
    holder = read_holder(path) if lock_path(path).exists() else None
    alive = lock_in_use(path)
    return FileCheck(
        path=path,
        problems=problems,
        revision=revision,
        version_problem=version_problem if not problems else "",
        lock=holder,
        lock_alive=alive,
        backups=len(backup_files(path)),
        newest_good=newest_good_backup(path, known_revisions()),
    )
