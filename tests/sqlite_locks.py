"""Which process holds SQLite's POSIX locks on a tournament file, seen from another process.

SQLite (unix VFS) keeps, for every open connection in WAL mode, a SHARED read lock on the database
file's lock range (``PENDING_BYTE + 2``, 510 bytes) and a read lock on byte 128 of ``FILE-shm`` (the
"dead man switch": while anybody holds it, nobody rebuilds the index). ``fcntl(F_GETLK)`` asks the
kernel who would block a write lock on those bytes. POSIX locks belong to a process, so this must run
in *another* process than the one being looked at: :func:`holders` starts one.

Run as a script: ``python -m tests.sqlite_locks FILE`` prints ``{"file_shared": pid|null,
"shm_dms": pid|null}``.
"""

from __future__ import annotations

import fcntl
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

PENDING_BYTE = 0x40000000
SHARED_FIRST = PENDING_BYTE + 2
SHARED_SIZE = 510
SHM_DMS = 128
_FLOCK = "hhxxxxqqixxxx"  # struct flock on 64-bit Linux: type, whence, start, len, pid


def _reader_of(path: str, start: int, length: int) -> int | None:
    """The pid of a process holding a lock that would block a write lock on the bytes, or None."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        request = struct.pack(_FLOCK, fcntl.F_WRLCK, os.SEEK_SET, start, length, 0)
        kind, _whence, _start, _length, pid = struct.unpack(_FLOCK, fcntl.fcntl(fd, fcntl.F_GETLK, request))
    finally:
        os.close(fd)
    return None if kind == fcntl.F_UNLCK else pid


def look(path: str) -> dict[str, int | None]:
    """In this process: who holds the SHARED lock on FILE and the lock on byte 128 of FILE-shm."""
    return {
        "file_shared": _reader_of(path, SHARED_FIRST, SHARED_SIZE),
        "shm_dms": _reader_of(path + "-shm", SHM_DMS, 1),
    }


def holders(path: Path | str) -> dict[str, int | None]:
    """:func:`look`, run in a child process (the caller's own locks would be invisible to it)."""
    out = subprocess.run(
        [sys.executable, "-m", "tests.sqlite_locks", str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
        timeout=30,
    )
    result: dict[str, int | None] = json.loads(out.stdout)
    return result


def held_by(path: Path | str, pid: int) -> dict[str, bool]:
    """Whether process ``pid`` holds SQLite's read lock on FILE's lock range and on byte 128 of
    FILE-shm, read from ``/proc/locks`` (Linux), which lists every process's locks — unlike
    ``F_GETLK``, which names one holder only when several readers hold the same bytes."""
    wanted = {"file_shared": (Path(path), SHARED_FIRST), "shm_dms": (Path(str(path) + "-shm"), SHM_DMS)}
    inodes: dict[str, str] = {}
    for key, (file, _start) in wanted.items():
        try:
            st = os.stat(file)
            inodes[key] = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
        except FileNotFoundError:
            inodes[key] = "-"
    found = dict.fromkeys(wanted, False)
    for line in Path("/proc/locks").read_text().splitlines():
        parts = line.split()
        if "->" in parts:  # a request waiting for a lock, not a lock held
            continue
        if len(parts) < 8 or parts[1] != "POSIX" or int(parts[4]) != pid:
            continue
        inode, start = parts[5], int(parts[6])
        end = parts[7]
        for key, (_file, first) in wanted.items():
            if inode == inodes[key] and start <= first and (end == "EOF" or int(end) >= first):
                found[key] = True
    return found


if __name__ == "__main__":
    print(json.dumps(look(sys.argv[1])))
