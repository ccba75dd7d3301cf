"""Opening a tournament file: pragmas on every connection, migrations, the version guard.

``open_database(path)`` returns a :class:`Database`; ``db.session()`` is a context manager that
gives one SQLAlchemy session per arbiter action, commits when the block succeeds and rolls the
whole action back when it raises.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Alembic is imported only when a file needs migrating (it costs ~0.1 s to import)
    from alembic.config import Config

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from app.db.checked import fingerprint, remember_checked, was_checked
from app.db.compiled import COMPILED, DRIVER
from app.db.integrity import (
    CorruptFileError,
    DatabaseError,
    FileBusyError,
    content_problems,
    integrity_problems,
    is_busy,
    newest_good_backup,
)
from app.db.leftovers import remove_leftovers
from app.db.lite import BUSY_TIMEOUT_MS, PRAGMAS  # one set of pragmas for both ways in
from app.db.lock import TournamentLock
from app.db.revisions import (  # re-exported: the schema revisions are read without SQLAlchemy
    MIGRATIONS,
    check_version,
    file_revision,
    head_revision,
    known_revisions,
)
from app.engine.types import UserError
from app.files import DiskFullError, hold_live, is_disk_full, refuse_live, release_live

__all__ = [
    "MIGRATIONS",
    "check_version",
    "file_revision",
    "head_revision",
    "known_revisions",
    "remove_leftovers",
]


def _alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def _set_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def make_engine(path: Path, *, read_only: bool = False) -> Engine:
    """An engine for one tournament file; its compiled statements are every engine's (app.db.compiled)."""
    url = f"{DRIVER}:///file:{path.resolve()}?mode=ro&uri=true" if read_only else f"{DRIVER}:///{path}"
    engine = create_engine(
        url,
        connect_args={"timeout": BUSY_TIMEOUT_MS / 1000},
        execution_options={"compiled_cache": COMPILED},
    )
    event.listen(engine, "connect", _set_read_only_pragmas if read_only else _set_pragmas)
    return engine


def _set_read_only_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA query_only=ON")
    cursor.close()


_KEPT = "xq_kept_reads"


def _refuse_writes_while_reading(session: Session, *_args: object) -> None:
    if _KEPT in session.info:
        raise RuntimeError("a write inside Database.one_reading(): its kept reads would go stale")


def kept(session: Session) -> dict[object, Any] | None:
    """The values kept by the enclosing :meth:`Database.one_reading` block, or None outside one."""
    return session.info.get(_KEPT)


@dataclass
class Database:
    """An open tournament file. ``read_only`` is True when it was opened for viewing only (for
    instance because another instance holds the lock); then ``lock`` is None."""

    path: Path
    engine: Engine
    read_only: bool = False
    lock: TournamentLock | None = None
    # a file older than the program, opened read-only, is read from an upgraded private copy in this
    # folder (the file itself is never written); removed on close
    scratch: Path | None = None
    # False for a scratch file the program throws away when done (``xqarbiter simulate``): the automatic
    # backups after a pairing or a closed round, which exist to recover the arbiter's file, are not made
    keeps_backups: bool = True

    _reading: threading.local = field(default_factory=threading.local, init=False, repr=False)

    def __post_init__(self) -> None:
        self._factory = sessionmaker(self.engine, expire_on_commit=False)
        # registered once for every session of the file (a listener per session cost more than the
        # reads it guards): it refuses a flush only in a session of a reading (``kept``)
        event.listen(self._factory, "before_flush", _refuse_writes_while_reading)
        # while SQLite has the file open here, nothing else of this process may open it (app.files)
        self._unhold = weakref.finalize(self, release_live, hold_live(self.path))

    @property
    def _kept(self) -> dict[object, Any] | None:
        """This thread's kept reads (a server thread's export never touches the window's actions)."""
        return getattr(self._reading, "kept", None)

    @contextmanager
    def one_reading(self) -> Iterator[None]:
        """A block of reads of one state of the file, such as an export.

        Inside it, what a read loads — a group's state, its bracket, its standings — is kept and
        reused (``kept(session)``), so a workbook of every round reads each group once instead of once
        per sheet. Nothing may be written inside the block: the kept values would go stale, so a flush
        raises. Nested blocks share the outermost one's values. The block belongs to the thread that
        opened it: another thread's sessions neither see its values nor are refused their writes.
        """
        if self._kept is not None:
            yield
            return
        self._reading.kept = {}
        try:
            yield
        finally:
            self._reading.kept = None

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One session per arbiter action: committed on success, rolled back as a whole on error.

        A write the disk refuses (full, a file-size limit) is a :class:`DiskFullError`; a value SQLite
        cannot read back is a :class:`CorruptFileError`: nothing of the action is kept either way.
        """
        session = self._factory()
        if self._kept is not None:
            session.info[_KEPT] = self._kept
        try:
            yield session
            session.commit()
        except BaseException as exc:
            with suppress_storage_errors():
                session.rollback()
            translated = storage_error(exc, self.path)
            if translated is not None:
                raise translated from None
            raise
        finally:
            with suppress_storage_errors():
                session.close()

    def borrowed(self) -> Database:
        """This open file for a command its owner runs for the command line: the same connections,
        and closing it closes nothing (the owner closes its file itself)."""
        return BorrowedDatabase(path=self.path, engine=self.engine, read_only=self.read_only, lock=None)

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close every connection and release the lock (idempotent)."""
        self.engine.dispose()
        self._unhold()
        if self.lock is not None:
            self.lock.release()
        elif self.read_only and not getattr(self, "_tidied", False):
            self._tidied = True
            tidy_after_reading(self.path)
        if self.scratch is not None:
            import shutil

            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None


class BorrowedDatabase(Database):
    """An owner's open file lent to a command (:meth:`Database.borrowed`)."""

    def close(self) -> None:
        self._unhold()


def tidy_after_reading(path: Path) -> None:
    """A read-only connection cannot remove the write-ahead log and index SQLite keeps beside a file
    (only the last writer does). When no instance is editing the file, let SQLite itself do it: take
    the lock for a moment, open and close one ordinary connection. Nothing is written to the file."""
    import sqlite3

    wal = Path(str(path) + "-wal")
    if not wal.exists() and not Path(str(path) + "-shm").exists():
        return
    try:
        lock = TournamentLock.acquire(path)
    except UserError:
        return  # another instance is editing it: the log is its own
    try:
        if wal.exists() and wal.stat().st_size:
            return  # a log with content is recovered by the next writer, never by a reader
        con = sqlite3.connect(f"file:{path.resolve()}?mode=rw", uri=True)
        try:
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            con.close()
    except (OSError, sqlite3.Error):
        pass
    finally:
        lock.release()


def suppress_storage_errors() -> AbstractContextManager[None]:
    """Cleaning up after a failed action must not hide why it failed (the caller raises that)."""
    return suppress(Exception)


def storage_error(exc: BaseException, path: Path) -> UserError | None:
    """The arbiter's message for a storage failure (SQLite or OS), or None for any other error."""
    import sqlite3

    if isinstance(exc, UserError):
        return None
    orig = getattr(exc, "orig", exc)  # SQLAlchemy wraps the driver's error
    if is_disk_full(orig, path):
        return DiskFullError(path)
    if isinstance(orig, sqlite3.OperationalError):
        text = str(orig).lower()
        if "could not decode" in text or "malformed" in text:
            return CorruptFileError(path, str(orig), newest_good_backup(path, known_revisions()))
        if is_busy(orig):
            return FileBusyError(path)
        if "readonly" in text or "read-only" in text:
            return UserError(
                f"{path.name} 是只读的（文件或文件夹没有写权限），不能修改",
                f"{path.name} is read-only (no write permission on the file or its folder)",
            )
        if "disk i/o error" in text:
            return UserError(
                f"读写 {path.name} 时磁盘出错（{orig}）；没有做任何修改",
                f"a disk error while reading or writing {path.name} ({orig}); nothing was changed",
            )
    if isinstance(orig, sqlite3.DatabaseError) and "malformed" in str(orig).lower():
        return CorruptFileError(path, str(orig), newest_good_backup(path, known_revisions()))
    return None


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest revision, in-process (imports Alembic).

    The foreign keys are off while it runs (SQLite's own procedure for a table rebuilt by a batch
    migration: with them on, dropping the old table would delete the rows that refer to it ON DELETE
    CASCADE, or fail on those that refer to it ON DELETE RESTRICT), checked before the change is
    committed, and on again after."""
    from alembic import command

    cfg = _alembic_config()
    with engine.connect() as connection:
        # A migration that alters a column copies the table, drops the old one and renames the copy
        # (SQLite cannot alter in place): with foreign keys enforced, dropping a table that other rows
        # point at (players: games, byes, violations …) deletes or refuses them. They are off for the
        # upgrade (the pragma only works outside a transaction); every reference the upgrade itself
        # broke is refused before it commits (a file damaged before is the file check's), then back on.
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()  # SQLAlchemy's nominal transaction; SQLite began none for a pragma
        try:
            with connection.begin():
                before = set(connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall())
                cfg.attributes["connection"] = connection
                command.upgrade(cfg, "head")
                broken = sorted(
                    set(connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()) - before
                )
                if broken:  # rolled back: the file stays as it was
                    raise DatabaseError(
                        f"升级文件格式后有 {len(broken)} 处引用失效（{broken[0][0]}）；文件未改动",
                        f"after upgrading the file's format {len(broken)} references are broken "
                        f"({broken[0][0]}); the file was not changed",
                    )
        finally:
            connection.rollback()  # nothing left open: the pragma must run outside a transaction
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def open_database(
    path: Path | str, *, create: bool = False, read_only: bool = False, take_over: bool = False
) -> Database:
    """Open (or create) a tournament file, migrating it forward if it is older than the program.

    For writing, the file is locked (``FILE.lock``; ``take_over`` takes over a stale lock) and must
    pass ``PRAGMA integrity_check``; a corrupt file is refused with the newest good backup named.
    """
    path = Path(path)
    if path.is_dir():
        raise DatabaseError(f"{path} 是文件夹，不是赛事文件", f"{path} is a folder, not a tournament file")
    if not path.exists():
        if not create:
            raise DatabaseError(f"找不到文件 {path}", f"file not found: {path}")
        if read_only:
            raise DatabaseError(f"无法以只读方式创建 {path}", f"cannot create {path} read-only")
        if not path.parent.is_dir():
            raise DatabaseError(f"文件夹 {path.parent} 不存在", f"the folder {path.parent} does not exist")
        refuse_live(path, writing=True)  # not named like a companion of a file open here (FILE-journal …)
    elif create:
        raise DatabaseError(f"文件已存在：{path}", f"file already exists: {path}")
    elif path.stat().st_size == 0:
        raise DatabaseError(
            f"{path.name} 是空文件，不是赛事文件", f"{path.name} is empty, not a tournament file"
        )
    # a lock beside a file that does not exist yet protects nothing: a stale one is taken over
    lock = None if read_only else TournamentLock.acquire(path, take_over=take_over or create)
    created = False
    engine = None
    revision: str | None = None
    scratch: Path | None = None
    try:
        if create:
            created = _create_private(path)
        else:
            if not read_only:
                remove_leftovers(path)
            revision = _check_existing(path, read_only=read_only)
        if read_only and revision is not None and revision != head_revision():
            scratch, copy = _upgraded_copy(path)
            engine = make_engine(copy, read_only=True)
        else:
            engine = make_engine(path, read_only=read_only)
        if not read_only and revision != head_revision():  # a migration is due: only then Alembic
            upgrade(engine)
    except BaseException as exc:
        if engine is not None:
            engine.dispose()
        if scratch is not None:
            import shutil

            shutil.rmtree(scratch, ignore_errors=True)
        if created:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(str(path) + suffix).unlink(missing_ok=True)
        if lock is not None:
            lock.release()
        translated = storage_error(exc, path)
        if translated is not None:
            raise translated from None
        raise
    return Database(path=path, engine=engine, read_only=read_only, lock=lock, scratch=scratch)


def _upgraded_copy(path: Path) -> tuple[Path, Path]:
    """A file of an older program, opened read-only (an export, a list, a file on a locked stick): copy it
    through SQLite's backup API into a private temporary folder and upgrade the copy, so that it reads as
    the program expects while the file itself is left exactly as it is. Returns (folder, copy)."""
    import os
    import shutil
    import sqlite3
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="xqarbiter-older-"))  # mode 0700: it holds personal numbers
    copy = folder / path.name
    try:
        # the source's own busy wait (sqlite3's 5 s) comes before the first busy step: never above the bound
        source = sqlite3.connect(
            f"file:{path.resolve()}?mode=ro", uri=True, timeout=min(5.0, BACKUP_BUSY_SECONDS)
        )
        try:
            target = sqlite3.connect(copy)
            try:
                source.backup(target, progress=_give_up_when_busy(), sleep=0.1)
            finally:
                target.close()
        finally:
            source.close()
        os.chmod(copy, 0o600)
        writable = make_engine(copy)
        try:
            upgrade(writable)
        finally:
            writable.dispose()
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder, copy


# How long copying an older file waits while another program holds its lock, before saying it is busy.
# SQLite's backup retries a busy step for ever; this bounds it (the revision was read a moment before,
# so a lock here is a writer that came in between).
BACKUP_BUSY_SECONDS = 10.0


def _give_up_when_busy() -> Callable[[int, int, int], None]:
    """A backup progress callback that stops the copy once the source has been busy too long."""
    import sqlite3
    import time

    busy_since: list[float] = []

    def progress(status: int, remaining: int, total: int) -> None:
        if status not in (5, 6):  # SQLITE_BUSY, SQLITE_LOCKED
            busy_since.clear()
            return
        now = time.monotonic()
        if not busy_since:
            busy_since.append(now)
        elif now - busy_since[0] > BACKUP_BUSY_SECONDS:
            raise sqlite3.OperationalError("database is locked")

    return progress


def _create_private(path: Path) -> bool:
    """Create the new, empty tournament file readable by its owner only (it will hold personal numbers)."""
    import os

    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        raise DatabaseError(f"文件已存在：{path}", f"file already exists: {path}") from None
    except OSError as exc:
        from app.files import os_error

        raise os_error(exc, path) from None
    os.close(fd)
    return True


def _check_existing(path: Path, *, read_only: bool) -> str:
    """The file's schema revision, after the version guard and the integrity and content checks."""
    try:
        revision = check_version(path)
        if revision is None:
            raise DatabaseError(f"{path.name} 不是象棋赛事文件", f"{path.name} is not a tournament file")
        # the same bytes found good before (remembered outside the file, app.db.checked): not read again
        fp = fingerprint(path)
        if was_checked(fp, revision, full=not read_only):
            return revision
        problems = integrity_problems(path, quick=read_only, writable=not read_only)
        if not problems:
            problems = content_problems(path, limit=3)
        if problems:
            raise CorruptFileError(path, "；".join(problems[:3]))
        remember_checked(path, fp, revision, full=not read_only)
        return revision
    except CorruptFileError as exc:
        raise CorruptFileError(path, exc.problem, newest_good_backup(path, known_revisions())) from None
