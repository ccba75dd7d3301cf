"""The window's rough edges, each as the arbiter meets it: quitting, the hall dialog, undo's words,
messages that go stale, the violation dialog, knockout games and byes in the pairing table, the
status line, the audit viewer, Tab order, the take-over question, duplicate names on import."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.ui.main_window import MainWindow
from app.ui.views.rounds import RoundsView

OPEN, LOCAL = "公开组", "天水本地组"


def rounds_view(qtbot, window: MainWindow) -> RoundsView:
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.entry)
    return view


def type_keys(qtbot, text: str) -> None:
    for ch in text:
        qtbot.keyClicks(QApplication.focusWidget(), ch)


def press(qtbot, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(QApplication.focusWidget(), key, modifier)


def test_quitting_after_a_language_switch_ends_cleanly(event_file: Path, tmp_path: Path) -> None:
    """The program as started from the desktop: switch to English, quit with the menu's 退出."""
    code = f"""
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from app.ui.application import application, run
from app.ui.main_window import MainWindow

application()

def windows():
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]

def switch():
    windows()[0].language_requested.emit("en")
    QTimer.singleShot(300, quit)

def quit():
    (window,) = windows()
    assert window.menuBar().actions()[0].text() == "File"
    window.close()  # 文件 → 退出

QTimer.singleShot(300, switch)
raise SystemExit(run(Path({str(event_file)!r})))
"""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XQARBITER_DATA=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    assert not event_file.with_name(event_file.name + ".lock").exists()  # the file is free again


def test_the_deputy_name_field_keeps_its_width_once_the_hall_server_runs(qtbot, window: MainWindow) -> None:
    from app.ui.hall import HallDialog

    dialog = window.show_hall()
    assert isinstance(dialog, HallDialog)
    qtbot.waitExposed(dialog)
    wide_enough = dialog.deputy_name.fontMetrics().horizontalAdvance("欧阳副裁判长") + 16
    assert dialog.deputy_name.width() >= wide_enough
    dialog.port.setValue(0)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    try:
        assert window.hall.running and dialog.qr.pixmap() is not None
        QApplication.processEvents()
        assert dialog.deputy_name.width() >= wide_enough  # not squeezed by the address and its QR code
        assert dialog.address.width() >= dialog.address.fontMetrics().horizontalAdvance(dialog.address.text())
    finally:
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
