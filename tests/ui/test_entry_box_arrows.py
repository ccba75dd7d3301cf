"""↑/↓ typed in the entry box move the pairing table's cursor; the keyboard stays in the box."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.ui.main_window import MainWindow
from app.ui.views.rounds import RoundsView


def test_arrow_keys_in_the_entry_box_move_the_tables_cursor(qtbot, window: MainWindow) -> None:
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.entry)
    view.table.setCurrentIndex(view.model.index(2, 0))  # board 3
    view.entry.setFocus()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Down)
    assert view.table.currentIndex().row() == 3
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Up)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Up)
    assert view.table.currentIndex().row() == 1
    assert QApplication.focusWidget() is view.entry
