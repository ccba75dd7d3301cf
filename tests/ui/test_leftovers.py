"""The check every UI test passes at its end (tests/ui/conftest.py nothing_left_alive): it names a
window left alive, shown or hidden, with its running timers, and clears it."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QDialog, QMainWindow

from tests.ui.leftovers import clear_leftovers, leftovers


def test_a_window_left_open_is_named_with_its_running_timer_and_cleared(qapp) -> None:
    window = QMainWindow()
    window.setWindowTitle("留下的窗口")
    timer = QTimer(window)
    timer.start(60_000)
    window.show()
    QDialog(window)  # a child dialog is the window's, not another leftover
    assert leftovers() == ["QMainWindow '留下的窗口' (shown, 1 timer(s) running)"]
    clear_leftovers()
    assert leftovers() == []


def test_a_closed_window_nobody_deleted_is_named(qapp) -> None:
    dialog = QDialog()
    dialog.show()
    dialog.close()
    assert leftovers() == ["QDialog (hidden)"]
    clear_leftovers()
    assert leftovers() == []


def test_a_window_handed_to_qtbot_leaves_nothing(qtbot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    window.show()
    window.close()
    window.deleteLater()  # what pytest-qt does after the test; the check deletes it at once
    assert leftovers() == []
