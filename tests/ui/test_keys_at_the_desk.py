"""No keystroke changes a result without the arbiter meaning it.

Keys are real key events sent to whatever has the focus (``QApplication.focusWidget()``) — or, for
keys typed faster than the screen, *queued* before a question appears and delivered, as Windows
does, to whatever has the focus when they are finally read (:func:`type_ahead`).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent, QKeyEvent
from PySide6.QtWidgets import QApplication, QMenu, QMessageBox, QWidget

from app.engine.types import GameResult
from app.services import hall
from app.services.records import designate_records
from app.services.results import ResultEntry, enter_results
from app.services.rounds import round_view, rounds_of
from app.services.snapshot import export_snapshot
from app.ui.main_window import MainWindow
from app.ui.models.pairings import RESULT_COLUMN
from app.ui.views.rounds import RoundsView
from app.ui.widgets.key_guard import keys_guarded
from tests.ui.questions import until_keys_count, when_asked

OPEN, LOCAL = "公开组", "天水本地组"  # 60 and 20 boards in round 2


def rounds_view(qtbot, window: MainWindow) -> RoundsView:
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.entry)
    return view


def result(window: MainWindow, board: int, group: str = OPEN, number: int = 2) -> GameResult:
    assert window.document is not None
    return next(b.result for b in round_view(window.document.db, group, number).boards if b.board == board)


def entered(window: MainWindow, group: str = OPEN, number: int = 2) -> dict[int, GameResult]:
    assert window.document is not None
    return {
        b.board: b.result
        for b in round_view(window.document.db, group, number).boards
        if not b.result.is_pending
    }


def type_keys(qtbot, text: str) -> None:
    for ch in text:
        qtbot.keyClicks(QApplication.focusWidget(), ch)


def press(qtbot, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(QApplication.focusWidget(), key, modifier)


class _FocusNow(QObject):
    """Receives queued keys and hands each to the widget that has the focus when it is read."""

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QKeyEvent):
            target = QApplication.focusWidget()
            if target is not None:
                QApplication.sendEvent(
                    target, QKeyEvent(event.type(), event.key(), event.modifiers(), event.text())
                )
            return True
        return super().event(event)


_typist = []


def type_ahead(*keys: tuple[Qt.Key, str]) -> None:
    """Queue key presses now (the arbiter is ahead of the screen); they are read later."""
    if not _typist:
        _typist.append(_FocusNow())
    for key, text in keys:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.postEvent(_typist[0], QKeyEvent(kind, key, Qt.KeyboardModifier.NoModifier, text))


RETURN = (Qt.Key.Key_Return, "\r")


def key_of(ch: str) -> tuple[Qt.Key, str]:
    special = {"=": Qt.Key.Key_Equal, " ": Qt.Key.Key_Space, "y": Qt.Key.Key_Y}
    return (special.get(ch) or Qt.Key(ord(ch.upper())), ch)


# --------------------------------------------------------------------------- every key the window advertises


def test_every_key_the_rounds_view_advertises_works_from_the_entry_box(qtbot, window: MainWindow) -> None:
    view = rounds_view(qtbot, window)
    assert view.current_board() == 1
    press(qtbot, Qt.Key.Key_Down)  # ↓ 换台, with the focus in the box
    assert view.current_board() == 2 and QApplication.focusWidget() is view.entry
    press(qtbot, Qt.Key.Key_Down)
    press(qtbot, Qt.Key.Key_Up)
    assert view.current_board() == 2
    press(qtbot, Qt.Key.Key_PageDown)
    assert view.current_board() > 5
    press(qtbot, Qt.Key.Key_PageUp)
    assert view.current_board() == 2
    assert "第 2 台" in view.entry_box.reading.text() or view.entry.text() == ""
    # each result key, alone with Enter, goes to the board under the cursor
    keys = {
        "1": GameResult.RED_WIN,
        "0": GameResult.BLACK_WIN,
        "=": GameResult.DRAW,
        "5": GameResult.DRAW,
        "+": GameResult.BLACK_FORFEIT,
        "-": GameResult.RED_FORFEIT,
        "*": GameResult.DOUBLE_FORFEIT,
    }
    for ch, expected in keys.items():
        board = view.current_board()
        assert board is not None
        type_keys(qtbot, ch)
        press(qtbot, Qt.Key.Key_Return)
        assert result(window, board) is expected, ch
    assert window.document is not None
    stack = window.document.undo_stack
    count = stack.index()
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert stack.index() == count - 1
    press(qtbot, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert stack.index() == count
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert QApplication.focusWidget() is view.entry
    # the table's keys: Delete asks to clear (Esc keeps), the Menu key opens the board's menu
    view.table.setFocus()
    view.table.setCurrentIndex(view.model.index(1, RESULT_COLUMN))
    kept = result(window, 2)
    assert not kept.is_pending
    press(qtbot, Qt.Key.Key_Delete)
    assert view.entry_box.confirming and QApplication.focusWidget() is view.entry
    until_keys_count(qtbot)
    press(qtbot, Qt.Key.Key_Escape)
    assert result(window, 2) is kept
    shown: list[QMenu] = []

    def close_menu(tries: int = 600) -> None:  # once the menu is up (a slow machine shows it late)
        menu = QApplication.activePopupWidget()
        if isinstance(menu, QMenu):
            shown.append(menu)
            menu.close()
        elif tries:
            QTimer.singleShot(50, lambda: close_menu(tries - 1))

    QTimer.singleShot(50, close_menu)
    view.table.setFocus()
    # the Menu key: the platform turns it into a keyboard context-menu event for the focused widget
    index = view.table.currentIndex()
    where = view.table.visualRect(index).center()
    QApplication.sendEvent(
        view.table.viewport(),
        QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, where, view.table.viewport().mapToGlobal(where)),
    )
    qtbot.waitUntil(lambda: bool(shown))
    assert shown[0].findChild(QMenu, "red") is not None
    # every key the line under the box promises was tried above (F4: see 逐台录入 below)
    for key in ("1", "0", "=", "5", "+", "-", "*", "↑↓", "F4", "Ctrl+Z"):
        assert key in view.keys.text()


def test_the_window_shortcuts_in_its_menus_are_live(qtbot, window: MainWindow) -> None:
    """Every shortcut shown in a menu reaches its action with the keyboard in the entry box."""
    view = rounds_view(qtbot, window)
    actions = [
        action
        for menu in window.menuBar().findChildren(QMenu)
        for action in menu.actions()
        if not action.shortcut().isEmpty()
        and action not in (window.undo_action, window.redo_action)
        and action.isEnabled()  # a greyed action takes no key (队伍名单 F6: team competitions only)
    ]
    assert not window.roster_action.isEnabled()  # this event is individual
    assert {a.shortcut().toString() for a in actions} >= {"Ctrl+N", "Ctrl+O", "Ctrl+P"}
    for action in actions:
        fired: list[bool] = []
        action.triggered.disconnect()  # what the action opens (a file dialog …) is tested elsewhere
        action.triggered.connect(lambda _checked=False, fired=fired: fired.append(True))
        sequence = action.shortcut()[0]
        qtbot.keyClick(QApplication.focusWidget(), sequence.key(), sequence.keyboardModifiers())
        assert fired, action.text()
        assert QApplication.focusWidget() is view.entry


# --------------------------------------------------------------------------- the overwrite question


def _local_board_3_red_wins(qtbot, window: MainWindow) -> RoundsView:
    view = rounds_view(qtbot, window)
    window.group_box.setCurrentText(LOCAL)  # 20 boards: "30" reads board 3, black wins
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.entry)
    type_keys(qtbot, "3 1")
    assert result(window, 3, LOCAL) is GameResult.RED_WIN
    return view


@pytest.mark.parametrize("gap", [80, 250])
def test_a_double_enter_does_not_answer_the_overwrite_question(qtbot, window: MainWindow, gap: int) -> None:
    view = _local_board_3_red_wins(qtbot, window)
    type_keys(qtbot, "30")
    press(qtbot, Qt.Key.Key_Return)
    assert view.entry_box.confirming
    qtbot.wait(gap)
    press(qtbot, Qt.Key.Key_Return)  # meant for the next entry, not as the answer
    assert result(window, 3, LOCAL) is GameResult.RED_WIN
    until_keys_count(qtbot)
    press(qtbot, Qt.Key.Key_Return)  # even a late reflex Enter is the harmless answer
    assert result(window, 3, LOCAL) is GameResult.RED_WIN
    assert not view.entry_box.confirming and "未改动" in view.message.text()
    type_keys(qtbot, "30")
    press(qtbot, Qt.Key.Key_Return)
    until_keys_count(qtbot)
    type_keys(qtbot, "y")  # only a deliberate Y changes it
    assert result(window, 3, LOCAL) is GameResult.BLACK_WIN


def test_keys_queued_before_the_question_appears_are_not_its_answer(qtbot, window: MainWindow) -> None:
    view = _local_board_3_red_wins(qtbot, window)
    type_ahead(key_of("3"), key_of("0"), RETURN, key_of("y"), RETURN)  # all typed before any is read
    # read: the question came (with it the guard, in the same call) and its moment of discarded keys,
    # which ends only once every key queued before it has been read, is over
    qtbot.waitUntil(lambda: view.entry_box.confirming and not keys_guarded(), timeout=20_000)
    assert result(window, 3, LOCAL) is GameResult.RED_WIN
    assert view.entry_box.confirming  # still asking: neither the queued Y nor the Enter answered
    press(qtbot, Qt.Key.Key_Escape)
    assert result(window, 3, LOCAL) is GameResult.RED_WIN


def test_the_close_round_question_about_owed_records_defaults_to_no(qtbot, window: MainWindow) -> None:
    assert window.document is not None
    db = window.document.db
    designate_records(db, OPEN, 2, [1, 2])
    enter_results(db, OPEN, 2, [ResultEntry(b, GameResult.RED_WIN) for b in range(1, 61)])
    window.document.notify()
    view = rounds_view(qtbot, window)
    asked: list[str] = []

    def answer_with_enter(box: QWidget) -> None:  # a reflex Enter once the question is there
        assert isinstance(box, QMessageBox)
        asked.append(box.text())
        qtbot.keyClick(QApplication.focusWidget() or box, Qt.Key.Key_Return)

    type_ahead(RETURN, key_of("y"))  # typed before the question shows: not its answer
    left = when_asked(answer_with_enter)
    qtbot.mouseClick(view.close_button, Qt.MouseButton.LeftButton)
    assert left == []
    assert asked and "拒不录谱" in asked[0]
    assert not rounds_of(db, OPEN)[-1].closed
    assert export_snapshot(db)["violations"] == []


# --------------------------------------------------------------------------- 待确认


def _deputy(window: MainWindow, board: int, value: str, name: str = "张副裁判") -> None:
    assert window.document is not None
    issued = hall.issue_deputy_token(window.document.db, OPEN, 1, 20, name)
    hall.submit_deputy_result(window.document.db, issued.token, board, value, "测试手机")
    window.document.notify()


def test_a_deputy_result_that_differs_from_the_recorded_one_asks_and_defaults_to_no(
    qtbot, window: MainWindow
) -> None:
    view = rounds_view(qtbot, window)
    type_keys(qtbot, "6 1")  # the chief's own result
    _deputy(window, 6, "draw")
    qtbot.waitUntil(lambda: view.pending.isVisible())
    assert view.pending.list.topLevelItem(0).text(4) == "冲突"
    asked: list[str] = []

    def answer(key: Qt.Key) -> Callable[[QWidget], None]:
        def act(box: QWidget) -> None:
            assert isinstance(box, QMessageBox)
            asked.append(box.text())
            qtbot.keyClick(QApplication.focusWidget() or box, key)

        return act

    press(qtbot, Qt.Key.Key_F8)
    assert QApplication.focusWidget() is view.pending.list
    left = when_asked(answer(Qt.Key.Key_Return))
    press(qtbot, Qt.Key.Key_Return)
    assert left == []
    assert asked and "红胜" in asked[0] and "和" in asked[0]
    assert result(window, 6) is GameResult.RED_WIN
    assert view.pending.list.topLevelItemCount() == 1  # still waiting
    qtbot.wait(900)  # a moment before the deliberate answer
    view.pending.list.setFocus()
    left = when_asked(answer(Qt.Key.Key_Y))
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: result(window, 6) is GameResult.DRAW)
    assert left == []
    assert len(asked) == 2


def test_enter_enter_in_the_waiting_list_confirms_one_entry(qtbot, window: MainWindow) -> None:
    view = rounds_view(qtbot, window)
    _deputy(window, 7, "red_win")
    _deputy(window, 8, "black_win", "李副裁判")
    qtbot.waitUntil(lambda: view.pending.list.topLevelItemCount() == 2)
    press(qtbot, Qt.Key.Key_F8)
    press(qtbot, Qt.Key.Key_Return)
    qtbot.wait(80)
    press(qtbot, Qt.Key.Key_Return)
    assert entered(window) == {7: GameResult.RED_WIN}
    assert view.pending.list.topLevelItemCount() == 1
    # the read-back says which board of which group, who played, and the result
    text = view.message.text()
    line = round_view(window.document.db, OPEN, 2).boards[6]  # type: ignore[union-attr]
    for part in (OPEN, "第 2 轮", "第 7 台", line.red.name, line.black.name, "红胜"):
        assert part in text, part
    until_keys_count(qtbot)
    press(qtbot, Qt.Key.Key_Return)  # a deliberate Enter later confirms the next
    assert entered(window) == {7: GameResult.RED_WIN, 8: GameResult.BLACK_WIN}


# --------------------------------------------------------------------------- group and round switches


def test_a_half_typed_entry_does_not_follow_a_group_switch(qtbot, window: MainWindow) -> None:
    view = rounds_view(qtbot, window)
    window.group_box.setCurrentText(LOCAL)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.entry)
    type_keys(qtbot, "12")
    window.group_box.setCurrentText(OPEN)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.entry)
    assert view.entry.text() == ""
    type_keys(qtbot, " 1")
    assert entered(window, OPEN) == {} and entered(window, LOCAL) == {}
    view.entry.clear()
    type_keys(qtbot, "5")
    view.tabs.setCurrentIndex(0)  # another round: the entry is dropped too
    assert view.entry.text() == ""
    view.tabs.setCurrentIndex(1)
    type_keys(qtbot, "5 1")
    line = round_view(window.document.db, OPEN, 2).boards[4]  # type: ignore[union-attr]
    for part in (OPEN, "第 2 轮", "第 5 台", line.red.name, line.black.name, "红胜"):
        assert part in view.message.text(), part
    type_keys(qtbot, "6")
    assert OPEN in view.entry_box.reading.text() or "第 6 台" in view.entry_box.reading.text()


# --------------------------------------------------------------------------- 逐台录入


def test_board_by_board_takes_bare_result_keys_for_the_highlighted_boards(qtbot, window: MainWindow) -> None:
    view = rounds_view(qtbot, window)
    for _ in range(6):
        press(qtbot, Qt.Key.Key_Down)
    assert view.current_board() == 7
    press(qtbot, Qt.Key.Key_F4)  # 逐台录入
    assert view.entry_box.by_board and view.by_board_button.isChecked()
    assert "第 7 台" in view.entry_box.reading.text()
    type_keys(qtbot, "10=")  # meant for boards 7, 8, 9 — never "board 10, draw"
    assert entered(window) == {7: GameResult.RED_WIN, 8: GameResult.BLACK_WIN, 9: GameResult.DRAW}
    assert view.current_board() == 10
    for part in (OPEN, "第 2 轮", "第 9 台", "和"):  # the read-back of the last one stored
        assert part in view.message.text(), part
    assert "第 10 台" in view.entry_box.reading.text()  # where the next key goes
    type_keys(qtbot, "2")  # no board numbers in this mode
    assert entered(window) == {7: GameResult.RED_WIN, 8: GameResult.BLACK_WIN, 9: GameResult.DRAW}
    assert "结果键" in view.message.text()
    press(qtbot, Qt.Key.Key_Up)
    press(qtbot, Qt.Key.Key_Up)
    assert view.current_board() == 8
    type_keys(qtbot, "1")  # a board with a result: asked, not changed
    assert result(window, 8) is GameResult.BLACK_WIN and view.entry_box.confirming
    until_keys_count(qtbot)
    press(qtbot, Qt.Key.Key_Escape)
    assert result(window, 8) is GameResult.BLACK_WIN and not view.entry_box.confirming
    press(qtbot, Qt.Key.Key_Escape)  # Esc leaves the mode too (as the line beside the box says)
    assert not view.entry_box.by_board and not view.by_board_button.isChecked()
    press(qtbot, Qt.Key.Key_F4)
    assert view.entry_box.by_board
    press(qtbot, Qt.Key.Key_F4)  # back to typing board numbers
    assert not view.entry_box.by_board
    type_keys(qtbot, "10=")
    assert result(window, 10) is GameResult.DRAW


def test_ctrl_z_after_undoing_a_pairing_brings_it_back_as_the_message_says(qtbot, window: MainWindow) -> None:
    view = rounds_view(qtbot, window)
    assert window.document is not None
    before = [(b.board, b.red.no, b.black.no) for b in round_view(window.document.db, OPEN, 2).boards]
    qtbot.mouseClick(view.unpair_button, Qt.MouseButton.LeftButton)
    assert len(rounds_of(window.document.db, OPEN)) == 1 and "Ctrl+Z" in view.message.text()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.entry)
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(rounds_of(window.document.db, OPEN)) == 2
    assert [(b.board, b.red.no, b.black.no) for b in round_view(window.document.db, OPEN, 2).boards] == before
    assert "已撤销" in view.message.text()
