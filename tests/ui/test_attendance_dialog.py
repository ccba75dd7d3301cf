"""请假与恢复参赛 in the window: typed as the arbiter types, undone through the document's stack."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.engine.types import AbsenceKind
from app.services.attendance import absences
from app.services.registration import list_players, withdraw_player
from app.ui.dialogs.attendance import AttendanceDialog
from app.ui.main_window import MainWindow
from app.ui.views.players import PlayersView

GROUP = "公开组"


def _type(qtbot, dialog, text: str) -> None:
    """Keys go to whatever has the focus in the dialog (never to a widget picked by the test)."""
    widget = dialog.focusWidget()
    assert widget is not None
    qtbot.keyClicks(widget, text)


def test_excuse_typed_at_the_keyboard_then_undone(qtbot, window: MainWindow) -> None:
    view = window.show_view("players")
    assert isinstance(view, PlayersView)
    dialog = view.attendance()
    assert isinstance(dialog, AttendanceDialog)
    qtbot.waitExposed(dialog)
    assert dialog.focusWidget() is dialog.player_no  # the dialog opens on the player's number
    assert dialog.round_no.value() == 3  # round 2 is paired: the next round is 3
    dialog.player_no.lineEdit().selectAll()
    _type(qtbot, dialog, "17")
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Tab)
    assert dialog.focusWidget() is dialog.round_no
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Tab)
    assert dialog.focusWidget() is dialog.excuse_reason
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)  # no reason: refused, nothing written
    assert "理由" in dialog.message.text() and absences(window.document.db, GROUP) == []
    _type(qtbot, dialog, "exam")
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)
    listed = absences(window.document.db, GROUP)
    assert [(a.no, a.round, a.kind, a.reason) for a in listed] == [(17, 3, AbsenceKind.EXCUSED, "exam")]
    assert dialog.table.rowCount() == 1 and dialog.table.item(0, 3).text() == "请假"
    window.document.undo_stack.undo()
    assert absences(window.document.db, GROUP) == []
    window.document.undo_stack.redo()
    assert len(absences(window.document.db, GROUP)) == 1
    dialog.refresh()
    dialog.table.selectRow(0)
    assert dialog.cancel_selected()
    assert absences(window.document.db, GROUP) == []


def test_reentry_from_the_dialog_is_undoable(qtbot, window: MainWindow) -> None:
    db = window.document.db
    pid = next(p.id for p in list_players(db, GROUP) if p.no == 5)
    withdraw_player(db, pid, reason="身体不适")
    dialog = AttendanceDialog(window.document, window)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.withdrawn.count() == 1 and dialog.withdrawn.currentData() == pid
    dialog.reentry_reason.setFocus()
    _type(qtbot, dialog, "recovered")
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)
    player = next(p for p in list_players(db, GROUP) if p.id == pid)
    assert (player.status, player.reentry_round) == ("active", 3)
    window.document.undo_stack.undo()
    player = next(p for p in list_players(db, GROUP) if p.id == pid)
    assert (player.status, player.reentry_round) == ("withdrawn", None)


def test_named_avoidance_typed_in_the_dialog_then_undone(qtbot, window: MainWindow) -> None:
    from app.services.constraints import pair_avoidances
    from app.ui.dialogs.avoidances import AvoidancesDialog

    view = window.show_view("players")
    assert isinstance(view, PlayersView)
    dialog = view.avoidances()
    assert isinstance(dialog, AvoidancesDialog)
    qtbot.waitExposed(dialog)
    assert dialog.focusWidget() is dialog.first
    dialog.first.lineEdit().selectAll()
    _type(qtbot, dialog, "12")
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Tab)
    assert dialog.focusWidget() is dialog.second
    dialog.second.lineEdit().selectAll()
    _type(qtbot, dialog, "12")
    for _ in range(4):  # strength, from round, to round, reason
        qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Tab)
    assert dialog.focusWidget() is dialog.reason
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)
    assert "两名不同" in dialog.message.text() and pair_avoidances(window.document.db, GROUP) == []
    dialog.second.lineEdit().selectAll()
    qtbot.keyClicks(dialog.second, "30")
    dialog.reason.setFocus()
    _type(qtbot, dialog, "father and son")
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)
    listed = pair_avoidances(window.document.db, GROUP)
    assert [(v.first, v.second, v.reason) for v in listed] == [(12, 30, "father and son")]
    assert dialog.table.rowCount() == 1 and dialog.table.item(0, 2).text() == "绝对回避"
    window.document.undo_stack.undo()
    assert pair_avoidances(window.document.db, GROUP) == []
