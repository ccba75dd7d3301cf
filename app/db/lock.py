"""One writer per tournament file: the lock file ``FILE.lock`` beside ``FILE``, held with an OS lock.

The lock file holds a small JSON object ``{"pid", "host", "time", "program", "version"}`` (for the
messages) and, for as long as the writer runs, an operating-system lock on it (``flock`` on POSIX,
``msvcrt.locking`` on Windows). The OS lock is what decides: the system releases it when the writer
exits or is killed, so a lock file whose OS lock is free was left by an instance that is gone — it is
*stale* and may be taken over with ``take_over=True`` (the caller logs that). A lock whose OS lock is
held belongs to a running instance and is never taken over; the file can be opened read-only.

Creating the lock is atomic: the JSON is written to a temporary file, flushed, OS-locked, and then
linked to ``FILE.lock`` in one step (``link`` fails if the name exists), so nobody ever sees an empty
or unlocked new lock. Where a file system has no hard links (FAT/exFAT sticks) and on Windows, the lock
file is created exclusively and OS-locked at once; a reader that finds it empty or with a live holder
but no OS lock waits a moment, since it may be in the middle of being created. Taking over happens
while holding the OS lock, so two instances racing to take over a stale lock cannot both win.

A lock written by another host cannot be checked (OS locks do not cross machines on every shared
drive); it may be taken over explicitly, since a tournament file on a shared drive is the arbiter's
call. Within one process, a lock left by a :class:`TournamentLock` that was dropped without being
released (a ``Database`` garbage-collected unclosed) is taken over silently.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
import tempfile
import time
import weakref
from datetime import datetime
from pathlib import Path

from app.engine.records import frozen
from app.engine.types import UserError
from app.files import DISK_FULL_ERRNOS, DiskFullError, os_error

PROGRAM = "xqarbiter"
#: how long a new lock may look unfinished (empty, or not yet OS-locked) before it counts as stale
CREATION_GRACE_SECONDS = 2.0
#: how long to keep trying the OS lock of a lock file another instance is merely checking
CHECK_SECONDS = 0.1
_WINDOWS = sys.platform == "win32"
_WINDOWS_LOCK_OFFSET = 1 << 30  # lock a byte far past the JSON, so that the JSON stays readable


def program_version() -> str:
    """The program's version (``app.__version__``: reading the package metadata costs ~0.05 s)."""
    from app import __version__

    return __version__


def host_name() -> str:
    """This computer's name, as :func:`socket.gethostname` gives it — from :func:`os.uname` where
    there is one (the same system call; importing :mod:`socket` costs a short command ~3 ms)."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket  # pragma: no cover - Windows

    return socket.gethostname()  # pragma: no cover - Windows


def lock_path(path: Path) -> Path:
    """``t.xqt`` → ``t.xqt.lock``."""
    return path.with_name(path.name + ".lock")


@frozen
class LockHolder:
    pid: int
    host: str
    time: str
    program: str
    version: str

    @property
    def on_this_host(self) -> bool:
        return self.host == host_name()

    def describe(self) -> str:
        return f"{self.host} 进程 {self.pid}，{self.time} 起（{self.program} {self.version}）"

    def describe_en(self) -> str:
        return f"process {self.pid} on {self.host}, since {self.time} ({self.program} {self.version})"


class FileLockedError(UserError):
    """Another live instance has the file open for writing."""

    def __init__(self, path: Path, holder: LockHolder | None) -> None:
        self.path = path
        self.holder = holder
        who = holder.describe() if holder else "未知程序"
        who_en = holder.describe_en() if holder else "an unknown program"
        super().__init__(
            f"{path.name} 正由另一个程序实例编辑（{who}）。可以只读方式打开；"
            f"确认对方已退出后才可接管（删除 {lock_path(path).name}）",
            f"{path.name} is open for writing in another instance ({who_en}); it can be opened read-only",
        )


class StaleLockError(UserError):
    """The lock was left by an instance that is no longer running: it may be taken over."""

    def __init__(self, path: Path, holder: LockHolder | None) -> None:
        self.path = path
        self.holder = holder
        who = holder.describe() if holder else "内容无法读取"
        who_en = holder.describe_en() if holder else "unreadable"
        super().__init__(
            f"{path.name} 上次未正常关闭（锁文件：{who}，该进程已不存在）。可接管后继续编辑"
            "（命令行加 --take-over）",
            f"{path.name} was not closed properly (lock: {who_en}, that process is gone); it can be taken "
            "over (add --take-over on the command line)",
        )


def pid_alive(pid: int) -> bool:
    """Whether a process with this id runs on this machine (POSIX: signal 0; Windows: OpenProcess)."""
    if pid <= 0:
        return False
    if _WINDOWS:  # pragma: no cover - exercised on Windows only
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        process_query_limited_information = 0x1000
        still_active = 259
        handle = kernel32.OpenProcess(process_query_limited_information, False, pid)
        if not handle:
            return bool(kernel32.GetLastError() == 5)  # access denied: it exists
        try:
            code = ctypes.c_ulong()
            if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
                return True
            return bool(code.value == still_active)
        finally:
            kernel32.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OverflowError:
        return False
    return True


def _holder_from(raw: bytes) -> LockHolder | None:
    try:
        data = json.loads(raw.decode("utf-8"))
        return LockHolder(
            int(data["pid"]), str(data["host"]), str(data["time"]), str(data["program"]), str(data["version"])
        )
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError):
        return None


def read_holder(path: Path) -> LockHolder | None:
    """The holder recorded in ``FILE.lock``, or None when it is missing or unreadable.

    When this process holds the lock it reads its own descriptor: opening and closing the lock file
    again would drop the lock where ``flock`` is emulated with POSIX locks (NFS), which belong to the
    process (docs/file-safety.md)."""
    mine = _held_here(path)
    if mine is not None:
        return mine.holder()
    try:
        with open(lock_path(path), "rb") as f:
            return _holder_from(f.read(4096))
    except OSError:
        return None


# --------------------------------------------------------------------------- the OS lock


def _os_lock(fd: int) -> bool | None:
    """Try to take the OS lock of an open lock file without waiting: True when taken, False when
    another instance holds it, None when the file system has no OS locks (then the pid decides)."""
    if _WINDOWS:  # pragma: no cover - exercised on Windows only
        import msvcrt

        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        return None  # ENOLCK, EOPNOTSUPP …: this file system cannot lock
    return True


def _os_unlock(fd: int) -> None:
    if _WINDOWS:  # pragma: no cover - exercised on Windows only
        import msvcrt

        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
        return
    import fcntl

    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_UN)


def _os_lock_within(fd: int, seconds: float) -> bool | None:
    """The OS lock, trying for a short while (another instance may be checking the same file)."""
    end = time.monotonic() + seconds
    while True:
        got = _os_lock(fd)
        if got is not False:
            return got
        if time.monotonic() >= end:
            return False
        time.sleep(0.01)


def lock_in_use(path: Path) -> bool:
    """Whether a running instance holds ``FILE.lock`` now (False when there is no lock file)."""
    if _held_here(path) is not None:
        return True  # this process: known without opening the lock file (see read_holder)
    try:
        fd = os.open(lock_path(path), os.O_RDONLY if not _WINDOWS else os.O_RDWR)
    except OSError:
        return False
    try:
        got = _os_lock_within(fd, CHECK_SECONDS)
        if got is None:  # no OS locks here: the recorded process decides
            holder = read_holder(path)
            return holder is not None and holder.on_this_host and pid_alive(holder.pid)
        if got:
            _os_unlock(fd)
            return False
        return True
    finally:
        os.close(fd)


def _read_fd(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    return os.read(fd, 4096)


def _same_file(fd: int, path: Path) -> bool:
    """Whether the open lock file is still the one named ``path`` (not removed or replaced meanwhile)."""
    try:
        now = os.stat(path)
    except OSError:
        return False
    mine = os.fstat(fd)
    return (mine.st_dev, mine.st_ino) == (now.st_dev, now.st_ino)


# locks held by live TournamentLock objects of this process, by lock-file path
_held: weakref.WeakValueDictionary[str, TournamentLock] = weakref.WeakValueDictionary()


def held_by_this_process(path: Path) -> bool:
    """Whether this process holds the lock of ``path`` (a live :class:`TournamentLock`)."""
    return _held_here(path) is not None


def _held_here(path: Path) -> TournamentLock | None:
    """The lock of ``path`` this process holds, if it does."""
    try:
        key = str(lock_path(Path(path)).resolve())
    except (OSError, RuntimeError):
        return None
    lock = _held.get(key)
    return lock if lock is not None and lock.held and lock._fd is not None else None


class TournamentLock:
    """The lock on one tournament file, held by this process until :meth:`release`.

    ``taken_over`` is True when a stale lock of a crashed instance was taken over (``stale_holder``
    is what it recorded, None when unreadable): the caller writes that to the audit log.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file = lock_path(path)
        self.held = False
        self.taken_over = False
        self.stale_holder: LockHolder | None = None
        self._fd: int | None = None

    @classmethod
    def acquire(cls, path: Path, *, take_over: bool = False) -> TournamentLock:
        lock = cls(path)
        lock._acquire(take_over)
        return lock

    def _key(self) -> str:
        return str(self.file.resolve())

    def _content(self) -> bytes:
        holder = {
            "pid": os.getpid(),
            "host": host_name(),
            "time": datetime.now().isoformat(timespec="seconds"),
            "program": PROGRAM,
            "version": program_version(),
        }
        return json.dumps(holder).encode("utf-8")

    def _acquire(self, take_over: bool) -> None:
        if self._key() in _held:
            raise FileLockedError(self.path, read_holder(self.path))  # this process already has it open
        deadline = time.monotonic() + CREATION_GRACE_SECONDS
        while True:
            fd = self._open_existing()
            if fd is None:
                if self._create():
                    break
                continue  # another instance created it meanwhile: look at theirs
            if self._judge(fd, take_over, deadline):
                break
        self.held = True
        _held[self._key()] = self

    def _open_existing(self) -> int | None:
        try:
            return os.open(self.file, os.O_RDWR)
        except FileNotFoundError:
            return None
        except PermissionError:
            try:
                return os.open(self.file, os.O_RDONLY)  # enough to see whether it is held
            except OSError as exc:
                raise os_error(exc, self.file, reading=True) from None
        except OSError as exc:
            raise os_error(exc, self.file, reading=True) from None

    def _create(self) -> bool:
        """Create the lock file atomically, already filled and OS-locked; False if it appeared meanwhile."""
        content = self._content()
        if not _WINDOWS:
            try:
                fd, tmp = tempfile.mkstemp(dir=self.file.parent, prefix=f".{self.file.name}.", suffix=".tmp")
            except OSError as exc:
                raise os_error(exc, self.file) from None
            try:
                try:
                    os.write(fd, content)
                    os.fsync(fd)
                    os.fchmod(fd, 0o644)
                    _os_lock(fd)  # a new file nobody else knows: always free
                    os.link(tmp, self.file)
                except FileExistsError:
                    os.close(fd)
                    return False
                except OSError as exc:
                    if exc.errno in DISK_FULL_ERRNOS or exc.errno not in (
                        errno.EPERM,
                        errno.ENOTSUP,
                        errno.EXDEV,
                    ):
                        os.close(fd)
                        raise os_error(exc, self.file) from None
                    os.close(fd)  # no hard links on this file system: exclusive creation below
                    return self._create_exclusive(content)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            self._fd = fd
            return True
        return self._create_exclusive(content)

    def _create_exclusive(self, content: bytes) -> bool:
        try:
            fd = os.open(self.file, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o644)
        except FileExistsError:
            return False
        except OSError as exc:
            raise os_error(exc, self.file) from None
        try:
            _os_lock(fd)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, content)
            os.fsync(fd)
        except OSError as exc:
            _os_unlock(fd)
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(self.file)
            raise (
                DiskFullError(self.file) if exc.errno in DISK_FULL_ERRNOS else os_error(exc, self.file)
            ) from None
        self._fd = fd
        return True

    def _judge(self, fd: int, take_over: bool, deadline: float) -> bool:
        """Look at an existing lock file; True when it is now ours, False to look again."""
        keep = False
        try:
            got = _os_lock_within(fd, CHECK_SECONDS)
            if got is False:
                raise FileLockedError(self.path, read_holder(self.path))  # a running instance holds it
            if not _same_file(fd, self.file):
                return False  # released and removed (or replaced) while we waited: start again
            holder = _holder_from(_read_fd(fd))
            own = holder is not None and holder.on_this_host and holder.pid == os.getpid()
            alive = holder is not None and holder.on_this_host and not own and pid_alive(holder.pid)
            if got is None and alive:
                raise FileLockedError(self.path, holder)  # no OS locks on this drive: trust the pid
            unfinished = holder is None or alive
            if unfinished and time.monotonic() < deadline and self._young():
                # empty, or a live holder without its OS lock yet: it may be being created right now
                time.sleep(0.05)
                return False
            if not own:
                if holder is not None and not holder.on_this_host and not take_over:
                    raise FileLockedError(self.path, holder)
                if not take_over:
                    raise StaleLockError(self.path, holder)
                self.taken_over, self.stale_holder = True, holder
            content = self._content()
            try:
                os.lseek(fd, 0, os.SEEK_SET)
                os.write(fd, content)
                os.ftruncate(fd, len(content))
                os.fsync(fd)
            except OSError as exc:
                raise os_error(exc, self.file) from None
            self._fd = fd
            keep = True
            return True
        finally:
            if not keep:
                _os_unlock(fd)
                os.close(fd)

    def holder(self) -> LockHolder | None:
        """What this lock records, read from its own descriptor."""
        if self._fd is None:
            return None
        try:
            return _holder_from(_read_fd(self._fd))
        except OSError:
            return None

    def _young(self) -> bool:
        try:
            return time.time() - self.file.stat().st_mtime < CREATION_GRACE_SECONDS
        except OSError:
            return False

    def release(self) -> None:
        """Remove the lock file if it is still ours, and let go of the OS lock."""
        if not self.held:
            return
        self.held = False
        _held.pop(self._key(), None)
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            holder = _holder_from(_read_fd(fd))
            ours = (
                holder is not None
                and holder.pid == os.getpid()
                and holder.on_this_host
                and _same_file(fd, self.file)
            )
        except OSError:
            ours = False
        if _WINDOWS:  # pragma: no cover - an open file cannot be removed there
            _os_unlock(fd)
            os.close(fd)
            if ours:
                with contextlib.suppress(OSError):
                    os.unlink(self.file)
            return
        if ours:
            with contextlib.suppress(OSError):
                os.unlink(self.file)  # removed while still OS-locked: nobody can judge it stale meanwhile
        os.close(fd)

    def __del__(self) -> None:
        # dropped without release (a Database garbage-collected unclosed): the OS lock goes with the
        # descriptor, the file stays (this process takes it over silently next time)
        fd, self._fd = getattr(self, "_fd", None), None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
