"""The paperwork in the window: officials and certificate template (typed, saved, undone, previewed), the new
documents from the 打印 menu, a regulation file exported and a new event started from it, category prizes
in the settings and the prizes view."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from app.engine.paperwork import Official
from app.engine.regulations import PrizeCategory
from app.services.paperwork import load_paperwork
from app.services.tournaments import load_regulations
from app.ui.main_window import MainWindow
from app.ui.views.paperwork_editor import PaperworkEditor
from app.ui.views.settings import SettingsView


def _settings(window: MainWindow) -> SettingsView:
    view = window.show_view("settings")
    assert isinstance(view, SettingsView)
    return view


def test_officials_and_template_are_typed_saved_undone_and_previewed(qtbot, window: MainWindow) -> None:
    view = _settings(window)
    editor = view.paperwork
    assert isinstance(editor, PaperworkEditor)
    view.tabs.setCurrentWidget(editor)
    editor.add_official(Official("裁判长", ""))
    editor.officials.setCurrentCell(0, 1)
    editor.officials.setFocus()
    qtbot.keyClick(editor.officials, Qt.Key.Key_F2)  # F2 edits the current cell, as in a spreadsheet
    cell = editor.officials.focusWidget()
    assert cell is not None and cell is not editor.officials
    qtbot.keyClicks(cell, "Gao")
    qtbot.keyClick(cell, Qt.Key.Key_Return)  # the delegate commits on the next turn of the event loop
    qtbot.waitUntil(lambda: editor.officials.item(0, 1).text() == "Gao", timeout=1000)
    editor.title.setFocus()
    editor.title.selectAll()
    qtbot.keyClicks(editor.title, "Certificate {nickname}")
    assert not editor.save()  # an unknown placeholder is refused, named, nothing stored
    assert "{nickname}" in editor.message.text() and load_paperwork(window.document.db).officials == ()
    editor.title.selectAll()
    qtbot.keyClicks(editor.title, "Award")
    assert editor.save()
    stored = load_paperwork(window.document.db)
    assert stored.officials == (Official("裁判长", "Gao"),) and stored.certificate.title == "Award"
    assert editor.show_preview() and not editor.preview.pixmap().isNull()
    window.document.undo_stack.undo()
    assert load_paperwork(window.document.db).officials == ()
    assert editor.officials.rowCount() == 0  # the page shows the stored values again


def test_new_documents_from_the_print_menu(window: MainWindow) -> None:
    from app.ui.printing import PrintPreviewDialog

    for name, pages in (("check-in", 6), ("entry-list:rating", 3)):
        window.print_actions[name].trigger()
        preview = window.preview
        assert isinstance(preview, PrintPreviewDialog) and len(preview.images) == pages, name
        preview.close()
    window.print_actions["results-book"].trigger()
    assert isinstance(window.preview, PrintPreviewDialog) and len(window.preview.images) > 5


def test_a_regulation_file_round_trip_through_the_window(qtbot, window: MainWindow, tmp_path: Path) -> None:
    view = _settings(window)
    row = view.prize_editor.prize_table.rowCount()
    view.prize_editor.add_prize()
    view.prize_editor.prize_table.item(row, 0).setText("公开组女子")
    view.prize_editor.prize_table.item(row, 3).setText("800, 500")
    category = view.prize_editor.prize_table.cellWidget(row, 5)
    assert isinstance(category, QComboBox)
    category.setCurrentIndex(category.findData(PrizeCategory.WOMEN))
    view.prize_editor.prize_table.item(row, 7).setText("奖杯, 奖牌×2")
    assert view.save()
    women = load_regulations(window.document.db).prizes[-1]
    assert (women.category, women.amounts, women.items) == (
        PrizeCategory.WOMEN,
        (800, 500),
        ("奖杯", "奖牌", "奖牌"),
    )
    target = tmp_path / "next-year.toml"
    assert view.export_to(target)
    assert window.new_from_regulation(target, tmp_path / "next.xqt")
    assert window.document is not None and window.document.path == tmp_path / "next.xqt"
    assert load_regulations(window.document.db).prizes[-1] == women
    prizes = window.show_view("prizes")
    header = [
        prizes.model.headerData(c, Qt.Orientation.Horizontal) for c in range(prizes.model.columnCount())
    ]
    assert header[-1] == "奖品"
