"""The rounds view driven like an arbiter: real key presses sent to whatever has the focus, then undo.

Every key goes to ``QApplication.focusWidget()`` — never to a chosen widget, never by calling a
method — so a key typed with the focus in the wrong place does what it would do at the desk.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.engine.types import GameResult
from app.services.results import ResultEntry, enter_results
from app.services.rounds import round_view, rounds_of
from app.ui.main_window import MainWindow
from app.ui.models.pairings import RESULT_COLUMN, PairingTableModel
from app.ui.views.rounds import RoundsView
from app.ui.widgets import key_guard
from app.ui.widgets.result_entry import AmbiguousEntry, Reading, read_entry
from tests.ui.questions import until_keys_count

GROUP = "公开组"
BOARDS = range(1, 61)


def rounds_view(qtbot, window: MainWindow) -> RoundsView:
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.entry)
    return view


def results(window: MainWindow, number: int = 2) -> list[GameResult]:
    assert window.document is not None
    return [b.result for b in round_view(window.document.db, GROUP, number).boards]


def type_keys(qtbot, text: str) -> None:
    """Type ``text`` as the arbiter does: each key to the widget that has the focus at that moment."""
    for ch in text:
        qtbot.keyClicks(QApplication.focusWidget(), ch)


def press(qtbot, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(QApplication.focusWidget(), key, modifier)


def test_read_entry_reads_board_then_result_and_refuses_what_is_ambiguous() -> None:
    assert read_entry("12 1", BOARDS) == Reading(12, GameResult.RED_WIN)
    assert read_entry("121", BOARDS) == Reading(12, GameResult.RED_WIN)  # no board 121: unambiguous
    assert read_entry("3=", BOARDS) == Reading(3, GameResult.DRAW)
    assert read_entry("3 5", BOARDS) == Reading(3, GameResult.DRAW)
    assert read_entry("=", BOARDS) == Reading(None, GameResult.DRAW)
    assert read_entry("4-", BOARDS) == Reading(4, GameResult.RED_FORFEIT)
    assert read_entry("4+", BOARDS) == Reading(4, GameResult.BLACK_FORFEIT)
    assert read_entry("12", BOARDS) is None  # 2 is no result key
    assert read_entry("abc", BOARDS) is None
    for text in ("10", "35", "51", "010"):  # each is also a board of a 60-board round
        with pytest.raises(AmbiguousEntry) as refused:
            read_entry(text, BOARDS)
        assert "空格" in refused.value.zh
    assert read_entry("10", range(1, 9)) == Reading(1, GameResult.BLACK_WIN)  # 8 boards: no board 10
    # taken at once only when unambiguous
    assert read_entry("11", BOARDS, at_once=True) is None
    assert read_entry("11 0", BOARDS, at_once=True) == Reading(11, GameResult.BLACK_WIN)
    assert read_entry("9-", BOARDS, at_once=True) == Reading(9, GameResult.RED_FORFEIT)


def test_window_opens_on_latest_round_with_the_keyboard_in_the_entry_box(qtbot, window: MainWindow) -> None:
    view = rounds_view(qtbot, window)
    assert view.tabs.count() == 2
    assert view.round_number == 2
    assert view.model.rowCount() == 60
    assert window.status_round.text() == "第 2 轮：待录入 60 台"
    assert window.windowTitle().startswith("event.xqt")
    assert QApplication.focusWidget() is view.entry
    # another view and back: the box has the keyboard again
    window.show_view("standings").setFocus()
    rounds_view(qtbot, window)


def test_keyboard_entry_of_a_whole_round_without_the_mouse(qtbot, window: MainWindow) -> None:
    view = rounds_view(qtbot, window)
    # Board 12 red wins, board 3 draw (taken at once), board 5 red forfeits, then keys for the cursor.
    type_keys(qtbot, "12 1")
    press(qtbot, Qt.Key.Key_Return)
    type_keys(qtbot, "3=")
    type_keys(qtbot, "5-")
    got = results(window)
    assert got[11] is GameResult.RED_WIN
    assert got[2] is GameResult.DRAW
    assert got[4] is GameResult.RED_FORFEIT
    assert view.entry.text() == ""
    # the cursor went to the next board without a result after board 5: board 6
    assert view.current_board() == 6
    type_keys(qtbot, "0")
    assert "第 6 台" in view.entry_box.reading.text()  # the box says where the key will go
    press(qtbot, Qt.Key.Key_Return)
    for _ in range(56):
        type_keys(qtbot, "0")
        press(qtbot, Qt.Key.Key_Return)
    got = results(window)
    assert all(not r.is_pending for r in got)
    assert got[5] is GameResult.BLACK_WIN and got[59] is GameResult.BLACK_WIN
    assert got[0] is GameResult.BLACK_WIN  # wrapped around to board 1
    assert window.status_round.text() == "第 2 轮：成绩已齐"
    # one vocabulary: the window says what the prints say
    assert view.model.index(11, RESULT_COLUMN).data() == "红胜"
    assert view.model.index(4, RESULT_COLUMN).data() == "红弃权"
    assert view.model.index(2, RESULT_COLUMN).data() == "和"
    assert QApplication.focusWidget() is view.entry


def test_keys_typed_while_the_table_has_the_focus_go_to_the_entry_box(qtbot, window: MainWindow) -> None:
    view = rounds_view(qtbot, window)
    view.table.setCurrentIndex(view.model.index(2, RESULT_COLUMN))  # the cursor on board 3
    view.table.setFocus()
    assert QApplication.focusWidget() is view.table
    type_keys(qtbot, "5")  # a result key with the table focused: no result for board 3
    assert all(r.is_pending for r in results(window))
    assert QApplication.focusWidget() is view.entry and view.entry.text() == "5"
    type_keys(qtbot, " 0")  # "5 0": board 5, black wins — read by the box, not by the table's rows
    got = results(window)
    assert got[4] is GameResult.BLACK_WIN
    assert [i for i, r in enumerate(got) if not r.is_pending] == [4]
    # the records-owed list and a button pass typed keys on as well
    for widget in (view.owed, view.close_button):
        widget.setFocus()
        assert QApplication.focusWidget() is widget
        type_keys(qtbot, "7")
        assert QApplication.focusWidget() is view.entry and view.entry.text() == "7"
        view.entry.clear()
    assert [i for i, r in enumerate(results(window)) if not r.is_pending] == [4]
    assert window.document is not None and window.document.undo_stack.count() == 1


def test_undo_and_redo_work_with_the_cursor_in_the_entry_box(qtbot, window: MainWindow) -> None:
    view = rounds_view(qtbot, window)
    type_keys(qtbot, "7+")
    type_keys(qtbot, "8 5")
    assert results(window)[6] is GameResult.BLACK_FORFEIT and results(window)[7] is GameResult.DRAW
    assert window.windowTitle().startswith("event.xqt[*]")
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is view.entry
    assert results(window)[7] is GameResult.PENDING
    assert view.model.index(7, RESULT_COLUMN).data() == ""
    assert window.status_round.text() == "第 2 轮：待录入 59 台"
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert results(window)[6] is GameResult.PENDING
    press(qtbot, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    press(qtbot, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert results(window)[6] is GameResult.BLACK_FORFEIT and results(window)[7] is GameResult.DRAW
    assert view.model.index(7, RESULT_COLUMN).data() == "和"
    assert QApplication.focusWidget() is view.entry


def test_an_ambiguous_entry_is_refused_with_a_message(qtbot, window: MainWindow) -> None:
    view = rounds_view(qtbot, window)
    type_keys(qtbot, "10")
    assert "空格" in view.entry_box.reading.text() or "歧义" in view.entry_box.reading.text()
    press(qtbot, Qt.Key.Key_Return)
    assert all(r.is_pending for r in results(window))  # not board 1 black wins
    assert "第 10 台" in view.message.text() and "1 0" in view.message.text()
    assert view.entry.text() == "10"  # kept (selected) to retype
    type_keys(qtbot, "1 0")  # typing replaces the selection: board 1, black wins, taken at once
    assert results(window)[0] is GameResult.BLACK_WIN
    assert [i for i, r in enumerate(results(window)) if not r.is_pending] == [0]


def test_changing_an_entered_result_asks_first(qtbot, window: MainWindow, monkeypatch) -> None:
    # the questions here, not the moment they discard keys (tests/ui/test_keys_at_the_desk.py proves
    # that with the product's 600 ms): each waits it out, so a shorter moment is set here
    assert key_guard.GUARD_MS == 600
    monkeypatch.setattr(key_guard, "GUARD_MS", 100)
    view = rounds_view(qtbot, window)
    type_keys(qtbot, "3 1")
    assert results(window)[2] is GameResult.RED_WIN
    type_keys(qtbot, "3=")  # would overwrite 红胜 with 和: asked, not done
    assert results(window)[2] is GameResult.RED_WIN
    assert view.entry_box.confirming and "红胜" in view.entry_box.reading.text()
    until_keys_count(qtbot)  # keys typed as the question appears are not its answer
    press(qtbot, Qt.Key.Key_Escape)
    assert results(window)[2] is GameResult.RED_WIN and not view.entry_box.confirming
    assert "未改动" in view.message.text()
    type_keys(qtbot, "3=")
    until_keys_count(qtbot)
    press(qtbot, Qt.Key.Key_Return)  # Enter is the harmless answer: no change
    assert results(window)[2] is GameResult.RED_WIN and not view.entry_box.confirming
    type_keys(qtbot, "3=")
    until_keys_count(qtbot)
    type_keys(qtbot, "y")  # Y changes it
    assert results(window)[2] is GameResult.DRAW
    assert "红胜 → 和" in view.message.text()
    type_keys(qtbot, "3 0")
    until_keys_count(qtbot)
    type_keys(qtbot, "y")
    assert results(window)[2] is GameResult.BLACK_WIN
    type_keys(qtbot, "3 1")
    until_keys_count(qtbot)
    type_keys(qtbot, "4")  # any other key cancels the question and is typed as usual
    assert results(window)[2] is GameResult.BLACK_WIN and view.entry.text() == "4"
    view.entry.clear()
    # Delete on a table row asks too
    view.table.setCurrentIndex(view.model.index(2, RESULT_COLUMN))
    view.table.setFocus()
    press(qtbot, Qt.Key.Key_Delete)
    assert results(window)[2] is GameResult.BLACK_WIN
    assert QApplication.focusWidget() is view.entry and view.entry_box.confirming
    until_keys_count(qtbot)
    press(qtbot, Qt.Key.Key_Y)
    assert results(window)[2] is GameResult.PENDING
    assert window.document is not None
    window.document.undo_stack.undo()
    assert results(window)[2] is GameResult.BLACK_WIN
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    assert results(window)[2] is GameResult.RED_WIN


def test_after_pairing_the_keyboard_is_back_in_the_entry_box(qtbot, window: MainWindow) -> None:
    assert window.document is not None
    db = window.document.db
    enter_results(db, GROUP, 2, [ResultEntry(b, GameResult.DRAW) for b in BOARDS])
    window.document.notify()
    view = rounds_view(qtbot, window)
    qtbot.mouseClick(view.pair_button, Qt.MouseButton.LeftButton)
    assert view.round_number == 3
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.entry)
    type_keys(qtbot, "7 1")  # the space must not press 编排下一轮 again
    assert len(rounds_of(db, GROUP)) == 3
    assert results(window, 3)[6] is GameResult.RED_WIN
    # Tab to the button, Space: the round is paired (or refused) and the keyboard comes back
    view.pair_button.setFocus()
    press(qtbot, Qt.Key.Key_Space)
    assert len(rounds_of(db, GROUP)) == 3  # refused: round 3 is not complete
    assert "未录入" in view.message.text()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.entry)  # once the busy dialog is gone


def test_unknown_board_is_refused_with_a_message(qtbot, window: MainWindow) -> None:
    view = rounds_view(qtbot, window)
    type_keys(qtbot, "99=")
    assert "99" in view.message.text()
    assert view.entry.text() == "99="
    assert all(r.is_pending for r in results(window))
    assert window.document is not None and window.document.undo_stack.count() == 0


def test_earlier_round_tab_and_group_switch(qtbot, window: MainWindow) -> None:
    view = rounds_view(qtbot, window)
    type_keys(qtbot, "99=")
    assert "99" in view.message.text()
    view.tabs.setCurrentIndex(0)
    assert view.round_number == 1
    assert view.model.index(0, RESULT_COLUMN).data() != ""
    window.group_box.setCurrentText("天水本地组")
    assert view.round_number == 2
    assert view.model.rowCount() == 20
    assert window.status_group.text() == "组别：天水本地组"
    assert view.message.text() == ""  # the other group's message does not follow


def test_pairing_model(qtmodeltester, event_file: Path) -> None:
    from app.services.tournaments import open_tournament

    db = open_tournament(event_file)
    model = PairingTableModel()
    model.set_round(round_view(db, GROUP, 1))
    qtmodeltester.check(model)
    assert model.index(0, 2).data(Qt.ItemDataRole.DisplayRole) == round_view(db, GROUP, 1).boards[0].red.name
    db.close()
