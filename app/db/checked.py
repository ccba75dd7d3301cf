"""Files already checked: the content of a tournament file that passed every check on opening, remembered
by its SHA-256 so that opening the same bytes again does not read every value again.

Opening a file checks it (SQLite's ``integrity_check``, or ``quick_check`` for viewing, and
:func:`app.db.integrity.content_problems`: every value of every row) — ~0.3 s for a 5,000-player event,
on every command. A file that passed is remembered **outside it**, in the arbiter's own folder
(:func:`app.paths.data_dir`, ``checked-files.json``), by the digest of its bytes, its size, the
program's version and schema revision and how thoroughly it was checked. Opening then hashes the
file (~15 ms for 20 MB) and skips the checks only when those bytes were found good before: any change
— an edit by another program, a damaged sector, a restored backup — gives other bytes, hence another
digest, and the file is checked in full again. Nothing is ever written into the tournament file, so
a file cannot claim to have been checked. A file with a write-ahead log holding changes (``FILE-wal``
not empty: an instance is editing it, or one crashed) is always checked, since its content is not
in its bytes alone.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from app import __version__

#: the record in the arbiter's folder; at most this many files are remembered (the newest)
RECORD_NAME = "checked-files.json"
KEEP = 64
#: how thoroughly a file was checked: ``quick`` (quick_check + every value, when viewing) or ``full``
#: (integrity_check + every value, before editing); a file opened for editing needs ``full``
QUICK, FULL = "quick", "full"


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """The bytes of a tournament file as they were hashed: digest, size and modification time."""

    digest: str
    size: int
    mtime_ns: int


def _record_path() -> Path:
    from app.paths import data_dir

    return data_dir() / RECORD_NAME


def _log_has_changes(path: Path) -> bool:
    try:
        return os.stat(str(path) + "-wal").st_size > 0
    except OSError:
        return False


def fingerprint(path: Path) -> Fingerprint | None:
    """The file's digest, or None when its content is not in its bytes alone (a log holds changes), this
    process has it open through SQLite, or it cannot be read (the checks then say what is wrong)."""
    if _log_has_changes(path):
        return None
    from app.files import live_file_of

    if live_file_of(path) is not None:
        # this process has it open through SQLite: closing a descriptor of our own would drop SQLite's
        # locks (docs/file-safety.md) — such a file is checked through SQLite, not hashed
        return None
    try:
        with open(path, "rb") as f:
            before = os.fstat(f.fileno())
            digest = hashlib.file_digest(f, "sha256").hexdigest()
    except OSError:
        return None
    return Fingerprint(digest, before.st_size, before.st_mtime_ns)


def _stamp(schema: str) -> str:
    """What a remembered check is valid for: this program's version and schema revision."""
    return f"{__version__}/{schema}"


def _read_record() -> list[dict[str, object]]:
    try:
        data = json.loads(_record_path().read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return []
    files = data.get("files") if isinstance(data, dict) else None
    return [f for f in files if isinstance(f, dict)] if isinstance(files, list) else []


def was_checked(fp: Fingerprint | None, schema: str, *, full: bool) -> bool:
    """Whether exactly these bytes passed the checks before, by this program (``full``: the full
    integrity check, needed before editing)."""
    if fp is None:
        return False
    stamp = _stamp(schema)
    levels = (FULL,) if full else (FULL, QUICK)
    return any(
        f.get("sha256") == fp.digest
        and f.get("size") == fp.size
        and f.get("program") == stamp
        and f.get("level") in levels
        for f in _read_record()
    )


def remember_checked(path: Path, fp: Fingerprint | None, schema: str, *, full: bool) -> None:
    """Remember that the bytes ``fp`` was taken of passed the checks — only if the file still is what was
    hashed before the checks (same size and modification time, no log holding changes): a change
    made meanwhile by another program is not vouched for. A record that cannot be written is no
    error (the next opening checks the file again)."""
    if fp is None or _log_has_changes(path):
        return
    try:
        now = os.stat(path)
    except OSError:
        return
    if (now.st_size, now.st_mtime_ns) != (fp.size, fp.mtime_ns):
        return
    level = FULL if full else QUICK
    entry: dict[str, object] = {
        "sha256": fp.digest,
        "size": fp.size,
        "program": _stamp(schema),
        "level": level,
    }
    files = _read_record()
    same = [f for f in files if f.get("sha256") == fp.digest and f.get("program") == entry["program"]]
    if any(f.get("level") in (FULL, level) for f in same):
        return  # remembered already (at least as thoroughly)
    files = [entry, *(f for f in files if not any(f is g for g in same))][:KEEP]
    try:
        target = _record_path()
        fd, temp = tempfile.mkstemp(prefix=".checked-", suffix=".json", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump({"files": files}, out)
            os.replace(temp, target)  # whole or not at all: another command may be reading it
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    except OSError:
        return
