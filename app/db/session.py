"""Opening a tournament file: pragmas on every connection, migrations, the version guard.

``open_database(path)`` returns a :class:`Database`; ``db.session()`` is a context manager that
gives one SQLAlchemy session per arbiter action, commits when the block succeeds and rolls the
whole action back when it raises.

Alembic (about half a second to import) is loaded only to migrate — when a file is created or is
older than the program; the version guard reads the revisions from the migration scripts' headers.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from app.db.integrity import CorruptFileError, DatabaseError, integrity_problems, newest_good_backup
from app.db.lock import TournamentLock

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).with_name("migrations")
BUSY_TIMEOUT_MS = 10_000
PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",  # a power cut in the hall must not lose an entered result
    "PRAGMA foreign_keys=ON",
    f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
)


def _alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


_REVISION = re.compile(r"^(down_revision|revision)\s*=\s*(?:['\"]([^'\"]+)['\"]|None)\s*$", re.MULTILINE)


def script_revisions() -> dict[str, str | None]:
    """Every migration script's revision → the revision it follows (None for the first), read from
    the scripts' ``revision = …`` / ``down_revision = …`` lines, without importing Alembic."""
    out: dict[str, str | None] = {}
    for script in sorted((MIGRATIONS / "versions").glob("*.py")):
        found = {m.group(1): m.group(2) for m in _REVISION.finditer(script.read_text(encoding="utf-8"))}
        if found.get("revision"):
            out[str(found["revision"])] = found.get("down_revision")
    return out


def head_revision() -> str:
    revisions = script_revisions()
    heads = set(revisions) - {down for down in revisions.values() if down}
    assert len(heads) == 1, heads
    return heads.pop()


def known_revisions() -> set[str]:
    return set(script_revisions())


def _set_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def make_engine(path: Path, *, read_only: bool = False) -> Engine:
    url = f"sqlite:///file:{path.resolve()}?mode=ro&uri=true" if read_only else f"sqlite:///{path}"
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
    event.listen(engine, "connect", _set_read_only_pragmas if read_only else _set_pragmas)
    return engine


def _set_read_only_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA query_only=ON")
    cursor.close()


_KEPT = "xq_kept_reads"


def _refuse_writes_while_reading(*_args: object) -> None:
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

    _reading: threading.local = field(default_factory=threading.local, init=False, repr=False)

    def __post_init__(self) -> None:
        self._factory = sessionmaker(self.engine, expire_on_commit=False)

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
        """One session per arbiter action: committed on success, rolled back as a whole on error."""
        session = self._factory()
        if self._kept is not None:
            session.info[_KEPT] = self._kept
            event.listen(session, "before_flush", _refuse_writes_while_reading)
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close every connection and release the lock (idempotent)."""
        self.engine.dispose()
        if self.lock is not None:
            self.lock.release()


def file_revision(path: Path) -> str | None:
    """The schema revision recorded in a file, or None for an empty / new file."""
    try:
        con = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
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
        row = con.execute("SELECT version_num FROM alembic_version").fetchone()
        return None if row is None else str(row[0])
    except sqlite3.DatabaseError as exc:
        raise CorruptFileError(path, f"已损坏或不是赛事文件：{exc}") from None
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


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest revision, in-process."""
    from alembic import command

    cfg = _alembic_config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")


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
    if not path.exists():
        if not create:
            raise DatabaseError(f"找不到文件 {path}", f"file not found: {path}")
        if read_only:
            raise DatabaseError(f"无法以只读方式创建 {path}", f"cannot create {path} read-only")
    elif create:
        raise DatabaseError(f"文件已存在：{path}", f"file already exists: {path}")
    elif path.stat().st_size == 0:
        raise DatabaseError(
            f"{path.name} 是空文件，不是赛事文件", f"{path.name} is empty, not a tournament file"
        )
    lock = None if read_only else TournamentLock.acquire(path, take_over=take_over)
    try:
        if not create:
            _check_existing(path, read_only=read_only)
        engine = make_engine(path, read_only=read_only)
        if not read_only and (create or file_revision(path) != head_revision()):
            upgrade(engine)  # a new file, or one older than the program
    except BaseException:
        if lock is not None:
            lock.release()
        raise
    return Database(path=path, engine=engine, read_only=read_only, lock=lock)


def _check_existing(path: Path, *, read_only: bool) -> None:
    try:
        if check_version(path) is None:
            raise DatabaseError(f"{path.name} 不是象棋赛事文件", f"{path.name} is not a tournament file")
        problems = integrity_problems(path, quick=read_only, writable=not read_only)
        if problems:
            raise CorruptFileError(path, "；".join(problems[:3]))
    except CorruptFileError as exc:
        raise CorruptFileError(path, exc.problem, newest_good_backup(path, known_revisions())) from None
