"""Files already checked (app.db.checked): the same bytes are not checked twice; any other bytes are."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

import app.db.session as session_module
from app.db.checked import RECORD_NAME, fingerprint
from app.db.integrity import CorruptFileError
from app.db.session import open_database

MARKER = "QQZZ-CHECK-MARKER"


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own arbiter folder (where the record is kept)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("XQARBITER_DATA", str(folder))
    return folder


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every check run on opening, by name (the real checks still run)."""
    calls: list[str] = []
    integrity, content = session_module.integrity_problems, session_module.content_problems

    def counted_integrity(path: Path, *, quick: bool = False, writable: bool = False) -> list[str]:
        calls.append("quick_check" if quick else "integrity_check")
        return integrity(path, quick=quick, writable=writable)

    def counted_content(path: Path, *, limit: int = 10) -> list[str]:
        calls.append("content")
        return content(path, limit=limit)

    monkeypatch.setattr(session_module, "integrity_problems", counted_integrity)
    monkeypatch.setattr(session_module, "content_problems", counted_content)
    return calls


@pytest.fixture
def event(played_demo: Path) -> Path:
    """The played demo with one player's name set to a marker that occurs once in the file's bytes."""
    con = sqlite3.connect(played_demo)
    con.execute("UPDATE players SET name = ? WHERE id = (SELECT min(id) FROM players)", (MARKER,))
    con.commit()
    con.close()
    assert not Path(str(played_demo) + "-wal").exists() or not os.path.getsize(str(played_demo) + "-wal")
    return played_demo


def _open_close(path: Path, *, read_only: bool) -> None:
    open_database(path, read_only=read_only).close()


def test_the_same_bytes_are_checked_once(event: Path, data: Path, checks: list[str]) -> None:
    _open_close(event, read_only=True)
    assert checks == ["quick_check", "content"]
    record = json.loads((data / RECORD_NAME).read_text(encoding="utf-8"))
    fp = fingerprint(event)
    assert fp is not None and [f["sha256"] for f in record["files"]] == [fp.digest]
    before = event.read_bytes()
    _open_close(event, read_only=True)
    _open_close(event, read_only=True)
    assert checks == ["quick_check", "content"]  # not again
    assert event.read_bytes() == before  # nothing was written into the file


def test_a_copy_of_checked_bytes_is_not_checked_again(event: Path, data: Path, checks: list[str]) -> None:
    _open_close(event, read_only=True)
    copy = event.with_name("copy.xqt")
    copy.write_bytes(event.read_bytes())
    _open_close(copy, read_only=True)
    assert checks == ["quick_check", "content"]


def test_a_file_changed_in_place_is_checked_again_and_refused(
    event: Path, data: Path, checks: list[str]
) -> None:
    """A value damaged inside a sound page after the file was found good — same size, the modification
    time put back — is still found: the bytes decide, not the file's dates."""
    _open_close(event, read_only=True)
    assert checks == ["quick_check", "content"]
    stat = event.stat()
    raw = event.read_bytes()
    assert raw.count(MARKER.encode()) >= 1
    damaged = raw.replace(MARKER.encode(), b"\xff\xfe" + MARKER.encode()[2:])
    assert len(damaged) == len(raw)
    event.write_bytes(damaged)
    os.utime(event, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert event.stat().st_size == stat.st_size and event.stat().st_mtime_ns == stat.st_mtime_ns
    with pytest.raises(CorruptFileError, match="players"):
        _open_close(event, read_only=True)
    with pytest.raises(CorruptFileError):
        _open_close(event, read_only=False)
    assert checks.count("content") == 3
    # a refused file is never remembered: it is refused every time
    with pytest.raises(CorruptFileError):
        _open_close(event, read_only=True)


def test_a_changed_value_is_checked_again(event: Path, data: Path, checks: list[str]) -> None:
    _open_close(event, read_only=True)
    con = sqlite3.connect(event)
    con.execute("UPDATE games SET result = 'zombie' WHERE id = (SELECT min(id) FROM games)")
    con.commit()
    con.close()
    with pytest.raises(CorruptFileError, match="games"):
        _open_close(event, read_only=True)
    assert checks == ["quick_check", "content", "quick_check", "content"]


def test_opening_for_editing_needs_the_full_check(event: Path, data: Path, checks: list[str]) -> None:
    """A file found good when viewed (quick_check) is checked in full before it is edited; one found
    good for editing needs no check to be viewed."""
    _open_close(event, read_only=True)
    _open_close(event, read_only=False)
    assert checks == ["quick_check", "content", "integrity_check", "content"]
    fresh = event.with_name("fresh.xqt")
    fresh.write_bytes(event.read_bytes())
    _open_close(fresh, read_only=True)  # the bytes the full check found good (opening wrote nothing)
    assert checks == ["quick_check", "content", "integrity_check", "content"]


def test_a_log_holding_changes_is_always_checked(event: Path, data: Path, checks: list[str]) -> None:
    _open_close(event, read_only=True)
    con = sqlite3.connect(event)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA wal_autocheckpoint=0")
    con.execute("UPDATE games SET result = 'zombie' WHERE id = (SELECT min(id) FROM games)")
    con.commit()
    try:
        assert os.path.getsize(str(event) + "-wal") > 0  # the change is in the log, not in the file
        with pytest.raises(CorruptFileError, match="games"):
            _open_close(event, read_only=True)
    finally:
        con.close()
    assert checks == ["quick_check", "content", "quick_check", "content"]


def test_another_program_version_or_a_damaged_record_is_not_trusted(
    event: Path, data: Path, checks: list[str]
) -> None:
    _open_close(event, read_only=True)
    record = data / RECORD_NAME
    saved = json.loads(record.read_text(encoding="utf-8"))
    other = {"files": [{**f, "program": "0.0.1/" + str(f["program"]).split("/")[1]} for f in saved["files"]]}
    record.write_text(json.dumps(other), encoding="utf-8")
    _open_close(event, read_only=True)
    assert checks.count("content") == 2
    record.write_bytes(b"\xff not json")
    _open_close(event, read_only=True)
    assert checks.count("content") == 3
    assert json.loads(record.read_text(encoding="utf-8"))["files"]  # written anew


def test_a_file_this_process_has_open_is_not_hashed(event: Path, data: Path, checks: list[str]) -> None:
    """Hashing opens the file as an ordinary file; in a process where SQLite has it open, closing that
    descriptor would drop SQLite's locks (docs/file-safety.md). Such a file is checked through SQLite."""
    from app.files import hold_live, release_live
    from tests.raw_opens import watching

    _open_close(event, read_only=True)  # found good and remembered
    checks.clear()
    key = hold_live(event)  # as while the window has it open
    try:
        with watching(event) as opens:
            assert fingerprint(event) is None
            _open_close(event, read_only=True)
    finally:
        release_live(key)
    # no ordinary open of the file or of SQLite's companions (the program's own .lock beside it is ours)
    assert [o for o in opens if ".xqt.lock " not in o] == []
    assert checks == ["quick_check", "content"]  # checked through SQLite instead
