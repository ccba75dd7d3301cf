"""A file of an older program opened read-only (an export, a list, a file on a write-protected stick):
read through an upgraded private copy, the file itself left byte for byte as it was. Before, a read-only
command on such a file stopped with a traceback (``no such column: players.ranked``): read-only opening
skipped the upgrade."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from app.cli import main
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
