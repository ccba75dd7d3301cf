"""Opening a file from the window: a way out of a stale lock, a second writer and a corrupt file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from app.services.backups import make_backup
from app.services.tournaments import open_tournament
from app.ui.application import application
from app.ui.dialogs import open_file
from app.ui.dialogs.open_file import open_document


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every question asked and answer Yes; warnings are recorded too."""
    asked: list[str] = []

    def question(_parent, title, text, *_args):
        asked.append(f"{title}: {text}")
        return QMessageBox.StandardButton.Yes

    def note(_parent, title, text, *_args):
        asked.append(f"{title}: {text}")
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(open_file.QMessageBox, "question", question)
    monkeypatch.setattr(open_file.QMessageBox, "warning", note)
    monkeypatch.setattr(open_file.QMessageBox, "critical", note)
    return asked


def _dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    return int(done.stdout)


def test_a_stale_lock_is_taken_over_after_asking(event_file: Path, answers: list[str]) -> None:
    application()
    lock = Path(str(event_file) + ".lock")
    db = open_tournament(event_file)
    holder = json.loads(lock.read_text(encoding="utf-8"))
    db.close()
    lock.write_text(json.dumps({**holder, "pid": _dead_pid()}), encoding="utf-8")  # a crashed instance
    document = open_document(event_file, None)
    assert document is not None and not document.read_only
    assert "上次未正常关闭" in answers[0]
    document.close()


def test_a_file_being_edited_opens_read_only_and_is_marked(event_file: Path, answers: list[str]) -> None:
    application()
    editing = open_tournament(event_file)
    try:
        document = open_document(event_file, None)
        assert document is not None and document.read_only
        assert "只读" in answers[0]
        document.close()
    finally:
        editing.close()


def test_a_corrupt_file_is_restored_from_the_newest_good_backup(event_file: Path, answers: list[str]) -> None:
    application()
    good = make_backup(event_file, "before-damage")
    size = event_file.stat().st_size
    with open(event_file, "r+b") as f:
        f.seek((size // 4096 // 2) * 4096)
        f.write(bytes((i * 37 + 11) % 256 for i in range(2 * 4096)))
    document = open_document(event_file, None)
    assert document is not None and not document.read_only
    assert good.name in answers[0] and "恢复" in answers[0]
    assert document.info.groups  # the restored tournament is readable
    document.close()
