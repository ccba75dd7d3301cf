"""One writer per tournament file: the lock file ``FILE.lock`` beside ``FILE``.

The lock file is created with ``O_CREAT | O_EXCL`` (atomic on every platform, Windows included) and
holds a small JSON object: ``{"pid", "host", "time", "program", "version"}``. A second instance that
finds it refuses to open the file for writing (it may open it read-only). A lock whose process is no
longer alive on this host is *stale* (the program crashed or the power went): it is reported as such
and may be taken over with ``take_over=True``. A lock written by another host cannot be checked; it
may be taken over explicitly too, since a tournament file on a shared drive is the arbiter's call.

Within one process a lock left by a :class:`TournamentLock` that was dropped without being released
(a ``Database`` that was garbage-collected unclosed) is taken over silently: the process itself is
the only writer.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import weakref
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from app.engine.types import UserError

PROGRAM = "xqarbiter"


def program_version() -> str:
    try:
        from importlib.metadata import version

        return version("xqarbiter")
    except Exception:  # not installed (frozen build without metadata)
        return "0.1.0"


def lock_path(path: Path) -> Path:
    """``t.xqt`` → ``t.xqt.lock``."""
    return path.with_name(path.name + ".lock")


@dataclass(frozen=True, slots=True)
class LockHolder:
    pid: int
    host: str
    time: str
    program: str
    version: str

    @property
    def on_this_host(self) -> bool:
        return self.host == socket.gethostname()

    def describe(self) -> str:
        return f"{self.host} 进程 {self.pid}，{self.time} 起（{self.program} {self.version}）"


class FileLockedError(UserError):
    """Another live instance has the file open for writing."""

    def __init__(self, path: Path, holder: LockHolder | None) -> None:
        self.path = path
        self.holder = holder
        who = holder.describe() if holder else "未知程序"
        super().__init__(
            f"{path.name} 正由另一个程序实例编辑（{who}）。可以只读方式打开；"
            f"确认对方已退出后才可接管（删除 {lock_path(path).name}）",
            f"{path.name} is open for writing in another instance ({who}); it can be opened read-only",
        )


class StaleLockError(UserError):
    """The lock was left by an instance that is no longer running: it may be taken over."""

    def __init__(self, path: Path, holder: LockHolder | None) -> None:
        self.path = path
        self.holder = holder
        who = holder.describe() if holder else "内容无法读取"
        super().__init__(
            f"{path.name} 上次未正常关闭（锁文件：{who}，该进程已不存在）。可接管后继续编辑",
            f"{path.name} was not closed properly (lock: {who}, that process is gone); it can be taken over",
        )


def pid_alive(pid: int) -> bool:
    """Whether a process with this id runs on this machine (POSIX: signal 0; Windows: OpenProcess)."""
    if pid <= 0:
        return False
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        process_query_limited_information = 0x1000
        still_active = 259
        handle = kernel32.OpenProcess(process_query_limited_information, False, pid)
        if not handle:
            return kernel32.GetLastError() == 5  # access denied: it exists
        try:
            code = ctypes.c_ulong()
            if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
                return True
            return code.value == still_active
        finally:
            kernel32.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def read_holder(path: Path) -> LockHolder | None:
    """The holder recorded in ``FILE.lock``, or None when it is unreadable (a crash mid-write)."""
    try:
        data = json.loads(lock_path(path).read_text(encoding="utf-8"))
        return LockHolder(
            int(data["pid"]), str(data["host"]), str(data["time"]), str(data["program"]), str(data["version"])
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


# locks held by live TournamentLock objects of this process, by lock-file path
_held: weakref.WeakValueDictionary[str, TournamentLock] = weakref.WeakValueDictionary()


class TournamentLock:
    """The lock on one tournament file, held by this process until :meth:`release`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file = lock_path(path)
        self.held = False

    @classmethod
    def acquire(cls, path: Path, *, take_over: bool = False) -> TournamentLock:
        lock = cls(path)
        lock._acquire(take_over)
        return lock

    def _acquire(self, take_over: bool) -> None:
        for _ in range(3):
            try:
                fd = os.open(self.file, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                self._handle_existing(take_over)
                continue
            try:
                holder = {
                    "pid": os.getpid(),
                    "host": socket.gethostname(),
                    "time": datetime.now().isoformat(timespec="seconds"),
                    "program": PROGRAM,
                    "version": program_version(),
                }
                os.write(fd, json.dumps(holder).encode("utf-8"))
                os.fsync(fd)
            finally:
                os.close(fd)
            self.held = True
            _held[str(self.file.resolve())] = self
            return
        raise FileLockedError(self.path, read_holder(self.path))  # pragma: no cover - lost a race 3 times

    def _handle_existing(self, take_over: bool) -> None:
        holder = read_holder(self.path)
        if holder is not None and holder.on_this_host and holder.pid == os.getpid():
            if str(self.file.resolve()) in _held:
                raise FileLockedError(self.path, holder)  # this process already has it open
            self._remove()  # left by an unclosed Database of this very process
            return
        alive = holder is not None and holder.on_this_host and pid_alive(holder.pid)
        if alive:
            raise FileLockedError(self.path, holder)
        if not take_over:
            if holder is not None and not holder.on_this_host:
                raise FileLockedError(self.path, holder)
            raise StaleLockError(self.path, holder)
        self._remove()

    def _remove(self) -> None:
        self.file.unlink(missing_ok=True)

    def release(self) -> None:
        """Remove the lock file if it is still ours."""
        if not self.held:
            return
        self.held = False
        _held.pop(str(self.file.resolve()), None)
        holder = read_holder(self.path)
        if holder is not None and holder.pid == os.getpid() and holder.on_this_host:
            self._remove()
