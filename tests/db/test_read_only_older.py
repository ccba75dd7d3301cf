"""A file of an older program opened read-only (an export, a list, a file on a write-protected stick):
read through an upgraded private copy, the file itself left byte for byte as it was. Before, a read-only
command on such a file stopped with a traceback (``no such column: players.ranked``): read-only opening
skipped the upgrade."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import tempfile
import threading
from pathlib import Path

import pytest

from app.cli import main
from app.db import session
from app.db.integrity import FileBusyError
from app.db.session import current_revision, head_revision
from app.services.registration import list_players
from app.services.tournaments import open_tournament

DATA = Path(__file__).parent / "data"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_an_older_file_reads_read_only_and_stays_as_it_was(tmp_path: Path) -> None:
    old = tmp_path / "old.xqt"
    shutil.copy(DATA / "schema_0001.xqt", old)
    before = _digest(old)
    db = open_tournament(old, read_only=True)
    try:
        assert db.read_only and current_revision(db.engine) == head_revision()
        assert [p.name for p in list_players(db, "公开组")] == ["张三"]
        scratch = db.scratch
        assert scratch is not None and scratch.is_dir() and (scratch.stat().st_mode & 0o077) == 0
    finally:
        db.close()
    assert not scratch.exists()  # the private copy (it holds personal numbers) is gone
    assert _digest(old) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.xqt"]  # no -wal, -shm or lock left


def test_a_read_only_command_on_an_older_file(tmp_path: Path, capsys) -> None:
    old = tmp_path / "old.xqt"
    shutil.copy(DATA / "schema_0001.xqt", old)
    before = _digest(old)
    code = main(["standings", str(old), "--group", "公开组"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "张三" in out and "Traceback" not in err
    assert _digest(old) == before


def _locked_by_a_writer(path: Path) -> sqlite3.Connection:
    """Another program writing the older file (rollback journal, as the older program kept it)."""
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("BEGIN EXCLUSIVE")
    return writer


def test_an_older_file_locked_by_a_writer_is_called_busy_not_corrupt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.db import revisions

    assert revisions.READ_BUSY_SECONDS == 5.0  # the product's wait; 0.2 s here
    monkeypatch.setattr(revisions, "READ_BUSY_SECONDS", 0.2)
    old = tmp_path / "old.xqt"
    shutil.copy(DATA / "schema_0001.xqt", old)
    writer = _locked_by_a_writer(old)
    try:
        with pytest.raises(FileBusyError) as info:
            open_tournament(old, read_only=True)
    finally:
        writer.close()
    assert "正被另一个程序占用" in info.value.zh and "已损坏" not in info.value.zh


def test_a_writer_arriving_during_the_copy_stops_it_within_a_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's backup retries a busy step for ever: a writer that takes the lock after the version was
    read would have kept a read-only command waiting for ever; the copy now gives up and says busy."""
    old = tmp_path / "old.xqt"
    shutil.copy(DATA / "schema_0001.xqt", old)
    writers: list[sqlite3.Connection] = []
    checked = session._check_existing

    def then_a_writer_comes(path: Path, *, read_only: bool) -> str:
        revision = checked(path, read_only=read_only)
        writers.append(_locked_by_a_writer(path))
        return revision

    monkeypatch.setattr(session, "_check_existing", then_a_writer_comes)
    assert session.BACKUP_BUSY_SECONDS == 10.0  # the product's bound; 0.5 s here
    monkeypatch.setattr(session, "BACKUP_BUSY_SECONDS", 0.5)
    scratch = tmp_path / "temporary"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # where the private copy is made
    outcome: list[BaseException | None] = []

    def open_it() -> None:
        try:
            open_tournament(old, read_only=True).close()
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    opener = threading.Thread(target=open_it, daemon=True)
    opener.start()
    opener.join(60)
    for writer in writers:
        writer.close()
    assert not opener.is_alive(), "the read-only open still waits on the writer's lock"
    assert len(outcome) == 1 and isinstance(outcome[0], FileBusyError)
    assert not any(scratch.iterdir())  # the private copy is removed
