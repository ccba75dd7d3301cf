"""The audit log viewer and restoring a backup from the window (file safety: nothing is ever lost)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from app.services.backups import list_backups, make_backup
from app.services.results import enter_result
from app.services.rounds import round_view
from app.ui.dialogs.audit_backups import AuditLogDialog, BackupListDialog
from app.ui.main_window import MainWindow


def _window(qtbot, path: Path) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.open_file(path)
    return window


def test_audit_log_lists_every_change_newest_first_filters_and_exports(
    qtbot, qtmodeltester, event_file: Path, tmp_path: Path
) -> None:
    window = _window(qtbot, event_file)
    assert window.document is not None
    enter_result(window.document.db, "公开组", 2, 3, "=", who="副裁判长")
    dialog = window.show_audit_log()
    assert isinstance(dialog, AuditLogDialog)
    qtmodeltester.check(dialog.model)
    board = round_view(window.document.db, "公开组", 2).boards[2]
    # sentences, not codes: who, what, to what, the change in words
    assert [dialog.model.text(0, c) for c in range(1, 5)] == [
        "副裁判长",
        "录入成绩",
        "公开组 第2轮 第3台",
        "和",
    ]
    shown = {dialog.model.text(r, c) for r in range(dialog.model.rowCount()) for c in range(6)}
    assert not shown & {"enter_result", "draw", "red_win", "pending"}
    assert not any(t.startswith(("{", "[", "player:")) for t in shown)
    assert "pending → draw" in dialog.model.index(0, 4).data(Qt.ItemDataRole.ToolTipRole)  # the stored values
    window.document.undo_stack.clear()
    from app.services.registration import list_players, set_fee_paid

    player = next(p for p in list_players(window.document.db, "公开组") if p.no == board.red.no)
    set_fee_paid(window.document.db, player.id, False)
    again = AuditLogDialog(window.document, window)
    assert [again.model.text(0, c) for c in (2, 3, 4)] == [
        "缴费",
        f"公开组 {player.no}号 {player.name}",
        "是 → 否",
    ]
    dialog.filter.setText("副裁判长")
    assert dialog.proxy.rowCount() == 1
    out = tmp_path / "audit.csv"
    dialog.export_to(out)
    text = out.read_bytes().decode("utf-8-sig")
    assert "副裁判长" in text and "enter_result" in text


def test_restoring_a_backup_from_the_window_backs_up_the_current_state_first(
    qtbot, qtmodeltester, event_file: Path
) -> None:
    window = _window(qtbot, event_file)
    assert window.document is not None
    before = make_backup(window.document.db, "before-mistake")
    enter_result(window.document.db, "公开组", 2, 1, "1-0")
    dialog = BackupListDialog(event_file, window)
    qtmodeltester.check(dialog.model)
    assert dialog.chosen() == before  # newest first
    count = len(list_backups(event_file))
    window.restore_from(before)
    assert window.document is not None and not window.document.read_only
    assert round_view(window.document.db, "公开组", 2).boards[0].result.value == "pending"
    assert len(list_backups(event_file)) == count + 1  # the state before the restore was kept
