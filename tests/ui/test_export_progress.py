"""A long export shows a progress dialog after a second (the window stays painted), a short one none;
the result or the error comes back to the caller as from a direct call."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from PySide6.QtWidgets import QProgressDialog, QWidget
from pytestqt.qtbot import QtBot

from app.engine.types import UserError
from app.ui import progress
from app.ui.progress import run_with_progress


def _dialogs_seen(
    qtbot: QtBot, work: Callable[[], object], monkeypatch: pytest.MonkeyPatch, label: str = "正在导出成绩册……"
) -> tuple[object, list[str]]:
    window = QWidget()
    qtbot.addWidget(window)
    seen: list[str] = []
    shown = QProgressDialog.show

    def spy(self: QProgressDialog) -> None:
        seen.append(self.labelText())
        shown(self)

    monkeypatch.setattr(QProgressDialog, "show", spy)
    return run_with_progress(window, label, work), seen


def test_a_long_export_shows_a_progress_dialog_with_the_time_spent(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "SHOW_AFTER_MS", 200)

    def work() -> str:
        time.sleep(0.6)
        return "done"

    value, seen = _dialogs_seen(qtbot, work, monkeypatch)
    assert value == "done"
    assert len(seen) == 1 and seen[0].startswith("正在导出成绩册……（") and seen[0].endswith("秒）")


def test_a_short_export_shows_nothing(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    value, seen = _dialogs_seen(qtbot, lambda: 42, monkeypatch)
    assert (value, seen) == (42, [])


def test_the_error_of_the_work_reaches_the_caller(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "SHOW_AFTER_MS", 100)

    def work() -> None:
        time.sleep(0.3)
        raise UserError("文件被占用", "the file is in use")

    with pytest.raises(UserError, match="文件被占用"):
        _dialogs_seen(qtbot, work, monkeypatch)
