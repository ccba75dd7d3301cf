"""Writing files safely, and saying in the arbiter's words why the file system refused.

Every output the program writes (PDF, workbook, PGN, TRF, snapshot, audit export, HTML pages, the
registration form) goes through :func:`write_atomic`: the bytes go to a temporary file in the target's
folder, are flushed to the disk, and only then replace the target in one rename. A failure — a full
disk, a read-only folder, a target that is a folder — leaves the target as it was (absent or the old
file) and no temporary file behind, and is reported as a :class:`FileWriteError` naming the path and
the cause in Chinese and English.

Used by every layer that writes files (``app.reports``, ``app.services``, ``app.cli``), so it imports
nothing of the program but :class:`app.engine.types.UserError`.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from app.engine.types import UserError

#: errno values that mean "no room left" (a full disk, a quota, a file-size limit such as ``ulimit -f``)
DISK_FULL_ERRNOS = frozenset(
    code for code in (errno.ENOSPC, getattr(errno, "EDQUOT", None), errno.EFBIG) if code is not None
)
# SQLite's errors when a write is refused: SQLITE_FULL for a full disk; a file-size limit (``ulimit -f``)
# or a full disk while growing the shared-memory index shows as one of these I/O errors
_SQLITE_WRITE_ERRORS = frozenset(
    {
        "SQLITE_IOERR_WRITE",
        "SQLITE_IOERR_SHMSIZE",
        "SQLITE_IOERR_SHMOPEN",
        "SQLITE_IOERR_TRUNCATE",
        "SQLITE_IOERR_FSYNC",
        "SQLITE_IOERR",
    }
)
#: below this much free space a refused write is reported as a full disk
NEARLY_FULL_BYTES = 64 * 1024 * 1024


class FileWriteError(UserError):
    """A file could not be written (nothing was changed)."""


class DiskFullError(FileWriteError):
    """The disk (or the allowed file size) is full: nothing was changed."""

    def __init__(self, path: Path | str | None = None) -> None:
        where_zh = f"，无法写入 {Path(path).name}" if path else ""
        where_en = f": cannot write {Path(path).name}" if path else ""
        super().__init__(
            f"磁盘已满{where_zh}；没有做任何修改。请腾出磁盘空间（或换一个磁盘）后重试",
            f"disk full{where_en}; nothing was changed. Free some disk space (or use another disk) and retry",
        )


def is_disk_full(exc: BaseException, where: Path | str | None = None) -> bool:
    """Whether an OS or SQLite error means the disk (or the allowed file size) is full.

    SQLite reports a write refused by a file-size limit as an I/O error, as it does a failing disk:
    such an error counts as "full" only when the disk beside ``where`` is nearly full or a file-size
    limit is in force.
    """
    if isinstance(exc, OSError) and exc.errno in DISK_FULL_ERRNOS:
        return True
    if not isinstance(exc, sqlite3.Error):
        return False
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name == "SQLITE_FULL" or "database or disk is full" in str(exc).lower():
        return True
    if name in _SQLITE_WRITE_ERRORS or (not name and "disk i/o error" in str(exc).lower()):
        return _space_is_short(where)
    return False


def _space_is_short(where: Path | str | None) -> bool:
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        if soft != resource.RLIM_INFINITY:
            return True
    except (ImportError, OSError, ValueError):  # Windows has no resource module
        pass
    if where is None:
        return False
    folder = Path(where)
    if not folder.is_dir():
        folder = folder.parent
    try:
        import shutil

        return shutil.disk_usage(folder).free < NEARLY_FULL_BYTES
    except OSError:
        return False


def os_error(exc: OSError, path: Path | str, *, reading: bool | None = False) -> UserError:
    """The two-language message for an OS error on ``path`` (disk full gets :class:`DiskFullError`);
    ``reading=None`` when it is not known whether the path was read or written."""
    if exc.errno in DISK_FULL_ERRNOS and reading is not True:
        return DiskFullError(path)
    path = Path(path)
    verb_zh, verb_en = {True: ("读取", "read"), False: ("写入", "write"), None: ("访问", "access")}[reading]
    cause_zh, cause_en = {
        errno.EACCES: (
            "没有权限（文件或文件夹只读，或被其他程序占用）",
            "permission denied (read-only or in use)",
        ),
        errno.EPERM: ("没有权限", "operation not permitted"),
        errno.EROFS: ("磁盘是只读的", "the disk is read-only"),
        errno.ENOENT: ("文件或文件夹不存在", "no such file or folder"),
        errno.ENOTDIR: ("路径中有一段不是文件夹", "a part of the path is not a folder"),
        errno.EISDIR: ("这是一个文件夹，不是文件", "it is a folder, not a file"),
        errno.ENAMETOOLONG: ("文件名过长", "the file name is too long"),
        errno.EEXIST: ("已存在同名文件", "a file of that name exists"),
        errno.EINVAL: ("文件名无效", "invalid file name"),
    }.get(exc.errno or 0, (exc.strerror or str(exc), exc.strerror or str(exc)))
    return FileWriteError(f"无法{verb_zh} {path}：{cause_zh}", f"cannot {verb_en} {path}: {cause_en}")


# --------------------------------------------------------------------------- the open tournament files

#: what SQLite and the program keep beside a tournament file ``FILE`` while it is open
COMPANION_SUFFIXES = ("", "-wal", "-shm", "-journal", ".lock")
_live: dict[str, int] = {}  # real path of each tournament file this process has open → how many times
_live_guard = threading.Lock()


def _real(path: Path | str) -> str:
    return os.path.normcase(os.path.realpath(os.fspath(path)))


def hold_live(path: Path | str) -> str:
    """Note that this process has the tournament file ``path`` open through SQLite (until
    :func:`release_live` with the returned key). While it is, no code of this process may open the file
    or its companions other than through SQLite: on POSIX, closing any descriptor of a file drops every
    lock the process holds on it — SQLite's included (docs/file-safety.md). :func:`refuse_live` is
    the guard every input and output path of the program goes through."""
    key = _real(path)
    with _live_guard:
        _live[key] = _live.get(key, 0) + 1
    return key


def release_live(key: str) -> None:
    with _live_guard:
        left = _live.get(key, 0) - 1
        if left > 0:
            _live[key] = left
        else:
            _live.pop(key, None)


def live_file_of(path: Path | str) -> Path | None:
    """The open tournament file of this process that ``path`` is (or is a companion of:
    ``-wal``, ``-shm``, ``-journal``, ``.lock``), or None."""
    with _live_guard:
        live = list(_live)
    if not live:
        return None
    real = _real(path)
    for key in live:
        if any(real == key + suffix for suffix in COMPANION_SUFFIXES):
            return Path(key)
    try:  # the same file under another name (a hard link)
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    for key in live:
        try:
            if os.path.samestat(st, os.stat(key)):
                return Path(key)
        except OSError:
            continue
    return None


def refuse_live(path: Path | str, *, writing: bool) -> None:
    """Refuse to read or write one of the open tournament's own files as an ordinary file."""
    live = live_file_of(path)
    if live is None:
        return
    name = Path(path).name
    if writing:
        raise FileWriteError(
            f"{name} 是正在使用的赛事文件 {live.name}（或其附属文件），不能写入或覆盖；请换一个文件名",
            f"{name} is the open tournament file {live.name} (or one of its companions); it is not "
            "written over: choose another name",
        )
    raise UserError(
        f"{name} 是正在使用的赛事文件 {live.name}（或其附属文件），不能作为输入文件读取",
        f"{name} is the open tournament file {live.name} (or one of its companions); it is not read "
        "as an input file",
    )


def check_output_path(path: Path | str) -> Path:
    """Refuse, before any work, an output path that cannot be written: a folder, a missing folder,
    the open tournament file or one of its companions."""
    if not str(path).strip() or str(path) == ".":
        raise FileWriteError("没有给出输出文件名", "no output file name was given")
    if "\x00" in str(path):
        raise FileWriteError("文件名中含有 NUL 字符", "the file name contains a NUL character")
    refuse_live(path, writing=True)
    path = Path(path)
    if path.exists() and not path.is_dir() and not os.access(path, os.W_OK):
        raise FileWriteError(f"{path} 是只读文件，不能覆盖", f"{path} is read-only; it is not overwritten")
    if path.is_dir():
        raise FileWriteError(
            f"{path} 是一个文件夹，请给出文件名（例如 {path / ('输出' + (path.suffix or '.pdf'))}）",
            f"{path} is a folder; give a file name inside it",
        )
    parent = path.parent
    if not parent.exists():
        raise FileWriteError(f"文件夹 {parent} 不存在", f"the folder {parent} does not exist")
    if not parent.is_dir():
        raise FileWriteError(f"{parent} 不是文件夹", f"{parent} is not a folder")
    return path


@contextmanager
def atomic_output(path: Path | str, *, private: bool = False) -> Iterator[BinaryIO]:
    """A binary file object whose content replaces ``path`` only when the block ends without error.

    ``private``: the file is readable by its owner only (it holds personal numbers).
    """
    path = check_output_path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    except OSError as exc:
        raise os_error(exc, path) from None
    tmp_path = Path(tmp)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        if not private:
            os.chmod(tmp_path, 0o644 & ~_umask())
        os.replace(tmp_path, path)
    except OSError as exc:
        tmp_path.unlink(missing_ok=True)
        raise os_error(exc, path) from None
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise


def write_atomic(path: Path | str, data: bytes | str, *, private: bool = False) -> Path:
    """Write ``data`` (text is written as UTF-8) to ``path`` all at once or not at all."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_output(path, private=private) as f:
        f.write(raw)
    return Path(path)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def read_limited(path: Path | str, limit: int, *, what_zh: str, what_en: str) -> bytes:
    """The bytes of an input file, refused cleanly when missing, unreadable or larger than ``limit``."""
    path = Path(path)
    refuse_live(path, writing=False)
    try:
        if path.is_dir():
            raise UserError(f"{path} 是文件夹，不是{what_zh}", f"{path} is a folder, not a {what_en}")
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):  # a FIFO, a device, a socket: reading could wait for ever
            raise UserError(
                f"{path} 不是普通文件，不能作为{what_zh}读取",
                f"{path} is not a regular file; it cannot be read as a {what_en}",
            )
        size = info.st_size
        if size > limit:
            raise UserError(
                f"{what_zh} {path.name} 过大（{size:,} 字节，最多 {limit:,}）",
                f"the {what_en} {path.name} is too large ({size:,} bytes, at most {limit:,})",
            )
        with open(path, "rb") as f:
            return f.read(limit + 1)[:limit]
    except FileNotFoundError:
        raise UserError(f"找不到{what_zh} {path}", f"{what_en} not found: {path}") from None
    except OSError as exc:
        raise os_error(exc, path, reading=True) from None


__all__ = [
    "COMPANION_SUFFIXES",
    "DiskFullError",
    "FileWriteError",
    "atomic_output",
    "check_output_path",
    "hold_live",
    "is_disk_full",
    "live_file_of",
    "os_error",
    "read_limited",
    "refuse_live",
    "release_live",
    "write_atomic",
]
