"""While a process has a tournament file open, none of its code opens that file's names but SQLite.

POSIX locks belong to the process: one ``open()``/``close()`` of ``FILE``, ``FILE-wal`` or
``FILE-shm`` anywhere in it drops every lock SQLite holds there (docs/file-safety.md). Two guards:

- an input or output path that *is* the open file or a companion is refused with a message (a PDF
  saved as ``event.xqt-shm``, a registration form read from ``event.xqt``), and nothing is opened;
- what the program does with the file open (pair, enter, close a round with its backup, print every
  document, export, check the file, read who holds the lock) is watched with an audit hook that sees
  every ``open`` Python makes: none names the file or a companion.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from app.engine.types import UserError
from app.files import live_file_of, read_limited, write_atomic
from tests.raw_opens import watching
from tests.sqlite_locks import holders


def test_an_open_file_and_its_companions_are_never_read_or_written_as_ordinary_files(tmp_path: Path) -> None:
    from app.services.demo import create_demo
    from app.services.excel_import import preview_import

    path = tmp_path / "event.xqt"
    db = create_demo(path, players=40)
    try:
        assert holders(path) == {"file_shared": os.getpid(), "shm_dms": os.getpid()}
        before = {
            s: Path(str(path) + s).stat().st_mtime_ns
            for s in ("", "-wal", "-shm")
            if Path(str(path) + s).exists()
        }
        for suffix in ("", "-wal", "-shm", "-journal", ".lock"):
            target = Path(str(path) + suffix)
            assert live_file_of(target) is not None
            with pytest.raises(UserError, match="正在使用的赛事文件"):
                write_atomic(target, b"%PDF-1.4")
            with pytest.raises(UserError, match="正在使用的赛事文件"):
                read_limited(target, 1000, what_zh="棋谱文件", what_en="PGN file")
        with pytest.raises(UserError, match="正在使用的赛事文件"):
            preview_import(db, path)
        with pytest.raises(UserError, match="正在使用的赛事文件"):
            write_atomic(tmp_path / "." / "event.xqt-shm", b"x")  # another spelling of the same name
        # the window's locks are still there, the file and its companions untouched
        assert holders(path) == {"file_shared": os.getpid(), "shm_dms": os.getpid()}
        after = {s: Path(str(path) + s).stat().st_mtime_ns for s in before}
        assert after == before
        assert live_file_of(tmp_path / "event.pdf") is None
    finally:
        db.close()
    assert live_file_of(path) is None  # closed: an ordinary file again
    write_atomic(tmp_path / "event.xqt-shm.pdf", b"ok")


def test_a_hard_link_to_the_open_file_is_the_open_file(tmp_path: Path) -> None:
    from app.services.demo import create_demo

    path = tmp_path / "event.xqt"
    db = create_demo(path, players=40)
    try:
        other = tmp_path / "copy.xqt"
        os.link(path, other)
        with pytest.raises(UserError):
            read_limited(other, 10_000_000, what_zh="快照文件", what_en="snapshot file")
    finally:
        db.close()


def test_what_the_owner_does_with_the_file_open_opens_none_of_its_names(tmp_path: Path) -> None:
    from app.db.lock import lock_in_use, read_holder
    from app.engine.types import GameResult
    from app.services import hall
    from app.services.backups import check_file, list_backups, make_backup
    from app.services.demo import create_demo
    from app.services.exports import DOCUMENTS, render_pdf, write_result_workbook
    from app.services.public_pages import write_public_site
    from app.services.results import enter_result
    from app.services.rounds import close_round, pair_next_round, round_view
    from app.services.snapshot import export_snapshot
    from app.services.tournaments import open_tournament

    path = tmp_path / "event.xqt"
    db = create_demo(path, players=40)
    pair_next_round(db, "公开组", seed=1)
    db.close()
    db = open_tournament(path)
    try:
        with watching(path) as seen:
            for b in round_view(db, "公开组", 1).boards:
                enter_result(db, "公开组", 1, b.board, GameResult.DRAW)
            close_round(db, "公开组", 1)  # with its automatic backup
            pair_next_round(db, "公开组", seed=2)
            make_backup(db, "manual")
            list_backups(path)
            report = check_file(path)
            assert report.lock_alive and report.lock is not None and report.lock.pid == os.getpid()
            assert read_holder(path) is not None and lock_in_use(path)
            for name in DOCUMENTS:
                with contextlib.suppress(UserError):  # a document that cannot exist yet
                    render_pdf(db, name, group="公开组")
            write_result_workbook(db, tmp_path / "out.xlsx")
            write_public_site(db, tmp_path / "site")
            export_snapshot(db)
            hall.change_stamp(db)
            assert holders(path) == {"file_shared": os.getpid(), "shm_dms": os.getpid()}
    finally:
        db.close()
    assert seen == []
