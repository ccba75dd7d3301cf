"""One writer per tournament file: the lock file, read-only fallback, stale locks taken over."""

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from app.db.lock import FileLockedError, StaleLockError, lock_path, pid_alive, read_holder
from app.db.session import open_database

HOLD = """
import sys, time
from app.db.session import open_database
db = open_database(sys.argv[1])
print("locked", flush=True)
sys.stdin.readline()
db.close()
print("released", flush=True)
"""


def _dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    pid = int(done.stdout)
    assert not pid_alive(pid)
    return pid


def _new_file(tmp_path: Path) -> Path:
    path = tmp_path / "t.xqt"
    open_database(path, create=True).close()
    return path


def test_lock_file_records_this_process_and_is_removed_on_close(tmp_path: Path) -> None:
    path = tmp_path / "t.xqt"
    db = open_database(path, create=True)
    holder = read_holder(path)
    assert holder is not None
    assert (holder.pid, holder.host, holder.program) == (os.getpid(), socket.gethostname(), "xqarbiter")
    db.close()
    assert not lock_path(path).exists()
    db.close()  # closing twice is harmless


def test_second_open_for_writing_in_the_same_process_is_refused(tmp_path: Path) -> None:
    path = _new_file(tmp_path)
    db = open_database(path)
    with pytest.raises(FileLockedError, match="只读"):
        open_database(path)
    viewer = open_database(path, read_only=True)
    assert viewer.read_only and viewer.lock is None
    db.close()
    viewer.close()


def test_another_instance_holding_the_file_refuses_writing_but_allows_reading(tmp_path: Path) -> None:
    path = _new_file(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        assert proc.stdout.readline().strip() == "locked"
        with pytest.raises(FileLockedError) as caught:
            open_database(path, take_over=True)  # a live holder is never taken over
        assert caught.value.holder is not None and caught.value.holder.pid == proc.pid
        viewer = open_database(path, read_only=True)
        with viewer.engine.connect() as c:
            assert c.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
            with pytest.raises(Exception, match=r"readonly|read-only|query_only"):
                c.execute(text("DELETE FROM alembic_version"))
        viewer.close()
        proc.stdin.write("\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "released"
    finally:
        proc.wait(timeout=10)
    open_database(path).close()  # free again


def _write_lock(path: Path, pid: int, host: str | None = None) -> None:
    lock_path(path).write_text(
        json.dumps(
            {
                "pid": pid,
                "host": host or socket.gethostname(),
                "time": "2024-07-26T09:00:00",
                "program": "xqarbiter",
                "version": "0.1.0",
            }
        ),
        encoding="utf-8",
    )


def test_stale_lock_of_a_crashed_instance_is_reported_then_taken_over(tmp_path: Path) -> None:
    path = _new_file(tmp_path)
    dead = _dead_pid()
    _write_lock(path, dead)
    with pytest.raises(StaleLockError, match=str(dead)):
        open_database(path)
    assert read_holder(path).pid == dead  # refused without touching the lock
    db = open_database(path, take_over=True)
    assert read_holder(path).pid == os.getpid()
    db.close()
    assert not lock_path(path).exists()


def test_unreadable_lock_counts_as_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.db import lock

    assert lock.CREATION_GRACE_SECONDS == 2.0  # an empty lock this young may be being written: waited for
    monkeypatch.setattr(lock, "CREATION_GRACE_SECONDS", 0.2)  # here 0.2 s
    path = _new_file(tmp_path)
    lock_path(path).write_bytes(b"")  # a crash between creating and writing the lock
    with pytest.raises(StaleLockError):
        open_database(path)
    open_database(path, take_over=True).close()


def test_lock_from_another_host_is_not_guessed_stale(tmp_path: Path) -> None:
    path = _new_file(tmp_path)
    _write_lock(path, 4242, host="another-laptop")
    with pytest.raises(FileLockedError, match="another-laptop"):
        open_database(path)
    open_database(path, take_over=True).close()


def test_lock_left_by_an_unclosed_database_of_this_process_is_taken_over(tmp_path: Path) -> None:
    path = _new_file(tmp_path)
    db = open_database(path)
    db.engine.dispose()
    del db  # dropped without close(): its lock object is gone with it
    import gc

    gc.collect()
    open_database(path).close()


def test_failed_open_leaves_no_lock(tmp_path: Path) -> None:
    path = tmp_path / "bad.xqt"
    path.write_bytes(b"not a database" * 100)
    with pytest.raises(Exception, match="损坏"):
        open_database(path)
    assert not lock_path(path).exists()


def test_pid_alive() -> None:
    assert pid_alive(os.getpid())
    assert not pid_alive(_dead_pid())
    assert not pid_alive(0)
