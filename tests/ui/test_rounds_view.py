"""The rounds view driven like an arbiter: keys only, then undo."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from app.engine.types import GameResult
from app.services.rounds import round_view
from app.ui.main_window import MainWindow
from app.ui.models.pairings import RESULT_COLUMN, PairingTableModel
from app.ui.views.rounds import RoundsView, parse_entry

GROUP = "公开组"


def rounds_view(window: MainWindow) -> RoundsView:
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    return view


def results(window: MainWindow, number: int = 2) -> list[GameResult]:
    assert window.document is not None
    return [b.result for b in round_view(window.document.db, GROUP, number).boards]


def test_parse_entry_reads_board_then_result() -> None:
    assert parse_entry("12 1") == (12, GameResult.RED_WIN)
    assert parse_entry("120") == (12, GameResult.BLACK_WIN)
    assert parse_entry("3=") == (3, GameResult.DRAW)
    assert parse_entry("35") == (3, GameResult.DRAW)
    assert parse_entry("=") == (None, GameResult.DRAW)
    assert parse_entry("4-") == (4, GameResult.RED_FORFEIT)
    assert parse_entry("4+") == (4, GameResult.BLACK_FORFEIT)
    assert parse_entry("12") is None  # 2 is no result key
    assert parse_entry("abc") is None
    # taken at once only when unambiguous
    assert parse_entry("11", at_once=True) is None
    assert parse_entry("11 0", at_once=True) == (11, GameResult.BLACK_WIN)
    assert parse_entry("9-", at_once=True) == (9, GameResult.RED_FORFEIT)


def test_window_opens_on_latest_round_with_status(window: MainWindow) -> None:
    view = rounds_view(window)
    assert view.tabs.count() == 2
    assert view.round_number == 2
    assert view.model.rowCount() == 60
    assert window.status_round.text() == "第 2 轮：待录入 60 台"
    assert window.windowTitle().startswith("event.xqt")


def test_keyboard_entry_of_a_whole_round_without_the_mouse(qtbot, window: MainWindow) -> None:
    view = rounds_view(window)
    view.entry.setFocus()
    # Board 12 red wins, board 3 draw (taken at once), board 5 red forfeits, then board-less keys for the cursor.
    qtbot.keyClicks(view.entry, "12 1")
    qtbot.keyClick(view.entry, Qt.Key.Key_Return)
    qtbot.keyClicks(view.entry, "3=")
    qtbot.keyClicks(view.entry, "5-")
    got = results(window)
    assert got[11] is GameResult.RED_WIN
    assert got[2] is GameResult.DRAW
    assert got[4] is GameResult.RED_FORFEIT
    assert view.entry.text() == ""
    # the cursor went to the next board without a result after board 5: board 6
    assert view.current_board() == 6
    for _ in range(57):
        qtbot.keyClicks(view.entry, "0")
        qtbot.keyClick(view.entry, Qt.Key.Key_Return)
    got = results(window)
    assert all(not r.is_pending for r in got)
    assert got[5] is GameResult.BLACK_WIN and got[59] is GameResult.BLACK_WIN
    assert got[0] is GameResult.BLACK_WIN  # wrapped around to board 1
    assert window.status_round.text() == "第 2 轮：成绩已齐"
    assert view.model.index(11, RESULT_COLUMN).data() == "1-0"


def test_result_keys_in_the_table_and_undo_redo(qtbot, window: MainWindow) -> None:
    view = rounds_view(window)
    view.table.setFocus()
    view.table.setCurrentIndex(view.model.index(6, RESULT_COLUMN))  # board 7
    qtbot.keyClick(view.table, "+")
    assert results(window)[6] is GameResult.BLACK_FORFEIT
    assert view.model.index(6, RESULT_COLUMN).data() == "+-"
    assert view.current_board() == 8
    qtbot.keyClick(view.table, "5")
    assert results(window)[7] is GameResult.DRAW
    assert window.windowTitle().startswith("event.xqt[*]")
    qtbot.keyClick(view.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert results(window)[7] is GameResult.PENDING
    assert view.model.index(7, RESULT_COLUMN).data() == ""
    assert window.status_round.text() == "第 2 轮：待录入 59 台"
    qtbot.keyClick(view.table, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert results(window)[7] is GameResult.DRAW
    assert view.model.index(7, RESULT_COLUMN).data() == "="


def test_correcting_an_entered_result_in_the_open_round(qtbot, window: MainWindow) -> None:
    view = rounds_view(window)
    qtbot.keyClicks(view.entry, "2 1")
    qtbot.keyClick(view.entry, Qt.Key.Key_Return)
    qtbot.keyClicks(view.entry, "2 0")
    qtbot.keyClick(view.entry, Qt.Key.Key_Return)
    assert results(window)[1] is GameResult.BLACK_WIN
    assert window.document is not None
    window.document.undo_stack.undo()
    assert results(window)[1] is GameResult.RED_WIN
    window.document.undo_stack.undo()
    assert results(window)[1] is GameResult.PENDING


def test_unknown_board_is_refused_with_a_message(qtbot, window: MainWindow) -> None:
    view = rounds_view(window)
    qtbot.keyClicks(view.entry, "99=")
    assert "99" in view.message.text()
    assert view.entry.text() == "99="
    assert all(r.is_pending for r in results(window))
    assert window.document is not None and window.document.undo_stack.count() == 0


def test_earlier_round_tab_and_group_switch(qtbot, window: MainWindow) -> None:
    view = rounds_view(window)
    view.tabs.setCurrentIndex(0)
    assert view.round_number == 1
    assert view.model.index(0, RESULT_COLUMN).data() != ""
    window.group_box.setCurrentText("天水本地组")
    assert view.round_number == 2
    assert view.model.rowCount() == 20
    assert window.status_group.text() == "组别：天水本地组"


def test_pairing_model(qtmodeltester, event_file: Path) -> None:
    from app.services.tournaments import open_tournament

    db = open_tournament(event_file)
    model = PairingTableModel()
    model.set_round(round_view(db, GROUP, 1))
    qtmodeltester.check(model)
    assert model.index(0, 2).data(Qt.ItemDataRole.DisplayRole) == round_view(db, GROUP, 1).boards[0].red.name
    db.close()
