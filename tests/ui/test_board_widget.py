"""The board widget: click a piece then a target, refused targets, typed notation, undo, completion."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QWidget

from app.engine.xiangqi import Move
from app.ui.widgets.board import BoardWidget, GameEditor


def click(qtbot, widget: BoardWidget, square_name: str) -> None:
    file, rank = "abcdefghi".index(square_name[0]), int(square_name[1])
    centre = widget.square_center(rank * 9 + file)
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=QPoint(round(centre.x()), round(centre.y())))


def type_text(widget: QWidget, text: str) -> None:
    """Key presses carrying Chinese characters (QTest.keyClicks takes Latin-1 only)."""
    for ch in text:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(
                widget, QKeyEvent(kind, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, ch)
            )


def make_editor(qtbot) -> GameEditor:
    editor = GameEditor()
    qtbot.addWidget(editor)
    editor.resize(800, 600)
    editor.show()
    qtbot.waitExposed(editor)
    return editor


def test_click_piece_then_target_makes_the_move(qtbot) -> None:
    editor = make_editor(qtbot)
    board = editor.board
    click(qtbot, board, "h2")  # Red's right cannon
    assert board.selected == 25
    # g2..c2 (b2 is its own cannon), i2, h3..h6, h9 over the screen on h7 (the horse), h1
    assert sorted(board.targets(25)) == [16, 20, 21, 22, 23, 24, 26, 34, 43, 52, 61, 88]
    click(qtbot, board, "e2")
    assert [m.iccs for m in board.moves] == ["h2e2"]
    assert editor.move_list.item(0).text() == "1. 炮二平五"
    # Black's turn now: a red piece cannot be picked
    click(qtbot, board, "b2")
    assert board.selected is None


def test_illegal_target_is_refused(qtbot) -> None:
    editor = make_editor(qtbot)
    board = editor.board
    click(qtbot, board, "b0")  # Red's left horse
    assert sorted(board.targets(1)) == [18, 20]  # a2, c2
    with qtbot.waitSignal(board.move_refused):
        click(qtbot, board, "b1")  # one step up: not a horse move
    assert board.moves == () and board.selected is None
    assert "不能走到这里" in editor.message.text()


def test_typed_notation_makes_the_move_and_undo_takes_it_back(qtbot) -> None:
    editor = make_editor(qtbot)
    completions = editor.completions.stringList()
    assert len(completions) == 44 and "炮二平五" in completions and "马八进七" in completions
    type_text(editor.entry, "炮二平五")
    assert editor.entry.text() == "炮二平五"
    qtbot.keyClick(editor.entry, Qt.Key.Key_Return)
    assert editor.board.moves == (Move.from_iccs("h2e2"),)
    assert editor.entry.text() == ""
    assert "马８进７" in editor.completions.stringList()
    editor.entry.setText("h9g7")
    assert editor.enter_text()
    editor.entry.setText("H8+7")  # WXF: Red's left horse (file 8) to file 7
    assert editor.enter_text()
    assert editor.board.moves[-1] == Move.from_iccs("b0c2")
    editor.entry.setText("车九进九")
    assert not editor.enter_text()
    assert editor.entry.text() == "车九进九" and "车九进九" in editor.message.text()
    qtbot.mouseClick(editor.undo_button, Qt.MouseButton.LeftButton)
    assert [m.iccs for m in editor.board.moves] == ["h2e2", "h9g7"]
    assert [editor.move_list.item(i).text() for i in range(editor.move_list.count())] == [
        "1. 炮二平五",
        "    马８进７",
    ]
